"""(reduce max []) said only "Too few args passed to: max" (issue 44, item 15): Clojure calls the
fn with no arguments when reduce gets an empty collection and no start value; the error says so,
where the reduce is, and how to give it one."""

from __future__ import annotations

import pytest

import ptc


@pytest.mark.parametrize("program, at", [
    ("(reduce max [])", (1, 1)),
    ("(let [xs (filter pos? [-1 -2])]\n  (reduce min xs))", (2, 3)),
    ("(reduce (fn [a b] (max a b)) (map :v []))", (1, 1)),
    ("(->> [{:v -1}] (filter #(pos? (:v %))) (map :v) (reduce max))", (1, 49)),  # the (reduce max) form
])
def test_an_empty_reduce_says_the_collection_was_empty(program: str, at: tuple[int, int]) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(program)
    assert "the collection reduce was given is empty" in e.value.message, e.value.message
    assert "start value" in e.value.hint and (e.value.line, e.value.column) == at


@pytest.mark.parametrize("program, value", [("(reduce + [])", 0), ("(reduce max 0 [])", 0), ("(reduce max [3 1])", 3),
                                            ("(reduce conj [])", [])])
def test_what_clojure_gives_is_unchanged(program: str, value: object) -> None:
    assert ptc.to_python(ptc.run(program).value) == value
