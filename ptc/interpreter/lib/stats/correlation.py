"""stats/: covariance and correlation of paired samples (pandas' and scipy's definitions).

The descriptive ones (covariance, correlation, spearman-correlation, kendall-correlation and
the matrices) use the pairs where both values are present, as pandas' Series.corr does;
correlation-test, a test, refuses a missing value instead (see sample.strict).
"""

from __future__ import annotations

from typing import Any

from ...errors import runtime_error
from ...registry import Segmented, alias
from ...values import MAP_TYPES, Keyword, map_items, make_map, vec
from .entry import SCIPY, alpha_of, choice, kernel, keyword_map, options, sides, stat, value

_METHODS = {"pearson": "pearson", "spearman": "spearman", "kendall": "kendall"}


def _pairs(xs: Any, ys: Any, who: str, drop: bool = True) -> Any:
    from . import sample

    return sample.paired(xs, ys, who, drop)


def _pearson(x: Any, y: Any) -> float | None:
    from ...columnar.segments import Segments
    from . import kernels

    return value(kernels.correlation(Segments.one(x, y))[0])


def _coefficient(x: Any, y: Any, method: str) -> float | None:
    """The correlation of paired arrays by method (NaN and nil already left out)."""
    if method == "pearson":
        return _pearson(x, y)
    if len(x) < 2:
        return None
    import numpy as np
    import scipy.stats

    from .budget import RANK, fits

    fits(len(x), f"stats/{method}-correlation", RANK)
    if method == "spearman":
        return _pearson(scipy.stats.rankdata(x), scipy.stats.rankdata(y))
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    return value(scipy.stats.kendalltau(x, y).statistic)


@stat("covariance", args="[xs ys]", segmented=Segmented(2, kernel("covariance")),
      doc="The sample covariance, ddof 1, over the pairs where both are present (pandas' Series.cov, numpy.cov).",
      ex=(("(stats/covariance [1 2 3 4] [2 4 6 9])", "3.8333333333333335"),))
def covariance(xs: Any, ys: Any) -> float | None:
    from ...columnar.segments import Segments
    from . import kernels

    x, y = _pairs(xs, ys, "stats/covariance")
    return value(kernels.covariance(Segments.one(x, y))[0])


@stat("correlation", args="[xs ys]", segmented=Segmented(2, kernel("correlation")),
      doc="Pearson's r over the pairs where both are present (pandas' Series.corr, scipy.stats.pearsonr's "
          "statistic); nil when either has no spread.",
      ex=(("(stats/correlation [1 2 3 4] [2 4 6 9])", "0.9943767126843689"),))
def correlation(xs: Any, ys: Any) -> float | None:
    return _pearson(*_pairs(xs, ys, "stats/correlation"))


@stat("spearman-correlation", args="[xs ys]", needs=SCIPY,
      doc="Spearman's rho, Pearson's r of the average ranks (pandas' corr(method='spearman'), "
          "scipy.stats.spearmanr's statistic).",
      ex=(("(stats/spearman-correlation [1 2 3 4] [1 3 2 4])", "0.8"),))
def spearman_correlation(xs: Any, ys: Any) -> float | None:
    return _coefficient(*_pairs(xs, ys, "stats/spearman-correlation"), "spearman")


@stat("kendall-correlation", args="[xs ys]", needs=SCIPY,
      doc="Kendall's tau-b (scipy.stats.kendalltau's statistic, pandas' corr(method='kendall')).",
      ex=(("(stats/kendall-correlation [1 2 3 4] [1 3 2 4])", "0.6666666666666669"),))
def kendall_correlation(xs: Any, ys: Any) -> float | None:
    return _coefficient(*_pairs(xs, ys, "stats/kendall-correlation"), "kendall")


def _columns(cols: Any, who: str) -> tuple[list[Any] | None, list[Any]]:
    """A matrix's input: a map of name -> column (names kept) or a seq of columns."""
    from . import sample

    if type(cols) in MAP_TYPES:
        pairs = list(map_items(cols))
        return [k for k, _ in pairs], [v for _, v in pairs]
    return None, sample.items(cols, who, "a collection of columns")


def _matrix(cols: Any, who: str, cell: Any) -> Any:
    from ... import context

    names, columns = _columns(cols, who)
    context.check_size(len(columns) ** 2, f"{who}'s matrix")
    rows = []
    for a in columns:
        row = []
        for b in columns:
            context.check_deadline()
            row.append(cell(a, b))
        rows.append(row)
    if names is None:
        return vec(vec(r) for r in rows)
    return make_map([(n, make_map(list(zip(names, r)))) for n, r in zip(names, rows)])


@stat("correlation-matrix", args=("[columns]", "[columns method]"), needs=SCIPY,
      doc="The correlation of every pair of columns (pandas' DataFrame.corr: pairwise-complete); columns: a "
          "vector of columns (gives a vector of rows) or a map of name to column (gives a map of maps); method "
          ":pearson (default) :spearman :kendall.",
      ex=(("(stats/correlation-matrix [[1 2 3] [1 2 4]])", "[[1.0 0.9819805060619659] [0.9819805060619659 1.0]]"),
          ("(get-in (stats/correlation-matrix {:a [1 2 3] :b [3 2 1]}) [:a :b])", "-1.0")))
def correlation_matrix(cols: Any, method: Any = None) -> Any:
    who = "stats/correlation-matrix"
    m = "pearson" if method is None else choice(method, who, "method", _METHODS)
    return _matrix(cols, who, lambda a, b: _coefficient(*_pairs(a, b, who), m))


@stat("covariance-matrix", args="[columns]",
      doc="The covariance (ddof 1) of every pair of columns, pairwise-complete (pandas' DataFrame.cov); "
          "columns as for stats/correlation-matrix.",
      ex=(("(stats/covariance-matrix [[1 2 3] [1 2 4]])", "[[1.0 1.5] [1.5 2.333333333333333]]"),))
def covariance_matrix(cols: Any) -> Any:
    from ...columnar.segments import Segments
    from . import kernels

    who = "stats/covariance-matrix"
    return _matrix(cols, who, lambda a, b: value(kernels.covariance(Segments.one(*_pairs(a, b, who)))[0]))


@stat("correlation-test", args=("[xs ys]", "[xs ys opts]"), needs=SCIPY,
      doc="Whether xs and ys are correlated: {:r :stat :p-value :n :method :sides} with Pearson's test "
          "(scipy.stats.pearsonr, and its :confidence-interval at :alpha 0.05), Spearman's (spearmanr) or "
          "Kendall's (kendalltau) by {:method :spearman}; {:sides :greater} or :less for one side. Every "
          "pair must be complete (a nil or NaN is an error naming how many).",
      ex=(("(:p-value (stats/correlation-test [1 2 3 4 5] [2 4 5 4 5]))", "0.1240270626575546"),))
def correlation_test(xs: Any, ys: Any, opts: Any = None) -> Any:
    import scipy.stats

    from .budget import RANK, fits

    who = "stats/correlation-test"
    o = options(opts, who, ("method", "sides", "alternative", "alpha"))
    method = "pearson" if o.get("method") is None else choice(o["method"], who, "method", _METHODS)
    side = sides(o, who)
    x, y = _pairs(xs, ys, who, drop=False)
    if len(x) < 3 if method != "kendall" else len(x) < 2:
        raise runtime_error(f"{who}: needs at least {2 if method == 'kendall' else 3} pairs, got {len(x)}")
    parts: list[tuple[str, Any]] = []
    if method == "pearson":
        r = scipy.stats.pearsonr(x, y, alternative=side)
        alpha = alpha_of(o, who)
        ci = r.confidence_interval(confidence_level=1 - alpha)
        parts.append(("confidence-interval", vec((value(ci.low), value(ci.high)))))
    elif method == "spearman":
        fits(len(x), who, RANK)
        r = scipy.stats.spearmanr(x, y, alternative=side)
    else:
        fits(len(x), who, RANK)
        r = scipy.stats.kendalltau(x, y, alternative=side)
    stat_ = value(r.statistic)
    return keyword_map([("r", stat_), ("stat", stat_), ("statistic", stat_), ("p-value", value(r.pvalue)),
                        ("n", len(x)), ("method", Keyword(method)), ("sides", Keyword(side)), *parts])


alias("pearson-correlation", "stats/correlation", ns="stats")
