"""Run scopes: resources a tool needs for the length of a run, not of one call.

A tool may carry a `scope` (e.g. the connection to the MCP server it calls). A run enters
the scopes of its tools before its first program and leaves them when it ends, however it
ends; a scope shared by several tools is entered once. A scope counts its holders, so runs
may nest or overlap (a sub-agent, concurrent suite missions): the resource lives until the
last one leaves. `Agent.run`, `arun`, `astream` and `resume` do this, and `ptc.run` (opening
only the scopes of the tools its program names); so does `with run_scope(tools):` around code of your own (several `ptc.run`
calls sharing a connection).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncIterator, Iterable, Iterator, Mapping, Protocol, runtime_checkable


@runtime_checkable
class RunScope(Protocol):
    """A resource held open while at least one run (or `with` block) holds it."""

    def acquire(self, eager: bool = True) -> None: ...

    def release(self) -> None: ...


def scopes_of(tools: Mapping[str, Any] | Any) -> list[RunScope]:
    """The distinct scopes of these tools (a mapping name -> tool, or a list), in order."""
    values = tools.values() if isinstance(tools, Mapping) else tools
    out: list[RunScope] = []
    for t in values:
        scope = getattr(t, "scope", None)
        if isinstance(scope, RunScope) and not any(scope is s for s in out):
            out.append(scope)
    return out


@contextlib.contextmanager
def run_scope(tools: Mapping[str, Any] | Any, *, eager: bool = True) -> Iterator[None]:
    """Hold the tools' scopes for the block (released in reverse order, also on errors).
    `eager=False` (ptc.run) opens a resource only when asked (`wait_started`, for the tools a
    program names) or at its first use: a single program may never call the tool, while an
    agent run almost always does."""
    with contextlib.ExitStack() as stack:
        for scope in scopes_of(tools):
            scope.acquire(eager)
            stack.callback(scope.release)
        yield


def wait_started(tools: Mapping[str, Any], names: Iterable[str]) -> None:
    """Wait until the scopes of the named tools have started (an MCP server's process is up):
    called before a program's clock starts, so no program pays for a server's start."""
    for scope in scopes_of([tools[n] for n in dict.fromkeys(names) if n in tools]):
        wait = getattr(scope, "wait_started", None)
        if wait is not None:
            wait()


@contextlib.asynccontextmanager
async def arun_scope(tools: Mapping[str, Any] | Any) -> AsyncIterator[None]:
    """`run_scope` for async runs: releasing (which may wait for a server to exit) runs in a
    thread, so the event loop is never blocked."""
    scopes = scopes_of(tools)
    for scope in scopes:
        scope.acquire()
    try:
        yield
    finally:
        await asyncio.shield(asyncio.to_thread(_release_all, scopes))


def _release_all(scopes: list[RunScope]) -> None:
    with contextlib.ExitStack() as stack:  # every scope is released, even if one fails
        for scope in scopes:
            stack.callback(scope.release)


__all__ = ["RunScope", "scopes_of", "run_scope", "arun_scope", "wait_started"]
