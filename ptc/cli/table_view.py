"""A result that is a vector of maps, printed as a table for a person (`ptc eval` / `ptc run`).

Only the first rows are converted and shown, so a result of millions of rows prints at once;
`--output FILE` writes them all and `--json` prints the plain value.
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

MAX_ROWS = 40


def head_rows(value: Any, limit: int = MAX_ROWS) -> tuple[list[dict[Any, Any]], int] | None:
    """(the first `limit` rows as plain dicts, the row count) of a non-empty vector or seq of maps, else None.

    Only the shown rows and the last one are looked at (a table's other rows stay untouched; a
    filter's or a sort's rows, not made by the run, are made for the head alone: all 10M of a
    filter's were made after the run, on no clock, 15 s and +1.6 GB)."""
    from ptc.interpreter.lazy import LazySeq
    from ptc.interpreter.values import MAP_TYPES, SEQ_TYPES, VECTOR_TYPES, to_python

    total = value.known_count() if type(value) is LazySeq else None
    if total is not None and not value.realized:  # rows of a selection, made as they are read
        head = list(itertools.islice(value, min(limit, total)))
        if not head or not all(isinstance(row, MAP_TYPES) for row in head):
            return None
        return [to_python(row) for row in head], total
    if isinstance(value, SEQ_TYPES):
        value = list(value)  # a run's result is realized already
    if not isinstance(value, VECTOR_TYPES) or len(value) == 0:
        return None
    total = len(value)
    head = [value[i] for i in range(min(limit, total))]
    if not all(isinstance(row, MAP_TYPES) for row in [*head, value[total - 1]]):
        return None
    return [to_python(row) for row in head], total


MAX_CELL = 24  # characters of one cell shown; longer text ends in "…"
GAP = "  "


def print_table(rows: list[dict[Any, Any]], total: int) -> None:
    """The rows as text fitted to the terminal (80 columns when stdout is not one), then the shape."""
    import shutil

    import click

    width = shutil.get_terminal_size((80, 24)).columns if sys.stdout.isatty() else 80
    click.echo(format_table(rows, total, width))


def format_table(rows: list[dict[Any, Any]], total: int, width: int = 80) -> str:
    """The way pandas and polars print a frame: every cell on one line (cut at MAX_CELL), as
    many columns as fit in `width` taken from both ends with `...` for the ones left out, and
    the shape last. Pure: the text depends on the rows and the width only."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    text = {key: [_fit(_cell(row[key]) if key in row else "") for row in rows] for key in columns}
    numeric = {key: all(isinstance(row.get(key), (int, float)) and not isinstance(row.get(key), bool)
                        for row in rows if row.get(key) is not None) for key in columns}
    widths = {key: max([len(_fit(str(key))), *map(len, text[key])]) for key in columns}
    shown = _fitting(columns, widths, width)
    lines = []
    for i in range(-2, len(rows)):
        cells = []
        for key in shown:
            if key is None:
                cells.append("..." if i != -1 else "---")
                continue
            cell = _fit(str(key)) if i == -2 else "-" * widths[key] if i == -1 else text[key][i]
            cells.append(cell.rjust(widths[key]) if numeric[key] and i != -1 else cell.ljust(widths[key]))
        lines.append(GAP.join(cells).rstrip())
    more = f" (first {len(rows)} shown; --output FILE writes them all)" if total > len(rows) else ""
    plural = "s" if total != 1 else ""
    lines.append(f"{total:,} row{plural} x {len(columns)} column{'s' if len(columns) != 1 else ''}{more}")
    return "\n".join(lines)


def _fitting(columns: list[Any], widths: dict[Any, int], width: int) -> list[Any]:
    """The columns that fit in `width`: all of them, or the first and last ones with None (the
    `...` column) between, taken alternately from the left and the right."""
    def size(keys: list[Any]) -> int:
        return sum(widths[k] if k is not None else 3 for k in keys) + len(GAP) * (len(keys) - 1)

    if size(columns) <= width:
        return columns
    left: list[Any] = []
    right: list[Any] = []
    lo, hi = 0, len(columns) - 1
    while lo <= hi:
        pick_left = len(left) <= len(right)
        key = columns[lo] if pick_left else columns[hi]
        trial = [*left, key, None, *right] if pick_left else [*left, None, key, *right]
        if size(trial) > width and (left or right):
            break
        if pick_left:
            left.append(key)
            lo += 1
        else:
            right.insert(0, key)
            hi -= 1
    return [*left, None, *right]


def _fit(text: str) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= MAX_CELL else text[:MAX_CELL - 1] + "…"


def _cell(v: Any) -> str:
    from ptc.interpreter.printer import pr_str

    if v is None:
        return "nil"
    return v if isinstance(v, str) else pr_str(v)
