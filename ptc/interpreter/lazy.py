"""Lazy sequences, realized on demand one chunk at a time, like Clojure's lazy and chunked seqs.

A `LazySeq` pulls chunks (Python lists) from a `Source`. Chunked sources (vectors, `(range
n)`) give 32 items a chunk, and map, filter, keep and friends keep those chunks; unchunked
ones (lists, strings, maps, sets, `iterate`, `(range)`) give one item at a time. So a
program that needs only a prefix computes what Clojure computes: the chunks that prefix
touches, and never anything past them (an item that would throw, an infinite tail).

Consumers that need every item (`count`, `reduce`, `into`, printing) drain the source: a
chain of maps and filters over a vector then runs as one pass over the rest of it, with no
per-chunk overhead. Every realized item counts against the limits (collection size, the
memory estimate, the deadline); nothing unbounded is realized.

A lazy seq is realized only while a program runs: its items are computed by program code
(and tool calls), which must not run outside the run's limits. Outside a run (the host
printing memory, say) its realized items are all there is: the printer shows the rest as
`...`. What a program def's is realized when it ends (memory outlives the program), except
what is `infinite` ((range), iterate, cycle, repeat... and what maps and filters them).
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable, Iterator

from . import context
from .context import check_realized as _check_realized
from .errors import PTCError

CHUNK = 32  # Clojure's chunk size
OPEN_ENDED_PREFIX = 1024  # items of a lazy-seq kept in memory or sent across isolation: it may never end
_DRAIN = 4096  # items a drain realizes between limit checks, from an unbounded source


class Source:
    """Where a lazy seq's items come from, a chunk at a time."""

    infinite = False  # it never ends ((range), iterate, cycle...)
    # its items can be made after the run: rows of a selection the run computed, made by Arrow
    # calls alone (no program code runs, and the run's limits admitted the selection's size)
    after_run = False

    def next(self) -> list[Any] | None:
        """The next chunk (maybe empty), or None when there is no more."""
        raise NotImplementedError

    def drain(self) -> Iterator[list[Any]]:
        """Everything left, in as few chunks as the source can make (each is charged as it comes)."""
        while (chunk := self.next()) is not None:
            yield chunk

    def left(self) -> int | None:
        """How many items are still to come, when known without making them (else None)."""
        return None


class Items(Source):
    """An iterator of items, one per chunk (unchunked). pure: making the items has no effect
    ((range), repeat), so reading ahead of what is asked for cannot be observed."""

    __slots__ = ("it", "infinite", "pure")

    def __init__(self, it: Iterable[Any], infinite: bool = False, pure: bool = False) -> None:
        self.it = iter(it)
        self.infinite = infinite
        self.pure = pure

    def next(self) -> list[Any] | None:
        for x in self.it:
            return [x]
        return None

    def drain(self) -> Iterator[list[Any]]:
        it = self.it
        while chunk := list(itertools.islice(it, _DRAIN)):
            yield chunk

    def extend(self, cache: list[Any], k: int) -> None:
        """Append the next k items (fewer at the end) to cache, each its own chunk: what k
        calls of next() give, without a call per item (items made before an error stay)."""
        cache.extend(itertools.islice(self.it, k))


class Iterated(Source):
    """`(iterate f x)`: x, (f x), (f (f x))...; (f x) is computed when its item is first read,
    and an item whose f raised raises again when it is read again. `steps(x, k, append)`
    appends the next k items after x (the compiler makes one with a literal fn's body inlined)."""

    __slots__ = ("steps", "x", "fresh")
    infinite = True

    def __init__(self, steps: Callable[[Any, int, Callable[[Any], None]], None], x: Any) -> None:
        self.steps, self.x, self.fresh = steps, x, True  # x: the last item given (fresh: not given yet)

    @staticmethod
    def calling(f: Callable[[Any], Any]) -> Callable[[Any, int, Callable[[Any], None]], None]:
        """The steps of f as a function called per item."""
        def steps(x: Any, k: int, append: Callable[[Any], None]) -> None:
            for _ in range(k):
                x = f(x)
                append(x)
        return steps

    def next(self) -> list[Any] | None:
        out: list[Any] = []
        self.extend(out, 1)
        return out

    def extend(self, cache: list[Any], k: int) -> None:
        start = len(cache)
        if self.fresh:
            self.fresh = False
            cache.append(self.x)
            k -= 1
        try:
            self.steps(self.x, k, cache.append)
        finally:
            if len(cache) > start:
                self.x = cache[-1]


class Prefix(Source):
    """The first n items of a lazy seq (`take`): unchunked, as Clojure's take is, and reading
    the seq as far as the items asked for at once (so realizing a long prefix is not a call per item)."""

    __slots__ = ("of", "left")

    def __init__(self, seq: "LazySeq", n: int) -> None:
        self.of, self.left = Of(seq, 0), n

    @property
    def infinite(self) -> bool:  # type: ignore[override]
        return False

    def next(self) -> list[Any] | None:
        if self.left <= 0 or not (items := self.of.take(1)):
            return None
        self.left -= 1
        return items

    def extend(self, cache: list[Any], k: int) -> None:
        if (k := min(k, self.left)) > 0:
            items = self.of.take(k)
            self.left -= len(items)
            cache.extend(items)

    def drain(self) -> Iterator[list[Any]]:
        while self.left > 0 and (items := self.of.take(min(self.left, _DRAIN))):
            self.left -= len(items)
            yield items


class Chunks(Source):
    """A generator of chunks (a `for` comprehension, a sequence function's own loop)."""

    __slots__ = ("gen", "infinite")

    def __init__(self, gen: Iterator[list[Any]], infinite: bool = False) -> None:
        self.gen = gen
        self.infinite = infinite

    def next(self) -> list[Any] | None:
        return next(self.gen, None)

    def drain(self) -> Iterator[list[Any]]:
        return self.gen


DRAIN_BLOCK = 1 << 16  # items a drain of an indexable collection hands over at once


class Slices(Source):
    """An indexable collection from position `start`: when chunked (vectors), the chunks end at
    multiples of 32 (a vector's own blocks, as Clojure's chunked seq of a vector), else one
    item each; a drain takes the whole rest as one slice."""

    __slots__ = ("coll", "pos", "chunked")

    def __init__(self, coll: Any, start: int, chunked: bool) -> None:
        self.coll, self.pos, self.chunked = coll, start, chunked

    def next(self) -> list[Any] | None:
        i = self.pos
        if i >= len(self.coll):
            return None
        self.pos = end = (i // CHUNK + 1) * CHUNK if self.chunked else i + 1
        return list(self.coll[i:end])

    def drain(self) -> Iterator[list[Any]]:
        i, n = self.pos, len(self.coll)
        self.pos = n
        while i < n:  # blocks, so that a 50M-character string meets the limits as it is realized
            yield list(self.coll[i:i + DRAIN_BLOCK])
            i += DRAIN_BLOCK


class Ints(Source):
    """An integer range: 32 numbers a chunk, as Clojure's LongRange."""

    __slots__ = ("r", "n", "pos")

    def __init__(self, r: range) -> None:
        self.r, self.pos = r, 0
        self.n = range_len(r)  # len() overflows past 2**63

    def next(self) -> list[Any] | None:
        i = self.pos
        if i >= self.n:
            return None
        self.pos = i + CHUNK
        return list(self.r[i:i + CHUNK])

    def drain(self) -> Iterator[list[Any]]:
        r = self.r
        while self.pos < self.n:  # in big slices, so that limits are checked as it goes
            i = self.pos
            self.pos = i + 65536
            yield list(r[i:i + 65536])


def range_len(r: range) -> int:
    """len(r), which Python refuses past 2**63 items."""
    if r.step > 0:
        return max(0, (r.stop - r.start + r.step - 1) // r.step)
    return max(0, (r.start - r.stop - r.step - 1) // -r.step)


class Mapped(Source):
    """`each(chunk)` applied to every chunk of `source`: map, filter, keep... keep the source's
    chunks (so its chunkedness), and a drain maps the whole rest at once."""

    __slots__ = ("source", "each")

    def __init__(self, source: Source, each: Callable[[list[Any]], list[Any]]) -> None:
        self.source, self.each = source, each

    @property
    def infinite(self) -> bool:  # type: ignore[override]
        return self.source.infinite

    def next(self) -> list[Any] | None:
        chunk = self.source.next()
        return None if chunk is None else self.each(chunk)

    def drain(self) -> Iterator[list[Any]]:
        each = self.each
        for chunk in self.source.drain():
            yield each(chunk)


class Ahead(Source):
    """`each` (a pure compiled map/filter chain: no effect but its values or an error) over a
    pure unchunked source, computed AHEAD items at a time and handed out one item per chunk,
    as the source gives them (each source item gives at most one). What a reader sees is the
    same as reading item by item: no effect can tell, and a batch that raises is computed
    again item by item, so the error comes from the item that raises it, when it is reached."""

    __slots__ = ("source", "each", "out", "pending")
    AHEAD = 32

    def __init__(self, source: Source, each: Callable[[list[Any]], list[Any]]) -> None:
        self.source, self.each = source, each
        self.out: list[Any] = []  # computed results, reversed
        self.pending: list[Any] = []  # source items of a failed batch, reversed

    @property
    def infinite(self) -> bool:  # type: ignore[override]
        return self.source.infinite

    def extend(self, cache: list[Any], k: int) -> None:
        """Append the next k items (fewer at the end) to cache, each its own chunk (see Items)."""
        end = len(cache) + k
        while len(cache) < end:
            out = self.out
            if out:  # computed items are handed out in bulk: they are pure, nothing can tell
                take = min(end - len(cache), len(out))
                cache.extend(out[:-take - 1:-1])
                del out[-take:]
            elif (chunk := self.next()) is None:
                return
            else:
                cache.extend(chunk)

    def next(self) -> list[Any] | None:
        if self.out:
            return [self.out.pop()]
        if self.pending:
            return self.each([self.pending.pop()])
        src = self.source
        if type(src) is Of:  # the source seq's next items, realized in one pass
            items = src.take(self.AHEAD)
        elif type(src) in _ITEM_SOURCES:
            items = []
            src.extend(items, self.AHEAD)  # type: ignore[attr-defined]
        else:
            items = []
            while len(items) < self.AHEAD and (chunk := src.next()) is not None:
                items.extend(chunk)
        if not items:
            return None
        try:
            self.out = self.each(items)[::-1]
        except Exception:  # noqa: BLE001 - recomputed item by item: the error is raised at its item
            self.pending = items[::-1]
            return []
        return [self.out.pop()] if self.out else []


class Of(Source):
    """Another lazy seq's items from position `pos` on, read through that seq (so both share
    what is realized, and the items are computed once)."""

    __slots__ = ("seq", "pos")

    def __init__(self, seq: "LazySeq", pos: int = 0) -> None:
        self.seq, self.pos = seq, pos

    @property
    def infinite(self) -> bool:  # type: ignore[override]
        return self.seq.infinite

    def next(self) -> list[Any] | None:
        s, pos = self.seq, self.pos
        if pos == len(s._cache):  # at the end of what is realized: the next chunk is the last one
            if not s._more():
                return None
            self.pos = len(s._cache)
            return s._cache[pos:]
        chunk = s.chunk_from(pos)
        if chunk is None:
            return None
        self.pos += len(chunk)
        return chunk

    def take(self, k: int) -> list[Any]:
        """The next k items at most (fewer at the end), realized as the seq realizes them."""
        s, pos = self.seq, self.pos
        s._more_until(pos + k - 1)
        items = s._cache[pos:pos + k]
        self.pos = pos + len(items)
        return items

    def drain(self) -> Iterator[list[Any]]:
        s = self.seq
        s.fill(-1)
        i, self.pos = self.pos, len(s._cache)
        if i < len(s._cache):
            yield s._cache[i:]


class Body:
    """The body of a lazy-seq (a program function of no arguments), run when its items are
    first needed; what it returns is the seq's content."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn


class Linked(Source):
    """lazy-seq, lazy-cat and cons onto a lazy seq: a stack of what comes next (top last): items,
    bodies to run, collections. It is read in a loop, never by nesting: a body's result that is
    itself an unrealized Linked seq, met last in the stack, is adopted (its stack becomes this
    one's, and it reads its items through this seq from here on, so they are computed once).
    So `(defn nat [n] (lazy-seq (cons n (nat (inc n)))))` realizes item k in constant depth and
    time, as Clojure's LazySeq unwraps its nested seqs."""

    __slots__ = ("stack", "owner", "running")

    def __init__(self, stack: list[Any]) -> None:
        self.stack = stack
        self.owner: LazySeq | None = None
        self.running = False

    def next(self) -> list[Any] | None:
        stack = self.stack
        self.running = True
        try:
            while stack:
                top = stack[-1]
                t = type(top)
                if t is list:
                    stack.pop()
                    if top:
                        return top
                elif t is Body:
                    stack[-1] = top.fn()
                    st = context.CURRENT  # a body that only returns another lazy-seq still costs a step
                    st.steps += 1
                    if st.steps > st.limits.max_steps or not st.steps & 255:
                        context.tick(0)  # the step limit, and the deadline every 256 steps
                elif top is None:
                    stack.pop()
                elif t is LazySeq:
                    src = top._src
                    if type(src) is Linked and len(stack) == 1 and not top._cache and not src.running \
                            and src is not self and self.owner is not None:
                        stack[:] = src.stack  # adopt: its items are this seq's from here on
                        src.stack = []
                        top._src = Of(self.owner, len(self.owner._cache))
                    else:
                        stack[-1] = Of(top, 0)
                elif isinstance(top, Source):
                    chunk = top.next()
                    if chunk is None:
                        stack.pop()
                    elif chunk:
                        return chunk
                else:
                    stack[-1] = source_of(top, 0, "lazy-seq")
            return None
        finally:
            self.running = False


def linked(stack: list[Any]) -> "LazySeq":
    """A lazy seq read from a Linked stack (top last)."""
    src = Linked(stack)
    s = LazySeq.__new__(LazySeq)  # LazySeq(src) without its test of src
    s._src, s._cache, s._ends, s._charged, s.origin = src, [], [], 0, None
    src.owner = s
    return s


class LazySeq:
    """A possibly unbounded sequence, realized chunk by chunk on demand and cached."""

    # printed_at_most (set only by whoever knows it, else unset): an upper bound of its printed
    # length known from the columns it was made from (printer.printed_bound reads it)
    __slots__ = ("_src", "_cache", "_ends", "_charged", "origin", "printed_at_most")

    def __init__(self, src: Source | Iterable[Any] = ()) -> None:
        if not isinstance(src, Source):
            src = Items(src)
        self._src: Source | None = src
        self._cache: list[Any] = []
        self._ends: list[int] = []  # where each realized chunk ends in _cache
        self._charged = 0  # items charged against the limits so far
        self.origin: tuple[Any, int] | None = None  # (coll, start) for a view of coll (see view)

    @classmethod
    def of_items(cls, items: list[Any], rest: Source | None = None) -> "LazySeq":
        """A lazy seq already realized to these items (and then `rest`, if any)."""
        s = cls(())
        s._src, s._cache, s._ends, s._charged = rest, items, [len(items)] if items else [], len(items)
        return s

    @property
    def realized(self) -> bool:
        return self._src is None

    @property
    def infinite(self) -> bool:
        """It never ends: only a prefix of it can ever be realized."""
        return self._src is not None and self._src.infinite

    @property
    def open_ended(self) -> bool:
        """It may never end: infinite, or a lazy-seq whose end nobody knows before reaching it
        (what is kept in memory keeps a prefix and stays lazy)."""
        src = self._src
        return src is not None and (src.infinite or type(src) is Linked or type(src) is Of and src.seq.open_ended)

    def _add(self, chunk: list[Any]) -> None:
        cache = self._cache
        cache.extend(chunk)
        self._ends.append(len(cache))
        if len(cache) - self._charged >= 1024:  # limits, every 1024 items at most
            check_realized(len(cache), len(cache) - self._charged)
            self._charged = len(cache)

    def _more(self) -> bool:
        """Realize the next non-empty chunk; False when there is none."""
        src = self._src
        if src is not None and context.CURRENT is context.IDLE and not src.after_run:
            raise NotInRun()
        while src is not None:
            chunk = src.next()
            if chunk is None:
                self._src = None
                check_realized(len(self._cache), 0)
                return False
            if chunk:
                self._add(chunk)
                return True
        return False

    def fill(self, n: int) -> None:
        """Realize at least n items (n = -1: all of them)."""
        if n < 0:
            if self._src is not None and context.CURRENT is context.IDLE and not self._src.after_run:
                raise NotInRun()
            if type(self._src) is Linked:  # its items may be read through this seq while it runs
                while self._more():
                    pass
                return
            src, self._src = self._src, None
            if src is not None:
                try:
                    for chunk in src.drain():
                        if chunk:
                            self._add(chunk)
                except BaseException:
                    self._src = _Failed()  # a failed realization is not silently an end
                    raise
                check_realized(len(self._cache), 0)
            return
        if len(self._cache) < n:
            self._more_until(n - 1)

    def chunk_from(self, pos: int) -> list[Any] | None:
        """The items from pos to the end of the chunk holding pos (realizing it), or None."""
        if pos >= len(self._cache) and not self._more_until(pos):
            return None
        ends = self._ends
        lo, hi = 0, len(ends)
        while lo < hi:  # the first chunk that ends after pos
            mid = (lo + hi) // 2
            if ends[mid] > pos:
                hi = mid
            else:
                lo = mid + 1
        return self._cache[pos:ends[lo]]

    def chunks(self) -> Iterator[list[Any]]:
        """The items chunk by chunk, realizing each as it is reached."""
        pos = 0
        while (chunk := self.chunk_from(pos)) is not None:
            yield chunk
            pos += len(chunk)

    def _more_until(self, pos: int) -> bool:
        """_more until pos is realized, its loop inlined: reading the millionth item of a
        recursive lazy-seq runs this loop a million times."""
        cache = self._cache
        if len(cache) > pos:
            return True
        if self._src is not None and context.CURRENT is context.IDLE and not self._src.after_run:
            raise NotInRun()
        if pos - len(cache) > 1 and type(self._src) in _ITEM_SOURCES:
            self._items_until(pos)
        while len(cache) <= pos:
            src = self._src
            if src is None:
                return False
            chunk = src.next()
            if chunk is None:
                self._src = None
                check_realized(len(cache), 0)
                return False
            if chunk:
                self._add(chunk)
        return True

    def _items_until(self, pos: int) -> None:
        """Realize an unchunked item source (see _ITEM_SOURCES) up to pos in one pass: the same items as one
        `_more` each (each still its own chunk), without a call per item."""
        if context.CURRENT is context.IDLE:
            raise NotInRun()
        cache, src = self._cache, self._src
        while (need := pos - len(cache)) > 0:
            start = len(cache)
            try:
                src.extend(cache, min(need, 1024))  # type: ignore[union-attr]
            finally:  # the items realized before a failure stay realized
                self._ends.extend(range(start + 1, len(cache) + 1))
            if len(cache) - self._charged >= 1024:  # the limits, every 1024 items
                check_realized(len(cache), len(cache) - self._charged)
                self._charged = len(cache)
            if len(cache) - start < min(need, 1024):
                return  # the source ended: the next _more says so

    def __iter__(self) -> Iterator[Any]:
        i = 0
        cache = self._cache
        while True:
            if i >= len(cache) and not self._more():
                return
            j = len(cache)
            yield from cache[i:j]  # what is realized, then the next chunk
            i = j

    def int_range(self) -> range | None:
        """The range this seq is, when it is an integer range nothing has read yet (a fused
        loop may then count through it without realizing a list of its numbers)."""
        src = self._src
        return src.r if type(src) is Ints and src.pos == 0 and not self._cache else None

    def known_count(self) -> int | None:
        """Its length when known without realizing it: realized, or its source knows how many items
        are left (a selection's rows: a printer after the run makes its head only)."""
        src = self._src
        if src is None:
            return len(self._cache)
        left = src.left()
        return None if left is None else len(self._cache) + left

    def items(self) -> list[Any]:
        """Every item, realized in one pass (the caller must not change the list)."""
        self.fill(-1)
        return self._cache

    def realize(self) -> Any:
        from .values import PList

        self.fill(-1)
        return PList(self._cache)

    def __len__(self) -> int:
        self.fill(-1)
        return len(self._cache)

    def nth(self, i: int, default: Any = None) -> Any:
        if i >= len(self._cache):
            o = self.origin
            if o is not None and not self._cache and type(o[0]) is LazySeq:
                # a view of a lazy seq not read yet: its items are the origin's, read them there
                # (first/seq/empty? of each (rest s) of a walk then cost no chunk copy)
                return o[0].nth(o[1] + i, default)
            self._more_until(i)
        return self._cache[i] if i < len(self._cache) else default

    def __hash__(self) -> int:
        return hash(self.realize())

    def __eq__(self, other: object) -> bool:
        from .values import equals

        return equals(self, other)

    def __repr__(self) -> str:
        from .printer import pr_str

        return pr_str(self)


_ITEM_SOURCES = frozenset({Items, Iterated, Ahead, Prefix})  # unchunked sources that can extend a cache in bulk


def check_realized(total: int, new: int) -> None:
    """The run's limits on a lazy seq's growth; none after the run (see Source.after_run)."""
    if context.CURRENT is not context.IDLE:
        _check_realized(total, new)


class NotInRun(PTCError):
    """A lazy seq's unrealized part was asked for outside a program run (see the module doc)."""

    def __init__(self) -> None:
        super().__init__("runtime", "an infinite lazy sequence is realized only while a program runs",
                         hint="take a bounded part of it in a program, e.g. (vec (take 100 xs))")


class Cut(Source):
    """The end of a prefix of an infinite seq, sent where its rest cannot follow (to or from
    an isolated process)."""

    infinite = True

    def next(self) -> list[Any] | None:
        from .errors import runtime_error

        raise runtime_error("this infinite lazy sequence was kept in memory only up to the items "
                            "realized when its program ended", hint="define it again in this program")


def unbounded(*colls: Any) -> bool:
    """Whether any of colls is an infinite lazy seq."""
    return any(type(c) is LazySeq and c.infinite for c in colls)


class _Failed(Source):
    """What a lazy seq whose realization raised has left: realizing it again raises again."""

    def next(self) -> list[Any] | None:
        from .errors import runtime_error

        raise runtime_error("this lazy sequence failed while it was being realized")


def _indexable(coll: Any, who: str) -> Any:
    """coll itself if it can be read by position (vectors, lists, strings, lazy seqs), else its
    items in a list (maps give [k v] entries; nil is empty)."""
    t = type(coll)
    if t is LazySeq or t is str:  # before the import: walks call this once per step
        return coll
    from .values import PList, VECTOR_TYPES, iter_seq

    if t in VECTOR_TYPES or t is PList:
        return coll
    return list(iter_seq(coll, who))


def source_of(coll: Any, start: int = 0, who: str = "seq") -> Source:
    """The chunked or unchunked source of any seqable from position start, as Clojure chunks
    it: vectors and lazy seqs of chunked origin in 32s, lists, strings, maps and sets one by one."""
    if type(coll) is LazySeq:
        return Of(coll, start)
    from .values import VECTOR_TYPES

    coll = _indexable(coll, who)
    t = type(coll)
    if t is LazySeq:
        return Of(coll, start)
    return Slices(coll, start, t in VECTOR_TYPES)


def chunks_of(coll: Any, who: str = "seq") -> Iterator[list[Any]]:
    """The items of any seqable, chunk by chunk as source_of gives them (realized as reached)."""
    if type(coll) is LazySeq:
        return coll.chunks()
    return iter(source_of(coll, 0, who).next, None)


def view(coll: Any, start: int, who: str = "seq") -> "LazySeq":
    """coll from position start, without copying: `rest`, `next`, `drop` and `seq` of a long
    vector or seq. A view of a view reads the original, so (recur (rest xs)) stays linear."""
    if type(coll) is LazySeq:
        if coll.origin is not None:
            coll, start = coll.origin[0], coll.origin[1] + start
        if type(coll) is LazySeq:  # the common step of a walk, without the general path's calls
            s = LazySeq(Of(coll, start))
            s.origin = (coll, start)
            return s
    coll = _indexable(coll, who)
    s = LazySeq(source_of(coll, start))
    s.origin = (coll, start)
    return s


def realized_view(s: "LazySeq") -> tuple[Any, int] | None:
    """(collection, start) when s is a view of a realized collection, so that first, empty? and
    next can read the collection in O(1) instead of realizing a chunk of the view."""
    o = s.origin
    return None if o is None or type(o[0]) is LazySeq else o


def head(s: "LazySeq", default: Any) -> Any:
    """The first item of s (default when it is empty), in O(1) when it is realized: a view
    reads its origin's realized items (first and seq of each (rest xs) in a walk)."""
    cache = s._cache
    if cache:
        return cache[0]
    o = s.origin
    if o is None:
        return s.nth(0, default)
    coll, i = o
    if type(coll) is LazySeq:
        return coll._cache[i] if i < len(coll._cache) else coll.nth(i, default)
    return coll[i] if i < len(coll) else default


def cons(x: Any, coll: Any) -> "LazySeq":
    """x in front of a lazy seq: the seq stays lazy (and its rest keeps its chunks). An
    unrealized lazy-seq is adopted at once, as Linked.next would adopt it on reaching it: the
    new seq takes its stack and coll reads its items through the new seq from position 1, so
    `(lazy-seq (cons x (f ...)))` costs one adoption per item instead of two."""
    src = coll._src
    if type(src) is Linked and src.owner is coll and not coll._cache and not src.running:
        s = linked(src.stack + [[x]])
        src.stack = []
        coll._src = Of(s, 1)
        return s
    return linked([coll, [x]])


__all__ = ["OPEN_ENDED_PREFIX", "LazySeq", "Body", "Linked", "linked", "Source", "Items", "Iterated", "Prefix", "Chunks", "Slices", "Ints", "Mapped",
           "Ahead", "Of", "source_of", "chunks_of",
           "view", "realized_view", "head", "cons", "unbounded", "NotInRun", "Cut", "CHUNK"]
