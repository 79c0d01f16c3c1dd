"""03 - Typed tools.

`@ptc.tool` turns a typed Python function into a tool a program calls as
`(tool/name {...})`. Arguments are validated from the type hints; a wrong one is a clear
`tool` error naming the parameter. Every call is recorded.

    python examples/03_typed_tools.py
"""

import ptc


@ptc.tool
def search_products(category: str, max_price: float | None = None) -> list[dict]:
    """Products in a category, optionally under a price."""
    catalog = [{"name": "Desk", "category": "office", "price": 150.0},
               {"name": "Lamp", "category": "office", "price": 35.0},
               {"name": "Tent", "category": "outdoor", "price": 89.0}]
    return [p for p in catalog if p["category"] == category and (max_price is None or p["price"] <= max_price)]


print(search_products.signature())
result = ptc.run('(map :name (tool/search-products {:category "office" :max-price 100}))',
                 tools=[search_products])
print("value:", ptc.pr_str(result.value))
print("calls:", [(c.name, ptc.to_python(c.args)) for c in result.tool_calls])

try:
    ptc.run('(tool/search-products {:category "office" :max-price "cheap"})', tools=[search_products])
except ptc.PTCError as e:
    print(e.format())
