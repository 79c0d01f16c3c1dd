"""Clojure-exact printing: `pr-str` (readable) and `print`/`str` (human) renderings."""

from __future__ import annotations

import itertools
import math
import sys
from decimal import Decimal
from typing import Any

from . import context, dates
from . import values as v
from .lazy import NotInRun

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


class _Full(Exception):
    pass


_LOG10_2 = math.log10(2)


def _decimal(n: int, room: int) -> str:
    """n's digits, also past Python's limit on one conversion (4,300 digits: a host that raised
    max_int_bits returns such integers, and str() raised ValueError from every entry point):
    when fewer than all of them fit in `room`, the leading `room` or more by one division
    (linear in n's size), else n's halves converted apart."""
    if n < 0:
        return "-" + _decimal(-n, max(room - 1, 1))
    digits = int(n.bit_length() * _LOG10_2) + 1  # n has this many digits, or one fewer
    if digits <= (sys.get_int_max_str_digits() or digits):
        return str(n)
    if room + 1 < digits:
        return _decimal(n // 10 ** (digits - room - 1), room)
    half = digits // 2
    high, low = divmod(n, 10**half)
    return _decimal(high, room) + _decimal(low, room).zfill(half)


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
    # Collections and the rest: by type and size only, never by printing them (printing
    # nested sets to sort them would be exponential in their depth).
    return (4, v.type_name(x), len(x) if hasattr(x, "__len__") and t is not v.LazySeq else 0)


def _fn_name(x: Any) -> str:
    q = getattr(x, "__qualname__", "") or ""
    if q.startswith("ptc:"):
        return q[4:]
    return "fn"


class _Printer:
    __slots__ = ("readable", "out", "size", "limit", "cap", "writes")

    def __init__(self, readable: bool, limit: int | None) -> None:
        self.readable = readable
        self.out: list[str] = []
        self.size = 0
        self.limit = limit  # stop quietly at this length (truncated renderings)
        self.cap = context.CURRENT.limits.max_string  # without a limit: refuse text longer than max_string
        self.writes = 0

    def w(self, s: str) -> None:
        self.out.append(s)
        self.size += len(s)
        self.writes += 1
        if self.writes & 0xFFF == 0:  # printing a huge value stops at the program's deadline
            context.check_deadline()
        if self.limit is not None:
            if self.size >= self.limit:
                raise _Full
        elif self.size > self.cap:
            raise context.limit_error("max_string", self.cap, "printed text too long")

    def decimal(self, n: int) -> str:
        """n's digits past Python's limit on one conversion: all of them, or the leading ones
        the rest of the rendering has room for when fewer fit (see _decimal)."""
        room = (self.limit if self.limit is not None else self.cap + 1) - self.size
        return _decimal(n, max(room, 1))

    def seq(self, open_: str, items: Any, close: str) -> None:
        """Items between open_ and close; runs of numbers and keywords (short texts) are
        written up to 256 at a time, so a long vector of them costs a join, not a write each."""
        self.w(open_)
        before = ""  # what goes before the next item
        run: list[str] = []
        for item in items:
            t = type(item)
            if t is int or t is float or t is v.Keyword:
                try:
                    run.append(str(item) if t is int else format_double(item) if t is float else ":" + item.name)
                except ValueError:  # an integer past Python's limit on one conversion
                    run.append(self.decimal(item))
                if len(run) < 256:
                    continue
            if run:
                self.w(before + " ".join(run))
                before, run = " ", []
            if not (t is int or t is float or t is v.Keyword):
                self.w(before)
                before = " "
                self.p(item)
        if run:
            self.w(before + " ".join(run))
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
            try:
                text = str(x)
            except ValueError:  # past Python's limit on one conversion
                text = self.decimal(x)
            self.w(text)
        elif t is float:
            self.w(format_double(x))
        elif t is v.Keyword:
            self.w(":" + x.name)
        elif t is v.Symbol or t is _Ellipsis:
            self.w(x.name)
        elif t in v.VECTOR_TYPES:
            self.seq("[", x, "]")
        elif t is v.PList:
            self.seq("(", x, ")")
        elif t is v.LazySeq:
            self.seq("(", _lazy_items(x), ")")
        elif t in v.MAP_TYPES:
            self.w("{")
            first = True
            for k, val in (((v.host_key(hk), hv) for hk, hv in x.items()) if t is dict else x.items()):
                if not first:
                    self.w(", ")
                first = False
                self.p(k)
                self.w(" ")
                self.p(val)
            self.w("}")
        elif t is v.PQueue:  # ClojureScript's #queue (Clojure prints an #object with its identity)
            self.seq("#queue [", x, "]")
        elif t is v.SortedSet:
            self.seq("#{", x, "}")
        elif t in v.SET_TYPES:
            self.seq("#{", sorted(x, key=_set_order), "}")
        elif t is _SampleSet:
            self.seq("#{", x, "}")
        elif t is _OrderedPairs:
            self.w("{")
            for i, (k, val) in enumerate(x):
                if i:
                    self.w(", ")
                if k is _ELLIPSIS:
                    self.w("...")
                    continue
                self.p(k)
                self.w(" ")
                self.p(val)
            self.w("}")
        elif t is v.Regex:
            self.w('#"' + x.source + '"')
        elif t is dates.DateTimeFormatter:  # #DateTimeFormatter["MM/dd/yyyy"], unquoted like a regex
            self.w(x.text)
        elif t in dates.TYPES:  # a date prints as its ISO text, quoted when readable (docs/deviations.md)
            self.p(dates.iso_text(x))
        elif isinstance(x, v.Record):  # #ml/model{:type :kmeans, :n-features 2}: a few fields, never its arrays
            self.w("#" + x.tag)
            self.p(x.summary())
        elif callable(x):
            self.w(f"#fn[{_fn_name(x)}]")
        else:
            raise v.foreign_error(x)


def printed_bound(x: Any, limit: int) -> int | None:
    """An upper bound of len(pr_str(x)) when it is at most limit and x holds only plain data
    (numbers, texts, keywords, vectors, lists, realized lazy seqs, maps and sets nested at most 16
    deep), else None: a result can be checked against max_result without printing it
    (floats cost microseconds each). Anything else is left to the printer and its limits."""
    total = 0
    stack: list[tuple[Any, int]] = [((x,), 0)]
    while stack:
        items, depth = stack.pop()
        flat = _scalars_bound(items)
        if flat is not None:  # all numbers, or all texts: bounded in one pass in C
            total += flat
            if total > limit:
                return None
            continue
        for y in items:
            t = type(y)
            if t is float or y is None or t is bool:
                total += 24
            elif t is int:
                total += y.bit_length() // 3 + 2
            elif t is str:
                total += 2 * len(y) + 2
            elif t is v.Keyword:
                total += len(y.name) + 1
            elif depth >= 16:
                return None
            elif t is v.LazySeq and (known := getattr(y, "printed_at_most", None)) is not None:
                total += known
            elif t in v.VECTOR_TYPES or t is v.PList or t in v.SET_TYPES or t is v.LazySeq and y.realized:
                if t is v.Table:
                    return None
                total += 2 * len(y) + 3
                stack.append((y, depth + 1))
            elif t is dict or t is v.FMap or t is v.HMap:
                total += 4 * len(y) + 2
                if t is dict and not all(type(k) is str for k in y):  # other host keys: printed to check them
                    return None
                stack.append((y.keys(), depth + 1))
                stack.append((y.values(), depth + 1))
            else:
                return None
            if total > limit:
                return None
    return total


def _scalars_bound(items: Any) -> int | None:
    """printed_bound's count for a collection of one kind of scalar (the values of a
    100,000-group result: 0.05 s item by item), or None for any other."""
    if not hasattr(items, "__len__") or len(items) < 64:
        return None
    kinds = set(map(type, items))
    if kinds <= {float, bool, type(None)}:
        return 24 * len(items)
    if kinds == {int}:
        return sum(map(int.bit_length, items)) // 3 + 3 * len(items)
    if kinds == {str}:
        return 2 * sum(map(len, items)) + 2 * len(items)
    return None


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
    except RecursionError:
        raise context.limit_error("max_depth", context.CURRENT.limits.max_depth,
                          "a value nested too deeply to print (or data that contains itself)") from None
    return "".join(pr.out)


def print_str(x: Any) -> str:
    """What `print`/`println` show: like pr-str but strings unquoted at every depth."""
    return pr_str(x, readable=False)


def truncate(x: Any, limit: int) -> str:
    """pr-str cut to `limit` characters with a `...` marker (used by compression samples)."""
    text = pr_str(x, max_len=limit + 1)
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 3)] + "..."


def type_label(x: Any) -> str:
    """The compact type vocabulary shown to models: list[N], map[N], string, integer, float,
    boolean, keyword, nil, set[N], #fn[name]."""
    if x is None:
        return "nil"
    t = type(x)
    if t is bool:
        return "boolean"
    if t is int:
        return "integer"
    if t is float:
        return "float"
    if t is str:
        return "string"
    if t is v.Keyword:
        return "keyword"
    if t in v.MAP_TYPES:
        return f"map[{len(x)}]"
    if t in v.SET_TYPES:
        return f"set[{len(x)}]"
    if t in v.VECTOR_TYPES or t is v.PList:
        return f"list[{len(x)}]"
    if t is v.LazySeq:  # realized when its program ended, unless infinite (see lazy.py)
        return f"list[{len(x._cache)}]" if x.realized else "list"
    if t is v.Regex:
        return "regex"
    if callable(x):
        return f"#fn[{_fn_name(x)}]"
    return v.type_name(x)


def _lazy_items(s: Any) -> Any:
    """A lazy seq's items; outside a run, its realized items then `...` (see lazy.py)."""
    try:
        yield from s
    except NotInRun:
        yield _ELLIPSIS


def sample_text(x: Any, *, limit: int = 3, max_chars: int = 80) -> str:
    """Clojure text of a value with at most `limit` items per collection and every string cut
    to `max_chars` characters (the seed's Format.to_clojure(value, limit:, printable_limit:),
    which follows Elixir's Inspect options: `printable_limit` applies to each string)."""
    return pr_str(_limit_items(x, limit, 0, max_chars))


def _limit_items(x: Any, limit: int, depth: int, max_chars: int = 80) -> Any:
    t = type(x)
    if t is str:
        return x if len(x) <= max_chars else x[:max_chars] + "..."
    if depth > 4:
        return _ELLIPSIS if t in v.MAP_TYPES or t in v.SET_TYPES or t in v.SEQUENTIAL_TYPES else x
    if t in v.VECTOR_TYPES:
        items = [_limit_items(i, limit, depth + 1, max_chars) for i in x[:limit]]
        return v.vec(items + ([_ELLIPSIS] if len(x) > limit else []))
    if t is v.PList or t is v.LazySeq:
        head = list(x[: limit + 1]) if t is v.PList else [i for _, i in zip(range(limit + 1), _lazy_items(x))]
        items = [_limit_items(i, limit, depth + 1, max_chars) for i in head[:limit]]
        return v.PList(items + ([_ELLIPSIS] if len(head) > limit else []))
    if t in v.MAP_TYPES:
        pairs = list(itertools.islice(x.items(), limit))
        out = [(v.host_key(k) if t is dict else k, _limit_items(val, limit, depth + 1, max_chars))
               for k, val in pairs]
        if len(x) > limit:
            out.append((_ELLIPSIS, _ELLIPSIS))
        return _OrderedPairs(out)
    if t in v.SET_TYPES:
        items = [_limit_items(i, limit, depth + 1, max_chars) for i in sorted(x, key=_set_order)]
        return _SampleSet(items[:limit] + ([_ELLIPSIS] if len(items) > limit else []))
    return x


class _Ellipsis(v.Symbol):
    def __init__(self) -> None:
        super().__init__("...")


_ELLIPSIS = _Ellipsis()


class _SampleSet(tuple):  # type: ignore[type-arg]
    """Set items in order, printed as a set (for samples only)."""

    __slots__ = ()


class _OrderedPairs(tuple):  # type: ignore[type-arg]
    """Map items in order, printed as a map (for samples only)."""

    __slots__ = ()
