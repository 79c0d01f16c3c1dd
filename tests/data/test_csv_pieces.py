"""A CSV file read in pieces (ptc/data/files.py, CSV_PIECE) is the table of one read of it.

Each piece is typed by pyarrow on its own; a column two pieces type differently is read again
in the loosest type, as pyarrow's inference loosens a column over a whole file. Pieces of a
few bytes here (a row or two each) make every column's cells fall into different pieces.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ptc
from ptc.data import files

pytest.importorskip("pyarrow")

CELLS = ["1", "-2", "0x1F", " 7 ", "2.5", "1e3", "inf", "true", "False", "", "NA", "null", "abc", "2020-01-05",
         "12:30:00", "2020-01-05 10:00:00", '"a,b"', '"x\ny"', '"say ""hi"""', "9223372036854775808"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(columns=st.lists(st.lists(st.sampled_from(CELLS), min_size=1, max_size=5), min_size=1, max_size=3),
       rows=st.integers(min_value=0, max_value=8), piece=st.sampled_from([1, 8, 40]), blank=st.booleans())
def test_a_csv_read_in_pieces_is_the_table_read_whole(tmp_path: Path, columns: list[list[str]], rows: int,
                                                      piece: int, blank: bool) -> None:
    body = [",".join(column[r % len(column)] for column in columns) for r in range(rows)]
    text = ",".join(f"c{i}" for i in range(len(columns))) + "\n" + ("\n\n" if blank else "\n").join(body) + "\n"
    path = tmp_path / "t.csv"
    path.write_text(text)
    whole = _outcome(path)
    with mock.patch.object(files, "CSV_PIECE", piece):
        assert _outcome(path) == whole


def _outcome(path: Path) -> object:
    try:
        table = ptc.table(path)
    except ptc.DataFileError as e:
        return type(e).__name__
    return [str(f.type) for f in table.schema], table.to_pylist()


def test_a_row_that_must_hold_a_cell_past_max_cell_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(b"a,b\n1," + b"x" * (3 << 20) + b"\n")
    with mock.patch.object(files, "CSV_PIECE", 1 << 16), pytest.raises(ptc.DataFileError, match="max_cell=1,048,576"):
        ptc.table(path, limits=ptc.LoadLimits(max_cell=1 << 20))
    with pytest.raises(ptc.DataFileError, match="column 'b' holds cells of 3,145,728 bytes"):
        ptc.table(path, limits=ptc.LoadLimits(max_cell=1 << 20))  # read (one piece), then measured
