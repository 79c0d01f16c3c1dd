"""AppendOnlySummaries: the seed's rules, one message per turn, and never rewriting a message."""

from __future__ import annotations

import pytest

import ptc
from ptc.compression import AppendOnlySummaries, resolve_strategy, strategy_label
from ptc.compression.base import Messages

from .helpers import Run, context

MISSION = "Find well-reviewed products in stock"


def messages(run: Run, strategy: AppendOnlySummaries | None = None, **ctx) -> Messages:  # type: ignore[no-untyped-def]
    out = (strategy or AppendOnlySummaries()).to_messages(tuple(run.turns), run.memory, context(**ctx))
    assert out[0] == {"role": "system", "content": "SYSTEM PROMPT"}
    assert [m["role"] for m in out[1:]] == ["user"] * (len(run.turns) + 1)
    return out


def text(run: Run, strategy: AppendOnlySummaries | None = None) -> str:
    return "\n\n".join(m["content"] for m in messages(run, strategy)[1:])


def reviews(category: str) -> str:
    return f"Customer Review Summary for {category}: laptops praised, keyboards criticised, monitors fine"


def test_before_any_turn_mission_then_turns_left() -> None:
    assert messages(Run())[1:] == [{"role": "user", "content": f"{MISSION}\n\nTurns left: 5"}]


def test_one_message_per_turn_with_that_turns_summary() -> None:
    run = Run(tools={"search-reviews": reviews})
    run.turn('(def reviews (tool/search-reviews "Electronics"))\n(println "Reviews:" reviews)')
    run.turn("(def n 3)")
    assert [m["content"] for m in messages(run)[2:]] == [
        "; Turn 1\n"
        "; Tool calls:\n"
        ';   search-reviews("Electronics")\n'
        "; Defined: reviews = string\n"
        "; Output:\n"
        "Reviews: Customer Review Summary for Electronics: laptops praised, keyboards criticised, monitors fine\n\n"
        "Turns left: 4",
        "; Turn 2\n; No tool calls made\n; Defined: n = integer, sample: 3\n\nTurns left: 3",
    ]


def test_mission_is_always_first() -> None:
    run = Run()
    for i in range(4):
        run.turn(f"(def x{i} {i})")
    assert messages(run)[1]["content"].startswith(MISSION)


def test_definitions_with_types_samples_docstrings_and_functions() -> None:
    run = Run()
    run.turn('(defn helper "Adds one" [x] (inc x))\n'
             '(def users "Active users" [{:name "Alice" :email "a@example.com" :age 30 :role :admin}])')
    run.turn('(def printed [3 4]) (println "printed" printed)')
    lines = text(run).splitlines()
    assert '; Function: helper - "Adds one"' in lines
    assert ('; Defined: users - "Active users" = list[1], sample: '
            '{:name "Alice", :email "a@example.com", :age 30, ...}') in lines
    assert "; Defined: printed = list[2]" in lines  # the turn printed: its output instead of a sample
    assert lines.index('; Function: helper - "Adds one"') < lines.index('; Defined: users - "Active users" '
                                                                        '= list[1], sample: {:name "Alice", '
                                                                        ':email "a@example.com", :age 30, ...}')


def test_tool_calls_of_every_turn_failed_ones_marked() -> None:
    def refuse(day: str) -> None:
        raise ValueError("weekend")

    run = Run(tools={"book": refuse, "send": lambda **kw: None})
    run.turn('(tool/send {:to "alice@example.com" :subject "Update"})')
    run.turn('(tool/book {:day "2026-05-02"})')
    body = text(run)
    assert ';   send({:to "alice@example.com", :subject "Update"})' in body
    assert ';   book({:day "2026-05-02"}) -> failed' in body


def test_failed_attempts_kept_verbatim_in_their_turns_message() -> None:
    run = Run()
    run.turn("(def ok 1)")
    run.turn("(def y 2) (def x (broken-code))")
    run.turn("(nth [] 5)")
    failed = messages(run)[3]["content"]
    assert failed.startswith("; Turn 2\n; No tool calls made\n\n---\nYour previous attempt:\n")
    assert "```clojure\n(def y 2) (def x (broken-code))\n```\n\nError: Unable to resolve symbol: broken-code" in failed
    assert failed.endswith("---\n\nTurns left: 3")
    assert "; Defined: y" not in failed  # a failed turn defines nothing
    assert "```clojure\n(nth [] 5)\n```" in messages(run)[4]["content"]


def test_no_earlier_successful_code() -> None:
    run = Run()
    run.turn("(def total (reduce + (map inc (range 10))))")
    run.turn('(println "total is" total)')
    body = text(run)
    assert "reduce" not in body and "(println" not in body
    assert "; Defined: total = integer, sample: 55" in body and "total is 55" in body


def test_fifo_limits_apply_to_each_turns_message() -> None:
    run = Run(tools={"ping": lambda n: None})
    run.turn('(doseq [i (range 20)] (println "line" i "\\nsecond part"))')
    run.turn("(doseq [i (range 25)] (tool/ping i))")
    first, second = (m["content"] for m in messages(run)[2:])
    assert "line 4 " not in first and "line 5 \nsecond part" in first and first.count("second part") == 15
    calls = [line for line in second.splitlines() if line.startswith(";   ping")]
    assert len(calls) == 20 and calls[0] == ";   ping(5)" and calls[-1] == ";   ping(24)"
    small = messages(run, AppendOnlySummaries(println_limit=2, tool_call_limit=3))
    assert small[2]["content"].count("second part") == 2
    assert len([line for line in small[3]["content"].splitlines() if line.startswith(";   ")]) == 3


def test_a_redefinition_appears_in_its_own_turn_the_earlier_line_stays() -> None:
    run = Run()
    run.turn("(def a 1) (def b 2)")
    run.turn("(def a 10)")
    first, second = (m["content"] for m in messages(run)[2:])
    assert "; Defined: a = integer, sample: 1\n" in first and "; Defined: a = integer, sample: 10" in second


def test_each_call_extends_the_previous_call_byte_for_byte() -> None:
    run = Run(tools={"ping": lambda n: None})
    programs = ["(def xs [1 2 3]) (println (count xs))", "(tool/ping 1) (broken)", "(def ys (map inc xs))",
                '(println "ys" ys) (tool/ping 2)', "(nth [] 9)"]
    strategy, ctx = AppendOnlySummaries(), context(max_turns=6)
    previous = strategy.to_messages((), {}, ctx)
    for code in programs:
        run.turn(code)
        current = strategy.to_messages(tuple(run.turns), run.memory, ctx)
        assert current[:len(previous)] == previous and len(current) == len(previous) + 1
        previous = current


def test_selected_by_name_everywhere_strategies_are_selected() -> None:
    assert strategy_label("append") == strategy_label("Append-Only-Summaries") == "append"
    assert isinstance(resolve_strategy("append"), AppendOnlySummaries)
    s = resolve_strategy((AppendOnlySummaries, {"println_limit": 3}))
    assert isinstance(s, AppendOnlySummaries) and s.println_limit == 3 and s.append_only
    with pytest.raises(ValueError, match="unknown compression strategy 'apend'; choose from: none"):
        resolve_strategy("apend")


def block(code: str) -> str:
    return f"```clojure\n{code}\n```"


def test_agent_with_append_only_summaries() -> None:
    llm = ptc.ScriptedLLM([block("(def xs (range 10)) (println (count xs))"), block("(broken)"),
                           block("(return (reduce + xs))")])
    step = ptc.Agent("Sum the numbers", llm=llm, compression="append").run()
    assert step.ok and step.value == 45
    assert [len(r) for r in llm.requests] == [2, 3, 4]
    assert llm.requests[2][:3] == llm.requests[1]
    assert llm.requests[1][2]["content"].startswith("; Turn 1\n; No tool calls made\n; Defined: xs = list[10]\n"
                                                    "; Output:\n10")
