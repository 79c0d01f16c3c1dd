"""A process that runs the refund program until it pauses and keeps it in a store, or one
that resumes it from there (tests/store/test_paused_runs.py):

    python pauser.py pause URL KEY           prints the pending call as JSON
    python pauser.py resume URL KEY ANSWER   ANSWER: approve | reject; prints the value as JSON
    python pauser.py whole                   the same program uninterrupted; prints the value
"""

from __future__ import annotations

import json
import sys

import ptc
from ptc.store import Store

PROGRAM = """
(def orders (tool/orders))
(def picked (shuffle (map :id orders)))
(println "at" (System/currentTimeMillis))
(let [refunds (for [id picked]
                (try (tool/refund {:order id :amount (get data/totals (keyword id))})
                     (catch Exception e {:order id :error (:message e)})))]
  {:refunds (vec refunds) :draw (rand-int 1000000) :now (System/currentTimeMillis)})
"""
TOTALS = {"a": 20, "b": 500, "c": 30}


@ptc.tool
def orders() -> list:
    "The open orders."
    return [{"id": k} for k in sorted(TOTALS)]


@ptc.tool(approval=lambda args: args["amount"] > 100)
def refund(order: str, amount: int) -> dict:
    "Refund an order; over 100 needs a person's approval."
    return {"order": order, "refunded": amount}


TOOLS = [orders, refund]


def main(argv: list[str]) -> None:
    if argv[0] == "whole":
        seed, clock = json.loads(argv[1])
        limits = ptc.Limits(seed=seed, clock=clock)
        r = ptc.run(PROGRAM, tools=[orders, refund.replace(approval=False)], data={"totals": TOTALS}, limits=limits)
        print(json.dumps({"value": ptc.to_python(r.value), "prints": list(r.prints)}))
        return
    url, key = argv[1], argv[2]
    with Store(url) as store:
        if argv[0] == "pause":
            r = ptc.run(PROGRAM, tools=TOOLS, data={"totals": TOTALS})
            store.save_paused(r.paused, key)
            p = r.pending
            print(json.dumps({"tool": p.tool, "args": p.args, "line": p.line, "column": p.column,
                              "seed": r.paused.limits.seed, "clock": r.paused.limits.clock.isoformat()}))
        else:
            paused = store.load_paused(key)
            answer = ptc.Answer.approve() if argv[3] == "approve" else ptc.Answer.reject("not today")
            r = paused.resume(answer, tools=TOOLS)
            print(json.dumps({"value": ptc.to_python(r.value), "prints": list(r.prints)}))


if __name__ == "__main__":
    main(sys.argv[1:])
