"""Is this input a complete PTC-Lisp entry yet? (bracket balance for multi-line input)

Brackets inside strings, regex literals, character literals (`\\(`) and `;` comments do
not count. The REPL keeps reading lines while an entry is `INCOMPLETE`; an entry with an
unmatched closing bracket is `INVALID` and is submitted anyway so that the parser reports
the error with its position.
"""

from __future__ import annotations

from enum import Enum

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}
# characters that end a character literal's name (`\newline`, `\u0041`)
_DELIMS = set(" \t\r\n,()[]{}\";")


class Balance(Enum):
    COMPLETE = "complete"
    INCOMPLETE = "incomplete"
    INVALID = "invalid"


def balance(text: str) -> Balance:
    """Classify `text`: complete, incomplete (open bracket or string), or invalid."""
    stack: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == ";":
            nl = text.find("\n", i)
            if nl < 0:
                break
            i = nl + 1
            continue
        if c == '"':  # strings and #"regex" literals
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            if i >= n:
                return Balance.INCOMPLETE
            i += 1
            continue
        if c == "\\":  # a character literal: `\(`, `\"`, `\;`, `\newline`
            i += 2
            while i < n and text[i] not in _DELIMS:
                i += 1
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif c in _CLOSE:
            if not stack or stack.pop() != c:
                return Balance.INVALID
        i += 1
    return Balance.INCOMPLETE if stack else Balance.COMPLETE


def is_complete(text: str) -> bool:
    """True when `text` should be submitted (balanced, or unbalanced beyond repair)."""
    return balance(text) is not Balance.INCOMPLETE
