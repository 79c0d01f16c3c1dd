"""Agent-loop overhead per turn, excluding the LLM and the program.

A 5-turn run with 5 tools: the model is an instant callable returning pre-built replies
(no token counting), so what remains of the wall time after subtracting the programs'
own run time is ptc's loop: prompt rendering, turn records, events, signature checks.

    python bench/agent_loop.py [--runs 200] [--compression]
"""

from __future__ import annotations

import argparse
import statistics
import time

import ptc
from ptc.llm.base import Reply, Usage

REPLIES = [
    "Look first.\n```clojure\n(def people (tool/list-people))\n(println (count people))\n```",
    "```clojure\n(def ages (map :age people))\n(println (take 3 ages))\n```",
    '```clojure\n(tool/notify {:to "ops" :text "counting"})\n(def total (reduce + ages))\n```',
    "```clojure\n(def avg (/ total (count ages)))\n(tool/log-value {:v avg})\n```",
    "```clojure\n(return {:total total :avg avg})\n```",
]


def make_tools() -> list[object]:
    people = [{"name": f"p{i}", "age": 20 + i % 40} for i in range(50)]

    def list_people() -> list[dict]:
        """All people."""
        return people

    def notify(to: str, text: str) -> None:
        """Send a notification."""

    def log_value(v: float) -> None:
        """Log a value."""

    def get_person(name: str) -> dict | None:
        """One person by name."""
        return next((p for p in people if p["name"] == name), None)

    def count_people() -> int:
        """How many people there are."""
        return len(people)

    return [list_people, notify, log_value, get_person, count_people]


def one_run(compression: bool) -> tuple[float, float, int]:
    replies = iter(REPLIES)

    def llm(messages: list[dict[str, str]]) -> Reply:
        return Reply(text=next(replies), usage=Usage(prompt_tokens=1, completion_tokens=1, calls=1))

    agent = ptc.Agent("Sum and average the ages", tools=make_tools(), llm=llm, max_turns=5,
                      compression=compression, signature="{total :int, avg :float}")
    t0 = time.perf_counter()
    step = agent.run()
    wall = time.perf_counter() - t0
    assert step.ok, step.error
    programs = sum(t.duration for t in step.turns)
    return wall, programs, len(step.turns)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--compression", action="store_true")
    args = ap.parse_args()
    for _ in range(10):  # warm caches (compiled programs, prompt reference)
        one_run(args.compression)
    overheads, walls = [], []
    for _ in range(args.runs):
        wall, programs, turns = one_run(args.compression)
        walls.append(wall / turns)
        overheads.append((wall - programs) / turns)
    med = statistics.median(overheads) * 1e3
    print(f"agent loop, 5 turns, 5 tools, compression={'on' if args.compression else 'off'}, {args.runs} runs")
    print(f"  per turn: wall {statistics.median(walls) * 1e3:.3f} ms, "
          f"overhead excluding LLM and program {med:.3f} ms (median; p90 "
          f"{sorted(overheads)[int(len(overheads) * 0.9)] * 1e3:.3f} ms)")
    print(f"  target: < 2 ms per turn -> {'ok' if med < 2 else 'ABOVE TARGET'}")


if __name__ == "__main__":
    main()
