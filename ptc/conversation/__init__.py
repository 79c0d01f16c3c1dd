"""Conversations: one protocol-complete log per session, a fresh context for every LLM call.

- `log`: store messages to OpenAI messages; protocol repair; rounds and tool groups.
- `prompts`: the system prompt per mode (chat, agent), composed fresh, never stored.
- `usage`: `ContextSettings`, `ContextUsage`, `measure`.
- `builder`: `build_context(log, mode, settings) -> (messages, BuildReport)`; pure.
- `compaction`: budget-triggered compaction strategies and the `Compactor` pipeline.
- `forest`: compaction nodes and the context / display / full renderings.
- `numbering`: `[n]` entry numbers in what the model sees.
- `history_tools`: tools for the model to view and compress its own history.
- `artifacts`: big tool results saved to files, previews in context.
- `session`: `ChatSession`, the chat/agent assistant over a stored session.

See docs/conversations.md.
"""

from __future__ import annotations

from .builder import BuildReport, Plan, build_context
from .compaction import (
    BroadSummary, CompactionResult, CompactionStrategy, Compactor, KeyMessageExtraction, LlmSummary, PrepareReport,
)
from .log import repair, rounds, to_openai, tool_groups
from .prompts import system_prompt
from .usage import ContextSettings, ContextUsage, measure
from .artifacts import ArtifactStore
from .forest import Forest
from .history_tools import History
from .numbering import number_for_model
from .session import ChatSession

__all__ = [
    "build_context", "BuildReport", "Plan", "ContextSettings", "ContextUsage", "measure", "system_prompt",
    "to_openai", "repair", "rounds", "tool_groups", "CompactionStrategy", "CompactionResult",
    "KeyMessageExtraction", "LlmSummary", "BroadSummary", "Compactor", "PrepareReport",
    "ChatSession", "Forest", "History", "ArtifactStore", "number_for_model",
]
