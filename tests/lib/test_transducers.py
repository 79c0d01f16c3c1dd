"""Tests for ptc/interpreter/lib/transducers.py."""

from __future__ import annotations

import pytest

import ptc
from ptc.interpreter.errors import PTCError
from ptc.interpreter.lib import transducers as T
from ptc.interpreter.limits import Limits
from ptc.interpreter.printer import pr_str
from ptc.interpreter.values import LazySeq, PList, vec


def run(src: str, **kw) -> str:
    return pr_str(ptc.run(src, **kw).value)


def V(*xs):
    return vec(xs)


def plus(*a):
    return sum(a)


class TestReduced:
    def test_api(self):
        r = T.reduced(1)
        assert T.is_reduced(r) and not T.is_reduced(1)
        assert T.unreduced(r) == 1 and T.unreduced(5) == 5
        assert T.ensure_reduced(r) is r
        assert T.unreduced(T.ensure_reduced(2)) == 2

    def test_in_programs(self):
        assert run("(reduced? (reduced 1))") == "true"
        assert run("(unreduced (reduced 1))") == "1"
        assert run("(reduce (fn [a x] (if (= x 3) (reduced :stop) x)) [1 2 3 4])") == ":stop"


class TestTransduce:
    def test_arities(self):
        assert run("(transduce (map inc) + [1 2 3])") == "9"
        assert run("(transduce (filter odd?) + 100 [1 2 3])") == "104"
        assert run("(transduce (map inc) conj [1 2 3])") == "[2 3 4]"
        assert run("(transduce (map inc) + [])") == "0"

    def test_comp_order(self):
        assert run("(transduce (comp (map inc) (filter odd?)) conj [1 2 3 4])") == "[3 5]"
        assert run("(transduce (comp (filter odd?) (map inc)) conj [1 2 3 4])") == "[2 4]"
        assert run("(transduce (comp (map inc) (take 2)) conj [1 2 3])") == "[2 3]"

    def test_completion_is_called(self):
        assert run("(transduce (map inc) (completing + str) 0 [1 2])") == '"5"'
        assert run("(transduce (map inc) (completing (fn [a x] (+ a x))) 0 [1 2 3])") == "9"

    def test_early_termination_on_infinite(self):
        assert run("(transduce (take 3) + (range))") == "3"
        assert run("(transduce (take-while #(< % 4)) conj (range))") == "[0 1 2 3]"

    def test_reduced_from_rf(self):
        assert run("(transduce (map inc) (fn ([a] a) ([a x] (if (> x 2) (reduced a) (+ a x)))) 0 [1 2 3 4])") == "2"

    def test_partition_all_flush(self):
        assert run("(transduce (partition-all 2) conj [1 2 3])") == "[[1 2] [3]]"
        assert run("(transduce (comp (partition-all 2) (take 1)) conj [1 2 3])") == "[[1 2]]"

    def test_not_a_fn(self):
        with pytest.raises(PTCError, match="transduce: expected a function"):
            ptc.run("(transduce 5 + [1])")


class TestSequenceEduction:
    def test_sequence(self):
        assert run("(sequence (map inc) [1 2])") == "(2 3)"
        assert run("(sequence [1 2])") == "(1 2)"
        assert run("(sequence nil)") == "()"
        assert run("(sequence {:a 1})") == "([:a 1])"
        assert run("(sequence (mapcat reverse) [[1 2] [3]])") == "(2 1 3)"

    def test_sequence_lazy_input(self):
        r = T.sequence(T.map_xf(lambda x: x * 10), ptc_range())
        assert type(r) is LazySeq
        assert r.nth(2) == 20
        assert run("(take 3 (sequence (filter odd?) (range)))") == "(1 3 5)"
        assert run("(take 5 (sequence (comp (partition-all 2) cat) (range)))") == "(0 1 2 3 4)"
        assert run("(sequence (take 2) (range))") == "(0 1)"
        assert run("(sequence (partition-all 2) (take 3 (range)))") == "([0 1] [2])"

    def test_eduction(self):
        assert run("(eduction (map inc) (filter odd?) [1 2 3 4])") == "(3 5)"
        assert run("(eduction [1 2])") == "(1 2)"
        assert run("(into [] (eduction (map inc) [1 2]))") == "[2 3]"


def ptc_range():
    from ptc.interpreter.lib.core_sequences import range_

    return range_()


class TestTransducerForms:
    @pytest.mark.parametrize("src,expected", [
        ("(into [] (map inc) [1 2])", "[2 3]"),
        ("(into [] (map-indexed vector) [:a :b])", "[[0 :a] [1 :b]]"),
        ("(into [] (filter odd?) [1 2 3])", "[1 3]"),
        ("(into [] (remove odd?) [1 2 3])", "[2]"),
        ("(into [] (keep :a) [{:a 1} {} {:a false}])", "[1 false]"),
        ("(into [] (keep-indexed (fn [i x] (when (odd? i) x))) [:a :b :c :d])", "[:b :d]"),
        ("(into [] (take 2) [1 2 3])", "[1 2]"),
        ("(into [] (take 0) [1 2 3])", "[]"),
        ("(into [] (drop 2) [1 2 3])", "[3]"),
        ("(into [] (take-while pos?) [1 2 -1 3])", "[1 2]"),
        ("(into [] (drop-while pos?) [1 2 -1 3])", "[-1 3]"),
        ("(into [] (take-nth 2) [1 2 3 4 5])", "[1 3 5]"),
        ("(into [] (mapcat (fn [x] [x x])) [1 2])", "[1 1 2 2]"),
        ("(into [] cat [[1 2] [] [3]])", "[1 2 3]"),
        ("(into [] (distinct) [1 2 1 1.0])", "[1 2 1.0]"),
        ("(into [] (dedupe) [1 1 2 1])", "[1 2 1]"),
        ("(into [] (interpose :x) [1 2 3])", "[1 :x 2 :x 3]"),
        ("(into [] (partition-all 2) [1 2 3])", "[[1 2] [3]]"),
        ("(into [] (partition-by odd?) [1 3 2 4 5])", "[[1 3] [2 4] [5]]"),
        ("(into [] (comp (map inc) (filter even?) (take 2)) (range 100))", "[2 4]"),
        ("(into [] (comp cat (take 3)) [[1 2] [3 4] [5]])", "[1 2 3]"),
        ("(into #{} (map :k) [{:k 1} {:k 1}])", "#{1}"),
        ("(transduce (comp (mapcat identity) (take 3)) conj [[1 2] [3 4]])", "[1 2 3]"),
        ("(transduce (interpose 0) conj [1 2])", "[1 0 2]"),
    ])
    def test_forms(self, src, expected):
        assert run(src) == expected

    def test_reusable_stateful_xform(self):
        assert run("(let [xf (take 2)] [(into [] xf [1 2 3]) (into [] xf [4 5 6])])") == "[[1 2] [4 5]]"

    def test_take_xf_stops_inputs(self):
        seen = []

        def f(x):
            seen.append(x)
            return x

        out = T.apply_xform(lambda rf: T.map_xf(f)(T.take_xf(2)(rf)), V(1, 2, 3, 4), list)
        assert out == [1, 2] and seen == [1, 2]

    def test_bad_n(self):
        with pytest.raises(PTCError, match="partition-all: n must be positive"):
            ptc.run("(partition-all 0)")
        with pytest.raises(PTCError, match="take: expected a number"):
            ptc.run('(take "a")')


class TestApplyXform:
    def test_basic(self):
        assert T.apply_xform(T.map_xf(lambda x: x + 1), V(1, 2), list) == [2, 3]
        assert T.apply_xform(T.filter_xf(lambda x: x > 1), None, list) == []

    def test_halt_when_replaces_the_result(self):
        assert T.apply_xform(T.halt_when(lambda x: x > 1), V(1, 2, 3), list) == 2
        assert T.apply_xform(T.halt_when(lambda x: x is None), V(1, None), list) is None
        assert T.apply_xform(T.halt_when(lambda x: x > 5), V(1, 2), list) == [1, 2]
        assert run("(transduce (halt-when odd? (fn [r x] [r x])) conj [2 4 5 6])") == "[[2 4] 5]"
        assert run("(sequence (halt-when odd?) [2 4 5 6])") == "(2 4)"  # stops the seq, no halt value
        assert run("(into [] (comp (halt-when #{3}) (take 5)) (range))") == "3"

    def test_infinite_with_limit(self):
        with pytest.raises(PTCError) as e:
            ptc.run("(into [] (map inc) (range))", limits=Limits(max_collection=5000))
        assert e.value.kind == "limit"

    def test_explosion_with_limit(self):
        with pytest.raises(PTCError) as e:
            ptc.run("(count (into [] (mapcat (fn [_] (range 1000))) (range 1000)))",
                    limits=Limits(max_collection=100_000))
        assert e.value.kind == "limit"

    def test_completing_cf(self):
        rf = T.completing(plus, lambda x: x * 100)
        assert rf() == 0 and rf(1) == 100 and rf(1, 2) == 3
        assert T.completing(plus)(7) == 7

    def test_transduce_direct(self):
        assert T.transduce(T.map_xf(lambda x: x * 2), plus, V(1, 2, 3)) == 12
        assert T.transduce(T.cat, plus, 1, V(V(1), PList((2, 3)))) == 7
