"""`(map f table)` where f makes a map from each row (assoc, dissoc, select-keys, update,
merge of a map literal, rename-keys, a map literal of the row's values) is a new table
(columnar.derive): the same maps, key for key in the same order, as the row path makes, and
what comes after it (a sort, a filter, a group-by, a count) reads columns."""

from __future__ import annotations

from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
from hypothesis import HealthCheck, given, settings  # noqa: E402

import ptc  # noqa: E402
from ptc.interpreter.columnar.explain import explain  # noqa: E402
from tests.tables.test_group_folds import _outcome, tables  # noqa: E402

PROGRAMS = [
    "(map #(assoc % :w (* 2 (:v %))) data/t)",
    "(->> data/t (map #(assoc % :r (/ (:f %) 2.0))) (sort-by :r) (take 3))",
    "(map #(dissoc % :s) data/t)",
    "(map #(select-keys % [:v :k :zz]) data/t)",
    "(map #(update % :v inc) data/t)",
    "(map #(update % :f (fn [x] (* x x))) data/t)",
    "(map #(update % :v + 10) data/t)",
    "(map (fn [r] {:k (:k r) :twice (* 2 (:v r)) :c 1}) data/t)",
    "(map #(merge % {:v 0 :new \"x\"}) data/t)",
    "(map #(clojure.set/rename-keys % {:v :value :s :k}) data/t)",
    "(map #(-> % (assoc :w (:v %)) (dissoc :k)) data/t)",
    "(map #(let [d (- (:v %) 1)] (assoc % :d d :e (* d d))) data/t)",
    "(->> data/t (filter #(> (:v %) 0)) (map #(assoc % :big (> (:v %) 2))) (group-by :big) (update-vals count))",
    "(->> data/t (map #(assoc % :kk (clojure.string/upper-case (:k %)))) (filter #(= \"A\" (:kk %))) count)",
    "(count (map #(assoc % :tag :x) data/t))",
    "(map #(assoc % :s nil :v 1.5) data/t)",
    "(let [m 2] (->> data/t (map #(assoc % :m (* m (:v %)))) (map :m) (reduce +)))",
    "(->> data/t (map #(select-keys % [:k :f])) (map #(assoc % :g (:f %))) (sort-by :g >) first)",
]


@pytest.mark.parametrize("src", PROGRAMS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_derived_tables_match_rows(src: str, table: Any) -> None:
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


def _clean() -> Any:
    return pa.table({"k": ["a", "b", "a"], "s": ["x", "y", "x"], "v": [1, 2, 3], "f": [1.5, 2.5, 3.5]})


@pytest.mark.parametrize("src", [p for p in PROGRAMS if ":tag :x" not in p])
def test_every_derived_shape_runs_as_a_table(src: str) -> None:
    report = str(explain(src, data={"t": _clean()}))
    assert "kernel  map" in report and " 0 row by row" in report, report


def test_a_derived_table_leaves_as_arrow_with_its_new_column() -> None:
    r = ptc.run("(->> data/t (filter #(> (:v %) 1)) (map #(assoc % :w (* 10 (:v %)))))", data={"t": _clean()})
    arrow = ptc.to_arrow(r.value)
    assert arrow.column_names == ["k", "s", "v", "f", "w"] and arrow.column("w").to_pylist() == [20, 30]


def test_a_derived_table_larger_than_max_memory_ends_with_the_limit() -> None:
    import numpy as np

    t = pa.table({"v": np.arange(2_000_000)})
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(count (map #(assoc % :a (* 2 (:v %)) :b (* 3 (:v %))) data/t))", data={"t": t},
                limits=ptc.Limits(max_memory=24 << 20, max_collection=10_000_000))
    assert e.value.kind == "limit" and "max_memory" in e.value.message, e.value


@pytest.mark.timing
@pytest.mark.parametrize("isolation", ["inline", "process"])
def test_a_derived_table_over_millions_of_rows_ends_at_the_deadline(isolation: str) -> None:
    """Each computed column is one kernel over the rows; the clock is read between them."""
    import time

    import numpy as np

    from tests.tables.test_group_folds import _moving

    t = pa.table({"v": np.arange(4_000_000), "f": np.linspace(0, 1, 4_000_000)})  # 0.15-0.9 s to run
    src = ("(->> data/t (map #(assoc % :a (* 2 (:v %)) :b (+ (:f %) 1.5) :c (* (:f %) (:f %)) :d (- (:v %) 7))) "
           "(sort-by :c >) (take 2))")
    moving = _moving(t, ptc.Limits(isolation=isolation))
    t0 = time.perf_counter()
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"t": t}, limits=ptc.Limits(timeout=0.05, max_collection=10_000_000, max_memory=1 << 30,
                                                     isolation=isolation))
    elapsed = time.perf_counter() - t0
    assert e.value.kind == "limit" and "timeout" in e.value.message, e.value
    assert elapsed < 0.55 + moving, (elapsed, moving)
