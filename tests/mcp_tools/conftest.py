"""Fixtures: the test MCP server (tests/mcp/server.py) over stdio and over streamable HTTP."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("mcp")

SERVER = Path(__file__).with_name("server.py")
TOKEN = "test-token"


class ServerProcesses:
    """The pids the stdio test servers wrote, and the calls they received."""

    def __init__(self, tmp: Path) -> None:
        self.pid_file = tmp / "pids"
        self.call_file = tmp / "calls"

    @property
    def env(self) -> dict[str, str]:
        return {"PTC_TEST_MCP_PIDS": str(self.pid_file), "PTC_TEST_MCP_CALLS": str(self.call_file)}

    def spec(self, *extra: str) -> dict[str, Any]:
        return {"command": [sys.executable, str(SERVER), *extra], "env": self.env}

    def pids(self) -> list[int]:
        return [int(x) for x in self.pid_file.read_text().split()] if self.pid_file.exists() else []

    def calls(self) -> list[str]:
        return self.call_file.read_text().splitlines() if self.call_file.exists() else []

    def alive(self, timeout: float = 10.0) -> list[int]:
        """The servers still running after waiting up to `timeout` seconds for them to end."""
        deadline = time.monotonic() + timeout
        while True:
            living = [p for p in self.pids() if _alive(p)]
            if not living or time.monotonic() > deadline:
                return living
            time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)  # our own child: reap it if it has ended
        if waited == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by its parent) is not running
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


@pytest.fixture
def servers(tmp_path: Path) -> ServerProcesses:
    return ServerProcesses(tmp_path)


@pytest.fixture(scope="module")
def module_servers(tmp_path_factory: pytest.TempPathFactory) -> ServerProcesses:
    return ServerProcesses(tmp_path_factory.mktemp("mcp"))


@pytest.fixture(scope="module")
def stdio_tools(module_servers: ServerProcesses) -> Iterator[Any]:
    """The test server's tools over stdio (listed once per module)."""
    import ptc

    tools = ptc.mcp_tools(module_servers.spec())
    yield tools
    tools.close()


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """The test server over streamable HTTP on 127.0.0.1 (a uvicorn server in a thread);
    requests need `Authorization: Bearer test-token`."""
    import uvicorn

    sys.path.insert(0, str(SERVER.parent))
    try:
        import server as test_server  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(SERVER.parent))
    config = uvicorn.Config(test_server.http_app(TOKEN), host="127.0.0.1", port=0, log_level="warning",
                            lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test MCP HTTP server did not start")
        time.sleep(0.02)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/mcp"
    srv.should_exit = True
    thread.join(10)
