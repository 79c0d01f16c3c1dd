"""Committed cassettes of the example scenarios, so `ptc demo` runs offline.

A cassette holds every request the agent sent and the reply it got. The replies are the
scenario's scripted replies (written for the demo, not produced by a model); replaying
checks that ptc still sends exactly the same prompts. `ptc demo --model M` sends the same
mission to a real model instead. After a change to the prompt (e.g. a new library function), re-record with

    python -m ptc.examples.cassettes

(and the bundled suite's with `python -m ptc.suite.bundled`, the MCP example's with
`python examples/mcp/record.py`).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def cassette_path(name: str) -> Path:
    return HERE / f"{name}.jsonl"


def record(name: str) -> Path:
    """Re-record one scenario's cassette from its scripted replies."""
    from ...llm.cassette import RecordingLLM
    from ...scenarios.demo import get
    from ..tools import Outbox

    scenario = get(name)
    path = cassette_path(name)
    if path.exists():
        path.unlink()
    llm = RecordingLLM(scenario.scripted_llm(), path)
    outbox = Outbox() if scenario.uses_outbox else None
    step = scenario.agent(llm, outbox=outbox).run()
    problems = scenario.check(step, outbox)
    if problems:
        raise RuntimeError(f"scenario {name} did not reach its answer while recording: {problems}")
    return path


# docs/data.md's one-liner: an agent answering a question over the shipped orders.csv
#   ptc agent "<CSV_MISSION>" --data ptc/examples/data/orders.csv --replay ptc/examples/cassettes/orders-csv.jsonl
CSV_MISSION = "Which region has the most delivered revenue (quantity times unit price)?"
CSV_REPLY = """\
I'll keep the delivered orders, sum quantity times unit price per region and return the top region.

```clojure
(->> data/orders
     (filter #(= "delivered" (:status %)))
     (group-by :region)
     (map (fn [[region rows]]
            {:region region
             :revenue (/ (Math/round (* 100.0 (sum-by #(* (:quantity %) (:unit_price %)) rows))) 100.0)}))
     (sort-by :revenue >)
     first
     return)
```"""


def record_orders_csv() -> Path:
    """Re-record the CSV one-liner's cassette: the same Agent `ptc agent ... --data orders.csv` builds."""
    import ptc

    from ...llm.cassette import RecordingLLM
    from ..datasets import data_file

    path = cassette_path("orders-csv")
    if path.exists():
        path.unlink()
    data = ptc.read_data(str(data_file("orders.csv")))
    llm = RecordingLLM(ptc.ScriptedLLM([CSV_REPLY]), path)
    step = ptc.Agent(CSV_MISSION, tools=[], data=data, llm=llm, max_turns=5, compression="none",
                     prompt="default").run()
    if not step.ok or step.value.get("region") != "east":  # type: ignore[union-attr]
        raise RuntimeError(f"the CSV mission did not reach its answer while recording: {step.value!r}")
    return path


def record_all() -> list[Path]:
    from ...scenarios.demo import SCENARIOS

    return [record(name) for name in SCENARIOS] + [record_orders_csv()]


if __name__ == "__main__":
    for p in record_all():
        print(f"recorded {p}")
