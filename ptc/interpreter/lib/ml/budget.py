"""What a fit or a prediction is estimated to take, and how each runs within the run's limits.

A scikit-learn call cannot be stopped once it runs. A fit that is one call (a tree, least
squares, k-means, a scaler, a neighbours index) is refused before it starts when its estimate
(an upper one: iterations at :max-iter, a tree grown to full depth on noise) exceeds the time
left (context.check_time), or when what it would hold exceeds max_memory. A forest grows in
batches of trees (warm_start: the same trees as one fit with the same seed, tested), a logistic
regression's L-BFGS reads the deadline between iterations (scikit-learn's fit callbacks), and a
prediction runs over pieces of rows (each row's answer is its own): between pieces the deadline
and the process's memory are read, and each next piece is refused when the last one's pace says
it cannot end in time. The rates are seconds measured single-threaded on a 2-core machine
(docs/ml.md, "Limits"), with a margin of 2-5x over the slowest data measured.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ... import context

SLICE = 0.1  # seconds: a piece of rows or a batch of trees, between two reads of the deadline
NODE = 64  # bytes of a tree node (sklearn.tree._tree.NODE_DTYPE), plus 8 per class for its value

FIXED = 0.02  # the least any fit is estimated to take (validation, setup, a first call's imports)
LINEAR = 8e-8  # least squares: per value of X, and LINEAR_GRAM more per value per feature
LINEAR_GRAM = 4e-9
LOGISTIC = 1.5e-8  # L-BFGS: per iteration, per value of X (an intercept column included), per class fitted
TREE = 5e-8  # per row, feature tried, log2(rows) and level grown
# cost relative to gini's
CRITERION = {"entropy": 2.0, "log_loss": 2.0, "squared_error": 1.5, "friedman_mse": 1.5, "poisson": 1.5,
             "absolute_error": 6.0}
KNN_INDEX = 6e-8  # building a neighbours index: per value of X and log2(rows)
KMEANS = 3e-10  # an iteration: per row, cluster and feature, KMEANS_CLUSTER per row and cluster,
KMEANS_CLUSTER = 4e-9  # KMEANS_ROW per row, KMEANS_STEP fixed
KMEANS_ROW = 5e-8
KMEANS_STEP = 3e-4
SEEDING = 1e-8  # k-means++: per row, cluster and log(cluster) candidate, and SEEDING_VALUE per feature
SEEDING_VALUE = 3e-9
SCALE = 4e-8  # a scaler's fit or transform: per value

# a priori seconds per predicted row, to size the first piece (later pieces go at the measured pace)
ROW = 1e-7
ROW_PER_VALUE = 5e-9  # a linear model's or a scaler's: per feature (and class)
ROW_PER_LEVEL = 5e-8  # a tree's: per level of its depth
ROW_PER_NEIGHBOUR = 2e-9  # neighbours (brute force's bound): per fitted row and feature


@dataclass(frozen=True)
class Shape:
    """What a fit's cost depends on: rows, features, classes (1 for a regressor or clusterer)."""

    n: int
    p: int
    c: int = 1


def linear(est: Any, s: Shape) -> float:
    return FIXED + s.n * s.p * (LINEAR + LINEAR_GRAM * s.p)


def iteration(est: Any, s: Shape) -> float:
    """One L-BFGS iteration of a logistic regression (its line search's evaluations included)."""
    return s.n * (s.p + 1) * (1 if s.c <= 2 else s.c) * LOGISTIC


def logistic(est: Any, s: Shape) -> float:
    return FIXED + (est.max_iter + 1) * iteration(est, s)


def features_tried(max_features: Any, p: int) -> int:
    """How many features a tree's split tries (scikit-learn's reading of max_features)."""
    if max_features is None:
        return p
    if max_features == "sqrt":
        return max(1, int(math.sqrt(p)))
    if max_features == "log2":
        return max(1, int(math.log2(p)))
    if isinstance(max_features, float):
        return max(1, int(max_features * p))
    return min(p, int(max_features))


def boot_rows(est: Any, n: int) -> int:
    """The rows each tree of a forest is grown on (max_samples of a bootstrap, else all)."""
    m = getattr(est, "max_samples", None)
    if m is None or not getattr(est, "bootstrap", False):
        return n
    return max(1, round(m * n)) if isinstance(m, float) else min(n, int(m))


def tree(est: Any, s: Shape) -> float:
    """One tree (of a forest: on its bootstrap rows, trying max_features per split)."""
    n = boot_rows(est, s.n)
    depth = math.log2(n + 1)
    if est.max_depth is not None:
        depth = min(depth, est.max_depth)
    factor = CRITERION.get(est.criterion, 1.0) * (1 + s.c / 50)
    return FIXED + n * features_tried(est.max_features, s.p) * math.log2(n + 2) * max(depth, 1) * TREE * factor


def knn(est: Any, s: Shape) -> float:
    return FIXED + s.n * s.p * math.log2(s.n + 2) * KNN_INDEX


def kmeans(est: Any, s: Shape) -> float:
    k = est.n_clusters
    runs = est.n_init if isinstance(est.n_init, int) else (1 if est.init == "k-means++" else 10)
    seeding = s.n * k * (2 + math.log(k)) * (SEEDING + SEEDING_VALUE * s.p) if est.init == "k-means++" else 0.0
    step = s.n * (k * (s.p * KMEANS + KMEANS_CLUSTER) + KMEANS_ROW) + KMEANS_STEP
    return FIXED + runs * (seeding + est.max_iter * step)


def scaler(est: Any, s: Shape) -> float:
    return FIXED + s.n * s.p * SCALE


def leaves(est: Any, n: int) -> int:
    """The most leaves a tree grown on n rows can have (one row at least per leaf, and what
    max_depth, max_leaf_nodes and min_samples_leaf allow)."""
    most = n
    if est.max_depth is not None:
        most = min(most, 2 ** min(est.max_depth, 62))
    if est.max_leaf_nodes is not None:
        most = min(most, est.max_leaf_nodes)
    if isinstance(est.min_samples_leaf, int):
        most = min(most, max(1, n // est.min_samples_leaf))
    return max(1, most)


def tree_bytes(est: Any, s: Shape) -> int:
    """The most a tree holds: 2 x leaves - 1 nodes of NODE bytes and a value per class."""
    return (2 * leaves(est, boot_rows(est, s.n)) - 1) * (NODE + 8 * s.c)


def forest_bytes(est: Any, s: Shape) -> int:
    return est.n_estimators * tree_bytes(est, s)


def knn_bytes(est: Any, s: Shape) -> int:
    return s.n * (16 * s.p + 32)  # its copy of X and y, the index's order and bounds


def small(est: Any, s: Shape) -> int:
    """What a linear model, k-means or a scaler holds: coefficients, centers, one label a row."""
    return 8 * (s.p + 1) * max(s.c, getattr(est, "n_clusters", 1)) + 8 * s.n


def held(obj: Any) -> int:
    """Bytes a fitted estimator holds in its arrays: its trees' nodes and values, a neighbours
    index's data and order, its coefficients... (what session memory counts)."""
    from sklearn.base import BaseEstimator
    from sklearn.neighbors import BallTree, KDTree
    from sklearn.tree._tree import Tree

    if isinstance(obj, np.ndarray):
        return obj.nbytes
    if isinstance(obj, Tree):
        return obj.node_count * NODE + obj.value.nbytes
    if isinstance(obj, (KDTree, BallTree)):
        return sum(a.nbytes for a in obj.get_arrays())
    if isinstance(obj, BaseEstimator):
        return sum(held(v) for v in vars(obj).values())
    if isinstance(obj, (list, tuple)):
        return sum(held(v) for v in obj)
    return 0


def once(est: Any, s: Shape, fit: Callable[[], Any], what: str, cost: Callable[[Any, Shape], float]) -> None:
    """A fit that is one call: refused when its estimate exceeds the time left."""
    context.check_time(cost(est, s), what)
    fit()


def grow(est: Any, s: Shape, fit: Callable[[], Any], what: str, cost: Callable[[Any, Shape], float]) -> None:
    """Fit a forest in batches of trees with warm_start: the first batch one tree, estimated
    (refused when even it cannot end in time), each next one sized to the measured pace and
    refused when it cannot end in time. The out-of-bag score is computed by the first batch (so
    scikit-learn refuses it at once when it cannot be) and the last, over every tree."""
    total, oob = est.n_estimators, est.oob_score
    pace = cost(est, s)
    done, batch = 0, 1
    try:
        while done < total:
            size = min(batch, total - done)
            rest = f" (all {total:,} would take about {pace * total:.2g} s)" if done else ""
            context.check_time(pace * size, f"{what}: trees {done + 1:,}-{done + size:,} of {total:,}{rest}")
            est.set_params(warm_start=True, n_estimators=done + size,
                           oob_score=oob and (done == 0 or done + size == total))
            start = time.monotonic()
            fit()
            pace = (time.monotonic() - start) / size
            done += size
            context.check_memory()
            batch = max(1, int(SLICE / max(pace, 1e-6)))
    finally:
        est.set_params(warm_start=False, n_estimators=total, oob_score=oob)


class _Deadline:
    """A scikit-learn fit callback (sklearn.callback, 1.9+) at each L-BFGS iteration: the next
    iteration is refused when the last one's pace says it cannot end in the time left."""

    def __init__(self, what: str, max_iter: int) -> None:
        self.what, self.max_iter, self.count, self.last = what, max_iter, 0, time.monotonic()

    def setup(self, estimator: Any, context: Any) -> None:
        pass

    def teardown(self, estimator: Any, context: Any) -> None:
        pass

    def on_fit_task_begin(self, estimator: Any, context: Any, **_: Any) -> None:
        pass

    def on_fit_task_end(self, estimator: Any, callback_context: Any, **_: Any) -> None:
        now = time.monotonic()
        self.count += 1
        context.check_time(now - self.last, f"{self.what}: iteration {self.count + 1} of at most {self.max_iter}")
        self.last = now


def iterate(est: Any, s: Shape, fit: Callable[[], Any], what: str, cost: Callable[[Any, Shape], float]) -> None:
    """A logistic regression: with scikit-learn's callbacks (L-BFGS), refused when two iterations
    could not end in time and then between iterations (budget._Deadline); without them, refused
    when :max-iter iterations could not."""
    if not (hasattr(est, "set_callbacks") and est.solver == "lbfgs"):
        once(est, s, fit, what, cost)
        return
    context.check_time(FIXED + 2 * iteration(est, s), f"{what}: its first iterations")
    est.set_callbacks(_Deadline(what, est.max_iter))
    try:
        fit()
    finally:
        est.set_callbacks()


def by_rows(call: Callable[[np.ndarray], np.ndarray], x: np.ndarray, per_row: float, what: str) -> np.ndarray:
    """call(x) over pieces of rows: the first sized by the a priori per_row estimate, each next
    by the pace measured, each refused when it cannot end in time. Few rows are one call."""
    n = len(x)
    parts = []
    done = 0
    while done < n:
        size = min(n - done, max(1, int(SLICE / max(per_row, 1e-9))))
        context.check_time(per_row * size, f"{what}: rows {done + 1:,}-{done + size:,} of {n:,}")
        start = time.monotonic()
        parts.append(call(x[done:done + size]))
        per_row = (time.monotonic() - start) / size
        done += size
        if done < n:
            context.check_memory()
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def predict_row(est: Any) -> float:
    """A priori seconds per predicted row of a fitted estimator (an upper estimate)."""
    if hasattr(est, "estimators_"):
        return ROW + sum(predict_row(e) for e in est.estimators_)
    if hasattr(est, "tree_"):
        return ROW + est.get_depth() * ROW_PER_LEVEL
    p = est.n_features_in_
    if hasattr(est, "n_samples_fit_"):
        return ROW + est.n_samples_fit_ * p * ROW_PER_NEIGHBOUR
    return ROW + p * max(1, getattr(est, "n_clusters", 1), len(getattr(est, "classes_", ()))) * ROW_PER_VALUE
