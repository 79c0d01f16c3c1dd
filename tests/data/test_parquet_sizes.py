"""Parquet files are sized by what they decode to: dictionary-encoded text is read encoded,
counted exactly (each entry's length times the rows that reference it), then decoded into
the table pyarrow would read."""

from __future__ import annotations

from pathlib import Path

import pytest

import ptc
from ptc import DataFileError, LoadLimits

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _columns() -> dict[str, object]:
    n = 5000
    return {
        "s": pa.array([None if i % 7 == 0 else f"v{i % 13}" for i in range(n)]),
        "b": pa.array([bytes([i % 5]) * (i % 3) for i in range(n)], pa.binary()),
        "big": pa.array([f"w{i % 3}" * 50 for i in range(n)], pa.large_string()),
        "plain": pa.array([f"p{i}" for i in range(n)]),
        "i": pa.array(range(n)),
        "kept": pa.DictionaryArray.from_arrays(pa.array([i % 2 for i in range(n)], pa.int32()), pa.array(["a", "b"])),
        "nested": pa.array([[f"x{i % 2}"] for i in range(n)]),
    }


@pytest.mark.parametrize("row_group_size", [700, 1 << 20])
@pytest.mark.parametrize("store_schema", [True, False])
def test_a_parquet_file_reads_as_pyarrow_reads_it(tmp_path: Path, row_group_size: int, store_schema: bool) -> None:
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table(_columns()), path, row_group_size=row_group_size, store_schema=store_schema,
                   use_dictionary=["s", "b", "big", "kept", "nested"])
    expected = pq.read_table(path)
    got = ptc.table(path)
    assert got.schema == expected.schema and got.equals(expected)


def test_a_dictionary_column_is_refused_by_its_decoded_size(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    column = pa.DictionaryArray.from_arrays(pa.array([0, 1] * 50_000, pa.int32()), pa.array(["x" * 100, "y"]))
    pq.write_table(pa.table({"s": column}), path, store_schema=False)
    assert path.stat().st_size < 20_000
    with pytest.raises(DataFileError, match="it decodes to 5,"):
        ptc.table(path, limits=LoadLimits(max_bytes=4 << 20))
    with pytest.raises(DataFileError, match="column 's' holds cells of 100 bytes"):
        ptc.table(path, limits=LoadLimits(max_cell=99))
    assert ptc.table(path).column("s").type == pa.string()
