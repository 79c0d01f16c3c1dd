"""A search over a huge catalog: the index is built and searched in bounded time, the result
and the prompt's part stay small (ptc.tools.search)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from ptc.tools.search import MAX_LIMIT, SEARCH_TOOL, catalog_text, search_tool, with_search

pytestmark = pytest.mark.timing


@dataclass(frozen=True)
class Param:
    key: str
    description: str


@dataclass(frozen=True)
class Listed:
    """What a search reads of a tool (a ptc.Tool has these and more): cheap to make 50,000 of."""

    name: str
    description: str
    params: tuple[Param, ...]

    def signature(self) -> str:
        return f"(tool/{self.name} {{:id :string}}) -> :map\n  {self.description}"


DOMAINS = ["crm", "billing", "weather", "calendar", "files", "code", "maps", "hr", "chat", "docs"]


def huge(n: int) -> dict[str, Listed]:
    tools = {}
    for i in range(n):
        domain = DOMAINS[i % len(DOMAINS)]
        name = f"{domain}-get-record-{i}"
        tools[name] = Listed(name, f"One {domain} record of kind {i} by id, with its owner and status.",
                             (Param("id", f"The {domain} record's id."),))
    tools["weather-get-forecast"] = Listed("weather-get-forecast", "Daily forecast for a city: rain and wind.",
                                           (Param("city", "City name."),))
    return tools


def test_a_huge_catalog_is_indexed_and_searched_fast_and_small() -> None:
    tools = huge(50_000)
    search = search_tool(tools)
    t0 = time.perf_counter()
    first = search.invoke({"query": "forecast for a city"})  # builds the index
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(10):
        many = search.invoke({"query": "crm record owner status kind id " * 50, "limit": 1000})
    each = (time.perf_counter() - t0) / 10
    assert first.startswith("(tool/weather-get-forecast")
    assert built < 5.0 and each < 0.5, (built, each)
    assert many.count("(tool/") == MAX_LIMIT and len(many) < MAX_LIMIT * 1_200
    text = catalog_text(with_search(tools))
    assert text.startswith("50001 tools, too many to list") and len(text) < 1_000  # no longer with the catalog
    assert SEARCH_TOOL in text
