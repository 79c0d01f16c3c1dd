"""Data files that become far more than they are: each loader ends with the limit it meets.

One rule (docs/security.md, "Data files"): a loader counts what a file *becomes* in memory
(decoded, decompressed, each reference to a shared value counted), before it becomes it where
the format can say and batch by batch otherwise, and reads the load's clock as it goes. So
each bomb here, a few megabytes generated into tmp_path, ends with a `limit` error naming the
limit, within 0.5 s of the load's deadline, with the host's peak resident memory grown by less
than `max_bytes` + 64 MB (measured in a forked child, as the growth matrix measures runs).
"""

from __future__ import annotations

import sqlite3
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

import ptc
from ptc import LoadLimits

from ._forkrun import run_forked_call

pytestmark = pytest.mark.timing  # limit tests measure wall time: run apart (see README)

MB = 1 << 20
LATE = 0.5  # how late after the load's deadline a limit error may arrive (issue 43's bound)
SLACK = 64 * MB  # the allowance over the limit for the host's resident growth


def sqlite_generated_blobs(tmp: Path, size: int, rows: int = 100) -> str:
    """An 8 KB file: each row's generated column is a blob of `size` zero bytes."""
    path = tmp / "zero.sqlite"
    con = sqlite3.connect(path)
    con.execute(f"CREATE TABLE t(a INTEGER, b BLOB GENERATED ALWAYS AS (zeroblob({size})) VIRTUAL)")
    con.executemany("INSERT INTO t(a) VALUES (?)", [(i,) for i in range(rows)])
    con.commit()
    con.close()
    return str(path)


def xlsx_shared_string(tmp: Path, text: int = 30 * MB, cells: int = 200_000) -> str:
    """A 1 MB workbook: one shared string of `text` characters referenced by `cells` cells."""
    openpyxl = pytest.importorskip("openpyxl")
    path = tmp / "shared.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["s"])
    book.save(path)
    with zipfile.ZipFile(path) as z:
        entries = {name: z.read(name) for name in z.namelist()}
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    entries["xl/sharedStrings.xml"] = (f'<sst xmlns="{main}"><si><t>s</t></si><si><t>' + "x" * text
                                       + "</t></si></sst>").encode()
    rows = "".join(f'<row r="{i}"><c r="A{i}" t="s"><v>{int(i > 1)}</v></c></row>' for i in range(1, cells + 2))
    entries["xl/worksheets/sheet1.xml"] = f'<worksheet xmlns="{main}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    entries["[Content_Types].xml"] = entries["[Content_Types].xml"].replace(
        b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                     b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
    rels = "xl/_rels/workbook.xml.rels"
    entries[rels] = entries[rels].replace(
        b"</Relationships>", b'<Relationship Id="rIdS" Target="sharedStrings.xml" Type="http://schemas.'
                             b'openxmlformats.org/officeDocument/2006/relationships/sharedStrings"/></Relationships>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return str(path)


def json_text(tmp: Path, text: str, name: str = "t.json") -> str:
    path = tmp / name
    path.write_text(text)
    return str(path)


def json_rows(tmp: Path, size: int, row: str = '{"a":1,"b":"xy"}') -> str:
    """An array of `size` bytes of one row repeated."""
    n = size // (len(row) + 1)
    return json_text(tmp, "[" + ",".join([row] * n) + "]")


def csv_rows(tmp: Path, size: int) -> str:
    path = tmp / "t.csv"
    row = b"12345,2.5,abcdef,true\n"
    path.write_bytes(b"i,f,s,b\n" + row * (size // len(row)))
    return str(path)


def csv_cell(tmp: Path, size: int) -> str:
    path = tmp / "cell.csv"
    path.write_bytes(b"id,s\n1," + b"x" * size + b"\n2,y\n")
    return str(path)


def duckdb_stored_strings(tmp: Path, rows: int = 1_000_000, width: int = 1000) -> str:
    """Stored, not generated: one string of `width` characters in every row, compressed by DuckDB
    to a few hundred kilobytes."""
    duckdb = pytest.importorskip("duckdb")
    path = tmp / "stored.duckdb"
    con = duckdb.connect(str(path))
    con.execute(f"CREATE TABLE t AS SELECT range AS a, repeat('x', {width}) AS s FROM range({rows})")
    con.close()
    return str(path)


def parquet_dictionary(tmp: Path, rows: int = 1_000_000, width: int = 1000) -> str:
    """A 100 KB file: one dictionary-encoded string of `width` characters in every row (1 GB decoded)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp / "dict.parquet"
    column = pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int32()), pa.array(["x" * width]))
    pq.write_table(pa.table({"s": column}), path, compression="zstd", store_schema=False)  # read back as strings
    return str(path)


def parquet_wide(tmp: Path, columns: int) -> str:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp / "wide.parquet"
    pq.write_table(pa.table({f"c{i}": pa.array([i]) for i in range(columns)}), path, compression="none",
                   write_statistics=False)
    return str(path)


def parquet_row_groups(tmp: Path, groups: int = 400, rows: int = 100_000) -> str:
    """40M integers in `groups` row groups (~1 s to read): a read whose clock is read per group."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import numpy as np

    path = tmp / "groups.parquet"
    with pq.ParquetWriter(path, pa.schema([("a", pa.int64()), ("b", pa.float64())])) as w:
        for i in range(groups):
            w.write_table(pa.table({"a": np.arange(rows) + i, "b": np.arange(rows) * 0.5}))
    return str(path)


@dataclass
class Bomb:
    id: str
    make: Callable[[Path], str]  # the spec of the file made in tmp_path
    limit: str  # the limit the error names
    limits: dict[str, Any] = field(default_factory=dict)


DEFAULT = dict(max_bytes=256 * MB, timeout=10)  # the limits for its size cases

BOMBS = [
    # item 2: the size check ran after a 4,096-row batch was in memory
    Bomb("sqlite-generated-500MB-blobs", lambda t: sqlite_generated_blobs(t, 500_000_000), "max_cell", DEFAULT),
    Bomb("sqlite-generated-50MB-blobs", lambda t: sqlite_generated_blobs(t, 50_000_000), "max_bytes", DEFAULT),
    # item 3: openpyxl holds the string once; each cell that references it is a copy in the table
    Bomb("xlsx-30MB-shared-string-200k-cells", xlsx_shared_string, "max_bytes", DEFAULT),
    # item 8: JSON expands ~20x as Python objects; JSON and CSV loads read the clock
    Bomb("json-8MB-of-empty-objects", lambda t: json_text(t, "[" + ",".join(["{}"] * (8 * MB // 3)) + "]"),
         "max_bytes", dict(max_bytes=64 * MB, timeout=10)),
    Bomb("json-8MB-in-one-value", lambda t: json_text(t, '[{"a": [' + ",".join(["{}"] * (8 * MB // 3)) + "]}]"),
         "max_bytes", dict(max_bytes=64 * MB, timeout=10)),
    Bomb("json-object-of-8MB-arrays", lambda t: json_text(t, '{"a": [' + ",".join(["[]"] * (8 * MB // 3)) + "]}"),
         "max_bytes", dict(max_bytes=64 * MB, timeout=10)),
    Bomb("json-16MB-of-rows-timeout", lambda t: json_rows(t, 16 * MB), "timeout", dict(max_bytes=1 << 30, timeout=0.1)),
    Bomb("jsonl-8MB-of-rows", lambda t: json_text(t, '{"a":1}\n' * (MB), "t.jsonl"), "max_bytes",
         dict(max_bytes=32 * MB, timeout=10)),
    Bomb("csv-32MB-timeout", lambda t: csv_rows(t, 32 * MB), "timeout", dict(max_bytes=1 << 30, timeout=0.05)),
    Bomb("csv-8MB-cell", lambda t: csv_cell(t, 8 * MB), "max_cell", dict(max_cell=MB, max_bytes=256 * MB)),
    # item 9: DuckDB's compressed strings, counted as they are exported
    Bomb("duckdb-stored-1KB-strings-1M-rows", duckdb_stored_strings, "max_bytes", DEFAULT),
    # item 10: dictionary pages decoded; a wide file's metadata parsed before it was refused
    Bomb("parquet-100KB-dictionary-1GB", parquet_dictionary, "max_bytes", dict(max_bytes=256 * MB)),
    Bomb("parquet-20k-columns", lambda t: parquet_wide(t, 20_000), "max_columns", dict(max_bytes=256 * MB)),
    Bomb("parquet-20k-columns-refused-from-the-footer", lambda t: parquet_wide(t, 20_000), "max_columns",
         dict(max_bytes=256 * MB, max_columns=1000)),
    Bomb("parquet-400-row-groups-timeout", parquet_row_groups, "timeout", dict(max_bytes=4 << 30, timeout=0.05)),
]


def _load(spec: str, limits: LoadLimits) -> Any:
    """What the child returns when the load passes (it should not): the tables' sizes."""
    return {name: getattr(value, "num_rows", None) for name, value in ptc.read_data(spec, limits=limits).items()}


@pytest.mark.parametrize("bomb", BOMBS, ids=lambda b: b.id)
def test_a_bomb_ends_with_its_limit_near_the_deadline_within_its_memory(bomb: Bomb, tmp_path: Path) -> None:
    spec = bomb.make(tmp_path)
    limits = LoadLimits(**bomb.limits)
    out = run_forked_call(lambda: _load(spec, limits), hard_timeout=limits.timeout + 30)
    assert out.status == "error" and out.kind == "limit", out.describe()
    assert f"{bomb.limit}=" in out.message and "\n" not in out.message, out.message
    assert out.elapsed < limits.timeout + LATE, out.describe()
    assert out.peak_growth < limits.max_bytes + SLACK, f"grew {out.peak_growth / MB:.0f} MB: {out.describe()}"
