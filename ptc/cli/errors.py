"""Rendering program errors for people: the message, the source line, a caret, the hint.

    error[runtime] 2:4: Cannot add "a" to 1
      (+ 1 "a")
         ^
      hint: ...

Colours (rich) are used only when the stream is a terminal and NO_COLOR is unset, so
pipes, files and tests always see the plain text above.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, TextIO

from ptc.interpreter.errors import limit_hint

if TYPE_CHECKING:  # pragma: no cover
    from ptc.interpreter.errors import PTCError

INDENT = "  "
MAX_LINE = 100  # longer source lines are shown as a window around the column


def use_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # closed or detached stream
        return False


def source_excerpt(source: str | None, line: int | None, column: int | None) -> tuple[str, str] | None:
    """The offending source line and a caret line under `column` (both 1-based).

    Returns None when the position is unknown or outside the source. Tabs before the
    column are kept in the caret line so the caret lines up in any terminal.
    """
    if source is None or line is None or line < 1:
        return None
    lines = source.splitlines()
    if line > len(lines):
        return None
    text = lines[line - 1].rstrip("\r\n")
    col = max(1, column or 1)
    col = min(col, len(text) + 1)
    if len(text) > MAX_LINE:  # show a window around the column
        start = max(0, min(col - 1 - MAX_LINE // 2, len(text) - MAX_LINE))
        end = start + MAX_LINE
        shown = text[start:end]
        lead = "..." if start > 0 else ""
        tail = "..." if end < len(text) else ""
        text = lead + shown + tail
        col = col - start + len(lead)
    pad = "".join("\t" if ch == "\t" else " " for ch in text[: col - 1])
    return text, pad + "^"


def render_error(err: "PTCError", source: str | None = None) -> str:
    """The plain-text rendering of an error (no colours, no trailing newline)."""
    head, _, _ = err.format().partition("\n  hint: ")
    out = [head]
    excerpt = source_excerpt(source, err.line, err.column)
    if excerpt is not None:
        out.append(INDENT + excerpt[0])
        out.append(INDENT + excerpt[1])
    hint = limit_hint(err, "cli")
    if hint:
        out.append(f"{INDENT}hint: {hint}")
    return "\n".join(out)


def _render_rich(err: "PTCError", source: str | None) -> Any:
    from rich.text import Text

    head, _, _ = err.format().partition("\n  hint: ")
    tag, _, rest = head.partition(" ") if head.startswith("error[") else (head, "", "")
    text = Text()
    text.append(tag.rstrip(":"), style="bold red")
    if tag.endswith(":"):
        text.append(":")
    if rest:
        where, sep, message = rest.partition(": ")
        if sep and err.line is not None:
            text.append(" " + where, style="bold")
            text.append(": " + message)
        else:
            text.append(" " + rest)
    excerpt = source_excerpt(source, err.line, err.column)
    if excerpt is not None:
        text.append("\n" + INDENT + excerpt[0])
        text.append("\n" + INDENT + excerpt[1], style="bold red")
    hint = limit_hint(err, "cli")
    if hint:
        text.append("\n" + INDENT)
        text.append("hint:", style="bold cyan")
        text.append(" " + hint, style="cyan")
    return text


def print_error(err: "PTCError", source: str | None = None, stream: TextIO | None = None) -> None:
    """Write the rendered error to `stream` (stderr by default), coloured on a terminal."""
    stream = stream if stream is not None else sys.stderr
    if use_colour(stream):
        from rich.console import Console

        Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True).print(_render_rich(err, source))
    else:
        stream.write(render_error(err, source) + "\n")
    stream.flush()


def print_message(message: str, stream: TextIO | None = None, style: str = "bold red") -> None:
    """A one-line CLI message (not a program error), coloured on a terminal."""
    stream = stream if stream is not None else sys.stderr
    if use_colour(stream):
        from rich.console import Console
        from rich.text import Text

        Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True).print(Text(message, style=style))
    else:
        stream.write(message + "\n")
    stream.flush()
