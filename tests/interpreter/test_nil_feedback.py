"""The most common error on real data, and the silent all-nil answer: the feedback names the
key that gave nil, in how many rows of which input, and the fix; a key no row has gets the
closest real column (`:dep-delay` for `:dep_delay`), over plain rows and tables alike."""

from __future__ import annotations

from typing import Any

import pytest

import ptc

ROWS = [{"dep_delay": 5, "carrier": "UA"}, {"dep_delay": None, "carrier": "AA"},
        {"dep_delay": 70, "carrier": "AA"}] * 1000


def flights(kind: str) -> Any:
    if kind == "table":
        pa = pytest.importorskip("pyarrow")
        return pa.Table.from_pylist(ROWS)
    return ROWS


@pytest.mark.parametrize("kind", ["rows", "table"])
@pytest.mark.parametrize("src", ["(count (filter #(> (:dep_delay %) 60) data/flights))",
                                 "(take 2 (sort-by :dep_delay > data/flights))",
                                 "(reduce + (map :dep_delay data/flights))"])
def test_a_nil_in_arithmetic_names_the_key_the_rows_and_the_fix(kind: str, src: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"flights": flights(kind)})
    assert "got nil" in e.value.message
    assert e.value.hint == ("(:dep_delay row) is nil in 1,000 of 3,000 rows of data/flights: skip those rows "
                            "first, (filter :dep_delay rows) or (keep :dep_delay rows), or give a default, "
                            "(or (:dep_delay row) 0)")
    assert "compare" not in e.value.hint


@pytest.mark.parametrize("kind", ["rows", "table"])
def test_a_misspelled_key_in_arithmetic_names_the_closest_column(kind: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(reduce + (map :dep-delay data/flights))", data={"flights": flights(kind)})
    assert e.value.hint == "no row has the key :dep-delay; the closest key is :dep_delay (in data/flights)"


@pytest.mark.parametrize("kind", ["rows", "table"])
def test_an_all_nil_answer_is_explained(kind: str) -> None:
    r = ptc.run("(map :dep-delay data/flights)", data={"flights": flights(kind)})
    assert r.note == "note: every value is nil: no row has the key :dep-delay; the closest key is :dep_delay " \
                     "(in data/flights)"


def test_a_tool_result_is_named_too() -> None:
    def orders() -> list[dict[str, Any]]:
        return [{"quantity": 2, "unit_price": 3.0}]

    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(reduce + (map #(* (:quantity %) (:unit-price %)) (tool/orders)))", tools={"orders": orders})
    assert e.value.hint == ("no row has the key :unit-price; the closest key is :unit_price "
                            "(in tool/orders's result)")


def test_without_evidence_the_generic_hint_stays() -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(+ 1 (:a {}))")
    assert "a nil often comes from a missing map key" in e.value.hint
