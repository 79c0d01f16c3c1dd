"""Dictionary-encoded columns kept encoded, and big columns counted a block at a time.

A dictionary-encoded column (a pandas categorical, a Parquet dictionary page read as it is) may
be tiny for what it holds: one 1 KB string in 50M rows is a 200 MB column of indices and 50 GB
decoded (issue 43). So the kernels that can compute over its dictionary do, and take the result
by the indices, never decoding it: `frequencies` and `distinct` number the dictionary's entries
and then the rows by their entries; a filter's predicate over one dictionary column is computed
on the dictionary (and a nil, for the rows that have none), then taken by the indices; `(map :k
t)` of such a column is the column as it is. Any other kernel that needs it decoded sizes it first
(`decoded`: its text lengths counted through the indices, against the run's memory) before the
copy. The answers are the row path's: the dictionary's values are what the rows hold, and every
kernel computes a row from its own value alone (an unreferenced entry can only make a kernel
fall back, never change a row's value).

A run-end-encoded column (an Arrow IPC file's, a host's table: one run of a 1 KB string in 8M
rows is 8 GB decoded, and Arrow can neither filter nor take it) reaches the kernels as the
dictionary column of its runs' values (`without_runs`: 4 bytes a row of run numbers, sized
first), so everything above holds for it too.

`frequencies` and `distinct` of a long column also number it a block of rows at a time
(BLOCK), reading the clock between blocks, and size the map of counts before it is built
(10M distinct values took 1.4-3.7 s at timeout=1 and +1.2 GB before any check).
"""

from __future__ import annotations

import time
import weakref
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.types as pt

from .. import context
from ..table import runs_as_dictionaries

_NUMBERING_BYTES = 64  # what numbering one value in first-seen order holds at its peak (reduce._codes)
BLOCK = 1 << 18  # rows numbered by one call between two reads of the clock (0.02-0.1 s of texts)


def is_dictionary(x: Any) -> bool:
    return isinstance(x, (pa.Array, pa.ChunkedArray)) and pt.is_dictionary(x.type)


def _chunks(x: Any) -> list[Any]:
    return list(x.chunks) if isinstance(x, pa.ChunkedArray) else [x]


def fixed_width(t: Any) -> bool:
    """Whether Arrow type t's values are of one width (numbers, booleans, dates: a take per row is
    as small as the column itself)."""
    try:
        return t.bit_width > 0 and not pt.is_dictionary(t)
    except ValueError:
        return False


def is_text(t: Any) -> bool:
    """Whether Arrow type t is text or binary (plain, not an extension): what a take per row would
    copy, so a value of a dictionary column of this type stays a dictionary."""
    return bool(pt.is_string(t) or pt.is_large_string(t) or pt.is_binary(t) or pt.is_large_binary(t))


# id(table) -> (a weak reference to it, the table with its runs as dictionaries, or None: it has
# none), for the last tables the kernels read: asking a table's 100 column types costs 160 us a call
_PLAIN: dict[int, tuple[Any, Any]] = {}
_KEPT = 64


def without_runs(table: Any) -> Any:
    """Table with its run-end-encoded columns as dictionary columns (see the module docstring),
    after the run numbers they need (4 bytes a row, a byte more where a run is nil) are checked
    against the run's memory."""
    hit = _PLAIN.get(id(table))
    if hit is not None and hit[0]() is table:
        return table if hit[1] is None else hit[1]
    cols = [i for i, t in enumerate(table.schema.types) if pt.is_run_end_encoded(t)]
    out = table
    if cols:
        context.check_bytes(sum((4 + (table.column(i).null_count > 0)) * table.num_rows for i in cols),
                            "reading a run-end-encoded column", charge=False)
        out = runs_as_dictionaries(table)
    while len(_PLAIN) >= _KEPT:
        _PLAIN.pop(next(iter(_PLAIN)))
    _PLAIN[id(table)] = (weakref.ref(table), out if cols else None)
    return out


def decoded_bytes(x: Any) -> int:
    """What dictionary column x takes decoded: each row's entry's bytes (text: its length, plus
    an offset), counted through the indices without decoding."""
    width = max(1, x.type.value_type.bit_width // 8) if fixed_width(x.type.value_type) else None
    total = 0
    for chunk in _chunks(x):
        n = len(chunk)
        if width is not None:
            total += n * max(1, width)
            continue
        idx = chunk.indices
        if idx.null_count:
            idx = idx.drop_null()
        refs = np.bincount(idx.to_numpy(zero_copy_only=False), minlength=len(chunk.dictionary))
        lengths = pc.binary_length(chunk.dictionary).fill_null(0).to_numpy(zero_copy_only=False)
        total += int(refs[:len(lengths)] @ lengths.astype(np.int64)) + 8 * n
        context.check_deadline()
    return total


def decoded(col: Any) -> Any:
    """Dictionary column col decoded, after what that makes is checked against the run's memory."""
    context.check_bytes(decoded_bytes(col), "decoding a dictionary-encoded column", charge=False)
    return col.cast(col.type.value_type)


def _entries(x: Any) -> tuple[Any, list[np.ndarray]]:
    """Dictionary column x as one dictionary (its entries, then a nil when a row is nil) and each
    row's entry number in it (a nil row: the last), chunk by chunk: the chunks' own indices when
    their dictionaries are equal (a Parquet file's row groups: no copy of 50M indices)."""
    chunked = x if isinstance(x, pa.ChunkedArray) else pa.chunked_array([x])
    chunks = [c for c in chunked.chunks if len(c)]
    if not chunks:
        return pa.array([], x.type.value_type), []
    first = chunks[0].dictionary
    if any(not (c.dictionary is first or c.dictionary.equals(first)) for c in chunks[1:]):
        chunks = list(pa.chunked_array(chunks).unify_dictionaries().chunks)
    dictionary = chunks[0].dictionary
    nil = len(dictionary)
    parts = []
    for chunk in chunks:
        idx = chunk.indices
        if idx.null_count:  # a nil row: the nil entry's number (in a type that holds it)
            idx = idx.cast(pa.int64()).fill_null(nil)
        parts.append(idx.to_numpy(zero_copy_only=False))  # the indices as they are: no copy
    context.check_deadline()
    # a nil entry only where a row is nil: a kernel that falls back where a nil reaches it must not
    # meet one that no row holds
    values = pa.concat_arrays([dictionary, pa.nulls(1, dictionary.type)]) if chunked.null_count else dictionary
    return values, parts


def _renumbered(entry_codes: np.ndarray, rows: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows' group numbers in order of first appearance, from their entries' group numbers."""
    from .reduce import _first_seen

    return _first_seen(entry_codes[rows], span)


def _dictionary_groups(x: Any, who: str) -> tuple[np.ndarray, Any]:
    """How many rows each group of dictionary column x has and the groups' values, in first-seen
    order: the entries' order of first appearance found a block of rows at a time (no number per
    row made), equal entries (and the nils) one group."""
    from .reduce import _codes

    values, parts = _entries(x)
    span = len(values)
    seen = np.zeros(span, np.bool_)
    order: list[np.ndarray] = []
    refs = np.zeros(span, np.int64)
    for block in (rows[start:start + BLOCK] for rows in parts for start in range(0, len(rows), BLOCK)):
        refs += np.bincount(block, minlength=span)
        new = block[~seen[block]]
        if len(new):
            _, first = np.unique(new, return_index=True)
            entries = new[np.sort(first)]
            seen[entries] = True
            order.append(entries)
        context.check_deadline()
    entries = np.concatenate(order) if order else np.zeros(0, np.int64)
    entry_codes, keys = _codes(values, who)  # equal entries (or two nils) are one group
    entry_codes = np.asarray(entry_codes, np.int64)
    groups = entry_codes[entries]  # in first-seen order of entries; a group first met at its first entry
    _, first = np.unique(groups, return_index=True)
    groups = groups[np.sort(first)]
    sizes = np.bincount(entry_codes, weights=refs, minlength=len(keys)).astype(np.int64)
    return sizes[groups], keys.take(pa.array(groups))


def _blocks(x: Any, who: str) -> tuple[list[np.ndarray], list[int], np.ndarray, Any]:
    """A long column numbered a block at a time, the clock read between blocks: each block's own
    numbers, where its groups start among all blocks' groups, each of those groups' number in the
    whole (the blocks' groups numbered in their order, which keeps the first-seen order of the
    whole) and the groups' values."""
    from .reduce import _codes

    n = len(x)
    block_codes, block_keys, offsets = [], [], [0]
    began = time.monotonic()
    for start in range(0, n, BLOCK):
        c, k = _codes(x.slice(start, BLOCK), who)
        block_codes.append(np.asarray(c, np.int32))  # numbers below BLOCK: half the memory
        block_keys.append(k)
        offsets.append(offsets[-1] + len(k))
        context.check_realized(len(k), 0, who)  # the map holds at least as many entries as one block has values
    keys_all = pa.concat_arrays([k.combine_chunks() if isinstance(k, pa.ChunkedArray) else k for k in block_keys])
    # the blocks' values numbered at once, one call: refused when it would take longer than the run
    # has left, at the rate the blocks were numbered
    context.check_time(len(keys_all) * (time.monotonic() - began) / n, f"numbering {len(keys_all):,} values")
    # and sized: the call's arrays (positions, first-seen marks, ranks: ~8 int64 a value at most)
    context.check_bytes(len(keys_all) * _NUMBERING_BYTES, f"numbering {len(keys_all):,} values", charge=False)
    merged, keys = _codes(keys_all, who)
    context.check_deadline()
    return block_codes, offsets, np.asarray(merged, np.int64), keys


def codes(x: Any, who: str) -> tuple[np.ndarray, Any]:
    """Each row's group number (first-seen order) and the groups' values, as reduce._codes gives
    them: a dictionary column numbered by its entries (never decoded), a long column a block at a
    time (_blocks)."""
    from .reduce import _codes

    if is_dictionary(x):
        values, parts = _entries(x)
        rows = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        entry_codes, keys = _codes(values, who)  # equal entries (or two nils) are one group
        entry_codes = np.asarray(entry_codes, np.int64)
        row_codes, firsts = _renumbered(entry_codes, rows, len(keys))
        return row_codes, keys.take(pa.array(firsts))
    if len(x) <= BLOCK:
        return _codes(x, who)
    block_codes, offsets, merged, keys = _blocks(x, who)
    out = np.empty(len(x), np.int64)
    for i, c in enumerate(block_codes):  # each block's numbers put in place
        out[i * BLOCK:i * BLOCK + len(c)] = merged[offsets[i] + c]
    return out, keys


def _counted(x: Any, who: str) -> tuple[np.ndarray, Any]:
    """How many rows each group has (first-seen order) and the groups' values: a long column's
    counts added up block by block, no number per row kept."""
    if is_dictionary(x):
        sizes, keys = _dictionary_groups(x, who)
        context.check_size(len(keys), who)
        return sizes, keys
    if len(x) <= BLOCK:
        row_codes, keys = codes(x, who)
        context.check_size(len(keys), who)
        return np.bincount(row_codes, minlength=len(keys)), keys
    block_codes, offsets, merged, keys = _blocks(x, who)
    context.check_size(len(keys), who)
    sizes = np.zeros(len(keys), np.int64)
    for i, c in enumerate(block_codes):
        sizes += np.bincount(merged[offsets[i] + c], minlength=len(keys))
        block_codes[i] = None  # type: ignore[call-overload]
        context.check_deadline()
    return sizes, keys


def value_counts(x: Any) -> dict[Any, int]:
    """(frequencies column) as {value: count} in first-seen order: numbered as `codes` numbers it,
    the map sized (max_collection, the memory estimate) before its entries are made."""
    from .dispatch import _values

    if len(x) == 0:
        return {}
    sizes, keys = _counted(x, "frequencies")  # the map's size checked before it is made
    out: dict[Any, int] = {}
    counts = sizes.tolist()
    for start in range(0, len(keys), 65536):  # the entries made a block at a time, the clock read between
        block = _values(keys.slice(start, 65536))
        out.update(zip(block, counts[start:start + len(block)]))
        context.check_deadline()
    return out


def unique(x: Any) -> Any:
    """(distinct column): the first occurrences in order, as reduce.unique gives them; a dictionary
    column's from its entries (never decoded), a long column's a block at a time."""
    from .reduce import unique as dense_unique

    if is_dictionary(x):
        return _dictionary_groups(x, "distinct")[1]
    n = len(x)
    if n <= BLOCK:
        return dense_unique(x)
    parts = []
    began = time.monotonic()
    for start in range(0, n, BLOCK):
        parts.append(dense_unique(x.slice(start, BLOCK)))
        context.check_deadline()
    whole = pa.concat_arrays([p.combine_chunks() if isinstance(p, pa.ChunkedArray) else p for p in parts])
    context.check_time(len(whole) * (time.monotonic() - began) / n, f"the distinct values of {len(whole):,}")
    return dense_unique(whole)


# -- predicates and values over a dictionary ------------------------------------------------


def _column_keys(e: Any, out: set[Any]) -> bool:
    """Collect the keys e reads of its row into out; False when e reads the row otherwise."""
    if type(e) is not tuple or not e or type(e[0]) is not str:
        return True
    head = e[0]
    if head == "lit":
        return True
    if head == "col":
        out.add(e[1])
        return True
    if head in ("arg", "rowmap", "juxt", "where"):
        if head == "where":
            out.add(e[1])
            return True
        return False
    return all(_column_keys(x, out) for x in e[1:])


def dictionary_frame(e: Any, frame: Any) -> tuple[Any, list[np.ndarray]] | None:
    """When e reads one column of table or selection frame (a filter's rows: a filter of a filter
    stays encoded) and that column is dictionary-encoded: a one-column
    table of its entries (and a nil) to compute e on, and each row's entry in it; else None."""
    from .frame import is_rows
    from .kernels import column_name

    if not is_rows(frame) or not frame.num_rows:
        return None
    keys: set[Any] = set()
    if not _column_keys(e, keys) or len(keys) != 1:
        return None
    name = column_name(next(iter(keys)))
    if name is None or frame.column_names.count(name) != 1:
        return None
    col = frame.column(frame.column_names.index(name))  # a selection's: its rows' indices, still encoded
    if not pt.is_dictionary(col.type):
        return None
    values, rows = _entries(col)
    return pa.table({name: values}), rows


def column_frame(frame: Any) -> tuple[Any, list[np.ndarray]] | None:
    """A dictionary-encoded column as a frame: its entries (and a nil) and each value's entry."""
    if not is_dictionary(frame) or not len(frame):
        return None
    return _entries(frame)


def taken(result: Any, parts: list[np.ndarray], encoded: bool = False) -> Any:
    """A result computed on a dictionary's entries, for each row, chunk by chunk (a constant stays
    a constant); encoded: a dictionary of the result's values, taken by the rows' entry numbers."""
    if not isinstance(result, (pa.Array, pa.ChunkedArray)):
        return result
    if isinstance(result, pa.ChunkedArray):
        result = result.combine_chunks()
    if encoded:
        return pa.chunked_array([pa.DictionaryArray.from_arrays(pa.array(p), result) for p in parts],
                                pa.dictionary(pa.from_numpy_dtype(parts[0].dtype) if parts else pa.int32(),
                                              result.type))
    return pa.chunked_array([result.take(pa.array(p)) for p in parts], result.type)
