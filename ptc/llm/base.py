"""What ptc needs from a language model, whatever serves it.

A model is anything with `complete(messages) -> Reply` (and optionally `acomplete`).
`as_llm` adapts the accepted forms: a litellm model name, a plain callable taking
messages and returning text, or an object that already speaks the protocol.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field


class Message(BaseModel):
    """One chat message as sent to the model (OpenAI/litellm shape)."""

    model_config = ConfigDict(frozen=True)

    role: Literal["system", "user", "assistant", "tool"]
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


class Usage(BaseModel):
    """Tokens and cost of one or more LLM calls."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # USD, when the provider's price is known
    calls: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: "Usage") -> "Usage":
        cost = None if self.cost is None and other.cost is None else (self.cost or 0.0) + (other.cost or 0.0)
        return Usage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens,
                     cost=cost, calls=self.calls + other.calls)


class Reply(BaseModel):
    """A model's answer: its text and what it cost."""

    model_config = ConfigDict(frozen=True)

    text: str
    usage: Usage = Field(default_factory=Usage)
    model: str | None = None


class LLMError(Exception):
    """The model could not be reached or answered unusably (after retries).

    `kind` is one of: rate_limit, timeout, server, auth, bad_request, replay, other.
    `partial` holds any text received before the failure.
    """

    def __init__(self, kind: str, message: str, *, partial: str = "", retries: int = 0) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.partial = partial
        self.retries = retries

    def __str__(self) -> str:
        return f"LLM error ({self.kind}): {self.message}"


Messages = list[dict[str, str]]


@runtime_checkable
class LLM(Protocol):
    def complete(self, messages: Messages) -> Reply: ...


async def acomplete(llm: Any, messages: Messages) -> Reply:
    """Async completion: native when the model offers it, else in a worker thread."""
    native = getattr(llm, "acomplete", None)
    if native is not None:
        return await native(messages)  # type: ignore[no-any-return]
    return await asyncio.to_thread(llm.complete, messages)


class CallableLLM:
    """Adapts `fn(messages) -> str | Reply` to the protocol (tokens counted locally)."""

    def __init__(self, fn: Callable[[Messages], Any]) -> None:
        self.fn = fn

    def complete(self, messages: Messages) -> Reply:
        out = self.fn(messages)
        if isinstance(out, Reply):
            return out
        if not isinstance(out, str):
            raise LLMError("other", f"the llm callable returned {type(out).__name__}, expected str")
        from .tokens import count_message_tokens, count_tokens

        usage = Usage(prompt_tokens=count_message_tokens(messages), completion_tokens=count_tokens(out), calls=1)
        return Reply(text=out, usage=usage)


def as_llm(llm: Any) -> Any:
    """Accept a litellm model name, a callable, or an LLM object."""
    if isinstance(llm, str):
        from .litellm_client import LiteLLM

        return LiteLLM(llm)
    if hasattr(llm, "complete"):
        return llm
    if callable(llm):
        return CallableLLM(llm)
    raise TypeError(f"llm must be a model name, a callable or an object with complete(); got {type(llm).__name__}")
