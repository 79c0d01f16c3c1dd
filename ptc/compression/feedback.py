"""The user message that follows a turn in an uncompressed conversation."""

from __future__ import annotations

from typing import Sequence

from ..agent.response import NO_CODE
from ..agent.turn import CONFIRM, Turn
from ..interpreter.printer import pr_str

MAX_OUTPUT_LINES = 60
MAX_OUTPUT_CHARS = 6_000
MAX_RESULT_CHARS = 800


def output_block(prints: tuple[str, ...], *, max_lines: int = MAX_OUTPUT_LINES,
                 max_chars: int = MAX_OUTPUT_CHARS) -> str:
    """println output, cut to a budget with a note saying how much was left out."""
    lines = [line for p in prints for line in p.split("\n")]
    shown, size, cut = [], 0, False
    for line in lines[:max_lines]:
        if size + len(line) > max_chars:
            shown.append(line[: max(0, max_chars - size)])
            cut = True
            break
        shown.append(line)
        size += len(line) + 1
    text = "\n".join(shown)
    if len(shown) < len(lines) or cut:
        text += f"\n... (output truncated: showed {len(shown)} of {len(lines)} lines; print less or summarize)"
    return text


RETURN_HINT = "(not returned; answer with (return ...))"


def clip_result(text: str, max_chars: int = MAX_RESULT_CHARS) -> str:
    return text if len(text) <= max_chars else text[:max_chars] + "... (truncated; show a smaller part, e.g. (take 10 xs))"


def program_report(*, prints: Sequence[str], result: str | None, defined: Sequence[str],
                   error: str | None, note: str | None = None) -> list[str]:
    """What a model reads after its program ran (in the agent loop, the store's rebuilt
    conversation and ptc.Sandbox alike): output, result, names now defined, the error, and
    the note (why an empty answer is empty; which code blocks ran)."""
    parts: list[str] = []
    if prints:
        parts.append("Output:\n" + output_block(tuple(prints)))
    if result is not None:
        parts.append(f"Result: {result}")
    if defined:
        parts.append("Defined: " + ", ".join(defined))
    if error is not None:
        parts.append(error)
    if note is not None:
        parts.append(note)
    return parts


def shown_result(text: str, prints: Sequence[str], note: str | None = None) -> str:
    """The result line's value; when the program ended with a value or printed one (not with
    a def), a reminder that only (return ...) answers (unless the note asks already)."""
    if not text.startswith("#'") and (text != "nil" or prints) and not (note and note.endswith(CONFIRM)):
        return f"{text} {RETURN_HINT}"
    return text


def feedback(turn: Turn, turns_left: int) -> str:
    """The program's report, and turns left."""
    result = None
    if turn.success and not turn.returned:
        result = shown_result(clip_result(pr_str(turn.result, max_len=MAX_RESULT_CHARS + 1)), turn.prints,
                              turn.note)
    error = turn.error.format() if turn.error is not None and turn.program is not None else None
    parts = [no_code_text(turn.error.message if turn.error else None)] if turn.program is None else []
    parts += program_report(prints=turn.prints, result=result, defined=turn.defined, error=error, note=turn.note)
    parts.append(f"Turns left: {turns_left}")
    return "\n\n".join(parts)


def no_code_text(message: str | None) -> str:
    """What a reply without a program gets: the parser's nudge (NO_CODE for older records)."""
    return message if message and message[0].isupper() else NO_CODE
