"""Tool names (kebab case) and descriptions (docstrings)."""

from __future__ import annotations

import functools

import pytest

import ptc
from ptc.tools import Tool, tool
from ptc.tools.naming import first_paragraph, kebab, param_docs


@pytest.mark.parametrize("py, expected", [
    ("search_reviews", "search-reviews"),
    ("searchReviews", "search-reviews"),
    ("SearchReviews", "search-reviews"),
    ("get_HTTPResponse", "get-http-response"),
    ("_private_tool_", "private-tool"),
    ("list_v2", "list-v2"),
    ("x", "x"),
])
def test_kebab(py: str, expected: str) -> None:
    assert kebab(py) == expected


def search_reviews(category: str) -> list[dict]:
    """Search product reviews by category.

    Returns at most 50 reviews, newest first.

    Args:
        category: the product category.
    """
    return []


def test_name_and_description_from_the_function() -> None:
    t = Tool(search_reviews)
    assert t.name == "search-reviews"
    assert t.description == "Search product reviews by category."
    assert t.doc.startswith("Search product reviews by category.\n\nReturns at most 50")
    assert "Args:" in t.doc
    assert t.fn is search_reviews and not t.is_async


def test_decorator_bare_and_with_options() -> None:
    @ptc.tool
    def find_orders(customer: str) -> list:
        """Find orders
        of a customer."""
        return []

    assert isinstance(find_orders, ptc.Tool)
    assert find_orders.name == "find-orders"
    assert find_orders.description == "Find orders of a customer."

    @tool(name="orders", description="All the orders.")
    def something_else() -> list:
        """Ignored docstring."""
        return [1]

    assert something_else.name == "orders" and something_else.description == "All the orders."
    assert something_else.doc == "Ignored docstring."
    assert something_else() == [1]  # still callable as Python


def test_no_docstring_means_empty_description() -> None:
    def f() -> int:
        return 1

    t = Tool(f)
    assert t.description == "" and t.doc == ""


def test_description_stops_at_a_section_header() -> None:
    doc = "Do the thing.\nArgs:\n    x: a value."
    assert first_paragraph(doc) == "Do the thing."


def test_lambda_needs_a_name() -> None:
    with pytest.raises(ValueError, match="name="):
        Tool(lambda x: x)
    assert Tool(lambda x: x, name="identity").name == "identity"


def test_partial_uses_the_wrapped_function() -> None:
    def scale(x: int, factor: int) -> int:
        """Scale a number."""
        return x * factor

    t = Tool(functools.partial(scale, factor=3))
    assert t.name == "scale" and t.description == "Scale a number."
    assert ptc.run("(tool/scale 2)", tools={"scale": t}).value == 6


def test_callable_object_named_after_its_class() -> None:
    class PriceLookup:
        """Look up a price."""

        def __call__(self, sku: str) -> float:
            return 9.5

    t = Tool(PriceLookup())
    assert t.name == "price-lookup" and t.description == "Look up a price."
    assert ptc.run('(tool/price-lookup "a")', tools={"price-lookup": t}).value == 9.5


@pytest.mark.parametrize("bad", ["", "1abc", "has space", "a/b", "x" * 65, "tool.x"])
def test_invalid_names_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="invalid tool name"):
        Tool(search_reviews, name=bad)


def test_google_numpy_and_sphinx_parameter_docs() -> None:
    google = """Summary.

    Args:
        query (str): words to find,
            continued here.
        limit: how many.

    Returns:
        things.
    """
    import inspect

    assert param_docs(inspect.cleandoc(google)) == {"query": "words to find, continued here.", "limit": "how many."}
    numpy = inspect.cleandoc("""Summary.

    Parameters
    ----------
    query : str
        words to find.
    limit : int, optional
        how many.

    Returns
    -------
    list
    """)
    assert param_docs(numpy) == {"query": "words to find.", "limit": "how many."}
    sphinx = inspect.cleandoc("""Summary.

    :param query: words to find.
    :param int limit: how many.
    :returns: things.
    """)
    assert param_docs(sphinx) == {"query": "words to find.", "limit": "how many."}
