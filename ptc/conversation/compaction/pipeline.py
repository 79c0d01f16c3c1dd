"""The compaction pipeline: measure before every call, compact at most once, trim if needed.

    compactor = Compactor(store, session_id, KeyMessageExtraction(), ContextSettings(budget=8000))
    messages, report = compactor.prepare("chat")       # then llm.complete(messages)

`prepare`:

1. loads the log (`Store.context(..., include_compressed=settings.include_compressed)`:
   summaries and active messages) and measures the uncompacted request;
2. if the strategy wants to (`should_compact`: above ``trigger_ratio`` by default; the broad
   summary uses its soft/hard thresholds), runs it **once**. Each range it drops is written
   with `Store.compress_range` (the summary text or a rule-based note, priority 1, and a
   compression record with the tokens before and after) and the log is reloaded. A strategy
   that fails (its model raised) changes nothing; a failed compression record with the error
   is written, and the strategy rests for `retry_after_calls` calls;
3. builds the request with the strategy's request-only plan (previews, shortened texts);
4. if it is still above ``target_ratio`` after a compaction attempt (or above the trigger
   with no compaction possible), **trims** it with the fallback ladder, request-only. It
   never compacts a second time for the same call.

`counters` (a `CompactionCounters`) keeps totals for benchmarks and monitoring: calls,
attempts, compactions, futile runs, failures, trims, and `loops` (a second compaction attempt
in one call: prevented, so always 0) and `back_to_back` (compactions on consecutive calls).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ...store import InvalidRange, Store, StoreError
from ...store.messages import CompressionRecord
from ..builder import BuildReport, build_context
from ..log import Message
from ..usage import ContextSettings, ContextUsage
from .base import CompactionResult, CompactionStrategy


@dataclass
class CompactionCounters:
    calls: int = 0
    attempts: int = 0          # strategy runs
    compactions: int = 0       # runs that compressed something in the store
    futile: int = 0            # runs that found nothing worth dropping
    failures: int = 0          # runs that failed (error recorded, nothing dropped)
    pending: int = 0           # runs that found or started a background summary
    blocked: int = 0           # runs that waited for a summary (hard threshold)
    cooldown: int = 0          # calls on which a failed strategy was rested
    trims: int = 0             # requests trimmed by the fallback ladder (request-only)
    loops: int = 0             # second compaction attempts within one call (prevented)
    back_to_back: int = 0      # compactions on two consecutive calls
    ranges: int = 0            # ranges compressed in the store
    refused: int = 0           # ranges the store refused

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class PrepareReport:
    """What `Compactor.prepare` did: usage before and after, the compaction, the request."""

    call: int
    build: BuildReport
    before: ContextUsage
    compaction: CompactionResult | None = None
    records: list[CompressionRecord] = field(default_factory=list)
    trimmed: bool = False

    @property
    def after(self) -> ContextUsage:
        return self.build.usage

    @property
    def usage(self) -> ContextUsage:
        return self.build.usage

    @property
    def compacted(self) -> bool:
        return bool(self.records)

    def to_dict(self) -> dict[str, Any]:
        return {
            "call": self.call, "before": self.before.to_dict(), "after": self.after.to_dict(),
            "compaction": self.compaction.to_dict() if self.compaction else None,
            "records": [r.to_dict() for r in self.records], "trimmed": self.trimmed, "build": self.build.to_dict(),
        }

    def summary(self) -> str:
        parts = [f"call {self.call}: {self.before.used:,} -> {self.after.used:,} tokens ({self.after.percent:.0f}%)"]
        if self.compaction is not None:
            c = self.compaction
            if c.error:
                parts.append(f"{c.strategy} failed: {c.error}")
            elif self.records:
                parts.append(f"{c.strategy}: {len(c.dropped)} messages in {len(self.records)} summaries")
            elif c.pending:
                parts.append(f"{c.strategy}: background summary pending")
        if self.trimmed:
            parts.append("trimmed")
        return "; ".join(parts)


class Compactor:
    """Budget-triggered compaction of one session of a `Store` (see the module docstring)."""

    def __init__(self, store: Store, session_id: str, strategy: CompactionStrategy | None = None,
                 settings: ContextSettings | None = None, *, retry_after_calls: int = 3) -> None:
        self.store = store
        self.session_id = session_id
        self.strategy = strategy
        self.settings = settings or ContextSettings()
        self.retry_after_calls = retry_after_calls
        self.counters = CompactionCounters()
        self.last_report: PrepareReport | None = None
        self._cooldown = 0
        self._attempted_call = 0
        self._last_compaction_call = -1

    def load(self) -> list[Message]:
        return list(self.store.context(self.session_id, include_compressed=self.settings.include_compressed).items)

    def usage(self, mode: str, **prompt: Any) -> ContextUsage:
        """The usage of the next request as it stands (nothing compacted or trimmed)."""
        _, report = build_context(self.load(), mode, self.settings, enforce_budget=False, **prompt)
        return report.usage

    def prepare(self, mode: str, *, tools: Any = None, data: Any = None, extra: str | None = None,
                **prompt_options: Any) -> tuple[list[dict[str, Any]], PrepareReport]:
        """The messages of the next LLM call in `mode`, compacting the session first if needed."""
        s = self.settings
        c = self.counters
        c.calls += 1
        call = c.calls
        prompt = dict(tools=tools, data=data, extra=extra, **prompt_options)
        log = self.load()
        _, first = build_context(log, mode, s, enforce_budget=False, **prompt)
        before = first.usage
        result: CompactionResult | None = None
        records: list[CompressionRecord] = []
        if self.strategy is not None:
            if self._cooldown > 0:
                self._cooldown -= 1
                c.cooldown += 1
            elif self.strategy.should_compact(before, s):
                result, records = self._compact_once(call, log, before, mode)
        if records:
            log = self.load()
        plan = result.plan() if result is not None and result.error is None else None
        messages, report = build_context(log, mode, s, plan=plan, enforce_budget=False, **prompt)
        attempted = result is not None and (result.changed or result.error is not None)
        used = report.usage.used
        trimmed = False
        if used > s.target_tokens and (attempted or used > s.trigger_tokens):
            messages, report = build_context(log, mode, s, plan=plan, trim_to=s.target_tokens, **prompt)
            trimmed = True
        elif s.enforce_budget and report.usage.over_budget:
            messages, report = build_context(log, mode, s, plan=plan, **prompt)
            trimmed = True
        if trimmed:
            c.trims += 1
        self.last_report = PrepareReport(call=call, build=report, before=before, compaction=result, records=records,
                                         trimmed=trimmed)
        return messages, self.last_report

    # -- internals ---------------------------------------------------------------------

    def _compact_once(self, call: int, log: list[Message], before: ContextUsage, mode: str
                      ) -> tuple[CompactionResult | None, list[CompressionRecord]]:
        c = self.counters
        if self._attempted_call == call:  # the loop guard: one compaction per call
            c.loops += 1
            return None, []
        self._attempted_call = call
        c.attempts += 1
        assert self.strategy is not None
        name = getattr(self.strategy, "name", type(self.strategy).__name__)
        try:
            result = self.strategy.compact(log, self.settings, before)
        except Exception as e:  # noqa: BLE001 - a failing strategy must not break the conversation
            result = CompactionResult(strategy=name, error=f"{type(e).__name__}: {e}",
                                      notes=["the strategy raised; nothing was compacted"],
                                      tokens_before=before.used, tokens_after=before.used)
        if result.error is not None:
            c.failures += 1
            self._cooldown = self.retry_after_calls
            self._record_failures(result)
            return result, []
        records = self._persist(result, mode)
        if records:
            c.compactions += 1
            if self._last_compaction_call == call - 1:
                c.back_to_back += 1
            self._last_compaction_call = call
        elif result.pending:
            c.pending += 1
        else:
            c.futile += 1
        if result.blocked:
            c.blocked += 1
        return result, records

    def _persist(self, result: CompactionResult, mode: str) -> list[CompressionRecord]:
        records = []
        for p in result.ranges:
            try:
                records.append(self.store.compress_range(self.session_id, p.first_seq, p.last_seq, p.text,
                                                         strategy=result.strategy, mode=mode))
                self.counters.ranges += 1
            except (InvalidRange, StoreError) as e:
                self.counters.refused += 1
                result.notes.append(f"the store refused #{p.first_seq}-#{p.last_seq}: {e}")
        return records

    def _record_failures(self, result: CompactionResult) -> None:
        """A failed compression record (status 1) with the error, for each range not compressed."""
        for p in result.failed_ranges:
            try:
                self.store.record_failed_compression(self.session_id, p.first_seq, p.last_seq, result.strategy,
                                                     result.error or "failed")
            except Exception:  # noqa: BLE001 - bookkeeping only
                pass
