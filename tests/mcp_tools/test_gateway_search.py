"""`ptc mcp serve` in front of an upstream MCP server of 400 tools (tests/mcp_tools/catalog_server.py),
both real processes, driven by the official MCP client: the run_ptc_lisp description stays
small (the tools' groups, not their signatures), and a program finds a tool with
(tool/search-tools ...), reads its doc and calls it."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Iterator

import pytest

from ptc.tools.mcp_connection import MCPServerSpec

from .test_mcp_serve import ENV, Client, text

CATALOG = Path(__file__).with_name("catalog_server.py")


def gateway(n: int, *extra: str) -> Client:
    upstream = shlex.join([sys.executable, str(CATALOG), str(n)])
    return Client(MCPServerSpec(command=(sys.executable, "-m", "ptc", "mcp", "serve", "--mcp", upstream, *extra),
                                env=ENV))


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    c = gateway(400)
    yield c
    c.close()


def test_the_description_stays_small_for_400_upstream_tools(client: Client) -> None:
    from ptc.llm.tokens import count_tokens

    tools = {t.name: t for t in client.connection.list_tools()}
    assert set(tools) == {"run_ptc_lisp", "ptc_tool_doc"}
    description = tools["run_ptc_lisp"].description
    assert "400 tools, too many to list" in description
    assert '(println (tool/search-tools "weather forecast for a city"))' in description
    assert "Tool names by first word: analytics- (30) billing- (30) chat- (30)" in description
    assert "weather-get-forecast" not in description and "crm-get-account" not in description
    assert count_tokens(description) < 1_000


def test_a_program_searches_reads_the_doc_and_calls_the_tool(client: Client) -> None:
    found = client.run('(println (tool/search-tools "forecast of the weather in a city"))')
    assert not found.is_error, text(found)
    lines = [line for line in text(found).splitlines() if line.startswith("(tool/")]
    assert lines[0] == "(tool/weather-get-forecast {:city :string, :days :int?}) -> :any", text(found)
    assert ":days - Days ahead. (>= 1, <= 10) (default 3)" in text(found)
    doc = client.run("(doc tool/crm-update-record)")
    assert "(tool/crm-update-record {:id :string?}) -> :any" in text(doc)
    called = client.run('(:days (tool/weather-get-forecast {:city "Lyon"}))')
    assert not called.is_error and called.structured_content == {"result": [{"high": 21, "rain": 0.2}]}
    two = client.run('(tool/search-tools {:query "delete a billing entry" :limit 2})')
    assert text(two).count("(tool/") == 2 and "(tool/billing-delete-entry" in text(two)
    doc_tool = client.call("ptc_tool_doc", {"name": "weather_get_forecast"})
    assert "City name, e.g. Lyon." in text(doc_tool)


def test_below_the_threshold_or_when_off_every_signature_is_listed() -> None:
    c = gateway(20, "--tool-search", "off")
    try:
        description = next(t for t in c.connection.list_tools() if t.name == "run_ptc_lisp").description
        assert "(tool/weather-get-forecast {:city :string, :days :int?}) -> :any - Daily weather" in description
        assert "search-tools" not in description
    finally:
        c.close()


def test_the_option_is_a_number_on_or_off() -> None:
    from click.testing import CliRunner

    from ptc.cli.main import main

    for args in (["mcp", "serve", "--tool-search", "lots"], ["agent", "m", "--tool-search", "-1"]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 2 and "is not a number of tools, on or off" in out.output, out.output
