"""The user message that follows a turn in an uncompressed conversation."""

from __future__ import annotations

from ..agent.turn import Turn
from ..interpreter.printer import pr_str

MAX_OUTPUT_LINES = 60
MAX_OUTPUT_CHARS = 6_000
MAX_RESULT_CHARS = 800


def output_block(prints: tuple[str, ...], *, max_lines: int = MAX_OUTPUT_LINES,
                 max_chars: int = MAX_OUTPUT_CHARS) -> str:
    """println output, cut to a budget with a note saying how much was left out."""
    lines = [line for p in prints for line in p.split("\n")]
    shown, size = [], 0
    for line in lines[:max_lines]:
        if size + len(line) > max_chars:
            shown.append(line[: max(0, max_chars - size)])
            break
        shown.append(line)
        size += len(line) + 1
    text = "\n".join(shown)
    if len(shown) < len(lines) or size > max_chars:
        text += f"\n... (output truncated: showed {len(shown)} of {len(lines)} lines; print less or summarize)"
    return text


def feedback(turn: Turn, turns_left: int) -> str:
    """Output, result, names now defined, the error and its hint, and turns left."""
    parts: list[str] = []
    if turn.program is None:
        parts.append("No code found in your reply. Reply with one ```clojure block containing a program.")
    if turn.prints:
        parts.append("Output:\n" + output_block(turn.prints))
    if turn.success and not turn.returned:
        text = pr_str(turn.result, max_len=MAX_RESULT_CHARS + 1)
        if len(text) > MAX_RESULT_CHARS:
            text = text[:MAX_RESULT_CHARS] + "... (truncated)"
        parts.append(f"Result: {text}")
    if turn.defined:
        parts.append("Defined: " + ", ".join(turn.defined))
    if turn.error is not None and turn.program is not None:
        parts.append(turn.error.format())
    parts.append(f"Turns left: {turns_left}")
    return "\n\n".join(parts)
