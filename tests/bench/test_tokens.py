"""The token benchmark: the bundled scenarios, the fact checks, the costs, the headline targets, the CLI."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ptc.cli.main import main
from ptc.bench.tokens import Scenario, ScenarioResult, facts_for, run_scenario, summary
from ptc.scenarios import bench as scenarios
from ptc.compression.single_user_coalesced import summarize
from ptc.examples import datasets
from ptc.interpreter import values as V

ROOT = Path(__file__).resolve().parents[2]
JSON_TC, FULL, SUC, APPEND = "json-tool-calling", "full-history", "single-user-coalesced", "append-only-summaries"
NAMES = [s.name for s in scenarios.SCENARIOS]

# The turns meant to fail, and how: every other turn of every scenario must succeed.
EXPECTED_FAILURES: dict[str, dict[int, str]] = {
    "recover-from-errors": {2: "tool", 4: "analysis", 6: "runtime"},  # bad argument, unknown fn, arity
    "missing-product": {1: "tool"},
    "expense-escalation": {4: "analysis", 7: "tool"},  # undefined name, a Saturday refused
}



@pytest.fixture(scope="module")
def results() -> dict[str, ScenarioResult]:
    return {s.name: run_scenario(s) for s in scenarios.SCENARIOS}


# -- the catalogue -------------------------------------------------------------------------------


def test_catalogue_shape() -> None:
    assert len(scenarios.SCENARIOS) >= 10
    assert len(set(NAMES)) == len(NAMES)
    assert all(3 <= len(s.replies) <= 10 for s in scenarios.SCENARIOS)
    assert sum(len(s.replies) >= 5 for s in scenarios.SCENARIOS) >= 6
    assert any(len(s.replies) >= 8 for s in scenarios.SCENARIOS)  # a long mixed session
    assert sum(s.data_heavy for s in scenarios.SCENARIOS) >= 2
    assert any(not s.expect_ok for s in scenarios.SCENARIOS)


def test_get_by_name() -> None:
    assert scenarios.get("sales-analysis").data_heavy
    with pytest.raises(KeyError, match="scenarios: explore-catalog"):
        scenarios.get("nope")


@pytest.mark.parametrize("scenario", scenarios.SCENARIOS, ids=NAMES)
def test_replies_are_a_sentence_and_one_clojure_block(scenario: Scenario) -> None:
    for text in scenario.replies:
        assert text.count("```clojure") == 1 and text.rstrip().endswith("```")
        sentence = text.split("```clojure")[0].strip()
        assert sentence and "\n" not in sentence and len(sentence) < 140


# -- every scenario runs as intended -------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_scenario_reaches_its_intended_outcome(results: dict[str, ScenarioResult], name: str) -> None:
    r = results[name]
    assert len(r.turns) == len(r.scenario.replies), "the run ended before the script did"
    failures = {t.number: t.error.kind for t in r.turns if not t.success and t.error is not None}
    assert failures == EXPECTED_FAILURES.get(name, {}), [t.error for t in r.turns if t.error]
    assert r.ok is r.scenario.expect_ok
    last = r.turns[-1]
    if r.scenario.expect_ok:
        assert last.returned and last.success
    else:
        assert last.failed  # ended by (fail ...)


def test_scenarios_cover_the_required_situations(results: dict[str, ScenarioResult]) -> None:
    all_turns = [t for r in results.values() for t in r.turns]
    calls = [c for t in all_turns for c in t.tool_calls]
    # actions returning nil, over several turns
    actions = [t.number for t in results["support-outreach"].turns
               if any(c.name in ("send-email", "book-meeting") for c in t.tool_calls)]
    assert len(actions) >= 3 and all(c.result is None for c in calls if c.name in ("send-email", "book-meeting"))
    # a big tool result kept with def
    assert any(type(c.result) in V.VECTOR_TYPES and len(c.result) >= 400 for c in calls)
    assert any(type(c.result) is str and len(c.result) > 400 for c in calls)
    # a turn printing 40 lines, so the println FIFO drops some
    assert max(len(t.prints) for t in all_turns) >= 40
    listing = results["big-orders-listing"]
    dropped = summarize(listing.turns, listing.turns[-1].memory, println_limit=15, tool_call_limit=20)
    assert dropped.printlns_dropped > 0
    # redefinitions: value-score's helper is defined three times, with a new docstring each time
    docs = [t.docs.get("value-score") for t in results["value-score"].turns if "value-score" in t.defined]
    assert len(docs) == 3 and len(set(docs)) == 3


# -- facts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_coalesced_keeps_every_fact(results: dict[str, ScenarioResult], name: str) -> None:
    r = results[name]
    assert r.missing.get(SUC, []) == []
    assert r.strategies[SUC].fact_share == 1.0


def test_extra_facts_can_be_ptc_only() -> None:
    s = Scenario(name="x", description="", mission="Count the products.", replies=(),
                 extra_facts=((0, "shared"), (0, "ptc only", False), (1, "later", True)))
    facts = {f.text: f for f in facts_for(s, (), 0)}
    assert facts["shared"].applies_to_json and not facts["ptc only"].applies_to_json
    assert "later" not in facts


def test_json_rendering_holds_full_tool_results_and_datasets(results: dict[str, ScenarioResult]) -> None:
    from ptc.bench.tokens import json_tool_calling

    r = results["category-comparison"]
    tools = {t.name: t for t in r.scenario.tools}
    text = "\n".join(m["content"] for m in json_tool_calling(r.scenario, r.turns, len(r.turns) - 1, tools))
    calls = [c for t in r.turns for c in t.tool_calls]
    orders = next(c for c in calls if c.name == "list-orders")
    assert len(orders.result) == 400
    assert json.dumps(V.to_python(orders.result)) in text  # all 400 orders, verbatim
    for review in (c for c in calls if c.name == "search-reviews"):
        assert json.dumps(review.result) in text
    r = results["sales-analysis"]
    text = "\n".join(m["content"] for m in json_tool_calling(r.scenario, r.turns, 1, {}))
    assert json.dumps(datasets.load("orders")) in text and json.dumps(datasets.load("products")) in text


@pytest.mark.parametrize("name", NAMES)
def test_token_counts_and_billing(results: dict[str, ScenarioResult], name: str) -> None:
    r = results[name]
    assert set(r.strategies) == {JSON_TC, FULL, SUC, APPEND}
    for s in r.strategies.values():
        assert len(s.tokens_per_call) == len(r.turns)
        assert all(n > 0 for n in s.tokens_per_call)
        assert 0 < s.system_tokens < s.tokens_per_call[0]
        assert len(s.facts_per_call) == len(r.turns)
        for provider in ("uncached", "openai", "anthropic"):  # every prompt token billed exactly once
            assert [b.total for b in s.billing[provider]] == s.tokens_per_call
        assert s.cost("uncached") == s.total and s.cost("openai") <= s.total
        assert s.billed("openai").cache_write == 0 and s.billed("uncached").cache_read == 0
    for name_ in (JSON_TC, FULL, APPEND):  # these histories only grow
        tokens = r.strategies[name_].tokens_per_call
        assert tokens == sorted(tokens)
    assert all(r.floor[p] < r.strategies[s].cost(p) for s in (FULL, SUC, APPEND) for p in r.floor)


@pytest.mark.parametrize("scenario", scenarios.SCENARIOS, ids=NAMES)
def test_append_only_strategies_extend_the_previous_prompt_byte_for_byte(
        results: dict[str, ScenarioResult], scenario: Scenario) -> None:
    from ptc.compression import AppendOnlySummaries, FullHistory, RenderContext, SingleUserCoalesced

    turns = results[scenario.name].turns
    ctx = RenderContext(mission=scenario.mission, system_prompt="S", max_turns=len(turns))
    for strategy in (FullHistory(), AppendOnlySummaries()):
        assert strategy.append_only
        previous: list[dict[str, str]] = []
        for k in range(len(turns) + 1):
            current = strategy.to_messages(turns[:k], turns[k - 1].memory if k else {}, ctx)
            assert current[:len(previous)] == previous, (strategy.name, k)
            previous = current
    assert not SingleUserCoalesced().append_only


@pytest.mark.parametrize("name", NAMES)
def test_append_only_summaries_keeps_every_fact(results: dict[str, ScenarioResult], name: str) -> None:
    assert results[name].missing.get(APPEND, []) == []


# -- the headline targets (token counts are deterministic) ----------------------------------------


def test_coalesced_keeps_all_facts_and_beats_full_history_on_long_runs(
        results: dict[str, ScenarioResult]) -> None:
    s = summary(list(results.values()))
    assert s["coalesced_facts_5plus"] == 1.0
    for r in results.values():
        if len(r.turns) >= 5:
            assert r.strategies[SUC].total < r.strategies["full-history"].total, r.scenario.name


def test_under_caching_append_only_summaries_is_the_cheapest_ptc_strategy(results: dict[str, ScenarioResult]) -> None:
    s = summary(list(results.values()))
    assert s["append_facts_5plus"] == 1.0
    for provider in ("openai", "anthropic"):
        assert s["append_vs_full_cost_5plus"][provider] < 1 and s["append_vs_full_cost_5plus"][provider] < \
            s["coalesced_vs_full_cost_5plus"][provider]
    # the estimate: FullHistory ~32% of its uncached tokens, SingleUserCoalesced ~40%
    cost = s["cost_5plus"]
    assert 0.30 < cost[FULL]["anthropic"] / cost[FULL]["uncached"] < 0.35
    # (0.379 since the prompt's reference lists the interop and date builtins, issue 22: a bigger
    # cached system prompt lowers the cached share)
    assert 0.37 < cost[SUC]["anthropic"] / cost[SUC]["uncached"] < 0.42


@pytest.mark.xfail(strict=True, reason="measured 90.8% of FullHistory's Anthropic-cached cost over the 5+ turn "
                                       "scenarios: writing and reading the ~1,860-token system prompt alone is 68.4% "
                                       "(no history at all); see docs/benchmarks.md")
def test_target_append_at_most_75_percent_of_full_history_anthropic(results: dict[str, ScenarioResult]) -> None:
    assert summary(list(results.values()))["append_vs_full_cost_5plus"]["anthropic"] <= 0.75


def test_target_ptc_at_most_15_percent_of_json_tool_calling_on_data_heavy(results: dict[str, ScenarioResult]) -> None:
    s = summary(list(results.values()))
    assert s["scenarios_data_heavy"]
    assert s["ptc_vs_json_data_heavy"] <= 0.15


# -- the CLI -----------------------------------------------------------------------------------------


def test_cli_table_and_summary_lines() -> None:
    out = CliRunner().invoke(main, ["bench", "tokens"], env={"COLUMNS": "100"})  # as piped (pytest-xdist sets 80)
    assert out.exit_code == 0, out.output
    for name in NAMES:
        assert name in out.output
    assert re.search(r"SingleUserCoalesced / FullHistory over 5\+ turn scenarios: [\d.]+%, "
                     r"facts kept: [\d.]+% \(target 100%\)", out.output)
    assert "target <= 50%" not in out.output  # retired: the cost under caching is the figure that matters
    assert re.search(r"PTC / JSON tool calling on data-heavy scenarios: [\d.]+% \(target <= 15%\)", out.output)
    assert re.search(r"AppendOnlySummaries / FullHistory, Anthropic-cached cost over 5\+ turn scenarios: [\d.]+% "
                     r"\(target <= 75%\), facts kept: [\d.]+% \(target 100%\)", out.output)
    assert re.search(r"Compact system prompt: [\d,]+ tokens before tools and data \(target <= 700\)", out.output)
    assert "Billed prompt cost per scenario (input-token equivalents)" in out.output
    assert "Both prompt profiles, 5+ turn scenarios" in out.output and " compact  app " in out.output


def test_cli_json_has_every_number() -> None:
    out = CliRunner().invoke(main, ["bench", "tokens", "--json", "--scenario", "sales-analysis",
                                    "--scenario", "reviews-digest", "--encoding", "o200k_base"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["encoding"] == "o200k_base" and data["tokenizer"]
    assert [s["name"] for s in data["scenarios"]] == ["sales-analysis", "reviews-digest"]
    sales = data["scenarios"][0]
    assert sales["calls"] == 6 and sales["data_heavy"] and sales["outcome_as_intended"]
    for name in (JSON_TC, FULL, SUC, APPEND):
        st = sales["strategies"][name]
        assert len(st["tokens_per_call"]) == 6 and st["cumulative_per_call"][-1] == st["total"]
        assert len(st["facts_per_call"]) == 6
        assert set(st["cost"]) == {"uncached", "openai", "anthropic"} and st["cost"]["uncached"] == st["total"]
        anthropic = st["billing"]["anthropic"]
        assert st["cost"]["anthropic"] == pytest.approx(
            anthropic["uncached"] + 0.1 * anthropic["cache_read"] + 1.25 * anthropic["cache_write"])
        assert "cost_usd" not in st
    assert sales["coalesced_vs_full"] == sales["strategies"][SUC]["total"] / sales["strategies"][FULL]["total"]
    assert data["summary"]["scenarios_data_heavy"] == ["sales-analysis"]
    assert data["targets"]["ptc_vs_json_data_heavy"] == 0.15 and data["targets"]["append_vs_full_anthropic_5plus"] == 0.75
    assert data["prompt"] == "default" and data["pricing"] is None
    default, compact = data["prompts"]["default"], data["prompts"]["compact"]
    assert compact["tokens_before_tools_and_data"] <= 700 < default["tokens_before_tools_and_data"]
    assert default["summary"] == data["summary"]
    assert compact["summary"]["system_tokens"]["sales-analysis"] < default["summary"]["system_tokens"]["sales-analysis"]


def test_cli_pricing_in_dollars_and_compact_tables() -> None:
    out = CliRunner().invoke(main, ["bench", "tokens", "--json", "--scenario", "reviews-digest", "--prompt", "compact",
                                    "--pricing", "gpt-4o"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    prices = data["pricing"]
    assert prices["provider"] == "openai" and prices["cache_read"] == pytest.approx(prices["input"] / 2)
    assert data["prompt"] == "compact"
    st = data["scenarios"][0]["strategies"][APPEND]
    assert st["cost_usd"]["uncached"] == pytest.approx(st["total"] * prices["input"])
    openai = st["billing"]["openai"]
    assert st["cost_usd"]["openai"] == pytest.approx(openai["uncached"] * prices["input"]
                                                     + openai["cache_read"] * prices["cache_read"])
    table = CliRunner().invoke(main, ["bench", "tokens", "--scenario", "reviews-digest", "--pricing", "gpt-4o"])
    assert table.exit_code == 0 and "USD at gpt-4o's prices (openai)" in table.output
    assert re.search(r"\$\d+\.\d{4}", table.output)


def test_cli_unknown_pricing_model_names_close_ones() -> None:
    out = CliRunner().invoke(main, ["bench", "tokens", "--scenario", "reviews-digest", "--pricing", "gpt-4oo"])
    assert out.exit_code == 2 and "no input price for 'gpt-4oo'" in out.output and "gpt-4o" in out.output


def test_cli_unknown_scenario_lists_the_names() -> None:
    out = CliRunner().invoke(main, ["bench", "tokens", "--scenario", "nope"])
    assert out.exit_code == 2 and "explore-catalog" in out.output


def test_cli_help_has_an_example() -> None:
    out = CliRunner().invoke(main, ["bench", "tokens", "--help"])
    assert out.exit_code == 0 and "Examples:" in out.output and "ptc bench tokens --plot" in out.output


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib not installed")
def test_cli_plot_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "tokens.png"
    out = CliRunner().invoke(main, ["bench", "tokens", "--scenario", "headcount-report",
                                    "--scenario", "missing-product", "--plot", str(path)])
    assert out.exit_code == 0, out.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_plot_without_matplotlib_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    out = CliRunner().invoke(main, ["bench", "tokens", "--scenario", "headcount-report",
                                    "--plot", str(tmp_path / "x.png")])
    assert out.exit_code == 1
    assert "--plot needs matplotlib" in out.output and "ptc-lisp[plot]" in out.output
    assert not (tmp_path / "x.png").exists()


def test_bench_script_is_the_same_command() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "tokens.py"), "--json", "--scenario",
                           "reviews-digest"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scenarios"][0]["name"] == "reviews-digest"
