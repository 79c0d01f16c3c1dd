"""A real MCP server with a large catalog for the tool search tests (stdio, the SDK's low-level
server): `python catalog_server.py N` lists N tools, one of them `weather_get_forecast`, the
rest records of many domains with list/get/search/create/update/delete tools, each described
with its parameters. Calls answer JSON text naming the tool and its arguments."""

from __future__ import annotations

import json
import sys
from typing import Any

DOMAINS = ["crm", "billing", "inventory", "support", "hr", "files", "code", "chat", "docs", "fleet", "legal",
           "devops", "analytics", "marketing", "shipping", "travel"]
ENTITIES = ["account", "record", "item", "entry", "report"]
ACTIONS = {
    "list": "List {domain} {entity}s, newest first, filtered by status.",
    "get": "Get one {domain} {entity} by its id.",
    "search": "Full-text search of {domain} {entity}s by name or owner.",
    "create": "Create a {domain} {entity} with the given fields.",
    "update": "Change fields of one {domain} {entity}.",
    "delete": "Delete one {domain} {entity}.",
}
FORECAST = {"name": "weather_get_forecast", "description": "Daily weather forecast for a city: temperature, rain, wind.",
            "inputSchema": {"type": "object", "required": ["city"],
                            "properties": {"city": {"type": "string", "description": "City name, e.g. Lyon."},
                                           "days": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3,
                                                    "description": "Days ahead."}}}}


def tool_specs(n: int) -> list[dict[str, Any]]:
    specs = [FORECAST]
    for domain in DOMAINS:
        for entity in ENTITIES:
            for action, text in ACTIONS.items():
                props = {"id": {"type": "string", "description": f"The {entity}'s id."}} \
                    if action in ("get", "update", "delete") else \
                    {"query": {"type": "string", "description": "Words to look for."}} if action == "search" else \
                    {"status": {"type": "string", "description": "Only this status."}}
                specs.append({"name": f"{domain}_{action}_{entity}", "description": text.format(domain=domain,
                                                                                                  entity=entity),
                              "inputSchema": {"type": "object", "properties": props}})
    assert n <= len(specs), f"at most {len(specs)} tools"
    return specs[:n]


def main(n: int) -> None:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    listed = [types.Tool.model_validate(s) for s in tool_specs(n)]

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: Any) -> Any:
        answer = {"tool": params.name, "arguments": dict(params.arguments or {})}
        if params.name == FORECAST["name"]:
            answer = {"city": params.arguments["city"], "days": [{"high": 21, "rain": 0.2}]}
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(answer))])

    server = Server("ptc-test-catalog", on_list_tools=list_tools, on_call_tool=call_tool)

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
