"""Multi-line input: when is an entry complete?"""

from __future__ import annotations

import pytest

from ptc.cli.balance import Balance, balance, is_complete
from ptc.cli.repl import entries


@pytest.mark.parametrize(
    "text",
    [
        "",
        "(+ 1 2)",
        "[1 2 {:a #{3}}]",
        '(str "(" "[")',
        '(str "a \\" (")',
        "(count \\()",
        "(str \\; \\\" \\))",
        '(re-find #"\\(+" "((")',
        "(+ 1 2) ; unbalanced ( in a comment",
        "42",
        ":kw",
        "(println \\newline)",
    ],
)
def test_complete(text):
    assert balance(text) is Balance.COMPLETE
    assert is_complete(text)


@pytest.mark.parametrize(
    "text",
    [
        "(+ 1",
        "(let [x 1]\n  (+ x",
        '(str "unterminated',
        '(str "a\n b',
        "(+ 1 ; 2)",
        "#{1 [2",
    ],
)
def test_incomplete(text):
    assert balance(text) is Balance.INCOMPLETE
    assert not is_complete(text)


@pytest.mark.parametrize("text", ["(+ 1 2))", ")", "{:a [1 2}", "(]"])
def test_invalid_is_submitted(text):
    assert balance(text) is Balance.INVALID
    assert is_complete(text)  # the parser reports the error, the REPL does not wait forever


def test_entries_groups_lines():
    lines = ["(def x\n", "  10)\n", "\n", "(+ x\n", "1)\n", "  \n", "(str \"(\")\n"]
    assert list(entries(lines)) == ["(def x\n  10)", "(+ x\n1)", '(str "(")']


def test_entries_yields_unfinished_tail():
    assert list(entries(["(+ 1 2)", "(+ 1"])) == ["(+ 1 2)", "(+ 1"]


def test_entries_several_forms_on_one_line():
    assert list(entries(["(def a 1) (def b 2)"])) == ["(def a 1) (def b 2)"]
