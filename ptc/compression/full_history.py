"""FullHistory: what an uncompressed agent sends (every reply and its feedback)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..agent.turn import Turn
from .base import Messages, RenderContext, Strategy
from .feedback import feedback


class FullHistory(Strategy):
    """system, user(mission), then each turn's assistant reply and the feedback after it."""

    name = "full-history"
    append_only = True

    def to_messages(self, turns: Sequence[Turn], memory: Mapping[str, Any], context: RenderContext) -> Messages:
        messages = [{"role": "system", "content": context.system_prompt},
                    {"role": "user", "content": context.mission}]
        for turn in turns:
            messages.append({"role": "assistant", "content": turn.raw_response})
            messages.append({"role": "user", "content": feedback(turn, context.max_turns - turn.number)})
        return messages
