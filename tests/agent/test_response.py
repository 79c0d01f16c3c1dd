"""Code extraction and repair from model replies."""

from ptc.agent.response import extract_code, repair


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
