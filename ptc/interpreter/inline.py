"""A run in this process: read, analyze, compile (cached) and execute a program inside the
sandbox. `ptc.run` (api) comes here unless the run is isolated; an isolated child comes here too."""

from __future__ import annotations

import contextlib
import functools
import gc
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from . import context, hooks
from . import runtime as rt
from . import values as v
from .analyzer import Names, analyze_program
from .compiler import CompiledProgram, Compiler
from .errors import PTCError, limit_error
from .idioms import runtime_hint
from .limits import Limits
from .reader import read
from .registry import load_library
from .pause import Diverged, Pause, PausedRun, Replay, diverged_error, paused_run
from .tool_calls import Abandoned, ToolCall, abandoned_error, check_call_count, recorded_call, tool_args


@dataclass(frozen=True)
class RunResult:
    """The outcome of a successful run (a program error raises PTCError instead)."""

    value: Any
    prints: tuple[str, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    memory: Mapping[str, Any] = field(default_factory=dict)
    returned: bool = False
    failed: bool = False
    steps: int = 0
    duration: float = 0.0
    defined: tuple[str, ...] = ()  # names the program def'd, in the order the defs ran (repeats removed)
    docs: Mapping[str, str] = field(default_factory=dict)  # docstrings given to those defs
    note: str | None = None  # why an empty answer is empty, when the runtime can tell (ptc.interpreter.diagnose)
    paused: PausedRun | None = None  # the run stopped at a tool call to be answered later (ptc.interpreter.pause)

    @property
    def pending(self) -> Any:
        """The tool call a paused run waits at (a ptc.Pending), or None."""
        return self.paused.pending if self.paused is not None else None

    @property
    def ok(self) -> bool:
        """The program answered: it did not end in `(fail v)` (an error raises PTCError). The
        same test as an agent's `Step.ok`, so code that reads either reads both."""
        return not self.failed

    @property
    def charts(self) -> list[Any]:
        """The charts (ptc.Chart) the value holds: the value itself or among its first items."""
        return hooks.charts_in(self.value)  # type: ignore[no-any-return]

    @property
    def chart(self) -> Any:
        """The first chart the value holds, or None (see docs/charts.md)."""
        charts = self.charts
        return charts[0] if charts else None

    def _repr_html_(self) -> str:
        return hooks.result_html(self)  # type: ignore[no-any-return]

    def to_arrow(self) -> Any:
        """The value, a vector of maps, as a pyarrow Table (see `ptc.to_arrow`)."""
        return hooks.to_arrow(self.value)

    def to_pandas(self) -> Any:
        """The value, a vector of maps, as a pandas DataFrame (see `ptc.to_pandas`)."""
        return hooks.to_pandas(self.value)


_LINE_MAPS: "OrderedDict[str, dict[int, tuple[int, int]]]" = OrderedDict()

# During a run the cyclic collector's full (oldest-generation) pass runs 100x less often:
# a program that builds many objects (rows of a table, maps in a loop) otherwise pays for
# repeated scans of the whole host heap, most of what such a run costs. Young generations are
# still collected, refcounting frees everything else, and the setting is restored at the end.
RUN_GC_FULL_EVERY = 1000
_MAX_LINE_MAPS = 4096


@contextlib.contextmanager
def _full_collections_deferred() -> Iterator[None]:
    """The cyclic collector's full pass 100x less often within the block (see above): the
    compiling of a program too, whose nodes could set off a scan of a large host heap (a
    DataFrame of 336,776 dates: 45 ms, twice, in one compile)."""
    old = gc.get_threshold()
    gc.set_threshold(old[0], old[1], max(old[2], RUN_GC_FULL_EVERY))
    try:
        yield
    finally:
        gc.set_threshold(*old)


@functools.lru_cache(maxsize=512)
def compile_program(source: str, names: Names) -> CompiledProgram:
    """Source -> compiled program, cached by source and the names it can see."""
    forms = read(source)
    root = analyze_program(forms, names)
    try:
        program = Compiler(source).program(root)
    except (RecursionError, MemoryError):
        raise PTCError("analysis", "program is nested too deeply or too large to compile") from None
    except SyntaxError as e:  # the generated code exceeded a CPython limit
        raise PTCError("analysis", f"program too complex to compile ({e.msg})") from None
    _LINE_MAPS[program.filename] = program.line_map
    while len(_LINE_MAPS) > _MAX_LINE_MAPS:
        _LINE_MAPS.popitem(last=False)
    return program


def _entry(program: CompiledProgram) -> Callable[[], Any]:
    factory = getattr(program, "_factory", None)
    if factory is None:
        exec(program.code, rt.RT)
        factory = rt.RT.pop("_program")
        program._factory = factory  # type: ignore[attr-defined]
        _LINE_MAPS.setdefault(program.filename, program.line_map)
    return factory(*program.consts)  # type: ignore[no-any-return]


def make_tool_caller(tools: Mapping[str, Any], state: context.RunState,
                     replay: Replay | None = None) -> Callable[[str, tuple[Any, ...]], Any]:
    """The run's `tool/x` calls: bounded, recorded, and answered through `replay` (a resumed
    run's recorded calls and answer; see ptc.interpreter.pause)."""
    replay = replay if replay is not None else Replay()

    def invoke(name: str, args: Any) -> tuple[Any, float]:
        try:
            result, start = recorded_call(name, tools[name], args, state.deadline, state.limits.timeout,
                                          state.tool_calls)
        except Abandoned:
            raise abandoned_error(name, state.limits.timeout) from None
        except PTCError as e:
            e.kind = "limit" if e.kind == "limit" else "tool"
            raise
        try:
            value = v.from_python(result, f"tool/{name} result")
        except PTCError as e:
            e.kind = "limit" if e.kind == "limit" else "tool"
            state.tool_calls.append(ToolCall(name, args, None, e.message, time.perf_counter() - start))
            raise
        duration = time.perf_counter() - start
        state.tool_calls.append(ToolCall(name, args, value, None, duration))
        if time.monotonic() > state.deadline:
            raise limit_error("timeout", state.limits.timeout, "program ran too long (tool time included)")
        return value, duration

    def record(name: str, args: Any, value: Any, error: str | None, duration: float) -> None:
        state.tool_calls.append(ToolCall(name, args, value, error, duration))

    def charge(seconds: float) -> None:  # a replayed call takes the time it took when it was made
        state.deadline -= seconds
        if time.monotonic() > state.deadline:
            raise limit_error("timeout", state.limits.timeout, "program ran too long (tool time included)")

    def call(name: str, raw: tuple[Any, ...]) -> Any:
        check_call_count(name, len(state.tool_calls), state.limits)
        return replay.call(name, tool_args(raw), tools[name], invoke, record, charge)

    return call


@dataclass(frozen=True)
class Inputs:
    """A run's inputs, checked and converted the same way whatever runs the program."""

    data: dict[str, Any]
    tools: dict[str, Any]
    memory: dict[str, Any]
    history: tuple[Any, ...]


def convert_data(data: Any) -> dict[str, Any]:
    """Host data as the PTC values data/name reads (views, not copies, for JSON-like data)."""
    if data is not None and not isinstance(data, Mapping):
        raise PTCError("runtime", f"data must be a mapping of names to values, not {type(data).__name__}",
                       hint='pass data={"orders": [...]} and read it as data/orders')
    try:
        return {str(k): v.from_python(val, f"data/{k}") for k, val in (data or {}).items()}
    except RecursionError:
        raise PTCError("limit", "data is nested too deeply to convert",
                       hint="flatten the input data before passing it") from None


def prepare_inputs(source: Any, data: Any, tools: Any, memory: Any, history: Any, limits: Limits) -> Inputs:
    """Validate the source and convert data at the boundary (shared by inline and isolated runs)."""
    if not isinstance(source, str):
        raise PTCError("parse", f"program source must be a string, not {type(source).__name__}")
    if len(source) > limits.max_source:
        raise limit_error("max_source", limits.max_source, f"program source of {len(source)} characters")
    data_values = convert_data(data)
    if tools is not None and not isinstance(tools, Mapping):
        tools = hooks.as_tools(tools)
    return Inputs(data_values, dict(tools or {}), dict(memory or {}), tuple(history or ())[:3])


def run_inline(source: str, data: Mapping[str, Any] | None, tools: Mapping[str, Any] | None,
               memory: Mapping[str, Any] | None, limits: Limits, history: Sequence[Any] | None,
               resume: tuple[PausedRun, Any] | None = None) -> RunResult:
    """The program run here, under `limits`, on the interpreter's lock (the clock starts once
    it holds it); `resume`: a paused run's record and the answer to its pending call."""
    load_library()
    inputs = prepare_inputs(source, data, tools, memory, history, limits)
    data_values, tool_map, mem, hist = inputs.data, inputs.tools, inputs.memory, inputs.history
    names = Names(frozenset(mem), frozenset(data_values), frozenset(tool_map), len(hist))
    try:
        with _full_collections_deferred():
            program = compile_program(source, names)
    except PTCError as e:
        e.partial = RunResult(None, memory=mem)  # type: ignore[attr-defined]
        raise
    user = dict(mem)
    ctx = rt.RunContext(user, data_values, hist, tool_map)
    with context.LOCK:
        # The clock starts once the program has the interpreter: waiting for another
        # program to finish never counts against this one's timeout. A run nested in another
        # (a tool's sub-agent) ends by the outer run's deadline at the latest.
        state = context.RunState(limits)
        state.deadline = min(state.deadline, context.CURRENT.deadline)
        replay = Replay(*resume) if resume is not None else Replay()
        state.call_tool = make_tool_caller(tool_map, state, replay)
        started = time.perf_counter()
        prev_state = context.enter(state)
        saved = (rt.RT["_U"], rt.RT["_ctx"], rt.RT["_n"])
        rt.RT["_U"], rt.RT["_ctx"], rt.RT["_n"] = user, ctx, rt.STEP_CHUNK
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(rt.recursion_limit_for(limits.max_depth))
        returned = failed = False
        failure: PTCError | None = None
        paused: PausedRun | None = None
        with _full_collections_deferred():
            try:
                try:
                    value = _entry(program)()
                except rt._Return as r:
                    value, returned = r.value, True
                except rt._Fail as f:
                    value, failed = f.value, True
                rt.check_result_size(value)  # realizes a lazy result (printing it), within the limits
                hooks.check_charts(value)
                rt.realize_defs(user, state.defined)
                state.steps += rt.STEP_CHUNK - rt.RT["_n"]
            except Pause as p:
                paused = paused_run(p, source, limits, state.seed, state.clock, replay.made,
                                    rt.error_position(p.__traceback__, _LINE_MAPS), inputs)
                state.flush_output()
            except BaseException as e:  # noqa: BLE001 - every failure becomes a PTCError
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                err = diverged_error(e) if isinstance(e, Diverged) else rt.convert_exception(e)
                fix = runtime_hint(err.message) if err.kind == "runtime" else None
                if fix is not None:
                    err.hint = fix
                pos = rt.error_position(e.__traceback__, _LINE_MAPS)
                if pos is not None:
                    err.at(*pos)
                if err.kind == "runtime" and "got nil" in err.message:
                    err.hint = _nil_hint(source, err.line, state, data_values) or err.hint or (
                        "a nil often comes from a missing map key: check the key's spelling "
                        "(e.g. :unit_price vs :unit-price) or use (get m :k default)")
                elif err.kind == "runtime":  # (apply max (keep :precip t)): too few args, from a key no row has
                    missing = _missing_key_hint(source, state, data_values)
                    if missing is not None:
                        err.hint = missing + (f"; {err.hint}" if err.hint else "")
                state.flush_output()
                err.partial = RunResult(None, tuple(state.prints), tuple(state.tool_calls), mem,  # type: ignore[attr-defined]
                                        steps=state.steps, duration=time.perf_counter() - started,
                                        defined=_latest_order(state.defined))
                failure = err
            finally:
                sys.setrecursionlimit(old_limit)
                rt.RT["_U"], rt.RT["_ctx"], rt.RT["_n"] = saved
                context.leave(prev_state)
    if failure is not None:
        # Raised outside the except block and stripped of tracebacks and context, so an error
        # kept by the caller does not keep the failed program's frames (and data) alive.
        failure.__traceback__ = failure.__context__ = failure.__cause__ = None
        raise failure
    if paused is not None:  # nothing the program did is kept: the resumed run does it again
        return RunResult(None, tuple(state.prints), tuple(state.tool_calls), mem, steps=state.steps,
                         duration=time.perf_counter() - started, paused=paused)
    state.flush_output()
    return RunResult(value, tuple(state.prints), tuple(state.tool_calls), user, returned, failed,
                     state.steps, time.perf_counter() - started, _latest_order(state.defined), dict(state.docs),
                     None if failed else _empty_note(source, value, state, data_values))


def _empty_note(source: str, value: Any, state: context.RunState, data: Mapping[str, Any]) -> str | None:
    """The empty-result note, or a note on a key no input row has (never fails a run)."""
    from .diagnose import empty_note, looks_empty, missing_key_note

    results = [(c.name, c.result) for c in state.tool_calls if c.error is None]
    try:
        if looks_empty(value, state.prints):
            note = empty_note(source, value, state.prints, state.emptied, data, results)
            if note is not None:
                return note
        return missing_key_note(source, data, results)  # a misspelt key whatever the answer (0, one group)
    except Exception:  # noqa: BLE001 - a note is a courtesy: an odd value must not fail the run
        return None


def _nil_hint(source: str, line: int | None, state: context.RunState, data: Mapping[str, Any]) -> str | None:
    """Which key read on the failing line gives the nil, in how many rows (never fails a run)."""
    from .diagnose import nil_hint

    try:
        return nil_hint(source, line, data, [(c.name, c.result) for c in state.tool_calls if c.error is None])
    except Exception:  # noqa: BLE001 - a hint is a courtesy
        return None


def _missing_key_hint(source: str, state: context.RunState, data: Mapping[str, Any]) -> str | None:
    """A failed run's missing_key_note as a hint (never fails a run)."""
    from .diagnose import missing_key_note

    try:
        note = missing_key_note(source, data, [(c.name, c.result) for c in state.tool_calls if c.error is None])
    except Exception:  # noqa: BLE001 - a hint is a courtesy
        return None
    return None if note is None else note.removeprefix("note: ")


def _latest_order(names: list[str]) -> tuple[str, ...]:
    """Definition order where a redefinition counts at its latest position."""
    seen: dict[str, None] = {}
    for name in names:
        seen.pop(name, None)
        seen[name] = None
    return tuple(seen)
