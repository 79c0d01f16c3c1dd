"""How tools present themselves: signatures, JSON schemas, one-line call summaries."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from typing import Any, Literal, Optional, TypedDict

import pytest
from pydantic import BaseModel

import ptc
from ptc.tools import Tool, as_tools, tool
from ptc.tools.schema import render


class Review(BaseModel):
    id: int
    text: str
    stars: int | None = None


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(TypedDict):
    x: int
    y: float


@dataclasses.dataclass
class Box:
    width: int
    label: str = ""


@pytest.mark.parametrize("ann, text", [
    (str, ":string"), (int, ":int"), (float, ":float"), (bool, ":bool"), (type(None), ":nil"),
    (Any, ":any"), (dict, ":map"), (dict[str, Any], ":map"), (dict[str, int], "(map-of :string :int)"),
    (list, "[:any]"), (list[str], "[:string]"), (list[dict], "[:map]"), (tuple[int, ...], "[:int]"),
    (tuple[int, str], "(tuple :int :string)"), (set[str], "#{:string}"),
    (Optional[int], ":int?"), (int | None, ":int?"), (list[int] | None, "[:int]?"),
    (int | str, "(or :int :string)"), (Literal["a", "b"], '(enum "a" "b")'), (Literal[3], "3"),
    (Color, '(enum "red" "blue")'), (dt.date, ":date"), (dt.datetime, ":datetime"),
    (Review, "{:id :int, :text :string, :stars :int?}"), (list[Point], "[{:x :int, :y :float}]"),
    (Box, "{:width :int, :label :string?}"),
])
def test_type_notation(ann: Any, text: str) -> None:
    assert render(ann) == text


def test_record_fields_with_defaults_are_always_present_in_results() -> None:
    assert render(Review, output=True) == "{:id :int, :text :string, :stars :int?}"
    assert render(Box, output=True) == "{:width :int, :label :string}"


def test_recursive_models_do_not_loop() -> None:
    class Node(BaseModel):
        name: str
        children: list["Node"] = []

    Node.model_rebuild()
    assert render(Node) == "{:name :string, :children [:map]?}"


@tool
def search_reviews(category: str, limit: int = 10, max_results: int | None = None) -> list[Review]:
    """Search product reviews by category.

    More details that stay out of the prompt.

    Args:
        category: the product category, e.g. "Electronics".
        limit: how many reviews to return.
    """
    return [Review(id=i, text=category) for i in range(limit)]


def test_signature() -> None:
    assert search_reviews.signature() == (
        "(tool/search-reviews {:category :string, :limit :int?, :max-results :int?})"
        " -> [{:id :int, :text :string, :stars :int?}]\n"
        "  Search product reviews by category.\n"
        '  :category - the product category, e.g. "Electronics".\n'
        "  :limit - how many reviews to return. (default 10)"
    )
    assert search_reviews.signature(description=False).startswith("(tool/search-reviews {")
    assert "\n" not in search_reviews.signature(description=False)


def test_signature_of_tools_without_parameters_or_annotations() -> None:
    def now():  # type: ignore[no-untyped-def]
        """The current time."""

    assert Tool(now).signature() == "(tool/now) -> :any\n  The current time."

    def ping() -> None:
        pass

    assert Tool(ping).signature() == "(tool/ping) -> :nil"


def test_signature_of_variadic_tools() -> None:
    def total(*amounts: float) -> float:
        return sum(amounts)

    def query(table: str, **filters: str) -> list:
        return []

    assert Tool(total).signature() == "(tool/total & amounts :float) -> :float"
    assert Tool(query).signature() == "(tool/query {:table :string, ...}) -> [:any]"


def test_custom_signature_text() -> None:
    t = Tool(search_reviews, signature="(tool/search-reviews {:category :string}) -> [:map]")
    assert t.signature() == ("(tool/search-reviews {:category :string}) -> [:map]\n"
                             "  Search product reviews by category.\n"
                             '  :category - the product category, e.g. "Electronics".\n'
                             "  :limit - how many reviews to return. (default 10)")


def test_to_schema() -> None:
    schema = search_reviews.to_schema()
    assert schema == {
        "name": "search-reviews",
        "description": "Search product reviews by category.",
        "parameters": {
            "type": "object",
            "properties": {
                "category": {"type": "string", "description": 'the product category, e.g. "Electronics".'},
                "limit": {"type": "integer", "default": 10, "description": "how many reviews to return."},
                "max_results": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
            },
            "required": ["category"],
            "additionalProperties": False,
        },
    }


def test_to_schema_with_nested_models_literals_and_extras() -> None:
    class Filters(BaseModel):
        title: str  # a field *named* title survives title stripping
        mood: Literal["good", "bad"] = "good"

    def find(filters: Filters, **extra: int) -> list:
        return []

    schema = Tool(find).to_schema()["parameters"]
    assert schema["properties"]["filters"] == {"$ref": "#/$defs/Filters"}
    assert schema["$defs"]["Filters"]["properties"] == {
        "title": {"type": "string"}, "mood": {"enum": ["good", "bad"], "type": "string", "default": "good"}}
    assert schema["additionalProperties"] == {"type": "integer"}
    assert schema["required"] == ["filters"]


def test_to_schema_with_unschemable_types() -> None:
    class Opaque:
        pass

    def f(x: Opaque, y: int = 1) -> None:
        pass

    schema = Tool(f).to_schema()["parameters"]
    assert schema["properties"]["y"] == {"type": "integer", "default": 1}
    assert "x" in schema["properties"]


# -- summaries ---------------------------------------------------------------------------------


def test_default_summary() -> None:
    r = ptc.run('(tool/search-reviews {:category "Electronics" :limit 12})', tools=as_tools([search_reviews]))
    call = r.tool_calls[0]
    assert search_reviews.summarize(call.args, call.result) == \
        'search-reviews({:category "Electronics", :limit 12}) -> list[12]'


@pytest.mark.parametrize("args, result, text", [
    ({}, None, "t() -> nil"),
    ({"a": 1}, 42, "t({:a 1}) -> 42"),
    (["x", 2], {"a": 1, "b": 2}, 't("x" 2) -> map[2]'),
    ({"q": "x" * 100}, "y" * 500, 't({:q "' + "x" * 52 + '...) -> string[500]'),
    ({"q": "a\nb"}, "short", 't({:q "a\\nb"}) -> "short"'),
    ({}, {1, 2}, "t() -> set[2]"),
    ({}, True, "t() -> true"),
])
def test_default_summary_shapes(args: Any, result: Any, text: str) -> None:
    def t(**kw: Any) -> Any:
        return None

    line = Tool(t).summarize(args, result)
    assert line == text
    assert "\n" not in line


def test_custom_summary_gets_plain_arguments_by_parameter_name() -> None:
    seen = []

    def summary(args: dict, result: list) -> str:
        seen.append((args, result))
        return f"{args['category']}: {len(result)} reviews\nsecond line"

    t = search_reviews.replace(summarize=summary)
    r = ptc.run('(tool/search-reviews "Books" 2)', tools=as_tools([t]))
    call = r.tool_calls[0]
    assert t.summarize(call.args, call.result) == "Books: 2 reviews second line"
    args, result = seen[0]
    assert args == {"category": "Books", "limit": 2}
    assert result == [{"id": 0, "text": "Books", "stars": None}, {"id": 1, "text": "Books", "stars": None}]


def test_custom_summary_of_the_result_only_and_broken_summaries() -> None:
    t = Tool(search_reviews, summarize=lambda result: f"{len(result)} found")
    assert t.summarize({"category": "x"}, [1, 2]) == "2 found"

    def broken(args: Any, result: Any) -> str:
        raise KeyError("oops")

    b = Tool(search_reviews, summarize=broken)
    assert b.summarize({"category": "x"}, [1]) == 'search-reviews({:category "x"}) -> list[1]'


def test_decorator_summarize_option() -> None:
    @tool(summarize=lambda args, result: f"sent to {args['to']}")
    def send_email(to: str, body: str) -> None:
        """Send an email."""

    assert send_email.summarize({"to": "a@b.c", "body": "hi"}, None) == "sent to a@b.c"


# -- as_tools -----------------------------------------------------------------------------------


def _f(x: int) -> int:
    return x


def test_as_tools_forms() -> None:
    assert as_tools(None) == {}
    tools = as_tools([search_reviews, _f])
    assert list(tools) == ["search-reviews", "f"] and all(isinstance(t, Tool) for t in tools.values())
    assert list(as_tools(_f)) == ["f"]
    assert list(as_tools((search_reviews,))) == ["search-reviews"]
    named = as_tools({"lookup": _f, "reviews": search_reviews})
    assert named["lookup"].name == "lookup" and named["reviews"].name == "reviews"
    assert ptc.run("(tool/lookup 5)", tools=named).value == 5
    same = as_tools({"search-reviews": search_reviews})
    assert same["search-reviews"] is search_reviews


def test_as_tools_rejects_duplicates() -> None:
    def search_reviews(q: str) -> list:  # same tool name as the module-level one
        return []

    with pytest.raises(ValueError, match="duplicate tool name 'search-reviews'"):
        as_tools([globals()["search_reviews"], search_reviews])
    with pytest.raises(ValueError, match="duplicate tool name"):
        as_tools([Tool(_f, name="a"), Tool(search_reviews, name="a")])


def test_as_tools_rejects_non_tools() -> None:
    with pytest.raises(TypeError):
        as_tools([1])
    with pytest.raises(TypeError):
        as_tools({"x": 3})
    with pytest.raises(TypeError):
        as_tools("search")
    with pytest.raises(ValueError, match="invalid tool name"):
        as_tools({"bad name": _f})


def test_top_level_exports() -> None:
    assert ptc.tool is tool and ptc.Tool is Tool
