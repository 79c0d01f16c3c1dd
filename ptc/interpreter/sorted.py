"""Sorted maps and sets (`sorted-map`, `sorted-set` and their `-by` forms): persistent
collections kept in comparator order.

Keys (members) are kept in a tuple in order, so lookups are a binary search and writes copy
the tuple (O(n): programs use sorted collections to present results, built in bulk by
`into`, which sorts once). As in Clojure, two keys the comparator calls equal are the same
key, and keys the comparator cannot compare are an error.
"""

from __future__ import annotations

import bisect
import functools
from typing import Any, Callable, Iterable, Iterator

Cmp = Callable[[Any, Any], int]


class _Sorted:
    """What sorted maps and sets share: the ordered keys, the comparator and binary search."""

    __slots__ = ("_keys", "_cmp", "comparator", "_order")

    def __init__(self, keys: tuple[Any, ...], cmp: Cmp, comparator: Any, order: Any = None) -> None:
        self._keys = keys
        self._cmp = cmp  # a Python cmp function
        self.comparator = comparator  # what the program gave (None: compare), for `empty`
        self._order = order or functools.cmp_to_key(cmp)  # shared by every version

    def _index(self, k: Any) -> tuple[int, bool]:
        """(position of k, whether k is there) in comparator order: O(log n) comparisons."""
        i = bisect.bisect_left(self._keys, self._order(k), key=self._order)
        return i, i < len(self._keys) and self._cmp(self._keys[i], k) == 0

    def bound(self, k: Any, inclusive: bool, lower: bool) -> int:
        """Index of the first key >= k (> k when not inclusive) for a lower bound; for an upper
        bound, the index just past the last key <= k (< k when not inclusive)."""
        i, found = self._index(k)
        if lower:
            return i + 1 if found and not inclusive else i
        return i + 1 if found and inclusive else i

    def __len__(self) -> int:
        return len(self._keys)


class SortedMap(_Sorted):
    """A persistent map in key order (Clojure's sorted-map)."""

    __slots__ = ("_vals",)

    def __init__(self, keys: tuple[Any, ...], vals: tuple[Any, ...], cmp: Cmp, comparator: Any,
                 order: Any = None) -> None:
        super().__init__(keys, cmp, comparator, order)
        self._vals = vals

    @classmethod
    def build(cls, pairs: Iterable[tuple[Any, Any]], cmp: Cmp, comparator: Any) -> "SortedMap":
        """The sorted map of these entries (a later key replaces an equal earlier one)."""
        m = cls((), (), cmp, comparator)
        pairs = list(pairs)
        if not pairs:
            return m
        ordered = sorted(enumerate(pairs), key=lambda ip: functools.cmp_to_key(cmp)(ip[1][0]))
        keys: list[Any] = []
        vals: list[Any] = []
        last: list[int] = []  # input position of each kept entry
        for pos, (k, val) in ordered:
            if keys and cmp(keys[-1], k) == 0:  # equal keys: the later one in the input wins
                if pos > last[-1]:
                    keys[-1], vals[-1], last[-1] = keys[-1], val, pos
                continue
            keys.append(k)
            vals.append(val)
            last.append(pos)
        return cls(tuple(keys), tuple(vals), cmp, comparator)

    def get(self, k: Any, default: Any = None) -> Any:
        i, found = self._index(k)
        return self._vals[i] if found else default

    def __contains__(self, k: object) -> bool:
        return self._index(k)[1]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._keys)

    def keys(self) -> tuple[Any, ...]:
        return self._keys

    def values(self) -> tuple[Any, ...]:
        return self._vals

    def items(self) -> Iterable[tuple[Any, Any]]:
        return zip(self._keys, self._vals)

    def assoc(self, k: Any, v: Any) -> "SortedMap":
        i, found = self._index(k)
        if found:
            if self._vals[i] is v:
                return self
            return SortedMap(self._keys, self._vals[:i] + (v,) + self._vals[i + 1:], self._cmp, self.comparator,
                             self._order)
        return SortedMap(self._keys[:i] + (k,) + self._keys[i:], self._vals[:i] + (v,) + self._vals[i:],
                         self._cmp, self.comparator, self._order)

    def dissoc(self, k: Any) -> "SortedMap":
        i, found = self._index(k)
        if not found:
            return self
        return SortedMap(self._keys[:i] + self._keys[i + 1:], self._vals[:i] + self._vals[i + 1:],
                         self._cmp, self.comparator, self._order)

    def merged(self, pairs: Iterable[tuple[Any, Any]]) -> "SortedMap":
        """This map with these entries added (a later equal key replaces the value)."""
        return SortedMap.build([*self.items(), *pairs], self._cmp, self.comparator)

    def entries(self, lo: int = 0, hi: int | None = None) -> list[tuple[Any, Any]]:
        return list(zip(self._keys[lo:hi], self._vals[lo:hi]))

    def empty(self) -> "SortedMap":
        return SortedMap((), (), self._cmp, self.comparator, self._order)

    def __call__(self, k: Any, default: Any = None) -> Any:
        return self.get(k, default)

    def __eq__(self, other: object) -> bool:
        from .values import equals

        return equals(self, other)

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


class SortedSet(_Sorted):
    """A persistent set in member order (Clojure's sorted-set)."""

    __slots__ = ()

    @classmethod
    def build(cls, items: Iterable[Any], cmp: Cmp, comparator: Any) -> "SortedSet":
        ordered = sorted(items, key=functools.cmp_to_key(cmp))
        keys: list[Any] = []
        for x in ordered:
            if not keys or cmp(keys[-1], x) != 0:  # the first of equal members stays
                keys.append(x)
        return cls(tuple(keys), cmp, comparator)

    def __contains__(self, k: object) -> bool:
        return self._index(k)[1]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._keys)

    def member(self, k: Any, default: Any = None) -> Any:
        i, found = self._index(k)
        return self._keys[i] if found else default

    def add(self, x: Any) -> "SortedSet":
        i, found = self._index(x)
        if found:
            return self
        return SortedSet(self._keys[:i] + (x,) + self._keys[i:], self._cmp, self.comparator, self._order)

    def remove(self, x: Any) -> "SortedSet":
        i, found = self._index(x)
        if not found:
            return self
        return SortedSet(self._keys[:i] + self._keys[i + 1:], self._cmp, self.comparator, self._order)

    def union(self, items: Iterable[Any]) -> "SortedSet":
        """This set with these members added (members already there stay)."""
        return SortedSet.build([*self._keys, *items], self._cmp, self.comparator)

    def members(self, lo: int = 0, hi: int | None = None) -> tuple[Any, ...]:
        return self._keys[lo:hi]

    def empty(self) -> "SortedSet":
        return SortedSet((), self._cmp, self.comparator, self._order)

    def __call__(self, k: Any, default: Any = None) -> Any:
        return self.member(k, default)

    def __eq__(self, other: object) -> bool:
        from .values import equals

        return equals(self, other)

    def __hash__(self) -> int:
        return hash(frozenset(self._keys))

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


SORTED_TYPES = (SortedMap, SortedSet)
