"""ml/ within the run's timeout, inline and isolated: a fit that is one scikit-learn call is
refused before it starts when it cannot end in time; a forest's batches of trees, a
prediction's pieces of rows and L-BFGS's iterations read the deadline between them. Each ends
with the timeout error within 0.5 s of the deadline (plus, isolated, the data's trip to the
child, which comes before the run's clock)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import ptc

pytestmark = pytest.mark.timing  # wall time: run apart (see README)

TIMEOUT = 1.0
LATE = 0.5


@pytest.fixture(autouse=True)
def inside_a_run() -> Iterator[None]:
    """Not inside one run (tests/lib/conftest.py's): each program here runs with its own clock."""
    yield


def _data(case: str) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    if case == "forest":  # trees of 20,000 rows of noise: ~10 ms each, 100,000 of them
        return {"X": rng.normal(size=(20_000, 5)).tolist(), "y": rng.integers(0, 2, 20_000).tolist()}
    if case == "knn":  # 50,000 rows against 20,000 by brute force: seconds
        return {"X": rng.normal(size=(20_000, 10)).tolist(), "y": rng.integers(0, 2, 20_000).tolist(),
                "T": rng.normal(size=(50_000, 10)).tolist()}
    if case == "logistic":  # 8 separable classes, barely penalised: ~550 L-BFGS iterations, ~5 s
        X = rng.normal(size=(45_000, 20))
        return {"X": X.tolist(), "y": np.argmax(X @ rng.normal(size=(20, 8)), axis=1).tolist()}
    if case == "tree":  # a tree of 30,000 rows of noise by absolute error: ~10 s estimated
        return {"X": rng.normal(size=(30_000, 5)).tolist(), "y": rng.normal(size=30_000).tolist()}
    return {"X": rng.normal(size=(20_000, 5)).tolist()}  # k-means, 500 clusters, 300 iterations at most


CASES = {
    "forest": ("(ml/random-forest-classifier X y {:n-estimators 100000 :max-depth 3 :seed 1})", "trees"),
    "knn": ("(ml/predict (ml/knn-classifier X y {:algorithm :brute}) T)", "rows"),
    "logistic": ("(ml/logistic-regression X y {:C 1e10 :max-iter 100000 :tol 0.0})", ""),
    "tree": ("(ml/decision-tree-regressor X y {:criterion :absolute-error})", "would take about"),
    "kmeans": ("(ml/kmeans X {:k 500 :seed 1})", "would take about"),
}


def _elapsed(src: str, data: dict[str, Any], limits: ptc.Limits) -> tuple[float, ptc.PTCError | None]:
    start = time.monotonic()
    try:
        ptc.run(src, data=data, limits=limits)
    except ptc.PTCError as e:
        return time.monotonic() - start, e
    return time.monotonic() - start, None


@pytest.mark.parametrize("isolation", ["inline", "process"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_long_fit_or_prediction_ends_by_the_deadline(case: str, isolation: str) -> None:
    src, said = CASES[case]
    data = _data(case)
    limits = ptc.Limits(timeout=TIMEOUT, isolation=isolation)
    ptc.run("(ml/kmeans [[1] [2]] {:k 1})", limits=limits)  # scikit-learn imported (the zygote's, isolated)
    baseline, _ = _elapsed("nil", data, limits)  # the data's conversion and trip to the child
    elapsed, error = _elapsed(src, data, limits)
    assert error is not None and error.kind == "limit" and "timeout" in error.message, error
    assert said in error.message, error.message
    assert elapsed <= TIMEOUT + LATE + baseline, (elapsed, baseline, error.message)
    if said == "would take about":  # refused before it starts, once X is read: before the deadline
        assert "and the run has" in error.message and elapsed < TIMEOUT + baseline, (elapsed, baseline)
