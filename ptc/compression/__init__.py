"""Rendering turns into the messages sent to the LLM: pure functions, one module per strategy."""

from .append_only_summaries import AppendOnlySummaries
from .base import RenderContext, Strategy
from .choose import STRATEGY_NAMES, resolve_strategy, strategy_label
from .full_history import FullHistory
from .single_user_coalesced import SingleUserCoalesced

__all__ = ["AppendOnlySummaries", "FullHistory", "RenderContext", "STRATEGY_NAMES", "SingleUserCoalesced", "Strategy",
           "resolve_strategy", "strategy_label"]
