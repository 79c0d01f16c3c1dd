"""Transducers: `reduced`, `transduce`, `sequence`, `eduction`, `completing`, `cat`, and the
1-arity (transducer) forms of the sequence functions (`(map f)`, `(filter p)`, ...).

A reducing function is a Python callable with three arities dispatched on `*args`:
`()` -> initial value, `(acc)` -> completion, `(acc x)` -> step. A transducer is a plain
one-argument function `rf -> rf`, so `comp` of transducers is ordinary function composition
(`(comp (map inc) (filter odd?))` maps first, then filters, as in Clojure).

Stateful transducers (`take`, `drop`, `distinct`, `partition-all`...) create their state
when applied to a reducing function, so one transducer value can be reused safely.

`apply_xform(xform, coll)` runs a transducer eagerly into a Python list; `into` with a
transducer uses it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from .. import context
from ..errors import PTCError, limit_error, runtime_error
from ..lazy import CHUNK, Chunks, unbounded
from ..registry import builtin
from ..values import (
    LazySeq,
    PList,
    as_fn,
    equals,
    iter_seq,
    short,
    type_name,
    vec,
)

_NO = object()


class Reduced:
    """A value wrapped by `reduced`: tells `reduce`/`transduce` to stop early."""

    __slots__ = ("val",)

    def __init__(self, val: Any) -> None:
        self.val = val

    def deref(self) -> Any:
        return self.val

    def __repr__(self) -> str:
        from ..printer import pr_str

        return "#reduced[" + pr_str(self.val) + "]"


def unreduced_value(x: Any) -> Any:
    return x.val if x.__class__ is Reduced else x


# -- helpers shared with core_sequences ---------------------------------------------------


def check_count(n: int, what: str = "sequence") -> None:
    """Collection-count limit only (no memory charge): used while growing a result."""
    lim = context.CURRENT.limits.max_collection
    if n > lim:
        raise limit_error("max_collection", lim, f"{what} of {n} items")


def _to_int(n: Any, who: str) -> int:
    t = type(n)
    if t is int:
        return n
    if t is float:
        import math

        if n != n:
            raise runtime_error(f"{who}: expected an integer count, got NaN")
        if n in (float("inf"), float("-inf")):
            return 1 << 62 if n > 0 else -(1 << 62)
        return math.ceil(n)
    raise runtime_error(f"{who}: expected a number, got {type_name(n)} {short(n)}")


# -- Reduced API ---------------------------------------------------------------------------


@builtin("reduced", args="[x]", category="transducers",
         doc="Wraps x so that reduce/transduce stop and return x.",
         ex=(("(reduce (fn [acc x] (if (> x 2) (reduced acc) (+ acc x))) 0 [1 2 3 4])", "3"),))
def reduced(x: Any) -> Reduced:
    return Reduced(x)


@builtin("reduced?", args="[x]", category="transducers",
         doc="True if x is the result of reduced.",
         ex=(("(reduced? (reduced 1))", "true"), ("(reduced? 1)", "false")))
def is_reduced(x: Any) -> bool:
    return x.__class__ is Reduced


@builtin("unreduced", args="[x]", category="transducers",
         doc="The value inside a reduced wrapper, or x itself.",
         ex=(("(unreduced (reduced 1))", "1"), ("(unreduced 5)", "5")))
def unreduced(x: Any) -> Any:
    return x.val if x.__class__ is Reduced else x


@builtin("ensure-reduced", args="[x]", category="transducers",
         doc="x if it is already reduced, else (reduced x).",
         ex=(("(unreduced (ensure-reduced 1))", "1"),))
def ensure_reduced(x: Any) -> Reduced:
    return x if x.__class__ is Reduced else Reduced(x)


@builtin("completing", args=("[f]", "[f cf]"), category="transducers",
         doc="Turns a 2-arity reducing fn into one with a completion arity (cf, default identity).",
         ex=(("(transduce (map inc) (completing (fn [acc x] (+ acc x))) 0 [1 2 3])", "9"),))
def completing(f: Any, cf: Any = _NO) -> Callable[..., Any]:
    f = as_fn(f, "completing")
    cf = None if cf is _NO else as_fn(cf, "completing")

    def rf(*a: Any) -> Any:
        n = len(a)
        if n == 2:
            return f(a[0], a[1])
        if n == 1:
            return a[0] if cf is None else cf(a[0])
        if n == 0:
            return f()
        return f(*a)

    return rf


# -- running transducers ---------------------------------------------------------------------


def reduce_steps(step: Callable[..., Any], acc: Any, coll: Any, who: str) -> Any:
    """Feed coll into a step fn, honouring `reduced`; returns the (unwrapped) accumulator."""
    R = Reduced
    for x in iter_seq(coll, who):
        acc = step(acc, x)
        if acc.__class__ is R:
            return acc.val
    return acc


@builtin("transduce", args=("[xform f coll]", "[xform f init coll]"), category="transducers",
         doc="Reduces coll with (xform f); init defaults to (f); calls (f result) at the end.",
         ex=(("(transduce (map inc) + [1 2 3])", "9"),
             ("(transduce (filter odd?) + 100 [1 2 3])", "104"),
             ("(transduce (comp (map inc) (take 2)) conj [1 2 3])", "[2 3]")))
def transduce(xform: Any, f: Any, init: Any, coll: Any = _NO) -> Any:
    xform = as_fn(xform, "transduce")
    f = as_fn(f, "transduce")
    if coll is _NO:
        coll = init
        init = f()
    rf = xform(f)
    result = reduce_steps(rf, init, coll, "transduce")
    try:
        return rf(result)
    except PTCError as e:
        if e.hint is None and "args" in e.message:
            e.hint = "transduce finishes with (f result): wrap a 2-argument fn f as (completing f)"
        raise


_PENDING = object()  # apply_xform's accumulator: the outputs are collected on the side


def _collector(out: list[Any], finish: Callable[[list[Any]], Any] | None = None) -> Callable[..., Any]:
    append = out.append

    def rf(*a: Any) -> Any:
        if len(a) == 2:
            append(a[1])
            if not (len(out) & 0x3FFF):
                check_count(len(out))
            return a[0]
        if a and a[0] is _PENDING and finish is not None:
            if len(out) > 4096:
                context.check_size(len(out), "sequence")
            return finish(out)
        return a[0] if a else None

    return rf


def apply_xform(xform: Any, coll: Any, finish: Callable[[list[Any]], Any]) -> Any:
    """Run a transducer eagerly over coll: finish(outputs) is the result, unless the
    transducer's completion replaces it (halt-when), as Clojure's transduce."""
    rf = as_fn(xform, "transducer")(_collector([], finish))
    return rf(reduce_steps(rf, _PENDING, coll, "transducer"))


def _xform_chunks(xform: Callable[..., Any], colls: tuple[Any, ...], who: str) -> Iterator[list[Any]]:
    """Incremental transduction, as Clojure's `sequence`: the outputs in chunks of 32, each
    pulling only the inputs it needs (several colls step the xform with one item of each).
    Like Clojure's chunked iterator seq, a chunk is handed over once the output after it is
    known (or the input has ended)."""
    its = [iter_seq(c, who) for c in colls]
    buf: list[Any] = []
    rf = xform(_collector(buf))
    acc: Any = None
    R = Reduced
    one = len(its) == 1
    for x in (its[0] if one else zip(*its)):
        acc = rf(acc, x) if one else rf(acc, *x)
        while len(buf) > CHUNK:
            yield buf[:CHUNK]
            del buf[:CHUNK]
        if acc.__class__ is R:
            acc = acc.val
            break
    rf(acc)  # completion may flush (partition-all...)
    while buf:
        yield buf[:CHUNK]
        del buf[:CHUNK]


def sequence_of(xform: Any, colls: tuple[Any, ...], who: str) -> LazySeq:
    chunks = _xform_chunks(as_fn(xform, who), colls, who)
    return LazySeq(Chunks(chunks, all(unbounded(c) for c in colls)))


@builtin("sequence", args=("[coll]", "[xform coll]", "[xform coll & colls]"), category="transducers",
         doc="A seq of coll, or the lazy seq of coll transformed by xform (with several colls, xform "
             "gets one item of each).",
         ex=(("(sequence (map inc) [1 2])", "(2 3)"), ("(sequence [1 2])", "(1 2)"),
             ("(sequence (map +) [1 2] [10 20])", "(11 22)"), ("(sequence nil)", "()")))
def sequence(a: Any, *colls: Any) -> Any:
    if not colls:
        if type(a) is LazySeq or type(a) is PList:
            return a
        return PList(iter_seq(a, "sequence"))
    return sequence_of(a, colls, "sequence")


@builtin("eduction", args="[xform* coll]", category="transducers",
         doc="Applies the composed transducers to coll (returns a seq, like sequence).",
         ex=(("(eduction (map inc) (filter odd?) [1 2 3 4])", "(3 5)"),))
def eduction(*args: Any) -> Any:
    if not args:
        raise runtime_error("eduction: expected transducers and a collection")
    *xforms, coll = args
    if not xforms:
        return sequence(coll)
    fs = [as_fn(x, "eduction") for x in xforms]

    def composed(rf: Any) -> Any:
        for f in reversed(fs):
            rf = f(rf)
        return rf

    return sequence_of(composed, (coll,), "eduction")


# -- transducer constructors (the 1-arity forms of sequence functions) -------------------------


def map_xf(f: Any) -> Callable[..., Any]:
    f = as_fn(f, "map")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        def step(*a: Any) -> Any:
            n = len(a)
            if n == 2:
                return rf(a[0], f(a[1]))
            if n == 1:
                return rf(a[0])
            if n == 0:
                return rf()
            return rf(a[0], f(*a[1:]))

        return step

    xf.mapped = f  # type: ignore[attr-defined]  # (into to (map f) from) is (into to (map f from)): see into
    return xf


def map_indexed_xf(f: Any) -> Callable[..., Any]:
    f = as_fn(f, "map-indexed")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        i = -1

        def step(*a: Any) -> Any:
            nonlocal i
            if len(a) == 2:
                i += 1
                return rf(a[0], f(i, a[1]))
            return rf(*a)

        return step

    return xf


def filter_xf(pred: Any, who: str = "filter", keep_truthy: bool = True) -> Callable[..., Any]:
    pred = as_fn(pred, who)

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        if keep_truthy:
            def step(*a: Any) -> Any:
                if len(a) == 2:
                    r = pred(a[1])
                    if r is not None and r is not False:
                        return rf(a[0], a[1])
                    return a[0]
                return rf(*a)
        else:
            def step(*a: Any) -> Any:
                if len(a) == 2:
                    r = pred(a[1])
                    if r is None or r is False:
                        return rf(a[0], a[1])
                    return a[0]
                return rf(*a)

        return step

    return xf


def remove_xf(pred: Any) -> Callable[..., Any]:
    return filter_xf(pred, "remove", keep_truthy=False)


def keep_xf(f: Any) -> Callable[..., Any]:
    f = as_fn(f, "keep")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        def step(*a: Any) -> Any:
            if len(a) == 2:
                r = f(a[1])
                if r is None:
                    return a[0]
                return rf(a[0], r)
            return rf(*a)

        return step

    return xf


def keep_indexed_xf(f: Any) -> Callable[..., Any]:
    f = as_fn(f, "keep-indexed")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        i = -1

        def step(*a: Any) -> Any:
            nonlocal i
            if len(a) == 2:
                i += 1
                r = f(i, a[1])
                if r is None:
                    return a[0]
                return rf(a[0], r)
            return rf(*a)

        return step

    return xf


def take_xf(n: Any) -> Callable[..., Any]:
    n0 = _to_int(n, "take")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        left = n0

        def step(*a: Any) -> Any:
            nonlocal left
            if len(a) == 2:
                cur = left
                left -= 1
                acc = rf(a[0], a[1]) if cur > 0 else a[0]
                if left <= 0 and acc.__class__ is not Reduced:
                    return Reduced(acc)
                return acc
            return rf(*a)

        return step

    return xf


def drop_xf(n: Any) -> Callable[..., Any]:
    n0 = _to_int(n, "drop")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        left = n0

        def step(*a: Any) -> Any:
            nonlocal left
            if len(a) == 2:
                if left > 0:
                    left -= 1
                    return a[0]
                return rf(a[0], a[1])
            return rf(*a)

        return step

    return xf


def take_while_xf(pred: Any) -> Callable[..., Any]:
    pred = as_fn(pred, "take-while")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        def step(*a: Any) -> Any:
            if len(a) == 2:
                r = pred(a[1])
                if r is not None and r is not False:
                    return rf(a[0], a[1])
                return Reduced(a[0])
            return rf(*a)

        return step

    return xf


def drop_while_xf(pred: Any) -> Callable[..., Any]:
    pred = as_fn(pred, "drop-while")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        dropping = True

        def step(*a: Any) -> Any:
            nonlocal dropping
            if len(a) == 2:
                if dropping:
                    r = pred(a[1])
                    if r is not None and r is not False:
                        return a[0]
                    dropping = False
                return rf(a[0], a[1])
            return rf(*a)

        return step

    return xf


def take_nth_xf(n: Any) -> Callable[..., Any]:
    n0 = _to_int(n, "take-nth")
    if n0 < 1:
        raise runtime_error(f"take-nth: n must be positive, got {n0}")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        i = -1

        def step(*a: Any) -> Any:
            nonlocal i
            if len(a) == 2:
                i += 1
                if i % n0 == 0:
                    return rf(a[0], a[1])
                return a[0]
            return rf(*a)

        return step

    return xf


def cat_xf(rf: Callable[..., Any]) -> Callable[..., Any]:
    def step(*a: Any) -> Any:
        if len(a) == 2:
            acc = a[0]
            R = Reduced
            for x in iter_seq(a[1], "cat"):
                acc = rf(acc, x)
                if acc.__class__ is R:  # stays wrapped so the outer reduce stops too
                    return acc
            return acc
        return rf(*a)

    return step


def mapcat_xf(f: Any) -> Callable[..., Any]:
    m = map_xf(as_fn(f, "mapcat"))
    return lambda rf: m(cat_xf(rf))


def distinct_xf() -> Callable[..., Any]:
    from .core_sequences import eq_key

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        seen: set[Any] = set()

        def step(*a: Any) -> Any:
            if len(a) == 2:
                k = eq_key(a[1])
                if k in seen:
                    return a[0]
                seen.add(k)
                return rf(a[0], a[1])
            return rf(*a)

        return step

    return xf


def dedupe_xf() -> Callable[..., Any]:
    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        prev: Any = _NO

        def step(*a: Any) -> Any:
            nonlocal prev
            if len(a) == 2:
                x = a[1]
                if prev is not _NO and equals(prev, x):
                    return a[0]
                prev = x
                return rf(a[0], x)
            return rf(*a)

        return step

    return xf


def interpose_xf(sep: Any) -> Callable[..., Any]:
    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        started = False

        def step(*a: Any) -> Any:
            nonlocal started
            if len(a) == 2:
                if started:
                    acc = rf(a[0], sep)
                    if acc.__class__ is Reduced:
                        return acc
                    return rf(acc, a[1])
                started = True
                return rf(a[0], a[1])
            return rf(*a)

        return step

    return xf


def partition_all_xf(n: Any) -> Callable[..., Any]:
    n0 = _to_int(n, "partition-all")
    if n0 < 1:
        raise runtime_error(f"partition-all: n must be positive, got {n0}")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        buf: list[Any] = []

        def step(*a: Any) -> Any:
            if len(a) == 2:
                buf.append(a[1])
                if len(buf) == n0:
                    chunk = vec(buf)
                    buf.clear()
                    return rf(a[0], chunk)
                return a[0]
            if len(a) == 1:
                acc = a[0]
                if buf:
                    chunk = vec(buf)
                    buf.clear()
                    acc = unreduced_value(rf(acc, chunk))
                return rf(acc)
            return rf()

        return step

    return xf


def partition_by_xf(f: Any) -> Callable[..., Any]:
    f = as_fn(f, "partition-by")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        buf: list[Any] = []
        prev: Any = _NO

        def step(*a: Any) -> Any:
            nonlocal prev
            if len(a) == 2:
                x = a[1]
                k = f(x)
                if prev is _NO or equals(k, prev):
                    prev = k
                    buf.append(x)
                    return a[0]
                chunk = vec(buf)
                buf.clear()
                acc = rf(a[0], chunk)
                if acc.__class__ is not Reduced:
                    buf.append(x)
                prev = k
                return acc
            if len(a) == 1:
                acc = a[0]
                if buf:
                    chunk = vec(buf)
                    buf.clear()
                    acc = unreduced_value(rf(acc, chunk))
                return rf(acc)
            return rf()

        return step

    return xf


class _Halt:
    """The value halt-when stops with, on its way through reduce to halt-when's completion."""

    __slots__ = ("val",)

    def __init__(self, val: Any) -> None:
        self.val = val


@builtin("halt-when", args=("[pred]", "[pred retf]"), category="transducers",
         doc="A transducer that stops at the first input for which (pred input) is truthy; the whole "
             "transduction then returns that input, or (retf result-so-far input).",
         ex=(("(into [] (halt-when odd?) [2 4 5 6])", "5"), ("(into [] (halt-when odd?) [2 4 6])", "[2 4 6]"),
             ("(into [] (halt-when odd? conj) [2 4 5 6])", "[2 4 5]"),
             ("(sequence (halt-when odd?) [2 4 5 6])", "(2 4)")))
def halt_when(pred: Any, retf: Any = None) -> Callable[..., Any]:
    pred = as_fn(pred, "halt-when")
    retf = None if retf is None else as_fn(retf, "halt-when")

    def xf(rf: Callable[..., Any]) -> Callable[..., Any]:
        def step(*a: Any) -> Any:
            n = len(a)
            if n == 2:
                r = pred(a[1])
                if r is not None and r is not False:
                    return Reduced(_Halt(a[1] if retf is None else retf(rf(a[0]), a[1])))
                return rf(a[0], a[1])
            if n == 1:
                return a[0].val if a[0].__class__ is _Halt else rf(a[0])
            return rf(*a)

        return step

    return xf


@builtin("cat", args="[rf]", category="transducers",
         doc="A transducer that concatenates the collections flowing through it.",
         ex=(("(into [] cat [[1 2] [3]])", "[1 2 3]"),
             ("(sequence (comp (map reverse) cat) [[1 2] [3 4]])", "(2 1 4 3)")))
def cat(rf: Any) -> Callable[..., Any]:
    return cat_xf(as_fn(rf, "cat"))


__all__ = [
    "Reduced", "reduced", "is_reduced", "unreduced", "ensure_reduced", "completing", "transduce",
    "sequence", "eduction", "apply_xform", "reduce_steps", "map_xf", "map_indexed_xf", "filter_xf",
    "remove_xf", "keep_xf", "keep_indexed_xf", "take_xf", "drop_xf", "take_while_xf",
    "drop_while_xf", "take_nth_xf", "cat_xf", "mapcat_xf", "distinct_xf", "dedupe_xf",
    "interpose_xf", "partition_all_xf", "partition_by_xf", "halt_when", "cat", "check_count",
]
