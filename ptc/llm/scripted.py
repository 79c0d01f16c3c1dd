"""A model that replies from a script: for tests, demos and benchmarks."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .base import LLMError, Messages, Reply, Usage


class ScriptedLLM:
    """Replies in order; keeps every request it received in `.requests`.

    A script entry is a reply text, a `Reply`, a callable `messages -> str`, or an exception
    instance (raised, to simulate a failing model).
    """

    def __init__(self, replies: Sequence[Any], *, model: str = "scripted") -> None:
        self.replies = list(replies)
        self.requests: list[Messages] = []
        self.model = model

    def complete(self, messages: Messages) -> Reply:
        self.requests.append([dict(m) for m in messages])
        index = len(self.requests) - 1
        if index >= len(self.replies):
            raise LLMError("replay", f"ScriptedLLM has no reply #{index + 1} (script has {len(self.replies)})")
        entry = self.replies[index]
        if isinstance(entry, BaseException):
            raise entry
        if isinstance(entry, Reply):
            return entry
        text = entry(messages) if callable(entry) else entry
        if not isinstance(text, str):
            raise LLMError("other", f"script entry #{index + 1} is not text")
        from .tokens import count_message_tokens, count_tokens

        usage = Usage(prompt_tokens=count_message_tokens(messages), completion_tokens=count_tokens(text), calls=1)
        return Reply(text=text, usage=usage, model=self.model)

    @property
    def remaining(self) -> int:
        return len(self.replies) - len(self.requests)


ReplyFn = Callable[[Messages], str]
