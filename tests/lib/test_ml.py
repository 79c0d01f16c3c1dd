"""ml/ against scikit-learn itself, on generated data: the same split, fitted model, predictions
and metrics for the same options and seed (floats to 1e-9 relative), for labels of every kind,
inline and isolated; the model value (fields, printing, isolation placeholder, session memory);
hostile inputs; the memory and collection limits. (Wall-time limits: test_ml_timing.py.)

scikit-learn is called here under one BLAS/OpenMP thread, as ml/ calls it: k-means' and L-BFGS'
last bits can depend on the thread count."""

from __future__ import annotations

import math
import pickle
from typing import Any, Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import cluster, ensemble, linear_model, metrics, model_selection, neighbors, preprocessing, tree
from threadpoolctl import threadpool_limits

import ptc
from ptc.interpreter.isolation import pickling
from ptc.interpreter.lib.ml import budget
from ptc.interpreter.values import Record

ISOLATED = ptc.Limits(isolation="process")


@pytest.fixture(autouse=True)
def inside_a_run() -> Iterator[None]:
    """Not inside one run (tests/lib/conftest.py's): these tests run programs, each with its
    state, and read their values between runs, where no run's deadline applies."""
    yield
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(src: str, data: dict[str, Any] | None = None, limits: ptc.Limits | None = None) -> Any:
    return ptc.to_python(ptc.run(src, data=data, limits=limits).value)


def fails(src: str, data: dict[str, Any] | None = None, limits: ptc.Limits | None = None) -> ptc.PTCError:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data=data, limits=limits)
    assert "internal error" not in e.value.message and "Traceback" not in str(e.value)
    return e.value


def close(got: Any, want: Any) -> None:
    """got (PTC's, as Python) equals want (scikit-learn's) to 1e-9 relative, elementwise."""
    g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert g.shape == w.shape, (g.shape, w.shape)
    assert np.allclose(g, w, rtol=1e-9, atol=1e-12), (got, want)


def sk(estimator: Any, X: Any, y: Any = None) -> Any:
    with threadpool_limits(1):
        return estimator.fit(X) if y is None else estimator.fit(X, y)


# -- generated data -------------------------------------------------------------------------

LABELS = {  # kind -> (codes -> the labels PTC is given, the program's y, what scikit-learn is given)
    "int": (lambda c: c, "ys", lambda c: c),
    "sparse-int": (lambda c: [(-3, 5, 11, 40)[i] for i in c], "ys", lambda c: [(-3, 5, 11, 40)[i] for i in c]),
    "string": (lambda c: ["ab"[i % 2] + str(i) for i in c], "ys", lambda c: ["ab"[i % 2] + str(i) for i in c]),
    "keyword": (lambda c: ["k" + str(i) for i in c], "(mapv keyword ys)", lambda c: ["k" + str(i) for i in c]),
    "boolean": (lambda c: [bool(i % 2) for i in c], "ys", lambda c: [bool(i % 2) for i in c]),
}


@st.composite
def problems(draw: Any, classes: bool = True) -> dict[str, Any]:
    n = draw(st.integers(12, 160))
    p = draw(st.integers(1, 5))
    k = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    if draw(st.booleans()):  # integer features: ties for trees and neighbours
        X = np.round(X * 2)
    codes = ((X[:, 0] + rng.normal(size=n)) * k / 3 + k / 2).clip(0, k - 1).astype(int)
    codes[:k] = np.arange(k)  # every class present
    kind = draw(st.sampled_from(sorted(LABELS))) if classes else "int"
    if kind == "boolean":
        codes %= 2
    T = rng.normal(size=(draw(st.integers(1, 40)), p))
    return {"X": X.tolist(), "T": T.tolist(), "codes": codes.tolist(), "kind": kind,
            "target": (X @ rng.normal(size=p) + rng.normal(size=n)).tolist(), "seed": draw(st.integers(0, 10_000))}


def classify(pb: dict[str, Any]) -> tuple[dict[str, Any], str, list[Any]]:
    given, expr, oracle = LABELS[pb["kind"]]
    return {"X": pb["X"], "T": pb["T"], "ys": given(pb["codes"])}, expr, oracle(pb["codes"])


CLASSIFIERS = {
    "random-forest-classifier": (lambda s: ensemble.RandomForestClassifier(n_estimators=7, random_state=s),
                                 "{:n-estimators 7 :random-state %d}"),
    "decision-tree-classifier": (lambda s: tree.DecisionTreeClassifier(random_state=s, max_depth=4),
                                 "{:random-state %d :max-depth 4}"),
    "logistic-regression": (lambda s: linear_model.LogisticRegression(random_state=s), "{:random-state %d}"),
    "knn-classifier": (lambda s: neighbors.KNeighborsClassifier(n_neighbors=3), "{:k 3 :seed %d}"),
}


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
@given(pb=problems())
@SETTINGS
def test_a_classifier_predicts_what_scikit_learn_predicts(name: str, pb: dict[str, Any]) -> None:
    make, opts = CLASSIFIERS[name]
    data, ys, y = classify(pb)
    if name == "knn-classifier":  # no random_state: the seed option is refused
        opts = "{:k 3}"
    else:
        opts = opts % pb["seed"]
    got = run(f"(let [m (ml/{name} X {ys} {opts})] "
              "{:pred (ml/predict m T) :proba (ml/predict-proba m T) :classes (:classes m) :score (ml/score m X "
              f"{ys}) :m m}})", data)
    want = sk(make(pb["seed"]), pb["X"], y)
    assert got["classes"] == want.classes_.tolist()
    assert got["pred"] == want.predict(pb["T"]).tolist()
    close(got["proba"], want.predict_proba(pb["T"]))
    assert got["score"] == want.score(pb["X"], y)
    m = got["m"]
    if name == "logistic-regression":
        close(m["coefficients"], want.coef_)
        close(m["intercept"], want.intercept_)
        assert m["n-iter"] == int(want.n_iter_.max())
    elif name != "knn-classifier":
        close(m["feature-importances"], want.feature_importances_)


REGRESSORS = {
    "random-forest-regressor": (lambda s: ensemble.RandomForestRegressor(n_estimators=6, random_state=s),
                                "{:n-estimators 6 :random-state %d}"),
    "decision-tree-regressor": (lambda s: tree.DecisionTreeRegressor(random_state=s), "{:random-state %d}"),
    "linear-regression": (lambda s: linear_model.LinearRegression(), "{}"),
    "knn-regressor": (lambda s: neighbors.KNeighborsRegressor(n_neighbors=4, weights="distance"),
                      "{:n-neighbors 4 :weights :distance}"),
}


@pytest.mark.parametrize("name", sorted(REGRESSORS))
@given(pb=problems(classes=False))
@SETTINGS
def test_a_regressor_predicts_what_scikit_learn_predicts(name: str, pb: dict[str, Any]) -> None:
    make, opts = REGRESSORS[name]
    opts = opts % pb["seed"] if "%d" in opts else opts
    data = {"X": pb["X"], "T": pb["T"], "y": pb["target"]}
    got = run(f"(let [m (ml/{name} X y {opts})] {{:pred (ml/predict m T) :score (ml/score m X y) :m m}})", data)
    want = sk(make(pb["seed"]), pb["X"], pb["target"])
    close(got["pred"], want.predict(pb["T"]))
    assert math.isclose(got["score"], want.score(pb["X"], pb["target"]), rel_tol=1e-9)
    if name == "linear-regression":
        close(got["m"]["coefficients"], want.coef_)
        assert math.isclose(got["m"]["intercept"], want.intercept_, rel_tol=1e-9, abs_tol=1e-12)


@given(pb=problems(classes=False), k=st.integers(1, 6), init=st.sampled_from(["k-means++", "random"]))
@SETTINGS
def test_kmeans_clusters_as_scikit_learn_does(pb: dict[str, Any], k: int, init: str) -> None:
    got = run(f"(let [m (ml/kmeans X {{:k {k} :init :{init} :random-state {pb['seed']}}})] "
              "{:m m :pred (ml/predict m T) :dist (ml/transform m T) :score (ml/score m T)})", pb)
    want = sk(cluster.KMeans(n_clusters=k, init=init, random_state=pb["seed"]), pb["X"])
    assert got["m"]["labels"] == want.labels_.tolist()
    close(got["m"]["centers"], want.cluster_centers_)
    assert math.isclose(got["m"]["inertia"], want.inertia_, rel_tol=1e-9)
    assert got["m"]["n-iter"] == want.n_iter_
    assert got["pred"] == want.predict(pb["T"]).tolist()
    close(got["dist"], want.transform(pb["T"]))
    assert math.isclose(got["score"], want.score(pb["T"]), rel_tol=1e-9)


@given(pb=problems(classes=False))
@SETTINGS
def test_scalers_scale_as_scikit_learn_does(pb: dict[str, Any]) -> None:
    got = run("(let [s (ml/standard-scaler X) r (ml/min-max-scaler X {:feature-range [-1 2]})] "
              "{:s (ml/transform s T) :r (ml/transform r T) :mean (:mean s) :scale (:scale s) :min (:data-min r)})",
              pb)
    s = sk(preprocessing.StandardScaler(), pb["X"])
    r = sk(preprocessing.MinMaxScaler(feature_range=(-1, 2)), pb["X"])
    close(got["s"], s.transform(pb["T"]))
    close(got["r"], r.transform(pb["T"]))
    close(got["mean"], s.mean_)
    close(got["scale"], s.scale_)
    close(got["min"], r.data_min_)


@given(n=st.integers(2, 120), test=st.one_of(st.floats(0.05, 0.95), st.integers(1, 5)), seed=st.integers(0, 2**32 - 1),
       shuffle=st.booleans(), stratify=st.booleans())
@settings(max_examples=60, deadline=None)
def test_a_split_takes_the_rows_scikit_learn_takes(n: int, test: float | int, seed: int, shuffle: bool,
                                                   stratify: bool) -> None:
    X = [[i, i * i] for i in range(n)]
    y = [f"c{i % 3}" for i in range(n)]
    kw: dict[str, Any] = {"test_size": test, "random_state": seed, "shuffle": shuffle,
                          "stratify": y if stratify and shuffle else None}
    try:
        want = model_selection.train_test_split(X, y, **kw)
    except ValueError:
        fails(f"(ml/train-test-split X y {{:test-size {test} :random-state {seed} :shuffle? {str(shuffle).lower()} "
              f"{':stratify y' if kw['stratify'] else ''}}})", {"X": X, "y": y})
        return
    got = run(f"(ml/train-test-split X y {{:test-size {test} :seed {seed} :shuffle? {str(shuffle).lower()} "
              f"{':stratify (mapv keyword y)' if kw['stratify'] else ''}}})", {"X": X, "y": y})
    assert [got["x-train"], got["x-test"], got["y-train"], got["y-test"]] == want
    one = run(f"(ml/train-test-split (range {n}) {{:test-size {test} :random-state {seed} "
              f":shuffle? {str(shuffle).lower()} {':stratify y' if kw['stratify'] else ''}}})", {"y": y})
    assert [one["train"], one["test"]] == [[row[0] for row in part] for part in want[:2]]


def test_an_option_names_scikit_learns_string_with_dashes_or_as_it_is() -> None:
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(60, 2)), rng.normal(size=60)
    data = {"X": X.tolist(), "y": y.tolist()}
    want = sk(tree.DecisionTreeRegressor(criterion="absolute_error", random_state=1), X, y).predict(X).tolist()
    for spelling in (":absolute-error", ":absolute_error", '"absolute_error"'):
        got = run(f"(let [m (ml/decision-tree-regressor X y {{:criterion {spelling} :seed 1}})] "
                  "[(:criterion (:params m)) (ml/predict m X)])", data)
        assert got == ["absolute-error", want]
    assert run("(:init (:params (ml/kmeans X {:k 2 :init :k-means++})))", data) == "k-means++"
    assert "among" in fails("(ml/knn-regressor X y {:algorithm :kd-trees})", data).message


def test_without_a_seed_the_runs_seed_decides_and_the_model_says_which() -> None:
    src = "(let [m (ml/random-forest-classifier X y {:n-estimators 5})] {:s (:random-state (:params m)) " \
          ":p (ml/predict-proba m X) :split (ml/train-test-split (range 20))})"
    data = {"X": [[i, i % 3] for i in range(20)], "y": [i % 2 for i in range(20)]}
    a = run(src, data, ptc.Limits(seed=7))
    assert a == run(src, data, ptc.Limits(seed=7))
    assert a != run(src, data, ptc.Limits(seed=8))
    want = sk(ensemble.RandomForestClassifier(n_estimators=5, random_state=a["s"]), data["X"], data["y"])
    close(a["p"], want.predict_proba(data["X"]))


@pytest.mark.parametrize("forest", [ensemble.RandomForestClassifier, ensemble.RandomForestRegressor])
@pytest.mark.parametrize("extra", [{}, {"oob_score": True}, {"max_samples": 0.5, "max_depth": 6}])
def test_a_forest_grown_in_batches_is_the_forest_of_one_fit(forest: Any, extra: dict[str, Any],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """budget.grow's warm starts (here one tree a batch) give the same trees as one fit."""
    monkeypatch.setattr(budget, "SLICE", 0.0)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] + rng.normal(size=300) > 0).astype(int) if forest is ensemble.RandomForestClassifier \
        else X[:, 0] + rng.normal(size=300)
    opts = " ".join(f":{k.replace('_', '-')} {str(v).lower()}" for k, v in extra.items())
    name = "random-forest-classifier" if forest is ensemble.RandomForestClassifier else "random-forest-regressor"
    r = ptc.run(f"(ml/{name} X y {{:n-estimators 23 :random-state 11 {opts}}})", data={"X": X.tolist(), "y": y.tolist()})
    grown = r.value.estimator
    one = sk(forest(n_estimators=23, random_state=11, n_jobs=1, **extra), X, y)
    assert len(grown.estimators_) == 23 and grown.get_params() == one.get_params()
    for a, b in zip(grown.estimators_, one.estimators_):
        assert np.array_equal(a.tree_.threshold, b.tree_.threshold) and np.array_equal(a.tree_.value, b.tree_.value)
    T = rng.normal(size=(50, 4))
    assert np.array_equal(grown.predict(T), one.predict(T))
    assert np.array_equal(grown.feature_importances_, one.feature_importances_)
    if extra.get("oob_score"):
        assert grown.oob_score_ == one.oob_score_ == ptc.to_python(r.value)["oob-score"]


def test_predictions_over_pieces_of_rows_are_the_predictions_of_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "SLICE", 1e-9)  # a row a piece
    rng = np.random.default_rng(5)
    X, T = np.round(rng.normal(size=(200, 3)) * 2), np.round(rng.normal(size=(57, 3)) * 2)  # ties
    y = (X[:, 0] > 0).astype(int)
    got = run("(let [m (ml/knn-classifier X y) f (ml/random-forest-classifier X y {:n-estimators 5 :seed 1})] "
              "[(ml/predict m T) (ml/predict-proba m T) (ml/predict-proba f T)])",
              {"X": X.tolist(), "y": y.tolist(), "T": T.tolist()})
    knn = sk(neighbors.KNeighborsClassifier(), X, y)
    forest = sk(ensemble.RandomForestClassifier(n_estimators=5, random_state=1), X, y)
    assert got == [knn.predict(T).tolist(), knn.predict_proba(T).tolist(), forest.predict_proba(T).tolist()]


# -- metrics --------------------------------------------------------------------------------


@given(pb=problems(), average=st.sampled_from(["binary", "macro", "micro", "weighted"]))
@settings(max_examples=40, deadline=None)
def test_metrics_are_scikit_learns(pb: dict[str, Any], average: str) -> None:
    given_, expr, oracle = LABELS[pb["kind"]]
    codes = pb["codes"]
    pred = codes[1:] + codes[:1]
    data = {"ys": given_(codes), "ps": given_(pred)}
    ps = expr.replace("ys", "ps")
    t, p = oracle(codes), oracle(pred)
    pos = sorted(set(t))[-1]
    pos_ptc = {"keyword": f":{pos}", "string": f'"{pos}"', "boolean": str(pos).lower()}.get(pb["kind"], str(pos))
    opts = f"{{:average :{average} :pos-label {pos_ptc}}}"
    src = f"[(ml/accuracy {expr} {ps}) (ml/confusion-matrix {expr} {ps})]"
    assert run(src, data) == [metrics.accuracy_score(t, p), metrics.confusion_matrix(t, p).tolist()]
    for name, fn in (("precision", metrics.precision_score), ("recall", metrics.recall_score), ("f1", metrics.f1_score)):
        try:
            want = fn(t, p, average=average, pos_label=pos, zero_division=0.0)
        except ValueError:
            fails(f"(ml/{name} {expr} {ps} {opts})", data)
            continue
        assert run(f"(ml/{name} {expr} {ps} {opts})", data) == want


def test_metric_refusals_say_what_to_do() -> None:
    e = fails("(ml/precision [:a :b] [:a :a])")
    assert ":pos-label 1 is not one of the labels [:a :b]" in e.message and "{:pos-label :b}" in e.hint
    e = fails("(ml/f1 [0 1 2] [0 1 1])")
    assert "more than two" in e.message and ":macro" in e.hint
    assert run("(ml/f1 [0 1 2] [0 1 1] {:average :macro})") == metrics.f1_score([0, 1, 2], [0, 1, 1], average="macro")
    assert "two kinds" in fails('(ml/accuracy [1 2] ["1" "2"])').message
    assert "unknown average" in fails("(ml/recall [0 1] [0 1] {:average :samples})").message
    assert run("(ml/confusion-matrix [:x :y :y] [:y :y :x] {:labels [:y :x]})") == [[1, 1], [1, 0]]


def test_roc_auc_and_the_regression_metrics_are_scikit_learns() -> None:
    y, s = [0, 0, 1, 1, 1], [0.1, 0.6, 0.35, 0.8, 0.9]
    proba = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3]]
    got = run("[(ml/roc-auc y s) (ml/roc-auc [0 1 2 1] p {:multi-class :ovr}) (ml/r2 y s) (ml/mse y s) (ml/rmse y s) "
              "(ml/mae y s)]", {"y": y, "s": s, "p": proba})
    want = [metrics.roc_auc_score(y, s), metrics.roc_auc_score([0, 1, 2, 1], proba, multi_class="ovr"),
            metrics.r2_score(y, s), metrics.mean_squared_error(y, s), metrics.root_mean_squared_error(y, s),
            metrics.mean_absolute_error(y, s)]
    close(got, want)
    assert "(map second (ml/predict-proba m X))" in fails("(ml/roc-auc [0 1] [[0.5 0.5] [0.1 0.9]])").hint


# -- the model value ------------------------------------------------------------------------

FOREST = "(ml/random-forest-classifier [[0 1] [1 0] [5 5] [6 5]] [:no :no :yes :yes] {:n-estimators 4 :seed 3})"


def test_a_model_reads_like_a_map_of_its_public_fields_and_prints_short() -> None:
    assert run(f"(let [m {FOREST}] [(:classes m) (:n-features m) (:type m) (get m :n-estimators) "
               "(:n-estimators (:params m)) (contains? m :feature-importances) (contains? m :estimator) (keys m) "
               "(= m m) (map? m)])") == \
        [["no", "yes"], 2, "random-forest-classifier", None, 4, True, False,
         ["type", "n-features", "classes", "feature-importances", "params"], True, False]
    assert ptc.pr_str(ptc.run(FOREST).value) == \
        "#ml/model{:type :random-forest-classifier, :n-features 2, :classes [:no :yes]}"
    many = ptc.run("(ml/decision-tree-classifier (map vector (range 30)) (range 30))").value
    assert ptc.pr_str(many) == "#ml/model{:type :decision-tree-classifier, :n-features 1}"  # 30 classes: not shown
    assert ptc.to_python(ptc.run(FOREST).value)["params"]["criterion"] == "gini"


def test_a_map_made_from_a_model_is_not_a_model() -> None:
    e = fails(f"(ml/predict (assoc {FOREST} :note 1) [[0 0]])")
    assert "expected a fitted model, got a map" in e.message and "predict with the model itself" in e.hint
    assert run(f"(:note (assoc {FOREST} :note 1))") == 1
    assert "expected a fitted model" in fails("(ml/predict-proba [1 2] [[0 0]])").message


def test_a_model_crosses_the_isolation_boundary_as_its_fields_alone() -> None:
    r = ptc.run(f"(def m {FOREST}) m", limits=ISOLATED)
    m = r.value
    assert type(m) is Record and ptc.to_python(m) == ptc.to_python(ptc.run(FOREST).value)
    assert ptc.pr_str(m) == "#ml/model{:type :random-forest-classifier, :n-features 2, :classes [:no :yes]}"
    again = ptc.run("[(:classes m) (:n-estimators (:params m))]", memory=r.memory, limits=ISOLATED)
    assert ptc.to_python(again.value) == [["no", "yes"], 4]
    for limits in (ISOLATED, None):
        with pytest.raises(ptc.PTCError) as e:
            ptc.run("(ml/predict m [[0 0]])", memory=r.memory, limits=limits)
        assert "earlier run in process isolation" in e.value.message and "same seed" in e.value.hint


def test_the_host_never_unpickles_an_estimator() -> None:
    model = ptc.run(FOREST).value
    message = bytes(pickling._dumps({"m": model}))
    assert b"sklearn" not in message and b"numpy" not in message
    back = pickling._loads_untrusted(bytearray(message), ptc.Limits())["m"]
    assert type(back) is Record and back.fields == model.fields
    forged = pickle.dumps(model.estimator)  # an estimator's own pickle is refused by the allow-list
    with pytest.raises(pickle.UnpicklingError):
        pickling._loads_untrusted(bytearray(forged), ptc.Limits())


def test_session_memory_counts_what_a_model_holds() -> None:
    data = np.random.default_rng(0).normal(size=(400, 3))
    sandbox = ptc.Sandbox(data={"X": data.tolist(), "y": (data[:, 0] > 0).astype(int).tolist()})
    sandbox.call({"program": "(def m (ml/random-forest-classifier X y {:n-estimators 30 :seed 1}))"})
    est = sandbox.memory["m"].estimator
    nodes = sum(t.tree_.node_count for t in est.estimators_)
    assert budget.held(est) >= nodes * 64 and sandbox.held_bytes >= budget.held(est)
    small = ptc.Sandbox(data=sandbox.data, limits=ptc.Limits(max_session_memory=budget.held(est) // 2))
    assert "max_session_memory" in small.call({"program": "(def m (ml/random-forest-classifier X y "
                                                          "{:n-estimators 30 :seed 1}))"})
    isolated = ptc.Sandbox(data=sandbox.data, limits=ptc.Limits(isolation="process",
                                                                max_session_memory=budget.held(est) // 2))
    assert "Defined: m" in isolated.call({"program": "(def m (ml/random-forest-classifier X y "
                                                     "{:n-estimators 30 :seed 1}))"})  # only its fields are held


@pytest.mark.parametrize("limits", [None, ISOLATED], ids=["inline", "isolated"])
def test_isolated_runs_give_the_inline_answers(limits: ptc.Limits | None) -> None:
    rng = np.random.default_rng(9)
    X = rng.normal(size=(120, 3))
    data = {"X": X.tolist(), "y": (X[:, 0] + X[:, 1] > 0).astype(int).tolist(), "r": (X @ [1.0, 2, 3]).tolist()}
    src = ("(let [{:keys [x-train x-test y-train y-test]} (ml/train-test-split X y {:random-state 42}) "
           "f (ml/random-forest-classifier x-train y-train {:n-estimators 20 :random-state 42}) "
           "k (ml/kmeans X {:k 3 :random-state 0}) l (ml/logistic-regression x-train y-train)] "
           "{:acc (ml/accuracy y-test (ml/predict f x-test)) :proba (ml/predict-proba l x-test) "
           ":centers (:centers k) :coef (:coefficients (ml/linear-regression X r))})")
    got = run(src, data, limits)
    Xtr, Xte, ytr, yte = model_selection.train_test_split(data["X"], data["y"], random_state=42)
    forest = sk(ensemble.RandomForestClassifier(n_estimators=20, random_state=42), Xtr, ytr)
    assert got["acc"] == metrics.accuracy_score(yte, forest.predict(Xte))
    close(got["proba"], sk(linear_model.LogisticRegression(), Xtr, ytr).predict_proba(Xte))
    close(got["centers"], sk(cluster.KMeans(n_clusters=3, random_state=0), data["X"]).cluster_centers_)
    close(got["coef"], [1.0, 2, 3])


# -- refusals -------------------------------------------------------------------------------

HOSTILE = [
    ("(ml/random-forest-classifier [] [])", "X has no rows"),
    ("(ml/logistic-regression [[]] [1])", "X has no features"),
    ("(ml/logistic-regression [[1] [2]] [1 1])", "at least 2 classes"),
    ("(ml/random-forest-classifier [[1 2] [3 4]] [1 2] {:n-estimators 0})", ":n-estimators must be an int"),
    ('(ml/random-forest-classifier [[1 "a"] [3 4]] [1 2])', 'row 1 of X holds string "a"'),
    ("(ml/knn-classifier [[1] [2]] [1 2] {:k 5})", ":n-neighbors 5 is more than X's 2 rows"),
    ("(ml/kmeans [[1] [2]] {:k 3})", "n_clusters=3"),
    ("(ml/linear-regression [[1] [2] [3]] [1 2])", "X has 3 rows and y 2 values"),
    ("(ml/linear-regression [[1 2] [3]] [1 2])", "row 2 of X has 1 values"),
    ("(ml/linear-regression [[1] [nil] [##NaN]] [1 2 3])", "2 of 3 rows of X hold nil or NaN"),
    ("(ml/decision-tree-classifier [[1] [2]] [:a nil])", "1 of 2 values of y are nil or NaN"),
    ("(ml/decision-tree-classifier [[1] [2]] [:a \"b\"])", "y mixes keywords and strings"),
    ("(ml/decision-tree-classifier [[1] [2]] [0.5 1.5])", "Unknown label type: continuous"),
    ("(ml/decision-tree-classifier [[1] [2]] [[1] [2]])", "y must hold labels"),
    ("(ml/linear-regression [[1] [2]] [:a :b])", "y must be numbers"),
    ("(ml/random-forest-classifier [[1] [2]] [0 1] {:trees 5})", "unknown option :trees"),
    ("(ml/random-forest-classifier [[1] [2]] [0 1] {:seed 1 :random-state 2})", "one option, given twice"),
    ("(ml/random-forest-classifier [[1] [2]] [0 1] {:class-weight inc})", ":class-weight must be"),
    ("(ml/random-forest-classifier [[1] [2]] [0 1] 5)", "options must be a map"),
    ("(ml/knn-classifier [{:a 1} {:a 2}] [0 1])", "(map (juxt :a) rows)"),
    ("(ml/predict (ml/kmeans [[1] [2]] {:k 1}) [[1 2]])", "X has 2 features per row, the model was fitted on 1"),
    ("(ml/predict (ml/linear-regression [[1 2] [2 1] [3 3]] [1 2 3]) [1 2])", "(ml/predict m [[5.1 3.5 1.4 0.2]])"),
    ("(ml/predict (ml/standard-scaler [[1] [2]]) [[1]])", "has no predict"),
    ("(ml/predict-proba (ml/linear-regression [1 2] [1 2]) [[1]])", "has no predict-proba"),
    ("(ml/score (ml/min-max-scaler [[1] [2]]) [[1]] [1])", "has no score"),
    ("(ml/score (ml/knn-classifier [[1] [2]] [:a :b] {:k 1}) [[1]] [1])", "two kinds"),
    ("(ml/train-test-split [1 2 3] {:test-size 5})", "test_size=5"),
    ("(ml/train-test-split {:a 1})", "expected a collection of rows"),
    ("(ml/train-test-split [1 2 3] [1 2])", "xs has 3 rows and ys 2 values"),
    ("(ml/train-test-split [1 2 3 4] {:stratify [0 1 1 1]})", "too few"),
    ("(ml/logistic-regression [[1] [2] [3]] [0 1 0] {:max-iter -1})", ":max-iter must be"),
]


@pytest.mark.parametrize("limits", [None, ISOLATED], ids=["inline", "isolated"])
def test_hostile_inputs_are_clear_errors(limits: ptc.Limits | None) -> None:
    for src, said in HOSTILE:
        e = fails(src, limits=limits)
        assert e.kind == "runtime" and said in str(e), (src, str(e))


@pytest.mark.parametrize("limits", [ptc.Limits(), ISOLATED], ids=["inline", "isolated"])
def test_a_forest_that_could_outgrow_max_memory_is_refused_before_it_grows(limits: ptc.Limits) -> None:
    X = np.random.default_rng(1).normal(size=(2000, 2))
    data = {"X": X.tolist(), "y": (X[:, 0] > 0).astype(int).tolist()}
    bound = 50 * (2 * 2000 - 1) * (64 + 16)  # 50 trees of at most 2 x 2000 - 1 nodes (two classes)
    near = limits.model_copy(update={"max_memory": bound + 2 * X.nbytes + 2 * 2**20})  # the input's estimate fits
    src = "(count (:feature-importances (ml/random-forest-classifier X y {:n-estimators %d :seed 1})))"
    assert run(src % 50, data, near) == 2
    e = fails(src % 60, data, near)
    assert e.kind == "limit" and "max_memory" in e.message and "would hold up to" in e.message
    assert "max_memory" in fails(src % 10**12, data, limits).message


@pytest.mark.parametrize("limits", [ptc.Limits(max_collection=999), ISOLATED.model_copy(update={"max_collection": 999})],
                         ids=["inline", "isolated"])
def test_the_inputs_count_against_max_collection(limits: ptc.Limits) -> None:
    rows = [[i, i] for i in range(600)]
    assert run("(count (:coefficients (ml/linear-regression (take 499 X) (range 499))))", {"X": rows}, limits) == 2
    e = fails("(ml/linear-regression X (range 600))", {"X": rows}, limits)
    assert e.kind == "limit" and "max_collection" in e.message
