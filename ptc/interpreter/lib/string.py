"""clojure.string (reachable as str/..., string/..., s/..., clojure.string/...)."""

from __future__ import annotations

from typing import Any

from .. import context
from ..context import check_string, tick
from ..errors import runtime_error
from ..registry import builtin
from ..values import MAP_TYPES, PACE, Regex, as_fn, iter_all, map_items, vec
from .core_numbers import describe
from .core_strings import SIZED_TYPES, join_texts, str_value
from .regex import Compiled, as_compiled, groups_of, iter_spans, search

NS = "clojure.string"
_NOARG: Any = object()
_SMALL = 256

# Java's Character.isWhitespace (no-break spaces are not whitespace)
JAVA_WS = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
_WS_SET = frozenset(JAVA_WS)


def _s(who: str, s: Any) -> str:
    if type(s) is str:
        return s
    raise runtime_error(f"{who}: expected a string, got {describe(s)}")


def _cap() -> int:
    return context.CURRENT.limits.max_string


def built(out: str, who: str) -> str:
    """A string a builtin made from its argument (case, trim, reverse of a data string can be
    longer than max_string, which bounds every string a program builds): refused past it."""
    if len(out) > _SMALL:
        check_string(len(out), who + " result")
    return out


def cased(who: str, s: str, case: Any) -> str:
    """s upper- or lower-cased: the result is never shorter, so s is measured before the copy
    is made; a few characters expand ("\ufb03" -> "FFI"), so the result is measured too."""
    if len(s) > _SMALL:
        check_string(len(s), who + " result")
    return built(case(s), who)


@builtin("join", pure=True, consumes=-1, column_op="join", ns=NS, args=("[coll]", "[separator coll]"), category="strings",
         doc="The string forms of the items of coll joined together, with an optional separator.",
         ex=(("(str/join \", \" [\"a\" \"b\" \"c\"])", "\"a, b, c\""), ("(str/join [1 2 3])", "\"123\""),
             ("(str/join \"-\" [1 nil :k])", "\"1--:k\"")))
def join(separator: Any, coll: Any = _NOARG) -> str:
    if type(separator) is str and type(coll) in SIZED_TYPES:
        return join_texts(coll, sep=separator)
    if coll is _NOARG:
        sep, coll = "", separator
    else:
        sep = separator if type(separator) is str else str_value(separator)
    return join_texts(iter_all(coll, "str/join"), sep=sep)


def _drop_trailing_empty(parts: list[str]) -> list[str]:
    n = len(parts)
    while n and not parts[n - 1]:
        n -= 1
    return parts[:n] if n != len(parts) else parts


def _limit_arg(limit: Any) -> int:
    if limit is _NOARG:
        return 0
    if type(limit) is int:
        return limit
    raise runtime_error(f"str/split: limit must be an integer, got {describe(limit)}")


def _too_many_parts(n: int) -> None:
    """Refuse a split into more parts than max_collection before the parts are made."""
    if n > context.CURRENT.limits.max_collection:
        context.check_size(n, "str/split result")


def _split_literal(s: str, lit: str, limit: int) -> list[str]:
    if len(s) > 4096:
        count = s.count(lit) + 1  # one pass in C: the size before the allocation
        _too_many_parts(count if limit <= 0 else min(count, limit))
    parts = s.split(lit, limit - 1) if limit > 0 else s.split(lit)
    if len(parts) == 1:
        return parts  # no match: the input itself (even when empty)
    if limit == 0:
        parts = _drop_trailing_empty(parts)
    return parts


def split_regex(s: str, c: Compiled, limit: int = 0) -> list[str]:
    """Java's Pattern.split (as clojure.string/split)."""
    if c.literal is not None:
        return _split_literal(s, c.literal, limit)
    out: list[str] = []
    index = 0
    for sp in iter_spans(c, s):
        start, end = sp[0]
        if limit <= 0 or len(out) < limit - 1:
            if index == 0 and start == 0 and end == 0:
                continue  # no leading empty string for a zero-width match at the start
            out.append(s[index:start])
            index = end
            if not len(out) & 65535:
                _too_many_parts(len(out))
        else:
            out.append(s[index:])
            return out
    if index == 0:
        return [s]
    out.append(s[index:])
    if limit == 0:
        out = _drop_trailing_empty(out)
    return out


@builtin("split", pure=True, ns=NS, args=("[s re]", "[s re limit]"), category="strings",
         doc="Splits s on a regex (a string separator is matched literally) into a vector; trailing empty "
             "strings are dropped. With limit, at most limit parts.",
         ex=(("(str/split \"a,b,,c,,\" #\",\")", "[\"a\" \"b\" \"\" \"c\"]"),
             ("(str/split \"a  b c\" #\"\\s+\")", "[\"a\" \"b\" \"c\"]"),
             ("(str/split \"a,b,c\" #\",\" 2)", "[\"a\" \"b,c\"]")))
def split(s: Any, re: Any, limit: Any = _NOARG) -> Any:
    if type(s) is str and type(re) is Regex and limit is _NOARG and type(re.compiled) is Compiled \
            and re.compiled.literal and len(s) < 4096:  # a short text split on a literal
        parts = s.split(re.compiled.literal)  # a fresh list nobody else holds: a vector as host lists are
        return _drop_trailing_empty(parts) if len(parts) > 1 else parts
    s = _s("str/split", s)
    n = _limit_arg(limit)
    if type(re) is str:
        parts = _split_literal(s, re, n) if re else split_regex(s, as_compiled(re, "str/split"), n)
    elif type(re) is Regex:
        parts = split_regex(s, as_compiled(re, "str/split"), n)
    else:
        raise runtime_error(f"str/split: expected a regex or string separator, got {describe(re)}")
    if len(parts) > 4096:
        context.check_size(len(parts), "str/split result")
    return vec(parts)


@builtin("split-lines", ns=NS, args="[s]", category="strings",
         doc="Splits s on \\n or \\r\\n into a vector of lines (trailing empty lines dropped).",
         ex=(("(str/split-lines \"a\\nb\\r\\nc\\n\")", "[\"a\" \"b\" \"c\"]"),))
def split_lines(s: Any) -> Any:
    s = _s("str/split-lines", s)
    parts = s.split("\n")
    if len(parts) == 1:
        return vec(parts)
    last = len(parts) - 1
    parts = [p[:-1] if i < last and p.endswith("\r") else p for i, p in enumerate(parts)]
    parts = _drop_trailing_empty(parts)
    if len(parts) > 4096:
        context.check_size(len(parts), "str/split-lines result")
    return vec(parts)


# -- replace ------------------------------------------------------------------------------


def _template(who: str, t: str, c: Compiled) -> list[Any]:
    """Java replacement syntax: $n / ${name} are groups, backslash escapes the next character."""
    pieces: list[Any] = []
    buf: list[str] = []
    i, n = 0, len(t)
    while i < n:
        ch = t[i]
        if ch == "\\":
            i += 1
            if i >= n:
                raise runtime_error(f"{who}: character to be escaped is missing at the end of the replacement",
                                    hint="use str/re-quote-replacement for literal replacements")
            buf.append(t[i])
            i += 1
        elif ch == "$":
            i += 1
            if i >= n:
                raise runtime_error(f"{who}: illegal group reference: group index is missing after $",
                                    hint="write \\\\$ for a literal dollar sign")
            if t[i] == "{":
                end = t.find("}", i)
                if end < 0:
                    raise runtime_error(f"{who}: named group reference is missing a trailing }}")
                gname = t[i + 1:end]
                if gname not in c.groupindex:
                    raise runtime_error(f"{who}: no group with name {{{gname}}}")
                g = c.groupindex[gname]
                i = end + 1
            else:
                d = t[i]
                if not ("0" <= d <= "9"):
                    raise runtime_error(f"{who}: illegal group reference in replacement",
                                        hint="write \\\\$ for a literal dollar sign")
                g = ord(d) - 48
                i += 1
                while i < n and "0" <= t[i] <= "9":
                    ng = g * 10 + ord(t[i]) - 48
                    if ng > c.groups:
                        break
                    g = ng
                    i += 1
                if g > c.groups:
                    raise runtime_error(f"{who}: no group {g} in regex")
            if buf:
                pieces.append("".join(buf))
                buf = []
            pieces.append(g)
        else:
            buf.append(ch)
            i += 1
    if buf:
        pieces.append("".join(buf))
    return pieces


def _expand(pieces: list[Any], s: str, sp: Any) -> str:
    out = []
    for p in pieces:
        if type(p) is str:
            out.append(p)
        else:
            a, b = sp[p]
            if a >= 0:
                out.append(s[a:b])
    return "".join(out)


def _replace_literal(who: str, s: str, match: str, rep: str, count: int) -> str:
    if count < 0:
        n = s.count(match) if match else len(s) + 1
    else:
        n = 1 if match in s else 0
    if not n:
        return s
    size = len(s) + n * (len(rep) - len(match))
    if size > _SMALL:
        check_string(size)
    return s.replace(match, rep, count)


def _replace_regex(who: str, s: str, c: Compiled, rep: Any, first: bool) -> str:
    if type(rep) is str:
        if c.literal is not None and "$" not in rep and "\\" not in rep:
            return _replace_literal(who, s, c.literal, rep, 1 if first else -1)
        fn = None
    else:
        fn = as_fn(rep, who)
    out: list[str] = []
    total = 0
    cap = _cap()
    pos = 0
    pieces: list[Any] | None = None
    spans = iter_spans(c, s) if not first else iter((search(c, s),))
    for sp in spans:
        if sp is None:
            break
        a, b = sp[0]
        if fn is None:
            if pieces is None:
                pieces = _template(who, rep, c)
            r = _expand(pieces, s, sp)
        else:
            r = fn(groups_of(s, sp))
            if type(r) is not str:
                r = str_value(r)
        out.append(s[pos:a])
        out.append(r)
        total += (a - pos) + len(r)
        if total > cap:
            check_string(total)
        pos = b
    if not out:
        return s
    out.append(s[pos:])
    total += len(s) - pos
    if total > _SMALL:
        check_string(total)
    return "".join(out)


def _replace(who: str, s: Any, match: Any, replacement: Any, first: bool) -> str:
    s = _s(who, s)
    tm = type(match)
    if tm is str:
        if type(replacement) is not str:
            raise runtime_error(f"{who}: a string match needs a string replacement, got {describe(replacement)}",
                                hint="use a regex match (#\"...\") to replace with a function")
        return _replace_literal(who, s, match, replacement, 1 if first else -1)
    if tm is Regex:
        if replacement is None:
            raise runtime_error(f"{who}: replacement must be a string or a function, got nil")
        return _replace_regex(who, s, as_compiled(match, who), replacement, first)
    raise runtime_error(f"{who}: match must be a string, character or regex, got {describe(match)}")


@builtin("replace", ns=NS, args="[s match replacement]", category="strings",
         doc="Replaces every match in s. match is a string (literal) or a regex; with a regex the "
             "replacement may use $1 for groups, or be a function of the match (as re-find returns it).",
         ex=(("(str/replace \"a.b.c\" \".\" \"-\")", "\"a-b-c\""),
             ("(str/replace \"a1b22\" #\"\\d+\" \"#\")", "\"a#b#\""),
             ("(str/replace \"2024-01-31\" #\"(\\d+)-(\\d+)-(\\d+)\" \"$3/$2/$1\")", "\"31/01/2024\""),
             ("(str/replace \"hello world\" #\"o\" (fn [m] (str/upper-case m)))", "\"hellO wOrld\"")))
def replace(s: Any, match: Any, replacement: Any) -> str:
    return _replace("str/replace", s, match, replacement, False)


@builtin("replace-first", ns=NS, args="[s match replacement]", category="strings",
         doc="Like str/replace, but replaces only the first match.",
         ex=(("(str/replace-first \"a.b.c\" \".\" \"-\")", "\"a-b.c\""),
             ("(str/replace-first \"a1b2\" #\"\\d\" \"#\")", "\"a#b2\"")))
def replace_first(s: Any, match: Any, replacement: Any) -> str:
    return _replace("str/replace-first", s, match, replacement, True)


@builtin("re-quote-replacement", ns=NS, args="[replacement]", category="strings",
         doc="Escapes $ and \\ so the string is used literally as a regex replacement.",
         ex=(("(str/re-quote-replacement \"$1\")", "\"\\\\$1\""),))
def re_quote_replacement(replacement: Any) -> str:
    r = _s("str/re-quote-replacement", replacement)
    if "\\" not in r and "$" not in r:
        return r
    out = r.replace("\\", "\\\\").replace("$", "\\$")
    if len(out) > _SMALL:
        check_string(len(out))
    return out


# -- case, trimming, predicates ------------------------------------------------------------


@builtin("upper-case", column_op="upper", ns=NS, args="[s]", category="strings", doc="s in upper case.",
         ex=(("(str/upper-case \"abc\")", "\"ABC\""),))
def upper_case(s: Any) -> str:
    return cased("str/upper-case", _s("str/upper-case", s), str.upper)


@builtin("lower-case", column_op="lower", ns=NS, args="[s]", category="strings", doc="s in lower case.",
         ex=(("(str/lower-case \"ABC\")", "\"abc\""),))
def lower_case(s: Any) -> str:
    return cased("str/lower-case", _s("str/lower-case", s), str.lower)


@builtin("capitalize", ns=NS, args="[s]", category="strings",
         doc="s with its first character upper-cased and the rest lower-cased.",
         ex=(("(str/capitalize \"hELLO\")", "\"Hello\""),))
def capitalize(s: Any) -> str:
    s = _s("str/capitalize", s)
    return cased("str/capitalize", s, lambda t: t.upper() if len(t) < 2 else t[0].upper() + t[1:].lower())


@builtin("trim", ns=NS, args="[s]", category="strings", doc="s without leading and trailing whitespace.",
         ex=(("(str/trim \"  a b \\n\")", "\"a b\""),))
def trim(s: Any) -> str:
    return built(_s("str/trim", s).strip(JAVA_WS), "str/trim")


@builtin("triml", ns=NS, args="[s]", category="strings", doc="s without leading whitespace.",
         ex=(("(str/triml \"  a \")", "\"a \""),))
def triml(s: Any) -> str:
    return built(_s("str/triml", s).lstrip(JAVA_WS), "str/triml")


@builtin("trimr", ns=NS, args="[s]", category="strings", doc="s without trailing whitespace.",
         ex=(("(str/trimr \"  a \")", "\"  a\""),))
def trimr(s: Any) -> str:
    return built(_s("str/trimr", s).rstrip(JAVA_WS), "str/trimr")


@builtin("trim-newline", ns=NS, args="[s]", category="strings", doc="s without trailing newline and return characters.",
         ex=(("(str/trim-newline \"line\\r\\n\")", "\"line\""),))
def trim_newline(s: Any) -> str:
    return built(_s("str/trim-newline", s).rstrip("\r\n"), "str/trim-newline")


@builtin("blank?", ns=NS, args="[s]", category="strings", doc="True if s is nil, empty, or only whitespace.",
         ex=(("(str/blank? \"  \")", "true"), ("(str/blank? nil)", "true"), ("(str/blank? \"a\")", "false")))
def blank_p(s: Any) -> bool:
    if s is None:
        return True
    s = _s("str/blank?", s)
    return not s.strip(JAVA_WS)


@builtin("starts-with?", column_op="starts-with?", ns=NS, args="[s substr]", category="strings", doc="True if s starts with substr.",
         ex=(("(str/starts-with? \"hello\" \"he\")", "true"),))
def starts_with_p(s: Any, substr: Any) -> bool:
    return _s("str/starts-with?", s).startswith(_s("str/starts-with?", substr))


@builtin("ends-with?", column_op="ends-with?", ns=NS, args="[s substr]", category="strings", doc="True if s ends with substr.",
         ex=(("(str/ends-with? \"hello\" \"lo\")", "true"),))
def ends_with_p(s: Any, substr: Any) -> bool:
    return _s("str/ends-with?", s).endswith(_s("str/ends-with?", substr))


@builtin("includes?", column_op="includes?", ns=NS, args="[s substr]", category="strings", doc="True if s contains substr.",
         ex=(("(str/includes? \"hello\" \"ell\")", "true"), ("(str/includes? \"hello\" \"z\")", "false")))
def includes_p(s: Any, substr: Any) -> bool:
    return _s("str/includes?", substr) in _s("str/includes?", s)


def _from(who: str, i: Any) -> int:
    if type(i) is int:
        return i
    raise runtime_error(f"{who}: from-index must be an integer, got {describe(i)}")


@builtin("index-of", ns=NS, args=("[s value]", "[s value from-index]"), category="strings",
         doc="Index of the first occurrence of value (string or character) in s, at or after from-index; nil if absent.",
         ex=(("(str/index-of \"abcb\" \"b\")", "1"), ("(str/index-of \"abcb\" \"b\" 2)", "3"),
             ("(str/index-of \"abc\" \"z\")", "nil")))
def index_of(s: Any, value: Any, from_index: Any = _NOARG) -> int | None:
    s = _s("str/index-of", s)
    v = _s("str/index-of", value)
    start = 0 if from_index is _NOARG else max(0, _from("str/index-of", from_index))
    i = s.find(v, min(start, len(s)))
    return None if i < 0 else i


@builtin("last-index-of", ns=NS, args=("[s value]", "[s value from-index]"), category="strings",
         doc="Index of the last occurrence of value in s, at or before from-index; nil if absent.",
         ex=(("(str/last-index-of \"abcb\" \"b\")", "3"), ("(str/last-index-of \"abcb\" \"b\" 2)", "1")))
def last_index_of(s: Any, value: Any, from_index: Any = _NOARG) -> int | None:
    s = _s("str/last-index-of", s)
    v = _s("str/last-index-of", value)
    if from_index is _NOARG:
        i = s.rfind(v)
    else:
        f = _from("str/last-index-of", from_index)
        if f < 0:
            return None
        i = s.rfind(v, 0, min(len(s), f + len(v)))
    return None if i < 0 else i


@builtin("reverse", ns=NS, args="[s]", category="strings", doc="s with its characters in reverse order.",
         ex=(("(str/reverse \"abc\")", "\"cba\""),))
def reverse(s: Any) -> str:
    return built(_s("str/reverse", s)[::-1], "str/reverse")


@builtin("escape", ns=NS, args="[s cmap]", category="strings",
         doc="s with every character c replaced by (cmap c) when that is not nil (cmap: a map or function).",
         ex=(("(str/escape \"a<b>\" {\\< \"&lt;\" \\> \"&gt;\"})", "\"a&lt;b&gt;\""),))
def escape(s: Any, cmap: Any) -> str:
    s = _s("str/escape", s)
    cap = _cap()
    if type(cmap) in MAP_TYPES:
        table: dict[int, str] = {}
        for k, v in map_items(cmap):
            if type(k) is str and len(k) == 1 and v is not None:
                table[ord(k)] = v if type(v) is str else str_value(v)
        if len(s) <= PACE:
            return built(s.translate(table), "str/escape")
        blocks: list[str] = []  # a large s a block at a time: its result is measured as it grows
        total = 0
        for i in range(0, len(s), PACE):
            blocks.append(s[i:i + PACE].translate(table))
            total += len(blocks[-1])
            if total > cap:
                check_string(total, "str/escape result")
            context.check_deadline()
        return built("".join(blocks), "str/escape")
    f = as_fn(cmap, "str/escape")
    parts: list[str] = []
    total = 0
    for i, ch in enumerate(s):
        r = f(ch)
        if r is None:
            parts.append(ch)
            total += 1
        else:
            r = r if type(r) is str else str_value(r)
            parts.append(r)
            total += len(r)
            if total > cap:
                check_string(total)
        if (i & 4095) == 4095:
            tick(4096)
    if total > _SMALL:
        check_string(total)
    return "".join(parts)


__all__ = ["JAVA_WS", "split_regex", "join", "split", "replace"]
