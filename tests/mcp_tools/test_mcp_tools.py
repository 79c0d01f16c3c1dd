"""ptc.mcp_tools against a real MCP server process (tests/mcp/server.py), over stdio and
over streamable HTTP: agents whose programs call its tools, errors, and server lifetimes."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import pytest

import ptc
from ptc.tools.mcp import MCPServerError

from .conftest import TOKEN, ServerProcesses


def reply(code: str) -> str:
    return f"Next step.\n\n```clojure\n{code}\n```"


def agent(tools: Any, *codes: str, **options: Any) -> ptc.Agent:
    return ptc.Agent("Work with the orders.", tools=tools, llm=ptc.ScriptedLLM([reply(c) for c in codes]),
                     max_turns=len(codes), **options)


def test_tools_are_typed_from_the_server_schemas(stdio_tools: Any) -> None:
    tools = {t.name: t for t in stdio_tools}
    assert set(tools) == {"list-orders", "order-total", "region-names", "refund", "convert", "crash", "hang"}
    assert tools["list-orders"].signature() == (
        '(tool/list-orders {:region :string, :status (enum "delivered" "cancelled")?, :limit :int?})'
        " -> [{:id :int, :region :string, :total :float, :status :string}]\n"
        "  Orders of one sales region, newest first.\n"
        "  :limit - How many orders at most. (>= 1, <= 50) (default 10)")
    assert tools["order-total"].signature(description=False) == "(tool/order-total {:order-ids [:int]}) -> :map"
    assert tools["region-names"].signature(description=False) == "(tool/region-names) -> :any"
    prompt = ptc.Agent("x", tools=stdio_tools, llm=ptc.ScriptedLLM(["x"])).system_prompt
    assert "(tool/list-orders {:region :string" in prompt and "Orders of one sales region, newest first." in prompt
    assert tools["order-total"].summarize({"order-ids": [1, 2]}, {"count": 2, "total": 200.5}) == \
        "order-total({:order-ids [1 2]}) -> map[2]"


def test_agent_program_calls_two_tools_over_stdio(stdio_tools: Any, module_servers: ServerProcesses) -> None:
    before = set(module_servers.pids())
    step = agent(
        stdio_tools,
        '(def north (tool/list-orders {:region "north" :status :delivered}))\n(println (count north))',
        '(return (tool/order-total {:order-ids (mapv :id (concat north (tool/list-orders "east")))}))',
    ).run()
    assert step.ok, step.error
    assert step.value == {"count": 2, "total": 430.5}
    assert step.turns[0].prints == ("1",)
    assert [c.name for t in step.turns for c in t.tool_calls] == ["list-orders", "list-orders", "order-total"]
    assert step.turns[0].tool_calls[0].result == [{"id": 1, "region": "north", "total": 120.5, "status": "delivered"}]
    started = set(module_servers.pids()) - before
    assert len(started) == 1  # one server process for the whole run, both turns
    assert not stdio_tools.connection.is_open  # closed when the run ended...
    assert module_servers.alive() == []  # ...and its process is gone


def test_the_connection_closes_when_a_run_ends_on_an_error(stdio_tools: Any, module_servers: ServerProcesses) -> None:
    from ptc.llm.base import LLMError

    llm = ptc.ScriptedLLM([reply('(def n (tool/list-orders "east"))'), LLMError("timeout", "the model is down")])
    step = ptc.Agent("Work with the orders.", tools=stdio_tools, llm=llm).run()
    assert not step.ok and step.error is not None and step.error.kind == "llm"
    assert not stdio_tools.connection.is_open and module_servers.alive() == []


def test_text_results_are_parsed_as_json(stdio_tools: Any) -> None:
    assert ptc.run("(first (tool/region-names))", tools=stdio_tools).value == "north"


def test_a_tool_error_is_a_program_error_the_model_sees(stdio_tools: Any) -> None:
    step = agent(stdio_tools, "(tool/refund {:order-id 3})", '(return "gave up")').run()
    assert step.ok and step.value == "gave up"
    error = step.turns[0].error
    assert error is not None and error.kind == "tool"
    assert "tool/refund: " in error.message and "order 3 cannot be refunded: the refund window has closed" in error.message
    assert step.turns[0].tool_calls[0].error is not None
    with pytest.raises(ptc.PTCError) as e:  # a JSON-RPC error rather than an isError result
        ptc.run("(tool/convert 10 :nok)", tools=stdio_tools)
    assert e.value.kind == "tool"
    assert "tool/convert: the MCP server answered with an error: MCPError: unsupported currency nok" in e.value.message


def test_bad_arguments_are_refused_before_the_server_is_called(stdio_tools: Any,
                                                               module_servers: ServerProcesses) -> None:
    calls = len(module_servers.calls())
    cases = {
        '(tool/list-orders {:region "north" :limit 0})': "tool/list-orders: parameter limit: 0 is less than the minimum of 1",
        "(tool/list-orders {:region 5})": "tool/list-orders: parameter region: expected string, got integer 5",
        '(tool/list-orders {:region "north" :status :lost})': "tool/list-orders: parameter status: expected one of",
        "(tool/order-total {:order-ids [1 :x]})": "tool/order-total: parameter order-ids[1]: expected integer",
        '(tool/list-orders {:regoin "north"})': "unknown parameter regoin (did you mean region?)",
    }
    with stdio_tools:  # one connection for the runs (a server start each took 1.5-2 s)
        for program, message in cases.items():
            with pytest.raises(ptc.PTCError) as e:
                ptc.run(program, tools=stdio_tools)
            assert e.value.kind == "tool" and message in e.value.message, (program, e.value.message)
    with pytest.raises(ptc.PTCError) as e:  # a bare run too
        ptc.run('(tool/list-orders {:region "north" :limit 51})', tools=stdio_tools)
    assert "nothing was sent to the server" in (e.value.hint or "")
    assert len(module_servers.calls()) == calls  # the server (started before the clock) was never called


def test_with_block_shares_one_connection(servers: ServerProcesses) -> None:
    with ptc.mcp_tools(servers.spec()) as tools:
        north = ptc.run('(count (tool/list-orders "north"))', tools=tools).value
        isolated = ptc.run("(tool/region-names)", tools=tools, limits=ptc.Limits(isolation="process")).value
        assert tools.connection.is_open
    assert (north, isolated) == (2, ["north", "south", "east"])  # tools of isolated runs run in the host
    assert len(servers.pids()) == 2  # listing, then the block
    assert not tools.connection.is_open and servers.alive() == []
    # a bare ptc.run: one connection for the run, opened at its first call, closed after it
    program = '[(count (tool/list-orders "south")) (count (tool/region-names))]'
    assert ptc.run(program, tools=tools).value == [1, 3]
    assert len(servers.pids()) == 3 and servers.alive() == []


@pytest.mark.timing
def test_a_server_that_cannot_start_is_a_clear_error(servers: ServerProcesses) -> None:
    with pytest.raises(MCPServerError, match=r"could not be started: FileNotFoundError"):
        ptc.mcp_tools("/nonexistent/mcp-server --port 1")
    started = time.monotonic()
    with pytest.raises(MCPServerError) as e:
        ptc.mcp_tools(servers.spec("--fail-at-start"))
    assert "could not be started" in str(e.value) and "config error: no orders database" in str(e.value)
    assert time.monotonic() - started < 15
    with pytest.raises(MCPServerError, match=r"within 1s"):
        ptc.mcp_tools(servers.spec("--slow-start"), timeout=1)
    assert servers.alive() == []


def test_a_server_start_is_not_on_the_program_clock(servers: ServerProcesses) -> None:
    """A server that takes longer to start than the program may run: the program's clock
    starts once the servers of the tools it names are up (ptc.run and an agent's turn)."""
    tools = ptc.mcp_tools(servers.spec("--start-delay=1.5"), timeout=20)
    one_second = ptc.Limits(timeout=1)
    assert ptc.run('(count (tool/list-orders "north"))', tools=tools, limits=one_second).value == 2
    step = agent(tools, '(return (count (tool/list-orders "east")))', limits=one_second).run()
    assert step.ok and step.value == 1, step.turns[-1].error
    assert len(servers.pids()) == 3 and servers.alive() == []


def test_a_server_that_dies_fails_the_call_not_the_host(servers: ServerProcesses) -> None:
    tools = ptc.mcp_tools(servers.spec())
    step = agent(tools, "(tool/crash)", '(return (count (tool/list-orders "north")))',
                 limits=ptc.Limits(timeout=1)).run()
    first = step.turns[0].error
    assert first is not None and first.kind == "tool" and "connection to MCP server" in first.message
    assert "was lost" in first.message
    # the lost server was replaced in the background as the loss was seen: the next turn's
    # program waited for it before its clock (1 s, less than a start on a loaded machine)
    assert step.ok and step.value == 2, step.turns[-1].error
    assert len(servers.pids()) == 3 and servers.alive() == []  # listing, the crashed one, its replacement
    # the next run starts the server again
    assert agent(tools, '(return (count (tool/list-orders "north")))').run().value == 2
    assert servers.alive() == []


@pytest.mark.timing
def test_a_hanging_server_is_bounded_by_the_run_timeout(servers: ServerProcesses) -> None:
    tools = ptc.mcp_tools(servers.spec())
    started = time.monotonic()
    step = agent(tools, "(tool/hang)", '(return (count (tool/list-orders "north")))',
                 limits=ptc.Limits(timeout=1.5)).run()
    assert step.ok and step.value == 2  # the cancelled call left the connection usable
    assert step.turns[0].error is not None and step.turns[0].error.kind == "limit"
    assert time.monotonic() - started < 20
    assert len(servers.pids()) == 2 and servers.alive() == []


def test_arun_holds_and_closes_the_connection(servers: ServerProcesses) -> None:
    async def main() -> tuple[Any, ptc.Step]:
        tools = ptc.mcp_tools(servers.spec())  # from async code too
        return tools, await agent(tools, '(def n (count (tool/list-orders "north")))',
                                  '(return (+ n (count (tool/list-orders "east"))))').arun()

    tools, step = asyncio.run(main())
    assert step.ok and step.value == 3
    assert len(servers.pids()) == 2 and not tools.connection.is_open and servers.alive() == []


def test_agent_program_calls_two_tools_over_streamable_http(http_url: str) -> None:
    tools = ptc.mcp_tools(http_url, headers={"Authorization": f"Bearer {TOKEN}"})
    step = agent(tools, "(return {:regions (tool/region-names)\n"
                        "         :north (tool/order-total {:order-ids (map :id (tool/list-orders \"north\"))})})").run()
    assert step.ok, step.error
    assert step.value == {"regions": ["north", "south", "east"], "north": {"count": 2, "total": 162.75}}
    assert not tools.connection.is_open
    with pytest.raises(ptc.PTCError, match="order 1 cannot be refunded"):
        ptc.run("(tool/refund 1)", tools=tools)


def test_http_errors_are_clear(http_url: str) -> None:
    with pytest.raises(MCPServerError, match="could not be reached") as e:
        ptc.mcp_tools(http_url)  # no token: 401
    assert "401" in str(e.value)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(MCPServerError, match=f"127.0.0.1:{port}/mcp could not be reached"):
        ptc.mcp_tools(f"http://127.0.0.1:{port}/mcp", timeout=5)


def test_a_sandbox_block_keeps_one_server_for_all_its_calls(servers: ServerProcesses) -> None:
    tools = ptc.mcp_tools(servers.spec())
    with ptc.Sandbox(tools=tools) as sandbox:
        assert sandbox.call({"program": '(def n (count (tool/list-orders "north")))\nn'}) == "Result: 2\n\nDefined: n"
        assert sandbox.call({"program": "[n (count (tool/region-names))]"}) == "Result: [2 3]"
    assert len(servers.pids()) == 2 and servers.alive() == []  # listing, then the block
