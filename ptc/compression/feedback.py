"""The user message that follows a turn in an uncompressed conversation."""

from __future__ import annotations

from typing import Sequence

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


NO_CODE = "No code found in your reply. Reply with one ```clojure block containing a program."


def clip_result(text: str, max_chars: int = MAX_RESULT_CHARS) -> str:
    return text if len(text) <= max_chars else text[:max_chars] + "... (truncated)"


def program_report(*, prints: Sequence[str], result: str | None, defined: Sequence[str],
                   error: str | None) -> list[str]:
    """What a model reads after its program ran (in the agent loop, the store's rebuilt
    conversation and ptc.Sandbox alike): output, result, names now defined, the error."""
    parts: list[str] = []
    if prints:
        parts.append("Output:\n" + output_block(tuple(prints)))
    if result is not None:
        parts.append(f"Result: {result}")
    if defined:
        parts.append("Defined: " + ", ".join(defined))
    if error is not None:
        parts.append(error)
    return parts


def feedback(turn: Turn, turns_left: int) -> str:
    """The program's report, and turns left."""
    result = None
    if turn.success and not turn.returned:
        result = clip_result(pr_str(turn.result, max_len=MAX_RESULT_CHARS + 1))
    error = turn.error.format() if turn.error is not None and turn.program is not None else None
    parts = [NO_CODE] if turn.program is None else []
    parts += program_report(prints=turn.prints, result=result, defined=turn.defined, error=error)
    parts.append(f"Turns left: {turns_left}")
    return "\n\n".join(parts)
