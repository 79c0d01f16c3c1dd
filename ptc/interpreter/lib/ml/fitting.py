"""Fitting a model of models.SPECS: its options as scikit-learn's parameters, its inputs read
(data), its cost and memory checked or its trees grown in batches (budget), its fields read."""

from __future__ import annotations

import importlib
from typing import Any

from ... import context
from ...errors import runtime_error
from ...values import MAP_TYPES, VECTOR_TYPES, Keyword, LazySeq, PList, iter_all, make_map, map_items, type_name, vec
from ..stats.entry import keyword_map, options
from . import budget, data
from .budget import Shape
from .entry import calling, kebab
from .models import Spec
from .value import Model

# parameters a program does not set: parallelism (always 1), output, and the copies and warm
# starts that are this library's business
HIDDEN = frozenset({"n_jobs", "verbose", "warm_start", "copy", "copy_X", "copy_x"})


def python(x: Any, who: str, key: str) -> Any:
    """An option's value as scikit-learn's parameter: a keyword its name, a vector a tuple, a
    map a dict (keys read as labels: {:yes 2} for a class weight); a function is refused."""
    t = type(x)
    if x is None or t in (bool, int, float, str):
        return x
    if t is Keyword:
        return x.name
    if t in VECTOR_TYPES or t is PList or t is LazySeq:
        return tuple(python(v, who, key) for v in iter_all(x, who))
    if t in MAP_TYPES:
        return {data.label(k, who, f"a key of :{key}"): python(v, who, key) for k, v in map_items(x)}
    raise runtime_error(f"{who}: :{key} must be a number, string, keyword, boolean, nil, vector or map, "
                        f"got {type_name(x)}")


def spelled(cls: Any, param: str, name: str) -> str:
    """A keyword's name as scikit-learn's string for param: itself, or with _ for - when that is
    one of its options (:squared-error is squared_error, :kd-tree kd_tree; :k-means++ stays)."""
    from sklearn.utils._param_validation import StrOptions

    snake = name.replace("-", "_")
    options = [c.options for c in getattr(cls, "_parameter_constraints", {}).get(param, ()) if isinstance(c, StrOptions)]
    return snake if any(snake in o and name not in o for o in options) else name


def ptc(x: Any) -> Any:
    """A parameter's value as a PTC value: a string a keyword in PTC's spelling (:gini,
    :squared-error), which an option takes back."""
    if x is None or type(x) in (bool, int, float):
        return x
    if isinstance(x, str):
        return Keyword(x.replace("_", "-"))
    if hasattr(x, "tolist"):  # numpy scalars and arrays
        return ptc(x.tolist())
    if isinstance(x, (list, tuple)):
        return vec(ptc(v) for v in x)
    return make_map((k, ptc(v)) for k, v in x.items())  # a class weight: its labels as given (no function)


def estimator(spec: Spec, opts: Any, who: str) -> Any:
    """The scikit-learn estimator for opts: its parameters by their kebab-case names (or an
    alias), a seed drawn from the run's generator when none is given, n_jobs=1; validated by
    scikit-learn before anything is estimated from them."""
    module, _, name = spec.cls.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    defaults = cls().get_params()
    names = {kebab(p): p for p in defaults if p not in HIDDEN}
    aliases = {a: p for a, p in spec.aliases if p in defaults}
    params: dict[str, Any] = {}
    given: dict[str, str] = {}
    for key, value in options(opts, who, (*names, *aliases)).items():
        param = names.get(key) or aliases[key]
        if param in given:
            raise runtime_error(f"{who}: :{given[param]} and :{key} are one option, given twice")
        params[param] = spelled(cls, param, value.name) if type(value) is Keyword else python(value, who, key)
        given[param] = key
    if "random_state" in defaults and params.get("random_state") is None:
        params["random_state"] = context.rng().getrandbits(32)
    if "n_jobs" in defaults:
        params["n_jobs"] = 1
    est = cls(**params)
    with calling(who):
        est._validate_params()  # what fit checks first: a bad option fails before anything is estimated
    return est


def fit(spec: Spec, X: Any, y: Any, opts: Any) -> Model:
    """Fit spec's model on X (and y), within the run's limits (budget)."""
    who = "ml/" + spec.name
    est = estimator(spec, opts, who)
    x, names = data.features(X, who)
    labels, target, classes = None, None, 1
    if spec.task == "classifier":
        labels = data.labels(y, who)
        target = labels.values
        classes = len(set(target.tolist()))
    elif spec.task == "regressor":
        target = data.targets(y, who)
    if target is not None and len(target) != len(x):
        raise runtime_error(f"{who}: X has {data.plural(len(x), 'row')} and y {data.plural(len(target), 'value')}",
                            hint="y holds one label (or number) per row of X")
    s = Shape(len(x), x.shape[1], classes)
    if getattr(est, "n_neighbors", 0) > s.n:
        raise runtime_error(f"{who}: :n-neighbors {est.n_neighbors} is more than X's {data.plural(s.n, 'row')}",
                            hint="a row's neighbours are among the rows fitted: take fewer, e.g. {:n-neighbors 3}")
    what = f"{who} of {s.n:,} rows and {s.p} features"
    context.check_bytes(getattr(budget, spec.bound)(est, s) + 2 * x.nbytes, what, charge=False)
    run = (lambda: est.fit(x)) if target is None else lambda: est.fit(x, target)
    with calling(who):
        getattr(budget, spec.runs)(est, s, run, what, getattr(budget, spec.cost))
    size = budget.held(est)
    context.check_bytes(size, f"{who}'s fitted model")
    return Model(keyword_map(_fields(spec, est, labels, names)), est, labels, names, size)


def _fields(spec: Spec, est: Any, labels: data.Labels | None, names: list[Any] | None) -> list[tuple[str, Any]]:
    head: list[tuple[str, Any]] = [("type", Keyword(spec.name)), ("n-features", int(est.n_features_in_))]
    if names is not None:
        head.append(("feature-names", vec(names)))
    if labels is not None:
        head.append(("classes", vec(labels.back(est.classes_))))
    params = make_map((Keyword(kebab(k)), ptc(v)) for k, v in est.get_params().items() if k not in HIDDEN)
    return head + spec.fields(est) + [("params", params)]
