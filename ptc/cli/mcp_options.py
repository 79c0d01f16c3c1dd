"""`--mcp` and `--mcp-header`: tools from MCP servers for `ptc agent` and `ptc chat`; `--tool-search`."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def mcp_options(f: F) -> F:
    f = click.option(
        "--mcp-header", "mcp_headers", multiple=True, metavar='"NAME: VALUE"',
        help="An HTTP header for the --mcp servers given by URL (repeatable), e.g. 'Authorization: Bearer ...'.",
    )(f)
    return click.option(
        "--mcp", "mcp_servers", multiple=True, metavar='"CMD ARGS"|URL',
        help="Offer the tools of an MCP server (repeatable): a command line started as a subprocess "
             "(stdio), or an http(s):// URL (streamable HTTP).",
    )(f)


def tool_search_option(f: F) -> F:
    """--tool-search N|on|off: the threshold of tool search (ptc.tools.search), parsed."""
    return click.option(
        "--tool-search", "tool_search", default=None, metavar="N|on|off", callback=_tool_search,
        help="Above N tools (default 30) the prompt lists the tools' groups instead of every signature, and "
             "programs find tools with (tool/search-tools \"...\"); on: always, off: never.",
    )(f)


def _tool_search(ctx: Any, param: Any, text: str | None) -> bool | int | None:
    if text is None:
        return None
    word = text.strip().lower()
    if word in ("on", "true", "yes"):
        return True
    if word in ("off", "false", "no"):
        return False
    if word.isdigit():
        return int(word)
    raise click.BadParameter(f"{text!r} is not a number of tools, on or off")


def parse_headers(values: tuple[str, ...]) -> dict[str, str]:
    """`("Authorization: Bearer x",)` -> {"Authorization": "Bearer x"}."""
    headers: dict[str, str] = {}
    for value in values:
        name, sep, text = value.partition(":")
        if not sep or not name.strip():
            raise click.BadParameter(f"{value!r} is not a 'Name: value' header", param_hint="--mcp-header")
        headers[name.strip()] = text.strip()
    return headers


def load_mcp_tools(servers: tuple[str, ...], header_values: tuple[str, ...], *, hold: bool = False) -> list[Any]:
    """The tools of every --mcp server (listed now; each run connects again and closes after,
    unless `hold`: then the servers that listed them stay open until their connections are
    released, see ptc.mcp_tools). A server that cannot be started or reached is a usage error
    naming it, not a traceback."""
    if header_values and not any(s.strip().startswith(("http://", "https://")) for s in servers):
        raise click.UsageError("--mcp-header is for --mcp servers given by an http(s):// URL")
    if not servers:
        return []
    from ptc.tools.mcp import MCPServerError, mcp_tools

    headers = parse_headers(header_values)
    tools: list[Any] = []
    for server in servers:
        is_url = server.strip().startswith(("http://", "https://"))
        try:
            tools.extend(mcp_tools(server, headers=headers if is_url else None, hold=hold))
        except (MCPServerError, ValueError, ImportError) as e:
            if hold:
                release_all(tools)  # the servers already listed
            raise click.ClickException(str(e)) from None
    return tools


def release_all(tools: list[Any]) -> None:
    """Release the connections `load_mcp_tools(..., hold=True)` holds (their servers close)."""
    from ptc.tools.lifetime import scopes_of

    for scope in scopes_of(tools):
        scope.release()
