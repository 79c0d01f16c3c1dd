"""stats/ descriptive statistics against pandas, numpy, scipy and scikit-learn, on generated
samples (sizes 0-10,000, nils, NaN, ties, constant, heavy-tailed, ill-conditioned), read from a
vector and from a table's column, inline and (a sample of the cases) isolated."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import scipy.stats
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.preprocessing import MinMaxScaler

from .data import close, make, present, recipes, run

QS = (0.0, 0.1, 0.25, 0.5, 0.9, 1.0)
METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased")

PROGRAM = """
(let [xs %s]
  {:mean (stats/mean xs) :median (stats/median xs) :variance (stats/variance xs)
   :pvariance (stats/population-variance xs) :stddev (stats/stddev xs) :pstddev (stats/population-stddev xs)
   :sem (stats/sem xs) :skew (stats/skewness xs) :g1 (stats/skewness xs :g1) :kurt (stats/kurtosis xs)
   :g2 (stats/kurtosis xs :g2) :pearson-kurt (stats/kurtosis xs :kurt) :iqr (stats/iqr xs) :mode (stats/mode xs)
   :modes (stats/modes xs) :describe (stats/describe xs) :outliers (stats/outliers xs)
   :quantiles (for [m [%s] q [%s]] (stats/quantile xs q m))
   :percentiles (stats/percentiles xs [5 50 95]) :z (stats/standardize xs) :rescaled (stats/rescale xs)
   :rank (stats/rank xs) :rank-min (stats/rank xs :min) :rank-desc (stats/rank xs :average true)
   :hist (stats/histogram xs) :hist-fd (stats/histogram xs :fd)})
""" % ("%s", " ".join(":" + m.replace("_", "-") for m in METHODS), " ".join(map(str, QS)))


def _nan(x: Any) -> float:
    return float("nan") if x is None else x


def _g1(p: np.ndarray) -> float:
    n = len(p)
    if n == 2:  # two values are symmetric about their mean: g1 is 0 (scipy's sums give 1e-7 off 1e6)
        return 0.0 if np.ptp(p) else math.nan
    if n < 2:  # pandas gives no G1 below 3 values: scipy's own
        return scipy.stats.skew(p) if n and np.ptp(p) else math.nan
    return pd.Series(p).skew() * (n - 2) / math.sqrt(n * (n - 1))


def _zscore(p: np.ndarray) -> list[float]:
    """scipy.stats.zscore's definition (ddof 0) computed in exact rationals, one rounding per
    deviation: scipy's own is 6e-8 off for two values 0.002 apart at 1e6."""
    f = [Fraction(float(x)) for x in p]
    mean = sum(f) / len(f)
    d = [x - mean for x in f]
    sd = math.sqrt(sum(x * x for x in d) / len(f))
    return [float(x) / sd for x in d]


def _g2(p: np.ndarray) -> float:
    n = len(p)
    if n <= 3:
        return scipy.stats.kurtosis(p) if n and np.ptp(p) else math.nan
    return (pd.Series(p).kurt() * (n - 2) * (n - 3) / (n - 1) - 6) / (n + 1)


def expected(xs: list[Any]) -> dict[str, Any]:
    """What pandas, numpy, scipy and scikit-learn give for the sample (NaN: no value)."""
    p = present(xs)
    s = pd.Series(p, dtype=np.float64)
    n = len(p)
    ints = n and all(type(x) is int for x in xs if x is not None)
    exact = p.astype(np.int64) if ints else p
    out: dict[str, Any] = {
        "mean": s.mean(), "median": s.median(), "variance": s.var(), "pvariance": s.var(ddof=0),
        "stddev": s.std(), "pstddev": s.std(ddof=0), "sem": s.sem(), "skew": s.skew(), "kurt": s.kurt(),
        # scipy's biased g1, g2 (scipy.stats.skew, kurtosis) from pandas' G1, G2 by their identities:
        # scipy's own sums lose 1e-7 on ill-conditioned data (1e6 plus small values), pandas' do not
        "g1": _g1(p), "g2": _g2(p), "pearson-kurt": _g2(p) + 3,
        "iqr": scipy.stats.iqr(p) if n else math.nan,
        "mode": scipy.stats.mode(exact).mode if n else math.nan,
        "modes": s.mode().tolist(),
        "percentiles": [np.percentile(p, q) if n else math.nan for q in (5, 50, 95)],
        "quantiles": [np.quantile(exact, q, method=m) if n else math.nan for m in METHODS for q in QS],
    }
    d = s.describe()
    out["describe"] = {"count": n, **{k: d[k] for k in ("mean", "std", "min", "25%", "50%", "75%", "max")}}
    if n:
        q1, q3 = np.quantile(p, [0.25, 0.75])
        out["outliers"] = [x for x in p if x < q1 - 1.5 * (q3 - q1) or x > q3 + 1.5 * (q3 - q1)]
    else:
        out["outliers"] = []
    full = np.array([_nan(x) for x in xs], dtype=np.float64)
    ok = ~np.isnan(full)
    z = np.full(len(xs), np.nan)
    r = np.full(len(xs), np.nan)
    if n and np.ptp(p) > 0:
        z[ok] = _zscore(p)
    if n:
        r[ok] = MinMaxScaler().fit_transform(p[:, None])[:, 0]
    out["z"], out["rescaled"] = z, r
    ranked = pd.Series(full)
    out["rank"] = ranked.rank().to_numpy()
    out["rank-min"] = ranked.rank(method="min").to_numpy()
    out["rank-desc"] = ranked.rank(ascending=False).to_numpy()
    if n:  # numpy on the values as the user holds them: integers widen a bin narrower than 1
        out["hist"] = np.histogram(exact, bins=10)
        out["hist-fd"] = np.histogram(exact, bins="fd")
    return out


def check(got: dict[str, Any], xs: list[Any]) -> None:
    want = expected(xs)
    p = present(xs)
    scale = float(np.abs(p).mean()) if len(p) else 0.0
    spread = float(p.std()) if len(p) else 0.0
    for key in ("mean", "median", "iqr", "mode"):
        assert close(got[key], want[key], scale), (key, got[key], want[key])
    for key in ("variance", "pvariance", "stddev", "pstddev", "sem"):
        assert close(got[key], want[key]), (key, got[key], want[key])
    for key in ("skew", "g1", "kurt", "g2", "pearson-kurt"):  # near zero: to 1e-9 absolutely
        assert close(got[key], want[key], 1.0), (key, got[key], want[key])
    assert got["modes"] == pytest.approx(want["modes"], rel=1e-12)
    assert close(got["quantiles"], want["quantiles"], scale), "quantiles"
    assert close(got["percentiles"], want["percentiles"], scale), "percentiles"
    assert got["describe"]["count"] == want["describe"]["count"]
    for k in ("mean", "min", "25%", "50%", "75%", "max"):
        assert close(got["describe"][k], want["describe"][k], scale), k
    assert close(got["describe"]["std"], want["describe"]["std"])
    assert close(got["outliers"], want["outliers"], scale)
    for key in ("z", "rescaled", "rank", "rank-min", "rank-desc"):
        assert close(got[key], want[key].tolist(), 1.0), key
    if len(p):
        for key in ("hist", "hist-fd"):
            counts, edges = want[key]
            assert got[key]["counts"] == counts.tolist(), key
            assert close(got[key]["edges"], edges.tolist(), scale + spread), key
    del spread


def _column(xs: list[Any]) -> pa.Table:
    return pa.table({"v": pa.array(xs, pa.float64())})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(recipes())
def test_descriptive_statistics_give_pandas_and_scipy_answers(r: dict[str, Any]) -> None:
    xs = make(r)
    check(run(PROGRAM % "data/xs", xs=xs), xs)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(recipes())
def test_a_table_column_gives_what_its_values_give(r: dict[str, Any]) -> None:
    """A column is read as the column (no per-row conversion) with the same answers."""
    xs = make(r)
    if r["kind"] == "ties":  # an Arrow float column: the integers arrive as floats
        xs = [None if x is None else float(x) for x in xs]
    assert run(PROGRAM % "(map :v data/t)", t=_column(xs)) == run(PROGRAM % "data/xs", xs=xs)


@pytest.mark.parametrize("kind", ["normal", "ties", "constant", "shifted"])
def test_isolated_runs_give_the_inline_answers(kind: str) -> None:
    xs = make({"n": 500, "kind": kind, "nils": 0.1, "nans": 0.05, "seed": 7})
    inline = run(PROGRAM % "data/xs", xs=xs)
    assert run(PROGRAM % "data/xs", isolated=True, xs=xs) == inline
    check(inline, xs)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=30), st.sampled_from(METHODS), st.floats(0, 1))
def test_every_quantile_method_is_numpys_to_the_bit(xs: list[int], method: str, q: float) -> None:
    """Small integer samples with ties, any q: numpy's quantile exactly, integers kept by the
    methods that pick a value (as numpy keeps the array's dtype)."""
    got = run(f"(stats/quantile data/xs {q!r} :{method.replace('_', '-')})", xs=xs)
    want = np.quantile(np.array(xs), q, method=method)
    assert got == want.item() and type(got) is type(want.item())


def test_weighted_mean_and_positive_means() -> None:
    xs, ws = [1.0, 2.0, None, 4.0], [1, 2, 5, 1]
    assert run("(stats/mean data/xs data/ws)", xs=xs, ws=ws) == pytest.approx(np.average([1, 2, 4], weights=[1, 2, 1]))
    p = [0.5, 2.0, 3.5, 8.0]
    assert run("(stats/geometric-mean data/p)", p=p) == pytest.approx(scipy.stats.gmean(p), rel=1e-12)
    assert run("(stats/harmonic-mean data/p)", p=p) == pytest.approx(scipy.stats.hmean(p), rel=1e-12)


@pytest.mark.parametrize("bins", ["auto", "sturges", "rice", "sqrt", "scott", "fd"])
def test_histogram_methods_are_numpys(bins: str) -> None:
    xs = make({"n": 3000, "kind": "heavy", "nils": 0, "nans": 0, "seed": 3})
    got = run(f"(stats/histogram data/xs :{bins})", xs=xs)
    counts, edges = np.histogram(np.array(xs), bins=bins)
    assert got["counts"] == counts.tolist()
    assert close(got["edges"], edges.tolist(), 1.0, 1e-12)
    assert got["bins"][0] == [got["edges"][0], got["counts"][0]]
