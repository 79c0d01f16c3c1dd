"""CSV null markers as R, pandas and databases write them: nil in a column of numbers or
booleans (so the column stays numeric), text in a column of text; the prompt says how many
nils each column holds. pyarrow and the stdlib reader agree."""

from __future__ import annotations

from pathlib import Path

import pytest

import ptc
from ptc.data.files import _read_csv_stdlib

CSV = "species,mass,ok,code\nAdelie,3750.0,true,NA\nGentoo,NA,NULL,US\nChinstrap,,N/A,\nAdelie,null,false,NULL\n"
ROWS = [{"species": "Adelie", "mass": 3750.0, "ok": True, "code": "NA"},
        {"species": "Gentoo", "mass": None, "ok": None, "code": "US"},
        {"species": "Chinstrap", "mass": None, "ok": None, "code": None},
        {"species": "Adelie", "mass": None, "ok": False, "code": "NULL"}]


@pytest.fixture
def csv_file(tmp_path: Path) -> Path:
    path = tmp_path / "penguins.csv"
    path.write_text(CSV)
    return path


def test_pyarrow_reads_markers_as_nil_in_numeric_columns(csv_file: Path) -> None:
    pytest.importorskip("pyarrow")
    assert ptc.table(csv_file).to_pylist() == ROWS


def test_the_stdlib_reader_agrees(csv_file: Path) -> None:
    assert _read_csv_stdlib(csv_file, ",") == ROWS


def test_arithmetic_works_and_the_prompt_counts_nils(csv_file: Path) -> None:
    pytest.importorskip("pyarrow")
    data = ptc.read_data(str(csv_file))
    assert ptc.run("(reduce + (keep :mass data/penguins))", data=data).value == 3750.0
    text = ptc.Sandbox(data=data).instructions
    assert ("data/penguins: table of 4 rows (a vector of maps), columns: :species string, :mass float (3 nil), "
            ":ok bool (2 nil), :code string (1 nil)") in text
