"""clojure.math (Clojure 1.11), and PTC-Lisp's own `round`.

clojure.math is Java's Math under Clojure's names, so most of it is the Math/ builtins
registered again (registry.alias): the same Java methods, the same results. Where Clojure's
functions differ from calling Math directly, they are builtins of their own here: the
integer ones (floor-div, add-exact...) take any number and truncate it to a long, as their
`(long x)` does; `round` and `scalb` round or scale the double of their argument (an integer
past 2^53 rounds as that double does), `scalb` truncating its scale factor to an int.

`round` in clojure.core is PTC-Lisp's, not Clojure's: (round x) is clojure.math/round
without its 64-bit bound (PTC-Lisp's integers have none), (round x n) rounds to n digits as
Python's round does.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import runtime_error
from ..registry import REGISTRY, alias, builtin
from .core_numbers import _to_double, _to_integer, describe
from .interop import half_up, math_round

_NS, _CAT = "clojure.math", "math"

# clojure.math's name -> the Math/ builtin it is
_SAME = {name: name for name in ("sin cos tan asin acos atan exp expm1 log log10 log1p sqrt cbrt floor ceil rint "
                                 "sinh cosh tanh signum ulp atan2 pow hypot random").split()}
_SAME.update({"to-radians": "toRadians", "to-degrees": "toDegrees", "IEEE-remainder": "IEEEremainder",
              "copy-sign": "copySign", "next-up": "nextUp", "next-down": "nextDown", "next-after": "nextAfter",
              "get-exponent": "getExponent"})
for _name, _java in _SAME.items():
    alias(_name, f"Math/{_java}", ns=_NS)


@builtin("round", ns=_NS, args="[a]", category=_CAT,
         doc="The integer closest to the double of a, halves rounding up (toward ##Inf); NaN gives 0, values past "
             "the 64-bit range Long/MIN_VALUE or Long/MAX_VALUE.",
         ex=(("(clojure.math/round 2.5)", "3"), ("(clojure.math/round -2.5)", "-2"),
             ("(clojure.math/round ##NaN)", "0")))
def round_double(a: Any) -> int:
    return math_round(_to_double("clojure.math/round", a))


@builtin("scalb", ns=_NS, args="[d scale-factor]", category=_CAT,
         doc="d times 2 to the power scale-factor (truncated to an integer), rounded once.",
         ex=(("(clojure.math/scalb 3 4)", "48.0"), ("(clojure.math/scalb 1.0 -1.5)", "0.5")))
def scalb(d: Any, scale_factor: Any) -> float:
    return REGISTRY["Math/scalb"].fn(_to_double("clojure.math/scalb", d),  # type: ignore[no-any-return]
                                     _to_integer("clojure.math/scalb", scale_factor))


def _on_longs(name: str, java: str, doc: str, example: tuple[str, str]) -> None:
    """A clojure.math function of longs: Math/java of its arguments truncated as (long x) truncates."""
    target, who = REGISTRY[f"Math/{java}"].fn, f"{_NS}/{name}"
    if REGISTRY[f"Math/{java}"].arglists == ("[x]",):
        def one(x: Any) -> int:
            return target(_to_integer(who, x))  # type: ignore[no-any-return]

        builtin(name, ns=_NS, args="[x]", category=_CAT, doc=doc, ex=(example,))(one)
    else:
        def two(x: Any, y: Any) -> int:
            return target(_to_integer(who, x), _to_integer(who, y))  # type: ignore[no-any-return]

        builtin(name, ns=_NS, args="[x y]", category=_CAT, doc=doc, ex=(example,))(two)


_on_longs("floor-div", "floorDiv", "Integer division rounding toward negative infinity.",
          ("(clojure.math/floor-div -7 2)", "-4"))
_on_longs("floor-mod", "floorMod", "Integer modulus with the sign of y (x - (floor-div x y) * y).",
          ("(clojure.math/floor-mod -7 2)", "1"))
_on_longs("add-exact", "addExact", "x + y; an error past the 64-bit range.", ("(clojure.math/add-exact 2 3)", "5"))
_on_longs("subtract-exact", "subtractExact", "x - y; an error past the 64-bit range.",
          ("(clojure.math/subtract-exact 2 3)", "-1"))
_on_longs("multiply-exact", "multiplyExact", "x * y; an error past the 64-bit range.",
          ("(clojure.math/multiply-exact 4 3)", "12"))
_on_longs("increment-exact", "incrementExact", "x + 1; an error past the 64-bit range.",
          ("(clojure.math/increment-exact 4)", "5"))
_on_longs("decrement-exact", "decrementExact", "x - 1; an error past the 64-bit range.",
          ("(clojure.math/decrement-exact 4)", "3"))
_on_longs("negate-exact", "negateExact", "-x; an error past the 64-bit range.",
          ("(clojure.math/negate-exact 4)", "-4"))


# -- PTC-Lisp's round ------------------------------------------------------------------------------

_DIGITS = 10_000  # past this many digits either way, every number PTC-Lisp holds rounds to itself or 0
_WHOLE = object()  # (round x): no digits given


@builtin("round", args=("[x]", "[x n]"), category="numbers",
         doc="PTC-Lisp's, not Clojure's: (round x) is the closest integer, halves rounding up, as clojure.math/round "
             "(but not stopping at the 64-bit range: an integer stays itself); (round x n) rounds to n digits after "
             "the point as Python's round does: halves to even, on the float's exact binary value (2.675 is "
             "2.67499...), a float (an integer x stays an integer, rounded to tens, hundreds... for a negative n).",
         ex=(("(round 3.14159 2)", "3.14"), ("(round 2.5)", "3"), ("(round -2.5)", "-2"),
             ("(round 1234.5 -2)", "1200.0"), ("(round 2.675 2)", "2.67"), ("(round 7 2)", "7")))
def round_(x: Any, n: Any = _WHOLE) -> Any:
    t = type(x)
    if t is not int and t is not float:
        raise runtime_error(f"round: expected a number, got {describe(x)}",
                            hint="use parse-double to read a number from a string" if t is str else None)
    if n is _WHOLE:
        return x if t is int else half_up(x) if math.isfinite(x) else math_round(x)
    if type(n) is not int:
        raise runtime_error(f"round: the number of digits must be an integer, got {describe(n)}")
    return round(x, max(-_DIGITS, min(_DIGITS, n)))


__all__ = ["round_", "round_double", "scalb"]
