"""stats/: descriptive statistics, with pandas' and numpy's definitions and defaults.

Each takes a collection of numbers (a table's column stays a column) and leaves nil and NaN
out, as pandas' skipna does; where pandas gives NaN (too few values, no spread) the answer is
nil. The statistics of one value per sequence are kernels of lib/stats/kernels.py, declared
`segmented` on their entries, so a group body calling them is a fold of the table engine.
"""

from __future__ import annotations

from typing import Any

from ...errors import runtime_error
from ...registry import Segmented, alias
from ...values import Keyword, vec
from .entry import SCIPY, choice, floats, kernel, keyword_map, picked, stat, value

# quantile methods: numpy's names (dashed) and fastmath's (Hyndman & Fan's r1..r9, :legacy)
_METHODS = {
    "linear": "linear", "lower": "lower", "higher": "higher", "midpoint": "midpoint", "nearest": "nearest",
    "inverted-cdf": "inverted_cdf", "averaged-inverted-cdf": "averaged_inverted_cdf",
    "closest-observation": "closest_observation", "interpolated-inverted-cdf": "interpolated_inverted_cdf",
    "hazen": "hazen", "weibull": "weibull", "median-unbiased": "median_unbiased", "normal-unbiased": "normal_unbiased",
    "r1": "inverted_cdf", "r2": "averaged_inverted_cdf", "r3": "closest_observation",
    "r4": "interpolated_inverted_cdf", "r5": "hazen", "r6": "weibull", "r7": "linear", "r8": "median_unbiased",
    "r9": "normal_unbiased", "legacy": "weibull",
}


# the kernels that sort the values (the others make a few passes over them)
_SORTING = frozenset({"median", "quantile", "iqr", "mode"})


def _read(coll: Any, who: str, per_value: float) -> Any:
    """coll's sample, refused first if the call could not end in the time left (budget)."""
    from . import budget, sample

    s = sample.read(coll, who)
    budget.fits(len(s.values), who, per_value)
    return s


def _one(name: str, coll: Any, who: str, *args: Any) -> Any:
    """Kernel `name` of one sequence: its one segment's value, and the sample."""
    from ...columnar.segments import Segments
    from . import budget, kernels

    s = _read(coll, who, budget.SORT if name in _SORTING else budget.LINEAR)
    return getattr(kernels, name)(Segments.one(s.values, integral=s.integral), *args)[0], s


def _of(name: str, coll: Any, who: str, *args: Any) -> float | None:
    return value(_one(name, coll, who, *args)[0])


@stat("mean", args=("[xs]", "[xs weights]"), segmented=Segmented(1, kernel("mean")),
      doc="The mean of the numbers, nil and NaN left out (pandas' Series.mean); with weights, the weighted "
          "mean over the pairs where both are present (numpy.average). nil when there are none.",
      ex=(("(stats/mean [1 2 3 4])", "2.5"), ("(stats/mean [1 nil 3])", "2.0"), ("(stats/mean [])", "nil"),
          ("(stats/mean [1 2 3] [3 1 0])", "1.25")))
def mean(xs: Any, weights: Any = None) -> float | None:
    if weights is None:
        return _of("mean", xs, "stats/mean")
    from . import sample

    x, w = sample.paired(xs, weights, "stats/mean", drop=True)
    total = float(w.sum()) if len(w) else 0.0
    if total == 0:
        return None
    return value((x * w).sum() / total)


@stat("median", args="[xs]", segmented=Segmented(1, kernel("median")),
      doc="The middle value, or the mean of the middle pair (numpy.median, pandas' Series.median); "
          "nil and NaN left out.",
      ex=(("(stats/median [3 1 2])", "2.0"), ("(stats/median [1 2 3 4])", "2.5"), ("(stats/median [])", "nil")))
def median(xs: Any) -> float | None:
    return _of("median", xs, "stats/median")


def _q(q: Any, who: str, scale: float = 1.0) -> float:
    from . import sample

    x = sample.number(q, who, "the quantile" if scale == 1.0 else "the percentile") / scale
    if not 0.0 <= x <= 1.0:
        raise runtime_error(f"{who}: {'quantiles' if scale == 1.0 else 'percentiles'} must be between 0 and "
                            f"{'1' if scale == 1.0 else '100'}, got {q}")
    return x


def _method(method: Any, who: str) -> str:
    return "linear" if method is None else choice(method, who, "method", _METHODS)


def _quantile_kernel(scale: float, who: str) -> Any:
    def run(segments: Any, q: Any, method: Any = None) -> Any:
        from . import kernels

        return kernels.quantile(segments, _q(q, who, scale), _method(method, who))
    return run


def _picks(q: Any, method: Any = None) -> bool:
    from . import kernels

    return method is not None and _METHODS.get(getattr(method, "name", method)) in kernels.PICKING


def _quantile(xs: Any, q: Any, method: Any, who: str, scale: float) -> Any:
    m = _method(method, who)
    r, s = _one("quantile", xs, who, _q(q, who, scale), m)
    return picked(r, s.integral) if _picks(q, method) else value(r)


@stat("quantile", args=("[xs q]", "[xs q method]"), segmented=Segmented(1, _quantile_kernel(1.0, "stats/quantile"), _picks),
      doc="The q-th quantile (0 <= q <= 1), linear between order statistics by default (numpy.quantile, "
          "pandas' Series.quantile); method: one of numpy's (:linear :lower :higher :midpoint :nearest "
          ":inverted-cdf :averaged-inverted-cdf :closest-observation :interpolated-inverted-cdf :hazen "
          ":weibull :median-unbiased :normal-unbiased) or Hyndman & Fan's :r1..:r9 (:legacy is fastmath's "
          "default, :r6).",
      ex=(("(stats/quantile (range 1 11) 0.25)", "3.25"), ("(stats/quantile (range 1 11) 0.25 :legacy)", "2.75"),
          ("(stats/quantile [1 2 3 4] 0.5 :lower)", "2")))
def quantile(xs: Any, q: Any, method: Any = None) -> Any:
    return _quantile(xs, q, method, "stats/quantile", 1.0)


@stat("percentile", args=("[xs p]", "[xs p method]"),
      segmented=Segmented(1, _quantile_kernel(100.0, "stats/percentile"), _picks),
      doc="The p-th percentile (0 <= p <= 100): (stats/quantile xs (/ p 100)) (numpy.percentile).",
      ex=(("(stats/percentile (range 1 11) 90)", "9.1"),))
def percentile(xs: Any, p: Any, method: Any = None) -> Any:
    return _quantile(xs, p, method, "stats/percentile", 100.0)


def _many(xs: Any, qs: Any, method: Any, who: str, scale: float) -> Any:
    from ...columnar.segments import Segments
    from . import budget, kernels, sample

    if qs is None:
        qs = [0.25, 0.5, 0.75] if scale == 1.0 else [25, 50, 75]
    ps = [_q(q, who, scale) for q in sample.items(qs, who, "the quantiles")]
    m = _method(method, who)
    s = _read(xs, who, budget.SORT)
    seg = Segments.one(s.values, integral=s.integral)
    picks = m in kernels.PICKING
    return vec(picked(r, s.integral) if picks else value(r) for r in (kernels.quantile(seg, p, m)[0] for p in ps))


@stat("quantiles", args=("[xs]", "[xs qs]", "[xs qs method]"),
      doc="The quantiles at each of qs (default [0.25 0.5 0.75]) as a vector, as stats/quantile.",
      ex=(("(stats/quantiles (range 1 11))", "[3.25 5.5 7.75]"), ("(stats/quantiles [1 2 3 4] [0 1])", "[1.0 4.0]")))
def quantiles(xs: Any, qs: Any = None, method: Any = None) -> Any:
    return _many(xs, qs, method, "stats/quantiles", 1.0)


@stat("percentiles", args=("[xs]", "[xs ps]", "[xs ps method]"),
      doc="The percentiles at each of ps (default [25 50 75]) as a vector, as stats/percentile.",
      ex=(("(stats/percentiles (range 1 11) [10 90])", "[1.9 9.1]"),))
def percentiles(xs: Any, ps: Any = None, method: Any = None) -> Any:
    return _many(xs, ps, method, "stats/percentiles", 100.0)


@stat("iqr", args="[xs]", segmented=Segmented(1, kernel("iqr")),
      doc="The interquartile range, the linear 75th percentile less the 25th (scipy.stats.iqr).",
      ex=(("(stats/iqr (range 1 11))", "4.5"),))
def iqr(xs: Any) -> float | None:
    return _of("iqr", xs, "stats/iqr")


@stat("mode", args="[xs]", segmented=Segmented(1, kernel("mode"), True),
      doc="The most frequent value, the smallest of those tied (scipy.stats.mode); nil for none.",
      ex=(("(stats/mode [1 2 2 3 3])", "2"), ("(stats/mode [1.5 1.5 2.0])", "1.5")))
def mode(xs: Any) -> Any:
    r, s = _one("mode", xs, "stats/mode")
    return picked(r, s.integral)


@stat("modes", args="[xs]",
      doc="Every most frequent value, ascending (pandas' Series.mode).",
      ex=(("(stats/modes [1 2 2 3 3])", "[2 3]"), ("(stats/modes [])", "[]")))
def modes(xs: Any) -> Any:
    import numpy as np

    from . import budget

    s = _read(xs, "stats/modes", budget.SORT)
    if not len(s.values):
        return vec(())
    values, counts = np.unique(s.values + 0.0, return_counts=True)
    return vec(picked(x, s.integral) for x in values[counts == counts.max()])


def _ddof_kernel(name: str, ddof: int) -> Any:
    def run(segments: Any) -> Any:
        from . import kernels

        return getattr(kernels, name)(segments, ddof)
    run.__name__ = f"{name}_{ddof}"
    return run


@stat("variance", args="[xs]", segmented=Segmented(1, _ddof_kernel("variance", 1)),
      doc="The sample variance, n - 1 in the denominator (pandas' Series.var, ddof 1); nil below 2 values.",
      ex=(("(stats/variance [2 4 4 4 5 5 7 9])", "4.571428571428571"), ("(stats/variance [1])", "nil")))
def variance(xs: Any) -> float | None:
    return _of("variance", xs, "stats/variance", 1)


@stat("population-variance", args="[xs]", segmented=Segmented(1, _ddof_kernel("variance", 0)),
      doc="The population variance, n in the denominator (numpy.var, ddof 0).",
      ex=(("(stats/population-variance [2 4 4 4 5 5 7 9])", "4.0"),))
def population_variance(xs: Any) -> float | None:
    return _of("variance", xs, "stats/population-variance", 0)


@stat("stddev", args="[xs]", segmented=Segmented(1, _ddof_kernel("stddev", 1)),
      doc="The sample standard deviation, ddof 1 (pandas' Series.std); nil below 2 values.",
      ex=(("(stats/stddev [2 4 4 4 5 5 7 9])", "2.138089935299395"),))
def stddev(xs: Any) -> float | None:
    return _of("stddev", xs, "stats/stddev", 1)


@stat("population-stddev", args="[xs]", segmented=Segmented(1, _ddof_kernel("stddev", 0)),
      doc="The population standard deviation, ddof 0 (numpy.std).",
      ex=(("(stats/population-stddev [2 4 4 4 5 5 7 9])", "2.0"),))
def population_stddev(xs: Any) -> float | None:
    return _of("stddev", xs, "stats/population-stddev", 0)


@stat("sem", args="[xs]", segmented=Segmented(1, kernel("sem")),
      doc="The standard error of the mean, the sample standard deviation over the square root of n "
          "(pandas' Series.sem, scipy.stats.sem).",
      ex=(("(stats/sem [2 4 4 4 5 5 7 9])", "0.7559289460184544"),))
def sem(xs: Any) -> float | None:
    return _of("sem", xs, "stats/sem")


_SKEW = {"G1": "G1", "g1": "g1", "pearson": "g1", "bias": "g1"}
_KURT = {"G2": "G2", "g2": "g2", "excess": "g2", "kurt": "kurt", "bias": "g2"}


def _kind_kernel(name: str, kinds: dict[str, str], default: str) -> Any:
    def run(segments: Any, kind: Any = None) -> Any:
        from . import kernels

        return getattr(kernels, name)(segments, default if kind is None else choice(kind, f"stats/{name}", "kind",
                                                                                     kinds))
    run.__name__ = name
    return run


@stat("skewness", args=("[xs]", "[xs kind]"), segmented=Segmented(1, _kind_kernel("skewness", _SKEW, "G1")),
      doc="The skewness: by default G1, the adjusted Fisher-Pearson coefficient (pandas' Series.skew); "
          ":g1 (also :pearson) the biased one (scipy.stats.skew). nil without spread, and for G1 below 3 values.",
      ex=(("(stats/skewness [1 2 2 3 9 11 15])", "0.7380596310613938"),
          ("(stats/skewness [1 2 2 3 9 11 15] :g1)", "0.5694253677227936")))
def skewness(xs: Any, kind: Any = None) -> float | None:
    k = "G1" if kind is None else choice(kind, "stats/skewness", "kind", _SKEW)
    return _of("skewness", xs, "stats/skewness", k)


@stat("kurtosis", args=("[xs]", "[xs kind]"), segmented=Segmented(1, _kind_kernel("kurtosis", _KURT, "G2")),
      doc="The excess kurtosis: by default G2, bias-corrected (pandas' Series.kurt); :g2 (also :excess) the "
          "biased one (scipy.stats.kurtosis); :kurt that plus 3 (scipy's fisher=False). nil without spread, "
          "and for G2 below 4 values.",
      ex=(("(stats/kurtosis [1 2 2 3 9 11 15])", "-1.206985467532177"),
          ("(stats/kurtosis [1 2 2 3 9 11 15] :g2)", "-1.25291061147174")))
def kurtosis(xs: Any, kind: Any = None) -> float | None:
    k = "G2" if kind is None else choice(kind, "stats/kurtosis", "kind", _KURT)
    return _of("kurtosis", xs, "stats/kurtosis", k)


@stat("geometric-mean", args="[xs]", needs=SCIPY,
      doc="The geometric mean of positive numbers (scipy.stats.gmean); nil and NaN left out.",
      ex=(("(stats/geometric-mean [1 4 16])", "4.0"),))
def geometric_mean(xs: Any) -> float | None:
    return _positive_mean(xs, "stats/geometric-mean", "gmean")


@stat("harmonic-mean", args="[xs]", needs=SCIPY,
      doc="The harmonic mean of positive numbers (scipy.stats.hmean); nil and NaN left out.",
      ex=(("(stats/harmonic-mean [1 4 4])", "2.0"),))
def harmonic_mean(xs: Any) -> float | None:
    return _positive_mean(xs, "stats/harmonic-mean", "hmean")


def _positive_mean(xs: Any, who: str, fn: str) -> float | None:
    import scipy.stats

    from . import sample

    s = sample.read(xs, who)
    if not len(s.values):
        return None
    if (s.values <= 0).any():
        raise runtime_error(f"{who}: every value must be positive, got {picked(s.values[s.values <= 0][0], s.integral)}",
                            hint="these means are defined for positive numbers only")
    return value(getattr(scipy.stats, fn)(s.values))


@stat("describe", args="[xs]",
      doc="pandas' Series.describe: {:count :mean :std :min :25% :50% :75% :max} (std with ddof 1, "
          "linear quartiles); nil and NaN left out.",
      ex=(("(stats/describe [1 2 3 4])", "{:count 4, :mean 2.5, :std 1.2909944487358056, :min 1.0, :25% 1.75, "
                                         ":50% 2.5, :75% 3.25, :max 4.0}"),))
def describe(xs: Any) -> Any:
    from ...columnar.segments import Segments
    from . import budget, kernels

    s = _read(xs, "stats/describe", budget.SORT)
    seg = Segments.one(s.values)
    empty = not len(s.values)
    parts = [("count", len(s.values)), ("mean", value(kernels.mean(seg)[0])), ("std", value(kernels.stddev(seg)[0])),
             ("min", None if empty else value(s.values.min()))]
    parts += [(f"{int(q * 100)}%", value(kernels.quantile(seg, q)[0])) for q in (0.25, 0.5, 0.75)]
    parts.append(("max", None if empty else value(s.values.max())))
    return keyword_map(parts)


@stat("outliers", args=("[xs]", "[xs k]"),
      doc="The values outside the fences Q1 - k*IQR and Q3 + k*IQR (k 1.5; linear quartiles, as pandas' "
          "quantile), in their order.",
      ex=(("(stats/outliers [1 2 3 4 5 100])", "[100]"), ("(stats/outliers [1 2 3 4 5 100] 100)", "[]")))
def outliers(xs: Any, k: Any = 1.5) -> Any:
    from ...columnar.segments import Segments
    from . import budget, kernels, sample

    s = _read(xs, "stats/outliers", budget.SORT)
    width = sample.number(k, "stats/outliers", "k")
    seg = Segments.one(s.values)
    q1, q3 = kernels.quantile(seg, 0.25)[0], kernels.quantile(seg, 0.75)[0]
    if not len(s.values):
        return vec(())
    lo, hi = q1 - width * (q3 - q1), q3 + width * (q3 - q1)
    return vec(picked(x, s.integral) for x in s.values[(s.values < lo) | (s.values > hi)])


@stat("standardize", args="[xs]",
      doc="The z-scores (x - mean) / sd with the population sd, ddof 0 (scipy.stats.zscore, scikit-learn's "
          "StandardScaler); nil stays nil in its place, and every score is nil without spread.",
      ex=(("(stats/standardize [1 2 3])", "[-1.224744871391589 0.0 1.224744871391589]"),
          ("(stats/standardize [1 nil 3])", "[-1.0 nil 1.0]")))
def standardize(xs: Any) -> Any:
    import numpy as np

    from ...columnar.segments import Segments
    from . import kernels, sample

    x, ok = sample.aligned(xs, "stats/standardize")
    seg = Segments.one(x[ok])
    sd = kernels.stddev(seg, 0)[0]
    out = np.full(len(x), np.nan)
    if sd > 0:  # the deviations corrected by their own mean: 1e6 plus small values keep their digits
        out[ok] = kernels.deviations(seg) / sd
    return floats(out)


@stat("rescale", args=("[xs]", "[xs lo hi]"),
      doc="The values mapped linearly onto [lo hi], by default [0 1] (scikit-learn's MinMaxScaler); nil stays "
          "nil in its place; without spread every value is lo.",
      ex=(("(stats/rescale [1 2 3])", "[0.0 0.5 1.0]"), ("(stats/rescale [1 2 3] -1 1)", "[-1.0 0.0 1.0]")))
def rescale(xs: Any, lo: Any = 0.0, hi: Any = 1.0) -> Any:
    import numpy as np

    from . import sample

    x, ok = sample.aligned(xs, "stats/rescale")
    a, b = sample.number(lo, "stats/rescale", "lo"), sample.number(hi, "stats/rescale", "hi")
    out = np.full(len(x), np.nan)
    if ok.any():
        present = x[ok]
        low, span = present.min(), present.max() - present.min()
        scale = (b - a) / (span if span != 0 else 1.0)
        out[ok] = present * scale + (a - low * scale)
    return floats(out)


_RANKS = {"average": "average", "min": "min", "max": "max", "dense": "dense", "first": "ordinal",
          "ordinal": "ordinal"}


@stat("rank", args=("[xs]", "[xs method]", "[xs method descending?]"), needs=SCIPY,
      doc="Each value's rank from 1, ties given their average rank by default (pandas' Series.rank, "
          "scipy.stats.rankdata); method :average :min :max :dense :first; nil stays nil in its place.",
      ex=(("(stats/rank [10 20 20 30])", "[1.0 2.5 2.5 4.0]"), ("(stats/rank [10 20 20 30] :min)", "[1.0 2.0 2.0 4.0]"),
          ("(stats/rank [10 20 30] :average true)", "[3.0 2.0 1.0]")))
def rank(xs: Any, method: Any = None, descending: Any = False) -> Any:
    import numpy as np
    import scipy.stats

    from . import budget, sample

    how = "average" if method is None else choice(method, "stats/rank", "method", _RANKS)
    x, ok = sample.aligned(xs, "stats/rank")
    budget.fits(len(x), "stats/rank", budget.RANK)
    out = np.full(len(x), np.nan)
    if ok.any():
        present = x[ok]
        out[ok] = scipy.stats.rankdata(-present if descending not in (False, None) else present, method=how)
    return floats(out)


_BINS = {"auto": "auto", "fd": "fd", "freedman-diaconis": "fd", "scott": "scott", "sturges": "sturges",
         "rice": "rice", "sqrt": "sqrt"}


def _bin_count(x: Any, method: str, integral: bool) -> int:
    """numpy.histogram's number of equal bins for a named method (its estimators' widths, from
    numpy's _hist_bin_selectors), worked out before any edge is made: a width near zero must not
    become a billion bins unnoticed."""
    import numpy as np

    n = len(x)
    if not n:
        return 1
    span = float(x.max() - x.min())
    q75, q25 = np.percentile(x, [75, 25])
    fd = 2.0 * (q75 - q25) * n ** (-1.0 / 3.0)
    sturges, sqrt = span / (np.log2(n) + 1.0), span / np.sqrt(n)
    width = {"fd": fd, "sturges": sturges, "sqrt": sqrt, "rice": span / (2.0 * n ** (1.0 / 3)),
             "scott": (24.0 * np.pi ** 0.5 / n) ** (1.0 / 3.0) * np.std(x),
             "auto": min(max(fd, sqrt / 2), sturges)}[method]
    if not width:
        return 1
    if integral and width < 1:
        width = 1
    return int(np.ceil((span if span else 1.0) / width))


@stat("histogram", args=("[xs]", "[xs bins]"),
      doc="Counts in equal-width bins from the least to the greatest value, the last bin closed "
          "(numpy.histogram); bins: a count (default 10), a vector of edges, or a method :auto :fd "
          "(:freedman-diaconis) :scott :sturges :rice :sqrt. Gives {:counts :edges :bins [[lo count] ...] "
          ":bins-maps [{:min :max :count} ...]}.",
      ex=(("(:counts (stats/histogram [1 2 2 3 3 3] 3))", "[1 2 3]"),
          ("(:edges (stats/histogram [0 10] 2))", "[0.0 5.0 10.0]")))
def histogram(xs: Any, bins: Any = 10) -> Any:
    import numpy as np

    from ... import context
    from . import budget, sample

    who = "stats/histogram"
    s = _read(xs, who, budget.SORT)
    x = s.values
    if type(bins) is Keyword or type(bins) is str:
        count = _bin_count(x, choice(bins, who, "method", _BINS), s.integral)
        context.check_size(count, "histogram bins")
        edges_arg: Any = count
    elif type(bins) is int:
        if bins < 1:
            raise runtime_error(f"{who}: the number of bins must be at least 1, got {bins}")
        context.check_size(bins, "histogram bins")
        edges_arg = bins
    else:
        edges = sample.of_items(sample.items(bins, who, "the edges"), who, "the edges").values
        if len(edges) < 2 or (np.diff(edges) <= 0).any():
            raise runtime_error(f"{who}: edges must be at least two increasing numbers")
        edges_arg = edges
    if not len(x) and not isinstance(edges_arg, np.ndarray):
        counts, edges = np.zeros(edges_arg, np.int64), np.linspace(0.0, 1.0, edges_arg + 1)
    else:
        counts, edges = np.histogram(x, bins=edges_arg)
    c, e = counts.tolist(), edges.tolist()
    return keyword_map([
        ("counts", vec(c)), ("edges", vec(e)), ("bins", vec(vec((e[i], c[i])) for i in range(len(c)))),
        ("bins-maps", vec(keyword_map([("min", e[i]), ("max", e[i + 1]), ("count", c[i])]) for i in range(len(c)))),
    ])


alias("zscore", "stats/standardize", ns="stats")
