"""A synthetic MCP server with 50 tools (stdio), the upstream of bench/mcp_gateway.py.

Ten business records (customers, orders, invoices...) with five tools each (list, get,
search, count, update), JSON schemas with a description per parameter, as a company's
internal MCP server might list them. Results are JSON text, indented as the SDK's
MCPServer writes them. The rows are generated from a fixed seed (the same every run).
"""

from __future__ import annotations

import json
import random
from typing import Any

ENTITIES = {
    "customer": "A customer account (company name, region, segment, account owner).",
    "order": "A sales order (customer, region, amount in USD, status, creation date).",
    "product": "A catalog product (SKU, category, list price, stock).",
    "invoice": "An invoice sent to a customer (amount due, due date, payment status).",
    "ticket": "A support ticket (customer, priority, status, assignee).",
    "employee": "An employee (department, region, manager, start date).",
    "shipment": "A shipment of an order (carrier, status, delivery date).",
    "supplier": "A supplier (country, rating, payment terms).",
    "payment": "A payment received (invoice, amount, method, date).",
    "campaign": "A marketing campaign (channel, budget, start and end dates).",
}
REGIONS = ["north", "south", "east", "west", "central"]
STATUSES = ["open", "pending", "closed", "cancelled"]
ROWS = 120


def rows(entity: str) -> list[dict[str, Any]]:
    rng = random.Random(entity)
    return [{"id": i, "name": f"{entity}-{i:03d}", "region": rng.choice(REGIONS), "status": rng.choice(STATUSES),
             "amount": round(rng.uniform(20, 2000), 2), "owner": f"employee-{rng.randrange(40):03d}",
             "created": f"2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"} for i in range(1, ROWS + 1)]


DATA = {e: rows(e) for e in ENTITIES}

FILTERS = {
    "region": {"type": "string", "enum": REGIONS, "description": "Only records of this sales region."},
    "status": {"type": "string", "enum": STATUSES, "description": "Only records with this status."},
    "created_after": {"type": "string", "format": "date", "description": "Only records created after this date "
                                                                           "(YYYY-MM-DD)."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50,
              "description": "How many records to return at most."},
    "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "How many records to skip (paging)."},
}


def tool_specs() -> list[dict[str, Any]]:
    """The 50 tools as tools/list gives them (name, description, inputSchema)."""
    specs = []
    for e, about in ENTITIES.items():
        specs += [
            {"name": f"list_{e}s", "description": f"List {e} records, newest first, with optional filters. {about}",
             "inputSchema": {"type": "object", "properties": dict(FILTERS)}},
            {"name": f"get_{e}", "description": f"Get one {e} by its id. {about}",
             "inputSchema": {"type": "object", "required": [f"{e}_id"],
                             "properties": {f"{e}_id": {"type": "integer", "description": f"The {e}'s id."}}}},
            {"name": f"search_{e}s", "description": f"Full-text search of {e} records by name or owner.",
             "inputSchema": {"type": "object", "required": ["query"],
                             "properties": {"query": {"type": "string", "description": "Words to look for."},
                                            "limit": FILTERS["limit"]}}},
            {"name": f"count_{e}s", "description": f"Count {e} records matching the filters.",
             "inputSchema": {"type": "object", "properties": {k: FILTERS[k] for k in ("region", "status")}}},
            {"name": f"update_{e}", "description": f"Change fields of one {e}; returns the updated record.",
             "inputSchema": {"type": "object", "required": [f"{e}_id", "fields"],
                             "properties": {f"{e}_id": {"type": "integer", "description": f"The {e}'s id."},
                                            "fields": {"type": "object", "description": "Field names and their new "
                                                       "values, e.g. {\"status\": \"closed\"}.",
                                                       "additionalProperties": True}}}},
        ]
    return specs


def call(name: str, args: dict[str, Any]) -> Any:
    op, _, rest = name.partition("_")
    entity = rest[:-1] if rest.endswith("s") and rest[:-1] in ENTITIES else rest
    table = DATA[entity]
    if op == "get":
        return next(r for r in table if r["id"] == args[f"{entity}_id"])
    if op == "update":
        return {**next(r for r in table if r["id"] == args[f"{entity}_id"]), **args["fields"]}
    if op == "search":
        q = str(args["query"]).lower()
        return [r for r in table if q in r["name"] or q in r["owner"]][:args.get("limit", 50)]
    picked = [r for r in table if all(r[k] == args[k] for k in ("region", "status") if k in args)
              and r["created"] > args.get("created_after", "")]
    if op == "count":
        return {"count": len(picked)}
    start = args.get("offset", 0)
    return picked[start:start + args.get("limit", 50)]


def main() -> None:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=[types.Tool.model_validate(s) for s in tool_specs()])

    async def call_tool(ctx: Any, params: Any) -> Any:
        result = call(params.name, dict(params.arguments or {}))
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(result, indent=2))])

    server = Server("bench-upstream", on_list_tools=list_tools, on_call_tool=call_tool)

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    main()
