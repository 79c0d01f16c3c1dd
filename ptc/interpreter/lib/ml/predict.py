"""ml/: what a fitted model gives: predictions, class probabilities, transformed rows, its score.

Each is the fitted estimator's own method (predict, predict_proba, transform), run over pieces
of rows when many rows would take long (budget.by_rows: a row's answer depends on that row
alone), and score is scikit-learn's: accuracy for a classifier, R² for a regressor (what
`est.score` computes from the same predictions), minus the inertia for k-means.
"""

from __future__ import annotations

from typing import Any

from ... import context
from ...errors import runtime_error
from ...values import Keyword, vec
from .entry import calling, ml
from .value import Model, fitted

_X = "; X is a collection of rows of numbers, one row per prediction (as the model was fitted on)"
_INSTEAD = {"predict": "(ml/transform m X)", "transform": "(ml/predict m X)", "predict_proba": "(ml/predict m X)",
            "score": "ml/score on a classifier, regressor or k-means"}


def _kind(m: Model) -> str:
    return m.fields[Keyword("type")].name


def _over_rows(m: Model, X: Any, method: str, who: str) -> Any:
    """m's estimator's method over X's rows (pieces of them, each answer an array), or the error
    saying the model has no such method."""
    import numpy as np

    from . import budget, data

    est = m.estimator
    if not hasattr(est, method):
        raise runtime_error(f"{who}: a {_kind(m)} model has no {method.replace('_', '-')}",
                            hint=f"use {_INSTEAD[method]}")
    x, _ = data.features(X, who, width=est.n_features_in_, names=m.names)
    call = getattr(est, method)
    with calling(who):
        out = budget.by_rows(lambda rows: np.atleast_1d(call(rows)), x, budget.predict_row(est), who)
    context.check_size(out.size, f"{who}'s value")
    return out


def _labels_or_numbers(m: Model, out: Any) -> Any:
    return vec(m.labels.back(out) if m.labels is not None else out.tolist())


@ml("predict", args="[model X]",
    doc="The model's predictions for the rows of X (scikit-learn's est.predict): labels of (:classes m) for a "
        "classifier, numbers for a regressor, the nearest center's index for k-means" + _X + ".",
    ex=(("(ml/predict (ml/decision-tree-classifier [[0] [1] [2] [3]] [:a :a :b :b]) [[0.4] [2.6]])", "[:a :b]"),
        ("(ml/predict (ml/linear-regression [[1] [2] [3]] [1 2 3]) [[10]])", "[9.999999999999998]")))
def predict(model: Any, X: Any) -> Any:
    m = fitted(model, "ml/predict")
    return _labels_or_numbers(m, _over_rows(m, X, "predict", "ml/predict"))


@ml("predict-proba", args="[model X]",
    doc="A classifier's class probabilities for the rows of X (scikit-learn's est.predict_proba): a vector per "
        "row, one probability per class in the order of (:classes m)" + _X + ".",
    ex=(("(ml/predict-proba (ml/knn-classifier [[0] [1] [2] [9]] [:a :a :b :b] {:k 2}) [[0.2] [8]])",
         "[[1.0 0.0] [0.0 1.0]]"),))
def predict_proba(model: Any, X: Any) -> Any:
    from .models import rows

    m = fitted(model, "ml/predict-proba")
    return rows(_over_rows(m, X, "predict_proba", "ml/predict-proba"))


@ml("transform", args="[model X]",
    doc="The rows of X transformed by a fitted scaler (scikit-learn's est.transform: standardized or rescaled "
        "values), or for k-means each row's distances to the centers" + _X + ".",
    ex=(("(ml/transform (ml/min-max-scaler [[0 10] [10 20]]) [[5 15]])", "[[0.5 0.5]]"),))
def transform(model: Any, X: Any) -> Any:
    from .models import rows

    m = fitted(model, "ml/transform")
    return rows(_over_rows(m, X, "transform", "ml/transform"))


@ml("score", args=("[model X y]", "[model X]"),
    doc="scikit-learn's est.score: a classifier's accuracy on X and y (accuracy_score of its predictions), a "
        "regressor's R² (r2_score), k-means' negated inertia on X (y is not read).",
    ex=(("(ml/score (ml/decision-tree-classifier [[0] [1] [2] [3]] [0 0 1 1]) [[0] [1] [2] [3]] [0 0 1 0])",
         "0.75"),))
def score(model: Any, X: Any, y: Any = None) -> float:
    from sklearn.metrics import accuracy_score, r2_score

    from . import data

    who = "ml/score"
    m = fitted(model, who)
    if m.labels is None and not hasattr(m.estimator, "predict"):
        _over_rows(m, X, "score", who)  # says it has none
    if _kind(m) == "kmeans":  # its score is a sum over the rows (of pieces of them)
        return float(_over_rows(m, X, "score", who).sum())
    if y is None:
        raise runtime_error(f"{who}: a {_kind(m)} model is scored on X and y: (ml/score m X y)")
    predicted = _over_rows(m, X, "predict", who)
    if m.labels is not None:
        truth = data.labels(y, who)
        data.same_kind(truth, m.labels, who, "y and the model's classes")
        metric, expected = accuracy_score, truth.values
    else:
        metric, expected = r2_score, data.targets(y, who)
    if len(expected) != len(predicted):
        raise runtime_error(f"{who}: X has {len(predicted)} rows and y {len(expected)} values")
    with calling(who):
        return float(metric(expected, predicted))
