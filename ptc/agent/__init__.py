"""The agent loop: turns, prompts, typed results, events and traces."""

from .loop import Agent, RunUsage, Step
from .turn import ErrorInfo, ToolCallRecord, Turn

__all__ = ["Agent", "Step", "RunUsage", "Turn", "ToolCallRecord", "ErrorInfo"]
