"""SingleUserCoalesced, rule by rule (shared/seeds/message-history-optimization.md)."""

from __future__ import annotations

import ptc
from ptc.compression import FullHistory, SingleUserCoalesced, resolve_strategy

from .helpers import Run, context


def render(run: Run, strategy: SingleUserCoalesced | None = None, **ctx) -> str:  # type: ignore[no-untyped-def]
    messages = (strategy or SingleUserCoalesced()).to_messages(tuple(run.turns), run.memory, context(**ctx))
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[0]["content"] == "SYSTEM PROMPT"
    return messages[1]["content"]


def reviews(category: str) -> str:
    return f"Customer Review Summary for {category}: laptops praised, keyboards criticised, monitors fine"


def test_before_any_turn_mission_then_turns_left() -> None:
    assert render(Run()) == "Find well-reviewed products in stock\n\nTurns left: 5"


def test_the_seed_example_with_tool_calls_defs_and_output() -> None:
    run = Run(tools={"search-reviews": reviews})
    run.turn('(def reviews (tool/search-reviews "Electronics"))\n(println "Reviews:" reviews)')
    text = render(run)
    assert text == (
        "Find well-reviewed products in stock\n\n"
        "; Tool calls:\n"
        ';   search-reviews("Electronics")\n'
        "; Defined: reviews = string\n"
        "; Output:\n"
        "Reviews: Customer Review Summary for Electronics: laptops praised, keyboards criticised, monitors fine\n\n"
        "Turns left: 4"
    )


def test_exploration_mode_shows_samples_with_strings_cut_at_80_chars() -> None:
    run = Run(tools={"search-reviews": reviews})
    run.turn('(def reviews (tool/search-reviews "Electronics"))')
    line = [l for l in render(run).splitlines() if l.startswith("; Defined: reviews")][0]
    sample = line.split("sample: ", 1)[1]
    assert line.startswith("; Defined: reviews = string, sample: \"Customer Review Summary")
    assert sample == '"' + reviews("Electronics")[:80] + '..."'


def test_samples_limit_items_per_collection() -> None:
    run = Run()
    run.turn('(def m {:a [1 2 3 4 5] :b "' + "y" * 100 + '" :c 3 :d 4})')
    line = [l for l in render(run).splitlines() if l.startswith("; Defined: m")][0]
    assert line == '; Defined: m = map[4], sample: {:a [1 2 3 ...], :b "' + "y" * 80 + '...", :c 3, ...}'


def test_section_order_and_templates() -> None:
    run = Run(tools={"send": lambda **kw: None})
    run.turn('(defn helper "Adds one" [x] (inc x)) (defn bare [x] x)\n'
             '(def users "Active users" [{:name "Alice" :email "a@example.com" :age 30 :role :admin}])\n'
             '(tool/send {:to "alice@example.com" :subject "Update"})')
    lines = render(run).splitlines()
    assert lines[0] == "Find well-reviewed products in stock" and lines[1] == ""
    assert lines[2] == "; Tool calls:"
    assert lines[3] == ';   send({:to "alice@example.com", :subject "Update"})'
    assert lines[4] == '; Function: helper - "Adds one"'
    assert lines[5] == "; Function: bare"
    assert lines[6] == ('; Defined: users - "Active users" = list[1], sample: '
                        '{:name "Alice", :email "a@example.com", :age 30, ...}')


def test_no_tool_calls_made() -> None:
    run = Run()
    run.turn("(def x 1)")
    assert "; No tool calls made\n; Defined: x = integer, sample: 1" in render(run)


def test_type_vocabulary() -> None:
    run = Run()
    run.turn('(def a []) (def b [1 2 3]) (def c {}) (def d {:a 1}) (def e "hello") (def f 42) (def g 3.14)'
             " (def h true) (def i :active) (def j nil) (def k #{1})")
    text = render(run)
    for line in ["; Defined: a = list[0]", "; Defined: b = list[3], sample: 1", "; Defined: c = map[0]",
                 "; Defined: d = map[1], sample: {:a 1}", '; Defined: e = string, sample: "hello"',
                 "; Defined: f = integer, sample: 42", "; Defined: g = float, sample: 3.14",
                 "; Defined: h = boolean, sample: true", "; Defined: i = keyword, sample: :active",
                 "; Defined: j = nil", "; Defined: k = set[1], sample: 1"]:
        assert line in text.splitlines(), line


def test_samples_vs_output_rule_is_per_turn() -> None:
    run = Run()
    run.turn("(def explored [1 2])")
    run.turn('(def printed [3 4]) (println "printed" printed)')
    lines = render(run).splitlines()
    assert "; Defined: explored = list[2], sample: 1" in lines
    assert "; Defined: printed = list[2]" in lines
    assert "; Output:" in lines and "printed [3 4]" in lines


def test_println_output_appears() -> None:
    """A known implementation of this design dropped println output; it must appear."""
    run = Run()
    run.turn('(println "first line") (println "second" 2)')
    run.turn('(println "third")')
    text = render(run)
    assert "; Output:\nfirst line\nsecond 2\nthird\n\nTurns left: 3" in text


def test_redefinitions_shown_once_at_their_latest_position() -> None:
    run = Run()
    run.turn("(def a 1) (def b 2)")
    run.turn("(def a 10)")
    defined = [l for l in render(run).splitlines() if l.startswith("; Defined")]
    assert defined == ["; Defined: b = integer, sample: 2", "; Defined: a = integer, sample: 10"]


def test_println_limit_is_fifo_over_calls() -> None:
    run = Run()
    run.turn('(doseq [i (range 20)] (println "line" i "\\nsecond part"))')
    text = render(run, SingleUserCoalesced(println_limit=15))
    assert "line 4 " not in text and "line 5 \nsecond part" in text and "line 19 \nsecond part" in text
    assert text.count("second part") == 15


def test_tool_call_limit_is_fifo() -> None:
    run = Run(tools={"ping": lambda n: None})
    run.turn("(doseq [i (range 25)] (tool/ping i))")
    lines = [l for l in render(run).splitlines() if l.startswith(";   ping")]
    assert len(lines) == 20 and lines[0] == ";   ping(5)" and lines[-1] == ";   ping(24)"
    assert len([l for l in render(run, SingleUserCoalesced(tool_call_limit=3)).splitlines()
                if l.startswith(";   ")]) == 3


def test_tool_args_strings_cut_at_60_chars_and_3_items() -> None:
    run = Run(tools={"t": lambda **kw: None})
    run.turn('(tool/t {:a "' + "x" * 100 + '" :b 2})')
    run.turn("(tool/t {:items [1 2 3 4 5]})")
    lines = [l for l in render(run).splitlines() if l.startswith(";   t(")]
    assert lines[0] == ';   t({:a "' + "x" * 60 + '...", :b 2})'
    assert lines[1] == ";   t({:items [1 2 3 ...]})"


def test_failed_tool_calls_are_marked() -> None:
    def refuse(day: str) -> None:
        raise ValueError("weekend")

    run = Run(tools={"book": refuse})
    run.turn('(tool/book {:day "2026-05-02"})')
    assert ';   book({:day "2026-05-02"}) -> failed' in render(run)


def test_failed_turns_kept_verbatim_each_with_its_block() -> None:
    run = Run()
    run.turn("(def ok 1)")
    run.turn("(def x (broken-code))")
    run.turn("(nth [] 5)")
    text = render(run)
    assert text.count("Your previous attempt:") == 2
    assert "```clojure\n(def x (broken-code))\n```\n\nError: Unable to resolve symbol: broken-code" in text
    assert "```clojure\n(nth [] 5)\n```" in text
    assert text.index("; Defined: ok") < text.index("---\nYour previous attempt") < text.index("Turns left: 2")


def test_failed_turn_does_not_define() -> None:
    run = Run()
    run.turn("(def y 1) (nth [] 5)")
    assert "; Defined: y" not in render(run)


def test_rendering_never_changes_turns() -> None:
    run = Run()
    run.turn("(def a [1 2 3]) (println a)")
    before = [t.model_dump() for t in run.turns]
    render(run)
    FullHistory().to_messages(tuple(run.turns), run.memory, context())
    assert [t.model_dump() for t in run.turns] == before


def test_resolve_strategy_forms() -> None:
    assert isinstance(resolve_strategy(False), FullHistory)
    assert isinstance(resolve_strategy(True), SingleUserCoalesced)
    assert isinstance(resolve_strategy(SingleUserCoalesced), SingleUserCoalesced)
    s = resolve_strategy((SingleUserCoalesced, {"println_limit": 3}))
    assert isinstance(s, SingleUserCoalesced) and s.println_limit == 3


def block(code: str) -> str:
    return f"```clojure\n{code}\n```"


def test_agent_with_compression_sends_two_messages_and_reports_stats() -> None:
    llm = ptc.ScriptedLLM([block("(def xs (range 10)) (println (count xs))"), block("(return (reduce + xs))")])
    step = ptc.Agent("Sum the numbers", llm=llm, compression=True).run()
    assert step.ok and step.value == 45
    assert len(llm.requests[1]) == 2 and "; Output:\n10" in llm.requests[1][1]["content"]
    stats = step.usage.compression
    assert stats is not None and stats["turns_compressed"] == 2 and stats["prompt_tokens"] > 0
    assert stats["full_history_tokens"] >= stats["prompt_tokens"]
