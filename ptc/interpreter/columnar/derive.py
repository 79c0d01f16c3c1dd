"""Derived columns: `(map f table)` where f makes a map from each row (`(assoc % :speed (/
(:distance %) (:air_time %)))`, `select-keys`, `dissoc`, `update`, a literal `{:k (:x %)}`...:
an expr.py "rowmap") is a new table, the row's columns (as they are: no copy) with each
computed column set, dropped or selected in the fn's order. Its rows are the maps the row path
makes, key for key in the same order (ptc's maps keep insertion order), so every kernel after
it (a sort, a filter, a group-by) reads columns. Where a value would not come back from a
column as the row path's value (a keyword, a key that is not a column name), Fallback."""

from __future__ import annotations

import datetime
from typing import Any

import pyarrow as pa

from .. import context
from ..values import Keyword
from .frame import selection
from .kernels import Fallback, column_name, is_array, kind, value


def derived_table(e: tuple[Any, ...], frame: Any) -> pa.Table:
    """The table whose rows are e's maps, one per row of frame (a pyarrow.Table or a Selection)."""
    _, base, ops = e
    n = len(frame)
    cols: dict[str, Any] = {}
    made = 0  # bytes this table holds that the data did not (computed columns, taken rows)
    source = frame if isinstance(frame, pa.Table) else None
    if base == "row" or any(op[0] == "rename" for op in ops):
        if source is None:
            source = selection(frame).table()  # the kept rows' columns (one take each)
            made += source.nbytes
            context.check_deadline()
        if base == "row":
            cols = {name: source.column(i) for i, name in enumerate(source.column_names)}
    for op in ops:
        if op[0] == "assoc":
            cols[_name(op[1])] = col = _column(value(op[2], frame), n)
            made += col.nbytes
        elif op[0] == "dissoc":
            cols.pop(_name(op[1]), None)
        elif op[0] == "select":
            cols = {name: cols[name] for name in map(_name, op[1]) if name in cols}
        else:  # rename: the original row's column, when it has one
            assert source is not None
            old = _name(op[2])
            if old in source.column_names:
                cols[_name(op[1])] = source.column(old)
        context.check_deadline()
        limit = context.CURRENT.limits.max_memory
        if made > limit:
            raise context.limit_error("max_memory", limit, f"a derived table of {n:,} rows ({made:,} bytes as Arrow)")
    if not cols:
        raise Fallback("maps with no keys (a table of no columns holds no rows)")
    return pa.table(cols)


def _name(k: Keyword) -> str:
    name = column_name(k)
    if name is None:
        raise Fallback(f"the key {k} is not a column name a table reads back as it")
    return name


_SCALARS = (type(None), bool, int, float, str, datetime.date)


def _column(v: Any, n: int) -> Any:
    """A computed value as a column of n cells: an Array as it is, a constant repeated."""
    if is_array(v):
        if kind(v) in ("kw", "dow"):  # a table's column holds no keywords: what to_arrow gives differs
            raise Fallback("a keyword or a day of the week in every row (a column cannot hold it as it is)")
        return v
    if type(v) not in _SCALARS:
        raise Fallback(f"a {type(v).__name__} value in every row (a column cannot hold it as it is)")
    try:
        return pa.array([v] * n) if v is not None else pa.nulls(n)
    except (pa.ArrowException, OverflowError):
        raise Fallback("a constant a column cannot hold") from None
