"""clojure.set: set algebra and relational helpers (a relation is a collection of maps).

Deviation: any seqable (vector, list, nil) is accepted where Clojure wants a set, and the
set operations always return sets.
"""

from __future__ import annotations

from typing import Any, Callable

from .. import context
from ..errors import runtime_error
from ..registry import builtin
from ..sorted import SortedSet
from ..values import (
    EMPTY_MAP,
    EMPTY_SET,
    MAP_TYPES,
    FSet,
    HSet,
    PList,
    as_fn,
    as_key,
    checked,
    contains_key,
    iter_seq,
    lookup,
    make_set,
    map_items,
    map_keys,
    map_of,
    set_conj,
    short,
    truthy,
    type_name,
)
from .core_collections import _assoc1, dissoc, merge, select_keys

_SETS = (FSet, HSet, SortedSet)  # PTC sets: their members are already keys
_MAPS = MAP_TYPES
_BIG = 4096


def _as_set(x: Any, who: str) -> Any:
    """A set with the items of x (x itself when it already is one)."""
    t = type(x)
    if t is FSet or t is HSet:
        return x
    if x is None:
        return EMPTY_SET
    return make_set(iter_seq(x, who))


def _size(x: Any) -> int:
    try:
        return len(x)
    except TypeError:
        return 1 << 30  # unknown (lazy): rebuild


_map_of = map_of


def _check(n: int, who: str) -> None:
    if n > _BIG:
        context.check_size(n, who)


@builtin("union", ns="clojure.set", args=("[]", "[s1]", "[s1 s2 & sets]"), category="sets",
         doc="The set of items in any of the sets.",
         ex=(("(sort (set/union #{1 2} #{2 3}))", "(1 2 3)"), ("(set/union #{1} nil)", "#{1}")))
def union(*sets: Any) -> Any:
    if not sets:
        return EMPTY_SET
    base = None
    for s in sets:  # grow the largest set, like Clojure
        if type(s) in _SETS and (base is None or len(s) > len(base)):
            base = s
    if base is None:
        base = EMPTY_SET
    others = [s for s in sets if s is not base and s is not None]
    if not others:
        return base
    if type(base) is SortedSet:
        return base.union(x for s in others for x in iter_seq(s, "union"))
    if type(base) is HSet and sum(_size(s) for s in others) < 256:
        r = base
        for s in others:
            for x in iter_seq(s, "union"):
                r = set_conj(r, x)
        return r
    acc = set(base)
    for s in others:
        acc.update(map(as_key, iter_seq(s, "union")))
    _check(len(acc), "union")
    return make_set(acc)


@builtin("intersection", ns="clojure.set", args=("[s1]", "[s1 s2 & sets]"), category="sets",
         doc="The set of items in every one of the sets.",
         ex=(("(set/intersection #{1 2 3} #{2 3 4} #{3 5})", "#{3}"),))
def intersection(s1: Any, *sets: Any) -> Any:
    first = _as_set(s1, "intersection")
    if not sets:
        return first
    all_sets = [first] + [_as_set(s, "intersection") for s in sets]
    all_sets.sort(key=len)
    smallest, rest = all_sets[0], all_sets[1:]
    return make_set(x for x in checked(smallest) if all(x in s for s in rest))


@builtin("difference", ns="clojure.set", args=("[s1]", "[s1 s2 & sets]"), category="sets",
         doc="The set of items of s1 that are in none of the other sets.",
         ex=(("(set/difference #{1 2 3} #{2} #{3})", "#{1}"),))
def difference(s1: Any, *sets: Any) -> Any:
    first = _as_set(s1, "difference")
    if not sets:
        return first
    others = [_as_set(s, "difference") for s in sets]
    return make_set(x for x in checked(first) if not any(x in s for s in others))


@builtin("select", ns="clojure.set", args="[pred xset]", category="sets",
         doc="The set of items of xset for which pred is truthy.",
         ex=(("(set/select odd? #{1 2 4})", "#{1}"),))
def select(pred: Any, xset: Any) -> Any:
    pred = as_fn(pred, "select")
    return make_set(x for x in iter_seq(xset, "select") if truthy(pred(x)))


@builtin("project", ns="clojure.set", args="[xrel ks]", category="sets",
         doc="The set of the maps of xrel keeping only the keys ks.",
         ex=(("(set/project [{:a 1 :b 2} {:a 1 :b 3}] [:a])", "#{{:a 1}}"),))
def project(xrel: Any, ks: Any) -> Any:
    ks = PList(iter_seq(ks, "project"))
    return make_set(select_keys(x, ks) for x in iter_seq(xrel, "project"))


@builtin("rename-keys", row_map="rename-keys", ns="clojure.set", args="[m kmap]", category="maps",
         doc="m with each key found in kmap renamed to kmap's value for it.",
         ex=(("(set/rename-keys {:a 1 :b 2} {:a :x})", "{:b 2, :x 1}"),
             ("(set/rename-keys {:a 1 :b 2} {:a :b :b :a})", "{:b 1, :a 2}")))
def rename_keys(m: Any, kmap: Any) -> Any:
    if kmap is None:
        return m
    if type(kmap) not in _MAPS:
        raise runtime_error(f"rename-keys: the renaming must be a map, got {type_name(kmap)} {short(kmap)}")
    if m is None:
        return None
    if type(m) not in _MAPS:
        raise runtime_error(f"rename-keys: expected a map, got {type_name(m)} {short(m)}")
    out = dissoc(m, *map_keys(kmap))
    for old, new in map_items(kmap):
        if contains_key(m, old):
            out = _assoc1(out, new, lookup(m, old))
    return out


@builtin("rename", ns="clojure.set", args="[xrel kmap]", category="sets",
         doc="The set of the maps of xrel with keys renamed by kmap.",
         ex=(("(set/rename #{{:a 1}} {:a :b})", "#{{:b 1}}"),))
def rename(xrel: Any, kmap: Any) -> Any:
    return make_set(rename_keys(x, kmap) for x in iter_seq(xrel, "rename"))


@builtin("index", ns="clojure.set", args="[xrel ks]", category="sets",
         doc="A map from each distinct (select-keys x ks) of the maps of xrel to the set of maps having it.",
         ex=(("(set/index [{:a 1 :b 2} {:a 2 :b 3}] [:a])", "{{:a 1} #{{:a 1, :b 2}}, {:a 2} #{{:a 2, :b 3}}}"),))
def index(xrel: Any, ks: Any) -> Any:
    return _index(iter_seq(xrel, "index"), PList(iter_seq(ks, "index")))


def _index(rel: Any, ks: PList) -> Any:
    d: dict[Any, set[Any]] = {}
    for x in rel:
        k = as_key(select_keys(x, ks))
        s = d.get(k)
        if s is None:
            d[k] = {as_key(x)}
        else:
            s.add(as_key(x))
    _check(len(d), "index")
    return _map_of({k: make_set(v) for k, v in d.items()})


@builtin("map-invert", ns="clojure.set", args="[m]", category="maps",
         doc="m with keys and values swapped.",
         ex=(("(set/map-invert {:a 1 :b 2})", "{1 :a, 2 :b}"),))
def map_invert(m: Any) -> Any:
    if m is None:
        return EMPTY_MAP
    if type(m) not in _MAPS:
        raise runtime_error(f"map-invert: expected a map, got {type_name(m)} {short(m)}")
    return _map_of({as_key(v): k for k, v in map_items(m)})


def _rel(x: Any, who: str) -> list[Any]:
    items = list(iter_seq(x, who))
    for r in items:
        if type(r) not in _MAPS:
            raise runtime_error(f"{who}: expected a collection of maps, got an item {type_name(r)} {short(r)}")
    return items


@builtin("join", ns="clojure.set", args=("[xrel yrel]", "[xrel yrel km]"), category="sets",
         doc="The natural join of two relations (collections of maps) on their shared keys, or on the key mapping km.",
         ex=(("(set/join #{{:id 1 :name \"a\"}} #{{:id 1 :score 5}})", "#{{:id 1, :name \"a\", :score 5}}"),))
def join(xrel: Any, yrel: Any, km: Any = None) -> Any:
    xs, ys = _rel(xrel, "join"), _rel(yrel, "join")
    if km is None:
        if not xs or not ys:
            return EMPTY_SET
        ks = PList(k for k in map_keys(xs[0]) if contains_key(ys[0], k))
        r, s = (xs, ys) if len(xs) <= len(ys) else (ys, xs)
        return _probe(s, _index(r, ks), lambda x: as_key(select_keys(x, ks)))
    if type(km) not in _MAPS:
        raise runtime_error(f"join: the key mapping must be a map, got {type_name(km)} {short(km)}")
    if len(xs) <= len(ys):
        r, s, k = xs, ys, map_invert(km)
    else:
        r, s, k = ys, xs, km
    kk = PList(map_keys(k))
    return _probe(s, _index(r, PList(v for _, v in map_items(k))), lambda x: as_key(rename_keys(select_keys(x, kk), k)))


def _probe(s: list[Any], idx: dict[Any, set[Any]], key_of: Callable[[Any], Any]) -> Any:
    """The join's output: each row of s merged with the rows of idx under its key. A join can
    grow to the product of its inputs, so the size and the clock are checked as it grows, not
    once it is built (3,000 x 3,000 rows with no shared key is 9M merged maps)."""
    cap = context.CURRENT.limits.max_collection
    out = set()
    for i, x in enumerate(s):
        found = idx.get(key_of(x))
        if found is not None:
            for y in found:
                out.add(as_key(merge(y, x)))
            if len(out) > cap:
                context.check_size(len(out), "join result")
            context.check_deadline()
        elif (i & 255) == 255:
            context.check_deadline()
    _check(len(out), "join")
    return make_set(out)


@builtin("subset?", ns="clojure.set", args="[s1 s2]", category="sets",
         doc="true if every item of s1 is in s2.",
         ex=(("(set/subset? #{1} #{1 2})", "true"), ("(set/subset? #{1 3} #{1 2})", "false")))
def is_subset(s1: Any, s2: Any) -> bool:
    a, b = _as_set(s1, "subset?"), _as_set(s2, "subset?")
    return len(a) <= len(b) and all(x in b for x in a)


@builtin("superset?", ns="clojure.set", args="[s1 s2]", category="sets",
         doc="true if every item of s2 is in s1.",
         ex=(("(set/superset? #{1 2} #{1})", "true"),))
def is_superset(s1: Any, s2: Any) -> bool:
    return is_subset(s2, s1)

