"""Runs paused at a tool call and resumed by replay (ptc.interpreter.pause): approvals,
answers, a tool that answers later, divergence, inputs the record cannot keep, limits."""

from __future__ import annotations

import json

import pytest

import ptc
from ptc import Answer, PausedRun

CALLS: list[tuple[str, int]] = []


@ptc.tool(approval=lambda args: args["amount"] > 100)
def refund(order: str, amount: int) -> dict:
    "Refund an order."
    CALLS.append((order, amount))
    return {"order": order, "refunded": amount}


@ptc.tool
def orders() -> list:
    "Open orders."
    return [{"id": "a", "total": 40}, {"id": "b", "total": 900}, {"id": "c", "total": 70}]


TOOLS = [orders, refund]
PROGRAM = """(def os (tool/orders))
(println "drew" (rand-int 1000))
(let [done (mapv (fn [o] (try (tool/refund {:order (:id o) :amount (:total o)})
                            (catch Exception e {:order (:id o) :error (:message e)})))
                 os)]
  {:done done :draw (rand-int 1000) :day (str (LocalDate/now))})"""


@pytest.fixture(autouse=True)
def _calls():
    CALLS.clear()


def paused(source: str = PROGRAM, **kw):
    r = ptc.run(source, tools=TOOLS, **kw)
    assert r.paused is not None, r
    return r


def test_a_call_that_needs_approval_pauses_there():
    r = paused()
    assert (r.pending.tool, r.pending.args, r.pending.index) == ("refund", {"order": "b", "amount": 900}, 2)
    assert (r.pending.line, r.pending.column, r.pending.reason) == (3, 31, "approval")
    assert r.pending.approval and "tool/refund" in str(r.pending) and "at 3:31" in str(r.pending)
    assert r.value is None and r.prints[0].startswith("drew ") and CALLS == [("a", 40)]
    assert [c.name for c in r.tool_calls] == ["orders", "refund"]
    assert r.paused.limits.seed is not None and r.paused.limits.clock is not None  # what the replay needs


def test_approved_gives_what_the_uninterrupted_run_gives():
    r = paused()
    resumed = r.paused.resume(Answer.approve(), tools=TOOLS)
    whole = ptc.run(PROGRAM, tools=[orders, refund.replace(approval=False)], limits=r.paused.limits)
    assert resumed.paused is None
    assert resumed.value == whole.value and resumed.prints == whole.prints and resumed.steps == whole.steps
    assert [c.to_dict()["args"] for c in resumed.tool_calls] == [c.to_dict()["args"] for c in whole.tool_calls]
    assert CALLS == [("a", 40), ("b", 900), ("c", 70)] * 2  # paused, resumed (the replay called none), whole


def test_rejected_is_a_tool_error_the_program_catches():
    resumed = paused().paused.resume(Answer.reject("over budget"), tools=TOOLS)
    done = ptc.to_python(resumed.value)["done"]
    assert done[1] == {"order": "b", "error": "tool/refund was rejected: over budget"}
    assert done[2] == {"order": "c", "refunded": 70}
    assert resumed.tool_calls[2].error == "tool/refund was rejected: over budget"


def test_rejected_and_not_caught_fails_the_program_at_the_call():
    r = ptc.run('(tool/refund {:order "x" :amount 500})', tools=TOOLS)
    with pytest.raises(ptc.PTCError) as e:
        r.paused.resume(Answer.reject(), tools=TOOLS)
    assert e.value.kind == "tool" and e.value.message == "tool/refund was rejected" and e.value.line == 1


def test_edited_arguments_reach_the_tool_and_the_replay_still_matches():
    first = paused().paused.resume(Answer.approve({"order": "b", "amount": 90}), tools=TOOLS)
    assert ptc.to_python(first.value)["done"][1] == {"order": "b", "refunded": 90}
    assert ptc.to_python(first.tool_calls[2].args) == {"order": "b", "amount": 90}


def test_a_second_approval_pauses_the_resumed_run_again():
    src = '[(tool/refund {:order "x" :amount 200}) (tool/refund {:order "y" :amount 300})]'
    r = ptc.run(src, tools=TOOLS)
    again = r.paused.resume(Answer.approve(), tools=TOOLS)
    assert again.pending.args == {"order": "y", "amount": 300} and again.pending.index == 1
    assert again.paused.calls[0].result == {"order": "x", "refunded": 200}
    done = PausedRun.from_json(again.paused.to_json()).resume(Answer.approve(), tools=TOOLS)
    assert ptc.to_python(done.value) == [{"order": "x", "refunded": 200}, {"order": "y", "refunded": 300}]
    assert CALLS == [("x", 200), ("y", 300)]


def test_a_tool_that_answers_later():
    @ptc.tool
    def ask(question: str) -> str:
        "Ask a person; the answer comes later."
        raise ptc.Pause("waiting for a person")

    r = ptc.run('(str "answer: " (tool/ask {:question "why?"}))', tools=[ask])
    assert r.pending.reason == "waiting for a person" and not r.pending.approval
    assert r.paused.resume(Answer.respond("because"), tools=[ask]).value == "answer: because"


def test_try_and_finally_do_not_see_the_pause():
    src = '(try (tool/refund {:order "x" :amount 500}) (catch Exception e :caught) (finally (println "cleanup")))'
    r = ptc.run(src, tools=TOOLS)
    assert r.paused is not None and r.prints == ()
    assert r.paused.resume(Answer.reject(), tools=TOOLS).prints == ("cleanup",)


def test_a_divergent_replay_fails_clearly():
    r = paused()
    changed = PausedRun.from_json(r.paused.to_json().replace("(:total o)", "(inc (:total o))"))
    with pytest.raises(ptc.PTCError) as e:
        changed.resume(Answer.approve(), tools=TOOLS)
    assert e.value.kind == "resume" and e.value.line == 3
    assert 'call #2 is tool/refund {"order": "a", "amount": 41}, where the paused run called tool/refund ' \
           '{"order": "a", "amount": 40}' in e.value.message
    assert "same program with the same inputs" in e.value.hint
    other = PausedRun.from_json(r.paused.to_json().replace('"seed": ', '"seed": 1'))  # other draws, same calls
    assert other.resume(Answer.approve(), tools=TOOLS).value != \
        r.paused.resume(Answer.approve(), tools=TOOLS).value


def test_inputs_are_kept_when_they_are_json_and_asked_for_otherwise():
    src = "(tool/refund {:order (:id data/order) :amount (f 500)})"
    r = ptc.run(src, tools=TOOLS, data={"order": {"id": "q"}}, memory={"f": ptc.run("(fn [x] x)").value})
    assert r.paused.data == {"order": {"id": "q"}} and r.paused.memory is None
    with pytest.raises(ptc.PTCError, match="memory was not kept") as e:
        r.paused.resume(Answer.approve(), tools=TOOLS)
    assert e.value.kind == "resume" and "pass memory=" in e.value.hint
    f = ptc.run("(fn [x] x)").value
    assert r.paused.resume(Answer.approve(), tools=TOOLS, memory={"f": f}).value == \
        ptc.run("{:order \"q\" :refunded 500}").value


def test_the_record_is_json():
    r = paused(data={"when": "2026-01-02"})
    record = json.loads(r.paused.to_json())
    assert record["pending"]["tool"] == "refund" and record["data"] == {"when": "2026-01-02"}
    assert PausedRun.from_json(r.paused.to_json()) == r.paused
    with pytest.raises(ptc.PTCError, match="not a paused run") as e:
        PausedRun.from_json('{"source": 1}')
    assert e.value.kind == "resume"
    with pytest.raises(TypeError, match="ptc.Answer"):
        r.paused.resume("yes", tools=TOOLS)


def test_replayed_calls_count_against_max_tool_calls():
    src = '[(tool/orders) (tool/orders) (tool/refund {:order "x" :amount 500}) (tool/orders)]'
    r = ptc.run(src, tools=TOOLS, limits=ptc.Limits(max_tool_calls=3))
    with pytest.raises(ptc.PTCError) as e:
        r.paused.resume(Answer.approve(), tools=TOOLS)
    assert e.value.kind == "limit" and "max_tool_calls=3" in e.value.message


def test_steps_count_the_program_once():
    loop = "(loop [i 0] (if (< i 3000) (recur (inc i)) i))"
    src = f'(do {loop} (tool/refund {{:order "x" :amount 500}}) {loop})'
    whole = ptc.run(src, tools=[orders, refund.replace(approval=False)])
    assert whole.steps >= 6000
    assert ptc.run(src, tools=TOOLS).paused.resume(Answer.approve(), tools=TOOLS).steps == whole.steps
    limits = ptc.Limits(max_steps=5000)  # the part before the pause fits; replayed, with the rest, it does not
    r = ptc.run(src, tools=TOOLS, limits=limits)
    with pytest.raises(ptc.PTCError, match="max_steps=5000"):
        r.paused.resume(Answer.approve(), tools=TOOLS)


def test_a_policy_that_fails_asks_and_arguments_that_do_not_bind_do_not():
    def broken(args):
        raise RuntimeError("no")

    t = refund.replace(approval=broken)
    assert ptc.run('(tool/refund {:order "x" :amount 1})', tools=[t]).paused is not None
    with pytest.raises(ptc.PTCError, match="parameter amount"):
        ptc.run('(tool/refund {:order "x" :amount "lots"})', tools=[t])
    with pytest.raises(TypeError, match="approval="):
        ptc.tool(lambda: 1, approval="yes")


def test_process_isolation_refuses_to_skip_an_approval():
    with pytest.raises(ptc.PTCError, match="requires approval, which isolation='process' does not support") as e:
        ptc.run('(tool/refund {:order "x" :amount 500})', tools=TOOLS, limits=ptc.Limits(isolation="process"))
    assert e.value.kind == "tool" and CALLS == []


def test_the_docs_example_prints_what_the_docs_say(capsys):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "approvals.md").read_text()
    example, shown = re.search(r"```python\n(.*?)```\n\nprints\n\n```\n(.*?)```", text, re.S).groups()
    exec(compile(example, "docs/approvals.md", "exec"), {"__name__": "docs_example"})
    assert capsys.readouterr().out == shown
