"""Collections and maps: constructors, conj/assoc/get families, seq access, grouping.

Conventions:
- Host data (plain dicts, lists, sets from the caller or a tool) is read where it is; a write
  (assoc, conj, update, dissoc, into...) builds a PTC collection from it first (`pmap`,
  `pvec`, `pset`), so the caller's objects never change.
- `rest`/`next`/`seq` of a large vector or list is an O(1) view (a LazySeq reading the
  original), so `(loop [xs v] ... (recur (rest xs)))` stays linear.
"""

from __future__ import annotations

import itertools
import math
import types
from collections import Counter, defaultdict
from typing import Any

from .. import context
from .. import lazy
from ..patterns import KEY_PARTS_ATTR
from ..runtime import rt
from ..errors import runtime_error
from ..registry import alias, builtin
from ..sorted import SortedMap, SortedSet
from ..values import (
    EMPTY_LIST,
    EMPTY_MAP,
    EMPTY_QUEUE,
    EMPTY_SET,
    EMPTY_VECTOR,
    NO_HOST_KEY,
    SMALL,
    FMap,
    FSet,
    HMap,
    HSet,
    Keyword,
    LazySeq,
    MapEntry,
    PList,
    PQueue,
    PVector,
    Record,
    as_fn,
    as_key,
    contains_key,
    count as _count,
    host_key,
    host_slot,
    iter_all,
    iter_seq,
    lookup,
    make_set,
    map_get,
    map_items,
    map_keys,
    map_of,
    nth as _nth,
    pmap,
    ptc_dict,
    pvec,
    pvector,
    set_conj,
    set_disj,
    short,
    type_name,
    vec,
    MAP_TYPES,
    SET_TYPES,
    VECTOR_TYPES,
)
from ..columnar import dispatch as _col
from ..table import Row, Table
from ..values import assoc as _massoc
from ..values import dissoc as _mdissoc
from . import inline

_MISSING = object()
_dset = dict.__setitem__
_DIRECT_FNS = frozenset({types.FunctionType, types.BuiltinFunctionType, types.MethodType, Keyword, FMap, FSet, HSet})
_VIEW_MIN = 32  # sequences longer than this get O(1) rest/seq views instead of copies
_BIG = 4096

_MAPS = MAP_TYPES
_SETS = SET_TYPES
_VECS = VECTOR_TYPES
_INDEXED = frozenset(VECTOR_TYPES) | {PList, PQueue, str}  # realized, indexable, len() known


def _desc(x: Any) -> str:
    return f"{type_name(x)} {short(x)}"


def _guard(n: int, what: str = "collection") -> None:
    """Refuse a collection growing past max_collection (no memory charge)."""
    if n > context.CURRENT.limits.max_collection:
        context.check_size(n, what)


def _big(n: int, what: str = "collection") -> None:
    if n > _BIG:
        context.check_size(n, what)


# -- constructors ---------------------------------------------------------------------


@builtin("list", args="[& items]", category="collections",
         doc="A list of the arguments.", ex=(("(list 1 2 3)", "(1 2 3)"), ("(list)", "()")))
def list_(*items: Any) -> PList:
    return PList(items)


@builtin("vector", args="[& items]", category="collections",
         doc="A vector of the arguments.", ex=(("(vector 1 2 3)", "[1 2 3]"),))
def vector(*items: Any) -> Any:
    return pvector(items)


@builtin("vec", group_read="vec", consumes=0, args="[coll]", category="collections",
         doc="A vector of the items of coll (a map gives [k v] entries).",
         ex=(("(vec '(1 2 3))", "[1 2 3]"), ("(vec {:a 1})", "[[:a 1]]"), ("(vec nil)", "[]")))
def vec_(coll: Any) -> Any:
    t = type(coll)
    if t is PVector:
        return coll
    if coll is None:
        return EMPTY_VECTOR
    if t in _INDEXED or t in _MAPS or t in _SETS:
        _big(len(coll), "vec")
    return pvector(iter_all(coll, "vec"))


def _pairs_from_kvs(kvs: tuple[Any, ...], who: str) -> dict[Any, Any]:
    if len(kvs) % 2:
        raise runtime_error(f"{who}: no value supplied for key {short(kvs[-1])}")
    d: dict[Any, Any] = {}
    for i in range(0, len(kvs), 2):
        d[as_key(kvs[i])] = kvs[i + 1]
    return d


_map_of = map_of


@builtin("hash-map", args="[& kvs]", category="maps",
         doc="A map of the key/value argument pairs (PTC maps keep insertion order).",
         ex=(("(hash-map :a 1)", "{:a 1}"), ("(get (hash-map :a 1 :b 2) :b)", "2")))
def hash_map(*kvs: Any) -> Any:
    return _map_of(_pairs_from_kvs(kvs, "hash-map"))


@builtin("array-map", args="[& kvs]", category="maps",
         doc="A map of the key/value argument pairs, in argument order.",
         ex=(("(array-map :b 1 :a 2)", "{:b 1, :a 2}"),))
def array_map(*kvs: Any) -> Any:
    return _map_of(_pairs_from_kvs(kvs, "array-map"))


@builtin("hash-set", args="[& items]", category="sets",
         doc="A set of the arguments.",
         ex=(("(hash-set 1 1)", "#{1}"), ("(count (hash-set 1 2 1))", "2")))
def hash_set(*items: Any) -> Any:
    _big(len(items), "hash-set")
    return make_set(items)


@builtin("set", group_read="distinct", consumes=0, args="[coll]", category="sets",
         doc="A set of the distinct items of coll.",
         ex=(("(set [1 1])", "#{1}"), ("(count (set [1 2 1 3]))", "3"), ("(set nil)", "#{}")))
def to_set(coll: Any) -> Any:
    t = type(coll)
    if t is FSet or t is HSet:
        return coll
    if coll is None:
        return EMPTY_SET
    return make_set(iter_all(coll, "set"))


@builtin("boolean", args="[x]", category="predicates",
         doc="true unless x is nil or false.",
         ex=(("(boolean 0)", "true"), ("(boolean nil)", "false")))
def boolean(x: Any) -> bool:
    return x is not None and x is not False


# -- conj / cons / into ---------------------------------------------------------------


def _map_entries(item: Any, who: str) -> Any:
    t = type(item)
    if t is MapEntry or (t in _VECS and len(item) == 2):
        return (item,)
    if t in _MAPS:
        return map_items(item)
    if item is None:
        return ()
    if t in _VECS:
        raise runtime_error(f"{who}: a vector added to a map must be a [key value] pair, got {short(item)}")
    raise runtime_error(f"{who}: can only add maps or [key value] pairs to a map, got {_desc(item)}")


def _map_put_all(m: Any, items: Any, who: str, combine: Any = None) -> Any:
    """m with every entry of `items` (maps, [k v] vectors or nil) added; later wins
    (or combine(old, new) when given and the key exists)."""
    m = pmap(m)
    if type(m) is SortedMap:  # sorted: the entries in order (all at once when they just replace)
        if combine is None:
            return m.merged((as_key(k), v) for item in items for k, v in _map_entries(item, who))
        for item in items:
            for k, v in _map_entries(item, who):
                old = m.get(k, _MISSING)
                m = m.assoc(k, v if old is _MISSING else combine(old, v))
        return m
    if type(m) is HMap:  # persistent big map: per-entry set is cheap
        r = m
        for item in items:
            for k, v in _map_entries(item, who):
                k = as_key(k)
                if combine is not None:
                    old = r.get(k, _MISSING)
                    if old is not _MISSING:
                        v = combine(old, v)
                r = r.set(k, v)
        _guard(len(r))
        return r
    d = dict(m)
    for item in items:
        if combine is None:
            t = type(item)
            if t is MapEntry or (t in _VECS and len(item) == 2):
                d[as_key(item[0])] = item[1]
            elif t is FMap or t is HMap:
                d.update(item.items())
            else:
                d.update((as_key(k), v) for k, v in _map_entries(item, who))
        else:
            get = d.get
            for k, v in _map_entries(item, who):
                k = as_key(k)
                old = get(k, _MISSING)
                d[k] = v if old is _MISSING else combine(old, v)
    _guard(len(d))
    return FMap(d) if len(d) <= SMALL else HMap(d)


def _conj1(coll: Any, x: Any) -> Any:
    t = type(coll)
    if t is PVector:
        n = len(coll)
        if n > _BIG and (n & 1023) == 0:
            _guard(n + 1)
        return coll.append(x)
    if t is list or t is tuple or t is Table:
        _big(len(coll) + 1, "conj")
        return pvector(coll).append(x)
    if t in _MAPS:
        tx = type(x)
        if tx is MapEntry or (tx in _VECS and len(x) == 2):
            r = _massoc(coll, x[0], x[1])
            if type(r) is HMap and (len(r) & 1023) == 0:
                _guard(len(r))
            return r
        return _map_put_all(coll, (x,), "conj")
    if t in _SETS:
        r = set_conj(coll, x)
        if type(r) is HSet and (len(r) & 1023) == 0:
            _guard(len(r))
        return r
    if t is PList:
        if len(coll) > _BIG and (len(coll) & 1023) == 0:
            _guard(len(coll) + 1)
        return PList((x,) + coll)
    if coll is None:
        return PList((x,))
    if t is LazySeq:
        return lazy.cons(x, coll)
    if t is MapEntry:
        return pvector(coll).append(x)
    if t is PQueue:
        if len(coll) > _BIG and (len(coll) & 1023) == 0:
            _guard(len(coll) + 1)
        return coll.conj(x)
    raise runtime_error(f"conj: cannot add to {_desc(coll)}")


@builtin("conj", inline=inline.conj, args=("[]", "[coll]", "[coll x & xs]"), category="collections",
         doc="Add items the natural way: vectors at the end, lists at the front, maps take [k v] pairs or maps, sets add.",
         ex=(("(conj [1 2] 3 4)", "[1 2 3 4]"), ("(conj '(1 2) 3)", "(3 1 2)"),
             ("(conj {:a 1} [:b 2])", "{:a 1, :b 2}"), ("(conj nil 1)", "(1)")))
def conj(*args: Any) -> Any:
    if not args:
        return EMPTY_VECTOR
    coll = args[0]
    if len(args) == 2:
        return _conj1(coll, args[1])
    if len(args) == 1:
        return coll
    t = type(coll)
    if t is PVector or t is list or t is tuple or t is Table:
        _guard(len(coll) + len(args) - 1)
        return pvec(coll).extend(args[1:])
    for x in args[1:]:
        coll = _conj1(coll, x)
    return coll


@builtin("cons", args="[x coll]", category="collections",
         doc="A sequence with x in front of the items of coll.",
         ex=(("(cons 1 [2 3])", "(1 2 3)"), ("(cons 1 nil)", "(1)")))
def cons(x: Any, coll: Any) -> Any:
    t = type(coll)
    if t is PList:
        return PList((x,) + coll)
    if coll is None:
        return PList((x,))
    if t is LazySeq:
        return lazy.cons(x, coll)
    if t in _INDEXED:
        _big(len(coll) + 1, "cons")
        return PList((x,) + tuple(coll))
    return PList(itertools.chain((x,), iter_seq(coll, "cons")))


def _into(to: Any, items: Any, who: str = "into") -> Any:
    t = type(to)
    n = _count_or0(items)  # realized input: refuse oversize results before building them
    if n > _BIG:
        context.check_size(n + _count_or0(to), who)
    if t is PVector or t is list or t is tuple or t is Table:
        if items is None:
            return to
        r = pvec(to).extend(iter_all(items, who))
        _guard(len(r))
        return r
    if t in _MAPS:
        return _map_put_all(to, iter_all(items, who), who)
    if t in _SETS:
        src = list(iter_all(items, who))
        if t is SortedSet:
            return to.union(src)
        if t is HSet:
            if len(src) < 256:
                r = to
                for x in src:
                    r = set_conj(r, x)
                _guard(len(r))
                return r
        s = set(to) if t is FSet else set(make_set(to))
        s.update(src if set(map(type, src)) <= _PLAIN_KEY_TYPES else map(as_key, src))
        _guard(len(s))
        return make_set(s)
    if t is PList or to is None or t is LazySeq:
        src = list(iter_all(items, who))
        src.reverse()
        if to is None:
            return PList(src)
        _guard(len(src) + len(to))
        return PList(itertools.chain(src, to))
    if t is MapEntry:
        return _into(pvector(to), items, who)
    if t is PQueue:
        for x in iter_all(items, who):
            to = _conj1(to, x)
        return to
    raise runtime_error(f"{who}: cannot add to {_desc(to)}")


def _count_or0(x: Any) -> int:
    t = type(x)
    if t is LazySeq or x is None:
        return 0
    try:
        return len(x)
    except TypeError:
        return 0


@builtin("into", shapes=("grouped-for", "into-map-for"), consumes=1, args=("[]", "[to]", "[to from]", "[to xform from]"), category="collections",
         doc="Add every item of from to the collection to (conj semantics), optionally through a transducer.",
         ex=(("(into [] '(1 2 3))", "[1 2 3]"), ("(into {} [[:a 1] [:b 2]])", "{:a 1, :b 2}"),
             ("(into [1] (map inc) [1 2])", "[1 2 3]"), ("(into '(1) [2 3])", "(3 2 1)")))
def into(*args: Any) -> Any:
    n = len(args)
    if n == 2:
        return _into(args[0], args[1])
    if n == 0:
        return EMPTY_VECTOR
    if n == 1:
        return args[0]
    if n == 3:
        from .transducers import apply_xform

        f = getattr(args[1], "mapped", None)
        if f is not None:  # a map transducer: the same items in the same order, so map's own fast
            from .core_sequences import map_  # forms (a fn over a table's groups as folds) serve

            return _into(args[0], map_(f, args[2]))
        return apply_xform(args[1], args[2], lambda items: _into(args[0], items))
    raise runtime_error(f"into: wrong number of arguments ({n})")


# -- assoc / dissoc / update ----------------------------------------------------------


def _assoc1(m: Any, k: Any, v: Any) -> Any:
    if isinstance(m, Record):  # a fitted model is read-only: assoc gives a plain map of its fields
        m = m.fields
    t = type(m)
    if t is FMap or t is dict or t is SortedMap or t is Row:
        return _massoc(m, k, v)
    if t is HMap:
        r = m.set(as_key(k), v)
        if (len(r) & 1023) == 0:
            _guard(len(r))
        return r
    if m is None:
        return FMap({as_key(k): v})
    if t in _VECS:
        if type(k) is not int:
            raise runtime_error(f"assoc: vector index must be an integer, got {_desc(k)}")
        n = len(m)
        if 0 <= k < n:
            return pvec(m).set(k, v)
        if k == n:
            if n > _BIG and (t is not PVector or (n & 1023) == 0):
                _guard(n + 1)
            return pvec(m).append(v)
        raise runtime_error(f"assoc: index {k} out of bounds for vector of length {n}")
    raise runtime_error(f"assoc: expected a map or vector, got {_desc(m)}")


@builtin("assoc", row_map="assoc", inline=inline.assoc, args="[m k v & kvs]", category="maps",
         doc="m with key k set to v (more pairs allowed); on a vector, index k (<= count) is replaced or appended.",
         ex=(("(assoc {:a 1} :b 2)", "{:a 1, :b 2}"), ("(assoc [1 2] 0 9)", "[9 2]"),
             ("(assoc nil :a 1 :b 2)", "{:a 1, :b 2}")))
def assoc(m: Any, k: Any, v: Any, *kvs: Any) -> Any:
    if type(m) is FMap and not kvs and type(k) in _PLAIN_KEY_TYPES and (len(m) < SMALL or k in m):
        n = FMap(m)  # hot path: small record
        _dset(n, k, v)
        return n
    m = _assoc1(m, k, v)
    if kvs:
        if len(kvs) % 2:
            raise runtime_error("assoc: expects an even number of arguments after the map (key value pairs)")
        for i in range(0, len(kvs), 2):
            m = _assoc1(m, kvs[i], kvs[i + 1])
    return m


def _ks_list(ks: Any, who: str) -> Any:
    t = type(ks)
    if t in _INDEXED and t is not str:
        return ks
    if ks is None:
        return ()
    if t is LazySeq:
        return tuple(ks)
    raise runtime_error(f"{who}: the key path must be a vector, got {_desc(ks)}")


def _assoc_in(m: Any, ks: Any, i: int, v: Any) -> Any:
    k = ks[i]
    if i == len(ks) - 1:
        return _assoc1(m, k, v)
    return _assoc1(m, k, _assoc_in(lookup(m, k), ks, i + 1, v))


@builtin("assoc-in", args="[m ks v]", category="maps",
         doc="m with the value at the key path ks set to v, creating maps for missing levels.",
         ex=(("(assoc-in {:a {:b 1}} [:a :c] 2)", "{:a {:b 1, :c 2}}"),
             ("(assoc-in {} [:x :y] 1)", "{:x {:y 1}}")))
def assoc_in(m: Any, ks: Any, v: Any) -> Any:
    ks = _ks_list(ks, "assoc-in")
    if not ks:
        ks = (None,)  # Clojure: (assoc-in m [] v) is (assoc m nil v)
    return _assoc_in(m, ks, 0, v)


@builtin("dissoc", row_map="dissoc", args="[m & ks]", category="maps",
         doc="m without the given keys.",
         ex=(("(dissoc {:a 1 :b 2} :a)", "{:b 2}"), ("(dissoc {:a 1 :b 2 :c 3} :a :c)", "{:b 2}")))
def dissoc(m: Any, *ks: Any) -> Any:
    if type(m) in _MAPS:
        for k in ks:
            m = _mdissoc(m, k)
        return m
    if m is None:
        return None
    raise runtime_error(f"dissoc: expected a map, got {_desc(m)}")


def _update1(m: Any, k: Any, f: Any, args: tuple[Any, ...]) -> Any:
    t = type(m)
    if t is Row:  # a table's row: a small one as a host row (see Row.host_dict), else a PTC map
        m = m.host_dict(SMALL) or pmap(m)
        t = type(m)
    if t is dict:  # a host row: one copy (see host_slot), updated in place before it is shared
        hk = host_slot(m, k)
        if hk is not NO_HOST_KEY:
            d = m.copy()
            d[hk] = (f if type(f) in _DIRECT_FNS else as_fn(f, "update"))(m.get(hk), *args)
            return d
        d = ptc_dict(m, FMap if len(m) < SMALL else dict)
        dict.__setitem__(d, k, (f if type(f) in _DIRECT_FNS else as_fn(f, "update"))(d.get(k), *args))
        return d if type(d) is FMap else map_of(d)
    if t is SortedMap:
        return m.assoc(k, as_fn(f, "update")(m.get(k), *args))
    if t is FMap or t is HMap:
        old = m.get(k, _MISSING)
        if old is _MISSING:
            old = None
            if type(f) not in _DIRECT_FNS:
                f = as_fn(f, "update")
            nv = f(old, *args)
            if t is FMap:
                return _massoc(m, k, nv)
        else:
            if type(f) not in _DIRECT_FNS:
                f = as_fn(f, "update")
            nv = f(old, *args)
            if t is FMap:
                n = FMap(m)  # existing key: same size
                _dset(n, k, nv)
                return n
        r = m.set(k, nv)
        if (len(r) & 1023) == 0:
            _guard(len(r))
        return r
    if m is None:
        return FMap({k: as_fn(f, "update")(None, *args)})
    if t in _VECS:
        return _assoc1(m, k, as_fn(f, "update")(lookup(m, k), *args))
    raise runtime_error(f"update: expected a map or vector, got {_desc(m)}")


@builtin("update", row_map="update", args="[m k f & args]", category="maps",
         doc="m with the value at k replaced by (f old-value args...).",
         ex=(("(update {:a 1} :a inc)", "{:a 2}"), ("(update {:a 1} :a + 10)", "{:a 11}"),
             ("(update [1 2] 1 inc)", "[1 3]")))
def update(m: Any, k: Any, f: Any, *args: Any) -> Any:
    return _update1(m, _guard_key(k), f, args)


def _update_in(m: Any, ks: Any, i: int, f: Any, args: tuple[Any, ...]) -> Any:
    k = _guard_key(ks[i])
    if i == len(ks) - 1:
        return _update1(m, k, f, args)
    return _assoc1(m, k, _update_in(lookup(m, k), ks, i + 1, f, args))


class _Owned(dict):  # type: ignore[type-arg]
    """An inner map of a transient reduce's accumulator that the loop made or copied: its own,
    changed in place (see owned_path)."""


@rt
def owned_path(d: dict[Any, Any], ks: tuple[Any, ...]) -> tuple[dict[Any, Any], Any] | None:
    """For `(update-in acc ks f args...)` or `(assoc-in acc ks x)` on a transient reduce's
    private dict d: the map that
    holds the path's last key, and that key, when every value on the path is a map or
    missing. The maps on the way are the loop's own, copied at their first touch and changed in
    place, instead of a new map per level per item (`owned_maps` makes them maps at the end);
    None when a value on the path is not a map (then `update_in_owned` or `assoc_in_owned`)."""
    m = d
    for k in ks[:-1]:
        k = _guard_key(k)
        inner = m.get(k)
        if type(inner) is not _Owned:
            t = type(inner)
            if inner is None:
                inner = _Owned()
            elif t is FMap or t is HMap:
                inner = _Owned(inner.items())
            elif t is dict:
                inner = _Owned((host_key(hk), x) for hk, x in inner.items())
            else:
                return None
            n = len(m)
            m[k] = inner
            if len(m) != n and (len(m) & 1023) == 0:
                _guard(len(m))
        m = inner
    return m, _guard_key(ks[-1])


def _first_unowned(d: dict[Any, Any], ks: tuple[Any, ...]) -> tuple[dict[Any, Any], Any, Any, int]:
    """After owned_path found a value on the path that is not a map: the owned map holding it,
    its key, the value and its level."""
    m = d
    for i, k in enumerate(ks[:-1]):
        k = _guard_key(k)
        inner = m.get(k)
        if type(inner) is not _Owned:
            return m, k, inner, i
        m = inner
    raise AssertionError("owned_path found every value on the path a map")


@rt
def update_in_owned(d: dict[Any, Any], ks: tuple[Any, ...], f: Any, args: tuple[Any, ...]) -> None:
    """The update-in when owned_path found a value on the path that is not a map: the
    persistent update-in from that value on."""
    m, k, inner, i = _first_unowned(d, ks)
    m[k] = _update_in(inner, ks, i + 1, as_fn(f, "update-in"), args)


@rt
def assoc_in_owned(d: dict[Any, Any], ks: tuple[Any, ...], x: Any) -> None:
    """The assoc-in when owned_path found a value on the path that is not a map."""
    m, k, inner, i = _first_unowned(d, ks)
    m[k] = _assoc_in(inner, ks, i + 1, x)


@rt
def owned_maps(d: dict[Any, Any]) -> dict[Any, Any]:
    """d with every map owned_path made in it a PTC map (in place; d itself stays a dict)."""
    for k, x in d.items():
        if type(x) is _Owned:
            d[k] = map_of(owned_maps(x))
    return d


@builtin("update-in", inline=inline.update_in, args="[m ks f & args]", category="maps",
         doc="m with the value at the key path ks replaced by (f old-value args...).",
         ex=(("(update-in {:a {:b 1}} [:a :b] inc)", "{:a {:b 2}}"),
             ("(update-in {} [:a :n] (fnil inc 0))", "{:a {:n 1}}")))
def update_in(m: Any, ks: Any, f: Any, *args: Any) -> Any:
    ks = _ks_list(ks, "update-in")
    if not ks:
        ks = (None,)
    f = as_fn(f, "update-in")
    return _update_in(m, ks, 0, f, args)


@builtin("update-vals", shapes=("grouped-fold", "groups-updated"), args="[m f]", category="maps",
         doc="m with f applied to every value.",
         ex=(("(update-vals {:a 1 :b 2} inc)", "{:a 2, :b 3}"),))
def update_vals(m: Any, f: Any) -> Any:
    if m is None:
        return EMPTY_MAP
    if type(m) not in _MAPS:
        raise runtime_error(f"update-vals: expected a map, got {_desc(m)}")
    f = as_fn(f, "update-vals")
    if (r := _col.over_groups(f, m, "group", "update-vals")) is not _col.NO:
        return r
    d = {k: f(v) for k, v in map_items(m)}
    return _map_of(d)


@builtin("update-keys", args="[m f]", category="maps",
         doc="m with f applied to every key.",
         ex=(("(update-keys {:a 1 :b 2} name)", "{\"a\" 1, \"b\" 2}"),))
def update_keys(m: Any, f: Any) -> Any:
    if m is None:
        return EMPTY_MAP
    if type(m) not in _MAPS:
        raise runtime_error(f"update-keys: expected a map, got {_desc(m)}")
    f = as_fn(f, "update-keys")
    d = {_guard_key(f(k)): v for k, v in map_items(m)}
    return _map_of(d)


# -- lookup ---------------------------------------------------------------------------


@builtin("get", inline=inline.get_key, pure=True, args=("[m k]", "[m k not-found]"), category="maps",
         doc="The value at key k in a map (index in a vector/string, member of a set), else not-found or nil.",
         ex=(("(get {:a 1} :a)", "1"), ("(get {:a 1} :b 0)", "0"), ("(get [10 20] 1)", "20"),
             ("(get {\"name\" \"Ann\"} \"name\")", "\"Ann\"")))
def get(m: Any, k: Any, default: Any = None) -> Any:
    return lookup(m, k, default)


@builtin("get-in", inline=inline.get_in, pure=True, args=("[m ks]", "[m ks not-found]"), category="maps",
         doc="The value at the key path ks, else not-found or nil.",
         ex=(("(get-in {:a {:b 1}} [:a :b])", "1"), ("(get-in {:a {}} [:a :b] 0)", "0"),
             ("(get-in {:a [{:b 5}]} [:a 0 :b])", "5")))
def get_in(m: Any, ks: Any, default: Any = _MISSING) -> Any:
    ks = _ks_list(ks, "get-in")
    if default is _MISSING:
        for k in ks:
            if m is None:
                return None
            m = lookup(m, k)
        return m
    for k in ks:
        m = lookup(m, k, _MISSING)
        if m is _MISSING:
            return default
    return m


@builtin("contains?", pure=True, args="[coll k]", category="collections",
         doc="true if coll has key k (a map key, a set member, or a valid vector index) - not a value search.",
         ex=(("(contains? {:a 1} :a)", "true"), ("(contains? #{1 2} 3)", "false"),
             ("(contains? [5 6] 1)", "true")))
def contains(coll: Any, k: Any) -> bool:
    return contains_key(coll, k)


@builtin("find", args="[m k]", category="maps",
         doc="The [key value] entry for k in m, or nil.",
         ex=(("(find {:a 1 :b 2} :b)", "[:b 2]"), ("(find {:a 1} :z)", "nil")))
def find(m: Any, k: Any) -> Any:
    k = _guard_key(k)
    t = type(m)
    if t in _MAPS:
        v = map_get(m, k, _MISSING)
        return None if v is _MISSING else MapEntry((k, v))
    if m is None:
        return None
    if t in _VECS:
        if type(k) is int and 0 <= k < len(m):
            return MapEntry((k, m[k]))
        return None
    raise runtime_error(f"find: expected a map or vector, got {_desc(m)}")


@builtin("keys", args="[m]", category="maps",
         doc="A sequence of the keys of m, or of a sequence of map entries (nil when empty).",
         ex=(("(keys {:a 1 :b 2})", "(:a :b)"), ("(keys {})", "nil"),
             ("(keys (filter (fn [[k v]] (odd? v)) {:a 1 :b 2}))", "(:a)")))
def keys(m: Any) -> Any:
    if isinstance(m, Record):  # a fitted model: the names of its fields
        m = m.fields
    if type(m) in _MAPS:
        return PList(map_keys(m)) if m else None
    return _entry_parts(m, 0, "keys")


@builtin("vals", args="[m]", category="maps",
         doc="A sequence of the values of m, or of a sequence of map entries (nil when empty).",
         ex=(("(vals {:a 1 :b 2})", "(1 2)"), ("(vals {})", "nil"), ("(vals (sort-by val {:a 2 :b 1}))", "(1 2)")))
def vals(m: Any) -> Any:
    if type(m) in _MAPS:
        return PList(m.values()) if m else None
    return _entry_parts(m, 1, "vals")


def _entry_parts(coll: Any, part: int, who: str) -> Any:
    """keys/vals of what is not a map, as Clojure's KeySeq/ValSeq: nil when empty (a string or
    vector too), else lazily the key or value of each item, which must be a map entry."""
    if seq(coll) is None:
        return None

    def each(chunk: list[Any]) -> list[Any]:
        for e in chunk:
            if type(e) is not MapEntry:
                raise runtime_error(f"{who}: expected a map or a sequence of map entries, got {_desc(coll)}",
                                    hint=f"({who} m) takes a map; (seq m), (filter ... m) and (sort-by ... m) "
                                         "give sequences of entries it takes too")
        return [e[part] for e in chunk]

    return LazySeq(lazy.Mapped(lazy.source_of(coll, 0, who), each))


def _entry(e: Any, who: str) -> Any:
    t = type(e)
    if t is MapEntry or (t in _VECS and len(e) == 2):
        return e
    raise runtime_error(f"{who}: expected a map entry, got {_desc(e)}")


@builtin("key", group_read="first", args="[entry]", category="maps",
         doc="The key of a map entry.", ex=(("(key (first {:a 1}))", ":a"),))
def key(e: Any) -> Any:
    return _entry(e, "key")[0]


@builtin("val", group_read="second", args="[entry]", category="maps",
         doc="The value of a map entry.", ex=(("(val (first {:a 1}))", "1"),))
def val(e: Any) -> Any:
    return _entry(e, "val")[1]


@builtin("select-keys", row_map="select-keys", inline=inline.select_keys, args="[m ks]", category="maps",
         doc="A map of only the entries of m whose key is in ks.",
         ex=(("(select-keys {:a 1 :b 2 :c 3} [:a :c])", "{:a 1, :c 3}"),
             ("(select-keys {:a 1} [:a :z])", "{:a 1}")))
def select_keys(m: Any, ks: Any) -> Any:
    t = type(m)
    d: dict[Any, Any] = {}
    if t is dict:  # a host row: a keyword reads the key it names
        for k in iter_seq(ks, "select-keys"):
            hk = k.hk if type(k) is Keyword else None
            x = m.get(hk, _MISSING) if type(hk) is str else map_get(m, _guard_key(k), _MISSING)
            if x is not _MISSING:
                d[k if type(hk) is str else _guard_key(k)] = x
        return _map_of(d)
    if t in _MAPS:
        for k in iter_seq(ks, "select-keys"):
            k = _guard_key(k)
            v = map_get(m, k, _MISSING)
            if v is not _MISSING:
                d[k] = v
        return _map_of(d)
    if m is None:
        return EMPTY_MAP
    if t in _VECS:
        for k in iter_seq(ks, "select-keys"):
            if type(k) is int and 0 <= k < len(m):
                d[k] = m[k]
        return _map_of(d)
    raise runtime_error(f"select-keys: expected a map, got {_desc(m)}")


# -- merge / zipmap -------------------------------------------------------------------


def _merge2(a: Any, b: Any) -> Any:
    if type(a) is dict and (type(b) is FMap or type(b) is dict):  # a host row and a small map: one copy
        d = ptc_dict(a)
        d.update(b if type(b) is FMap else ptc_dict(b))
        return map_of(d)
    a, b = pmap(a), pmap(b)
    ta, tb = type(a), type(b)
    if ta is FMap and tb is FMap:
        if not b:
            return a
        if not a:
            return b
        d = dict(a)
        d.update(b)
        return FMap(d) if len(d) <= SMALL else HMap(d)
    if ta is HMap and (tb is FMap or tb is HMap):
        r = a
        for k, v in b.items():
            r = r.set(k, v)
        _guard(len(r))
        return r
    return _map_put_all(a, (b,), "merge")


@builtin("merge", row_map="merge", args="[& maps]", category="maps",
         doc="One map with the entries of all maps; later keys win; nil arguments are ignored.",
         ex=(("(merge {:a 1 :b 2} {:b 3 :c 4})", "{:a 1, :b 3, :c 4}"), ("(merge nil {:a 1})", "{:a 1}"),
             ("(merge)", "nil")))
def merge(*maps: Any) -> Any:
    result = None
    for m in maps:
        if m is None:
            continue
        if result is None:
            if type(m) in _MAPS:
                result = m
                continue
            result = EMPTY_MAP
        result = _merge2(result, m)
    return result


@builtin("merge-with", args="[f & maps]", category="maps",
         doc="Like merge, but a key present in several maps gets (f earlier-value later-value).",
         ex=(("(merge-with + {:a 1 :b 2} {:a 10})", "{:a 11, :b 2}"),))
def merge_with(f: Any, *maps: Any) -> Any:
    f = as_fn(f, "merge-with")
    result = None
    rest_: list[Any] = []
    for m in maps:
        if m is None:
            continue
        if result is None and not rest_:
            if type(m) in _MAPS:
                result = m
                continue
            result = EMPTY_MAP
        rest_.append(m)
    if result is None:
        return None
    if not rest_:
        return result
    return _map_put_all(result, rest_, "merge-with", f)


@builtin("zipmap", args="[ks vs]", category="maps",
         doc="A map pairing each key of ks with the value at the same position in vs.",
         ex=(("(zipmap [:a :b] [1 2])", "{:a 1, :b 2}"), ("(zipmap [:a :b :c] [1])", "{:a 1}")))
def zipmap(ks: Any, vs: Any) -> Any:
    ks, vs = _col.values(ks), _col.values(vs)
    tk, tv = type(ks), type(vs)
    if tk is not LazySeq and tv is not LazySeq and ks is not None and vs is not None:
        _big(min(_count_or0(ks), _count_or0(vs)), "zipmap")
    d = dict(zip(map(as_key, iter_seq(ks, "zipmap")), iter_seq(vs, "zipmap")))
    return _map_of(d)


# -- counting and emptiness -----------------------------------------------------------


@builtin("count", group_read="count", column_op="count", consumes=0, args="[coll]", category="collections",
         doc="The number of items in coll (characters of a string, entries of a map); nil counts 0.",
         ex=(("(count [1 2 3])", "3"), ("(count {:a 1})", "1"), ("(count \"abc\")", "3"), ("(count nil)", "0")))
def count(coll: Any) -> int:
    if type(coll) is LazySeq and (r := _col.count(coll)) is not _col.NO:
        return r  # type: ignore[no-any-return]
    return _count(coll)


def _is_empty(x: Any, who: str) -> bool:
    t = type(x)
    if t is LazySeq:
        return lazy.head(x, _MISSING) is _MISSING
    if t in _INDEXED or t in _MAPS or t in _SETS:
        return len(x) == 0
    if x is None:
        return True
    raise runtime_error(f"{who}: expected a collection, got {_desc(x)}")


@builtin("empty?", args="[coll]", category="collections",
         doc="true if coll has no items (nil is empty).",
         ex=(("(empty? [])", "true"), ("(empty? nil)", "true"), ("(empty? \"a\")", "false")))
def is_empty(coll: Any) -> bool:
    return _is_empty(coll, "empty?")


@builtin("not-empty", args="[coll]", category="collections",
         doc="coll if it has items, else nil.",
         ex=(("(not-empty [1])", "[1]"), ("(not-empty [])", "nil")))
def not_empty(coll: Any) -> Any:
    return None if _is_empty(coll, "not-empty") else coll


@builtin("empty", args="[coll]", category="collections",
         doc="An empty collection of the same kind as coll (nil for non-collections).",
         ex=(("(empty [1 2])", "[]"), ("(empty {:a 1})", "{}"), ("(empty '(1))", "()")))
def empty(coll: Any) -> Any:
    t = type(coll)
    if t is SortedMap or t is SortedSet:
        return coll.empty()
    if t in _VECS and t is not MapEntry:
        return EMPTY_VECTOR
    if t in _MAPS:
        return EMPTY_MAP
    if t in _SETS:
        return EMPTY_SET
    if t is PList or t is LazySeq:
        return EMPTY_LIST
    if t is PQueue:
        return EMPTY_QUEUE
    return None


# -- sequence access ------------------------------------------------------------------


@builtin("seq", group_read="same", args="[coll]", category="collections",
         doc="A sequence of the items of coll, or nil if it is empty (the idiomatic non-empty test).",
         ex=(("(seq [1 2])", "(1 2)"), ("(seq [])", "nil"), ("(seq {:a 1})", "([:a 1])")))
def seq(coll: Any) -> Any:
    t = type(coll)
    if t is LazySeq:  # first: the step of every walk of a lazy seq
        return None if lazy.head(coll, _MISSING) is _MISSING else coll
    if t is PList:
        return coll if coll else None
    if t in _INDEXED:
        n = len(coll)
        if n == 0:
            return None
        if n > _VIEW_MIN:
            return lazy.view(coll, 0)
        return PList(coll)
    if coll is None:
        return None
    if t in _MAPS or t in _SETS:
        if not coll:
            return None
        _big(len(coll), "seq")
        return PList(iter_seq(coll))
    raise runtime_error(f"seq: don't know how to create a sequence from {_desc(coll)}")


@builtin("first", group_read="first", args="[coll]", category="collections",
         doc="The first item of coll, or nil.",
         ex=(("(first [1 2 3])", "1"), ("(first [])", "nil"), ("(first {:a 1})", "[:a 1]")))
def first(coll: Any) -> Any:
    t = type(coll)
    if t is LazySeq:
        return lazy.head(coll, None)
    if t in _INDEXED:
        return coll[0] if coll else None
    if coll is None:
        return None
    if t in _MAPS or t in _SETS:
        for x in iter_seq(coll):
            return x
        return None
    raise runtime_error(f"first: don't know how to create a sequence from {_desc(coll)}")


@builtin("second", pure=True, group_read="second", args="[coll]", category="collections",
         doc="The second item of coll, or nil.",
         ex=(("(second [1 2 3])", "2"), ("(second [1])", "nil")))
def second(coll: Any) -> Any:
    t = type(coll)
    if t in _INDEXED:
        return coll[1] if len(coll) > 1 else None
    if coll is None:
        return None
    if t is LazySeq:
        return coll.nth(1, None)
    for x in itertools.islice(iter_seq(coll, "second"), 1, 2):
        return x
    return None


@builtin("last", group_read="last", consumes=0, args="[coll]", category="collections",
         doc="The last item of coll, or nil.",
         ex=(("(last [1 2 3])", "3"), ("(last [])", "nil")))
def last(coll: Any) -> Any:
    t = type(coll)
    if t in _INDEXED:
        return coll[-1] if coll else None
    if coll is None:
        return None
    if t is LazySeq:
        n = len(coll)
        return coll.nth(n - 1) if n else None
    if t is FMap or t is dict:
        for k in reversed(coll):
            return MapEntry((host_key(k) if t is dict else k, dict.__getitem__(coll, k)))
        return None
    x = None
    for x in iter_all(coll, "last"):
        pass
    return x


def _rest(coll: Any, who: str) -> Any:
    t = type(coll)
    if t is LazySeq:
        return lazy.view(coll, 1)
    if t in _INDEXED:
        n = len(coll)
        if n <= 1:
            return EMPTY_LIST
        if n > _VIEW_MIN:
            return lazy.view(coll, 1)
        return PList(coll[1:])
    if coll is None:
        return EMPTY_LIST
    if t in _MAPS or t in _SETS:
        _big(len(coll), who)
        return PList(itertools.islice(iter_seq(coll), 1, None))
    raise runtime_error(f"{who}: don't know how to create a sequence from {_desc(coll)}")


@builtin("rest", args="[coll]", category="collections",
         doc="The items of coll after the first, as a (possibly empty) sequence.",
         ex=(("(rest [1 2 3])", "(2 3)"), ("(rest [1])", "()"), ("(rest nil)", "()")))
def rest(coll: Any) -> Any:
    return _rest(coll, "rest")


def _next(coll: Any, who: str) -> Any:
    t = type(coll)
    if t is LazySeq:
        v = lazy.realized_view(coll)
        if v is not None:
            return lazy.view(v[0], v[1] + 1) if v[1] + 1 < len(v[0]) else None
        if coll.nth(1, _MISSING) is _MISSING:
            return None
        return lazy.view(coll, 1)
    if t in _INDEXED or t in _MAPS or t in _SETS:
        if len(coll) <= 1:
            return None
    elif coll is None:
        return None
    return _rest(coll, who)


@builtin("next", args="[coll]", category="collections",
         doc="The items of coll after the first, or nil if there are none.",
         ex=(("(next [1 2 3])", "(2 3)"), ("(next [1])", "nil")))
def next_(coll: Any) -> Any:
    return _next(coll, "next")


@builtin("ffirst", args="[coll]", category="collections",
         doc="(first (first coll)).", ex=(("(ffirst [[1 2] [3]])", "1"),))
def ffirst(coll: Any) -> Any:
    return first(first(coll))


@builtin("nfirst", args="[coll]", category="collections",
         doc="(next (first coll)).", ex=(("(nfirst [[1 2 3]])", "(2 3)"),))
def nfirst(coll: Any) -> Any:
    return _next(first(coll), "nfirst")


@builtin("fnext", args="[coll]", category="collections",
         doc="(first (next coll)), the second item.", ex=(("(fnext [1 2 3])", "2"), ("(fnext [1])", "nil")))
def fnext(coll: Any) -> Any:
    return first(_next(coll, "fnext"))


@builtin("nnext", args="[coll]", category="collections",
         doc="(next (next coll)).", ex=(("(nnext [1 2 3])", "(3)"), ("(nnext [1 2])", "nil")))
def nnext(coll: Any) -> Any:
    return _next(_next(coll, "nnext"), "nnext")


@builtin("butlast", args="[coll]", category="collections",
         doc="All items of coll but the last, as a sequence (nil if fewer than two).",
         ex=(("(butlast [1 2 3])", "(1 2)"), ("(butlast [1])", "nil")))
def butlast(coll: Any) -> Any:
    t = type(coll)
    if t in _INDEXED:
        if len(coll) <= 1:
            return None
        _big(len(coll), "butlast")
        return PList(coll[:-1])
    if coll is None:
        return None
    items = list(iter_all(coll, "butlast"))
    if len(items) <= 1:
        return None
    _big(len(items), "butlast")
    items.pop()
    return PList(items)


@builtin("nth", group_read="nth", args=("[coll index]", "[coll index not-found]"), category="collections",
         doc="The item at index (0-based); out of range is an error unless not-found is given.",
         ex=(("(nth [10 20 30] 1)", "20"), ("(nth [10] 5 :none)", ":none")))
def nth(coll: Any, index: Any, not_found: Any = _MISSING) -> Any:
    if not_found is _MISSING:
        return _nth(coll, index)
    return _nth(coll, index, not_found)


@builtin("peek", args="[coll]", category="collections",
         doc="The last item of a vector, the first of a list or queue; nil if empty.",
         ex=(("(peek [1 2 3])", "3"), ("(peek '(1 2 3))", "1"),
             ("(peek (into clojure.lang.PersistentQueue/EMPTY [1 2]))", "1")))
def peek(coll: Any) -> Any:
    t = type(coll)
    if t in _VECS:
        return coll[-1] if coll else None
    if t is PList:
        return coll[0] if coll else None
    if coll is None:
        return None
    if t is LazySeq:
        return coll.nth(0, None)
    if t is PQueue:
        return coll.peek()
    raise runtime_error(f"peek: expected a vector, list or queue, got {_desc(coll)}")


@builtin("pop", args="[coll]", category="collections",
         doc="A vector without its last item, a list or queue without its first.",
         ex=(("(pop [1 2 3])", "[1 2]"), ("(pop '(1 2 3))", "(2 3)"),
             ("(pop (into clojure.lang.PersistentQueue/EMPTY [1 2 3]))", "#queue [2 3]")))
def pop(coll: Any) -> Any:
    t = type(coll)
    if t in _VECS:
        if not coll:
            raise runtime_error("pop: can't pop an empty vector")
        return pvec(coll)[:-1]
    if t is PList:
        if not coll:
            raise runtime_error("pop: can't pop an empty list")
        return PList(coll[1:])
    if coll is None:
        return None
    if t is LazySeq:
        if coll.nth(0, _MISSING) is _MISSING:
            raise runtime_error("pop: can't pop an empty list")
        return lazy.view(coll, 1)
    if t is PQueue:
        return coll.pop()  # an empty queue pops to itself, as in Clojure
    raise runtime_error(f"pop: expected a vector, list or queue, got {_desc(coll)}")


@builtin("subvec", args=("[v start]", "[v start end]"), category="collections",
         doc="The part of vector v from index start (inclusive) to end (exclusive, default: the end).",
         ex=(("(subvec [1 2 3 4] 1 3)", "[2 3]"), ("(subvec [1 2 3] 1)", "[2 3]")))
def subvec(v: Any, start: Any, end: Any = None) -> Any:
    t = type(v)
    if t not in _VECS:
        raise runtime_error(f"subvec: expected a vector, got {_desc(v)}")
    n = len(v)
    if end is None:
        end = n
    for i in (start, end):
        if type(i) is not int:
            raise runtime_error(f"subvec: index must be an integer, got {_desc(i)}")
    if not 0 <= start <= end <= n:
        raise runtime_error(f"subvec: indexes {start}..{end} out of bounds for vector of length {n}")
    if t is PVector:
        return v[start:end]
    return pvector(v[start:end])


# -- grouping -------------------------------------------------------------------------


_PLAIN_KEY_TYPES = frozenset({str, int, float, bool, type(None), Keyword})


def _guard_key(k: Any) -> Any:
    """k as a hashable key (see values.as_key); scalars at once."""
    return k if type(k) in _PLAIN_KEY_TYPES else as_key(k)


@builtin("frequencies", consumes=0, args="[coll]", category="collections",
         doc="A map from each distinct item of coll to the number of times it occurs.",
         ex=(("(frequencies [:a :b :a])", "{:a 2, :b 1}"),))
def frequencies(coll: Any) -> Any:
    c = _col.counts(coll)
    if c is _col.NO:
        c = Counter(map(_guard_key, iter_all(coll, "frequencies")))
    n = len(c)
    if n <= SMALL:
        return FMap(c)
    _big(n, "frequencies")
    return HMap(c)


@builtin("group-by", consumes=1, args="[f coll]", category="collections",
         doc="A map from each (f item) to the vector of items giving it, in order of first occurrence.",
         ex=(("(group-by odd? [1 2 3])", "{true [1 3], false [2]}"),
             ("(group-by :t [{:t :a :v 1} {:t :a :v 2}])", "{:a [{:t :a, :v 1} {:t :a, :v 2}]}")))
def group_by(f: Any, coll: Any) -> Any:
    f = as_fn(f, "group-by")
    d: defaultdict[Any, list[Any]] = defaultdict(list)
    if (g := _col.grouped(f, coll)) is not _col.NO:
        d = g
    elif type(f) is Keyword and type(coll) in _INDEXED:
        from .core_sequences import kw_values

        keys = kw_values(f, coll)
        if not set(map(type, keys)) <= _PLAIN_KEY_TYPES:
            keys = [_guard_key(k) for k in keys]
        for k, x in zip(keys, coll):
            d[k].append(x)
    elif (by := _keyword_parts(f, coll)) is not None:  # (juxt :a :b): tuples of columns, a vector per group
        for k, x in zip(by, coll):
            d[k].append(x)
        d = {vec(k): xs for k, xs in d.items()}  # type: ignore[assignment]
    else:
        for x in iter_all(coll, "group-by"):
            d[_guard_key(f(x))].append(x)
    n = len(d)
    _big(n, "group-by")
    return map_of(dict(d))  # each group a list this function owns: a vector, with no copy


def _keyword_parts(f: Any, coll: Any) -> list[tuple[Any, ...]] | None:
    """Each item's key as a tuple when f is `(juxt :a :b ...)` over a realized coll whose keys
    are all plain scalars (tuples hash and compare as the key vectors do), else None."""
    parts = getattr(f, KEY_PARTS_ATTR, None)
    if parts is None or type(coll) not in _INDEXED or not all(type(p) is Keyword for p in parts):
        return None
    from .core_sequences import kw_values

    columns = [kw_values(p, coll) for p in parts]
    if not all(set(map(type, c)) <= _PLAIN_KEY_TYPES for c in columns):
        return None
    return list(zip(*columns))


def _extreme_key(who: str, k: Any, x: Any, more: tuple[Any, ...], want_max: bool) -> Any:
    if not more:
        return x
    if type(k) is Keyword and len(more) > 8:  # a field of many rows: their keys at once, the extreme in C
        from .core_sequences import kw_values

        items = (x, *more)
        return extreme_of(who, want_max, items, kw_values(k, items))
    f = as_fn(k, who)
    best, bk = x, f(x)
    if type(bk) is not int and type(bk) is not float:
        raise runtime_error(f"{who}: the key function must return numbers, got {_desc(bk)}")
    for y in more:
        ky = f(y)
        if type(ky) is not int and type(ky) is not float:
            raise runtime_error(f"{who}: the key function must return numbers, got {_desc(ky)}")
        if (ky >= bk) if want_max else (ky <= bk):
            best, bk = y, ky
    return best


def extreme_of(who: str, want_max: bool, items: Any, keys: list[Any]) -> Any:
    """The item of items (two or more) whose key (keys[i], computed already) is largest or
    smallest, the last one on ties: in C when the keys are numbers and no NaN."""
    types = set(map(type, keys))
    if types <= {int, float} and (float not in types or not any(map(math.isnan, keys))):
        best_key = max(keys) if want_max else min(keys)
        return items[len(keys) - 1 - keys[::-1].index(best_key)]
    best, bk = items[0], keys[0]
    for y, ky in zip(items, keys):
        if type(ky) is not int and type(ky) is not float:
            raise runtime_error(f"{who}: the key function must return numbers, got {_desc(ky)}")
        if (ky >= bk) if want_max else (ky <= bk):
            best, bk = y, ky
    return best


@builtin("max-key", args="[k x & more]", category="collections",
         doc="The argument for which (k arg) is greatest (the last one on ties).",
         ex=(("(max-key count \"a\" \"abc\" \"ab\")", "\"abc\""), ("(apply max-key :n [{:n 1} {:n 3}])", "{:n 3}")))
def max_key(k: Any, x: Any, *more: Any) -> Any:
    return _extreme_key("max-key", k, x, more, True)


@builtin("min-key", args="[k x & more]", category="collections",
         doc="The argument for which (k arg) is smallest (the last one on ties).",
         ex=(("(min-key count \"abc\" \"a\" \"ab\")", "\"a\""),))
def min_key(k: Any, x: Any, *more: Any) -> Any:
    return _extreme_key("min-key", k, x, more, False)


__all__ = [
    "list_", "vector", "vec_", "hash_map", "array_map", "hash_set", "to_set", "boolean", "conj",
    "cons", "into", "assoc", "assoc_in", "dissoc", "update", "update_in", "update_vals",
    "update_keys", "get", "get_in", "contains", "find", "keys", "vals", "key", "val",
    "select_keys", "merge", "merge_with", "zipmap", "count", "is_empty", "not_empty", "empty",
    "seq", "first", "second", "last", "rest", "next_", "ffirst", "nfirst", "fnext", "nnext", "butlast",
    "nth", "peek", "pop", "subvec", "frequencies", "group_by", "max_key", "min_key",
]


# -- transients: PTC-Lisp values never change, so a transient is the value itself and the
# `!` functions are the persistent ones; a Clojure program that uses their return values (as
# Clojure requires) gives the same results.


@builtin("transient", args="[coll]", category="collections",
         doc="coll itself (a vector, map or set): PTC-Lisp has no mutable collections, so conj!, assoc!, "
             "dissoc!, disj! and pop! are conj, assoc, dissoc, disj and pop.",
         ex=(("(persistent! (reduce conj! (transient []) [1 2 3]))", "[1 2 3]"),))
def transient(coll: Any) -> Any:
    t = type(coll)
    if t in _VECS or t in _MAPS or t in _SETS:
        return coll
    raise runtime_error(f"transient: expected a vector, map or set, got {_desc(coll)}")


@builtin("persistent!", args="[coll]", category="collections",
         doc="coll itself (see transient).", ex=(("(persistent! (assoc! (transient {}) :a 1))", "{:a 1}"),))
def persistent_bang(coll: Any) -> Any:
    return transient(coll)


@builtin("disj", args=("[set]", "[set k & ks]"), category="sets",
         doc="The set without the given items.",
         ex=(("(disj #{1 2 3} 2)", "#{1 3}"),))
def disj(s: Any, *ks: Any) -> Any:
    if s is None:
        return None
    if type(s) not in SET_TYPES:
        raise runtime_error(f"disj: expected a set, got {type_name(s)}")
    for k in ks:
        s = set_disj(s, k)
    return s


@builtin("rseq", args="[rev]", category="collections",
         doc="The items of a vector in reverse order, in constant time in Clojure; nil when empty.",
         ex=(("(rseq [1 2 3])", "(3 2 1)"),))
def rseq(v: Any) -> Any:
    if type(v) is SortedMap or type(v) is SortedSet:
        from .core_sorted import reversed_seq

        return reversed_seq(v)
    if type(v) not in VECTOR_TYPES:
        raise runtime_error(f"rseq: expected a vector or a sorted collection, got {type_name(v)}")
    return PList(reversed(v)) if len(v) else None


@builtin("list*", args=("[args]", "[a args]", "[a b args]", "[a b c & more]"), category="collections",
         doc="A list of the given items followed by the items of the last argument.",
         ex=(("(list* 1 2 [3 4])", "(1 2 3 4)"),))
def list_star(*args: Any) -> Any:
    if not args:
        raise runtime_error("list*: needs at least one argument")
    items = list(args[:-1]) + list(iter_seq(args[-1], "list*"))
    if len(items) > 4096:
        context.check_size(len(items), "list*")
    return PList(items) if items else None


@builtin("replace", args=("[smap coll]",), category="collections",
         doc="coll with every item that is a key of smap replaced by its value (a vector stays a vector).",
         ex=(("(replace {:a 1} [:a :b :a])", "[1 :b 1]"),))
def replace(smap: Any, coll: Any) -> Any:
    if type(smap) not in MAP_TYPES and type(smap) not in VECTOR_TYPES:
        raise runtime_error(f"replace: expected a map or vector of replacements, got {type_name(smap)}")
    def swap(x: Any) -> Any:
        return lookup(smap, x, x) if contains_key(smap, x) else x
    if type(coll) in VECTOR_TYPES:
        return vec(swap(x) for x in coll)
    return PList(swap(x) for x in iter_seq(coll, "replace"))


for _bang, _plain in (("conj!", "conj"), ("assoc!", "assoc"), ("dissoc!", "dissoc"), ("disj!", "disj"),
                      ("pop!", "pop")):
    alias(_bang, _plain)
