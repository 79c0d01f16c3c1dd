"""Tests for ptc/interpreter/lib/ptc_aggregates.py (PTC-only helpers)."""

from __future__ import annotations

import pytest

import ptc
from ptc.interpreter.errors import PTCError
from ptc.interpreter.lib import ptc_aggregates as A
from ptc.interpreter.printer import pr_str
from ptc.interpreter.values import Keyword, from_python, make_map, vec

K = Keyword


def run(src: str, **kw) -> str:
    return pr_str(ptc.run(src, **kw).value)


ORDERS = [
    {"id": 1, "amount": 10, "status": "paid", "region": "eu", "tags": ["a", "b"], "date": "2024-01-05",
     "customer": {"tier": "gold"}},
    {"id": 2, "amount": 25.5, "status": "open", "region": "us", "tags": [], "date": "2024-02-01",
     "customer": {"tier": "silver"}},
    {"id": 3, "amount": None, "status": "paid", "region": "eu", "tags": ["b"], "date": "2023-12-31",
     "customer": {"tier": "gold"}},
    {"id": 4, "amount": 4, "status": "refunded", "region": None, "tags": ["c"], "date": "2024-03-10",
     "customer": None},
]


def q(src: str) -> str:
    return run(src, data={"orders": ORDERS})


class TestSumAvg:
    def test_sum_by(self):
        assert q("(sum-by :amount data/orders)") == "39.5"
        assert q("(sum-by :id data/orders)") == "10"
        assert run("(sum-by :x [])") == "0"
        assert run("(sum-by :x nil)") == "0"
        assert run("(sum-by :x [{:x nil} {}])") == "0"
        assert run("(sum-by count [[1] [1 2]])") == "3"
        assert run('(sum-by "x" [{"x" 2} {"x" 3}])') == "5"

    def test_sum_by_errors(self):
        with pytest.raises(PTCError, match='sum-by: expected numbers, got string "a"'):
            ptc.run('(sum-by :x [{:x 1} {:x "a"}])')
        with pytest.raises(PTCError, match="sum-by: expected numbers, got boolean"):
            ptc.run("(sum-by :x [{:x true}])")

    def test_avg_by(self):
        assert q("(avg-by :id data/orders)") == "2.5"
        assert q("(avg-by :amount data/orders)") == str(39.5 / 3)
        assert run("(avg-by :x [])") == "nil"
        assert run("(avg-by :x [{:x nil}])") == "nil"
        assert run("(avg-by :x [{:x 2} {:x 4}])") == "3.0"

    def test_lazy_input(self):
        assert run("(sum-by identity (take 4 (range)))") == "6"


class TestMinMax:
    def test_numbers(self):
        assert q("(:id (min-by :amount data/orders))") == "4"
        assert q("(:id (max-by :amount data/orders))") == "2"
        assert run("(min-by :a [])") == "nil"
        assert run("(max-by :a [{:a nil}])") == "nil"

    def test_strings_and_ties(self):
        assert q("(:id (max-by :date data/orders))") == "4"
        assert q("(:id (min-by :date data/orders))") == "3"
        assert run("(:i (max-by :a [{:a 1 :i 0} {:a 1 :i 1}]))") == "0"
        assert run("(:i (min-by :a [{:a 1 :i 0} {:a 1 :i 1}]))") == "0"

    def test_mixed_int_float_and_vectors(self):
        assert run("(max-by :a [{:a 1} {:a 1.5} {:a 0}])") == "{:a 1.5}"
        assert run("(max-by :a [{:a [1 2]} {:a [3]}])") == "{:a [1 2]}"

    def test_incomparable(self):
        with pytest.raises(PTCError, match="max-by: keys are not comparable"):
            ptc.run('(max-by :a [{:a 1} {:a "x"}])')


class TestPluck:
    def test_pluck(self):
        assert q("(pluck :id data/orders)") == "[1 2 3 4]"
        assert q("(pluck [:customer :tier] data/orders)") == '["gold" "silver" "gold" nil]'
        assert run("(pluck first [[1 2] [3]])") == "[1 3]"
        assert run("(pluck :a [])") == "[]"


class TestWhere:
    def test_eq(self):
        assert q('(map :id (filter (where :status := "paid") data/orders))') == "(1 3)"
        assert q('(map :id (filter (where :status = "paid") data/orders))') == "(1 3)"
        assert q('(map :id (filter (where :status "=" "paid") data/orders))') == "(1 3)"
        assert q('(map :id (filter (where :status :not= "paid") data/orders))') == "(2 4)"
        assert q('(map :id (filter (where :status not= "paid") data/orders))') == "(2 4)"
        assert q("(map :id (filter (where :region := nil) data/orders))") == "(4)"
        assert run("(count (filter (where :a := 1) [{:a 1} {:a 1.0} {:a true} {:a 2}]))") == "2"
        assert run("(count (filter (where :a := [1 2]) [{:a [1 2]} {:a '(1 2)} {:a [1.0 2]}]))") == "3"
        # a keyword matches the string of its name (JSON data holds "x" where a model writes :x)
        assert run("(count (filter (where :a := :x) [{:a :x} {:a \"x\"} {:a :y}]))") == "2"
        assert run("(count (filter (where :a := \"x\") [{:a :x} {:a \"x\"} {:a \"X\"}]))") == "2"
        assert run("(count (filter (where :a :not= :x) [{:a :x} {:a \"x\"} {:a \"y\"}]))") == "1"
        assert run("(count (filter (where :a :in #{:x :z}) [{:a :x} {:a \"z\"} {:a \"y\"}]))") == "2"
        assert run("(count (filter (any-of (where :a := :x) (where :a := :y)) [{:a \"x\"} {:a \"y\"}]))") == "2"
        assert run("(= :x \"x\")") == "false"  # Clojure's = stays exact
        assert run("(count (filter (where :a := false) [{:a false} {:a nil}]))") == "1"

    def test_ordering(self):
        assert q("(map :id (filter (where :amount :> 5) data/orders))") == "(1 2)"
        assert q("(map :id (filter (where :amount > 5) data/orders))") == "(1 2)"
        assert q("(map :id (filter (where :amount :<= 10) data/orders))") == "(1 4)"
        assert q("(map :id (filter (where :amount :< 10.5) data/orders))") == "(1 4)"
        assert q("(map :id (filter (where :amount >= 25.5) data/orders))") == "(2)"
        assert q('(map :id (filter (where :date :>= "2024-02-01") data/orders))') == "(2 4)"
        assert run("(filter (where :v :> :b) [{:v :a} {:v :c}])") == "({:v :c})"
        assert run("(filter (where :v :> nil) [{:v 1}])") == "()"

    def test_ordering_type_mismatch(self):
        with pytest.raises(PTCError, match="where: cannot compare string"):
            ptc.run('(filter (where :a :> 5) [{:a "x"}])')

    def test_membership(self):
        assert q('(map :id (filter (where :region :in #{"us" nil}) data/orders))') == "(2 4)"
        assert q('(map :id (filter (where :status :in ["open" "refunded"]) data/orders))') == "(2 4)"
        assert q('(map :id (filter (where :status :not-in ["open" "refunded"]) data/orders))') == "(1 3)"
        assert run("(count (filter (where :a :in [1 2]) [{:a 1.0} {:a 3}]))") == "1"
        assert run("(count (filter (where :a :in {:x 1}) [{:a :x} {:a 1}]))") == "1"

    def test_contains(self):
        assert q('(map :id (filter (where :tags :contains "b") data/orders))') == "(1 3)"
        assert q('(map :id (filter (where :status :contains "ai") data/orders))') == "(1 3)"
        assert q('(map :id (filter (where :customer :contains :tier) data/orders))') == "(1 2 3)"
        assert run("(filter (where :a :contains 1) [{:a 1} {:a nil}])") == "()"

    def test_prefix_suffix(self):
        assert q('(map :id (filter (where :date :starts-with "2024") data/orders))') == "(1 2 4)"
        assert q('(map :id (filter (where :date :ends-with "01") data/orders))') == "(2)"
        assert q('(map :id (filter (where :date str/starts-with? "2023") data/orders))') == "(3)"
        assert run('(filter (where :a :starts-with "x") [{:a nil} {:a 5}])') == "()"
        with pytest.raises(PTCError, match="where: starts-with needs a string"):
            ptc.run("(where :a :starts-with 5)")

    def test_truthy_and_paths(self):
        assert run("(filter (where :ok) [{:ok true} {:ok false} {:ok 0} {}])") == "({:ok true} {:ok 0})"
        assert q('(map :id (filter (where [:customer :tier] := "gold") data/orders))') == "(1 3)"
        assert q('(map :id (filter (where #(count (:tags %)) :> 1) data/orders))') == "(1)"

    def test_custom_fn_op(self):
        assert run("(filter (where :a (fn [x v] (= (mod x v) 0)) 3) [{:a 3} {:a 4} {:a 9}])") == "({:a 3} {:a 9})"

    def test_errors(self):
        with pytest.raises(PTCError, match="where: unknown operator :like"):
            ptc.run('(where :a :like "x")')
        with pytest.raises(PTCError, match="where: expected"):
            A.where(K("a"), K("="))

    def test_direct_call(self):
        p = A.where(K("amount"), K(">"), 5)
        rows = from_python(ORDERS)
        assert [p(r) for r in rows] == [True, True, False, False]
        assert A.where(K("x"))(None) is False


class TestCombinators:
    def test_all_any_none(self):
        assert q('(map :id (filter (all-of (where :status := "paid") (where :amount :> 5)) data/orders))') == "(1)"
        assert q('(map :id (filter (any-of (where :status := "open") (where :amount :< 5)) data/orders))') == "(2 4)"
        assert q('(map :id (filter (none-of (where :status := "paid") :region) data/orders))') == "(4)"
        assert run("((all-of) 1)") == "true"
        assert run("((any-of) 1)") == "false"
        assert run("((none-of) 1)") == "true"
        assert run("((all-of :a :b) {:a 1 :b nil})") == "false"

    def test_bad_pred(self):
        with pytest.raises(PTCError, match="all-of: expected a function"):
            ptc.run("(all-of 1)")


def test_realistic_pipeline():
    src = """
    (let [paid (filter (where :status := "paid") data/orders)]
      {:total (sum-by :amount paid)
       :avg (avg-by :amount paid)
       :biggest (:id (max-by :amount data/orders))
       :ids (pluck :id paid)})"""
    assert q(src) == "{:total 10, :avg 10.0, :biggest 2, :ids [1 3]}"


def test_keyword_fast_path_matches_generic():
    rows = vec([make_map({K("a"): 1}), from_python({"a": 2}), make_map({"a": 3, K("a"): 4})])
    assert list(A.pluck(K("a"), rows)) == [1, 2, 4]
    rows2 = vec([make_map({K("a"): 1}), None])
    assert list(A.pluck(K("a"), rows2)) == [1, None]
