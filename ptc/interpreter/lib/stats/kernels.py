"""The statistics themselves, each computed for every segment at once (columnar.segments).

A call on one sequence runs its kernel on one segment; a group body the table engine folds
runs it on a segment per group: one definition, the same bits on both paths. Each kernel gives
a float per segment, NaN where the statistic has no value (too few values, no spread), which
the library shows as nil (pandas gives NaN there).

The definitions are pandas' and numpy's: sums of each segment's values in row order, central
moments from the deviations about the mean corrected by their own mean (the two-pass algorithm
with its correction term: ill-conditioned data, 1e10 plus small integers, keeps its digits as
pandas' own kernels do), quantiles by numpy's nine Hyndman & Fan methods and its
interpolation, the median as numpy's mean of the middle pair.
"""

from __future__ import annotations

import numpy as np

from ...columnar.segments import Segments

# -- moments -------------------------------------------------------------------------------------


def mean(s: Segments) -> np.ndarray:
    """pandas' Series.mean."""
    return s.means(s.values)


def deviations(s: Segments, x: np.ndarray | None = None) -> np.ndarray:
    """x (laid out as the values) minus its segment's mean, corrected by the deviations' own
    mean (which is what rounding left in the first mean)."""
    x = s.values if x is None else x
    d = x - s.spread(s.means(x))
    return d - s.spread(np.nan_to_num(s.means(d)))


def _undefined_where(out: np.ndarray, where: np.ndarray) -> np.ndarray:
    out[where] = np.nan
    return out


def _centred(s: Segments, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x's deviations from its segment's mean, and each segment's sum of them (what rounding
    left in the mean, which the corrected two-pass formulas take out)."""
    d = x - s.spread(s.means(x))
    return d, s.sums(d)


def _products(s: Segments, a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Each segment's sum of products of two centred columns by Chan, Golub and LeVeque's
    corrected two-pass formula: the deviations' sum of products less the product of their sums over n."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return s.sums(a[0] * b[0]) - np.nan_to_num(a[1] * b[1] / s.sizes)


def _squares(s: Segments, x: np.ndarray) -> np.ndarray:
    c = _centred(s, x)
    return _products(s, c, c)


def variance(s: Segments, ddof: int = 1) -> np.ndarray:
    """pandas' Series.var(ddof): NaN for ddof values or fewer."""
    n = s.sizes
    with np.errstate(invalid="ignore", divide="ignore"):
        return _undefined_where(_squares(s, s.values) / (n - ddof), n <= ddof)


def stddev(s: Segments, ddof: int = 1) -> np.ndarray:
    """pandas' Series.std(ddof)."""
    return np.sqrt(variance(s, ddof))


def sem(s: Segments) -> np.ndarray:
    """pandas' Series.sem (ddof 1): the standard deviation over the square root of the count."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return stddev(s) / np.sqrt(s.sizes)


def _moments(s: Segments, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each segment's sums of squared and k-th powers of the deviations."""
    d = deviations(s)
    d2 = d * d
    return s.sums(d2), s.sums(d2 * d if k == 3 else d2 * d2)


def skewness(s: Segments, kind: str = "G1") -> np.ndarray:
    """G1, the adjusted Fisher-Pearson coefficient (pandas' Series.skew), or g1, the biased
    one (scipy.stats.skew); NaN without spread, and for G1 below 3 values."""
    m2, m3 = _moments(s, 3)
    n = s.sizes.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        if kind == "G1":
            out = (n * (n - 1) ** 0.5 / (n - 2)) * (m3 / m2 ** 1.5)
            return _undefined_where(out, (n < 3) | (m2 == 0))
        out = (m3 / n) / (m2 / n) ** 1.5
        out[n == 2] = 0.0  # two values are symmetric about their mean (their deviations' rounding is not)
        return _undefined_where(out, m2 == 0)


def kurtosis(s: Segments, kind: str = "G2") -> np.ndarray:
    """Excess kurtosis: G2, bias-corrected (pandas' Series.kurt), or g2, biased
    (scipy.stats.kurtosis), or g2 + 3 (kind "kurt": scipy's fisher=False); NaN without spread,
    and for G2 below 4 values."""
    m2, m4 = _moments(s, 4)
    n = s.sizes.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        if kind == "G2":
            adj = 3 * (n - 1) ** 2 / ((n - 2) * (n - 3))
            out = n * (n + 1) * (n - 1) * m4 / ((n - 2) * (n - 3) * m2 ** 2) - adj
            return _undefined_where(out, (n < 4) | (m2 == 0))
        out = (m4 / n) / (m2 / n) ** 2 - (3.0 if kind == "g2" else 0.0)
        return _undefined_where(out, m2 == 0)


def covariance(s: Segments) -> np.ndarray:
    """pandas' Series.cov (ddof 1) of the values and the paired column."""
    assert s.second is not None
    n = s.sizes
    with np.errstate(invalid="ignore", divide="ignore"):
        return _undefined_where(_products(s, _centred(s, s.values), _centred(s, s.second)) / (n - 1), n < 2)


def correlation(s: Segments) -> np.ndarray:
    """Pearson's r of the values and the paired column (pandas' Series.corr), in [-1, 1];
    NaN below 2 pairs or when either has no spread."""
    assert s.second is not None
    cx, cy = _centred(s, s.values), _centred(s, s.second)
    sxx, syy = _products(s, cx, cx), _products(s, cy, cy)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = _products(s, cx, cy) / np.sqrt(sxx * syy)
    return _undefined_where(np.clip(r, -1.0, 1.0), (s.sizes < 2) | (sxx <= 0) | (syy <= 0))


# -- order statistics --------------------------------------------------------------------------

# numpy.quantile's methods (Hyndman & Fan's nine and numpy's four others): how the virtual
# index of quantile q in n sorted values is found, from numpy's _QuantileMethods
_CONTINUOUS = {  # alpha, beta of H&F's (n + 1 - alpha - beta) q + alpha - 1
    "interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
    "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0),
}
METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", *_CONTINUOUS)
# the methods that pick one of the values (the answer is an integer when the values are)
PICKING = frozenset({"lower", "higher", "nearest", "inverted_cdf", "closest_observation"})


def _discrete(index: np.ndarray, take_previous: np.ndarray) -> np.ndarray:
    previous = np.floor(index)
    out = np.where(take_previous, previous, previous + 1).astype(np.intp)
    out[out < 0] = 0
    return out


def _picked_index(n: np.ndarray, q: float, method: str) -> np.ndarray:
    """The index of the value the discrete methods take."""
    if method == "lower":
        return np.floor((n - 1) * q).astype(np.intp)
    if method == "higher":
        return np.ceil((n - 1) * q).astype(np.intp)
    if method == "nearest":
        return np.around((n - 1) * q).astype(np.intp)
    if method == "inverted_cdf":
        index = n * q - 1
        return _discrete(index, (index - np.floor(index)) == 0)
    index = n * q - 1 - 0.5  # closest_observation: the nearest even order statistic at g = 0
    return _discrete(index, ((index - np.floor(index)) == 0) & (np.floor(index) % 2 == 1))


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """numpy's interpolation between neighbours: from the nearer end, so t = 1 gives b exactly."""
    diff = b - a
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)


def quantile(s: Segments, q: float, method: str = "linear") -> np.ndarray:
    """numpy.quantile(values, q, method) of each segment (Series.quantile for linear, lower,
    higher, midpoint and nearest); NaN for an empty segment."""
    (x, starts), n = s.sorted(), s.sizes
    out = np.full(len(n), np.nan)
    full = n > 0
    if not full.any():
        return out
    starts, nf = starts[full], n[full].astype(np.float64)
    last = nf.astype(np.intp) - 1
    if method in PICKING:
        out[full] = x[starts + np.clip(_picked_index(nf, q, method), 0, last)]
        return out
    if method == "linear":
        virtual = (nf - 1) * q
    elif method == "midpoint":
        virtual = 0.5 * (np.floor((nf - 1) * q) + np.ceil((nf - 1) * q))
    elif method == "averaged_inverted_cdf":
        virtual = nf * q - 1
    else:
        alpha, beta = _CONTINUOUS[method]
        virtual = nf * q + (alpha + q * (1 - alpha - beta)) - 1
    previous = np.floor(virtual)
    gamma = virtual - previous
    if method == "midpoint":
        gamma = np.where(virtual % 1 == 0, 0.0, 0.5)
    elif method == "averaged_inverted_cdf":
        gamma = np.where(gamma == 0, 0.5, 1.0)
    lo = np.clip(previous.astype(np.intp), 0, last)
    hi = np.clip(previous.astype(np.intp) + 1, 0, last)
    above, below = virtual >= nf - 1, virtual < 0
    lo = np.where(above, last, np.where(below, 0, lo))
    hi = np.where(above, last, np.where(below, 0, hi))
    out[full] = _lerp(x[starts + lo], x[starts + hi], gamma)
    return out


def median(s: Segments) -> np.ndarray:
    """numpy.median (pandas' Series.median): the middle value, or the mean of the middle pair."""
    (x, starts), n = s.sorted(), s.sizes
    out = np.full(len(n), np.nan)
    full = n > 0
    starts, nf = starts[full], n[full]
    lo, hi = x[starts + (nf - 1) // 2], x[starts + nf // 2]
    out[full] = np.where(nf % 2 == 1, lo, (lo + hi) / 2)
    return out


def iqr(s: Segments) -> np.ndarray:
    """scipy.stats.iqr: the linear 75th percentile less the 25th."""
    return quantile(s, 0.75) - quantile(s, 0.25)


def mode(s: Segments) -> np.ndarray:
    """scipy.stats.mode: the most frequent value, the smallest of those tied; NaN for none."""
    (x, starts), n = s.sorted(), s.sizes
    out = np.full(len(n), np.nan)
    if not len(x):
        return out
    first = np.ones(len(x), bool)  # where a run of equal values begins (segments begin runs too)
    first[1:] = x[1:] != x[:-1]
    first[starts[n > 0]] = True
    run_starts = np.flatnonzero(first)
    run_len = np.diff(np.append(run_starts, len(x)))
    run_seg = np.repeat(np.arange(len(n), dtype=np.intp), n)[run_starts]
    best = np.zeros(len(n), np.int64)
    np.maximum.at(best, run_seg, run_len)
    top = np.flatnonzero(run_len == best[run_seg])
    segs, at = np.unique(run_seg[top], return_index=True)  # the first (smallest) tied run
    out[segs] = x[run_starts[top[at]]]
    return out
