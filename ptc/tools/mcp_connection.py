"""One MCP server connection, usable from any thread, alive for the runs that use it.

The official SDK's client is structured concurrency: `async with stdio_client(params) as (r, w):
async with ClientSession(r, w) as s: await s.initialize()`, entered and exited by one task.
ptc calls tools from worker threads (each async call in its own short event loop), so an
`MCPConnection` keeps that structure in a task of its own event loop, in a daemon thread:
the task opens the transport and session, waits to be told to stop, and closes them
(the SDK then ends the server process: stdin closed, then terminate, then kill). Tool calls
from any thread are sent to that loop and awaited there; cancelling one (the run's deadline)
cancels the request.

Lifetime: the connection opens when a *run scope* is entered (`acquire`, in the background:
the first call waits for it) and closes when the last scope using it ends (`release`;
counted: `Agent.run` enters one for its tools, and so does `with ptc.mcp_tools(...) as
tools:`; `ptc.run` enters one and, when the program names one of the tools, opens the
connection and waits for it before the program's clock starts: `wait_started`).
A call made outside every scope (a tool called directly from Python) gets a connection of
its own, closed after the call.

A server that dies (or breaks the connection) is replaced as soon as that is seen: closed,
and while a run scope holds the connection started again, both in the background (`_lost`).
A call only holds the connection itself outside every scope, so a call cancelled at a run's
deadline never keeps the server past the run.

Closing on release happens in a background (non-daemon) thread: a run returns at its
deadline even when its server is stuck in a call and takes seconds to exit, and the
interpreter still waits for every server to be ended before it exits. `close()` closes
before it returns (a server shutting down its upstreams).
"""

from __future__ import annotations

import asyncio
import shlex
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import IO, Any, Awaitable, Callable, Mapping, Sequence, TypeVar
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")

CLOSE_TIMEOUT = 10.0  # seconds for a closing connection to end its server (the SDK bounds each step)
LIST_PAGES = 100  # tools/list pages read at most (a paginator that never ends cannot hang)
MAX_RESTARTS = 3  # new servers started in a row for one that died before answering a call


class MCPServerError(Exception):
    """An MCP server could not be reached, did not answer in time, or broke the connection."""


class MCPServerSpec(BaseModel):
    """How to reach an MCP server: a command line run as a subprocess (stdio transport), or
    an http(s) URL (streamable HTTP transport) with optional headers."""

    model_config = ConfigDict(frozen=True)

    command: tuple[str, ...] = ()
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    env: dict[str, str] | None = None  # extra environment variables for a stdio server
    cwd: str | None = None

    @classmethod
    def of(cls, server: "str | Sequence[str] | Mapping[str, Any] | MCPServerSpec",
           headers: Mapping[str, str] | None = None) -> "MCPServerSpec":
        """`"python server.py --flag"` (split like a shell), `["python", "server.py"]`,
        `"https://host/mcp"`, a mapping of the fields, or an MCPServerSpec. `headers` are added
        to an HTTP server's."""
        if isinstance(server, MCPServerSpec):
            spec = server
        elif isinstance(server, Mapping):
            spec = cls.model_validate(dict(server))
        elif isinstance(server, str):
            text = server.strip()
            if text.startswith(("http://", "https://")):
                spec = cls(url=text)
            else:
                try:
                    spec = cls(command=tuple(shlex.split(text)))
                except ValueError as e:
                    raise ValueError(f"cannot split the MCP server command {server!r}: {e}") from None
        elif isinstance(server, Sequence) and all(isinstance(x, str) for x in server):
            spec = cls(command=tuple(server))
        else:
            raise TypeError(f"an MCP server is a command line, a URL or a mapping, not {type(server).__name__}")
        if headers:
            spec = spec.model_copy(update={"headers": {**spec.headers, **headers}})
        if (spec.url is None) == (not spec.command):
            raise ValueError("an MCP server needs exactly one of a command line or an http(s) URL")
        if spec.url is not None and not spec.url.startswith(("http://", "https://")):
            raise ValueError(f"an MCP server URL must start with http:// or https://, not {spec.url!r}")
        if spec.headers and spec.url is None:
            raise ValueError("headers are for MCP servers reached by URL, not for a command line")
        return spec

    @property
    def label(self) -> str:
        """The server as error messages name it (a URL without credentials or query)."""
        if self.url is None:
            return shlex.join(self.command)
        parts = urlsplit(self.url)
        return urlunsplit((parts.scheme, parts.hostname or "" if parts.port is None
                           else f"{parts.hostname}:{parts.port}", parts.path, "", ""))


@dataclass
class _Link:
    """One open (or opening) connection: its event loop, thread and session."""

    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    stop: asyncio.Event
    ready: Future[Any] = field(default_factory=Future)  # the initialized ClientSession
    holder: Future[None] | None = None
    errlog: IO[str] | None = None
    http_error: str | None = None  # the last HTTP error status the server answered with
    done: threading.Event = field(default_factory=threading.Event)  # the task has closed everything

    def stderr_tail(self, limit: int = 600) -> str:
        """The last lines the server wrote to stderr (kept for error messages)."""
        if self.errlog is None:
            return ""
        try:
            self.errlog.flush()
            self.errlog.seek(0)
            text = self.errlog.read()
        except (OSError, ValueError):
            return ""
        text = text.strip()
        return text if len(text) <= limit else "..." + text[-limit:]


class MCPConnection:
    """A run-scoped connection to one MCP server (see the module docstring)."""

    def __init__(self, server: MCPServerSpec, *, connect_timeout: float = 30.0) -> None:
        require_sdk()
        self.server = server
        self.connect_timeout = connect_timeout
        self._lock = threading.Lock()
        self._link: _Link | None = None
        self._scopes = 0
        self._restarts = 0  # servers started in a row after one was lost, no call answered since
        self._own = 0  # calls made outside every run scope, each holding a scope of its own
        self.opened = 0  # how many times a connection was opened (tests and diagnostics)

    # -- run scopes ------------------------------------------------------------------------

    def acquire(self, eager: bool = True) -> None:
        """Enter a run scope. The connection starts opening now, in the background (so a
        slow server starts while the model writes its first program, not on the clock of
        that program), or with `eager=False` at the first call; it stays open until the
        last scope ends."""
        with self._lock:
            self._scopes += 1
            if eager:
                self._open_locked()

    def release(self) -> None:
        """Leave a run scope; the last one out closes the connection."""
        with self._lock:
            self._scopes = max(0, self._scopes - 1)
            link = self._link if self._scopes == 0 else None
            if link is not None:
                self._link = None
        if link is not None:
            _close_later(link)

    def wait_started(self) -> None:
        """Wait (up to `connect_timeout`) until a held connection's server has started,
        opening it if it is not: a run calls this before its clock starts, so a server's start
        is never charged to a program's timeout. A failure to start is left for the call to
        report (with the server's stderr)."""
        with self._lock:
            link = self._open_locked() if self._scopes else None
        if link is None:
            return
        try:
            link.ready.result(timeout=self.connect_timeout)
        except Exception:  # noqa: BLE001 - reported by the call that needs the server
            pass

    @property
    def is_open(self) -> bool:
        return self._link is not None

    def close(self) -> None:
        """Close now, whatever the scopes (they reopen it on their next call)."""
        with self._lock:
            link, self._link = self._link, None
        if link is not None:
            _close(link)

    # -- requests --------------------------------------------------------------------------

    async def request(self, make: Callable[[Any], Awaitable[T]]) -> T:
        """`await make(session)` on the connection's loop, from any thread or event loop; a
        call outside every run scope has a connection of its own for the call. A call inside
        a scope does not hold the connection itself: a call cancelled at a run's deadline ends
        after the run, and the run's end (not that race) decides when the server closes."""
        with self._lock:
            own = self._scopes == 0
            if own:
                self._scopes += 1
                self._own += 1
        try:
            link = await self._ensure_open()
            session = link.ready.result()
            try:
                result = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(make(session), link.loop))
                self._restarts = 0
                return result
            except (asyncio.CancelledError, MCPServerError):
                raise
            except Exception as e:  # noqa: BLE001 - classified: a dead server, or the server's answer
                if not link.thread.is_alive() or (link.holder is not None and link.holder.done()) \
                        or _is_closed_error(e):
                    raise MCPServerError(self._lost(link, e)) from None
                raise
        finally:
            if own:
                with self._lock:
                    self._own -= 1
                self.release()

    def request_sync(self, make: Callable[[Any], Awaitable[T]], timeout: float | None = None) -> T:
        """`request` for synchronous callers (listing tools), bounded by `timeout` seconds."""
        async def bounded() -> T:
            try:
                return await asyncio.wait_for(self.request(make), timeout)
            except asyncio.TimeoutError:
                raise MCPServerError(f"MCP server {self.server.label} did not answer within {timeout:g}s") from None

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(bounded())
        with ThreadPoolExecutor(1) as pool:  # called from async code: not on its event loop
            return pool.submit(asyncio.run, bounded()).result()

    def wait_open(self, timeout: float | None = None) -> None:
        """Block until the server answers a ping (a holder that wants its server ready before
        it serves anyone); MCPServerError when it cannot start."""
        self.request_sync(lambda session: session.send_ping(), timeout or self.connect_timeout)

    def list_tools(self, timeout: float | None = None) -> list[Any]:
        """Every tool the server offers (mcp.types.Tool), following pagination."""
        async def walk(session: Any) -> list[Any]:
            tools: list[Any] = []
            cursor = None
            for _ in range(LIST_PAGES):
                page = await session.list_tools(params=_page(cursor))
                tools.extend(page.tools)
                cursor = page.next_cursor
                if not cursor:
                    break
            return tools

        return self.request_sync(walk, timeout or self.connect_timeout)

    # -- opening and closing ---------------------------------------------------------------

    def _open_locked(self) -> _Link:
        if self._link is None:
            self._link = self._start()
            self.opened += 1
        return self._link

    async def _ensure_open(self) -> _Link:
        with self._lock:
            link = self._open_locked()
        try:
            await asyncio.wait_for(asyncio.wrap_future(_shared(link.ready)), self.connect_timeout)
        except asyncio.TimeoutError:
            self._drop(link)
            tail = link.stderr_tail()
            raise MCPServerError(f"MCP server {self.server.label} did not start within {self.connect_timeout:g}s"
                                 + (f"; its stderr: {tail}" if tail else "")) from None
        except MCPServerError:
            self._drop(link)
            raise
        # cancelled (the program's deadline): the link goes on starting for the run's next
        # call; without a run scope, `request` releases and so closes it
        return link

    def _drop(self, link: _Link) -> None:
        """Forget a link that failed to open and close it in the background (once)."""
        with self._lock:
            mine = self._link is link
            if mine:
                self._link = None
        if mine:
            _close_later(link)

    def _start(self) -> _Link:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, daemon=True, name="ptc-mcp")
        stop = asyncio.Event()
        link = _Link(loop=loop, thread=thread, stop=stop)
        if self.server.url is None:
            link.errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        thread.start()
        link.holder = asyncio.run_coroutine_threadsafe(self._hold(link), loop)
        return link

    async def _hold(self, link: _Link) -> None:
        """The task that owns the transport and the session for the link's whole life."""
        from mcp import ClientSession

        try:
            async with self._transport(link) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    link.ready.set_result(session)
                    await link.stop.wait()
        except BaseException as e:  # noqa: BLE001 - reported to whoever waits for the session
            if not link.ready.done():
                link.ready.set_exception(MCPServerError(self._failed_to_start(link, e)))
            else:
                self._lost(link, e)
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
        finally:
            link.done.set()

    def _transport(self, link: _Link) -> Any:
        from contextlib import asynccontextmanager

        server = self.server
        if server.url is None:
            from mcp import StdioServerParameters, stdio_client

            params = StdioServerParameters(command=server.command[0], args=list(server.command[1:]),
                                           env=server.env, cwd=server.cwd)
            return stdio_client(params, errlog=link.errlog)  # type: ignore[arg-type]

        @asynccontextmanager
        async def http() -> Any:
            import httpx2
            from mcp.client.streamable_http import streamable_http_client

            async def note_status(response: Any) -> None:
                if response.status_code >= 400:  # the SDK reports only "an error response"
                    link.http_error = f"HTTP {response.status_code} {response.reason_phrase}".strip()

            async with httpx2.AsyncClient(headers=server.headers, timeout=httpx2.Timeout(30.0, read=300.0),
                                          event_hooks={"response": [note_status]}) as client:
                async with streamable_http_client(server.url, http_client=client) as streams:  # type: ignore[arg-type]
                    yield streams

        return http()

    # -- messages --------------------------------------------------------------------------

    def _failed_to_start(self, link: _Link, e: BaseException) -> str:
        kind = "could not be started" if self.server.url is None else "could not be reached"
        msg = f"MCP server {self.server.label} {kind}: {describe(e)}"
        if link.http_error:
            msg += f" ({link.http_error}" + (": check the headers (headers=, or --mcp-header 'Authorization: "
                                            "Bearer ...'))" if link.http_error.startswith(("HTTP 401", "HTTP 403"))
                                            else ")")
        tail = link.stderr_tail()
        return msg + (f"; its stderr: {tail}" if tail else "")

    def _lost(self, link: _Link, e: BaseException) -> str:
        """Why the call on a link whose server died or broke it failed; the link is replaced
        the moment the loss is seen: closed in the background and, while a scope holds the
        connection, a new server started in the background too, so the next program waits for
        it before its clock starts (`wait_started`) instead of failing or starting it on its
        clock. A server that dies again before answering any call is restarted at most
        MAX_RESTARTS times in a row."""
        msg = f"the connection to MCP server {self.server.label} was lost ({describe(e)})"
        tail = link.stderr_tail()
        with self._lock:
            mine = self._link is link
            if mine:
                self._link = None
                if self._scopes > self._own and self._restarts < MAX_RESTARTS:  # a run scope holds it
                    self._restarts += 1
                    self._open_locked()
        if mine:
            _close_later(link)
        return msg + (f"; its stderr: {tail}" if tail else "")


def require_sdk() -> None:
    """MCP tools need the official SDK (an optional extra); say how to get it."""
    import importlib.util

    missing = [m for m in ("mcp", "jsonschema") if importlib.util.find_spec(m) is None]
    if missing:
        raise ImportError(f"MCP tools need {' and '.join(missing)}: pip install \"ptc-lisp[mcp]\"")


def _close(link: _Link) -> None:
    """Tell the link's task to close the session and transport, wait (bounded), end the loop."""
    loop = link.loop
    holder = link.holder
    if holder is not None and not (link.ready.done() and link.ready.exception() is None):
        holder.cancel()  # still starting: nothing to close politely (the SDK still ends the server)
    elif not loop.is_closed():
        try:
            loop.call_soon_threadsafe(link.stop.set)
        except RuntimeError:  # the loop already stopped
            pass
    if not link.done.wait(CLOSE_TIMEOUT) and holder is not None:
        holder.cancel()  # not closing in time: cancelled (the SDK still ends the server process)
        link.done.wait(CLOSE_TIMEOUT)
    try:
        loop.call_soon_threadsafe(loop.stop)
    except RuntimeError:
        pass
    link.thread.join(CLOSE_TIMEOUT)
    if not link.thread.is_alive():
        loop.close()
    if link.errlog is not None:
        link.errlog.close()


def _close_later(link: _Link) -> None:
    """`_close` in a thread of its own: the caller (a run ending at its deadline) does not
    wait for the server to exit. Not a daemon, so the interpreter ends the server before
    it exits."""
    threading.Thread(target=_close, args=(link,), name="ptc-mcp-close").start()


def _shared(future: Future[T]) -> Future[T]:
    """A future that follows `future` (so several waiters may wrap and cancel their own)."""
    out: Future[T] = Future()

    def copy(done: Future[T]) -> None:
        if out.done():
            return
        if done.cancelled():
            out.cancel()
        elif done.exception() is not None:
            out.set_exception(done.exception())  # type: ignore[arg-type]
        else:
            out.set_result(done.result())

    future.add_done_callback(copy)
    return out


def _page(cursor: str | None) -> Any:
    if cursor is None:
        return None
    from mcp.types import PaginatedRequestParams

    return PaginatedRequestParams(cursor=cursor)


def leaves(e: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups, or `e` itself."""
    if isinstance(e, BaseExceptionGroup):
        return [leaf for sub in e.exceptions for leaf in leaves(sub)]
    return [e]


def describe(e: BaseException) -> str:
    """`FileNotFoundError: [Errno 2] No such file or directory: 'x'` (groups unwrapped)."""
    parts = []
    for leaf in leaves(e):
        if isinstance(leaf, asyncio.CancelledError):
            continue
        text = str(leaf).strip()
        parts.append(f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__)
    return "; ".join(dict.fromkeys(parts)) or type(e).__name__


def _is_closed_error(e: BaseException) -> bool:
    """Whether `e` says the connection is gone (rather than the server answering with an error)."""
    import anyio
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED

    for leaf in leaves(e):
        if isinstance(leaf, (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream,
                             ConnectionError, EOFError)):
            return True
        if isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED:
            return True
    return False


__all__ = ["MCPServerSpec", "MCPServerError", "MCPConnection", "describe", "leaves"]
