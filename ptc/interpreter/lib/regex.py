"""Regular expressions on RE2 (linear time: no catastrophic backtracking).

Programs write Java regex syntax (`#"\\d+"`); `compile_regex` translates the parts RE2
spells differently (`\\uFFFF`, `\\p{Alpha}`, `\\h`, `\\R`, `\\Z`...) and refuses, with a clear
message, what a non-backtracking engine cannot do (backreferences, lookaround,
possessive quantifiers, atomic groups).

`values.Regex.compiled` holds a `Compiled` (below); string functions use the helpers
`search`, `fullmatch`, `iter_spans` and `groups_of` rather than the re2 API directly.
"""

from __future__ import annotations

from typing import Any, Iterator

import re2

from .. import context
from ..context import check_size, tick
from ..errors import PTCError, limit_error, runtime_error
from ..registry import builtin
from ..values import PList, Regex, short, type_name, vec

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False
# The fast path calls the C++ RE2 object directly on ASCII text (5x faster than the
# wrapper); it uses private names of google-re2 and falls back to the public API.
_ANCHOR = getattr(re2, "_Anchor", None)
_UNANCHORED = getattr(_ANCHOR, "UNANCHORED", None)
_ANCHOR_BOTH = getattr(_ANCHOR, "ANCHOR_BOTH", None)
_NULL = (-1, -1)


class Compiled:
    """A compiled RE2 program plus what the string functions need to know about it."""

    __slots__ = ("rx", "raw", "groups", "groupindex", "literal")

    def __init__(self, rx: Any, literal: str | None) -> None:
        self.rx = rx  # re2._Regexp (public API, handles non-ASCII offsets)
        raw = getattr(rx, "_regexp", None)  # the C++ RE2 object (fast path for ASCII text)
        self.raw = raw if (raw is not None and _ANCHOR_BOTH is not None and hasattr(raw, "Match")) else None
        self.groups: int = rx.groups
        self.groupindex: dict[str, int] = dict(rx.groupindex)
        self.literal = literal  # the text matched, when the pattern is a plain literal


_CACHE: dict[str, Compiled] = {}
_CACHE_MAX = 512


def _unsupported(source: str, what: str, backtracking: bool = True) -> PTCError:
    why = " (RE2 has no backtracking)" if backtracking else ""
    return runtime_error(
        f"regex #\"{source}\": {what} not supported{why}",
        hint="rewrite without it, e.g. match more and post-process with re-find groups or filter"
        if backtracking else None,
    )


_POSIX = {
    "Lower": "[:lower:]", "Upper": "[:upper:]", "ASCII": "\\x00-\\x7F", "Alpha": "[:alpha:]",
    "Digit": "[:digit:]", "Alnum": "[:alnum:]", "Punct": "[:punct:]", "Graph": "[:graph:]",
    "Print": "[:print:]", "Blank": "[:blank:]", "Cntrl": "[:cntrl:]", "XDigit": "[:xdigit:]",
    "Space": "[:space:]", "javaLowerCase": "\\p{Ll}", "javaUpperCase": "\\p{Lu}",
    "javaWhitespace": "\\t-\\r\\x{1C}-\\x{1F} ", "IsAlphabetic": "\\p{L}\\p{Nl}",
    "IsLetter": "\\p{L}", "IsDigit": "\\p{Nd}", "IsUppercase": "\\p{Lu}", "IsLowercase": "\\p{Ll}",
    "IsWhite_Space": "\\s\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}",
    "IsPunctuation": "\\p{P}",
}
_H_CLASS = "\\t \\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}"
_V_CLASS = "\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}"
_META = set("\\^$.|?*+()[]{}")
_SIMPLE_ESC = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "e": "\x1b", "a": "\x07"}


def _translate(src: str) -> tuple[str, str | None]:
    """Java regex syntax -> RE2 syntax; also returns the literal text if the pattern is one."""
    out: list[str] = []
    lit: list[str] | None = []
    i, n = 0, len(src)
    in_class = False
    class_start = False
    prev_quant = False
    while i < n:
        c = src[i]
        if c == "\\":
            if i + 1 >= n:
                raise runtime_error(f"regex #\"{src}\": trailing backslash")
            d = src[i + 1]
            i += 2
            quant = False
            if d == "Q":
                end = src.find("\\E", i)
                text = src[i:] if end < 0 else src[i:end]
                i = n if end < 0 else end + 2
                for ch in text:
                    out.append(ch if (ch.isalnum() or ch == "_" or ord(ch) > 127) else "\\" + ch)
                    if lit is not None:
                        lit.append(ch)
                prev_quant = False
                class_start = False
                continue
            if d.isdigit() and d != "0":
                raise _unsupported(src, "backreferences (\\" + d + ") are")
            if d == "k" and i < n and src[i] == "<":
                raise _unsupported(src, "named backreferences (\\k<...>) are")
            if d in "GX" or (d == "b" and i < n and src[i] == "{"):
                raise _unsupported(src, "\\" + d + " is", False)
            if lit is not None:
                if d in _SIMPLE_ESC:
                    lit.append(_SIMPLE_ESC[d])
                elif not d.isalnum() and ord(d) < 128:
                    lit.append(d)
                else:
                    lit = None
            if d == "0":  # octal \0n, \0nn, \0mnn
                j = i
                while j < n and j < i + 3 and src[j] in "01234567":
                    j += 1
                digits = src[i:j]
                if len(digits) == 3 and digits[0] > "3":
                    digits = digits[:2]
                if not digits:
                    raise runtime_error(f"regex #\"{src}\": illegal octal escape")
                i += len(digits)
                out.append("\\x{%X}" % int(digits, 8))
            elif d == "u":
                hexd = src[i:i + 4]
                if len(hexd) != 4 or any(h not in "0123456789abcdefABCDEF" for h in hexd):
                    raise runtime_error(f"regex #\"{src}\": illegal unicode escape")
                i += 4
                out.append("\\x{" + hexd + "}")
            elif d == "Z":
                out.append("\\z")
            elif d == "e":
                out.append("\\x1B")
            elif d == "c":
                if i >= n:
                    raise runtime_error(f"regex #\"{src}\": illegal control escape")
                out.append("\\x{%X}" % (ord(src[i]) ^ 64))
                i += 1
            elif d == "h":
                out.append(_H_CLASS if in_class else "[" + _H_CLASS + "]")
            elif d == "H":
                if in_class:
                    raise _unsupported(src, "\\H inside a character class is", False)
                out.append("[^" + _H_CLASS + "]")
            elif d == "v":
                out.append(_V_CLASS if in_class else "[" + _V_CLASS + "]")
            elif d == "V":
                if in_class:
                    raise _unsupported(src, "\\V inside a character class is", False)
                out.append("[^" + _V_CLASS + "]")
            elif d == "R":
                if in_class:
                    raise runtime_error(f"regex #\"{src}\": \\R is not allowed in a character class")
                out.append("(?:\\r\\n|[" + _V_CLASS + "])")
            elif d in "pP":
                if i < n and src[i] == "{":
                    end = src.find("}", i)
                    if end < 0:
                        raise runtime_error(f"regex #\"{src}\": unclosed \\{d}{{...}}")
                    name = src[i + 1:end]
                    i = end + 1
                else:
                    name = src[i:i + 1]
                    i += 1
                posix = _POSIX.get(name)
                if posix is None and name.startswith("Is"):
                    name = name[2:]
                if posix is None and name.startswith("In"):
                    raise _unsupported(src, f"unicode block \\{d}{{{name}}} is", False)
                if posix is not None:
                    if in_class:
                        if d == "P":
                            if posix.startswith("[:"):
                                out.append("[:^" + posix[2:])
                            else:
                                raise _unsupported(src, f"\\P{{{name}}} inside a character class is", False)
                        else:
                            out.append(posix)
                    else:
                        out.append(("[^" if d == "P" else "[") + posix + "]")
                else:
                    out.append("\\" + d + "{" + name + "}")
            else:
                out.append("\\" + d)
            prev_quant = quant
            class_start = False
            continue
        if in_class:
            if c == "[" and not class_start:
                if src.startswith("[:", i):
                    end = src.find(":]", i + 2)
                    if end >= 0:
                        out.append(src[i:end + 2])
                        i = end + 2
                        continue
                raise _unsupported(src, "nested character classes ([a[b]]) are", False)
            if c == "&" and src.startswith("&&", i):
                raise _unsupported(src, "character class intersection (&&) is", False)
            if c == "]" and not class_start:
                in_class = False
            class_start = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            class_start = True
            lit = None
            out.append(c)
            i += 1
            if i < n and src[i] == "^":
                out.append("^")
                i += 1
            prev_quant = False
            continue
        if c == "(":
            lit = None
            prev_quant = False
            if src.startswith("(?", i):
                rest = src[i + 2:i + 4]
                if rest[:1] in ("=", "!") or rest in ("<=", "<!"):
                    raise _unsupported(src, "lookahead/lookbehind (?=...) (?!...) (?<=...) (?<!...) are")
                if rest[:1] == ">":
                    raise _unsupported(src, "atomic groups (?>...) are")
                if rest[:1] == "<" or rest[:1] == ":" or rest[:1] == "P":
                    out.append("(?")
                    i += 2
                    continue
                # inline flags (?idmsuxU-idmsuxU) or (?flags:...)
                j = i + 2
                while j < n and src[j] in "idmsuxUc-":
                    j += 1
                flags = src[i + 2:j]
                if j >= n or src[j] not in ":)":
                    raise runtime_error(f"regex #\"{src}\": unknown group syntax (?{src[i + 2:i + 3]}")
                if "x" in flags:
                    raise _unsupported(src, "comments mode (?x) is", False)
                kept = "".join(f for f in flags if f in "ims-").rstrip("-")
                if kept and kept != "-":
                    out.append("(?" + kept + src[j])
                elif src[j] == ":":
                    out.append("(?:")
                i = j + 1
                continue
            out.append(c)
            i += 1
            continue
        if c == "+" and prev_quant:
            raise _unsupported(src, "possessive quantifiers (a*+, a++, a?+) are")
        if c in "*+?":
            lit = None
            if c == "?" and prev_quant:
                out.append(c)  # lazy modifier
                prev_quant = False
                i += 1
                continue
            out.append(c)
            prev_quant = True
            i += 1
            continue
        if c == "{":
            end = src.find("}", i)
            body = src[i + 1:end] if end > 0 else ""
            if end > 0 and body and all(ch.isdigit() or ch == "," for ch in body) and body[0] != ",":
                out.append(src[i:end + 1])
                i = end + 1
                prev_quant = True
                lit = None
                continue
            out.append("\\{")
            if lit is not None:
                lit.append("{")
            i += 1
            prev_quant = False
            continue
        if c in _META:
            lit = None
        elif lit is not None:
            lit.append(c)
        out.append(c)
        prev_quant = False
        i += 1
    if in_class:
        raise runtime_error(f"regex #\"{src}\": unclosed character class")
    return "".join(out), ("".join(lit) if lit else None)


def compile_regex(source: str) -> Regex:
    """A Regex value for Java-syntax `source` (used for #"..." literals and re-pattern). The
    length limit is this run's, checked before the cache: a pattern compiled in another run
    under a larger max_regex is still refused here."""
    limit = context.CURRENT.limits.max_regex
    if len(source) > limit:
        raise limit_error("max_regex", limit, f"regex of {len(source)} characters")
    c = _CACHE.get(source)
    if c is None:
        c = _compile(source)
    return Regex(source, c)


def _compile(source: str) -> Compiled:
    translated, literal = _translate(source)
    try:
        rx = re2.compile(translated, _OPTIONS)
    except re2.error as e:
        msg = e.args[0] if e.args else str(e)
        if isinstance(msg, bytes):
            msg = msg.decode("utf-8", "replace")
        raise runtime_error(f"invalid regex #\"{source}\": {msg}") from None
    except (UnicodeError, ValueError, TypeError) as e:  # e.g. a lone surrogate RE2 cannot encode
        raise runtime_error(f"invalid regex #\"{source.encode('unicode_escape').decode()}\": {e}") from None
    c = Compiled(rx, literal)
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[source] = c
    return c


def as_compiled(x: Any, who: str) -> Compiled:
    """The compiled program of a regex argument (a string is compiled as a pattern)."""
    if type(x) is Regex:
        c = x.compiled
        return c if type(c) is Compiled else _compile(x.source)
    if type(x) is str:
        return compile_regex(x).compiled
    raise runtime_error(f"{who}: expected a regex, got {_describe(x)}", hint='write a regex literal like #"\\d+"')


def _describe(x: Any) -> str:
    return "nil" if x is None else f"{type_name(x)} {short(x)}"


def check_text(s: Any, who: str) -> str:
    if type(s) is not str:
        raise runtime_error(f"{who}: expected a string, got {_describe(s)}")
    return s


# -- matching primitives (spans are character offsets) -------------------------------


def _spans(m: Any, groups: int) -> Any:
    sp = getattr(m, "_spans", None)
    return sp if sp is not None else [m.span(i) for i in range(groups + 1)]


def search(c: Compiled, s: str, pos: int = 0) -> Any:
    """Spans [(start, end), group spans...] of the first match at or after pos, or None."""
    if c.raw is not None and s.isascii():
        sp = c.raw.Match(_UNANCHORED, s.encode("ascii"), pos, len(s))
        return None if sp[0][0] < 0 else sp
    m = c.rx.search(s, pos)
    return None if m is None else _spans(m, c.groups)


def fullmatch(c: Compiled, s: str) -> Any:
    if c.raw is not None and s.isascii():
        sp = c.raw.Match(_ANCHOR_BOTH, s.encode("ascii"), 0, len(s))
        return None if sp[0][0] < 0 else sp
    m = c.rx.fullmatch(s)
    return None if m is None else _spans(m, c.groups)


def iter_spans(c: Compiled, s: str) -> Iterator[Any]:
    """All matches, Java `Matcher.find` order (an empty match moves on by one character)."""
    if c.raw is not None and s.isascii():
        b = s.encode("ascii")
        raw, n, pos = c.raw, len(b), 0
        count = 0
        while True:
            sp = raw.Match(_UNANCHORED, b, pos, n)
            if sp[0][0] < 0:
                return
            yield sp
            count += 1
            if (count & 4095) == 0:
                tick(4096)
            start, end = sp[0]
            if end == start:
                if end >= n:
                    return
                pos = end + 1
            else:
                pos = end
    else:
        count = 0
        groups = c.groups
        for m in c.rx.finditer(s):
            yield _spans(m, groups)
            count += 1
            if (count & 4095) == 0:
                tick(4096)


def groups_of(s: str, sp: Any) -> Any:
    """Clojure re-groups: the whole match if there are no groups, else [whole g1 g2 ...]."""
    if len(sp) == 1:
        a, b = sp[0]
        return s[a:b]
    return vec(None if span == _NULL or span[0] < 0 else s[span[0]:span[1]] for span in sp)


# -- builtins ---------------------------------------------------------------------------


@builtin("re-pattern", args="[s]", category="regex",
         doc="Compiles a string into a regex (Java syntax, run by RE2: no backreferences or lookaround).",
         ex=(("(re-find (re-pattern \"\\\\d+\") \"ab12\")", "\"12\""),))
def re_pattern(s: Any) -> Regex:
    if type(s) is Regex:
        return s
    if type(s) is not str:
        raise runtime_error(f"re-pattern: expected a string, got {_describe(s)}")
    return compile_regex(s)


@builtin("re-find", column_op="re-find", args="[re s]", category="regex",
         doc="The first match of re in s, or nil. Without groups the match is a string, with groups "
             "a vector [whole-match group1 ...] (nil for groups that did not participate).",
         ex=(("(re-find #\"\\d+\" \"ab12cd34\")", "\"12\""),
             ("(re-find #\"(\\w+)@(\\w+)\" \"mail bob@example now\")", "[\"bob@example\" \"bob\" \"example\"]"),
             ("(re-find #\"z\" \"abc\")", "nil")))
def re_find(re: Any, s: Any) -> Any:
    c = as_compiled(re, "re-find")
    if type(s) is not str:
        check_text(s, "re-find")
    sp = search(c, s)
    if sp is None:
        return None
    return groups_of(s, sp)


@builtin("re-matches", column_op="re-matches", args="[re s]", category="regex",
         doc="The match if re matches the whole of s, else nil; groups as in re-find.",
         ex=(("(re-matches #\"\\d+\" \"123\")", "\"123\""), ("(re-matches #\"\\d+\" \"123a\")", "nil"),
             ("(re-matches #\"(\\d+)-(\\d+)\" \"10-20\")", "[\"10-20\" \"10\" \"20\"]")))
def re_matches(re: Any, s: Any) -> Any:
    c = as_compiled(re, "re-matches")
    if type(s) is not str:
        check_text(s, "re-matches")
    sp = fullmatch(c, s)
    if sp is None:
        return None
    return groups_of(s, sp)


@builtin("re-seq", args="[re s]", category="regex",
         doc="All successive matches of re in s (strings, or vectors when re has groups); nil if none.",
         ex=(("(re-seq #\"\\d+\" \"a1b22c333\")", "(\"1\" \"22\" \"333\")"),
             ("(re-seq #\"(\\w)(\\d)\" \"a1 b2\")", "([\"a1\" \"a\" \"1\"] [\"b2\" \"b\" \"2\"])"),
             ("(re-seq #\"z\" \"abc\")", "nil")))
def re_seq(re: Any, s: Any) -> Any:
    c = as_compiled(re, "re-seq")
    if type(s) is not str:
        check_text(s, "re-seq")
    if c.groups == 0:
        out = [s[sp[0][0]:sp[0][1]] for sp in iter_spans(c, s)]
    else:
        out = [groups_of(s, sp) for sp in iter_spans(c, s)]
    if not out:
        return None
    if len(out) > 4096:
        check_size(len(out), "re-seq result")
    return PList(out)


__all__ = [
    "Compiled", "compile_regex", "as_compiled", "search", "fullmatch", "iter_spans", "groups_of",
    "check_text",
]
