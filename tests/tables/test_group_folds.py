"""Group bodies run as plans of folds (ptc.interpreter.columnar.folds) give the row path's result.

The same program over a pyarrow Table (folds over columns) and over the same rows as plain
dicts (each group's fn called on its rows) must print the same value or raise the same error,
on generated tables with nils, NaN, -0.0, one-row groups and empty filters; explain must say
the shapes a model writes ran as folds, with no group built."""

from __future__ import annotations

import math
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import ptc  # noqa: E402
from tests.outcome import outcome  # noqa: E402
from ptc.interpreter.columnar.explain import explain  # noqa: E402

HELPERS = (
    "(defn mean [xs] (/ (reduce + xs) (count xs))) "
    "(defn median [xs] (let [s (sort xs) n (count s) m (quot n 2)] "
    "(if (odd? n) (nth s m) (/ (+ (nth s (dec m)) (nth s m)) 2)))) "
    "(defn sd [xs] (let [n (count xs) m (/ (reduce + xs) n)] "
    "(Math/sqrt (/ (reduce + (map #(* (- % m) (- % m)) xs)) (dec n))))) "
)

PROGRAMS = [
    # a reduce whose accumulator map is updated by key: a group-by and a fold (dispatch.reduced_by_key)
    "(reduce (fn [acc r] (update acc (:k r) (fnil + 0) (:v r))) {} data/t)",
    "(reduce (fn [acc r] (update acc (:s r) (fnil + 0.0) (:f r))) {} data/t)",
    "(reduce (fn [m r] (update m (:k r) (fnil inc 0))) {} data/t)",
    "(reduce (fn [m r] (update m [(:k r) (:s r)] (fnil inc 10))) {} data/t)",
    "(let [w 2] (reduce (fn [m r] (update m (:k r) (fnil + 0) (* w (:v r)))) {} data/t))",
    "(reduce (fn [m r] (update m (:k r) (fnil + 0) (:v r))) {\"a\" 100} data/t)",
    "(map (fn [[k g]] {:k k :s (reduce + (map :v g)) :n (count g)}) (group-by :k data/t))",
    "(for [[k g] (group-by :k data/t)] {:k k :s (sum-by :v g) :a (avg-by :f g)})",
    "(update-vals (group-by :k data/t) (fn [g] [(count g) (apply + (map :v g))]))",
    "(update-vals (group-by :k data/t) (fn [g] (/ (reduce + (map :v g)) (count g))))",
    "(for [[k g] (group-by :k data/t)] [k (reduce + (map :f g))])",
    "(into {} (for [[k g] (group-by :k data/t)] [k (reduce + 0 (map :f g))]))",
    "(for [[k g] (group-by :k data/t)] {:k k :r (- (apply max (map :v g)) (apply min (map :v g)))})",
    "(for [[k g] (group-by :k data/t)] {:k k :mx (reduce max (map :f g)) :mn (reduce min (map :f g))})",
    "(for [[k g] (group-by :k data/t)] {:k k :top (take 2 (sort > (map :v g))) :low (take 3 (sort (map :f g)))})",
    "(for [[k g] (group-by :k data/t)] {:k k :first (:v (first g)) :last (last (map :f g)) :s (first (map :s g))})",
    "(for [[k g] (group-by :k data/t)] {:k k :d (count (distinct (map :s g))) :e (count (set (map :v g)))})",
    "(for [[k g] (group-by :k data/t)] {:k k :big (count (filter #(> (:v %) 2) g)) "
    ":small (reduce + (map :v (remove #(> (:v %) 2) g)))})",
    "(for [[k g] (group-by :k data/t)] (let [xs (map :v g) n (count xs)] {:k k :m (/ (reduce + xs) n) "
    ":dev (reduce + (map #(* (- % (/ (reduce + xs) n)) 2) xs))}))",
    HELPERS + "(for [[k g] (group-by :k data/t)] {:k k :mean (mean (map :f g)) :median (median (map :f g)) "
    ":sd (sd (map :f g))})",
    HELPERS + "(map (fn [[k g]] {:k k :median (median (map :v g)) :sd (sd (map :v g))}) (group-by :k data/t))",
    "(for [[[a b] g] (group-by (juxt :k :s) data/t)] {:k a :s b :n (count g) :v (sum-by :v g)})",
    "(map (fn [[k g]] {:a (first k) :b (second k) :f (apply + (map :f g))}) (group-by (juxt :s :k) data/t))",
    "(for [[k g] (group-by :k data/t)] {:k k :x (if (> (count g) 2) (reduce + (map :v g)) 0)})",
    "(for [[k g] (group-by :k data/t)] {:k k :p (Math/pow (reduce + (map :f g)) 2) :q (quot (count g) 2) "
    ":d (double (count g)) :a (abs (- (count g) 3))})",
    "(for [[k g] (group-by :k data/t)] {:k k :m (max (count g) 2) :e (even? (count g))})",
    "(let [lim 2] (for [[k g] (group-by :k data/t)] {:k k :n (count (filter #(> (:v %) lim) g))}))",
    "(->> (group-by :k data/t) (map (fn [[k g]] {:k k :s (reduce + (map :v g))})) (sort-by :s >) (take 2))",
    "(for [[k g] (group-by :k data/t)] {:k k :nth (nth (sort (map :v g)) 1)})",
    "(for [[k g] (group-by :k data/t)] {:k k :nth (nth (sort > (map :f g)) 0)})",
    "(for [[k g] (group-by :k data/t)] {:k k :s (reduce + (map (fn [r] (* (:v r) (:f r))) g))})",
    "(for [[k g] (group-by :k data/t)] {:k k :top (take 2 (sort-by - (map :f g))) :low (first (sort-by - > (map :v g)))})",
    "(for [[k g] (group-by :k data/t)] {:k k :t (take 3 (sort-by #(quot % 3) > (map :v g))) :l (last (sort-by #(quot % 2) (map :v g)))})",
    "(->> data/t (filter #(> (:v %) 0)) (group-by :k) (map (fn [[k g]] (let [m (/ (reduce + (map :v g)) (count g))] "
    "{:k k :m m :d (reduce + (map #(* (- (:v %) m) (- (:v %) m)) g))}))))",
    HELPERS + "(for [[k g] (group-by :k data/t)] (let [xs (map :f g)] "
    "{:k k :v (reduce + (map #(Math/pow (- % (mean xs)) 2) xs)) :w (count (filter #(> % (median xs)) xs))}))",
    # computations from the rows that several folds share (made once: folds._shared_row_values)
    "(for [[k g] (group-by :k data/t)] (let [n (count g) mx (/ (reduce + (map :f g)) n) my (/ (reduce + (map :v g)) "
    "(double n)) sxy (reduce + (map #(* (- (:f %) mx) (- (:v %) my)) g)) sxx (reduce + (map #(* (- (:f %) mx) "
    "(- (:f %) mx)) g))] {:k k :sxy sxy :r (/ sxy (+ sxx 1.0))}))",
    "(for [[k g] (group-by :k data/t)] {:k k :c (reduce + (map #(* (inc (:v %)) (inc (:v %))) g)) "
    ":d (reduce max (map #(inc (:v %)) g)) :q (reduce + (map #(quot 6 (inc (:v %))) (filter #(> (:v %) 0) g)))})",
    # two means each an integer in some groups, a float in others: the plan split by both types at once
    "(for [[k g] (group-by :k data/t)] (let [mx (/ (reduce + (map :v g)) (count g)) my (/ (reduce + (map #(* 2 (:v %)) g)) "
    "(count g))] {:k k :mx mx :my my :a (reduce + (map #(* (- (:v %) mx) (- (:v %) my)) g))}))",
    # keep: map, then the nils left out
    "(update-vals (group-by :k data/t) #(stats/mean (keep :f %)))",
    "(for [[k g] (group-by :k data/t)] [k (reduce + (keep :v g)) (count (keep #(when (> (:v %) 1) (:f %)) g))])",
    HELPERS + "(update-vals (group-by :k data/t) #(median (keep :f %)))",
    # rows sorted by a key, the top n of them, the row with the largest key (ties as the row path breaks them)
    "(update-vals (group-by :k data/t) #(take 2 (sort > (keep :f %))))",
    "(update-vals (group-by :k data/t) #(take 3 (reverse (sort (keep :v %)))))",
    "(update-vals (group-by :k data/t) (fn [g] (->> g (filter :f) (sort-by :f >) (take 2) (map :v))))",
    "(into {} (map (fn [[k g]] [k (map :f (take 2 (sort-by :v > g)))]) (group-by :k data/t)))",
    "(for [[k g] (group-by :k data/t)] [k (map :v (take 2 g)) (:s (first (sort-by :v > g))) (:f (last (sort-by :v g)))])",
    "(update-vals (group-by :k data/t) (fn [g] [(:f (apply max-key :v g)) (:s (apply min-key :v g))]))",
    "(update-vals (group-by :s data/t) (fn [g] [(:k (max-by :f g)) (:v (min-by :v g))]))",
    # reduce-kv and into {} over the groups
    "(reduce-kv (fn [m k g] (assoc m k (count (keep :f g)))) {} (group-by :k data/t))",
    "(reduce-kv (fn [m k g] (assoc m k [(first k) (apply max (map :v g))])) {} (group-by (juxt :k :s) data/t))",
    "(into {} (map (fn [[k g]] [k (apply max (map :v g))]) (group-by :k data/t)))",
    # more reduce fns folding the rows by key (folds.plan_by_key)
    "(reduce (fn [acc {:keys [k v]}] (update acc k (fnil + 0) v)) {} data/t)",
    "(reduce (fn [acc r] (update acc (:k r) (fnil max 0) (:v r))) {} data/t)",
    "(reduce (fn [acc r] (update acc (:s r) (fnil min 100.0) (:f r))) {} data/t)",
    "(reduce (fn [acc r] (update acc (:k r) (fnil conj []) (:f r))) {} data/t)",
    "(reduce (fn [acc r] (assoc acc (:k r) (+ (get acc (:k r) 0) (:v r)))) {} data/t)",
    "(reduce (fn [acc r] (assoc acc (:s r) (inc (acc (:s r) 0)))) {} data/t)",
    "(reduce (fn [acc r] (update acc (:k r) #(if % (inc %) 1))) {} data/t)",
    "(reduce (fn [acc r] (update acc (:s r) (fn [x] (inc (or x 0))))) {} data/t)",
    "(reduce (fn [acc r] (update acc (:k r) (fnil + 0) 1)) {} data/t)",
    "(reduce (fn [acc r] (update acc (:k r) #(if % (+ % (:f r)) (:f r)))) {} data/t)",
    "(reduce (fn [acc r] (update-in acc [(:k r) (:s r)] (fnil + 0) (:v r))) {} data/t)",
    "(reduce (fn [acc {:keys [k f]}] (if f (-> acc (update-in [k :sum] (fnil + 0) f) (update-in [k :n] (fnil inc 0))) "
    "acc)) {} data/t)",
    "(reduce (fn [acc r] (-> acc (update :s + (:v r)) (update :n inc))) {:s 0 :n 0 :z 1} data/t)",
    "(reduce (fn [[s n] r] [(+ s (:v r)) (inc n)]) [0 0] data/t)",
    "(reduce (fn [[s n :as acc] r] (if (:f r) [(+ s (:f r)) (inc n)] acc)) [0.0 0] data/t)",
    "(reduce (fn [n r] (if (some-> (:f r) pos?) (inc n) n)) 0 data/t)",
    "(reduce (fn [acc r] (conj acc (:s r))) [] data/t)",
    # mapv (eager: a computed value is computed on every row, read or not), map over aligned seqs,
    # and into with a map transducer, as the db-benchmark phrasings of bench/h2o.py write them
    "(update-vals (group-by :k data/t) (fn [g] (let [xs (mapv :f g)] [(reduce + xs) (count xs) (nth (sort xs) 0)])))",
    "(for [[k g] (group-by :k data/t)] {:k k :s (reduce + (mapv #(* 2 (:v %)) g)) :m (apply max (mapv :v g))})",
    "(update-vals (group-by :k data/t) (fn [g] (let [xs (mapv #(quot 6 (:v %)) g)] (count g))))",
    "(update-vals (group-by :k data/t) (fn [g] (let [xs (mapv :v g)] (count (mapv #(* 6 %) xs)))))",
    "(update-vals (group-by :k data/t) (fn [g] (reduce + (map * (map :v g) (map :f g)))))",
    "(update-vals (group-by :k data/t) (fn [g] (reduce + (map (fn [a b] (- a b)) (mapv :f g) (mapv :v g)))))",
    "(update-vals (group-by :k data/t) (fn [g] (->> g (mapv :v) sort reverse (take 2))))",
    "(into {} (map (fn [[k g]] [k {:s (reduce + (mapv :v g)) :n (count g)}])) (group-by :k data/t))",
    "(defn mean [xs] (/ (reduce + xs) (double (count xs)))) "
    "(defn sd [xs] (let [m (mean xs) sq (mapv #(Math/pow (- % m) 2) xs)] (Math/sqrt (/ (reduce + sq) (count xs))))) "
    "(defn r2 [xs ys] (let [mx (mean xs) my (mean ys) dx (mapv #(- % mx) xs) dy (mapv #(- % my) ys) "
    "sxy (reduce + (map * dx dy)) sxx (reduce + (map #(* % %) dx)) syy (reduce + (map #(* % %) dy))] "
    "(/ (* sxy sxy) (+ 1.0 (* sxx syy))))) "
    "(update-vals (group-by (juxt :k :s) data/t) (fn [g] [(sd (mapv :f g)) (r2 (mapv :f g) (mapv :v g))]))",
]


@st.composite
def tables(draw: Any, least: int = 0, most: int = 30) -> Any:
    n = draw(st.integers(least, most))
    floats = st.sampled_from([0.0, -0.0, 1.5, 2.0, -3.25, 10.0, 0.1, 0.2, 1e16, math.nan])
    cols = {
        "k": draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n)),
        "s": draw(st.lists(st.one_of(st.none(), st.sampled_from(["x", "y"])), min_size=n, max_size=n)),
        "v": draw(st.lists(st.one_of(st.none(), st.integers(-3, 6)), min_size=n, max_size=n)),
        "f": draw(st.lists(st.one_of(st.none(), floats), min_size=n, max_size=n)),
    }
    if draw(st.booleans()):  # no nils or NaN: the folds that refuse them get to run
        cols["v"] = [1 if x is None else x for x in cols["v"]]
        cols["f"] = [1.0 if x is None or x != x else x for x in cols["f"]]
    schema = pa.schema([("k", pa.string()), ("s", pa.string()), ("v", pa.int64()), ("f", pa.float64())])
    return pa.table(cols, schema=schema)



def _outcome(src: str, data: Any) -> str:
    return outcome(src, data, message=False)


@pytest.mark.parametrize("src", PROGRAMS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_folds_match_rows(src: str, table: Any) -> None:
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


def _on_fold_threads(src: str, table: Any) -> tuple[str, list[int]]:
    """The outcome with the fold threads' threshold lowered to 0 (so small tables take that
    path) and the sizes of the batches of folds handed to them."""
    from ptc.interpreter.columnar import folds, threads

    batches: list[int] = []
    real = folds._each

    def each(batch: Any, fold: Any, rows: int, g: Any) -> Any:
        batches.append(len(batch))
        return real(batch, fold, rows, g)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(threads, "PARALLEL_ROWS", 0)
        mp.setattr(folds, "_each", each)
        return _outcome(src, table), batches


@pytest.mark.parametrize("src", PROGRAMS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(least=1))
def test_folds_on_the_fold_threads_match_rows(src: str, table: Any) -> None:
    """Consecutive folds run at once on two threads over large tables (folds._each)."""
    assert _on_fold_threads(src, table)[0] == _outcome(src, table.to_pylist())


def test_consecutive_folds_are_handed_to_the_fold_threads_together() -> None:
    src = "(for [[k g] (group-by :k data/t)] {:k k :s (sum-by :v g) :a (avg-by :f g)})"
    outcome, batches = _on_fold_threads(src, _clean())
    assert outcome == _outcome(src, _clean().to_pylist()) and batches == [2]


@pytest.mark.parametrize("src", [p for p in PROGRAMS if "(sort" in p])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(least=100, most=300))
def test_sorts_within_large_groups_match_rows(src: str, table: Any) -> None:
    """Groups of 32 rows or more on average are sorted one by one (folds._sorted_segments)."""
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


def _clean() -> Any:
    return pa.table({"k": ["a", "b", "a", "c", "b", "a"], "s": ["x", "y", "x", "x", "y", "y"],
                     "v": [1, 2, 3, 4, 5, 6], "f": [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]})


# an index out of range, and the sd of a one-row group of integers ((/ 0 0)), raise in the row path
ROWS = {PROGRAMS[20], PROGRAMS[28], PROGRAMS[5]}  # and a reduce into a map that is not empty


@pytest.mark.parametrize("src", [p for p in PROGRAMS if p not in ROWS])
def test_every_shape_runs_as_folds_on_clean_data(src: str) -> None:
    report = explain(src, data={"t": _clean()})
    assert "no group built" in str(report), str(report)
    assert _outcome(src, _clean()) == _outcome(src, _clean().to_pylist())


def test_a_computation_folds_share_is_made_once_and_never_out_of_an_if() -> None:
    from ptc.interpreter.columnar.folds import _shared_row_values

    diff = ("op", "-", ("col", "v", None), ("col", "\x00 b1", None))
    steps = [("bcast", "\x00 b1", ("col", "\x00 f0", None)),
             ("fold", "\x00 f2", "sum", ("op", "*", diff, diff), None, None, None),
             ("fold", "\x00 f3", "sum", ("op", "*", diff, ("col", "w", None)), None, None, None)]
    out = _shared_row_values(steps)
    row = ("col", out[1][1], None)
    assert out[1] == ("row", out[1][1], diff) and out[0] == steps[0]
    assert out[2][3] == ("op", "*", row, row) and out[3][3] == ("op", "*", row, ("col", "w", None))
    guarded = ("if", ("op", ">", ("col", "v", None), ("lit", 0)), diff, ("lit", 0))
    kept = [("fold", "\x00 f2", "sum", guarded, None, None, None), ("fold", "\x00 f3", "max", guarded, None, None)]
    assert _shared_row_values(kept) == kept  # on every row it may raise where the row path does not
    filtered = [("fold", "\x00 f2", "sum", diff, ("op", ">", ("col", "v", None), ("lit", 0)), None, None)] * 2
    assert _shared_row_values(filtered) == filtered


def test_explain_says_why_a_body_is_not_a_plan() -> None:
    report = str(explain("(for [[k g] (group-by :k data/t)] {:k k :s (str/capitalize (str/join (map :s g)))})",
                         data={"t": _clean()}))
    assert "clojure.string/capitalize in a group body" in report and "each group is built" in report


def test_sorts_of_floats_with_both_zeros_are_folds_with_ties_in_row_order() -> None:
    """0.0 and -0.0 are equal to sort, compare, < and >: ties a stable sort leaves in row order,
    here as in the row path (the median of delays rounded to whole minutes holds both)."""
    t = pa.table({"k": ["a"] * 6 + ["b"] * 2, "f": [0.0, -0.0, 1.0, -0.0, 0.0, -1.0, -0.0, 0.0]})
    src = ("(update-vals (group-by :k data/t) (fn [g] (let [s (sort (map :f g))] [(take 6 s) (take 4 (sort > (map :f g))) "
           "(nth s 1) (first s) (last s) (:f (apply max-key :f g)) (:f (max-by :f g))])))")
    assert "no group built" in str(explain(src, data={"t": t}))
    assert _outcome(src, t) == _outcome(src, t.to_pylist()) == (
        '{"a" [(-1.0 0.0 -0.0 -0.0 0.0 1.0) (1.0 0.0 -0.0 -0.0) 0.0 -1.0 1.0 1.0 1.0], '
        '"b" [(-0.0 0.0) (-0.0 0.0) 0.0 -0.0 0.0 0.0 -0.0]}')  # max-key: the last of equal keys, max-by the first


@pytest.mark.parametrize("ff, plan", [([0.0, 2.5, 0.0, 1.0], True),  # +0.0 alone: one max, one min
                                      ([0.0, -0.0, 0.0, 1.0], False),  # 0.0 and -0.0: the one met last
                                      ([-0.0, 2.5, -0.0, 1.0], False)])
def test_max_and_min_of_floats_with_zeros(ff: list[float], plan: bool) -> None:
    """A column holding +0.0 is folded (200,000 groups whose floats start at 0.0 were folded one
    group at a time: over 40 s); with -0.0 the groups run one by one, as the row path orders them."""
    t = pa.table({"k": ["a", "a", "b", "b"], "f": ff})
    src = "(for [[k g] (group-by :k data/t)] [k (apply max (map :f g)) (reduce min (map :f g))])"
    report = str(explain(src, data={"t": t}))
    assert ("no group built" in report) == plan, report
    assert ptc.pr_str(ptc.run(src, data={"t": t}).value) == ptc.pr_str(ptc.run(src, data={"t": t.to_pylist()}).value)


@pytest.mark.parametrize("size, kernels", [(2, False), (100, True)])
def test_small_groups_run_one_by_one_are_read_as_rows(size: int, kernels: bool) -> None:
    """A body that is not a plan runs group by group; a group under SMALL_GROUP rows is read row
    by row, not by kernels whose fixed cost is that of thousands of rows (10,000 groups of 2:
    3.1 s -> 0.75 s); the values are the row path's either way."""
    import numpy as np

    v = np.arange(400, dtype=np.float64)
    v[5] = np.nan  # the max of a group holding NaN depends on the order: no plan
    t = pa.table({"id": np.arange(400) // size, "v": v})
    src = "(map (fn [[k rows]] {:k k :s (reduce + (map :v rows)) :m (apply max (map :v rows))}) (group-by :id data/t))"
    report = str(explain(src, data={"t": t}))
    assert ("kernel  reduce +" in report) == kernels, report
    assert ptc.pr_str(ptc.run(src, data={"t": t}).value) == ptc.pr_str(ptc.run(src, data={"t": t.to_pylist()}).value)


def test_results_of_map_literals_stay_columnar() -> None:
    r = ptc.run("(for [[k g] (group-by :k data/t)] {:k k :n (count g) :s (reduce + (map :f g))})",
                data={"t": _clean()})
    table = ptc.to_arrow(r.value)
    assert table.column_names == ["k", "n", "s"] and table.column("n").to_pylist() == [3, 2, 1]
    assert ptc.pr_str(r.value) == '({:k "a", :n 3, :s 11.5} {:k "b", :n 2, :s 8.0} {:k "c", :n 1, :s 4.5})'


def test_a_changed_group_map_is_read_row_by_row() -> None:
    """A program that changed the groups' map (assoc, dissoc) gets the row path, not the folds of the
    groups group-by found."""
    src = ("(let [g (group-by :k data/t) g2 (assoc g \"a\" (get g \"b\"))] "
           "(for [[k rows] g2] [k (count rows)]))")
    assert _outcome(src, _clean()) == '(["a" 2] ["b" 2] ["c" 1])'
    assert "no group built" not in str(explain(src, data={"t": _clean()}))


@pytest.mark.timing
@pytest.mark.parametrize("isolation", ["inline", "process"])
def test_folds_end_at_the_deadline(isolation: str) -> None:
    """700,000 groups of a 1M-row table, inline and in an isolated child: the run ends with
    the limit error by 1.5 s (beyond what sending the table to the child takes, measured)."""
    import numpy as np

    n = 1_000_000
    t = pa.table({"k": np.arange(n) % 700_000, "v": np.arange(n)})
    # memory enough for the 700,000 maps (~400 MB): the clock is the limit this run meets
    limits = ptc.Limits(timeout=1.0, isolation=isolation, max_memory=2 << 30)
    import time

    moving = _moving(t, limits)
    t0 = time.perf_counter()
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(count (for [[k g] (group-by :k data/t)] {:k k :s (reduce + (map :v g)) "
                ":m (apply max (map :v g)) :t (take 2 (sort > (map :v g)))}))", data={"t": t}, limits=limits)
    assert e.value.kind == "limit" and "timeout" in e.value.message, e.value
    elapsed = time.perf_counter() - t0
    assert elapsed < 1.5 + moving, (elapsed, moving)


def _moving(t: Any, limits: Any) -> float:
    """How long a run that only counts the table's rows takes (its transfer to an isolated
    child; nearly nothing inline), once the child has started (once a process): the slower
    of two runs (one transfer of a 64 MB table took 0.37-0.52 s in a row of runs)."""
    import time

    ptc.run("(count data/t)", data={"t": t}, limits=limits)
    took = []
    for _ in range(2):
        t0 = time.perf_counter()
        ptc.run("(count data/t)", data={"t": t}, limits=limits)
        took.append(time.perf_counter() - t0)
    return max(took)


@pytest.mark.timing
@pytest.mark.parametrize("isolation", ["inline", "process"])
@pytest.mark.parametrize("n", [2, 5])  # the top 2 in rounds of minima (folds._top_n), the top 5 by sorting each group
def test_sorting_large_groups_one_by_one_ends_at_the_deadline(isolation: str, n: int) -> None:
    import time

    import numpy as np

    rng = np.random.default_rng(3)
    t = pa.table({"k": rng.integers(0, 20_000, 4_000_000), "v": rng.random(4_000_000)})
    src = f"(count (for [[k g] (group-by :k data/t)] {{:k k :t (take {n} (sort > (map :v g)))}}))"  # 0.14-0.6 s
    moving = _moving(t, ptc.Limits(isolation=isolation))
    t0 = time.perf_counter()
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"t": t}, limits=ptc.Limits(timeout=0.05, max_collection=10_000_000, max_memory=2 << 30,
                                                    isolation=isolation))
    elapsed = time.perf_counter() - t0
    assert e.value.kind == "limit" and "timeout" in e.value.message, e.value
    assert elapsed < 0.55 + moving, (elapsed, moving)


def test_a_fold_over_more_rows_than_max_memory_allows_ends_with_the_limit() -> None:
    import numpy as np

    t = pa.table({"k": np.arange(1_000_000) % 1000, "v": np.arange(1_000_000)})
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(for [[k g] (group-by :k data/t)] {:k k :s (reduce + (map :v g))})", data={"t": t},
                limits=ptc.Limits(max_memory=16 << 20))
    assert e.value.kind == "limit" and "max_memory" in e.value.message


@pytest.mark.parametrize("src", [
    "(count (reduce (fn [acc r] (update acc (:v r) (fnil + 0) (:v r))) {} data/t))",  # 12,000 keys
    "(count (reduce (fn [acc r] (conj acc (:v r))) [] data/t))",  # a vector of every row's
    "(count (reduce (fn [acc r] (update-in acc [(:k r) (:v r)] (fnil inc 0))) {} data/t))",  # 6,000 under a key
    "(count (reduce (fn [acc r] (update acc (:k r) (fnil conj []) (:v r))) {} data/t))",  # no limit on the vectors
])
def test_a_reduce_by_key_beyond_max_collection_ends_as_the_row_path_does(src: str) -> None:
    """An accumulator that would hold more than max_collection items falls back: the row path
    stops with its own limit error, after the same count of items."""
    import numpy as np

    from ptc.interpreter.columnar.dispatch import rows_only

    t = pa.table({"k": ["a", "b"] * 6000, "v": np.arange(12_000)})
    limits = ptc.Limits(max_collection=5000)
    with rows_only():
        rows = outcome(src, t, limits=limits)
    assert outcome(src, t, limits=limits) == rows


def test_a_plan_runs_in_the_child_under_process_isolation() -> None:
    src = HELPERS + "(for [[k g] (group-by :k data/t)] {:k k :median (median (map :f g)) :n (count g)})"
    inline = ptc.run(src, data={"t": _clean()})
    isolated = ptc.run(src, data={"t": _clean()}, limits=ptc.Limits(isolation="process"))
    assert ptc.pr_str(isolated.value) == ptc.pr_str(inline.value) == (
        '({:k "a", :median 3.5, :n 3} {:k "b", :median 4.0, :n 2} {:k "c", :median 4.5, :n 1})')


@pytest.mark.parametrize("src", [
    "(for [[k g] (group-by :k data/t)] {:k k :n (count g) :s (reduce + (map :v g))})",
    "(update-vals (group-by :k data/t) count)",
    "(group-by :k data/t)",
    "(for [[[a b] g] (group-by (juxt :k :v) data/t)] [a b (count g)])",
])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_categorical_and_small_integer_keys_group_as_values_do(src: str, table: Any) -> None:
    """Dictionary-encoded keys (pandas categoricals, Parquet dictionary pages) and integer keys
    of a small range are numbered without hashing: the same groups, in first-seen order."""
    k = pa.chunked_array([c.dictionary_encode() for c in table.column("k").chunks] or [pa.array([], pa.string())])
    if table.num_rows > 2:  # two chunks with different dictionaries
        k = pa.chunked_array([table.column("k").slice(0, 2).combine_chunks().dictionary_encode(),
                              table.column("k").slice(2).combine_chunks().dictionary_encode()])
    categorical = table.set_column(0, "k", k)
    assert _outcome(src, categorical) == _outcome(src, table.to_pylist())


@pytest.mark.parametrize("count", [3, 1 << 16, (1 << 16) + 1, 300_000])
def test_rows_are_put_in_group_order_stably(count: int) -> None:
    """by_group: a radix sort of 16-bit group numbers, in two passes beyond 65,536 groups."""
    import numpy as np

    from ptc.interpreter.columnar.folds import by_group

    codes = np.random.default_rng(count).integers(0, count, 200_000)
    codes[:3] = count - 1  # the highest group number is there
    assert np.array_equal(by_group(codes, count), np.argsort(codes, kind="stable"))


@pytest.mark.parametrize("last", [False, True])
@pytest.mark.parametrize("n", [0, 1, 2, 4])
@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_the_top_n_in_rounds_of_minima_is_the_head_of_each_group_sorted_stably(n: int, dtype: str, last: bool) -> None:
    """folds._top_n: each group's n smallest keys, ties in row order (Clojure's stable sort; with
    `last`, the other way: max-key's last of equal keys), groups without rows (a filter emptied
    them) left empty; None when a key is its mark."""
    import numpy as np

    from ptc.interpreter.columnar.folds import _top_n

    rng = np.random.default_rng(n)
    G = 50
    codes = rng.integers(0, G - 3, 3_000)  # the last three groups have no rows
    keys = rng.integers(-5, 5, 3_000).astype(dtype)  # many ties
    sizes = np.bincount(codes, minlength=G)
    offsets, positions = _top_n(keys, codes, G, n, sizes, last)
    expected = []
    for grp in range(G):
        rows = np.flatnonzero(codes == grp)
        expected.extend(rows[np.lexsort((-rows if last else rows, keys[rows]))][:n].tolist())
    assert positions.tolist() == expected
    assert np.diff(offsets).tolist() == np.minimum(sizes, n).tolist()
    keys[7] = np.iinfo(np.int64).max if dtype == "int64" else np.inf
    assert _top_n(keys, codes, G, n, sizes) is None


@pytest.mark.parametrize("seed", range(4))
def test_texts_encoded_in_two_halves_on_two_threads_are_numbered_as_one_encoding(seed: int) -> None:
    """reduce._encoded: the halves' dictionaries unified give the indices and the first-seen
    order of one dictionary_encode (values only in the second half, values in both)."""
    import numpy as np
    import pyarrow.compute as pc

    from ptc.interpreter.columnar import reduce, threads

    rng = np.random.default_rng(seed)
    x = pa.array([f"v{i}" for i in rng.integers(0, 50, 1_000)] + [f"w{i}" for i in rng.integers(0, 80, 1_000)])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(threads, "PARALLEL_ROWS", 0)
        got = reduce._encoded(x)
    want = pc.dictionary_encode(x)
    assert got.indices.to_pylist() == want.indices.to_pylist()
    assert got.dictionary.to_pylist() == want.dictionary.to_pylist()
