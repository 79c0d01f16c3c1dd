"""A fitted model: a PTC value (values.Record) whose public fields a program reads like a map's
(`(:classes m)`, `(:coefficients m)`, `(keys m)`), that prints as a short tagged map, and that
holds the scikit-learn estimator `ml/predict` and friends use.

The estimator never leaves the process it was fitted in: a model crossing the isolation
boundary (a result, a session's definition) arrives as a plain Record of its fields
(isolation/pickling.py), which reads the same but cannot predict; `fitted` says to fit it
again, which with the same seed gives the same model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import runtime_error
from ...values import MAP_TYPES, Keyword, Record, short, type_name

if TYPE_CHECKING:
    from .data import Labels

TAG = "ml/model"
_FEW = 10  # a classifier prints its classes when it has at most this many


class Model(Record):
    """A fitted scikit-learn estimator, its labels' kind (a classifier's) and feature names."""

    __slots__ = ("estimator", "labels", "names", "held")

    def __init__(self, fields: Any, estimator: Any, labels: Labels | None, names: list[Any] | None,
                 held: int) -> None:
        classes = fields.get(Keyword("classes"))
        shown = ("type", "n-features") + (("classes",) if classes is not None and len(classes) <= _FEW else ())
        super().__init__(TAG, fields, tuple(map(Keyword, shown)))
        self.estimator, self.labels, self.names, self.held = estimator, labels, names, held

    def held_bytes(self) -> int:
        return self.held


def fitted(m: Any, who: str) -> Model:
    """m as a fitted model, or the error saying what it is instead."""
    if type(m) is Model:
        return m
    if type(m) is Record and m.tag == TAG:
        raise runtime_error(f"{who}: this model was fitted by an earlier run in process isolation; only its fields "
                            "crossed the process boundary, not the fitted estimator",
                            hint="fit it again in this run; the same seed (:random-state) gives the same model")
    if type(m) in MAP_TYPES:
        raise runtime_error(f"{who}: expected a fitted model, got a map {short(m)}",
                            hint="a map made from a model (assoc, merge, into) holds only its fields: "
                                 "predict with the model itself")
    raise runtime_error(f"{who}: expected a fitted model (the value of ml/random-forest-classifier, "
                        f"ml/linear-regression...), got {type_name(m)} {short(m)}")
