"""`str`, `subs`, printing, `format`, names and keywords, and string parsing."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any, Callable, Iterable

from .. import context, dates
from ..context import check_deadline, check_string, emit_print
from ..errors import runtime_error
from ..printer import format_double, pr_str
from ..registry import builtin
from ..values import Keyword, PList, PVector, Regex, Symbol, is_keyword_name, short
from .core_numbers import describe
from . import inline

_NOARG: Any = object()
_SMALL = 256  # strings up to this length skip the (cumulative) string accounting


def _cap() -> int:
    return context.CURRENT.limits.max_string


def _float_str(x: float) -> str:
    if math.isfinite(x):
        return format_double(x)
    if x != x:
        return "NaN"
    return "Infinity" if x > 0 else "-Infinity"


def str_value(x: Any) -> str:
    """Clojure `str` of one value: nil is "", strings raw, ##Inf is "Infinity", collections readable."""
    t = type(x)
    if t is str:
        return x
    if x is None:
        return ""
    if t is int:
        return str(x)
    if t is float:
        return _float_str(x)
    if t is bool:
        return "true" if x else "false"
    if t is Keyword:
        return ":" + x.name
    if t is Regex:
        return x.source
    if t in dates.TYPES:
        return dates.iso_text(x)
    cap = _cap()
    text = pr_str(x, max_len=cap + 1)
    if len(text) > _SMALL:
        check_string(len(text))
    return text


SIZED_TYPES = frozenset({tuple, list, PList, PVector})  # sized collections a join may read at once


def join_texts(items: Iterable[Any], text: Callable[[Any], str] = str_value, sep: str = "") -> str:
    """The texts of items joined by sep (str, str/join, pr-str...), refused as soon as the
    total passes max_string: rendering a million items only to refuse the result at the
    end would outlast the deadline."""
    if text is str_value and type(items) in SIZED_TYPES and len(items) <= 16:  # a few values: no running total
        joined = sep.join([x if type(x) is str else str_value(x) for x in items])
        if len(joined) > _SMALL:
            check_string(len(joined))
        return joined
    cap = _cap()
    parts: list[str] = []
    total, gap = -len(sep), len(sep)
    for x in items:
        part = text(x)
        parts.append(part)
        total += len(part) + gap
        if total > cap:
            check_string(total)  # raises
        if not len(parts) & 0x3FF:
            check_deadline()
    if total > _SMALL:
        check_string(total)
    return sep.join(parts)


@builtin("str", pure=True, inline=inline.str_concat, column_op="str", args=("[]", "[x]", "[x & ys]"), category="strings",
         doc="Concatenates the string forms of the arguments: nil is \"\", strings as is, "
             "other values as printed (keywords with their colon).",
         ex=(("(str \"a\" 1 nil :b)", "\"a1:b\""), ("(str)", "\"\""), ("(str [1 \"x\"])", "\"[1 \\\"x\\\"]\""),
             ("(str 1.5)", "\"1.5\"")))
def str_(*args: Any) -> str:
    if len(args) == 1:
        x = args[0]
        if type(x) is str:
            return x
        return str_value(x)
    return join_texts(args)


def _text(who: str, s: Any) -> str:
    if type(s) is str:
        return s
    raise runtime_error(f"{who}: expected a string, got {describe(s)}")


def _index(who: str, i: Any) -> int:
    if type(i) is int:
        return i
    if type(i) is float and i.is_integer():
        return int(i)
    raise runtime_error(f"{who}: index must be an integer, got {describe(i)}")


@builtin("subs", column_op="subs", args=("[s start]", "[s start end]"), category="strings",
         doc="The substring of s from start (inclusive) to end (exclusive, default the end of s).",
         ex=(("(subs \"hello\" 1)", "\"ello\""), ("(subs \"hello\" 1 3)", "\"el\"")))
def subs(s: Any, start: Any, end: Any = _NOARG) -> str:
    s = _text("subs", s)
    b = _index("subs", start)
    e = len(s) if end is _NOARG else _index("subs", end)
    if 0 <= b <= e <= len(s):
        return s[b:e]
    raise runtime_error(f"subs: range out of bounds: begin {b}, end {e}, length {len(s)}")


def _render(args: tuple[Any, ...], readable: bool, cap: int) -> str:
    return join_texts(args, lambda a: pr_str(a, max_len=cap + 1, readable=readable), " ")


@builtin("pr-str", args="[& xs]", category="strings",
         doc="The readable printed form of the values (strings quoted), separated by spaces.",
         ex=(("(pr-str \"a\" 1 [:b \"c\"])", "\"\\\"a\\\" 1 [:b \\\"c\\\"]\""),))
def pr_str_(*xs: Any) -> str:
    return _render(xs, True, _cap())


@builtin("prn-str", args="[& xs]", category="strings", doc="Like pr-str, followed by a newline.",
         ex=(("(prn-str \"a\")", "\"\\\"a\\\"\\n\""),))
def prn_str(*xs: Any) -> str:
    return _render(xs, True, _cap()) + "\n"


@builtin("print-str", args="[& xs]", category="strings",
         doc="The human printed form of the values (strings unquoted at every depth), separated by spaces.",
         ex=(("(print-str \"a\" [1 \"b\"])", "\"a [1 b]\""),))
def print_str_(*xs: Any) -> str:
    return _render(xs, False, _cap())


@builtin("println-str", args="[& xs]", category="strings", doc="Like print-str, followed by a newline.",
         ex=(("(println-str \"a\" \"b\")", "\"a b\\n\""),))
def println_str(*xs: Any) -> str:
    return _render(xs, False, _cap()) + "\n"


def _out_cap() -> int:
    return context.CURRENT.limits.max_output


@builtin("println", args="[& xs]", category="output",
         doc="Prints the values (strings unquoted) separated by spaces as one line of output; returns nil.",
         ex=(("(println \"total:\" 3)", "nil"),))
def println(*xs: Any) -> None:
    emit_print(_render(xs, False, _out_cap()))


@builtin("print", args="[& xs]", category="output",
         doc="Prints the values (strings unquoted) separated by spaces, without ending the line. Returns nil.",
         ex=(("(print \"x\")", "nil"),))
def print_(*xs: Any) -> None:
    emit_print(_render(xs, False, _out_cap()), newline=False)


@builtin("pr", args="[& xs]", category="output",
         doc="Prints the readable forms of the values (strings quoted) without ending the line; returns nil.",
         ex=(("(pr \"x\")", "nil"),))
def pr(*xs: Any) -> None:
    emit_print(_render(xs, True, _out_cap()), newline=False)


@builtin("prn", args="[& xs]", category="output",
         doc="Prints the readable forms of the values (strings quoted) as one line of output; returns nil.",
         ex=(("(prn {:a \"b\"})", "nil"),))
def prn(*xs: Any) -> None:
    emit_print(_render(xs, True, _out_cap()))


@builtin("newline", args="[]", category="output", doc="Ends the current line of output. Returns nil.",
         ex=(("(newline)", "nil"),))
def newline() -> None:
    emit_print("")


@builtin("printf", args="[fmt & args]", category="output",
         doc="Prints (format fmt args...) like print (a trailing %n or \\n ends the line); returns nil.",
         ex=(("(printf \"%s=%d\" \"a\" 1)", "nil"),))
def printf(fmt: Any, *args: Any) -> None:
    text = format_(fmt, *args)
    if text.endswith("\n"):
        emit_print(text[:-1])
    else:
        emit_print(text, newline=False)


# -- format (java.util.Formatter subset) ---------------------------------------------

_SPEC = re.compile(r"%(?:(\d+)\$)?([-#+ 0,(<]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])")
_DEC_CTX = Context(prec=1200)
_MIN64 = -(1 << 63)


def _fmt_err(msg: str) -> Exception:
    return runtime_error(f"format: {msg}", hint="supported: %s %d %f %e %g %x %o %b %c %% %n with flags -+0,( and width.precision")


def _group(digits: str) -> str:
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)]
    return ",".join(parts)


def _decimal(x: float) -> Decimal:
    return Decimal(repr(abs(x)))


def _fixed(x: float, prec: int) -> str:
    """Java's %.Nf: HALF_UP rounding of the shortest decimal form of x (not of its binary value)."""
    r = repr(abs(x))
    if "e" not in r:
        ip, _, frac = r.partition(".")
        n = len(frac)
        if n <= prec:
            return ip + "." + frac + "0" * (prec - n) if prec else ip
        if n > prec + 1 or frac[-1] != "5":
            # no decimal tie: rounding the binary value gives the same digits
            return f"{abs(x):.{prec}f}"
    q = _decimal(x).quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_UP, context=_DEC_CTX)
    return format(q, "f")


def _sci(x: float, prec: int) -> str:
    d = _decimal(x)
    if d == 0:
        mant, exp = format(Decimal(0).quantize(Decimal(1).scaleb(-prec)), "f"), 0
    else:
        exp = d.adjusted()
        m = d.scaleb(-exp).quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_UP, context=_DEC_CTX)
        if m >= 10:
            exp += 1
            m = d.scaleb(-exp).quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_UP, context=_DEC_CTX)
        mant = format(m, "f")
    return f"{mant}e{'-' if exp < 0 else '+'}{abs(exp):02d}"


def _general(x: float, prec: int) -> str:
    if prec == 0:
        prec = 1
    d = _decimal(x)
    if d == 0:
        return _fixed(0.0, prec - 1)
    r = d.quantize(Decimal(1).scaleb(d.adjusted() - prec + 1), rounding=ROUND_HALF_UP, context=_DEC_CTX)
    if Decimal("1e-4") <= r < Decimal(10) ** prec:
        e = r.adjusted()
        return _fixed(x, max(0, prec - 1 - e))
    return _sci(x, prec - 1)


def _pad(text: str, width: int | None, left: bool) -> str:
    if width is None or len(text) >= width:
        return text
    return text.ljust(width) if left else text.rjust(width)


def _signed(body: str, negative: bool, flags: str, width: int | None) -> str:
    if negative:
        if "(" in flags:
            prefix, suffix = "(", ")"
        else:
            prefix, suffix = "-", ""
    else:
        prefix = "+" if "+" in flags else (" " if " " in flags else "")
        suffix = ""
    if "0" in flags and width is not None and "-" not in flags:
        fill = width - len(prefix) - len(body) - len(suffix)
        if fill > 0:
            body = "0" * fill + body
    return _pad(prefix + body + suffix, width, "-" in flags)


def _java_str(x: Any) -> str:
    """Java's String.valueOf of a PTC value (nil prints as null)."""
    if x is None:
        return "null"
    if type(x) is str:
        return x
    return str_value(x)


def _conv(conv: str, flags: str, width: int | None, prec: int | None, arg: Any) -> str:
    lower = conv.lower()
    upper = conv != lower
    if lower == "b":
        text = "false" if (arg is None or arg is False) else "true"
    elif lower == "s":
        text = _java_str(arg)
    elif arg is None:
        text = "null"
    elif lower == "c":
        if type(arg) is str and len(arg) == 1:
            text = arg
        elif type(arg) is int and 0 <= arg <= 0x10FFFF and not 0xD800 <= arg <= 0xDFFF:
            text = chr(arg)
        else:
            raise _fmt_err(f"%c expects a character, got {describe(arg)}")
    elif lower in "dxo":
        if type(arg) is not int:
            raise _fmt_err(f"%{conv} expects an integer, got {describe(arg)}"
                           + (" (use %.0f or (long x))" if type(arg) is float else ""))
        if lower == "d":
            body = str(abs(arg))
            if "," in flags:
                body = _group(body)
            return _signed(body, arg < 0, flags, width)
        n = arg
        if _MIN64 <= n < 0:
            n += 1 << 64
        body = format(abs(n), "x" if lower == "x" else "o")
        if "#" in flags:
            body = ("0x" if lower == "x" else "0") + body
        if upper:
            body = body.upper()
        return _signed(body, n < 0, flags, width)
    elif lower in "efg":
        t = type(arg)
        if t is int:
            from .core_numbers import to_float

            arg = to_float(arg)
        elif t is not float:
            raise _fmt_err(f"%{conv} expects a number, got {describe(arg)}")
        neg = math.copysign(1.0, arg) < 0 and not math.isnan(arg)
        if not math.isfinite(arg):
            body = "NaN" if math.isnan(arg) else "Infinity"
            return _signed(body, neg, flags.replace("0", ""), width)
        p = 6 if prec is None else prec
        if lower == "f":
            body = _fixed(arg, p)
            if "," in flags:
                ip, _, fp = body.partition(".")
                body = _group(ip) + ("." + fp if fp else "")
        elif lower == "e":
            body = _sci(arg, p)
        else:
            body = _general(arg, p)
        if upper:
            body = body.upper()
        return _signed(body, neg, flags, width)
    else:  # pragma: no cover - _parse_format refuses other conversions
        raise _fmt_err(f"unsupported conversion %{conv}")
    if prec is not None and lower in "sb":
        text = text[:prec]
    if upper:
        text = text.upper()
    return _pad(text, width, "-" in flags)


@builtin("format", pure=True, args="[fmt & args]", category="strings",
         doc="Formats like Java's String.format: %s %d %f %.2f %e %g %x %o %b %c %% %n with flags "
             "(- + 0 , space) and widths. Integers are accepted by %f; nil formats as \"null\".",
         ex=(("(format \"%s has %d items\" \"cart\" 3)", "\"cart has 3 items\""),
             ("(format \"%.2f\" 3.14159)", "\"3.14\""), ("(format \"%5d|%-5s|\" 42 \"ab\")", "\"   42|ab   |\""),
             ("(format \"%,d\" 1234567)", "\"1,234,567\""), ("(format \"%x\" 255)", "\"ff\"")))
def format_(fmt: Any, *args: Any) -> str:
    fmt = _text("format", fmt)
    specs = _FORMATS.get(fmt)
    if specs is None:
        specs = _parse_format(fmt)
    out: list[str] = []
    total = 0
    next_arg = 0
    last_arg: Any = _NOARG
    cap = _cap()
    nargs = len(args)
    for item in specs:
        if type(item) is str:
            out.append(item)
            total += len(item)
            continue
        text, index, flags, width, prec, conv = item
        if conv == "%":
            piece = _pad("%", width, "-" in flags)
        elif conv == "n":
            piece = "\n"
        else:
            if index is None:
                if next_arg >= nargs:
                    raise _fmt_err(f"missing argument for format specifier {text!r} ({nargs} argument(s) given)")
                arg = args[next_arg]
                next_arg += 1
            elif index < 0:  # %<s: the previous argument again
                if last_arg is _NOARG:
                    raise _fmt_err(f"missing argument for format specifier {text!r}")
                arg = last_arg
            else:
                if index >= nargs:
                    raise _fmt_err(f"missing argument for format specifier {text!r}")
                arg = args[index]
            last_arg = arg
            piece = _conv(conv, flags, width, prec, arg)
        out.append(piece)
        total += len(piece)
        if total > cap:
            check_string(total)
    if total > _SMALL:
        check_string(total)
    return "".join(out)


_FORMATS: dict[str, list[Any]] = {}


def _parse_format(fmt: str) -> list[Any]:
    """Literal strings and (text, arg-index, flags, width, precision, conversion) specs."""
    items: list[Any] = []
    pos = 0
    for m in _SPEC.finditer(fmt):
        if m.start() > pos:
            items.append(_literal(fmt[pos:m.start()]))
        pos = m.end()
        index_s, flags, width_s, prec_s, conv = m.groups()
        width = int(width_s) if width_s else None
        prec = int(prec_s) if prec_s else None
        if (width or 0) > _SMALL or (prec or 0) > _SMALL:
            check_string(max(width or 0, prec or 0), "format width")
        if conv not in _CONVERSIONS:
            raise _fmt_err(f"unsupported conversion %{conv}")
        index = -1 if "<" in flags else (int(index_s) - 1 if index_s is not None else None)
        items.append((m.group(0), index, flags, width, prec, conv))
    if pos < len(fmt):
        items.append(_literal(fmt[pos:]))
    if len(fmt) <= 1000 and all((it[3] or 0) <= _SMALL and (it[4] or 0) <= _SMALL
                                for it in items if type(it) is tuple):
        if len(_FORMATS) >= 256:
            _FORMATS.clear()
        _FORMATS[fmt] = items
    return items


_CONVERSIONS = frozenset("sSdxXobBcCeEfgG%n")


def _literal(lit: str) -> str:
    if "%" in lit:
        i = lit.index("%")
        raise _fmt_err(f"unknown format specifier {lit[i:i + 2]!r}")
    return lit


# -- names, keywords, symbols --------------------------------------------------------


def _split_ns(name: str) -> tuple[str | None, str]:
    i = name.find("/")
    if i <= 0 or name == "/":
        return None, name
    return name[:i], name[i + 1:]


@builtin("name", args="[x]", category="strings",
         doc="The name of a keyword or symbol (without namespace or colon); a string is returned as is.",
         ex=(("(name :city)", "\"city\""), ("(name :user/id)", "\"id\""), ("(name \"s\")", "\"s\"")))
def name(x: Any) -> str:
    t = type(x)
    if t is Keyword or t is Symbol:
        return _split_ns(x.name)[1]
    if t is str:
        return x
    raise runtime_error(f"name: expected a keyword, symbol or string, got {describe(x)}")


@builtin("namespace", args="[x]", category="strings",
         doc="The namespace of a keyword or symbol, or nil if it has none.",
         ex=(("(namespace :user/id)", "\"user\""), ("(namespace :id)", "nil")))
def namespace(x: Any) -> str | None:
    t = type(x)
    if t is Keyword or t is Symbol:
        return _split_ns(x.name)[0]
    raise runtime_error(f"namespace: expected a keyword or symbol, got {describe(x)}")


@builtin("keyword", args=("[name]", "[ns name]"), category="strings",
         doc="The keyword with the given name (and namespace); nil for values that cannot name a keyword.",
         ex=(("(keyword \"city\")", ":city"), ("(keyword \"user\" \"id\")", ":user/id"), ("(keyword :a)", ":a"),
             ("(keyword nil)", "nil")))
def keyword(ns_or_name: Any, name_: Any = _NOARG) -> Keyword | None:
    if name_ is _NOARG:
        t = type(ns_or_name)
        if t is Keyword:
            return ns_or_name
        if t is str:
            if len(ns_or_name) > 256:
                check_string(len(ns_or_name), "keyword name")
            return Keyword(ns_or_name)
        if t is Symbol:
            return Keyword(ns_or_name.name)
        return None
    if type(name_) is not str:
        raise runtime_error(f"keyword: name must be a string, got {describe(name_)}")
    if ns_or_name is None:
        return Keyword(name_)
    if type(ns_or_name) is not str:
        raise runtime_error(f"keyword: namespace must be a string, got {describe(ns_or_name)}")
    return Keyword(ns_or_name + "/" + name_)


@builtin("find-keyword", args=("[name]", "[ns name]"), category="strings",
         doc="The keyword with the given name (a string, symbol or keyword; and namespace), nil when the name "
             "cannot be a keyword. "
             "Every keyword exists in PTC-Lisp (Clojure: only keywords already interned).",
         ex=(("(find-keyword \"city\")", ":city"), ("(find-keyword \"a b\")", "nil"),
             ("(find-keyword 'city)", ":city"), ("(find-keyword :city)", ":city")))
def find_keyword(ns_or_name: Any, name_: Any = _NOARG) -> Keyword | None:
    if name_ is _NOARG and type(ns_or_name) is Keyword:
        return ns_or_name  # type: ignore[no-any-return]
    if name_ is _NOARG and type(ns_or_name) is Symbol:  # a symbol names its keyword, as in Clojure
        ns_or_name = ns_or_name.name
    parts = (ns_or_name,) if name_ is _NOARG else (ns_or_name, name_)
    if any(type(part) is not str for part in parts):
        return None
    full = "/".join(parts)
    return Keyword(full) if is_keyword_name(full) else None


@builtin("symbol", args=("[name]", "[ns name]"), category="strings",
         doc="The symbol with the given name (and namespace).",
         ex=(("(symbol \"abc\")", "abc"), ("(symbol \"ns\" \"abc\")", "ns/abc"), ("(symbol :a)", "a")))
def symbol(ns_or_name: Any, name_: Any = _NOARG) -> Symbol:
    if name_ is _NOARG:
        t = type(ns_or_name)
        if t is Symbol:
            return ns_or_name
        if t is str or t is Keyword:
            return Symbol(ns_or_name if t is str else ns_or_name.name)
        raise runtime_error(f"symbol: expected a string, keyword or symbol, got {describe(ns_or_name)}")
    if type(name_) is not str:
        raise runtime_error(f"symbol: name must be a string, got {describe(name_)}")
    if ns_or_name is None:
        return Symbol(name_)
    if type(ns_or_name) is not str:
        raise runtime_error(f"symbol: namespace must be a string, got {describe(ns_or_name)}")
    return Symbol(ns_or_name + "/" + name_)


# -- parsing -------------------------------------------------------------------------

_LONG = re.compile(r"[+-]?\d+")
_DOUBLE = re.compile(
    r"[\x00-\x20]*[+-]?(?:NaN|Infinity|(?:(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?"
    r"|0[xX](?:[0-9a-fA-F]+\.?|[0-9a-fA-F]*\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?))[\x00-\x20]*"
)


def _parse_arg(who: str, s: Any) -> str:
    if type(s) is str:
        return s
    raise runtime_error(f"{who}: expected a string, got {describe(s)}",
                        hint="parse functions read strings; the value may already be a number" if s is not None else None)


@builtin("parse-long", column_op="parse-long", args="[s]", category="strings",
         doc="The integer written in s (optional sign, digits only), or nil if s is not one.",
         ex=(("(parse-long \"42\")", "42"), ("(parse-long \"-7\")", "-7"), ("(parse-long \"4.2\")", "nil")))
def parse_long(s: Any) -> int | None:
    s = _parse_arg("parse-long", s)
    if len(s) > 40 or not _LONG.fullmatch(s):
        return None
    n = int(s)
    return n if -(1 << 63) <= n < (1 << 63) else None


@builtin("parse-double", args="[s]", category="strings",
         doc="The floating-point number written in s (Java syntax, surrounding whitespace allowed), or nil.",
         ex=(("(parse-double \"3.5\")", "3.5"), ("(parse-double \"1e3\")", "1000.0"), ("(parse-double \"abc\")", "nil")))
def parse_double(s: Any) -> float | None:
    s = _parse_arg("parse-double", s)
    if len(s) > 100_000 or not _DOUBLE.fullmatch(s):
        return None
    t = s.strip("".join(map(chr, range(33))))
    if t[-1] in "fFdD":  # Java's float/double suffix (never a digit: hex floats end in a p-exponent)
        t = t[:-1]
    if "x" in t or "X" in t:
        return float.fromhex(t)
    return float(t)


@builtin("parse-boolean", args="[s]", category="strings",
         doc="true for \"true\", false for \"false\", nil for any other string.",
         ex=(("(parse-boolean \"true\")", "true"), ("(parse-boolean \"yes\")", "nil")))
def parse_boolean(s: Any) -> bool | None:
    s = _parse_arg("parse-boolean", s)
    if s == "true":
        return True
    if s == "false":
        return False
    return None


@builtin("char", args="[x]", category="strings",
         doc="The character (a one-character string) with the given code point.",
         ex=(("(str (char 97))", "\"a\""), ("(= (char 65) \\A)", "true")))
def char(x: Any) -> str:
    t = type(x)
    if t is str and len(x) == 1:
        return x
    if t is float and math.isfinite(x):
        x, t = int(x), int
    if t is int:
        if 0 <= x <= 0x10FFFF and not 0xD800 <= x <= 0xDFFF:
            return chr(x)
        raise runtime_error(f"char: value out of range for a character: {short(x)}")
    raise runtime_error(f"char: expected an integer code point, got {describe(x)}")


__all__ = ["str_value", "format_", "str_"]
