"""Budget-triggered context compaction (strategy pattern).

- `CompactionStrategy`: ``name``, ``should_compact(usage, settings)``,
  ``compact(log, settings, usage) -> CompactionResult``.
- `KeyMessageExtraction`: no LLM; mandatory messages, explainable scores, greedy selection
  under the target, rule-based notes, request-only fallbacks.
- `LlmSummary`: a cheaper model summarizes what the inner strategy drops.
- `BroadSummary`: soft/hard thresholds; background summary, blocking at the hard one.
- `Compactor`: the pipeline over a `ptc.store.Store` session (measure, compact once, trim).

See docs/conversations.md ("Long conversations").
"""

from __future__ import annotations

from .base import CompactionResult, CompactionStrategy, RangePlan, over_trigger
from .broad import BroadSummary
from .fallbacks import TrimPlan, fit, preview_tool_result, shorten_text
from .key_messages import WEIGHTS, KeyMessageExtraction
from .llm_summary import DEFAULT_MODEL, SUMMARY_PROMPT, LlmSummary, summarize
from .notes import rule_note
from .pipeline import CompactionCounters, Compactor, PrepareReport

__all__ = [
    "CompactionStrategy", "CompactionResult", "RangePlan", "over_trigger", "KeyMessageExtraction", "WEIGHTS",
    "LlmSummary", "DEFAULT_MODEL", "SUMMARY_PROMPT", "summarize", "BroadSummary", "Compactor", "CompactionCounters",
    "PrepareReport", "TrimPlan", "fit", "preview_tool_result", "shorten_text", "rule_note",
]
