"""Recognize columnar host objects (pyarrow, pandas, polars, DuckDB) and give their Arrow table.

Recognition is by the object's module, so none of those libraries is imported unless the
caller already passed one of its objects: `import ptc` and runs over JSON data never load them.
"""

from __future__ import annotations

from typing import Any

from ..interpreter.errors import PTCError

_LIBRARIES = frozenset({"pyarrow", "pandas", "polars", "duckdb"})


def is_columnar(x: Any) -> bool:
    """True for an object of one of the recognized libraries (tables, frames, relations)."""
    return type(x).__module__.partition(".")[0] in _LIBRARIES


def as_arrow(x: Any, where: str = "value") -> Any:
    """The pyarrow.Table holding x's rows, or None when x is not a recognized table-like object.

    pandas DataFrames keep a meaningful index as a column (pyarrow's rule); a polars LazyFrame
    is collected; a pyarrow Dataset or RecordBatchReader is read whole (the host asked for it)."""
    lib = type(x).__module__.partition(".")[0]
    if lib not in _LIBRARIES:
        return None
    kind = "tool" if where.startswith("tool") else "runtime"
    try:
        table = _convert(x, lib)
    except PTCError:
        raise
    except Exception as e:  # noqa: BLE001 - a frame Arrow cannot hold is a clear error, not a crash
        raise PTCError(kind, f"{where}: cannot read this {type(x).__name__} as a table: {type(e).__name__}: {e}",
                       hint="give columns of one type each (numbers, strings, booleans, dates) "
                            "or convert the frame to plain records first") from None
    if table is None:
        raise PTCError(kind, f"{where}: a {lib} {type(x).__name__} is not a table",
                       hint="pass a DataFrame, an Arrow table or record batch, or a DuckDB relation")
    return table


def _convert(x: Any, lib: str) -> Any:
    import pyarrow as pa

    if isinstance(x, pa.Table):
        return x
    if isinstance(x, pa.RecordBatch):
        return pa.Table.from_batches([x])
    if isinstance(x, pa.RecordBatchReader):
        return x.read_all()
    if lib == "pyarrow":
        to_table = getattr(x, "to_table", None)  # pyarrow.dataset.Dataset, Scanner
        return to_table() if callable(to_table) else None
    if lib == "pandas":
        import pandas as pd

        if isinstance(x, pd.DataFrame):
            return pa.Table.from_pandas(x, preserve_index=None)
        if isinstance(x, pd.Series):  # a one-column table, named as to_frame() names it (or "value")
            return pa.Table.from_pandas(x.to_frame(name=x.name if x.name is not None else "value"), preserve_index=None)
        return None
    if lib == "polars":
        import polars as pl

        if isinstance(x, pl.LazyFrame):
            x = x.collect()
        if isinstance(x, pl.DataFrame):
            return x.to_arrow()
        return None
    # duckdb: a relation (duckdb.sql(...), con.table(...)) gives its result as Arrow
    for method in ("to_arrow_table", "fetch_arrow_table", "arrow"):
        fetch = getattr(x, method, None)
        if callable(fetch):
            out = fetch()
            return out.read_all() if isinstance(out, pa.RecordBatchReader) else out
    return None
