"""Process isolation: run a program in a forked child with OS limits (see docs/security.md).

`run_isolated` has the contract of the inline `ptc.run` (same RunResult, same PTCError
kinds, messages and positions, all-or-nothing memory); `ptc.run` dispatches here when
`Limits(isolation="process")`.

How a run works
- A *zygote* (one per host process, started on first use) is a fresh `python -I` started
  with a scrubbed environment and no inherited descriptors; it imports the interpreter,
  loads the library, warms the parser and compiler, then forks one child per run.
  Children therefore start in about a millisecond, share nothing with the host's memory
  (no API keys, no host objects), and never see another run's data (fresh fork each run).
- The child sets RLIMIT_AS / RLIMIT_CPU / RLIMIT_CORE / RLIMIT_FSIZE / RLIMIT_NPROC, then
  runs the ordinary inline runner (`ptc.run(..., isolation="inline")`).
- Tools stay in the host. The child receives stubs with the same names; a call sends
  `(name, args)` to the host over a socket, the host runs the real tool exactly as the
  inline runner would (`invoke(args)` or keyword/positional call, async awaited) and sends
  back the plain Python result (converted to PTC values in the child, under the run's
  limits) or the error.
- The host enforces a wall-clock deadline of its own (timeout + grace, once for parse and
  compile and once for the run) and SIGKILLs the child (through a pidfd, so a recycled
  pid is never hit) when it overruns; a child that dies is classified from its exit status.
- Messages from the child are untrusted: the host unpickles them with an allow-list that
  only rebuilds PTC values through the `_r_*` functions below, caps their size, and keeps
  its own count of tool calls and its own deadline.

Functions do not cross the process boundary: a function kept in memory comes back as an
`IsolatedFn` placeholder that prints like the function (`#fn[name]`) and, when called in a
later run, raises a runtime error asking the program to define it again.
"""

from __future__ import annotations

import array
import atexit
import contextlib
import dataclasses
import datetime as dt
import gc
import io
import json
import math
import os
import pickle
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any, Sequence


try:
    import resource
except ImportError:  # not POSIX: run_isolated refuses to run
    resource = None  # type: ignore[assignment]

from . import context, dates
from . import values as v
from .lazy import OPEN_ENDED_PREFIX
from .errors import PTCError, limit_error
from .lazy import Cut, NotInRun
from .sorted import SortedMap, SortedSet
from .table import Row, Table
from .limits import Limits
from .tool_calls import Abandoned, ToolCall, abandoned_error, check_call_count, recorded_call

# -- tuning ---------------------------------------------------------------------------------

GRACE_BASE = 0.5  # seconds the host waits past the timeout before killing the child
GRACE_FACTOR = 0.1  # ... plus this fraction of the timeout
AS_HEADROOM = 128 * 1024 * 1024  # address space above the child's size at start, plus 2*max_memory
MESSAGE_SLACK = 64 * 1024 * 1024  # the largest message the host accepts: 2*max_memory + inputs + this
START_TIMEOUT = 60.0  # seconds to start the zygote (imports the interpreter)
SPAWN_TIMEOUT = 10.0  # seconds for the zygote to fork a child

_HDR = struct.Struct("!Q")
_PID = struct.Struct("!q")
_EXIT_INTERNAL = 70  # the child failed outside the program and could not report it
_EXIT_MEMORY = 71  # the child ran out of memory and could not report it

_PLAIN = (type(None), bool, int, float, str)


class _Timeout(Exception):
    pass


class _ChildGone(Exception):
    pass


class _TooLarge(Exception):
    pass


# -- placeholders ---------------------------------------------------------------------------


class IsolatedFn:
    """A PTC function that stayed behind in the child process of an isolated run.

    It prints like the original (`#fn[name]`) and is a function for `fn?`, but calling it
    is a runtime error: functions cannot be sent between processes.
    """

    __slots__ = ("name", "__qualname__")

    def __init__(self, name: str) -> None:
        self.name = name
        self.__qualname__ = "ptc:" + name

    def __call__(self, *args: Any) -> Any:
        raise PTCError(
            "runtime",
            f"{self.name}: this function was defined by an earlier program run in process isolation "
            "and cannot cross the process boundary",
            hint=f"define {self.name} again in this program (functions kept in memory are not "
                 "carried between isolated runs; data values are)",
        )

    def __repr__(self) -> str:
        return f"#fn[{self.name}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IsolatedFn) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("IsolatedFn", self.name))


def _fn_name(f: Any) -> str:
    q = getattr(f, "__qualname__", "") or ""
    return q[4:] if isinstance(q, str) and q.startswith("ptc:") else "fn"


# -- pickling: PTC values reduce to the _r_* rebuilders, nothing else is trusted --------------


def _r_kw(name: str) -> v.Keyword:
    _want(name, str)
    return v.Keyword(name)


def _r_sym(name: str) -> v.Symbol:
    _want(name, str)
    return v.Symbol(name)


def _r_list(items: tuple) -> v.PList:
    _want(items, tuple)
    return v.PList(items)


def _r_queue(items: list) -> v.PQueue:
    _want(items, list)
    return v.PQueue(items)


def _r_entry(k: Any, val: Any) -> v.MapEntry:
    return v.MapEntry((k, val))


def _r_vec(items: list) -> Any:
    _want(items, list)
    return v.pvector(items)


def _r_fmap(d: dict) -> v.FMap:
    _want(d, dict)
    return v.FMap(d)


def _r_hmap(d: dict) -> v.HMap:
    _want(d, dict)
    return v.HMap(d)


def _r_fset(items: list) -> v.FSet:
    _want(items, list)
    return v.FSet(items)


def _r_hset(items: list) -> v.HSet:
    _want(items, list)
    return v.HSet(items)


def _r_lazy(items: list, cut: bool = False) -> v.LazySeq:
    """A lazy sequence arrives realized (it was realized, under the run's limits, to be sent);
    an infinite one as the prefix realized so far (its rest cannot cross: see lazy.Cut)."""
    _want(items, list)
    return v.LazySeq.of_items(items, Cut() if cut else None)


def _r_sorted(keys: list, vals: list | None, comparator: Any) -> Any:
    """A sorted map or set arrives as its keys in order (and values); a comparator that is a
    function arrives as an IsolatedFn, so a later lookup in the other process says so."""
    from .lib.core_sorted import sorted_in_order

    _want(keys, list)
    if vals is not None and (type(vals) is not list or len(vals) != len(keys)):
        raise pickle.UnpicklingError("malformed sorted map")
    return sorted_in_order(tuple(keys), None if vals is None else tuple(vals), comparator)


def _lazy_state(x: v.LazySeq) -> tuple[Any, ...]:
    if not x.infinite:
        try:
            x.fill(OPEN_ENDED_PREFIX if x.open_ended else -1)
        except NotInRun:
            pass
    return (_r_lazy, (list(x._cache), not x.realized))


def _r_regex(source: str) -> v.Regex:
    """A regex value arrives as its source. It was checked against max_regex when the program
    made it (maybe in an earlier run, under other limits): rebuilding it is not a new check."""
    _want(source, str)
    from .lib.regex import compile_regex

    if len(source) <= context.CURRENT.limits.max_regex:
        return compile_regex(source)
    with _run_state(Limits(max_regex=len(source))):
        return compile_regex(source)


def _r_fn(name: str) -> IsolatedFn:
    _want(name, str)
    return IsolatedFn(name)


def _table_state(x: Table) -> tuple[Any, ...]:
    """A table crosses as one Arrow IPC stream (its column buffers, copied once): no per-row
    pickling, whatever its size."""
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, x.arrow.schema) as writer:
        writer.write_table(x.arrow)
    return (_r_table, (sink.getvalue().to_pybytes(),))


def _r_table(stream: bytes) -> Table:
    """A table from an Arrow IPC stream; fully validated, since the child is not trusted."""
    _want(stream, bytes)
    import pyarrow as pa

    try:
        arrow = pa.ipc.open_stream(stream).read_all()
        arrow.validate(full=True)
    except (pa.ArrowException, ValueError) as e:
        raise pickle.UnpicklingError(f"malformed table: {e}") from None
    return Table(arrow)


def _r_date(ordinal: int) -> dt.date:
    _want(ordinal, int)
    return dt.date.fromordinal(ordinal)


def _r_datetime(ordinal: int, micros: int, utc: bool) -> dt.datetime:
    """A LocalDateTime (utc False) or an Instant, as its day and microsecond of the day."""
    _want(ordinal, int)
    _want(micros, int)
    day = dt.datetime.combine(dt.date.fromordinal(ordinal), dt.time(), dates.UTC if utc is True else None)
    return day + dt.timedelta(microseconds=micros)


def _r_duration(micros: int) -> dt.timedelta:
    _want(micros, int)
    return dt.timedelta(microseconds=micros)


def _r_enum(kind: str, name: str) -> dates.JavaEnum:
    table = {"ChronoUnit": dates.CHRONO_UNITS, "DayOfWeek": dates.DAYS_OF_WEEK, "Month": dates.MONTHS}.get(kind)
    if table is None or name not in table:
        raise pickle.UnpicklingError("malformed java.time constant")
    return table[name]


def _datetime_state(x: dt.datetime) -> tuple[Any, ...]:
    u = x if x.tzinfo is None else x.astimezone(dates.UTC)
    micros = ((u.hour * 60 + u.minute) * 60 + u.second) * 1_000_000 + u.microsecond
    return (_r_datetime, (u.toordinal(), micros, x.tzinfo is not None))


def _want(x: Any, t: type) -> None:
    if type(x) is not t:
        raise pickle.UnpicklingError(f"expected {t.__name__}, got {type(x).__name__}")


_REBUILDERS = {f.__name__: f for f in (_r_kw, _r_sym, _r_list, _r_queue, _r_entry, _r_vec, _r_fmap, _r_hmap,
                                       _r_fset, _r_hset, _r_lazy, _r_regex, _r_fn, _r_sorted, _r_table,
                                       _r_date, _r_datetime, _r_duration, _r_enum)}

_REBUILDER_SET = frozenset(_REBUILDERS.values())

_REDUCE = {
    v.Keyword: lambda x: (_r_kw, (x.name,)),
    v.Symbol: lambda x: (_r_sym, (x.name,)),
    v.PList: lambda x: (_r_list, (tuple(x),)),
    v.PQueue: lambda x: (_r_queue, (list(x),)),
    v.MapEntry: lambda x: (_r_entry, (x[0], x[1])),
    v.PVector: lambda x: (_r_vec, (list(x),)),
    v.FMap: lambda x: (_r_fmap, (dict(x),)),
    v.HMap: lambda x: (_r_hmap, (dict(x.items()),)),
    v.FSet: lambda x: (_r_fset, (list(x),)),
    v.HSet: lambda x: (_r_hset, (list(x),)),
    v.LazySeq: _lazy_state,
    SortedMap: lambda x: (_r_sorted, (list(x._keys), list(x._vals), x.comparator)),
    SortedSet: lambda x: (_r_sorted, (list(x._keys), None, x.comparator)),
    v.Regex: lambda x: (_r_regex, (x.source,)),
    IsolatedFn: lambda x: (_r_fn, (x.name,)),
    Table: _table_state,
    Row: lambda x: (_r_fmap, (x.as_dict(),)),


    dt.date: lambda x: (_r_date, (x.toordinal(),)),
    dt.datetime: _datetime_state,
    dt.timedelta: lambda x: (_r_duration, ((x.days * 86_400 + x.seconds) * 1_000_000 + x.microseconds,)),
    dates.JavaEnum: lambda x: (_r_enum, (x.kind, x.name)),
}


class _Pickler(pickle.Pickler):
    """Pickles PTC values and plain data only. `functions=True` turns any other callable into an
    IsolatedFn placeholder; any other object is refused (PicklingError)."""

    def __init__(self, file: Any, functions: bool) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.functions = functions

    def reducer_override(self, obj: Any) -> Any:
        t = type(obj)
        r = _REDUCE.get(t)
        if r is not None:
            return r(obj)
        if t in (list, tuple, dict, set, frozenset) or t in _PLAIN or obj in _REBUILDER_SET:
            return NotImplemented
        if self.functions and callable(obj) and not isinstance(obj, type):
            return (_r_fn, (_fn_name(obj),))
        raise pickle.PicklingError(f"cannot send a Python {t.__name__} to the isolated process")


def _dumps(obj: Any, functions: bool = True) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, functions).dump(obj)
    return buf.getvalue()


class _Unpickler(pickle.Unpickler):
    """The host's view of child messages: only the `_r_*` rebuilders may be called."""

    def __init__(self, file: Any, limits: Limits) -> None:
        super().__init__(file)
        self.limits = limits

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name in _REBUILDERS:
            return _REBUILDERS[name]
        raise pickle.UnpicklingError(f"forbidden global {module}.{name} in a message from the child")


def _loads_untrusted(data: bytes, limits: Limits) -> Any:
    return _Unpickler(io.BytesIO(data), limits).load()


@contextlib.contextmanager
def _run_state(limits: Limits) -> Any:
    """Make a run state with these limits current (limit checks in value code read it)."""
    with context.LOCK:
        prev = context.enter(context.RunState(limits))
        try:
            yield
        finally:
            context.leave(prev)


# -- framing --------------------------------------------------------------------------------


_NOSIGNAL = getattr(socket, "MSG_NOSIGNAL", 0)  # a dead peer is EPIPE, never SIGPIPE, whatever the host set


def _send(sock: socket.socket, payload: bytes, deadline: float | None = None) -> None:
    """Send one frame; with a deadline (host side) a peer that stops reading is a _Timeout."""
    view = memoryview(_HDR.pack(len(payload)) + payload if len(payload) < 65536 else payload)
    if len(payload) >= 65536:
        _send_all(sock, memoryview(_HDR.pack(len(payload))), deadline)
    _send_all(sock, view, deadline)


def _send_all(sock: socket.socket, view: memoryview, deadline: float | None) -> None:
    while view:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Timeout()
            sock.settimeout(left)
        try:
            n = sock.send(view, _NOSIGNAL)
        except socket.timeout:
            raise _Timeout() from None
        except OSError as e:
            raise _ChildGone(str(e)) from None
        view = view[n:]


def _recv_exact(sock: socket.socket, n: int, deadline: float | None) -> bytes:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Timeout()
            sock.settimeout(left)
        try:
            k = sock.recv_into(view[got:], n - got)
        except socket.timeout:
            raise _Timeout() from None
        except OSError as e:
            raise _ChildGone(str(e)) from None
        if k == 0:
            raise _ChildGone("connection closed")
        got += k
    return bytes(buf)


def _recv(sock: socket.socket, deadline: float | None = None, cap: int | None = None) -> bytes:
    (n,) = _HDR.unpack(_recv_exact(sock, _HDR.size, deadline))
    if cap is not None and n > cap:
        raise _TooLarge(n)
    return _recv_exact(sock, n, deadline)


# -- the host side --------------------------------------------------------------------------


def run_isolated(
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    tools: Mapping[str, Any] | None = None,
    memory: Mapping[str, Any] | None = None,
    limits: Limits | None = None,
    history: Sequence[Any] | None = None,
) -> Any:
    """`ptc.run` in a child process; same results and errors as inline (see module doc)."""
    from .api import RunResult, prepare_inputs

    limits = limits or Limits(isolation="process")
    if not hasattr(socket, "send_fds") or not hasattr(os, "fork") or resource is None:
        raise PTCError("runtime", "process isolation needs a POSIX host (fork and descriptor passing)",
                       hint='use Limits(isolation="inline") on this platform')
    inputs = prepare_inputs(source, data, tools, memory, history, limits)
    data_values, tool_map, mem_in, hist = inputs.data, inputs.tools, inputs.memory, inputs.history
    child_limits = limits.model_copy(update={"isolation": "inline"})
    try:
        request = _dumps((source, data_values, list(tool_map), mem_in, child_limits.model_dump(), hist))
    except pickle.PicklingError as e:
        raise PTCError("runtime", f"memory or history cannot be sent to the isolated process: {e}",
                       hint="process isolation carries PTC values (and plain JSON-like data) only") from None
    except RecursionError:
        raise PTCError("runtime", "memory or history is nested too deeply to send to the isolated process") from None

    cap = 2 * limits.max_memory + 2 * len(request) + MESSAGE_SLACK
    grace = GRACE_BASE + GRACE_FACTOR * limits.timeout
    host_calls: list[Any] = []
    printed: tuple[str, ...] = ()  # what the program printed by its last tool call
    child = _spawn()
    finished = False
    try:
        run_deadline = time.monotonic() + limits.timeout  # until the child reports it compiled
        deadline = run_deadline + grace  # the host's: the child's own timeout, plus grace
        try:
            _send(child.sock, request, deadline)
        except _ChildGone:
            pass  # the child died at once: reading says so, and the exit status says why
        compiled = False
        calls = 0
        while True:
            tag, body = _parse(_recv(child.sock, deadline, cap), limits)
            if tag == "compiled" and not compiled:
                compiled = True
                run_deadline = time.monotonic() + limits.timeout
                deadline = run_deadline + grace
            elif tag == "tool" and calls <= limits.max_tool_calls:
                calls += 1
                name, args, printed = body
                try:  # tool time counts against the run's timeout, as inline
                    reply = _host_tool_call(tool_map, name, args, calls, limits, host_calls, run_deadline)
                except Abandoned:
                    child.kill()
                    err = abandoned_error(str(name), limits.timeout)
                    raise _with_partial(err, host_calls, mem_in, printed) from None
                _send(child.sock, reply, deadline)
            elif tag == "ok":
                finished = True
                fields, new_mem = body
                mem_out = dict(mem_in)
                mem_out.update(new_mem)
                return RunResult(memory=mem_out, **fields)
            elif tag == "err":
                finished = True
                err, partial = body
                if partial is not None:
                    err.partial = RunResult(memory=dict(mem_in), **partial)  # type: ignore[attr-defined]
                raise err
            else:
                raise _BadMessage(f"unexpected message {tag!r}")
    except _Timeout:
        child.kill()
        err = limit_error("timeout", limits.timeout, "program ran too long (the isolated process was killed)")
        raise _with_partial(err, host_calls, mem_in, printed) from None
    except _ChildGone as gone:
        err = _death_error(child, limits, str(gone))
        raise _with_partial(err, host_calls, mem_in) from None
    except _TooLarge as big:
        child.kill()
        err = limit_error("max_memory", limits.max_memory,
                          f"the isolated run's reply of {big.args[0]} bytes is too large to send to the host")
        raise _with_partial(err, host_calls, mem_in) from None
    except _BadMessage as bad:
        child.kill()
        err = PTCError("runtime", f"the isolated process sent an invalid message ({bad})",
                       hint="this is a bug in ptc, or the child process was compromised")
        raise _with_partial(err, host_calls, mem_in) from None
    finally:
        if not finished:
            child.kill()
        child.close()


class _BadMessage(Exception):
    pass


def _parse(raw: bytes, limits: Limits) -> tuple[str, Any]:
    """Unpickle (allow-listed) and check the shape of one message from the (untrusted) child."""
    from .api import RunResult

    def calls(items: Any) -> tuple[Any, ...]:
        out = []
        for name, args, result, error, duration in items:
            if not isinstance(name, str) or not (error is None or isinstance(error, str)):
                raise TypeError("bad tool call record")
            out.append(ToolCall(name, args, result, error, float(duration)))
        return tuple(out)

    def strs(items: Any) -> tuple[str, ...]:
        out = tuple(items)
        if not all(type(x) is str for x in out):
            raise TypeError("prints must be strings")
        return out

    known = {f.name for f in dataclasses.fields(RunResult)} - {"memory"}

    def result_fields(d: Any) -> dict[str, Any]:
        if type(d) is not dict or not set(d) <= known:
            raise TypeError("bad result fields")
        out = dict(d)
        out["prints"] = strs(out.get("prints", ()))
        out["tool_calls"] = calls(out.get("tool_calls", ()))
        for name, conv in (("returned", lambda x: x is True), ("failed", lambda x: x is True),
                           ("steps", int), ("duration", float), ("defined", strs),
                           ("note", lambda x: x if type(x) is str else None)):
            if name in out:
                out[name] = conv(out[name])
        return out

    try:
        msg = _loads_untrusted(raw, limits)
        tag = msg[0]
        if tag == "compiled":
            return tag, None
        if tag == "tool":
            _, name, args, prints = msg
            return tag, (name, args, strs(prints))
        if tag == "ok":
            _, fields, new_mem = msg
            if type(new_mem) is not dict or not all(type(k) is str for k in new_mem):
                raise TypeError("memory must map names to values")
            return tag, (result_fields(fields), new_mem)
        if tag == "err":
            _, (kind, message, line, column, hint), partial = msg
            if kind not in ("parse", "analysis", "runtime", "tool", "limit") or type(message) is not str:
                raise TypeError("bad error")
            for x in (line, column):
                if x is not None and type(x) is not int:
                    raise TypeError("bad error position")
            if hint is not None and type(hint) is not str:
                raise TypeError("bad error hint")
            err = PTCError(kind, message, line=line, column=column, hint=hint)
            if partial is not None:
                partial = result_fields(partial)
            return tag, (err, partial)
        return str(tag), None
    except Exception as e:  # noqa: BLE001 - anything malformed is a protocol violation
        raise _BadMessage(f"{type(e).__name__}: {e}") from None


def _with_partial(err: PTCError, host_calls: list[Any], mem_in: dict[str, Any],
                  prints: tuple[str, ...] = ()) -> PTCError:
    """err with what the host knows of a run it ended: the tool calls, and the lines the
    program had printed by its last tool call (the child sends them with each call)."""
    from .api import RunResult

    err.partial = RunResult(None, prints, tuple(host_calls), mem_in)  # type: ignore[attr-defined]
    return err


def _death_error(child: "_Child", limits: Limits, why: str) -> PTCError:
    code = child.exit_code(timeout=2.0)
    if code is None:
        child.kill()
        code = child.exit_code(timeout=2.0)
    if code == _EXIT_MEMORY or code == -signal.SIGKILL:
        return limit_error("max_memory", limits.max_memory,
                           "the isolated process ran out of memory and was killed")
    if code == -signal.SIGXCPU:
        return limit_error("timeout", limits.timeout,
                           "the isolated process exceeded its CPU time limit and was killed")
    if code is not None and code < 0:
        sig = -code
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        if sig in (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT):
            return limit_error("max_memory", limits.max_memory,
                               f"the isolated process crashed ({name}), most likely out of memory")
        return PTCError("runtime", f"the isolated process was killed by {name}")
    return PTCError("runtime", f"the isolated process exited unexpectedly (exit code {code}; {why})",
                    hint="this is a bug in ptc; please report it with the program")


def _host_tool_call(tool_map: Mapping[str, Any], name: Any, args: Any, calls: int, limits: Limits,
                    host_calls: list[Any], deadline: float) -> bytes:
    """Run one proxied tool call in the host by the inline rule (tool_calls.recorded_call),
    by the run's deadline; returns the reply (raises Abandoned when the deadline comes first)."""
    if not isinstance(name, str) or name not in tool_map:
        return _dumps(("err", ("tool", f"tool/{name} is not available", None, None, None), None))
    try:
        check_call_count(name, calls - 1, limits)
        result, start = recorded_call(name, tool_map[name], args, deadline, limits.timeout, host_calls)
    except PTCError as e:
        return _dumps(("err", (e.kind, e.message, e.line, e.column, e.hint), None))
    try:
        reply = _dumps(("ok", result), functions=False)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        try:  # not plain data: convert here (same conversion, same errors as in the child)
            reply = _dumps(("ok", v.from_python(result, f"tool/{name} result")), functions=False)
        except PTCError as e:
            host_calls.append(ToolCall(name, args, None, e.message, time.perf_counter() - start))
            return _dumps(("err", (e.kind, e.message, e.line, e.column, e.hint), None))
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as e:
            msg = f"tool/{name} result cannot be sent to the isolated process: {e}"
            host_calls.append(ToolCall(name, args, None, msg, time.perf_counter() - start))
            return _dumps(("err", ("tool", msg, None, None, None), None))
    host_calls.append(ToolCall(name, args, result, None, time.perf_counter() - start))  # host-side record
    return reply


# -- the zygote and its children, seen from the host -----------------------------------------


class _Child:
    """One forked child: its run socket, its pid (and pidfd), and its exit-status pipe."""

    def __init__(self, sock: socket.socket, pid: int, pidfd: int | None, status_r: int) -> None:
        self.sock = sock
        self.pid = pid
        self.pidfd = pidfd
        self.status_r = status_r
        self.code: int | None = None
        self.killed = False

    def exit_code(self, timeout: float) -> int | None:
        if self.code is None and self.status_r >= 0:
            sel = selectors.DefaultSelector()
            try:
                sel.register(self.status_r, selectors.EVENT_READ)
                if sel.select(timeout):
                    raw = b""
                    while len(raw) < _PID.size:
                        chunk = os.read(self.status_r, _PID.size - len(raw))
                        if not chunk:
                            break
                        raw += chunk
                    if len(raw) == _PID.size:
                        self.code = _PID.unpack(raw)[0]
                    else:
                        self.code = _EXIT_INTERNAL  # the zygote went away
            finally:
                sel.close()
        return self.code

    def kill(self) -> None:
        if self.killed or self.exit_code(0) is not None:
            return
        self.killed = True
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:  # no pidfd: the status pipe said the child has not been reaped yet
                os.kill(self.pid, signal.SIGKILL)
        except (ProcessLookupError, OSError):
            pass

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        for fd in (self.pidfd, self.status_r):
            if fd is not None and fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.pidfd, self.status_r = None, -1


class _Server:
    """The host's handle on its zygote process."""

    def __init__(self) -> None:
        host_end, zygote_end = socket.socketpair()
        paths = [os.path.abspath(p or os.getcwd()) for p in sys.path]
        boot = ("import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
                "from ptc.interpreter.isolation import _zygote_main; _zygote_main(int(sys.argv[2]), sys.argv[3])")
        # A host that works with tables has pyarrow loaded: its children get it from the zygote's
        # memory instead of importing it on each run.
        preload = "pyarrow" if "pyarrow" in sys.modules else ""
        debug = os.environ.get("PTC_ISOLATION_DEBUG") == "1"
        env = {"PATH": os.defpath, "PYTHONUTF8": "1", **({"PTC_ISOLATION_DEBUG": "1"} if debug else {})}
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-c", boot, json.dumps(paths), str(zygote_end.fileno()), preload],
                pass_fds=(zygote_end.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=None if debug else subprocess.DEVNULL, env=env, cwd="/", start_new_session=True,
            )
        finally:
            zygote_end.close()
        self.ctrl = host_end
        self.lock = threading.Lock()
        self.owner = os.getpid()
        try:
            host_end.settimeout(START_TIMEOUT)
            if host_end.recv(1) != b"R":
                raise OSError("the isolation server did not start")
        except OSError as e:
            self.stop()
            raise PTCError("runtime", f"could not start the isolation server: {e}") from None

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.proc.poll() is None

    def spawn(self) -> _Child:
        with self.lock:
            host_sock, child_sock = socket.socketpair()
            status_r, status_w = os.pipe()
            try:
                self.ctrl.settimeout(SPAWN_TIMEOUT)
                fds_out = array.array("i", [child_sock.fileno(), status_w])  # (socket.send_fds drops flags)
                self.ctrl.sendmsg([b"F"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds_out)], _NOSIGNAL)
                raw, fds = b"", []
                while len(raw) < _PID.size:
                    chunk, more, _flags, _addr = socket.recv_fds(self.ctrl, _PID.size - len(raw), 1)
                    if not chunk:
                        raise OSError("the isolation server went away")
                    raw += chunk
                    fds += more
            except BaseException:
                host_sock.close()
                os.close(status_r)
                raise
            finally:
                child_sock.close()
                os.close(status_w)
        pid = _PID.unpack(raw)[0]
        if pid <= 0:
            host_sock.close()
            os.close(status_r)
            for fd in fds:
                os.close(fd)
            raise OSError("the isolation server could not fork")
        return _Child(host_sock, pid, fds[0] if fds else None, status_r)

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.ctrl.close()
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=2.0)
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.proc.kill()
            with contextlib.suppress(Exception):
                self.proc.wait(timeout=2.0)


_SERVER: _Server | None = None
_SERVER_LOCK = threading.Lock()


def _spawn() -> _Child:
    """Fork a child, (re)starting the zygote when needed; one retry if it had died."""
    for attempt in (1, 2):
        server = _ensure_server()
        try:
            return server.spawn()
        except OSError as e:
            _drop_server(server)
            if attempt == 2:
                raise PTCError("runtime", f"could not start an isolated process: {e}") from None
    raise AssertionError("unreachable")


def _ensure_server() -> _Server:
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is None or not _SERVER.alive():
            if _SERVER is not None and _SERVER.owner == os.getpid():
                _SERVER.stop()
            _SERVER = _Server()
        return _SERVER


def _drop_server(server: _Server) -> None:
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is server:
            _SERVER = None
    if server.owner == os.getpid():
        server.stop()


def start() -> None:
    """Start the isolation server now (otherwise the first isolated run pays ~0.3 s for it)."""
    _ensure_server()


def shutdown() -> None:
    """Stop the isolation server (it also stops by itself when the host process exits)."""
    global _SERVER
    with _SERVER_LOCK:
        server, _SERVER = _SERVER, None
    if server is not None and server.owner == os.getpid():
        server.stop()


_INHERITED: list[_Server] = []


def _forget_after_fork() -> None:
    """In a forked copy of the host: the zygote belongs to the parent; drop our copy of its socket."""
    global _SERVER, _SERVER_LOCK
    if _SERVER is not None:
        with contextlib.suppress(OSError):
            _SERVER.ctrl.close()
        _INHERITED.append(_SERVER)  # never finalized here (its Popen is the parent's)
    _SERVER, _SERVER_LOCK = None, threading.Lock()


atexit.register(shutdown)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


# -- the zygote -----------------------------------------------------------------------------


_WARM_PROGRAM = """
(defn f [{:keys [a b] :as m} & more] (when (and a (not b)) (-> m (assoc :c 1) (update :c inc))))
(def xs (->> data/rows (filter #(> (:n % 0) 1)) (map :n) (into [])))
(let [[p q] [1 2.5] s #{:k "s" nil} r #"a+\\d"] (cond (= p 1) (str p q) :else (re-find r "aa1")))
(loop [i 0 acc {}] (if (< i 3) (recur (inc i) (assoc acc i (* i i))) acc))
(for [x (range 3) :when (odd? x)] [x (tool/t {:x x})])
(doseq [x [1 2]] (println x))
(try (/ 1 0) (catch Exception e (ex-message e)) (finally nil))
(case *1 :a 1 "b" 2 3)
(fn [x] (if-let [y x] (some-> y inc) (or nil false)))
"""


def _warm_up() -> None:
    from .analyzer import Names
    from .api import compile_program
    from .registry import load_library

    load_library()
    compile_program(_WARM_PROGRAM, Names(frozenset(), frozenset(["rows"]), frozenset(["t"]), 1))
    compile_program.cache_clear()


def _zygote_main(ctrl_fd: int, preload: str = "") -> None:
    """Serve fork requests until the host closes the control socket."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ctrl = socket.socket(fileno=ctrl_fd)
    _warm_up()
    if preload == "pyarrow":
        with contextlib.suppress(ImportError):
            import pyarrow  # noqa: F401
            import pyarrow.ipc  # noqa: F401
    gc.collect()
    gc.freeze()  # children do not dirty the inherited heap by collecting it
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: dict[int, int] = {}  # pid -> status pipe (write end)
    sel = selectors.DefaultSelector()
    sel.register(ctrl, selectors.EVENT_READ)
    sel.register(wake_r, selectors.EVENT_READ)
    ctrl.sendall(b"R")

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            fd = children.pop(pid, None)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.write(fd, _PID.pack(os.waitstatus_to_exitcode(status)))
                with contextlib.suppress(OSError):
                    os.close(fd)

    while True:
        for key, _ in sel.select():
            if key.fileobj == wake_r:
                with contextlib.suppress(OSError):
                    while os.read(wake_r, 512):
                        pass
                reap()
                continue
            try:
                msg, fds, _flags, _addr = socket.recv_fds(ctrl, 1, 2)
            except OSError:
                msg, fds = b"", []
            if not msg:  # the host is gone: so are its runs
                for pid in list(children):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                os._exit(0)
            if msg != b"F" or len(fds) != 2:
                for fd in fds:
                    os.close(fd)
                continue
            sock_fd, status_w = fds
            try:
                pid = os.fork()
            except OSError:
                pid = -1
            if pid == 0:
                code = _EXIT_INTERNAL
                try:
                    keep = {0, 1, 2, sock_fd}
                    for fd in (ctrl.fileno(), wake_r, wake_w, status_w, sel.fileno(), *children.values()):
                        if fd not in keep:
                            with contextlib.suppress(OSError):
                                os.close(fd)
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    code = _child_main(sock_fd)
                finally:
                    os._exit(code)
            os.close(sock_fd)
            pidfd_list: list[int] = []
            if pid > 0:
                children[pid] = status_w
                with contextlib.suppress(OSError, AttributeError):
                    pidfd_list.append(os.pidfd_open(pid))
            else:
                os.close(status_w)
            try:
                socket.send_fds(ctrl, [_PID.pack(pid)], pidfd_list)
            except OSError:
                pass
            for fd in pidfd_list:
                os.close(fd)


# -- the child ------------------------------------------------------------------------------


def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 512 * 1024 * 1024


def _set_rlimits(limits: Limits, payload: int) -> None:
    def cap(which: int, soft: int, hard: int | None = None) -> None:
        try:
            _, old_hard = resource.getrlimit(which)
            hard = soft if hard is None else hard
            if old_hard != resource.RLIM_INFINITY:
                hard, soft = min(hard, old_hard), min(soft, old_hard)
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError, AttributeError):
            pass

    address_space = _vm_size() + 2 * limits.max_memory + 4 * payload + AS_HEADROOM
    cap(resource.RLIMIT_AS, address_space)
    cpu = 2 * math.ceil(limits.timeout + GRACE_BASE + GRACE_FACTOR * limits.timeout) + 1
    cap(resource.RLIMIT_CPU, cpu, cpu + 1)
    cap(resource.RLIMIT_CORE, 0)
    if os.environ.get("PTC_ISOLATION_DEBUG") != "1":  # debug output may go to a file
        cap(resource.RLIMIT_FSIZE, 0)
    if hasattr(resource, "RLIMIT_NPROC"):
        cap(resource.RLIMIT_NPROC, 0)


class _ToolStub:
    """Stands in for a host tool in the child: each call is a round trip to the host, which
    runs the tool and bounds it by the run's deadline (killing the child when it passes)."""

    __slots__ = ("name", "sock")
    bounded_by_host = True

    def __init__(self, name: str, sock: socket.socket) -> None:
        self.name = name
        self.sock = sock

    def invoke(self, args: Any) -> Any:
        try:
            payload = _dumps(("tool", self.name, args, tuple(context.CURRENT.prints)))
        except pickle.PicklingError as e:
            raise PTCError("tool", f"tool/{self.name}: arguments cannot be sent to the host: {e}") from None
        except RecursionError:
            raise PTCError("tool", f"tool/{self.name}: arguments are nested too deeply") from None
        try:
            _send(self.sock, payload)
            reply = pickle.loads(_recv(self.sock))
        except (_ChildGone, OSError):
            os._exit(_EXIT_INTERNAL)  # the host is gone (or killed this run)
        if reply[0] == "ok":
            return reply[1]
        fields = reply[1]  # the host ran the tool by the inline rule: its failure is a PTCError
        raise PTCError(fields[0], fields[1], line=fields[2], column=fields[3], hint=fields[4])


def _child_main(sock_fd: int) -> int:
    sock = socket.socket(fileno=sock_fd)
    try:
        raw = _recv(sock)
        source, data, tool_names, memory, limits_d, history = pickle.loads(raw)
        limits = Limits(**limits_d)
        _set_rlimits(limits, len(raw))
        del raw
        _compile_ahead(source, data, tool_names, memory, history)
        _send(sock, _dumps(("compiled",)))
        reply = _child_run(sock, source, data, tool_names, memory, limits, history)
        _send(sock, reply)
        return 0
    except MemoryError:
        _debug_traceback()
        return _EXIT_MEMORY
    except BaseException:  # noqa: BLE001 - reported to the host by the exit code
        _debug_traceback()
        return _EXIT_INTERNAL


def _debug_traceback() -> None:
    """PTC_ISOLATION_DEBUG=1: show why a child failed outside the program (on the zygote's stderr)."""
    if os.environ.get("PTC_ISOLATION_DEBUG") == "1":
        import traceback

        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode())


def _compile_ahead(source: str, data: Any, tool_names: Any, memory: Any, history: Any) -> None:
    """Parse and compile before the run (the host times the two phases separately); the run
    then finds the program in the compile cache. Errors are left for the run to report."""
    from .analyzer import Names
    from .api import compile_program

    try:
        compile_program(source, Names(frozenset(memory), frozenset(data), frozenset(tool_names),
                                      len(history)))
    except MemoryError:
        raise
    except BaseException:  # noqa: BLE001 - reported by the run itself
        pass


def _child_run(sock: socket.socket, source: str, data: Any, tool_names: Any, memory: dict[str, Any],
               limits: Limits, history: Any) -> bytes:
    from .api import run

    tools = {name: _ToolStub(name, sock) for name in tool_names}
    err: PTCError | None = None
    out_of_memory = False
    try:
        r = run(source, data=data, tools=tools, memory=memory, limits=limits, history=history)
    except PTCError as e:
        e.__context__ = None  # the original exception's traceback holds the program's frames (its data)
        err = e
    except MemoryError:  # raised again while the runner handled the first one
        out_of_memory = True  # leave the except clause first: that frees the program's frames
    if out_of_memory:
        gc.collect()
        err = limit_error("max_memory", limits.max_memory,
                          "out of memory (the isolated process hit its address-space limit)")
    if err is not None:
        if err.kind == "limit":
            gc.collect()
        return _error_reply(err, limits)
    defined = getattr(r, "defined", None)
    if defined is not None:
        new_mem = {k: r.memory[k] for k in defined if k in r.memory}
    else:
        new_mem = {k: val for k, val in r.memory.items() if k not in memory or memory[k] is not val}
    msg = ("ok", _result_fields(r), new_mem)
    try:
        with _run_state(limits):
            return _dumps(msg)
    except PTCError as e:
        e.message = f"the result cannot be sent to the host: {e.message}"
        return _error_reply(e, limits)
    except RecursionError:
        return _error_reply(PTCError("runtime", "the result is nested too deeply to send to the host"), limits)
    except pickle.PicklingError as e:
        return _error_reply(PTCError("runtime", f"the result cannot be sent to the host: {e}"), limits)


def _result_fields(r: Any) -> dict[str, Any]:
    """A RunResult as plain fields (memory is sent apart), tool calls as tuples."""
    out = {f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.name != "memory"}
    out["prints"] = list(r.prints)
    out["tool_calls"] = [(c.name, c.args, c.result, c.error, c.duration) for c in r.tool_calls]
    return out


def _error_reply(e: PTCError, limits: Limits) -> bytes:
    fields = (e.kind, e.message, e.line, e.column, e.hint)
    partial = getattr(e, "partial", None)
    p: Any = None
    if partial is not None:
        p = _result_fields(partial)
        try:
            with _run_state(limits):
                return _dumps(("err", fields, p))
        except (PTCError, RecursionError, pickle.PicklingError):  # keep the error, drop what cannot go
            p["value"] = None
            p["tool_calls"] = [(c[0], None, None, c[3], c[4]) for c in p["tool_calls"]]
    return _dumps(("err", fields, p))


__all__ = ["run_isolated", "IsolatedFn", "start", "shutdown"]
