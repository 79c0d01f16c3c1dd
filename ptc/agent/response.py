"""Getting the program out of a model's reply (a pure function of the text)."""

from __future__ import annotations

import re

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)(?:```|\Z)", re.S)
_LISP_TAGS = {"clojure", "clj", "lisp", "cljs", "edn", "ptc", "ptc-lisp", "scheme"}
_REPAIRS = str.maketrans({
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2018": "'", "\u2019": "'", "\u00a0": " ", "\u2007": " ", "\u202f": " ",
    "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None, "\ufeff": None,
})


def repair(code: str) -> str:
    """Smart quotes -> ASCII quotes; invisible characters removed; non-breaking spaces -> spaces."""
    return code.translate(_REPAIRS)


def extract_code(reply: str) -> str | None:
    """The PTC-Lisp program in a reply, or None when there is none.

    Takes ```clojure / ```clj / ```lisp blocks (several are joined in order); untagged
    blocks count when they look like Lisp; failing that, a bare reply that starts with
    `(` is taken whole.
    """
    text = repair(reply)
    tagged: list[str] = []
    untagged: list[str] = []
    for m in _FENCE.finditer(text):
        tag, body = m.group(1).lower(), m.group(2).strip()
        if not body:
            continue
        if tag in _LISP_TAGS:
            tagged.append(body)
        elif tag == "" and body.lstrip().startswith(("(", ";", "[", "{")):
            untagged.append(body)
    blocks = tagged or untagged
    if blocks:
        return "\n".join(blocks)
    stripped = text.strip()
    if stripped.startswith("(") and "```" not in stripped:
        return stripped
    return None
