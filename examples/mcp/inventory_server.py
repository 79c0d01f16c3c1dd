"""A small MCP server (stdio) for trying `ptc agent --mcp`: a shop's inventory.

    ptc agent "Which electronics product is lowest on stock?" --mcp "python examples/mcp/inventory_server.py"

Written with the official MCP Python SDK (`pip install "ptc-lisp[mcp]"`); any MCP server works the same way.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer

app = MCPServer("inventory")


class Product(BaseModel):
    sku: str
    name: str
    category: str
    stock: int
    unit_cost: float


PRODUCTS = [
    Product(sku="EL-100", name="USB-C charger", category="electronics", stock=14, unit_cost=9.5),
    Product(sku="EL-200", name="Headphones", category="electronics", stock=3, unit_cost=31.0),
    Product(sku="EL-300", name="Webcam", category="electronics", stock=8, unit_cost=22.0),
    Product(sku="HO-100", name="Desk lamp", category="home", stock=25, unit_cost=12.0),
    Product(sku="HO-200", name="Kettle", category="home", stock=6, unit_cost=18.5),
]


@app.tool()
def list_products(category: str | None = None) -> list[Product]:
    """Products in stock, optionally of one category ("electronics", "home")."""
    return [p for p in PRODUCTS if category is None or p.category == category]


@app.tool()
def restock_cost(skus: list[str], target: Annotated[int, Field(ge=1, description="Units to have of each.")]) -> float:
    """What it costs to bring each product up to `target` units."""
    by_sku = {p.sku: p for p in PRODUCTS}
    return sum(max(0, target - by_sku[s].stock) * by_sku[s].unit_cost for s in skus if s in by_sku)


if __name__ == "__main__":
    app.run()
