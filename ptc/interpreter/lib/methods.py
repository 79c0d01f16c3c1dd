"""Java instance methods as models write them, `(.toUpperCase s)`: each a plain builtin.

There is no reflection: `.toUpperCase` is the builtin registered under that name, and it
looks the type of its first argument up in its own table of implementations (strings here,
numbers and collections for a few, dates in java_time.py). A type not in the table is a
runtime error naming the types the method works on; a method name not registered at all is
an analysis error naming the supported ones close to it (analyzer._interop). No host object
is ever reachable: the implementations take and return PTC values only.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable

from .. import dates
from ..context import check_size, check_string
from ..errors import runtime_error
from ..registry import REGISTRY, builtin
from ..values import (
    MAP_TYPES, SET_TYPES, VECTOR_TYPES, Keyword, LazySeq, PList, Regex, Symbol, equals, iter_all, vec,
)
from .core_numbers import compare_values, describe
from .core_strings import str_value
from .regex import as_compiled, fullmatch
from .string import JAVA_WS, built, cased, _replace_literal, _replace_regex, split_regex

STR = (str,)
NUM = (int, float)
COLLS = tuple(VECTOR_TYPES) + (PList, LazySeq) + tuple(SET_TYPES)
ANY = STR + NUM + COLLS + tuple(MAP_TYPES) + (bool, Keyword, Symbol, Regex) + tuple(dates.TYPES)

_TABLES: dict[str, dict[type, Callable[..., Any]]] = {}


def _kinds(types: Iterable[type]) -> str:
    names: list[str] = []
    for t in types:
        name = {str: "string", int: "number", float: "number", dates.LocalDate: "LocalDate",
                dates.DateTime: "LocalDateTime/Instant", dates.LocalTime: "LocalTime", dates.Duration: "Duration",
                dates.JavaEnum: "ChronoUnit", dates.DateTimeFormatter: "DateTimeFormatter"}.get(t) or ("collection" if t in COLLS or t in MAP_TYPES else t.__name__)
        if name not in names:
            names.append(name)
    return ", ".join(names)


def method(name: str, on: tuple[type, ...], args: str | tuple[str, ...], doc: str, ex: Any = (),
           category: str = "interop", column_op: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register fn as the `.name` method for values of the types `on`.

    The first registration of a name makes its builtin (with doc, arglists and examples); a
    later one for other types only adds to its table (pass doc="" then)."""
    key = "." + name

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__qualname__ = "ptc:" + key  # Python's arity errors name the method
        table = _TABLES.get(key)
        if table is None:
            table = _TABLES[key] = {}
            _register(key, table, args, doc, ex, category, column_op)
        for t in on:
            table[t] = fn
        return fn

    return deco


def _register(key: str, table: dict[type, Callable[..., Any]], args: str | tuple[str, ...], doc: str, ex: Any,
              category: str, column_op: str | None) -> None:
    def call(target: Any, *more: Any) -> Any:
        impl = table.get(type(target))
        if impl is None:
            what = "nil" if target is None else describe(target)
            raise runtime_error(f"({key} x): no method {key} for {what}",
                                hint=f"{key} works on {_kinds(table)}")
        return impl(target, *more)

    builtin(key, args=args, category=category, doc=doc, ex=ex, column_op=column_op)(call)


# -- Object --------------------------------------------------------------------------


@method("toString", ANY, "[x]", "x as a string (the same as str; a date gives its ISO text).",
        (('(.toString 42)', '"42"'), ('(.toString :k)', '":k"')))
def to_string(x: Any) -> str:
    return str_value(x)


@method("equals", ANY, "[x y]", "True if x equals y (the same as =).", (('(.equals "a" "a")', "true"),))
def equals_(x: Any, y: Any) -> bool:
    return equals(x, y)


@method("compareTo", STR + NUM + tuple(dates.TYPES), "[x y]",
        "Negative, zero or positive as x is less than, equal to or greater than y (the same as compare).",
        (('(.compareTo "a" "b")', "-1"), ("(.compareTo 5 3)", "1")))
def compare_to(x: Any, y: Any) -> int:
    return compare_values(x, y)


# -- String ----------------------------------------------------------------------------

_TRIM = "".join(chr(i) for i in range(33))  # Java's String.trim: every character <= U+0020


def _str(who: str, x: Any) -> str:
    if type(x) is str:
        return x
    raise runtime_error(f"({who} s ...): expected a string argument, got {describe(x)}")


def _int(who: str, x: Any) -> int:
    if type(x) is int:
        return x
    raise runtime_error(f"({who} s ...): expected an integer index, got {describe(x)}")


@method("toUpperCase", STR, "[s]", "s in upper case (as clojure.string/upper-case).",
        (('(.toUpperCase "abc")', '"ABC"'),))
def to_upper(s: str) -> str:
    return cased(".toUpperCase", s, str.upper)


@method("toLowerCase", STR, "[s]", "s in lower case.", (('(.toLowerCase "AbC")', '"abc"'),))
def to_lower(s: str) -> str:
    return cased(".toLowerCase", s, str.lower)


@method("trim", STR, "[s]", "s without leading and trailing spaces and control characters.",
        (('(.trim "  a b ")', '"a b"'),))
def trim(s: str) -> str:
    return built(s.strip(_TRIM), ".trim")


@method("strip", STR, "[s]", "s without leading and trailing whitespace.", (('(.strip " a ")', '"a"'),))
def strip(s: str) -> str:
    return built(s.strip(JAVA_WS), ".strip")


@method("length", STR, "[s]", "The number of characters of s.", (('(.length "hello")', "5"),))
def length(s: str) -> int:
    return len(s)


@method("isEmpty", STR, "[s]", "True if s (or a collection) is empty.", (('(.isEmpty "")', "true"),))
def is_empty(s: Any) -> bool:
    return len(s) == 0


@method("isBlank", STR, "[s]", "True if s is empty or only whitespace.", (('(.isBlank "  ")', "true"),))
def is_blank(s: str) -> bool:
    return not s.strip(JAVA_WS)


@method("contains", STR, "[s x]", "True if string s contains the string x (or a collection contains x).",
        (('(.contains "hello" "ell")', "true"), ("(.contains [1 2 3] 2)", "true")))
def contains(s: str, x: Any) -> bool:
    return _str(".contains", x) in s


@method("startsWith", STR, ("[s prefix]", "[s prefix offset]"), "True if s starts with prefix (at offset).",
        (('(.startsWith "hello" "he")', "true"),))
def starts_with(s: str, prefix: Any, offset: Any = 0) -> bool:
    o = _int(".startsWith", offset)
    return o >= 0 and s.startswith(_str(".startsWith", prefix), o)


@method("endsWith", STR, "[s suffix]", "True if s ends with suffix.", (('(.endsWith "hello" "lo")', "true"),))
def ends_with(s: str, suffix: Any) -> bool:
    return s.endswith(_str(".endsWith", suffix))


@method("indexOf", STR, ("[s x]", "[s x from]"),
        "The index of the first x in s (from index from), or -1; on a vector or list, of the first item equal to x.",
        (('(.indexOf "banana" "an")', "1"), ('(.indexOf "banana" "x")', "-1"), ("(.indexOf [5 6 7] 7)", "2")))
def index_of(s: str, x: Any, start: Any = 0) -> int:
    return s.find(_str(".indexOf", x), max(0, _int(".indexOf", start)))


@method("lastIndexOf", STR, ("[s x]", "[s x from]"), "The index of the last x in s (at or before from), or -1.",
        (('(.lastIndexOf "banana" "an")', "3"),))
def last_index_of(s: str, x: Any, start: Any = None) -> int:
    x = _str(".lastIndexOf", x)
    if start is None:
        return s.rfind(x)
    end = _int(".lastIndexOf", start)
    return -1 if end < 0 else s.rfind(x, 0, end + len(x))


@method("substring", STR, ("[s begin]", "[s begin end]"),
        "The characters of s from begin (inclusive) to end (exclusive); an error outside the string.",
        (('(.substring "hello" 1 3)', '"el"'), ('(.substring "hello" 2)', '"llo"')))
def substring(s: str, begin: Any, end: Any = None) -> str:
    b = _int(".substring", begin)
    e = len(s) if end is None else _int(".substring", end)
    if not 0 <= b <= e <= len(s):
        raise runtime_error(f"(.substring s {b} {e}): out of range for a string of length {len(s)}")
    return s[b:e]


@method("charAt", STR, "[s i]", "The character at index i (an error outside the string).",
        (('(.charAt "abc" 1)', '"b"'),))
def char_at(s: str, i: Any) -> str:
    i = _int(".charAt", i)
    if not 0 <= i < len(s):
        raise runtime_error(f"(.charAt s {i}): index out of range for a string of length {len(s)}")
    return s[i]


@method("codePointAt", STR, "[s i]", "The code of the character at index i.", (('(.codePointAt "abc" 0)', "97"),))
def code_point_at(s: str, i: Any) -> int:
    return ord(char_at(s, i))


@method("toCharArray", STR, "[s]", "The characters of s, as a vector.", (('(.toCharArray "ab")', '["a" "b"]'),))
def to_char_array(s: str) -> Any:
    check_size(len(s), ".toCharArray result")
    return vec(list(s))


@method("replace", STR, "[s target replacement]", "s with every target replaced, literally (not a regex).",
        (('(.replace "a.b.c" "." "-")', '"a-b-c"'),))
def replace(s: str, target: Any, replacement: Any) -> str:
    return _replace_literal(".replace", s, _str(".replace", target), str_value(replacement), -1)


@method("replaceAll", STR, "[s regex replacement]", "s with every match of the regex replaced ($1 for groups).",
        (('(.replaceAll "a1b22" "\\\\d+" "#")', '"a#b#"'),))
def replace_all(s: str, regex: Any, replacement: Any) -> str:
    return _replace_regex(".replaceAll", s, as_compiled(regex, ".replaceAll"), _str(".replaceAll", replacement), False)


@method("replaceFirst", STR, "[s regex replacement]", "s with the first match of the regex replaced.",
        (('(.replaceFirst "a1b22" "\\\\d+" "#")', '"a#b22"'),))
def replace_first(s: str, regex: Any, replacement: Any) -> str:
    return _replace_regex(".replaceFirst", s, as_compiled(regex, ".replaceFirst"), _str(".replaceFirst", replacement),
                          True)


@method("split", STR, ("[s regex]", "[s regex limit]"),
        "Splits s around matches of the regex (a string is a regex, as in Java) into a vector; trailing "
        "empty strings are dropped.", (('(.split "a,b,,c,," ",")', '["a" "b" "" "c"]'),
                                       ('(vec (.split "a1b22c" "\\\\d+"))', '["a" "b" "c"]')))
def split(s: str, regex: Any, limit: Any = 0) -> Any:
    parts = split_regex(s, as_compiled(regex, ".split"), _int(".split", limit))
    if len(parts) > 4096:
        check_size(len(parts), ".split result")
    return vec(parts)


@method("matches", STR, "[s regex]", "True if the whole of s matches the regex.",
        (('(.matches "abc123" "[a-z]+\\\\d+")', "true"),))
def matches(s: str, regex: Any) -> bool:
    return fullmatch(as_compiled(regex, ".matches"), s) is not None


@method("equalsIgnoreCase", STR, "[s other]", "True if s equals other, ignoring case.",
        (('(.equalsIgnoreCase "Abc" "aBC")', "true"),))
def equals_ignore_case(s: str, other: Any) -> bool:
    return type(other) is str and (s == other or s.upper().lower() == other.upper().lower())


@method("compareToIgnoreCase", STR, "[s other]", "compareTo, ignoring case.",
        (('(.compareToIgnoreCase "a" "B")', "-1"),))
def compare_to_ignore_case(s: str, other: Any) -> int:
    return compare_values(s.upper().lower(), _str(".compareToIgnoreCase", other).upper().lower())


@method("concat", STR, "[s other]", "s followed by other.", (('(.concat "ab" "cd")', '"abcd"'),))
def concat(s: str, other: Any) -> str:
    other = _str(".concat", other)
    if len(s) + len(other) > 256:
        check_string(len(s) + len(other), ".concat result")
    return s + other


@method("repeat", STR, "[s n]", "s repeated n times.", (('(.repeat "ab" 3)', '"ababab"'),))
def repeat(s: str, n: Any) -> str:
    n = _int(".repeat", n)
    if n < 0:
        raise runtime_error(f"(.repeat s {n}): count is negative")
    check_string(len(s) * n)
    return s * n


# -- numbers ---------------------------------------------------------------------------


@method("intValue", NUM, "[n]", "n as an integer (truncated).", (("(.intValue 3.7)", "3"),))
def int_value(n: Any) -> int:
    if type(n) is float and not math.isfinite(n):
        return 0 if n != n else (2147483647 if n > 0 else -2147483648)
    return int(n)


@method("longValue", NUM, "[n]", "n as an integer (truncated).", (("(.longValue 3.7)", "3"),))
def long_value(n: Any) -> int:
    return int_value(n)


@method("doubleValue", NUM, "[n]", "n as a float.", (("(.doubleValue 3)", "3.0"),))
def double_value(n: Any) -> float:
    from .core_numbers import to_float

    return to_float(n)


# -- collections (java.util.List, Set, Map methods Clojure's collections answer) ---------


@method("contains", COLLS, "", "")
def coll_contains(c: Any, x: Any) -> bool:
    if type(c) in SET_TYPES:
        from ..values import pset

        return x in pset(c) if type(x) is not float or x == x else False
    return any(equals(i, x) for i in iter_all(c, ".contains"))


@method("indexOf", tuple(VECTOR_TYPES) + (PList, LazySeq), "", "")
def coll_index_of(c: Any, x: Any) -> int:
    for i, item in enumerate(iter_all(c, ".indexOf")):
        if equals(item, x):
            return i
    return -1


@method("size", COLLS + tuple(MAP_TYPES), "[coll]", "The number of items of coll (the same as count).",
        (("(.size [1 2 3])", "3"),))
def size(c: Any) -> int:
    from ..values import count

    return count(c)


method("isEmpty", COLLS + tuple(MAP_TYPES), "", "")(lambda c: size(c) == 0)


@method("getMessage", tuple(MAP_TYPES), "[e]", "The message of a caught error (the same as ex-message).",
        (('(try (throw (ex-info "boom" {})) (catch Exception e (.getMessage e)))', '"boom"'),))
def get_message(e: Any) -> Any:
    from .exceptions import ex_message

    return ex_message(e)


def method_names_like(name: str) -> list[str]:
    """Registered method names close to `.name` (for the analyzer's error)."""
    from ..errors import suggest

    return suggest("." + name, [k for k in REGISTRY if k.startswith(".")])


__all__ = ["method", "method_names_like"]
