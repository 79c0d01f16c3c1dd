"""Tool search for large catalogs (ptc.tools.search): the threshold, BM25 ranking on a fixed
catalog, (doc tool/x), what a search returns at most (its time over a huge catalog:
test_tool_search_limits.py)."""

from __future__ import annotations

import pytest

import ptc
from ptc.agent.prompt import system_prompt
from ptc.tools.search import DEFAULT_THRESHOLD, MAX_LIMIT, SEARCH_TOOL, ToolIndex, search_tool, with_search


def make(name: str, description: str, **params: str) -> ptc.Tool:
    """A tool `name` whose keyword parameters (all strings) are documented by `params`."""
    args = ", ".join(params)
    doc = description + ("\n\nArgs:\n" + "".join(f"    {p}: {d}\n" for p, d in params.items()) if params else "")
    src = f"def fn({args}):\n    return {{'tool': {name!r}}}\n"
    scope: dict = {}
    exec(src, scope)  # noqa: S102 - a function with these parameter names
    scope["fn"].__doc__ = doc
    return ptc.Tool(scope["fn"], name=name, _localns={})


FIXED = [
    make("weather-get-forecast", "Daily forecast for a city: temperature, rain and wind.", city="City name.",
         days="Days ahead."),
    make("weather-get-alerts", "Severe weather warnings for a region.", region="Region code."),
    make("calendar-create-event", "Schedule a meeting with attendees; sends invitations.", title="Title.",
         start="Start time."),
    make("calendar-list-events", "Events on a calendar between two dates.", start="From.", end="To."),
    make("email-send-message", "Send an email to recipients.", to="Recipients.", subject="Subject.", body="Text."),
    make("email-search-inbox", "Search received mail by sender and words.", query="Words."),
    make("payments-refund-charge", "Give a customer their money back for a card charge.", charge_id="The charge."),
    make("payments-list-charges", "Card charges of a customer.", customer="Customer id."),
    make("maps-get-directions", "Route and travel time between two places.", origin="From.", destination="To."),
    make("maps-geocode-address", "Latitude and longitude of a street address.", address="Address."),
    make("hr-get-payslip", "An employee's salary statement for a month.", employee_id="Who.", month="YYYY-MM."),
    make("code-create-issue", "Open an issue in a repository's bug tracker.", repo="owner/name.", title="Title."),
]


def catalog(n: int) -> dict[str, ptc.Tool]:
    tools = {t.name: t for t in FIXED}
    for i in range(n - len(tools)):
        tools[f"records-get-item-{i}"] = make(f"records-get-item-{i}", f"One stored record of kind {i} by its id.",
                                              id="The record's id.")
    return dict(list(tools.items())[:n])


# -- the threshold ---------------------------------------------------------------------


def test_below_the_threshold_nothing_changes() -> None:
    tools = catalog(DEFAULT_THRESHOLD)
    assert with_search(tools) == tools  # no search tool
    prompt = system_prompt(tools=with_search(tools), data=None)
    assert prompt == system_prompt(tools=tools, data=None)
    assert "(tool/weather-get-forecast {:city :any, :days :any}) -> :any" in prompt
    assert SEARCH_TOOL not in prompt
    agent = ptc.Agent("m", tools=tools, llm=lambda m: "")
    assert set(agent.tools) == set(tools) and agent.system_prompt == system_prompt(tools=tools, data=None)


def test_above_the_threshold_the_prompt_lists_groups_and_how_to_search() -> None:
    tools = catalog(DEFAULT_THRESHOLD + 1)
    agent = ptc.Agent("m", tools=tools, llm=lambda m: "")
    assert SEARCH_TOOL in agent.tools and len(agent.tools) == DEFAULT_THRESHOLD + 2
    prompt = agent.system_prompt
    assert "tool/weather-get-forecast" not in prompt  # no signature listed
    assert f"{DEFAULT_THRESHOLD + 1} tools, too many to list" in prompt
    assert f'(println (tool/{SEARCH_TOOL} "weather forecast for a city"))' in prompt
    assert "(doc tool/name)" in prompt
    assert ("Tool names by first word: records- (19) calendar- (2) email- (2) maps- (2) payments- (2) weather- (2) "
            "code- (1) hr- (1)\n") in prompt


def test_the_threshold_is_configurable() -> None:
    tools = catalog(12)
    assert SEARCH_TOOL in ptc.Agent("m", tools=tools, llm=lambda m: "", tool_search=10).tools
    assert SEARCH_TOOL in ptc.Agent("m", tools=tools, llm=lambda m: "", tool_search=True).tools
    assert SEARCH_TOOL not in ptc.Agent("m", tools=catalog(200), llm=lambda m: "", tool_search=False).tools
    assert SEARCH_TOOL not in ptc.Agent("m", tools=tools, llm=lambda m: "", tool_search=12).tools
    with pytest.raises(ValueError, match="tool_search must be"):
        with_search(tools, -1)
    own = {**catalog(40), SEARCH_TOOL: make(SEARCH_TOOL, "The host's own.")}
    with pytest.raises(ValueError, match="rename it, or pass tool_search=False"):
        with_search(own)
    assert with_search(own, False) == own
    searched = with_search(catalog(40))
    assert with_search(searched) == searched and with_search(searched, False)[SEARCH_TOOL] is searched[SEARCH_TOOL]


def test_the_sandbox_description_stays_small() -> None:
    small = ptc.Sandbox(tools=catalog(200)).instructions
    assert "200 tools, too many to list" in small and "records-get-item-7" not in small
    assert len(small) < len(ptc.Sandbox(tools=catalog(40), tool_search=False).instructions)


# -- ranking ---------------------------------------------------------------------------


@pytest.mark.parametrize("query, expected", [
    ("weather forecast for Paris", "weather-get-forecast"),
    ("Is there a storm warning in my region?", "weather-get-alerts"),
    ("schedule a meeting", "calendar-create-event"),
    ("send an email", "email-send-message"),
    ("refund the customer's charge", "payments-refund-charge"),
    ("driving directions between two places", "maps-get-directions"),
    ("coordinates of an address", "maps-geocode-address"),
    ("my salary for March", "hr-get-payslip"),
    ("file a bug", "code-create-issue"),
])
def test_the_best_match_comes_first_among_many_neighbours(query: str, expected: str) -> None:
    index = ToolIndex(catalog(300))
    assert index.search(query, 5)[0] == expected


def test_a_search_gives_signatures_best_first() -> None:
    tools = with_search(catalog(40))
    r = ptc.run('(println (tool/search-tools "weather forecast"))', tools=tools)
    printed = r.prints[0]
    assert printed.startswith("(tool/weather-get-forecast {:city :any, :days :any}) -> :any\n"
                              "  Daily forecast for a city: temperature, rain and wind.\n  :city - City name.")
    assert printed.index("weather-get-forecast") < printed.index("weather-get-alerts")
    two = ptc.run('(tool/search-tools {:query "email" :limit 2})', tools=tools).value
    assert two.count("(tool/") == 2 and two.startswith("(tool/email-")
    assert "no tool matches" in ptc.run('(tool/search-tools "zzzz")', tools=tools).value
    assert "no tool matches" in ptc.run('(tool/search-tools "")', tools=tools).value


def test_doc_of_a_tool_gives_its_whole_signature() -> None:
    tools = with_search(catalog(40))
    r = ptc.run("(doc tool/payments-refund-charge)", tools=tools)
    assert r.prints[0] == ("-------------------------\ntool/payments-refund-charge\n"
                           "  (tool/payments-refund-charge {:charge-id :any}) -> :any\n"
                           "  Give a customer their money back for a card charge.\n  :charge-id - The charge.")
    searched = ptc.run(f"(doc tool/{SEARCH_TOOL})", tools=tools).prints[0]
    assert f"(tool/{SEARCH_TOOL} {{:query :string, :limit :int?}}) -> :string" in searched


def test_a_search_runs_in_process_isolation_too() -> None:
    tools = with_search(catalog(40))
    r = ptc.run('(tool/search-tools "refund a charge")', tools=tools, limits=ptc.Limits(isolation="process"))
    assert r.value.startswith("(tool/payments-refund-charge")


# -- limits ----------------------------------------------------------------------------


def test_a_result_is_bounded_in_tools_and_characters() -> None:
    tools = {**catalog(60), "big-tool": make("big-tool", "Record " + "word " * 2_000)}
    out = search_tool(tools).invoke({"query": "record of kind 12 " * 100, "limit": 1000})
    assert out.count("(tool/") == MAX_LIMIT and len(out) < MAX_LIMIT * 1_200
    big = search_tool(tools).invoke({"query": "word", "limit": 1})
    assert big.startswith("(tool/big-tool") and big.endswith("... (doc tool/big-tool) for all") and len(big) <= 1_200


def test_an_unknown_tool_or_find_doc_points_to_the_search() -> None:
    from ptc.interpreter import analyzer

    assert analyzer.SEARCH_TOOL == SEARCH_TOOL
    tools = with_search(catalog(500))
    with pytest.raises(ptc.PTCError) as e:
        ptc.run('(tool/get-weather {:city "Lyon"})', tools=tools)
    assert e.value.hint == f'find tools with (tool/{SEARCH_TOOL} "what it does"), then (doc tool/name)'
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(tool/zzz)", tools=catalog(40))  # listed, but never hundreds of names
    assert e.value.hint.startswith("available: calendar-create-event, ") and e.value.hint.endswith(" and 10 more")
    printed = ptc.run('(find-doc "forecast")', tools=tools).prints[0]
    assert printed.endswith(f'\n(tool/{SEARCH_TOOL} "forecast") searches this run\'s tools')
    assert SEARCH_TOOL not in ptc.run('(find-doc "forecast")', tools=catalog(10)).prints[0]


def test_an_agent_searches_in_one_turn_and_calls_in_the_next() -> None:
    def block(code: str) -> str:
        return f"```clojure\n{code}\n```"

    def second(messages: list[dict]) -> str:
        seen = messages[-1]["content"]
        assert "(tool/weather-get-forecast {:city :any, :days :any}) -> :any" in seen  # the search's output
        name = next(line for line in seen.splitlines() if line.startswith("(tool/")).split()[0][1:]
        return block(f'(return ({name} {{:city "Paris" :days 2}}))')

    llm = ptc.ScriptedLLM([block('(println (tool/search-tools "weather forecast for Paris"))'), second])
    step = ptc.Agent("Will it rain in Paris?", tools=catalog(300), llm=llm).run()
    assert step.ok and step.value == {"tool": "weather-get-forecast"}, step
    system = llm.requests[0][0]["content"]
    assert "300 tools, too many to list" in system and "weather-get-alerts" not in system
    assert [c.name for t in step.turns for c in t.tool_calls] == [SEARCH_TOOL, "weather-get-forecast"]
