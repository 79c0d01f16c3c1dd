"""`--mcp` and `--mcp-header` in `ptc agent` and `ptc chat`, with the test server as a real process."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

import ptc
from ptc.cli.main import main

from .conftest import SERVER, TOKEN, ServerProcesses

MISSION = "What did the north region sell?"
PROGRAM = ('(return (tool/order-total {:order-ids (mapv :id (tool/list-orders {:region "north"}))}))')


def command_line(servers: ServerProcesses) -> str:
    """The server's command line; `env` passes the test variables (stdio servers get only a
    safe default environment, see docs/tools.md)."""
    assigns = [f"{k}={v}" for k, v in servers.env.items()]
    return shlex.join(["env", *assigns, sys.executable, str(SERVER)])


def test_agent_cli_with_a_stdio_server(tmp_path: Path, servers: ServerProcesses) -> None:
    cassette = tmp_path / "run.jsonl"
    reply = f"Let me add them up.\n\n```clojure\n{PROGRAM}\n```"
    recorded = ptc.Agent(MISSION, tools=ptc.mcp_tools(servers.spec()),
                         llm=ptc.RecordingLLM(ptc.ScriptedLLM([reply]), cassette)).run()
    assert recorded.ok
    # the replay only answers when the command sends the same prompt: the same tool signatures
    result = CliRunner().invoke(main, ["agent", MISSION, "--mcp", command_line(servers), "--replay", str(cassette)])
    assert result.exit_code == 0, result.output
    assert 'ok after 1 turn(s): {"count": 2, "total": 162.75}' in result.output
    assert "order-total" in result.output and "list-orders" in result.output
    assert servers.calls()[-2:] == [f"{servers.pids()[-1]} list_orders", f"{servers.pids()[-1]} orderTotal"]
    assert servers.alive() == []


def test_chat_agent_mode_with_an_http_server(tmp_path: Path, http_url: str) -> None:
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps([f"```clojure\n{PROGRAM}\n```"]))
    result = CliRunner().invoke(main, ["chat", "--db", str(tmp_path / "chat.db"), "--script", str(replies),
                                       "--mode", "agent", "--mcp", http_url,
                                       "--mcp-header", f"Authorization: Bearer {TOKEN}"],
                                input=MISSION + "\n", env={"PTC_HOME": str(tmp_path / "home")})
    assert result.exit_code == 0, result.output
    assert "162.75" in result.output


def test_cli_errors_are_clear(http_url: str) -> None:
    result = CliRunner().invoke(main, ["agent", MISSION, "--mcp", "/nonexistent/mcp-server"])
    assert result.exit_code == 1 and "Error: MCP server /nonexistent/mcp-server could not be started" in result.output
    assert "Traceback" not in result.output
    result = CliRunner().invoke(main, ["agent", MISSION, "--mcp", http_url])
    assert result.exit_code == 1 and "HTTP 401 Unauthorized: check the headers" in result.output
    result = CliRunner().invoke(main, ["agent", MISSION, "--mcp", http_url, "--mcp-header", "Authorization"])
    assert result.exit_code == 2 and "is not a 'Name: value' header" in result.output
    result = CliRunner().invoke(main, ["agent", MISSION, "--mcp", "python x.py", "--mcp-header", "A: b"])
    assert result.exit_code == 2 and "--mcp-header is for --mcp servers given by an http(s):// URL" in result.output


def test_sandbox_spec_lists_a_servers_tools(servers: ServerProcesses) -> None:
    result = CliRunner().invoke(main, ["sandbox", "spec", "--mcp", command_line(servers), "--format", "text"])
    assert result.exit_code == 0, result.output
    assert "(tool/list-orders {:region :string" in result.output and "(tool/order-total" in result.output
    assert servers.alive() == []  # listed, then closed
