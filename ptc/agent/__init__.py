"""The agent loop: turns, prompts, typed results, events and traces."""

from .loop import Agent, RunUsage, Step
from .turn import ErrorInfo, Turn

__all__ = ["Agent", "Step", "RunUsage", "Turn", "ErrorInfo"]
