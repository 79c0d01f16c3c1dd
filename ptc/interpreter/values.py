"""PTC-Lisp values: the only objects a program can ever hold.

Representation (chosen for speed on data work, see docs/deviations.md):
- nil/true/false/integers/floats/strings are Python None/bool/int/float/str;
  a character literal is a one-character string.
- Keywords and symbols are interned small objects.
- Lists and realized sequences are `PList` (a tuple); vectors are pyrsistent `PVector`
  (a C persistent vector) or `MapEntry` (a 2-tuple that behaves as a vector).
- Maps are `FMap` (a frozen dict, insertion-ordered) up to SMALL entries and an `HMap` (a
  persistent map re-rooted over one plain dict) above, so building a big map in a loop is
  never quadratic while small records keep their field order.
- Sets follow the same two-tier rule: `FSet` (frozenset) and `HSet` (re-rooted set).
- Lazy sequences (what map, filter, range, iterate, for... return) are `LazySeq`
  (lazy.py), realized a chunk at a time as Clojure's are, and capped by the limits.
- Host data (the JSON-like Python a caller passes as data or a tool returns) is used as it
  is, without walking or copying it: a plain `dict` is a map whose string keys that are
  keyword names read as keywords (as Clojure's `(json/parse-string s true)` reads JSON),
  a `list` or `tuple` is a vector, a `set`/`frozenset` a set. They are read-only views:
  every write returns a new PTC collection, so the caller's objects never change. See
  `host_key` and "host data" below.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from typing import Any, Callable, Iterable, Iterator

from pyrsistent import pvector

from . import context, dates
from .errors import PTCError, runtime_error
from .lazy import LazySeq
from .sorted import SortedMap, SortedSet
from .table import Row, Table

SMALL = 16  # maps/sets with at most this many entries are plain frozen dicts/sets

PVector = type(pvector())
EMPTY_VECTOR = pvector()


class Keyword:
    """An interned keyword; calling it looks itself up in a map (`(:a m)`).

    Interning makes identity equality correct, so hashing and `==` stay at C speed
    (object identity): keyword lookups are the hottest operation in data programs.
    """

    __slots__ = ("name", "hk", "__weakref__")
    _interned: dict[str, "Keyword"] = {}

    def __new__(cls, name: str) -> "Keyword":
        kw = cls._interned.get(name)
        if kw is None:
            kw = object.__new__(cls)
            kw.name = name
            kw.hk = name if is_keyword_name(name) else NO_HOST_KEY  # the host-dict key it reads
            cls._interned[name] = kw
        return kw

    def __call__(self, m: Any, default: Any = None) -> Any:
        return lookup(m, self, default)

    def __repr__(self) -> str:
        return ":" + self.name

    def __reduce__(self):  # interned across pickling
        return (Keyword, (self.name,))


def keyword(name: str) -> Keyword:
    return Keyword(name)


_KEYWORD_NAME = re.compile(r"""[^\s,()\[\]{}"'`;@^~\\:][^\s,()\[\]{}"'`;@^~\\]*""")
NO_HOST_KEY = object()  # a key no host dict holds: what a keyword that JSON cannot spell reads


def is_keyword_name(s: str) -> bool:
    """Whether `:s` reads back as the keyword named s (the reader's rule): JSON keys that are
    keyword names become keywords, any other key (a space, a quote, empty...) stays a string."""
    return _KEYWORD_NAME.fullmatch(s) is not None


class Symbol:
    """A symbol as a value (only reachable through `quote`)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __hash__(self) -> int:
        return hash(("sym", self.name))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Symbol) and other.name == self.name

    def __repr__(self) -> str:
        return self.name


class PList(tuple):
    """A Clojure list or realized sequence."""

    __slots__ = ()

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


EMPTY_LIST = PList()


class PQueue:
    """clojure.lang.PersistentQueue: a persistent FIFO, conj at the rear, peek and pop at the
    front (each O(1) amortized: the items are a persistent vector from position _start, and a
    pop that leaves most of it unused copies the rest once), sequential like a list."""

    __slots__ = ("_v", "_start")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._v, self._start = pvector(items), 0

    @staticmethod
    def _of(items: Any, start: int) -> "PQueue":
        q = PQueue.__new__(PQueue)
        q._v, q._start = items, start
        return q

    def conj(self, x: Any) -> "PQueue":
        return PQueue._of(self._v.append(x), self._start)

    def peek(self) -> Any:
        return self._v[self._start] if self._start < len(self._v) else None

    def pop(self) -> "PQueue":
        start = self._start + 1
        if start > len(self._v):
            return self  # an empty queue pops to itself, as in Clojure
        if start > 32 and 2 * start > len(self._v):
            return PQueue._of(pvector(self._v[start:]), 0)
        return PQueue._of(self._v, start)

    def __len__(self) -> int:
        return len(self._v) - self._start

    def __iter__(self) -> Iterator[Any]:
        return itertools.islice(self._v, self._start, None)

    def __getitem__(self, i: Any) -> Any:
        """An item by position (first, last, nth...), or a slice of them as a list (rest...)."""
        if type(i) is slice:
            return PList(tuple(self)[i])
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self._v[self._start + i]

    def __eq__(self, other: object) -> bool:
        return equals(self, other)

    def __hash__(self) -> int:
        return hash(as_key(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (PQueue, (list(self),))

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


EMPTY_QUEUE = PQueue()


class MapEntry(tuple):
    """A `[k v]` pair produced by seqing a map; a vector in every respect."""

    __slots__ = ()

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


class FMap(dict):
    """A small immutable map (never mutated after construction; insertion-ordered)."""

    __slots__ = ()

    def __call__(self, k: Any, default: Any = None) -> Any:
        return lookup(self, k, default)

    def __hash__(self) -> int:  # type: ignore[override]
        key = as_key(self)
        return hash(frozenset(self.items())) if key is self else hash(key)

    def __eq__(self, other: object) -> bool:
        """A host dict compares with the plain Python this map stands for (`to_python`: keywords
        as strings), so a result equals its Python equivalent at any size (HMap does the same)."""
        if type(other) is dict:
            return to_python(self) == other
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)  # NotImplemented for a value that is no dict: Python then asks it
        return eq if eq is NotImplemented else not eq

    def _immutable(self, *a: Any, **k: Any) -> None:
        raise TypeError("PTC maps are immutable")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _immutable  # type: ignore[assignment]

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


class HMap:
    """A large persistent map with dict-speed updates in loops ("rerooting", Baker's trick).

    The newest version of a map owns a plain dict; `assoc` mutates it in place and turns the
    previous version into an undo record pointing at the new one. Reading an older version
    re-roots: undo records are replayed so that version owns the dict again. A loop that
    threads one map through `assoc` (the common case) therefore costs one dict store per
    step, while every version stays immutable and observable as Clojure requires.
    """

    __slots__ = ("_d", "_undo")

    def __init__(self, items: Any = ()) -> None:
        self._d: dict[Any, Any] | None = dict(items)
        self._undo: tuple[Any, Any, HMap] | None = None

    def _dict(self) -> dict[Any, Any]:
        d = self._d
        if d is None:
            d = self._reroot()
        return d

    def _reroot(self) -> dict[Any, Any]:
        chain: list[HMap] = []
        node: HMap = self
        while node._d is None:
            chain.append(node)
            node = node._undo[2]  # type: ignore[index]
        d = node._d
        for older in reversed(chain):
            k, old, newer = older._undo  # type: ignore[misc]
            current = d.get(k, _MISSING)
            if old is _MISSING:
                del d[k]
            else:
                d[k] = old
            newer._d, newer._undo = None, (k, current, older)
            older._d, older._undo = d, None
        return d  # type: ignore[return-value]

    def get(self, k: Any, default: Any = None) -> Any:
        d = self._d
        if d is None:
            d = self._reroot()
        return d.get(k, default)

    def __getitem__(self, k: Any) -> Any:
        return self._dict()[k]

    def __contains__(self, k: object) -> bool:
        return k in self._dict()

    def __len__(self) -> int:
        return len(self._dict())

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._dict()))

    def keys(self) -> Iterable[Any]:
        return list(self._dict().keys())

    def values(self) -> Iterable[Any]:
        return list(self._dict().values())

    def items(self) -> Iterable[tuple[Any, Any]]:
        return list(self._dict().items())

    def set(self, k: Any, v: Any) -> "HMap":
        d = self._d
        if d is None:
            d = self._reroot()
        old = d.get(k, _MISSING)
        if old is v:
            return self
        d[k] = v
        new = HMap.__new__(HMap)
        new._d, new._undo = d, None
        self._d, self._undo = None, (k, old, new)
        return new

    def delete(self, k: Any) -> "HMap":
        d = self._d
        if d is None:
            d = self._reroot()
        old = d.pop(k, _MISSING)
        if old is _MISSING:
            return self
        new = HMap.__new__(HMap)
        new._d, new._undo = d, None
        self._d, self._undo = None, (k, old, new)
        return new

    def __call__(self, k: Any, default: Any = None) -> Any:
        return lookup(self, k, default)

    def __hash__(self) -> int:
        key = as_key(self)
        return hash(frozenset(self._dict().items())) if key is self else hash(key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (HMap, FMap)):
            return len(self) == len(other) and all(other.get(k, _MISSING) == v for k, v in self.items())
        if type(other) is dict:
            return to_python(self) == other
        return NotImplemented

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (HMap, (self.items(),))

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


EMPTY_MAP = FMap()
PTC_MAP_TYPES = (FMap, HMap)
MAP_TYPES = (FMap, HMap, dict, SortedMap, Row)  # dict: host data (see host_key); Row: a table's row


def make_map(pairs: Iterable[tuple[Any, Any]] | dict[Any, Any]) -> FMap | HMap:
    """The canonical map for these entries (later keys win). A dict argument must already
    hold PTC keys (it is taken as it is, not read as host data)."""
    d = dict(pairs) if isinstance(pairs, dict) else dict((as_key(k), val) for k, val in pairs)
    if len(d) <= SMALL:
        return FMap(d)
    return HMap(d)


def map_of(d: dict[Any, Any]) -> FMap | HMap:
    """The PTC map that takes over d, a fresh dict with PTC keys (no copy for big maps)."""
    if len(d) <= SMALL:
        return FMap(d)
    m = HMap.__new__(HMap)
    m._d, m._undo = d, None
    return m


def assoc(m: Any, k: Any, v: Any) -> FMap | HMap:
    """(assoc m k v) for any map; a host dict gives a new PTC map and stays unchanged."""
    if type(k) not in _SCALAR_KEYS and type(k) is not Keyword:
        k = as_key(k)
    if type(m) is Row:  # a table's row: a small one as a host row (see Row.host_dict), else a PTC map
        if (d := m.host_dict(SMALL)) is not None and (hk := host_slot(d, k)) is not NO_HOST_KEY:
            d[hk] = v
            return d  # type: ignore[return-value]
        m = pmap(m)
    elif type(m) is dict:  # one copy: the row's entries under PTC keys, then k
        hk = host_slot(m, k)
        if hk is not NO_HOST_KEY:
            n = m.copy()
            n[hk] = v
            return n  # type: ignore[return-value]
        if len(m) < SMALL:
            n = ptc_dict(m, FMap)
            dict.__setitem__(n, k, v)
            return n
        d = ptc_dict(m)
        d[k] = v
        return map_of(d)
    elif type(m) is SortedMap:
        return m.assoc(k, v)
    if type(m) is FMap:
        if len(m) < SMALL or k in m:
            n = FMap(m)
            dict.__setitem__(n, k, v)
            return n
        d = dict(m)
        d[k] = v
        return HMap(d)
    return m.set(k, v)


def dissoc(m: Any, k: Any) -> FMap | HMap:
    """(dissoc m k) for any map (a map without k is returned as it is)."""
    k = as_key(k)
    if not contains_key(m, k):
        return m
    if type(m) is SortedMap:
        return m.dissoc(k)
    if type(m) is Row:
        m = m.host_dict(SMALL) or m
    if type(m) is dict and (hk := host_slot(m, k)) is not NO_HOST_KEY:
        n = m.copy()
        del n[hk]
        return n  # type: ignore[return-value]
    if type(m) is dict or type(m) is Row:
        m = pmap(m)
    if type(m) is FMap:
        n = FMap(m)
        dict.__delitem__(n, k)
        return n
    n2 = m.delete(k)
    if len(n2) <= SMALL:
        return FMap(n2.items())
    return n2


def host_slot(m: dict[Any, Any], k: Any) -> Any:
    """The string key under which host dict m can hold PTC key k (NO_HOST_KEY when it cannot):
    a small host row written with keyword keys stays a host dict (one C copy, ~20x cheaper than
    converting every key), since its string keys already read as those keywords. A big dict is
    converted instead: the persistent map then makes each later write O(1)."""
    if len(m) >= SMALL:
        return NO_HOST_KEY
    if type(k) is Keyword:
        return k.hk
    if type(k) is str and type(host_key(k)) is str:  # "unit price": a string key stays a string
        return k
    return NO_HOST_KEY


def map_items(m: Any) -> Iterable[tuple[Any, Any]]:
    """The (key, value) entries of any map, keys as PTC sees them."""
    if type(m) is dict:
        return [(host_key(k), v) for k, v in m.items()]
    return m.items()


def first_values(m: Any, n: int) -> list[Any]:
    """The first n values of any map, in its order, without listing the others (a 100,000-key
    result is looked at for charts on every run)."""
    if type(m) is HMap:
        return list(itertools.islice(m._dict().values(), n))
    if isinstance(m, dict):
        return list(itertools.islice(dict.values(m), n))
    return list(itertools.islice(iter(m.values()), n))


def map_keys(m: Any) -> Iterable[Any]:
    if type(m) is dict:
        return [host_key(k) for k in m]
    return m.keys()


def map_get(m: Any, k: Any, default: Any = None) -> Any:
    """m's value at PTC key k (k already passed through as_key when it is a collection)."""
    if type(m) is dict:
        hk = host_probe(k)
        if hk is _CONVERT:
            return pmap(m).get(k, default)
        return m.get(hk, default)
    return m.get(k, default)


def pmap(m: Any) -> FMap | HMap:
    """A PTC map with the entries of map m: a host dict is converted one level deep (its keys
    read as keywords, its values left as they are), anything else is returned as it is."""
    if type(m) is Row:
        return map_of(m.as_dict())
    if type(m) is not dict:
        return m  # type: ignore[no-any-return]
    return ptc_dict(m, FMap) if len(m) <= SMALL else map_of(ptc_dict(m))


_ROW_KEYS: dict[tuple[str, ...], tuple[Any, ...]] = {}  # a host dict's string keys -> their PTC keys


def ptc_dict(m: dict[Any, Any], cls: type = dict) -> Any:
    """A fresh dict (or FMap: cls) with host dict m's entries under their PTC keys. Rows of a
    table share their keys: the keys of a dict with string keys are converted once per
    distinct key tuple (a tuple of strings equals only the same strings, so a hit is right)."""
    n = len(m)
    if n > 4096:
        from .context import check_size

        check_size(n, "map")
    elif n:
        keys = tuple(m)
        ks = _ROW_KEYS.get(keys)
        if ks is None:
            ks = tuple(host_key(k) for k in keys)
            if all(type(k) is str for k in keys):
                if len(_ROW_KEYS) >= 4096:
                    _ROW_KEYS.clear()
                _ROW_KEYS[keys] = ks
        return cls(zip(ks, m.values()))
    return cls({host_key(k): v for k, v in m.items()})


class FSet(frozenset):
    """A small immutable set."""

    __slots__ = ()

    def __call__(self, k: Any, default: Any = None) -> Any:
        if type(k) not in _PLAIN_KEY_TYPES:
            k = as_key(k)
        return k if k in self else default

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


class HSet:
    """A large persistent set with set-speed updates in loops, re-rooted like HMap: the newest
    version owns a plain set, and `conj`/`disj` turn the previous version into an undo record
    (the item, whether that version held it, the newer version). Building one from a million
    items is one C call; every version stays immutable and observable."""

    __slots__ = ("_s", "_undo")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._s: set[Any] | None = set(items)
        self._undo: tuple[Any, bool, HSet] | None = None

    def _set(self) -> set[Any]:
        s = self._s
        return s if s is not None else self._reroot()

    def _reroot(self) -> set[Any]:
        chain: list[HSet] = []
        node: HSet = self
        while node._s is None:
            chain.append(node)
            node = node._undo[2]  # type: ignore[index]
        s = node._s
        for older in reversed(chain):
            x, held, newer = older._undo  # type: ignore[misc]
            holds = x in s
            if held:
                s.add(x)
            else:
                s.discard(x)
            newer._s, newer._undo = None, (x, holds, older)
            older._s, older._undo = s, None
        return s  # type: ignore[return-value]

    def _version(self, x: Any, held: bool) -> "HSet":
        """The next version after changing x in the shared set; self keeps how it was."""
        new = HSet.__new__(HSet)
        new._s, new._undo = self._s, None
        self._s, self._undo = None, (x, held, new)
        return new

    def add(self, x: Any) -> "HSet":
        s = self._set()
        if x in s:
            return self
        s.add(x)
        return self._version(x, False)

    def remove(self, x: Any) -> "HSet":
        s = self._set()
        if x not in s:
            return self
        s.remove(x)
        return self._version(x, True)

    def __contains__(self, k: object) -> bool:
        return k in self._set()

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._set()))

    def __len__(self) -> int:
        return len(self._set())

    def __hash__(self) -> int:
        key = as_key(self)
        return hash(frozenset(self._set())) if key is self else hash(key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (HSet, FSet, frozenset, set)):
            return len(self) == len(other) and all(k in other for k in self)
        return NotImplemented

    def __call__(self, k: Any, default: Any = None) -> Any:
        if type(k) not in _PLAIN_KEY_TYPES:
            k = as_key(k)
        return k if k in self._set() else default

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (HSet, (list(self._set()),))

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


EMPTY_SET = FSet()
PTC_SET_TYPES = (FSet, HSet)
SET_TYPES = (FSet, HSet, set, frozenset, SortedSet)  # set, frozenset: host data


_SCALAR_KEYS = frozenset({str, int, float, bool, type(None)}) | dates.TYPES  # dates: plain hashable values
_PLAIN_KEY_TYPES = frozenset({str, int, float, bool, type(None), Keyword})


def as_key(k: Any) -> Any:
    """k as it may be hashed (a map key, a set member): PTC collections as they are, host data
    inside them converted to PTC collections, so that equal values hash alike whatever their
    origin. The tree is bounded first: a vector holding the same vector twice at every level,
    60 levels deep, has 2^60 leaves, and hashing runs in C where no limit can stop it; the walk
    visits each distinct node once. Scalars pass at once."""
    t = type(k)
    if t in _SCALAR_KEYS or t is Keyword:
        return k
    if t is PVector and len(k) < 64 and set(map(type, k)) <= _PLAIN_KEY_TYPES:
        return k  # a flat vector of scalars (a juxt key, a path): nothing to walk or convert
    if t in _KEYED_COLLS:
        from .context import CURRENT, tick

        size, key = _canon(k, {}, CURRENT.limits.max_collection, CURRENT.limits.max_key_depth)
        if size > 64 or key is not k:  # a big walk or a conversion: charge it (steps, deadline)
            tick(size)
        return key
    if t is Symbol or t is Regex or (callable(k) and t not in _HOST_TYPES) or isinstance(k, Record):
        return k
    raise foreign_error(k)


def _canon(x: Any, memo: dict[int, tuple[int, Any]], bound: int, depth_left: int) -> tuple[int, Any]:
    """(size, canonical x): size counts the leaves and nodes of x's tree, shared parts each
    time they occur; each distinct node is walked once (memo) and nesting deeper than
    depth_left is refused (hashing recurses in C)."""
    t = type(x)
    if t not in _KEYED_COLLS:
        return 1, as_key(x)
    known = memo.get(id(x))
    if known is not None:
        return known
    if depth_left <= 0:
        from .context import CURRENT, limit_error

        raise limit_error("max_key_depth", CURRENT.limits.max_key_depth,
                          "a collection nested too deeply to use as a key or set member")
    total = 1
    changed = t in _HOST_TYPES or t is LazySeq or t is Row or t is Table or t is PQueue
    out: list[Any] = []
    if t in MAP_TYPES:
        for k, v in (map_items(x) if t is dict else x.items()):
            sk, ck = _canon(k, memo, bound, depth_left - 1)
            sv, cv = _canon(v, memo, bound, depth_left - 1)
            total += sk + sv
            if total > bound:
                _too_big(bound)
            changed = changed or ck is not k or cv is not v
            out.append((ck, cv))
        canon = map_of(dict(out)) if changed else x
    else:
        for item in (x.realize() if t is LazySeq else x):
            size, c = _canon(item, memo, bound, depth_left - 1)
            total += size
            if total > bound:
                _too_big(bound)
            changed = changed or c is not item
            out.append(c)
        if not changed:
            canon = x
        elif t in SET_TYPES:
            canon = _set_of(set(out))
        elif t is PList or t is LazySeq or t is PQueue:  # a queue hashes as the list of its items
            canon = PList(out)
        else:
            canon = pvector(out)
    memo[id(x)] = (total, canon)
    return total, canon


def _too_big(bound: int) -> None:
    from .context import limit_error

    raise limit_error("max_collection", bound, "a collection too large to use as a key or set member")


def _set_of(s: set[Any] | frozenset[Any]) -> FSet | HSet:
    if len(s) <= SMALL:
        return FSet(s)
    return HSet(s)


def make_set(items: Iterable[Any]) -> FSet | HSet:
    """A PTC set of these items (collections among them pass through as_key)."""
    if type(items) is Table and len(items) > 4096:  # a table is read, not realized: bound the set first
        from .context import check_size

        check_size(len(items), "set")
    items = items if type(items) in (list, tuple, set, frozenset) else list(items)
    if not set(map(type, items)) <= _PLAIN_KEY_TYPES:  # collections inside: bound and convert them
        items = [as_key(i) for i in items]
    if len(items) > 4096:
        from .context import check_deadline

        check_deadline()
    return _set_of(items if type(items) in (set, frozenset) else set(items))


def pset(s: Any) -> FSet | HSet:
    """A PTC set with the members of set s (a host set is converted; PTC sets returned as they are)."""
    return make_set(s) if type(s) in (set, frozenset) else s


def set_conj(s: Any, x: Any) -> FSet | HSet:
    x = as_key(x)
    s = pset(s)
    if x in s:
        return s
    if type(s) is FSet:
        if len(s) < SMALL:
            return FSet(itertools.chain(s, (x,)))
        return HSet(itertools.chain(s, (x,)))
    return s.add(x)  # type: ignore[union-attr]


def set_disj(s: Any, x: Any) -> FSet | HSet:
    x = as_key(x)
    s = pset(s)
    if x not in s:
        return s
    if type(s) is FSet:
        return FSet(s - {x})
    r = s.remove(x)  # type: ignore[union-attr]
    return FSet(r) if len(r) <= SMALL and type(r) is HSet else r


PTC_VECTOR_TYPES = (PVector, MapEntry)
VECTOR_TYPES = (PVector, MapEntry, list, tuple, Table)  # list, tuple: host data; Table: columnar rows


def vec(items: Iterable[Any]) -> Any:
    return pvector(items)


def pvec(x: Any) -> Any:
    """A persistent vector with the items of vector x (host lists and map entries copied)."""
    return x if type(x) is PVector else pvector(x)


SEQ_TYPES = (PList, LazySeq)
SEQUENTIAL_TYPES = (PList, PVector, MapEntry, LazySeq, list, tuple, Table, PQueue)
_HOST_TYPES = frozenset({dict, list, tuple, set, frozenset})
_KEYED_COLLS = frozenset({PList, PVector, MapEntry, FMap, HMap, FSet, HSet, LazySeq, SortedMap,
                          SortedSet, Table, Row, PQueue}) | _HOST_TYPES


class Regex:
    """A compiled regular expression (RE2: linear time, no backtracking bombs)."""

    __slots__ = ("source", "compiled")

    def __init__(self, source: str, compiled: Any) -> None:
        self.source = source
        self.compiled = compiled

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return '#"' + self.source + '"'


class Fn:
    """Metadata of a PTC function: its name and the arities it accepts (for errors/printing)."""

    __slots__ = ("name", "arities", "variadic", "doc")

    def __init__(self, name: str, arities: tuple[int, ...], variadic: int | None, doc: str | None) -> None:
        self.name = name
        self.arities = arities
        self.variadic = variadic
        self.doc = doc


class Record:
    """A library's read-only value (a fitted ml model), read like a Clojure record: a map of its
    public `fields` for get, keyword calls, contains?, keys and seq (assoc gives a plain map),
    printed as `#tag` and the `shown` fields, equal only to itself. A subclass holds what the
    fields come from (an estimator); a Record of the base class is what crossed a process
    boundary: the fields alone (isolation/pickling.py)."""

    __slots__ = ("tag", "fields", "shown")

    def __init__(self, tag: str, fields: Any, shown: tuple[Any, ...]) -> None:
        self.tag, self.fields, self.shown = tag, fields, shown

    def summary(self) -> Any:
        """The fields it prints."""
        return make_map([(k, self.fields.get(k)) for k in self.shown if k in self.fields])

    def held_bytes(self) -> int:
        """What it holds beyond its fields (a subclass's arrays), for session memory."""
        return 0


def truthy(x: Any) -> bool:
    return x is not None and x is not False


def is_fn(x: Any) -> bool:
    t = type(x)
    return t in VECTOR_TYPES or t is dict or t is set or t is frozenset or (callable(x) and not isinstance(x, type))


def as_fn(f: Any, who: str = "fn") -> Callable[..., Any]:
    """Turn any PTC invokable (fn, keyword, map, set, vector) into a Python callable."""
    t = type(f)
    if t in VECTOR_TYPES:
        return lambda i: nth(f, i)
    if t is dict or t is set or t is frozenset:
        return lambda k, *default: lookup(f, k, *default)
    if callable(f) and not isinstance(f, type):
        return f
    raise runtime_error(f"{who}: expected a function, got {type_name(f)} {short(f)}")


# -- lookup and equality ------------------------------------------------------------


def lookup(m: Any, k: Any, default: Any = None) -> Any:
    """`get`: the value at key k of a map (index of a vector or string, member of a set)."""
    t = type(m)
    if t is dict:
        if type(k) is Keyword:
            return m.get(k.hk, default)
        return map_get(m, as_key(k), default)
    if type(k) not in _PLAIN_KEY_TYPES:
        k = as_key(k)
    if t is FMap or t is HMap or t is SortedMap or t is Row:
        return m.get(k, default)
    if m is None:
        return default
    if t in SET_TYPES:
        return k if k in m else default
    if t in VECTOR_TYPES or t is str:
        if type(k) is int and 0 <= k < len(m):
            return m[k]
        return default
    if isinstance(m, Record):
        return m.fields.get(k, default)
    return default


_MISSING = object()


def contains_key(m: Any, k: Any) -> bool:
    if type(k) not in _PLAIN_KEY_TYPES:
        k = as_key(k)
    t = type(m)
    if t is FMap or t is HMap or t is SortedMap or t is Row:
        return k in m
    if t is dict:
        return map_get(m, k, _MISSING) is not _MISSING
    if t in SET_TYPES:
        return k in m
    if t in VECTOR_TYPES or t is str:
        return type(k) is int and 0 <= k < len(m)
    if m is None:
        return False
    if isinstance(m, Record):
        return k in m.fields
    raise runtime_error(f"contains?: not supported on {type_name(m)}")


def nth(coll: Any, i: Any, *default: Any) -> Any:
    if type(i) is not int:
        if type(i) is float and i == int(i):
            i = int(i)
        else:
            raise runtime_error(f"nth: index must be an integer, got {type_name(i)}")
    t = type(coll)
    if t in VECTOR_TYPES or t is PList or t is str or t is PQueue:
        if 0 <= i < len(coll):
            return coll[i]
    elif t is LazySeq:
        if i >= 0:
            v = coll.nth(i, _MISSING)
            if v is not _MISSING:
                return v
    elif coll is None:
        return default[0] if default else None
    else:
        raise runtime_error(f"nth: not supported on {type_name(coll)}")
    if default:
        return default[0]
    raise runtime_error(f"nth: index {i} out of bounds for {type_name(coll)} of length {count(coll)}")


def count(x: Any) -> int:
    if x is None:
        return 0
    if type(x) in _COUNTED:
        return len(x)
    raise runtime_error(f"count: not supported on {type_name(x)}")


_NUMBER = (int, float)


def equals(a: Any, b: Any) -> bool:
    """Clojure `=`: 1 and 1.0 differ, a vector equals a list with the same items."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if ta is bool or tb is bool or a is None or b is None:
        return False
    if ta in _NUMBER or tb in _NUMBER:
        return ta is tb and a == b
    if ta is str or tb is str:
        return ta is tb and a == b
    if ta in _SEQ_EQ and tb in _SEQ_EQ:
        if ta is not LazySeq and tb is not LazySeq and len(a) != len(b):
            return False
        _charge_walk()
        sentinel = _MISSING
        for x, y in itertools.zip_longest(a, b, fillvalue=sentinel):
            if x is sentinel or y is sentinel or not equals(x, y):
                return False
        return True
    if ta in MAP_TYPES and tb in MAP_TYPES:
        if len(a) != len(b):
            return False
        _charge_walk()
        if ta is dict and tb is dict:  # both host data: their keys read alike
            items: Iterable[tuple[Any, Any]] = a.items()
            get = b.get
        else:
            items, get = map_items(a), functools.partial(map_get, b)
        for k, v in items:
            w = get(k, _MISSING)
            if w is _MISSING or not equals(v, w):
                return False
        return True
    if ta in SET_TYPES and tb in SET_TYPES:
        if len(a) != len(b):
            return False
        if len(a) > 4096:
            from .context import check_deadline

            check_deadline()
        a, b = pset(a), pset(b)
        return all(x in b for x in a)
    if ta not in _KNOWN and not callable(a) and not isinstance(a, Record):
        raise foreign_error(a)
    if tb not in _KNOWN and not callable(b) and not isinstance(b, Record):
        raise foreign_error(b)
    return bool(a == b) if ta is tb else False


_SEQ_EQ = (PList, PVector, MapEntry, LazySeq, list, tuple, Table, PQueue)
_walk = [0]


def _charge_walk() -> None:
    """Comparing nested collections charges steps, so = on huge or shared structures stops at
    the step and time limits instead of running on."""
    _walk[0] += 1
    if _walk[0] & 255 == 0:
        from .context import tick

        tick(256)


def is_number(x: Any) -> bool:
    t = type(x)
    return t is int or t is float


def type_name(x: Any) -> str:
    """The PTC type vocabulary used in every error message."""
    if x is None:
        return "nil"
    t = type(x)
    name = _TYPE_NAMES.get(t)
    if name is not None:
        return name
    if t in dates.TYPES:
        return dates.kind(x)
    if isinstance(x, Record):
        return x.tag
    if callable(x):
        return "function"
    return f"Python {t.__name__}"


_TYPE_NAMES: dict[type, str] = {
    bool: "boolean",
    int: "integer",
    float: "float",
    str: "string",
    Keyword: "keyword",
    Symbol: "symbol",
    PList: "list",
    LazySeq: "lazy seq",
    PVector: "vector",
    MapEntry: "vector",
    FMap: "map",
    HMap: "map",
    FSet: "set",
    HSet: "set",
    Regex: "regex",
    dict: "map",
    list: "vector",
    tuple: "vector",
    set: "set",
    frozenset: "set",
    SortedMap: "map",
    SortedSet: "set",
    Row: "map",
    Table: "vector",
    PQueue: "queue",
}
_KNOWN = frozenset(_TYPE_NAMES) | {type(None)} | dates.TYPES
_COUNTED = frozenset({str, PList, MapEntry, PVector, LazySeq, FMap, HMap, FSet, HSet, SortedMap,
                      SortedSet, Table, Row, PQueue}) | _HOST_TYPES


def short(x: Any, limit: int = 40) -> str:
    from .printer import pr_str

    text = pr_str(x, max_len=limit + 1)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- crossing the host boundary -----------------------------------------------------


def from_python(x: Any, where: str = "value") -> Any:
    """Host data as a PTC value, without walking or copying it: JSON-like containers are used
    as they are (read-only views, see host_key). Only the top level is checked here; a value
    deeper inside that is not JSON-like is refused where a program first uses it."""
    t = type(x)
    if t in _ENTERS:
        return x
    if isinstance(x, bool):  # subclasses of the JSON types (enums, OrderedDict...): their plain value
        return bool(x)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return float(x)
    if isinstance(x, str):
        return str(x)
    if isinstance(x, dict):
        return dict(x)
    if isinstance(x, (list, tuple)):
        return list(x)
    if isinstance(x, (set, frozenset)):
        return frozenset(x)
    if isinstance(x, dates.DateTime):  # e.g. a pandas Timestamp: the plain datetime it stands for
        return dates.DateTime(x.year, x.month, x.day, x.hour, x.minute, x.second, x.microsecond, x.tzinfo)
    if isinstance(x, dates.LocalDate):
        return dates.LocalDate(x.year, x.month, x.day)
    if hasattr(x, "model_dump") and not isinstance(x, type):  # pydantic models become maps
        return x.model_dump(mode="json")
    if type(x).__module__ == "numpy":
        return _from_numpy(x, where)
    from . import hooks

    arrow = hooks.as_arrow(x, where)  # DataFrames, Arrow and DuckDB objects become tables
    if arrow is not None:
        return Table(arrow)
    raise PTCError(
        "tool" if where.startswith("tool") else "runtime",
        f"{where}: cannot convert a Python {t.__name__} into a PTC value",
        hint=_JSON_HINT,
    )


def _from_numpy(x: Any, where: str) -> Any:
    """A numpy scalar as the Python number it holds (np.int64, np.bool_, np.float32), an array of
    one or two dimensions as a vector (of vectors) of them; a numpy float64 is a float already."""
    ndim = getattr(x, "ndim", None)
    if ndim == 0 and hasattr(x, "item"):
        return from_python(x.item(), where)
    if ndim in (1, 2) and getattr(x, "dtype", None) is not None and x.dtype.kind in "biufU":
        return x.tolist()
    raise PTCError("tool" if where.startswith("tool") else "runtime",
                   f"{where}: a numpy {type(x).__name__} of {ndim} dimensions ({getattr(x, 'dtype', '?')}) "
                   "is not a PTC value",
                   hint="pass numbers, or an array of 1 or 2 dimensions of numbers, booleans or strings "
                        "(a table: a DataFrame or an Arrow table)")


_JSON_HINT = ("tools and data must use JSON-like values: dict, list, str, int, float, bool, None "
              "(and datetime.date, datetime.datetime, datetime.timedelta)")
_PTC_TYPES = frozenset({Keyword, Symbol, PList, MapEntry, PVector, FMap, HMap, FSet, HSet, LazySeq, Regex,
                        SortedMap, SortedSet, Table, Row})
_ENTERS = _PTC_TYPES | _HOST_TYPES | _SCALAR_KEYS


def foreign_error(x: Any) -> PTCError:
    """The error for a host value that is not JSON-like, met inside data or a tool result."""
    return PTCError("runtime", f"cannot use a Python {type(x).__name__} as a PTC value "
                    "(it is inside the data or a tool result)", hint=_JSON_HINT)


_HOST_KEYS: dict[str, Any] = {}
_HOST_KEYS_MAX = 100_000


def host_key(k: Any) -> Any:
    """The PTC key that host dict key k is: a string that is a keyword name is that keyword
    (`"amount"` -> `:amount`, as `(json/parse-string s true)` reads JSON), any other string
    stays a string (`"unit price"`), numbers, booleans and nil are themselves."""
    if type(k) is str:
        key = _HOST_KEYS.get(k)
        if key is None:
            key = Keyword(k) if is_keyword_name(k) else k
            if len(_HOST_KEYS) >= _HOST_KEYS_MAX:
                _HOST_KEYS.clear()
            _HOST_KEYS[k] = key
        return key
    t = type(k)
    if t is int or t is bool or k is None or t is Keyword:
        return k
    if t is float:
        if k != k:
            raise PTCError("runtime", "NaN cannot be a map key (it is inside the data or a tool result)",
                           hint=_JSON_HINT)
        return k
    if t is tuple or t is frozenset:
        return as_key(k)
    raise foreign_error(k)


_CONVERT = object()


def host_probe(k: Any) -> Any:
    """The host dict key that PTC key k reads: a keyword its name (NO_HOST_KEY if JSON could
    not spell it), a string that is a keyword name NO_HOST_KEY (the host key "amount" is :amount,
    so `(get row "amount")` is nil, as in Clojure), a scalar itself; _CONVERT for a collection."""
    t = type(k)
    if t is Keyword:
        return k.hk
    if t is str:
        return NO_HOST_KEY if type(host_key(k)) is Keyword else k
    if t is int or t is float or t is bool or k is None:
        return k
    return _CONVERT


def to_python(v: Any) -> Any:
    """Plain JSON-like Python: keywords become strings, sequences lists, sets lists.

    The conversion counts the items it produces: a value that shares its parts (a vector
    holding the same vector twice, 60 levels deep) would expand exponentially, so past
    twice max_collection items it is refused."""
    from .context import CURRENT

    budget = [2 * CURRENT.limits.max_collection]
    try:
        return _to_python(v, budget)
    except RecursionError:
        from .context import limit_error

        raise limit_error("max_depth", CURRENT.limits.max_depth,
                          "a value nested too deeply to convert (or data that contains itself)") from None


def _spend(budget: list[int], n: int) -> None:
    before = budget[0]
    budget[0] -= n
    if budget[0] < 0:
        from .context import CURRENT, limit_error

        raise limit_error("max_collection", CURRENT.limits.max_collection, "value too large to convert")
    if (before >> 14) != (budget[0] >> 14):  # every 16k items: the deadline
        from .context import check_deadline

        check_deadline()


def _to_python(v: Any, budget: list[int]) -> Any:
    if v is None or v is True or v is False:
        return v
    t = type(v)
    if t is int or t is str:
        return v
    if t is float:
        return v
    if t is Keyword:
        return v.name
    if t is Symbol:
        return v.name
    if t is dict:  # host data: string keys go back as they came
        _spend(budget, len(v))
        return {(k if type(k) is str else _key_to_python(host_key(k))): _to_python(x, budget)
                for k, x in v.items()}
    if t is FMap or t is HMap or t is SortedMap or t is Row:
        _spend(budget, len(v))
        return {_key_to_python(k): _to_python(x, budget) for k, x in v.items()}
    if t in SET_TYPES or t in _LISTED:
        _spend(budget, len(v))
        return [_to_python(x, budget) for x in v]
    if t is LazySeq:
        if not v.realized and (n := v.known_count()) is not None:  # a selection's rows: sized before they are made
            _spend(budget, n)
        return [_to_python(x, budget) for x in v.realize()]
    if t is Regex:
        return v.source
    if t in dates.TYPES:  # dates leave a program as their ISO text (the JSON rule, docs/deviations.md)
        return dates.iso_text(v)
    if isinstance(v, Record):  # its public fields
        return _to_python(v.fields, budget)
    if callable(v):
        from .printer import pr_str

        return pr_str(v)
    raise foreign_error(v)


_LISTED = frozenset({PList, PVector, MapEntry, list, tuple, Table, PQueue})


def _key_to_python(k: Any) -> Any:
    if type(k) is Keyword:
        return k.name
    if k is None or isinstance(k, (str, int, float, bool)):
        return k
    if type(k) in dates.TYPES:  # a date key becomes its ISO text, as a date value does
        return dates.iso_text(k)
    from .printer import pr_str

    return pr_str(k)


def isnan(x: Any) -> bool:
    return type(x) is float and math.isnan(x)


__all__ = [
    "Keyword", "keyword", "Symbol", "PList", "EMPTY_LIST", "PQueue", "EMPTY_QUEUE", "MapEntry", "PVector", "EMPTY_VECTOR",
    "FMap", "HMap", "EMPTY_MAP", "MAP_TYPES", "PTC_MAP_TYPES", "make_map", "map_of", "assoc", "dissoc",
    "map_items", "map_keys", "map_get", "pmap", "FSet", "HSet", "EMPTY_SET", "SET_TYPES", "PTC_SET_TYPES",
    "make_set", "pset", "set_conj", "set_disj", "VECTOR_TYPES", "PTC_VECTOR_TYPES", "vec", "pvec",
    "LazySeq", "iter_all", "SEQ_TYPES", "SEQUENTIAL_TYPES", "Regex", "Fn", "Record", "truthy", "is_fn", "as_fn", "lookup",
    "contains_key", "nth", "count", "equals", "is_number", "type_name", "short", "from_python",
    "to_python", "pvector", "iter_seq", "as_key", "host_key", "host_probe",
    "is_keyword_name", "foreign_error", "NO_HOST_KEY", "host_slot",
]


# -- sequences ----------------------------------------------------------------------


def iter_all(x: Any, who: str = "seq") -> Iterable[Any]:
    """iter_seq for a caller that uses every item: a lazy seq is realized in one pass, without
    the per-chunk work of reading it chunk by chunk."""
    if type(x) is LazySeq:
        return x.items()
    return iter_seq(x, who)


PACE = 1 << 16  # items between two deadline checks when a large input is iterated in C
PACED = 4 * PACE  # inputs longer than this are iterated a block at a time


def paced(x: Any) -> Iterator[Any]:
    """The items of a large string, list or vector a block at a time, the deadline checked
    between blocks: a consumer that runs in C (Counter, set, sorted) over the 50M characters of
    a data string would otherwise run for seconds past the deadline without returning."""
    for i in range(0, len(x), PACE):
        context.check_deadline()
        yield from x[i:i + PACE]


def checked(items: Iterable[Any]) -> Iterator[Any]:
    """items, the deadline read every 65,536 of them: for a builtin's own Python loop over a
    large input (a walk, a set difference), which would otherwise run past the run's deadline."""
    for i, x in enumerate(items):
        if not i & 0xFFFF:
            context.check_deadline()
        yield x


def iter_seq(x: Any, who: str = "seq") -> Iterable[Any]:
    """Iterate anything seqable: nil is empty, maps yield [k v] entries, strings chars."""
    t = type(x)
    if t is PList or t is PVector or t is list or t is MapEntry or t is LazySeq or t is str or t is tuple:
        return paced(x) if t is not LazySeq and len(x) > PACED else x
    if x is None:
        return ()
    if t is Table or t is PQueue:
        return x
    if t is FMap or t is HMap or t is SortedMap or t is Row:
        return (MapEntry(kv) for kv in x.items())
    if t is dict:
        return (MapEntry((host_key(k), v)) for k, v in x.items())
    if t in SET_TYPES:
        return x
    if isinstance(x, Record):
        return (MapEntry(kv) for kv in x.fields.items())
    raise runtime_error(f"{who}: don't know how to create a sequence from {type_name(x)} {short(x)}")
