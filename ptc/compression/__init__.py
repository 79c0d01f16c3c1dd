"""Rendering turns into the messages sent to the LLM: pure functions, one module per strategy."""

from .base import RenderContext, Strategy, resolve_strategy
from .full_history import FullHistory
from .single_user_coalesced import SingleUserCoalesced

__all__ = ["RenderContext", "Strategy", "resolve_strategy", "FullHistory", "SingleUserCoalesced"]
