"""The language reference: generated from the registry, complete, and every example runs."""

from pathlib import Path

import pytest

import ptc
from ptc.interpreter.reader import read_value
from ptc.interpreter.reference import markdown_reference
from ptc.interpreter.registry import REGISTRY, SPECIAL_FORMS, load_library
from ptc.interpreter.values import equals

load_library()
ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = [(name, src, expected) for name, b in sorted(REGISTRY.items()) for src, expected in b.examples] + \
    [(name, src, expected) for name, sf in sorted(SPECIAL_FORMS.items()) for src, expected in sf.examples]


def test_library_is_large_and_every_entry_is_documented_with_an_example() -> None:
    assert len(REGISTRY) >= 200
    for name, b in REGISTRY.items():
        assert b.doc and b.arglists and b.examples, name
    for name, sf in SPECIAL_FORMS.items():
        assert sf.doc and sf.examples, name


@pytest.mark.parametrize("name, source, expected", EXAMPLES, ids=[f"{n}:{s[:40]}" for n, s, _ in EXAMPLES])
def test_example_runs_and_prints_what_the_reference_says(name: str, source: str, expected: str) -> None:
    r = ptc.run(source)
    got = ptc.pr_str(r.value)
    if got != expected:  # maps and sets may print in another order than written: compare as data
        assert equals(r.value, read_value(expected)), (source, got, expected)


def test_docs_reference_is_generated_from_the_registry() -> None:
    path = ROOT / "docs" / "reference.md"
    assert path.read_text() == markdown_reference(), \
        "docs/reference.md is stale: python -m ptc.interpreter.reference > docs/reference.md"


@pytest.mark.parametrize("ns, page", [("stats", "stats.md"), ("ml", "ml.md")])
def test_a_library_page_holds_its_generated_function_list(ns: str, page: str) -> None:
    from ptc.interpreter.reference import library_markdown

    text = (ROOT / "docs" / page).read_text()
    start = f"<!-- generated: python -m ptc.interpreter.reference --library {ns} -->\n\n"
    assert start in text and text.endswith("<!-- end of generated -->\n"), page
    generated = text.split(start, 1)[1].removesuffix("<!-- end of generated -->\n")
    assert generated == library_markdown(ns), f"docs/{page} is stale: regenerate its list ({start.strip()})"
