"""Group folds run on DuckDB (ptc.interpreter.columnar.engine) give the row path's result,
within the run's limits: interrupted at the deadline, bounded by max_memory, in the child
under process isolation. The engine runs for large tables only, so most tests lower its
threshold to run it on the generated tables of test_group_folds."""

from __future__ import annotations

import time
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
np = pytest.importorskip("numpy")
from hypothesis import HealthCheck, given, settings  # noqa: E402

import ptc  # noqa: E402
from ptc.interpreter.columnar import engine  # noqa: E402
from ptc.interpreter.columnar.explain import explain  # noqa: E402

from .test_group_folds import PROGRAMS, _clean, _outcome, tables  # noqa: E402

ENGINE = "folded by DuckDB"


@pytest.fixture
def every_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine for tables of any size (it otherwise starts at engine.MIN_ROWS rows)."""
    monkeypatch.setattr(engine, "MIN_ROWS", 0)


@pytest.mark.parametrize("src", PROGRAMS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(table=tables())
def test_engine_folds_match_rows(every_table: None, src: str, table: Any) -> None:
    assert _outcome(src, table) == _outcome(src, table.to_pylist())


ON_ENGINE = [
    "(for [[k g] (group-by :k data/t)] {:k k :s (reduce + (map :v g)) :n (count g) :f (reduce + (map :f g))})",
    "(for [[k g] (group-by :k data/t)] {:k k :m (/ (reduce + (map :v g)) (count g)) :a (avg-by :f g)})",
    "(update-vals (group-by :k data/t) (fn [g] [(apply max (map :v g)) (apply min (map :f g))]))",
    "(for [[[a b] g] (group-by (juxt :k :s) data/t)] {:k a :s b :d (count (distinct (map :v g))) "
    ":first (:f (first g)) :last (:v (last g))})",
]


@pytest.mark.parametrize("src", ON_ENGINE)
def test_the_engine_runs_exact_folds(every_table: None, src: str) -> None:
    report = str(explain(src, data={"t": _clean()}))
    assert ENGINE in report, report
    assert _outcome(src, _clean()) == _outcome(src, _clean().to_pylist())


def test_folds_the_engine_cannot_make_exact_run_on_group_numbers(every_table: None) -> None:
    """A float sum over a column holding -0.0: DuckDB starts a sum at +0.0, reduce + at its first value."""
    t = pa.table({"k": ["a", "a", "b"], "f": [-0.0, -0.0, 1.0]})
    src = "(for [[k g] (group-by :k data/t)] [k (reduce + (map :f g))])"
    report = str(explain(src, data={"t": t}))
    assert ENGINE not in report and "no group built" in report, report
    assert _outcome(src, t) == "([\"a\" -0.0] [\"b\" 1.0])"


def _many_groups(n: int) -> Any:
    rng = np.random.default_rng(7)
    return pa.table({"a": np.arange(n) % (n // 2), "b": np.arange(n) % 3, "f": rng.random(n)})


def test_a_query_is_interrupted_at_the_deadline(every_table: None) -> None:
    t = _many_groups(6_000_000)  # 3M groups folded on one thread: ~1.5 s
    src = "(count (for [[[a b] g] (group-by (juxt :a :b) data/t)] {:a a :s (reduce + (map :f g))}))"
    ptc.run(src, data={"t": _many_groups(10)})  # importing duckdb (~0.5 s, once a process) is not the query
    t0 = time.perf_counter()
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"t": t}, limits=ptc.Limits(timeout=0.7, max_collection=10_000_000, max_memory=4 << 30))
    elapsed = time.perf_counter() - t0
    assert e.value.kind == "limit" and "timeout" in e.value.message and "in a query" in e.value.message, e.value
    assert elapsed < 0.7 + 0.5, elapsed


def test_a_query_larger_than_max_memory_spills_or_ends_with_the_limit() -> None:
    """1M rows in as many groups under a max_memory just above what the run's own estimate
    admits (64 bytes a row): DuckDB's hash table does not fit, so it spills to disk (or ends
    with the limit), never holding more than max_memory."""
    n = 1_000_000
    t = _many_groups(n)
    src = "(count (for [[[a b] g] (group-by (juxt :a :b) data/t)] {:a a :n (count g)}))"
    try:
        r = ptc.run(src, data={"t": t}, limits=ptc.Limits(max_memory=n * 64 + (1 << 20), max_collection=n))
    except ptc.PTCError as e:
        assert e.kind == "limit" and "max_memory" in e.message, e
    else:
        assert r.value == n  # (i mod 500,000, i mod 3): every row its own group


def test_under_process_isolation_the_plan_runs_in_the_child_on_group_numbers(every_table: None) -> None:
    """DuckDB reserves more address space than an isolated child may map: the child folds on
    group numbers, with the same answer."""
    n = 3001
    t = pa.table({"k": pa.array(["x", "y", "z"]).take(pa.array(np.arange(n) % 3)), "v": np.arange(n)})
    src = "(for [[k g] (group-by :k data/t)] {:k k :s (reduce + (map :v g)) :n (count g)})"
    inline = ptc.run(src, data={"t": t})
    assert ENGINE in str(explain(src, data={"t": t}))
    isolated = ptc.run(src, data={"t": t}, limits=ptc.Limits(isolation="process"))
    assert ptc.pr_str(isolated.value) == ptc.pr_str(inline.value)
    xs = np.arange(n)[::3]
    assert ptc.pr_str(inline.value).startswith(f'({{:k "x", :s {int(xs.sum())}, :n {len(xs)}}}')
