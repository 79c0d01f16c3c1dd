"""Getting the program out of a model's reply (a pure function of the text).

Models send fences tagged clojure, clj, lisp or nothing, prose around the code, several
blocks, bare code, or no code at all. `parse_reply` takes the program and says, for the
model's next prompt, how the reply was read when that was not the one-block case: which
blocks ran, or (no program) what to send instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\r?\n(.*?)(?:```|\Z)", re.S)
_LISP_TAGS = {"clojure", "clj", "lisp", "cljs", "edn", "ptc", "ptc-lisp", "scheme", "cl", "racket", "elisp"}
_REPAIRS = str.maketrans({
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2018": "'", "\u2019": "'", "\u00a0": " ", "\u2007": " ", "\u202f": " ",
    "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None, "\ufeff": None,
})
NO_CODE = "No code found in your reply. Reply with one ```clojure block containing a program."
_ANSWER_HINT = " To answer, run (return answer) in it."


def repair(code: str) -> str:
    """Smart quotes -> ASCII quotes; invisible characters removed; non-breaking spaces -> spaces."""
    return code.translate(_REPAIRS)


@dataclass(frozen=True)
class ParsedReply:
    """The program in a reply (None when there is none) and what to tell the model about it:
    `note` when several blocks ran as one program, `nudge` when no program was found."""

    code: str | None
    blocks: int = 0
    note: str | None = None
    nudge: str | None = None


def parse_reply(reply: str) -> ParsedReply:
    """Takes ```clojure / ```clj / ```lisp blocks (several are joined in order, and the note
    says so); untagged blocks count when they look like Lisp; failing that, a bare reply
    whose code starts on a line beginning with `(` (prose before or after it is dropped)."""
    text = repair(reply)
    tagged: list[str] = []
    untagged: list[str] = []
    other: list[str] = []
    for m in _FENCE.finditer(text):
        tag, body = m.group(1).lower(), m.group(2).strip()
        if not body:
            continue
        if tag in _LISP_TAGS:
            tagged.append(body)
        elif tag == "" and body.lstrip().startswith(("(", ";", "[", "{")):
            untagged.append(body)
        else:
            other.append(tag or "untagged")
    blocks = tagged or untagged
    if blocks:
        note = None
        if len(blocks) > 1:
            note = (f"note: your reply had {len(blocks)} code blocks; they ran as one program, in order. "
                    "Send one ```clojure block.")
        return ParsedReply("\n".join(blocks), len(blocks), note)
    if "```" not in text:
        bare = _bare_code(text)
        if bare is not None:
            return ParsedReply(bare, 1)
    if other:
        lang = other[0]
        return ParsedReply(None, nudge=f"Your ```{lang} block is not PTC-Lisp and did not run. "
                                       "Reply with one ```clojure block containing a PTC-Lisp program.")
    return ParsedReply(None, nudge=NO_CODE + _ANSWER_HINT)


def extract_code(reply: str) -> str | None:
    """The PTC-Lisp program in a reply, or None when there is none."""
    return parse_reply(reply).code


def _bare_code(text: str) -> str | None:
    """Unfenced code: from the first line that starts with `(` to where its brackets close
    (further top-level forms included), prose lines before and after left out."""
    lines = text.strip().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("(")), None)
    if start is None:
        return None
    depth, kept = 0, []
    for line in lines[start:]:
        stripped = line.strip()
        if depth == 0 and kept and stripped and not stripped.startswith(("(", ";")):
            break
        kept.append(line)
        depth = _depth_after(line, depth)
    code = "\n".join(kept).strip()
    return code or None


def _depth_after(line: str, depth: int) -> int:
    """Bracket depth after a line (strings and comments skipped; an open string ends the count)."""
    in_str = esc = False
    for ch in line:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == ";":
            break
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return max(depth, 0)
