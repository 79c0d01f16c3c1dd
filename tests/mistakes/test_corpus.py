"""The mistake corpus: every wrong program's feedback names its fix, the share by class is the one
docs/mistakes.md shows, and per class a scripted model fixes its program from the feedback alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.mistakes.harness import Entry, agent, feedback_for, load, named, shares, table

ENTRIES = load()
DOC = Path(__file__).resolve().parents[2] / "docs" / "mistakes.md"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.label)
def test_feedback_names_the_fix(entry: Entry) -> None:
    text = feedback_for(entry)
    if entry.gap is not None:
        assert not named(entry, text), f"the gap is closed: remove `gap:` from {entry.label}"
        pytest.xfail(entry.gap)
    assert named(entry, text), f"{entry.label}: {entry.fixes} not in:\n{text}"


def test_corpus_covers_the_classes_with_enough_programs() -> None:
    classes = {e.cls for e in ENTRIES}
    assert classes == {"python", "javascript", "other-lisp", "dialect", "string-keys", "arg-order", "arity", "tool",
                       "parens", "reply", "return-forgotten", "print-not-return", "long-output",
                       "keyword-vs-string", "empty-result"}
    assert len(ENTRIES) >= 150


def test_share_meets_the_goal_and_docs_show_it() -> None:
    by_class = shares(ENTRIES)
    n = sum(t for t, _ in by_class.values())
    k = sum(o for _, o in by_class.values())
    assert k / n >= 0.95
    doc = DOC.read_text(encoding="utf-8")
    shown = re.search(r"<!-- share:start -->\n(.*?)\n<!-- share:end -->", doc, re.S)
    assert shown is not None and shown.group(1) == table(by_class), \
        "docs/mistakes.md is stale: paste the output of python tests/mistakes/share.py"


FIRST_OF_CLASS = {}
for _e in ENTRIES:
    if _e.fixed is not None:
        FIRST_OF_CLASS.setdefault(_e.cls, _e)


def test_every_class_has_a_scripted_fix() -> None:
    assert set(FIRST_OF_CLASS) == {e.cls for e in ENTRIES}


@pytest.mark.parametrize("entry", list(FIRST_OF_CLASS.values()), ids=lambda e: e.cls)
def test_scripted_model_fixes_its_program_from_the_feedback(entry: Entry) -> None:
    """Turn 1 is the wrong program; turn 2 is the fixed one, which uses only what the feedback
    said (the fix text is in the second request, and the fixed program contains it or its code)."""
    fixed = entry.fixed
    assert fixed is not None
    replies = [entry.reply, f"```clojure\n{fixed}\n```"]
    if "(return" not in fixed:
        replies.append("```clojure\n(return :done)\n```")
    a, llm = agent(replies)
    step = a.run()
    second = llm.requests[1][-1]["content"]
    assert all(fix in second for fix in entry.fixes), second
    assert step.turns[1].success, step.turns[1].error
    assert step.ok, step.error
    new = _tokens(fixed) - _tokens(entry.reply) - {"return"}  # (return ...) is the prompt's first rule
    assert {t for t in new if t not in second} == set(), "the fixed program uses what the feedback did not say"


def _tokens(code: str) -> set[str]:
    return set(re.findall(r'"[^"]*"|[^\s()\[\]{}#"]+', code))
