"""Whole-column kernels: sums, per-key aggregates, groups, counts, distinct values, sort orders.

Same rule as kernels.py: the row path's exact result, or `Fallback`. Float sums add left to
right as `+` does (a cumulative sum, never pairwise or compensated), integer sums are exact
or fall back before 64 bits could overflow, groups and counts keep first-seen order (Arrow's
dictionary encoding numbers values as they first appear), sorts are stable.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import context
from .frame import _flat, holds_negative_zero, selection
from .kernels import Fallback, column, kind, marked, storage, value

_SEQUENTIAL_SUM = sys.version_info < (3, 12)  # Python's sum() compensates float rounding from 3.12


def _numbers(x: Any, who: str) -> str:
    k = kind(x)
    if k not in ("int", "float"):
        raise Fallback(f"{who} over {k} values (the row path raises)")
    return k


def _int_sum(x: Any) -> int:
    """The exact sum of an int column (no nulls), or Fallback if 64 bits might overflow."""
    if len(x) == 0:
        return 0
    mm = pc.min_max(x)
    bound = max(abs(mm["min"].as_py()), abs(mm["max"].as_py()))
    if bound * len(x) >= 1 << 63:
        raise Fallback("an integer sum that may leave 64 bits")
    return int(pc.sum(x).as_py())


def _float_sum(x: Any, start: float | None) -> float:
    """start + x0 + x1 + ... added left to right (x0 + x1 + ... when start is None). From a
    start of 0.0 the partial sums are those from x0 except for the sign of a zero (0.0 + -0.0
    is 0.0), so only a -0.0 result changes."""
    vals = _flat(x).to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    from_zero = start is not None and start == 0.0 and math.copysign(1.0, start) > 0 and len(vals) > 0
    if start is not None and not from_zero:
        vals = np.concatenate([np.array([start], np.float64), vals])
    if len(vals) == 0:
        raise Fallback("an empty float sum")
    total = float(np.cumsum(vals)[-1])
    return 0.0 if from_zero and total == 0.0 else total  # a sum from +0.0 is never -0.0


def plus(x: Any, init: Any) -> Any:
    """(reduce + x) or (reduce + init x) over a column, as the row path adds."""
    no_init = init is _NO_INIT
    if len(x) == 0:
        return 0 if no_init else init
    k = _numbers(x, "+")
    if x.null_count:
        raise Fallback("a nil reaches + (the row path raises)")
    if not no_init and type(init) not in (int, float):
        raise Fallback("reduce + with an init that is not a number")
    if k == "int":
        s = _int_sum(x)
        if no_init or type(init) is int:
            return context.check_int(s + (0 if no_init else init))
        if abs(s) >= 1 << 53 or pc.max(pc.abs(x)).as_py() >= 1 << 53:
            raise Fallback("integers beyond 2^53 added to a float")
        vals = _flat(x).to_numpy(zero_copy_only=False).astype(np.float64)
        return float(np.cumsum(np.concatenate([np.array([init], np.float64), vals]))[-1])
    if not no_init and type(init) is int and abs(init) >= 1 << 53:
        raise Fallback("an integer beyond 2^53 added to floats")
    return _float_sum(x, None if no_init else float(init))


class _NoInit:
    pass


_NO_INIT: Any = _NoInit()
NO_INIT = _NO_INIT


def by_key(who: str, table: pa.Table, key: Any) -> Any:
    """sum-by / avg-by / min-by / max-by / pluck of a column key over the table's rows."""
    from ..values import vec
    from .dispatch import _values

    x = column(table, key)
    n = table.num_rows
    if who == "pluck":
        return vec([None] * n if x is None else _values(x))
    if x is None or x.null_count == len(x):
        return 0 if who == "sum-by" else None
    valid = x.drop_null() if x.null_count else x
    if who in ("sum-by", "avg-by"):
        k = _numbers(valid, who)
        if k == "int":
            total: Any = context.check_int(_int_sum(valid)) if who == "sum-by" else _int_sum(valid)
        elif _SEQUENTIAL_SUM:
            total = _float_sum(valid, 0.0)
        else:
            total = sum(_values(valid))
        if who == "sum-by":
            return total
        return float(total) / len(valid)
    k = kind(valid)
    if k not in ("int", "float", "str"):
        raise Fallback(f"{who} over {k} keys")
    if k == "float" and pc.any(pc.is_nan(valid)).as_py():
        raise Fallback(f"{who} over keys holding NaN")
    target = pc.max(valid) if who == "max-by" else pc.min(valid)
    i = pc.index(x, target).as_py()
    return selection(table).row(i)


def _codes(x: Any, who: str) -> tuple[np.ndarray, Any]:
    """Each value's group number (in order of first appearance) and the groups' values."""
    if pa.types.is_dictionary(x.type):  # a categorical: its codes renumbered, no value hashed
        return _dictionary_codes(x, who)
    k = kind(x)
    if k in ("kw", "dow"):  # keywords, days of the week: numbered by their names or numbers, the groups' values marked again
        codes, under = _codes(storage(x), who)
        return codes, marked(x.type, _flat(under))
    if k not in ("int", "str", "bool", "date", "null"):
        raise Fallback(f"{who} by {k} values")
    x = _flat(x)
    if k == "int" and len(x) and not x.null_count:
        mm = pc.min_max(x)
        lo, hi = mm["min"].as_py(), mm["max"].as_py()
        if hi - lo <= 4 * len(x):  # a small range: numbered by position, no hashing
            ints = x.to_numpy(zero_copy_only=False) - lo
            codes, firsts = _first_seen(ints, hi - lo + 1)
            return codes, pa.array(firsts + lo, x.type)
    enc = _encoded(x)
    return enc.indices.to_numpy(zero_copy_only=False), enc.dictionary


_ENCODE_BYTES_PER_ROW = 16  # a half's indices and its hash table's share


def _encoded(x: pa.Array) -> pa.DictionaryArray:
    """x dictionary-encoded (values in first-seen order, a nil its own value), its two halves
    hashed at once on two threads when it is large (1M texts: 25 ms -> 15 ms) and holds no nil;
    the second half's dictionary is unified into the first's, which keeps first-seen order."""
    from . import threads

    if x.null_count or not threads.worth_it(2, len(x), _ENCODE_BYTES_PER_ROW):
        return pc.dictionary_encode(x, null_encoding="encode")
    half = len(x) // 2
    parts = threads.run_all([lambda: pc.dictionary_encode(x.slice(0, half)),
                             lambda: pc.dictionary_encode(x.slice(half))])
    context.check_deadline()
    unified = pa.chunked_array(parts).unify_dictionaries()
    indices = pa.concat_arrays([c.indices for c in unified.chunks])
    return pa.DictionaryArray.from_arrays(indices, unified.chunk(0).dictionary)


def _first_seen(ints: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """Group numbers of ints in [0, span) in order of first appearance, and the value of each group."""
    n = len(ints)
    first = np.full(span, n, np.int64)
    first[ints[::-1]] = np.arange(n - 1, -1, -1)  # the last write wins: each value's first position
    context.check_deadline()
    present = np.flatnonzero(first < n)
    if len(present) < 4096:
        values = present[np.argsort(first[present])]  # first positions are distinct: no ties
    else:  # many groups: the first positions in order by marking them, a pass over n bools, no sort
        marks = np.zeros(n, np.bool_)
        marks[first[present]] = True
        values = ints[np.flatnonzero(marks)]
    rank = np.empty(span, np.int64)
    rank[values] = np.arange(len(values))
    return rank[ints], values


def _dictionary_codes(x: Any, who: str) -> tuple[np.ndarray, Any]:
    """_codes of a dictionary-encoded column (a pandas categorical, a Parquet dictionary page):
    the indices renumbered in order of first appearance, the groups' values taken from the
    dictionary (which must hold each value once, or two codes would be one key)."""
    chunked = x if isinstance(x, pa.ChunkedArray) else pa.chunked_array([x])
    arr = chunked.unify_dictionaries().combine_chunks() if chunked.num_chunks != 1 else chunked.chunk(0)
    dictionary = arr.dictionary
    k = kind(dictionary)
    if k not in ("int", "str", "bool", "date") or len(pc.unique(dictionary)) != len(dictionary) \
            or dictionary.null_count:
        return _codes(chunked.cast(x.type.value_type), who)
    indices = arr.indices
    span = len(dictionary) + 1  # nil keys get the last number
    ints = indices.fill_null(span - 1).to_numpy(zero_copy_only=False).astype(np.int64) if indices.null_count \
        else indices.to_numpy(zero_copy_only=False).astype(np.int64)
    codes, firsts = _first_seen(ints, span)
    firsts_arr = pa.array(firsts, mask=firsts == span - 1)
    return codes, dictionary.take(firsts_arr)


def group_keys(table: Any, e: tuple[Any, ...]) -> Any:
    """The rows numbered by group (in order of first appearance) and the groups' keys as PTC
    values, for a key expression or a (juxt k ...) of them (keys: vectors), as a Grouping."""
    from .folds import Grouping

    if not isinstance(table, pa.Table):  # a selection (a filter's or a sort's rows): its rows, taken once
        table = table.table()
    parts = e[1:] if e[0] == "juxt" else (e,)
    coded = []
    for part in parts:
        x = value(part, table) if part[0] != "col" or part[2] is not None else column(table, part[1], decoded=False)
        if not isinstance(x, (pa.Array, pa.ChunkedArray)):
            raise Fallback("a group key that is the same for every row")
        codes, keys = _codes(x, "group-by")
        coded.append((codes.astype(np.int64), keys))
        context.check_deadline()
    if e[0] != "juxt":
        codes, keys = coded[0]
        return Grouping(table, codes, len(keys), [keys], False)
    combined = np.zeros(len(coded[0][0]), np.int64)
    span = 1
    for codes, keys in coded:
        span *= max(1, len(keys))
        if span >= 1 << 62:
            raise Fallback("too many key combinations")
        combined = combined * max(1, len(keys)) + codes
    if span <= 4 * len(combined):  # few combinations: numbered by position, no hashing (as _codes)
        codes, rest = _first_seen(combined, span)
    else:
        enc = pc.dictionary_encode(pa.array(combined))
        codes = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        rest = enc.dictionary.to_numpy(zero_copy_only=False).copy()
    count = len(rest)
    arrays: list[Any] = []
    for _, keys in reversed(coded):  # each part's value per group, from the last part
        rest, i = np.divmod(rest, max(1, len(keys)))
        arrays.append(keys.take(pa.array(i)))
    arrays.reverse()
    return Grouping(table, codes, count, arrays, True)


def groups(table: pa.Table, e: tuple[Any, ...]) -> dict[Any, Any]:
    """(group-by key-expr table) as {key: Table of its rows}, keys in first-seen order. The
    groups are views of one table holding the rows group by group, which remembers the
    grouping: a fn of each group that is a plan of folds (see folds) then runs over columns."""
    from .dispatch import _table_type

    Table = _table_type()
    n = table.num_rows
    if n == 0:
        return {}
    if n > 4096:  # as the row path: grouping builds vectors holding every row
        context.check_size(n, "sequence")
    g = group_keys(table, e)
    sizes = np.bincount(g.codes, minlength=g.count)
    # one take puts each group's rows together when a row is first read; a group is a view of
    # them (a take per group cost 0.5 ms on a combined table, 2 ms on a chunked one, per group)
    root = Table.grouped(g)
    out: dict[Any, Any] = {}
    start = 0
    view = root._view
    for i, (key, size) in enumerate(zip(g.keys, sizes.tolist())):
        out[key] = view(start, size)
        start += size
        if (i & 1023) == 1023:  # a million groups is a million views: the clock is read as they are made
            context.check_deadline()
    return out


def value_counts(x: Any) -> dict[Any, int]:
    """(frequencies column) as {value: count} in first-seen order."""
    from .dispatch import _values

    if len(x) == 0:
        return {}
    codes, keys = _codes(x, "frequencies")
    sizes = np.bincount(codes, minlength=len(keys))
    return dict(zip(_values(keys), sizes.tolist()))


def combination_counts(frame: Any, key: tuple[Any, ...]) -> dict[Any, int]:
    """(frequencies (map (juxt ...) rows)) as {vector: count}: the combinations numbered as
    group-by numbers juxt keys, in first-seen order."""
    if not len(frame):
        return {}
    g = group_keys(frame, key)
    return dict(zip(g.keys, np.bincount(g.codes, minlength=g.count).tolist()))


def combinations(frame: Any, key: tuple[Any, ...]) -> tuple[pa.Table, tuple[Any, ...], list[Any]]:
    """(distinct (map (juxt ...) rows)): the first-seen combinations as a frame of one row each
    (a column per part), the juxt expression that reads them back, and its parts' columns."""
    if not len(frame):
        return pa.table({}), key, [pa.array([], pa.null()) for _ in key[1:]]
    parts = group_keys(frame, key).key_arrays
    names = [f"\x00 part{i}" for i in range(len(parts))]  # no PTC key reads them by mistake
    return pa.table(parts, names=names), ("juxt", *(("col", name, None) for name in names)), parts


def unique(x: Any) -> Any:
    """(distinct column): first occurrences, in order."""
    k = kind(x)
    if k in ("kw", "dow"):
        return marked(x.type, pc.unique(_flat(storage(x))))
    if k not in ("int", "str", "bool", "date", "null"):
        raise Fallback(f"distinct over {k} values")
    return pc.unique(_flat(x))


def sort_key(frame: Any, e: tuple[Any, ...], direction: tuple[bool, bool]) -> tuple[Any, bool]:
    """(the keys, descending?) of (sort-by key-expr comp frame) / (sort comp column) (key-expr
    ("arg",)), comp in `direction` (descending?, numbers only: < and >, which raise on
    anything else)."""
    desc, numbers_only = direction
    x = value(e, frame)
    if not isinstance(x, (pa.Array, pa.ChunkedArray)):
        raise Fallback("a sort key that is the same for every row")
    k = kind(x)
    if not numbers_only:
        if k not in ("int", "float", "str", "date", "null"):
            raise Fallback(f"a sort over {k} keys")
    elif k not in ("int", "float") or x.null_count:
        raise Fallback(f"< or > over {k} keys or nils (the row path raises)")
    if k == "float" and pc.any(pc.is_nan(x)).as_py():
        raise Fallback("a sort over keys holding NaN")
    if k == "str" and pc.any(pc.match_substring_regex(x, "[\\x{10000}-\\x{10FFFF}]")).as_py():
        raise Fallback("a sort over texts beyond U+FFFF (compare orders UTF-16 units, Arrow code points)")
    return x, desc


def extreme(x: Any, name: str) -> Any:
    """(apply max column) / (apply min column)."""
    if len(x) == 0:
        raise Fallback(f"{name} of no values (the row path raises)")
    k = _numbers(x, name)
    if x.null_count:
        raise Fallback(f"a nil reaches {name} (the row path raises)")
    if k == "float" and (pc.any(pc.is_nan(x)).as_py() or holds_negative_zero(x)):
        raise Fallback(f"{name} over floats holding NaN or -0.0")
    return (pc.max(x) if name == "max" else pc.min(x)).as_py()
