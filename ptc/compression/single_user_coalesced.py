"""SingleUserCoalesced: all context in one USER message (shared/seeds/message-history-optimization.md).

    [SYSTEM, USER(mission + accumulated context + failed attempts + "Turns left: N")]

The model never sees its earlier code (except failed attempts, kept verbatim), only what
that code did: tool calls made, names defined (type and sample), and println output.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..agent.turn import Turn
from ..interpreter import values as V
from ..interpreter.printer import sample_text, type_label
from .base import Messages, RenderContext, Strategy

SAMPLE_LIMIT, SAMPLE_CHARS = 3, 80
ARGS_LIMIT, ARGS_CHARS = 3, 60


@dataclass(frozen=True)
class Summary:
    """The accumulated context of a run, and what the FIFO limits dropped."""

    text: str
    turns_compressed: int
    failed_turns: int
    tool_calls_shown: int
    tool_calls_dropped: int
    printlns_shown: int
    printlns_dropped: int


def tool_call_line(name: str, args: Any, error: str | None = None) -> str:
    """`;   name(args)` with args in Clojure syntax (3 items per collection, strings cut at 60
    characters). A call that failed is marked, so the model does not take it for done."""
    if type(args) in V.VECTOR_TYPES:
        text = " ".join(sample_text(a, limit=ARGS_LIMIT, max_chars=ARGS_CHARS) for a in args)
    elif type(args) in V.MAP_TYPES and len(args) == 0:
        text = ""
    else:
        text = sample_text(args, limit=ARGS_LIMIT, max_chars=ARGS_CHARS)
    return f";   {name}({text})" + (" -> failed" if error else "")


def sample_of(value: Any) -> str | None:
    """The sample shown for a defined value: a list's first item, else the value itself;
    none for nil and empty collections."""
    if value is None:
        return None
    t = type(value)
    if t in V.SEQUENTIAL_TYPES or t in V.SET_TYPES:
        first = next(iter(value), _NONE)
        if first is _NONE:
            return None
        return sample_text(first, limit=SAMPLE_LIMIT, max_chars=SAMPLE_CHARS)
    if t in V.MAP_TYPES and len(value) == 0:
        return None
    return sample_text(value, limit=SAMPLE_LIMIT, max_chars=SAMPLE_CHARS)


_NONE = object()


def definition_line(name: str, value: Any, doc: str | None, with_sample: bool) -> str:
    if callable(value) and type(value) not in (V.Keyword,) and type(value) not in V.MAP_TYPES \
            and type(value) not in V.SET_TYPES:
        return f'; Function: {name} - "{doc}"' if doc else f"; Function: {name}"
    head = f'; Defined: {name} - "{doc}"' if doc else f"; Defined: {name}"
    line = f"{head} = {type_label(value)}"
    sample = sample_of(value) if with_sample else None
    if sample is not None:
        line += f", sample: {sample}"
    return line


def failed_block(turn: Turn) -> str:
    error = turn.error
    message = error.message if error else "failed"
    if error is not None and error.line is not None:
        message += f" (line {error.line}, column {error.column})"
    if error is not None and error.hint:
        message += f"\nHint: {error.hint}"
    code = turn.program if turn.program is not None else turn.raw_response.strip()[:2000]
    return f"---\nYour previous attempt:\n```clojure\n{code}\n```\n\nError: {message}\n---"


def last(items: Sequence[str], limit: int) -> list[str]:
    """The FIFO limit: the most recent `limit` items (none for a limit of 0)."""
    return list(items[-limit:]) if limit > 0 else []


def summary_sections(calls: Sequence[str] | None, definitions: Sequence[str], prints: Sequence[str]) -> str:
    """The seed's sections in order, empty ones omitted: tool calls (`; No tool calls made` when
    there are none; no section at all for `None`), functions, definitions, output."""
    functions = [line for line in definitions if line.startswith("; Function:")]
    defined = [line for line in definitions if not line.startswith("; Function:")]
    sections: list[str] = []
    if calls is not None:
        sections.append("\n".join(["; Tool calls:", *calls]) if calls else "; No tool calls made")
    if functions:
        sections.append("\n".join(functions))
    if defined:
        sections.append("\n".join(defined))
    if prints:
        sections.append("\n".join(["; Output:", *prints]))
    return "\n".join(sections)


def summarize(turns: Sequence[Turn], memory: Mapping[str, Any], *, println_limit: int,
              tool_call_limit: int) -> Summary:
    calls: list[str] = [tool_call_line(c.name, c.args, c.error) for t in turns for c in t.tool_calls]
    shown_calls = last(calls, tool_call_limit)
    # Definitions in definition order; a redefinition moves the name to its latest position.
    order: OrderedDict[str, tuple[str | None, bool]] = OrderedDict()
    prints: list[str] = []
    compressed = 0
    for t in turns:
        if not t.success:
            continue
        compressed += 1
        for name in t.defined:
            order.pop(name, None)
            order[name] = (t.docs.get(name), not t.prints)
        prints.extend(t.prints)
    for name in memory:  # names that came from outside any turn (a resumed memory)
        if name not in order:
            order[name] = (None, True)
            order.move_to_end(name, last=False)
    shown_prints = last(prints, println_limit)
    definitions = [definition_line(name, memory[name], doc, with_sample)
                   for name, (doc, with_sample) in order.items() if name in memory]
    text = summary_sections(shown_calls if turns else None, definitions, shown_prints)
    return Summary(text, compressed, sum(1 for t in turns if not t.success),
                   len(shown_calls), len(calls) - len(shown_calls), len(shown_prints),
                   len(prints) - len(shown_prints))


class SingleUserCoalesced(Strategy):
    """The flagship strategy: [system, user]; the model's reply is the next assistant message."""

    name = "single-user-coalesced"

    def __init__(self, println_limit: int = 15, tool_call_limit: int = 20) -> None:
        self.println_limit = println_limit
        self.tool_call_limit = tool_call_limit

    def user_message(self, turns: Sequence[Turn], memory: Mapping[str, Any], context: RenderContext) -> str:
        summary = summarize(turns, memory, println_limit=self.println_limit, tool_call_limit=self.tool_call_limit)
        parts = [context.mission]
        if summary.text:
            parts.append(summary.text)
        parts.extend(failed_block(t) for t in turns if not t.success)
        if turns and turns[-1].note:  # about the latest program only: later turns make it stale
            parts.append(turns[-1].note)
        parts.append(f"Turns left: {context.max_turns - len(turns)}")
        return "\n\n".join(parts)

    def to_messages(self, turns: Sequence[Turn], memory: Mapping[str, Any], context: RenderContext) -> Messages:
        return [{"role": "system", "content": context.system_prompt},
                {"role": "user", "content": self.user_message(turns, memory, context)}]

    def stats(self, turns: Sequence[Turn], memory: Mapping[str, Any], context: RenderContext) -> dict[str, Any]:
        """Compression statistics for step.usage: what was compressed or dropped, and the
        tokens of every prompt this strategy rendered vs. what FullHistory would have sent."""
        from ..llm.tokens import count_message_tokens
        from .full_history import FullHistory

        summary = summarize(turns, memory, println_limit=self.println_limit, tool_call_limit=self.tool_call_limit)
        full = FullHistory()
        ours_total = full_total = 0
        for k in range(len(turns)):
            mem = turns[k - 1].memory if k else {}
            ours_total += count_message_tokens(self.to_messages(turns[:k], mem, context))
            full_total += count_message_tokens(full.to_messages(turns[:k], mem, context))
        return {
            "strategy": self.name,
            "turns_compressed": summary.turns_compressed,
            "failed_turns_verbatim": summary.failed_turns,
            "tool_calls_shown": summary.tool_calls_shown,
            "tool_calls_dropped": summary.tool_calls_dropped,
            "printlns_shown": summary.printlns_shown,
            "printlns_dropped": summary.printlns_dropped,
            "prompt_tokens": ours_total,
            "full_history_tokens": full_total,
            "ratio": round(ours_total / full_total, 4) if full_total else None,
        }


__all__ = ["SingleUserCoalesced", "Summary", "definition_line", "failed_block", "last", "summarize", "summary_sections",
           "tool_call_line"]
