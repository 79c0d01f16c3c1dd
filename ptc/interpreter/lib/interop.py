"""Java static methods programs commonly call: Math/..., Integer/..., Long/..., Double/...

`Long` is an alias of the `Integer` namespace in the registry, so `Long/parseLong` is
registered here as `Integer/parseLong`. Static fields (`Math/PI`, `Long/MAX_VALUE`...)
are not functions: the analyzer reads them from CONSTANTS, keyed by the name as written
(look the constant up BEFORE resolving the Long -> Integer alias: their values differ).
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

from ..context import rng
from ..errors import runtime_error
from ..registry import builtin
from .core_numbers import describe, to_float

_INF = float("inf")
_NAN = float("nan")
_MIN64 = -(1 << 63)
_MAX64 = (1 << 63) - 1

CONSTANTS: dict[str, Any] = {
    "Math/PI": math.pi,
    "Math/E": math.e,
    "Integer/MAX_VALUE": 2147483647,
    "Integer/MIN_VALUE": -2147483648,
    "Long/MAX_VALUE": _MAX64,
    "Long/MIN_VALUE": _MIN64,
    "Double/MAX_VALUE": 1.7976931348623157e308,
    "Double/MIN_VALUE": 5e-324,
    "Double/POSITIVE_INFINITY": _INF,
    "Double/NEGATIVE_INFINITY": -_INF,
    "Double/NaN": _NAN,
}


def _arg(who: str, x: Any) -> float:
    t = type(x)
    if t is float:
        return x
    if t is int:
        return to_float(x)
    raise runtime_error(f"{who}: expected a number, got {describe(x)}")


def _math1(name: str, fn: Callable[[float], float], doc: str, ex: Any,
           overflow: Callable[[float], float] = lambda x: _INF) -> Callable[[Any], float]:
    who = "Math/" + name

    def f(a: Any) -> float:
        x = a if type(a) is float else _arg(who, a)
        try:
            return fn(x)
        except ValueError:
            return _NAN
        except OverflowError:
            return overflow(x)

    f.__name__ = name
    builtin(name, ns="Math", args="[a]", category="math", doc=doc, ex=ex)(f)
    return f


def _floor(x: float) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    return float(math.floor(x))


def _ceil(x: float) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    r = float(math.ceil(x))
    return -0.0 if r == 0 and x < 0 else r


def _rint(x: float) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    r = float(round(x))
    return math.copysign(r, x) if r == 0 else r


def _log(fn: Callable[[float], float]) -> Callable[[float], float]:
    def g(x: float) -> float:
        if x == 0:
            return -_INF
        if x < 0 or x != x:
            return _NAN
        return fn(x)
    return g


def _log1p(x: float) -> float:
    if x == -1:
        return -_INF
    if x < -1 or x != x:
        return _NAN
    return math.log1p(x)


def _signum(x: float) -> float:
    if x == 0 or x != x:
        return x
    return 1.0 if x > 0 else -1.0


_math1("floor", _floor, "The largest whole number (as a float) not greater than a.",
       (("(Math/floor 2.7)", "2.0"), ("(Math/floor -2.5)", "-3.0")))
_math1("ceil", _ceil, "The smallest whole number (as a float) not less than a.",
       (("(Math/ceil 2.1)", "3.0"),))
_math1("rint", _rint, "The whole number (as a float) closest to a; ties go to the even one.",
       (("(Math/rint 2.5)", "2.0"),))
_math1("sqrt", math.sqrt, "Square root (NaN for negative numbers).",
       (("(Math/sqrt 16)", "4.0"), ("(Math/sqrt 2)", "1.4142135623730951")))
def _cbrt(x: float) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    r = math.cbrt(x)
    c = float(round(r))
    return c if c * c * c == x else r


_math1("cbrt", _cbrt, "Cube root.", (("(Math/cbrt 27)", "3.0"),))
_math1("exp", math.exp, "e raised to the power a.", (("(Math/exp 0)", "1.0"),))
_math1("expm1", math.expm1, "(Math/exp a) minus 1, accurate for small a.", (("(Math/expm1 0)", "0.0"),))
_math1("log", _log(math.log), "Natural logarithm (##-Inf for 0, NaN for negative numbers).",
       (("(Math/log 1)", "0.0"), ("(Math/log Math/E)", "1.0")))
_math1("log10", _log(math.log10), "Base-10 logarithm.", (("(Math/log10 1000)", "3.0"),))
_math1("log1p", _log1p, "Natural logarithm of (1 + a), accurate for small a.", (("(Math/log1p 0)", "0.0"),))
_math1("sin", math.sin, "Sine of an angle in radians.", (("(Math/sin 0)", "0.0"),))
_math1("cos", math.cos, "Cosine of an angle in radians.", (("(Math/cos 0)", "1.0"),))
_math1("tan", math.tan, "Tangent of an angle in radians.", (("(Math/tan 0)", "0.0"),))
_math1("asin", math.asin, "Arc sine, in radians (NaN outside -1..1).", (("(Math/asin 0)", "0.0"),))
_math1("acos", math.acos, "Arc cosine, in radians (NaN outside -1..1).", (("(Math/acos 1)", "0.0"),))
_math1("atan", math.atan, "Arc tangent, in radians.", (("(Math/atan 0)", "0.0"),))
_math1("sinh", math.sinh, "Hyperbolic sine.", (("(Math/sinh 0)", "0.0"),),
       overflow=lambda x: math.copysign(_INF, x))
_math1("cosh", math.cosh, "Hyperbolic cosine.", (("(Math/cosh 0)", "1.0"),))
_math1("tanh", math.tanh, "Hyperbolic tangent.", (("(Math/tanh 0)", "0.0"),))
_math1("toRadians", math.radians, "Converts degrees to radians.", (("(Math/toRadians 180)", "3.141592653589793"),))
_math1("toDegrees", math.degrees, "Converts radians to degrees.", (("(Math/toDegrees Math/PI)", "180.0"),))
_math1("signum", _signum, "-1.0, 0.0 or 1.0 according to the sign of a.",
       (("(Math/signum -5.0)", "-1.0"), ("(Math/signum 2.5)", "1.0")))


@builtin("round", ns="Math", args="[a]", category="math",
         doc="a rounded to the nearest integer, halves rounding up (toward positive infinity).",
         ex=(("(Math/round 2.5)", "3"), ("(Math/round -2.5)", "-2"), ("(Math/round 2.4)", "2")))
def math_round(a: Any) -> int:
    if type(a) is int:
        return a
    x = _arg("Math/round", a)
    if x != x:
        return 0
    if math.isinf(x):
        return _MAX64 if x > 0 else _MIN64
    f = math.floor(x)
    r = f + 1 if x - f >= 0.5 else f
    return max(_MIN64, min(_MAX64, r))


@builtin("abs", ns="Math", args="[a]", category="math", doc="Absolute value (integers stay integers).",
         ex=(("(Math/abs -5)", "5"), ("(Math/abs -2.5)", "2.5")))
def math_abs(a: Any) -> Any:
    t = type(a)
    if t is int or t is float:
        return abs(a)
    raise runtime_error(f"Math/abs: expected a number, got {describe(a)}")


def _pow(x: float, y: float) -> float:
    if y != y:
        return _NAN
    if y == 0:
        return 1.0
    if math.isinf(y) and abs(x) == 1:
        return _NAN
    odd = math.isfinite(y) and y.is_integer() and int(y) % 2 == 1
    try:
        return math.pow(x, y)
    except ZeroDivisionError:
        pass
    except OverflowError:
        return -_INF if (x < 0 and odd) else _INF
    except ValueError:
        if x == 0 and y < 0:
            return -_INF if (math.copysign(1.0, x) < 0 and odd) else _INF
        return _NAN
    return -_INF if (math.copysign(1.0, x) < 0 and odd) else _INF


@builtin("pow", ns="Math", args="[a b]", category="math",
         doc="a raised to the power b, as a float (overflow gives ##Inf).",
         ex=(("(Math/pow 2 10)", "1024.0"), ("(Math/pow 2 0.5)", "1.4142135623730951"), ("(Math/pow 10 400)", "##Inf")))
def math_pow(a: Any, b: Any) -> float:
    return _pow(_arg("Math/pow", a), _arg("Math/pow", b))


@builtin("atan2", ns="Math", args="[y x]", category="math", doc="The angle in radians of the point (x, y).",
         ex=(("(Math/atan2 0 1)", "0.0"),))
def math_atan2(y: Any, x: Any) -> float:
    return math.atan2(_arg("Math/atan2", y), _arg("Math/atan2", x))


@builtin("hypot", ns="Math", args="[x y]", category="math", doc="sqrt(x^2 + y^2) without overflow.",
         ex=(("(Math/hypot 3 4)", "5.0"),))
def math_hypot(x: Any, y: Any) -> float:
    try:
        return math.hypot(_arg("Math/hypot", x), _arg("Math/hypot", y))
    except OverflowError:
        return _INF


def _minmax(who: str, a: Any, b: Any, pick_max: bool) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return max(a, b) if pick_max else min(a, b)
    x, y = _arg(who, a), _arg(who, b)
    if x != x or y != y:
        return _NAN
    if x == y == 0:  # -0.0 < 0.0 in Java's Math.max/min
        neg_x = math.copysign(1.0, x) < 0
        if pick_max:
            return x if not neg_x else y
        return x if neg_x else y
    return max(x, y) if pick_max else min(x, y)


@builtin("max", ns="Math", args="[a b]", category="math",
         doc="The greater of two numbers (a float if either is a float).",
         ex=(("(Math/max 1 2)", "2"), ("(Math/max 1.5 -2.0)", "1.5")))
def math_max(a: Any, b: Any) -> Any:
    return _minmax("Math/max", a, b, True)


@builtin("min", ns="Math", args="[a b]", category="math",
         doc="The lesser of two numbers (a float if either is a float).",
         ex=(("(Math/min 1 2)", "1"), ("(Math/min 1.5 -2.0)", "-2.0")))
def math_min(a: Any, b: Any) -> Any:
    return _minmax("Math/min", a, b, False)


def _ints(who: str, a: Any, b: Any) -> tuple[int, int]:
    if type(a) is not int or type(b) is not int:
        bad = b if type(a) is int else a
        raise runtime_error(f"{who}: expected integers, got {describe(bad)}")
    if b == 0:
        raise runtime_error("Divide by zero", hint="check the divisor before dividing")
    return a, b


@builtin("floorDiv", ns="Math", args="[x y]", category="math", doc="Integer division rounding toward negative infinity.",
         ex=(("(Math/floorDiv -7 2)", "-4"),))
def math_floor_div(x: Any, y: Any) -> int:
    a, b = _ints("Math/floorDiv", x, y)
    return a // b


@builtin("floorMod", ns="Math", args="[x y]", category="math", doc="Integer modulus with the sign of y (like mod).",
         ex=(("(Math/floorMod -7 2)", "1"),))
def math_floor_mod(x: Any, y: Any) -> int:
    a, b = _ints("Math/floorMod", x, y)
    return a % b


@builtin("random", ns="Math", args="[]", category="math",
         doc="A random float between 0 (inclusive) and 1 (exclusive); replayable with Limits(seed=...).",
         ex=(("(< (Math/random) 1)", "true"),))
def math_random() -> float:
    return rng().random()


# -- Integer / Long / Double ---------------------------------------------------------------

_INT_TEXT = re.compile(r"[+-]?[0-9A-Za-z]+")


def _parse_int(who: str, s: Any, radix: Any, lo: int, hi: int) -> int:
    if type(s) is not str:
        raise runtime_error(f"{who}: expected a string, got {describe(s)}")
    if type(radix) is not int or not 2 <= radix <= 36:
        raise runtime_error(f"{who}: radix must be an integer between 2 and 36, got {describe(radix)}")
    n: int | None = None
    if len(s) <= 80 and _INT_TEXT.fullmatch(s):
        try:
            n = int(s, radix)
        except ValueError:
            n = None
    if n is None or not lo <= n <= hi:
        raise runtime_error(f"{who}: cannot parse {s[:60]!r} as an integer" + ("" if n is None else " (out of range)"),
                            hint="use parse-long to get nil instead of an error")
    return n


@builtin("parseInt", ns="Integer", args=("[s]", "[s radix]"), category="interop",
         doc="Parses s as a 32-bit integer (optional radix); an error if s is not one.",
         ex=(("(Integer/parseInt \"42\")", "42"), ("(Integer/parseInt \"ff\" 16)", "255")))
def parse_int(s: Any, radix: Any = 10) -> int:
    return _parse_int("Integer/parseInt", s, radix, -(1 << 31), (1 << 31) - 1)


@builtin("parseLong", ns="Integer", args=("[s]", "[s radix]"), category="interop",
         doc="Parses s as a 64-bit integer (optional radix); an error if s is not one. Also Long/parseLong.",
         ex=(("(Long/parseLong \"3000000000\")", "3000000000"),))
def parse_long(s: Any, radix: Any = 10) -> int:
    return _parse_int("Long/parseLong", s, radix, _MIN64, _MAX64)


@builtin("valueOf", ns="Integer", args=("[s]", "[s radix]"), category="interop",
         doc="Like parseLong for a string; an integer is returned as is. Also Long/valueOf.",
         ex=(("(Integer/valueOf \"12\")", "12"),))
def value_of(s: Any, radix: Any = 10) -> int:
    if type(s) is int and radix == 10:
        return s
    return _parse_int("Integer/valueOf", s, radix, _MIN64, _MAX64)


def _parse_double(who: str, s: Any) -> float:
    if type(s) is not str:
        raise runtime_error(f"{who}: expected a string, got {describe(s)}")
    from .core_strings import parse_double

    v = parse_double(s)
    if v is None:
        raise runtime_error(f"{who}: cannot parse {s[:60]!r} as a number",
                            hint="use parse-double to get nil instead of an error")
    return v


@builtin("parseDouble", ns="Double", args="[s]", category="interop",
         doc="Parses s as a float; an error if s is not a number.",
         ex=(("(Double/parseDouble \"1.5\")", "1.5"), ("(Double/parseDouble \"2\")", "2.0")))
def parse_double(s: Any) -> float:
    return _parse_double("Double/parseDouble", s)


@builtin("valueOf", ns="Double", args="[s]", category="interop",
         doc="Like Double/parseDouble for a string; a number is converted to a float.",
         ex=(("(Double/valueOf \"1.5\")", "1.5"),))
def double_value_of(s: Any) -> float:
    t = type(s)
    if t is float:
        return s
    if t is int:
        return to_float(s)
    return _parse_double("Double/valueOf", s)


@builtin("isNaN", ns="Double", args="[x]", category="interop", doc="True if x is NaN.",
         ex=(("(Double/isNaN ##NaN)", "true"), ("(Double/isNaN 1.0)", "false")))
def is_nan(x: Any) -> bool:
    v = _arg("Double/isNaN", x)
    return v != v


@builtin("isInfinite", ns="Double", args="[x]", category="interop", doc="True if x is positive or negative infinity.",
         ex=(("(Double/isInfinite ##Inf)", "true"), ("(Double/isInfinite 1.0)", "false")))
def is_infinite(x: Any) -> bool:
    return math.isinf(_arg("Double/isInfinite", x))


__all__ = ["CONSTANTS"]
