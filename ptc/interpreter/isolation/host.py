"""The host side of an isolated run: send the inputs, serve tool calls by the inline rule,
keep the deadline, read the child's untrusted reply, classify a child's death."""


from __future__ import annotations

import dataclasses
import os
import pickle
import signal
import socket
import time
from collections.abc import Mapping
from typing import Any, Sequence


try:
    import resource
except ImportError:  # not POSIX: run_isolated refuses to run
    resource = None  # type: ignore[assignment]

from .. import values as v
from ..errors import PTCError, limit_error
from ..limits import Limits
from ..pause import Pause
from ..tool_calls import Abandoned, ToolCall, abandoned_error, check_call_count, recorded_call
from .framing import (GRACE_BASE, GRACE_FACTOR, MESSAGE_SLACK, TRANSFER_RATE, _ChildGone, _EXIT_MEMORY, _Timeout,
                      _TooLarge, _recv, _recv_parts_capped, _send, _send_parts)
from .pickling import _dumps, _dumps_parts, _loads_untrusted
from .zygote import _Child, _spawn

# -- the host side --------------------------------------------------------------------------


def run_isolated(
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    tools: Mapping[str, Any] | None = None,
    memory: Mapping[str, Any] | None = None,
    limits: Limits | None = None,
    history: Sequence[Any] | None = None,
    resume: Any = None,
) -> Any:
    """`ptc.run` in a child process; same results and errors as inline (see module doc)."""
    from ..inline import RunResult, prepare_inputs

    if resume is not None:
        raise PTCError("runtime", "a paused run cannot be resumed with isolation='process' (not supported yet)",
                       hint='resume it with Limits(isolation="inline")')
    limits = limits or Limits(isolation="process")
    if not hasattr(socket, "send_fds") or not hasattr(os, "fork") or resource is None:
        raise PTCError("runtime", "process isolation needs a POSIX host (fork and descriptor passing)",
                       hint='use Limits(isolation="inline") on this platform')
    inputs = prepare_inputs(source, data, tools, memory, history, limits)
    data_values, tool_map, mem_in, hist = inputs.data, inputs.tools, inputs.memory, inputs.history
    child_limits = limits.model_copy(update={"isolation": "inline"})
    try:
        request, buffers = _dumps_parts((source, data_values, list(tool_map), mem_in, child_limits.model_dump(),
                                         hist))
    except pickle.PicklingError as e:
        raise PTCError("runtime", f"memory or history cannot be sent to the isolated process: {e}",
                       hint="process isolation carries PTC values (and plain JSON-like data) only") from None
    except RecursionError:
        raise PTCError("runtime", "memory or history is nested too deeply to send to the isolated process") from None

    size = len(request) + sum(len(b) for b in buffers)
    cap = 2 * limits.max_memory + 2 * size + MESSAGE_SLACK
    grace = GRACE_BASE + GRACE_FACTOR * limits.timeout
    host_calls: list[Any] = []
    printed: tuple[str, ...] = ()  # what the program printed by its last tool call
    from ..registry import names_heavy_namespace

    child = _spawn(names_heavy_namespace(source))
    finished = False
    phase = "transfer"
    try:
        # the inputs' trip (sent, read and unpickled by the child) is the host's data, not the
        # program's work: off the run's clock, on one of its own (transfer_timeout)
        deadline = time.monotonic() + transfer_timeout(limits, size)
        run_deadline = deadline
        try:
            _send_parts(child.sock, request, buffers, deadline)
        except _ChildGone:
            pass  # the child died at once: reading says so, and the exit status says why
        del request, buffers  # the host keeps no copy of the inputs while the run goes on
        _release_arrow_memory()
        compiled = False
        calls = 0
        while True:
            if phase == "reply":  # the reply's tables out of band (their Arrow streams, not copied again)
                raw, parts = _recv_parts_capped(child.sock, deadline, cap)
            else:
                raw, parts = _recv(child.sock, deadline, cap), []
            tag, body = _parse(raw, limits, parts)
            del raw, parts
            if tag == "received" and phase == "transfer":
                phase = "compile"
                run_deadline = time.monotonic() + limits.timeout  # until the child reports it compiled
                deadline = run_deadline + grace  # the host's: the child's own timeout, plus grace
            elif tag == "compiled" and not compiled and phase == "compile":
                phase = "run"
                compiled = True
                run_deadline = time.monotonic() + limits.timeout
                deadline = run_deadline + grace
            elif tag == "ran" and phase == "run":
                # the program is done: its reply (pickled under the run's limits, at most `cap` bytes)
                # crosses on a clock of its own, as the inputs did
                phase = "reply"
                deadline = time.monotonic() + transfer_timeout(limits, cap)
            elif tag == "tool" and calls <= limits.max_tool_calls and phase == "run":
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
        if phase == "transfer":
            err = limit_error("timeout", limits.timeout,
                              f"sending the run's inputs ({size:,} bytes) to the isolated process took more than "
                              f"{transfer_timeout(limits, size):.3g} s (timeout plus grace, plus 1 s per "
                              f"{TRANSFER_RATE >> 20} MiB)")
        elif phase == "reply":
            err = limit_error("timeout", limits.timeout,
                              f"the isolated run's reply took more than {transfer_timeout(limits, cap):.3g} s to reach "
                              f"the host (timeout plus grace, plus 1 s per {TRANSFER_RATE >> 20} MiB it may hold)")
        else:
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


def _release_arrow_memory() -> None:
    """Give back to the system what Arrow's allocator kept of the tables' streams just sent (it
    keeps freed pages for reuse: the host's resident memory would hold a copy of each table)."""
    import sys

    pa = sys.modules.get("pyarrow")
    if pa is not None:
        pa.default_memory_pool().release_unused()


def transfer_timeout(limits: Limits, size: int) -> float:
    """Seconds the inputs' trip to the child may take (sent, read, unpickled there): the run's
    timeout plus grace, plus one second per TRANSFER_RATE bytes of them."""
    return limits.timeout + GRACE_BASE + GRACE_FACTOR * limits.timeout + size / TRANSFER_RATE


class _BadMessage(Exception):
    pass


def _parse(raw: bytearray, limits: Limits, buffers: Any = ()) -> tuple[str, Any]:
    """Unpickle (allow-listed) and check the shape of one message from the (untrusted) child."""
    from ..inline import RunResult

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
        msg = _loads_untrusted(raw, limits, buffers)
        tag = msg[0]
        if tag in ("received", "compiled", "ran"):
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
    from ..inline import RunResult

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
                    host_calls: list[Any], deadline: float) -> memoryview:
    """Run one proxied tool call in the host by the inline rule (tool_calls.recorded_call),
    by the run's deadline; returns the reply (raises Abandoned when the deadline comes first)."""
    if not isinstance(name, str) or name not in tool_map:
        return _dumps(("err", ("tool", f"tool/{name} is not available", None, None, None), None))
    tool = tool_map[name]
    needs = getattr(tool, "needs_approval", None)
    if needs is not None and needs(args):
        msg = f"tool/{name} requires approval, which isolation='process' does not support yet"
        host_calls.append(ToolCall(name, args, None, msg, 0.0))
        return _dumps(("err", ("tool", msg, None, None, 'run with Limits(isolation="inline") to pause for it'), None))
    try:
        check_call_count(name, calls - 1, limits)
        result, start = recorded_call(name, tool, args, deadline, limits.timeout, host_calls)
    except Pause as p:
        msg = f"tool/{name} paused the run ({p.reason}), which isolation='process' does not support yet"
        host_calls.append(ToolCall(name, args, None, msg, 0.0))
        return _dumps(("err", ("tool", msg, None, None, 'run with Limits(isolation="inline") to pause'), None))
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


