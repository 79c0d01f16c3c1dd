"""Code extraction and repair from model replies."""

import pytest

from ptc.agent.response import extract_code, parse_reply, repair


def test_clojure_block() -> None:
    assert extract_code("Let me look.\n```clojure\n(+ 1 2)\n```\nDone.") == "(+ 1 2)"


def test_several_blocks_are_joined_and_tags_vary() -> None:
    reply = "```clj\n(def a 1)\n```\ntext\n```lisp\n(println a)\n```"
    assert extract_code(reply) == "(def a 1)\n(println a)"


def test_untagged_block_that_looks_like_lisp() -> None:
    assert extract_code("```\n(count data/orders)\n```") == "(count data/orders)"
    assert extract_code("```\nSELECT 1\n```") is None


def test_bare_s_expression() -> None:
    assert extract_code("  (return 42)  ") == "(return 42)"


def test_no_code() -> None:
    assert extract_code("I think the answer is 42.") is None


def test_smart_quotes_and_invisible_characters_are_repaired() -> None:
    assert repair("(str \u201chi\u201d)\u200b") == '(str "hi")'
    assert extract_code("```clojure\n(println \u201cx\u201d)\u00a0\n```") == '(println "x")'


def test_unterminated_fence_still_yields_code() -> None:
    assert extract_code("```clojure\n(+ 1 2)") == "(+ 1 2)"


# -- replies as models send them ---------------------------------------------------------


@pytest.mark.parametrize("reply", [
    "```clj\n(count data/orders)\n```",
    "```lisp\n(count data/orders)\n```",
    "Sure! I'll count them.\n\n```clojure\n(count data/orders)\n```\n\nThis returns the number of orders.",
    "```Clojure title=main.clj\n(count data/orders)\n```",
    "Here is the program:\n(count data/orders)\nIt counts the orders.",
    "(count data/orders)",
])
def test_one_program_in_the_shapes_models_send(reply: str) -> None:
    parsed = parse_reply(reply)
    assert parsed.code == "(count data/orders)" and parsed.note is None and parsed.nudge is None


def test_several_blocks_run_in_order_and_the_note_says_so() -> None:
    parsed = parse_reply("First:\n```clojure\n(def n 1)\n```\nThen:\n```clojure\n(println n)\n```")
    assert parsed.code == "(def n 1)\n(println n)" and parsed.blocks == 2
    assert parsed.note is not None and "2 code blocks; they ran as one program, in order" in parsed.note


def test_bare_code_keeps_multiline_forms_and_drops_trailing_prose() -> None:
    parsed = parse_reply('Plan:\n(defn f [x]\n  (str "a) " x))\n(println (f 1))\nThat prints it.')
    assert parsed.code == '(defn f [x]\n  (str "a) " x))\n(println (f 1))'


@pytest.mark.parametrize("reply, nudge", [
    ("The answer is 42.", "(return answer)"),
    ("", "Reply with one ```clojure block"),
    ("```python\nlen(orders)\n```", "Your ```python block is not PTC-Lisp and did not run"),
    ('```json\n{"answer": 1}\n```', "Your ```json block is not PTC-Lisp"),
])
def test_a_reply_without_a_program_gets_a_nudge(reply: str, nudge: str) -> None:
    parsed = parse_reply(reply)
    assert parsed.code is None and parsed.nudge is not None and nudge in parsed.nudge
