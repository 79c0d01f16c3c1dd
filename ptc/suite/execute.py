"""One execution: a mission x a model x a compression strategy x a run index.

`ExecSpec` carries everything an execution needs (picklable, so a Ray worker on another
machine can run it); `execute` (blocking) and `aexecute` (async) build the agent, run it and
judge the result, returning an `Outcome`: the result record, the turns (for the store) and,
when recording, the cassette text.

The agent is built from the spec alone, so recording and replaying an execution send
byte-identical prompts (a cassette matches exact prompts).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..tools.mcp_connection import MCPServerSpec
from .checks import judge, plain
from .spec import Mission, Suite, import_ref, make_limits, resolve_data, resolve_signature, resolve_tools

SCRIPTED = "scripted"
RECORD_KEYS = ("suite", "mission", "model", "strategy", "run")


def model_slug(model: str) -> str:
    """A model name as a file-name part: 'openai/gpt-4o-mini' -> 'openai-gpt-4o-mini'."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", model).strip("-")
    return re.sub(r"_{2,}", "_", slug) or "model"


def strategy_name(text: str) -> str:
    """A canonical strategy label: none, coalesced, append, or a 'module:Class' reference as given."""
    from ptc.compression import strategy_label

    t = text.strip()
    label = strategy_label(t)
    if label is not None:
        return label
    if ":" in t:
        import_ref(t)  # fails early with a clear message
        return t
    raise ValueError(f"unknown compression strategy {text!r}: use none, coalesced, append or a 'module:Class' "
                     f"reference")


def strategy_slug(strategy: str) -> str:
    return model_slug(strategy.replace(":", "."))


def compression_arg(strategy: str) -> Any:
    """What `Agent(compression=...)` gets: a bundled strategy's label as is, else the imported class."""
    return strategy if ":" not in strategy else import_ref(strategy)


def cassette_name(mission: str, model: str, strategy: str, run: int = 0) -> str:
    """`<mission>__<model-slug>__<strategy>.jsonl`; runs after the first add `__r<N>`."""
    base = f"{mission}__{model_slug(model)}__{strategy_slug(strategy)}"
    return f"{base}.jsonl" if run == 0 else f"{base}__r{run}.jsonl"


def replay_cassette(directory: str | os.PathLike[str], mission: str, model: str, strategy: str,
                    run: int) -> Path | None:
    """The cassette a run replays: its own (`__rN`) if recorded, else the first run's."""
    d = Path(directory)
    for name in dict.fromkeys([cassette_name(mission, model, strategy, run), cassette_name(mission, model, strategy)]):
        if (d / name).is_file():
            return d / name
    return None


def record_key(record: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(record.get(k) for k in RECORD_KEYS)


@dataclass(frozen=True)
class ExecSpec:
    """Everything one execution needs (picklable)."""

    suite: str
    mission: Mission
    base_dir: str
    tools: tuple[str, ...]
    data: Any
    signature: str | None
    max_turns: int
    limits: dict[str, Any]
    model: str
    strategy: str
    run: int
    replay_path: str | None = None
    replay_text: str | None = None  # shipped to remote workers that cannot read replay_path
    record: bool = False
    executor: str = "local"
    want_turns: bool = True  # the turns' JSON records (for the store); skipped when nobody needs them
    prompt: str = "default"  # the system prompt profile
    api_base: str | None = None  # where `model` is served (a local server); None: the provider's default
    api_key: str | None = None
    mcp: tuple[MCPServerSpec, ...] = ()  # MCP servers whose tools the agent gets

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.suite, self.mission.id, self.model, self.strategy, self.run)

    @property
    def label(self) -> str:
        return f"{self.mission.id} / {self.model} / {self.strategy} / run {self.run}"


def make_spec(suite: Suite, mission: Mission, model: str, strategy: str, run: int, **kw: Any) -> ExecSpec:
    return ExecSpec(suite=suite.name, mission=mission, base_dir=suite.base_dir, tools=tuple(suite.tools_of(mission)),
                    data=suite.data_of(mission), signature=suite.signature_of(mission),
                    max_turns=suite.max_turns_of(mission), limits=suite.limits_of(mission), model=model,
                    prompt=suite.system_prompt_of(mission), mcp=tuple(suite.mcp_of(mission)),
                    strategy=strategy, run=run, **kw)


@dataclass
class Outcome:
    """What an execution produced: the result record, turn records, a recorded cassette."""

    record: dict[str, Any]
    turns: list[dict[str, Any]] = field(default_factory=list)
    cassette_text: str | None = None


@dataclass
class _Prepared:
    agent: Any
    outbox: Any
    data: dict[str, Any]
    record_path: Path | None
    tmp: list[Path]


def _inner_llm(spec: ExecSpec) -> Any:
    if spec.model == SCRIPTED:
        from ptc.llm.scripted import ScriptedLLM

        if not spec.mission.script:
            raise ValueError(f"mission {spec.mission.id!r} has no script, so the 'scripted' model cannot answer it")
        return ScriptedLLM(spec.mission.script, model=SCRIPTED)
    from ptc.llm.choose import as_llm

    return as_llm(spec.model, api_base=spec.api_base, api_key=spec.api_key)


def prepare(spec: ExecSpec) -> _Prepared:
    """Build the agent for an execution (same inputs -> same prompts, whatever the LLM)."""
    from ptc.agent.loop import Agent
    from ptc.llm.cassette import RecordingLLM, ReplayLLM

    tmp: list[Path] = []
    tools, outbox = resolve_tools(list(spec.tools))
    if spec.mcp:
        from ptc.tools.mcp import mcp_tools

        tools += [t for server in spec.mcp for t in mcp_tools(server)]
    data = resolve_data(spec.data, spec.base_dir)
    record_path = None
    if spec.replay_path is not None or spec.replay_text is not None:
        path = spec.replay_path
        if spec.replay_text is not None:
            fd, name = tempfile.mkstemp(prefix="ptc-replay-", suffix=".jsonl")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(spec.replay_text)
            path = name
            tmp.append(Path(name))
        llm: Any = ReplayLLM(path)  # type: ignore[arg-type]
    else:
        llm = _inner_llm(spec)
        if spec.record:
            fd, name = tempfile.mkstemp(prefix="ptc-record-", suffix=".jsonl")
            os.close(fd)
            record_path = Path(name)
            tmp.append(record_path)
            llm = RecordingLLM(llm, record_path, overwrite=True)
    agent = Agent(spec.mission.prompt, tools=tools, data=data, signature=resolve_signature(spec.signature),
                  max_turns=spec.max_turns, compression=compression_arg(spec.strategy), llm=llm, prompt=spec.prompt,
                  limits=make_limits(spec.limits), name=spec.mission.id)
    return _Prepared(agent, outbox, data, record_path, tmp)


def _json_safe(value: Any, limit: int = 4_000) -> Any:
    value = plain(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = json.dumps(repr(value))
        value = repr(value)
    if len(text) > limit:
        return {"truncated": text[:limit]}
    return value


def _base_record(spec: ExecSpec) -> dict[str, Any]:
    return {"suite": spec.suite, "mission": spec.mission.id, "model": spec.model, "strategy": spec.strategy,
            "run": spec.run, "prompt": spec.prompt}


def _error_kind(step: Any) -> str | None:
    if step.error is None:
        return None
    if step.error.kind == "llm" and "(replay)" in step.error.message:
        return "replay"
    return str(step.error.kind)


def finish(spec: ExecSpec, prep: _Prepared, step: Any, started: float) -> Outcome:
    failures: list[str] = []
    if not step.ok:
        failures.append(f"the run failed: {step.error.format() if step.error else '?'}"[:1_000])
    else:
        m = spec.mission
        failures = judge(m.all_checks, step.value, outbox_expect=m.outbox, outbox=prep.outbox, data=prep.data)
    usage = step.usage.total
    record = {
        **_base_record(spec),
        "passed": not failures,
        "ok": step.ok,
        "error_kind": _error_kind(step) if not step.ok else ("check" if failures else None),
        "error": (step.error.message[:1_000] if step.error else None),
        "failures": failures,
        "turns": len(step.turns),
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "cached_tokens": usage.cached_tokens,
        "cache_write_tokens": usage.cache_write_tokens,
        "cost": usage.cost,
        "llm_calls": usage.calls,
        "duration": round(step.duration, 6),
        "wall": round(time.perf_counter() - started, 6),
        "value": _json_safe(step.value) if step.ok else None,
        "run_id": step.run_id,
        "executor": spec.executor,
        "finished_at": time.time(),
    }
    if prep.outbox is not None:
        record["outbox"] = {"emails": len(prep.outbox.emails), "meetings": len(prep.outbox.meetings)}
    turns = [t.to_json() for t in step.turns] if spec.want_turns else []
    cassette = None
    if prep.record_path is not None:
        cassette = prep.record_path.read_text(encoding="utf-8")
    return Outcome(record, turns, cassette)


def crashed(spec: ExecSpec, error: BaseException, started: float) -> Outcome:
    """An execution that could not run at all (a tool factory raised, no cassette, ...)."""
    message = f"{type(error).__name__}: {error}"
    return Outcome({**_base_record(spec), "passed": False, "ok": False, "error_kind": "exception",
                    "error": message[:1_000], "failures": [f"the execution crashed: {message}"[:1_000]], "turns": 0,
                    "prompt_tokens": 0, "completion_tokens": 0, "cached_tokens": 0, "cache_write_tokens": 0,
                    "cost": None, "llm_calls": 0, "duration": 0.0,
                    "wall": round(time.perf_counter() - started, 6), "value": None, "run_id": None,
                    "executor": spec.executor, "finished_at": time.time()})


def _cleanup(prep: _Prepared | None) -> None:
    for p in prep.tmp if prep is not None else ():
        try:
            p.unlink()
        except OSError:
            pass


def execute(spec: ExecSpec) -> Outcome:
    """Run one execution to completion (blocking)."""
    started = time.perf_counter()
    prep = None
    try:
        prep = prepare(spec)
        step = prep.agent.run()
        return finish(spec, prep, step, started)
    except Exception as e:  # noqa: BLE001 - one broken execution never stops the suite
        return crashed(spec, e, started)
    finally:
        _cleanup(prep)


async def aexecute(spec: ExecSpec) -> Outcome:
    """Run one execution without blocking the event loop (programs run in threads)."""
    import asyncio

    started = time.perf_counter()
    prep = None
    try:
        prep = await asyncio.to_thread(prepare, spec)
        step = await prep.agent.arun()
        return await asyncio.to_thread(finish, spec, prep, step, started)
    except Exception as e:  # noqa: BLE001
        return crashed(spec, e, started)
    finally:
        _cleanup(prep)
