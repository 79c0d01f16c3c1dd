"""Columnar kernels give the row path's result: the same program over a pyarrow Table (kernels)
and over the same rows as plain dicts (the row path) prints the same value or raises the same
error, on generated tables with nulls, NaN, int and float columns, empty tables and one row."""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import ptc  # noqa: E402
from tests.outcome import outcome  # noqa: E402
from ptc.interpreter.columnar.explain import explain  # noqa: E402

STATUSES = ["paid", "open", "void", "Paid", "é"]


@st.composite
def tables(draw: Any) -> Any:
    n = draw(st.integers(0, 25))
    ints = st.one_of(st.none(), st.integers(-5, 40))
    floats = st.one_of(st.none(), st.sampled_from([0.0, -0.0, 1.5, 2.0, -3.25, 10.0, 0.1, 0.2, math.nan, 1e16]))
    cols = {
        "id": list(range(n)),
        "qty": draw(st.lists(ints, min_size=n, max_size=n)),
        "amount": draw(st.lists(floats, min_size=n, max_size=n)),
        "status": draw(st.lists(st.one_of(st.none(), st.sampled_from(STATUSES)), min_size=n, max_size=n)),
        "ok": draw(st.lists(st.one_of(st.none(), st.booleans()), min_size=n, max_size=n)),
        "day": draw(st.lists(st.one_of(st.none(), st.sampled_from(
            [datetime.date(2024, 1, 5), datetime.date(2024, 2, 1), datetime.date(2023, 12, 31)])), min_size=n, max_size=n)),
    }
    if draw(st.booleans()):  # no nulls: the kernels that refuse nils get to run
        cols["qty"] = [0 if x is None else x for x in cols["qty"]]
        cols["amount"] = [1.0 if x is None or x != x else x for x in cols["amount"]]
    schema = pa.schema([("id", pa.int64()), ("qty", pa.int64()), ("amount", pa.float64()), ("status", pa.string()),
                        ("ok", pa.bool_()), ("day", pa.date32())])
    return pa.table(cols, schema=schema)


PROGRAMS = [
    "(filter #(> (:qty %) 3) data/t)",
    "(remove #(< (:amount %) 2) data/t)",
    "(filter #(and (some? (:qty %)) (>= (:qty %) 3)) data/t)",
    "(filter #(or (nil? (:status %)) (= (:status %) \"paid\")) data/t)",
    "(filter #(not= :paid (:status %)) data/t)",
    "(filter #(#{\"paid\" \"void\"} (:status %)) data/t)",
    "(filter #(contains? #{1 2 3.0 nil} (:qty %)) data/t)",
    "(filter #(and (:status %) (str/starts-with? (:status %) \"p\")) data/t)",
    "(filter #(str/includes? (:status %) \"a\") data/t)",
    "(filter :ok data/t)",
    "(filter #(= (:amount %) 2) data/t)",
    "(filter #(= (:qty %) (:id %)) data/t)",
    "(count (filter (where :qty :> 2) data/t))",
    "(filter (where :amount := 2) data/t)",
    "(filter (where :status :in #{\"paid\" \"open\"}) data/t)",
    "(filter (where :status := :paid) data/t)",
    "(remove (where :status :not= :void) data/t)",
    "(filter (where :status :in #{:paid \"void\" nil}) data/t)",
    "(filter (where :status :not-in #{:open}) data/t)",
    "(remove (any-of (where :ok) (where :status :starts-with \"v\")) data/t)",
    "(filter (none-of (where :qty :<= 1) (where :amount :>= 2.0)) data/t)",
    "(->> data/t (filter #(> (:qty %) 0)) (map :qty) (reduce +))",
    "(reduce + (map :amount data/t))",
    "(reduce + 0 (map :amount data/t))",
    "(reduce + 1 (map :qty data/t))",
    "(map #(* (:qty %) (:amount %)) data/t)",
    "(mapv #(+ 1 (- (:id %) (:qty % 0))) data/t)",
    "(map #(inc (:id %)) data/t)",
    "(sum-by :qty data/t)", "(sum-by :amount data/t)", "(avg-by :amount data/t)", "(avg-by :qty data/t)",
    "(min-by :qty data/t)", "(max-by :amount data/t)", "(max-by :status data/t)", "(pluck :day data/t)",
    "(group-by :status data/t)", "(group-by :day data/t)", "(group-by :ok data/t)",
    "(update-vals (group-by :status data/t) count)",
    "(update-vals (group-by :status data/t) #(sum-by :qty %))",
    "(map (fn [[k rows]] [k (count rows) (reduce + (map :id rows))]) (group-by :qty data/t))",
    "(frequencies (map :status data/t))", "(frequencies (map :qty data/t))", "(frequencies (map :amount data/t))",
    "(distinct (map :status data/t))", "(count (distinct (map :day data/t)))", "(distinct (map :amount data/t))",
    "(take 3 (sort-by :qty > data/t))", "(sort-by :amount data/t)", "(sort-by :status data/t)",
    "(drop 2 (sort-by :id < data/t))",
    "(apply max (map :qty data/t))", "(apply min (map :amount data/t))",
    "(let [t data/t big (filter #(> (:id %) 1) t)] [(count big) (sum-by :id big)])",
    "(->> data/t (filter #(= (:ok %) true)) (group-by :status) (update-vals #(count %)))",
    "(update-vals (group-by :status data/t) #(sum-by :amount %))",
    "(update-vals (group-by :day data/t) #(avg-by :qty %))",
    "(update-vals (group-by :status data/t) (fn [rows] (reduce + (map :amount rows))))",
    "(update-vals (group-by :qty data/t) #(reduce + 0 (map (fn [r] (* 2 (:id r))) %)))",
    "(update-vals (group-by :ok data/t) #(count (remove (fn [r] (> (:id r) 3)) %)))",
    "(update-vals (group-by :status data/t) #(reduce + (map :qty (filter :ok %))))",
    "(let [m {\"paid\" 1 \"open\" 2.5}] (map #(m (:status %)) data/t))",
    "(let [m (zipmap (map :id data/t) (map :status data/t))] (frequencies (map #(get m (:qty %)) data/t)))",
    "(let [s (sort-by :qty data/t)] [(mapv :id (take 2 s)) (sum-by :id s) (count s)])",
    "(map :id (sort-by :amount > (filter #(some? (:amount %)) data/t)))",
    "(group-by (juxt :status :ok) data/t)",
    "(let [d (LocalDate/parse \"2024-01-01\")] (filter #(.isAfter (:day %) d) data/t))",
    "(let [d (LocalDate/parse \"2024-01-05\")] (count (remove #(and (some? (:day %)) (.isEqual (:day %) d)) data/t)))",
    "(let [d (LocalDate/parse \"2024-01-05\")] (filter #(.isBefore d (:day %)) data/t))",
    "(update-vals (group-by (juxt :qty :status) data/t) count)",
    "(update-vals (group-by (juxt :ok :status) data/t) #(sum-by :amount %))",
    "(frequencies (map #(.getMonthValue (:day %)) data/t))",
    "(map #(+ (* 10000 (.getYear (:day %))) (* 100 (.getDayOfMonth (:day %))) (.getDayOfYear (:day %))) data/t)",
    "(update-vals (group-by #(.getValue (.getDayOfWeek (:day %))) data/t) count)",
    "(filter #(and (:day %) (= 1 (.getMonthValue (:day %)))) data/t)",
    "(frequencies (map #(subs (:status %) 0 2) data/t))",
    "(group-by #(subs (:status %) 1) data/t)",
    "(filter #(and (:status %) (= \"PAID\" (str/upper-case (:status %)))) data/t)",
    "(map #(str/lower-case (:status %)) data/t)",
    # and/or as values, not only as tests: (or x 0) is x or 0; (and x y) y or the falsy x
    "(filter #(> (or (:qty %) 0) 3) data/t)",
    "(filter #(= (or (:qty %) 0) true) data/t)",
    "(filter #(= (and (:qty %) (:status %)) \"paid\") data/t)",
    "(filter #(= (or (:ok %) false) false) data/t)",
    "(filter #(nil? (and (:ok %) (:qty %) (:status %))) data/t)",
    "(filter #(= (or (:ok %) (:qty %)) 3) data/t)",
    "(filter #(= 3 (#{3 4} (:qty %))) data/t)",
    "(filter #(< (or (:amount %) (:qty %) 0) 2) data/t)",
    # integers on some rows, floats on others, compared: ordered by value as the row path does
    "(filter #(> (or (:amount %) 0) 1.5) data/t)",
    "(remove #(> 3 (or (:qty %) 0.5)) data/t)",
    # control flow lifted over columns: each branch computed only on the rows that take it
    "(count (filter #(and (some? (:qty %)) (pos? (:qty %))) data/t))",
    "(filter #(zero? (:amount %)) data/t)", "(remove #(neg? (:qty %)) data/t)",
    "(frequencies (map #(if (> (:qty %) 10) 2 1) data/t))",
    "(map #(if (pos? (:qty %)) (/ 100 (:qty %)) 0) data/t)",
    "(map #(when (some? (:amount %)) (* 2 (:amount %))) data/t)",
    "(frequencies (map #(cond (nil? (:qty %)) 0 (< (:qty %) 5) 1 (< (:qty %) 20) 2 :else 3) data/t))",
    "(filter #(if-let [q (:qty %)] (> q 2) false) data/t)",
    "(map #(if-not (:ok %) (:id %) (- (:id %))) data/t)",
    "(defn big? [r] (when (some? (:qty r)) (> (:qty r) 5))) (count (filter big? data/t))",
    "(defn score [q] (if (neg? q) 0 (* q 2))) (map #(score (:id %)) data/t)",
    "(defn weight [r] (* (:id r) 2)) (defn heavy? [r] (> (weight r) 6)) (filter heavy? data/t)",
    "(update-vals (group-by (fn [r] [(:status r) (> (:id r) 2)]) data/t) count)",
    "(frequencies (map (fn [r] [(:ok r) (pos? (:id r))]) data/t))",
    "(let [m {\"paid\" 1 \"open\" 2}] (filter #(when-let [w (m (:status %))] (> w 1)) data/t))",
    # keep: f's values with the nils left out (false, NaN, -0.0 kept), a seq over the column
    "(keep :qty data/t)", "(keep :amount data/t)", "(keep :ok data/t)", "(reduce + (keep :amount data/t))",
    "(count (filter pos? (keep :qty data/t)))", "(keep :qty (filter #(> (:id %) 3) data/t))",
    "(let [m {\"paid\" 1 \"open\" 2}] (keep #(m (:status %)) data/t))",
    "(keep #(when (> (:id %) 20) (:status %)) data/t)",
    "(frequencies (keep #(some-> (:qty %) (quot 10)) data/t))",
    # filter / remove over a computed column, and what reads their seq
    "(remove nil? (map :amount data/t))", "(apply + (remove nil? (map :amount data/t)))",
    "(apply + (remove nil? (map :qty data/t)))", "(->> data/t (map :qty) (filter some?) (reduce +))",
    "(reduce + (filter pos? (map :qty data/t)))", "(filter #(> % 10) (map :qty data/t))",
    "(count (filter neg? (map :amount data/t)))", "(remove zero? (map :amount data/t))",
    "(filter #(str/starts-with? % \"p\") (map :status data/t))", "(filter #(> % 100) (map :id data/t))",
    "(apply max (filter #(< % 30) (map :id data/t)))", "(map - (map :amount data/t))", "(map #(- (:amount %)) data/t)",
    # vectors made from each row: frequencies and distinct number them as group-by does
    "(map (juxt :id :day) data/t)", "(frequencies (map (juxt :status :ok) data/t))",
    "(frequencies (map #(vector (:day %) (:qty %)) data/t))", "(distinct (map (juxt :status :ok) data/t))",
    "(count (distinct (map (fn [r] [(:qty r) (:status r)]) data/t)))",
    "(frequencies (distinct (map (juxt :ok :status) data/t)))",
    "(frequencies (map (fn [r] [(:status r) (> (:qty r) 3)]) (filter :ok data/t)))",
    "(frequencies (map (juxt :status :amount) data/t))",
    # comp and complement of column predicates
    "(filter (comp pos? :qty) data/t)", "(remove (comp nil? :amount) data/t)", "(filter (complement :ok) data/t)",
    "(count (remove (complement #(and (:qty %) (pos? (:qty %)))) data/t))", "(filter (comp #(> % 2) :qty) data/t)",
    "(map (complement :status) data/t)", "(remove (comp zero? :amount) data/t)",
    "(filter (comp #(when % (pos? %)) :qty) data/t)", "(filter (comp #(when (:ok %) %) #(quot 1 (:qty %))) data/t)",
    # some-> of the row itself: a row is never nil
    "(count (filter #(some-> % :qty pos?) data/t))", "(filter #(some-> % :amount (> 1.5)) data/t)",
    "(map #(some-> % :qty inc) data/t)",
    # text made from columns: str, str/join of a vector, count, subs by computed indexes, parse-long
    "(frequencies (map #(str (:status %) \"-\" (:qty %)) data/t))",
    "(map (fn [{:keys [status ok]}] (str status :k ok 7)) data/t)",
    "(group-by #(str/join \"/\" [(:status %) (:qty %)]) data/t)",
    "(count (filter #(= \"paid-1\" (str (:status %) \"-\" (:qty %))) data/t))",
    "(defn route [r] (str (:status r) \"-\" (:id r))) (frequencies (map route data/t))",
    "(sort-by #(str (:status %) (:id %)) data/t)",
    "(map #(str (.getDayOfWeek (:day %))) data/t)",
    "(map #(count (:status %)) data/t)", "(filter #(> (count (:status %)) 3) data/t)",
    "(map #(when (:status %) (subs (:status %) (- (count (:status %)) 2))) data/t)",
    "(map (fn [r] (let [s (:status r)] (when s (subs s 0 (quot (count s) 2))))) data/t)",
    "(frequencies (map #(parse-long (str (:qty %))) data/t))", "(map #(parse-long (str \"+\" (:qty %) \"0\")) data/t)",
    "(map #(some-> (:status %) parse-long) data/t)",
    "(update-vals (group-by :ok data/t) (fn [g] (count (distinct (map #(str (:status %) (:qty %)) g)))))",
    # keyword-valued branches (a keyword column), case, condp
    "(frequencies (map #(cond (nil? (:qty %)) :none (< (:qty %) 10) :small :else :big) data/t))",
    "(group-by #(if (:ok %) :yes :no) data/t)", "(distinct (map #(when (:status %) (if (:ok %) :a/b :c)) data/t))",
    "(defn band [q] (cond (< q 5) :low (< q 20) :mid :else :high)) (frequencies (map (comp band :id) data/t))",
    "(count (filter #(= :low (if (< (:id %) 5) :low :high)) data/t))",
    "(filter #(#{:low} (if (< (:id %) 5) :low :high)) data/t)", "(map #(str (if (:ok %) :yes :no) (:id %)) data/t)",
    "(update-vals (group-by :status data/t) (fn [g] (if (> (count g) 2) :many :few)))",
    "(map (fn [[k g]] {:k k :size (if (> (count g) 2) :many :few)}) (group-by :status data/t))",
    "(frequencies (map #(case (:status %) \"paid\" :p (\"open\" \"void\") :o nil :none :other) data/t))",
    "(map #(case (:qty %) 1 \"one\" 2.0 \"two\" 3 \"three\") data/t)",
    "(group-by #(case (:ok %) true 1 false 0 nil -1) data/t)",
    "(frequencies (map #(condp > (:id %) 3 :small 10 :mid :big) data/t))",
    "(map #(condp = (:status %) \"paid\" 1 \"open\" 2) data/t)",
    "(frequencies (map #(let [p <=] (p (:id %) 4)) data/t))",
    # int/long (of a quotient: quot), mod, Math/floor
    "(map #(when (:amount %) (int (:amount %))) data/t)", "(frequencies (map #(* 5 (int (/ (:id %) 5))) data/t))",
    "(map #(when (:qty %) (int (/ 10 (:qty %)))) data/t)", "(group-by #(mod (:id %) 3) data/t)",
    "(map #(when (:qty %) (mod (:qty %) -4)) data/t)", "(map #(when (:qty %) (mod 7 (:qty %))) data/t)",
    "(map #(when (:amount %) (Math/floor (:amount %))) data/t)",
    "(frequencies (map #(long (* 10 (Math/floor (/ (:id %) 10.0)))) data/t))",
    "(frequencies (map #(- (:id %) (mod (:id %) 4)) data/t))",
    # days of the week as values (a column of their numbers)
    "(frequencies (map #(when (:day %) (.getDayOfWeek (:day %))) data/t))",
    "(group-by #(.getDayOfWeek (:day %)) data/t)", "(distinct (map #(some-> (:day %) .getDayOfWeek) data/t))",
    "(map #(when (and (:day %) (:ok %)) (.getDayOfWeek (:day %))) data/t)",
    # re-find / re-matches of a constant regex without groups (RE2 both ways)
    "(count (filter #(when (:status %) (re-find #\"^p\" (:status %))) data/t))",
    "(frequencies (map #(some->> (:status %) (re-find #\"[a-z]{2}$\")) data/t))",
    "(map #(when (:status %) (re-matches #\"(?i)p\\w+\" (:status %))) data/t)",
    "(filter #(re-find #\"a|\\p{Alpha}\" (str (:status %))) data/t)",
    # pure builtins without a column op, called once per distinct value (each nodes): nils,
    # NaN and -0.0 read as the row path reads them, errors only where a row reaches them
    "(count (filter #(= \\a (second (:status %))) data/t))",
    "(frequencies (map #(compare (:status %) \"open\") data/t))",
    "(map #(compare (:amount %) 1.5) data/t)",
    "(map #(format \"%s/%s\" (:status %) (:qty %)) data/t)",
    "(frequencies (map #(apply str (take-last 2 (:status %))) data/t))",
    "(map #(str/join (take-last 2 (str (:status %)))) data/t)",
    "(map #(parse-long (str (second (str/split (str (:qty %)) #\"\"))) ) data/t)",
    "(map #(str (:amount %)) data/t)",
    "(map #(when (:ok %) (compare (:qty %) 3)) data/t)",
    "(map #(if (:qty %) (compare (:qty %) 1) (compare \"x\" 1)) data/t)",
    "(map #(compare (:status %) (:qty %)) data/t)",
    "(let [m {\"paid\" :p \"open\" :o}] (map #(get m (:status %) :none) data/t))",
    "(let [m {\"paid\" 1 \"open\" 2}] (count (filter #(< (get m (:status %) 9) 2) data/t)))",
    "(map #(get {1 \"one\" 2.0 \"two\"} (:qty %) \"many\") data/t)",
    "(let [v [\"a\" \"b\" \"c\"]] (map #(v (mod (:id %) 3)) data/t))",
    "(let [s (into #{} (map :status) data/t)] (count (filter #(contains? s (:status %)) data/t)))",
    "(let [s (set (keep :qty data/t))] (frequencies (map #(s (:qty %)) data/t)))",
    "(def code {\"paid\" 1 \"void\" 2}) (defn coded? [r] (when-let [c (code (:status r))] (> c 1))) (count (filter coded? data/t))",
    "(map #(when (:day %) (compare (:day %) (:day %))) data/t)",
    # and/or/#{} as a fn's whole value: the first truthy (falsy) operand's value, a member or nil
    "(map #(or (:status %) \"none\") data/t)", "(map #(and (:qty %) (:status %)) data/t)",
    "(map #(or (:qty %) (:id %)) data/t)", "(map #(#{1 4 7} (:qty %)) data/t)", "(map #(#{false} (:ok %)) data/t)",
    "(map #(contains? #{\"paid\" nil} (:status %)) data/t)", "(map #(or (:amount %) 0.0) data/t)",
    # sorts of values, by fns of them, reversed (their top-k: test_top_rows_of_a_sort_match_the_full_sort)
    "(sort (map :qty data/t))", "(sort > (keep :qty data/t))", "(sort-by - (keep :amount data/t))",
    "(reverse (sort-by :amount data/t))", "(take 3 (reverse (sort-by :qty data/t)))", "(reverse (filter :ok data/t))",
    "(reverse (map :status data/t))", "(sort #(compare %2 %1) (map :status data/t))", "(sort < (map :amount data/t))",
    "(sort-by :status #(compare %2 %1) data/t)", "(sort (map :day data/t))",
]


_outcome = outcome


@pytest.mark.parametrize("src", PROGRAMS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_kernels_match_rows(src: str, table: Any) -> None:
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


def _table() -> Any:
    return pa.table({"id": [1, 2, 3, 4], "qty": [5, 1, 7, 2], "amount": [10.0, 2.5, None, 4.0],
                     "status": ["paid", "open", "paid", "void"]})


@pytest.mark.parametrize("src,call", [
    ("(filter #(> (:qty %) 2) data/t)", "filter"),
    ("(->> data/t (remove (where :status := \"void\")) (map :qty) (reduce +))", "reduce +"),
    ("(frequencies (map :status data/t))", "frequencies"),
    ("(sum-by :amount data/t)", "sum-by"),
    ("(take 2 (sort-by :qty > data/t))", "sort-by"),
    ("(group-by :status data/t)", "group-by"),
    ("(def paid (filter #(= (:status %) \"paid\") data/t)) (count paid)", "count"),
    ("(filter #(and (some? (:qty %)) (pos? (:qty %))) data/t)", "filter"),
    ("(map #(if (> (:qty %) 2) 2 1) data/t)", "map"),
    ("(defn big? [r] (when (:qty r) (> (:qty r) 2))) (filter big? data/t)", "filter"),
    ("(group-by (fn [r] [(:status r) (> (:qty r) 2)]) data/t)", "group-by"),
    ("(reduce + (keep :amount data/t))", "keep"),
    ("(apply + (remove nil? (map :amount data/t)))", "apply +"),
    ("(count (filter pos? (keep :amount data/t)))", "filter"),
    ("(frequencies (map (juxt :status :qty) data/t))", "frequencies"),
    ("(count (distinct (map (fn [r] [(:status r) (:qty r)]) data/t)))", "distinct"),
    ("(count (remove (complement #(and (:amount %) (pos? (:amount %)))) data/t))", "remove"),
    ("(count (filter (comp pos? :qty) data/t))", "filter"),
    ("(count (filter #(some-> % :amount pos?) data/t))", "filter"),
])
def test_explain_names_kernels(src: str, call: str) -> None:
    report = explain(src, data={"t": _table()})
    assert any(s.call == call and s.kernel for s in report.steps), str(report)
    assert report.error is None


def test_explain_says_why_rows() -> None:
    report = explain("(->> data/t (map #(str/capitalize (:status %))) frequencies)", data={"t": _table()})
    [step] = [s for s in report.steps if s.call == "map/filter"]
    assert not step.kernel
    assert step.detail == "fn body calls clojure.string/capitalize: not a column expression"
    assert "row by row" in str(report)


def test_explain_nil_falls_back_to_the_rows_error() -> None:
    report = explain("(filter #(> (:amount %) 3) data/t)", data={"t": _table()})
    assert report.error is not None and report.error.message == ">: expected a number, got nil"
    assert report.steps[0].detail == "a nil reaches > (the row path raises) in (> :amount 3)"
    assert str(report).splitlines()[-1] == "the program failed: runtime: >: expected a number, got nil"


def test_explain_without_tables() -> None:
    report = explain("(filter odd? [1 2 3])")
    assert report.steps == () and "nothing to run as a kernel" in str(report)


def test_captured_locals_and_defs_across_runs() -> None:
    data = {"t": _table()}
    r = explain("(let [lo 2] (filter #(> (:qty %) lo) data/t))", data=data)
    assert r.steps[0].kernel and r.steps[0].detail == "(> :qty 2)"
    r = explain("(defn big? [r] (> (:qty r) 4)) (count (filter big? data/t))", data=data)
    assert [s.kernel for s in r.steps] == [True, True] and r.value == 2


def test_limits_hold_in_kernels() -> None:
    t = pa.table({"x": list(range(3000))})
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(count (filter #(> (:x %) 5) data/t))", data={"t": t}, limits=ptc.Limits(max_collection=1000))
    assert e.value.kind == "limit"


def test_caller_table_unchanged() -> None:
    t = _table()
    before = t.to_pylist()
    ptc.run("(->> data/t (filter #(> (:qty %) 1)) (sort-by :qty >) (group-by :status))", data={"t": t})
    assert t.to_pylist() == before


ROW_ONLY = {  # by design: float keys (NaN, -0.0 group as Python does), a map of mixed value types
    "(frequencies (map :amount data/t))", "(distinct (map :amount data/t))",
    "(let [m {\"paid\" 1 \"open\" 2.5}] (map #(m (:status %)) data/t))",
    # and/or over a boolean and another type: false or a number (values of two types)
    "(filter #(nil? (and (:ok %) (:qty %) (:status %))) data/t)", "(filter #(= (or (:ok %) (:qty %)) 3) data/t)",
    # (/ 100 q) is an integer where q divides 100, a float elsewhere: values of two types
    "(map #(if (pos? (:qty %)) (/ 100 (:qty %)) 0) data/t)",
    # vectors holding floats: frequencies of them is the rows' (float keys, as above)
    "(frequencies (map (juxt :status :amount) data/t))",
    # comp of a branch over a computed value: the rows compute it on every row, a branch on some
    "(filter (comp #(when (:ok %) %) #(quot 1 (:qty %))) data/t)",
    # no clause matches some rows: the row path's error
    "(map #(case (:qty %) 1 \"one\" 2.0 \"two\" 3 \"three\") data/t)", "(map #(condp = (:status %) \"paid\" 1 \"open\" 2) data/t)",
    # a text compared with a number: the row path's error
    "(map #(compare (:status %) (:qty %)) data/t)",
}


def test_every_shape_runs_as_kernels_on_clean_data() -> None:
    """The property above would also hold if nothing ran as a kernel: on a table without nils
    every program but ROW_ONLY runs only kernels."""
    t = pa.table({"id": [0, 1, 2, 3], "qty": [1, 4, 4, 7], "amount": [1.5, 2.0, 10.0, 3.25],
                  "status": ["paid", "open", "paid", "void"], "ok": [True, False, True, True],
                  "day": [datetime.date(2024, 1, 5)] * 4})
    for src in PROGRAMS:
        report = explain(src, data={"t": t})
        if src in ROW_ONLY:
            assert report.fallbacks, src
        else:
            assert report.kernels and not report.fallbacks, f"{src}\n{report}"


@pytest.mark.parametrize("src", [
    "(take 5 (sort-by :q > data/t))", "(take 40 (sort-by :q data/t))", "(first (sort-by :f < data/t))",
    "(mapv :i (take 33 (sort-by :f > (filter #(> (:q %) 2) data/t))))",
    "(let [s (sort-by :q > data/t)] [(mapv :i (take 3 s)) (count s) (:i (last s))])",
    # a sort however its order is phrased: of the values themselves, by a fn of them, reversed
    "(take 5 (sort > (map :f data/t)))", "(take 40 (sort (map :q data/t)))", "(take 3 (sort-by - (map :q data/t)))",
    "(mapv :i (take 5 (reverse (sort-by :q data/t))))", "(mapv :i (take 70 (reverse (sort-by :f > data/t))))",
    "(take 5 (reverse (sort (map :q data/t))))", "(take 33 (sort #(compare %2 %1) (map :s data/t)))",
    "(mapv :i (take 5 (sort-by :s #(compare %2 %1) data/t)))", "(take 9 (sort-by #(* 1.0 %) (map :z data/t)))",
    "(take 9 (sort-by #(* -1.0 %) > (map :z data/t)))", "(take 9 (sort (map :z data/t)))",
    "(mapv :i (take 9 (reverse (sort-by :z data/t))))", "(let [s (sort (map :z data/t))] [(nth s 2999) (last s)])",
    "(take 5 (sort (map :n data/t)))", "(take 5 (sort > (keep :n data/t)))", "(take 5 (sort > (map :n data/t)))",
    "(mapv :i (take 5 (reverse (sort-by :n data/t))))", "(let [s (sort > (map :q data/t))] [(vec (take 40 s)) (count s)])",
    "(reduce + (sort (map :z data/t)))", "(last (reverse (map :s data/t)))",
])
def test_top_rows_of_a_sort_match_the_full_sort(src: str) -> None:
    """A sort whose first rows alone are read selects them (top-k) without sorting everything:
    ties keep the table's order as a stable sort does (-0.0 and 0.0 are ties; nils first)."""
    import random

    rnd = random.Random(5)
    n = 6000
    t = pa.table({"i": list(range(n)), "q": [rnd.randint(0, 9) for _ in range(n)],
                  "f": [rnd.choice([0.5, 1.5, 2.25, -1.0]) for _ in range(n)],
                  "z": [rnd.choice([0.0, -0.0, 1.0]) for _ in range(n)],
                  "n": [rnd.choice([None, 3, 1, 2]) for _ in range(n)],
                  "s": [rnd.choice(["b", "a", "é", "ab"]) for _ in range(n)]})
    assert _outcome(src, t) == _outcome(src, t.to_pylist())


@pytest.mark.fuzz
@pytest.mark.parametrize("src", PROGRAMS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_kernels_match_rows_campaign(src: str, table: Any) -> None:
    """The property above with many more tables (run with -m fuzz)."""
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


@pytest.mark.parametrize("vals", [[-0.0], [-0.0, -0.0], [1.0, -1.0], [-0.0, 2.0], [], [0.1, 0.2, 0.3] * 7])
@pytest.mark.parametrize("src", ["(sum-by :a data/t)", "(reduce + 0 (map :a data/t))", "(reduce + -0.0 (map :a data/t))",
                                 "(reduce + (map :a data/t))", "(avg-by :a data/t)",
                                 "(update-vals (group-by :g data/t) #(reduce + (map :a %)))"])
def test_float_sums_add_left_to_right_with_signed_zeros(vals: list[float], src: str) -> None:
    t = pa.table({"a": pa.array(vals, pa.float64()), "g": [i % 2 for i in range(len(vals))]})
    assert _outcome(src, t) == _outcome(src, t.to_pylist())


def test_explain_under_process_isolation_reports_the_steps() -> None:
    src = "(update-vals (group-by :status (filter #(> (:qty %) 1) data/t)) #(sum-by :qty %))"
    r = explain(src, data={"t": _table()}, limits=ptc.Limits(isolation="process"))
    assert [s.call for s in r.steps] == ["filter", "group-by", "update-vals"] and r.kernels == 3
    assert ptc.pr_str(r.value) == ptc.pr_str(ptc.run(src, data={"t": _table()}, limits=ptc.Limits(isolation="process")).value)


def test_decimal_and_float16_columns_compute_as_the_floats_a_program_reads() -> None:
    """One classification of Arrow types (ptc.interpreter.table.arrow_kind): a decimal or a
    float16 column is floats to the converter, the prompt and the kernels alike."""
    import decimal

    import numpy as np

    from ptc.interpreter.table import Table

    t = pa.table({"d": pa.array([decimal.Decimal("1.10"), decimal.Decimal("2.25"), decimal.Decimal("0.10")],
                                pa.decimal128(10, 2)),
                  "h": pa.array(np.array([1.5, 2.0, 3.0], np.float16))})
    assert Table(t).schema_text() == ":d float, :h float"
    rows = [{k.name: v for k, v in r.items()} for r in Table(t)]
    assert rows[0] == {"d": 1.1, "h": 1.5}
    for src in ["(filter #(> (:d %) 2) data/t)", "(map #(* 2 (:h %)) data/t)", "(reduce + (map :d data/t))",
                "(update-vals (group-by #(> (:h %) 1.8) data/t) #(sum-by :d %))"]:
        assert explain(src, data={"t": t}).kernels and not explain(src, data={"t": t}).fallbacks, src
        assert _outcome(src, t) == _outcome(src, rows), src


@pytest.mark.parametrize("tz", [None, "UTC", "America/New_York"])
@pytest.mark.parametrize("method", [".getYear", ".getMonthValue", ".getDayOfMonth", ".getDayOfYear"])
def test_date_parts_of_pandas_datetime64_columns_are_kernels(tz: Any, method: str) -> None:
    """A pandas datetime64 column (Arrow timestamps, naive or in a zone) is a column of dates for
    the date methods: its fields in its own zone, as the row path reads each cell."""
    pd = pytest.importorskip("pandas")
    from ptc.interpreter.columnar.dispatch import rows_only

    df = pd.DataFrame({"t": pd.date_range("2020-03-07 21:00", periods=3000, freq="37min", tz=tz)})
    df.loc[5, "t"] = pd.NaT
    src = f"(update-vals (group-by #(when (:t %) ({method} (:t %))) data/df) count)"
    report = explain(src, data={"df": df})
    assert report.kernels and not report.fallbacks, str(report)
    got = ptc.pr_str(ptc.run(src, data={"df": df}).value)
    with rows_only():
        assert got == ptc.pr_str(ptc.run(src, data={"df": df}).value)


_TEXTS = ["2024-01-05", "2023-12-31", "2020-02-29", "2020-02-30", "2024-1-5", "0000-01-01", "+12024-01-05",
          " 2024-01-05", "2024-01-05T10:00", None]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_TEXTS), max_size=12))
def test_dates_parsed_from_a_text_column_are_the_row_paths(texts: list[Any]) -> None:
    """(LocalDate/parse (:d %)) over a text column is a cast (Arrow's, as strict as Java's ISO
    date); any text the row path refuses makes the kernel fall back to its error."""
    t = pa.table({"d": pa.array(texts, pa.string()), "id": list(range(len(texts)))})
    for src in ["(map #(.getDayOfYear (LocalDate/parse (:d %))) data/t)",
                "(filter #(and (:d %) (.isBefore (LocalDate/parse (:d %)) (LocalDate/parse \"2024-01-01\"))) data/t)",
                "(frequencies (map #(when (:d %) (.getYear (LocalDate/parse (:d %)))) data/t))"]:
        assert _outcome(src, t) == _outcome(src, t.to_pylist()), src


def test_a_date_parse_of_a_clean_text_column_is_a_kernel() -> None:
    t = pa.table({"d": ["2024-01-05", "2023-06-30", "2024-02-29"]})
    report = explain("(update-vals (group-by #(.getMonthValue (LocalDate/parse (:d %))) data/t) count)", data={"t": t})
    assert report.kernels and not report.fallbacks, str(report)
