"""Results out: a vector of maps as a pyarrow Table, a pandas DataFrame, or a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ptc

pa = pytest.importorskip("pyarrow")

PROGRAM = "(for [i (range 3)] {:id i :name (str \"n\" i) :tags [i] :extra (when (odd? i) true)})"
ROWS = [{"id": 0, "name": "n0", "tags": [0], "extra": None}, {"id": 1, "name": "n1", "tags": [1], "extra": True},
        {"id": 2, "name": "n2", "tags": [2], "extra": None}]


def test_a_run_result_converts_to_arrow_and_pandas() -> None:
    result = ptc.run(PROGRAM)
    table = result.to_arrow()
    assert table.column_names == ["id", "name", "tags", "extra"] and table.to_pylist() == ROWS
    assert ptc.to_arrow(result.value).equals(table)
    assert ptc.to_arrow(ptc.to_python(result.value)).equals(table)  # the plain form converts the same
    pd = pytest.importorskip("pandas")
    frame = result.to_pandas()
    assert isinstance(frame, pd.DataFrame) and list(frame["name"]) == ["n0", "n1", "n2"]


def test_polars_reads_the_arrow_table() -> None:
    pl = pytest.importorskip("polars")
    frame = pl.from_arrow(ptc.run(PROGRAM).to_arrow())
    assert frame["id"].to_list() == [0, 1, 2]


def test_rows_missing_keys_are_nulls_and_values_that_are_not_rows_are_refused() -> None:
    assert ptc.to_arrow(ptc.run("[{:a 1} {:b 2}]").value).to_pylist() == [{"a": 1, "b": None}, {"a": None, "b": 2}]
    with pytest.raises(ptc.DataFileError, match=r"needs a vector of maps \(rows\), not \[1 2\]"):
        ptc.to_arrow(ptc.run("[1 2]").value)
    with pytest.raises(ptc.DataFileError, match="a column mixes types"):
        ptc.to_arrow(ptc.run('[{:a 1} {:a "x"}]').value)


def test_a_table_the_program_returns_comes_back_without_conversion() -> None:
    table = pa.table({"id": list(range(10)), "v": [float(i) for i in range(10)]})
    result = ptc.run("data/t", data={"t": table})
    assert result.to_arrow() is table
    assert ptc.to_arrow(ptc.run("(subvec data/t 2 4)", data={"t": table}).value).to_pylist() == \
        [{"id": 2, "v": 2.0}, {"id": 3, "v": 3.0}]


def test_write_table_csv_jsonl_parquet_round_trip(tmp_path: Path) -> None:
    value = ptc.run('[{:id 1 :city "Oslo" :ok true :n nil} {:id 2 :city "a, b" :ok false :n 2.5}]').value
    expected = [{"id": 1, "city": "Oslo", "ok": True, "n": None}, {"id": 2, "city": "a, b", "ok": False, "n": 2.5}]
    for name in ("out.csv", "out.jsonl", "out.parquet"):
        assert ptc.write_table(value, tmp_path / name) == 2
        assert ptc.table(tmp_path / name).to_pylist() == expected, name
    assert json.loads((tmp_path / "out.jsonl").read_text().splitlines()[1])["city"] == "a, b"
    with pytest.raises(ptc.DataFileError, match=r"cannot write .xlsx; give a .csv, .jsonl, .parquet file"):
        ptc.write_table(value, tmp_path / "out.xlsx")
