"""Generated samples for the statistics tests, and the comparison with the reference libraries.

A sample is drawn as a recipe (its size, kind, share of nils and NaN, seed) and made by numpy, so
hypothesis explores sizes up to 10,000 without drawing each value: normal floats, integers with
many ties, a constant column, heavy tails, a mixture of scales.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

import ptc

KINDS = ("normal", "ties", "constant", "heavy", "scaled", "shifted")


@st.composite
def recipes(draw: Any, min_size: int = 0, max_size: int = 10_000, missing: bool = True) -> dict[str, Any]:
    return {
        "n": draw(st.one_of(st.integers(min_size, 12), st.integers(min_size, max_size))),
        "kind": draw(st.sampled_from(KINDS)),
        "nils": draw(st.sampled_from([0.0, 0.0, 0.1, 0.5])) if missing else 0.0,
        "nans": draw(st.sampled_from([0.0, 0.0, 0.05])) if missing else 0.0,
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def values(r: dict[str, Any]) -> np.ndarray:
    """The recipe's numbers (before nils and NaN are put in)."""
    rng = np.random.default_rng(r["seed"])
    n, kind = r["n"], r["kind"]
    if kind == "normal":
        return rng.normal(50, 10, n)
    if kind == "ties":
        return rng.integers(-5, 6, n).astype(np.int64)
    if kind == "constant":
        return np.full(n, 7.25)
    if kind == "heavy":
        return rng.standard_t(2, n) * 3
    if kind == "shifted":  # large values with a small spread: an ill-conditioned sum of squares
        return 1e6 + rng.normal(0, 1, n)
    return rng.normal(0, 1, n) * 10.0 ** rng.integers(-3, 4, n)


def make(r: dict[str, Any]) -> list[Any]:
    """The sample as PTC receives it: Python numbers, some nil (None) and some NaN."""
    x = values(r)
    rng = np.random.default_rng(r["seed"] + 1)
    out: list[Any] = x.tolist()
    for i in range(len(out)):
        u = rng.random()
        if u < r["nils"]:
            out[i] = None
        elif u < r["nils"] + r["nans"]:
            out[i] = float("nan")
    return out


def present(xs: list[Any]) -> np.ndarray:
    """What pandas' skipna reads: the numbers, nil and NaN left out."""
    return np.array([x for x in xs if x is not None and not (type(x) is float and math.isnan(x))], dtype=np.float64)


def close(got: Any, want: Any, scale: float = 0.0, rel: float = 1e-9) -> bool:
    """got (a PTC value: nil for no value) agrees with want (NaN for no value) to rel, or to
    rel * scale absolutely (a value near zero computed from large numbers)."""
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return got is None
    if got is None:
        return False
    if isinstance(want, (list, tuple, np.ndarray)):
        return len(got) == len(want) and all(close(g, w, scale, rel) for g, w in zip(got, want))
    if math.isinf(want):
        return got == want
    return abs(got - want) <= rel * max(abs(want), scale) or got == want


def run(src: str, isolated: bool = False, **data: Any) -> Any:
    limits = ptc.Limits(timeout=30, max_result=50_000_000, isolation="process" if isolated else "inline")
    return ptc.to_python(ptc.run(src, data=data, limits=limits).value)
