"""Context settings and usage: how full the next request is, measured before every LLM call.

Budget arithmetic (all in tokens, estimated with `ptc.llm.tokens`)::

    window (settings.budget)  =  prompt budget  +  reserve_for_reply
    used                      =  tokens of the request (system prompt + messages + framing)
    percent                   =  100 * used / prompt budget
    remaining                 =  prompt budget - used

Compaction starts when ``used > trigger_ratio * prompt budget`` (default 80%) and aims for
``target_ratio * prompt budget`` (default 50%). The broad summary uses the absolute
``soft_threshold`` / ``hard_threshold`` instead (default 6,000 / 8,000 tokens).

A request is counted with OpenAI's recipe (`count_message_tokens`: 3 per message, the role
and every string field, 3 to prime the reply) plus the JSON of assistant ``tool_calls``, which
that recipe leaves out.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..llm.tokens import DEFAULT_ENCODING, REPLY_PRIMING_TOKENS, count_message_tokens, count_tokens

Status = Literal["normal", "warning", "compacting"]


class ContextSettings(BaseModel):
    """How large a request may be and when and how it is compacted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    budget: int = Field(16_000, gt=0, description="the context window allotted to one call (prompt + reply)")
    reserve_for_reply: int = Field(2_000, ge=0, description="tokens kept free for the reply")
    trigger_ratio: float = Field(0.8, gt=0, le=1, description="compact above this share of the prompt budget")
    target_ratio: float = Field(0.5, gt=0, le=1, description="compaction aims at this share")
    warning_ratio: float = Field(0.7, gt=0, le=1, description="usage status 'warning' above this share")
    soft_threshold: int = Field(6_000, gt=0, description="broad summary: start summarizing in the background")
    hard_threshold: int = Field(8_000, gt=0, description="broad summary: block until the summary is done")
    keep_recent_rounds: int = Field(4, ge=1, description="K: the last-resort fallback keeps the last K rounds")
    mandatory_rounds: int = Field(2, ge=1, description="the most recent rounds a strategy must keep")
    tool_preview_chars: int = Field(600, ge=80, description="size of a tool-result preview (head + tail)")
    long_text_chars: int = Field(2_000, ge=200, description="user/assistant texts longer than this may be shortened")
    shorten_to_chars: int = Field(700, ge=100, description="what a shortened text is cut to")
    encoding: str = Field(DEFAULT_ENCODING, description="tiktoken encoding for the estimates")
    numbering: Literal["positional", "absolute", "none"] = Field(
        "none", description="message numbers shown to the model (see ptc.conversation.numbering)")
    include_compressed: bool = Field(False, description="also send compressed messages (not only their summaries)")
    enforce_budget: bool = Field(True, description="the builder trims a request that exceeds the prompt budget")
    tool_protocol: Literal["native", "text"] = Field(
        "native", description="tool calls/results as OpenAI tool messages, or as plain text")

    @model_validator(mode="after")
    def _check(self) -> "ContextSettings":
        if self.reserve_for_reply >= self.budget:
            raise ValueError("reserve_for_reply must be smaller than budget")
        if self.target_ratio >= self.trigger_ratio:
            raise ValueError("target_ratio must be below trigger_ratio")
        if self.warning_ratio > self.trigger_ratio:
            raise ValueError("warning_ratio must not exceed trigger_ratio")
        if self.soft_threshold > self.hard_threshold:
            raise ValueError("soft_threshold must not exceed hard_threshold")
        if self.mandatory_rounds > self.keep_recent_rounds:
            raise ValueError("mandatory_rounds must not exceed keep_recent_rounds")
        if self.shorten_to_chars >= self.long_text_chars:
            raise ValueError("shorten_to_chars must be below long_text_chars")
        return self

    @property
    def prompt_budget(self) -> int:
        """Tokens a request may use: the window minus the reply reserve."""
        return self.budget - self.reserve_for_reply

    @property
    def trigger_tokens(self) -> int:
        return int(self.trigger_ratio * self.prompt_budget)

    @property
    def target_tokens(self) -> int:
        return int(self.target_ratio * self.prompt_budget)


@dataclass(frozen=True)
class ContextUsage:
    """How full a request is. `budget` is the prompt budget (window minus reply reserve)."""

    used: int
    budget: int
    percent: float
    remaining: int
    status: Status
    system: int = 0      # tokens of the system prompt (the first message, when it is a system one)
    messages: int = 0    # number of messages in the request
    window: int = 0      # settings.budget
    reserve: int = 0     # settings.reserve_for_reply

    @property
    def ratio(self) -> float:
        return self.used / self.budget if self.budget else 0.0

    @property
    def over_budget(self) -> bool:
        return self.used > self.budget

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.used:,}/{self.budget:,} tokens ({self.percent:.0f}%, {self.status})"


def message_tokens(message: Mapping[str, Any], encoding: str = DEFAULT_ENCODING) -> int:
    """One message's share of a request: framing, role, strings, and tool-call JSON."""
    n = count_message_tokens([message], encoding) - REPLY_PRIMING_TOKENS
    calls = message.get("tool_calls")
    if calls:
        n += count_tokens(json.dumps(calls, ensure_ascii=False, separators=(",", ":")), encoding)
    return n


def request_tokens(messages: Iterable[Mapping[str, Any]], encoding: str = DEFAULT_ENCODING) -> int:
    """Prompt tokens of a whole request (the reply priming included)."""
    return REPLY_PRIMING_TOKENS + sum(message_tokens(m, encoding) for m in messages)


def status_for(used: int, settings: ContextSettings) -> Status:
    budget = settings.prompt_budget
    if used > settings.trigger_ratio * budget:
        return "compacting"
    if used > settings.warning_ratio * budget:
        return "warning"
    return "normal"


def usage_of(used: int, settings: ContextSettings, *, system: int = 0, messages: int = 0) -> ContextUsage:
    budget = settings.prompt_budget
    return ContextUsage(used=used, budget=budget, percent=round(100.0 * used / budget, 1), remaining=budget - used,
                        status=status_for(used, settings), system=system, messages=messages,
                        window=settings.budget, reserve=settings.reserve_for_reply)


def measure(messages: Iterable[Mapping[str, Any]], settings: ContextSettings | None = None) -> ContextUsage:
    """The usage of a request (OpenAI-form messages, system prompt included)."""
    settings = settings or ContextSettings()
    items = list(messages)
    used = request_tokens(items, settings.encoding)
    system = message_tokens(items[0], settings.encoding) if items and items[0].get("role") == "system" else 0
    return usage_of(used, settings, system=system, messages=len(items))
