"""The optional libraries behind tables: importing them on demand, naming the extra when missing."""

from __future__ import annotations

import importlib
from typing import Any

DATA_EXTRA = 'pip install "ptc-lisp[data]"'


class DataFileError(ValueError):
    """A data file that cannot be read or written; the message names the file and the fix."""


def has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def require(module: str, what: str, install: str = DATA_EXTRA) -> Any:
    """Import `module` (e.g. "pyarrow.parquet"), or say which extra `what` needs."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise DataFileError(f"{what} needs {module.split('.')[0]}, which is not installed: {install}") from None


def table_from_rows(rows: list[dict[str, Any]], columns: list[str] | None = None) -> Any:
    """Rows as a pyarrow Table: one column per key of any row (first-seen order), None where a row lacks it.

    `columns` fixes the order (and keeps the columns of a result with no rows). Raises
    pyarrow's error when a column mixes types."""
    import pyarrow as pa

    if columns is None:
        columns = list(dict.fromkeys(key for row in rows for key in row))
    return pa.Table.from_pydict({str(c): [row.get(c) for row in rows] for c in columns})


def table_or_rows(rows: list[dict[str, Any]], columns: list[str] | None = None) -> Any:
    """Rows as a pyarrow Table when pyarrow is installed and every column has one type.

    Rows whose columns mix types (a number here, a string there) stay a list of dicts: a
    program sees the same vector of maps either way."""
    if not has_pyarrow():
        return rows
    import pyarrow as pa

    try:
        return table_from_rows(rows, columns)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError):
        return rows
