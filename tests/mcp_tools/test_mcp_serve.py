"""`ptc mcp serve` as a real subprocess, driven by the official MCP client (the SDK's
ClientSession, held by ptc's MCPConnection) over stdio and over streamable HTTP, with the
test MCP server (tests/mcp_tools/server.py) as its upstream. One gateway process per
transport for the module."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from ptc.tools.mcp_connection import MCPConnection, MCPServerError, MCPServerSpec

from .conftest import SERVER, ServerProcesses

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "gateway-secret"
ENV = {"PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def upstream(servers: ServerProcesses) -> str:
    """The upstream's command line (`env` passes the pid file: stdio servers get a bare environment)."""
    return shlex.join(["env", *(f"{k}={v}" for k, v in servers.env.items()), sys.executable, str(SERVER)])


def gateway_args(servers: ServerProcesses, data: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "ptc", "mcp", "serve", "--mcp", upstream(servers), "--data", str(data),
            "--tools", "ptc.examples.tools:get_product", "--limits", "timeout=2,max_steps=300000", *extra]


class Client:
    """One client session with a gateway (a ClientSession on a thread of its own)."""

    def __init__(self, spec: MCPServerSpec) -> None:
        self.connection = MCPConnection(spec, connect_timeout=60)
        self.connection.acquire()

    def call(self, name: str, arguments: dict[str, Any], timeout: float = 30) -> Any:
        return self.connection.request_sync(lambda s: s.call_tool(name, arguments), timeout)

    def run(self, program: str) -> Any:
        return self.call("run_ptc_lisp", {"program": program})

    def close(self) -> None:
        self.connection.close()


def text(result: Any) -> str:
    return "\n".join(b.text for b in result.content)


@pytest.fixture(scope="module")
def data_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("data") / "targets.json"
    path.write_text(json.dumps({"targets": {"north": 100, "east": 500}}))
    return path


@pytest.fixture(scope="module")
def stdio_upstreams(tmp_path_factory: pytest.TempPathFactory) -> ServerProcesses:
    return ServerProcesses(tmp_path_factory.mktemp("stdio-upstream"))


class HTTPGateway:
    """The gateway over streamable HTTP on a free port of 127.0.0.1, requiring the bearer token."""

    def __init__(self, upstreams: ServerProcesses, data: Path) -> None:
        self.upstreams = upstreams
        self.proc = subprocess.Popen(gateway_args(upstreams, data, "--http", "127.0.0.1:0"),
                                     env={**os.environ, **ENV, "PTC_MCP_TOKEN": TOKEN}, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self._url: str | None = None

    @property
    def url(self) -> str:
        """Where it listens, as it says on stderr once started."""
        assert self.proc.stderr is not None
        deadline = time.monotonic() + 60
        while self._url is None and time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            if "listening on " in line:
                self._url = line.split("listening on ")[1].strip()
                threading.Thread(target=self.proc.stderr.read, daemon=True).start()  # keep draining it
        assert self._url is not None, "the gateway did not say where it listens"
        return self._url

    def client(self) -> Client:
        return Client(MCPServerSpec(url=self.url, headers={"Authorization": f"Bearer {TOKEN}"}))


@pytest.fixture(scope="module")
def http_gateway(tmp_path_factory: pytest.TempPathFactory, data_file: Path) -> Iterator[HTTPGateway]:
    gateway = HTTPGateway(ServerProcesses(tmp_path_factory.mktemp("http-upstream")), data_file)
    yield gateway
    if gateway.proc.poll() is None:
        gateway.proc.kill()
        gateway.proc.wait(10)


@pytest.fixture(scope="module")
def stdio_client(stdio_upstreams: ServerProcesses, data_file: Path, http_gateway: HTTPGateway) -> Iterator[Client]:
    """A client of the gateway over stdio (the HTTP gateway starts alongside: they start in parallel)."""
    client = Client(MCPServerSpec(command=tuple(gateway_args(stdio_upstreams, data_file)), env=ENV))
    yield client
    client.close()


def test_lists_one_code_tool_and_the_doc_tool(stdio_client: Client) -> None:
    tools = {t.name: t for t in stdio_client.connection.list_tools()}
    assert set(tools) == {"run_ptc_lisp", "ptc_tool_doc"}
    description = tools["run_ptc_lisp"].description
    assert "(tool/list-orders {:region :string, :status (enum \"delivered\" \"cancelled\")?, :limit :int?})" \
           " -> [{:id :int, :region :string, :total :float, :status :string}] - Orders of one sales region, " \
           "newest first." in description.splitlines()
    assert ":limit - How many orders at most" not in description  # the notes are in ptc_tool_doc
    assert "(tool/get-product" in description and "data/targets: map" in description
    assert tools["run_ptc_lisp"].input_schema["required"] == ["program"]
    doc = stdio_client.call("ptc_tool_doc", {"name": "list_orders"})
    assert not doc.is_error and ":limit - How many orders at most. (>= 1, <= 50) (default 10)" in text(doc)
    missing = stdio_client.call("ptc_tool_doc", {"name": "nope"})
    assert missing.is_error and "the tools are: get-product, list-orders" in text(missing)


def test_definitions_persist_and_results_are_structured(stdio_client: Client) -> None:
    first = stdio_client.run('(def north (tool/list-orders {:region "north"}))\n(mapv :id north)')
    assert not first.is_error and text(first) == "Result: [1 3]\n\nDefined: north"
    assert first.structured_content == {"result": [1, 3]}
    second = stdio_client.run("{:orders (count north) :target (:north data/targets)}")
    assert second.structured_content == {"orders": 2, "target": 100}
    scalar = stdio_client.run('(:name (tool/get-product 1))')
    assert not scalar.is_error and scalar.structured_content is None and text(scalar).startswith('Result: "')


def test_bad_programs_are_error_results_with_hints(stdio_client: Client) -> None:
    unbound = stdio_client.run("(+ 1\n   (undefined-thing 2))")
    assert unbound.is_error and unbound.structured_content is None
    assert "error[analysis] 2:5" in text(unbound) and "hint:" in text(unbound)
    refused = stdio_client.run("(tool/refund {:order-id 4})")
    assert refused.is_error and "order 4 cannot be refunded" in text(refused)
    no_program = stdio_client.call("run_ptc_lisp", {"code": "(+ 1 2)"})
    assert no_program.is_error and 'need "program"' in text(no_program)
    with pytest.raises(Exception, match="unknown tool"):  # a tool that does not exist: the protocol's error
        stdio_client.call("no_such_tool", {})


@pytest.mark.timing
def test_hostile_programs_are_contained(stdio_client: Client) -> None:
    stdio_client.run("(+ 1 2)")  # the gateway's first run connects its upstreams (3 s here): not timed
    for program, expected in [("(loop [] (recur))", "max_steps"),
                              ("(defn f [n] (f (inc n))) (f 0)", "error[limit]"),
                              ('(apply str (repeat 10000000 "xxxxxxxxxx"))', "error[limit]"),
                              ("(tool/hang)", "still running at the deadline")]:
        start = time.monotonic()
        result = stdio_client.run(program)
        assert result.is_error and expected in text(result), (program, text(result))
        assert time.monotonic() - start < 4  # timeout=2: ended at the deadline, not when the tool gives up
    assert text(stdio_client.run("(+ 1 2)")) == "Result: 3"  # still serving


def test_a_dead_upstream_is_restarted(stdio_client: Client, stdio_upstreams: ServerProcesses) -> None:
    stdio_client.run("(count (tool/list-orders \"east\"))")
    before = stdio_upstreams.pids()[-1]
    crashed = stdio_client.run("(tool/crash)")
    assert crashed.is_error and "was lost" in text(crashed)
    deadline = time.monotonic() + 30  # the new upstream starts in the background
    while True:
        result = stdio_client.run('(count (tool/list-orders "east"))')
        if not result.is_error or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert text(result) == "Result: 1"
    assert stdio_upstreams.pids()[-1] != before


def test_http_needs_the_token(http_gateway: HTTPGateway) -> None:
    with pytest.raises(MCPServerError, match="HTTP 401"):
        MCPConnection(MCPServerSpec(url=http_gateway.url), connect_timeout=20).list_tools()


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer"])
def test_http_takes_the_bearer_scheme_in_any_case(http_gateway: HTTPGateway, scheme: str) -> None:
    client = Client(MCPServerSpec(url=http_gateway.url, headers={"Authorization": f"{scheme} {TOKEN}"}))
    try:
        assert text(client.run("(+ 1 2)")) == "Result: 3"
    finally:
        client.close()
    with pytest.raises(MCPServerError, match="HTTP 401"):
        MCPConnection(MCPServerSpec(url=http_gateway.url, headers={"Authorization": f"{scheme} wrong"}),
                      connect_timeout=20).list_tools()


def test_http_sessions_are_isolated_and_concurrent(http_gateway: HTTPGateway) -> None:
    a, b = http_gateway.client(), http_gateway.client()
    try:
        assert text(a.run("(def who :a) who")) == "Result: :a\n\nDefined: who"
        assert b.run("who").is_error  # b's session does not see a's definitions
        assert text(b.run("(def who :b) who")) == "Result: :b\n\nDefined: who"
        results: dict[str, str] = {}

        def work(name: str, client: Client) -> None:
            results[name] = text(client.run('[who (count (tool/list-orders {:region "north"}))]'))

        threads = [threading.Thread(target=work, args=("a", a)), threading.Thread(target=work, args=("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert results == {"a": "Result: [:a 2]", "b": "Result: [:b 2]"}
        assert a.run("(loop [] (recur))").is_error and text(a.run("who")) == "Result: :a"
    finally:
        a.close()
        b.close()


def test_closing_the_servers_ends_their_upstreams(stdio_client: Client, stdio_upstreams: ServerProcesses,
                                                  http_gateway: HTTPGateway) -> None:
    assert stdio_upstreams.pids() and stdio_upstreams.alive(timeout=0)
    stdio_client.close()  # the client leaves: the gateway's stdin ends, it closes its upstreams and exits
    assert stdio_upstreams.alive() == []
    proc, upstreams = http_gateway.proc, http_gateway.upstreams
    assert upstreams.pids() and upstreams.alive(timeout=0)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(20) == 0
    assert upstreams.alive() == []

