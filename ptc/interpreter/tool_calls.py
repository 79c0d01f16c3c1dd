"""Calling host tools from programs: the argument convention, and calls bounded by a deadline.

A tool runs in a worker thread while the program's thread waits for it until the run's
deadline. At the deadline the run stops waiting and fails with a `limit` error: a
synchronous tool still running is abandoned (its thread finishes in the background and its
result is dropped), an async tool is cancelled. Inline and isolated runs (whose tools run in
the host) share this path, so a tool behaves the same under both.

While the program's thread waits, the tool may start a run of its own (a sub-agent): the
waiting run lends it the interpreter lock (see context.RunLock), and the nested run's
deadline is never later than the waiting run's. The worker runs the tool in a copy of the
calling thread's context variables (as asyncio.to_thread does), so a sub-agent's trace
spans join the caller's trace.
"""

from __future__ import annotations

import contextvars
import inspect
import os
import queue
import threading
import time
from concurrent.futures import Future, TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Callable

from . import context, hooks
from . import values as v
from .errors import PTCError, limit_error


def tool_args(args: tuple[Any, ...]) -> Any:
    """Tool call convention: no args -> {}, one map -> that map, otherwise positional."""
    if not args:
        return v.EMPTY_MAP
    if len(args) == 1 and type(args[0]) in v.MAP_TYPES:
        return args[0]
    return v.vec(args)


def call_plain_tool(fn: Callable[..., Any], args: Any) -> Any:
    """Call a plain Python callable: a map becomes keyword arguments (kebab -> snake)."""
    if type(args) in v.MAP_TYPES:
        kwargs = {str(k).replace("-", "_"): val for k, val in v.to_python(args).items()}
        return fn(**kwargs)
    return fn(*v.to_python(args))


class Abandoned(Exception):
    """The deadline passed while the tool was still running."""


def invoke_tool(name: str, tool: Any, args: Any, deadline: float) -> Any:
    """The tool's result as JSON-like data (see tools.tool.json_result), computed in a worker
    thread by `deadline` (time.monotonic()); raises Abandoned when the deadline comes first."""
    if getattr(tool, "bounded_by_host", False):  # an isolated child's stub: the host bounds the call
        return tool.invoke(args)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise Abandoned
    lock = context.LOCK
    loan = lock.lend()
    caller = contextvars.copy_context()  # the tool sees the caller's context variables (a trace's current span)
    future = _POOL.submit(lambda: caller.run(_call, name, tool, args, deadline, loan))
    try:
        return future.result(timeout=remaining)
    except FutureTimeout:
        raise Abandoned from None
    finally:
        lock.take_back(loan)


def _call(name: str, tool: Any, args: Any, deadline: float, loan: Any) -> Any:
    """In the worker: invoke the tool, run an async one's coroutine until the deadline."""
    context.borrow(loan)
    try:
        invoke = getattr(tool, "invoke", None)
        result = invoke(args) if invoke is not None else call_plain_tool(tool, args)
        if inspect.iscoroutine(result):
            import asyncio  # here: its import was ~25 ms of every start, for async tools alone

            result = asyncio.run(_until(result, deadline))
        if invoke is None:
            result = hooks.json_result(result, f"tool/{name} result")
        return result
    finally:
        context.borrow(None)


async def _until(coro: Any, deadline: float) -> Any:
    import asyncio

    try:
        return await asyncio.wait_for(coro, max(0.0, deadline - time.monotonic()))
    except asyncio.TimeoutError:
        raise Abandoned from None


def abandoned_error(name: str, timeout: float) -> PTCError:
    return limit_error("timeout", timeout, f"tool/{name} was still running at the deadline (abandoned)")


@dataclass(frozen=True)
class ToolCall:
    """One tool call a program made: PTC values in and out, and how long it took."""

    name: str
    args: Any
    result: Any = None
    error: str | None = None
    duration: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "args": v.to_python(self.args), "result": v.to_python(self.result),
                "error": self.error, "duration": self.duration}


# What watches the tool calls made in this context (an agent's OpenTelemetry spans,
# ptc.agent.trace): `watcher(name, args)` is entered around each call, in the program's thread
# (the host's for an isolated run), before the tool's worker starts; the value it gives is told
# the raw result (`.returned(result)`), a failure reaches its __exit__ as the exception raised.
TOOL_WATCHER: contextvars.ContextVar[Callable[[str, Any], Any] | None] = contextvars.ContextVar(
    "ptc_tool_watcher", default=None)


def recorded_call(name: str, tool: Any, args: Any, deadline: float, timeout: float,
                  records: list[ToolCall]) -> tuple[Any, float]:
    """The rule of one tool call, the same inline and in the host for an isolated child: the
    tool runs by the deadline; a failure is recorded and raised as a PTCError (Abandoned as
    it is: the caller ends the run), a Python exception as a tool error naming it. Returns the
    raw result and when the call started (the caller records a success, once converted)."""
    watcher = TOOL_WATCHER.get()
    if watcher is None:
        return _recorded_call(name, tool, args, deadline, timeout, records)
    with watcher(name, args) as watch:
        result, start = _recorded_call(name, tool, args, deadline, timeout, records)
        watch.returned(result)
        return result, start


def _recorded_call(name: str, tool: Any, args: Any, deadline: float, timeout: float,
                   records: list[ToolCall]) -> tuple[Any, float]:
    start = time.perf_counter()
    try:
        return invoke_tool(name, tool, args, deadline), start
    except Abandoned:
        records.append(ToolCall(name, args, None, abandoned_error(name, timeout).message, time.perf_counter() - start))
        raise
    except PTCError as e:
        records.append(ToolCall(name, args, None, e.message, time.perf_counter() - start))
        raise
    except Exception as e:  # noqa: BLE001 - a failing tool is a tool error, never a crash
        msg = f"tool/{name} failed: {type(e).__name__}: {e}"
        records.append(ToolCall(name, args, None, msg, time.perf_counter() - start))
        raise PTCError("tool", msg, hint="check the tool's arguments; the tool raised an exception") from None


def check_call_count(name: str, made: int, limits: Any) -> None:
    """max_tool_calls: `made` calls before this one."""
    if made >= limits.max_tool_calls:
        raise limit_error("max_tool_calls", limits.max_tool_calls, f"too many tool calls (tool/{name})")


class _Pool:
    """Daemon threads for tool calls: an idle one takes the next call, else a new one starts.
    (Abandoned calls keep their thread until they end; daemon threads never block exit.)"""

    def __init__(self) -> None:
        self._tasks: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = queue.SimpleQueue()
        self._idle = 0
        self._mutex = threading.Lock()

    def submit(self, fn: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        with self._mutex:
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, name="ptc-tool", daemon=True).start()
        self._tasks.put((fn, future))
        return future

    def _work(self) -> None:
        while True:
            fn, future = self._tasks.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn())
                except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
                    future.set_exception(e)
            with self._mutex:
                self._idle += 1


_POOL = _Pool()


def _after_fork() -> None:
    global _POOL
    _POOL = _Pool()  # threads do not survive a fork


os.register_at_fork(after_in_child=_after_fork)


__all__ = ["tool_args", "call_plain_tool", "invoke_tool", "Abandoned", "abandoned_error"]
