"""Column expressions evaluated with pyarrow.compute, exactly as the row path would, or not at all.

Every function here either returns what calling the fn on each row would give, or raises
`Fallback` (with the reason) so the caller runs the row path, which then gives its own exact
result or error. That is how Clojure's semantics are kept without re-implementing them: a nil
that reaches `>` or `+`, a string compared with `<`, an integer sum that leaves 64 bits, a NaN
literal, a float compared with an integer beyond 2^53 all fall back. Errors only count where a
row reaches them: `(and (some? (:a %)) (> (:a %) 1))` never compares the nils it guards
(each sub-expression is checked under the mask of rows that reach it).

A frame is what an expression's argument is: a pyarrow.Table (the argument is a row) or an
Array (the argument is one value of a column).
"""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.types as pt

from ..table import arrow_kind, as_cells
from ..values import FSet, Keyword, host_key
from .frame import _flat, is_rows

_EXACT = 1 << 53  # integers a float holds exactly


class Fallback(Exception):
    """The kernel cannot promise the row path's result: run the rows (reason says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Marker(pa.ExtensionType):
    """An extension type without parameters over a plain storage type: what the column holds
    is named by the type alone, so it serializes as nothing."""

    def __arrow_ext_serialize__(self) -> bytes:
        return b""

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type: Any, serialized: bytes) -> "_Marker":
        return cls()


def marked(t: "_Marker", x: Any) -> Any:
    """Storage column x (an array or a chunked one) as a column of extension type t."""
    if isinstance(x, pa.ChunkedArray):
        return pa.chunked_array([pa.ExtensionArray.from_storage(t, c) for c in x.chunks], t)
    return pa.ExtensionArray.from_storage(t, x)


class KeywordType(_Marker):
    """A computed column of keywords, stored as their names (what an if/cond/case whose
    branches are keywords computes: `(cond (< d 500) :short ...)`), read back as keywords
    (table.column_values) by map, frequencies, group-by and distinct; kind "kw", so any kernel
    that does not compute on keywords falls back; never a column of a table ptc returns."""

    def __init__(self) -> None:
        super().__init__(pa.string(), "ptc.keyword")


KEYWORDS = KeywordType()


def keywords(names: Any) -> Any:
    """A keyword column of the names in string array names."""
    return marked(KEYWORDS, names)


class DayOfWeekType(_Marker):
    """A computed column of days of the week, stored as their numbers (1 = MONDAY): what
    (.getDayOfWeek d) of a date column is; read back as DayOfWeek values (table.column_values)
    by map, frequencies, group-by and distinct; kind "dow", which no other kernel computes on."""

    def __init__(self) -> None:
        super().__init__(pa.int64(), "ptc.dayofweek")


DAYS = DayOfWeekType()


def storage(x: Any) -> Any:
    """What an extension column (keywords, days of the week) holds underneath."""
    if isinstance(x, pa.ChunkedArray):
        return pa.chunked_array([c.storage for c in x.chunks], x.type.storage_type)
    return x.storage


def keyword_names(x: Any) -> Any:
    """The names a keyword column holds (its storage strings)."""
    return storage(x)


# -- kinds: what PTC type a column's cells are ---------------------------------------------


_COMPUTED = frozenset({"int", "float", "str", "bool", "date", "null"})  # the kinds kernels compute on


def kind(x: Any) -> str:
    """int, float, str, bool, date, datetime, null or other, for an array or a scalar."""
    if isinstance(x, (pa.Array, pa.ChunkedArray)):
        if type(x.type) is KeywordType:
            return "kw"
        if type(x.type) is DayOfWeekType:
            return "dow"
        if pt.is_dictionary(x.type) or pt.is_run_end_encoded(x.type) or pt.is_float16(x.type) or pt.is_decimal(x.type):
            return "other"  # computed on as `column` gives them: decoded, as float64
        k = arrow_kind(x.type)
        return k if k in _COMPUTED else "other"
    if x is None:
        return "null"
    t = type(x)
    if t is bool:
        return "bool"
    if t is int:
        return "int"
    if t is float:
        return "float"
    if t is str:
        return "str"
    if t is datetime.date:
        return "date"
    if t is Keyword:
        return "kw"
    return "other"


def is_array(x: Any) -> bool:
    return isinstance(x, (pa.Array, pa.ChunkedArray))


def column(table: pa.Table, key: Any, decoded: bool = True) -> Any:
    """The column PTC key `key` names (the JSON key rule: a keyword name is a keyword), or None;
    a dictionary-encoded column decoded unless asked for as it is (group keys number its codes)."""
    for i, name in enumerate(table.column_names):
        if host_key(name) == key and type(host_key(name)) is type(key):
            col = table.column(i)
            if pt.is_dictionary(col.type) and decoded:
                from .encoded import decoded as sized_decoded

                col = sized_decoded(col)  # what it decodes to checked first (1 KB in 50M rows: 50 GB)
            return as_cells(col)  # decimals and float16 as the floats the row path reads
    return None


def column_name(key: Any) -> str | None:
    """The column name a table's rows read back as `key` (the inverse of the JSON key rule
    `column` follows: a keyword's name, a string as itself), or None where no name does."""
    name = key.name if type(key) is Keyword else key
    if type(name) is not str:
        return None
    back = host_key(name)
    return name if back == key and type(back) is type(key) else None


def _n(frame: Any) -> int:
    return len(frame)


def _reached(cond: Any, reach: Any) -> bool:
    """Whether cond (a boolean array, nulls false) holds for any row that reach lets through."""
    if reach is not None:
        cond = pc.and_kleene(cond, reach)
    return bool(pc.any(cond.fill_null(False) if cond.null_count else cond).as_py())


def _nulls_reached(x: Any, reach: Any) -> bool:
    return is_array(x) and x.null_count > 0 and _reached(pc.is_null(x), reach)


# -- values ---------------------------------------------------------------------------------


def value(e: tuple[Any, ...], frame: Any, reach: Any = None) -> Any:
    """e's value on every row of frame: an Array (a column) or a Python scalar (the same for all)."""
    head = e[0]
    if head == "lit":
        if type(e[1]) is float and e[1] != e[1]:
            raise Fallback("a NaN constant")
        return e[1]
    if head == "col":
        if not is_rows(frame):
            raise Fallback("a key looked up on a value that is not a row")
        col = column(frame, e[1])
        return e[2] if col is None else col
    if head == "arg":
        if is_rows(frame):
            raise Fallback("the whole row is used as a value")
        return frame
    if head == "op":
        try:
            return _op(e[1], e[2:], frame, reach)
        except Fallback as err:  # a form its kernel does not take: the builtin value by value, if pure
            b = _pure_op(e[1])
            if b is None:
                raise
            return _each(("each", b, *e[2:]), frame, reach, err)
    if head == "lookup":
        try:
            return _lookup(e[1], value(e[2], frame, reach), *(value(d, frame, reach) for d in e[3:]))
        except Fallback as err:  # keys or values the kernel does not take: the map called value by value
            return _each(("each", "get", ("const", e[1][1]), *e[2:]), frame, reach, err)
    if head == "each":
        return _each(e, frame, reach)
    if head in ("const", "fnval"):
        raise Fallback("a collection or a function as a column's value")
    if head == "if":
        return _if(e[1], e[2], e[3], frame, reach)
    if head == "juxt":
        raise Fallback("a juxt's vectors inside an expression (kernels make them only as a fn's whole value)")
    if head == "rowmap":
        raise Fallback("a map made from each row (only map makes it, as a table's rows)")
    if head == "fail":  # an error of the row path (case with no match): computed only on rows that reach it
        if _n(frame) and (reach is None or _reached(reach, None)):
            raise Fallback(f"{e[1]} (the row path raises)")
        return pa.nulls(_n(frame))
    if head in ("and", "or"):
        return _logic(e, frame, reach)
    if head == "in":  # (#{...} x): x when it is a member, else nil
        return _if(("has",) + e[1:], e[2], ("lit", None), frame, reach)
    if head in ("has", "where", "all", "any", "none"):  # predicates: their value is a boolean
        return truth(e, frame, reach)
    raise Fallback(f"{head} is not computed by kernels")


def _compared(e: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """An operand of < > <= >=: its value, where an if/or/and giving integers on some rows and
    floats on others (`(or (:dep_delay %) 0)` over a float column) is taken as floats, which
    order them as the row path does (integers below 2^53 convert exactly)."""
    if e[0] == "if":
        return _if(e[1], e[2], e[3], frame, reach, numeric=True)
    if e[0] in ("and", "or"):
        return _logic(e, frame, reach, numeric=True)
    return value(e, frame, reach)


def _logic(e: tuple[Any, ...], frame: Any, reach: Any, numeric: bool = False) -> Any:
    """The value of (or a b ...) (the first truthy operand's, else the last's) or (and a b ...)
    (the first falsy operand's, else the last's): `(or (:dep_delay %) 0)` is the delay or 0."""
    items = e[1:]
    if not items:
        return e[0] == "and"  # (and) is true, (or) nil
    if len(items) == 1:
        return value(items[0], frame, reach)
    first, rest = items[0], (e[0],) + items[1:]
    if e[0] == "or":
        return _if(first, first, rest, frame, reach, numeric)
    # a falsy operand that is not a boolean is nil: (and (:v %) (:s %)) is the text or nil
    falsy = first if kind(value(first, frame, reach)) == "bool" else ("lit", None)
    return _if(first, rest, falsy, frame, reach, numeric)


def _numeric(x: Any, reach: Any, op: str) -> str:
    k = kind(x)
    if k not in ("int", "float"):
        if is_array(x) and k == "null" and not _reached(pc.is_null(x), reach):
            return "int"
        raise Fallback(f"{op} on a {k} value (the row path raises)")
    if _nulls_reached(x, reach):
        raise Fallback(f"a nil reaches {op} (the row path raises)")
    return k


def _mixed_exact(a: Any, ka: str, b: Any, kb: str) -> None:
    """An int compared or combined with a float must convert exactly (|x| < 2^53)."""
    if {ka, kb} != {"int", "float"}:
        return
    x = a if ka == "int" else b
    if is_array(x):
        if len(x) and x.null_count < len(x):
            mm = pc.min_max(x)
            lo, hi = mm["min"].as_py(), mm["max"].as_py()
            if lo is not None and (abs(lo) >= _EXACT or abs(hi) >= _EXACT):
                raise Fallback("an integer beyond 2^53 meets a float")
    elif abs(x) >= _EXACT:
        raise Fallback("an integer beyond 2^53 meets a float")


_ARITH = {"+": ("add_checked", "add"), "-": ("subtract_checked", "subtract"),
          "*": ("multiply_checked", "multiply")}
_CMP = {"<": pc.less, ">": pc.greater, "<=": pc.less_equal, ">=": pc.greater_equal}
_DATE_CMP = {"isBefore": pc.less, "isAfter": pc.greater, "isEqual": pc.equal}  # LocalDate methods
_SIGN = {"pos?": pc.greater, "neg?": pc.less, "zero?": pc.equal}  # a number's test against 0 (NaN: false)


def _op(name: str, args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    if name in ("not", "nil?", "some?"):
        if len(args) != 1:
            raise Fallback(f"{name} with {len(args)} arguments")
        if name == "not":
            return pc.invert(truth(args[0], frame, reach))
        if args[0] == ("arg",) and is_rows(frame):  # a table's row is never nil (some->'s first test)
            return name == "some?"
        x = value(args[0], frame, reach)
        if not is_array(x):
            return (x is None) is (name == "nil?")
        return pc.is_null(x) if name == "nil?" else pc.is_valid(x)
    if name in ("=", "not="):
        if len(args) != 2:
            raise Fallback(f"{name} with {len(args)} arguments")
        if args[0] == args[1]:
            raise Fallback(f"{name} of an expression with itself")
        r = equal(value(args[0], frame, reach), value(args[1], frame, reach))
        if name == "not=":
            return pc.invert(r) if is_array(r) else not r
        return r
    if name in _CMP:
        if len(args) != 2:
            raise Fallback(f"{name} with {len(args)} arguments")
        a, b = (_compared(x, frame, reach) for x in args)
        ka, kb = _numeric(a, reach, name), _numeric(b, reach, name)
        _mixed_exact(a, ka, b, kb)
        if not is_array(a) and not is_array(b):
            raise Fallback("a comparison of constants")
        r = _CMP[name](a, b)
        return r.fill_null(False) if r.null_count else r
    if name in _SIGN:
        if len(args) != 1:
            raise Fallback(f"{name} with {len(args)} arguments")
        x = value(args[0], frame, reach)
        _numeric(x, reach, name)
        if not is_array(x):
            raise Fallback(f"{name} of a constant")
        r = _SIGN[name](x, 0)
        return r.fill_null(False) if r.null_count else r
    if name == "parse-date":
        return _parse_dates(args, frame, reach)
    if name in ("inc", "dec"):
        if len(args) != 1:
            raise Fallback(f"{name} with {len(args)} arguments")
        return _arith("+" if name == "inc" else "-", value(args[0], frame, reach), 1, reach)
    if name in _ARITH:
        vals = [value(x, frame, reach) for x in args]
        if not vals:
            return 0 if name == "+" else 1
        if len(vals) == 1:
            if name == "-":
                if is_array(vals[0]) and _numeric(vals[0], reach, name) == "float":
                    return pc.negate(vals[0])  # (- 0.0) is -0.0, where 0 - 0.0 is 0.0
                return _arith("-", 0, vals[0], reach)
            _numeric(vals[0], reach, name)
            return vals[0]
        acc = vals[0]
        for x in vals[1:]:
            acc = _arith(name, acc, x, reach)
        return acc
    if name in _NUMERIC:
        return _NUMERIC[name](tuple(value(x, frame, reach) for x in args), reach)
    if name in _DATE_PARTS or name == "getValue":
        if len(args) != 1:
            raise Fallback(f"{name} with {len(args)} arguments")
        arg = args[0]
        days = name == "dow"  # (.getDayOfWeek d) itself: DayOfWeek values (their numbers for .getValue)
        if name == "getValue":  # (.getValue (.getDayOfWeek d)): the ISO day number, 1 = Monday
            if arg[0] != "op" or arg[1] != "dow":
                raise Fallback(".getValue of something other than a date's day of week")
            name, arg = "dow", arg[2]
        x = value(arg, frame, reach)
        if is_array(x) and pt.is_timestamp(x.type):  # a date-time column (pandas' datetime64): its fields in
            pass  # its own zone, as the row path reads each cell
        elif not is_array(x) or kind(x) != "date":
            raise Fallback("a date part of something other than a column of dates or date-times")
        if _nulls_reached(x, reach):
            raise Fallback("a nil reaches a date method (the row path raises)")
        r = _DATE_PARTS[name](x).cast(pa.int64())
        if days:
            return marked(DAYS, r)
        return r
    if name in ("subs", "upper", "lower"):
        return _text(name, args, frame, reach)
    if name in _TEXT_OPS:
        return _TEXT_OPS[name](args, frame, reach)
    if name == "present":  # a fold's value that is nil only where the row path raises
        x = value(args[0], frame, reach)
        if _nulls_reached(x, reach):
            raise Fallback("an index out of range (the row path raises)")
        return x
    if name in _DATE_CMP:
        if len(args) != 2:
            raise Fallback(f".{name} with {len(args)} arguments")
        a, b = (value(x, frame, reach) for x in args)
        if kind(a) != "date" or kind(b) != "date" or not (is_array(a) or is_array(b)):
            raise Fallback(f".{name} of values that are not both dates (the row path raises)")
        if _nulls_reached(a, reach) or _nulls_reached(b, reach):
            raise Fallback(f"a nil reaches .{name} (the row path raises)")
        r = _DATE_CMP[name](a, b)
        return r.fill_null(False) if r.null_count else r
    if name in ("starts-with?", "ends-with?", "includes?"):
        if len(args) != 2:
            raise Fallback(f"{name} with {len(args)} arguments")
        s, sub = (value(x, frame, reach) for x in args)
        if is_array(sub) or type(sub) is not str:
            raise Fallback(f"str/{name} with a pattern that is not a constant string")
        if not is_array(s) or kind(s) != "str":
            if is_array(s) and len(s) == 0:
                return pa.array([], pa.bool_())
            raise Fallback(f"str/{name} on a non-string column (the row path raises)")
        if _nulls_reached(s, reach):
            raise Fallback(f"a nil reaches str/{name} (the row path raises)")
        f = {"starts-with?": pc.starts_with, "ends-with?": pc.ends_with, "includes?": pc.match_substring}[name]
        r = f(s, pattern=sub)
        return r.fill_null(False) if r.null_count else r
    raise Fallback(f"{name} is not computed by kernels")


_DATE_PARTS = {"year": pc.year, "month": pc.month, "day": pc.day, "day_of_year": pc.day_of_year,
               "dow": lambda x: pc.day_of_week(x, count_from_zero=False, week_start=1)}


def _text(name: str, args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(subs s start [end]) with constant indexes, str/upper-case, str/lower-case of a string column."""
    want = (2, 3) if name == "subs" else (1,)
    if len(args) not in want:
        raise Fallback(f"{name} with {len(args)} arguments")
    s = value(args[0], frame, reach)
    if not is_array(s) or kind(s) != "str":
        raise Fallback(f"{name} of a value that is not a string column")
    if _nulls_reached(s, reach):
        raise Fallback(f"a nil reaches {name} (the row path raises)")
    if name != "subs":
        if _reached(pc.invert(pc.string_is_ascii(s)), reach):
            raise Fallback(f"{name} of text beyond ASCII (Python's case rules differ from Arrow's)")
        return pc.utf8_upper(s) if name == "upper" else pc.utf8_lower(s)
    bounds = [value(a, frame, reach) for a in args[1:]]
    if any(is_array(b) for b in bounds):
        return _subs_columns(s, bounds, reach)
    if any(type(b) is not int or b < 0 for b in bounds) or len(bounds) == 2 and bounds[1] < bounds[0]:
        raise Fallback("subs with indexes that are not constant and in order")
    if _reached(pc.less(pc.utf8_length(s), bounds[-1]), reach):
        raise Fallback("subs past the end of a string (the row path raises)")
    return pc.utf8_slice_codeunits(s, bounds[0], bounds[1] if len(bounds) == 2 else None)



# -- text built from columns: str, str/join of a vector, count, subs by computed indexes, parse-long


_SMALL_TEXT = 256  # the row path accounts strings longer than this against the limits: those run there
_DAY_NAMES = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")


def _str_part(e: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """The text `str` makes of e's value on each row: an Array of strings (nil is "") or a str.
    Strings, integers, booleans, keywords and a date's day of week have one text here and in
    the row path; a float (Java's digits) or a date falls back."""
    if e[0] == "op" and e[1] == "dow" and len(e) == 3:  # (str (.getDayOfWeek d)): the day's name
        x = value(e[2], frame, reach)
        if not is_array(x) or kind(x) != "date" and not pt.is_timestamp(x.type):
            raise Fallback("str of a day of week of something other than a date column")
        if _nulls_reached(x, reach):
            raise Fallback("a nil reaches a date method (the row path raises)")
        days = _DATE_PARTS["dow"](x).cast(pa.int64())
        return pa.array(_DAY_NAMES).take(pc.subtract(_flat(days).fill_null(1), 1))
    x = value(e, frame, reach)
    k = kind(x)
    if not is_array(x):
        if x is None:
            return ""
        if k == "str":
            return x
        if k == "int":
            return str(x)
        if k == "bool":
            return "true" if x else "false"
        if k == "kw":
            return ":" + x.name
        raise Fallback(f"str of a {k} constant")
    if k == "null":
        return pa.repeat(pa.scalar(""), len(x))
    if k == "kw":
        x, k = pc.binary_join_element_wise(":", keyword_names(x), ""), "str"
    if k == "str":
        out = x
    elif k in ("int", "bool"):
        out = x.cast(pa.string())
    else:
        raise Fallback(f"str of a {k} column (its text is not Arrow's)")
    return out.fill_null("") if out.null_count else out


def _joined(parts: list[Any], n: int) -> Any:
    if not any(is_array(p) for p in parts):
        raise Fallback("str of constants")
    texts = [p if is_array(p) else pa.scalar(p, pa.string()) for p in parts]
    r = texts[0] if len(texts) == 1 else pc.binary_join_element_wise(*texts, "")
    if len(r) and pc.max(pc.utf8_length(r)).as_py() > _SMALL_TEXT:
        raise Fallback("str making long strings (the row path accounts them)")
    return r


def _str(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(str a b ...): each value's text joined, per row."""
    if not args:
        raise Fallback("str of no values")
    return _joined([_str_part(a, frame, reach) for a in args], _n(frame))


def _join(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(str/join [sep] [a b ...]) of a vector made from each row: str of its items between seps."""
    if len(args) not in (1, 2) or args[-1][0] != "juxt":
        raise Fallback("str/join of something other than a vector made from each row")
    sep = ""
    if len(args) == 2:
        sep = value(args[0], frame, reach)
        if type(sep) is not str:
            raise Fallback("str/join with a separator that is not a constant string")
    parts: list[Any] = []
    for i, item in enumerate(args[-1][1:]):
        if i and sep:
            parts.append(sep)
        parts.append(_str_part(item, frame, reach))
    return _joined(parts, _n(frame))


def _count(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(count s) of a string column: its characters (code points, as Python's len); nil 0."""
    if len(args) != 1:
        raise Fallback(f"count with {len(args)} arguments")
    x = value(args[0], frame, reach)
    if not is_array(x):
        raise Fallback("count of a constant")
    k = kind(x)
    if k == "null":
        return pa.repeat(pa.scalar(0), len(x))
    if k != "str":
        raise Fallback(f"count of a {k} column (the row path counts strings and collections)")
    r = pc.utf8_length(x).cast(pa.int64())
    return r.fill_null(0) if r.null_count else r


def _subs_columns(s: Any, bounds: list[Any], reach: Any) -> Any:
    """(subs s start [end]) with indexes computed per row, of ASCII text (a byte is a character):
    the bytes of each row's range gathered at once; a range out of bounds that a row reaches
    falls back (the row path raises)."""
    import numpy as np

    n = len(s)
    if _reached(pc.invert(pc.string_is_ascii(s)), reach):
        raise Fallback("subs by computed indexes of text beyond ASCII")
    for b in bounds:
        if kind(b) != "int":
            raise Fallback("subs with indexes that are not integers")
        if _nulls_reached(b, reach):
            raise Fallback("a nil index reaches subs (the row path raises)")
    s = _flat(s)
    if pt.is_large_string(s.type):
        s = s.cast(pa.string())
    length = _np_of(pc.utf8_length(s), 0, n).astype(np.int64)
    start = _np_of(bounds[0], 0, n).astype(np.int64)
    end = _np_of(bounds[1], 0, n).astype(np.int64) if len(bounds) == 2 else length
    bad = (start < 0) | (end < start) | (end > length)
    if bad.any() and _reached(pa.array(bad), reach):
        raise Fallback("subs past the end of a string (the row path raises)")
    if reach is not None:  # rows no one reads: an empty range
        off = ~_np_of(reach, False, n).astype(bool)
        bad = bad | off
    valid = _np_of(pc.is_valid(s), False, n).astype(bool)
    bad = bad | ~valid
    start = np.where(bad, 0, start)
    end = np.where(bad, 0, end)
    offsets = np.frombuffer(s.buffers()[1], dtype=np.int32)[s.offset:s.offset + n + 1].astype(np.int64)
    data = np.frombuffer(s.buffers()[2], dtype=np.uint8) if s.buffers()[2] is not None else np.zeros(0, np.uint8)
    lo = offsets[:-1] + start
    lens = end - start
    new = np.zeros(n + 1, np.int64)
    np.cumsum(lens, out=new[1:])
    total = int(new[-1])
    idx = np.repeat(lo - new[:-1], lens) + np.arange(total, dtype=np.int64)
    out = pa.StringArray.from_buffers(n, pa.py_buffer(new.astype(np.int32)), pa.py_buffer(data[idx].tobytes()))
    return pc.if_else(pa.array(valid), out, pa.scalar(None, pa.string())) if not valid.all() else out


def _parse_long(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(parse-long s) of a text column: an optional sign and up to 18 ASCII digits are Arrow's
    cast; other ASCII text is nil (not a number); digits beyond ASCII, 19 digits or more (which
    may leave 64 bits) or a nil reached (the row path raises) fall back."""
    if len(args) != 1:
        raise Fallback(f"parse-long with {len(args)} arguments")
    x = value(args[0], frame, reach)
    if not is_array(x) or kind(x) != "str":
        raise Fallback("parse-long of something other than a text column")
    if _nulls_reached(x, reach):
        raise Fallback("a nil reaches parse-long (the row path raises)")
    if reach is None and not x.null_count:  # every row: Arrow's parse, when it takes them all
        try:
            r = _flat(x).cast(pa.int64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            r = None
        # what it takes beyond an optional - and digits: hexadecimal (0x1f); the row path's 40 characters
        if r is not None and not any(pc.any(pc.match_substring(x, c)).as_py() for c in "xX") \
                and (not len(x) or pc.max(pc.utf8_length(x)).as_py() <= 40):
            return r
    if _reached(pc.invert(pc.string_is_ascii(x)), reach):
        raise Fallback("parse-long of text beyond ASCII (Unicode digits)")
    if _reached(pc.match_substring_regex(x, r"^[+-]?[0-9]{19,}$"), reach):
        raise Fallback("parse-long of 19 digits or more")
    ok = pc.match_substring_regex(x, r"^[+-]?[0-9]{1,18}$")
    ok = ok.fill_null(False) if ok.null_count else ok
    if reach is not None:
        ok = pc.and_(ok, reach)
    kept = pc.if_else(ok, x, pa.scalar(None, x.type))
    return pc.replace_substring_regex(kept, r"^\+", "").cast(pa.int64())


def _long(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(int x) / (long x): an integer column as it is; floats truncated toward zero (NaN is 0,
    as ptc's int gives; an infinity or beyond 64 bits falls back); (int (/ a b)) of integers is
    (quot a b): below 2^53 (where / stays exact or falls back) a float quotient truncates to it."""
    if len(args) != 1:
        raise Fallback(f"int with {len(args)} arguments")
    e = args[0]
    if e[0] == "op" and e[1] == "/" and len(e) == 4:
        a, b = value(e[2], frame, reach), value(e[3], frame, reach)
        if kind(a) == "int" and kind(b) == "int":
            for x in (a, b):
                if is_array(x) and len(x) and x.null_count < len(x):
                    mm = pc.min_max(x)
                    if max(abs(mm["min"].as_py()), abs(mm["max"].as_py())) >= _EXACT:
                        raise Fallback("an integer beyond 2^53 divided")
                elif not is_array(x) and abs(x) >= _EXACT:
                    raise Fallback("an integer beyond 2^53 divided")
            return _quot((a, b), reach)
    x = value(e, frame, reach)
    k = _numeric(x, reach, "int")
    if not is_array(x):
        raise Fallback("int of a constant")
    if k == "int":
        return x
    x = _flat(x)
    nan = pc.is_nan(x)
    x = pc.if_else(nan, 0.0, x) if pc.any(nan).as_py() else x
    big = pc.greater_equal(pc.abs(x), 9.223372036854775e18)  # 2^63 and beyond, infinities
    if _reached(big, reach):
        raise Fallback("int of an infinity or a float beyond 64 bits (the row path raises)")
    if pc.any(big).as_py():
        x = pc.if_else(big, 0.0, x)
    return pc.trunc(x).cast(pa.int64())


def _mod(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(mod a b) of integers: floored, the sign of b (numpy's % as Python's); a zero divisor a
    row reaches falls back (the row path raises); floats fall back."""
    import numpy as np

    if len(args) != 2:
        raise Fallback(f"mod with {len(args)} arguments")
    a, b = (value(x, frame, reach) for x in args)
    ka, kb = _ints_floats(a, b, reach, "mod")
    if ka != "int" or kb != "int":
        raise Fallback("mod of floats")
    n = len(a) if is_array(a) else len(b)
    zero = pc.equal(b, 0) if is_array(b) else None
    if (zero is not None and _reached(zero, reach)) or (zero is None and b == 0):
        raise Fallback("mod by zero (the row path raises)")
    an, bn = _np_of(a, 0, n), _np_of(b, 1, n)
    bn = np.where(bn == 0, 1, bn)
    return pa.array(an % bn, mask=_nulls_of(a, b))


def _floor(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(Math/floor x): a float column's floor (-0.0, NaN and infinities as they are), integers
    below 2^53 as floats first."""
    if len(args) != 1:
        raise Fallback(f"Math/floor with {len(args)} arguments")
    x, k = _unary("Math/floor", (value(args[0], frame, reach),), reach)
    return pc.floor(_as_float(x, k))


def _regex(name: str) -> Any:
    def found(args: tuple[Any, ...], frame: Any, reach: Any, test: bool = False) -> Any:
        """(re-find re s) / (re-matches re s) of a text column, re a constant regex without
        groups: the match or nil, by Arrow's RE2 with the pattern ptc's own RE2 compiled (the
        same engine: leftmost-first, $ the end of the text, ASCII \\d); groups (a vector
        per match) or a nil reached (the row path raises) fall back. test: only whether it
        matches (a filter's truth: an empty match is "", truthy), without extracting it."""
        from ..lib.regex import as_compiled
        from ..values import Regex

        if len(args) != 2:
            raise Fallback(f"{name} with {len(args)} arguments")
        r, x = value(args[0], frame, reach), value(args[1], frame, reach)
        if type(r) is not Regex:
            raise Fallback(f"{name} with a pattern that is not a constant regex")
        c = as_compiled(r, name)
        if c.groups:
            raise Fallback(f"{name} with groups (a vector per match)")
        if not is_array(x) or kind(x) != "str":
            raise Fallback(f"{name} of something other than a text column")
        if _nulls_reached(x, reach):
            raise Fallback(f"a nil reaches {name} (the row path raises)")
        pattern = c.rx.pattern
        wrapped = f"(?P<m>{pattern})" if name == "re-find" else f"\\A(?P<m>{pattern})\\z"
        try:
            if test:  # no capture: RE2 finds a match without a group's positions, faster
                t = pc.match_substring_regex(x, pattern=pattern if name == "re-find" else f"\\A(?:{pattern})\\z")
                return t.fill_null(False) if t.null_count else t
            m = pc.extract_regex(x, pattern=wrapped)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise Fallback(f"{name} with a pattern Arrow's RE2 does not compile") from None
        return pc.struct_field(m, [0])
    return found


_TEXT_OPS = {"str": _str, "join": _join, "count": _count, "parse-long": _parse_long, "long": _long, "mod": _mod,
             "floor": _floor, "re-find": _regex("re-find"), "re-matches": _regex("re-matches")}


def _arith(name: str, a: Any, b: Any, reach: Any) -> Any:
    ka, kb = _numeric(a, reach, name), _numeric(b, reach, name)
    _mixed_exact(a, ka, b, kb)
    if not is_array(a) and not is_array(b):
        raise Fallback("arithmetic on constants")
    checked, plain = _ARITH[name]
    if ka == "int" and kb == "int":
        try:
            return getattr(pc, checked)(a, b)
        except pa.ArrowInvalid:
            raise Fallback(f"{name} leaves 64-bit integers (the row path makes a big integer)") from None
    if ka == "int" and is_array(a):
        a = a.cast(pa.float64())
    if kb == "int" and is_array(b):
        b = b.cast(pa.float64())
    return getattr(pc, plain)(a if is_array(a) else float(a), b if is_array(b) else float(b))


class Mixed:
    """Values of two types in one column (exact integer quotients among floats): only a result,
    never an operand (kind "other": every kernel given one falls back)."""

    __slots__ = ("values",)

    def __init__(self, values: list[Any]) -> None:
        self.values = values


def _ints_floats(a: Any, b: Any, reach: Any, op: str) -> tuple[str, str]:
    ka, kb = _numeric(a, reach, op), _numeric(b, reach, op)
    _mixed_exact(a, ka, b, kb)
    if not is_array(a) and not is_array(b):
        raise Fallback(f"{op} of constants")
    return ka, kb


def _np_of(x: Any, fill: Any, n: int) -> Any:
    import numpy as np

    if not is_array(x):
        return np.full(n, x)
    x = _flat(x)
    return (x.fill_null(fill) if x.null_count else x).to_numpy(zero_copy_only=False)


def _nulls_of(a: Any, b: Any) -> Any:
    masks = [pc.is_null(x) for x in (a, b) if is_array(x) and x.null_count]
    if not masks:
        return None
    m = masks[0] if len(masks) == 1 else pc.or_(masks[0], masks[1])
    return _flat(m).to_numpy(zero_copy_only=False)


def _divide(args: tuple[Any, ...], reach: Any) -> Any:
    """(/ a b): exact integer quotients stay integers, others are floats; a zero divisor falls back."""
    import numpy as np

    if len(args) != 2:
        raise Fallback(f"/ with {len(args)} arguments")
    a, b = args
    ka, kb = _ints_floats(a, b, reach, "/")
    n = len(a) if is_array(a) else len(b)
    nulls = _nulls_of(a, b)
    if ka == "int" and kb == "int":
        zero = pc.equal(b, 0) if is_array(b) else None
        if (zero is not None and _reached(zero, reach)) or (zero is None and b == 0):
            raise Fallback("an integer division by zero (the row path raises)")
        an, bn = _np_of(a, 0, n), _np_of(b, 1, n)
        for x in (an, bn):
            if len(x) and int(np.abs(x).max()) >= 1 << 53:
                raise Fallback("an integer beyond 2^53 divided")
        bn = np.where(bn == 0, 1, bn)
        exact = an % bn == 0
        if nulls is not None:
            exact = exact | nulls
        if exact.all():
            return pa.array(an // bn, mask=nulls)
        quotients = an / bn
        if not exact.any() or nulls is not None and (exact & ~nulls).sum() == 0:
            return pa.array(quotients, mask=nulls)
        if nulls is not None:
            raise Fallback("integer quotients of two types beside nils")
        return Mixed([int(q) if e else f for q, e, f in zip((an // bn).tolist(), exact.tolist(), quotients.tolist())])
    fa = _np_of(_as_float(a, ka) if is_array(a) else float(a), 0.0, n)
    fb = _np_of(_as_float(b, kb) if is_array(b) else float(b), 1.0, n)
    with np.errstate(all="ignore"):  # IEEE: x/0.0 is an infinity, 0/0 NaN, as ptc's / gives
        return pa.array(np.true_divide(fa, fb), mask=nulls)


def _quot(args: tuple[Any, ...], reach: Any) -> Any:
    import numpy as np

    if len(args) != 2:
        raise Fallback(f"quot with {len(args)} arguments")
    a, b = args
    ka, kb = _ints_floats(a, b, reach, "quot")
    if ka != "int" or kb != "int":
        raise Fallback("quot of floats")
    n = len(a) if is_array(a) else len(b)
    zero = pc.equal(b, 0) if is_array(b) else None
    if (zero is not None and _reached(zero, reach)) or (zero is None and b == 0):
        raise Fallback("quot by zero (the row path raises)")
    an, bn = _np_of(a, 0, n), _np_of(b, 1, n)
    bn = np.where(bn == 0, 1, bn)
    q = an // bn
    q = q + ((an % bn != 0) & ((an < 0) != (bn < 0)))  # toward zero, not down
    return pa.array(q, mask=_nulls_of(a, b))


def _unary(name: str, args: tuple[Any, ...], reach: Any) -> tuple[Any, str]:
    if len(args) != 1:
        raise Fallback(f"{name} with {len(args)} arguments")
    x = args[0]
    k = _numeric(x, reach, name)
    if not is_array(x):
        raise Fallback(f"{name} of a constant")
    return x, k


def _as_float(x: Any, k: str) -> Any:
    if k == "int":
        _mixed_exact(x, "int", 0.0, "float")
        return x.cast(pa.float64())
    return x


def _double(args: tuple[Any, ...], reach: Any) -> Any:
    x, k = _unary("double", args, reach)
    return _as_float(x, k)


def _sqrt(args: tuple[Any, ...], reach: Any) -> Any:
    x, k = _unary("Math/sqrt", args, reach)
    x = _as_float(x, k)
    if _reached(pc.less(x, 0.0), reach):
        raise Fallback("Math/sqrt of a negative number")
    return pc.sqrt(x)


def _pow(args: tuple[Any, ...], reach: Any) -> Any:
    """(Math/pow a b) as C's pow, which Python's math.pow calls, for finite operands; NaN or
    infinite operands, 0 to a negative power, a negative base to a fractional power and an
    overflow fall back (ptc's own rules for them)."""
    import numpy as np

    if len(args) != 2:
        raise Fallback(f"Math/pow with {len(args)} arguments")
    a, b = args
    ka, kb = _ints_floats(a, b, reach, "Math/pow")
    # a constant operand stays a scalar: (Math/pow x 2) tests only x's values (one pass, not ten)
    fa = _np_of(_as_float(a, ka), 1.0, 0) if is_array(a) else np.float64(a)
    fb = _np_of(_as_float(b, kb), 1.0, 0) if is_array(b) else np.float64(b)
    with np.errstate(all="ignore"):
        bad = ~np.isfinite(fa) | ~np.isfinite(fb)
        if np.any(fb < 0):
            bad = bad | ((fa == 0) & (fb < 0))
        if np.any(fb != np.floor(fb)):
            bad = bad | ((fa < 0) & (fb != np.floor(fb)))
        bad = np.broadcast_to(bad, (len(a) if is_array(a) else len(b),))
        if bad.any() and _reached(pa.array(bad), reach):
            raise Fallback("Math/pow of a NaN, an infinity, 0 to a negative power or a negative base to a fraction")
        if bad.any():
            fa, fb = np.where(bad, 1.0, fa), np.where(bad, 1.0, fb)
        r = pc.power(pa.array(fa) if np.ndim(fa) else pa.scalar(float(fa)),
                     pa.array(fb) if np.ndim(fb) else pa.scalar(float(fb)))
    if pc.any(pc.is_inf(r)).as_py():
        raise Fallback("Math/pow overflows")
    return pa.array(r, mask=_nulls_of(a, b))


def _abs(args: tuple[Any, ...], reach: Any) -> Any:
    x, k = _unary("abs", args, reach)
    if k == "int":
        try:
            return pc.abs_checked(x)
        except pa.ArrowInvalid:
            raise Fallback("abs of the smallest 64-bit integer") from None
    return pc.abs(x)


def _extreme2(name: str) -> Any:
    def ext(args: tuple[Any, ...], reach: Any) -> Any:
        if len(args) < 2:
            raise Fallback(f"{name} with {len(args)} arguments")
        kinds = {_numeric(x, reach, name) for x in args}
        if len(kinds) != 1 or not any(is_array(x) for x in args):
            raise Fallback(f"{name} of numbers of two types or of constants")
        if kinds == {"float"}:
            for x in args:
                bad = pc.or_(pc.is_nan(x), pc.equal(x, 0.0)) if is_array(x) else (x != x or x == 0.0)
                if bad is True or is_array(bad) and _reached(bad, reach):
                    raise Fallback(f"{name} of floats holding NaN or zeros")
        f = pc.max_element_wise if name == "max" else pc.min_element_wise
        return f(*args, skip_nulls=False)
    return ext


def _parity(want: int) -> Any:
    def parity(args: tuple[Any, ...], reach: Any) -> Any:
        x, k = _unary("even?" if want == 0 else "odd?", args, reach)
        if k != "int":
            raise Fallback("even?/odd? of a float (the row path raises)")
        return pc.equal(pc.bit_wise_and(x, 1), want)
    return parity


_NUMERIC = {"/": _divide, "quot": _quot, "double": _double, "sqrt": _sqrt, "pow": _pow, "abs": _abs,
            "max": _extreme2("max"), "min": _extreme2("min"), "even?": _parity(0), "odd?": _parity(1)}


def _if(test: Any, then: Any, else_: Any, frame: Any, reach: Any, numeric: bool = False) -> Any:
    """(if test then else) per row: each branch checked only on the rows that reach it
    (numeric: integers and floats of the two branches taken as floats, see _compared)."""
    t = truth(test, frame, reach)
    r_then = t if reach is None else pc.and_(reach, t)
    nt = pc.invert(t)
    r_else = nt if reach is None else pc.and_(reach, nt)
    get = _compared if numeric else value
    for r, branch in ((r_then, else_), (r_else, then)):
        if not pc.any(r).as_py():  # every row takes the other branch: its value, whatever this one's type
            taken = get(branch, frame, r_else if branch is else_ else r_then)
            if is_array(taken):
                return taken
            if taken is None:
                return pa.nulls(_n(frame))
            if kind(taken) in ("int", "float", "str", "bool", "date"):  # a constant branch: a column of it
                return pa.repeat(pa.scalar(taken), _n(frame))
            if kind(taken) == "kw":
                return keywords(pa.repeat(pa.scalar(taken.name), _n(frame)))
            return taken
    a, b = get(then, frame, r_then), get(else_, frame, r_else)
    ka, kb = kind(a), kind(b)
    if numeric and {ka, kb} == {"int", "float"}:
        _mixed_exact(a, ka, b, kb)
        a, b = (x if k == "float" else (float(x) if not is_array(x) else x.cast(pa.float64()))
                for x, k in ((a, ka), (b, kb)))
        ka = kb = "float"
    if "other" in (ka, kb) or {ka, kb} - {"null"} and len({ka, kb} - {"null"}) > 1:
        raise Fallback("if whose branches give values of two types")
    if "dow" in (ka, kb):  # days of the week on both sides (or nil): their numbers chosen
        if not all(is_array(x) or x is None for x in (a, b)):
            raise Fallback("if giving days of the week and constants")
        a, b = (storage(x) if is_array(x) and kind(x) == "dow" else x for x in (a, b))
        r = _if_else(t, a, b)
        return marked(DAYS, r)
    if "kw" in (ka, kb):  # keywords on both sides (or nil): their names chosen, a keyword column
        a, b = (x.name if type(x) is Keyword else keyword_names(x) if is_array(x) and kind(x) == "kw" else x
                for x in (a, b))
        return keywords(_if_else(t, a, b))
    return _if_else(t, a, b)


def _if_else(t: Any, a: Any, b: Any) -> Any:
    """a where t, else b: columns or constants of one type (a constant stays a scalar)."""
    typ = next((x.type for x in (a, b) if is_array(x) and kind(x) != "null"), None)
    if typ is None:
        typ = pa.array([a if a is not None else b]).type if (a is not None or b is not None) and not (
            is_array(a) or is_array(b)) else pa.null()
    arr = [x if is_array(x) else pa.scalar(x, typ) for x in (a, b)]  # a constant branch stays a scalar
    arr = [x.cast(typ) if x.type != typ else x for x in arr]
    return pc.if_else(t, arr[0], arr[1])


_YEAR_ONE = -719_162  # 0001-01-01 in days from 1970: the first date PTC-Lisp holds


def _parse_dates(args: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    """(LocalDate/parse s) of a text column: Arrow's cast to dates, as strict as Java's
    ISO_LOCAL_DATE for yyyy-MM-dd (2020-02-30, 2024-1-5 or a space are refused); any text the
    cast refuses (a sign, five digits of year) or a nil falls back, and the row path says why.
    A constant text is parsed by the builtin itself."""
    if len(args) != 1:
        raise Fallback("LocalDate/parse with a formatter")
    x = value(args[0], frame, reach)
    if type(x) is str:
        from ..registry import REGISTRY
        from ..errors import PTCError

        try:
            return REGISTRY["LocalDate/parse"].fn(x)
        except PTCError:
            raise Fallback("LocalDate/parse of a text that is no date (the row path raises)") from None
    if not is_array(x) or kind(x) != "str":
        raise Fallback("LocalDate/parse of something other than a text")
    if _nulls_reached(x, reach):
        raise Fallback("a nil reaches LocalDate/parse (the row path raises)")
    try:
        days = _flat(x).cast(pa.date32())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise Fallback("LocalDate/parse of a text that is not a yyyy-MM-dd date (the row path says why)") from None
    low = pc.min(days.cast(pa.int32())).as_py()
    if low is not None and low < _YEAR_ONE:
        raise Fallback("LocalDate/parse of a date before year 1")
    return days


_EQ_KINDS = frozenset({"int", "float", "str", "bool", "date"})


def equal(a: Any, b: Any) -> Any:
    """Clojure = of two values (arrays or scalars): nil equals nil, 1 and 1.0 differ."""
    if not is_array(a) and not is_array(b):
        raise Fallback("= of constants")
    if not is_array(a):
        a, b = b, a
    ka, kb = kind(a), kind(b)
    if ka == "kw" and kb == "kw":  # keywords are equal when their names are
        a, b = keyword_names(a), b.name if type(b) is Keyword else keyword_names(b)
        ka = kb = "str"
    if ka == "other" or kb == "other":
        raise Fallback(f"= on a column of type {a.type if ka == 'other' else b.type}")
    if not is_array(b):
        if b is None:
            return pc.is_null(a)
        if ka != kb or ka not in _EQ_KINDS or (kb == "date" and type(b) is not datetime.date):
            return _all_n(len(a), False)
        r = pc.equal(a, b)
        return r.fill_null(False) if r.null_count else r
    both_null = pc.and_(pc.is_null(a), pc.is_null(b))
    if ka != kb or ka not in _EQ_KINDS:
        if "null" not in (ka, kb) and (ka not in _EQ_KINDS or kb not in _EQ_KINDS):
            raise Fallback("= of columns of other types")
        return both_null
    r = pc.equal(a, b)
    return pc.or_(r.fill_null(False) if r.null_count else r, both_null)


_KINDS = {type(None): "null", bool: "bool", int: "int", float: "float", str: "str", datetime.date: "date",
          Keyword: "kw"}


def _lookup(m: Any, x: Any, *default: Any) -> Any:
    """(m x) / (get m x d) for each value of column x, m a constant map: the value, or nil (d)
    when absent."""
    from ..values import map_items

    if m[0] != "lit" or not is_array(x):
        raise Fallback("a map lookup of something other than a column")
    k = kind(x)
    if k not in ("int", "str", "date"):
        raise Fallback(f"a map lookup by {k} values")
    want = {"int": int, "str": str, "date": datetime.date}[k]
    mp = m[1]
    if type(mp) is dict:  # host data: its keys as PTC reads them
        items = map_items(mp)
        keys, vals = [key for key, _ in items], [v for _, v in items]
    else:
        keys, vals = list(mp.keys()), list(mp.values())
    key_types = set(map(type, keys))
    if type(None) in key_types and x.null_count or k == "int" and key_types & {float, bool}:
        raise Fallback("a lookup map whose keys may equal the column's values in other types")
    if not key_types <= {want}:
        vals = [v for key, v in zip(keys, vals) if type(key) is want]
        keys = [key for key in keys if type(key) is want]
    if default:
        if is_array(default[0]):
            raise Fallback("a lookup default that is not a constant")
        if default[0] is not None:
            vals = vals + [default[0]]
    kinds = {_KINDS.get(t, "other") for t in set(map(type, vals))} - {"null"}
    if len(kinds) > 1 or kinds & {"other", "kw"}:
        raise Fallback("a lookup map whose values are of several types")
    if not keys:
        return pa.nulls(len(x)) if not default or default[0] is None else pa.repeat(pa.scalar(default[0]), len(x))
    idx = pc.index_in(x, value_set=pa.array(keys, type=x.type))
    if default and default[0] is not None:  # an absent key: the default, the last value
        idx = idx.fill_null(len(vals) - 1)
    return pa.array(vals).take(idx)


# -- each: a pure builtin without a column op, called once per distinct value ---------------


_PURE_OPS: dict[str, Any] = {}
_EACH_KINDS = frozenset({"int", "float", "str", "bool", "date", "null", "kw"})  # cells read back exactly


def _pure_op(name: str) -> Any:
    """The pure builtin whose column op is `name` (None when there is none or several differ)."""
    if not _PURE_OPS:
        from ..registry import REGISTRY

        for b in REGISTRY.values():
            if b.column_op is not None:
                seen = _PURE_OPS.get(b.column_op, b)
                _PURE_OPS[b.column_op] = b if b.pure and seen is not False and (seen.fn is b.fn) else False
    b = _PURE_OPS.get(name)
    return b or None


def _each(e: tuple[Any, ...], frame: Any, reach: Any, why: Fallback | None = None) -> Any:
    """An each node's value: the builtin (and the each nodes under it) called once per distinct
    combination of the values its leaves (the column expressions under it) take on the rows
    that reach it, the results taken back to every row. What the row path would do with the
    same values, so exact; a call that raises falls back (the row path raises, in its order),
    as do results a column does not hold (a collection, an integer past 64 bits, long text)."""
    leaves: list[Any] = []
    call = _each_fn(e, frame, reach, leaves)
    n = _n(frame)
    rows = None if reach is None else pc.indices_nonzero(_flat(reach))
    m = n if rows is None else len(rows)
    arrays = [x for x in leaves if is_array(x)]
    label = _each_label(e)
    if not m:
        return pa.nulls(n)
    if not arrays:  # constants only: one call
        results, inverse = [_each_call(call, [x for x in leaves], label, why)], None
    else:
        arrays = [_flat(x) if rows is None else _flat(x).take(rows) for x in arrays]
        codes, reps = _combinations(arrays)
        inputs = [_cells(x, reps) for x in arrays]
        results = []
        for i in range(len(reps)):
            if i % 4096 == 4095:
                from .. import context

                context.check_deadline()
            it = iter(col[i] for col in inputs)
            results.append(_each_call(call, [next(it) if is_array(x) else x for x in leaves], label, why))
        inverse = codes
    out = _column_of(results, label, why)
    if inverse is None:
        if rows is None:
            return pa.repeat(out[0], n)
        inverse = np.zeros(m, np.int64)
    if rows is None:
        return out.take(pa.array(inverse))
    full = np.full(n, 0, np.int64)
    full[rows.to_numpy()] = inverse
    mask = np.ones(n, bool)
    mask[rows.to_numpy()] = False
    return out.take(pa.array(full, mask=mask))


def _each_fn(e: tuple[Any, ...], frame: Any, reach: Any, leaves: list[Any]) -> Any:
    """A Python function of the leaves' values computing e, its leaves appended in order:
    constants as themselves, every other column expression's value over frame."""
    head = e[0]
    if head == "each":
        from ..registry import REGISTRY
        from ..runtime import _invoke

        b = e[1]
        fn = _invoke if b is None else (REGISTRY[b] if type(b) is str else b).fn
        parts = [_each_fn(x, frame, reach, leaves) for x in e[2:]]
        return lambda vals: fn(*[p(vals) for p in parts])
    if head == "juxt":  # a vector of values (str/join's argument)
        from ..values import vec

        parts = [_each_fn(x, frame, reach, leaves) for x in e[1:]]
        return lambda vals: vec(p(vals) for p in parts)
    if head == "fnval":
        from ..registry import REGISTRY

        f = REGISTRY[e[1]].fn
        return lambda vals: f
    if head in ("const", "lit"):
        c = e[1]
        return lambda vals: c
    i = len(leaves)
    leaves.append(value(e, frame, reach))
    return lambda vals: vals[i]


def _each_label(e: tuple[Any, ...]) -> str:
    b = e[1]
    return "a captured collection called" if b is None else b if type(b) is str else b.qualified


def _each_call(call: Any, vals: list[Any], label: str, why: Fallback | None) -> Any:
    from ..errors import PTCError

    try:
        return call(vals)
    except (PTCError, ArithmeticError, TypeError, ValueError, IndexError, KeyError) as err:
        raise (why or Fallback(f"{label} raises on a row (the row path raises)")) from err


def _combinations(arrays: list[Any]) -> tuple[Any, Any]:
    """Each row's number among the distinct combinations of the arrays' values (floats by their
    bits: -0.0 and 0.0, NaNs, are told apart) and the first row of each combination."""
    code = None
    for x in arrays:
        if kind(x) not in _EACH_KINDS:
            raise Fallback(f"a column of type {x.type} as a builtin's argument")
        if kind(x) == "float":
            x = x.view(pa.int64())
        elif kind(x) == "kw":
            x = storage(x)
        enc = pc.dictionary_encode(x, null_encoding="encode")
        if isinstance(enc, pa.ChunkedArray):
            enc = enc.combine_chunks()
        idx = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        width = len(enc.dictionary)
        if code is None:
            code = idx
        else:
            if code.max(initial=0) + 1 > (1 << 62) // max(width, 1):
                raise Fallback("too many combinations of a builtin's arguments")
            code = code * width + idx
    assert code is not None
    if len(arrays) == 1:
        uniq_first = np.full(int(code.max(initial=-1)) + 1, -1, np.int64)
        order = np.arange(len(code) - 1, -1, -1)
        uniq_first[code[order]] = order  # the first row of each value (dictionary order: first seen)
        return code, uniq_first
    enc = pc.dictionary_encode(pa.array(code))
    first = np.full(len(enc.dictionary), -1, np.int64)
    inv = enc.indices.to_numpy().astype(np.int64)
    order = np.arange(len(inv) - 1, -1, -1)
    first[inv[order]] = order
    return inv, first


def _cells(x: Any, reps: Any) -> list[Any]:
    """The values the row path reads from x at rows reps (a keyword column's keywords)."""
    vals = x.take(pa.array(reps))
    if kind(x) == "kw":
        return [None if v is None else Keyword(v) for v in storage(vals).to_pylist()]
    return vals.to_pylist()


def _column_of(results: list[Any], label: str, why: Fallback | None) -> Any:
    """The results as an Arrow column, or Fallback when a column does not hold them as they are."""
    types = {type(r) for r in results} - {type(None)}
    if not types:
        return pa.nulls(len(results))
    if len(types) > 1 or not types <= {bool, int, float, str, datetime.date, Keyword}:
        raise why or Fallback(f"{label} gives values a column does not hold as they are")
    t = types.pop()
    if t is int:
        present = [r for r in results if r is not None]
        if max(present) >= 1 << 63 or min(present) < -(1 << 63):
            raise why or Fallback(f"{label} gives integers beyond 64 bits")
        return pa.array(results, pa.int64())
    if t is str:
        if max(len(r) for r in results if r is not None) > _SMALL_TEXT:
            raise why or Fallback(f"{label} makes long strings (the row path accounts them)")
        return pa.array(results, pa.string())
    if t is Keyword:
        return keywords(pa.array([None if r is None else r.name for r in results], pa.string()))
    if t is datetime.date:
        return pa.array(results, pa.date32())
    return pa.array(results, {bool: pa.bool_(), float: pa.float64()}[t])


# -- truth: which rows a predicate keeps ----------------------------------------------------


def truth(e: tuple[Any, ...], frame: Any, reach: Any = None) -> Any:
    """A boolean array (no nulls): whether e's value is truthy (not nil, not false) on each row."""
    head = e[0]
    n = _n(frame)
    if head in ("and", "all", "or", "any", "none"):
        conj = head in ("and", "all")
        items = e[1:]
        if not items:
            return _all_n(n, conj or head == "none")
        acc = None
        cur = reach
        for item in items:
            t = truth(item, frame, cur)
            acc = t if acc is None else (pc.and_(acc, t) if conj else pc.or_(acc, t))
            gate = acc if conj else pc.invert(acc)
            cur = gate if reach is None else pc.and_(reach, gate)
        return pc.invert(acc) if head == "none" else acc
    if head == "in" or head == "has":
        return _member(e, frame, reach)
    if head == "where":
        return _where(e, frame, reach)
    if head == "op" and e[1] in ("re-find", "re-matches"):  # whether it matches: no match extracted
        return _TEXT_OPS[e[1]](e[2:], frame, reach, True)
    x = value(e, frame, reach)
    if not is_array(x):
        return _all_n(n, x is not None and x is not False)
    return truthy(x)


def truthy(x: Any) -> Any:
    """Whether each value of array x is truthy (Clojure: all but nil and false)."""
    if kind(x) == "bool":
        return x.fill_null(False) if x.null_count else x
    return pc.is_valid(x)


def _all_n(n: int, flag: bool) -> Any:
    return pa.repeat(pa.scalar(flag), n)  # 7 us for 1M rows (a list of them: 50 ms)


def _members(s: Any, k: str, by_value: bool, by_name: bool = False) -> list[Any]:
    """The members of set s that equal a value of kind k (numbers compare by value in ptc's
    sets as in `where`; by_name: a keyword equals the string of its name, as in `where`), or
    Fallback when a member's match is not certain."""
    out = []
    for m in s:
        km = kind(m)
        if by_name and km == "kw":
            m, km = m.name, "str"
        if km == "other" or (km == "float" and m != m):
            raise Fallback("a set holding values kernels do not compare")
        if k in ("int", "float") and km in ("int", "float"):
            if not by_value and km != k:
                continue
            if k == "int":
                if km == "float" and not m.is_integer():
                    continue
                out.append(int(m))
            else:
                if km == "int" and abs(m) >= _EXACT:
                    raise Fallback("an integer beyond 2^53 in a set")
                out.append(float(m))
        elif k in ("int", "float") and km == "bool" or k == "bool" and km in ("int", "float"):
            raise Fallback("a set mixing booleans and numbers")
        elif km == k:
            out.append(m)
    return out


def _member(e: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    s = value(e[1], frame, reach)
    x = value(e[2], frame, reach)
    if type(s) is not FSet or not is_array(x):
        raise Fallback("set membership of something other than a column in a constant set")
    k = kind(x)
    if k in ("other",):
        raise Fallback(f"set membership on a column of type {x.type}")
    if k == "kw":  # a keyword column: the names of the set's keywords
        members, x = [m.name for m in s if type(m) is Keyword], keyword_names(x)
    else:
        members = _members(s, k, by_value=True) if k != "null" else []
    if members:
        r = pc.is_in(x, value_set=pa.array(members, type=x.type))
        r = r.fill_null(False) if r.null_count else r
    else:
        r = _all_n(len(x), False)
    if e[0] == "has":  # contains?: a nil cell is in a set holding nil
        if None in s and x.null_count:
            r = pc.or_(r, pc.is_null(x))
        return r
    if k == "bool":  # (#{false} x) gives false: a miss for filter
        r = pc.and_(r, x.fill_null(False))
    return r


# -- where: ptc's row predicates ---------------------------------------------------------


def _where(e: tuple[Any, ...], frame: Any, reach: Any) -> Any:
    _, key, op, v = e
    if not is_rows(frame):
        raise Fallback("where on values that are not rows")
    if type(key) is not Keyword and type(key) is not str:
        raise Fallback("where with a key path or a function key")
    x = column(frame, key)
    if x is None:
        x = pa.nulls(frame.num_rows)
    if op is None:
        return truthy(x)
    from ..lib.ptc_aggregates import _op_name

    name = _op_name(op)
    if name is None:
        raise Fallback("where with a custom operator function")
    k = kind(x)
    if k == "other":
        raise Fallback(f"where on a column of type {x.type}")
    if name in ("=", "not="):
        r = _where_eq(x, k, v)
        return pc.invert(r) if name == "not=" else r
    if name in ("<", ">", "<=", ">="):
        if v is None:
            return _all_n(len(x), False)
        kv = kind(v)
        if kv in ("int", "float") and k in ("int", "float"):
            _mixed_exact(x, k, v, kv)
        elif not (kv == "str" and k == "str") and not (k == "null"):
            raise Fallback("where compares values that are not both numbers or both strings")
        if k == "null":
            return _all_n(len(x), False)
        r = _CMP[name](x, v)
        return r.fill_null(False) if r.null_count else r
    if name in ("in", "not-in"):
        if type(v) is not FSet:
            raise Fallback("where :in with a collection that is not a constant set")
        members = _members(v, k, by_value=True, by_name=True) if k not in ("null",) else []
        if members:
            r = pc.is_in(x, value_set=pa.array(members, type=x.type))
            r = r.fill_null(False) if r.null_count else r
        else:
            r = _all_n(len(x), False)
        if None in v:
            r = pc.or_(r, pc.is_null(x))
        return pc.invert(r) if name == "not-in" else r
    if name in ("starts-with", "ends-with", "contains"):
        if type(v) is not str or k not in ("str", "null"):
            raise Fallback(f"where :{name} on a column that is not strings")
        if k == "null":
            return _all_n(len(x), False)
        f = {"starts-with": pc.starts_with, "ends-with": pc.ends_with, "contains": pc.match_substring}[name]
        r = f(x, pattern=v)
        return r.fill_null(False) if r.null_count else r
    raise Fallback(f"where :{name} is not computed by kernels")


def _where_eq(x: Any, k: str, v: Any) -> Any:
    """where's =: Clojure = except that numbers compare by value (1 matches 1.0)."""
    kv = kind(v)
    if v is None:
        return pc.is_null(x)
    if kv == "kw":  # a keyword equals the string of its name (where's rule for JSON-like data)
        v, kv = v.name, "str"
    if kv in ("int", "float") and k in ("int", "float"):
        if kv == "float" and v != v:
            raise Fallback("where with a NaN value")
        members = _members(FSet([v]), k, by_value=True)
        if not members:
            return _all_n(len(x), False)
        r = pc.equal(x, members[0])
        return r.fill_null(False) if r.null_count else r
    if kv == "bool" and k in ("int", "float") or kv in ("int", "float") and k == "bool":
        raise Fallback("where compares booleans with numbers")
    if kv != k or kv not in _EQ_KINDS:
        if kv == "other" or (kv == "date" and type(v) is not datetime.date):
            raise Fallback("where := with a value kernels do not compare")
        return _all_n(len(x), False)
    r = pc.equal(x, v)
    return r.fill_null(False) if r.null_count else r
