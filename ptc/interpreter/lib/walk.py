"""clojure.walk: generic tree walking over PTC data (walk, prewalk, postwalk and friends)."""

from __future__ import annotations

from typing import Any

from ..context import tick
from ..registry import builtin
from ..values import (
    MAP_TYPES, SET_TYPES, VECTOR_TYPES, Keyword, LazySeq, MapEntry, PList, as_fn, checked, iter_all, lookup,
    make_map, map_items, vec,
)
from .core_collections import empty, into

NS = "clojure.walk"


def walk(inner: Any, outer: Any, form: Any) -> Any:
    """Clojure's walk: inner on each element of form (a collection keeps its kind), then outer."""
    f, g = as_fn(inner, "walk"), as_fn(outer, "walk")
    t = type(form)
    if t is MapEntry:
        out: Any = MapEntry((f(form[0]), f(form[1])))
    elif t in MAP_TYPES or t in SET_TYPES:  # (into (empty form) ...): a sorted one stays sorted
        items = [f(MapEntry(kv)) for kv in checked(map_items(form))] if t in MAP_TYPES else [f(x) for x in checked(form)]
        tick(len(items))
        out = into(empty(form), vec(items))
    elif t in VECTOR_TYPES:
        items = [f(x) for x in checked(form)]
        tick(len(items))
        out = vec(items)
    elif t is PList or t is LazySeq:
        items = [f(x) for x in checked(iter_all(form, "walk"))]
        tick(len(items))
        out = PList(items)
    else:
        out = form
    return g(out)


@builtin("walk", ns=NS, args="[inner outer form]", category="walk",
         doc="Applies inner to each element of form (keeping its kind of collection), then outer to the result.",
         ex=(("(clojure.walk/walk inc #(apply + %) [1 2 3])", "9"),))
def walk_(inner: Any, outer: Any, form: Any) -> Any:
    return walk(inner, outer, form)


def _identity(x: Any) -> Any:
    return x


@builtin("postwalk", ns=NS, args="[f form]", category="walk",
         doc="Walks form depth-first, applying f to each sub-form after its children (bottom-up).",
         ex=(("(clojure.walk/postwalk #(if (number? %) (inc %) %) [1 [2 {:a 3}]])", "[2 [3 {:a 4}]]"),))
def postwalk(f: Any, form: Any) -> Any:
    fn = as_fn(f, "postwalk")

    def step(x: Any) -> Any:
        return walk(step, fn, x)

    return step(form)


@builtin("prewalk", ns=NS, args="[f form]", category="walk",
         doc="Like postwalk, but f is applied to each sub-form before its children (top-down).",
         ex=(("(clojure.walk/prewalk #(if (vector? %) (vec (remove nil? %)) %) [1 nil [2 nil]])", "[1 [2]]"),))
def prewalk(f: Any, form: Any) -> Any:
    fn = as_fn(f, "prewalk")

    def step(x: Any) -> Any:
        return walk(step, _identity, fn(x))

    return step(form)


def _replacer(smap: Any) -> Any:
    def replace(x: Any) -> Any:
        found = lookup(smap, x, _ABSENT)
        return x if found is _ABSENT else found

    return replace


_ABSENT = object()


@builtin("postwalk-replace", ns=NS, args="[smap form]", category="walk",
         doc="Replaces every sub-form that is a key of smap by its value, bottom-up.",
         ex=(("(clojure.walk/postwalk-replace {:a :b} [:a {:a 1}])", "[:b {:b 1}]"),))
def postwalk_replace(smap: Any, form: Any) -> Any:
    return postwalk(_replacer(smap), form)


@builtin("prewalk-replace", ns=NS, args="[smap form]", category="walk",
         doc="Replaces every sub-form that is a key of smap by its value, top-down.",
         ex=(("(clojure.walk/prewalk-replace {1 :one} [1 [1 2]])", "[:one [:one 2]]"),))
def prewalk_replace(smap: Any, form: Any) -> Any:
    return prewalk(_replacer(smap), form)


def _rekey(form: Any, key: Any) -> Any:
    def f(x: Any) -> Any:
        if type(x) in MAP_TYPES:
            return make_map([(key(k), v) for k, v in map_items(x)])
        return x

    return postwalk(f, form)


@builtin("keywordize-keys", ns=NS, args="[m]", category="walk",
         doc="Turns every string key of every map in m (at any depth) into a keyword.",
         ex=(("(clojure.walk/keywordize-keys {\"a\" 1 \"b\" {\"c\" 2}})", "{:a 1, :b {:c 2}}"),))
def keywordize_keys(m: Any) -> Any:
    return _rekey(m, lambda k: Keyword(k) if type(k) is str else k)


@builtin("stringify-keys", ns=NS, args="[m]", category="walk",
         doc="Turns every keyword key of every map in m (at any depth) into a string.",
         ex=(("(clojure.walk/stringify-keys {:a 1 :b {:c 2}})", "{\"a\" 1, \"b\" {\"c\" 2}}"),))
def stringify_keys(m: Any) -> Any:
    return _rekey(m, lambda k: k.name if type(k) is Keyword else k)


__all__ = ["walk", "postwalk", "prewalk"]
