"""AppendOnlySummaries: SingleUserCoalesced's content, one message per turn, never rewritten.

    [SYSTEM, USER(mission, "Turns left: N"), USER(turn 1 summary), USER(turn 2 summary), ...]

Providers bill a prompt prefix they have seen before at a fraction of the price (OpenAI 0.5x,
Anthropic 0.1x; see `ptc.llm.pricing`). SingleUserCoalesced rewrites its one user message on
every call, so only the system prompt is ever a cached prefix. This strategy renders each
turn into its own user message once: what that turn did (tool calls, names defined with type
and sample, println output) or, for a failed turn, its code verbatim with the error. Every
call's messages are the previous call's messages plus one, byte for byte, so everything but
the newest turn is read from the cache.

What that costs against SingleUserCoalesced: a message is never revised, so a name
redefined later keeps its old line in the earlier message (the new line follows), and the
FIFO limits apply per turn: each message shows that turn's most recent `println_limit`
printlns and `tool_call_limit` tool calls, and older messages are not trimmed afterwards.
All messages are user messages, so the model never sees a summary in its own voice (the
seed's reason for a single user message); Anthropic's API joins consecutive user messages
into one turn, block by block, which keeps every block's cache breakpoint.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..agent.turn import Turn
from .base import Messages, RenderContext, Strategy
from .single_user_coalesced import definition_line, failed_block, last, summary_sections, tool_call_line


class AppendOnlySummaries(Strategy):
    """The strategy that is cheapest under prompt caching: summaries appended, never rewritten."""

    name = "append-only-summaries"
    append_only = True

    def __init__(self, println_limit: int = 15, tool_call_limit: int = 20) -> None:
        self.println_limit = println_limit
        self.tool_call_limit = tool_call_limit

    def turn_message(self, turn: Turn, max_turns: int) -> str:
        """One turn, as the model sees it from the next call on (a pure function of the turn)."""
        calls = last([tool_call_line(c.name, c.args, c.error) for c in turn.tool_calls], self.tool_call_limit)
        definitions: list[str] = []
        prints: list[str] = []
        if turn.success:
            definitions = [definition_line(name, turn.memory[name], turn.docs.get(name), not turn.prints)
                           for name in turn.defined if name in turn.memory]
            prints = last(list(turn.prints), self.println_limit)
        parts = [f"; Turn {turn.number}\n" + summary_sections(calls, definitions, prints)]
        if not turn.success:
            parts.append(failed_block(turn))
        if turn.note:
            parts.append(turn.note)
        parts.append(f"Turns left: {max_turns - turn.number}")
        return "\n\n".join(parts)

    def to_messages(self, turns: Sequence[Turn], memory: Mapping[str, Any], context: RenderContext) -> Messages:
        messages = [{"role": "system", "content": context.system_prompt},
                    {"role": "user", "content": f"{context.mission}\n\nTurns left: {context.max_turns}"}]
        messages += [{"role": "user", "content": self.turn_message(t, context.max_turns)} for t in turns]
        return messages


__all__ = ["AppendOnlySummaries"]
