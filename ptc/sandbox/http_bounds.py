"""The HTTP server of `ptc mcp serve --http`, bounded against clients that hold connections.

uvicorn reads a request's headers and body for as long as the client takes, and keeps every
connection it accepts: 1,100 half-sent requests (no token is needed to send one) held every
file descriptor of a server under a 1,024-file limit, so it answered nobody while they were
held, and asyncio logged a traceback for each accept it could not make (46 MB in 8 s). So:

- at most `max_connections` connections (128, or a quarter of the file limit when that is
  less): a connection past it closes the one that has waited longest without a request in
  progress (its headers not all there yet, or idle between requests), or itself when every
  connection is busy with a request. A half-sent request never keeps a client out;
- a request's headers must arrive within HEADER_TIMEOUT of the connection (or of the previous
  response), its body within BODY_TIMEOUT of its headers; headers are at most h11's 16 KB and
  bodies the SDK's 4 MiB. A connection past these is closed without a log line;
- no traceback for a request whose client left (the SDK logged one for each body cut short),
  and an accept refused for want of descriptors (the process used them up elsewhere) is
  logged once a minute, in one line, not once per attempt with a traceback.

A request being answered (a program running, a stream of events) is never cut: the bounds are
on what a client sends, not on how long the server takes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Iterator

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0  # seconds a request's headers may take to arrive
BODY_TIMEOUT = 30.0  # seconds a request's body may take once its headers are in
MAX_CONNECTIONS = 128
_QUIET_FOR = 60.0  # seconds between two log lines about refused accepts
_LOG = logging.getLogger("ptc.mcp.http")
# where a request whose client left is logged with its traceback (the SDK's transport, uvicorn)
_REQUEST_LOGGERS = ("mcp.server.streamable_http", "uvicorn.error")


def max_connections() -> int:
    """MAX_CONNECTIONS, or a quarter of the process's file limit when that is less (the rest is
    for upstreams, data files and the sessions' runs)."""
    try:
        import resource
    except ImportError:  # Windows: no file limit to read
        return MAX_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return MAX_CONNECTIONS if soft == resource.RLIM_INFINITY else max(4, min(MAX_CONNECTIONS, soft // 4))


class BoundedH11(H11Protocol):
    """uvicorn's h11 protocol with a connection bound and request read timeouts (module docstring)."""

    limit = MAX_CONNECTIONS  # set by uvicorn_config for the server's protocol class

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._timer: asyncio.TimerHandle | None = None
        self._waiting_since = self.loop.time()
        self._time_the_read()
        live = [c for c in self.connections if not c.transport.is_closing()]
        if len(live) > self.limit:
            waiting = [c for c in live if c is not self and c.waits_for_a_request()]
            (min(waiting, key=lambda c: c._waiting_since) if waiting else self).drop()

    def data_received(self, data: bytes) -> None:
        before = self.conn.their_state
        super().data_received(data)
        if self.conn.their_state is not before:
            self._time_the_read()

    def on_response_complete(self) -> None:
        before = self.conn.their_state
        super().on_response_complete()  # the next request's turn, when this one was read whole
        if self.conn.their_state is not before:
            self._time_the_read()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timer()
        super().connection_lost(exc)

    def waits_for_a_request(self) -> bool:
        """No request in progress: before its headers are all in, or idle between requests."""
        return self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)

    def drop(self) -> None:
        """Close the connection quietly (a client that held it too long, or one too many)."""
        self._cancel_timer()
        if not self.transport.is_closing():
            self.transport.close()

    def _time_the_read(self) -> None:
        """Time what the client sends next: a request's headers, or its body."""
        self._cancel_timer()
        state = self.conn.their_state
        if state is h11.IDLE:
            self._waiting_since = self.loop.time()
            self._timer = self.loop.call_later(HEADER_TIMEOUT, self.drop)
        elif state is h11.SEND_BODY:
            self._timer = self.loop.call_later(BODY_TIMEOUT, self.drop)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def uvicorn_config(app: Any, host: str, port: int) -> Any:
    """uvicorn's configuration of the bounded server: BoundedH11 for every connection (no
    websockets: MCP does not use them), warnings and errors only in the log."""
    import uvicorn

    limit = max_connections()
    protocol = type("BoundedH11", (BoundedH11,), {"limit": limit})
    # the backlog is also how many connections asyncio accepts in one turn of the loop, before
    # the ones they push out are closed: at 2,048 (uvicorn's) one burst passed the file limit
    return uvicorn.Config(app, host=host, port=port, http=protocol, ws="none", backlog=limit,
                          log_level="warning", lifespan="on", timeout_graceful_shutdown=2)


@contextlib.contextmanager
def quiet_log(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """While the server runs, its log holds no line per connection a client dropped or could
    not open: the SDK's traceback for a request whose client left mid-body (ClientDisconnect)
    is left out, and `loop` logs a refused accept (no descriptor left) in one line at most
    once a minute instead of once per attempt with a traceback."""
    loggers = [logging.getLogger(name) for name in _REQUEST_LOGGERS]
    for logger in loggers:
        logger.addFilter(_client_left)
    previous = loop.get_exception_handler()
    last = [float("-inf")]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == "socket.accept() out of system resource":
            now = time.monotonic()
            if now - last[0] >= _QUIET_FOR:
                last[0] = now
                _LOG.warning("ptc mcp serve: refusing connections, no file descriptor left (%s)",
                             context.get("exception"))
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
    try:
        yield
    finally:
        loop.set_exception_handler(previous)
        for logger in loggers:
            logger.removeFilter(_client_left)


def _client_left(record: logging.LogRecord) -> bool:
    """False for a record whose exception says only that the client went away."""
    from starlette.requests import ClientDisconnect

    error = record.exc_info[1] if record.exc_info else None
    return not isinstance(error, (ClientDisconnect, ConnectionError))
