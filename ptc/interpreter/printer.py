"""Clojure-exact printing: `pr-str` (readable) and `print`/`str` (human) renderings."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from . import values as v

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


class _Full(Exception):
    pass


def format_double(x: float) -> str:
    """Java's Double.toString: plain between 1e-3 and 1e7, else `d.dddE±n`."""
    if math.isnan(x):
        return "##NaN"
    if math.isinf(x):
        return "##Inf" if x > 0 else "##-Inf"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    a = abs(x)
    if 1e-3 <= a < 1e7:
        text = repr(x)
        if "e" in text or "E" in text:
            text = f"{x:.17f}".rstrip("0")
        if "." not in text:
            text += ".0"
        elif text.endswith("."):
            text += "0"
        return text
    _, digits, exp = Decimal(repr(a)).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    exponent = len(digits) - 1 + int(exp)
    sign = "-" if x < 0 else ""
    return f"{sign}{ds[0]}.{ds[1:] or '0'}E{exponent}"


def _set_order(x: Any) -> tuple[int, Any]:
    """Sets print in a deterministic order (Clojure's is hash order, arbitrary anyway), so a
    prompt that shows a set is byte-identical across processes (record/replay relies on it)."""
    t = type(x)
    if t is int or t is float:
        return (0, x) if x == x else (1, 0)
    if t is str:
        return (2, x)
    if t is v.Keyword:
        return (3, x.name)
    return (4, pr_str(x))


def _fn_name(x: Any) -> str:
    q = getattr(x, "__qualname__", "") or ""
    if q.startswith("ptc:"):
        return q[4:]
    return "fn"


class _Printer:
    __slots__ = ("readable", "out", "size", "limit")

    def __init__(self, readable: bool, limit: int | None) -> None:
        self.readable = readable
        self.out: list[str] = []
        self.size = 0
        self.limit = limit

    def w(self, s: str) -> None:
        self.out.append(s)
        if self.limit is not None:
            self.size += len(s)
            if self.size >= self.limit:
                raise _Full

    def seq(self, open_: str, items: Any, close: str) -> None:
        self.w(open_)
        first = True
        for item in items:
            if not first:
                self.w(" ")
            first = False
            self.p(item)
        self.w(close)

    def p(self, x: Any) -> None:
        if x is None:
            self.w("nil")
            return
        t = type(x)
        if t is str:
            if self.readable:
                self.w('"' + "".join(_ESCAPES.get(c, c) for c in x) + '"')
            else:
                self.w(x)
        elif t is bool:
            self.w("true" if x else "false")
        elif t is int:
            self.w(str(x))
        elif t is float:
            self.w(format_double(x))
        elif t is v.Keyword:
            self.w(":" + x.name)
        elif t is v.Symbol:
            self.w(x.name)
        elif t in v.VECTOR_TYPES:
            self.seq("[", x, "]")
        elif t is v.PList or t is v.LazySeq:
            self.seq("(", x, ")")
        elif t in v.MAP_TYPES:
            self.w("{")
            first = True
            for k, val in x.items():
                if not first:
                    self.w(", ")
                first = False
                self.p(k)
                self.w(" ")
                self.p(val)
            self.w("}")
        elif t in v.SET_TYPES:
            self.seq("#{", sorted(x, key=_set_order), "}")
        elif t is v.Regex:
            self.w('#"' + x.source + '"')
        elif callable(x):
            self.w(f"#fn[{_fn_name(x)}]")
        else:
            self.w(f"#object[{t.__name__}]")


def pr_str(x: Any, *, max_len: int | None = None, readable: bool = True) -> str:
    """The text Clojure's `pr-str` gives (`print-str` when readable=False).

    With max_len, stops early and returns a prefix of at least max_len characters, so
    truncating a huge value never renders all of it.
    """
    pr = _Printer(readable, max_len)
    try:
        pr.p(x)
    except _Full:
        pass
    return "".join(pr.out)


def str_of(x: Any) -> str:
    """Clojure `str` of one value: nil is empty, strings raw, everything else readable."""
    if x is None:
        return ""
    t = type(x)
    if t is str:
        return x
    if t is int:
        return str(x)
    if t is float:
        return format_double(x).replace("##", "") if not math.isfinite(x) else format_double(x)
    return pr_str(x)


def print_str(x: Any) -> str:
    """What `print`/`println` show: like pr-str but strings unquoted at every depth."""
    return pr_str(x, readable=False)


def truncate(x: Any, limit: int) -> str:
    """pr-str cut to `limit` characters with a `...` marker (used by compression samples)."""
    text = pr_str(x, max_len=limit + 1)
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 3)] + "..."
