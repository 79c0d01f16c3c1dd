"""A real MCP server for the tests, written with the SDK's server side (MCPServer, the
former FastMCP). Run as a script it speaks stdio; `http_app()` is its streamable HTTP app.

Every process appends its pid to $PTC_TEST_MCP_PIDS (when set), so tests can check that
no server outlives the run that started it; calls are appended to $PTC_TEST_MCP_CALLS.
"""

from __future__ import annotations

import os
import sys
import time

if __name__ == "__main__" and os.environ.get("PTC_TEST_MCP_PIDS"):  # first thing: even a failing start is seen
    with open(os.environ["PTC_TEST_MCP_PIDS"], "a", encoding="utf-8") as f:
        f.write(f"{os.getpid()}\n")
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp_types import INVALID_PARAMS
from mcp.server.mcpserver.exceptions import ToolError

ORDERS = [
    {"id": 1, "region": "north", "total": 120.5, "status": "delivered"},
    {"id": 2, "region": "south", "total": 80.0, "status": "delivered"},
    {"id": 3, "region": "north", "total": 42.25, "status": "cancelled"},
    {"id": 4, "region": "east", "total": 310.0, "status": "delivered"},
]

app = MCPServer("ptc-test-orders")


class Order(BaseModel):
    id: int
    region: str
    total: float
    status: str


def _log_call(name: str) -> None:
    path = os.environ.get("PTC_TEST_MCP_CALLS")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {name}\n")


@app.tool()
def list_orders(region: str, status: Literal["delivered", "cancelled"] | None = None,
                limit: Annotated[int, Field(ge=1, le=50, description="How many orders at most.")] = 10) -> list[Order]:
    """Orders of one sales region, newest first."""
    _log_call("list_orders")
    rows = [o for o in ORDERS if o["region"] == region and (status is None or o["status"] == status)]
    return [Order(**o) for o in rows[:limit]]


@app.tool()
def orderTotal(orderIds: list[int]) -> dict[str, Any]:  # noqa: N802, N803 - camelCase as many servers have
    """The summed total of some orders."""
    _log_call("orderTotal")
    return {"count": len(orderIds), "total": sum(o["total"] for o in ORDERS if o["id"] in orderIds)}


@app.tool(structured_output=False)
def region_names() -> str:
    """The sales regions as JSON text (no structured output)."""
    _log_call("region_names")
    return '["north", "south", "east"]'


@app.tool()
def refund(order_id: int) -> str:
    """Refund an order (always refused: tests the tool error path)."""
    _log_call("refund")
    raise ToolError(f"order {order_id} cannot be refunded: the refund window has closed")


@app.tool()
def convert(amount: float, currency: str) -> float:
    """Convert a total (always a JSON-RPC error: tests the protocol error path)."""
    _log_call("convert")
    raise MCPError(code=INVALID_PARAMS, message=f"unsupported currency {currency}")


@app.tool()
def crash() -> str:
    """Kill the server process (tests a server that dies)."""
    _log_call("crash")
    os._exit(3)


@app.tool()
async def hang(seconds: float = 3600) -> str:
    """Never answer (tests the run's deadline)."""
    _log_call("hang")
    import anyio

    await anyio.sleep(seconds)
    return "late"


def http_app(token: str | None = None) -> Any:
    """The streamable HTTP ASGI app; with `token`, requests without `Authorization: Bearer
    <token>` get 401."""
    inner = app.streamable_http_app()

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if token is not None and scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            if headers.get(b"authorization") != f"Bearer {token}".encode():
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain")]})
                await send({"type": "http.response.body", "body": b"missing or wrong token"})
                return
        await inner(scope, receive, send)

    return guarded


if __name__ == "__main__":
    if "--fail-at-start" in sys.argv:
        print("config error: no orders database", file=sys.stderr)
        sys.exit(2)
    if "--slow-start" in sys.argv:
        time.sleep(60)
    for arg in sys.argv:
        if arg.startswith("--start-delay="):
            time.sleep(float(arg.split("=", 1)[1]))
    app.run()
