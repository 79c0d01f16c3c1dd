"""Broad summary: collapse the older conversation once it grows past absolute thresholds.

From the message-forest design: above ``settings.soft_threshold`` tokens (default 6,000)
a summary of everything but the recent rounds is started **in the background** (a thread;
the conversation goes on meanwhile) and applied on a later call once it is ready; above
``settings.hard_threshold`` (default 8,000) the call **blocks** until it is done (waiting
for the running job, or summarizing right away).

What is summarized: every message before the last `keep_rounds` rounds (default
``settings.mandatory_rounds``), earlier summaries included (their text is folded in). The
snapshot is fixed when the job starts; when it is applied, if any of those messages is no
longer in the log (compressed or deleted meanwhile) the result is discarded.

`llm=None` writes a longer rule-based digest instead of calling a model. A failing model
leaves the messages as they were and records the error (as `LlmSummary` does).

One instance per session: it holds the pending job.
"""

from __future__ import annotations

import threading
from typing import Any, Sequence

from ...llm.base import Usage
from ...llm.choose import as_llm
from ..builder import log_tokens, prepare_log
from ..log import Message, is_summary, rounds
from ..usage import ContextSettings, ContextUsage
from .base import CompactionResult, RangePlan
from .llm_summary import apply_summary, failed, summarize
from .notes import rule_note

BROAD_PROMPT = """\
You write the running summary of a long conversation between a user and a data assistant;
it replaces everything below for the rest of the conversation. Write at most {words} words,
as bullet points grouped under: Goals and instructions; Findings (exact figures, names,
file paths); Decisions and answers; Failures; Open questions. If an earlier summary is
included, merge it in. Write only the summary."""


class _Job:
    def __init__(self, messages: list[Message]) -> None:
        self.messages = messages
        self.ids = [m.id for m in messages]
        self.text: str | None = None
        self.usage: Usage | None = None
        self.error: BaseException | None = None
        self.done = threading.Event()
        self.thread: threading.Thread | None = None


class BroadSummary:
    name = "broad_summary"

    def __init__(self, llm: Any = None, *, keep_rounds: int | None = None, max_summary_tokens: int = 600,
                 background: bool = True, prompt: str = BROAD_PROMPT, wait_timeout: float | None = 300.0,
                 max_input_chars: int = 32_000) -> None:
        self._llm_spec = llm
        self._llm: Any = None
        self.keep_rounds = keep_rounds
        self.max_summary_tokens = max_summary_tokens
        self.background = background
        self.prompt = prompt
        self.wait_timeout = wait_timeout
        self.max_input_chars = max_input_chars
        self._lock = threading.Lock()
        self._job: _Job | None = None
        self.counters = {"started": 0, "applied": 0, "blocked": 0, "discarded": 0, "failed": 0}

    # -- the model ---------------------------------------------------------------------

    @property
    def llm(self) -> Any:
        if self._llm is None and self._llm_spec is not None:
            self._llm = as_llm(self._llm_spec)
        return self._llm

    @property
    def label(self) -> str:
        if self._llm_spec is None:
            return "broad, rule-based"
        return f"broad summary by {getattr(self.llm, 'model', None) or type(self.llm).__name__}"

    def _run(self, job: _Job) -> None:
        try:
            if self.llm is None:
                job.text = rule_note(job.messages, max_chars=max(600, self.max_summary_tokens * 4),
                                     label="broad, rule-based")
            else:
                job.text, job.usage = summarize(self.llm, job.messages, max_tokens=self.max_summary_tokens,
                                                prompt=self.prompt, max_input_chars=self.max_input_chars)
        except BaseException as e:  # noqa: BLE001 - recorded, never raised into the conversation
            job.error = e
        finally:
            job.done.set()

    # -- the strategy ------------------------------------------------------------------

    @property
    def pending(self) -> bool:
        job = self._job
        return job is not None and not job.done.is_set()

    def should_compact(self, usage: ContextUsage, settings: ContextSettings) -> bool:
        job = self._job
        return (job is not None and job.done.is_set()) or usage.used > settings.soft_threshold

    def candidates(self, items: Sequence[Message], settings: ContextSettings) -> list[Message]:
        """What a broad summary covers: everything before the last `keep_rounds` rounds."""
        keep = self.keep_rounds or settings.mandatory_rounds
        regular = [m for m in items if not is_summary(m)]
        rnds = rounds(regular)
        if len(rnds) <= keep:
            return []
        boundary = rnds[-keep].messages[0].seq
        return sorted((m for m in items if m.id > 0 and m.seq < boundary), key=lambda m: m.seq)

    def compact(self, log: Sequence[Message], settings: ContextSettings, usage: ContextUsage) -> CompactionResult:
        items, _dropped, _notes = prepare_log(log, settings)
        costs = log_tokens(items, settings)
        result = CompactionResult(strategy=self.name, kept=[m.id for m in items if m.id > 0],
                                  tokens_before=usage.used, tokens_after=usage.used)
        with self._lock:
            job = self._job
            if job is not None and job.done.is_set():
                self._job = None
                if self._apply(job, items, costs, result):
                    return result
                job = None
            if usage.used > settings.hard_threshold:
                if job is None:
                    job = _Job(self.candidates(items, settings))
                    if not job.messages:
                        result.notes.append("over the hard threshold, but nothing old enough to summarize")
                        return result
                    self._run(job)
                else:
                    job.done.wait(self.wait_timeout)
                    if not job.done.is_set():
                        result.notes.append("the background summary did not finish in time")
                        result.pending = True
                        return result
                self._job = None
                result.blocked = True
                self.counters["blocked"] += 1
                self._apply(job, items, costs, result)
                return result
            if usage.used > settings.soft_threshold:
                if job is not None:
                    result.pending = True
                    result.notes.append("background summary running")
                    return result
                job = _Job(self.candidates(items, settings))
                if not job.messages:
                    result.notes.append("over the soft threshold, but nothing old enough to summarize")
                    return result
                self._job = job
                self.counters["started"] += 1
                result.pending = True
                if self.background:
                    job.thread = threading.Thread(target=self._run, args=(job,), name="ptc-broad-summary", daemon=True)
                    job.thread.start()
                    result.notes.append(f"background summary started over {len(job.ids)} messages")
                else:
                    self._run(job)
                    result.notes.append(f"summary of {len(job.ids)} messages ready for the next call")
            return result

    def _apply(self, job: _Job, items: Sequence[Message], costs: dict[int, int], result: CompactionResult) -> bool:
        """Fill `result` from a finished job; False when the job is stale (discarded)."""
        present = {m.id for m in items}
        if any(i not in present for i in job.ids):
            self.counters["discarded"] += 1
            result.notes.append("discarded a summary whose messages changed meanwhile")
            return False
        line = sorted((m for m in items if m.id > 0), key=lambda m: m.seq)
        wanted = set(job.ids)
        runs: list[list[Message]] = []
        for i, m in enumerate(line):
            if m.id not in wanted:
                continue
            if runs and line[i - 1].id == runs[-1][-1].id and m.seq == runs[-1][-1].seq + 1:
                runs[-1].append(m)
            else:
                runs.append([m])
        plans = [RangePlan(first_seq=r[0].seq, last_seq=r[-1].seq, ids=[m.id for m in r],
                           tokens=sum(costs.get(m.id, 0) for m in r),
                           folded=[m.id for m in r if is_summary(m)]) for r in runs]
        result.ranges = plans
        result.dropped = {i: "covered by the broad summary" for i in job.ids}
        result.kept = [i for i in result.kept if i not in wanted]
        if job.error is not None:
            self.counters["failed"] += 1
            undone = failed(result, job.error)
            result.__dict__.update(undone.__dict__)
            return True
        by_id = {m.id: m for m in items}
        assert job.text is not None
        apply_summary(result, job.text, by_id, label=self.label, raw=self._llm_spec is None)
        result.llm_usage = job.usage
        saved = sum(p.tokens for p in plans)
        result.tokens_after = result.tokens_before - saved
        result.notes.append(f"broad summary over {len(job.ids)} messages in {len(plans)} ranges")
        self.counters["applied"] += 1
        return True

    def close(self, timeout: float | None = 5.0) -> None:
        """Wait for a running background job (for tests and shutdown)."""
        job = self._job
        if job is not None and job.thread is not None:
            job.thread.join(timeout)
