"""ml/: scikit-learn's models, fitted as scikit-learn fits them: `(ml/<model> X y opts)`.

Each model is one scikit-learn class with its defaults; its options are the class's parameters
in kebab-case (`:n-estimators`, `:max-depth`, `:C`), an unknown one an error naming the known
ones. A model with a `random_state` always gets one: the program's `:random-state` (`:seed`),
else a seed drawn from the run's generator (Limits.seed), never numpy's global state, so a run
replays and the same seed gives the same model, split and predictions as scikit-learn given
that random_state. Parallelism is off (n_jobs=1, one BLAS/OpenMP thread: ml.entry.calling).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ... import context
from ...values import vec
from ..stats.entry import floats
from .entry import ml

_SEED = ("seed", "random_state")


@dataclass(frozen=True)
class Spec:
    """One model: its scikit-learn class, what it learns, the budget functions that estimate its
    fit's seconds and bound its bytes, the fields its fitted value shows, and its entry's doc and
    examples. (Named, not imported: this table registers without loading numpy.)"""

    name: str
    cls: str  # module.Class
    task: str  # "classifier", "regressor", "clusterer" or "scaler"
    cost: str  # a function of budget: (estimator, Shape) -> seconds
    bound: str  # a function of budget: (estimator, Shape) -> bytes
    fields: Callable[[Any], list[tuple[str, Any]]]
    doc: str
    ex: tuple[tuple[str, str], ...]
    aliases: tuple[tuple[str, str], ...] = (_SEED,)
    runs: str = "once"  # how budget runs the fit: "once", "grow" (a forest's batches), "iterate" (L-BFGS's steps)


def rows(a: Any) -> Any:
    """A 2-d float array as a vector of rows (NaN as nil)."""
    context.check_size(a.size, "a model's value")
    return vec(floats(r) for r in a)


def _vector(a: Any) -> Any:
    context.check_size(a.size, "a model's value")
    return floats(a)


def _linear(est: Any) -> list[tuple[str, Any]]:
    return [("coefficients", _vector(est.coef_)), ("intercept", float(est.intercept_))]


def _logistic(est: Any) -> list[tuple[str, Any]]:
    return [("coefficients", rows(est.coef_)), ("intercept", _vector(est.intercept_)),
            ("n-iter", int(est.n_iter_.max()))]


def _tree(est: Any) -> list[tuple[str, Any]]:
    return [("feature-importances", _vector(est.feature_importances_)), ("depth", int(est.get_depth())),
            ("n-leaves", int(est.get_n_leaves()))]


def _forest(est: Any) -> list[tuple[str, Any]]:
    oob = [("oob-score", float(est.oob_score_))] if est.oob_score else []
    return [("feature-importances", _vector(est.feature_importances_))] + oob


def _neighbours(est: Any) -> list[tuple[str, Any]]:
    return [("n-samples", int(est.n_samples_fit_))]


def _kmeans(est: Any) -> list[tuple[str, Any]]:
    context.check_size(len(est.labels_), "a model's value")
    return [("centers", rows(est.cluster_centers_)), ("labels", vec(est.labels_.tolist())),
            ("inertia", float(est.inertia_)), ("n-iter", int(est.n_iter_))]


def _optional(a: Any) -> Any:
    return None if a is None else _vector(a)


def _standard(est: Any) -> list[tuple[str, Any]]:
    return [("mean", _optional(est.mean_)), ("var", _optional(est.var_)), ("scale", _optional(est.scale_))]


def _min_max(est: Any) -> list[tuple[str, Any]]:
    return [("data-min", _vector(est.data_min_)), ("data-max", _vector(est.data_max_)),
            ("data-range", _vector(est.data_range_)), ("scale", _vector(est.scale_)), ("min", _vector(est.min_))]


def _register(spec: Spec) -> None:
    """The PTC function of spec: (ml/<name> X y [opts]), or (ml/<name> X [opts]) unsupervised."""
    if spec.task in ("classifier", "regressor"):
        def model(X: Any, y: Any, opts: Any = None) -> Any:
            from .fitting import fit

            return fit(spec, X, y, opts)
        args = ("[X y]", "[X y opts]")
    else:
        def model(X: Any, opts: Any = None) -> Any:  # type: ignore[misc]
            from .fitting import fit

            return fit(spec, X, None, opts)
        args = ("[X]", "[X opts]")
    ml(spec.name, args=args, doc=spec.doc, ex=spec.ex)(model)


_PLAIN = "; its fields are :type :n-features :params"
_FOREST = ("Fitted in batches of trees with warm_start, which grows the same trees as one fit with the same "
           ":random-state (the deadline is read between batches).")

SPECS = (
    Spec("linear-regression", "sklearn.linear_model.LinearRegression", "regressor", "linear", "small",
         _linear,
         "Ordinary least squares (scikit-learn's LinearRegression: an intercept unless :fit-intercept false, "
         ":positive false)" + _PLAIN + " :coefficients (one per feature) :intercept. X is a collection of rows, "
         "each a vector of numbers (or a vector of numbers: one feature), y the numbers to predict.",
         (("(:coefficients (ml/linear-regression [[1 1] [1 2] [2 2] [2 3]] [6 8 9 11]))",
           "[1.0 1.9999999999999993]"),
          ("(ml/predict (ml/linear-regression [1 2 3] [2 4 6]) [[4]])", "[7.999999999999999]"))),
    Spec("logistic-regression", "sklearn.linear_model.LogisticRegression", "classifier", "logistic",
         "small", _logistic,
         "Logistic regression as scikit-learn fits it by default (LogisticRegression: L-BFGS, :max-iter 100, "
         "L2-regularised with :C 1.0, so its coefficients are shrunk, unlike an unpenalised fit such as "
         "statsmodels' Logit; a large :C comes close to that)" + _PLAIN + " :classes :coefficients (a row per "
         "class, one row for two classes) :intercept (a vector) :n-iter. The deadline is read between L-BFGS "
         "iterations (scikit-learn's callbacks; before 1.9, refused when :max-iter iterations could not end in "
         "the time left).",
         (("(ml/predict (ml/logistic-regression [[0] [1] [2] [3]] [:no :no :yes :yes]) [[0.5] [2.5]])",
           "[:no :yes]"),
          ("(:classes (ml/logistic-regression [[0] [1] [2] [3]] [0 0 1 1]))", "[0 1]")),
         runs="iterate"),
    Spec("random-forest-classifier", "sklearn.ensemble.RandomForestClassifier", "classifier", "tree",
         "forest_bytes", _forest,
         "A random forest classifier (scikit-learn's RandomForestClassifier: :n-estimators 100, :criterion "
         ":gini, :max-features :sqrt, :bootstrap true, n_jobs 1)" + _PLAIN + " :classes :feature-importances "
         "(and :oob-score with {:oob-score true}). " + _FOREST + " Refused before it starts when its trees could "
         "hold more than max_memory (each up to 2 x rows nodes).",
         (("(ml/predict (ml/random-forest-classifier [[0] [1] [10] [11]] [:a :a :b :b] "
           "{:n-estimators 10 :random-state 0}) [[0.5] [10.5]])", "[:a :b]"),
          ("(ml/random-forest-classifier [[0 1] [1 0] [5 5] [6 5]] [0 0 1 1] {:random-state 42})",
           "#ml/model{:type :random-forest-classifier, :n-features 2, :classes [0 1]}")),
         runs="grow"),
    Spec("random-forest-regressor", "sklearn.ensemble.RandomForestRegressor", "regressor", "tree",
         "forest_bytes", _forest,
         "A random forest regressor (scikit-learn's RandomForestRegressor: :n-estimators 100, :criterion "
         ":squared-error, :max-features 1.0, :bootstrap true, n_jobs 1)" + _PLAIN + " :feature-importances (and "
         ":oob-score). " + _FOREST,
         (("(ml/predict (ml/random-forest-regressor [1 2 3 4] [10 20 30 40] {:n-estimators 5 :random-state 0}) "
           "[[1.5]])", "[14.0]"),),
         runs="grow"),
    Spec("decision-tree-classifier", "sklearn.tree.DecisionTreeClassifier", "classifier", "tree",
         "tree_bytes", _tree,
         "A decision tree classifier (scikit-learn's DecisionTreeClassifier: :criterion :gini, grown until its "
         "leaves are pure unless :max-depth, :min-samples-leaf... say otherwise)" + _PLAIN + " :classes "
         ":feature-importances :depth :n-leaves. Refused before it starts when a tree grown to full depth "
         "could not end in the time left.",
         (("(:depth (ml/decision-tree-classifier [[1] [2] [3] [4]] [:a :a :b :b]))", "1"),)),
    Spec("decision-tree-regressor", "sklearn.tree.DecisionTreeRegressor", "regressor", "tree",
         "tree_bytes", _tree,
         "A decision tree regressor (scikit-learn's DecisionTreeRegressor: :criterion :squared-error, grown to "
         "full depth unless :max-depth, :min-samples-leaf... say otherwise)" + _PLAIN + " :feature-importances "
         ":depth :n-leaves.",
         (("(ml/predict (ml/decision-tree-regressor [1 2 3 4] [1 1 5 5] {:max-depth 1}) [[0] [9]])", "[1.0 5.0]"),)),
    Spec("knn-classifier", "sklearn.neighbors.KNeighborsClassifier", "classifier", "knn", "knn_bytes",
         _neighbours,
         "k nearest neighbours' vote (scikit-learn's KNeighborsClassifier: :n-neighbors 5 (or :k), :weights "
         ":uniform, Euclidean distance)" + _PLAIN + " :classes :n-samples. Predicts over pieces of rows, the "
         "deadline read between them.",
         (("(ml/predict (ml/knn-classifier [[0] [1] [2] [10] [11] [12]] [:a :a :a :b :b :b] {:k 3}) [[1.5] [9]])",
           "[:a :b]"),),
         aliases=(("k", "n_neighbors"),)),
    Spec("knn-regressor", "sklearn.neighbors.KNeighborsRegressor", "regressor", "knn", "knn_bytes",
         _neighbours,
         "The mean of the k nearest neighbours (scikit-learn's KNeighborsRegressor: :n-neighbors 5 (or :k), "
         ":weights :uniform)" + _PLAIN + " :n-samples.",
         (("(ml/predict (ml/knn-regressor [1 2 3 10] [1.0 2.0 3.0 10.0] {:k 2}) [[1.6]])", "[1.5]"),),
         aliases=(("k", "n_neighbors"),)),
    Spec("kmeans", "sklearn.cluster.KMeans", "clusterer", "kmeans", "small", _kmeans,
         "k-means clustering (scikit-learn's KMeans: :n-clusters 8 (or :k), k-means++ seeding, :n-init :auto, "
         ":max-iter 300)" + _PLAIN + " :centers :labels (each row's cluster) :inertia :n-iter. (ml/predict m X) "
         "gives the nearest center's index, (ml/transform m X) the distances to the centers. Refused before it "
         "starts when :max-iter iterations could not end in the time left.",
         (("(:labels (ml/kmeans [[0 0] [0 1] [10 10] [10 11]] {:k 2 :random-state 0}))", "[1 1 0 0]"),
          ("(ml/kmeans [[0 0] [0 1] [10 10]] {:k 2 :random-state 0})", "#ml/model{:type :kmeans, :n-features 2}")),
         aliases=(("k", "n_clusters"), _SEED)),
    Spec("standard-scaler", "sklearn.preprocessing.StandardScaler", "scaler", "scaler", "small",
         _standard,
         "Standardization (scikit-learn's StandardScaler: the mean removed and divided by the population standard "
         "deviation, ddof 0)" + _PLAIN + " :mean :var :scale; (ml/transform m X) scales rows.",
         (("(ml/transform (ml/standard-scaler [[1 10] [3 30]]) [[2 20] [3 30]])", "[[0.0 0.0] [1.0 1.0]]"),),
         aliases=()),
    Spec("min-max-scaler", "sklearn.preprocessing.MinMaxScaler", "scaler", "scaler", "small", _min_max,
         "Scaling to a range (scikit-learn's MinMaxScaler: :feature-range [0 1], :clip false)" + _PLAIN +
         " :data-min :data-max :data-range :scale :min; (ml/transform m X) scales rows.",
         (("(ml/transform (ml/min-max-scaler [[0] [5] [10]]) [[2.5] [20]])", "[[0.25] [2.0]]"),),
         aliases=()),
)

for _spec in SPECS:
    _register(_spec)
