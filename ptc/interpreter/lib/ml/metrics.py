"""ml/: scikit-learn's classification metrics, and the regression ones as stats/ computes them.

Labels are read as a model's are (ml.data): numbers, strings, keywords or booleans, both
collections of one kind; the value is the sklearn.metrics function's for the same labels, with
its defaults (:average :binary with :pos-label 1), and its refusals said in PTC's terms.
"""

from __future__ import annotations

from typing import Any, Callable

from ...errors import PTCError, runtime_error
from ...registry import alias
from ...values import iter_all, short, vec
from ..stats.entry import choice, options
from .entry import METRICS, calling, ml

_AVERAGES = {"binary": "binary", "macro": "macro", "micro": "micro", "weighted": "weighted"}
_Y = " y-true and y-pred are collections of labels (numbers, strings, keywords or booleans), one per row."


def _pair(y_true: Any, y_pred: Any, who: str, what: str = "y-pred") -> tuple[Any, Any]:
    from . import data

    truth, pred = data.labels(y_true, who, "y-true"), data.labels(y_pred, who, what)
    data.same_kind(truth, pred, who, f"y-true and {what}")
    if len(truth.values) != len(pred.values):
        raise runtime_error(f"{who}: y-true has {len(truth.values)} labels and {what} {len(pred.values)}",
                            hint="both hold one label per row, in the same order")
    return truth, pred


@ml("accuracy", args="[y-true y-pred]", needs=METRICS,
    doc="The fraction of labels predicted right (scikit-learn's accuracy_score)." + _Y,
    ex=(("(ml/accuracy [:a :b :b :a] [:a :b :a :a])", "0.75"),))
def accuracy(y_true: Any, y_pred: Any) -> float:
    from sklearn.metrics import accuracy_score

    truth, pred = _pair(y_true, y_pred, "ml/accuracy")
    with calling("ml/accuracy"):
        return float(accuracy_score(truth.values, pred.values))


def _binary(fn: Callable[..., Any], who: str, y_true: Any, y_pred: Any, opts: Any) -> float:
    """precision_score, recall_score or f1_score with :average and :pos-label."""
    import numpy as np

    from . import data

    o = options(opts, who, ("average", "pos-label"))
    average = choice(o.get("average", "binary"), who, "average", _AVERAGES)
    positive = o.get("pos-label", 1)
    truth, pred = _pair(y_true, y_pred, who)
    labels = vec(truth.back(np.unique(np.concatenate([truth.values, pred.values]))))
    with calling(who):
        try:
            return float(fn(truth.values, pred.values, average=average,
                            pos_label=data.label(positive, who, ":pos-label")))
        except ValueError as e:
            raise _refusal(str(e), who, positive, labels) from None


def _refusal(message: str, who: str, positive: Any, labels: Any) -> PTCError:
    if message.startswith("pos_label="):
        return runtime_error(f"{who}: :pos-label {short(positive)} is not one of the labels {short(labels)}",
                             hint=f"say which label is the positive class: {{:pos-label {short(labels[-1])}}}, "
                                  "or average over the classes: {:average :macro}")
    if "average='binary'" in message:
        return runtime_error(f"{who}: the labels {short(labels)} are more than two, and :average :binary "
                             "scores one positive class of two",
                             hint="average over the classes: {:average :macro} (each class alike), :weighted "
                                  "(by their counts) or :micro (over all rows)")
    return runtime_error(f"{who}: {message}")


_BINARY = (" opts :average (:binary, the default: the :pos-label class alone (1 by default); :macro, :weighted, "
           ":micro: over the classes) and :pos-label." + _Y)


@ml("precision", args=("[y-true y-pred]", "[y-true y-pred opts]"), needs=METRICS,
    doc="Of the rows predicted positive, the fraction that are (scikit-learn's precision_score; 0.0 when none "
        "is predicted positive)." + _BINARY,
    ex=(("(ml/precision [0 1 1 0 1] [0 1 0 1 1])", "0.6666666666666666"),
        ("(ml/precision [:a :b :c :a] [:a :b :b :c] {:average :macro})", "0.5")))
def precision(y_true: Any, y_pred: Any, opts: Any = None) -> float:
    from sklearn.metrics import precision_score

    return _binary(precision_score, "ml/precision", y_true, y_pred, opts)


@ml("recall", args=("[y-true y-pred]", "[y-true y-pred opts]"), needs=METRICS,
    doc="Of the positive rows, the fraction predicted positive (scikit-learn's recall_score)." + _BINARY,
    ex=(("(ml/recall [:no :yes :yes :no] [:no :yes :no :no] {:pos-label :yes})", "0.5"),))
def recall(y_true: Any, y_pred: Any, opts: Any = None) -> float:
    from sklearn.metrics import recall_score

    return _binary(recall_score, "ml/recall", y_true, y_pred, opts)


@ml("f1", args=("[y-true y-pred]", "[y-true y-pred opts]"), needs=METRICS,
    doc="The harmonic mean of precision and recall (scikit-learn's f1_score)." + _BINARY,
    ex=(("(ml/f1 [0 1 1 0 1] [0 1 0 1 1])", "0.6666666666666666"),))
def f1(y_true: Any, y_pred: Any, opts: Any = None) -> float:
    from sklearn.metrics import f1_score

    return _binary(f1_score, "ml/f1", y_true, y_pred, opts)


@ml("confusion-matrix", args=("[y-true y-pred]", "[y-true y-pred opts]"), needs=METRICS,
    doc="Counts of each true label (a row) predicted as each label (a column), the labels in sorted order or "
        "those of opts :labels (scikit-learn's confusion_matrix)." + _Y,
    ex=(("(ml/confusion-matrix [:a :b :b :a] [:a :b :a :a])", "[[2 0] [1 1]]"),
        ("(ml/confusion-matrix [0 1 1] [1 1 1] {:labels [1 0]})", "[[2 0] [1 0]]")))
def confusion_matrix(y_true: Any, y_pred: Any, opts: Any = None) -> Any:
    from sklearn.metrics import confusion_matrix as matrix

    from . import data

    who = "ml/confusion-matrix"
    o = options(opts, who, ("labels",))
    truth, pred = _pair(y_true, y_pred, who)
    labels = None
    if o.get("labels") is not None:
        labels = [data.label(x, who, "a label of :labels") for x in iter_all(o["labels"], who)]
    with calling(who):
        return vec(vec(row) for row in matrix(truth.values, pred.values, labels=labels).tolist())


@ml("roc-auc", args=("[y-true scores]", "[y-true scores opts]"), needs=METRICS,
    doc="The area under the ROC curve (scikit-learn's roc_auc_score): for two classes, scores are numbers "
        "(the greater label's probability or any score that grows with it: (map second (ml/predict-proba m X))); "
        "for more, a row of probabilities per row (ml/predict-proba's) with opts :multi-class (:ovr or :ovo, "
        "which scikit-learn requires) and :average (:macro).",
    ex=(("(ml/roc-auc [0 0 1 1] [0.1 0.4 0.35 0.8])", "0.75"),))
def roc_auc(y_true: Any, scores: Any, opts: Any = None) -> float:
    from sklearn.metrics import roc_auc_score

    from . import data
    from ..stats import sample

    who = "ml/roc-auc"
    o = options(opts, who, ("multi-class", "average"))
    params = {}
    if "multi-class" in o:
        params["multi_class"] = choice(o["multi-class"], who, "multi-class", {"ovr": "ovr", "ovo": "ovo"})
    if "average" in o:
        params["average"] = choice(o["average"], who, "average", {"macro": "macro", "weighted": "weighted",
                                                                  "micro": "micro"})
    truth = data.labels(y_true, who, "y-true")
    first = next(iter(iter_all(scores, who)), None)
    hint = None
    if type(first) in (int, float) or first is None:
        values = data.targets(scores, who, "the scores")
    else:
        values, _ = sample.matrix(scores, who, "the scores")
        hint = "for two classes, give one score per row: (map second (ml/predict-proba m X))"
    if len(values) != len(truth.values):
        raise runtime_error(f"{who}: y-true has {len(truth.values)} labels and scores {len(values)} rows")
    with calling(who, hint):
        return float(roc_auc_score(truth.values, values, **params))


for _name in ("r2", "mse", "rmse", "mae"):
    alias(_name, f"stats/{_name}", ns="ml")
