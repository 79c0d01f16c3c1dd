"""The mistake corpus run the way an agent's feedback is made: each wrong program is a scripted
model's first reply, and what the model would read next (its second request's last message,
FullHistory) must name the entry's fix.

`python tests/mistakes/share.py` prints the share by class (the table in docs/mistakes.md).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

import ptc

CORPUS = Path(__file__).with_name("corpus.yaml")
MISSION = "Answer questions about the orders and customers."
DATA = {
    "orders": [
        {"id": 1, "status": "paid", "amount": 120.5, "customer": "acme", "unit-price": 10, "discount": None},
        {"id": 2, "status": "open", "amount": 30.0, "customer": "globex", "unit-price": 3, "discount": None},
        {"id": 3, "status": "shipped", "amount": 75.25, "customer": "acme", "unit-price": 7, "discount": None},
    ],
    "customers": [
        {"name": "acme", "tier": "gold", "vip": True, "zip": "12345"},
        {"name": "globex", "tier": "silver", "vip": False, "zip": "54321"},
    ],
}


def search(query: str, limit: int = 5) -> list[dict[str, Any]]:
    """Search the catalog by text."""
    return [{"id": 7, "title": f"result for {query}"}][:limit]


def get_order(id: int) -> dict[str, Any]:  # noqa: A002 - the tool's parameter is called id
    """One order by id."""
    return next((o for o in DATA["orders"] if o["id"] == id), {})


TOOLS = [search, get_order]


@dataclass(frozen=True)
class Entry:
    number: int
    cls: str
    reply: str
    fixes: tuple[str, ...]
    fixed: str | None
    gap: str | None

    @property
    def label(self) -> str:
        return f"{self.number:03d}-{self.cls}"


def load() -> list[Entry]:
    entries = []
    for i, raw in enumerate(yaml.safe_load(CORPUS.read_text(encoding="utf-8")), 1):
        reply = raw["reply"] if "reply" in raw else f"```clojure\n{raw['program']}\n```"
        fix = raw["fix"]
        entries.append(Entry(i, raw["class"], reply, tuple(fix) if isinstance(fix, list) else (fix,),
                             raw.get("fixed"), raw.get("gap")))
    return entries


def agent(replies: list[str], **options: Any) -> tuple[ptc.Agent, ptc.ScriptedLLM]:
    llm = ptc.ScriptedLLM(replies)
    return ptc.Agent(MISSION, tools=TOOLS, data=DATA, llm=llm, max_turns=3, **options), llm


@functools.cache
def feedback_for(entry: Entry) -> str:
    """What the model reads after sending the entry's reply (a pure function of the entry)."""
    a, llm = agent([entry.reply, "```clojure\n(return :done)\n```"])
    a.run()
    return llm.requests[1][-1]["content"] if len(llm.requests) > 1 else "(the run ended on this reply)"


def named(entry: Entry, text: str) -> bool:
    return all(fix in text for fix in entry.fixes)


def shares(entries: list[Entry]) -> dict[str, tuple[int, int]]:
    """class -> (programs, programs whose feedback names the fix), in corpus order."""
    total: Counter[str] = Counter()
    ok: Counter[str] = Counter()
    for e in entries:
        total[e.cls] += 1
        ok[e.cls] += named(e, feedback_for(e))
    return {c: (total[c], ok[c]) for c in total}


def table(by_class: dict[str, tuple[int, int]]) -> str:
    """The markdown table of docs/mistakes.md."""
    lines = ["| class | programs | fix named | share |", "|---|---:|---:|---:|"]
    for c, (n, k) in by_class.items():
        lines.append(f"| {c} | {n} | {k} | {100 * k / n:.0f}% |")
    n = sum(t for t, _ in by_class.values())
    k = sum(o for _, o in by_class.values())
    lines.append(f"| **all** | **{n}** | **{k}** | **{100 * k / n:.1f}%** |")
    return "\n".join(lines)
