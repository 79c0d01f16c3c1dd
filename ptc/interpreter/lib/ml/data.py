"""What a model reads: X as a float matrix, y as labels (a classifier's) or numbers (a regressor's).

X is stats/sample.py's design matrix: a collection of rows, each a vector of numbers, or a
vector of numbers meaning one feature (or a map of name -> column, whose names the model
keeps). Labels are handed to scikit-learn as what Python would hand it for the same values:
numbers as numbers, strings as strings, keywords as their names, booleans as booleans, so its
classes (np.unique's order) and every seeded draw that depends on them are the ones a Python
program gets; its answers come back as the PTC values they stand for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import runtime_error
from ...values import MAP_TYPES, SEQUENTIAL_TYPES, Keyword, iter_seq, map_keys, short, type_name, vec
from ..stats import sample

_KINDS = {int: "number", float: "number", str: "string", Keyword: "keyword", bool: "boolean"}
_INCOMPLETE = ("drop incomplete rows from X and y together first, e.g. "
               "(filter (fn [[x y]] (and (every? some? x) (some? y))) (map vector xs ys))")


def features(X: Any, who: str, width: int | None = None,
             names: list[Any] | None = None) -> tuple[np.ndarray, list[Any] | None]:
    """X as an n x p float matrix and its column names (given as a map of columns). A fitted
    model's width (and names, when both have them, in order, as scikit-learn requires) must match."""
    first = next(iter(iter_seq(X, who)), None) if type(X) in SEQUENTIAL_TYPES else None
    if type(first) in MAP_TYPES:
        keys = " ".join(short(k) for k in list(map_keys(first))[:3])
        raise runtime_error(f"{who}: X's rows must be vectors of numbers, got a map {short(first)}",
                            hint=f"make each row a vector of its features: (map (juxt {keys}) rows)")
    x, got = sample.matrix(X, who, "X")
    n, p = x.shape
    if n == 0 or p == 0:
        raise runtime_error(f"{who}: X has no {'rows' if n == 0 else 'features'}",
                            hint="X is a collection of rows, each a vector of numbers: [[1.0 2.0] [3.0 4.0]]")
    if width is not None and p != width:
        raise runtime_error(f"{who}: X has {plural(p, 'feature')} per row, the model was fitted on {width}",
                            hint="one row is a vector inside X: (ml/predict m [[5.1 3.5 1.4 0.2]])"
                            if p == 1 else "give the rows the features the model was fitted on, in that order")
    if names is not None and got is not None and list(got) != list(names):
        raise runtime_error(f"{who}: X's columns are {short(vec(got))}, the model was fitted on {short(vec(names))}",
                            hint="scikit-learn requires the same feature names in the same order")
    return x, got


def plural(n: int, what: str) -> str:
    return f"{n:,} {what}{'s' * (n != 1)}"


@dataclass(frozen=True)
class Labels:
    """Labels as scikit-learn is given them (`values`) and what kind of PTC value they were."""

    values: np.ndarray
    kind: str  # "number", "string", "keyword" or "boolean"

    def back(self, xs: np.ndarray) -> list[Any]:
        """scikit-learn's labels (classes, predictions) as the PTC values they stand for."""
        out = xs.tolist()
        return [Keyword(s) for s in out] if self.kind == "keyword" else out


def labels(coll: Any, who: str, what: str = "y") -> Labels:
    """A collection of labels, all of one kind; nil or NaN is an error saying how many, and the fix."""
    xs = sample.items(coll, who, what)
    kinds = set(map(type, xs))
    missing = sum(1 for x in xs if x is None or (type(x) is float and math.isnan(x))) \
        if type(None) in kinds or float in kinds else 0
    if missing:
        raise runtime_error(f"{who}: {missing} of {len(xs)} values of {what} are nil or NaN", hint=_INCOMPLETE)
    named = {_KINDS.get(t) for t in kinds}
    if None in named:
        bad = next(x for x in xs if type(x) not in _KINDS)
        raise runtime_error(f"{who}: {what} must hold labels (numbers, strings, keywords or booleans), "
                            f"got {type_name(bad)} {short(bad)}")
    if len(named) > 1:
        raise runtime_error(f"{who}: {what} mixes {' and '.join(sorted(k + 's' for k in named))}",
                            hint="labels are all of one kind: (map name ys) makes keywords strings")
    kind = named.pop() if named else "number"
    if kind == "keyword":
        xs = [k.name for k in xs]
    try:
        values = np.asarray(xs) if xs else np.empty(0, dtype=np.int64)
    except OverflowError:
        raise runtime_error(f"{who}: a label of {what} is an integer too large for scikit-learn") from None
    if values.dtype == object:  # integers beyond int64 (numpy keeps Python ints)
        raise runtime_error(f"{who}: a label of {what} is an integer too large for scikit-learn")
    return Labels(values, kind)


def label(x: Any, who: str, what: str) -> Any:
    """One label given as an option (:pos-label, a class weight's key): as scikit-learn is given it."""
    if type(x) is Keyword:
        return x.name
    if type(x) in _KINDS:
        return x
    raise runtime_error(f"{who}: {what} must be a label (a number, string, keyword or boolean), got {short(x)}")


def same_kind(a: Labels, b: Labels, who: str, what: str = "y-true and y-pred") -> None:
    """Two label collections compared by scikit-learn must be of one kind (it refuses a mix)."""
    if a.kind != b.kind and len(a.values) and len(b.values):
        raise runtime_error(f"{who}: {what} are labels of two kinds ({a.kind}s and {b.kind}s)",
                            hint="compare labels of one kind: (map name ys) makes keywords strings")


def targets(coll: Any, who: str, what: str = "y") -> np.ndarray:
    """A regressor's numbers; nil or NaN is an error saying how many, and the fix."""
    first = next((x for x in iter_seq(coll, who) if x is not None), None) if type(coll) in SEQUENTIAL_TYPES else None
    if first is not None and type(first) not in (int, float):
        raise runtime_error(f"{who}: {what} must be numbers, got {type_name(first)} {short(first)}",
                            hint="labels are predicted by a classifier: ml/logistic-regression, "
                                 "ml/random-forest-classifier, ml/knn-classifier...")
    y, present = sample.aligned(coll, who)
    if not present.all():
        raise runtime_error(f"{who}: {int((~present).sum())} of {len(y)} values of {what} are nil or NaN",
                            hint=_INCOMPLETE)
    return y
