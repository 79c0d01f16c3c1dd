"""Java static methods programs commonly call: Math/..., Integer/..., Long/..., Double/...,
Character/..., Boolean/..., String/..., System/... (java.time's are in java_time.py).

`Long` is an alias of the `Integer` namespace in the registry, so `Long/parseLong` is
registered here as `Integer/parseLong`. Static fields (`Math/PI`, `Long/MAX_VALUE`...)
are not functions: the analyzer reads them from CONSTANTS, keyed by the name as written
(look the constant up BEFORE resolving the Long -> Integer alias: their values differ).
"""

from __future__ import annotations

import math
import re
import struct
from typing import Any, Callable

from ..context import rng
from ..errors import runtime_error
from ..registry import builtin
from ..values import EMPTY_QUEUE
from .core_numbers import describe, to_float

_INF = float("inf")
_NAN = float("nan")
_MIN64 = -(1 << 63)
_MAX64 = (1 << 63) - 1

CONSTANTS: dict[str, Any] = {
    "Math/PI": math.pi,
    "Math/E": math.e,
    "math/PI": math.pi,  # clojure.math/PI (and math/PI, its usual alias)
    "math/E": math.e,
    "Integer/MAX_VALUE": 2147483647,
    "Integer/MIN_VALUE": -2147483648,
    "Long/MAX_VALUE": _MAX64,
    "Long/MIN_VALUE": _MIN64,
    "Double/MAX_VALUE": 1.7976931348623157e308,
    "Double/MIN_VALUE": 5e-324,
    "Double/POSITIVE_INFINITY": _INF,
    "Double/NEGATIVE_INFINITY": -_INF,
    "Double/NaN": _NAN,
    "Boolean/TRUE": True,
    "Boolean/FALSE": False,
    "PersistentQueue/EMPTY": EMPTY_QUEUE,  # clojure.lang.PersistentQueue/EMPTY
}


def constant(ns: str, name: str) -> Any:
    """The static field ns/name as written (java.lang.Long/MAX_VALUE, ChronoUnit/DAYS...), or None."""
    from .java_time import CONSTANTS as TIME_CONSTANTS

    cls = ns.rsplit(".", 1)[-1]  # java.lang.Long -> Long, java.time.temporal.ChronoUnit -> ChronoUnit
    key = f"{cls}/{name}"
    found = CONSTANTS.get(key)
    return found if found is not None else TIME_CONSTANTS.get(key)


def constant_names(cls: str) -> list[str]:
    """The static fields of a class (Locale -> ENGLISH, US...), for the analyzer's suggestions."""
    from .java_time import CONSTANTS as TIME_CONSTANTS

    return [k.split("/", 1)[1] for k in (*CONSTANTS, *TIME_CONSTANTS) if k.startswith(cls + "/")]


def _arg(who: str, x: Any) -> float:
    t = type(x)
    if t is float:
        return x
    if t is int:
        return to_float(x)
    raise runtime_error(f"{who}: expected a number, got {describe(x)}")


def _math1(name: str, fn: Callable[[float], float], doc: str, ex: Any,
           overflow: Callable[[float], float] = lambda x: _INF, column_op: str | None = None) -> Callable[[Any], float]:
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
    builtin(name, ns="Math", args="[a]", category="math", doc=doc, ex=ex, column_op=column_op)(f)
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
       (("(Math/floor 2.7)", "2.0"), ("(Math/floor -2.5)", "-3.0")), column_op="floor")
_math1("ceil", _ceil, "The smallest whole number (as a float) not less than a.",
       (("(Math/ceil 2.1)", "3.0"),))
_math1("rint", _rint, "The whole number (as a float) closest to a; ties go to the even one.",
       (("(Math/rint 2.5)", "2.0"),))
_math1("sqrt", math.sqrt, "Square root (NaN for negative numbers).",
       (("(Math/sqrt 16)", "4.0"), ("(Math/sqrt 2)", "1.4142135623730951")), column_op="sqrt")
def _words(x: float) -> tuple[int, int]:
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    return bits >> 32, bits & 0xFFFFFFFF


def _of_words(hi: int, lo: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", (hi << 32) | lo))[0]  # type: ignore[no-any-return]


# fdlibm's 19/35, -864/1225, 99/70, 45/28 and 5/14, to the bit
_CBRT = [_of_words(*w) for w in ((0x3FE15F15, 0xF15F15F1), (0xBFE691DE, 0x2532C834), (0x3FF6A0EA, 0x0EA0EA0F),
                                 (0x3FF9B6DB, 0x6DB6DB6E), (0x3FD6DB6D, 0xB6DB6DB7))]


def _cbrt(x: float) -> float:
    """Java's Math.cbrt: fdlibm's cbrt, which StrictMath ports (libm's cbrt can differ in the last bit)."""
    if x == 0 or not math.isfinite(x):
        return x
    sign, x = math.copysign(1.0, x), abs(x)
    if x < 2.2250738585072014e-308:  # subnormal: scale by 2**54 first
        hi, lo = _words(x * 18014398509481984.0)
        t = _of_words(hi // 3 + 696219795, lo)
    else:
        t = _of_words(_words(x)[0] // 3 + 715094163, 0)
    c, d, e, f, g = _CBRT
    r = t * t / x
    s = c + r * t
    t *= g + f / (s + e + d / s)
    t = _of_words(_words(t)[0] + 1, 0)  # chopped to 20 bits, made larger than cbrt(x)
    s = t * t
    r = x / s
    r = (r - t) / (t + t + r)  # one Newton step: within 0.667 ulps, the bits Java gives
    return sign * (t + t * r)


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
    return max(_MIN64, min(_MAX64, half_up(x)))


def half_up(x: float) -> int:
    """The integer nearest the finite x, a half rounding up (x - floor(x) is exact, so 0.49999999999999994
    rounds to 0, as Java's Math.round)."""
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


@builtin("abs", column_op="abs", ns="Math", args="[a]", category="math", doc="Absolute value (integers stay integers).",
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


@builtin("pow", column_op="pow", ns="Math", args="[a b]", category="math",
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


# -- more of Math ----------------------------------------------------------------------------


def _ulp(x: float) -> float:
    return abs(x) if not math.isfinite(x) else math.ulp(x)


_math1("ulp", _ulp, "The distance from a to the next float up in magnitude.", (("(Math/ulp 1.0)", "2.220446049250313E-16"),))
_math1("nextUp", lambda x: math.nextafter(x, _INF), "The next float above a.", (("(Math/nextUp 1.0)", "1.0000000000000002"),))
_math1("nextDown", lambda x: math.nextafter(x, -_INF), "The next float below a.",
       (("(Math/nextDown 1.0)", "0.9999999999999999"),))


@builtin("nextAfter", ns="Math", args="[start direction]", category="math",
         doc="The float next to start toward direction (direction itself when they are equal).",
         ex=(("(Math/nextAfter 1.0 2.0)", "1.0000000000000002"), ("(Math/nextAfter 1.0 0)", "0.9999999999999999")))
def math_next_after(start: Any, direction: Any) -> float:
    return math.nextafter(_arg("Math/nextAfter", start), _arg("Math/nextAfter", direction))


@builtin("scalb", ns="Math", args="[d scale-factor]", category="math",
         doc="d times 2 to the power of the integer scale-factor, rounded once (##Inf past the largest float).",
         ex=(("(Math/scalb 3.0 4)", "48.0"), ("(Math/scalb 1.0 -1)", "0.5")))
def math_scalb(d: Any, scale_factor: Any) -> float:
    x, n = _arg("Math/scalb", d), _int_arg("Math/scalb", scale_factor)
    try:
        return math.ldexp(x, max(-2200, min(2200, n)))  # past +-2200 every float is 0 or infinite
    except OverflowError:
        return math.copysign(_INF, x)


@builtin("getExponent", ns="Math", args="[a]", category="math", doc="The unbiased binary exponent of a.",
         ex=(("(Math/getExponent 8.0)", "3"),))
def math_get_exponent(a: Any) -> int:
    x = _arg("Math/getExponent", a)
    if not math.isfinite(x):
        return 1024
    if x == 0:
        return -1023
    return max(math.frexp(x)[1] - 1, -1023)


@builtin("copySign", ns="Math", args="[magnitude sign]", category="math", doc="magnitude with the sign of sign.",
         ex=(("(Math/copySign 3.0 -1.0)", "-3.0"),))
def math_copy_sign(magnitude: Any, sign: Any) -> float:
    return math.copysign(_arg("Math/copySign", magnitude), _arg("Math/copySign", sign))


@builtin("IEEEremainder", ns="Math", args="[x y]", category="math",
         doc="x - y * n where n is x/y rounded to the nearest integer (ties to even).",
         ex=(("(Math/IEEEremainder 10 3)", "1.0"),))
def math_ieee_remainder(x: Any, y: Any) -> float:
    a, b = _arg("Math/IEEEremainder", x), _arg("Math/IEEEremainder", y)
    try:
        return math.remainder(a, b)
    except ValueError:
        return _NAN


def _exact(name: str, op: Callable[..., int], doc: str, ex: tuple[tuple[str, str], ...], nargs: int) -> None:
    who = "Math/" + name

    def f(*xs: Any) -> int:
        if len(xs) != nargs:
            raise runtime_error(f"Wrong number of args ({len(xs)}) passed to {who}")
        for x in xs:
            if type(x) is not int:
                raise runtime_error(f"{who}: expected integers, got {describe(x)}")
        r = op(*xs)
        if not _MIN64 <= r <= _MAX64:
            raise runtime_error(f"{who}: long overflow", hint="integers are unbounded in PTC-Lisp: use + - * instead")
        return r

    builtin(name, ns="Math", args="[x y]" if nargs == 2 else "[x]", category="math", doc=doc, ex=ex)(f)


_exact("addExact", lambda a, b: a + b, "a + b; an error past the 64-bit range.", (("(Math/addExact 2 3)", "5"),), 2)
_exact("subtractExact", lambda a, b: a - b, "a - b; an error past the 64-bit range.",
       (("(Math/subtractExact 2 3)", "-1"),), 2)
_exact("multiplyExact", lambda a, b: a * b, "a * b; an error past the 64-bit range.",
       (("(Math/multiplyExact 4 3)", "12"),), 2)
_exact("negateExact", lambda a: -a, "-a; an error past the 64-bit range.", (("(Math/negateExact 4)", "-4"),), 1)
_exact("incrementExact", lambda a: a + 1, "a + 1; an error past the 64-bit range.",
       (("(Math/incrementExact 4)", "5"),), 1)
_exact("decrementExact", lambda a: a - 1, "a - 1; an error past the 64-bit range.",
       (("(Math/decrementExact 4)", "3"),), 1)
_exact("toIntExact", lambda a: a if -(1 << 31) <= a < (1 << 31) else 1 << 64, "a, an error outside the 32-bit range.",
       (("(Math/toIntExact 4)", "4"),), 1)


# -- more of Integer / Long / Double / Boolean ---------------------------------------------


def _int_arg(who: str, x: Any) -> int:
    if type(x) is int:
        return x
    raise runtime_error(f"{who}: expected an integer, got {describe(x)}")


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _to_radix(n: int, radix: int) -> str:
    if n == 0:
        return "0"
    out = []
    m = abs(n)
    while m:
        m, d = divmod(m, radix)
        out.append(_DIGITS[d])
    return ("-" if n < 0 else "") + "".join(reversed(out))


@builtin("toString", ns="Integer", args=("[n]", "[n radix]"), category="interop",
         doc="The digits of integer n (in radix, default 10). Also Long/toString.",
         ex=(("(Integer/toString 255 16)", "\"ff\""), ("(Long/toString 42)", "\"42\"")))
def integer_to_string(n: Any, radix: Any = 10) -> str:
    n = _int_arg("Integer/toString", n)
    r = _int_arg("Integer/toString", radix)
    return _to_radix(n, r if 2 <= r <= 36 else 10)


def _unsigned(who: str, n: Any, shift: int) -> str:
    n = _int_arg(who, n)
    if n < 0:
        n &= (1 << 64) - 1 if n < -(1 << 31) else (1 << 32) - 1
    return _to_radix(n, 1 << shift)


@builtin("toBinaryString", ns="Integer", args="[n]", category="interop", doc="The binary digits of n (two's "
         "complement for negative n).", ex=(("(Integer/toBinaryString 10)", "\"1010\""),))
def to_binary_string(n: Any) -> str:
    return _unsigned("Integer/toBinaryString", n, 1)


@builtin("toHexString", ns="Integer", args="[n]", category="interop", doc="The hexadecimal digits of n.",
         ex=(("(Integer/toHexString 255)", "\"ff\""),))
def to_hex_string(n: Any) -> str:
    return _unsigned("Integer/toHexString", n, 4)


@builtin("toOctalString", ns="Integer", args="[n]", category="interop", doc="The octal digits of n.",
         ex=(("(Integer/toOctalString 8)", "\"10\""),))
def to_octal_string(n: Any) -> str:
    return _unsigned("Integer/toOctalString", n, 3)


@builtin("bitCount", ns="Integer", args="[n]", category="interop", doc="The number of one bits of n (two's complement).",
         ex=(("(Integer/bitCount 7)", "3"),))
def bit_count(n: Any) -> int:
    n = _int_arg("Integer/bitCount", n)
    return (n & ((1 << 64) - 1)).bit_count() if n < 0 else n.bit_count()


@builtin("signum", ns="Integer", args="[n]", category="interop", doc="-1, 0 or 1 by the sign of integer n.",
         ex=(("(Integer/signum -5)", "-1"),))
def integer_signum(n: Any) -> int:
    n = _int_arg("Integer/signum", n)
    return (n > 0) - (n < 0)


@builtin("compare", ns="Integer", args="[x y]", category="interop", doc="-1, 0 or 1 as x is less, equal or greater.",
         ex=(("(Integer/compare 3 5)", "-1"),))
def integer_compare(x: Any, y: Any) -> int:
    a, b = _int_arg("Integer/compare", x), _int_arg("Integer/compare", y)
    return (a > b) - (a < b)


@builtin("sum", ns="Integer", args="[x y]", category="interop", doc="x + y (handy as a reducing function).",
         ex=(("(reduce Integer/sum [1 2 3])", "6"),))
def integer_sum(x: Any, y: Any) -> int:
    return _int_arg("Integer/sum", x) + _int_arg("Integer/sum", y)


@builtin("max", ns="Integer", args="[x y]", category="interop", doc="The greater of two integers.",
         ex=(("(Integer/max 3 5)", "5"),))
def integer_max(x: Any, y: Any) -> int:
    return max(_int_arg("Integer/max", x), _int_arg("Integer/max", y))


@builtin("min", ns="Integer", args="[x y]", category="interop", doc="The lesser of two integers.",
         ex=(("(Integer/min 3 5)", "3"),))
def integer_min(x: Any, y: Any) -> int:
    return min(_int_arg("Integer/min", x), _int_arg("Integer/min", y))


@builtin("compare", ns="Double", args="[x y]", category="interop", doc="-1, 0 or 1 as x is less, equal or greater.",
         ex=(("(Double/compare 1.5 0.5)", "1"),))
def double_compare(x: Any, y: Any) -> int:
    a, b = _arg("Double/compare", x), _arg("Double/compare", y)
    if a != a or b != b:
        return 0 if (a != a and b != b) else (1 if a != a else -1)
    return (a > b) - (a < b)


@builtin("isFinite", ns="Double", args="[x]", category="interop", doc="True if x is neither infinite nor NaN.",
         ex=(("(Double/isFinite 1.0)", "true"),))
def double_is_finite(x: Any) -> bool:
    return math.isfinite(_arg("Double/isFinite", x))


@builtin("toString", ns="Double", args="[x]", category="interop", doc="The text of float x (as str).",
         ex=(("(Double/toString 1.5)", "\"1.5\""),))
def double_to_string(x: Any) -> str:
    from .core_strings import str_value

    return str_value(to_float(_arg("Double/toString", x)))


@builtin("parseBoolean", ns="Boolean", args="[s]", category="interop",
         doc="True if s is \"true\" in any case; false for anything else (nil included).",
         ex=(("(Boolean/parseBoolean \"TRUE\")", "true"), ("(Boolean/parseBoolean \"yes\")", "false")))
def parse_boolean(s: Any) -> bool:
    return type(s) is str and s.lower() == "true"


@builtin("valueOf", ns="Boolean", args="[x]", category="interop",
         doc="Like Boolean/parseBoolean for a string; a boolean as it is.", ex=(("(Boolean/valueOf \"true\")", "true"),))
def boolean_value_of(x: Any) -> bool:
    return x if type(x) is bool else parse_boolean(x)


# -- Character ---------------------------------------------------------------------------------


def _char(who: str, c: Any) -> str:
    """A character argument: a one-character string, or an integer code as Java allows."""
    if type(c) is str and len(c) == 1:
        return c
    if type(c) is int and 0 <= c <= 0x10FFFF:
        return chr(c)
    raise runtime_error(f"{who}: expected a character, got {describe(c)}")


def _char_pred(name: str, test: Callable[[str], bool], doc: str, ex: tuple[tuple[str, str], ...]) -> None:
    who = "Character/" + name

    def f(c: Any) -> bool:
        return test(_char(who, c))

    builtin(name, ns="Character", args="[c]", category="interop", doc=doc, ex=ex)(f)


def _java_ws(c: str) -> bool:
    from .string import JAVA_WS

    return c in JAVA_WS


_char_pred("isDigit", lambda c: c.isdecimal(), "True if c is a digit.", (("(Character/isDigit \\7)", "true"),))
_char_pred("isLetter", lambda c: c.isalpha(), "True if c is a letter.", (("(Character/isLetter \\a)", "true"),))
_char_pred("isLetterOrDigit", lambda c: c.isalpha() or c.isdecimal(), "True if c is a letter or a digit.",
           (("(Character/isLetterOrDigit \\_)", "false"),))
_char_pred("isAlphabetic", lambda c: c.isalpha(), "True if c is alphabetic.",
           (("(Character/isAlphabetic \\z)", "true"),))
_char_pred("isWhitespace", _java_ws, "True if c is whitespace (Java's definition: not no-break spaces).",
           (("(Character/isWhitespace \\space)", "true"),))
_char_pred("isSpaceChar", lambda c: c in " \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
           "\u2009\u200a\u2028\u2029\u202f\u205f\u3000", "True if c is a Unicode space character.",
           (("(Character/isSpaceChar \\space)", "true"),))
_char_pred("isUpperCase", lambda c: c.isupper(), "True if c is an upper-case letter.",
           (("(Character/isUpperCase \\A)", "true"),))
_char_pred("isLowerCase", lambda c: c.islower(), "True if c is a lower-case letter.",
           (("(Character/isLowerCase \\A)", "false"),))


@builtin("toUpperCase", ns="Character", args="[c]", category="interop", doc="c in upper case (one character).",
         ex=(("(Character/toUpperCase \\a)", "\"A\""),))
def char_upper(c: Any) -> Any:
    return _char_case("Character/toUpperCase", c, str.upper)


@builtin("toLowerCase", ns="Character", args="[c]", category="interop", doc="c in lower case (one character).",
         ex=(("(Character/toLowerCase \\A)", "\"a\""),))
def char_lower(c: Any) -> Any:
    return _char_case("Character/toLowerCase", c, str.lower)


def _char_case(who: str, c: Any, case: Callable[[str], str]) -> Any:
    """c in another case as Java's: a character whose case is several characters stays itself;
    a code point gives a code point."""
    ch = _char(who, c)
    changed = case(ch)
    r = changed if len(changed) == 1 else ch
    return ord(r) if type(c) is int else r


@builtin("digit", ns="Character", args="[c radix]", category="interop",
         doc="The value of digit c in radix (2-36), or -1 if c is not one.",
         ex=(("(Character/digit \\7 10)", "7"), ("(Character/digit \\f 16)", "15"), ("(Character/digit \\x 10)", "-1")))
def char_digit(c: Any, radix: Any) -> int:
    ch = _char("Character/digit", c)
    r = _int_arg("Character/digit", radix)
    if not 2 <= r <= 36:
        return -1
    if ch.isdecimal():
        d = int(ch)
    elif ch.isascii() and ch.isalpha():
        d = ord(ch.lower()) - ord("a") + 10
    else:
        return -1
    return d if d < r else -1


@builtin("getNumericValue", ns="Character", args="[c]", category="interop",
         doc="The number c stands for (digits 0-9, letters 10-35), or -1.",
         ex=(("(Character/getNumericValue \\9)", "9"), ("(Character/getNumericValue \\b)", "11")))
def char_numeric_value(c: Any) -> int:
    return char_digit(c, 36)


@builtin("forDigit", ns="Character", args="[digit radix]", category="interop",
         doc="The character for digit in radix (lower-case letters past 9), or nil if out of range.",
         ex=(("(Character/forDigit 11 16)", "\"b\""),))
def char_for_digit(digit: Any, radix: Any) -> Any:
    d, r = _int_arg("Character/forDigit", digit), _int_arg("Character/forDigit", radix)
    if not 2 <= r <= 36 or not 0 <= d < r:
        return "\u0000"
    return _DIGITS[d]


# -- String and System -------------------------------------------------------------------------


@builtin("valueOf", ns="String", args="[x]", category="interop", doc="x as a string (nil gives \"null\").",
         ex=(("(String/valueOf 42)", "\"42\""),))
def string_value_of(x: Any) -> str:
    from .core_strings import str_value

    return "null" if x is None else str_value(x)


@builtin("format", ns="String", args="[fmt & args]", category="interop", doc="Same as format.",
         ex=(("(String/format \"%05d\" 42)", "\"00042\""),))
def string_format(fmt: Any, *args: Any) -> str:
    from .core_strings import format_

    return format_(fmt, *args)


@builtin("join", ns="String", args="[separator coll]", category="interop",
         doc="The items of coll (strings) joined by separator.", ex=(("(String/join \", \" [\"a\" \"b\"])", "\"a, b\""),))
def string_join(separator: Any, coll: Any) -> str:
    from .string import join

    return join(separator, coll)


@builtin("currentTimeMillis", ns="System", args="[]", category="interop",
         doc="Milliseconds since the epoch by the run clock (read once per run: the same for the whole run).",
         ex=(("(= (System/currentTimeMillis) (System/currentTimeMillis))", "true"),))
def current_time_millis() -> int:
    from ..context import run_clock

    return int(run_clock().timestamp() * 1000)


@builtin("nanoTime", ns="System", args="[]", category="interop",
         doc="Nanoseconds by the run clock (fixed for the run: elapsed time measured with it is 0).",
         ex=(("(- (System/nanoTime) (System/nanoTime))", "0"),))
def nano_time() -> int:
    from ..context import run_clock

    return int(run_clock().timestamp() * 1_000_000) * 1000


__all__ = ["CONSTANTS", "constant"]
