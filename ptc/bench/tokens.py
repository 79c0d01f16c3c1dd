"""The token benchmark: prompt tokens, and what they cost, per LLM call under each way of keeping history.

Each scenario is a scripted multi-turn run over the example datasets. The run happens once
(real programs, real tool calls); then the prompt of every LLM call is rendered under
(a) classic JSON tool calling, where every tool call and its full result sits in the
context and data reaches the model as tool results, (b) PTC with FullHistory, (c) PTC with
SingleUserCoalesced and (d) PTC with AppendOnlySummaries, and counted with tiktoken. Each
sequence of prompts is billed under three rules (`ptc.llm.pricing`): uncached, OpenAI's
automatic prefix caching and Anthropic's cache breakpoints. Each prompt is also checked for
the facts the model needs at that point (mission, tool calls made, names defined, printed
values, the last error): the share present is reported per strategy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..agent.turn import Turn
from ..compression import AppendOnlySummaries, FullHistory, RenderContext, SingleUserCoalesced
from ..compression.base import Messages
from ..interpreter import values as V
from ..interpreter.printer import pr_str
from ..llm.pricing import PROVIDERS, Billing, Request, bill
from ..scenarios.bench import Scenario

JSON_TC = "json-tool-calling"
FULL, SUC, APPEND = FullHistory.name, SingleUserCoalesced.name, AppendOnlySummaries.name
PTC_STRATEGIES = (FullHistory, SingleUserCoalesced, AppendOnlySummaries)


@dataclass(frozen=True)
class Fact:
    kind: str  # mission | tool_call | defined | printed | error | extra
    text: str
    applies_to_json: bool = True


@dataclass
class StrategyResult:
    name: str
    tokens_per_call: list[int]
    facts_present: int = 0
    facts_total: int = 0
    system_tokens: int = 0  # the system message (with its framing), sent again on every call
    facts_per_call: list[tuple[int, int]] = field(default_factory=list)  # (present, total) per call
    billing: dict[str, list[Billing]] = field(default_factory=dict)  # per provider rules, per call

    @property
    def total(self) -> int:
        return sum(self.tokens_per_call)

    def billed(self, provider: str) -> Billing:
        """The run's prompt tokens split by how `provider` bills them."""
        return sum(self.billing[provider], Billing())

    def cost(self, provider: str) -> float:
        """The run's prompt cost under `provider`'s rules, in input-token equivalents."""
        return self.billed(provider).equivalents(PROVIDERS[provider])

    @property
    def history_total(self) -> int:
        """Cumulative prompt tokens without the system message: what the strategy controls."""
        return self.total - self.system_tokens * len(self.tokens_per_call)

    @property
    def fact_share(self) -> float:
        return self.facts_present / self.facts_total if self.facts_total else 1.0


@dataclass
class ScenarioResult:
    scenario: Scenario
    turns: tuple[Turn, ...]
    ok: bool
    strategies: dict[str, StrategyResult]
    missing: dict[str, list[str]]
    prompt: str = "default"  # the PTC system prompt profile
    # what any PTC strategy pays at least: the cost of sending only the system prompt and the
    # mission on every call (no history at all), per provider, in input-token equivalents
    floor: dict[str, float] = field(default_factory=dict)


# -- rendering (a): classic JSON tool calling ---------------------------------------------


def json_tool_calling(scenario: Scenario, turns: Sequence[Turn], k: int, tools: dict[str, Any]) -> Messages:
    """The prompt of call k+1 for an agent without PTC: tool calls and full results inline.

    The data a PTC program reads through data/ must reach this agent through a tool too,
    so the first call fetches every dataset (`get_dataset`) and its full JSON result stays
    in context, as it would in a real JSON tool-calling loop.
    """
    schemas = [t.to_schema() for t in tools.values() if hasattr(t, "to_schema")]
    if scenario.data:
        schemas.append({"name": "get_dataset", "description": "Return a whole dataset as JSON.",
                        "parameters": {"type": "object", "properties": {"name": {"type": "string"}},
                                       "required": ["name"]}})
    system = ("You are an assistant that solves the user's task by calling tools. "
              "Call tools with JSON arguments; their results are returned to you.\n"
              "Tools:\n" + json.dumps(schemas, indent=1))
    messages: Messages = [{"role": "system", "content": system}, {"role": "user", "content": scenario.mission}]
    if k == 0:
        return messages
    call_id = 0

    def exchange(calls: list[tuple[str, Any, Any]]) -> None:
        nonlocal call_id
        payload = []
        for name, args, _ in calls:
            call_id += 1
            payload.append({"id": f"call_{call_id}", "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)}})
        messages.append({"role": "assistant", "content": json.dumps({"tool_calls": payload})})
        for (name, _, result), call in zip(calls, payload):
            messages.append({"role": "tool", "content": json.dumps({"tool_call_id": call["id"],
                                                                    "content": result}, default=str)})

    if scenario.data:
        exchange([("get_dataset", {"name": n}, rows) for n, rows in scenario.data.items()])
    for turn in turns[:k]:
        calls = [(c.name, V.to_python(c.args), V.to_python(c.result)) for c in turn.tool_calls]
        if calls:
            exchange(calls)
    return messages


# -- facts ---------------------------------------------------------------------------------


def facts_for(scenario: Scenario, turns: Sequence[Turn], k: int, *, println_limit: int = 15,
              tool_call_limit: int = 20) -> list[Fact]:
    """What the model needs before call k+1 (within the spec's FIFO limits)."""
    facts = [Fact("mission", scenario.mission[:80])]
    done = turns[:k]
    calls = [c for t in done for c in t.tool_calls][-tool_call_limit:]
    for c in calls:
        facts.append(Fact("tool_call", c.name))
        for value in _scalars(c.args):
            facts.append(Fact("tool_call", value))
    memory = done[-1].memory if done else {}
    for name in memory:
        facts.append(Fact("defined", name, applies_to_json=False))
    prints = [p for t in done if t.success for p in t.prints][-println_limit:]
    for p in prints:
        for line in p.splitlines():
            if line.strip():
                facts.append(Fact("printed", line.strip(), applies_to_json=False))
    errors = [t.error for t in done if t.error is not None]
    if errors:
        facts.append(Fact("error", errors[-1].message[:60], applies_to_json=False))
    for index, text, *flag in scenario.extra_facts:
        if index == k:
            facts.append(Fact("extra", text, applies_to_json=bool(flag[0]) if flag else True))
    return facts


def _scalars(args: Any) -> list[str]:
    out: list[str] = []
    items = args.values() if type(args) in V.MAP_TYPES else (args if type(args) in V.VECTOR_TYPES else [args])
    for x in items:
        if type(x) is str and x:
            out.append(x[:40])
        elif type(x) in (int, float) and type(x) is not bool:
            out.append(pr_str(x))
    return out


# -- running --------------------------------------------------------------------------------


Renderer = Callable[[Sequence[Turn], int], Messages]


def run_scenario(scenario: Scenario, *, encoding: str = "o200k_base", prompt: str = "default",
                 extra_strategies: Sequence[Any] = ()) -> ScenarioResult:
    """Run the scenario's script once, then render, count, bill and fact-check every call's
    prompt under each strategy (PTC strategies with the `prompt` profile's system prompt)."""
    from ..agent.loop import Agent
    from ..llm.scripted import ScriptedLLM
    from ..llm.tokens import count_message_tokens

    llm = ScriptedLLM(list(scenario.replies))
    agent = Agent(scenario.mission, tools=scenario.tools, data=scenario.data, llm=llm,
                  max_turns=len(scenario.replies), prompt=prompt)
    step = agent.run()
    turns = step.turns
    context = RenderContext(mission=scenario.mission, system_prompt=agent.system_prompt, max_turns=agent.max_turns)
    renderers: dict[str, tuple[Renderer, bool]] = {
        JSON_TC: (lambda ts, k: json_tool_calling(scenario, ts, k, agent.tools), True),  # only appends
    }
    for strategy in (*(cls() for cls in PTC_STRATEGIES), *extra_strategies):
        renderers[strategy.name] = (_ptc_renderer(strategy, context), getattr(strategy, "append_only", False))
    results: dict[str, StrategyResult] = {}
    missing: dict[str, list[str]] = {}
    for name, (render, append_only) in renderers.items():
        res = StrategyResult(name, [])
        requests = []
        for k in range(len(turns)):
            messages = render(turns, k)
            res.tokens_per_call.append(count_message_tokens(messages, encoding))
            requests.append(Request.from_messages(messages, append_only=append_only, encoding=encoding))
            if k == 0 and messages and messages[0]["role"] == "system":
                res.system_tokens = count_message_tokens(messages[:1], encoding) - 3  # minus reply priming
            text = "\n".join(m["content"] for m in messages)
            present = total = 0
            for fact in facts_for(scenario, turns, k):
                if name == JSON_TC and not fact.applies_to_json:
                    continue
                total += 1
                if fact.text in text or _json_form(fact.text) in text:
                    present += 1
                else:
                    missing.setdefault(name, []).append(f"call {k + 1}: {fact.kind} {fact.text!r}")
            res.facts_present += present
            res.facts_total += total
            res.facts_per_call.append((present, total))
        res.billing = {provider: bill(requests, rules) for provider, rules in PROVIDERS.items()}
        results[name] = res
    bare = [Request.from_messages(FullHistory().to_messages((), {}, context), append_only=True, encoding=encoding)
            ] * len(turns)
    floor = {provider: sum(bill(bare, rules), Billing()).equivalents(rules) for provider, rules in PROVIDERS.items()}
    return ScenarioResult(scenario, turns, step.ok, results, missing, prompt, floor)


def _ptc_renderer(strategy: Any, context: RenderContext) -> Renderer:
    def render(turns: Sequence[Turn], k: int) -> Messages:
        memory = turns[k - 1].memory if k else {}
        return strategy.to_messages(tuple(turns[:k]), memory, context)  # type: ignore[no-any-return]

    return render


def _json_form(text: str) -> str:
    return json.dumps(text)[1:-1]


def summary(results: Sequence[ScenarioResult]) -> dict[str, Any]:
    """The headline ratios the targets are stated in: cumulative prompt tokens, and their cost
    under each provider's rules over the 5+ turn scenarios, with the facts share of each
    compressing strategy on its worst 5+ turn scenario."""
    long_runs = [r for r in results if len(r.turns) >= 5]
    heavy = [r for r in results if r.scenario.data_heavy]
    names = list(results[0].strategies) if results else []

    def total(rs: Sequence[ScenarioResult], name: str) -> int:
        return sum(r.strategies[name].total for r in rs)

    def history(rs: Sequence[ScenarioResult], name: str) -> int:
        return sum(r.strategies[name].history_total for r in rs)

    def cost(name: str, provider: str) -> float:
        return sum(r.strategies[name].cost(provider) for r in long_runs)

    def vs_full(name: str) -> dict[str, float] | None:
        return {p: cost(name, p) / cost(FULL, p) for p in PROVIDERS} if long_runs else None

    def worst_facts(name: str) -> float | None:
        return min(r.strategies[name].fact_share for r in long_runs) if long_runs else None

    out: dict[str, Any] = {
        "coalesced_vs_full_5plus": (total(long_runs, SUC) / total(long_runs, FULL)) if long_runs else None,
        # the same ratio without the system prompt (identical under both strategies)
        "coalesced_vs_full_5plus_history": (history(long_runs, SUC) / history(long_runs, FULL))
        if long_runs else None,
        "coalesced_facts_5plus": worst_facts(SUC),
        "ptc_vs_json_data_heavy": (total(heavy, SUC) / total(heavy, JSON_TC)) if heavy else None,
        "full_vs_json_data_heavy": (total(heavy, FULL) / total(heavy, JSON_TC)) if heavy else None,
        # billed cost (input-token equivalents) over the 5+ turn scenarios, and against FullHistory
        "cost_5plus": {name: {p: cost(name, p) for p in PROVIDERS} for name in names} if long_runs else None,
        "append_vs_full_cost_5plus": vs_full(APPEND),
        "coalesced_vs_full_cost_5plus": vs_full(SUC),
        "append_facts_5plus": worst_facts(APPEND),
        # the least any strategy could cost with this system prompt (no history), against FullHistory
        "floor_vs_full_cost_5plus": {p: sum(r.floor[p] for r in long_runs) / cost(FULL, p) for p in PROVIDERS}
        if long_runs else None,
        "system_tokens": {r.scenario.name: r.strategies[FULL].system_tokens for r in results},
        "scenarios_5plus": [r.scenario.name for r in long_runs],
        "scenarios_data_heavy": [r.scenario.name for r in heavy],
    }
    return out
