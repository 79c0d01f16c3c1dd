"""A result that is a vector of maps, printed as a table for a person (`ptc eval` / `ptc run`).

Only the first rows are converted and shown, so a result of millions of rows prints at once;
`--output FILE` writes them all and `--json` prints the plain value.
"""

from __future__ import annotations

import sys
from typing import Any

MAX_ROWS = 40


def head_rows(value: Any, limit: int = MAX_ROWS) -> tuple[list[dict[Any, Any]], int] | None:
    """(the first `limit` rows as plain dicts, the row count) of a non-empty vector or seq of maps, else None.

    Only the shown rows and the last one are looked at (a table's other rows stay untouched)."""
    from ptc.interpreter.values import MAP_TYPES, SEQ_TYPES, VECTOR_TYPES, to_python

    if isinstance(value, SEQ_TYPES):
        value = list(value)  # a run's result is realized already
    if not isinstance(value, VECTOR_TYPES) or len(value) == 0:
        return None
    total = len(value)
    head = [value[i] for i in range(min(limit, total))]
    if not all(isinstance(row, MAP_TYPES) for row in [*head, value[total - 1]]):
        return None
    return [to_python(row) for row in head], total


def print_table(rows: list[dict[Any, Any]], total: int) -> None:
    """The rows as a rich table on stdout (plain text when stdout is not a terminal), then the row count."""
    import click
    from rich import box
    from rich.console import Console
    from rich.table import Table

    columns = list(dict.fromkeys(key for row in rows for key in row))
    view = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for key in columns:
        numeric = all(isinstance(row.get(key), (int, float)) and not isinstance(row.get(key), bool)
                      for row in rows if row.get(key) is not None)
        view.add_column(str(key), justify="right" if numeric else "left", overflow="fold")
    for row in rows:
        view.add_row(*(_cell(row[key]) if key in row else "" for key in columns))
    console = Console(file=sys.stdout, highlight=False, soft_wrap=False)
    console.print(view)
    more = f" (first {len(rows)} shown; --output FILE writes them all)" if total > len(rows) else ""
    click.echo(f"{total} row{'s' if total != 1 else ''}{more}")


def _cell(v: Any) -> str:
    from ptc.interpreter.printer import pr_str

    if v is None:
        return "nil"
    return v if isinstance(v, str) else pr_str(v)
