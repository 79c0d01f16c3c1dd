"""Arithmetic, numeric comparison, `compare`, number predicates, conversions and bit operations.

Integers are arbitrary precision (guarded by `max_int_bits`) instead of Clojure's
overflow-checked longs; there are no ratios: `(/ 10 4)` is 2.5 and `(/ 10 5)` is 2.
Bit operations keep Java's 64-bit `long` semantics (wrap-around, shift counts mod 64).
"""

from __future__ import annotations

import math
from typing import Any

from .. import dates
from ..context import check_int, int_product_fits
from ..errors import runtime_error
from ..registry import alias, builtin
from ..values import VECTOR_TYPES, Keyword, Symbol, _charge_walk, equals, short, type_name
from . import inline

_FAST = 1 << 62  # sums/differences below this never need the bigint guard
_HALF = 1 << 31  # products of two factors below this never need the bigint guard
_NAN = float("nan")
_INF = float("inf")
_NOARG: Any = object()


def describe(x: Any) -> str:
    """`type value` for error messages (`nil` alone for nil)."""
    if x is None:
        return "nil"
    return f"{type_name(x)} {short(x)}"


def _num_err(who: str, x: Any) -> Exception:
    return runtime_error(f"{who}: expected a number, got {describe(x)}")


def _check_num(who: str, x: Any) -> None:
    t = type(x)
    if t is not int and t is not float:
        raise _num_err(who, x)


def to_float(x: Any) -> float:
    """int/float to float; integers too large for a double become +-Infinity (as Java)."""
    try:
        return float(x)
    except OverflowError:
        return _INF if x > 0 else -_INF


def _bad(who: str, a: Any, b: Any) -> Exception:
    t = type(a)
    return _num_err(who, b if (t is int or t is float) else a)


# -- arithmetic ---------------------------------------------------------------------


def _add2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        r = a + b
        return r if -_FAST < r < _FAST else check_int(r)
    if (ta is float or ta is int) and (tb is float or tb is int):
        try:
            return a + b
        except OverflowError:
            return to_float(a) + to_float(b)
    raise _bad("+", a, b)


def _sub2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        r = a - b
        return r if -_FAST < r < _FAST else check_int(r)
    if (ta is float or ta is int) and (tb is float or tb is int):
        try:
            return a - b
        except OverflowError:
            return to_float(a) - to_float(b)
    raise _bad("-", a, b)


def _mul2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if -_HALF < a < _HALF and -_HALF < b < _HALF:
            return a * b
        int_product_fits(a, b)
        return check_int(a * b)
    if (ta is float or ta is int) and (tb is float or tb is int):
        try:
            return a * b
        except OverflowError:
            return to_float(a) * to_float(b)
    raise _bad("*", a, b)


def _div2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if b == 0:
            raise runtime_error("Divide by zero", hint="check the divisor before dividing")
        q, r = divmod(a, b)
        if r == 0:
            return q
        try:
            return a / b
        except OverflowError:
            return _INF if (a > 0) == (b > 0) else -_INF
    if (ta is float or ta is int) and (tb is float or tb is int):
        try:
            return a / b
        except ZeroDivisionError:
            fa = to_float(a)
            if fa != fa or fa == 0:
                return _NAN
            return math.copysign(_INF, fa) * math.copysign(1.0, float(b))
        except OverflowError:
            fb = to_float(b)
            if fb == 0:
                return _div2(to_float(a), fb)
            return to_float(a) / fb
    raise _bad("/", a, b)


@builtin("+", inline=inline.additive("+"), pure=True, column_op="+", int_result=True, args=("[]", "[x]", "[x y]", "[x y & more]"), category="numbers",
         doc="Sum of the numbers; (+) is 0. Integers stay integers, any float makes the result a float.",
         ex=(("(+ 1 2 3)", "6"), ("(+ 1 2.5)", "3.5"), ("(+)", "0")))
def add(*args: Any) -> Any:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            r = a + b
            return r if -_FAST < r < _FAST else check_int(r)
        return _add2(a, b)
    if not args:
        return 0
    r = args[0]
    _check_num("+", r)
    for x in args[1:]:
        r = _add2(r, x)
    return r


@builtin("-", inline=inline.additive("-"), pure=True, column_op="-", int_result=True, args=("[x]", "[x y]", "[x y & more]"), category="numbers",
         doc="Subtracts the rest from the first number; with one argument, negates it.",
         ex=(("(- 10 3 2)", "5"), ("(- 5)", "-5"), ("(- 1.5 1)", "0.5")))
def sub(x: Any, *more: Any) -> Any:
    if len(more) == 1:
        y = more[0]
        if type(x) is int and type(y) is int:
            r = x - y
            return r if -_FAST < r < _FAST else check_int(r)
        return _sub2(x, y)
    if not more:
        t = type(x)
        if t is int or t is float:
            return -x
        raise _num_err("-", x)
    r = x
    for y in more:
        r = _sub2(r, y)
    return r


@builtin("*", inline=inline.mul, pure=True, column_op="*", int_result=True, args=("[]", "[x]", "[x y]", "[x y & more]"), category="numbers",
         doc="Product of the numbers; (*) is 1.",
         ex=(("(* 2 3 4)", "24"), ("(* 2 1.5)", "3.0"), ("(*)", "1")))
def mul(*args: Any) -> Any:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int and -_HALF < a < _HALF and -_HALF < b < _HALF:
            return a * b
        return _mul2(a, b)
    if not args:
        return 1
    r = args[0]
    _check_num("*", r)
    for x in args[1:]:
        r = _mul2(r, x)
    return r


@builtin("/", inline=inline.divide, pure=True, column_op="/", args=("[x]", "[x y]", "[x y & more]"), category="numbers",
         doc="Divides the first number by the rest; (/ x) is 1/x. Exact integer quotients stay "
             "integers, others are floats (no ratios). Integer division by zero is an error.",
         ex=(("(/ 10 5)", "2"), ("(/ 10 4)", "2.5"), ("(/ 1.0 4)", "0.25"), ("(/ 4.0)", "0.25")))
def div(x: Any, *more: Any) -> Any:
    if len(more) == 1:
        return _div2(x, more[0])
    if not more:
        return _div2(1, x)
    r = x
    for y in more:
        r = _div2(r, y)
    return r


def _int_quot(a: int, b: int) -> int:
    q, r = divmod(a, b)
    if r and (a < 0) != (b < 0):
        q += 1
    return q


def _zero_div() -> Exception:
    return runtime_error("Divide by zero", hint="check the divisor before dividing")


@builtin("quot", inline=inline.quot, pure=True, column_op="quot", int_result=True, args="[num div]", category="numbers",
         doc="Quotient of dividing num by div, truncated toward zero.",
         ex=(("(quot 7 2)", "3"), ("(quot -7 2)", "-3"), ("(quot 7.5 2)", "3.0")))
def quot(num: Any, div: Any) -> Any:
    tn, td = type(num), type(div)
    if tn is int and td is int:
        if div == 0:
            raise _zero_div()
        return _int_quot(num, div)
    if (tn is int or tn is float) and (td is int or td is float):
        d = to_float(div)
        if d == 0:
            raise _zero_div()
        q = to_float(num) / d
        return float(math.trunc(q)) if math.isfinite(q) else q
    raise _bad("quot", num, div)


def _float_rem(n: float, d: float) -> float:
    q = n / d
    if not math.isfinite(q):
        return math.fmod(n, d) if math.isfinite(n) else _NAN
    return n - math.trunc(q) * d


@builtin("rem", inline=inline.rem, pure=True, int_result=True, args="[num div]", category="numbers",
         doc="Remainder of dividing num by div; the result has the sign of num.",
         ex=(("(rem 7 2)", "1"), ("(rem -7 2)", "-1"), ("(rem 7.5 2)", "1.5")))
def rem(num: Any, div: Any) -> Any:
    tn, td = type(num), type(div)
    if tn is int and td is int:
        if div == 0:
            raise _zero_div()
        r = num % div
        if r and (r < 0) != (num < 0):
            r -= div
        return r
    if (tn is int or tn is float) and (td is int or td is float):
        d = to_float(div)
        if d == 0:
            raise _zero_div()
        return _float_rem(to_float(num), d)
    raise _bad("rem", num, div)


@builtin("mod", inline=inline.mod, pure=True, column_op="mod", int_result=True, args="[num div]", category="numbers",
         doc="Modulus of num and div (floored division); the result has the sign of div.",
         ex=(("(mod 7 2)", "1"), ("(mod -7 2)", "1"), ("(mod 7 -2)", "-1"), ("(mod -7.5 2)", "0.5")))
def mod(num: Any, div: Any) -> Any:
    tn, td = type(num), type(div)
    if tn is int and td is int:
        if div == 0:
            raise _zero_div()
        return num % div
    if (tn is int or tn is float) and (td is int or td is float):
        d = to_float(div)
        if d == 0:
            raise _zero_div()
        n = to_float(num)
        m = _float_rem(n, d)
        if m == 0 or (n > 0) == (d > 0):
            return m
        return m + d
    raise _bad("mod", num, div)


@builtin("inc", inline=inline.inc, pure=True, column_op="inc", int_result=True, step=1, args="[x]", category="numbers", doc="x plus one.",
         ex=(("(inc 1)", "2"), ("(inc 1.5)", "2.5")))
def inc(x: Any) -> Any:
    if type(x) is int and x < _FAST:
        return x + 1
    t = type(x)
    if t is int or t is float:
        return _add2(x, 1)
    raise _num_err("inc", x)


@builtin("dec", inline=inline.dec, pure=True, column_op="dec", int_result=True, step=-1, args="[x]", category="numbers", doc="x minus one.",
         ex=(("(dec 1)", "0"), ("(dec 1.5)", "0.5")))
def dec(x: Any) -> Any:
    if type(x) is int and x > -_FAST:
        return x - 1
    t = type(x)
    if t is int or t is float:
        return _sub2(x, 1)
    raise _num_err("dec", x)


def _raise(e: Exception) -> Any:
    raise e


def _max2(x: Any, y: Any) -> Any:
    tx, ty = type(x), type(y)
    if (tx is int or tx is float) and (ty is int or ty is float):
        if x > y:
            return x
        if x != x:  # NaN propagates
            return x
        return y
    raise _bad("max", x, y)


def _min2(x: Any, y: Any) -> Any:
    tx, ty = type(x), type(y)
    if (tx is int or tx is float) and (ty is int or ty is float):
        if x < y:
            return x
        if x != x:
            return x
        return y
    raise _bad("min", x, y)


@builtin("max", inline=inline.max_, pure=True, column_op="max", args=("[x]", "[x y]", "[x y & more]"), category="numbers",
         doc="The greatest of the numbers (NaN if any is NaN). Use max-key or sort for other values.",
         ex=(("(max 1 5 3)", "5"), ("(max 1 2.5)", "2.5"), ("(apply max [4 9 2])", "9")))
def max_(x: Any, *more: Any) -> Any:
    if not more:
        _check_num("max", x)
        return x
    r = x
    for y in more:
        r = _max2(r, y)
    return r


@builtin("min", inline=inline.min_, pure=True, column_op="min", args=("[x]", "[x y]", "[x y & more]"), category="numbers",
         doc="The least of the numbers (NaN if any is NaN). Use min-key or sort for other values.",
         ex=(("(min 1 5 3)", "1"), ("(min 1 0.5)", "0.5"), ("(apply min [4 9 2])", "2")))
def min_(x: Any, *more: Any) -> Any:
    if not more:
        _check_num("min", x)
        return x
    r = x
    for y in more:
        r = _min2(r, y)
    return r


@builtin("abs", inline=inline.abs_, pure=True, column_op="abs", args="[a]", category="numbers", doc="Absolute value of a number.",
         ex=(("(abs -5)", "5"), ("(abs -2.5)", "2.5")))
def abs_(a: Any) -> Any:
    t = type(a)
    if t is int or t is float:
        return abs(a)
    raise _num_err("abs", a)


# -- comparison ---------------------------------------------------------------------


@builtin("=", inline=inline.eq, pure=True, column_op="=", boolean=True, comparison="=", args=("[x]", "[x y]", "[x y & more]"), category="comparison",
         doc="True if all arguments are equal (Clojure equality: 1 and 1.0 differ, [1 2] equals '(1 2)).",
         ex=(("(= 1 1)", "true"), ("(= [1 2] '(1 2))", "true"), ("(= 1 1.0)", "false"),
             ("(= {:a 1} {:a 1})", "true")))
def eq(x: Any, *more: Any) -> bool:
    if len(more) == 1:
        return equals(x, more[0])
    for y in more:
        if not equals(x, y):
            return False
        x = y
    return True


@builtin("not=", inline=inline.not_eq, pure=True, column_op="not=", boolean=True, args=("[x]", "[x y]", "[x y & more]"), category="comparison",
         doc="Same as (not (= x y ...)).",
         ex=(("(not= 1 2)", "true"), ("(not= :a :a)", "false"), ("(not= 1 1 2)", "true")))
def not_eq(x: Any, *more: Any) -> bool:
    return not eq(x, *more)


def _numcmp(who: str, op: Any, x: Any, more: tuple[Any, ...]) -> bool:
    for y in more:
        tx, ty = type(x), type(y)
        if not ((tx is int or tx is float) and (ty is int or ty is float)):
            raise runtime_error(
                f"{who}: expected a number, got {describe(y if (tx is int or tx is float) else x)}",
                hint="use compare to order strings, keywords or vectors")
        if not op(x, y):
            return False
        x = y
    return True


@builtin("==", boolean=True, args=("[x]", "[x y]", "[x y & more]"), category="comparison",
         doc="Numeric equality: true if all numbers are equal in value (1 == 1.0).",
         ex=(("(== 1 1.0)", "true"), ("(== 1 2)", "false")))
def num_eq(x: Any, *more: Any) -> bool:
    if not more:
        return True
    return _numcmp("==", lambda a, b: a == b, x, more)


def _make_cmp(name: str, op: Any, doc: str, ex: Any) -> None:
    """A numeric comparison builtin: pure, the column op of the same name, inlined for two numbers."""
    def cmp(x: Any, *more: Any) -> bool:
        if len(more) == 1:
            y = more[0]
            tx, ty = type(x), type(y)
            if (tx is int or tx is float) and (ty is int or ty is float):
                return op(x, y)
        elif not more:
            return True
        return _numcmp(name, op, x, more)

    builtin(name, args=("[x]", "[x y]", "[x y & more]"), category="comparison", doc=doc, ex=ex, pure=True,
            column_op=name, inline=inline.numeric_binop(name), boolean=True, comparison=name)(cmp)
    globals()["cmp_" + {"<": "lt", ">": "gt", "<=": "le", ">=": "ge"}[name]] = cmp


import operator as _op  # noqa: E402

_make_cmp("<", _op.lt, "True if the numbers are in strictly increasing order (numbers only; use compare otherwise).",
          (("(< 1 2 3)", "true"), ("(< 1 3 2)", "false")))
_make_cmp(">", _op.gt, "True if the numbers are in strictly decreasing order.",
          (("(> 3 2 1)", "true"), ("(> 1 2)", "false")))
_make_cmp("<=", _op.le, "True if the numbers are in non-decreasing order.",
          (("(<= 1 1 2)", "true"), ("(<= 2 1)", "false")))
_make_cmp(">=", _op.ge, "True if the numbers are in non-increasing order.",
          (("(>= 3 3 1)", "true"), ("(>= 1 2)", "false")))


def _java_str_cmp(a: str, b: str) -> int:
    """Java's String.compareTo: by UTF-16 code units (a character above U+FFFF is two, its
    surrogates, so it sorts below U+E000-U+FFFF), then by length in code units."""
    if a == b:
        return 0
    for ca, cb in zip(a, b):
        if ca != cb:
            if ca < "\U00010000" and cb < "\U00010000":
                return ord(ca) - ord(cb)
            ua, ub = _utf16_units(ca), _utf16_units(cb)
            return ua[0] - ub[0] if ua[0] != ub[0] else ua[1] - ub[1]
    return _utf16_len(a) - _utf16_len(b)


def _utf16_units(c: str) -> tuple[int, int]:
    """A character's UTF-16 code units (a BMP character's second is never compared)."""
    n = ord(c)
    if n < 0x10000:
        return n, 0
    n -= 0x10000
    return 0xD800 + (n >> 10), 0xDC00 + (n & 0x3FF)


def _utf16_len(s: str) -> int:
    return len(s) if s.isascii() else len(s) + sum(1 for c in s if c >= "\U00010000")


def _split_name(name: str) -> tuple[str | None, str]:
    i = name.find("/")
    if i <= 0 or name == "/":
        return None, name
    return name[:i], name[i + 1:]


def _named_cmp(a: str, b: str) -> int:
    if a == b:
        return 0
    na, sa = _split_name(a)
    nb, sb = _split_name(b)
    if na is None and nb is not None:
        return -1
    if na is not None:
        if nb is None:
            return 1
        c = _java_str_cmp(na, nb)
        if c:
            return c
    return _java_str_cmp(sa, sb)


def compare_values(a: Any, b: Any) -> int:
    """Clojure `compare`: negative, zero or positive.

    nil sorts first; numbers by value (1 and 1.0 compare equal); strings lexicographically
    (Java's compareTo, so the result can be any int); keywords/symbols by namespace then
    name; booleans false < true; vectors by length, then element by element. Anything
    else (maps, sets, lists, mixed types) is a runtime error, as in Clojure.
    """
    if a is b:
        return 0
    if a is None:
        return -1
    if b is None:
        return 1
    ta, tb = type(a), type(b)
    if ta is int or ta is float:
        if tb is int or tb is float:
            return -1 if a < b else (1 if a > b else 0)
    elif ta is str:
        if tb is str:
            return _java_str_cmp(a, b)
    elif ta is Keyword:
        if tb is Keyword:
            return _named_cmp(a.name, b.name)
    elif ta in VECTOR_TYPES:
        if tb in VECTOR_TYPES:
            la, lb = len(a), len(b)
            if la != lb:
                return -1 if la < lb else 1
            _charge_walk()  # nested (possibly shared) vectors: comparing them charges steps
            for x, y in zip(a, b):
                c = compare_values(x, y)
                if c:
                    return c
            return 0
    elif ta is bool:
        if tb is bool:
            return 0 if a == b else (1 if a else -1)
    elif ta is Symbol:
        if tb is Symbol:
            return _named_cmp(a.name, b.name)
    elif ta in dates.TYPES:
        if dates.comparable(a, b):
            return dates.compare(a, b)
    if type_name(a) == type_name(b):
        raise runtime_error(f"compare: cannot compare {type_name(a)} values ({short(a)} and {short(b)})",
                            hint="only numbers, strings, keywords, booleans, vectors and dates are comparable")
    raise runtime_error(f"compare: cannot compare {describe(a)} with {describe(b)}",
                        hint="compare values of the same type (nil sorts before everything)")


@builtin("compare", pure=True, args="[x y]", category="comparison",
         doc="Negative, zero or positive when x is less than, equal to, or greater than y. Orders "
             "numbers, strings, keywords, booleans, vectors (by length, then items); nil is least.",
         ex=(("(compare 1 2)", "-1"), ("(compare \"b\" \"a\")", "1"), ("(compare nil 0)", "-1"),
             ("(compare [1 2] [1 3])", "-1"), ("(compare :a :a)", "0")))
def compare(x: Any, y: Any) -> int:
    return compare_values(x, y)


# -- number predicates --------------------------------------------------------------


@builtin("zero?", column_op="zero?", inline=inline.is_zero, pure=True, comparison="= 0", args="[num]", category="numbers", doc="True if num is zero.",
         ex=(("(zero? 0)", "true"), ("(zero? 0.0)", "true"), ("(zero? 3)", "false")))
def zero_p(num: Any) -> bool:
    t = type(num)
    if t is int or t is float:
        return num == 0
    raise _num_err("zero?", num)


@builtin("pos?", column_op="pos?", inline=inline.is_pos, pure=True, comparison="> 0", args="[num]", category="numbers", doc="True if num is greater than zero.",
         ex=(("(pos? 3)", "true"), ("(pos? 0)", "false")))
def pos_p(num: Any) -> bool:
    t = type(num)
    if t is int or t is float:
        return num > 0
    raise _num_err("pos?", num)


@builtin("neg?", column_op="neg?", inline=inline.is_neg, pure=True, args="[num]", category="numbers", doc="True if num is less than zero.",
         ex=(("(neg? -1)", "true"), ("(neg? 0)", "false")))
def neg_p(num: Any) -> bool:
    t = type(num)
    if t is int or t is float:
        return num < 0
    raise _num_err("neg?", num)


def _not_int(who: str, n: Any) -> Exception:
    return runtime_error(f"{who}: argument must be an integer, got {describe(n)}")


@builtin("even?", inline=inline.is_even, pure=True, column_op="even?", args="[n]", category="numbers", doc="True if the integer n is even (error for non-integers).",
         ex=(("(even? 4)", "true"), ("(even? 3)", "false")))
def even_p(n: Any) -> bool:
    if type(n) is int:
        return not n & 1
    raise _not_int("even?", n)


@builtin("odd?", inline=inline.is_odd, pure=True, column_op="odd?", args="[n]", category="numbers", doc="True if the integer n is odd (error for non-integers).",
         ex=(("(odd? 3)", "true"), ("(odd? 4)", "false")))
def odd_p(n: Any) -> bool:
    if type(n) is int:
        return bool(n & 1)
    raise _not_int("odd?", n)


@builtin("number?", args="[x]", category="numbers", doc="True if x is a number (integer or float).",
         ex=(("(number? 1.5)", "true"), ("(number? \"1\")", "false")))
def number_p(x: Any) -> bool:
    t = type(x)
    return t is int or t is float


@builtin("integer?", args="[n]", category="numbers", doc="True if n is an integer (not a float).",
         ex=(("(integer? 1)", "true"), ("(integer? 1.0)", "false")))
def integer_p(n: Any) -> bool:
    return type(n) is int


@builtin("int?", args="[x]", category="numbers", doc="True if x is an integer.",
         ex=(("(int? 42)", "true"), ("(int? 4.2)", "false")))
def int_p(x: Any) -> bool:
    return type(x) is int


@builtin("float?", args="[n]", category="numbers", doc="True if n is a floating-point number.",
         ex=(("(float? 1.0)", "true"), ("(float? 1)", "false")))
def float_p(n: Any) -> bool:
    return type(n) is float


@builtin("double?", args="[x]", category="numbers", doc="True if x is a floating-point number.",
         ex=(("(double? 1.0)", "true"), ("(double? 1)", "false")))
def double_p(x: Any) -> bool:
    return type(x) is float


@builtin("nat-int?", args="[x]", category="numbers", doc="True if x is a non-negative integer.",
         ex=(("(nat-int? 0)", "true"), ("(nat-int? -1)", "false")))
def nat_int_p(x: Any) -> bool:
    return type(x) is int and x >= 0


@builtin("pos-int?", args="[x]", category="numbers", doc="True if x is a positive integer.",
         ex=(("(pos-int? 1)", "true"), ("(pos-int? 0)", "false")))
def pos_int_p(x: Any) -> bool:
    return type(x) is int and x > 0


@builtin("neg-int?", args="[x]", category="numbers", doc="True if x is a negative integer.",
         ex=(("(neg-int? -1)", "true"), ("(neg-int? 1)", "false")))
def neg_int_p(x: Any) -> bool:
    return type(x) is int and x < 0


@builtin("NaN?", args="[num]", category="numbers", doc="True if num is the float NaN.",
         ex=(("(NaN? ##NaN)", "true"), ("(NaN? 1)", "false")))
def nan_p(num: Any) -> bool:
    t = type(num)
    if t is float:
        return num != num
    if t is int:
        return False
    raise _num_err("NaN?", num)


@builtin("infinite?", args="[num]", category="numbers", doc="True if num is positive or negative infinity.",
         ex=(("(infinite? ##Inf)", "true"), ("(infinite? 1.0)", "false")))
def infinite_p(num: Any) -> bool:
    t = type(num)
    if t is float:
        return math.isinf(num)
    if t is int:
        return False
    raise _num_err("infinite?", num)


# -- conversions --------------------------------------------------------------------


def _to_integer(who: str, x: Any) -> int:
    t = type(x)
    if t is int:
        return x
    if t is float:
        if x != x:
            return 0
        if math.isinf(x):
            raise runtime_error(f"{who}: value out of range: {short(x)}")
        return check_int(int(x))
    if t is str and len(x) == 1:  # a character
        return ord(x)
    if t is str:
        raise runtime_error(f"{who}: expected a number or a character, got {describe(x)}",
                            hint="use parse-long or parse-double to read numbers from strings")
    raise runtime_error(f"{who}: expected a number, got {describe(x)}")


@builtin("int", column_op="long", args="[x]", category="numbers",
         doc="Coerces to an integer, truncating floats toward zero; a character gives its code point.",
         ex=(("(int 2.7)", "2"), ("(int -2.7)", "-2"), ("(int \\a)", "97")))
def int_(x: Any) -> int:
    if type(x) is int:
        return x
    return _to_integer("int", x)


@builtin("long", column_op="long", args="[x]", category="numbers",
         doc="Coerces to an integer, truncating floats toward zero.",
         ex=(("(long 3.99)", "3"), ("(long 7)", "7")))
def long_(x: Any) -> int:
    if type(x) is int:
        return x
    return _to_integer("long", x)


def _to_double(who: str, x: Any) -> float:
    t = type(x)
    if t is float:
        return x
    if t is int:
        return to_float(x)
    raise runtime_error(f"{who}: expected a number, got {describe(x)}",
                        hint="use parse-double to read a number from a string" if t is str else None)


@builtin("double", column_op="double", args="[x]", category="numbers", doc="Coerces a number to a float.",
         ex=(("(double 1)", "1.0"), ("(double 2.5)", "2.5")))
def double(x: Any) -> float:
    if type(x) is float:
        return x
    return _to_double("double", x)


@builtin("float", args="[x]", category="numbers",
         doc="Coerces a number to a float (a double: there is no single-precision float).",
         ex=(("(float 1)", "1.0"),))
def float_(x: Any) -> float:
    if type(x) is float:
        return x
    return _to_double("float", x)


@builtin("num", args="[x]", category="numbers", doc="Returns x if it is a number, else an error.",
         ex=(("(num 3)", "3"),))
def num(x: Any) -> Any:
    t = type(x)
    if t is int or t is float:
        return x
    raise _num_err("num", x)


# -- bit operations (Java 64-bit long semantics) --------------------------------------

_M64 = (1 << 64) - 1
_MIN64 = -(1 << 63)
_MAX64 = (1 << 63) - 1


def _wrap(x: int) -> int:
    x &= _M64
    return x - (1 << 64) if x >> 63 else x


def _long_arg(who: str, x: Any) -> int:
    if type(x) is int:
        if _MIN64 <= x <= _MAX64:
            return x
        raise runtime_error(f"{who}: bit operations need a 64-bit integer, got {short(x)}")
    raise runtime_error(f"{who}: bit operations need an integer, got {describe(x)}")


def _bitfold(who: str, op: Any, x: Any, y: Any, more: tuple[Any, ...]) -> int:
    r = op(_long_arg(who, x), _long_arg(who, y))
    for z in more:
        r = op(r, _long_arg(who, z))
    return r


@builtin("bit-and", args=("[x y]", "[x y & more]"), category="numbers", doc="Bitwise and.",
         ex=(("(bit-and 12 10)", "8"),))
def bit_and(x: Any, y: Any, *more: Any) -> int:
    return _bitfold("bit-and", _op.and_, x, y, more)


@builtin("bit-or", args=("[x y]", "[x y & more]"), category="numbers", doc="Bitwise or.",
         ex=(("(bit-or 12 10)", "14"),))
def bit_or(x: Any, y: Any, *more: Any) -> int:
    return _bitfold("bit-or", _op.or_, x, y, more)


@builtin("bit-xor", args=("[x y]", "[x y & more]"), category="numbers", doc="Bitwise exclusive or.",
         ex=(("(bit-xor 12 10)", "6"),))
def bit_xor(x: Any, y: Any, *more: Any) -> int:
    return _bitfold("bit-xor", _op.xor, x, y, more)


@builtin("bit-and-not", args=("[x y]", "[x y & more]"), category="numbers", doc="Bitwise and with complement.",
         ex=(("(bit-and-not 7 2)", "5"),))
def bit_and_not(x: Any, y: Any, *more: Any) -> int:
    return _bitfold("bit-and-not", lambda a, b: a & ~b, x, y, more)


@builtin("bit-not", args="[x]", category="numbers", doc="Bitwise complement.",
         ex=(("(bit-not 0)", "-1"),))
def bit_not(x: Any) -> int:
    return ~_long_arg("bit-not", x)


def _shift(who: str, n: Any) -> int:
    if type(n) is int:
        return n & 63
    raise runtime_error(f"{who}: shift count must be an integer, got {describe(n)}")


@builtin("bit-shift-left", args="[x n]", category="numbers",
         doc="Shifts x left by n bits (64-bit, wraps around like Java longs).",
         ex=(("(bit-shift-left 1 10)", "1024"),))
def bit_shift_left(x: Any, n: Any) -> int:
    return _wrap(_long_arg("bit-shift-left", x) << _shift("bit-shift-left", n))


@builtin("bit-shift-right", args="[x n]", category="numbers",
         doc="Arithmetic (sign-preserving) right shift of x by n bits.",
         ex=(("(bit-shift-right 1024 3)", "128"), ("(bit-shift-right -8 1)", "-4")))
def bit_shift_right(x: Any, n: Any) -> int:
    return _long_arg("bit-shift-right", x) >> _shift("bit-shift-right", n)


@builtin("unsigned-bit-shift-right", args="[x n]", category="numbers",
         doc="Logical (zero-filling) right shift of x by n bits, as a 64-bit value.",
         ex=(("(unsigned-bit-shift-right -8 60)", "15"),))
def unsigned_bit_shift_right(x: Any, n: Any) -> int:
    return _wrap((_long_arg("unsigned-bit-shift-right", x) & _M64) >> _shift("unsigned-bit-shift-right", n))


@builtin("bit-test", args="[x n]", category="numbers", doc="True if bit n of x is set.",
         ex=(("(bit-test 5 0)", "true"), ("(bit-test 5 1)", "false")))
def bit_test(x: Any, n: Any) -> bool:
    return bool((_long_arg("bit-test", x) >> _shift("bit-test", n)) & 1)


@builtin("bit-set", args="[x n]", category="numbers", doc="x with bit n set.",
         ex=(("(bit-set 0 3)", "8"),))
def bit_set(x: Any, n: Any) -> int:
    return _wrap(_long_arg("bit-set", x) | (1 << _shift("bit-set", n)))


@builtin("bit-clear", args="[x n]", category="numbers", doc="x with bit n cleared.",
         ex=(("(bit-clear 5 0)", "4"),))
def bit_clear(x: Any, n: Any) -> int:
    return _wrap(_long_arg("bit-clear", x) & ~(1 << _shift("bit-clear", n)))


@builtin("bit-flip", args="[x n]", category="numbers", doc="x with bit n flipped.",
         ex=(("(bit-flip 5 1)", "7"),))
def bit_flip(x: Any, n: Any) -> int:
    return _wrap(_long_arg("bit-flip", x) ^ (1 << _shift("bit-flip", n)))


# Clojure's auto-promoting variants: integers are already arbitrary precision here.
alias("+'", "+")
alias("-'", "-")
alias("*'", "*")
alias("inc'", "inc")
alias("dec'", "dec")

__all__ = ["compare_values", "describe", "to_float", "add", "sub", "mul", "div", "inc", "dec"]
