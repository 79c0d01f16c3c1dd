"""A stats/ call in a group body is a fold of the table engine (its entry's segmented kernel):
the same program over a pyarrow Table and over the same rows as plain maps gives the same
printed value, bit for bit, or the same error; explain says no group was built; and the
answers are pandas' groupby's."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ptc
from tests.outcome import outcome
from ptc.interpreter.columnar.explain import explain

from .data import close

PROGRAMS = [
    "(update-vals (group-by :k data/t) #(stats/median (map :f %)))",
    "(update-vals (group-by :k data/t) (fn [g] (stats/stddev (map :v g))))",
    "(for [[k g] (group-by :k data/t)] {:k k :q (stats/quantile (map :f g) 0.9) :lo (stats/quantile (map :v g) 0.5 :lower)})",
    "(into {} (for [[k g] (group-by :k data/t)] [k (stats/mean (map :f g))]))",
    "(map (fn [[k g]] {:k k :var (stats/variance (map :f g)) :pvar (stats/population-variance (map :v g))}) "
    "(group-by :k data/t))",
    "(for [[k g] (group-by :k data/t)] {:k k :r (stats/correlation (map :f g) (map :v g)) "
    ":c (stats/covariance (map :v g) (map :f g))})",
    "(for [[k g] (group-by :k data/t)] {:k k :skew (stats/skewness (map :f g)) :kurt (stats/kurtosis (map :v g)) "
    ":g1 (stats/skewness (map :v g) :g1)})",
    "(update-vals (group-by :k data/t) (fn [g] {:mode (stats/mode (map :v g)) :iqr (stats/iqr (map :f g)) "
    ":sem (stats/sem (map :f g))}))",
    "(let [q 0.25] (update-vals (group-by :k data/t) #(stats/quantile (map :f %) q)))",
    "(for [[k g] (group-by :k data/t)] {:k k :p90 (stats/percentile (map :v g) 90) "
    ":m (stats/median (map :v (filter #(> (:f %) 1) g)))})",
    "(require '[fastmath.stats :as s]) (update-vals (group-by :k data/t) #(s/stddev (map :f %)))",
    "(defn spread [xs] (- (stats/quantile xs 0.75) (stats/quantile xs 0.25))) "
    "(update-vals (group-by :k data/t) #(spread (map :f %)))",
    "(for [[k g] (group-by :k data/t)] (let [xs (map :f g)] {:k k :z (/ (- (stats/mean xs) (stats/median xs)) "
    "(+ 1.0 (or (stats/stddev xs) 0.0)))}))",
    "(->> (group-by :k data/t) (map (fn [[k g]] {:k k :m (stats/median (map :f g))})) (sort-by :k))",
    "(update-vals (group-by :k data/t) #(stats/mean (map :s %)))",  # strings: the row path's error
]


@st.composite
def tables(draw: Any, least: int = 0, most: int = 40) -> Any:
    n = draw(st.integers(least, most))
    floats = st.sampled_from([0.0, -0.0, 1.5, 2.0, -3.25, 10.0, 0.1, 0.2, 1e16, 7.0, math.nan])
    cols = {
        "k": draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=n, max_size=n)),
        "s": draw(st.lists(st.one_of(st.none(), st.sampled_from(["x", "y"])), min_size=n, max_size=n)),
        "v": draw(st.lists(st.one_of(st.none(), st.integers(-3, 6), st.just(2**60)), min_size=n, max_size=n)),
        "f": draw(st.lists(st.one_of(st.none(), floats), min_size=n, max_size=n)),
    }
    if draw(st.booleans()):
        cols["v"] = [1 if x is None or x == 2**60 else x for x in cols["v"]]
    schema = pa.schema([("k", pa.string()), ("s", pa.string()), ("v", pa.int64()), ("f", pa.float64())])
    return pa.table(cols, schema=schema)


_outcome = outcome


@pytest.mark.parametrize("src", PROGRAMS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_statistics_folded_give_the_row_paths_bits(src: str, table: Any) -> None:
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


@pytest.mark.parametrize("src", PROGRAMS[:6])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(least=200, most=600))
def test_large_groups_give_the_row_paths_bits(src: str, table: Any) -> None:
    """Groups of more than 64 rows are read as columns in the row path too."""
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


def _clean(n: int = 3000, groups: int = 7) -> pa.Table:
    rng = np.random.default_rng(1)
    return pa.table({"k": rng.integers(0, groups, n).astype(str), "s": ["x"] * n,
                     "v": rng.integers(-50, 50, n), "f": rng.normal(10, 3, n)})


@pytest.mark.parametrize("src", PROGRAMS[:-1])
def test_every_phrasing_runs_as_folds(src: str) -> None:
    report = str(explain(src, data={"t": _clean()}))
    assert "no group built" in report and "row by row" not in report.split("\n", 1)[1], report


def test_many_small_groups_are_sorted_together() -> None:
    """100,000 groups of a few rows: one sort of all the values, then by group (segments.sort_within)."""
    t = _clean(300_000, 100_000)
    src = "(update-vals (group-by :k data/t) #(stats/median (map :f %)))"
    limits = ptc.Limits(timeout=30, max_result=10_000_000)
    got = ptc.run(src, data={"t": t}, limits=limits).value
    want = t.to_pandas().groupby("k")["f"].median()
    assert all(got[k] == want[k] for k in want.index[:2000])


def test_answers_are_pandas_groupbys() -> None:
    t = _clean(20_000, 12)
    df = t.to_pandas()
    gb = df.groupby("k")
    src = ("(for [[k g] (group-by :k data/t)] {:k k :median (stats/median (map :f g)) :sd (stats/stddev (map :f g)) "
           ":q (stats/quantile (map :f g) 0.3) :mean (stats/mean (map :v g)) :var (stats/variance (map :v g)) "
           ":skew (stats/skewness (map :f g)) :kurt (stats/kurtosis (map :f g)) :r (stats/correlation (map :f g) (map :v g))})")
    rows = ptc.to_python(ptc.run(src, data={"t": t}).value)
    want = {"median": gb["f"].median(), "sd": gb["f"].std(), "q": gb["f"].quantile(0.3), "mean": gb["v"].mean(),
            "var": gb["v"].var(), "skew": gb["f"].skew(), "kurt": gb["f"].apply(pd.Series.kurt),
            "r": gb.apply(lambda g: g["f"].corr(g["v"]), include_groups=False)}
    for row in rows:
        for key, series in want.items():
            assert close(row[key], float(series[row["k"]]), 1.0), (key, row[key], series[row["k"]])
