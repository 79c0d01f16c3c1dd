"""Sorted collections: sorted-map, sorted-set, their -by forms, subseq and rsubseq.

The collections themselves are in ../sorted.py; other functions (assoc, conj, into, seq,
rseq, get, =...) treat them as the maps and sets they are and keep them sorted.
"""

from __future__ import annotations

from typing import Any

from ..errors import runtime_error
from ..registry import builtin
from ..sorted import SortedMap, SortedSet
from ..values import MapEntry, PList, short, type_name
from .core_numbers import compare_values
from .core_sequences import _comparator


def _pairs(kvs: tuple[Any, ...], who: str) -> list[tuple[Any, Any]]:
    if len(kvs) % 2:
        raise runtime_error(f"{who}: no value supplied for key {short(kvs[-1])}")
    return [(kvs[i], kvs[i + 1]) for i in range(0, len(kvs), 2)]


def sorted_map_of(pairs: Any, comparator: Any, who: str) -> SortedMap:
    cmp = compare_values if comparator is None else _comparator(comparator, who)
    return SortedMap.build(pairs, cmp, comparator)


def sorted_in_order(keys: tuple[Any, ...], vals: tuple[Any, ...] | None, comparator: Any) -> SortedMap | SortedSet:
    """A sorted map (or set, with no vals) of keys already in comparator's order: a sorted
    collection that crossed a process boundary (its comparator is not called to rebuild it)."""
    cmp = compare_values if comparator is None else _comparator(comparator, "sorted collection")
    if vals is None:
        return SortedSet(keys, cmp, comparator)
    return SortedMap(keys, vals, cmp, comparator)


def sorted_set_of(items: Any, comparator: Any, who: str) -> SortedSet:
    cmp = compare_values if comparator is None else _comparator(comparator, who)
    return SortedSet.build(items, cmp, comparator)


@builtin("sorted-map", args="[& keyvals]", category="maps",
         doc="A map kept in key order (by compare); keys must be comparable with each other.",
         ex=(("(sorted-map :b 2 :a 1)", "{:a 1, :b 2}"), ("(into (sorted-map) {3 :c 1 :a})", "{1 :a, 3 :c}")))
def sorted_map(*kvs: Any) -> SortedMap:
    return sorted_map_of(_pairs(kvs, "sorted-map"), None, "sorted-map")


@builtin("sorted-map-by", args="[comparator & keyvals]", category="maps",
         doc="A map kept in the order of comparator (a compare-like fn, or a boolean fn like >).",
         ex=(("(sorted-map-by > 1 :a 3 :c 2 :b)", "{3 :c, 2 :b, 1 :a}"),))
def sorted_map_by(comparator: Any, *kvs: Any) -> SortedMap:
    return sorted_map_of(_pairs(kvs, "sorted-map-by"), comparator, "sorted-map-by")


@builtin("sorted-set", args="[& keys]", category="sets",
         doc="A set kept in order (by compare); members must be comparable with each other.",
         ex=(("(sorted-set 3 1 2 1)", "#{1 2 3}"), ("(into (sorted-set) [:b :a])", "#{:a :b}")))
def sorted_set(*items: Any) -> SortedSet:
    return sorted_set_of(items, None, "sorted-set")


@builtin("sorted-set-by", args="[comparator & keys]", category="sets",
         doc="A set kept in the order of comparator.",
         ex=(("(sorted-set-by > 1 3 2)", "#{3 2 1}"),))
def sorted_set_by(comparator: Any, *items: Any) -> SortedSet:
    return sorted_set_of(items, comparator, "sorted-set-by")


_TESTS = {"<": (False, True), "<=": (True, True), ">": (False, False), ">=": (True, False)}


def _test(test: Any, who: str) -> tuple[bool, bool]:
    """(inclusive, upper) for one of the builtins <, <=, >, >=."""
    name = getattr(test, "__qualname__", "")
    found = _TESTS.get(name[4:] if name.startswith("ptc:") else "")
    if found is None:
        raise runtime_error(f"{who}: the test must be one of < <= > >=, got {type_name(test)} {short(test)}")
    return found


def _range(sc: Any, args: tuple[Any, ...], who: str) -> tuple[int, int]:
    """The index range of sc that `(subseq sc test key)` or `(subseq sc start-test start-key
    end-test end-key)` selects, in sc's own order."""
    if type(sc) is not SortedMap and type(sc) is not SortedSet:
        raise runtime_error(f"{who}: expected a sorted map or set, got {type_name(sc)} {short(sc)}")
    if len(args) not in (2, 4):
        raise runtime_error(f"{who}: expected (test key) or (start-test start-key end-test end-key)")
    lo, hi = 0, len(sc)
    for test, key in zip(args[0::2], args[1::2]):
        inclusive, upper = _test(test, who)
        if not upper:  # > or >=: a lower bound
            lo = max(lo, sc.bound(key, inclusive, lower=True))
        else:
            hi = min(hi, sc.bound(key, inclusive, lower=False))
    return lo, max(lo, hi)


def _items(sc: Any, lo: int, hi: int) -> list[Any]:
    if type(sc) is SortedMap:
        return [MapEntry(kv) for kv in sc.entries(lo, hi)]
    return list(sc.members(lo, hi))


@builtin("subseq", args=("[sc test key]", "[sc start-test start-key end-test end-key]"), category="collections",
         doc="The items of a sorted collection whose keys pass the test(s) (< <= > >=), in order; nil if none.",
         ex=(("(subseq (sorted-set 1 2 3 4 5) > 2)", "(3 4 5)"),
             ("(subseq (sorted-map 1 :a 2 :b 3 :c) >= 2 < 3)", "([2 :b])")))
def subseq(sc: Any, *args: Any) -> Any:
    lo, hi = _range(sc, args, "subseq")
    return PList(_items(sc, lo, hi)) if hi > lo else None


@builtin("rsubseq", args=("[sc test key]", "[sc start-test start-key end-test end-key]"), category="collections",
         doc="Like subseq, in reverse order.",
         ex=(("(rsubseq (sorted-set 1 2 3 4 5) < 4)", "(3 2 1)"),))
def rsubseq(sc: Any, *args: Any) -> Any:
    lo, hi = _range(sc, args, "rsubseq")
    return PList(reversed(_items(sc, lo, hi))) if hi > lo else None


@builtin("sorted?", args="[coll]", category="predicates",
         doc="True for sorted maps and sorted sets.",
         ex=(("(sorted? (sorted-set 1))", "true"), ("(sorted? #{1})", "false")))
def sorted_p(coll: Any) -> bool:
    return type(coll) is SortedMap or type(coll) is SortedSet


def reversed_seq(sc: Any) -> Any:
    """rseq of a sorted collection."""
    items = _items(sc, 0, len(sc))
    return PList(reversed(items)) if items else None


__all__ = ["sorted_map_of", "sorted_set_of", "reversed_seq"]
