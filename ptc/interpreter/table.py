"""Tables: columnar data (a pyarrow.Table) that programs see as a vector of row maps.

A `Table` is a read-only PTC vector whose items are `Row`s, read-only PTC maps over one row.
Nothing is converted when a table enters a run: `count` is the table's row count, and a block
of 4,096 cells of a column becomes Python values (cached on the table) the first time a
program reads a cell of that block. Rows are tiny views (the table and an index), so a program
that touches a few rows of a 10-million-row table converts a few blocks. Every write (`assoc`,
`conj`, `into`...) returns a new PTC collection; the caller's table never changes.

Column names follow the JSON key rule (`host_key`): a name that is a keyword name is read as
that keyword (`amount` -> `:amount`), any other stays a string (`"unit price"`).

Cell values as PTC values: nulls are nil, integers/floats/strings/booleans as themselves,
date32/date64 cells are dates (`datetime.date`), timestamps date-times (`datetime.datetime`,
UTC-aware when the column has a time zone), durations `datetime.timedelta`, decimals floats,
times of day their ISO text, binary cells their base64 text, structs maps, lists vectors and
Arrow maps maps. pyarrow is imported only by the code that made the table.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import functools
import itertools
from typing import Any, Iterator, Sequence

SHIFT = 12  # cells are converted in blocks of 2**SHIFT rows (4,096: a few rows cost little, a scan few calls)
MASK = (1 << SHIFT) - 1



class Scan:
    """Rows not read yet: a file whose schema and row count are known (its metadata), read
    whole when a program first reads a row or column. A group-by the engine can fold reads it
    itself, streaming (see columnar.engine): a file larger than memory can be grouped. The data
    layer makes them (ptc.data.files); `parquet_path` is the file DuckDB may read."""

    schema: Any
    num_rows: int
    parquet_path: str

    def read(self) -> Any:
        """The file's rows as a pyarrow.Table, within the load limits and the run's memory."""
        raise NotImplementedError

    def null_counts(self) -> list[int | None]:
        """Each column's nils, from the metadata (None where it does not say)."""
        raise NotImplementedError


class Table:
    """A PTC vector of row maps over a pyarrow.Table (never mutated).

    A slice (`rest`, `subvec`, the chunks a loop reads) is a view of rows [_off, _off + _n) of
    the same root table, sharing its converted blocks, so reading a table in slices converts
    each cell once."""

    __slots__ = ("_arrow", "_n", "_off", "_root", "_names", "_keys", "_index", "_blocks", "_groups", "_scan")

    def __init__(self, arrow: Any) -> None:
        from .values import host_key  # values imports this module: no import at the top

        self._arrow = arrow
        self._root = self
        self._groups: Any = None  # the grouping whose groups are views of this table (see columnar.folds)
        self._scan: Scan | None = None  # the file this table reads its rows from when first asked
        self._off = 0
        self._n: int = arrow.num_rows
        names = list(arrow.column_names)
        self._names: tuple[str, ...] = tuple(names)
        self._keys: tuple[Any, ...] = tuple(host_key(n) for n in names)  # PTC keys, column order
        self._index: dict[Any, int] = {}  # PTC key -> column position (first of equal names wins)
        for i, k in enumerate(self._keys):
            self._index.setdefault(k, i)
        nblocks = (self._n + MASK) >> SHIFT
        self._blocks: list[list[list[Any] | None]] = [[None] * nblocks for _ in names]

    # -- the vector protocol (what builtins use on a host list) --------------------------

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:
        root, off = self._root, self._off
        if type(i) is slice:
            start, stop, step = i.indices(self._n)
            if step == 1:
                return self._view(off + start, max(0, stop - start))
            return [Row(root, off + j) for j in range(start, stop, step)]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return Row(root, off + i)

    @classmethod
    def grouped(cls, groups: Any) -> "Table":
        """The rows of groups.table in group order (each group's rows together, as views of
        this table show them), reordered only when a row or column is first read: a plan of
        folds over the groups (columnar.folds) never reads them."""
        t = cls(groups.table.slice(0, 0))
        t._arrow, t._n, t._groups = None, groups.table.num_rows, groups
        t._blocks = [[None] * ((t._n + MASK) >> SHIFT) for _ in t._names]
        return t

    @classmethod
    def scanned(cls, scan: Scan) -> "Table":
        """The rows of a file, read when a row or column is first read (see Scan)."""
        t = cls(scan.schema.empty_table())
        t._arrow, t._n, t._scan = None, scan.num_rows, scan
        t._blocks = [[None] * ((t._n + MASK) >> SHIFT) for _ in t._names]
        return t

    @property
    def unread(self) -> Scan | None:
        """The scan of a whole table not read yet (None once read, or for a part of it)."""
        root = self._root
        if root._arrow is None and root._scan is not None and self._off == 0 and self._n == root._n:
            return root._scan
        return None

    def _view(self, off: int, n: int) -> "Table":
        root = self._root
        view = Table.__new__(Table)
        view._arrow, view._root, view._off, view._n = None, root, off, n
        view._names, view._keys, view._index, view._blocks = root._names, root._keys, root._index, root._blocks
        return view

    @property
    def arrow(self) -> Any:
        """The pyarrow.Table of these rows (a zero-copy slice for a view)."""
        if self._arrow is None:
            root = self._root
            if root._arrow is None:  # rows put in group order, or read from a file, when first read
                root._arrow = root._groups.ordered() if root._scan is None else root._scan.read()
            if root is self:
                return self._arrow
            self._arrow = root._arrow.slice(self._off, self._n)
        return self._arrow

    def __iter__(self) -> Iterator["Row"]:
        return map(Row, itertools.repeat(self._root, self._n), range(self._off, self._off + self._n))

    def __reversed__(self) -> Iterator["Row"]:
        return map(Row, itertools.repeat(self._root, self._n), range(self._off + self._n - 1, self._off - 1, -1))

    def __bool__(self) -> bool:
        return self._n > 0

    def __reduce__(self) -> tuple[Any, ...]:
        return (Table, (self.arrow,))

    def __repr__(self) -> str:
        return f"<Table {self._n} rows x {len(self._names)} columns>"

    # -- columns ---------------------------------------------------------------------------

    @property
    def keys(self) -> tuple[Any, ...]:
        """The PTC keys of the columns, in column order."""
        return self._keys

    def block(self, pos: int, b: int) -> list[Any]:
        """Block b of column `pos` of the root table as PTC values (converted once, then cached)."""
        blk = self._blocks[pos][b]
        if blk is None:
            from .context import check_deadline

            check_deadline()
            blk = column_values(self._root.arrow.column(pos).slice(b << SHIFT, 1 << SHIFT))
            self._blocks[pos][b] = blk
        return blk

    def values_of(self, key: Any) -> list[Any]:
        """(key row) for every row, as one list (nil for a key no column has)."""
        pos = self._index.get(key)
        if pos is None:
            return [None] * self._n
        from .context import check_deadline

        check_deadline()
        return column_values(self.arrow.column(pos))

    def cell(self, pos: int, i: int) -> Any:
        blk = self._blocks[pos][i >> SHIFT]
        if blk is None:
            blk = self.block(pos, i >> SHIFT)
        return blk[i & MASK]

    def schema_text(self, most: int = 100) -> str:
        """`name type, ...` of the columns (what a prompt shows of a table): the first `most`,
        then how many more (a 100,000-column file must not make a megabyte prompt)."""
        scan = self.unread
        if scan is not None:  # not read for a prompt: the nils as the file's metadata counts them
            schema, nils = scan.schema, scan.null_counts()
        else:
            schema, nils = self.arrow.schema, [c.null_count for c in self.arrow.columns]
        shown = ", ".join(f"{_key_text(k)} {arrow_type_label(t)}{_nils(nils[i] or 0)}"
                          for i, (k, t) in enumerate(zip(self._keys[:most], schema.types[:most])))
        more = len(self._keys) - most
        return f"{shown} ... and {more:,} more" if more > 0 else shown


def _nils(n: int) -> str:
    """How many of a column's cells are nil, as the prompt says it (a model reads "float" as
    "always a number" otherwise)."""
    return f" ({n:,} nil)" if n else ""


class Row:
    """A read-only PTC map over row `i` of a Table: keys are the table's column keys."""

    __slots__ = ("t", "i")

    def __init__(self, t: Table, i: int) -> None:
        self.t = t
        self.i = i

    def get(self, k: Any, default: Any = None) -> Any:
        t = self.t
        pos = t._index.get(k)
        if pos is None:
            return default
        i = self.i
        blk = t._blocks[pos][i >> SHIFT]
        if blk is None:
            blk = t.block(pos, i >> SHIFT)
        return blk[i & MASK]

    def __getitem__(self, k: Any) -> Any:
        pos = self.t._index.get(k)
        if pos is None:
            raise KeyError(k)
        return self.t.cell(pos, self.i)

    def __contains__(self, k: object) -> bool:
        return k in self.t._index

    def __len__(self) -> int:
        return len(self.t._index)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.t._index)

    def keys(self) -> Any:
        return self.t._index.keys()

    def values(self) -> list[Any]:
        cell, i = self.t.cell, self.i
        return [cell(p, i) for p in self.t._index.values()]

    def items(self) -> list[tuple[Any, Any]]:
        cell, i = self.t.cell, self.i
        return [(k, cell(p, i)) for k, p in self.t._index.items()]

    def as_dict(self) -> dict[Any, Any]:
        """The row's entries as a fresh dict with PTC keys (what a write starts from)."""
        return dict(self.items())

    def host_dict(self, narrower_than: int) -> dict[str, Any] | None:
        """The row's entries as a fresh host dict: its column names (each a string, read as the
        key the row shows) to its cells, so that a write of a small row is one dict, as a
        write of a host row is (see values.host_slot); None for a row that is not narrower."""
        t, i = self.t, self.i
        if len(t._index) >= narrower_than:
            return None
        b, j = i >> SHIFT, i & MASK
        blocks, names = t._blocks, t._names
        return {names[p]: ((blk if (blk := blocks[p][b]) is not None else t.block(p, b))[j])
                for p in t._index.values()}

    def __call__(self, k: Any, default: Any = None) -> Any:
        from .values import lookup

        return lookup(self, k, default)

    def __eq__(self, other: object) -> bool:
        from .values import equals

        return equals(self, other)

    def __hash__(self) -> int:
        from .values import as_key

        return hash(as_key(self))

    def __reduce__(self) -> tuple[Any, ...]:
        from .values import map_of

        return (map_of, (self.as_dict(),))

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


def _key_text(k: Any) -> str:
    from .values import Keyword

    if type(k) is Keyword:
        return f":{k.name}"
    from .printer import pr_str

    return pr_str(k)


# -- Arrow cells as PTC values -------------------------------------------------------------


def column_values(chunked: Any) -> list[Any]:
    """A pyarrow ChunkedArray as a list of PTC values (see the module docstring for the rules)."""
    import pyarrow.types as pt

    t = chunked.type
    if pt.is_dictionary(t) or pt.is_run_end_encoded(t):
        return _shared_values(chunked)
    chunked = as_cells(chunked)
    t = chunked.type
    if (pt.is_integer(t) or pt.is_floating(t)) and chunked.null_count == 0:
        out: list[Any] = []
        for chunk in chunked.chunks:
            out.extend(chunk.to_numpy(zero_copy_only=False).tolist())
        return out
    values = chunked.to_pylist()
    if _plain(t):
        return values
    fix = _converter(t)
    return [None if x is None else fix(x) for x in values]


def _shared_values(chunked: Any) -> list[Any]:
    """A dictionary- or run-end-encoded column's values, each entry its rows reach converted once
    and shared by them (one 1 KB string in 4,096 rows is one string, not 4,096 copies of it)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.types as pt

    out: list[Any] = []
    for chunk in chunked.chunks:
        if pt.is_run_end_encoded(chunk.type):
            chunk = runs_as_dictionary(chunk)
        idx = chunk.indices
        nil = idx.is_null().to_numpy(zero_copy_only=False) if idx.null_count else None
        rows = (idx.fill_null(0) if nil is not None else idx).to_numpy(zero_copy_only=False)
        used = np.unique(rows if nil is None else rows[~nil])
        entries = [*column_values(pa.chunked_array([chunk.dictionary.take(pa.array(used, pa.int64()))])), None]
        at = np.searchsorted(used, rows)
        if nil is not None:
            at[nil] = len(used)  # the None after the entries
        values = [entries[i] for i in at.tolist()]
        out.extend(values)
    return out


def runs_as_dictionary(chunk: Any) -> Any:
    """A run-end-encoded array as a dictionary array: its runs' values (the slice of them its rows
    cover) and each row's run number (a nil run's rows nil). Arrow can neither filter nor take the
    former; ptc computes on the latter encoded (columnar.encoded)."""
    import numpy as np
    import pyarrow as pa

    start, n = chunk.find_physical_offset(), chunk.find_physical_length()
    ends = chunk.run_ends.slice(start, n).to_numpy(zero_copy_only=False).astype(np.int64) - chunk.offset
    lengths = np.diff(np.clip(ends, 0, len(chunk)), prepend=0)
    values = chunk.values.slice(start, n)
    if not values.null_count:
        return pa.DictionaryArray.from_arrays(pa.array(np.repeat(np.arange(n, dtype=np.int32), lengths)), values)
    nil = values.is_null().to_numpy(zero_copy_only=False)  # a nil run: nil rows, no entry (Arrow unifies no nil entry)
    numbers = (np.cumsum(~nil) - 1).astype(np.int32)
    return pa.DictionaryArray.from_arrays(pa.array(np.repeat(numbers, lengths), mask=np.repeat(nil, lengths)),
                                          values.drop_null())


def _plain(t: Any) -> bool:
    """True when to_pylist already gives PTC values for this type (no walk needed)."""
    import pyarrow.types as pt

    return bool(pt.is_integer(t) or pt.is_floating(t) or pt.is_string(t) or pt.is_large_string(t)
                or pt.is_boolean(t) or pt.is_null(t) or pt.is_date(t) or pt.is_duration(t)
                or (pt.is_timestamp(t)))


def _converter(t: Any) -> Any:
    """A function making one non-null to_pylist cell of Arrow type t a PTC value."""
    import pyarrow.types as pt

    if _plain(t):
        return _same
    if getattr(t, "extension_name", None) == "ptc.keyword":  # a computed column of keywords (columnar.kernels)
        from .values import Keyword

        return Keyword
    if getattr(t, "extension_name", None) == "ptc.dayofweek":  # days of the week by number (columnar.kernels)
        from .dates import DAYS_OF_WEEK

        days = list(DAYS_OF_WEEK.values())
        return lambda i: days[i - 1]
    if pt.is_binary(t) or pt.is_large_binary(t) or pt.is_fixed_size_binary(t):
        return _binary_text
    if pt.is_decimal(t):
        return float
    if pt.is_time(t):
        return _iso
    if pt.is_struct(t):
        fields = [(t.field(i).name, _converter(t.field(i).type)) for i in range(t.num_fields)]
        return lambda d: {name: (None if d[name] is None else f(d[name])) for name, f in fields}
    if pt.is_map(t):
        fk, fv = _converter(t.key_type), _converter(t.item_type)
        return lambda pairs: {fk(k): (None if x is None else fv(x)) for k, x in pairs}
    if pt.is_list(t) or pt.is_large_list(t) or pt.is_fixed_size_list(t):
        f = _converter(t.value_type)
        return lambda xs: [None if x is None else f(x) for x in xs]
    return _fallback


def _same(x: Any) -> Any:
    return x


def _binary_text(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii")


def _iso(x: Any) -> str:
    return x.isoformat()


def _fallback(x: Any) -> Any:
    """A cell of a type with no PTC counterpart: its text."""
    if isinstance(x, decimal.Decimal):
        return float(x)
    if isinstance(x, (datetime.date, datetime.timedelta)):
        return x
    if isinstance(x, (str, int, float, bool)):
        return x
    return str(x)


def arrow_kind(t: Any) -> str:
    """What PTC type the cells of Arrow type t are, the one classification ptc has (the
    converter, the prompt's labels and the kernels read it): int, float (float16 and decimals
    too: their cells are `as_cells`' floats), str, bool, date, datetime, duration, time (ISO
    text), binary (base64 text), map (structs, maps), list, null or other."""
    import pyarrow.types as pt

    if pt.is_dictionary(t) or pt.is_run_end_encoded(t):
        return arrow_kind(t.value_type)
    for test, k in _kinds():
        if test(t):
            return k
    return "other"


@functools.lru_cache(maxsize=None)
def _kinds() -> list[tuple[Any, str]]:
    import pyarrow.types as pt

    return [(pt.is_boolean, "bool"), (pt.is_integer, "int"), (pt.is_floating, "float"), (pt.is_decimal, "float"),
            (pt.is_string, "str"), (pt.is_large_string, "str"), (pt.is_date, "date"), (pt.is_timestamp, "datetime"),
            (pt.is_duration, "duration"), (pt.is_time, "time"), (pt.is_binary, "binary"),
            (pt.is_large_binary, "binary"), (pt.is_fixed_size_binary, "binary"), (pt.is_struct, "map"),
            (pt.is_map, "map"), (pt.is_list, "list"), (pt.is_large_list, "list"), (pt.is_fixed_size_list, "list"),
            (pt.is_null, "null")]


def as_cells(chunked: Any) -> Any:
    """A column as the values its cells are: float16 and decimal columns as float64 (the
    floats a program reads, computed the same way by the converter and the kernels)."""
    import pyarrow as pa
    import pyarrow.types as pt

    t = chunked.type
    if pt.is_float16(t) or pt.is_decimal(t):
        return chunked.cast(pa.float64())
    return chunked


_LABELS = {"str": "string", "time": "time (string)", "binary": "binary (base64 string)"}


def arrow_type_label(t: Any) -> str:
    """A short PTC-flavoured name for an Arrow type: int, float, string, bool, date, ..."""
    import pyarrow.types as pt

    if pt.is_dictionary(t) or pt.is_run_end_encoded(t):
        t = t.value_type
    k = arrow_kind(t)
    if k == "list":
        return f"[{arrow_type_label(t.value_type)}]"
    return {"null": "nil", "other": str(t)}.get(k) or _LABELS.get(k, k)


__all__ = ["Table", "Row", "Scan", "column_values", "arrow_kind", "as_cells", "arrow_type_label"]


def table_rows(value: Any) -> list[tuple[Table, Sequence[int]]] | None:
    """[(table, row numbers), ...] when value is a sequence whose items are all rows of tables
    of one schema (what a filter, sort-by or take over a table gives, its chunks built as
    tables of their own): such a result is columnar, taken from those tables in a few calls
    instead of converted row by row. None otherwise."""
    from .lazy import LazySeq

    t = type(value)
    if t is LazySeq and type(value._src).__name__ == "SelectionSource":  # a kernel's rows, in its order
        sel = value._src.sel
        if not len(sel):
            return None
        # not realized: its rows are made as they are read, even after the run (a printer reads
        # a head), and it leaves as Arrow from the selection (Source.after_run)
        rows = Table(sel.table())
        return [(rows, range(len(rows)))]
    if t is LazySeq:
        # only a seq of rows is realized whole here ((map inc (range 1e8)) meets max_result as it
        # prints, as before); (range) and the like never are
        if value.open_ended or type(next(iter(value), None)) is not Row:
            return None
        value = value.items()  # realized within the run's limits
    elif t is Table:  # its row numbers as a range: a 10M-row table's as a list took 0.4 s and 384 MB
        return [(value._root, range(value._off, value._off + value._n))]
    elif isinstance(value, (str, dict)) or not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
        return None  # a vector, a list or a realized seq of rows is walked; maps and text are not
    parts: list[tuple[Table, list[int]]] = []
    root: Table | None = None
    idx: list[int] = []
    for row in value:
        if type(row) is not Row:
            return None
        if row.t is not root:
            if root is not None:
                if row.t.arrow.schema != root.arrow.schema:
                    return None
                parts.append((root, idx))
            root, idx = row.t, []
        idx.append(row.i)
    if root is None:
        return None
    parts.append((root, idx))
    return parts


def table_rows_arrow(parts: list[tuple[Table, Sequence[int]]]) -> Any:
    """The pyarrow Table of `table_rows`' parts: one take per part, concatenated."""
    import pyarrow as pa

    taken = [t.arrow if idx == range(len(t)) else t.arrow.slice(idx.start, len(idx))
             if type(idx) is range and idx.step == 1 else runs_as_dictionaries(t.arrow).take(pa.array(idx, pa.int64()))
             for t, idx in parts]
    return taken[0] if len(taken) == 1 else pa.concat_tables(taken)


def runs_as_dictionaries(arrow: Any) -> Any:
    """Arrow table `arrow`, its run-end-encoded columns as dictionary ones (runs_as_dictionary)."""
    import pyarrow as pa
    import pyarrow.types as pt

    from .context import check_deadline

    for i, t in enumerate(arrow.schema.types):
        if pt.is_run_end_encoded(t):
            chunks = []
            for chunk in arrow.column(i).chunks:
                chunks.append(runs_as_dictionary(chunk))
                check_deadline()
            arrow = arrow.set_column(i, arrow.field(i).name,
                                     pa.chunked_array(chunks, pa.dictionary(pa.int32(), t.value_type)))
    return arrow
