"""The strategy interface and what a strategy returns.

A strategy looks at the log and the usage and decides, without touching the store:

- which messages to **drop** for good (`dropped`, id -> reason), grouped into contiguous
  `ranges` of seqs, each with the summary text that will stand for it. The `Compactor`
  persists each range with `Store.compress_range` (a priority-1 summary message and a
  compression record with the tokens before and after);
- request-only changes (`rewrites`: previews and shortened texts; `excluded`) for when the
  kept messages are still over the target: these never reach the store;
- an explanation: `mandatory` (id -> why it must stay), `scores` (id -> score breakdown),
  `notes`.

`error` is set when the strategy could not do its job (e.g. the summarizing model failed):
then nothing is dropped and the messages stay as they were.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, Sequence, runtime_checkable

from ...llm.base import Usage
from ..builder import Plan
from ..log import Message
from ..usage import ContextSettings, ContextUsage


@dataclass
class RangePlan:
    """A contiguous run of seqs to hide behind one summary message."""

    first_seq: int
    last_seq: int
    ids: list[int]
    tokens: int                       # request tokens of the messages in the range
    text: str = ""                    # the summary that will stand for them
    folded: list[int] = field(default_factory=list)  # summaries inside the range (their text is carried over)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class CompactionResult:
    strategy: str
    kept: list[int] = field(default_factory=list)
    dropped: dict[int, str] = field(default_factory=dict)
    ranges: list[RangePlan] = field(default_factory=list)
    summary: str | None = None        # an LLM summary of what was dropped (None for rule-based notes)
    notes: list[str] = field(default_factory=list)
    mandatory: dict[int, str] = field(default_factory=dict)
    scores: dict[int, dict[str, float]] = field(default_factory=dict)
    rewrites: dict[int, tuple[str, str]] = field(default_factory=dict)
    excluded: dict[int, str] = field(default_factory=dict)
    error: str | None = None
    failed_ranges: list[RangePlan] = field(default_factory=list)  # what would have been compressed
    tokens_before: int = 0            # estimated request tokens before
    tokens_after: int = 0             # estimated request tokens after (summaries and fallbacks included)
    pending: bool = False             # a background summary is running (broad summary)
    blocked: bool = False             # the call waited for a summary (broad summary, hard threshold)
    llm_usage: Usage | None = None    # what summarizing cost

    @property
    def changed(self) -> bool:
        return bool(self.ranges)

    def total(self, message_id: int) -> float:
        """The score of a message (the sum of its breakdown)."""
        return round(sum(self.scores.get(message_id, {}).values()), 3)

    def explain(self, message_id: int) -> str:
        """Why a message was kept or dropped, in words."""
        parts = self.scores.get(message_id)
        breakdown = ""
        if parts:
            terms = " ".join(f"{'+' if v >= 0 else '-'} {k} {abs(v):g}" for k, v in parts.items())
            breakdown = f"score {self.total(message_id):g} ({terms.lstrip('+ ')})"
        if message_id in self.mandatory:
            return f"kept: mandatory ({self.mandatory[message_id]})"
        if message_id in self.dropped:
            return f"dropped: {self.dropped[message_id]}" + (f"; {breakdown}" if breakdown else "")
        if message_id in self.kept:
            return "kept" + (f": {breakdown}" if breakdown else "")
        return "not in the log"

    def plan(self) -> Plan:
        return Plan(rewrites=dict(self.rewrites), excluded=dict(self.excluded))

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["rewrites"] = {k: v[1] for k, v in self.rewrites.items()}
        if self.llm_usage is not None:
            out["llm_usage"] = self.llm_usage.model_dump()
        return out


@runtime_checkable
class CompactionStrategy(Protocol):
    """`name`; `should_compact(usage, settings)`; `compact(log, settings, usage) -> CompactionResult`.

    `log` is what the store's context holds (summaries and active messages); `usage` is the
    usage of the uncompacted request (its `system` field is the system prompt's tokens).
    """

    name: str

    def should_compact(self, usage: ContextUsage, settings: ContextSettings) -> bool: ...

    def compact(self, log: Sequence[Message], settings: ContextSettings, usage: ContextUsage) -> CompactionResult: ...


def over_trigger(usage: ContextUsage, settings: ContextSettings) -> bool:
    """The default trigger: the request is above ``trigger_ratio`` of the prompt budget."""
    return usage.used > settings.trigger_ratio * usage.budget
