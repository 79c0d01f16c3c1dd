"""Selections: some rows of a pyarrow.Table, in some order, read one column at a time.

A filter or a sort over a table gives a selection (the table and the row numbers it keeps),
not a new table: a kernel that follows reads only the columns it needs (`(sum-by :amount
(filter ...))` filters one column, not ten), and a program that realizes rows builds only the
rows it reaches (`(take 10 (sort-by :amount > t))` builds ten).
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import context
from ..lazy import CHUNK, Source


class Selection:
    """Rows `indices` (all rows when None) of pyarrow.Table `base`: a table-like frame. A sorted
    selection computes its order when first needed: its first rows alone by a top-k selection,
    all of it by a stable sort (sized and timed before it starts); its reverse is the same
    order read from the end, so `(take 5 (reverse (sort-by :k t)))` is a top-k too. A filter of
    the whole table keeps its mask: a column is then filtered by it, and row numbers are made
    only if something needs them."""

    __slots__ = ("base", "_indices", "_cols", "_table", "_order", "_mask", "_count", "_top")

    def __init__(self, base: pa.Table, indices: Any = None) -> None:
        self.base, self._indices = base, indices
        self._cols: dict[int, Any] = {}
        self._table: pa.Table | None = None if indices is not None else base
        # (parent, its sort keys, descending, read from the end)
        self._order: tuple[Selection, Any, bool, bool] | None = None
        self._mask: Any = None  # the rows of base kept by a filter (row numbers not made yet)
        self._count = 0
        self._top: Any = None  # the row numbers of its first rows, once a top-k selected them

    def sorted(self, keys: Any, descending: bool) -> "Selection":
        """These rows stably ordered by keys (one per row; nils first ascending, last descending),
        computed lazily."""
        s = Selection(self.base, ())
        s._order = (self, _flat(keys), descending, False)
        return s

    def reversed(self) -> "Selection":
        """These rows in reverse order (of a lazily sorted selection: still lazy)."""
        if self._order is not None:
            s = Selection(self.base, ())
            parent, keys, desc, flipped = self._order
            s._order = (parent, keys, desc, not flipped)
            return s
        idx = self.indices
        n = self.base.num_rows if idx is None else len(idx)
        back = pa.array(np.arange(n - 1, -1, -1, dtype=np.int64))
        return Selection(self.base, back if idx is None else idx.take(back))

    @property
    def indices(self) -> Any:
        if self._mask is not None:
            self._indices, self._mask = pc.indices_nonzero(self._mask), None
        if self._order is not None:
            parent, keys, desc, flipped = self._order
            fits_sort(keys)
            # nil is less than anything to compare: first ascending, last descending (< and > refuse it)
            order = pc.array_sort_indices(keys, order="descending" if desc else "ascending",
                                          null_placement="at_end" if desc else "at_start")
            if flipped:
                order = order.take(pa.array(np.arange(len(order) - 1, -1, -1, dtype=np.int64)))
            self._indices = order if parent.indices is None else parent.indices.take(order)
            self._order = None
        return self._indices

    def prefix(self, k: int) -> Any:
        """The row numbers of the first k rows (of a lazily sorted selection: no full sort; the
        rows read chunk by chunk select 4 times more each time they outgrow the last top-k)."""
        if self._top is not None and len(self._top) >= k:
            return self._top.slice(0, k)
        want = k if self._top is None else max(k, 4 * len(self._top))
        if self._order is None or self._order[1].null_count or want * 64 > len(self._order[1]):
            return self.slice(0, k).indices
        parent, keys, desc, flipped = self._order
        top = _top_k(keys, want, desc, flipped)
        self._top = top if parent.indices is None else parent.indices.take(top)
        return self._top.slice(0, k)

    @property
    def num_rows(self) -> int:
        if self._mask is not None:
            return self._count
        if self._order is not None:
            return len(self._order[1])
        return self.base.num_rows if self.indices is None else len(self.indices)

    def __len__(self) -> int:
        return self.num_rows

    @property
    def column_names(self) -> list[str]:
        return self.base.column_names

    def column(self, i: int) -> Any:
        col = self._cols.get(i)
        if col is None:
            if self._mask is not None:
                col = self._cols[i] = self.base.column(i).filter(self._mask)
            elif self.indices is None:
                return self.base.column(i)
            else:
                col = self._cols[i] = self.base.column(i).take(self.indices)
        return col

    def table(self) -> pa.Table:
        """The selected rows as a pyarrow.Table (built once)."""
        if self._table is None:
            self._table = self.base.filter(self._mask) if self._mask is not None else self.base.take(self.indices)
        return self._table

    def filter(self, mask: Any) -> "Selection":
        mask = _flat(mask)
        if self._order is None and self._mask is None and self._indices is None:
            s = Selection(self.base, ())
            s._mask, s._count = mask, int(pc.sum(mask).as_py() or 0)
            return s
        return Selection(self.base, self.indices.filter(mask))

    def take(self, idx: Any) -> "Selection":
        idx = _flat(idx)
        return Selection(self.base, idx if self.indices is None else self.indices.take(idx))

    def slice(self, start: int, size: int | None = None) -> "Selection":
        if self.indices is None:
            n = self.base.num_rows
            # numpy's arange, not a Python range (a 9M-row prefix: 0.9 s as a range)
            idx = pa.array(np.arange(start, max(start, n if size is None else min(n, start + size)), dtype=np.uint64))
            return Selection(self.base, idx)
        return Selection(self.base, self.indices.slice(start) if size is None else self.indices.slice(start, size))

    def row(self, i: int) -> Any:
        """Row i of the selection: a Row of the base table."""
        from ..table import Table

        return Table(self.base)[i if self.indices is None else self.indices[i].as_py()]


def _flat(x: Any) -> Any:
    """x as one Array: a single chunk as it is (combine_chunks copies even one: 17-22 ms per
    10M doubles), several combined."""
    if isinstance(x, pa.ChunkedArray):
        return x.chunk(0) if x.num_chunks == 1 else x.combine_chunks()
    return x


def holds_negative_zero(x: Any) -> bool:
    """Floats x hold -0.0: Clojure's max or min of it and 0.0 is the one it meets last, an order
    Arrow's and DuckDB's aggregates do not keep (+0.0 alone has one answer), so they fall back."""
    vals = _flat(x).to_numpy(zero_copy_only=False)
    return bool(np.signbit(vals[vals == 0]).any())


def _top_k(keys: Any, k: int, desc: bool, flipped: bool = False) -> Any:
    """The positions of the first k keys in a stable sort (no nulls), or (flipped) of its last
    k read from the end: the k-th key's value bounds the candidates, which are then sorted
    stably (positions ascending among ties; flipped, the sort's tail reversed: descending)."""
    first = desc != flipped  # the direction the k wanted keys lead in
    some = pc.select_k_unstable(keys, k, sort_keys=[("", "descending" if first else "ascending")])
    kth = (pc.min if first else pc.max)(keys.take(some))
    cand = pc.indices_nonzero((pc.greater_equal if first else pc.less_equal)(keys, kth))
    ordered = cand.take(pc.array_sort_indices(keys.take(cand), order="descending" if desc else "ascending"))
    if not flipped:
        return ordered.slice(0, k)
    return ordered.take(pa.array(np.arange(len(ordered) - 1, max(len(ordered) - k, 0) - 1, -1, dtype=np.int64)))


SORT_SECONDS = 1e-6  # a stable sort's time per key at most (Arrow: 0.35 s of 1M floats, 1 s of texts, loaded)
SORT_BYTES = 24  # what it holds per key at its peak (the positions, their copy, the keys taken)


def fits_sort(keys: Any) -> None:
    """Refuse a sort Arrow cannot stop once it starts when it would outlast the run or its memory."""
    n = len(keys)
    if n > 65536:
        context.check_bytes(n * SORT_BYTES, f"sorting {n:,} keys", charge=False)
        context.check_time(n * SORT_SECONDS, f"sorting {n:,} keys")


def sorted_values(sel: Selection) -> Any:
    """The one column of sel, a lazily sorted selection whose keys are that column's own values,
    in its order: numpy's sort of the values alone (no positions: 12 ms of 1M floats, against
    0.35 s for Arrow's stable sort) when no two equal values can be told apart (numbers, no
    nil, zeros all of one sign); else the stable sort's."""
    order = sel._order
    if order is not None and not order[1].null_count and pa.types.is_integer(order[1].type) | pa.types.is_floating(
            order[1].type):
        _, keys, desc, flipped = order
        vals = keys.to_numpy(zero_copy_only=False)
        zeros = np.signbit(vals[vals == 0]) if pa.types.is_floating(keys.type) else np.zeros(0, bool)
        if zeros.all() or not zeros.any():
            fits_sort(keys)
            out = np.sort(vals)
            return pa.array(out[::-1] if desc != flipped else out, type=keys.type)
    return sel.column(0)


class Sample:
    """A selection (its rows) or a computed column (its values) as `context.emptied` reads it:
    its length and its first items, made only when read."""

    def __init__(self, items: Any) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Any]:
        if type(self.items) is not Selection:
            from .dispatch import _values

            return iter(_values(self.items.slice(0, 3)))
        from ..table import Table

        return iter(Table(self.items.slice(0, 3).table()))


def selection(frame: Any) -> Selection:
    return frame if type(frame) is Selection else Selection(frame)


def is_rows(frame: Any) -> bool:
    """Whether an expression's argument in this frame is a row (not a column value)."""
    return type(frame) is Selection or isinstance(frame, pa.Table)


class SelectionSource(Source):
    """A selection's rows as a lazy seq's items, 32 a chunk, each chunk's rows built as reached."""

    __slots__ = ("sel", "pos")
    after_run = True  # its rows are taken from a computed selection: a printer may read them later

    def __init__(self, sel: Selection) -> None:
        self.sel, self.pos = sel, 0

    def _rows(self, start: int, size: int | None) -> list[Any]:
        from ..table import Table

        if size is not None and self.sel._order is not None:  # the first rows of a sort: top-k
            return list(Table(self.sel.base.take(self.sel.prefix(start + size).slice(start, size))))
        return list(Table(self.sel.slice(start, size).table()))

    def left(self) -> int:
        return len(self.sel) - self.pos

    def next(self) -> list[Any] | None:
        n = len(self.sel)
        if self.pos >= n:
            return None
        start, self.pos = self.pos, min(n, self.pos + CHUNK)
        return self._rows(start, self.pos - start)

    def drain(self) -> Iterator[list[Any]]:
        from ..table import Table

        n = len(self.sel)
        if self.pos >= n:
            return
        base = self.pos
        table = Table(self.sel.slice(base).table())
        while self.pos < n:  # in blocks: the limits are checked as they grow
            start, self.pos = self.pos, min(n, self.pos + 65536)
            yield list(table[start - base:self.pos - base])
