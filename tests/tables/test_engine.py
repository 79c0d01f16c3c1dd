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


def test_a_float_sum_of_only_negative_zeros_is_negative_zero_on_the_engine(every_table: None) -> None:
    """DuckDB starts a sum at +0.0, reduce + at its first value: a group of only -0.0 is -0.0."""
    t = pa.table({"k": ["a", "a", "b", "c"], "f": [-0.0, -0.0, 1.0, -0.0]})
    src = "(for [[k g] (group-by :k data/t)] [k (reduce + (map :f g))])"
    assert ENGINE in str(explain(src, data={"t": t}))
    assert _outcome(src, t) == _outcome(src, t.to_pylist()) == '(["a" -0.0] ["b" 1.0] ["c" -0.0])'


def test_folds_the_data_makes_inexact_fall_back(every_table: None) -> None:
    """The max of floats holding NaN depends on the order (checked in the same query): the
    groups run one by one, as on group numbers."""
    t = pa.table({"k": ["a", "a", "b"], "f": [float("nan"), 2.0, 1.0]})
    src = "(for [[k g] (group-by :k data/t)] [k (apply max (map :f g))])"
    report = str(explain(src, data={"t": t}))
    assert ENGINE not in report and "max over floats holding NaN or -0.0" in report, report
    assert _outcome(src, t) == _outcome(src, t.to_pylist())


def _many_groups(n: int) -> Any:
    rng = np.random.default_rng(7)
    return pa.table({"a": np.arange(n) % (n // 2), "b": np.arange(n) % 3, "f": rng.random(n)})


@pytest.mark.timing
def test_a_query_is_interrupted_at_the_deadline(every_table: None) -> None:
    t = _many_groups(12_000_000)  # 6M groups: ~2.4 s on a quiet machine (6M rows took 1.0-1.3 s, inside the timeout)
    src = "(count (for [[[a b] g] (group-by (juxt :a :b) data/t)] {:a a :s (reduce + (map :f g))}))"
    ptc.run(src, data={"t": _many_groups(10)})  # importing duckdb (~0.5 s, once a process) is not the query
    t0 = time.perf_counter()
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"t": t}, limits=ptc.Limits(timeout=1.0, max_collection=20_000_000, max_memory=8 << 30))
    elapsed = time.perf_counter() - t0
    # (the keys are made before the query: ~0.5 s on a loaded machine, which a 0.7 s timeout met first)
    assert e.value.kind == "limit" and "timeout" in e.value.message and "in a query" in e.value.message, e.value
    assert elapsed < 1.0 + 0.5, elapsed


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


# -- a Parquet file larger than LoadLimits.scan_bytes: scanned, not read ----------------------

SCAN = ptc.LoadLimits(scan_bytes=1 << 20)


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    """2M rows (about 40 MB decompressed) in 2,000 text groups, and the same rows in memory."""
    import pyarrow.parquet as pq

    n = 2_000_000
    rng = np.random.default_rng(11)
    ids = pa.array([f"id{i:04d}" for i in range(2000)]).take(pa.array(rng.integers(0, 2000, n)))
    t = pa.table({"id": ids, "v": rng.integers(0, 100, n), "f": rng.random(n)})
    path = tmp_path_factory.mktemp("scan") / "big.parquet"
    pq.write_table(t, path, row_group_size=250_000)
    return path, t


def test_a_large_parquet_file_is_scanned_not_read(big_file: tuple[Any, Any]) -> None:
    path, t = big_file
    x = ptc.table(path, limits=SCAN)
    assert x.unread is not None and len(x) == t.num_rows
    assert x.schema_text() == ":id string, :v int, :f float"  # from the metadata: nothing read
    assert x.unread is not None


GROUPED = "(for [[k g] (group-by :id data/x)] {:id k :s (reduce + (map :v g)) :f (reduce + (map :f g)) :n (count g)})"


def test_a_group_by_of_a_scanned_file_streams_it_under_a_small_max_memory(big_file: tuple[Any, Any]) -> None:
    """The engine reads the file itself, a row group at a time, never holding it: a max_memory
    of half the file's decompressed size (and a quarter of the 64 bytes a row the row path
    would need) is enough; the answer is the one the same rows give in memory, to the bit."""
    path, t = big_file
    x = ptc.table(path, limits=SCAN)
    limits = ptc.Limits(max_memory=20 << 20, timeout=60)
    assert t.nbytes > 2 * limits.max_memory
    report = str(explain(GROUPED, data={"x": x}, limits=limits))
    assert ENGINE in report, report
    scanned = ptc.run(f"(take 5 {GROUPED})", data={"x": x}, limits=limits)
    assert x.unread is not None
    held = ptc.run(f"(take 5 {GROUPED})", data={"x": t}, limits=ptc.Limits(max_memory=1 << 30, max_collection=t.num_rows))
    assert ptc.pr_str(scanned.value) == ptc.pr_str(held.value)
    assert ptc.run(f"(count {GROUPED})", data={"x": x}, limits=limits).value == len(set(t.column("id").to_pylist()))


def test_any_other_use_reads_the_file_within_its_load_limits(big_file: tuple[Any, Any]) -> None:
    path, t = big_file
    src = "(count (filter #(> (:v %) 50) data/x))"
    want = sum(1 for v in t.column("v").to_pylist() if v > 50)
    x = ptc.table(path, limits=SCAN)
    assert ptc.run(src, data={"x": x}).value == want and x.unread is None
    size = path.stat().st_size  # the file is within max_bytes, what it decompresses to is not
    small = ptc.table(path, limits=ptc.LoadLimits(scan_bytes=1 << 20, max_bytes=size + 1))
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"x": small})
    assert "max_bytes" in e.value.message and str(path) in e.value.message
    isolated = ptc.table(path, limits=SCAN)
    limits = ptc.Limits(isolation="process", max_collection=t.num_rows)
    assert ptc.run(src, data={"x": isolated}, limits=limits).value == want


def test_a_fold_the_engine_cannot_make_reads_the_file_and_folds_on_group_numbers(big_file: tuple[Any, Any]) -> None:
    path, t = big_file
    src = "(take 3 (for [[k g] (group-by :id data/x)] {:id k :top (take 2 (sort > (map :f g)))}))"
    x = ptc.table(path, limits=SCAN)
    big = ptc.Limits(max_memory=1 << 30, max_collection=t.num_rows)
    assert ptc.pr_str(ptc.run(src, data={"x": x}, limits=big).value) == ptc.pr_str(
        ptc.run(src, data={"x": t}, limits=big).value)
    assert x.unread is None


def test_a_check_the_column_answers_is_left_out_of_the_query() -> None:
    """In memory, a column with no nil, -0.0 or NaN needs no check for them in the query (+0.0
    alone has one max); a file's column (not read) always gets them."""
    assert engine._holds_none(pa.array([1, 2]), "nil") and not engine._holds_none(pa.array([1, None]), "nil")
    assert engine._holds_none(pa.array([0.0, 1.5]), "-0.0") and not engine._holds_none(pa.array([1.0, -0.0]), "-0.0")
    assert engine._holds_none(pa.array([1.0, -2.5]), "NaN or -0.0")
    assert engine._holds_none(pa.array([1.0, 0.0]), "NaN or -0.0")
    assert not engine._holds_none(pa.array([1.0, -0.0]), "NaN or -0.0")
    assert not engine._holds_none(pa.array([1.0, float("nan")]), "NaN or -0.0")
    assert not engine._holds_none(pa.array([], pa.float64()), "nil")  # a file's column: nothing known
