"""The reader: source text -> positioned forms (a pure function of its input).

Forms are a small syntax tree, distinct from runtime values, so that every form keeps its
line and column for error messages. `form_to_value` turns a form into data (for `quote`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from . import values as v
from .errors import PTCError


@dataclass(slots=True, eq=False)
class Sym:
    name: str
    ns: str | None
    line: int
    col: int

    @property
    def full(self) -> str:
        return self.name if self.ns is None else f"{self.ns}/{self.name}"


@dataclass(slots=True, eq=False)
class Lit:
    """A self-evaluating literal: nil, booleans, numbers, strings, keywords."""

    value: Any
    line: int
    col: int


@dataclass(slots=True, eq=False)
class RegexLit:
    source: str
    line: int
    col: int


@dataclass(slots=True, eq=False)
class Coll:
    """A list, vector, map or set literal; `kind` is one of list/vector/map/set."""

    kind: str
    items: list["Form"]
    line: int
    col: int


Form = Union[Sym, Lit, RegexLit, Coll]

_CHAR_NAMES = {
    "newline": "\n", "space": " ", "tab": "\t", "return": "\r", "backspace": "\b", "formfeed": "\f",
}
_STRING_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\"}


def _unescape(body: str, line: int, col: int) -> str:
    if "\\" not in body:
        return body
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < n else ""
        if nxt in _STRING_ESCAPES:
            out.append(_STRING_ESCAPES[nxt])
            i += 2
        elif nxt == "u" and i + 6 <= n:
            try:
                out.append(chr(int(body[i + 2 : i + 6], 16)))
            except ValueError:
                raise PTCError("parse", f"invalid unicode escape \\u{body[i + 2:i + 6]}", line=line, column=col)
            i += 6
        else:
            raise PTCError("parse", f"unsupported escape character: \\{nxt}", line=line, column=col,
                           hint='escapes are \\n \\t \\r \\" \\\\ and \\uXXXX')
    return "".join(out)


# -- atoms: token text -> form ----------------------------------------------------------


def _string(text: str, line: int, col: int) -> Lit:
    return Lit(_unescape(text[1:-1], line, col), line, col)


def _regex(text: str, line: int, col: int) -> RegexLit:
    return RegexLit(text[2:-1], line, col)


def _char(text: str, line: int, col: int) -> Lit:
    body = text[1:]
    if body in _CHAR_NAMES:
        return Lit(_CHAR_NAMES[body], line, col)
    if len(body) == 5 and body[0] == "u":
        return Lit(chr(int(body[1:], 16)), line, col)
    if len(body) > 1 and body[0] == "o":
        return Lit(chr(int(body[1:], 8)), line, col)
    return Lit(body, line, col)


def _float(text: str, line: int, col: int) -> Lit:
    return Lit(float(text.rstrip("M")), line, col)


def _ratio(text: str, line: int, col: int) -> Lit:
    num, den = text.split("/")
    if int(den) == 0:
        raise PTCError("parse", "Divide by zero in ratio literal", line=line, column=col)
    q = int(num) / int(den)
    return Lit(int(q) if int(num) % int(den) == 0 else q, line, col)


def _int(text: str, line: int, col: int) -> Lit:
    if text.isdigit() and len(text) < 19:  # the common case: a plain small integer
        return Lit(int(text), line, col)
    text = text.rstrip("N")
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    if len(body) > 4000:
        raise PTCError("parse", "integer literal too long", line=line, column=col)
    value = int(body, 16) if body[:2] in ("0x", "0X") else int(body)
    return Lit(sign * value, line, col)


def _symbolic(text: str, line: int, col: int) -> Lit:
    return Lit({"##Inf": math.inf, "##-Inf": -math.inf, "##NaN": math.nan}[text], line, col)


def _keyword(text: str, line: int, col: int) -> Lit:
    if text.startswith("::"):
        raise PTCError("parse", "auto-resolved keywords (::k) are not supported in PTC-Lisp",
                       line=line, column=col, hint="use a plain keyword such as :k")
    return Lit(v.keyword(text[1:]), line, col)


_NAMED_LITERALS = {"nil": None, "true": True, "false": False}


def _symbol(text: str, line: int, col: int) -> Form:
    if text in _NAMED_LITERALS:
        return Lit(_NAMED_LITERALS[text], line, col)
    if "/" in text and text != "/" and not text.startswith("/"):
        ns, _, name = text.partition("/")
        if not name:
            raise PTCError("parse", f"invalid symbol {text}", line=line, column=col)
        return Sym(name, ns, line, col)
    return Sym(text, None, line, col)


_ATOMS = {"STRING": _string, "REGEX": _regex, "CHAR": _char, "FLOAT": _float, "RATIO": _ratio, "INT": _int,
          "SYMBOLIC": _symbolic, "KEYWORD": _keyword, "SYMBOL": _symbol}
_OPENERS = {"LPAR": "list", "LSQB": "vector", "LBRACE": "map", "HASH_LBRACE": "set", "HASH_LPAR": "anon_fn"}
_CLOSERS_OF = {"RPAR": ("list", "anon_fn"), "RSQB": ("vector",), "RBRACE": ("map", "set")}
_UNSUPPORTED = {"DEREF": "deref (@)", "SYNTAX_QUOTE": "syntax quote (`)", "VAR_QUOTE": "var quote (#')"}
_DISCARD = "DISCARD"
_META = "META"
_META_TARGET = "META_TARGET"  # a META prefix whose metadata has been read: the next form is its target


# -- scanning and reading -------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _scanner() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(token, blank): `token` matches the blanks (whitespace, commas, comments: the grammar's
    ignored terminals) before one token, each terminal of grammar.lark a named group tried in
    the order Lark's lexer tries them (priority, then width, then pattern length); `blank`
    matches blanks alone (the end of a program). grammar.lark stays the one definition of the
    syntax; tests check this reader against Lark's own parser of it."""
    grammar = (Path(__file__).parent / "grammar.lark").read_text()
    blanks, tokens = _cached_patterns(grammar)
    # atomic: blanks are taken whole, never given back to make a token match (";x" is a comment)
    return re.compile(f"(?>(?:{blanks})*)(?:{tokens})"), re.compile(f"(?:{blanks})*")


def _cached_patterns(grammar: str) -> tuple[str, str]:
    """The grammar's (blanks, tokens) regex texts, kept in the user's cache directory under
    the grammar's hash: importing Lark and reading the grammar was ~40 ms of every `ptc`
    command's start (issue 44, item 10). The file holds two strings of JSON (nothing is
    executed from it); an unreadable or unwritable cache only means Lark is asked again."""
    path = _cache_dir() / f"scanner-{hashlib.sha256(grammar.encode()).hexdigest()[:32]}.json"
    try:
        blanks, tokens = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(blanks, str) and isinstance(tokens, str):
            return blanks, tokens
    except (OSError, ValueError, TypeError):
        pass
    blanks, tokens = _lark_patterns(grammar)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        part.write_text(json.dumps([blanks, tokens]), encoding="utf-8")
        os.replace(part, path)  # whole or not at all: a concurrent start reads the old file or the new one
    except OSError:
        pass
    return blanks, tokens


def _cache_dir() -> Path:
    """$PTC_HOME/cache, else $XDG_CACHE_HOME/ptc, else ~/.cache/ptc."""
    if os.environ.get("PTC_HOME"):
        return Path(os.environ["PTC_HOME"]) / "cache"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ptc"


def _lark_patterns(grammar: str) -> tuple[str, str]:
    """Lark reads the grammar's terminals alone (no parser: its LALR tables took 0.1 s of every
    process's first run)."""
    from lark import Lark

    lark = Lark(grammar, parser=None, lexer="basic")
    terms = sorted(lark.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    blanks = "|".join(t.pattern.to_regexp() for t in terms if t.name in lark.ignore_tokens)
    tokens = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms if t.name not in lark.ignore_tokens)
    return blanks, tokens


class _Frame:
    """A collection being read: its kind and opening position, its items so far, and the
    prefixes (quote, discard) waiting for the next complete form."""

    __slots__ = ("kind", "line", "col", "items", "prefixes")

    def __init__(self, kind: str, line: int, col: int) -> None:
        self.kind, self.line, self.col = kind, line, col
        self.items: list[Form] = []
        self.prefixes: list[tuple[str, int, int]] = []


def _read(source: str) -> list[Form]:
    """Tokens -> forms with an explicit stack (no recursion, so nesting depth costs nothing)."""
    token, blank = _scanner()
    match = token.match
    stack = [_Frame("start", 1, 1)]
    pos, n, line, line_start = 0, len(source), 1, 0
    while pos < n:
        m = match(source, pos)
        if m is None:
            pos = blank.match(source, pos).end()  # type: ignore[union-attr]
            line, line_start = _line_of(source, pos)
            if pos < n:
                err = _syntax_error(source, f"unexpected character {source[pos]!r}", line, pos - line_start + 1)
                if source[pos] == ":" and err.hint is None:  # a colon ending a line: Python's `def f(x):`
                    err.hint = "keywords are :name; functions are (defn f [x] body), blocks are (do ...), not Python's `:`"
                raise err
            break
        name = m.lastgroup
        start, end = m.span(name)
        if "\n" in source[pos:start]:  # blanks before the token
            line += source.count("\n", pos, start)
            line_start = source.rfind("\n", pos, start) + 1
        text, col = source[start:end], start - line_start + 1
        pos = end
        kind = _OPENERS.get(name)  # type: ignore[arg-type]
        if kind is not None:
            stack.append(_Frame(kind, line, col))
            continue
        closes = _CLOSERS_OF.get(name)  # type: ignore[arg-type]
        if closes is not None:
            frame = stack[-1]
            if frame.kind not in closes or frame.prefixes:
                raise _syntax_error(source, f"unexpected {text}", line, col)
            stack.pop()
            _add(stack[-1], _collection(frame), source)
            continue
        if name == "QUOTE" or name == _DISCARD or name == _META:
            stack[-1].prefixes.append((name, line, col))
            continue
        if name in _UNSUPPORTED or name == "UNQUOTE":
            what = _UNSUPPORTED.get(name) or ("unquote-splicing (~@)" if text == "~@" else "unquote (~)")  # type: ignore[arg-type]
            raise PTCError("parse", f"{what} is not supported in PTC-Lisp", line=line, column=col,
                           hint="PTC-Lisp has no atoms, vars or macros")
        _add(stack[-1], _ATOMS[name](text, line, col), source)  # type: ignore[index]
        if "\n" in text:  # a string, regex or character spanning lines
            line += text.count("\n")
            line_start = source.rfind("\n", start, end) + 1
    if len(stack) > 1 or stack[0].prefixes:
        raise _syntax_error(source, "unexpected end of input", line, pos - line_start + 1)
    return stack[0].items


def _line_of(source: str, pos: int) -> tuple[int, int]:
    """(line, start of that line) of position pos."""
    return source.count("\n", 0, pos) + 1, source.rfind("\n", 0, pos) + 1


def _add(frame: _Frame, form: Form, source: str) -> None:
    """Add a complete form to frame, through its waiting prefixes: a quote wraps it, a discard
    drops it (and the prefixes before that discard wait for the next form, as in Clojure);
    after `^` the first form is metadata, dropped (values carry none), and the second is kept."""
    while frame.prefixes:
        prefix, line, col = frame.prefixes.pop()
        if prefix == _DISCARD:
            return
        if prefix == _META:
            if not (isinstance(form, Sym) or (isinstance(form, Lit) and type(form.value) in (str, v.Keyword))
                    or (isinstance(form, Coll) and form.kind == "map")):
                raise PTCError("parse", "Metadata must be Symbol,Keyword,String or Map", line=line, column=col,
                               hint="write a type hint as ^String x, a flag as ^:private, or a map ^{:doc \"..\"}")
            frame.prefixes.append((_META_TARGET, line, col))
            return
        if prefix == _META_TARGET:
            continue
        form = Coll("list", [Sym("quote", None, line, col), form], line, col)
    frame.items.append(form)


def _collection(frame: _Frame) -> Coll:
    if frame.kind == "anon_fn":
        return expand_anon_fn(Coll("list", frame.items, frame.line, frame.col))
    if frame.kind == "map" and len(frame.items) % 2:
        raise PTCError("parse", "map literal must contain an even number of forms", line=frame.line, column=frame.col)
    return Coll(frame.kind, frame.items, frame.line, frame.col)


def _syntax_error(source: str, message: str, line: int, col: int) -> PTCError:
    """A bracket or string problem anywhere explains most syntax errors best; else message."""
    return _bracket_problem(source) or PTCError("parse", message, line=line, column=col)


def expand_anon_fn(body: Coll) -> Coll:
    """`#(f % %2 %&)` -> `(fn [%1 %2 & %&] (f %1 %2 %&))`."""
    max_arg, rest = 0, False

    def scan(f: Form) -> Form:
        nonlocal max_arg, rest
        if isinstance(f, Sym) and f.ns is None and f.name.startswith("%"):
            tail = f.name[1:]
            if tail == "":
                max_arg = max(max_arg, 1)
                return Sym("%1", None, f.line, f.col)
            if tail == "&":
                rest = True
                return f
            if tail.isdigit():
                max_arg = max(max_arg, int(tail))
                return f
        if isinstance(f, Coll):
            if f.kind == "list" and f.items and isinstance(f.items[0], Sym) and f.items[0].name == "fn" \
                    and f.items[0].ns is None and any(isinstance(i, Sym) and i.name.startswith("%")
                                                      for i in _walk(f)):
                raise PTCError("parse", "nested #() functions are not allowed", line=f.line, column=f.col)
            return Coll(f.kind, [scan(i) for i in f.items], f.line, f.col)
        return f

    new_body = scan(body)
    params: list[Form] = [Sym(f"%{i}", None, body.line, body.col) for i in range(1, max_arg + 1)]
    if rest:
        params += [Sym("&", None, body.line, body.col), Sym("%&", None, body.line, body.col)]
    fn_sym = Sym("fn", None, body.line, body.col)
    return Coll("list", [fn_sym, Coll("vector", params, body.line, body.col), new_body], body.line, body.col)


def _walk(f: Form):  # type: ignore[no-untyped-def]
    yield f
    if isinstance(f, Coll):
        for i in f.items:
            yield from _walk(i)


# -- errors ----------------------------------------------------------------------------

_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _bracket_problem(source: str) -> PTCError | None:
    """Find the first unbalanced bracket or unterminated string, with its position."""
    stack: list[tuple[str, int, int]] = []
    line, col, i, n = 1, 1, 0, len(source)
    while i < n:
        c = source[i]
        if c == "\n":
            line, col, i = line + 1, 1, i + 1
            continue
        if c == ";":
            while i < n and source[i] != "\n":
                i += 1
            continue
        if c == "\\" and i + 1 < n:
            i, col = i + 2, col + 2
            continue
        if c == '"':
            start = (line, col)
            i, col = i + 1, col + 1
            while i < n and source[i] != '"':
                if source[i] == "\\":
                    i, col = i + 1, col + 1
                if i < n and source[i] == "\n":
                    line, col = line + 1, 0
                i, col = i + 1, col + 1
            if i >= n:
                return PTCError("parse", "unterminated string", line=start[0], column=start[1],
                                hint='close the string with "')
            i, col = i + 1, col + 1
            continue
        if c in _CLOSERS:
            stack.append((c, line, col))
        elif c in ")]}":
            if not stack:
                return PTCError("parse", f"unmatched closing '{c}'", line=line, column=col,
                                hint="remove it or add the matching opening bracket")
            o, ol, oc = stack.pop()
            if _CLOSERS[o] != c:
                return PTCError("parse", f"mismatched '{c}': expected '{_CLOSERS[o]}' to close '{o}' "
                                f"opened at {ol}:{oc}", line=line, column=col,
                                hint=_opener_hint(source, (o, ol, oc), i, c))
        i, col = i + 1, col + 1
    if stack:
        o, ol, oc = stack[-1]
        return PTCError("parse", f"unclosed '{o}' (EOF while reading)", line=ol, column=oc,
                        hint=f"add the missing '{_CLOSERS[o]}'")
    return None


def _opener_hint(source: str, opener: tuple[str, int, int], end: int, closer: str) -> str:
    """Where the bracket a mismatched closer meets begins, with its text: in a deep nest the
    line:column alone leaves the reader (a model, mostly) counting brackets."""
    o, line, column = opener
    start = sum(len(text) + 1 for text in source.split("\n")[:line - 1]) + column - 1
    text = source[start:end + 1]
    if "\n" in text or len(text) > 40:
        text = text.split("\n", 1)[0][:30].rstrip() + " ..."
    return f"the '{o}' at {line}:{column} begins `{text}`: close it with '{_CLOSERS[o]}' before this '{closer}'"


def read(source: str) -> list[Form]:
    """Parse a program into its top-level forms."""
    if not isinstance(source, str):
        raise PTCError("parse", f"program source must be a string, not {type(source).__name__}")
    return _read(source)


def form_to_value(f: Form) -> Any:
    """A form as quoted data."""
    if isinstance(f, Lit):
        return f.value
    if isinstance(f, Sym):
        return v.Symbol(f.full)
    if isinstance(f, RegexLit):
        from .lib.regex import compile_regex

        return compile_regex(f.source)
    items = [form_to_value(i) for i in f.items]
    if f.kind == "list":
        return v.PList(items)
    if f.kind == "vector":
        return v.vec(items)
    if f.kind == "map":
        return v.make_map(zip(items[0::2], items[1::2]))
    return v.make_set(items)


def read_value(text: str) -> Any:
    """Read one printed value back as data (e.g. Clojure's pr-str output in fixtures)."""
    forms = read(text)
    if len(forms) != 1:
        raise PTCError("parse", f"expected exactly one value, found {len(forms)}")
    return form_to_value(forms[0])


__all__ = ["Sym", "Lit", "RegexLit", "Coll", "Form", "read", "read_value", "form_to_value"]
