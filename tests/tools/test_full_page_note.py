"""A tool result that holds exactly its limit of rows says that more may exist (the model
otherwise takes 10 rows of a search for all there are); nothing else changes."""

from __future__ import annotations

import ptc


@ptc.tool
def search(query: str, limit: int = 10) -> list[dict]:
    """Products matching the query, best first."""
    return [{"i": i} for i in range(min(limit, 25))]


NOTE = ("note: tool/search returned {n} items, exactly its :limit ({n}): there may be more; call it again with "
        "a larger :limit (or narrower filters) if you need them all")


def test_the_sandbox_says_when_a_page_is_full() -> None:
    sandbox = ptc.Sandbox(tools=[search])
    assert NOTE.format(n=10) in sandbox.call({"program": '(count (tool/search {:query "x"}))'})  # the default
    assert NOTE.format(n=20) in sandbox.call({"program": '(count (tool/search {:query "x" :limit 20}))'})
    assert "note:" not in sandbox.call({"program": '(count (tool/search {:query "x" :limit 50}))'})  # 25: all


def test_the_agent_turn_carries_the_note_and_the_answer_is_unchanged() -> None:
    replies = ['```clojure\n(def r (tool/search {:query "x"}))\n(count r)\n```', "```clojure\n(return (count r))\n```"]
    step = ptc.Agent("How many?", tools=[search], llm=ptc.ScriptedLLM(replies)).run()
    assert step.ok and step.value == 10
    assert step.turns[0].note == NOTE.format(n=10)
    assert NOTE.format(n=10) in step.messages[3]["content"]  # the feedback after the first program


def test_a_failed_program_says_which_definitions_were_not_kept() -> None:
    for isolation in ("inline", "process"):
        sandbox = ptc.Sandbox(limits=ptc.Limits(timeout=0.5, isolation=isolation))
        text = sandbox.call({"program": "(def a 1) (def b [1 2]) (+ 1 nil)"})
        assert ("note: a, b were defined before the error, but a program that fails keeps none of its "
                "definitions: define them again") in text
        assert "a" not in sandbox.memory
    replies = ["```clojure\n(def a 1)\n(+ 1 nil)\n```", "```clojure\n(return 1)\n```"]
    step = ptc.Agent("x", llm=ptc.ScriptedLLM(replies)).run()
    assert step.turns[0].note == ("note: a was defined before the error, but a program that fails keeps none "
                                  "of its definitions: define it again")
