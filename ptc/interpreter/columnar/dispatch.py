"""The hooks builtins call: a columnar result, or `NO` (run the rows as always).

Each hook first asks whether its collection is columnar at all (a Table, a lazy seq that is a
view of one, or a lazy seq over one computed column); for anything else it returns `NO` after
one type test, so the row path pays nothing. Results keep the row path's types: `filter`
gives a lazy seq (a view of the filtered table), `map` a lazy seq (over the computed column,
turned into PTC values only if a program reads them), `group-by` a map of vectors (tables).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from typing import Any, Iterator

from .. import context
from ..lazy import LazySeq, Source
from ..values import FMap, HMap, Keyword
from .expr import expr_of, text

NO: Any = object()
_LOG: contextvars.ContextVar[list[tuple[str, bool, str]] | None] = contextvars.ContextVar("ptc_explain", default=None)
_OFF: contextvars.ContextVar[bool] = contextvars.ContextVar("ptc_rows_only", default=False)


@contextlib.contextmanager
def rows_only() -> Iterator[None]:
    """Within the block, tables are read row by row (no kernels): the baseline benchmarks compare with."""
    token = _OFF.set(True)
    try:
        yield
    finally:
        _OFF.reset(token)


class ColumnSource(Source):
    """A computed column (a pyarrow Array) as a lazy seq's items, converted when first read:
    32 items a chunk (as a vector's seq), converted 4096 at a time. A sorted column is `sel`, a
    lazily sorted selection of a one-column table, until all of it is read: its first chunks are
    a top-k (`(take 5 (sort > xs))` sorts nothing), its whole a sort (of the values alone when
    `by_value`: numbers with no nil and one sign of zero, whose order no tie can show)."""

    __slots__ = ("_array", "sel", "by_value", "pos", "_block", "_block_start")

    def __init__(self, array: Any, sel: Any = None, by_value: bool = False) -> None:
        self._array, self.sel, self.by_value, self.pos = array, sel, by_value, 0
        self._block: list[Any] = []
        self._block_start = 0

    @property
    def array(self) -> Any:
        if self._array is None:
            from .frame import sorted_values

            self._array = sorted_values(self.sel) if self.by_value else self.sel.column(0)
            self.sel = None
        return self._array

    def __len__(self) -> int:
        return len(self._array) if self._array is not None else self.sel.num_rows

    def next(self) -> list[Any] | None:
        n = len(self)
        if self.pos >= n:
            return None
        start = self.pos
        end = min(n, (start // 32 + 1) * 32)
        self.pos = end
        if self._array is None and end * 64 <= n:  # the first items of a sort: a top-k
            sel = self.sel
            return _values(sel.base.column(0).take(sel.prefix(end).slice(start)))
        if not self._block_start <= start < self._block_start + len(self._block):
            self._block_start, self._block = start, _values(self.array.slice(start, 4096))
        return self._block[start - self._block_start:end - self._block_start]

    def drain(self) -> Iterator[list[Any]]:
        n = len(self)
        while self.pos < n:  # in blocks: the limits are checked as they grow
            start, self.pos = self.pos, min(n, self.pos + 65536)
            yield _values(self.array.slice(start, self.pos - start))


def _values(array: Any) -> list[Any]:
    import pyarrow as pa

    from ..table import column_values

    return column_values(array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array]))


class VectorSource(Source):
    """Vectors made from each row as a value (`(map (juxt :a :b) t)`, `(map (fn [r] [(:a r) (:b
    r)]) t)`): the rows' frame and the ("juxt", part, ...) expression, which `frequencies` and
    `distinct` number as group-by numbers its keys (no vector made), and the parts' columns,
    zipped into PTC vectors only when a program reads them."""

    __slots__ = ("frame", "key", "_parts")

    def __init__(self, frame: Any, key: tuple[Any, ...], parts: list[Any]) -> None:
        self.frame, self.key = frame, key
        self._parts = [ColumnSource(p) for p in parts]

    def next(self) -> list[Any] | None:
        chunks = [p.next() for p in self._parts]  # the parts' chunks end at the same rows
        return None if chunks[0] is None else _vectors(chunks)

    def drain(self) -> Iterator[list[Any]]:
        for chunks in zip(*(p.drain() for p in self._parts)):
            yield _vectors(list(chunks))


def _vectors(parts: list[list[Any]]) -> list[Any]:
    from pyrsistent import pvector

    return [pvector(v) for v in zip(*parts)]


@functools.cache
def _table_type() -> Any:
    """interpreter.table.Table (imported on first use: table imports this module's package)."""
    from ..table import Table

    return Table


def rows_of(coll: Any) -> Any:
    """The pyarrow.Table whose rows coll is (a Table or a lazy view of one), else None."""
    t = type(coll)
    if t is LazySeq:
        o = coll.origin
        if o is not None and type(o[0]).__name__ == "Table" and type(o[0]) is _table_type() and not _OFF.get():
            return _plain(o[0]).slice(o[1]) if o[1] else _plain(o[0])
        if type(coll._src).__name__ == "SelectionSource" and not _OFF.get():  # cache + rest: all of it
            return coll._src.sel
        return None
    if t.__name__ == "Table" and t is _table_type() and not _OFF.get():
        if coll._n < SMALL_GROUP and coll._root is not coll and coll._root._groups is not None:
            return None  # a small group run one by one: rows beat a kernel's fixed cost
        return _plain(coll)
    return None


def _plain(table: Any) -> Any:
    """A Table's pyarrow.Table, its run-end-encoded columns as dictionary ones (encoded.without_runs)."""
    from .encoded import without_runs

    return without_runs(table.arrow)


# A group of fewer rows, when a group body is not a plan and runs group by group, is read row by
# row: a kernel call costs 30-100 us whatever its size (10,000 groups of 2 rows: 3.1 s by
# kernels, 0.08 s as plain rows).
SMALL_GROUP = 64


def column_of(coll: Any) -> Any:
    """The pyarrow Array whose values coll is (a lazy seq over a computed column), else None."""
    if type(coll) is LazySeq and type(coll._src) is ColumnSource and not _OFF.get():
        return coll._src.array
    return None


def vectors_of(coll: Any) -> VectorSource | None:
    """The VectorSource whose vectors coll is (a lazy seq of a juxt's vectors), else None."""
    if type(coll) is LazySeq and type(coll._src) is VectorSource and not _OFF.get():
        return coll._src
    return None


def _maybe_columnar() -> frozenset[type]:
    from ..table import Table

    return frozenset({LazySeq, Table, *_GROUP_MAPS})


_GROUP_MAPS = (FMap, HMap)  # what (group-by key table) returns
GROUP_MAPS = frozenset(_GROUP_MAPS)
MAYBE_COLUMNAR = _maybe_columnar()  # the only types `columnar` can be true of


def columnar(coll: Any) -> bool:
    """Whether coll has a columnar form (what fused row loops leave to the builtins)."""
    if type(coll) is LazySeq:
        return type(coll._src) is ColumnSource or rows_of(coll) is not None
    if type(coll) in _GROUP_MAPS:
        return grouping_of(coll) is not None
    return rows_of(coll) is not None


def grouping_of(m: Any) -> Any:
    """The Grouping m is the untouched result of (group-by key table) of (each value the view
    of its group, under its key, in order), else None."""
    if type(m) not in _GROUP_MAPS or not len(m) or _OFF.get():
        return None
    first = next(iter(dict.values(m) if type(m) is FMap else m._dict().values()))  # no copy of a big map
    Table = _table_type()
    if type(first) is not Table:
        return None
    items = m.items()
    root = first._root
    g = root._groups
    if g is None or len(m) != g.count:
        return None
    keys, off = g.keys, 0
    for i, (k, v) in enumerate(items):
        if type(v) is not Table or v._root is not root or v._off != off or not (k is keys[i] or k == keys[i]):
            return None
        off += v._n
        if (i & 65535) == 65535:  # a million groups are checked in about a second: the clock is read
            context.check_deadline()
    return g


def fused_rows(coll: Any, reason: str) -> bool:
    """False (the fused row loop runs); notes for explain why a columnar coll went row by row."""
    if _LOG.get() is not None and (columnar(coll) or vectors_of(coll) is not None):
        note("map/filter", False, reason)
    return False


def rows_seq(frame: Any) -> LazySeq:
    """The rows of a table or selection as a lazy seq (built as they are reached)."""
    from .frame import SelectionSource, selection

    return LazySeq(SelectionSource(selection(frame)))


def column_seq(array: Any) -> LazySeq:
    return LazySeq(ColumnSource(array))


def note(who: str, ran: bool, detail: str) -> None:
    """Record for explain what a call over columnar data did."""
    log = _LOG.get()
    if log is not None:
        log.append((who, ran, detail))


def _frame(coll: Any) -> Any:
    t = rows_of(coll)
    return t if t is not None else column_of(coll)


def _over_vectors(f: Any, coll: Any, who: str) -> Any:
    """NO; for explain, why fn f over a juxt's vectors (not a table's columns) runs row by row."""
    if _LOG.get() is not None and vectors_of(coll) is not None:
        e = expr_of(f)
        note(who, False, e if type(e) is str else "a fn of a juxt's vectors: kernels compute over columns")
    return NO


def _expr(f: Any, who: str) -> tuple[Any, ...] | None:
    e = expr_of(f)
    if type(e) is str:
        note(who, False, e)
        return None
    return e


def _run(who: str, e: tuple[Any, ...] | None, thunk: Any) -> Any:
    """thunk() as the kernel of `who`, or NO (noted) when it falls back."""
    from .kernels import Fallback

    context.check_deadline()
    try:
        r = thunk()
    except Fallback as fb:
        note(who, False, fb.reason + (f" in {text(e)}" if e is not None else ""))
        return NO
    context.check_deadline()
    note(who, True, text(e) if e is not None else "")
    return r


# -- hooks ---------------------------------------------------------------------------------


def select(pred: Any, coll: Any, want: bool, who: str) -> Any:
    """(filter pred coll) / (remove pred coll) over a table (the kept rows as a lazy view) or
    over a computed column (the kept values as a lazy seq over the column, so a sum or a count
    after it runs on the column too: `(apply + (remove nil? (map :x t)))`)."""
    frame = _frame(coll)
    if frame is None:
        return _over_vectors(pred, coll, who)
    e = _expr(pred, who)
    if e is None:
        return NO

    def kernel() -> Any:
        import pyarrow.compute as pc

        from .encoded import column_frame, dictionary_frame, taken
        from .frame import Sample, is_rows, selection
        from .kernels import truth

        # a predicate over one dictionary-encoded column: computed on its entries, taken by its indices
        over = dictionary_frame(e, frame) if is_rows(frame) else column_frame(frame)
        mask = truth(e, frame) if over is None else taken(truth(e, over[0]), over[1])
        if not want:
            mask = pc.invert(mask)
        rows = is_rows(frame)
        kept = selection(frame).filter(mask) if rows else frame.filter(mask)
        if not len(kept) and len(frame):  # for the empty-result note, as the row path records it
            context.emptied(who, Sample(selection(frame) if rows else frame))
        return rows_seq(kept) if rows else column_seq(kept)

    return _run(who, e, kernel)


def mapped(f: Any, coll: Any, who: str) -> Any:
    """(map f coll) over a table or a column: the computed column (or projection) as a seq;
    over the groups of a table, f's plan of folds for every group (see folds)."""
    if type(coll) in _GROUP_MAPS:
        return over_groups(f, coll, "entry", who)
    frame = _frame(coll)
    if frame is None:
        return _over_vectors(f, coll, who)
    e = _expr(f, who)
    if e is None:
        return NO

    def kernel() -> Any:
        from .frame import is_rows
        from .kernels import Fallback

        if e[0] == "rowmap":  # a derived column (or columns): the rows of a new table
            from .derive import derived_table

            if not is_rows(frame):
                raise Fallback("a map made from values that are not rows")
            return rows_seq(derived_table(e, frame))
        if e[0] == "juxt":  # a vector from each row: its parts' columns, the vectors made when read
            if not is_rows(frame):
                raise Fallback("vectors made from values that are not rows")
            return LazySeq(VectorSource(frame, e, [_column_value(part, frame) for part in e[1:]]))
        return column_seq(_encoded_value(e, frame))

    return _run(who, e, kernel)


def _encoded_value(e: tuple[Any, ...], frame: Any) -> Any:
    """_column_value, where a dictionary-encoded column stays encoded: `(map :k t)` is the column as
    it is; a value of it alone (of a table's one column, or of the column itself) is computed on
    its entries and taken by its indices (a text result: a dictionary of them, not a copy per row)."""
    from .encoded import column_frame, dictionary_frame, is_dictionary, is_text, taken
    from .frame import is_rows
    from .kernels import column

    if e[0] == "col" and e[2] is None and is_rows(frame):
        col = column(frame, e[1], decoded=False)
        if col is not None and is_dictionary(col):
            return col
    over = dictionary_frame(e, frame) if is_rows(frame) else column_frame(frame)
    if over is None:
        return _column_value(e, frame)
    entries, rows = over
    r = _column_value(e, entries)
    return taken(r, rows, encoded=is_text(r.type))


def _column_value(e: tuple[Any, ...], frame: Any) -> Any:
    """e's value on each row (or value) of frame as one column, as `map` gives it, or Fallback."""
    import pyarrow as pa

    from .kernels import Fallback, is_array, truth, value

    if e[0] in ("where", "all", "any", "none"):  # (and/or/in/has: value computes them as the row path)
        raise Fallback("a predicate's value (not only its truth) is asked for")
    r = truth(e, frame) if e[0] == "op" and e[1] == "not" else value(e, frame)
    if not is_array(r):
        if len(frame):
            raise Fallback("a constant for every row")
        r = pa.array([], pa.null())
    return r


def kept(f: Any, coll: Any) -> Any:
    """(keep f coll) over a table or a column: f's values (as `map` computes them) with the nils
    left out (false kept), a lazy seq over the column; a map or a vector made from each row is
    never nil, so that is `map`'s seq as it is."""
    if type(coll) in _GROUP_MAPS:
        return NO  # f of each [key rows]: the row path's
    r = mapped(f, coll, "keep")
    arr = column_of(r) if r is not NO else None
    return column_seq(arr.drop_null()) if arr is not None and arr.null_count else r


def count(coll: Any) -> Any:
    """(count coll) of a columnar seq without realizing it (limits as if realized)."""
    if type(coll) is not LazySeq:
        return NO
    frame = _frame(coll)
    if frame is None:
        vectors = vectors_of(coll)
        if vectors is None:
            return NO
        frame = vectors.frame
    n = len(frame)
    context.check_realized(n, 0)
    note("count", True, f"{n} rows counted without realizing them")
    return n


def summed(init: Any, coll: Any) -> Any:
    """(reduce + coll) / (reduce + init coll) (init NO) over a column: sequential additions, exactly."""
    arr = column_of(coll)
    if arr is None:
        return NO

    def kernel() -> Any:
        from .reduce import NO_INIT, plus

        return plus(arr, NO_INIT if init is NO else init)

    return _run("reduce +", ("arg",), kernel)


def by_key(key: Any, coll: Any, who: str) -> Any:
    """sum-by / avg-by / min-by / max-by / pluck of a keyword over a table."""
    table = rows_of(coll)
    if table is None:
        return NO
    if type(key) is not Keyword and type(key) is not str:
        note(who, False, "the key is not a keyword or a column name")
        return NO

    def kernel() -> Any:
        from . import reduce as r

        return r.by_key(who, table, key)

    return _run(who, ("col", key, None), kernel)


def grouped(f: Any, coll: Any) -> Any:
    """(group-by f table): a dict of first-seen key -> the rows as a Table, or NO."""
    table = rows_of(coll)
    if table is None:
        return NO
    e = _expr(f, "group-by")
    if e is None:
        return NO

    def kernel() -> Any:
        from .reduce import groups

        return groups(table, e)

    return _run("group-by", e, kernel)


def counts(coll: Any) -> Any:
    """(frequencies column) (or of a juxt's vectors: each combination numbered as group-by
    numbers vector keys): a dict of first-seen value -> count, or NO."""
    arr = column_of(coll)
    vectors = vectors_of(coll) if arr is None else None
    if arr is None and vectors is None:
        return NO

    def kernel() -> Any:
        from .encoded import value_counts
        from .reduce import combination_counts

        return value_counts(arr) if vectors is None else combination_counts(vectors.frame, vectors.key)

    return _run("frequencies", ("arg",) if vectors is None else vectors.key, kernel)


def distinct(coll: Any) -> Any:
    """(distinct column) (or of a juxt's vectors: the combinations, numbered as group-by
    numbers vector keys, as vectors made when read) in first-seen order, or NO."""
    arr = column_of(coll)
    vectors = vectors_of(coll) if arr is None else None
    if arr is None and vectors is None:
        return NO

    def kernel() -> Any:
        from .encoded import unique
        from .reduce import combinations

        if vectors is None:
            return column_seq(unique(arr))
        frame, key, parts = combinations(vectors.frame, vectors.key)
        return LazySeq(VectorSource(frame, key, parts))

    return _run("distinct", ("arg",) if vectors is None else vectors.key, kernel)


def sorted_by(keyfn: Any, direction: tuple[bool, bool] | None, coll: Any) -> Any:
    """(sort-by f [comp] coll) over a table's rows or a computed column, or (sort [comp] column)
    (keyfn None): a lazily sorted selection of them (its first items a top-k, its whole a stable
    sort); direction: (descending?, numbers only) of comp (compare, <, > or a literal fn of
    one), None for another comparator."""
    frame = _frame(coll)
    if frame is None:
        return NO
    from .frame import Selection, is_rows, selection

    rows = is_rows(frame)
    if keyfn is None and rows:
        return NO  # rows compared as maps: the row path's
    who = "sort" if keyfn is None else "sort-by"
    e = ("arg",) if keyfn is None else _expr(keyfn, who)
    if e is None:
        return NO

    def kernel() -> Any:
        from .kernels import Fallback
        from .reduce import sort_key

        if direction is None:
            raise Fallback("a comparator other than compare, < or > (or a fn of two calling one)")
        if type(coll) is LazySeq:  # the row path realizes it to sort it
            context.check_realized(len(frame), 0)
        if rows:
            return rows_seq(selection(frame).sorted(*sort_key(frame, e, direction)))
        keys, desc = sort_key(frame, e, direction)
        import pyarrow as pa

        return LazySeq(ColumnSource(None, Selection(pa.table({"": frame})).sorted(keys, desc), keyfn is None))

    return _run(who, e, kernel)


def reversed_(coll: Any) -> Any:
    """(reverse coll) of a table's rows or a computed column: the same read from the end (of a
    lazy sort: still lazy, so its first items are a top-k from the other end)."""
    src = coll._src if type(coll) is LazySeq else None
    lazy_sort = type(src) is ColumnSource and src.sel is not None
    frame = None if lazy_sort else _frame(coll)
    if frame is None and not lazy_sort:
        return NO

    def kernel() -> Any:
        from .frame import is_rows, selection

        if type(coll) is LazySeq:  # the row path realizes it
            context.check_realized(len(src) if lazy_sort else len(frame), 0)
        if lazy_sort:
            return LazySeq(ColumnSource(None, src.sel.reversed(), src.by_value))
        if is_rows(frame):
            return rows_seq(selection(frame).reversed())
        import numpy as np
        import pyarrow as pa

        return column_seq(frame.take(pa.array(np.arange(len(frame) - 1, -1, -1, dtype=np.int64))))

    return _run("reverse", None, kernel)


def applied(f: Any, coll: Any) -> Any:
    """(apply max column) / (apply min column) / (apply + column) (the sum `reduce +` gives:
    + adds its arguments left to right); limits as if the column were spread as arguments."""
    arr = column_of(coll)
    if arr is None:
        return NO
    name = (getattr(f, "__qualname__", "") or "")[4:]
    if name not in ("max", "min", "+"):
        note("apply", False, f"apply of {name or 'a fn'} is not computed by kernels")
        return NO

    def kernel() -> Any:
        from .reduce import NO_INIT, extreme, plus

        context.check_realized(len(arr), 0)
        return plus(arr, NO_INIT) if name == "+" else extreme(arr, name)

    return _run(f"apply {name}", ("arg",), kernel)


def combined(head: str, preds: tuple[Any, ...]) -> tuple[Any, ...] | str:
    """The column expression of (all-of p ...) / (any-of ...) / (none-of ...), or why none."""
    parts = []
    for p in preds:
        e = expr_of(p)
        if type(e) is str:
            return e
        parts.append(e)
    return (head, *parts)


def complemented(f: Any) -> tuple[Any, ...] | str:
    """The column expression of (complement f): (not e) of f's e (true or false, as complement
    gives), or why there is none."""
    e = expr_of(f)
    return e if type(e) is str else ("op", "not", e)


_READS_ROW = frozenset({"col", "where", "rowmap"})  # heads that read keys of their argument
_BRANCHES = frozenset({"if", "and", "or", "all", "any", "none"})  # heads that compute a part on some rows


def composed(fns: tuple[Any, ...]) -> tuple[Any, ...] | str:
    """The column expression of (comp f ... h): h's expression put for the argument of the fn
    to its left, and so on (`(comp pos? :x)` is (pos? :x)), or why there is none."""
    e = expr_of(fns[-1])
    for f in reversed(fns[:-1]):
        if type(e) is str:
            return e
        outer = expr_of(f)
        if type(outer) is str:
            return outer
        heads = _heads(outer)
        if heads & _READS_ROW:
            return "comp of a fn reading keys of another fn's value: not a column expression"
        if heads & _BRANCHES and e[0] not in ("col", "arg", "lit"):
            # the row path computes the inner value on every row, a branch only on some: an
            # error the rows would raise must not be skipped
            return "comp of a fn with branches over a computed value: not a column expression"
        e = _put_arg(outer, e)
    return e


def _heads(e: tuple[Any, ...]) -> set[str]:
    """The heads of e and of all its sub-expressions."""
    out = {e[0]}
    if e[0] != "lit":
        for x in e[1:]:
            if type(x) is tuple and x and type(x[0]) is str:
                out |= _heads(x)
    return out


def _put_arg(e: tuple[Any, ...], arg: tuple[Any, ...]) -> tuple[Any, ...]:
    """e with arg wherever e reads its argument itself."""
    if e == ("arg",):
        return arg
    if e[0] == "lit":
        return e
    return (e[0], *[_put_arg(x, arg) if type(x) is tuple and x and type(x[0]) is str else x for x in e[1:]])


def values(coll: Any) -> Any:
    """A computed column's values as one list (what a consumer iterating it would realize), or
    coll itself: `zipmap` of two columns builds its map without a lazy-seq step per item."""
    arr = column_of(coll)
    if arr is None or coll._cache:
        return coll
    context.check_realized(len(arr), len(arr))
    note("zipmap", True, f"{len(arr)} values of a computed column")
    return _values(arr)


def over_grouping(f: Any, key: Any, coll: Any, mode: str, who: str) -> Any:
    """(map f (group-by key coll)), (for [[k g] (group-by key coll)] ...) (mode "entry") or
    (update-vals (group-by key coll) f) (mode "group") written in one piece: f's plan of folds
    over the table's groups without making the groups' map, or NO (group-by, then the fn over
    its groups, say why as they run)."""
    scan = coll.unread if type(coll) is _table_type() and not _OFF.get() else None  # a file not read
    table = scan if scan is not None else rows_of(coll)
    if table is None or not table.num_rows:
        return NO
    e = expr_of(key)
    if type(e) is str:
        return NO
    import pyarrow as pa

    from .folds import plan_of, run_on_engine
    from .kernels import Fallback
    from .reduce import group_keys

    plan = plan_of(f, mode)
    if type(plan) is str:
        return NO
    context.check_deadline()
    try:
        # the engine holds no row (its own memory is bounded by max_memory, see engine)
        done = run_on_engine(plan, table, e) if isinstance(table, pa.Table) or scan is not None else None
        if done is None:
            if table.num_rows > 4096:  # as the row path: grouping builds vectors holding every row
                context.check_size(table.num_rows, "sequence")
            g = group_keys(coll.arrow if scan is not None else table, e)  # the file read, within the limits
            result = _over(plan, g, mode)
        else:
            folded, g = done
            result = _shaped(folded, g, mode)
    except Fallback:
        return NO
    note("group-by", True, text(e) + (": grouped and folded by DuckDB in one query, no group built"
                                      if g.engine else ": the groups are numbered, never built"))
    _noted(who, g, plan)
    return result


def over_groups(f: Any, m: Any, mode: str, who: str) -> Any:
    """(map f groups) (mode "entry": f of each [key rows]) or (update-vals groups f) (mode
    "group": f of each group's rows) where groups is (group-by key table) and f's body is a plan
    of folds: every group's value computed over the columns at once, no group built, or NO."""
    g = grouping_of(m)
    if g is None:
        return NO
    from .folds import plan_of
    from .kernels import Fallback

    plan = plan_of(f, mode)
    if type(plan) is str:
        note(who, False, plan)
        return NO
    context.check_deadline()
    try:
        result = _over(plan, g, mode)
    except Fallback as fb:
        note(who, False, fb.reason + " in a fold of the groups")
        return NO
    _noted(who, g, plan)
    return result


def _over(plan: Any, g: Any, mode: str) -> Any:
    """The plan run over grouping g: a seq of each group's value (mode "entry") or the map of
    each key to it (mode "group"). Raises Fallback."""
    from .folds import run

    return _shaped(run(plan, g), g, mode)


def _shaped(result: Any, g: Any, mode: str) -> Any:
    """A plan's result over grouping g as a seq of each group's value or the map of each key to it."""
    from .folds import entries, groups_map

    return entries(result, g) if mode == "entry" else groups_map(result, g)


def _noted(who: str, g: Any, plan: Any) -> None:
    from .folds import describe

    note(who, True, f"{g.count} groups, no group built: {describe(plan)}")


def reduced_by_key(f: Any, init: Any, coll: Any) -> Any:
    """(reduce (fn [acc r] ...) init table) whose fn folds the rows into acc by key (`(update acc
    K (fnil + 0) V)`, update-in, a count, a [sum n] pair; see folds.plan_by_key): a group-by and
    folds of the table engine with the row path's exact result (the same first-seen order of
    keys, the same sums), or NO."""
    table = rows_of(coll)
    if table is None:
        return NO
    from .folds import plan_by_key, reduced
    from .kernels import Fallback

    made = plan_by_key(f, init)
    if type(made) is str:
        note("reduce", False, made)
        return NO
    context.check_deadline()
    try:
        result, detail = reduced(made, table, init)
    except Fallback as fb:
        note("reduce", False, fb.reason)
        return NO
    note("reduce", True, detail)
    return result
