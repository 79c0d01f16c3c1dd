"""Sequence functions: map/filter/reduce and friends, range/iterate/repeat/cycle, partitioning,
sorting, `apply`.

Laziness is Clojure's (see lazy.py): map, filter, keep, mapcat, concat, take, drop, range,
iterate, partition... return lazy seqs, realized a chunk at a time: 32 items for chunked
sources (vectors, `(range n)`) and the functions that keep chunks (map, filter, remove,
keep, map-indexed, keep-indexed, concat, mapcat), one at a time otherwise. So a program
that needs a prefix computes only the chunks it touches. The eager ones (mapv, filterv,
reduce, sort, reverse...) are eager. The 1-arity forms (`(map f)`, `(filter p)`...) return
transducers (see transducers.py).

These run in hot loops over 100k-row vectors: each chunk is processed by C-level `map` or a
list comprehension, and a consumer that needs everything drains a chain in one pass.
"""

from __future__ import annotations

import builtins
import functools
import itertools
import math
import operator
import sys
from typing import Any, Callable, Iterable, Iterator

from .. import context
from ..patterns import COMPARED_KEYS_ATTR, KEY_PARTS_ATTR
from ..errors import runtime_error
from ..lazy import CHUNK, Chunks, Ints, Items, Iterated, Mapped, Prefix, chunks_of as _chunks_of, source_of, unbounded, view
from ..registry import builtin
from ..columnar import dispatch as _col
from ..table import Table
from ..values import (
    as_key,
    lookup,
    map_items,
    EMPTY_LIST,
    MAP_TYPES,
    SET_TYPES,
    FMap,
    Keyword,
    LazySeq,
    MapEntry,
    PList,
    PVector,
    as_fn,
    count as _count,
    equals,
    iter_seq,
    short,
    truthy,
    type_name,
    vec,
    VECTOR_TYPES,
)
from .transducers import (
    Reduced,
    sequence_of,
    dedupe_xf,
    distinct_xf,
    drop_while_xf,
    drop_xf,
    filter_xf,
    interpose_xf,
    keep_indexed_xf,
    keep_xf,
    map_indexed_xf,
    map_xf,
    mapcat_xf,
    partition_all_xf,
    partition_by_xf,
    remove_xf,
    take_nth_xf,
    take_while_xf,
    take_xf,
)
from . import inline

_NO = object()
_pymap = builtins.map
_islice = itertools.islice
_chain = itertools.chain
_FAST = 1 << 62  # integer sums within this bound need no size check

_SEQUENTIAL_SUM = sys.version_info < (3, 12)  # builtin sum adds floats one after another
_REAL = frozenset({PList, PVector, MapEntry, list, tuple, Table})  # realized, indexable, len() known
_SEQUENTIAL = frozenset({PList, PVector, MapEntry, LazySeq, list, tuple, Table})
_CHUNK = 1 << 16


# -- helpers --------------------------------------------------------------------------------


def _charge(n: int) -> None:
    if n > 4096:
        context.check_size(n, "sequence")


def _realize(it: Iterable[Any], what: str = "sequence") -> PList:
    """Realize an iterator into a PList, refusing to grow past the collection limit."""
    it = iter(it)
    out = list(_islice(it, _CHUNK))
    if len(out) == _CHUNK:
        context.check_realized(_CHUNK, _CHUNK, what)
        while True:
            before = len(out)
            out.extend(_islice(it, _CHUNK))
            context.check_realized(len(out), len(out) - before, what)
            if len(out) - before < _CHUNK:
                break
    elif len(out) > 4096:
        context.check_size(len(out), what)
    return PList(out)


def _lazy(items: Iterable[Any], infinite: bool = False) -> LazySeq:
    """A lazy seq of these items, realized one at a time (an unchunked seq)."""
    return LazySeq(Items(items, infinite))


def _chunked(coll: Any, each: Callable[[list[Any]], list[Any]], who: str) -> LazySeq:
    """A lazy seq of each(chunk) for every chunk of coll, keeping coll's chunks."""
    return LazySeq(Mapped(source_of(coll, 0, who), each))


def _indexed(f: Any, who: str) -> Callable[[list[Any]], Iterator[Any]]:
    """(f index item) over successive chunks, the index running on across chunks."""
    f = as_fn(f, who)
    pos = 0

    def each(chunk: list[Any]) -> Iterator[Any]:
        nonlocal pos
        start, pos = pos, pos + len(chunk)
        return _pymap(f, range(start, pos), chunk)

    return each


def _items(coll: Any, who: str) -> list[Any] | tuple[Any, ...] | Any:
    """A realized, indexable view of coll (realizing a lazy seq up to the limit)."""
    t = type(coll)
    if t in _REAL:
        return coll
    if t is LazySeq:
        return coll.realize()
    return list(iter_seq(coll, who))


def _count_arg(n: Any, who: str) -> int:
    """An integer count; floats round up like Clojure's (pos? n)/(dec n) loops."""
    t = type(n)
    if t is int:
        return n
    if t is float:
        if n != n:
            raise runtime_error(f"{who}: expected a number, got NaN")
        if math.isinf(n):
            return sys.maxsize if n > 0 else -sys.maxsize
        return math.ceil(n)
    raise runtime_error(f"{who}: expected a number, got {type_name(n)} {short(n)}")


def _clamp(n: int) -> int:
    return n if n <= sys.maxsize else sys.maxsize


def kw_values(k: Keyword, rows: Any) -> list[Any]:
    """[(k row) for row in rows] without a Python call per map row (the same result as
    `lookup`): one dict probe per host or small PTC map."""
    if type(rows) is Table:  # a whole column at once, converted by Arrow
        if len(rows) > 4096:
            context.check_size(len(rows), "sequence")
        return rows.values_of(k)
    hk = k.hk
    return [r.get(hk) if type(r) is _dict else (r.get(k) if type(r) is FMap else lookup(r, k)) for r in rows]


_dict = dict


_TAG_F, _TAG_B, _TAG_S, _TAG_M, _TAG_SET = (object() for _ in range(5))
_PLAIN_KEY = frozenset({str, int, Keyword, type(None)})


def eq_key(x: Any) -> Any:
    """A hashable key whose equality is Clojure `=`: 1, 1.0 and true are distinct,
    while [1 2] and (1 2) are the same (used by distinct, memoize...)."""
    t = type(x)
    if t in _PLAIN_KEY:
        return x
    if t in _SEQUENTIAL or t in MAP_TYPES or t in SET_TYPES:
        x = as_key(x)  # once, at the top: bounds size and depth, converts host data
    return _eq_key(x)


def _eq_key(x: Any) -> Any:
    t = type(x)
    if t in _PLAIN_KEY:
        return x
    if t is float:
        return (_TAG_F, x)
    if t is bool:
        return (_TAG_B, x)
    if t in _SEQUENTIAL:
        return (_TAG_S, *[_eq_key(y) for y in x])
    if t in MAP_TYPES:
        return (_TAG_M, frozenset([(_eq_key(k), _eq_key(v)) for k, v in map_items(x)]))
    if t in SET_TYPES:
        return (_TAG_SET, frozenset([_eq_key(y) for y in x]))
    return x


# -- map / filter / reduce --------------------------------------------------------------------


def _mapper(f: Any) -> Callable[[list[Any]], list[Any]]:
    """(f item) for each item of a chunk (a keyword reads every row without a call per row)."""
    if type(f) is Keyword:
        return lambda chunk: kw_values(f, chunk)
    return lambda chunk: list(_pymap(f, chunk))


def _map_realized(f: Any, coll: Any) -> Any:
    _charge(len(coll))
    return _mapper(f)(coll)


@builtin("map", group_read="map", shapes=("map-groups",), stage="map", args=("[f]", "[f coll]", "[f c1 c2 & colls]"), category="sequences",
         doc="Applies f to each item (to items of several colls in parallel, stopping at the "
             "shortest); with only f, returns a transducer.",
         ex=(("(map inc [1 2 3])", "(2 3 4)"), ("(map :a [{:a 1} {:a 2}])", "(1 2)"),
             ("(map + [1 2] [10 20 30])", "(11 22)"), ("(take 3 (map inc (range)))", "(1 2 3)")))
def map_(f: Any, *colls: Any) -> Any:
    if not colls:
        return map_xf(f)
    f = as_fn(f, "map")
    if len(colls) == 1:
        if (r := _col.mapped(f, colls[0], "map")) is not _col.NO:
            return r
        return _chunked(colls[0], _mapper(f), "map")
    its = [iter_seq(c, "map") for c in colls]  # several colls: item by item, as in Clojure
    return _lazy(_pymap(f, *its), all(unbounded(c) for c in colls))


@builtin("mapv", group_read="mapv", stage="map", vector_result=True, args=("[f coll]", "[f c1 c2 & colls]"), category="sequences",
         doc="Like map, but eager and returns a vector.",
         ex=(("(mapv inc [1 2 3])", "[2 3 4]"), ("(mapv + [1 2] [10 20 30])", "[11 22]")))
def mapv(f: Any, coll: Any, *colls: Any) -> Any:
    f = as_fn(f, "mapv")
    if not colls:
        if (r := _col.mapped(f, coll, "mapv")) is not _col.NO:
            items = r.items()
            _charge(len(items))
            return vec(items)
        return vec(_map_realized(f, _items(coll, "mapv")))
    its = [iter_seq(c, "mapv") for c in (coll, *colls)]
    return vec(_realize(_pymap(f, *its)))


@builtin("map-indexed", args=("[f]", "[f coll]"), category="sequences",
         doc="Applies (f index item) to each item; with only f, returns a transducer.",
         ex=(("(map-indexed vector [:a :b])", "([0 :a] [1 :b])"),))
def map_indexed(f: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return map_indexed_xf(f)
    each = _indexed(f, "map-indexed")
    return _chunked(coll, lambda chunk: list(each(chunk)), "map-indexed")


def _selector(pred: Any, who: str, want: bool) -> Callable[[list[Any]], list[Any]]:
    """The items of a chunk whose (pred item) is truthy (want=True: filter) or falsey (remove)."""
    pred = as_fn(pred, who)
    results = _mapper(pred)

    def select(chunk: list[Any]) -> list[Any]:
        kept = [x for x, r in zip(chunk, results(chunk)) if (r is not None and r is not False) is want]
        if not kept and chunk:
            context.emptied(who, chunk, select)
        return kept

    return select


@builtin("filter", group_read="filter", stage="filter", args=("[pred]", "[pred coll]"), category="sequences",
         doc="The items for which (pred item) is truthy; with only pred, returns a transducer.",
         ex=(("(filter even? [1 2 3 4])", "(2 4)"), ("(filter :ok [{:ok true} {:ok false}])", "({:ok true})")))
def filter_(pred: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return filter_xf(pred)
    if (r := _col.select(pred, coll, True, "filter")) is not _col.NO:
        return r
    return _chunked(coll, _selector(pred, "filter", True), "filter")


@builtin("filterv", stage="filter", vector_result=True, args="[pred coll]", category="sequences",
         doc="Like filter, but eager and returns a vector.",
         ex=(("(filterv odd? [1 2 3])", "[1 3]"), ("(filterv odd? nil)", "[]")))
def filterv(pred: Any, coll: Any) -> Any:
    items = _items(coll, "filterv")
    _charge(len(items))
    return vec(_selector(pred, "filterv", True)(items))


@builtin("remove", group_read="remove", stage="remove", args=("[pred]", "[pred coll]"), category="sequences",
         doc="The items for which (pred item) is falsey; with only pred, returns a transducer.",
         ex=(("(remove even? [1 2 3 4])", "(1 3)"),))
def remove(pred: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return remove_xf(pred)
    if (r := _col.select(pred, coll, False, "remove")) is not _col.NO:
        return r
    return _chunked(coll, _selector(pred, "remove", False), "remove")


@builtin("keep", group_read="keep", stage="keep", args=("[f]", "[f coll]"), category="sequences",
         doc="The non-nil results of (f item) (false is kept); with only f, returns a transducer.",
         ex=(("(keep :a [{:a 1} {:b 2} {:a 3}])", "(1 3)"), ("(keep #{1 2} [1 3 2])", "(1 2)")))
def keep(f: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return keep_xf(f)
    f = as_fn(f, "keep")
    if (r := _col.kept(f, coll)) is not _col.NO:
        return r
    results = _mapper(f)
    return _chunked(coll, lambda chunk: [r for r in results(chunk) if r is not None], "keep")


@builtin("keep-indexed", args=("[f]", "[f coll]"), category="sequences",
         doc="The non-nil results of (f index item); with only f, returns a transducer.",
         ex=(("(keep-indexed (fn [i x] (when (odd? i) x)) [:a :b :c :d])", "(:b :d)"),))
def keep_indexed(f: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return keep_indexed_xf(f)
    each = _indexed(f, "keep-indexed")
    return _chunked(coll, lambda chunk: [r for r in each(chunk) if r is not None], "keep-indexed")


@builtin("reduce", group_read="reduce", stage="reduce", consumes=-1, inline=inline.reduce_plus, args=("[f coll]", "[f init coll]"), category="sequences",
         doc="Combines items with (f acc item), starting from init (or the first item; (f) if "
             "coll is empty); stops early when f returns (reduced x).",
         ex=(("(reduce + [1 2 3])", "6"), ("(reduce + 10 [1 2 3])", "16"), ("(reduce + [])", "0"),
             ("(reduce (fn [m x] (assoc m x (* x x))) {} [1 2])", "{1 1, 2 4}")))
def reduce_(f: Any, a: Any, b: Any = _NO) -> Any:
    f = as_fn(f, "reduce")
    if f is _plus_fn():
        if (r := _col.summed(_col.NO if b is _NO else a, a if b is _NO else b)) is not _col.NO:
            return r
        r = _sum_fast(a, b)
        if r is not _NO:
            return r
    if b is _NO:
        it = iter(_reducible(a))
        acc = next(it, _NO)
        if acc is _NO:
            return _of_nothing(f)
    else:
        acc = a
        it = _reducible(b)
    R = Reduced
    for x in it:
        acc = f(acc, x)
        if acc.__class__ is R:
            return acc.val
    return acc


def _of_nothing(f: Any) -> Any:
    """(f) for a reduce of an empty collection without a start value, as Clojure calls it; an
    f that takes no arguments (max, min, most fns) says that the collection was empty."""
    try:
        return f()
    except TypeError as e:
        from ..runtime import convert_exception

        err = convert_exception(e)
        if not err.message.startswith(("Too few args", "Wrong number of args (0)")):
            raise
        raise runtime_error(f"{err.message}: the collection reduce was given is empty, and without a start value "
                            "reduce calls the fn with no arguments",
                            hint="give reduce a start value, (reduce max 0 xs), or test (seq xs) first") from None


def reduce_plus(coll: Any) -> Any:
    """`(reduce + coll)`, as the compiler calls it: plain numbers are summed in C, a few of
    them (a window of partition) in a plain loop."""
    if type(coll) is PList and 0 < len(coll) <= 16:
        r = None
        for x in coll:
            if type(x) is float or type(x) is int:
                r = x if r is None else r + x
            else:
                break
        else:  # a few integers cannot outgrow the size limit much before this check
            return r if type(r) is float or -_FAST < r < _FAST else context.check_int(r)
    if type(coll) is LazySeq and (r := _col.summed(_col.NO, coll)) is not _col.NO:
        return r
    r = _sum_fast(coll, _NO)
    return reduce_(_plus_fn(), coll) if r is _NO else r


_PLUS: list[Any] = []


def _plus_fn() -> Any:
    if not _PLUS:
        from ..registry import REGISTRY

        b = REGISTRY.get("+")
        if b is None:
            return None
        _PLUS.append(b.fn)
    return _PLUS[0]


def _reducible(coll: Any) -> Iterable[Any]:
    """The items of coll for reduce: a lazy seq is read a chunk at a time (so a reduce that
    stops early with `reduced` realizes what Clojure realizes), anything else directly."""
    if type(coll) is LazySeq:
        return _chain.from_iterable(coll.chunks())
    return iter_seq(coll, "reduce")


def _sum_fast(a: Any, b: Any) -> Any:
    """(reduce + ...) over a realized collection of plain numbers, in C: the same sequential
    left-to-right additions as calling + repeatedly. Python's `sum` does exactly that up to
    3.11; from 3.12 it compensates float rounding, so there functools.reduce adds instead."""
    if b is _NO:
        init, coll = _NO, a
    else:
        init, coll = a, b
        ti = type(init)
        if ti is not int and ti is not float:
            return _NO
    if type(coll) is LazySeq:  # + never stops early: the whole seq is needed
        coll = coll.realize()
    if type(coll) not in _REAL:
        return _NO
    ts = set(_pymap(type, coll))
    if not ts <= {int, float}:
        return _NO
    if init is _NO:
        if not coll:
            return 0
        init, coll = coll[0], _islice(coll, 1, None)
    r = sum(coll, init) if _SEQUENTIAL_SUM else functools.reduce(operator.add, coll, init)
    if type(r) is int:
        context.check_int(r)
    return r


@builtin("reduce-kv", args="[f init coll]", category="sequences",
         doc="Reduces a map with (f acc key value) (a vector with (f acc index item)); honours reduced.",
         ex=(("(reduce-kv (fn [acc k v] (+ acc v)) 0 {:a 1 :b 2})", "3"),
             ("(reduce-kv (fn [acc i x] (+ acc (* i x))) 0 [5 6])", "6")))
def reduce_kv(f: Any, init: Any, coll: Any) -> Any:
    f = as_fn(f, "reduce-kv")
    t = type(coll)
    if t in MAP_TYPES:
        if type(init) in MAP_TYPES and not init and (r := _col.over_groups(f, coll, "kv", "reduce-kv")) is not _col.NO:
            return r  # (assoc m k (folds of g)) over a table's groups: every group's value at once, none built
        pairs: Iterable[Any] = map_items(coll)
    elif t in _REAL and t is not PList:
        pairs = enumerate(coll)
    elif coll is None:
        return init
    else:
        raise runtime_error(f"reduce-kv: expected a map or vector, got {type_name(coll)} {short(coll)}")
    acc = init
    R = Reduced
    for k, v in pairs:
        acc = f(acc, k, v)
        if acc.__class__ is R:
            return acc.val
    return acc


@builtin("reductions", args=("[f coll]", "[f init coll]"), category="sequences",
         doc="The intermediate values of (reduce f init coll), starting with init.",
         ex=(("(reductions + [1 2 3])", "(1 3 6)"), ("(reductions + 10 [1 2])", "(10 11 13)"),
             ("(reductions + [])", "(0)")))
def reductions(f: Any, a: Any, b: Any = _NO) -> Any:
    f = as_fn(f, "reductions")
    coll = a if b is _NO else b

    def gen() -> Iterator[Any]:
        it = iter(iter_seq(coll, "reductions"))
        acc = next(it, _NO) if b is _NO else a
        if acc is _NO:
            yield f()
            return
        R = Reduced
        if acc.__class__ is R:
            yield acc.val
            return
        yield acc
        for x in it:
            acc = f(acc, x)
            if acc.__class__ is R:
                yield acc.val
                return
            yield acc

    return _lazy(gen(), unbounded(coll))


# -- take / drop ----------------------------------------------------------------------------------


_TAKEN_ROWS = 4096  # a longer take of a table's rows is a lazy view of them (a shorter one: the rows, made at once)


@builtin("take", group_read="take", args=("[n]", "[n coll]"), category="sequences",
         doc="The first n items (all if fewer); with only n, returns a transducer.",
         ex=(("(take 2 [1 2 3])", "(1 2)"), ("(take 5 [1 2])", "(1 2)"), ("(take 3 (range))", "(0 1 2)")))
def take(n: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return take_xf(n)
    n = _count_arg(n, "take")
    if n <= 0:
        return EMPTY_LIST
    if type(coll) is Table and n > _TAKEN_ROWS and len(coll) > _TAKEN_ROWS:  # a long prefix of a table: its rows
        return _col.rows_seq(coll[:n].arrow)  # made as read, a view for kernels (9M Row objects took 3.2 s)
    if type(coll) in _REAL:  # nothing to compute: the items are there
        return LazySeq.of_items(list(coll[:n]))
    if type(coll) is LazySeq:
        return LazySeq(Prefix(coll, n))
    return _lazy(_islice(iter_seq(coll, "take"), _clamp(n)))


@builtin("drop", args=("[n]", "[n coll]"), category="sequences",
         doc="All but the first n items; with only n, returns a transducer.",
         ex=(("(drop 2 [1 2 3])", "(3)"), ("(drop 5 [1 2])", "()")))
def drop(n: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return drop_xf(n)
    return view(coll, _clamp(max(_count_arg(n, "drop"), 0)), "drop")  # the rest, chunked as coll is


@builtin("take-while", shapes=("while-seq",), args=("[pred]", "[pred coll]"), category="sequences",
         doc="The leading items for which (pred item) is truthy; with only pred, returns a transducer.",
         ex=(("(take-while pos? [1 2 -1 3])", "(1 2)"),))
def take_while(pred: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return take_while_xf(pred)
    pred = as_fn(pred, "take-while")
    return _lazy(_taken_while(pred, iter_seq(coll, "take-while")))


def _taken_while(pred: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
    """The leading items for which (pred item) is truthy (Clojure's truth: only nil and false
    are falsey), with one call per item."""
    for x in items:
        r = pred(x)
        if r is None or r is False:
            return
        yield x


@builtin("drop-while", shapes=("while-seq",), args=("[pred]", "[pred coll]"), category="sequences",
         doc="The items after the leading run for which (pred item) is truthy; with only pred, "
             "returns a transducer.",
         ex=(("(drop-while pos? [1 2 -1 3])", "(-1 3)"),))
def drop_while(pred: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return drop_while_xf(pred)
    pred = as_fn(pred, "drop-while")
    return _lazy(itertools.dropwhile(lambda x: truthy(pred(x)), iter_seq(coll, "drop-while")), unbounded(coll))


@builtin("take-last", pure=True, args="[n coll]", category="sequences",
         doc="The last n items, or nil if there are none.",
         ex=(("(take-last 2 [1 2 3])", "(2 3)"), ("(take-last 2 [])", "nil")))
def take_last(n: Any, coll: Any) -> Any:
    n = _count_arg(n, "take-last")
    items = _items(coll, "take-last")
    if n <= 0 or not items:
        return None
    return PList(items[-n:])


@builtin("drop-last", args=("[coll]", "[n coll]"), category="sequences",
         doc="All but the last n items (default 1).",
         ex=(("(drop-last [1 2 3])", "(1 2)"), ("(drop-last 2 [1 2 3])", "(1)")))
def drop_last(a: Any, b: Any = _NO) -> Any:
    if b is _NO:
        n, coll = 1, a
    else:
        n, coll = _count_arg(a, "drop-last"), b
    if n <= 0:
        return _lazy(iter_seq(coll, "drop-last"), unbounded(coll))
    return _lazy(_drop_last_gen(iter_seq(coll, "drop-last"), _clamp(n)), unbounded(coll))


def _drop_last_gen(coll: Iterable[Any], n: int) -> Iterator[Any]:
    it = iter(coll)
    window = list(_islice(it, n))
    from collections import deque

    q = deque(window)
    for x in it:
        q.append(x)
        yield q.popleft()


@builtin("take-nth", args=("[n]", "[n coll]"), category="sequences",
         doc="Every nth item, starting with the first; with only n, returns a transducer.",
         ex=(("(take-nth 2 [1 2 3 4 5])", "(1 3 5)"),))
def take_nth(n: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return take_nth_xf(n)
    n = _count_arg(n, "take-nth")
    if n <= 0:
        it = iter(iter_seq(coll, "take-nth"))
        first = next(it, _NO)
        return EMPTY_LIST if first is _NO else _lazy(itertools.repeat(first), True)
    return _lazy(_islice(iter_seq(coll, "take-nth"), 0, None, _clamp(n)), unbounded(coll))


@builtin("nthrest", args="[coll n]", category="sequences",
         doc="coll without its first n items (coll itself when n <= 0).",
         ex=(("(nthrest [1 2 3] 1)", "(2 3)"), ("(nthrest [1 2 3] 5)", "()")))
def nthrest(coll: Any, n: Any) -> Any:
    n = _count_arg(n, "nthrest")
    if n <= 0:
        return coll
    return drop(n, coll)


@builtin("nthnext", args="[coll n]", category="sequences",
         doc="The seq of coll without its first n items, or nil if nothing is left.",
         ex=(("(nthnext [1 2 3] 1)", "(2 3)"), ("(nthnext [1 2 3] 5)", "nil")))
def nthnext(coll: Any, n: Any) -> Any:
    n = _count_arg(n, "nthnext")
    rest = drop(max(n, 0), coll)
    if type(rest) is LazySeq:
        return rest if rest.nth(0, _NO) is not _NO else None
    return rest if rest else None


@builtin("split-at", args="[n coll]", category="sequences",
         doc="[(take n coll) (drop n coll)].",
         ex=(("(split-at 2 [1 2 3])", "[(1 2) (3)]"),))
def split_at(n: Any, coll: Any) -> Any:
    return vec((take(n, coll), drop(n, coll)))


@builtin("split-with", args="[pred coll]", category="sequences",
         doc="[(take-while pred coll) (drop-while pred coll)].",
         ex=(("(split-with odd? [1 3 2 5])", "[(1 3) (2 5)]"),))
def split_with(pred: Any, coll: Any) -> Any:
    return vec((take_while(pred, coll), drop_while(pred, coll)))


# -- generators -------------------------------------------------------------------------------------


def _num(x: Any, who: str) -> Any:
    t = type(x)
    if t is int or t is float:
        return x
    raise runtime_error(f"{who}: expected a number, got {type_name(x)} {short(x)}")


def _in_chunks(items: Iterable[Any]) -> Iterator[list[Any]]:
    it = iter(items)
    while chunk := list(_islice(it, CHUNK)):
        yield chunk


def _float_range(start: Any, end: Any, step: Any) -> Iterator[Any]:
    x = start
    if step > 0:
        while x < end:
            yield x
            x = x + step
    else:
        while x > end:
            yield x
            x = x + step


@builtin("range", args=("[]", "[end]", "[start end]", "[start end step]"), category="sequences",
         doc="Numbers from start (default 0) up to but excluding end, by step (default 1); "
             "with no arguments, the infinite sequence 0, 1, 2...",
         ex=(("(range 5)", "(0 1 2 3 4)"), ("(range 1 10 3)", "(1 4 7)"), ("(range 5 0 -2)", "(5 3 1)"),
             ("(take 3 (range))", "(0 1 2)"), ("(range 0 1 0.25)", "(0 0.25 0.5 0.75)")))
def range_(*args: Any) -> Any:
    n = len(args)
    if n == 0:
        return LazySeq(Items(itertools.count(), True, pure=True))
    if n == 1:
        start, end, step = 0, _num(args[0], "range"), 1
    elif n == 2:
        start, end, step = _num(args[0], "range"), _num(args[1], "range"), 1
    elif n == 3:
        start, end, step = _num(args[0], "range"), _num(args[1], "range"), _num(args[2], "range")
    else:
        raise runtime_error(f"range: expected 0 to 3 arguments, got {n}")
    if step == 0:
        if start == end:
            return EMPTY_LIST
        return _lazy(itertools.repeat(start), True)
    if type(start) is int and type(step) is int and (type(end) is int or math.isinf(end) or end != end):
        if type(end) is float:
            if end != end or (end > 0) != (step > 0):
                return EMPTY_LIST
            return _lazy(itertools.count(start, step), True)
        return LazySeq(Ints(range(start, end, step)))
    for x in (start, end, step):
        if x != x:
            return EMPTY_LIST
    span = (end - start) / step
    if span <= 0:
        return EMPTY_LIST
    return LazySeq(Chunks(_in_chunks(_float_range(start, end, step))))


@builtin("repeat", args=("[x]", "[n x]"), category="sequences",
         doc="x repeated n times, or infinitely (lazily) without n.",
         ex=(("(repeat 3 :x)", "(:x :x :x)"), ("(take 2 (repeat 7))", "(7 7)")))
def repeat(a: Any, x: Any = _NO) -> Any:
    if x is _NO:
        return LazySeq(Items(itertools.repeat(a), True, pure=True))
    n = _count_arg(a, "repeat")
    if n <= 0:
        return EMPTY_LIST
    context.check_size(n, "repeat")
    return PList((x,) * n)


@builtin("iterate", shapes=("iterated",), args="[f x]", category="sequences",
         doc="The lazy infinite sequence x, (f x), (f (f x)), ...; f is called only as items are needed.",
         ex=(("(take 4 (iterate inc 0))", "(0 1 2 3)"), ("(take 3 (iterate #(* 2 %) 1))", "(1 2 4)")))
def iterate(f: Any, x: Any) -> LazySeq:
    return LazySeq(Iterated(Iterated.calling(as_fn(f, "iterate")), x))


@builtin("tree-seq", args="[branch? children root]", category="sequences",
         doc="The lazy depth-first (pre-order) walk of a tree: root, then for every node where "
             "(branch? node), the walks of (children node).",
         ex=(("(tree-seq sequential? seq [1 [2 [3]]])", "([1 [2 [3]]] 1 [2 [3]] 2 [3] 3)"),
             ("(filter number? (tree-seq coll? seq {:a [1 {:b 2}]}))", "(1 2)")))
def tree_seq(branch: Any, children: Any, root: Any) -> LazySeq:
    branch, children = as_fn(branch, "tree-seq"), as_fn(children, "tree-seq")

    def walk() -> Iterator[Any]:
        pending = [iter((root,))]  # an explicit stack: deep trees do not use Python's
        while pending:
            for node in pending[-1]:
                yield node
                b = branch(node)
                if b is not None and b is not False:
                    pending.append(iter(iter_seq(children(node), "tree-seq")))
                break
            else:
                pending.pop()

    return _lazy(walk())


@builtin("cycle", args="[coll]", category="sequences",
         doc="The lazy infinite repetition of coll's items (empty if coll is empty).",
         ex=(("(take 5 (cycle [1 2]))", "(1 2 1 2 1)"), ("(cycle [])", "()")))
def cycle(coll: Any) -> LazySeq:
    items = iter_seq(coll, "cycle")
    empty = next(iter(items), _NO) is _NO  # Clojure's cycle takes (seq coll) at once too
    return _lazy(itertools.cycle(items), not empty)


@builtin("repeatedly", args=("[f]", "[n f]"), category="sequences",
         doc="Calls the no-argument fn f n times (lazily and infinitely without n), collecting results.",
         ex=(("(repeatedly 2 (constantly 1))", "(1 1)"), ("(take 2 (repeatedly (constantly :a)))", "(:a :a)")))
def repeatedly(a: Any, f: Any = _NO) -> Any:
    if f is _NO:
        g = as_fn(a, "repeatedly")
        return _lazy((g() for _ in itertools.count()), True)
    n = _count_arg(a, "repeatedly")
    g = as_fn(f, "repeatedly")
    if n <= 0:
        return EMPTY_LIST
    return _lazy(g() for _ in range(_clamp(n)))


# -- combining ---------------------------------------------------------------------------------------


@builtin("concat", args="[& colls]", category="sequences",
         doc="The items of all colls, in order.",
         ex=(("(concat [1 2] '(3) nil [4])", "(1 2 3 4)"), ("(concat)", "()")))
def concat(*colls: Any) -> Any:
    return LazySeq(Chunks((chunk for c in colls for chunk in _chunks_of(c, "concat")), unbounded(*colls)))


@builtin("mapcat", shapes=("eager-mapcat",), args=("[f]", "[f & colls]"), category="sequences",
         doc="Concatenates the collections returned by (f item); with only f, returns a transducer.",
         ex=(("(mapcat reverse [[1 2] [3 4]])", "(2 1 4 3)"),
             ("(mapcat (fn [x] [x x]) [1 2])", "(1 1 2 2)")))
def mapcat(f: Any, *colls: Any) -> Any:
    if not colls:
        return mapcat_xf(f)
    mapped = map_(f, *colls)  # as (apply concat (map f colls)): the results' chunks are kept
    mapped.nth(3)  # apply realizes concat's fixed arguments and checks for more, at once
    return LazySeq(Chunks((chunk for c in mapped for chunk in _chunks_of(c, "mapcat")), unbounded(mapped)))


@builtin("interleave", args="[& colls]", category="sequences",
         doc="The first item of each coll, then the second of each, ... stopping at the shortest.",
         ex=(("(interleave [1 2] [:a :b :c])", "(1 :a 2 :b)"),))
def interleave(*colls: Any) -> Any:
    if not colls:
        return EMPTY_LIST
    its = [iter_seq(c, "interleave") for c in colls]
    return _lazy(_chain.from_iterable(zip(*its)), all(unbounded(c) for c in colls))


@builtin("interpose", args=("[sep]", "[sep coll]"), category="sequences",
         doc="The items of coll separated by sep; with only sep, returns a transducer.",
         ex=(("(interpose \",\" [\"a\" \"b\" \"c\"])", "(\"a\" \",\" \"b\" \",\" \"c\")"),))
def interpose(sep: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return interpose_xf(sep)

    def gen(it: Iterable[Any]) -> Iterator[Any]:
        it = iter(it)
        for x in it:
            yield x
            break
        for x in it:
            yield sep
            yield x

    return _lazy(gen(iter_seq(coll, "interpose")), unbounded(coll))


# -- partitioning ------------------------------------------------------------------------------------


def _degenerate_windows(coll: Any, n: int, step: int, pad: Any, all_: bool, who: str) -> Iterator[PList]:
    """partition/partition-all when n or step is not positive, as Clojure defines them: each
    window is (take n s) and the next starts (nthrest s step) later, so a step <= 0 repeats
    the first window forever (only a prefix can be realized) and n <= 0 gives empty windows."""
    it = iter(iter_seq(coll, who))
    buf: list[Any] = []
    width = max(n, 0)
    while True:
        buf.extend(_islice(it, max(width, 1) - len(buf)))
        if not buf:
            return
        window = buf[:width]
        if len(window) != n and not all_:
            if pad is not _NO:
                yield PList(window + list(_islice(iter_seq(pad, who), width - len(window))))
            return
        if step <= 0:
            while True:
                yield PList(window)
        yield PList(window)
        buf.extend(_islice(it, step - len(buf)))
        del buf[:step]


def _windows(it: Iterable[Any], n: int, step: int, pad: Any, all_: bool) -> Iterator[PList]:
    """Chunks of n items every step items. Partial chunks at the end: padded once (pad),
    all emitted (all_), or dropped. A realized vector or list is sliced, window by window;
    a lazy seq is read a chunk at a time (as Clojure's take and nthrest do)."""
    if type(it) is LazySeq:
        return _chain.from_iterable(_chunk_windows(it.chunks(), n, step, pad, all_))
    return _item_windows(it, n, step, pad, all_)


def _full_windows(buf: Any, i: int, n: int, step: int, limit: int | None = None) -> list[PList]:
    """The windows of n items of buf starting at i, i + step... (at most limit of them) that
    buf holds whole. Small windows are zipped from n strided slices (in C: half the cost of
    slicing each window)."""
    end = len(buf) if limit is None else min(len(buf), i + (limit - 1) * step + n)
    if end - i < n:
        return []
    if n <= 16:
        return list(_pymap(PList, zip(*[buf[i + k:end:step] for k in range(n)])))
    return [PList(buf[j:j + n]) for j in range(i, end - n + 1, step)]


def _item_windows(it: Iterable[Any], n: int, step: int, pad: Any, all_: bool) -> Iterator[PList]:
    if type(it) in _SLICEABLE:
        i = 0
        while block := _full_windows(it, i, n, step, 1024):  # a prefix reads only its first blocks
            yield from block
            i += len(block) * step
        if i < len(it) and (pad is not _NO or all_):
            yield from _item_windows(iter(it[i:]), n, step, pad, all_)
        return
    it = iter(it)
    buf: list[Any] = []
    while True:
        need = n - len(buf)
        if need > 0:
            buf.extend(_islice(it, need))
        if len(buf) < n:
            if not buf:
                return
            if pad is not _NO:
                yield PList(buf + list(_islice(iter_seq(pad, "partition"), n - len(buf))))
                return
            if all_:
                while buf:
                    yield PList(buf)
                    buf = buf[step:]
            return
        yield PList(buf)
        if step >= n:
            skip = step - n
            if skip:
                for _ in _islice(it, skip):
                    pass
            buf = []
        else:
            buf = buf[step:]


def _chunk_windows(chunks: Iterator[list[Any]], n: int, step: int, pad: Any, all_: bool) -> Iterator[list[PList]]:
    """_windows over chunks of items, as a list of the windows each chunk completes (made at
    once, in one comprehension: a window has no effect to order): slices of a buffer of
    what was read."""
    buf: list[Any] = []
    i = 0  # where the next window starts in buf (past its end: items still to skip)
    for chunk in chunks:
        buf.extend(chunk)
        if windows := _full_windows(buf, i, n, step):
            yield windows
            i += len(windows) * step
        if i >= len(buf):
            i -= len(buf)
            buf = []
        elif i > 1024:
            del buf[:i]
            i = 0
    rest = buf[i:]
    if rest:
        if pad is not _NO:
            yield [PList(rest + list(_islice(iter_seq(pad, "partition"), n - len(rest))))]
        elif all_:
            yield [PList(rest[j:]) for j in range(0, len(rest), step)]


@builtin("partition", args=("[n coll]", "[n step coll]", "[n step pad coll]"), category="sequences",
         doc="Lists of n items, each starting step (default n) items after the previous; an "
             "incomplete last chunk is dropped, unless pad is given (then it is filled from pad).",
         ex=(("(partition 2 [1 2 3 4 5])", "((1 2) (3 4))"), ("(partition 3 1 [1 2 3 4])", "((1 2 3) (2 3 4))"),
             ("(partition 2 2 [0] [1 2 3])", "((1 2) (3 0))")))
def partition(n: Any, a: Any, b: Any = _NO, c: Any = _NO) -> Any:
    n = _clamp(_count_arg(n, "partition"))
    if b is _NO:
        step, pad, coll = n, _NO, a
    elif c is _NO:
        step, pad, coll = _clamp(_count_arg(a, "partition")), _NO, b
    else:
        step, pad, coll = _clamp(_count_arg(a, "partition")), b, c
    if n <= 0 or step <= 0:
        return _lazy(_degenerate_windows(coll, n, step, pad, False, "partition"), unbounded(coll))
    return _lazy(_windows(iter_seq(coll, "partition"), n, step, pad, False), unbounded(coll))


@builtin("partition-all", args=("[n]", "[n coll]", "[n step coll]"), category="sequences",
         doc="Like partition, but keeps the incomplete chunks at the end; with only n, returns a transducer.",
         ex=(("(partition-all 2 [1 2 3])", "((1 2) (3))"), ("(into [] (partition-all 2) [1 2 3])", "[[1 2] [3]]")))
def partition_all(n: Any, a: Any = _NO, b: Any = _NO) -> Any:
    if a is _NO:
        return partition_all_xf(n)
    n = _clamp(_count_arg(n, "partition-all"))
    if b is _NO:
        step, coll = n, a
    else:
        step, coll = _clamp(_count_arg(a, "partition-all")), b
    if n <= 0 or step <= 0:
        return _lazy(_degenerate_windows(coll, n, step, _NO, True, "partition-all"), unbounded(coll))
    return _lazy(_windows(iter_seq(coll, "partition-all"), n, step, _NO, True), unbounded(coll))


@builtin("partition-by", args=("[f]", "[f coll]"), category="sequences",
         doc="Splits coll into lists each time (f item) changes; with only f, returns a transducer.",
         ex=(("(partition-by odd? [1 3 2 4 5])", "((1 3) (2 4) (5))"),))
def partition_by(f: Any, coll: Any = _NO) -> Any:
    if coll is _NO:
        return partition_by_xf(f)
    hk = f.hk if type(f) is Keyword and type(f.hk) is str else None  # a field of host rows: read directly
    keyword = type(f) is Keyword
    f = as_fn(f, "partition-by")
    if keyword and type(coll) in _SLICEABLE:  # a keyword has no effect: keys are read a block at a time
        return _lazy(_chain.from_iterable(_keyword_runs(coll, hk, f)))

    def gen(it: Iterable[Any]) -> Iterator[PList]:
        buf: list[Any] = []
        prev: Any = _NO
        for x in it:
            k = x.get(hk) if hk is not None and type(x) is dict else f(x)
            if k is not prev and prev is not _NO and not (k == prev if type(k) is str and type(prev) is str
                                                          else equals(k, prev)):
                yield PList(buf)
                buf = []
            buf.append(x)
            prev = k
        if buf:
            yield PList(buf)

    return _lazy(gen(iter_seq(coll, "partition-by")), unbounded(coll))


_TEXT_KEYS = frozenset({str, type(None)})  # keys for which Python's != is Clojure's not=


def _keyword_runs(coll: Any, hk: str | None, f: Callable[[Any], Any]) -> Iterator[list[PList]]:
    """partition-by of a realized coll by a keyword, as a list of the runs each block of 4,096
    items completes: a block's keys are read in one comprehension and, when they are texts,
    compared in C (a prefix of a long vector still reads only its first blocks)."""
    n, start, prev = len(coll), 0, _NO
    for lo in range(0, n, 4096):
        block = coll[lo:lo + 4096]
        keys = [x.get(hk) if type(x) is _dict else f(x) for x in block] if hk is not None else list(_pymap(f, block))
        if set(_pymap(type, keys)) <= _TEXT_KEYS:
            cuts: Iterable[int] = itertools.compress(range(lo + 1, lo + len(keys)), _pymap(operator.ne, keys[1:], keys[:-1]))
        else:
            cuts = [lo + i for i in range(1, len(keys)) if keys[i] is not keys[i - 1] and not equals(keys[i], keys[i - 1])]
        if prev is not _NO and prev is not keys[0] and not equals(prev, keys[0]):
            cuts = _chain((lo,), cuts)
        bounds = [start, *cuts]  # each run is the slice between two bounds, made in C
        yield list(_pymap(PList, _pymap(coll.__getitem__, _pymap(slice, bounds, bounds[1:]))))
        start = bounds[-1]
        prev = keys[-1]
    if start < n:
        yield [PList(coll[start:n])]


# -- shaping ----------------------------------------------------------------------------------------


@builtin("flatten", args="[x]", category="sequences",
         doc="The non-sequential items of arbitrarily nested lists/vectors, in order (() for anything else).",
         ex=(("(flatten [1 [2 [3 '(4)]] 5])", "(1 2 3 4 5)"), ("(flatten nil)", "()"),
             ("(flatten {:a 1})", "()")))
def flatten(x: Any) -> Any:
    if type(x) not in _SEQUENTIAL:
        return EMPTY_LIST
    seqs = _SEQUENTIAL

    def gen() -> Iterator[Any]:
        stack = [iter(x)]
        visited = 0
        while stack:
            for y in stack[-1]:
                if type(y) in seqs:
                    stack.append(iter(y))
                    visited += 1
                    if visited & 1023 == 0:  # nested (possibly shared) structure: charge the walk
                        context.tick(1024)
                    break
                yield y
            else:
                stack.pop()

    return _lazy(gen())


@builtin("distinct", group_read="distinct", args=("[]", "[coll]"), category="sequences",
         doc="The items of coll without duplicates (first occurrence kept); with no args, a transducer.",
         ex=(("(distinct [1 2 1 3 2])", "(1 2 3)"), ("(distinct [1 1.0 true])", "(1 1.0 true)")))
def distinct(coll: Any = _NO) -> Any:
    if coll is _NO:
        return distinct_xf()
    if (r := _col.distinct(coll)) is not _col.NO:
        return r

    def gen(it: Iterable[Any]) -> Iterator[Any]:
        seen: set[Any] = set()
        add = seen.add
        key = eq_key
        for x in it:
            k = key(x)
            if k not in seen:
                add(k)
                yield x

    return _lazy(gen(iter_seq(coll, "distinct")), unbounded(coll))


@builtin("dedupe", args=("[]", "[coll]"), category="sequences",
         doc="coll with consecutive duplicates removed; with no args, a transducer.",
         ex=(("(dedupe [1 1 2 2 1])", "(1 2 1)"),))
def dedupe(coll: Any = _NO) -> Any:
    if coll is _NO:
        return dedupe_xf()
    return sequence_of(dedupe_xf(), (coll,), "dedupe")  # Clojure's is (sequence (dedupe) coll)


@builtin("reverse", group_read="reverse", consumes=0, args="[coll]", category="sequences",
         doc="The items of coll in reverse order, as a list.",
         ex=(("(reverse [1 2 3])", "(3 2 1)"), ("(reverse nil)", "()")))
def reverse(coll: Any) -> Any:
    if (r := _col.reversed_(coll)) is not _col.NO:
        return r
    items = _items(coll, "reverse")
    return PList(reversed(items))


# -- sorting --------------------------------------------------------------------------------------------


def _compare() -> Callable[[Any, Any], int]:
    from .core_numbers import compare_values

    return compare_values


def _comparator(comp: Any, who: str) -> Callable[[Any, Any], int]:
    """A cmp function from a PTC comparator: a number result (sign is used) or a boolean
    'less than' result (true: a before b), like Clojure's fn-as-Comparator."""
    comp = as_fn(comp, who)

    def cmp(a: Any, b: Any) -> int:
        r = comp(a, b)
        t = type(r)
        if t is int:
            return r
        if t is bool or r is None:
            if r:
                return -1
            return 1 if truthy(comp(b, a)) else 0
        if t is float:
            return -1 if r < 0 else (1 if r > 0 else 0)
        raise runtime_error(f"{who}: comparator must return a number or a boolean, got {type_name(r)} {short(r)}")

    return cmp


_NUMS, _STRS = "num", "str"


def _fast_kind(keys: Any) -> str | None:
    """'num' when all keys are numbers (no NaN, no bools), 'str' when all are strings:
    then plain Python ordering equals `compare`; else None."""
    ts = set(_pymap(type, keys))
    if not ts:
        return None
    if ts <= {int, float}:
        if float in ts and any(k != k for k in keys):
            return None
        return _NUMS
    if ts == {str}:
        return _STRS
    return None


def _tuple_keys(keys: list[Any]) -> list[tuple[Any, ...]] | None:
    """Python tuples that order as `compare` orders these keys, when they are vectors of one
    length (a `juxt` of fields) whose every position holds only numbers (no NaN) or only
    strings; else None."""
    if not keys or type(keys[0]) not in VECTOR_TYPES or not set(_pymap(type, keys)) <= _VECTOR_SET:
        return None
    widths = set(_pymap(len, keys))
    if len(widths) != 1 or not widths.pop():
        return None
    return _column_keys(list(zip(*keys)))


def _column_keys(columns: list[Any]) -> list[tuple[Any, ...]] | None:
    """Python tuples ordering as `compare` orders vectors of these columns' items, when each
    column holds only numbers (no NaN) or only strings; else None."""
    cols = []
    for col in columns:
        kind = _fast_kind(col)
        if kind is None:
            return None
        cols.append(_str_keys(col) if kind is _STRS else col)
    return list(zip(*cols))


_VECTOR_SET = frozenset(VECTOR_TYPES)
_SLICEABLE = frozenset({PList, PVector, list, tuple})


def _str_keys(strs: Any) -> Any:
    """Keys that order strings as Java does: the strings themselves when no character is a
    surrogate or above (code points and UTF-16 units then agree), else their UTF-16 bytes."""
    if max("".join(strs), default="") < "\ud800":
        return strs
    return list(_pymap(_utf16, strs))


def _utf16(s: str) -> bytes:
    """Java compares strings by UTF-16 code units; so do these bytes."""
    return s.encode("utf-16-be", "surrogatepass")


_DIRECTIONS: dict[int, tuple[Any, bool, bool]] = {}


def _literal_comparator(name: str, swapped: bool) -> Callable[[Any, Any], Any]:
    """What a literal comparator `(fn [a b] (name a b))` (swapped: `(name b a)`) compiles to:
    a two-argument function that sort and sort-by recognize, so they sort by plain Python
    ordering instead of calling a program function per comparison."""
    from ..registry import REGISTRY

    op = REGISTRY[name].fn

    def comparator(a: Any, b: Any) -> Any:
        return op(b, a) if swapped else op(a, b)

    comparator.__qualname__ = "ptc:fn"
    return comparator


LITERAL_COMPARATORS: dict[tuple[str, bool], Callable[[Any, Any], Any]] = {}  # filled by _direction


def _direction(comp: Any) -> tuple[bool, bool] | None:
    """(descending, numbers_only) when comp is the builtin compare, < or >, or a literal fn
    that calls one of them on its two arguments (see LITERAL_COMPARATORS), else None."""
    if not _DIRECTIONS:
        from ..registry import REGISTRY

        # not <= / >=: they are inconsistent comparators (equal items swap), left to the cmp path
        for name, desc, nums in (("compare", False, False), ("<", False, True), (">", True, True)):
            b = REGISTRY.get(name)
            if b is not None:
                _DIRECTIONS[id(b.fn)] = (b.fn, desc, nums)
                for swapped in (False, True):
                    f = LITERAL_COMPARATORS[(name, swapped)] = _literal_comparator(name, swapped)
                    _DIRECTIONS[id(f)] = (f, desc != swapped, nums)
    d = _DIRECTIONS.get(id(comp))
    if d is None or d[0] is not comp:
        return None
    return d[1], d[2]


def _order_by_parts(base: list[Any], parts: tuple[tuple[Any, bool], ...]) -> list[int] | None:
    """The positions of base in the order of a comparator that compares vectors of their
    keys (patterns.compared_keys), when every key column holds only numbers (no NaN) or
    only strings: a stable sort per key, the last key first, as the comparator's stable sort
    orders them; else None (the comparator is called)."""
    columns = []
    for key, desc in parts:
        col = base if key is None else kw_values(key, base)
        kind = _fast_kind(col)
        if kind is None:
            return None
        columns.append((_str_keys(col) if kind is _STRS else col, desc))
    order = list(range(len(base)))
    for col, desc in reversed(columns):
        order.sort(key=col.__getitem__, reverse=desc)
    return order


def _sorted(items: list[Any], keys: list[Any] | None, comp: Any, who: str) -> PList:
    n = len(items)
    if n > 50_000:
        context.tick(n)
    direction = (False, False) if comp is _NO else _direction(comp)
    if direction is not None:
        # stable in both directions: Python keeps equal items in input order even with
        # reverse=True, as Clojure does for a boolean comparator like >.
        desc, nums_only = direction
        kind = _fast_kind(items if keys is None else keys)
        if kind is None and not nums_only:
            tuples = _tuple_keys(items if keys is None else keys)
            if tuples is not None:
                order = sorted(range(n), key=tuples.__getitem__, reverse=desc)
                return PList([items[i] for i in order])
        if kind is _NUMS or (kind is _STRS and not nums_only):
            if keys is None:
                if kind is _STRS:
                    ks0 = _str_keys(items)
                    return PList(sorted(items, reverse=desc) if ks0 is items else
                                 [items[i] for i in sorted(range(n), key=ks0.__getitem__, reverse=desc)])
                return PList(sorted(items, reverse=desc))
            ks = _str_keys(keys) if kind is _STRS else keys
            order = sorted(range(n), key=ks.__getitem__, reverse=desc)
            return PList([items[i] for i in order])
    elif (parts := getattr(comp, COMPARED_KEYS_ATTR, None)) is not None:
        order = _order_by_parts(items if keys is None else keys, parts)
        if order is not None:
            return PList([items[i] for i in order])
    if comp is _NO:
        cmp = _compare()
    else:
        cmp = _comparator(comp, who)
    ck = functools.cmp_to_key(cmp)
    if keys is None:
        return PList(sorted(items, key=ck))
    ks2 = [ck(k) for k in keys]
    order = sorted(range(n), key=ks2.__getitem__)
    return PList([items[i] for i in order])


@builtin("sort", group_read="sort", consumes=-1, args=("[coll]", "[comp coll]"), category="sequences",
         doc="The items in ascending `compare` order, or by comp (a fn returning a number, or a "
             "boolean meaning 'a before b'); stable.",
         ex=(("(sort [3 1 2])", "(1 2 3)"), ("(sort > [3 1 2])", "(3 2 1)"),
             ("(sort [\"b\" \"a\"])", "(\"a\" \"b\")"), ("(sort [[2] [1 1] [1]])", "([1] [2] [1 1])")))
def sort(a: Any, b: Any = _NO) -> PList:
    if b is _NO:
        comp, coll = _NO, a
    else:
        comp, coll = a, b
    if type(coll) is Table:  # sorting builds a collection as large as the table
        context.check_size(len(coll), "sort")
    if (r := _col.sorted_by(None, (False, False) if comp is _NO else _direction(comp), coll)) is not _col.NO:
        return r  # type: ignore[no-any-return]
    items = list(_items(coll, "sort"))
    return _sorted(items, None, comp, "sort")


@builtin("sort-by", group_read="sort-by", consumes=-1, args=("[keyfn coll]", "[keyfn comp coll]"), category="sequences",
         doc="The items ordered by (keyfn item) (ascending `compare`, or by comp); stable.",
         ex=(("(sort-by :age [{:age 30} {:age 20}])", "({:age 20} {:age 30})"),
             ("(sort-by count > [\"a\" \"ccc\" \"bb\"])", "(\"ccc\" \"bb\" \"a\")")))
def sort_by(keyfn: Any, a: Any, b: Any = _NO) -> PList:
    if b is _NO:
        comp, coll = _NO, a
    else:
        comp, coll = a, b
    keyfn = as_fn(keyfn, "sort-by")
    if type(coll) is Table:  # sorting builds a collection as large as the table
        context.check_size(len(coll), "sort-by")
    if (r := _col.sorted_by(keyfn, (False, False) if comp is _NO else _direction(comp), coll)) is not _col.NO:
        return r  # type: ignore[no-any-return]
    items = _items(coll, "sort-by")
    parts = getattr(keyfn, KEY_PARTS_ATTR, None)  # (juxt :a :b): the key vectors' columns, without the vectors
    if parts is not None and all(type(p) is Keyword for p in parts) and (comp is _NO or _direction(comp) is not None):
        columns = [kw_values(p, items) for p in parts]
        tuples = _column_keys(columns)
        if tuples is not None and len(items) > 1:
            desc, nums_only = (False, False) if comp is _NO else _direction(comp)  # type: ignore[misc]
            if not nums_only:
                order = sorted(range(len(items)), key=tuples.__getitem__, reverse=desc)
                if len(items) > 50_000:
                    context.tick(len(items))
                return PList([items[i] for i in order])
    keys = kw_values(keyfn, items) if type(keyfn) is Keyword else list(_pymap(keyfn, items))
    return _sorted(list(items), keys, comp, "sort-by")


# -- searching ----------------------------------------------------------------------------------------


@builtin("some", args="[pred coll]", category="sequences",
         doc="The first truthy (pred item), or nil.",
         ex=(("(some even? [1 2 3])", "true"), ("(some #{3} [1 2 3])", "3"), ("(some even? [1 3])", "nil")))
def some(pred: Any, coll: Any) -> Any:
    items = iter(iter_seq(coll, "some"))
    head = next(items, _NO)
    if head is _NO:  # Clojure never looks at pred for an empty coll: (some nil []) is nil
        return None
    pred = as_fn(pred, "some")
    for x in _chain((head,), items):
        r = pred(x)
        if r is not None and r is not False:
            return r
    return None


@builtin("every?", args="[pred coll]", category="sequences",
         doc="True if (pred item) is truthy for every item (true for an empty coll).",
         ex=(("(every? even? [2 4])", "true"), ("(every? even? [])", "true"), ("(every? even? [2 3])", "false")))
def every_p(pred: Any, coll: Any) -> bool:
    pred = as_fn(pred, "every?")
    for x in iter_seq(coll, "every?"):
        r = pred(x)
        if r is None or r is False:
            return False
    return True


@builtin("not-any?", args="[pred coll]", category="sequences",
         doc="True if (pred item) is falsey for every item.",
         ex=(("(not-any? odd? [2 4])", "true"), ("(not-any? odd? [1 2])", "false")))
def not_any_p(pred: Any, coll: Any) -> bool:
    return some(pred, coll) is None


@builtin("not-every?", args="[pred coll]", category="sequences",
         doc="True if (pred item) is falsey for at least one item.",
         ex=(("(not-every? odd? [1 2])", "true"), ("(not-every? odd? [1 3])", "false")))
def not_every_p(pred: Any, coll: Any) -> bool:
    return not every_p(pred, coll)


# -- apply / realization --------------------------------------------------------------------------------


@builtin("apply", group_read="apply", shapes=("extreme",), consumes=-1, args=("[f args]", "[f x args]", "[f x y & more-then-args]"), category="sequences",
         doc="Calls f with the given args followed by the items of the last argument (a collection).",
         ex=(("(apply + [1 2 3])", "6"), ("(apply + 1 2 [3 4])", "10"), ("(apply max [3 7 2])", "7"),
             ("(apply str [\"a\" \"b\"])", "\"ab\"")))
def apply_(f: Any, *args: Any) -> Any:
    if not args:
        raise runtime_error("apply: expected a function and an argument collection",
                            hint="(apply f coll) calls f with the items of coll as arguments")
    f = as_fn(f, "apply")
    last = args[-1]
    if len(args) == 1 and (r := _col.applied(f, last)) is not _col.NO:
        return r
    t = type(last)
    if t in _REAL:
        rest = last
    else:
        rest = _items(last, "apply")
    _charge(len(rest))  # spreading a big collection as arguments copies it
    if len(args) == 1:
        return f(*rest)
    return f(*args[:-1], *rest)


@builtin("doall", group_read="same", args=("[coll]", "[n coll]"), category="sequences",
         doc="Realizes a lazy sequence (the first n items with n) and returns it.",
         ex=(("(doall (map inc [1 2]))", "(2 3)"), ("(doall (take 3 (range)))", "(0 1 2)")))
def doall(a: Any, b: Any = _NO) -> Any:
    if b is _NO:
        if type(a) is LazySeq:
            return a.realize()
        return a
    n = _count_arg(a, "doall")
    if type(b) is LazySeq and n > 0:
        b.nth(_clamp(n))
    return b


@builtin("run!", args="[proc coll]", category="sequences",
         doc="Calls (proc item) for every item, for its side effects; returns nil.",
         ex=(("(run! println [1 2])", "nil"),))
def run_bang(proc: Any, coll: Any) -> None:
    proc = as_fn(proc, "run!")
    for x in iter_seq(coll, "run!"):
        if proc(x).__class__ is Reduced:  # Clojure's run! is a reduce: reduced stops it
            break
    return None


@builtin("bounded-count", args="[n coll]", category="sequences",
         doc="The count of coll if it is counted, else the count of at most its first n items "
             "(a lazy seq is realized only that far).",
         ex=(("(bounded-count 5 (range))", "5"), ("(bounded-count 5 [1 2 3 4 5 6 7])", "7")))
def bounded_count(n: Any, coll: Any) -> int:
    if type(coll) is not LazySeq:
        return _count(coll)
    n = _clamp(_count_arg(n, "bounded-count"))
    return builtins.sum(1 for _ in _islice(iter_seq(coll, "bounded-count"), max(n, 0)))


_ITERATION_OPTS = frozenset({"somef", "vf", "kf", "initk"})


@builtin("iteration", args="[step & {:keys [somef vf kf initk]}]", category="sequences",
         doc="The lazy seq of a paginated source: ret = (step k), starting from initk (nil); while "
             "(somef ret) (some?), yields (vf ret) (identity) and continues with k = (kf ret) (identity) "
             "unless that is nil. For tools that return one page and the next page's token.",
         ex=(("(vec (iteration (fn [k] (when (< k 3) {:n k :next (inc k)})) :initk 0 :vf :n :kf :next))",
              "[0 1 2]"),))
def iteration(step: Any, *opts: Any) -> LazySeq:
    step = as_fn(step, "iteration")
    if len(opts) == 1 and type(opts[0]) in MAP_TYPES:
        opts = tuple(x for kv in map_items(opts[0]) for x in kv)
    if len(opts) % 2:
        raise runtime_error("iteration: options come in pairs, e.g. :initk 0 :kf :next")
    given = {}
    for k, v in zip(opts[0::2], opts[1::2]):
        if type(k) is not Keyword or k.name not in _ITERATION_OPTS:
            raise runtime_error(f"iteration: unknown option {short(k)}", hint="options: :somef :vf :kf :initk")
        given[k.name] = v
    somef = as_fn(given["somef"], "iteration") if "somef" in given else None
    vf = as_fn(given["vf"], "iteration") if "vf" in given else None
    kf = as_fn(given["kf"], "iteration") if "kf" in given else None

    def pages() -> Iterator[Any]:
        ret = step(given.get("initk"))
        while True:
            ok = ret is not None if somef is None else somef(ret)
            if ok is None or ok is False:
                return
            yield ret if vf is None else vf(ret)
            k = ret if kf is None else kf(ret)
            if k is None:
                return
            ret = step(k)

    return _lazy(pages())


@builtin("dorun", args=("[coll]", "[n coll]"), category="sequences",
         doc="Realizes a lazy sequence (for its side effects) and returns nil.",
         ex=(("(dorun (map inc [1 2]))", "nil"),))
def dorun(a: Any, b: Any = _NO) -> None:
    doall(a, b)
    return None


__all__ = ["eq_key", "kw_values", "map_", "filter_", "reduce_", "apply_", "range_"]
