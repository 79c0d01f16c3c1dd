"""Calling tools from programs: argument binding, validation errors, results, async."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import enum
import pickle
import threading
from typing import Annotated, Any, Literal, TypedDict

import pytest
from pydantic import BaseModel, Field

import ptc
from ptc.tools import Tool, as_tools, tool

from .helpers import err, run


@tool
def search_reviews(category: str, limit: int = 10, max_results: int | None = None,
                   sentiment: Literal["positive", "negative"] | None = None) -> list[dict]:
    """Search product reviews by category."""
    return [{"category": category, "limit": limit, "max_results": max_results, "sentiment": sentiment}]


def call(source: str, *tools: Any) -> Any:
    return ptc.to_python(run(source, *tools))


# -- binding -----------------------------------------------------------------------------


def test_map_call_with_defaults() -> None:
    assert call('(tool/search-reviews {:category "Electronics"})', search_reviews) == [
        {"category": "Electronics", "limit": 10, "max_results": None, "sentiment": None}]


def test_positional_call_binds_in_parameter_order() -> None:
    assert call('(tool/search-reviews "Books" 3)', search_reviews)[0]["limit"] == 3
    assert call('(tool/search-reviews "Books")', search_reviews)[0]["category"] == "Books"


def test_kebab_and_snake_keys_find_snake_case_parameters() -> None:
    assert call('(tool/search-reviews {:category "a" :max-results 4})', search_reviews)[0]["max_results"] == 4
    assert call('(tool/search-reviews {:category "a" :max_results 5})', search_reviews)[0]["max_results"] == 5


def test_string_keys_and_keyword_values() -> None:
    got = call('(tool/search-reviews {"category" "a" :sentiment :positive})', search_reviews)[0]
    assert got["category"] == "a" and got["sentiment"] == "positive"


def test_nil_for_a_parameter_with_a_default_uses_the_default() -> None:
    assert call('(tool/search-reviews {:category "a" :limit nil})', search_reviews)[0]["limit"] == 10
    # ... but a nullable parameter receives None
    assert call('(tool/search-reviews {:category "a" :max-results nil})', search_reviews)[0]["max_results"] is None


def test_no_arguments() -> None:
    @tool
    def now() -> str:
        return "2024-05-01"

    assert run("(tool/now)", now) == "2024-05-01"
    assert run("(tool/now {})", now) == "2024-05-01"


def test_lenient_number_coercion() -> None:
    @tool
    def half(x: float) -> float:
        return x / 2

    assert run("(tool/half 3)", half) == 1.5  # an integer is a fine float


def test_positional_only_var_positional_and_keyword_only() -> None:
    @tool
    def add(a: int, /, b: int = 2, *rest: int, scale: int = 1) -> int:
        return (a + b + sum(rest)) * scale

    assert run("(tool/add 1)", add) == 3
    assert run("(tool/add 1 2 3 4)", add) == 10
    assert run("(tool/add {:a 1 :b 5 :scale 2})", add) == 12
    assert run("(tool/add {:a 1 :rest [1 2]})", add) == 6


def test_var_keyword_accepts_and_validates_extra_keys() -> None:
    @tool
    def query(table: str, **filters: int) -> dict:
        return {"table": table, **filters}

    assert call('(tool/query {:table "t" :age 3 :min-size 4})', query) == {"table": "t", "age": 3, "min-size": 4}
    e = err('(tool/query {:table "t" :age "old"})', query)
    assert e.kind == "tool" and "parameter age: expected integer, got string \"old\"" in e.message


def test_parameter_names_clashing_with_pydantic_are_fine() -> None:
    @tool
    def ask(prompt: str, json: bool = False, model_config: str = "x", _private: int = 0) -> list:
        return [prompt, json, model_config, _private]

    assert call('(tool/ask {:prompt "p" :json true :model-config "y" :private 2})', ask) == ["p", True, "y", 2]
    assert set(ask.to_schema()["parameters"]["properties"]) == {"prompt", "json", "model_config", "_private"}


class Filters(BaseModel):
    min_rating: int = 0
    tags: list[str] = []


def test_nested_models_accept_kebab_keys() -> None:
    @tool
    def find(filters: Filters, page: int = 1) -> dict:
        assert isinstance(filters, Filters)
        return filters.model_dump()

    assert call('(tool/find {:filters {:min-rating 4 :tags ["a"]}})', find) == {"min_rating": 4, "tags": ["a"]}
    assert call('(tool/find {:filters {:min_rating 2}})', find) == {"min_rating": 2, "tags": []}


def test_a_single_record_parameter_takes_the_whole_map() -> None:
    @tool
    def create_filter(spec: Filters) -> int:
        return spec.min_rating

    assert run("(tool/create-filter {:min-rating 3})", create_filter) == 3
    assert run("(tool/create-filter {:spec {:min-rating 4}})", create_filter) == 4


def test_typed_dict_and_dataclass_parameters() -> None:
    class Point(TypedDict):
        x: int
        y: int

    @dataclasses.dataclass
    class Box:
        width: int
        height: int = 1

    @tool
    def area(box: Box, origin: Point | None = None) -> int:
        return box.width * box.height + (origin["x"] if origin else 0)

    assert run("(tool/area {:box {:width 3 :height 2} :origin {:x 1 :y 0}})", area) == 7
    e = err("(tool/area {:box {:width 3 :height :tall}})", area)
    assert "parameter box.height: expected integer, got keyword :tall" in e.message


def test_plain_python_arguments_for_json_tool_calling() -> None:
    assert search_reviews.invoke({"category": "a", "max_results": 2})[0]["max_results"] == 2
    assert search_reviews.invoke(["a", 4])[0]["limit"] == 4
    assert search_reviews.bind({"category": "a", "limit": "7"}) == {"category": "a", "limit": 7}


def test_a_decorated_function_is_still_a_function() -> None:
    assert search_reviews("x", limit=1)[0]["limit"] == 1


def test_methods_become_bound_tools() -> None:
    class Shop:
        def __init__(self) -> None:
            self.stock = {"apple": 3}

        @tool
        def stock_of(self, item: str) -> int:
            """Units in stock."""
            return self.stock[item]

    shop = Shop()
    t = shop.stock_of
    assert isinstance(t, Tool) and t.name == "stock-of"
    assert "self" not in t.signature()
    assert run('(tool/stock-of "apple")', t) == 3


# -- validation errors ---------------------------------------------------------------------


def test_wrong_type_names_tool_parameter_expected_and_got() -> None:
    e = err("(tool/search-reviews {:category 5})", search_reviews)
    assert e.kind == "tool"
    assert e.message == "tool/search-reviews: parameter category: expected string, got integer 5"
    assert "(tool/search-reviews {:category :string" in (e.hint or "")
    e = err('(tool/search-reviews {:category "a" :limit "ten"})', search_reviews)
    assert e.message == 'tool/search-reviews: parameter limit: expected integer, got string "ten"'


def test_error_positions_point_at_the_call() -> None:
    e = err('(let [x 1]\n  (tool/search-reviews {:category x}))', search_reviews)
    assert e.line == 2


def test_literal_errors_list_the_choices() -> None:
    e = err('(tool/search-reviews {:category "a" :sentiment :meh})', search_reviews)
    assert 'parameter sentiment: expected one of "positive", "negative", got keyword :meh' in e.message


def test_unknown_parameter_lists_valid_ones_and_suggests() -> None:
    e = err('(tool/search-reviews {:categry "a"})', search_reviews)
    assert e.kind == "tool"
    assert "unknown parameter categry (did you mean category?)" in e.message
    assert "valid parameters: category, limit, max-results, sentiment" in e.message


def test_missing_required_parameter() -> None:
    e = err("(tool/search-reviews {:limit 3})", search_reviews)
    assert e.message == "tool/search-reviews: missing required parameter category"
    e = err("(tool/search-reviews)", search_reviews)
    assert "missing required parameter category" in e.message


def test_too_many_positional_arguments() -> None:
    e = err('(tool/search-reviews "a" 1 2 "positive" 5)', search_reviews)
    assert "too many arguments: takes 4 positional arguments" in e.message and "got 5" in e.message


def test_parameter_given_twice() -> None:
    e = err('(tool/search-reviews {:category "a" :max-results 1 :max_results 2})', search_reviews)
    assert "parameter max-results given twice" in e.message


def test_non_keyword_parameter_names() -> None:
    e = err('(tool/search-reviews {1 "a"})', search_reviews)
    assert "parameter names must be keywords, got integer 1" in e.message


def test_nested_errors_give_a_path() -> None:
    @tool
    def find(filters: Filters) -> int:
        return 0

    e = err('(tool/find {:filters {:min-rating "x" :tags ["a" 3]}})', find)
    assert "parameter filters.min_rating: expected integer, got string \"x\"" in e.message
    assert "parameter filters.tags[1]: expected string, got integer 3" in e.message


def test_union_errors_are_merged() -> None:
    @tool
    def pick(x: int | list[int]) -> Any:
        return x

    e = err('(tool/pick "a")', pick)
    assert e.message == 'tool/pick: parameter x: expected integer or vector, got string "a"'


def test_constraints_from_annotated_fields() -> None:
    @tool
    def page(n: Annotated[int, Field(ge=1, le=10, description="page number")]) -> int:
        return n

    assert run("(tool/page 2)", page) == 2
    e = err("(tool/page 0)", page)
    assert "parameter n: input should be greater than or equal to 1, got integer 0" in e.message
    assert "page number" in page.signature()


def test_many_problems_are_capped() -> None:
    @tool
    def many(a: int, b: int, c: int, d: int, e: int) -> int:
        return 0

    e = err('(tool/many "a" "b" "c" "d" "e")', many)
    assert "and 2 more problems" in e.message


# -- failures inside tools -------------------------------------------------------------------


def test_an_exception_inside_a_tool_is_a_tool_error() -> None:
    @tool
    def boom(x: int) -> int:
        raise ValueError("kaput")

    e = err("(tool/boom 1)", boom)
    assert e.kind == "tool" and "tool/boom failed: ValueError: kaput" in e.message
    # and a program can catch it
    assert run('(try (tool/boom 1) (catch Exception e "caught"))', boom) == "caught"


def test_a_ptc_error_raised_by_a_tool_keeps_its_message() -> None:
    @tool
    def refuse() -> None:
        raise ptc.PTCError("runtime", "not allowed today")

    e = err("(tool/refuse)", refuse)
    assert e.kind == "tool" and e.message == "not allowed today"


def test_an_unconvertible_result_is_a_tool_error() -> None:
    @tool
    def handle() -> Any:
        return threading.Lock()

    e = err("(tool/handle)", handle)
    assert e.kind == "tool" and "tool/handle" in e.message


# -- results --------------------------------------------------------------------------------


class Review(BaseModel):
    id: int
    text: str
    stars: int | None = None


class Mood(enum.Enum):
    GOOD = "good"
    BAD = "bad"


@dataclasses.dataclass
class Summary:
    day: dt.date
    mood: Mood
    reviews: list[Review]


def test_pydantic_model_results_become_maps() -> None:
    @tool
    def reviews(n: int) -> list[Review]:
        return [Review(id=i, text=f"r{i}") for i in range(n)]

    assert run("(count (tool/reviews 3))", reviews) == 3
    assert run('(:text (first (tool/reviews 1)))', reviews) == "r0"
    assert reviews.invoke({"n": 1}) == [{"id": 0, "text": "r0", "stars": None}]


def test_dataclass_enum_date_decimal_and_generator_results() -> None:
    import decimal

    @tool
    def summary() -> Summary:
        return Summary(dt.date(2024, 5, 1), Mood.GOOD, [Review(id=1, text="ok")])

    @tool
    def money() -> list:
        return [decimal.Decimal("1.50"), decimal.Decimal("3")]

    @tool
    def numbers(n: int) -> Any:
        return (i * i for i in range(n))

    assert call("(tool/summary)", summary) == {"day": "2024-05-01", "mood": "good",
                                               "reviews": [{"id": 1, "text": "ok", "stars": None}]}
    assert call("(tool/money)", money) == [1.5, 3]
    assert call("(tool/numbers 4)", numbers) == [0, 1, 4, 9]


def test_generator_results_are_bounded() -> None:
    import itertools

    @tool
    def forever() -> Any:
        return itertools.count()

    with pytest.raises(ptc.PTCError) as info:
        ptc.run("(tool/forever)", tools=as_tools([forever]), limits=ptc.Limits(max_collection=100))
    assert info.value.kind == "limit"


# -- async tools ----------------------------------------------------------------------------


@tool
async def fetch(url: str, delay: float = 0.001) -> dict:
    """Fetch a page."""
    await asyncio.sleep(delay)
    return {"url": url, "page": Review(id=1, text="hi")}


def test_async_tool_from_sync_code() -> None:
    assert fetch.is_async
    assert call('(tool/fetch {:url "u"})', fetch) == {"url": "u", "page": {"id": 1, "text": "hi", "stars": None}}


def test_async_tool_inside_a_running_event_loop() -> None:
    async def main() -> Any:
        return ptc.run('(:url (tool/fetch "inside"))', tools=as_tools([fetch])).value

    assert asyncio.run(main()) == "inside"


def test_async_tool_validation_happens_before_awaiting() -> None:
    e = err("(tool/fetch {:url 1})", fetch)
    assert "parameter url: expected string, got integer 1" in e.message


def test_async_tool_exception_is_a_tool_error() -> None:
    @tool
    async def broken() -> None:
        await asyncio.sleep(0)
        raise RuntimeError("down")

    e = err("(tool/broken)", broken)
    assert e.kind == "tool" and "RuntimeError: down" in e.message


def test_ainvoke() -> None:
    assert asyncio.run(fetch.ainvoke({"url": "a"}))["url"] == "a"
    assert asyncio.run(search_reviews.ainvoke({"category": "c"}))[0]["category"] == "c"


def test_many_async_calls_in_one_program() -> None:
    assert run('(count (map #(tool/fetch (str "u" %)) (range 20)))', fetch) == 20


# -- the Tool object ----------------------------------------------------------------------------


def test_tools_are_immutable_and_replace_makes_copies() -> None:
    with pytest.raises(AttributeError):
        search_reviews.name = "x"  # type: ignore[misc]
    renamed = search_reviews.replace(name="reviews")
    assert renamed.name == "reviews" and search_reviews.name == "search-reviews"
    assert Tool(renamed).name == "reviews"
    assert Tool(renamed, description="Other.").description == "Other."


def test_parameters_model_and_returns() -> None:
    fields = search_reviews.parameters.model_fields
    assert list(fields) == ["category", "limit", "max_results", "sentiment"]
    assert fields["category"].is_required() and not fields["limit"].is_required()
    assert search_reviews.returns == list[dict]

    def untyped(x):  # type: ignore[no-untyped-def]
        return x

    t = Tool(untyped)
    assert t.returns is Any
    assert run("(tool/untyped {:x [1 2]})", t) == run("[1 2]")


def test_tools_pickle() -> None:
    again = pickle.loads(pickle.dumps(search_reviews))
    assert again is search_reviews  # a module-level decorated function: by reference
    t = Tool(_module_level, name="other", description="D.")
    copy = pickle.loads(pickle.dumps(t))
    assert (copy.name, copy.description, copy.fn) == ("other", "D.", _module_level)


def _module_level(x: int) -> int:
    return x


def test_unresolvable_annotations_fall_back_to_any() -> None:
    def f(x: "NoSuchType") -> "AlsoMissing":  # type: ignore[name-defined]  # noqa: F821
        return x

    t = Tool(f)
    assert run("(tool/f 3)", t) == 3
    assert t.signature(description=False) == "(tool/f {:x :any}) -> :any"


def test_kebab_keys_inside_lists_of_records() -> None:
    @tool
    def rate(items: list[Filters]) -> list[int]:
        return [f.min_rating for f in items]

    assert call("(tool/rate [{:min-rating 1} {:min_rating 2}])", rate) == [1, 2]
    assert call("(tool/rate {:items [{:min-rating 3}]})", rate) == [3]


def test_positional_nil_uses_the_default() -> None:
    assert call('(tool/search-reviews "a" nil)', search_reviews)[0]["limit"] == 10


def test_other_python_results() -> None:
    import collections
    import uuid

    @tool
    def odd() -> dict:
        return {"r": range(3), "k": {"a": 1}.keys(), "d": collections.deque([1]), "b": b"hi",
                (1, 2): "t", dt.date(2024, 1, 1): uuid.UUID(int=1), "s": frozenset({1})}

    assert ptc.pr_str(run("(tool/odd)", odd)) == (  # JSON keys that are keyword names read as keywords
        '{:r [0 1 2], :k ["a"], :d [1], :b "hi", [1 2] "t", '
        ':2024-01-01 "00000000-0000-0000-0000-000000000001", :s #{1}}')


def test_async_callable_object() -> None:
    class Fetcher:
        async def __call__(self, url: str) -> str:
            await asyncio.sleep(0)
            return url.upper()

    t = Tool(Fetcher(), name="fetcher")
    assert t.is_async
    assert run('(tool/fetcher "a")', t) == "A"


def test_import_ptc_stays_light() -> None:
    import subprocess
    import sys

    code = "import sys, ptc; ptc.tool; ptc.mcp_tools; print('pydantic' in sys.modules, 'mcp' in sys.modules)"
    light = "import sys, ptc; print('pydantic' in sys.modules, 'ptc.tools' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", light], capture_output=True, text=True,
                          check=True).stdout.split() == ["False", "False"]
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split() == ["True", "False"]  # the MCP SDK loads on first connection
