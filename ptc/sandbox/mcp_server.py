"""ptc as an MCP server: the code tool of any MCP client, in front of other MCP servers' tools.

`ptc mcp serve --mcp "python server.py"` (or `Gateway(tools=...).serve()`) offers a client
one tool, `run_ptc_lisp {program}`, whose programs call the tools given (Python tools and
the tools of upstream MCP servers) and reduce their data, so that only the answer reaches
the client's model. Its description teaches the language and lists each tool's signature on
one line; `ptc_tool_doc {name}` returns one tool's full documentation on demand, so a client
with 50 upstream tools does not carry 50 schemas in every prompt. Above `tool_search` tools
(default 30, ptc.tools.search) it lists their groups instead, and programs find tools with
`(tool/search-tools "...")`: the description's size no longer grows with the catalog.

- Sessions: each client connection (stdio: the one client; streamable HTTP: each
  Mcp-Session-Id) has a `Sandbox` of its own, whose definitions persist from call to call
  and are invisible to other sessions, within `Limits.max_session_memory`. The sandbox is
  forgotten with its connection, after `session_idle` seconds without a call, or (the least
  recently used one that is not running) when a new session would pass `max_sessions`; a
  session whose sandbox was forgotten is told so at its next call.
- Results: the report text always (output, result, names defined); `structuredContent`
  when the value is a map (the map) or a sequence ({"result": [...]}) and the text shows it
  whole; a failing program is an `isError` result with the error and its hint, never a
  protocol error.
- Upstreams: their connections are held for the server's life (opened, and answering a
  ping, before the server serves: the first program does not wait for them). A program
  that finds an upstream dead gets a tool error, and the programs after it a new upstream
  process, started in the background as the loss was seen. Closing the server closes every upstream, waiting for each process to end.
- HTTP: what a client may hold is bounded (connections, the time its headers and body take;
  http_bounds.py), so half-sent requests neither keep others out nor fill the log.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hmac
import json
import sys
import threading
import time
import weakref
from typing import Any, Awaitable, Callable, Iterator, Mapping

from ..interpreter.limits import Limits
from ..interpreter.values import to_python
from ..tools.lifetime import RunScope, scopes_of
from . import tool_spec
from .session import Reply, Sandbox

DOC_TOOL = "ptc_tool_doc"


class Gateway:
    """An MCP server whose one code tool runs PTC-Lisp over `tools` and `data` (see the module
    docstring). `with Gateway(...) as gateway:` holds the tools' upstream connections;
    `serve()` does so itself."""

    def __init__(self, *, tools: Any = (), data: Mapping[str, Any] | None = None, limits: Limits | None = None,
                 name: str = "run_ptc_lisp", max_result_chars: int = 2_000, max_sessions: int = 32,
                 session_idle: float = 600.0, tool_search: bool | int | None = None) -> None:
        if max_sessions < 1 or session_idle <= 0:
            raise ValueError("max_sessions must be at least 1 and session_idle above 0 seconds")
        checked = Sandbox(tools=tools, data=data, limits=limits, name=name,  # checks and converts once
                          tool_search=tool_search)
        self.name, self.tools, self.data, self.limits = checked.name, checked.tools, checked.data, checked.limits
        self.max_result_chars = max_result_chars
        self.max_sessions, self.session_idle = max_sessions, session_idle
        self._sessions: weakref.WeakKeyDictionary[Any, _Session] = weakref.WeakKeyDictionary()
        self._dropped: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()  # why, for the next call
        self._lock = threading.Lock()
        self._upstreams: list[RunScope] = scopes_of(self.tools)
        self._held = 0
        self.description = tool_spec.instructions(self.tools, self.data, "compact", tools_text=self._tools_text(),
                                                  limits=self.limits)

    def __repr__(self) -> str:
        return f"Gateway(name={self.name!r}, tools={list(self.tools)}, data={list(self.data)})"

    # -- lifetime ---------------------------------------------------------------------

    def __enter__(self) -> "Gateway":
        for scope in self._upstreams:
            scope.acquire()  # eager: the upstreams start now (together), not on a program's clock
        self._held += 1
        try:
            for scope in self._upstreams:
                wait_open = getattr(scope, "wait_open", None)
                if callable(wait_open):
                    wait_open()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every upstream connection and wait for its process to end."""
        if not self._held:
            return
        self._held -= 1
        for scope in self._upstreams:
            close = getattr(scope, "close", None)
            try:
                if callable(close):
                    close()  # synchronous: the process has ended when this returns
            finally:
                scope.release()

    # -- the tools --------------------------------------------------------------------

    def _tools_text(self) -> str:
        if not self.tools:
            return "Tools: none."
        from ..tools.search import SEARCH_TOOL, catalog_text, is_search_tool

        if is_search_tool(self.tools.get(SEARCH_TOOL)):  # a large catalog: its groups and how to search it
            return (f"Tools: {catalog_text(self.tools)}\nOr call {DOC_TOOL} {{\"name\": \"tool-name\"}} for one "
                    f"tool's parameters, notes and defaults.")
        return (f'Tools (signatures; call {DOC_TOOL} {{"name": "tool-name"}} for one tool\'s parameters, '
                f"notes and defaults):\n" + tool_spec.tool_index(self.tools))

    def mcp_tools(self) -> list[Any]:
        """The tools this server lists (mcp.types.Tool)."""
        import mcp_types as types

        listed = [types.Tool(name=self.name, description=self.description, input_schema=tool_spec.parameters())]
        if self.tools:
            listed.append(types.Tool(
                name=DOC_TOOL,
                description=f"The full documentation of one tool that {self.name} programs can call: its signature, "
                            "description, and each parameter's notes and default.",
                input_schema={"type": "object", "additionalProperties": False, "required": ["name"],
                              "properties": {"name": {"type": "string",
                                                      "description": f"The tool's name, e.g. "
                                                                     f"{next(iter(self.tools))}"}}}))
        return listed

    def _enter(self, session: Any) -> "_Session":
        """The session's entry, marked running; idle sessions are dropped first, and at the cap
        the least recently used one not running (none: a LimitReached naming max_sessions)."""
        now = time.monotonic()
        with self._lock:
            for key, entry in list(self._sessions.items()):
                if not entry.running and now - entry.last > self.session_idle:
                    self._drop(key, f"it was idle for more than {self.session_idle:g} s")
            entry = self._sessions.get(session)
            if entry is None:
                if len(self._sessions) >= self.max_sessions:
                    idle = [(e.last, id(k), k) for k, e in self._sessions.items() if not e.running]
                    if not idle:
                        raise SessionsFull(f"the server runs {self.max_sessions} sessions at once "
                                           f"(max_sessions); try again when one ends")
                    self._drop(min(idle)[2], f"the server keeps at most {self.max_sessions} sessions")
                entry = self._sessions[session] = _Session(Sandbox(
                    tools=self.tools, data=self.data, limits=self.limits, name=self.name,
                    max_result_chars=self.max_result_chars, tool_search=False))  # the tools are final
            entry.running += 1
            entry.last = now
            return entry

    def _drop(self, key: Any, why: str) -> None:
        del self._sessions[key]
        self._dropped[key] = why

    @property
    def session_count(self) -> int:
        return len(self._sessions)

    def run_program(self, session: Any, arguments: Mapping[str, Any]) -> Reply:
        """Run one `run_ptc_lisp` call in the session's sandbox (blocking; never raises for a
        program). An upstream a program found dead is restarted in the background as the loss
        is seen (`MCPConnection`), while the model reads the error."""
        try:
            entry = self._enter(session)
        except SessionsFull as e:
            return Reply(f"error[limit]: {e}", error=True)
        try:
            reply = entry.sandbox.execute(arguments)
        finally:
            with self._lock:
                entry.running -= 1
                entry.last = time.monotonic()
        why = self._dropped.pop(session, None)
        if why is not None:  # the model's earlier defs are gone: say so before it relies on them
            reply = dataclasses.replace(reply, text=f"note: this session's earlier definitions were dropped "
                                                    f"({why}); define again what you need\n{reply.text}")
        return reply

    def tool_doc(self, arguments: Mapping[str, Any]) -> Reply:
        """`ptc_tool_doc {name}`: one tool's full signature, or an error listing the names."""
        from ..tools.naming import kebab

        name = arguments.get("name")
        if not isinstance(name, str) or not name.strip():
            return Reply('error: give the tool\'s name: {"name": "list-orders"}', error=True)
        key = name.strip().removeprefix("tool/")
        tool = self.tools.get(key) or self.tools.get(kebab(key) or key)
        if tool is None:
            from ..interpreter.errors import suggest

            close = suggest(key, list(self.tools))
            known = (f"did you mean {', '.join(close[:3])}?" if close else
                     f"the tools are: {', '.join(self.tools)}" if len(self.tools) <= 50 else
                     'programs find tools with (tool/search-tools "what it does")')
            return Reply(f"error: no tool named {name!r}; {known}", error=True)
        sig = getattr(tool, "signature", None)
        return Reply(sig() if callable(sig) else f"(tool/{key} ...)\n  {getattr(tool, '__doc__', '') or ''}")

    # -- the MCP server ---------------------------------------------------------------

    def mcp_server(self) -> Any:
        """The SDK's low-level `Server` answering tools/list and tools/call."""
        import anyio
        import mcp_types as types
        from mcp import MCPError
        from mcp.server.lowlevel import Server

        from .. import __version__

        async def list_tools(ctx: Any, params: Any) -> Any:
            return types.ListToolsResult(tools=self.mcp_tools())

        async def call_tool(ctx: Any, params: Any) -> Any:
            arguments = dict(params.arguments or {})
            if params.name == self.name:
                session = client_of(ctx)
                reply = await anyio.to_thread.run_sync(self.run_program, session, arguments)
            elif params.name == DOC_TOOL and self.tools:
                reply = self.tool_doc(arguments)
            else:
                raise MCPError(code=types.INVALID_PARAMS, message=f"unknown tool {params.name!r}")
            return call_result(reply)

        return Server("ptc", version=__version__, on_list_tools=list_tools, on_call_tool=call_tool,
                      instructions=f"Call {self.name} with a PTC-Lisp program that calls the tools and returns only "
                                   "the answer.")

    def serve(self, http: tuple[str, int] | None = None, *, token: str | None = None,
              announce: Callable[[str], None] | None = None) -> None:
        """Serve until the client leaves (stdio) or a signal (SIGINT, SIGTERM) ends the server;
        the upstreams are closed before this returns. `http=(host, port)` serves streamable HTTP
        at /mcp instead, requiring `Authorization: Bearer <token>` when a token is given;
        `announce` gets a line saying where the server listens."""
        import anyio

        with self:
            if http is None:
                anyio.run(_until_signal, self._serve_stdio)
            else:
                with _signals_ignored():  # uvicorn stops on them, then raises them again once stopped
                    anyio.run(self._serve_http, http[0], http[1], token, announce)

    async def _serve_stdio(self) -> None:
        import anyio
        from mcp.server.stdio import stdio_server

        # stdout is the protocol channel: a tool that prints must not write into it
        out = anyio.wrap_file(open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False))
        saved, sys.stdout = sys.stdout, sys.stderr
        try:
            server = self.mcp_server()
            async with stdio_server(stdout=out) as (read, write):
                await server.run(read, write, server.create_initialization_options())
        finally:
            sys.stdout = saved

    def http_app(self, host: str = "127.0.0.1", token: str | None = None) -> Any:
        """The streamable HTTP ASGI app (at /mcp), behind a bearer token check when `token` is given."""
        app = self.mcp_server().streamable_http_app(host=host)
        return app if not token else bearer_guard(app, token)

    async def _serve_http(self, host: str, port: int, token: str | None,
                          announce: Callable[[str], None] | None) -> None:
        import asyncio

        import anyio
        import uvicorn

        from .http_bounds import quiet_log, uvicorn_config

        server = uvicorn.Server(uvicorn_config(self.http_app(host, token), host, port))

        async def tell_when_started() -> None:
            while not server.started:
                if server.should_exit:
                    return
                await anyio.sleep(0.02)
            bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
            shown = f"[{host}]" if ":" in host else host
            if announce is not None:
                announce(f"http://{shown}:{bound}/mcp")

        with quiet_log(asyncio.get_running_loop()):
            async with anyio.create_task_group() as tg:
                tg.start_soon(tell_when_started)
                await server.serve()  # uvicorn handles SIGINT and SIGTERM: a graceful stop
                tg.cancel_scope.cancel()


class SessionsFull(RuntimeError):
    """Every one of max_sessions sessions is running a program: a new one must wait."""


@dataclasses.dataclass(eq=False)
class _Session:
    """A client session's sandbox, when it was last used, and how many of its calls run now."""

    sandbox: Sandbox
    last: float = 0.0
    running: int = 0


def client_of(ctx: Any) -> Any:
    """The object that lives as long as one client's connection, to key its sandbox by. The
    SDK builds a ServerSession per request; the connection it wraps is per client (stdio:
    the one client; streamable HTTP: one per Mcp-Session-Id)."""
    connection = getattr(ctx.session, "_connection", None)
    if connection is None:  # pragma: no cover - an SDK that no longer has it: fail loudly, not shared
        raise RuntimeError("this version of the MCP SDK does not expose the client connection; "
                           "ptc mcp serve needs mcp>=2.3,<3")
    return connection


def call_result(reply: Reply) -> Any:
    """A sandbox reply as an MCP CallToolResult (see the module docstring)."""
    import mcp_types as types

    return types.CallToolResult(content=[types.TextContent(type="text", text=reply.text)],
                                structured_content=structured(reply), is_error=reply.error)


def structured(reply: Reply) -> dict[str, Any] | None:
    """The value as structured content: a map as a JSON object, a sequence as {"result": [...]};
    None for scalars, errors, clipped results and values JSON cannot carry (NaN, odd keys)."""
    if reply.error or not reply.complete or reply.value is None:
        return None
    try:
        plain = to_python(reply.value)
        if isinstance(plain, list):
            plain = {"result": plain}
        elif not isinstance(plain, dict):
            return None
        out = json.loads(json.dumps(plain, allow_nan=False, ensure_ascii=False))
    except Exception:  # noqa: BLE001 - text only when it cannot be JSON (or is too large to convert)
        return None
    return out if isinstance(out, dict) else None


def bearer_guard(app: Any, token: str) -> Any:
    """An ASGI app answering 401 to HTTP requests without `Authorization: Bearer <token>` (the
    scheme's name in any case, as RFC 7235 has it; the token exactly)."""
    expected = token.encode()

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            scheme, _, credentials = given.strip().partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(credentials.strip(), expected):
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body",
                            "body": b"missing or wrong bearer token (Authorization: Bearer ...)"})
                return
        await app(scope, receive, send)

    return guarded


@contextlib.contextmanager
def _signals_ignored() -> Iterator[None]:
    """SIGINT and SIGTERM do nothing of their own for the block (in the main thread), so a
    server that stops on them returns normally and its upstreams are closed after."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


async def _until_signal(serve: Callable[[], Awaitable[None]]) -> None:
    """Run `serve` until it returns or SIGINT/SIGTERM arrives (then it is cancelled, so the
    caller's cleanup closes the upstreams)."""
    import signal

    import anyio

    async with anyio.create_task_group() as tg:
        async def watch() -> None:
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for _ in signals:
                    tg.cancel_scope.cancel()
                    return

        if threading.current_thread() is threading.main_thread():
            tg.start_soon(watch)
        await serve()
        tg.cancel_scope.cancel()


__all__ = ["Gateway", "DOC_TOOL", "call_result", "structured", "bearer_guard", "client_of"]
