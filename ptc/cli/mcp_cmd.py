"""`ptc mcp serve`: ptc as an MCP server, the code tool of any MCP client (ptc.sandbox.Gateway)."""

from __future__ import annotations

from typing import Any

import click

from .common import data_option, limits_option, load_data, load_tools, parse_limits, tools_option
from .mcp_options import load_mcp_tools, mcp_options, release_all, tool_search_option

TOKEN_ENV = "PTC_MCP_TOKEN"

EPILOG = """\b
Examples:
  ptc mcp serve --mcp "python examples/mcp/inventory_server.py"
  ptc mcp serve --data orders.json --tools ptc.examples.tools:analysis_tools --limits timeout=10
  ptc mcp serve --mcp https://mcp.example.com/mcp --mcp-header "Authorization: Bearer ..."
  PTC_MCP_TOKEN=secret ptc mcp serve --http 127.0.0.1:8765 --mcp "npx -y some-server"
"""


@click.group("mcp", epilog=EPILOG)
def mcp_group() -> None:
    """ptc as an MCP server (see docs/mcp-server.md)."""


@mcp_group.command("serve", epilog=EPILOG)
@data_option
@tools_option("Python tools the programs may call")
@mcp_options
@limits_option
@click.option("--http", "http_address", metavar="HOST:PORT", default=None,
              help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (port 0: a free port, "
                   "printed on stderr).")
@click.option("--token", envvar=TOKEN_ENV, default=None, metavar="TOKEN",
              help=f"With --http: require 'Authorization: Bearer TOKEN' (default: ${TOKEN_ENV}).")
@click.option("--name", default="run_ptc_lisp", show_default=True, help="The code tool's name.")
@click.option("--max-sessions", default=32, show_default=True, type=click.IntRange(min=1),
              help="Client sessions kept at once; past it the least recently used idle one is dropped.")
@click.option("--session-idle", default=600.0, show_default=True, type=click.FloatRange(min=0, min_open=True),
              metavar="SECONDS", help="Drop a session's definitions after this long without a call.")
@tool_search_option
def serve_cmd(data_specs: tuple[str, ...], tool_specs: tuple[str, ...], mcp_servers: tuple[str, ...],
              mcp_headers: tuple[str, ...], limits_text: str | None, http_address: str | None,
              token: str | None, name: str, max_sessions: int, session_idle: float,
              tool_search: bool | int | None) -> None:
    """Serve an MCP server whose tool run_ptc_lisp {program} runs PTC-Lisp programs that call
    these tools (Python tools and the tools of upstream MCP servers) and read this data, so
    the client's model sees one tool and gets back only each program's answer. A second tool,
    ptc_tool_doc {name}, gives one tool's full documentation (listed when there are tools to
    call: with only --data there is none). Definitions persist per client
    session. Stdio by default (what desktop MCP clients start)."""
    limits = parse_limits(limits_text)
    http = parse_address(http_address) if http_address is not None else None
    if http is None and "-" in data_specs:
        raise click.UsageError("--data - reads stdin, which a stdio server speaks MCP on: give a file, or use --http")
    if token and http is None:
        raise click.UsageError("--token is for --http (a stdio server is reached only by the client that started it)")
    tools = load_tools(tool_specs)
    data = load_data(data_specs)
    upstream = load_mcp_tools(mcp_servers, mcp_headers, hold=True)  # the servers that listed go on serving
    try:
        serve(tools + upstream, data, limits, name, http, token, max_sessions, session_idle, tool_search)
    finally:
        release_all(upstream)


def serve(tools: list[Any], data: Any, limits: Any, name: str, http: tuple[str, int] | None,
          token: str | None, max_sessions: int = 32, session_idle: float = 600.0,
          tool_search: bool | int | None = None) -> None:
    from ptc.sandbox.mcp_server import Gateway
    from ptc.tools.mcp import MCPServerError

    try:
        gateway = Gateway(tools=tools, data=data, limits=limits, name=name, max_sessions=max_sessions,
                          session_idle=session_idle, tool_search=tool_search)
    except (ValueError, TypeError) as e:
        raise click.ClickException(str(e)) from e
    note = f"ptc mcp serve: {name} over {len(gateway.tools)} tool(s)"
    if http is not None and not token and http[0] not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"ptc mcp serve: warning: no --token, and {http[0]} is reachable from other machines", err=True)
    try:
        if http is None:
            click.echo(f"{note}, on stdio", err=True)
            gateway.serve()
        else:
            gateway.serve(http, token=token or None,
                          announce=lambda url: click.echo(f"{note}, listening on {url}", err=True))
    except MCPServerError as e:  # an upstream that listed its tools but does not start again
        raise click.ClickException(str(e)) from None


def parse_address(text: str) -> tuple[str, int]:
    """'127.0.0.1:8765' -> ('127.0.0.1', 8765); '[::1]:8765' for IPv6."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise click.BadParameter(f"{text!r} is not HOST:PORT (e.g. 127.0.0.1:8765)", param_hint="--http")
    return host, int(port)
