"""`ptc mcp serve --http` against clients that hold connections (issue 43): 1,100 half-sent
requests denied all service to a server under a 1,024-file limit and wrote 46-69 MB of
tracebacks to its log. A real server process (its read timeouts shortened, its file limit
1,024) and real sockets: connections are bounded, slow headers and bodies are cut, a client
that leaves costs no log line, and a client with a whole request is served throughout."""

from __future__ import annotations

import json
import os
import resource
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from ptc.sandbox import http_bounds

pytestmark = pytest.mark.timing  # read timeouts and answers measured in wall time: run apart

pytest.importorskip("uvicorn")
pytest.importorskip("mcp")

ROOT = Path(__file__).resolve().parents[2]
HEADER_TIMEOUT, BODY_TIMEOUT = 1.0, 1.5  # the server's, shortened for the test
LATE = 0.5  # how long after its timeout a connection may still be open
FILES = 1024  # the server's file limit, as in the issue
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}).encode()


class Server:
    """`ptc mcp serve --http 127.0.0.1:0` in a process of its own, its stderr in a file."""

    def __init__(self, tmp_path: Path) -> None:
        data = tmp_path / "data.json"
        data.write_text('{"targets": {"north": 100}}')
        self.log = tmp_path / "server.log"
        boot = (f"import sys; import ptc.sandbox.http_bounds as b; b.HEADER_TIMEOUT = {HEADER_TIMEOUT}; "
                f"b.BODY_TIMEOUT = {BODY_TIMEOUT}; from ptc.cli.main import main; sys.argv[0] = 'ptc'; main()")
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", boot, "mcp", "serve", "--http", "127.0.0.1:0", "--data", str(data)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES)))
        self.port = self._port()

    def _port(self) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            text = self.log.read_text()
            if "listening on " in text:
                return int(text.split("listening on ")[1].split()[0].rsplit(":", 1)[1].split("/")[0])
            time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)

    def request(self, body: bytes = INITIALIZE, length: int | None = None, extra: bytes = b"") -> bytes:
        """A POST to /mcp with `body`, announcing `length` bytes (its length by default)."""
        return (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                b"Accept: application/json, text/event-stream\r\n%sContent-Length: %d\r\n\r\n%s"
                % (self.port, extra, len(body) if length is None else length, body))

    def answer(self) -> tuple[bytes, float]:
        """A whole initialize request's status line, and how long it took."""
        start = time.perf_counter()
        with self.connect() as s:
            s.sendall(self.request())
            return s.recv(4096).split(b"\r\n")[0], time.perf_counter() - start

    def stop(self) -> str:
        """Stop the server; its log."""
        self.proc.terminate()
        self.proc.wait(15)
        return self.log.read_text()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path)
    yield s
    if s.proc.poll() is None:
        s.proc.kill()
        s.proc.wait(10)


def closed_after(s: socket.socket, within: float) -> float:
    """Seconds until the server closes `s` (inf: still open after `within`)."""
    s.settimeout(within)
    start = time.perf_counter()
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return float("inf")
    except OSError:
        pass
    return time.perf_counter() - start


def test_half_sent_requests_deny_no_one(server: Server) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1_300:
        pytest.skip("this process cannot hold 1,100 sockets")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1_300), hard))
    held: list[socket.socket] = []
    try:
        for _ in range(1_100):
            s = server.connect()
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(s)
        for _ in range(3):  # while they are held, a whole request is answered at once
            status, took = server.answer()
            assert status == b"HTTP/1.1 200 OK" and took < 1.0, (status, took)
    finally:
        for s in held:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    log = server.stop()
    assert "Traceback" not in log and len(log) < 2_000, log[:2000]


def test_slow_headers_and_bodies_are_cut_at_their_timeouts(server: Server) -> None:
    with server.connect() as headers, server.connect() as body, server.connect() as trickle:
        start = time.perf_counter()
        headers.sendall(b"POST /mcp HTTP/1.1\r\n")
        body.sendall(server.request(INITIALIZE[:20], length=len(INITIALIZE)))
        trickle.sendall(b"POST /mcp HTTP/1.1\r\n")
        for _ in range(int(HEADER_TIMEOUT / 0.1) + 5):  # a header line every 0.1 s does not extend it
            try:
                trickle.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
            time.sleep(0.1)
        trickled = time.perf_counter() - start
        assert HEADER_TIMEOUT - 0.1 <= trickled <= HEADER_TIMEOUT + LATE + 0.2, trickled
        assert closed_after(headers, 5) <= LATE
        assert BODY_TIMEOUT - trickled - 0.1 <= closed_after(body, 5) <= BODY_TIMEOUT - trickled + LATE
    assert server.answer()[0] == b"HTTP/1.1 200 OK"
    log = server.stop()
    assert "Traceback" not in log, log[:2000]


def test_a_client_that_leaves_costs_no_log_line(server: Server) -> None:
    with server.connect() as s:  # mid-body, closed
        s.sendall(server.request(INITIALIZE[:20], length=len(INITIALIZE)))
        time.sleep(0.2)
    with server.connect() as s:  # mid-body, reset
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.sendall(server.request(INITIALIZE[:20], length=len(INITIALIZE)))
        time.sleep(0.2)
    with server.connect() as s:  # a whole request, the answer never read
        s.sendall(server.request())
    time.sleep(BODY_TIMEOUT + LATE)
    assert server.answer()[0] == b"HTTP/1.1 200 OK"
    log = server.stop()
    assert log.count("\n") == 1 and "listening on" in log, log[:2000]  # the line saying where it listens


def test_the_connection_bound_leaves_room_for_the_rest_of_the_file_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _: (256, 4096))
    assert http_bounds.max_connections() == 64
    monkeypatch.setattr(resource, "getrlimit", lambda _: (1 << 20, 1 << 20))
    assert http_bounds.max_connections() == http_bounds.MAX_CONNECTIONS
