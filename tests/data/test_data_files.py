"""Reading data files into tables: every format, the CSV typing rule with and without pyarrow, names and parts."""

from __future__ import annotations

import csv
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ptc
from ptc.data.files import parse_spec

CSV = "id,amount,ok,day,name,note\n1,2.5,true,2026-01-05,Ada,\n2,,false,2026-01-06,,x\n-3,1e3,TRUE,2026-02-01,Grace,y\n"
CSV_ROWS = [
    {"id": 1, "amount": 2.5, "ok": True, "day": "2026-01-05", "name": "Ada", "note": None},
    {"id": 2, "amount": None, "ok": False, "day": "2026-01-06", "name": None, "note": "x"},
    {"id": -3, "amount": 1000.0, "ok": True, "day": "2026-02-01", "name": "Grace", "note": "y"},
]


def rows(value: Any) -> list[dict[str, Any]]:
    """A table's rows as plain dicts, whichever reader made it."""
    return value if isinstance(value, list) else value.to_pylist()


def test_csv_columns_are_typed_the_same_with_and_without_pyarrow(tmp_path: Path, reader: str) -> None:
    (tmp_path / "sales.csv").write_text(CSV)
    table = ptc.table(tmp_path / "sales.csv")
    assert isinstance(table, list) == (reader == "stdlib")
    assert rows(table) == CSV_ROWS
    (tmp_path / "sales.tsv").write_text(CSV.replace(",", "\t"))
    assert rows(ptc.table(tmp_path / "sales.tsv")) == CSV_ROWS


def test_csv_dates_and_times_stay_the_text_of_the_file(tmp_path: Path, reader: str) -> None:
    (tmp_path / "t.csv").write_text("d,ts,h\n2026-01-05,2026-01-05T10:00:00,10:30\n2026-12-31,2026-01-06 11:00:00,\n")
    assert rows(ptc.table(tmp_path / "t.csv")) == [{"d": "2026-01-05", "ts": "2026-01-05T10:00:00", "h": "10:30"},
                                                    {"d": "2026-12-31", "ts": "2026-01-06 11:00:00", "h": None}]


def test_csv_a_column_that_mixes_numbers_and_text_is_text(tmp_path: Path, reader: str) -> None:
    (tmp_path / "m.csv").write_text("code,n\n007,1\nN1,2.0\n")  # (NA would be a null marker: tests/data/test_csv_nulls.py)
    assert rows(ptc.table(tmp_path / "m.csv")) == [{"code": "007", "n": 1.0}, {"code": "N1", "n": 2.0}]


def test_csv_with_a_bom_and_quotes(tmp_path: Path, reader: str) -> None:
    (tmp_path / "q.csv").write_bytes('\ufeffname,text\nA,"a, b"\nB,"line ""q"""\n'.encode())
    assert rows(ptc.table(tmp_path / "q.csv")) == [{"name": "A", "text": "a, b"}, {"name": "B", "text": 'line "q"'}]


def test_jsonl_is_a_table_and_json_keeps_its_meaning(tmp_path: Path, reader: str) -> None:
    (tmp_path / "events.jsonl").write_text('{"a": 1}\n\n{"a": 2, "b": "x"}\n')
    first = {"a": 1, "b": None} if reader == "pyarrow" else {"a": 1}  # a missing key reads as nil either way
    assert rows(ptc.table(tmp_path / "events.jsonl")) == [first, {"a": 2, "b": "x"}]
    (tmp_path / "d.json").write_text('{"orders": [{"id": 1}], "limit": 3}')
    assert ptc.read_data(str(tmp_path / "d.json")) == {"orders": [{"id": 1}], "limit": 3}
    (tmp_path / "arr.json").write_text('[{"id": 1}, {"id": 2}]')
    data = ptc.read_data(str(tmp_path / "arr.json"))
    assert list(data) == ["arr"] and rows(data["arr"]) == [{"id": 1}, {"id": 2}]


def test_rows_whose_columns_mix_types_stay_a_list_of_dicts(tmp_path: Path) -> None:
    (tmp_path / "m.jsonl").write_text('{"a": 1}\n{"a": "x"}\n')
    assert ptc.table(tmp_path / "m.jsonl") == [{"a": 1}, {"a": "x"}]


def test_a_bad_jsonl_line_is_named(tmp_path: Path) -> None:
    (tmp_path / "e.jsonl").write_text('{"a": 1}\n{"a": \n{"a": 3}\n')
    with pytest.raises(ptc.DataFileError, match=r"e.jsonl line 2 is not valid JSON"):
        ptc.table(tmp_path / "e.jsonl")
    (tmp_path / "l.jsonl").write_text('{"a": 1}\n[1]\n')
    with pytest.raises(ptc.DataFileError, match=r"l.jsonl line 2 holds a list"):
        ptc.table(tmp_path / "l.jsonl")


def test_json_that_is_not_an_object_or_rows_is_refused_as_data(tmp_path: Path) -> None:
    (tmp_path / "n.json").write_text("[1, 2]")
    with pytest.raises(ptc.DataFileError, match="must hold a JSON object"):
        ptc.read_data(str(tmp_path / "n.json"))
    (tmp_path / "o.json").write_text('{"a": 1}')
    with pytest.raises(ptc.DataFileError, match="not one table"):
        ptc.table(tmp_path / "o.json")


def test_parquet_arrow_stream_and_feather(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    t = pa.table({"id": [1, 2], "name": ["a", None]})
    pq.write_table(t, tmp_path / "t.parquet")
    feather.write_feather(t, tmp_path / "t.feather")
    with pa.ipc.new_file(tmp_path / "t.arrow", t.schema) as w:
        w.write_table(t)
    with pa.ipc.new_stream(tmp_path / "s.arrows", t.schema) as w:
        w.write_table(t)
    with pa.ipc.new_stream(tmp_path / "s.arrow", t.schema) as w:  # a stream under the .arrow suffix
        w.write_table(t)
    for name in ("t.parquet", "t.feather", "t.arrow", "s.arrows", "s.arrow"):
        got = ptc.table(tmp_path / name)
        assert isinstance(got, pa.Table) and got.equals(t), name


def test_excel_first_sheet_a_named_sheet_and_header_names(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    pytest.importorskip("pyarrow")
    book = openpyxl.Workbook()
    first = book.active
    first.title = "Sales"
    first.append(["region", "amount", None, "region"])
    first.append(["north", 10, 1.5, "n"])
    first.append([None, None, None, None])  # a blank row is skipped
    first.append(["south", 20, None, "s"])
    book.create_sheet("Q3").append(["x"])
    book["Q3"].append([7])
    book.save(tmp_path / "book.xlsx")
    assert rows(ptc.table(tmp_path / "book.xlsx")) == [
        {"region": "north", "amount": 10, "column_3": 1.5, "region.1": "n"},
        {"region": "south", "amount": 20, "column_3": None, "region.1": "s"},
    ]
    assert rows(ptc.read_data(f"{tmp_path / 'book.xlsx'}#Q3")["Q3"]) == [{"x": 7}]  # a picked sheet names it
    book["Q3"].title = "Q 3"
    book.save(tmp_path / "book.xlsx")
    assert list(ptc.read_data(f"{tmp_path / 'book.xlsx'}#Q 3")) == ["book"]  # no data name: the file's
    with pytest.raises(ptc.DataFileError, match="has no sheet 'Q4'; sheets: Sales, Q 3"):
        ptc.table(f"{tmp_path / 'book.xlsx'}#Q4")


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    path = tmp_path / "shop.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE orders (id INTEGER, region TEXT, total REAL)")
    con.executemany("INSERT INTO orders VALUES (?, ?, ?)", [(1, "north", 10.5), (2, "south", 4.0), (3, "north", 1.5)])
    con.execute("CREATE TABLE customers (id INTEGER, name TEXT)")
    con.execute("INSERT INTO customers VALUES (1, 'Ada')")
    con.commit()
    con.close()
    return path


def test_sqlite_every_table_one_table_or_a_query(shop: Path, reader: str) -> None:
    data = ptc.read_data(str(shop))
    assert sorted(data) == ["customers", "orders"] and rows(data["customers"]) == [{"id": 1, "name": "Ada"}]
    assert list(ptc.read_data(f"{shop}#orders")) == ["orders"]
    query = ptc.read_data(f"by_region={shop}#SELECT region, sum(total) AS total FROM orders GROUP BY region ORDER BY region")
    assert rows(query["by_region"]) == [{"region": "north", "total": 12.0}, {"region": "south", "total": 4.0}]
    assert list(ptc.read_data(f"{shop}#SELECT 1 AS one")) == ["shop"]  # a query is named by the file's stem
    with pytest.raises(ptc.DataFileError, match="holds 2 tables"):
        ptc.table(shop)
    with pytest.raises(ptc.DataFileError, match="has no table 'order'; tables: customers, orders"):
        ptc.table(f"{shop}#order")
    with pytest.raises(ptc.DataFileError, match="takes no NAME="):
        ptc.read_data(f"x={shop}")


def test_sqlite_is_opened_read_only(shop: Path) -> None:
    with pytest.raises(ptc.DataFileError, match="readonly"):
        ptc.table(f"{shop}#DELETE FROM orders")
    assert len(rows(ptc.table(f"{shop}#orders"))) == 3


def test_a_table_name_a_program_cannot_read_is_named_with_the_fix(tmp_path: Path) -> None:
    con = sqlite3.connect(tmp_path / "odd.db")
    con.execute('CREATE TABLE "order items" (id INTEGER)')
    con.commit()
    con.close()
    with pytest.raises(ptc.DataFileError, match=r"'order items' is not a data name.*NAME="):
        ptc.read_data(str(tmp_path / "odd.db"))


def test_duckdb_file_tables_and_query(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    con = duckdb.connect(str(tmp_path / "w.duckdb"))
    con.execute("CREATE TABLE sales AS SELECT * FROM (VALUES (1, 'north', 2.5), (2, 'south', 4.0)) t(id, region, amount)")
    con.close()
    (tmp_path / "w.duckdb").rename(tmp_path / "w.db")  # .db is sniffed: DuckDB, not SQLite
    data = ptc.read_data(str(tmp_path / "w.db"))
    assert rows(data["sales"]) == [{"id": 1, "region": "north", "amount": 2.5}, {"id": 2, "region": "south", "amount": 4.0}]
    total = ptc.read_data(f"t={tmp_path / 'w.db'}#SELECT sum(amount) AS s FROM sales")
    assert rows(total["t"]) == [{"s": 6.5}]


def test_without_pyarrow_the_binary_formats_name_the_extra(tmp_path: Path, no_pyarrow: None) -> None:
    for name in ("t.parquet", "t.arrow", "t.feather", "b.xlsx"):
        (tmp_path / name).write_bytes(b"PAR1 not really")
        with pytest.raises(ptc.DataFileError, match=r'pip install "ptc-lisp\[data\]"'):
            ptc.table(tmp_path / name)
    with pytest.raises(ptc.DataFileError, match=r'pip install "ptc-lisp\[data\]"'):
        ptc.to_arrow([{"a": 1}])


def test_spec_names_parts_and_files_whose_name_holds_a_hash(tmp_path: Path) -> None:
    assert parse_spec("sales.csv") == (None, "sales.csv", None)
    assert parse_spec("q3=sales.csv") == ("q3", "sales.csv", None)
    assert parse_spec("t=shop.db#SELECT a = 1 FROM x") == ("t", "shop.db", "SELECT a = 1 FROM x")
    assert parse_spec("book.xlsx#Q3") == (None, "book.xlsx", "Q3")
    odd = tmp_path / "a#1.csv"
    odd.write_text("x\n1\n")
    assert rows(ptc.read_data(f"n={odd}")["n"]) == [{"x": 1}]
    (tmp_path / "2024 sales.csv").write_text("x\n1\n")
    with pytest.raises(ptc.DataFileError, match="not a data name a program can read; name it"):
        ptc.read_data(str(tmp_path / "2024 sales.csv"))
    with pytest.raises(ptc.DataFileError, match="unknown data file type '.txt'"):
        ptc.read_data(str(tmp_path / "notes.txt"))
    with pytest.raises(ptc.DataFileError, match="a .csv file has none"):
        ptc.read_data(f"{tmp_path / '2024 sales.csv'}#x")


def test_programs_read_tables_from_files(tmp_path: Path, shop: Path, reader: str) -> None:
    (tmp_path / "sales.csv").write_text(CSV)
    data = {**ptc.read_data(str(tmp_path / "sales.csv")), **ptc.read_data(str(shop))}
    src = "[(count data/sales) (sum-by :amount (filter :amount data/sales)) (:name (first data/customers))]"
    assert ptc.to_python(ptc.run(src, data=data).value) == [3, 1002.5, "Ada"]


def test_import_ptc_and_the_lookups_do_not_import_pyarrow(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("a\n1\n")
    code = ("import sys, ptc\n"
            "ptc.table, ptc.read_data, ptc.to_arrow, ptc.to_pandas, ptc.write_table\n"
            "assert 'pyarrow' not in sys.modules, 'looked up'\n"
            f"ptc.table({str(tmp_path / 't.csv')!r})\n"
            "assert 'pyarrow' in sys.modules, 'read'\n"
            "assert 'pandas' not in sys.modules and 'openpyxl' not in sys.modules and 'duckdb' not in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_shipped_orders_files_hold_the_dataset_rows() -> None:
    from ptc.examples import datasets

    expected = datasets.load("orders")
    for name in datasets.TABLE_FILES:
        assert rows(ptc.table(datasets.data_file(name))) == expected, name


def test_shipped_orders_files_are_what_write_tables_writes(tmp_path: Path) -> None:
    from ptc.examples import datasets

    datasets.write_tables(tmp_path)
    assert (tmp_path / "orders.csv").read_bytes() == datasets.data_file("orders.csv").read_bytes()
    assert rows(ptc.table(tmp_path / "orders.parquet")) == rows(ptc.table(datasets.data_file("orders.parquet")))


def test_deep_json_is_refused_not_crashed(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ptc.DataFileError, match="nested too deeply"):
        ptc.read_data(str(tmp_path / "deep.json"))
    (tmp_path / "deep.jsonl").write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(ptc.DataFileError, match="nested too deeply"):  # the stdlib parser refuses it;
        ptc.table(tmp_path / "deep.jsonl")  # pyarrow's JSON reader would crash the process


CELLS = st.one_of(
    st.sampled_from(["", "true", "false", "TRUE", "True", "-0", "+1", "1.", ".5", "1e3", "NA", "007", " 1", "1 ",
                     "0x1F", "9223372036854775808", "inf", "-INF", "Infinity", "\t2"]),
    st.text(alphabet="0123456789.-+eExX ", max_size=4),
    st.text(alphabet='ab ,"\n', max_size=4),
)


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(1, 3).flatmap(lambda n: st.lists(st.lists(CELLS, min_size=n, max_size=n), min_size=1, max_size=6)))
def test_the_stdlib_csv_reader_types_columns_as_pyarrow_does(body: list[list[str]]) -> None:
    """The CSV rule is one rule: the stdlib reader gives the rows pyarrow's reader gives."""
    pytest.importorskip("pyarrow")
    from ptc.data import files

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.csv"
        with path.open("w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow([f"c{i}" for i in range(len(body[0]))])
            writer.writerows(body)
        assert files._read_csv_arrow(path, ",").to_pylist() == files._read_csv_stdlib(path, ",")


# issue 44, items 2 and 3: a quoted cell open at the end of the file, repeated column names

OPEN_QUOTES = {
    "one-row": ('a,b\n1,"unterminated\n2,3\n', 2),
    "after-many-rows": ("a,b\n" + "".join(f"{i},x{i}\n" for i in range(1, 3000)) + '7,"open\n8,9\n', 3001),
    "no-newline-at-the-end": ('a,b\n1,2\n3,"x', 3),
}


@pytest.mark.parametrize("reader", ["arrow", "stdlib"])
@pytest.mark.parametrize("case", OPEN_QUOTES)
def test_a_quoted_cell_the_file_ends_inside_is_refused_naming_its_line(tmp_path: Path, case: str,
                                                                      reader: str) -> None:
    """pandas refuses it (EOF inside string); pyarrow and the stdlib reader put the rest of the
    file in the cell: a table one row short and a silently wrong answer."""
    text, line = OPEN_QUOTES[case]
    path = tmp_path / "t.csv"
    path.write_text(text)
    with pytest.raises(Exception, match="EOF inside string"):
        import pandas as pd

        pd.read_csv(path)
    with pytest.raises(ptc.DataFileError, match=rf"t\.csv line {line}: a quoted cell has no closing quote"):
        ptc.table(path) if reader == "arrow" else _stdlib_table(path)


@pytest.mark.parametrize("text", ['a,b\n1,12" pipe\n2,3\n', 'a,b\n1,"x"y\n2,3\n', 'a,b\n1,"two\nlines"\n2,"a ""b"""\n'])
def test_quotes_pandas_reads_are_read(tmp_path: Path, text: str) -> None:
    import pandas as pd

    path = tmp_path / "t.csv"
    path.write_text(text)
    assert rows(ptc.table(path)) == pd.read_csv(path).to_dict("records")


@pytest.mark.parametrize("header", ["a,a,b", "x,y,x,x", "a,a,a.1", "a.1,a,a", "b,a,b,b.1,b"])
def test_repeated_column_names_are_pandas_names(tmp_path: Path, header: str) -> None:
    """pandas keeps every column of `a,a,b` as a, a.1, b (a name the header holds is skipped);
    pyarrow refused the file, and a sheet's repeats were region_2 (now the same rule)."""
    import pandas as pd

    n = header.count(",") + 1
    path = tmp_path / "t.csv"
    path.write_text(f"{header}\n" + ",".join(str(i) for i in range(n)) + "\n")
    want = pd.read_csv(path).to_dict("records")
    assert rows(ptc.table(path)) == want
    assert _stdlib_table(path) == want


def _stdlib_table(path: Path) -> list[dict[str, object]]:
    """The file read by the stdlib reader (the one used without pyarrow), under default load limits."""
    from ptc.data import files

    return files._read_csv_stdlib(path, ",")


@pytest.mark.parametrize("reader", ["arrow", "stdlib"])
def test_nan_in_a_csv_column_of_numbers_is_nil_as_pandas_reads_it_missing(tmp_path: Path, reader: str) -> None:
    """issue 44, item 4: a NaN read as a float broke sort and medians silently (Clojure's sort
    leaves [3.0 NaN 1.0] unsorted); pandas reads it as missing. Text keeps its "nan"."""
    path = tmp_path / "t.csv"
    path.write_text("x,s\n3.0,a\nNaN,nan\n1.0,NA\nnan,b\n-nan,c\n")
    rows_read = rows(ptc.table(path)) if reader == "arrow" else _stdlib_table(path)
    assert [r["x"] for r in rows_read] == [3.0, None, 1.0, None, None]
    assert [r["s"] for r in rows_read] == ["a", "nan", "NA", "b", "c"]
    if reader == "arrow":
        assert ptc.to_python(ptc.run("(sort (keep :x data/t))", data={"t": ptc.table(path)}).value) == [1.0, 3.0]
