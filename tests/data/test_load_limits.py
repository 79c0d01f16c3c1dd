"""Data files are data: reading one is bounded in time and size, and runs no code of the file's.

Each hostile file is generated here, small on disk; the bound under test is lowered where the
real-world case (a gigabyte zip bomb, a 300 MB cell) would be slow to build, so the same
check is exercised in milliseconds. Every refusal is one DataFileError line naming the bound.
"""

from __future__ import annotations

import os
import sqlite3
import time
import zipfile
from pathlib import Path

import pytest

import ptc
from ptc import DataFileError, LoadLimits

pytestmark = pytest.mark.timing  # limit tests measure wall time: run apart (see README)

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def refused(spec: str | Path, **limits: object) -> str:
    with pytest.raises(DataFileError) as e:
        ptc.read_data(str(spec), limits=LoadLimits(**limits))  # type: ignore[arg-type]
    message = str(e.value)
    assert "\n" not in message and "Traceback" not in message
    return message


# -- DuckDB files: no external access, views only when named, queries interrupted ------------


# (a view over a URL is not created here: DuckDB would try to download an extension to bind it)
@pytest.fixture
def duck(tmp_path: Path) -> Path:
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE orders AS SELECT range AS id FROM range(3)")
    con.execute("CREATE VIEW env AS SELECT * FROM read_text('/proc/self/environ')")
    con.execute("CREATE VIEW passwd AS SELECT * FROM read_csv('/etc/passwd')")
    con.execute("CREATE VIEW forever AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                "SELECT n FROM r")
    con.close()
    return path


def test_a_duckdb_file_loads_its_tables_and_not_its_views(duck: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTC_TEST_SECRET", "s3cr3t")
    data = ptc.read_data(str(duck))
    assert list(data) == ["orders"] and data["orders"].num_rows == 3


@pytest.mark.parametrize("part", ["env", "passwd", "SELECT * FROM read_text('/proc/self/environ')",
                                  "SELECT * FROM 'http://127.0.0.1:9/x.parquet'"])
def test_a_duckdb_view_or_query_cannot_reach_outside_the_file(duck: Path, part: str) -> None:
    message = refused(f"{duck}#{part}")
    assert "disabled by configuration" in message


def test_a_duckdb_file_cannot_turn_external_access_back_on(duck: Path) -> None:
    assert "locked" in refused(f"{duck}#SET enable_external_access = true")


def test_a_recursive_duckdb_view_ends_at_the_load_timeout(duck: Path) -> None:
    start = time.monotonic()
    message = refused(f"{duck}#forever", timeout=0.5)
    assert "took more than 0.5 s" in message and "LoadLimits(timeout" in message
    assert time.monotonic() - start < 3


def test_a_missing_name_lists_tables_and_views(duck: Path) -> None:
    message = refused(f"{duck}#nope")
    assert "tables: orders" in message and "views (read only when named): env, forever, passwd" in message


def test_a_duckdb_file_runs_none_of_its_own_code_and_shows_no_host_path(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "code.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE t (a INTEGER, s VARCHAR GENERATED ALWAYS AS (current_setting('secret_directory')))")
    con.execute("INSERT INTO t(a) VALUES (1)")
    con.execute("CREATE TABLE plain AS SELECT 1 AS a")
    con.execute("CREATE VIEW settings AS SELECT name, value FROM duckdb_settings()")
    con.close()
    message = refused(path)
    assert "table 't' has generated columns (s)" in message and "#SELECT a FROM \"t\"" in message
    assert ptc.read_data(f"{path}#SELECT a FROM t")["code"].num_rows == 1
    values = " ".join(map(str, ptc.table(f"{path}#settings").column("value").to_pylist()))
    assert str(Path.home()) not in values and "stored_secrets" not in values
    # a macro may take a built-in function's name: a view or query of such a file could run it
    con = duckdb.connect(str(path))
    con.execute("CREATE MACRO upper(x) AS current_setting('secret_directory')")
    con.close()
    assert "defines macros (upper)" in refused(f"{path}#SELECT upper('a') FROM plain")
    assert "defines macros (upper)" in refused(f"{path}#settings")
    assert ptc.table(f"{path}#plain").num_rows == 1  # its tables still load


# -- SQLite: a recursive view ends at the deadline --------------------------------------------


def test_a_recursive_sqlite_view_ends_at_the_load_timeout(tmp_path: Path) -> None:
    path = tmp_path / "rec.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t(a)")
    con.execute("CREATE VIEW forever AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                "SELECT n FROM r")
    con.commit()
    con.close()
    assert list(ptc.read_data(str(path))) == ["t"]  # views are not loaded with the tables
    for part in ("forever", "SELECT count(*) FROM forever"):
        start = time.monotonic()
        assert "took more than 0.5 s" in refused(f"{path}#{part}", timeout=0.5)
        assert time.monotonic() - start < 3


# -- decompression: xlsx, Parquet, Arrow --------------------------------------------------------


def test_an_xlsx_zip_bomb_is_refused_before_it_is_unzipped(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    path = tmp_path / "bomb.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["a"])
    book.save(path)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:  # 64 MB of padding in ~64 KB
        z.writestr("xl/padding.xml", b" " * (64 << 20))
    assert path.stat().st_size < 1 << 20
    start = time.monotonic()
    message = refused(path, max_bytes=32 << 20)
    assert "unzips to" in message and "max_bytes=33,554,432" in message
    assert time.monotonic() - start < 2


def test_a_parquet_cell_larger_than_max_cell_is_refused_from_the_metadata(tmp_path: Path) -> None:
    path = tmp_path / "cell.parquet"
    pq.write_table(pa.table({"id": [1], "blob": ["x" * (8 << 20)]}), path, compression="zstd")
    assert path.stat().st_size < 64 << 10  # 8 MB of text in a few kilobytes
    message = refused(path, max_cell=1 << 20)
    assert "column 'blob' holds cells of 8,388,6" in message and "max_cell" in message


def test_a_parquet_file_decompressing_past_max_bytes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.parquet"
    pq.write_table(pa.table({"v": ["same text"] * 200_000}), path, compression="zstd", use_dictionary=False)
    assert "decompresses to" in refused(path, max_bytes=1 << 20)


def test_too_many_columns_are_refused_and_the_prompt_lists_a_bounded_number(tmp_path: Path) -> None:
    path = tmp_path / "wide.parquet"
    wide = pa.table({f"c{i}": [i] for i in range(300)})
    pq.write_table(wide, path)
    assert "300 columns, more than max_columns=200" in refused(path, max_columns=200)
    assert "its schema has 301 elements" in refused(path, max_columns=100)  # from the footer, before it is parsed
    spec = ptc.Sandbox(data={"wide": ptc.table(path)}).openai_tool()["function"]["description"]
    assert "c99 int" in spec and "c100 int" not in spec and "... and 200 more" in spec


def test_a_compressed_arrow_stream_is_bounded_batch_by_batch(tmp_path: Path) -> None:
    import pyarrow.ipc as ipc

    path = tmp_path / "t.arrows"
    table = pa.table({"v": ["same text"] * 200_000})
    with ipc.new_stream(path, table.schema, options=ipc.IpcWriteOptions(compression="zstd")) as writer:
        writer.write_table(table, max_chunksize=20_000)
    assert "decompresses to" in refused(path, max_bytes=1 << 20)


def test_a_text_file_larger_than_max_bytes_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("a\n" + "1\n" * 100_000)
    assert "it is 200,002 bytes" in refused(path, max_bytes=100_000)


def test_the_defaults_read_ordinary_files(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"a": list(range(1000)), "s": ["x"] * 1000}), path)
    assert ptc.table(path).num_rows == 1000
    assert LoadLimits().max_columns == 10_000 and os.fspath(path)
