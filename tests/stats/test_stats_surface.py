"""How programs reach the analyst's library: names and requires, errors a model can act on,
the extra it needs, and the limits that do not refuse ordinary work."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

import ptc
from ptc.interpreter import registry


def run(src: str, **data: object) -> object:
    return ptc.to_python(ptc.run(src, data=data).value)


@pytest.mark.parametrize("src", [
    "(stats/median [1 2 3 4])",
    "(do (require '[fastmath.stats :as fs]) (fs/median [1 2 3 4]))",
    "(do (require '[fastmath.stats :refer [median]]) (median [1 2 3 4]))",
    "(do (ns analysis (:require [fastmath.stats :as s])) (s/median [1 2 3 4]))",
])
def test_the_library_is_reached_as_fastmath_stats_under_any_alias(src: str) -> None:
    assert run(src) == 2.5


def test_lm_is_also_fastmath_ml_regression() -> None:
    assert run("(do (require '[fastmath.ml.regression :as reg]) (:beta (reg/lm [1 3 5] [0 1 2])))") == \
        pytest.approx([2.0])


@pytest.mark.parametrize("src, words", [
    ("(stats/mean [1 \"a\" 3])", ["expected", "numbers", "string"]),
    ("(stats/mean data/rows)", ["map", "(map :price rows)"]),
    ("(stats/quantile [1 2 3] 1.5)", ["between 0 and 1"]),
    ("(stats/quantile [1 2 3] 0.5 :r10)", ["unknown method", ":r9"]),
    ("(stats/t-test-one-sample [1 2 3] {:mean 2})", ["unknown option", ":mu"]),
    ("(stats/cdf :gamma 1)", ["unknown distribution", "normal"]),
    ("(stats/lm [1 2] [[1 2] [3 4]])", ["cannot fit"]),
    ("(stats/medain [1 2])", ["stats/median"]),
    ("(stats/correlation [1 2 3] [1 2])", ["differ in length"]),
])
def test_errors_say_what_to_fix(src: str, words: list[str]) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"rows": [{"price": 1}, {"price": 2}]})
    text = f"{e.value.message} {e.value.hint or ''}"
    assert e.value.line is not None and all(w in text for w in words), text


def test_a_missing_module_is_an_analysis_error_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    b = registry.REGISTRY["stats/median"]
    fake = registry.replace(b, needs=("ptc_no_such_module",))
    monkeypatch.setitem(registry.REGISTRY, "stats/median", fake)
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(stats/median [1 2])")
    assert e.value.kind == "analysis" and "pip install 'ptc-lisp[stats]'" in e.value.message
    assert (e.value.line, e.value.column) == (1, 2)


def test_the_first_call_imports_outside_the_runs_clock() -> None:
    """numpy and scipy are imported when the program is analyzed: the run's own time is small."""
    r = ptc.run("(:p-value (stats/t-test-one-sample [1 2 3 4 5] {:mu 2}))")
    assert r.duration < 0.2 and r.value == pytest.approx(0.2301996410804989)


def test_a_million_values_are_ordinary_work() -> None:
    t = pa.table({"v": np.random.default_rng(0).normal(size=1_000_000)})
    out = run("[(stats/median (map :v data/t)) (stats/stddev (map :v data/t)) (stats/quantile (map :v data/t) 0.99)]",
              t=t)
    v = t.column("v").to_numpy()
    assert out == pytest.approx([np.median(v), v.std(ddof=1), np.quantile(v, 0.99)], rel=1e-9)


def test_nil_and_nan_are_left_out_as_pandas_skipna() -> None:
    assert run("[(stats/mean [1 nil 3 ##NaN]) (stats/median [nil 5]) (stats/stddev [1 nil]) (stats/mean [nil])]") == \
        [2.0, 5.0, None, None]
