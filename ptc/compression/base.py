"""The strategy contract: `to_messages(turns, memory, context) -> messages`, nothing else.

A strategy never changes the turns it renders; the same turns can be rendered by any
strategy (the compressed view for the LLM, the full view for debugging).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from ..agent.turn import Turn

Messages = list[dict[str, str]]


class RenderContext(BaseModel):
    """What a strategy may use besides the turns: the mission, prompt and turn budget."""

    model_config = ConfigDict(frozen=True)

    mission: str
    system_prompt: str
    max_turns: int
    options: dict[str, Any] = Field(default_factory=dict)


@runtime_checkable
class Strategy(Protocol):
    """`append_only`: every call's messages start with the previous call's messages, unchanged
    (byte for byte), so a provider's prompt cache keeps all of them (`ptc.llm.caching`)."""

    name: str
    append_only: bool = False

    def to_messages(self, turns: Sequence[Turn], memory: Mapping[str, Any], context: RenderContext) -> Messages: ...
