"""Sorted maps and sets: order, comparator equality, persistence, bounds and the functions
that must keep them sorted (values checked against Clojure 1.11 by hand where noted)."""

from __future__ import annotations

import pytest

import ptc

from .helpers import show


@pytest.mark.parametrize("src, expected", [
    ("(sorted-map :b 2 :a 1)", "{:a 1, :b 2}"),
    ("(sorted-map-by > 1 :a 3 :c 2 :b)", "{3 :c, 2 :b, 1 :a}"),
    ("(sorted-set-by #(compare %2 %1) \"a\" \"c\" \"b\")", '#{"c" "b" "a"}'),
    ("(sorted-map 1 :a 1.0 :b)", "{1 :b}"),  # equal under compare: one key, the first stays
    ("(sorted-set 1 1.0 2)", "#{1 2}"),
    ("(into (sorted-map) {3 :c 1 :a 2 :b})", "{1 :a, 2 :b, 3 :c}"),
    ("(into (sorted-set) [3 1 2 1])", "#{1 2 3}"),
    ("(assoc (into (sorted-map-by >) [[1 :a] [2 :b]]) 3 :c)", "{3 :c, 2 :b, 1 :a}"),
    ("(reduce (fn [m x] (assoc m x (* x x))) (sorted-map) [3 1 2])", "{1 1, 2 4, 3 9}"),
    ("(merge-with + (sorted-map :b 1) {:b 2 :a 5})", "{:a 5, :b 3}"),
    ("(conj (sorted-map :b 1) [:a 2])", "{:a 2, :b 1}"),
    ("(dissoc (sorted-map :b 1 :a 2) :a :z)", "{:b 1}"),
    ("(update-in (sorted-map :a {:n 1}) [:a :n] inc)", "{:a {:n 2}}"),
    ("(empty (sorted-map-by > 1 2))", "{}"),
    ("(assoc (empty (sorted-map-by > 1 2)) 1 :x 2 :y)", "{2 :y, 1 :x}"),
    ("(subseq (sorted-set 1 2 3 4 5) > 2)", "(3 4 5)"),
    ("(subseq (sorted-set 1 2 3 4 5) >= 2 < 4)", "(2 3)"),
    ("(subseq (sorted-map 1 :a 2 :b 3 :c) >= 2 < 3)", "([2 :b])"),
    ("(subseq (sorted-set 1 2 3) > 5)", "nil"),
    ("(rsubseq (sorted-set 1 2 3 4 5) < 4)", "(3 2 1)"),
    ("(rsubseq (sorted-set 1 2 3 4 5) > 1 <= 3)", "(3 2)"),
    ("(subseq (sorted-set-by > 1 2 3 4) > 2)", "(1)"),  # tests compare in the set's own order (Clojure)
    ("(rseq (sorted-map 1 2 3 4))", "([3 4] [1 2])"),
    ("(rseq (sorted-set))", "nil"),
    ("[(first (sorted-set 3 1)) (last (sorted-set 3 1)) (count (sorted-set 3 1))]", "[1 3 2]"),
    ("[(keys (sorted-map :b 1 :a 2)) (vals (sorted-map :b 1 :a 2))]", "[(:a :b) (2 1)]"),
    ("[(= (sorted-map 1 2) {1 2}) (= (sorted-set 1 2) #{1 2}) (= {1 2} (sorted-map 1 2))]", "[true true true]"),
    ("(get #{(sorted-map 1 2)} {1 2})", "{1 2}"),
    ("[(sorted? (sorted-map)) (sorted? {}) (map? (sorted-map)) (set? (sorted-set))]", "[true false true true]"),
    ("(str (sorted-map :b 1 :a 2))", '"{:a 2, :b 1}"'),
])
def test_sorted_collections(src: str, expected: str) -> None:
    assert show(src) == expected


def test_versions_stay_immutable() -> None:
    src = "(let [a (sorted-map 2 :b) b (assoc a 1 :a) c (dissoc b 2)] [a b c (conj (sorted-set 2) 1)])"
    assert show(src) == "[{2 :b} {1 :a, 2 :b} {1 :a} #{1 2}]"


@pytest.mark.parametrize("src, message", [
    ('(sorted-map :a 1 "b" 2)', "compare"),
    ("(get (sorted-map 1 2) :a)", "compare"),
    ("(subseq #{1 2} > 1)", "sorted map or set"),
    ("(subseq (sorted-set 1) inc 1)", "< <= > >="),
    ("(sorted-map :a)", "no value supplied"),
])
def test_errors(src: str, message: str) -> None:
    with pytest.raises(ptc.PTCError) as info:
        ptc.run(src)
    assert message in info.value.message


def test_sorted_results_leave_as_plain_data_in_order() -> None:
    r = ptc.run("[(sorted-map-by > 1 :a 2 :b) (sorted-set 3 1 2)]")
    assert ptc.to_python(r.value) == [{2: "b", 1: "a"}, [1, 2, 3]]
    assert list(ptc.to_python(r.value)[0]) == [2, 1]
