"""The child: OS limits set on itself, then the ordinary inline runner, tools as stubs that
call the host."""


from __future__ import annotations

import contextlib
import dataclasses
import gc
import math
import os
import pickle
import socket
from typing import Any


try:
    import resource
except ImportError:  # not POSIX: run_isolated refuses to run
    resource = None  # type: ignore[assignment]

from .. import context
from ..errors import PTCError, limit_error
from ..limits import Limits
from .framing import AS_HEADROOM, GRACE_BASE, GRACE_FACTOR, _ChildGone, _EXIT_INTERNAL, _EXIT_MEMORY, _recv, _recv_parts, _send, _send_parts
from .pickling import _dumps, _dumps_parts, _run_state

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
        raw, buffers = _recv_parts(sock)
        source, data, tool_names, memory, limits_d, history = pickle.loads(raw, buffers=buffers)
        limits = Limits(**limits_d)
        _set_rlimits(limits, len(raw) + sum(len(b) for b in buffers))
        del raw, buffers
        _send(sock, _dumps(("received",)))  # the inputs are here: the host's clock of the trip stops
        _compile_ahead(source, data, tool_names, memory, history)
        _send(sock, _dumps(("compiled",)))
        reply, buffers = _child_run(sock, source, data, tool_names, memory, limits, history)
        _send_parts(sock, reply, buffers)  # a table in the reply crosses out of band, as the inputs did
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
    from ..analyzer import Names
    from ..inline import compile_program

    try:
        compile_program(source, Names(frozenset(memory), frozenset(data), frozenset(tool_names),
                                      len(history)))
    except MemoryError:
        raise
    except BaseException:  # noqa: BLE001 - reported by the run itself
        pass


def _child_run(sock: socket.socket, source: str, data: Any, tool_names: Any, memory: dict[str, Any],
               limits: Limits, history: Any) -> tuple[memoryview, list[memoryview]]:
    from ..inline import run_inline

    tools = {name: _ToolStub(name, sock) for name in tool_names}
    err: PTCError | None = None
    out_of_memory = False
    try:
        r = run_inline(source, data, tools, memory, limits, history)
    except PTCError as e:
        e.__context__ = None  # the original exception's traceback holds the program's frames (its data)
        err = e
    except MemoryError:  # raised again while the runner handled the first one
        out_of_memory = True  # leave the except clause first: that frees the program's frames
    _send(sock, _dumps(("ran",)))  # the run is over: the reply's trip (sized by the result check) has its own clock
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
            return _dumps_parts(msg)
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


def _error_reply(e: PTCError, limits: Limits) -> tuple[memoryview, list[memoryview]]:
    fields = (e.kind, e.message, e.line, e.column, e.hint)
    partial = getattr(e, "partial", None)
    p: Any = None
    if partial is not None:
        p = _result_fields(partial)
        try:
            with _run_state(limits):
                return _dumps_parts(("err", fields, p))
        except (PTCError, RecursionError, pickle.PicklingError):  # keep the error, drop what cannot go
            p["value"] = None
            p["tool_calls"] = [(c[0], None, None, c[3], c[4]) for c in p["tool_calls"]]
    return _dumps_parts(("err", fields, p))


