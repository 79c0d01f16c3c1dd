"""Tests for ptc/interpreter/lib/core_functions.py."""

from __future__ import annotations

import pytest

import ptc
from ptc.interpreter.errors import PTCError
from ptc.interpreter.lib import core_functions as F
from ptc.interpreter.printer import pr_str
from ptc.interpreter.values import Keyword, make_map, vec


def run(src: str, **kw) -> str:
    return pr_str(ptc.run(src, **kw).value)


K = Keyword


class TestBasics:
    def test_identity_constantly(self):
        assert F.identity(3) == 3
        c = F.constantly(5)
        assert c() == 5 and c(1, 2, 3) == 5
        assert run("(filter identity [1 nil 2 false])") == "(1 2)"
        assert run("(map (constantly :a) [1 2])") == "(:a :a)"

    def test_comp(self):
        assert F.comp() is F.identity
        inc = lambda x: x + 1  # noqa: E731
        assert F.comp(inc) is inc
        assert F.comp(lambda x: f"<{x}>", lambda a, b: a + b)(1, 2) == "<3>"
        assert F.comp(inc, inc, lambda x: x * 10)(1) == 12
        assert run("((comp inc inc) 1)") == "3"
        assert run("((comp) 5)") == "5"
        assert run("((comp str +) 1 2)") == '"3"'
        assert run("(map (comp inc :a) [{:a 1} {:a 2}])") == "(2 3)"
        assert run("((comp - *) 2 3)") == "-6"
        assert run("((comp count :items) {:items [1 2]})") == "2"

    def test_comp_bad(self):
        with pytest.raises(PTCError, match="comp: expected a function"):
            F.comp(1, 2)

    def test_partial(self):
        assert run("((partial + 10) 1 2)") == "13"
        assert run("((partial +))") == "0"
        assert run("(map (partial * 2) [1 2])") == "(2 4)"
        assert run("((partial get {:a 1}) :a)") == "1"

    def test_juxt(self):
        assert run("((juxt :a :b) {:a 1})") == "[1 nil]"
        assert run("((juxt inc dec) 5)") == "[6 4]"
        assert run("(map (juxt :id :n) [{:id 1 :n 2}])") == "([1 2])"

    def test_complement(self):
        assert run("((complement even?) 3)") == "true"
        assert run("((complement :a) {:a 0})") == "false"
        assert run("((complement :a) {})") == "true"


class TestFnil:
    def test_one_default(self):
        assert run("((fnil + 0) nil 1)") == "1"
        assert run("((fnil + 0) 5 1)") == "6"
        assert run("(update {:a nil} :a (fnil inc 0))") == "{:a 1}"
        assert run("(update {} :n (fnil inc 0))") == "{:n 1}"
        assert run("((fnil conj []) nil 1)") == "[1]"

    def test_false_is_not_replaced(self):
        assert run("((fnil not true) false)") == "true"

    def test_more_defaults(self):
        assert run('((fnil str "x" "y") nil nil)') == '"xy"'
        assert run('((fnil str "x" "y" "z") nil "b" nil "w")') == '"xbzw"'

    def test_too_few_args(self):
        with pytest.raises(PTCError, match="fnil"):
            F.fnil(lambda *a: a, 1, 2)(None)
        with pytest.raises(PTCError, match="fnil"):
            F.fnil(lambda *a: a, 1)()


class TestPredicates:
    def test_every_pred(self):
        assert run("((every-pred pos? even?) 2 4)") == "true"
        assert run("((every-pred pos? even?) 2 3)") == "false"
        assert run("((every-pred odd?))") == "true"
        assert run("((every-pred :a) {:a 0})") == "true"
        assert run("(filter (every-pred odd? pos?) [-1 1 2 3])") == "(1 3)"

    def test_some_fn(self):
        assert run("((some-fn :a :b) {:b 2})") == "2"
        assert run("((some-fn even?) 1)") == "false"
        assert run("((some-fn even? nil?) 1 3)") == "false"
        assert run("((some-fn :a) {})") == "nil"
        assert run("((some-fn even? neg?) 3 4)") == "true"
        assert run("(filter (some-fn neg? zero?) [-1 0 1])") == "(-1 0)"


class TestMemoize:
    def test_caches(self):
        calls = []

        def f(x):
            calls.append(x)
            return x * 2

        m = F.memoize(f)
        assert m(2) == 4 and m(2) == 4
        assert calls == [2]

    def test_keys_use_clojure_equality(self):
        m = F.memoize(lambda x: repr(x))
        assert m(1) == "1"
        assert m(True) == "True"  # not the cached result for 1
        assert m(1.0) == "1.0"
        v = vec([1])
        assert m(v) == m(v)

    def test_bounded(self, monkeypatch):
        monkeypatch.setattr(F, "MEMO_MAX_ENTRIES", 3)
        calls = []
        m = F.memoize(lambda x: calls.append(x) or x)
        for i in range(5):
            m(i)
        m(0)  # evicted, recomputed
        m(4)  # still cached
        assert calls == [0, 1, 2, 3, 4, 0]

    def test_zero_args_and_maps(self):
        calls = []
        m = F.memoize(lambda *a: calls.append(a) or len(a))
        assert m() == 0 and m() == 0
        mp = make_map({K("a"): 1})
        assert m(mp) == 1 and m(make_map({K("a"): 1})) == 1
        assert len(calls) == 2

    def test_in_program(self):
        assert run("(let [sq (memoize (fn [x] (* x x)))] [(sq 3) (sq 3)])") == "[9 9]"
        src = """
        (def fib (memoize (fn [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))))
        (fib 60)"""
        assert run(src) == "1548008755920"
