"""Higher-order function builders: identity, constantly, comp, partial, juxt, complement,
fnil, every-pred, some-fn, memoize.

Every function argument goes through `as_fn`, so keywords, maps, sets and vectors work
wherever a function is expected (`(comp count :items)`, `(juxt :id :name)`).
The functions returned are plain Python closures.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import runtime_error
from ..columnar.dispatch import combined, complemented, composed
from ..columnar.expr import tag
from ..patterns import KEY_PARTS_ATTR
from ..registry import builtin
from ..values import FMap, FSet, HMap, HSet, Keyword, Regex, Symbol, as_fn, vec

_DATA_FNS = frozenset({Keyword, FMap, HMap, FSet, HSet, Symbol, Regex})  # invokable data, never bounced

_NO = object()

MEMO_MAX_ENTRIES = 10_000  # memoize keeps at most this many results (oldest evicted first)


@builtin("identity", args="[x]", category="functions",
         doc="Returns its argument.",
         ex=(("(identity 3)", "3"), ("(filter identity [1 nil 2 false])", "(1 2)")))
def identity(x: Any) -> Any:
    return x


@builtin("constantly", args="[x]", category="functions",
         doc="A function that ignores its arguments and always returns x.",
         ex=(("((constantly 5) 1 2)", "5"), ("(map (constantly :a) [1 2])", "(:a :a)")))
def constantly(x: Any) -> Callable[..., Any]:
    def const(*_args: Any) -> Any:
        return x

    return const


@builtin("comp", args=("[]", "[f]", "[f g]", "[f g & fs]"), category="functions",
         doc="Composes functions right to left: ((comp f g) x) is (f (g x)); the rightmost fn "
             "receives all the arguments. (comp) is identity.",
         ex=(("((comp inc inc) 1)", "3"), ("((comp str +) 1 2)", "\"3\""),
             ("(map (comp inc :a) [{:a 1} {:a 2}])", "(2 3)")))
def comp(*fns: Any) -> Callable[..., Any]:
    if not fns:
        return identity
    fs = [as_fn(f, "comp") for f in fns]
    if len(fs) == 1:
        return fs[0]
    if len(fs) == 2:
        f, g = fs

        def comp2(*args: Any) -> Any:
            return f(g(*args))

        return tag(comp2, composed(fns))  # (filter (comp pos? :x) table) reads a column
    last = fs[-1]
    rest = fs[-2::-1]

    def compn(*args: Any) -> Any:
        r = last(*args)
        for h in rest:
            r = h(r)
        return r

    return tag(compn, composed(fns))


@builtin("partial", args=("[f]", "[f & args]"), category="functions",
         doc="A function that calls f with args followed by its own arguments.",
         ex=(("((partial + 10) 1 2)", "13"), ("(map (partial * 2) [1 2])", "(2 4)")))
def partial(f: Any, *args: Any) -> Callable[..., Any]:
    f = as_fn(f, "partial")
    if not args:
        return f

    def part(*more: Any) -> Any:
        return f(*args, *more)

    return part


@builtin("juxt", args=("[f]", "[f & fs]"), category="functions",
         doc="A function returning the vector of each fn applied to its arguments.",
         ex=(("((juxt :a :b) {:a 1 :b 2})", "[1 2]"), ("((juxt inc dec) 5)", "[6 4]")))
def juxt(f: Any, *fns: Any) -> Callable[..., Any]:
    fs = [as_fn(g, "juxt") for g in (f, *fns)]

    def juxted(*args: Any) -> Any:
        return vec([g(*args) for g in fs])

    setattr(juxted, KEY_PARTS_ATTR, (f, *fns))  # grouping and sorting read keyword parts column by column
    return tag(juxted, combined("juxt", tuple(fs)))  # (group-by (juxt :a :b) table) groups by columns


@builtin("comparator", args="[pred]", category="functions",
         doc="A comparator (-1, 0 or 1) from a 2-argument predicate such as <.",
         ex=(("((comparator <) 1 2)", "-1"), ("(sort (comparator >) [1 3 2])", "(3 2 1)")))
def comparator(pred: Any) -> Callable[[Any, Any], int]:
    pred = as_fn(pred, "comparator")

    def compare(x: Any, y: Any) -> int:
        r = pred(x, y)
        if r is not None and r is not False:
            return -1
        r = pred(y, x)
        return 0 if r is None or r is False else 1

    return compare


@builtin("complement", args="[f]", category="functions",
         doc="A function returning the logical opposite (true/false) of f's result.",
         ex=(("((complement even?) 3)", "true"), ("(filter (complement nil?) [1 nil 2])", "(1 2)")))
def complement(f: Any) -> Callable[..., Any]:
    f = as_fn(f, "complement")

    def compl(*args: Any) -> bool:
        r = f(*args)
        return r is None or r is False

    return tag(compl, complemented(f))  # (remove (complement p) table) runs as p's kernel does


@builtin("fnil", args=("[f x]", "[f x y]", "[f x y z]"), category="functions",
         doc="A function like f, but a nil first (second, third) argument is replaced by x (y, z).",
         ex=(("((fnil + 0) nil 5)", "5"), ("(update {:a nil} :a (fnil inc 0))", "{:a 1}"),
             ("((fnil str \"x\" \"y\") nil nil)", "\"xy\"")))
def fnil(f: Any, x: Any, y: Any = _NO, z: Any = _NO) -> Callable[..., Any]:
    f = as_fn(f, "fnil")
    defaults = [d for d in (x, y, z) if d is not _NO]
    nd = len(defaults)

    if nd == 1:
        def fnil1(*args: Any) -> Any:
            if not args:
                raise runtime_error("fnil: the wrapped function needs at least 1 argument, got 0")
            a = args[0]
            return f(x if a is None else a, *args[1:])

        return fnil1

    def fniln(*args: Any) -> Any:
        if len(args) < nd:
            raise runtime_error(f"fnil: the wrapped function needs at least {nd} arguments, got {len(args)}")
        fixed = [defaults[i] if args[i] is None else args[i] for i in range(nd)]
        return f(*fixed, *args[nd:])

    return fniln


@builtin("every-pred", args=("[p]", "[p & ps]"), category="functions",
         doc="A predicate that is true when every p is truthy for every argument.",
         ex=(("((every-pred pos? even?) 2 4)", "true"), ("((every-pred pos? even?) 2 3)", "false"),
             ("(filter (every-pred odd? pos?) [-1 1 2 3])", "(1 3)")))
def every_pred(p: Any, *ps: Any) -> Callable[..., bool]:
    preds = [as_fn(q, "every-pred") for q in (p, *ps)]

    def ep(*args: Any) -> bool:
        for q in preds:
            for a in args:
                r = q(a)
                if r is None or r is False:
                    return False
        return True

    return ep


@builtin("some-fn", args=("[p]", "[p & ps]"), category="functions",
         doc="A function returning the first truthy (p arg) over all preds and args, else a falsey value.",
         ex=(("((some-fn :a :b) {:b 2})", "2"), ("((some-fn even? neg?) 3)", "false"),
             ("(filter (some-fn neg? zero?) [-1 0 1])", "(-1 0)")))
def some_fn(p: Any, *ps: Any) -> Callable[..., Any]:
    preds = [as_fn(q, "some-fn") for q in (p, *ps)]

    def sf(*args: Any) -> Any:
        r: Any = None
        for q in preds:
            for a in args:
                r = q(a)
                if r is not None and r is not False:
                    return r
        return r

    return sf


@builtin("memoize", args="[f]", category="functions",
         doc=f"A version of f that caches results by arguments (compared with =); keeps at most "
             f"{MEMO_MAX_ENTRIES} results, evicting the oldest.",
         ex=(("(let [sq (memoize (fn [x] (* x x)))] [(sq 3) (sq 3)])", "[9 9]"),))
def memoize(f: Any) -> Callable[..., Any]:
    from .core_sequences import eq_key

    f = as_fn(f, "memoize")
    cache: dict[Any, Any] = {}
    miss = _NO

    def memo(*args: Any) -> Any:
        key = tuple([eq_key(a) for a in args])
        try:
            v = cache.get(key, miss)
        except TypeError:  # unhashable argument: do not cache
            return f(*args)
        if v is miss:
            v = f(*args)
            if len(cache) >= MEMO_MAX_ENTRIES:
                del cache[next(iter(cache))]
            cache[key] = v
        return v

    return memo


__all__ = ["identity", "constantly", "comp", "partial", "juxt", "complement", "fnil", "every_pred",
           "some_fn", "memoize", "MEMO_MAX_ENTRIES"]


@builtin("trampoline", args=("[f]", "[f & args]"), category="functions",
         doc="Calls f with args, then keeps calling the result while it is a function (mutual recursion "
             "without growing the stack).",
         ex=(("(trampoline (fn [] 5))", "5"),))
def trampoline(f: Any, *args: Any) -> Any:
    from .. import context

    result = as_fn(f, "trampoline")(*args)
    bounces = 0
    while callable(result) and type(result) not in _DATA_FNS:
        result = result()
        bounces += 1
        if bounces & 1023 == 0:
            context.tick(1024)
    return result
