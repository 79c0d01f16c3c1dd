"""Tests for ptc/interpreter/lib/core_sequences.py (direct calls and through ptc.run)."""

from __future__ import annotations

import pytest

import ptc
from ptc.interpreter import context
from ptc.interpreter.errors import PTCError
from ptc.interpreter.limits import Limits
from ptc.interpreter.lib import core_sequences as S
from ptc.interpreter.lib.transducers import Reduced
from ptc.interpreter.printer import pr_str
from ptc.interpreter.values import (
    Keyword,
    LazySeq,
    MapEntry,
    PList,
    PVector,
    from_python,
    make_map,
    make_set,
    vec,
)

K = Keyword


def L(*xs):
    return PList(xs)


def V(*xs):
    return vec(xs)


def run(src: str, **kw) -> str:
    return pr_str(ptc.run(src, **kw).value)


@pytest.fixture
def small_limits():
    st = context.RunState(Limits(max_collection=1000))
    prev = context.enter(st)
    yield st
    context.leave(prev)


def inc(x):
    return x + 1


def is_odd(x):
    return x % 2 == 1


# -- map / filter / reduce ---------------------------------------------------------------


class TestMap:
    def test_vector_gives_lazy_seq_realized_by_chunks(self):
        r = S.map_(inc, V(1, 2, 3))
        assert type(r) is LazySeq and r == (2, 3, 4)
        calls = []
        s = S.map_(lambda x: calls.append(x) or x, V(*range(100)))
        assert calls == [] and s.nth(0) == 0 and len(calls) == 32  # Clojure's chunk of a vector
        assert s.nth(40) == 40 and len(calls) == 64

    def test_keyword_on_maps_and_string_keys(self):
        rows = V(make_map({K("a"): 1}), from_python({"a": 2}), make_map({}))
        assert S.map_(K("a"), rows) == (1, 2, None)

    def test_keyword_with_non_map_rows_falls_back(self):
        assert S.map_(K("a"), V(make_map({K("a"): 1}), None, V(1))) == (1, None, None)

    def test_multi_coll_stops_at_shortest(self):
        assert S.map_(lambda a, b: a + b, V(1, 2), V(10, 20, 30)) == (11, 22)
        assert S.map_(lambda a, b: a, V(1, 2), None) == ()

    def test_map_over_map_gives_entries(self):
        r = S.map_(lambda e: e, make_map({K("a"): 1}))
        assert type(r.nth(0)) is MapEntry and tuple(r.nth(0)) == (K("a"), 1)

    def test_string_and_set_and_nil(self):
        assert S.map_(lambda c: c.upper(), "ab") == ("A", "B")
        assert sorted(S.map_(inc, make_set([1, 2]))) == [2, 3]
        assert S.map_(inc, None) == ()

    def test_lazy_input_stays_lazy_and_realizes_little(self):
        calls = []

        def f(x):
            calls.append(x)
            return x * 2

        r = S.map_(f, S.range_())
        assert type(r) is LazySeq
        assert S.take(3, r).realize() == (0, 2, 4)
        assert len(calls) <= 4

    def test_one_arity_is_transducer(self):
        assert run("(into [] (map inc) [1 2])") == "[2 3]"

    def test_not_a_function(self):
        with pytest.raises(PTCError, match="map: expected a function"):
            S.map_(5, V(1))

    def test_not_seqable(self):
        with pytest.raises(PTCError, match="map: don't know how to create a sequence from integer"):
            S.map_(inc, 5)

    def test_vector_as_fn(self):
        assert S.map_(V(10, 20, 30), V(0, 2)) == (10, 30)

    def test_mapv(self):
        r = S.mapv(inc, V(1, 2))
        assert type(r) is PVector and list(r) == [2, 3]
        assert list(S.mapv(lambda a, b: a * b, V(1, 2), L(3, 4, 5))) == [3, 8]
        assert list(S.mapv(K("x"), V(make_map({K("x"): 9})))) == [9]
        assert list(S.mapv(inc, S.take(2, S.range_()))) == [1, 2]

    def test_map_indexed(self):
        assert run("(map-indexed vector [:a :b])") == "([0 :a] [1 :b])"
        assert run("(into [] (map-indexed (fn [i x] (* i x))) [5 6 7])") == "[0 6 14]"


class TestFilter:
    def test_basic(self):
        assert S.filter_(is_odd, V(1, 2, 3)) == (1, 3)
        assert S.filter_(is_odd, None) == ()

    def test_truthiness_is_clojure(self):
        # 0, "" and empty collections are truthy; only nil/false are not
        assert S.filter_(lambda x: x, V(0, "", None, False, V())) == (0, "", V())

    def test_keyword_pred(self):
        rows = V(from_python({"ok": True}), from_python({"ok": False}), make_map({K("ok"): 0}))
        assert S.filter_(K("ok"), rows) == (rows[0], rows[2])
        assert S.remove(K("ok"), rows) == (rows[1],)

    def test_set_pred(self):
        assert S.filter_(make_set([1, 3]), V(1, 2, 3)) == (1, 3)

    def test_lazy(self):
        r = S.filter_(is_odd, S.range_())
        assert type(r) is LazySeq
        assert S.take(3, r).realize() == (1, 3, 5)

    def test_filterv_remove(self):
        assert list(S.filterv(is_odd, V(1, 2, 3))) == [1, 3]
        assert type(S.filterv(is_odd, None)) is PVector
        assert S.remove(is_odd, V(1, 2, 3)) == (2,)
        assert S.remove(is_odd, S.take(4, S.range_())).realize() == (0, 2)

    def test_keep(self):
        assert S.keep(lambda x: None if x == 2 else x * 10, V(1, 2, 3)) == (10, 30)
        assert S.keep(lambda x: False, V(1)) == (False,)
        assert S.keep(K("a"), V(make_map({K("a"): 1}), make_map({}))) == (1,)
        assert run("(keep-indexed (fn [i x] (when (even? i) x)) [:a :b :c])") == "(:a :c)"

    def test_transducers(self):
        assert run("(into [] (filter odd?) [1 2 3])") == "[1 3]"
        assert run("(into [] (remove odd?) [1 2 3])") == "[2]"
        assert run("(into [] (keep :a) [{:a 1} {}])") == "[1]"


class TestReduce:
    def test_arities(self):
        plus = lambda *a: sum(a)  # noqa: E731
        assert S.reduce_(plus, V()) == 0
        assert S.reduce_(lambda a, b: 1 / 0, V(7)) == 7  # f not called for one item
        assert S.reduce_(plus, V(1, 2, 3)) == 6
        assert S.reduce_(plus, 10, V(1, 2)) == 13
        assert S.reduce_(plus, 10, None) == 10

    def test_reduced_stops(self):
        seen = []

        def f(acc, x):
            seen.append(x)
            return Reduced(acc) if x == 3 else acc + x

        assert S.reduce_(f, 0, V(1, 2, 3, 4, 5)) == 3
        assert seen == [1, 2, 3]

    def test_reduced_on_infinite_lazy(self):
        assert run("(reduce (fn [a x] (if (> x 10) (reduced a) (+ a x))) 0 (range))") == "55"

    def test_over_map(self):
        assert run("(reduce (fn [a [k v]] (+ a v)) 0 {:a 1 :b 2})") == "3"

    def test_plus_fast_path_matches_sequential(self):
        assert run("(reduce + [1 2 3])") == "6"
        assert run("(reduce + [])") == "0"
        assert run("(reduce + 0.5 [1 2])") == "3.5"
        assert run("(reduce + [0.1 0.2 0.3])") == "0.6000000000000001"
        assert run("(reduce + (map :a [{:a 1} {:a 2.5}]))") == "3.5"
        with pytest.raises(PTCError):
            ptc.run('(reduce + [1 "a"])')
        with pytest.raises(PTCError):
            ptc.run("(reduce + [1 true])")

    def test_reduce_kv(self):
        assert run("(reduce-kv (fn [a k v] (conj a k)) [] {:a 1 :b 2})") == "[:a :b]"
        assert run("(reduce-kv (fn [a i x] (+ a (* i x))) 0 [5 6])") == "6"
        assert run("(reduce-kv (fn [a k v] (reduced k)) 0 {:a 1 :b 2})") == ":a"
        assert run("(reduce-kv + 7 nil)") == "7"
        with pytest.raises(PTCError, match="reduce-kv: expected a map or vector"):
            ptc.run("(reduce-kv + 0 '(1 2))")

    def test_reductions(self):
        assert run("(reductions + [1 2 3])") == "(1 3 6)"
        assert run("(reductions + [])") == "(0)"
        assert run("(reductions + 5 [])") == "(5)"
        assert run("(reductions (fn [a x] (if (> a 3) (reduced a) (+ a x))) [1 2 3 4 5])") == "(1 3 6 6)"
        assert run("(take 4 (reductions + (range)))") == "(0 1 3 6)"


# -- take / drop ----------------------------------------------------------------------------


class TestTakeDrop:
    def test_take(self):
        assert S.take(2, V(1, 2, 3)) == (1, 2)
        assert S.take(0, V(1)) == ()
        assert S.take(-1, V(1)) == ()
        assert S.take(10, "abc") == ("a", "b", "c")
        assert S.take(2.5, V(1, 2, 3, 4)) == (1, 2, 3)  # like Clojure's (pos? n) loop
        assert S.take(10**30, V(1)) == (1,)

    def test_take_lazy_realizes_only_needed(self):
        calls = []

        def f(x):
            calls.append(x)
            return x + 1

        r = S.take(3, S.iterate(f, 0))
        assert r.realize() == (0, 1, 2)
        assert calls == [0, 1]

    def test_drop(self):
        assert S.drop(1, V(1, 2, 3)) == (2, 3)
        assert S.drop(5, V(1)) == ()
        assert S.drop(-2, V(1, 2)) == (1, 2)
        assert S.take(2, S.drop(5, S.range_())).realize() == (5, 6)

    def test_while(self):
        assert run("(take-while pos? [1 2 -1 3])") == "(1 2)"
        assert run("(drop-while pos? [1 2 -1 3])") == "(-1 3)"
        assert run("(take-while #(< % 3) (range))") == "(0 1 2)"
        assert run("(into [] (take-while pos?) [1 -1 2])") == "[1]"
        assert run("(into [] (drop-while pos?) [1 -1 2])") == "[-1 2]"

    def test_take_last_drop_last(self):
        assert S.take_last(2, V(1, 2, 3)) == (2, 3)
        assert S.take_last(2, V()) is None
        assert S.take_last(0, V(1)) is None
        assert S.take_last(5, V(1, 2)) == (1, 2)
        assert S.drop_last(V(1, 2, 3)) == (1, 2)
        assert S.drop_last(2, V(1, 2, 3)) == (1,)
        assert S.drop_last(5, V(1, 2, 3)) == ()
        assert S.drop_last(0, V(1, 2)) == (1, 2)
        assert S.take(3, S.drop_last(2, S.range_())).realize() == (0, 1, 2)

    def test_take_nth(self):
        assert S.take_nth(2, V(1, 2, 3, 4, 5)) == (1, 3, 5)
        assert S.take_nth(2, L(1, 2, 3)) == (1, 3)
        assert S.take(3, S.take_nth(0, V(7, 8))).realize() == (7, 7, 7)
        assert S.take_nth(0, V()) == ()
        assert run("(into [] (take-nth 3) (range 7))") == "[0 3 6]"

    def test_nthrest_nthnext(self):
        v = V(1, 2, 3)
        assert S.nthrest(v, 0) is v
        assert S.nthrest(v, 1) == (2, 3)
        assert S.nthrest(v, 5) == ()
        assert S.nthnext(v, 5) is None
        assert S.nthnext(v, 0) == (1, 2, 3)
        assert S.nthnext(S.range_(), 2).nth(0) == 2

    def test_split(self):
        assert run("(split-at 2 [1 2 3])") == "[(1 2) (3)]"
        assert run("(split-at 5 [1 2])") == "[(1 2) ()]"
        assert run("(split-with odd? [1 3 2 5])") == "[(1 3) (2 5)]"

    def test_bad_count(self):
        with pytest.raises(PTCError, match="take: expected a number, got string"):
            S.take("2", V(1))


# -- generators -------------------------------------------------------------------------------


class TestGenerators:
    def test_range_forms(self):
        assert S.range_(3) == (0, 1, 2)
        assert S.range_(1, 4) == (1, 2, 3)
        assert S.range_(10, 0, -3) == (10, 7, 4, 1)
        assert S.range_(-3) == ()
        assert S.range_(5, 0) == ()
        assert S.range_(0, 0, 0) == ()
        assert S.take(3, S.range_(10, 0, 0)).realize() == (10, 10, 10)

    def test_range_is_lazy_and_chunked(self):
        big = S.range_(10**30)
        assert type(big) is LazySeq and big.nth(100_000) == 100_000
        assert len(big._cache) == 100_000 + 32 - 100_000 % 32  # realized up to its chunk
        assert type(S.range_()) is LazySeq

    def test_range_floats_like_clojure(self):
        assert run("(range 0 1 0.1)") == (
            "(0 0.1 0.2 0.30000000000000004 0.4 0.5 0.6 0.7 0.7999999999999999 0.8999999999999999 "
            "0.9999999999999999)")
        assert run("(range 0.5 3)") == "(0.5 1.5 2.5)"
        assert run("(range 3.0)") == "(0 1 2)"
        assert run("(take 2 (range 0 ##Inf))") == "(0 1)"

    def test_range_huge_bounds_lazy(self):
        r = S.range_(10**30)
        assert type(r) is LazySeq and r.nth(5) == 5

    def test_range_bad_arg(self):
        with pytest.raises(PTCError, match="range: expected a number, got string"):
            S.range_("a")

    def test_count_infinite_range_hits_limit(self, small_limits):
        with pytest.raises(PTCError) as e:
            len(S.range_())
        assert e.value.kind == "limit"

    def test_repeat(self):
        assert S.repeat(3, K("x")) == (K("x"),) * 3
        assert S.repeat(-1, 1) == ()
        assert S.take(2, S.repeat(7)).realize() == (7, 7)

    def test_repeat_limit(self, small_limits):
        with pytest.raises(PTCError) as e:
            S.repeat(10**9, 1)
        assert e.value.kind == "limit"

    def test_iterate_cycle_repeatedly(self):
        assert run("(take 4 (iterate inc 0))") == "(0 1 2 3)"
        assert run("(take 5 (cycle [1 2]))") == "(1 2 1 2 1)"
        assert run("(cycle [])") == "()"
        assert run("(repeatedly 3 (constantly 1))") == "(1 1 1)"
        assert run("(take 2 (repeatedly (constantly :a)))") == "(:a :a)"
        assert run("(repeatedly 0 (constantly 1))") == "()"

    def test_realizing_infinite_in_program_is_limit_error(self):
        with pytest.raises(PTCError) as e:
            ptc.run("(count (iterate inc 0))", limits=Limits(max_collection=5000))
        assert e.value.kind == "limit"
        with pytest.raises(PTCError) as e:
            ptc.run("(vec (map inc (range)))", limits=Limits(max_collection=5000))
        assert e.value.kind == "limit"


# -- combining / partitioning ----------------------------------------------------------------------


class TestCombine:
    def test_concat(self):
        assert run("(concat [1 2] '(3) nil [4])") == "(1 2 3 4)"
        assert run("(concat)") == "()"
        assert run("(concat {:a 1} \"b\")") == "([:a 1] \"b\")"
        assert run("(take 3 (concat [:a] (range)))") == "(:a 0 1)"
        with pytest.raises(PTCError, match="concat: don't know how"):
            ptc.run("(concat [1] 2)")

    def test_mapcat(self):
        assert run("(mapcat reverse [[1 2] [3 4]])") == "(2 1 4 3)"
        assert run("(mapcat (fn [a b] [a b]) [1 2] [:x :y])") == "(1 :x 2 :y)"
        assert run("(take 4 (mapcat (fn [x] [x x]) (range)))") == "(0 0 1 1)"
        assert run("(into [] (mapcat (fn [x] [x x])) [1 2])") == "[1 1 2 2]"
        with pytest.raises(PTCError, match="mapcat"):
            ptc.run("(mapcat inc [1 2])")

    def test_interleave_interpose(self):
        assert run("(interleave)") == "()"
        assert run("(interleave [1 2])") == "(1 2)"
        assert run("(interleave [1 2] [:a :b :c])") == "(1 :a 2 :b)"
        assert run("(interleave [1 2] [])") == "()"
        assert run("(take 4 (interleave (range) (repeat :x)))") == "(0 :x 1 :x)"
        assert run("(interpose 0 [])") == "()"
        assert run("(interpose 0 [1])") == "(1)"
        assert run("(interpose 0 [1 2 3])") == "(1 0 2 0 3)"
        assert run("(into [] (interpose :x) [1 2 3])") == "[1 :x 2 :x 3]"

    def test_partition(self):
        assert run("(partition 3 [1 2 3 4 5 6 7])") == "((1 2 3) (4 5 6))"
        assert run("(partition 3 1 [1 2 3 4 5])") == "((1 2 3) (2 3 4) (3 4 5))"
        assert run("(partition 3 3 [:a] [1 2 3 4 5 6 7])") == "((1 2 3) (4 5 6) (7 :a))"
        assert run("(partition 3 3 [] [1 2 3 4])") == "((1 2 3) (4))"
        assert run("(partition 2 3 [1 2 3 4 5 6 7])") == "((1 2) (4 5))"
        assert run("(partition 2 [])") == "()"
        assert run("(take 2 (partition 2 (range)))") == "((0 1) (2 3))"
        # n or step <= 0: Clojure's results (a step <= 0 repeats the first window forever)
        assert run("(take 3 (partition 0 [1 2]))") == "(() () ())"
        assert run("(partition -1 [1 2])") == "()"
        assert run("(take 2 (partition 2 0 [1 2 3]))") == "((1 2) (1 2))"
        assert run("(partition 0 1 [1 2 3])") == "(() () ())"
        with pytest.raises(PTCError) as e:
            ptc.run("(count (partition 2 0 [1 2]))", limits=Limits(max_collection=5000))
        assert e.value.kind == "limit"

    def test_partition_all(self):
        assert run("(partition-all 2 [1 2 3])") == "((1 2) (3))"
        assert run("(partition-all 2 1 [1 2 3])") == "((1 2) (2 3) (3))"
        assert run("(partition-all 2 3 [1 2 3 4])") == "((1 2) (4))"
        assert run("(into [] (partition-all 2) [1 2 3])") == "[[1 2] [3]]"
        assert run("(into [] (partition-all 2) [])") == "[]"

    def test_partition_by(self):
        assert run("(partition-by odd? [1 3 2 4 5])") == "((1 3) (2 4) (5))"
        assert run("(partition-by identity [])") == "()"
        assert run("(partition-by :k [{:k 1} {:k 1.0}])") == "(({:k 1}) ({:k 1.0}))"
        assert run("(into [] (partition-by odd?) [1 3 2 4 5])") == "[[1 3] [2 4] [5]]"
        assert run("(take 2 (partition-by #(quot % 3) (range)))") == "((0 1 2) (3 4 5))"


class TestShape:
    def test_flatten(self):
        assert run("(flatten [1 [2 [3 '(4)]] 5])") == "(1 2 3 4 5)"
        assert run("(flatten nil)") == "()"
        assert run("(flatten 5)") == "()"
        assert run("(flatten {:a 1})") == "()"
        assert run("(flatten [{:a [1]} #{2}])") == "({:a [1]} #{2})"
        assert run("(flatten (seq {:a 1}))") == "(:a 1)"
        assert run("(flatten [[] [[]] 1])") == "(1)"

    def test_flatten_deep_no_recursion_error(self):
        x = V(1)
        for _ in range(5000):
            x = V(x)
        assert S.flatten(x) == (1,)

    def test_distinct(self):
        assert run("(distinct [1 2 1 3 2])") == "(1 2 3)"
        assert run("(distinct [1 1.0 true 1])") == "(1 1.0 true)"
        assert run("(distinct [[1 2] '(1 2) {:a 1} {:a 1}])") == "([1 2] {:a 1})"
        assert run("(take 3 (distinct (cycle [1 2 3 4])))") == "(1 2 3)"
        assert run("(into [] (distinct) [1 2 1])") == "[1 2]"

    def test_dedupe(self):
        assert run("(dedupe [1 1 2 1])") == "(1 2 1)"
        assert run("(dedupe [1 1.0])") == "(1 1.0)"
        assert run("(dedupe [])") == "()"
        assert run("(into [] (dedupe) [1 1 2])") == "[1 2]"

    def test_reverse(self):
        assert run("(reverse [1 2 3])") == "(3 2 1)"
        assert run("(reverse nil)") == "()"
        assert run('(reverse "ab")') == '("b" "a")'


class TestSort:
    def test_default(self):
        assert run("(sort [3 1 2])") == "(1 2 3)"
        assert run("(sort [3 1.5 2])") == "(1.5 2 3)"
        assert run('(sort ["b" "a" "B"])') == '("B" "a" "b")'
        assert run("(sort [:b :a])") == "(:a :b)"
        assert run("(sort [[2] [1 1] [1]])") == "([1] [2] [1 1])"
        assert run("(sort [3 nil 1])") == "(nil 1 3)"
        assert run("(sort nil)") == "()"
        assert run("(sort {:b 1 :a 2})") == "([:a 2] [:b 1])"

    def test_comparators(self):
        assert run("(sort > [3 1 2])") == "(3 2 1)"
        assert run("(sort (fn [a b] (- b a)) [1 3 2])") == "(3 2 1)"
        assert run("(sort compare [2 1])") == "(1 2)"
        assert run("(sort-by :a (fn [x y] (- y x)) [{:a 0.5} {:a 0.2} {:a 0.9}])") == (
            "({:a 0.9} {:a 0.5} {:a 0.2})")
        with pytest.raises(PTCError, match="comparator must return a number or a boolean"):
            ptc.run('(sort (fn [a b] "x") [1 2])')

    def test_stable(self):
        assert run("(sort-by :k [{:k 1 :i 0} {:k 0 :i 1} {:k 1 :i 2} {:k 0 :i 3}])") == (
            "({:k 0, :i 1} {:k 0, :i 3} {:k 1, :i 0} {:k 1, :i 2})")
        assert run("(sort-by first > [[1 :a] [2 :b] [1 :c]])") == "([2 :b] [1 :a] [1 :c])"

    def test_builtin_comparator_fast_path_keeps_clojure_order(self):
        assert run("(sort > [1 3 2 3.0])") == "(3 3.0 2 1)"
        assert run("(sort < [2 1 1.0])") == "(1 1.0 2)"
        assert run('(sort compare ["b" "a"])') == '("a" "b")'
        assert run("(sort-by :k compare [{:k :b} {:k :a}])") == "({:k :a} {:k :b})"
        # <= and >= are inconsistent comparators: equal items come out swapped, as in Clojure
        assert run("(sort <= [1 3 1.0 2])") == "(1.0 1 2 3)"
        assert run("(sort-by first >= [[1 :a] [2 :b] [1 :c] [1 :d]])") == "([2 :b] [1 :d] [1 :c] [1 :a])"
        with pytest.raises(PTCError):
            ptc.run("(sort < [3 1 nil])")

    def test_sort_by_desc_100k(self):
        rows = [{"amount": (i * 7919) % 1000} for i in range(100_000)]
        r = ptc.run("(first (sort-by :amount > data/rows))", data={"rows": rows})
        assert pr_str(r.value) == "{:amount 999}"

    def test_sort_by(self):
        assert run("(sort-by count [\"ccc\" \"a\" \"bb\"])") == '("a" "bb" "ccc")'
        assert run("(sort-by :n [{:n nil} {:n 2} {:n 1}])") == "({:n nil} {:n 1} {:n 2})"
        assert run("(sort-by - [1 3 2])") == "(3 2 1)"
        assert run('(sort-by #(get % "name") [{"name" "b"} {"name" "a"}])') == '({"name" "a"} {"name" "b"})'
        rows = [{"name": "b"}, {"name": "a"}]
        assert pr_str(ptc.run("(sort-by :name data/rows)", data={"rows": rows}).value) == '({:name "a"} {:name "b"})'

    def test_incomparable(self):
        with pytest.raises(PTCError, match="compare"):
            ptc.run('(sort [1 "a"])')
        with pytest.raises(PTCError):
            ptc.run("(sort [{:a 1} {:a 2}])")

    def test_utf16_order(self):
        # Java compares UTF-16 code units: U+1F600 (surrogates D83D..) sorts before U+FF5E
        assert S.sort(V("\uff5e", "\U0001F600")) == ("\U0001F600", "\uff5e")

    def test_nan_goes_through_compare(self):
        r = S.sort(V(2.0, float("nan"), 1.0))
        assert len(r) == 3


class TestSearchApply:
    def test_some_every(self):
        assert run("(some even? [1 2 3])") == "true"
        assert run("(some #{3} [1 2 3])") == "3"
        assert run("(some even? [1 3])") == "nil"
        assert run("(some even? (range))") == "true"
        assert run("(every? even? [])") == "true"
        assert run("(every? even? [2 3])") == "false"
        assert run("(not-any? odd? [2])") == "true"
        assert run("(not-every? odd? [1 2])") == "true"
        assert run("(every? :ok [{:ok 1} {:ok 0}])") == "true"

    def test_apply(self):
        assert run("(apply + [1 2 3])") == "6"
        assert run("(apply + 1 2 [3 4])") == "10"
        assert run("(apply + [])") == "0"
        assert run("(apply str \"abc\")") == '"abc"'
        assert run("(apply max (range 5))") == "4"
        assert run("(apply + nil)") == "0"
        assert run("(apply vector 1 '(2 3))") == "[1 2 3]"
        with pytest.raises(PTCError, match="apply"):
            ptc.run("(apply + 1 2)")

    def test_doall_dorun(self):
        assert run("(doall (take 3 (range)))") == "(0 1 2)"
        assert run("(dorun (map inc [1]))") == "nil"
        assert run("(doall 2 (range 5))") == "(0 1 2 3 4)"
        r = S.doall(S.take(3, S.range_()))
        assert type(r) is PList


class TestEqKey:
    def test_clojure_equality(self):
        k = S.eq_key
        assert k(1) != k(1.0) != k(True)
        assert k(V(1, 2)) == k(L(1, 2))
        assert k(make_map({K("a"): V(1)})) == k(make_map({K("a"): L(1)}))
        assert k(make_set([1])) != k(make_set([True]))


class TestLimits:
    def test_filter_on_big_range_lazy_bounded(self):
        with pytest.raises(PTCError) as e:
            ptc.run("(count (filter odd? (range)))", limits=Limits(max_collection=10_000))
        assert e.value.kind == "limit"

    def test_mapcat_explosion_bounded(self):
        with pytest.raises(PTCError) as e:
            ptc.run("(count (mapcat (fn [x] (range 1000)) (range 1000)))", limits=Limits(max_collection=100_000))
        assert e.value.kind == "limit"

    def test_100k_rows_fast_path(self):
        rows = [{"id": i, "amount": i % 10, "status": "paid" if i % 2 else "open"} for i in range(100_000)]
        r = ptc.run('(reduce + (map :amount (filter #(= (:status %) "paid") data/rows)))', data={"rows": rows})
        assert r.value == sum(x["amount"] for x in rows if x["status"] == "paid")
