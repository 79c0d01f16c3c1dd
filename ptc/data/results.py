"""What a program returns, out as a table: a pyarrow Table, a pandas DataFrame, or a file.

A run's value is PTC data; `ptc.to_python` makes it plain Python, and a vector of maps
(rows) is what converts to a table. Anything else is refused with the reason.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
from pathlib import Path
from typing import Any, Iterator

from .arrow import DataFileError, require, table_from_rows

WRITERS = (".csv", ".jsonl", ".parquet")


def rows_of(value: Any) -> list[dict[str, Any]] | None:
    """The rows of a vector (or seq) of maps as plain Python, or None when the value is something else.

    Rows are converted one at a time, so a long result is not refused by to_python's size cap."""
    from ptc.interpreter.table import Table
    from ptc.interpreter.values import MAP_TYPES, SEQUENTIAL_TYPES, to_python

    if type(value) is Table:  # still columnar: Arrow converts it in one pass
        return value.arrow.to_pylist()  # type: ignore[no-any-return]
    if isinstance(value, MAP_TYPES):
        return _entries(value)
    if not isinstance(value, SEQUENTIAL_TYPES):
        return None
    rows = list(value.realize() if hasattr(value, "realize") else value)
    if not all(isinstance(row, MAP_TYPES) for row in rows):
        return None
    return [to_python(row) for row in rows]


def _entries(m: Any) -> list[dict[str, Any]] | None:
    """A map as rows, one per entry (a frequencies or group-by-then-aggregate result, as pandas'
    value_counts().reset_index() gives it): `key` and `value`, or `key` and the columns of each
    value when every value is a map holding no `key` of its own; None for a map of other maps."""
    from ptc.interpreter.values import MAP_TYPES, map_items, to_python

    items = list(map_items(m))
    if items and all(isinstance(x, MAP_TYPES) for _, x in items):
        rows = [{"key": to_python(k), **to_python(x)} for k, x in items]
        return rows if all(len(r) == len(x) + 1 for r, (_, x) in zip(rows, items)) else None
    return [{"key": to_python(k), "value": to_python(x)} for k, x in items]


def _rows(value: Any) -> list[dict[str, Any]]:
    rows = rows_of(value)
    if rows is None:
        raise DataFileError(f"a table needs a vector of maps (rows), not {_describe(value)}")
    return rows


def to_arrow(value: Any) -> Any:
    """A vector of maps (a run's value, or its `ptc.to_python` form) as a pyarrow Table, one column per key."""
    from ptc.interpreter.table import Table, table_rows, table_rows_arrow

    pa = require("pyarrow", "converting results to Arrow")
    if type(value) is Table:  # a table the program passed through (or sliced): no conversion
        return value.arrow
    parts = table_rows(value)
    if parts is not None:  # rows of tables (a filter, a sort, a take): taken, not converted
        return table_rows_arrow(parts)
    rows = _rows(value)
    try:
        return table_from_rows(rows)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as e:
        raise DataFileError(f"the rows do not fit one table (a column mixes types?): {e}") from None


def to_pandas(value: Any) -> Any:
    """A vector of maps as a pandas DataFrame (through Arrow, so the column types are Arrow's);
    a map as one row per entry (see _entries)."""
    require("pandas", "converting results to pandas", install="pip install pandas")
    return to_arrow(value).to_pandas()


def write_table(value: Any, path: str | os.PathLike[str]) -> int:
    """Write a vector of maps to `path` as CSV, JSON Lines or Parquet (by suffix); returns the row count."""
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in WRITERS:
        raise DataFileError(f"{out}: cannot write {suffix or 'a file without a suffix'}; give a "
                            f"{', '.join(WRITERS)} file")
    try:
        if suffix == ".parquet":
            parquet = require("pyarrow.parquet", "writing Parquet")
            table = to_arrow(value)
            parquet.write_table(table, out)
            return int(table.num_rows)
        batches = _row_batches(value)
        if suffix == ".jsonl":
            n = 0
            with out.open("w", encoding="utf-8") as fh:
                for rows in batches:
                    n += len(rows)
                    for row in rows:
                        fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")  # dates: ISO text
            return n
        return _write_csv(batches, out)
    except OSError as e:
        raise DataFileError(f"cannot write {out}: {e.strerror or e}") from None


BATCH = 65536  # rows of a table converted to Python at a time when written as text


def _row_batches(value: Any) -> Iterator[list[dict[str, Any]]]:
    """The rows `_rows` gives, in batches: rows of tables (a table, a filter's or a sort's rows)
    converted a batch at a time, so writing 10M of them holds one batch (they were all converted
    first: 60 s and 3.5 GB for a 10M-row CSV)."""
    from ptc.interpreter.table import Table, table_rows, table_rows_arrow
    from ptc.interpreter.values import to_python

    parts = table_rows(value) if type(value) is not Table else None
    if type(value) is not Table and parts is None:
        yield _rows(value)
        return
    arrow = value.arrow if type(value) is Table else table_rows_arrow(parts)
    for start in range(0, arrow.num_rows, BATCH):
        batch = arrow.slice(start, BATCH)
        # as rows_of converts them: a table passed through by Arrow, rows of one as PTC rows
        yield batch.to_pylist() if type(value) is Table else [to_python(row) for row in Table(batch)]


def _write_csv(batches: Iterator[list[dict[str, Any]]], out: Path) -> int:
    """The columns are every key in first-seen order (the first batch's: rows of a table have
    them all); nil is an empty cell, nested values are JSON. Returns the rows written."""
    first = next(batches, [])
    columns = list(dict.fromkeys(str(k) for row in first for k in row))
    n = 0
    with out.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        for rows in itertools.chain([first], batches):
            n += len(rows)
            for row in rows:
                plain = {str(k): v for k, v in row.items()}
                writer.writerow([_cell(plain.get(c)) for c in columns])
    return n


def _cell(v: Any) -> Any:
    if v is None:
        return ""
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False, default=str)
    return v


def _describe(value: Any) -> str:
    from ptc.interpreter.printer import pr_str

    text = pr_str(value)
    return text if len(text) <= 60 else text[:57] + "..."
