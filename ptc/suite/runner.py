"""Run a suite: every mission x model x compression strategy x run, with bounded concurrency.

    from ptc.suite import load_suite, run_suite
    suite = load_suite("ptc/suite/bundled/suite.yaml")
    summary = run_suite(suite, models=["scripted"], strategies=["none", "coalesced"],
                        replay="ptc/suite/bundled/cassettes", results="results.jsonl")

Each finished execution appends one JSON line to the results file (flushed at once) and, when
a store is given, a run (with its turns and outcome) to the suite's session. Re-running with
the same results file skips the executions already recorded there (keyed by suite, mission,
model, strategy and run), so an interrupted suite resumes where it stopped.

Executors: "local" (asyncio, a semaphore around `Agent.arun()`, programs in threads) or
"ray" (`ptc.suite.ray_executor`, each execution a Ray task; same records).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..llm.cassette import repair_tail
from .execute import (
    SCRIPTED, ExecSpec, Outcome, aexecute, cassette_name, make_spec, record_key, replay_cassette, strategy_name,
)
from .spec import Suite, SuiteError

OnDone = Callable[[Outcome], None]


class PlanError(ValueError):
    """The requested executions cannot run (missing cassettes or scripts, bad options)."""


@dataclass
class RunSummary:
    """What `run_suite` did: planned, skipped (already in the results file), ran, passed."""

    planned: int = 0
    skipped: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)  # the new ones, in completion order
    session_id: str | None = None
    results_path: str | None = None
    store_errors: list[str] = field(default_factory=list)

    @property
    def ran(self) -> int:
        return len(self.records)

    @property
    def passed(self) -> int:
        return sum(1 for r in self.records if r.get("passed"))


# -- results file -----------------------------------------------------------------------------


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records in a results file (malformed lines, e.g. a truncated last one, skipped)."""
    p = Path(path)
    if not p.exists():
        return []
    out = []
    with open(p, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and all(k in rec for k in ("suite", "mission", "model", "strategy", "run")):
                out.append(rec)
    return out


class ResultSink:
    """Where finished executions go: the JSONL file (append + flush), the store, cassettes."""

    def __init__(self, results: str | os.PathLike[str] | None, *, store: Any = None, session_id: str | None = None,
                 record_dir: str | os.PathLike[str] | None = None, prompts: dict[str, str] | None = None) -> None:
        self.prompts = dict(prompts or {})
        self.path = Path(results) if results is not None else None
        self.store = store
        self.session_id = session_id
        self.record_dir = Path(record_dir) if record_dir is not None else None
        self.store_errors: list[str] = []
        self._lock = threading.Lock()
        self._fh = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            repair_tail(self.path)
            self._fh = open(self.path, "a", encoding="utf-8")
        if self.record_dir is not None:
            self.record_dir.mkdir(parents=True, exist_ok=True)

    def __call__(self, outcome: Outcome) -> None:
        with self._lock:
            rec = outcome.record
            if self.record_dir is not None and outcome.cassette_text is not None:
                target = self.record_dir / cassette_name(rec["mission"], rec["model"], rec["strategy"], rec["run"])
                tmp = target.with_suffix(".jsonl.tmp")
                tmp.write_text(outcome.cassette_text, encoding="utf-8")
                os.replace(tmp, target)
            if self.store is not None and self.session_id is not None:
                self._to_store(outcome)
            if self._fh is not None:
                self._fh.write(json.dumps(rec, ensure_ascii=False, default=repr) + "\n")
                self._fh.flush()

    def _to_store(self, outcome: Outcome) -> None:
        rec = outcome.record
        try:
            run_id = self.store.start_run(
                self.prompts.get(rec["mission"]) or rec["mission"], run_id=rec.get("run_id") or None,
                session_id=self.session_id,
                meta={k: rec[k] for k in ("suite", "mission", "model", "strategy", "run", "executor") if k in rec})
            for turn in outcome.turns:
                self.store.save_turn(run_id, turn)
            self.store.finish_run(run_id, bool(rec.get("passed")), outcome=rec, usage=rec)  # usage fields at top level
            if not rec.get("run_id"):
                rec["run_id"] = run_id
        except Exception as e:  # noqa: BLE001 - the JSONL file stays the record of truth
            self.store_errors.append(f"{rec['mission']}/{rec['model']}/{rec['strategy']}/{rec['run']}: "
                                     f"{type(e).__name__}: {e}")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


# -- planning ---------------------------------------------------------------------------------


def plan(suite: Suite, *, models: Sequence[str], strategies: Sequence[str], runs: int = 1,
         replay: str | os.PathLike[str] | None = None, record: str | os.PathLike[str] | None = None,
         missions: Sequence[str] | None = None, executor: str = "local", api_base: str | None = None,
         api_key: str | None = None) -> list[ExecSpec]:
    """Every (mission, model, strategy, run) to execute, in a stable order. Raises PlanError
    when a cassette (replay) or a script (the scripted model) is missing. `api_base` (else
    the suite's) and `api_key` say where the litellm models are served."""
    if replay is not None and record is not None:
        raise PlanError("--replay and --record exclude each other")
    if runs < 1:
        raise PlanError("runs must be at least 1")
    if not models:
        raise PlanError("give at least one model")
    try:
        strategies = list(dict.fromkeys(strategy_name(s) for s in strategies))
    except ValueError as e:
        raise PlanError(str(e)) from None
    if not strategies:
        raise PlanError("give at least one compression strategy")
    chosen = list(suite.missions)
    if missions:
        known = {m.id for m in suite.missions}
        unknown = [m for m in missions if m not in known]
        if unknown:
            raise PlanError(f"no mission(s) {', '.join(unknown)} in suite {suite.name!r}")
        chosen = [m for m in suite.missions if m.id in set(missions)]
    specs: list[ExecSpec] = []
    problems: list[str] = []
    for m in chosen:
        for model in models:
            if replay is None and model == SCRIPTED and not m.script:
                problems.append(f"mission {m.id!r} has no script for the scripted model")
                continue
            for strategy in strategies:
                for run in range(runs):
                    path = None
                    if replay is not None:
                        found = replay_cassette(replay, m.id, model, strategy, run)
                        if found is None:
                            problems.append(f"no cassette {Path(replay) / cassette_name(m.id, model, strategy)}")
                            continue
                        path = str(found)
                    served = {} if model == SCRIPTED else {"api_base": api_base or suite.api_base,
                                                           "api_key": api_key}
                    specs.append(make_spec(suite, m, model, strategy, run, replay_path=path,
                                           record=record is not None, executor=executor, **served))
    if problems:
        problems = list(dict.fromkeys(problems))
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        hint = "\n(record cassettes with --record DIR)" if replay is not None else ""
        raise PlanError(f"{len(problems)} execution(s) cannot run:\n  " + "\n  ".join(problems[:20]) + more + hint)
    return specs


def pending(specs: Iterable[ExecSpec], done: Iterable[dict[str, Any]], *, retry_errors: bool = False) -> list[ExecSpec]:
    """The specs not yet recorded (with retry_errors: also those that ended in an LLM or
    infrastructure error, which say nothing about the mission)."""
    latest: dict[tuple[Any, ...], dict[str, Any]] = {}
    for rec in done:
        latest[record_key(rec)] = rec
    out = []
    for s in specs:
        rec = latest.get(s.key)
        if rec is None or (retry_errors and rec.get("error_kind") in ("llm", "exception")):
            out.append(s)
    return out


# -- executors --------------------------------------------------------------------------------


async def run_local(specs: Sequence[ExecSpec], on_done: OnDone, *, concurrency: int = 4) -> None:
    """At most `concurrency` executions at a time; `on_done` is called as each finishes."""
    sem = asyncio.Semaphore(max(1, concurrency))
    loop = asyncio.get_running_loop()
    # programs, prompt building and judging run in threads: give the pool room for them all
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=max(4, min(64, concurrency * 2)), thread_name_prefix="ptc-suite")
    loop.set_default_executor(pool)

    async def one(spec: ExecSpec) -> Outcome:
        async with sem:
            return await aexecute(spec)

    tasks = [asyncio.ensure_future(one(s)) for s in specs]
    try:
        for fut in asyncio.as_completed(tasks):
            on_done(await fut)
    finally:
        for t in tasks:
            t.cancel()


def execute_all(specs: Sequence[ExecSpec], on_done: OnDone, *, concurrency: int = 4, executor: str = "local",
                ray_address: str | None = None, ray_options: dict[str, Any] | None = None) -> None:
    if executor == "local":
        asyncio.run(run_local(specs, on_done, concurrency=concurrency))
    elif executor == "ray":
        from .ray_executor import run_ray

        run_ray(specs, on_done, concurrency=concurrency, address=ray_address, **(ray_options or {}))
    else:
        raise PlanError(f"unknown executor {executor!r}: use local or ray")


# -- the whole thing ---------------------------------------------------------------------------


def open_store(url: str | None) -> Any:
    from ptc.store import Store

    return Store(url)


def run_suite(suite: Suite, *, models: Sequence[str] = (SCRIPTED,), strategies: Sequence[str] = ("none",),
              runs: int = 1, concurrency: int = 4, replay: str | os.PathLike[str] | None = None,
              record: str | os.PathLike[str] | None = None, results: str | os.PathLike[str] | None = None,
              missions: Sequence[str] | None = None, executor: str = "local", ray_address: str | None = None,
              ray_options: dict[str, Any] | None = None, store: Any = None, retry_errors: bool = False,
              progress: Callable[[int, int], Any] | None = None,
              on_result: Callable[[dict[str, Any]], Any] | None = None, api_base: str | None = None,
              api_key: str | None = None) -> RunSummary:
    """Run (the rest of) a suite; see the module docstring. `store`: a `ptc.store.Store` (a
    session is created for this suite run) or None. `progress(total, skipped)` is called
    once before starting and may return a callback taking each finished record."""
    specs = plan(suite, models=models, strategies=strategies, runs=runs, replay=replay, record=record,
                 missions=missions, executor=executor, api_base=api_base, api_key=api_key)
    done = read_results(results) if results is not None else []
    todo = pending(specs, done, retry_errors=retry_errors)
    if store is None:
        from dataclasses import replace

        todo = [replace(s, want_turns=False) for s in todo]
    summary = RunSummary(planned=len(specs), skipped=len(specs) - len(todo),
                         results_path=str(results) if results is not None else None)
    if executor == "ray":
        # ship cassettes and data files: a worker on another machine cannot read this one's files
        texts: dict[str, str] = {}
        data: dict[str, Any] = {}
        todo = [_shipped(s, texts, data) for s in todo]
    session_id = None
    if store is not None and todo:
        session_id = store.create_session(f"suite {suite.name} ({len(todo)} executions)", mode="suite").id
    summary.session_id = session_id
    sink = ResultSink(results, store=store, session_id=session_id, record_dir=record,
                      prompts={m.id: m.prompt for m in suite.missions})
    tick = progress(len(specs), summary.skipped) if progress is not None else None

    def on_done(outcome: Outcome) -> None:
        sink(outcome)
        summary.records.append(outcome.record)
        if callable(tick):
            tick(outcome.record)
        if on_result is not None:
            on_result(outcome.record)

    try:
        if todo:
            execute_all(todo, on_done, concurrency=concurrency, executor=executor, ray_address=ray_address,
                        ray_options=ray_options)
    finally:
        sink.close()
    summary.store_errors = sink.store_errors
    return summary


def _shipped(spec: ExecSpec, texts: dict[str, str], data: dict[str, Any]) -> ExecSpec:
    """The spec with its cassette text and its data files inlined (for remote workers)."""
    from dataclasses import replace

    from .spec import resolve_data

    changes: dict[str, Any] = {}
    if spec.replay_path is not None:
        if spec.replay_path not in texts:
            texts[spec.replay_path] = Path(spec.replay_path).read_text(encoding="utf-8")
        changes.update(replay_text=texts[spec.replay_path], replay_path=None)
    if _mentions_file(spec.data):
        if spec.mission.id not in data:
            try:
                data[spec.mission.id] = {k: v for k, v in resolve_data(spec.data, spec.base_dir).items()}
            except ValueError:
                data[spec.mission.id] = spec.data  # the worker reports the problem in its record
        changes["data"] = data[spec.mission.id]
    return replace(spec, **changes) if changes else spec


def _mentions_file(spec: Any) -> bool:
    if isinstance(spec, str):
        return spec.startswith("file:") or spec.endswith(".json")
    if isinstance(spec, list):
        return any(_mentions_file(x) for x in spec)
    if isinstance(spec, dict):
        return any(isinstance(v, str) and v.startswith("file:") for v in spec.values())
    return False


__all__ = ["RunSummary", "PlanError", "SuiteError", "plan", "pending", "read_results", "run_suite", "ResultSink",
           "execute_all", "run_local", "open_store"]
