"""What ptc needs from a language model, whatever serves it.

A model is anything with `complete(messages) -> Reply` (and optionally `acomplete`), or with
only `async acomplete(messages) -> Reply` (then synchronous callers await it on a loop of
their own). One
that places prompt-cache breakpoints also accepts ``append_only=`` (whether the caller's next
request starts with this one's messages, unchanged); `complete` / `acomplete` here pass that
hint only to models that take it. `as_llm` adapts the accepted forms: a litellm model name, a plain callable taking
messages and returning text, or an object that already speaks the protocol.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
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
    """Tokens and cost of one or more LLM calls.

    `prompt_tokens` counts the whole prompt; `cached_tokens` is the part of it the provider
    served from its prompt cache (billed cheaper), `cache_write_tokens` the part it wrote to
    the cache (Anthropic bills that dearer). Both 0 when the provider reports no caching.
    """

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # USD, when the provider's price is known
    calls: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: "Usage") -> "Usage":
        cost = None if self.cost is None and other.cost is None else (self.cost or 0.0) + (other.cost or 0.0)
        return Usage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens,
                     cost=cost, calls=self.calls + other.calls,
                     cached_tokens=self.cached_tokens + other.cached_tokens,
                     cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens)

    def prompt_text(self) -> str:
        """The prompt for people: "6,794 prompt (5,120 cached)"; the parenthesis only when caching happened."""
        return format_prompt_tokens(self.prompt_tokens, self.cached_tokens, self.cache_write_tokens)


def format_prompt_tokens(prompt: Any, cached: Any = 0, cache_write: Any = 0, *, unit: str = " prompt") -> str:
    """Prompt tokens for people, from a Usage or its JSON (traces, stores, suite results;
    means are rounded). `unit` follows the number ("" under a "prompt" column heading)."""
    parts = [f"{round(n):,} {label}" for n, label in ((cached, "cached"), (cache_write, "written to cache"))
             if isinstance(n, (int, float)) and round(n) > 0]
    text = f"{round(prompt or 0):,}{unit}"
    return text + (f" ({', '.join(parts)})" if parts else "")


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


def _takes_append_only(method: Any) -> bool:
    try:
        return "append_only" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def complete(llm: Any, messages: Messages, *, append_only: bool = False) -> Reply:
    """`llm.complete(messages)`, with the `append_only` hint when the model takes it. A model
    with only `async acomplete` is awaited on an event loop of its own (see _run_async)."""
    if not hasattr(llm, "complete"):
        return _run_async(acomplete(llm, messages, append_only=append_only))
    if append_only and _takes_append_only(llm.complete):
        return llm.complete(messages, append_only=True)  # type: ignore[no-any-return]
    return llm.complete(messages)  # type: ignore[no-any-return]


async def acomplete(llm: Any, messages: Messages, *, append_only: bool = False) -> Reply:
    """Async completion: native when the model offers it, else in a worker thread."""
    native = getattr(llm, "acomplete", None)
    if native is not None:
        if append_only and _takes_append_only(native):
            return await native(messages, append_only=True)  # type: ignore[no-any-return]
        return await native(messages)  # type: ignore[no-any-return]
    return await asyncio.to_thread(complete, llm, messages, append_only=append_only)


def _run_async(coro: Any) -> Any:
    """Run a coroutine to completion from synchronous code: `asyncio.run` in this thread, or in
    a worker thread when this thread already runs an event loop (loops cannot nest). Each call
    gets a fresh loop, so an async-only model used synchronously must not keep loop-bound
    resources (an open aiohttp session) from one call to the next; `Agent.arun` has no such limit."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ptc-llm") as pool:
        return pool.submit(asyncio.run, coro).result()


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
