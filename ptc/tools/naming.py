"""Names and descriptions: Python identifiers -> PTC-Lisp names, docstrings -> prompt text."""

from __future__ import annotations

import inspect
import re
from typing import Any

# A tool is written `tool/NAME` in programs and NAME is also a JSON function-calling name
# (OpenAI: ^[a-zA-Z0-9_-]{1,64}$), so names stay within the intersection of both grammars.
_TOOL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def kebab(name: str) -> str:
    """`search_reviews` / `searchReviews` / `SearchReviews` -> `search-reviews`."""
    text = _CAMEL.sub("-", name.strip("_")).replace("_", "-").lower()
    return re.sub(r"-{2,}", "-", text).strip("-")


def snake(name: str) -> str:
    """`max-results` -> `max_results` (how a kebab-case keyword finds a Python parameter)."""
    return name.replace("-", "_")


def check_tool_name(name: Any) -> str:
    if not isinstance(name, str) or not _TOOL_NAME.match(name):
        raise ValueError(
            f"invalid tool name {name!r}: a tool name starts with a letter and has at most 64 "
            "letters, digits, '-' or '_' (pass name='my-tool' to ptc.tool / ptc.Tool)"
        )
    return name


def python_name(fn: Any) -> str | None:
    """The Python name a callable was defined with, or None when it has no usable one."""
    import functools

    target = fn
    while isinstance(target, functools.partial):
        target = target.func
    name = getattr(target, "__name__", None)
    if not isinstance(name, str):
        name = type(target).__name__  # a callable object: name of its class
    if not name or name.startswith("<"):  # <lambda>
        return None
    return name


def tool_name_for(fn: Any) -> str:
    name = python_name(fn)
    if name is None or not kebab(name):
        raise ValueError(f"cannot derive a tool name from {fn!r}: pass name='my-tool' to ptc.tool / ptc.Tool")
    return check_tool_name(kebab(name))


# -- docstrings -------------------------------------------------------------------------

_SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Returns|Return|Yields|"
    r"Raises|Examples?|Notes?|See Also|Attributes|Warnings?)\s*:?\s*$",
    re.IGNORECASE,
)
_UNDERLINE = re.compile(r"^\s*-{3,}\s*$")
_SPHINX = re.compile(r"^:(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?(\w+)\s*:\s*(.*)$")


def clean_doc(fn: Any) -> str:
    """The docstring of a callable (of the wrapped function for a partial), cleaned."""
    import functools

    while isinstance(fn, functools.partial):
        fn = fn.func
    return (inspect.getdoc(fn) or "").strip()


def first_paragraph(doc: str) -> str:
    """The summary of a docstring: its first paragraph, stopping at a section header."""
    lines: list[str] = []
    for line in doc.splitlines():
        s = line.strip()
        if not s:
            if lines:
                break
            continue
        if _SECTION.match(s) or _SPHINX.match(s) or s.startswith(":return"):
            break
        lines.append(s)
    return " ".join(lines)


def param_docs(doc: str) -> dict[str, str]:
    """Parameter descriptions from a Google, NumPy or Sphinx style docstring."""
    out: dict[str, str] = {}
    lines = doc.splitlines()
    # Sphinx: `:param name: text` (continuation lines are indented)
    for i, line in enumerate(lines):
        m = _SPHINX.match(line.strip())
        if m:
            text = [m.group(2).strip()]
            for nxt in lines[i + 1:]:
                if nxt.strip() and nxt[:1].isspace() and not nxt.strip().startswith(":"):
                    text.append(nxt.strip())
                else:
                    break
            out[m.group(1)] = " ".join(t for t in text if t)
    i = 0
    while i < len(lines):
        header = lines[i].strip()
        numpy = i + 1 < len(lines) and _UNDERLINE.match(lines[i + 1]) is not None
        if re.match(r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments)\s*:?\s*$",
                    header, re.IGNORECASE) and (header.endswith(":") or numpy):
            i += 2 if numpy else 1
            i = _read_params(lines, i, numpy, out)
            continue
        i += 1
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _read_params(lines: list[str], i: int, numpy: bool, out: dict[str, str]) -> int:
    base: int | None = None
    current: str | None = None
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if not s:
            i += 1
            if numpy and i < len(lines) and _indent(lines[i]) == 0 and i + 1 < len(lines) \
                    and _UNDERLINE.match(lines[i + 1]):
                return i
            continue
        ind = _indent(line)
        if base is None:
            base = ind
        if ind < base or (_SECTION.match(s) and ind <= base) or (numpy and i + 1 < len(lines)
                                                                  and _UNDERLINE.match(lines[i + 1])):
            return i
        if ind == base:
            if numpy:
                m = re.match(r"^\*{0,2}(\w+)\s*(?::.*)?$", s)
                current = m.group(1) if m else None
                if current:
                    out[current] = ""
            else:
                m = re.match(r"^\*{0,2}(\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$", s)
                current = m.group(1) if m else None
                if current:
                    out[current] = m.group(3).strip()  # type: ignore[union-attr]
        elif current is not None:
            out[current] = (out[current] + " " + s).strip()
        i += 1
    return i
