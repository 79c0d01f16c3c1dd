"""The reader: source text -> positioned forms (a pure function of its input).

Forms are a small syntax tree, distinct from runtime values, so that every form keeps its
line and column for error messages. `form_to_value` turns a form into data (for `quote`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

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


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (Path(__file__).parent / "grammar.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


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


def _pos(tok: Token) -> tuple[int, int]:
    return tok.line or 0, tok.column or 0


@v_args(meta=True)
class _ToForms(Transformer):  # type: ignore[type-arg]
    """Lark tree -> forms. One method per grammar rule."""

    def start(self, meta: Any, items: list[Any]) -> list[Form]:
        return [i for i in items if i is not _DISCARDED]

    def _coll(self, kind: str, meta: Any, items: list[Any]) -> Coll:
        return Coll(kind, [i for i in items if i is not _DISCARDED], meta.line, meta.column)

    def list(self, meta: Any, items: list[Any]) -> Coll:
        return self._coll("list", meta, items)

    def vector(self, meta: Any, items: list[Any]) -> Coll:
        return self._coll("vector", meta, items)

    def map(self, meta: Any, items: list[Any]) -> Coll:
        c = self._coll("map", meta, items)
        if len(c.items) % 2:
            raise PTCError("parse", "map literal must contain an even number of forms",
                           line=meta.line, column=meta.column)
        return c

    def set(self, meta: Any, items: list[Any]) -> Coll:
        return self._coll("set", meta, items)

    def discard(self, meta: Any, items: list[Any]) -> Any:
        return _DISCARDED

    def quote(self, meta: Any, items: list[Any]) -> Coll:
        form = items[0]
        if form is _DISCARDED:
            raise PTCError("parse", "nothing to quote", line=meta.line, column=meta.column)
        return Coll("list", [Sym("quote", None, meta.line, meta.column), form], meta.line, meta.column)

    def anon_fn(self, meta: Any, items: list[Any]) -> Coll:
        body = Coll("list", [i for i in items if i is not _DISCARDED], meta.line, meta.column)
        return expand_anon_fn(body)

    def unsupported(self, meta: Any, items: list[Any]) -> Any:
        tok = items[0]
        what = {
            "@": "deref (@)", "^": "metadata (^)", "`": "syntax quote (`)", "~": "unquote (~)",
            "~@": "unquote-splicing (~@)", "#'": "var quote (#')",
        }[str(tok)]
        raise PTCError("parse", f"{what} is not supported in PTC-Lisp", line=tok.line, column=tok.column,
                       hint="PTC-Lisp has no atoms, vars, metadata or macros")

    # -- atoms -----------------------------------------------------------------------

    def string(self, meta: Any, items: list[Token]) -> Lit:
        tok = items[0]
        line, col = _pos(tok)
        return Lit(_unescape(str(tok)[1:-1], line, col), line, col)

    def regex(self, meta: Any, items: list[Token]) -> RegexLit:
        tok = items[0]
        line, col = _pos(tok)
        return RegexLit(str(tok)[2:-1], line, col)

    def char(self, meta: Any, items: list[Token]) -> Lit:
        tok = items[0]
        line, col = _pos(tok)
        body = str(tok)[1:]
        if body in _CHAR_NAMES:
            return Lit(_CHAR_NAMES[body], line, col)
        if len(body) == 5 and body[0] == "u":
            return Lit(chr(int(body[1:], 16)), line, col)
        if len(body) > 1 and body[0] == "o":
            return Lit(chr(int(body[1:], 8)), line, col)
        return Lit(body, line, col)

    def float(self, meta: Any, items: list[Token]) -> Lit:
        tok = items[0]
        line, col = _pos(tok)
        return Lit(float(str(tok).rstrip("M")), line, col)

    def ratio(self, meta: Any, items: list[Token]) -> Lit:
        tok = items[0]
        line, col = _pos(tok)
        num, den = str(tok).split("/")
        if int(den) == 0:
            raise PTCError("parse", "Divide by zero in ratio literal", line=line, column=col)
        q = int(num) / int(den)
        return Lit(int(q) if int(num) % int(den) == 0 else q, line, col)

    def int(self, meta: Any, items: list[Token]) -> Lit:
        tok = items[0]
        line, col = _pos(tok)
        text = str(tok).rstrip("N")
        sign = -1 if text.startswith("-") else 1
        body = text.lstrip("+-")
        if len(body) > 4000:
            raise PTCError("parse", "integer literal too long", line=line, column=col)
        value = int(body, 16) if body[:2] in ("0x", "0X") else int(body)
        return Lit(sign * value, line, col)

    def symbolic(self, meta: Any, items: list[Token]) -> Lit:
        tok = items[0]
        line, col = _pos(tok)
        return Lit({"##Inf": math.inf, "##-Inf": -math.inf, "##NaN": math.nan}[str(tok)], line, col)

    def keyword(self, meta: Any, items: list[Token]) -> Lit:
        tok = items[0]
        line, col = _pos(tok)
        text = str(tok)
        if text.startswith("::"):
            raise PTCError("parse", "auto-resolved keywords (::k) are not supported in PTC-Lisp",
                           line=line, column=col, hint="use a plain keyword such as :k")
        return Lit(v.keyword(text[1:]), line, col)

    def symbol(self, meta: Any, items: list[Token]) -> Form:
        tok = items[0]
        line, col = _pos(tok)
        text = str(tok)
        if text == "nil":
            return Lit(None, line, col)
        if text == "true":
            return Lit(True, line, col)
        if text == "false":
            return Lit(False, line, col)
        if "/" in text and text != "/" and not text.startswith("/"):
            ns, _, name = text.partition("/")
            if not name:
                raise PTCError("parse", f"invalid symbol {text}", line=line, column=col)
            return Sym(name, ns, line, col)
        return Sym(text, None, line, col)


_DISCARDED = object()


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
                                f"opened at {ol}:{oc}", line=line, column=col)
        i, col = i + 1, col + 1
    if stack:
        o, ol, oc = stack[-1]
        return PTCError("parse", f"unclosed '{o}' (EOF while reading)", line=ol, column=oc,
                        hint=f"add the missing '{_CLOSERS[o]}'")
    return None


def _lark_error(source: str, e: UnexpectedInput) -> PTCError:
    problem = _bracket_problem(source)
    if problem is not None:
        return problem
    line, col = getattr(e, "line", None), getattr(e, "column", None)
    if isinstance(e, UnexpectedCharacters):
        ch = source[e.pos_in_stream] if e.pos_in_stream < len(source) else "?"
        return PTCError("parse", f"unexpected character {ch!r}", line=line, column=col)
    if isinstance(e, UnexpectedEOF):
        return PTCError("parse", "unexpected end of input", line=line, column=col)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        return PTCError("parse", f"unexpected {tok!s:.20}", line=tok.line, column=tok.column)
    return PTCError("parse", str(e).splitlines()[0], line=line, column=col)


def read(source: str) -> list[Form]:
    """Parse a program into its top-level forms."""
    if not isinstance(source, str):
        raise PTCError("parse", f"program source must be a string, not {type(source).__name__}")
    try:
        tree = _parser().parse(source)
    except UnexpectedInput as e:
        raise _lark_error(source, e) from None
    except RecursionError:
        raise PTCError("parse", "program is nested too deeply") from None
    try:
        return _ToForms().transform(tree)  # type: ignore[no-any-return]
    except VisitError as e:
        if isinstance(e.orig_exc, PTCError):
            raise e.orig_exc from None
        raise PTCError("parse", f"cannot read program: {e.orig_exc}") from None
    except RecursionError:
        raise PTCError("parse", "program is nested too deeply") from None


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


__all__ = ["Sym", "Lit", "RegexLit", "Coll", "Form", "read", "read_value", "form_to_value", "Tree"]
