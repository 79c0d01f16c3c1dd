"""Inline templates: the Python source a call of a builtin compiles to where the compiler can
do better than calling it (the hottest core functions). A builtin's entry carries its template
(`@builtin(..., inline=...)`); the compiler calls it with itself (`c`), the function being
generated (`fn`), the call's node and its arguments' source, and uses the text it returns, or
calls the builtin when it returns None. The guard in each keeps Clojure's semantics: the fast
path applies only to the values it handles (ints, floats, strings...); anything else goes to
the builtin, which validates and raises the proper error. `tests/interpreter/test_inline_forms.py`
checks every entry's template against its builtin, driven from the registry.

What a template asks of the compiler: `c.builtin(b)` and `c.const(x)` (names of a builtin and
a constant in the generated code), `c.mark(node)` (a call's position marker),
`c.number_kind(node, text)` (int, float or None: what the compiler knows of an operand),
`c.unchecked_ints` (inside a counted loop's unchecked section), `c.keyword_lookup(...)`; and of
the function: `fn.tmp()` (a fresh temporary), `fn.emit(line)`.
"""

from __future__ import annotations

from typing import Any, Callable

from .. import nodes as n
from .. import values as v
from ..pysource import FAST_INT, NO_CONST, bind_once, const_of, is_literal_text, is_number_literal, is_simple_text

InlineFn = Callable[[Any, Any, n.Call, list[str]], "str | None"]


def unary(inline: InlineFn) -> InlineFn:
    """Marks a template of one argument: a stage fn that is such a builtin is compiled as the
    literal `(fn [x] (f x))`, which a fused loop inlines."""
    inline.arity = 1  # type: ignore[attr-defined]
    return inline


def numeric_binop(op: str) -> InlineFn:
    """`a op b` when both are numbers."""

    def inline(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 2:
            return None
        slow = f"{c.builtin(node.fn.builtin)}({c.mark(node)}"  # type: ignore[attr-defined]
        ka, kb = c.number_kind(node.args[0], args[0]), c.number_kind(node.args[1], args[1])
        if type(const_of(node.args[0])) in (int, float) and type(const_of(node.args[1])) in (int, float):
            return None
        a_const, b_const = ka is not None, kb is not None
        (pa, a), (pb, b) = bind_once(fn, args[0]), bind_once(fn, args[1])
        # Both operands are evaluated exactly once, left to right, before either branch.
        if pa and pb:
            ta = fn.tmp()
            test = f"({ta} := type({pa})) is not None and type({pb}) in _NUMT and {ta} in _NUMT"
        elif pb:  # a is simple: check b first so that it is always evaluated
            checks = [f"type({pb}) in _NUMT" if not b_const else f"{pb} is not _NOVAL"]
            test = " and ".join(checks + ([f"type({a}) in _NUMT"] if not a_const else []))
        else:
            checks = [f"type({pa or a}) in _NUMT"] if not a_const else ([f"{pa} is not _NOVAL"] if pa else [])
            test = " and ".join(checks + ([f"type({b}) in _NUMT"] if not b_const else [])) or "True"
        return f"({a} {op} {b} if {test} else {slow}{a}, {b}))"

    return inline


def additive(op: str) -> InlineFn:
    """`a + b` / `a - b` on numbers: with a float operand the result needs no check; two
    integers go through the integer-size limit (results past FAST_INT through _big), except
    inside a counted loop's unchecked section, where sizes are checked after each chunk."""

    def inline(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 2:
            return None
        if type(const_of(node.args[0])) in (int, float) and type(const_of(node.args[1])) in (int, float):
            return None
        ka, kb = c.number_kind(node.args[0], args[0]), c.number_kind(node.args[1], args[1])
        (pa, a), (pb, b) = bind_once(fn, args[0]), bind_once(fn, args[1])
        A, B = pa or a, pb or b  # each operand's first use evaluates it (a first)
        plain = f"{a} {op} {b}"
        if ka is int and kb is int and c.unchecked_ints:  # Python evaluates a then b, each once
            return f"(({args[0]}) {op} ({args[1]}))" if pa or pb else plain
        r = fn.tmp()
        checked = f"({r} if {-FAST_INT} < ({r} := {plain}) < {FAST_INT} else _big({r}))"
        slow = f"{c.builtin(node.fn.builtin)}({c.mark(node)}{a}, {b})"  # type: ignore[attr-defined]
        ta, tb = fn.tmp(), fn.tmp()
        if ka is float or kb is float:
            other = B if ka is float else A
            test = f"type({other}) in _NUMT" if (ka is None or kb is None) else "True"
            return f"({plain} if {test} else {slow})"
        if ka is int and kb is int:  # each operand evaluated, in order, before the sum
            return f"({pa} is {a} and {pb} is {b} and {checked})" if pa and pb else \
                f"({pa or pb} is {a if pa else b} and {checked})" if pa or pb else checked
        if ka is int:
            return f"({plain} if ({tb} := type({B})) is float else {checked} if {tb} is int else {slow})"
        if kb is int:
            return f"({plain} if ({ta} := type({A})) is float else {checked} if {ta} is int else {slow})"
        # two floats, then two integers, then one of each: the chained `is` evaluates a, then b
        return (f"({plain} if ({ta} := type({A})) is ({tb} := type({B})) is float else {checked} if {ta} is {tb} is int "
                f"else {plain} if ({ta} is float and {tb} is int) or ({ta} is int and {tb} is float) else {slow})")

    return inline


def _inc_dec(op: str) -> InlineFn:
    def inline(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 1:
            return None
        pa, a = bind_once(fn, args[0])
        r = fn.tmp()
        fast = f"({r} if {-FAST_INT} < ({r} := {a} {op} 1) < {FAST_INT} else _big({r}))"
        if c.number_kind(node.args[0], args[0]) is int and c.unchecked_ints and not pa:
            return f"({a} {op} 1)"  # sizes are checked after each chunk
        if c.number_kind(node.args[0], args[0]) is not None:
            return f"({pa} and {fast})" if pa else fast
        first = f"type({pa or a}) in _NUMT"
        return f"({fast} if {first} else {c.builtin(node.fn.builtin)}({c.mark(node)}{a}))"  # type: ignore[attr-defined]

    return inline


def get_key(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    key = const_of(node.args[1]) if len(node.args) in (2, 3) else NO_CONST
    if type(key) is not v.Keyword:
        return None
    return c.keyword_lookup(fn, node, args[0], key, args[2] if len(args) == 3 else None)


def get_in(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    """`(get-in m [:a :b])`, a literal path of keywords, as `(:b (:a m))` (a missing key or a
    nil or non-map on the way gives nil either way)."""
    path = const_of(node.args[1]) if len(node.args) == 2 else NO_CONST
    if type(path) is not v.PVector or not path or any(type(k) is not v.Keyword for k in path):
        return None
    e = args[0]
    for k in path:
        e = c.keyword_lookup(fn, node, e, k, None)
    return e


def update_in(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    """`(update-in m [:a :b] f x...)`, a literal path of keywords, as Clojure defines it:
    `(assoc m :a (update (get m :a) :b f x...))`, each level read once; f not callable (an
    error) goes to the builtin, which names itself in the message."""
    path = const_of(node.args[1]) if len(node.args) >= 3 else NO_CONST
    if type(path) is not v.PVector or len(path) < 2 or any(type(k) is not v.Keyword for k in path):
        return None
    from ..registry import REGISTRY

    pre, names, _ = _operands(fn, [args[0], *args[2:]])  # m, f, x... evaluated once, in order
    rest = ", ".join(names[1:])
    target, levels = names[0], []
    for k in path[:-1]:
        t = fn.tmp()
        levels.append((t, target, k))
        target = c.keyword_lookup(fn, node, t, k, None)
    e = f"{c.builtin(REGISTRY['update'])}({c.mark(node)}{target}, {c.const(path[-1])}, {rest})"
    for t, outer, k in reversed(levels):
        e = f"_assoc3({c.mark(node)}({t} := {outer}), {c.const(k)}, {e})"
    slow = f"{c.builtin(node.fn.builtin)}({c.mark(node)}{names[0]}, {args[1]}, {rest})"  # type: ignore[attr-defined]
    return f"({e} if {pre}callable({names[1]}) else {slow})"


def reduce_plus(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    """`(reduce + coll)`: one call that sums plain numbers in C."""
    if len(args) != 2 or not (type(node.args[0]) is n.BuiltinRef and node.args[0].builtin.qualified == "+"):  # type: ignore[attr-defined]
        return None
    from .core_sequences import reduce_plus as summed

    return f"{c.const(summed)}({c.mark(node)}{args[1]})"


def _runtime_fast(helper: str, arity: int) -> InlineFn:
    """Route a fixed-arity call to a runtime fast path that falls back to the builtin."""

    def inline(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
        if len(args) != arity:
            return None
        return f"{helper}({c.mark(node)}{', '.join(args)})"

    return inline


def assoc(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    if len(args) != 3:
        return None
    pm, m = bind_once(fn, args[0])
    k, val = args[1], args[2]
    if is_number_literal(m) or not (is_simple_text(k) and is_simple_text(val)):  # `0.set` is no Python
        return f"_assoc3({c.mark(node)}{', '.join(args)})"
    return f"({m}.set({k}, {val}) if type({pm or m}) is _HMap else _assoc3({c.mark(node)}{m}, {k}, {val}))"


conj = _runtime_fast("_conj2", 2)
inc = unary(_inc_dec("+"))
dec = unary(_inc_dec("-"))


def _eq_inline(negate: bool) -> InlineFn:
    def inline(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 2:
            return None
        if const_of(node.args[0]) is not NO_CONST and const_of(node.args[1]) is not NO_CONST:
            return None  # both constant: the builtin decides (no `is` against a literal)
        for i in (0, 1):
            const = const_of(node.args[i])
            if const is NO_CONST:
                continue
            other = args[1 - i]
            if is_number_literal(other) or other[:1] in "'\"":
                return None  # a literal compiled from a form (e.g. the last value of a do): let the builtin compare
            if const is None or type(const) is bool or type(const) is v.Keyword:
                return f"({other} is {'not ' if negate else ''}{args[i]})"
            if type(const) is str:  # only a string equals a string: no type test needed
                return f"({other} {'!=' if negate else '=='} {args[i]})"
            if type(const) is int:
                po, o = bind_once(fn, other)
                test = f"(type({po or o}) is {type(const).__name__} and {o} == {args[i]})"
                return f"(not {test})" if negate else test
        return None

    return inline


eq = _eq_inline(False)
not_eq = _eq_inline(True)


def _pred_inline(template: str) -> InlineFn:
    """A test of one operand: template over its first use {A} and its name {a} (evaluated once)."""

    def inline(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 1 or const_of(node.args[0]) is not NO_CONST or is_literal_text(args[0]):
            return None
        pa, a = bind_once(fn, args[0])
        return f"({template.format(A=pa or a, a=a)})"

    return inline


is_nil = unary(_pred_inline("{A} is None"))
is_some = unary(_pred_inline("{A} is not None"))
not_ = unary(_pred_inline("{A} is None or {a} is False"))


# -- the rest of arithmetic: each fast path covers the common types and leaves every other
# case (other types, zero divisors, negative operands of quot/rem, integers that could
# outgrow the integer-size limit or a float) to the builtin, which applies Clojure's rules.

_HALF_INT = 1 << 31  # integer products of factors below this stay under FAST_INT: no size check


def _operands(fn: Any, args: list[str]) -> tuple[str, list[str], list[str]]:
    """(a prefix that evaluates each non-simple operand once, in order, into a temporary;
    the operands' names; their first uses, `(t := e)` or the name). The prefix reads
    `(t := e) is t and ` so that a test can follow it."""
    binds, names, firsts = [], [], []
    for e in args:
        if is_simple_text(e):
            names.append(e)
            firsts.append(e)
        else:
            t = fn.tmp()
            binds.append(f"({t} := {e}) is {t} and ")
            names.append(t)
            firsts.append(f"({t} := {e})")
    return "".join(binds), names, firsts


def _guarded(fast: str, tests: list[str]) -> Callable[..., InlineFn]:
    """An inline: `fast` where one of `tests` holds, else the builtin. fast and the tests are
    templates over the operands {a} and {b} and their types {ta} and {tb} (bound once). A test
    that starts by evaluating every operand, in order, writes their first uses {A} and {B}
    (then no prefix evaluates them before it). A test is chosen by which operands are numeric
    constants: tests[0] when none is, tests[1] when b is a constant it accepts (see each
    caller), else no inline."""

    def make(arity: int, const_b_ok: Callable[[Any], bool] | None = None) -> InlineFn:
        def inline(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
            if len(args) != arity or any(type(const_of(x)) in (int, float) for x in node.args[:1]):
                return None
            kb = const_of(node.args[1]) if arity == 2 else NO_CONST
            if kb is not NO_CONST and type(kb) in (int, float):
                if const_b_ok is None or not const_b_ok(kb) or len(tests) < 2:
                    return None
                test = tests[1]
            else:
                test = tests[0]
            # an operand known to be an integer (or a number) needs no test of its type
            for x, e, name in zip(node.args, args, "ab"):
                kind = c.number_kind(x, e)
                if kind is int:
                    test = test.replace(f"type({{{name}}}) is int and ", "")
                    if test in (f"type({{{name.upper()}}}) is int", _NUMBER):
                        test = "True"
                elif kind is not None and test == _NUMBER:
                    test = "True"
            pre, names, firsts = _operands(fn, args)
            if "{A}" in test:
                pre = ""
            a, fa = names[0], firsts[0]
            b, fb = (names[1], firsts[1]) if arity == 2 else ("", "")
            ta, tb = fn.tmp(), fn.tmp()
            fields = {"a": a, "b": b, "A": fa, "B": fb, "ta": ta, "tb": tb, "F": FAST_INT, "H": _HALF_INT}
            slow = f"{c.builtin(node.fn.builtin)}({c.mark(node)}{', '.join(names)})"  # type: ignore[attr-defined]
            return f"({fast.format(**fields)} if {pre}{test.format(**fields)} else {slow})"

        return inline

    return make


_BOTH = "(({ta} := type({a})) is int or {ta} is float) and (({tb} := type({b})) is int or {tb} is float)"
# (* a b): two small integers, or a float with a number a float can hold (no OverflowError)
_mul = _guarded("{a} * {b}", [
    "({ta} := type({A})) is ({tb} := type({B})) is float or "
    "({ta} is float and {tb} is int and -{F} < {b} < {F}) or "
    "({ta} is int and ({tb} is int and -{H} < {a} < {H} and -{H} < {b} < {H} or {tb} is float and -{F} < {a} < {F}))",
    "(({ta} := type({A})) is int and -{H} < {a} < {H}) or {ta} is float"])(2, lambda k: -_HALF_INT < k < _HALF_INT)


def mul(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    """`*` commutes: (* 2 x) is compiled as (* x 2) (a constant has no effect to order)."""
    if len(args) == 2 and type(const_of(node.args[0])) in (int, float) and const_of(node.args[1]) is NO_CONST:
        node = n.Call(node.line, node.col, node.fn, node.args[::-1])
        args = args[::-1]
    if len(args) == 2 and all(const_of(x) is NO_CONST and c.number_kind(x, e) is int for x, e in zip(node.args, args)):
        a, b = args  # integer locals (a counted loop's counter): only their size is tested
        small = " and ".join(dict.fromkeys(f"-{_HALF_INT} < {x} < {_HALF_INT}" for x in (a, b)))
        return f"({a} * {b} if {small} else {c.builtin(node.fn.builtin)}({c.mark(node)}{a}, {b}))"  # type: ignore[attr-defined]
    return _mul(c, fn, node, args)


# (/ a b): floats (integer quotients may be exact integers: the builtin decides)
divide = _guarded("{a} / {b}", [
    "type({a}) is float and type({b}) is float and {b} != 0", "type({a}) is float"])(2, lambda k: k != 0)
# mod of integers is Python's % (floored, the divisor's sign); rem and quot agree with % and //
# when neither operand is negative
mod = _guarded("{a} % {b}", ["type({a}) is int and type({b}) is int and {b} != 0", "type({a}) is int"])(
    2, lambda k: type(k) is int and k != 0)
rem = _guarded("{a} % {b}", ["type({a}) is int and type({b}) is int and {a} >= 0 and {b} > 0",
                                        "type({a}) is int and {a} >= 0"])(2, lambda k: type(k) is int and k > 0)
quot = _guarded("{a} // {b}", ["type({a}) is int and type({b}) is int and {a} >= 0 and {b} > 0",
                                          "type({a}) is int and {a} >= 0"])(2, lambda k: type(k) is int and k > 0)
# max/min of two numbers: as the builtin, a NaN first operand wins, else the later of equals
max_ = _guarded("({a} if {a} > {b} or {a} != {a} else {b})", [_BOTH])(2)
min_ = _guarded("({a} if {a} < {b} or {a} != {a} else {b})", [_BOTH])(2)


def str_concat(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    """`(str a "/" b)` of texts: concatenated in place when every argument is a string (a
    constant one needs no test) and the result is short (a long one goes through the
    builtin's string accounting); any other value goes to the builtin."""
    if not 1 <= len(args) <= 8 or any(type(const_of(x)) not in (str, type(NO_CONST)) for x in node.args):
        return None
    pre, names, firsts = _operands(fn, args)
    tests = [f"type({x}) is str" for x, a in zip(names, node.args) if const_of(a) is NO_CONST]
    if not tests:
        return None
    r = fn.tmp()
    slow = f"{c.builtin(node.fn.builtin)}({c.mark(node)}{', '.join(names)})"  # type: ignore[attr-defined]
    return f"({r} if {pre}{' and '.join(tests)} and len({r} := {' + '.join(names)}) <= 256 else {slow})"


def select_keys(c: Any, fn: Any, node: n.Call, args: list[str]) -> str | None:
    """`(select-keys row [:a :b])` of a host row: the entries under their host keys, a host
    row again (see values.host_slot); anything else goes to the builtin."""
    keys = const_of(node.args[1]) if len(node.args) == 2 else NO_CONST
    if type(keys) is not v.PVector or not 0 < len(keys) < v.SMALL or \
            any(type(k) is not v.Keyword or type(k.hk) is not str for k in keys):
        return None
    pm, m = bind_once(fn, args[0])
    k = fn.tmp()
    hks = c.const(tuple(dict.fromkeys(k.hk for k in keys)))
    slow = f"{c.builtin(node.fn.builtin)}({c.mark(node)}{m}, {args[1]})"  # type: ignore[attr-defined]
    return f"({{{k}: {m}[{k}] for {k} in {hks} if {k} in {m}}} if type({pm or m}) is dict else {slow})"


_NUMBER = "(({ta} := type({A})) is int or {ta} is float)"
abs_ = unary(_guarded("_abs({a})", [_NUMBER])(1))
is_zero = unary(_guarded("{a} == 0", [_NUMBER])(1))
is_pos = unary(_guarded("{a} > 0", [_NUMBER])(1))
is_neg = unary(_guarded("{a} < 0", [_NUMBER])(1))
is_even = unary(_guarded("not {a} & 1", ["type({A}) is int"])(1))
is_odd = unary(_guarded("{a} & 1 == 1", ["type({A}) is int"])(1))
