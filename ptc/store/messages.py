"""The store's value objects: sessions, messages and their blocks, pages, runs, records.

A message is a superset of an OpenAI chat message (role, content, tool_calls, tool_call_id)
plus context metadata (mode, run_id, turn, token_count, status, priority) and an ordered list
of typed content blocks. `Message.to_openai()` is the protocol form sent to a model.

`content` is derived from the blocks: the non-empty contents of the *textual* blocks (text,
tool_result, llm_error) joined by a blank line. code, tool_call, error and thinking blocks are
structured detail (a reply's program, a call's arguments, an error's fields, reasoning) and do
not add to it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Iterator, Mapping, Sequence

from .schema import BLOCK_TYPES, STATUS_NAMES

TEXTUAL_BLOCKS = ("text", "tool_result", "llm_error")


@dataclass(frozen=True)
class Block:
    """One typed piece of a message: text, code, tool_call, tool_result, error, thinking, llm_error."""

    type: str
    content: str | None = None
    data: dict[str, Any] | None = None  # stored as extension_data

    def __post_init__(self) -> None:
        if self.type not in BLOCK_TYPES:
            raise ValueError(f"unknown block type {self.type!r} (one of {', '.join(BLOCK_TYPES)})")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "content": self.content}
        if self.data is not None:
            out["data"] = self.data
        return out


def as_block(value: Any) -> Block:
    """A Block from a Block, a str (text), a (type, content[, data]) tuple or a mapping."""
    if isinstance(value, Block):
        return value
    if isinstance(value, str):
        return Block("text", value)
    if isinstance(value, Mapping):
        kind = value.get("type", value.get("block_type", "text"))
        data = value.get("data", value.get("extension_data"))
        return Block(str(kind), value.get("content"), dict(data) if data is not None else None)
    if isinstance(value, tuple) and 1 <= len(value) <= 3:
        return Block(*value)
    raise TypeError(f"cannot make a message block from {type(value).__name__}")


def as_blocks(blocks: Iterable[Any] | None, content: str | None) -> list[Block]:
    out = [as_block(b) for b in blocks] if blocks is not None else []
    if content is not None:
        if out:
            raise ValueError("give blocks or content, not both")
        out = [Block("text", content)]
    return out


def text_of(blocks: Sequence[Block]) -> str:
    """The message content: textual blocks joined by a blank line."""
    return "\n\n".join(b.content for b in blocks if b.type in TEXTUAL_BLOCKS and b.content)


@dataclass(frozen=True)
class Message:
    id: int
    session_id: str
    seq: int
    role: str
    content: str | None
    blocks: tuple[Block, ...] = ()
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    mode: str | None = None
    run_id: str | None = None
    turn: int | None = None
    token_count: int = 0
    status: int = 0
    priority: int = 0
    created_at: float = 0.0

    @property
    def status_name(self) -> str:
        return STATUS_NAMES.get(self.status, str(self.status))

    @property
    def is_summary(self) -> bool:
        return self.priority == 1

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI chat form: role, content (None for a pure tool-call message), tool fields."""
        out: dict[str, Any] = {"role": self.role, "content": self.content if self.content else None}
        if self.tool_calls:
            out["tool_calls"] = self.tool_calls
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if out["content"] is None and not self.tool_calls:
            out["content"] = ""
        return out

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["blocks"] = [b.to_dict() for b in self.blocks]
        out["status_name"] = self.status_name
        return out


@dataclass(frozen=True)
class Session:
    id: str
    title: str
    mode: str | None
    token_count: int
    created_at: float
    updated_at: float
    next_seq: int

    @property
    def last_seq(self) -> int:
        return self.next_seq - 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Page:
    """A page of messages in reading order, with cursors for the pages around it.

    `next` / `prev` are None at the ends. For display and full views a cursor is a seq (int:
    pass it as after= / before=); for the context view it is a "priority:seq" string.
    """

    items: tuple[Message, ...]
    next: int | str | None = None
    prev: int | str | None = None

    def __iter__(self) -> Iterator[Message]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> Message:
        return self.items[index]

    def to_openai(self) -> list[dict[str, Any]]:
        return [m.to_openai() for m in self.items]


@dataclass(frozen=True)
class CompressionRecord:
    id: int
    session_id: str
    strategy: str
    start_message_id: int | None
    end_message_id: int | None
    start_seq: int | None
    end_seq: int | None
    summary_message_id: int | None
    token_before: int
    token_after: int
    status: int
    created_at: float
    error: str | None = None

    @property
    def saved(self) -> int:
        return self.token_before - self.token_after

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Stats:
    """Compression statistics of a session (applied compressions only) and message counts."""

    session_id: str
    compressions: int
    tokens_before: int
    tokens_after: int
    tokens_saved: int
    avg_saved: float
    token_count: int  # tokens of the session's active messages now
    messages: dict[str, int] = field(default_factory=dict)  # by status name

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RunRecord:
    """A persisted agent run: what `load_run` returns to resume it."""

    id: str
    session_id: str | None
    mission: str
    status: str
    meta: dict[str, Any] | None
    outcome: dict[str, Any] | None
    created_at: float
    updated_at: float
    turns: tuple[dict[str, Any], ...] = ()
    # the finished run's total usage (None while it runs, or when not reported)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None
    cost: float | None = None

    @property
    def memory(self) -> dict[str, str]:
        """The memory snapshot (name -> Clojure text) after the last successful turn."""
        for record in reversed(self.turns):
            if record.get("success"):
                return dict(record.get("memory") or {})
        return {}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CompactionNode:
    id: int
    session_id: str
    type: str
    summary: str
    display_hint: str | None
    children: list[dict[str, int]]
    created_at: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def dumps(value: Any) -> str:
    """Compact JSON for export lines and tool payloads (non-JSON values as their repr)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
