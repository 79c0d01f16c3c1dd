"""The empty-result note: why a program's answer is nil, 0 or empty, when the runtime can tell.

A model that compares a string field with a keyword (`#(= (:status %) :paid)` over
`{:status "paid"}`) gets an empty answer and no error, and tends to believe it. While a
program runs, the last filter/remove that took items to nothing is recorded
(`context.emptied`: a count and three sample items, nothing else). Only when the run's
result or last printed line is empty is that record explained here: the program's
comparisons of a row field with a literal are read from its source and checked against the
sample items, e.g.

    note: (filter ...) removed all 1,200 items of data/orders: (:status row) is a string
    ("paid"), compared with the keyword :paid; use "paid"

Cheap (a few samples, one read of the source), bounded (one line), and it never changes a
value. With no record, two argument mistakes that make nil are recognised in the source:
`(get :k m)` and a string key on keyword-keyed rows.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from . import values as v
from .context import Emptied
from .errors import PTCError, suggest
from .printer import sample_text
from .reader import Coll, Lit, Sym, read

_EMPTY_LINE = re.compile(r"(?:^|[\s:=])(?:0|0\.0|nil|\(\)|\[\]|\{\}|#\{\})\s*$")
_EQUALITY = {"=": "=", "==": "=", "not=": "not=", "identical?": "="}
_ORDER = {"<", ">", "<=", ">="}
_STRING_TESTS = {"includes?", "starts-with?", "ends-with?"}
_WHERE_OPS = {"=": "=", "==": "=", "not=": "not=", "!=": "not=", "in": "in", "not-in": "in",
              ">": ">", "<": "<", ">=": ">=", "<=": "<=", "contains": "str", "starts-with": "str",
              "ends-with": "str"}


def is_empty(value: Any) -> bool:
    """nil, 0, 0.0, "" or an empty collection: the answers an empty filter makes."""
    if value is None:
        return True
    t = type(value)
    if t is int or t is float:
        return value == 0
    if t is str:
        return value == ""
    if t is v.LazySeq and not value.realized:  # never run program code outside the run
        return False
    if t in v.SEQUENTIAL_TYPES or t in v.MAP_TYPES or t in v.SET_TYPES:
        return next(iter(value), _END) is _END
    return False


_END = object()


def looks_empty(value: Any, prints: Sequence[str]) -> bool:
    """The turn's answer is empty: its value (or a collection of nils, what a wrong key
    gives), or (a println ending the program) its last line."""
    if value is not None:
        return is_empty(value) or _all_nil(value)
    return not prints or bool(_EMPTY_LINE.search(prints[-1]))


def _all_nil(value: Any) -> bool:
    t = type(value)
    if t not in v.SEQUENTIAL_TYPES or (t is v.LazySeq and not value.realized):
        return False
    head = list(itertools.islice(value, 50))
    return bool(head) and all(x is None for x in head)


@dataclass(frozen=True)
class Check:
    """A comparison of a row field with a literal found in the program: `(= (:k row) lit)`."""

    path: tuple[Any, ...]  # the keys read from the row (Keyword or str)
    op: str  # "=", "not=", "in", "<"..., "str" (a string test), "truthy"
    literals: tuple[Any, ...]
    where: bool = False  # from `where`, whose = already matches a keyword with its string


def empty_note(source: str, value: Any, prints: Sequence[str], emptied: Emptied | None,
               data: Mapping[str, Any], tool_results: Sequence[tuple[str, Any]] = ()) -> str | None:
    """One line saying why the answer is empty, or None when there is no evidence."""
    if not looks_empty(value, prints):
        return None
    try:
        forms = read(source)
    except PTCError:
        return None
    checks = list(_checks(forms))
    if emptied is not None:
        rows = [r for r in emptied.samples if type(r) in v.MAP_TYPES]
        for check in checks if rows else ():
            reason = explain(check, rows)
            if reason is not None:
                origin = _origin(emptied.samples[0], data, tool_results)
                what = "item" if emptied.count == 1 else "items"
                return f"note: ({emptied.who} ...) removed all {emptied.count:,} {what}{origin}: {reason}"
    rows = _known_rows(data, tool_results)
    for check in checks:  # no filter kept nothing (some, a loop...): type mix-ups in the data
        reason = explain(check, [r for r in rows if _get_path(r, check.path) is not None], missing=False)
        if reason is not None:
            return f"note: nothing matched: {reason}"
    return _nil_note(forms, rows, data, tool_results) if value is None or _all_nil(value) else None


def explain(check: Check, rows: Sequence[Any], missing: bool = True) -> str | None:
    """Why `check` is false for every one of `rows`, when a type or spelling explains it
    (`missing`: also a key no row has)."""
    if not rows:
        return None
    first = check.path[0]
    keys = list(dict.fromkeys(itertools.chain.from_iterable(itertools.islice(v.map_keys(r), 20) for r in rows)))
    if not any(v.lookup(r, first, _END) is not _END for r in rows):
        return _missing_key(first, keys) if missing else None
    field = _field_text(check.path)
    vals = [_get_path(r, check.path) for r in rows]
    present = [x for x in vals if x is not None]
    if not present:
        if check.op in _ORDER or any(type(x) in (int, float) for x in check.literals):
            return f"{field} is nil in these rows, compared with {_text(check.literals[0])}; check the key"
        return None
    sample = present[0]
    if check.op in ("=", "not=", "in") and not check.where:
        for lit in check.literals:
            if type(lit) is v.Keyword:
                same = next((x for x in present if type(x) is str and x == lit.name), None)
                if same is not None or all(type(x) is str for x in present):
                    shown = same if same is not None else sample
                    fix = f'use "{lit.name}"' if same is not None else f"compare with a string such as {_text(sample)}"
                    return f"{field} is a string ({_text(shown)}), compared with the keyword {_text(lit)}; {fix}"
    if check.op in ("=", "not=", "in") or check.op in _ORDER:
        for lit in check.literals:
            if type(lit) is str and type(sample) in (int, float):
                num = _number(lit)
                fix = f"use {_text(num)}" if num is not None else "compare with a number"
                return f"{field} is a number ({_text(sample)}), compared with the string {_text(lit)}; {fix}"
            if type(lit) in (int, float) and type(sample) is str:
                parse = "parse-double" if "." in sample else "parse-long"
                fix = f"use ({parse} {field})" if _number(sample) is not None else "compare with a string"
                return f"{field} is a string ({_text(sample)}), compared with the number {_text(lit)}; {fix}"
    if check.op in ("=", "in", "str"):
        for lit in check.literals:
            if type(lit) is str:
                low = lit.lower()
                same = next((x for x in present if type(x) is str
                             and (low in x.lower() if check.op == "str" else low == x.lower())), None)
                if same is not None:
                    return (f"{field} is {_text(same)}: its case differs from {_text(lit)}; "
                            f"use {_text(same) if check.op != 'str' else f'(str/lower-case {field})'}")
    return None


def _missing_key(key: Any, keys: list[Any]) -> str | None:
    """A key no row has: a keyword for a string key (or back), or a close spelling."""
    if type(key) is str and v.Keyword(key) in keys:
        return f'rows have the keyword key :{key}, not the string "{key}"; use (:{key} row)'
    if type(key) is v.Keyword and key.name in keys:
        return f'rows have the string key "{key.name}", not :{key.name}; use (get row "{key.name}")'
    name = key.name if type(key) is v.Keyword else str(key)
    close = suggest(name, [k.name for k in keys if type(k) is v.Keyword])
    if close:
        return f"no row has the key {_text(key)}; the closest key is :{close[0]}"
    return None


# functions whose first argument, a keyword, is read from every item
_KEY_FIRST = {"map", "mapv", "filter", "filterv", "remove", "keep", "sort-by", "group-by", "min-by", "max-by",
              "sum-by", "avg-by", "pluck", "partition-by", "max-key", "min-key", "some", "every?", "where"}


def key_reads(forms: Sequence[Any], line: int | None = None) -> list[v.Keyword]:
    """The keywords the program reads from maps, in source order: `(:k x)`, `(map :k xs)`,
    `(sort-by :k ...)`, `(get x :k)`... (on `line` only, when given)."""
    out: list[v.Keyword] = []
    for f in _walk(forms):
        items = f.items
        head = items[0]
        found: Any = None
        if isinstance(head, Lit) and type(head.value) is v.Keyword and len(items) in (2, 3):
            found = head
        elif isinstance(head, Sym) and head.ns is None and len(items) >= 2:
            if head.name in _KEY_FIRST and isinstance(items[1], Lit) and type(items[1].value) is v.Keyword:
                found = items[1]
            elif head.name == "get" and len(items) >= 3 and isinstance(items[2], Lit) \
                    and type(items[2].value) is v.Keyword:
                found = items[2]
        if found is not None and (line is None or found.line == line) and found.value not in out:
            out.append(found.value)
    return out


def _tables(data: Mapping[str, Any], tool_results: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The row collections a program read: (label, rows) for data/NAME and tool results."""
    return [(label, rows) for label, rows in [*(("data/" + k, d) for k, d in data.items()),
                                              *((f"tool/{name}'s result", r) for name, r in tool_results)]
            if type(rows) in v.SEQUENTIAL_TYPES and len(rows)]


def _nils_of(rows: Any, key: v.Keyword, scan: int = 100_000) -> tuple[int, int, bool]:
    """(rows where key is nil or absent, rows counted, whether any row has the key): a table's
    column counts in C; plain rows are counted over their first `scan` (an error's hint reads
    100,000; a note on a nil answer, which costs every such run, reads 1,000)."""
    if type(rows) is v.Table:
        pos = rows.keys.index(key) if key in rows.keys else None
        if pos is None:
            return len(rows), len(rows), False
        column = rows.arrow.column(pos)
        return column.null_count, len(column), True
    counted = nil = 0
    present = False
    for row in itertools.islice(rows, scan):
        counted += 1
        if type(row) not in v.MAP_TYPES:
            continue
        x = v.lookup(row, key, _END)
        present = present or x is not _END
        nil += x is None or x is _END
    return nil, counted, present


def nil_hint(source: str, line: int | None, data: Mapping[str, Any],
             tool_results: Sequence[tuple[str, Any]] = ()) -> str | None:
    """For "expected a number, got nil": which key read on the error's line gives nil, in how
    many rows of which input, and the fix; a key no row has gets its closest real name."""
    try:
        forms = read(source)
    except PTCError:
        return None
    keys = key_reads(forms, line) or key_reads(forms)
    tables = _tables(data, tool_results)
    for key in keys:
        for label, rows in tables:
            nil, counted, present = _nils_of(rows, key)
            if not present:
                continue
            if nil:
                k = _text(key)
                return (f"({k} row) is nil in {nil:,} of {counted:,} rows of {label}: skip those rows first, "
                        f"(filter {k} rows) or (keep {k} rows), or give a default, (or ({k} row) 0)")
    for key in keys:
        for label, rows in tables:
            if not _nils_of(rows, key)[2]:
                close = _missing_key(key, _keys_of(rows))
                if close is not None:
                    return f"{close} (in {label})"
    return None


_MAKES_KEYS = {"assoc", "assoc-in", "update", "update-in", "rename-keys", "zipmap", "hash-map", "array-map",
               "select-keys"}  # the keys a program gives these are keys of its own maps


@functools.lru_cache(maxsize=256)
def _keys_read_not_made(source: str) -> tuple[v.Keyword, ...]:
    """The keywords the program reads from maps (key_reads) and never makes a key of its own
    (a map literal's key, a key given to assoc, update...); once per program text."""
    try:
        forms = read(source)
    except PTCError:
        return ()
    made: set[Any] = set()
    stack = list(forms)
    while stack:
        f = stack.pop()
        if not isinstance(f, Coll):
            continue
        if f.kind == "map":
            made.update(x.value for x in f.items[0::2] if isinstance(x, Lit))
        elif f.kind == "list" and f.items and isinstance(f.items[0], Sym) and f.items[0].name in _MAKES_KEYS:
            inner = list(f.items[1:])
            while inner:
                x = inner.pop()
                if isinstance(x, Lit):
                    made.add(x.value)
                elif isinstance(x, Coll) and x.kind == "vector":
                    inner.extend(x.items)
        stack.extend(f.items)
    return tuple(k for k in key_reads(forms) if k not in made)


def _has_key(rows: Any, key: Any, scan: int = 1_000) -> bool:
    """Whether a row (a table's column, or one of the first `scan` rows) has the key."""
    if type(rows) is v.Table:
        return key in rows.keys
    return any(type(r) in v.MAP_TYPES and v.lookup(r, key, _END) is not _END for r in itertools.islice(rows, scan))


def _nested_keys(rows: Any, scan: int = 20) -> set[Any]:
    """The keys of the first rows and of the maps inside them (one level, vectors of maps too):
    a key read from a row's nested map is no misspelling."""
    keys: set[Any] = set()
    for row in itertools.islice(rows, scan):
        if type(row) not in v.MAP_TYPES:
            continue
        for _, x in itertools.islice(v.map_items(row), 200):
            inner = [x] if type(x) in v.MAP_TYPES else list(itertools.islice(x, 5)) \
                if type(x) in v.VECTOR_TYPES else []
            for m in inner:
                if type(m) in v.MAP_TYPES:
                    keys.update(itertools.islice(v.map_keys(m), 200))
    return keys


def missing_key_note(source: str, data: Mapping[str, Any], tool_results: Sequence[tuple[str, Any]] = ()) -> str | None:
    """A key the program reads from rows that no row of its inputs has, while one of them has a
    close spelling (`(sum-by :precip t)` for :precipitation): every read of it is nil, which an
    aggregate turns into a believable 0, one nil group or an empty keep. One line, or None."""
    tables = _tables(data, tool_results)
    if not tables:
        return None
    for key in _keys_read_not_made(source):
        if any(_has_key(rows, key) or key in _nested_keys(rows) for _, rows in tables):
            continue
        for label, rows in tables:
            keys = _keys_of(rows)
            close = _missing_key(key, keys) if _near(key, keys) else None
            if close is not None:
                return f"note: every ({_text(key)} row) is nil: {close} (in {label})"
    return None


def _near(key: Any, keys: list[Any]) -> bool:
    """A key the note names for any answer, not only an empty one, must be close to a real one:
    the same but for case and separators (:dep-delay, :dep_delay), a prefix of three letters or
    more (:precip of :precipitation), or a near spelling (:weathr); :kind is not :id."""
    import difflib

    def norm(x: str) -> str:
        return re.sub(r"[-_ .]", "", x.lower())

    name = norm(key.name if type(key) is v.Keyword else str(key))
    for k in keys:
        other = norm(k.name if type(k) is v.Keyword else str(k))
        if name == other or (len(name) >= 3 and (other.startswith(name) or name.startswith(other) and len(other) >= 3)):
            return True
        if difflib.SequenceMatcher(None, name, other).ratio() >= 0.8:
            return True
    return False


def _keys_of(rows: Any) -> list[Any]:
    first = next(iter(rows), None)
    return list(itertools.islice(v.map_keys(first), 200)) if type(first) in v.MAP_TYPES else []


def _nil_note(forms: list[Any], rows: list[Any], data: Mapping[str, Any] | None = None,
              tool_results: Sequence[tuple[str, Any]] = ()) -> str | None:
    """nil from `(get :k m)` (arguments swapped), `(get row "k")` on keyword-keyed rows, or a
    key that no row has (`(map :dep-delay flights)` for :dep_delay)."""
    note = _swapped_get(forms, rows)
    if note is not None or data is None:
        return note
    for key in key_reads(forms):
        for label, table in _tables(data, tool_results):
            if not _nils_of(table, key, scan=1_000)[2]:
                close = _missing_key(key, _keys_of(table))
                if close is not None:
                    return f"note: every value is nil: {close} (in {label})"
    return None


def _swapped_get(forms: list[Any], rows: list[Any]) -> str | None:
    for f in _walk(forms):
        items = f.items
        if len(items) < 2 or not isinstance(items[0], Sym) or items[0].full != "get":
            continue
        if isinstance(items[1], Lit) and type(items[1].value) in (v.Keyword, str) \
                and (len(items) == 2 or not isinstance(items[2], Lit)):  # (->> m (get :k)) has one argument
            k = _text(items[1].value)
            return f"note: (get {k} m) is nil: get takes the map first, (get m {k})"
        if len(items) > 2 and isinstance(items[2], Lit) and type(items[2].value) is str and rows:
            name = items[2].value
            if any(v.lookup(r, v.Keyword(name), _END) is not _END for r in rows):
                return f'note: rows have keyword keys: (get row "{name}") is nil; use (:{name} row)'
    return None


def _checks(forms: list[Any]) -> Iterator[Check]:
    """The program's comparisons of a row field with literals, in source order."""
    for f in _walk(forms):
        items = f.items
        head = items[0] if items else None
        args = items[1:]
        if isinstance(head, Sym):
            name = head.name if head.ns is None else head.name if head.ns in ("str", "clojure.string") else None
            if name in _EQUALITY or name in _ORDER:
                if len(args) == 2:
                    for a, b in (args, args[::-1]):
                        path, lit = _field(a), _literal(b)
                        if path is not None and lit is not _END:
                            yield Check(path, _EQUALITY.get(name, name), (lit,))  # type: ignore[arg-type]
            elif name in _STRING_TESTS and head.ns is not None and len(args) == 2:
                path, lit = _field(args[0]), _literal(args[1])
                if path is not None and type(lit) is str:
                    yield Check(path, "str", (lit,))
            elif name == "contains?" and len(args) == 2 and isinstance(args[0], Coll) and args[0].kind == "set":
                path, lits = _field(args[1]), _literals(args[0])
                if path is not None and lits:
                    yield Check(path, "in", lits)
            elif name == "where" and args:
                path = _key_path(args[0])
                if path is None:
                    continue
                if len(args) == 1:
                    yield Check(path, "truthy", (), where=True)
                elif len(args) == 3:
                    op = args[1].name if isinstance(args[1], Sym) else getattr(args[1], "value", None)
                    op = op.name if type(op) is v.Keyword else op
                    lits = _literals(args[2]) if isinstance(args[2], Coll) else (_literal(args[2]),)
                    if op in _WHERE_OPS and lits and _END not in lits:
                        yield Check(path, _WHERE_OPS[op], lits, where=True)
            elif name in ("filter", "filterv", "remove") and args and isinstance(args[0], Lit) \
                    and type(args[0].value) is v.Keyword:
                yield Check((args[0].value,), "truthy", ())
            elif name == "fn" and len(args) >= 2 and (path := _field(args[-1])) is not None:
                yield Check(path, "truthy", ())  # #(get % "vip"): a field read as the predicate
        elif isinstance(head, Coll) and head.kind == "set" and len(args) == 1:
            path, lits = _field(args[0]), _literals(head)
            if path is not None and lits:
                yield Check(path, "in", lits)


def _walk(forms: Sequence[Any]) -> Iterator[Coll]:
    """Every list form, depth first in source order (iteratively: programs may nest deeply)."""
    stack = list(reversed(forms))
    while stack:
        f = stack.pop()
        if isinstance(f, Coll):
            if f.kind == "list" and f.items:
                yield f
            stack.extend(reversed(f.items))


def _field(f: Any) -> tuple[Any, ...] | None:
    """The keys a form reads from a row: (:k x), (:k x default), (get x :k), (get-in x [..])."""
    if not isinstance(f, Coll) or f.kind != "list" or len(f.items) < 2:
        return None
    head, rest = f.items[0], f.items[1:]
    if isinstance(head, Lit) and type(head.value) is v.Keyword and len(rest) in (1, 2) \
            and not isinstance(rest[0], Lit):
        return (head.value,)
    if isinstance(head, Sym) and head.ns is None and len(rest) in (2, 3) and not isinstance(rest[0], Lit):
        if head.name == "get" and isinstance(rest[1], Lit) and type(rest[1].value) in (v.Keyword, str):
            return (rest[1].value,)
        if head.name == "get-in":
            return _key_path(rest[1])
    return None


def _key_path(f: Any) -> tuple[Any, ...] | None:
    if isinstance(f, Lit) and type(f.value) in (v.Keyword, str):
        return (f.value,)
    if isinstance(f, Coll) and f.kind == "vector" and f.items \
            and all(isinstance(x, Lit) and type(x.value) in (v.Keyword, str) for x in f.items):
        return tuple(x.value for x in f.items)
    return None


def _literal(f: Any) -> Any:
    if isinstance(f, Lit) and (f.value is None or type(f.value) in (v.Keyword, str, int, float, bool)):
        return f.value
    return _END


def _literals(f: Coll) -> tuple[Any, ...]:
    lits = tuple(_literal(x) for x in f.items)
    return () if _END in lits else lits


def _get_path(row: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        if type(row) not in v.MAP_TYPES:
            return None
        row = v.lookup(row, k)
    return row


def _field_text(path: tuple[Any, ...]) -> str:
    if len(path) == 1:
        k = path[0]
        return f"({_text(k)} row)" if type(k) is v.Keyword else f"(get row {_text(k)})"
    return f"(get-in row [{' '.join(_text(k) for k in path)}])"


def _text(x: Any) -> str:
    """A value as the note shows it: Clojure text, strings cut at 40 characters (notes stay short)."""
    return sample_text(x, limit=3, max_chars=40)


def _number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        try:
            x = float(text)
        except ValueError:
            return None
        return x if x == x and abs(x) != float("inf") else None


def _origin(item: Any, data: Mapping[str, Any], tool_results: Sequence[tuple[str, Any]]) -> str:
    """` of data/orders` or ` of tool/search's result` when the item is found there (by identity)."""
    for label, value in [*(("data/" + k, d) for k, d in data.items()),
                         *((f"tool/{name}'s result", r) for name, r in tool_results)]:
        if type(value) in v.SEQUENTIAL_TYPES and any(x is item for x in itertools.islice(value, 10_000)):
            return f" of {label}"
    return ""


def _known_rows(data: Mapping[str, Any], tool_results: Sequence[tuple[str, Any]]) -> list[Any]:
    """A few maps from the input data and tool results (their first rows)."""
    rows: list[Any] = []
    for value in [*data.values(), *(r for _, r in tool_results)]:
        if type(value) in v.MAP_TYPES:
            rows.append(value)
        elif type(value) in v.SEQUENTIAL_TYPES:
            rows.extend(x for x in itertools.islice(value, 3) if type(x) in v.MAP_TYPES)
    return rows[:20]


__all__ = ["Check", "empty_note", "explain", "is_empty", "key_reads", "looks_empty", "nil_hint"]
