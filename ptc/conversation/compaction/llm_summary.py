"""LLM summary: a cheaper model summarizes what the inner strategy dropped.

    LlmSummary("openai/gpt-4o-mini")                  # any litellm model name
    LlmSummary(my_llm, inner=KeyMessageExtraction(max_ranges=1))

The inner strategy (key-message extraction by default) decides what is dropped; the model
writes one summary of it (earlier summaries folded into the range are part of its input).
The summary goes on the largest range; other ranges get a one-line pointer to it.

If the model fails (an `LLMError`, any exception, an empty reply, or a reply that is an
error text), nothing is dropped: the messages stay as they were, `result.error` holds the
error and `result.failed_ranges` what would have been compressed (the `Compactor` writes a
failed compression record with the error). An error text is never saved as a summary.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ...llm.base import LLMError, Usage
from ...llm.choose import as_llm
from ...llm.tokens import count_tokens
from ..log import SUMMARY_HEADER, Message
from ..usage import ContextSettings, ContextUsage
from .base import CompactionResult, RangePlan, over_trigger
from .key_messages import KeyMessageExtraction
from .notes import pointer_note, span, transcript

DEFAULT_MODEL = "openai/gpt-4o-mini"

SUMMARY_PROMPT = """\
You condense the older part of a conversation between a user and a data assistant so the
assistant can continue without it. Write at most {words} words, as short bullet points:
- the user's goals and instructions (verbatim when short: "always", "never", "must" rules);
- facts, figures and names that were found (keep the numbers exact), file paths;
- decisions and answers given; what failed and why; open questions.
Write only the summary: no preamble, no advice."""

_ERROR_PREFIXES = ("llm error (", "llm_error", "traceback (most recent call last)")


def summarize(llm: Any, messages: Sequence[Message], *, max_tokens: int, prompt: str = SUMMARY_PROMPT,
              max_input_chars: int = 24_000) -> tuple[str, Usage]:
    """The model's summary of `messages` (capped near `max_tokens`) and what it cost.

    Raises `LLMError` for an empty reply or one that is an error text.
    """
    request = [
        {"role": "system", "content": prompt.format(words=max(30, int(max_tokens * 0.7)))},
        {"role": "user", "content": "The conversation to summarize:\n\n" + transcript(messages, max_chars=max_input_chars)},
    ]
    reply = llm.complete(request)
    text = (reply.text or "").strip()
    if not text:
        raise LLMError("other", "the summarizing model returned an empty reply")
    if text.lower().startswith(_ERROR_PREFIXES):
        raise LLMError("other", f"the summarizing model returned an error text: {text[:120]!r}")
    if count_tokens(text) > max_tokens * 1.5:
        text = text[: max_tokens * 6].rstrip() + " …"
    return text, reply.usage


class LlmSummary:
    """Summarize what `inner` drops with `llm` (a model name, callable or LLM object)."""

    name = "llm_summary"

    def __init__(self, llm: Any = DEFAULT_MODEL, inner: Any = None, *, max_summary_tokens: int = 400,
                 prompt: str = SUMMARY_PROMPT, max_input_chars: int = 24_000) -> None:
        self._llm_spec = llm
        self._llm: Any = None
        inner = inner if inner is not None else KeyMessageExtraction()
        if isinstance(inner, KeyMessageExtraction):
            inner = replace(inner, summary_reserve=max(inner.summary_reserve, max_summary_tokens))
        self.inner = inner
        self.max_summary_tokens = max_summary_tokens
        self.prompt = prompt
        self.max_input_chars = max_input_chars

    @property
    def llm(self) -> Any:
        if self._llm is None:
            self._llm = as_llm(self._llm_spec)
        return self._llm

    @property
    def model(self) -> str:
        return str(getattr(self.llm, "model", None) or type(self.llm).__name__)

    def should_compact(self, usage: ContextUsage, settings: ContextSettings) -> bool:
        return bool(self.inner.should_compact(usage, settings)) if hasattr(self.inner, "should_compact") \
            else over_trigger(usage, settings)

    def compact(self, log: Sequence[Message], settings: ContextSettings, usage: ContextUsage) -> CompactionResult:
        result = self.inner.compact(log, settings, usage)
        result.strategy = self.name
        if not result.ranges:
            return result
        by_id = {m.id: m for m in log}
        dropped = sorted((by_id[i] for p in result.ranges for i in p.ids if i in by_id), key=lambda m: m.seq)
        try:
            text, cost = summarize(self.llm, dropped, max_tokens=self.max_summary_tokens, prompt=self.prompt,
                                   max_input_chars=self.max_input_chars)
        except Exception as e:  # noqa: BLE001 - a failing summarizer must never break the conversation
            return failed(result, e)
        apply_summary(result, text, by_id, label=f"LLM summary by {self.model}")
        result.llm_usage = cost
        return result


def failed(result: CompactionResult, error: BaseException) -> CompactionResult:
    """The same decision undone: nothing dropped, the error recorded."""
    kind = getattr(error, "kind", None)
    message = getattr(error, "message", None) or str(error)
    err = f"{type(error).__name__}" + (f"({kind})" if kind else "") + f": {message}"
    return CompactionResult(
        strategy=result.strategy, kept=sorted(set(result.kept) | set(result.dropped)), mandatory=result.mandatory,
        scores=result.scores, error=err, failed_ranges=result.ranges,
        notes=[*result.notes, f"summarizing failed ({err}); the messages stay as they were"],
        tokens_before=result.tokens_before, tokens_after=result.tokens_before,
    )


def apply_summary(result: CompactionResult, text: str, by_id: dict[int, Message], *, label: str,
                  raw: bool = False) -> None:
    """Put `text` on the largest range (under a header, unless `raw`) and pointer notes on the others."""
    main = max(result.ranges, key=lambda p: (p.tokens, p.last_seq))

    def msgs(p: RangePlan) -> list[Message]:
        return [by_id[i] for i in p.ids if i in by_id]

    spans = ", ".join(span(msgs(p)) for p in result.ranges)
    for p in result.ranges:
        if p is not main:
            p.text = pointer_note(msgs(p), msgs(main))
        else:
            p.text = text if raw else f"{SUMMARY_HEADER} ({label}) of messages {spans}:\n{text}"
    result.summary = text
