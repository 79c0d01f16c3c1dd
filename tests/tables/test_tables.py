"""Tables (issue 19): Arrow tables, DataFrames and DuckDB relations are vectors of row maps.

A table is read where a program touches it (count is the row count; cells are converted a
block at a time), behaves as the same rows given as plain dicts in every builtin, and is never
changed by a program."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

import ptc

pa = pytest.importorskip("pyarrow")

ROWS = [
    {"id": 1, "status": "paid", "amount": 12.5, "qty": 2, "region": "north", "unit price": 3},
    {"id": 2, "status": "open", "amount": 7.0, "qty": 1, "region": "south", "unit price": 4},
    {"id": 3, "status": None, "amount": 3.25, "qty": 5, "region": "north", "unit price": 5},
    {"id": 4, "status": "paid", "amount": 20.0, "qty": 3, "region": "east", "unit price": 6},
]

PROGRAMS = [
    "(count data/t)",
    "(first data/t)",
    "(last data/t)",
    "(nth data/t 2)",
    "(data/t 1)",
    "(get-in data/t [0 :status])",
    "(map :status data/t)",
    "(mapv :amount data/t)",
    '(filter #(= "paid" (:status %)) data/t)',
    '(->> data/t (filter #(= "paid" (:status %))) (map :amount) (reduce +))',
    "(reduce (fn [acc r] (+ acc (* (:qty r) (:amount r)))) 0 data/t)",
    "(group-by :region data/t)",
    "(update-vals (group-by :region data/t) count)",
    "(frequencies (map :region data/t))",
    "(sort-by :amount > data/t)",
    "(sort-by :amount data/t)",
    "(take 2 (drop 1 data/t))",
    "(rest data/t)",
    "(subvec data/t 1 3)",
    "(reverse data/t)",
    "(distinct (map :region data/t))",
    "(assoc (first data/t) :x 1)",
    "(update (first data/t) :qty inc)",
    "(dissoc (first data/t) :id)",
    "(merge (first data/t) {:z 1})",
    "(select-keys (first data/t) [:id :amount])",
    '(get (first data/t) "unit price")',
    "(keys (first data/t))",
    "(vals (second data/t))",
    "(conj data/t {:id 5})",
    "(into [] data/t)",
    "(into #{} (map :region data/t))",
    "(zipmap (map :id data/t) (map :qty data/t))",
    "(= data/t data/t)",
    "(let [[a & more] data/t] [(:id a) (count more)])",
    "(for [r data/t :when (:status r)] (:id r))",
    "(loop [rs (seq data/t) s 0] (if rs (recur (next rs) (+ s (:qty (first rs)))) s))",
    "(sum-by :amount data/t)",
    "(avg-by :qty data/t)",
    "(max-by :amount data/t)",
    "(pluck :id data/t)",
    "(filter (where :status = \"paid\") data/t)",
    "(count (filter (all-of (where :qty > 1) (where :region = \"north\")) data/t))",
    "(apply max-key :amount data/t)",
    "(map-indexed (fn [i r] [i (:id r)]) data/t)",
    "(partition 2 (map :id data/t))",
    "(str (first data/t))",
    "(pr-str (take 1 data/t))",
    "(contains? (first data/t) :status)",
    "(empty? data/t)",
    "(vector? data/t)",
    "(map? (first data/t))",
    "(hash-map (first data/t) 1)",
    "(#{(first data/t)} (first data/t))",
    "(update-in data/t [0 :amount] + 1)",
    '(map #(assoc % :x 1 "unit price" 0 :id nil) data/t)',
    '(map #(dissoc % "unit price" :qty) data/t)',
    "(map #(update % :nope (fnil inc 0)) data/t)",
    '(= (assoc (first data/t) :x 1) (assoc (into {} (first data/t)) :x 1))',
    '(contains? #{(assoc (first data/t) :status "x")} (assoc (into {} (first data/t)) :status "x"))',
    "(peek data/t)",
    "(pop data/t)",
]


def table(rows: list[dict[str, Any]]) -> Any:
    return pa.Table.from_pylist(rows)


def outcome(src: str, data: Any) -> tuple[str, Any]:
    try:
        r = ptc.run(src, data={"t": data})
    except ptc.PTCError as e:
        return ("error", e.kind)
    return ("ok", ptc.pr_str(r.value))


@pytest.mark.parametrize("src", PROGRAMS)
def test_a_table_is_the_same_rows_as_plain_dicts(src: str) -> None:
    assert outcome(src, table(ROWS)) == outcome(src, ROWS)


def test_writes_of_wide_rows_and_odd_names_are_the_same_rows_as_plain_dicts() -> None:
    wide = [{f"c{i}": i * r for i in range(20)} for r in range(3)]
    odd = [{"a b": 1, ":k": 2, "x": 3}]
    for rows, src in [(wide, "(map #(assoc % :c3 0 :z 1) data/t)"), (wide, "(map #(update % :c0 inc) data/t)"),
                      (wide, "(map #(dissoc % :c1) data/t)"), (odd, '(map #(assoc % "a b" 0 :x 9) data/t)'),
                      (odd, '(map #(dissoc % ":k") data/t)')]:
        assert outcome(src, table(rows)) == outcome(src, rows), src


def test_a_table_equals_the_plain_vector_of_its_rows() -> None:
    r = ptc.run("(= data/t [{:id 1 :v nil} {:id 2 :v \"x\"}])", data={"t": table([{"id": 1, "v": None},
                                                                              {"id": 2, "v": "x"}])})
    assert r.value is True


def test_results_leave_as_plain_python() -> None:
    r = ptc.run("(take 2 data/t)", data={"t": table(ROWS)})
    assert ptc.to_python(r.value) == ROWS[:2]
    r = ptc.run("data/t", data={"t": table(ROWS)})
    assert ptc.to_python(r.value) == ROWS


def test_writes_never_change_the_callers_table() -> None:
    t = table(ROWS)
    before = t.to_pylist()
    ptc.run("(do (assoc (first data/t) :status \"x\") (conj data/t {}) (update-in data/t [0 :qty] inc)"
            " (into data/t [{:id 9}]) (assoc data/t 0 nil))", data={"t": t})
    assert t.to_pylist() == before


def test_count_reads_no_cell() -> None:
    t = table(ROWS)
    from ptc.interpreter.api import convert_data

    view = convert_data({"t": t})["t"]
    assert ptc.run("(count data/t)", data={"t": view}).value == 4
    assert all(b is None for col in view._blocks for b in col)
    ptc.run("(:amount (nth data/t 3))", data={"t": view})
    amount = view._index[ptc.run(":amount").value]
    assert [b is not None for b in view._blocks[amount]] == [True]
    assert sum(b is not None for col in view._blocks for b in col) == 1


# -- sources -----------------------------------------------------------------------------------


def test_pandas_frames_are_tables() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(ROWS)
    r = ptc.run('(->> data/t (filter #(= "north" (:region %))) (map :qty) (reduce +))', data={"t": df})
    assert r.value == 7
    assert df.equals(pd.DataFrame(ROWS))  # unchanged
    # NaN in a float column stays NaN (pandas' missing float); None in an object column is nil
    df2 = pd.DataFrame({"x": [1.0, math.nan], "s": ["a", None]})
    assert ptc.pr_str(ptc.run("(map :s data/t)", data={"t": df2}).value) == '("a" nil)'


def test_a_meaningful_pandas_index_becomes_a_column() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"n": [1, 2]}, index=pd.Index(["a", "b"], name="key"))
    assert ptc.pr_str(ptc.run("(first data/t)", data={"t": df}).value) == '{:n 1, :key "a"}'


def test_polars_frames_and_lazy_frames_are_tables() -> None:
    pl = pytest.importorskip("polars")
    df = pl.DataFrame(ROWS)
    assert ptc.run("(sum-by :qty data/t)", data={"t": df}).value == 11
    assert ptc.run("(count data/t)", data={"t": df.lazy().filter(pl.col("qty") > 1)}).value == 3


def test_arrow_batches_readers_and_datasets_are_tables() -> None:
    ds = pytest.importorskip("pyarrow.dataset")
    t = table(ROWS)
    batch = t.to_batches()[0]
    assert ptc.run("(count data/t)", data={"t": batch}).value == 4
    reader = pa.RecordBatchReader.from_batches(t.schema, t.to_batches())
    assert ptc.run("(count data/t)", data={"t": reader}).value == 4
    assert ptc.run("(count data/t)", data={"t": ds.dataset(t)}).value == 4


def test_duckdb_relations_are_tables() -> None:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    rel = con.sql("SELECT * FROM range(5) t(n)")
    assert ptc.run("(reduce + (map :n data/t))", data={"t": rel}).value == 10


def test_a_tool_may_return_a_dataframe() -> None:
    pd = pytest.importorskip("pandas")

    @ptc.tool
    def orders() -> Any:
        """All orders."""
        return pd.DataFrame(ROWS)

    r = ptc.run("(count (filter #(= \"paid\" (:status %)) (tool/orders)))", tools=[orders])
    assert r.value == 2


def test_a_frame_arrow_cannot_hold_is_a_clear_error() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"x": [1, "a", object()]})
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(count data/t)", data={"t": df})
    assert "data/t: cannot read this DataFrame as a table" in e.value.message
    assert e.value.hint


def test_other_objects_of_those_libraries_are_refused() -> None:
    pd = pytest.importorskip("pandas")
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(count data/t)", data={"t": pd.Series([1, 2]).groupby([0, 1])})
    assert "is not a table" in e.value.message


# issue 44, item 7: what pandas and numpy users hold

def test_a_pandas_series_is_a_one_column_table_named_as_to_frame_names_it() -> None:
    pd = pytest.importorskip("pandas")
    assert ptc.run("(sum-by :v data/s)", data={"s": pd.Series([1, 2, 3], name="v")}).value == 6
    assert ptc.to_python(ptc.run("data/s", data={"s": pd.Series([1.5, None])}).value) == [{"value": 1.5},
                                                                                         {"value": None}]


@pytest.mark.parametrize("given, want", [
    ("int64", 3), ("int8", 3), ("uint32", 3), ("bool_", True), ("float32", 1.5), ("float64", 1.5),
])
def test_numpy_scalars_are_the_numbers_they_hold(given: str, want: object) -> None:
    np = pytest.importorskip("numpy")
    x = getattr(np, given)(want)
    assert ptc.run("data/x", data={"x": x}).value == want and type(ptc.run("data/x", data={"x": x}).value) is type(want)

    @ptc.tool
    def give() -> object:
        """a number"""
        return x

    assert ptc.run("(tool/give)", tools=[give]).value == want


def test_numpy_arrays_of_one_or_two_dimensions_are_vectors() -> None:
    np = pytest.importorskip("numpy")
    r = ptc.run("[(reduce + data/v) (count data/m) (second (first data/m)) data/w]",
                data={"v": np.arange(4), "m": np.arange(6).reshape(2, 3), "w": np.array(["a", "b"])})
    assert ptc.to_python(r.value) == [6, 2, 1, ["a", "b"]]
    with pytest.raises(ptc.PTCError, match="numpy ndarray of 3 dimensions"):
        ptc.run("data/x", data={"x": np.zeros((2, 2, 2))})


def test_a_map_result_is_a_table_of_its_entries() -> None:
    """ptc.to_pandas of a frequencies result (pandas' value_counts().reset_index()), and of a
    map of maps (a group's aggregates: the key and the columns)."""
    pytest.importorskip("pandas")
    freq = ptc.to_pandas(ptc.run('(frequencies ["a" "b" "a"])').value)
    assert freq.to_dict("records") == [{"key": "a", "value": 2}, {"key": "b", "value": 1}]
    grouped = ptc.run("(update-vals (group-by :k [{:k 1 :v 2} {:k 2 :v 5}]) (fn [g] {:n (count g) :s (sum-by :v g)}))")
    assert ptc.to_pandas(grouped.value).to_dict("records") == [{"key": 1, "n": 1, "s": 2}, {"key": 2, "n": 1, "s": 5}]


# -- cell types ---------------------------------------------------------------------------------


def test_cells_of_every_arrow_type_are_ptc_values() -> None:
    import decimal

    t = pa.table({
        "dec": pa.array([decimal.Decimal("1.25"), None], pa.decimal128(10, 2)),
        "bin": pa.array([b"\x00\xff", None]),
        "st": pa.array([{"a": 1, "b": "x"}, None]),
        "ls": pa.array([[1, 2], []]),
        "mp": pa.array([[("k", 1)], None], pa.map_(pa.string(), pa.int64())),
        "dict": pa.array(["a", "b"]).dictionary_encode(),
        "null": pa.array([None, None]),
        "big": pa.array([2**63 - 1, -1]),
    })
    r = ptc.run("(first data/t)", data={"t": t})
    assert ptc.to_python(r.value) == {"dec": 1.25, "bin": "AP8=", "st": {"a": 1, "b": "x"}, "ls": [1, 2],
                                      "mp": {"k": 1}, "dict": "a", "null": None, "big": 2**63 - 1}
    assert ptc.run("(:a (:st (first data/t)))", data={"t": t}).value == 1


def test_huge_cells_and_wide_tables() -> None:
    t = pa.table({"big": ["x" * 2_000_000], **{f"c{i}": [i] for i in range(500)}})
    assert ptc.run("(count (:big (first data/t)))", data={"t": t}).value == 2_000_000
    assert ptc.run("(count (first data/t))", data={"t": t}).value == 501


# -- limits --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ten_million() -> Any:
    np = pytest.importorskip("numpy")
    return pa.table({"id": np.arange(10_000_000), "x": np.zeros(10_000_000)})


def test_a_ten_million_row_table_is_counted_and_indexed_at_once(ten_million: Any) -> None:
    assert ptc.run("(count data/t)", data={"t": ten_million}).value == 10_000_000
    assert ptc.run("(:id (nth data/t 9999999))", data={"t": ten_million}).value == 9_999_999


@pytest.mark.timing
def test_returning_a_ten_million_row_table_hands_it_back_without_conversion(ten_million: Any) -> None:
    import time

    start = time.monotonic()
    r = ptc.run("data/t", data={"t": ten_million}, limits=ptc.Limits(timeout=1.0))
    assert ptc.to_arrow(r.value).num_rows == 10_000_000  # columnar: counted by its Arrow size, not printed
    assert time.monotonic() - start < 3.0


@pytest.mark.timing
@pytest.mark.parametrize("src, limit", [
    ("(vec data/t)", "max_collection"),
    ("(into [] data/t)", "max_collection"),
    ("(sort-by :x data/t)", "max_collection"),
    ("(mapv :id data/t)", "limit "),  # built row by row: the deadline or the size, whichever comes first
    ("(println data/t)", "max_output"),
    ("(str data/t)", "max_string"),
    ("(set data/t)", "max_collection"),
    ("(into #{} data/t)", "max_collection"),
])
def test_realizing_a_ten_million_row_table_is_a_limit_error(ten_million: Any, src: str, limit: str) -> None:
    import time

    start = time.monotonic()
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"t": ten_million}, limits=ptc.Limits(timeout=1.0))
    assert e.value.kind == "limit", e.value
    assert limit in e.value.message or "timeout" in e.value.message  # the size, or the deadline first
    assert time.monotonic() - start < 3.0  # promptly: no full conversion before the limit


def test_walking_a_ten_million_row_table_row_by_row_ends_at_the_deadline(ten_million: Any) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(reduce (fn [a r] (+ a (:id r))) 0 data/t)", data={"t": ten_million},
                limits=ptc.Limits(timeout=0.5))
    assert e.value.kind == "limit"


# -- isolation ----------------------------------------------------------------------------------


def test_tables_cross_process_isolation() -> None:
    limits = ptc.Limits(isolation="process")
    r = ptc.run("(def paid (filter #(= \"paid\" (:status %)) data/t)) (map :id paid)",
                data={"t": table(ROWS)}, limits=limits)
    assert ptc.pr_str(r.value) == "(1 4)"
    assert ptc.to_python(r.memory["paid"]) == [ROWS[0], ROWS[3]]
    r = ptc.run("(subvec data/t 1 2)", data={"t": table(ROWS)}, limits=limits)
    assert ptc.to_python(r.value) == [ROWS[1]]


@pytest.mark.timing
def test_an_isolated_run_over_a_table_imports_nothing_on_its_clock() -> None:
    """What a table run needs (pyarrow.compute, the kernels, pandas through pyarrow's first
    conversion: 0.4 s) is imported by the zygote, whether the host loaded pyarrow before its
    first isolated run or after: the child's run fits a timeout shorter than those imports."""
    import subprocess
    import sys

    code = (
        "import ptc\n"
        "iso = lambda t: ptc.Limits(isolation='process', timeout=t)\n"
        "ptc.run('(+ 1 2)', limits=iso(2))\n"  # the zygote starts before pyarrow is imported
        "import pyarrow as pa\n"
        "t = pa.table({'v': [0.5, 1.5, 2.5]})\n"
        "r = ptc.run('(count (filter #(> (:v %) 1) data/t))', data={'t': t}, limits=iso(0.2))\n"
        "s = ptc.run('(reduce + (map :v (sort-by :v data/t)))', data={'t': t}, limits=iso(0.2))\n"
        "print(r.value, s.value)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["2", "4.5"], out.stderr[-2000:]


def test_a_malformed_table_from_the_child_is_refused() -> None:
    import pickle

    from ptc.interpreter.isolation.pickling import _r_table

    with pytest.raises(pickle.UnpicklingError):
        _r_table(b"\xff\xff\xff\xff" + b"\x00" * 64)


# -- what the model sees -------------------------------------------------------------------------


def test_the_prompt_describes_a_table_by_its_columns_and_a_few_rows() -> None:
    from ptc.agent.prompt import describe_data
    from ptc.interpreter.api import convert_data

    rows = ROWS * 50_000
    text = describe_data(convert_data({"orders": table(rows)}))
    assert text.splitlines()[0] == ("data/orders: table of 200,000 rows (a vector of maps), columns: :id int, "
                                    ':status string (50,000 nil), :amount float, :qty int, :region string, "unit price" int')
    assert text.splitlines()[1].startswith("  (200,000 rows: filter, remove, group-by")  # what is fast over it
    assert text.count("{:id") == 3
    assert len(text) < 800


def test_the_prompt_marks_column_names_that_begin_or_end_with_a_space(tmp_path: Path) -> None:
    from ptc.agent.prompt import describe_data
    from ptc.interpreter.api import convert_data

    csv = tmp_path / "weather.csv"
    csv.write_text("DATE, WINDSPEED,avg. wait time ,ok\n2020-01-01,3.5,2,1\n")
    text = describe_data(convert_data({"w": ptc.table(csv), "rows": [{" WINDSPEED": 1, "a": 2}],
                                       "plain": [{"a b": 1}]}))
    assert text.splitlines() == [
        'data/w: table of 1 rows (a vector of maps), columns: :DATE string, " WINDSPEED" float, '
        '"avg. wait time " int, :ok int',
        '  note: " WINDSPEED", "avg. wait time " begin or end with a space, part of the name: read them with get, '
        'e.g. (get row " WINDSPEED")',
        '  sample rows: {:DATE "2020-01-01", " WINDSPEED" 3.5, "avg. wait time " 2, :ok 1}',
        'data/rows: list[1], sample: {" WINDSPEED" 1, :a 2}',
        '  note: " WINDSPEED" begins or ends with a space, part of the name: read it with (get row " WINDSPEED")',
        'data/plain: list[1], sample: {"a b" 1}']  # a space inside a name is plain to see


def test_import_ptc_does_not_load_pyarrow() -> None:
    import subprocess
    import sys

    code = ("import sys, ptc; ptc.run('(count data/x)', data={'x': [1]}); "
            "print(any(m.split('.')[0] in ('pyarrow', 'pandas', 'polars', 'duckdb') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
