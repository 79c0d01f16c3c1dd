"""The runs a page shows, read from a JSONL trace or a session export."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping


@dataclass
class RunView:
    """One agent run: its mission, turns (Turn.to_json records) and outcome."""

    run_id: str
    mission: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None  # run_finished data: ok, value, error, usage, duration
    system_prompt: str = ""
    max_turns: int = 0
    strategy: str = ""
    requests: dict[int, list[dict[str, str]]] = field(default_factory=dict)  # turn -> the messages sent

    def _repr_html_(self) -> str:
        from .display import run_view_html

        return run_view_html(self)


def runs_from_trace(records: Iterable[Mapping[str, Any]]) -> list[RunView]:
    """The runs a trace holds, in order (a trace file written to twice holds several)."""
    runs: dict[str, RunView] = {}
    for r in records:
        rid = str(r.get("run_id", ""))
        run = runs.get(rid)
        if run is None:
            run = runs[rid] = RunView(run_id=rid, mission="")
        kind = r.get("type")
        if kind == "run_started":
            run.mission = str(r.get("mission", ""))
            run.system_prompt = str(r.get("system_prompt") or "")
            run.max_turns = int(r.get("max_turns") or 0)
            run.strategy = str(r.get("strategy") or "")
        elif kind == "llm_request" and isinstance(r.get("messages"), list):
            run.requests[int(r.get("turn") or 0)] = list(r["messages"])
        elif kind == "turn_finished" and isinstance(r.get("record"), dict):
            run.turns.append(dict(r["record"]))
        elif kind == "run_finished":
            run.outcome = {k: r.get(k) for k in ("ok", "value", "error", "usage", "duration")}
    return [run for run in runs.values() if run.mission or run.turns]


def load_trace(path: str | Path) -> list[RunView]:
    """The runs of a JSONL trace file (each displays itself in Jupyter)."""
    from ..agent.trace import read_trace

    return runs_from_trace(read_trace(path))


def runs_from_export(lines: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Any], list[RunView], list[dict[str, Any]]]:
    """(session, runs, messages) from `Store.export_jsonl` records."""
    session: dict[str, Any] = {}
    runs: list[RunView] = []
    messages: list[dict[str, Any]] = []
    for rec in lines:
        kind = rec.get("kind")
        if kind == "session":
            session = dict(rec)
        elif kind == "message":
            messages.append(dict(rec))
        elif kind == "run":
            meta = rec.get("meta") or {}
            runs.append(RunView(run_id=str(rec.get("id", "")), mission=str(rec.get("mission", "")),
                                turns=[dict(t) for t in rec.get("turns") or ()], outcome=rec.get("outcome"),
                                max_turns=int(meta.get("max_turns") or 0), strategy=str(meta.get("strategy") or "")))
    return session, runs, messages
