"""A strategy from what `Agent(compression=...)`, the CLI and suite files say: a bool, a name,
a class, an instance or `(Class, options)`."""

from __future__ import annotations

from typing import Any

from .append_only_summaries import AppendOnlySummaries
from .base import Strategy
from .full_history import FullHistory
from .single_user_coalesced import SingleUserCoalesced

# Short names for the bundled strategies (CLI, suite files), with the spellings each accepts.
STRATEGY_NAMES: dict[str, tuple[str, ...]] = {
    "none": ("full", "full-history", "false"),
    "coalesced": ("single-user-coalesced", "suc", "true"),
    "append": ("append-only-summaries", "append-only"),
}


def strategy_label(text: str) -> str | None:
    """The short name ("none", "coalesced", "append") of a bundled strategy given any of its
    spellings (case-insensitive), or None."""
    t = text.strip().lower()
    return next((label for label, spellings in STRATEGY_NAMES.items() if t == label or t in spellings), None)


def _bundled(label: str) -> Strategy:
    return {"none": FullHistory, "coalesced": SingleUserCoalesced, "append": AppendOnlySummaries}[label]()


def resolve_strategy(compression: Any) -> Strategy:
    """`False` -> FullHistory; `True` -> SingleUserCoalesced; a name ("append",
    "single-user-coalesced", ...), a class, an instance, or `(Class, {options})`."""
    if compression is False or compression is None:
        return _bundled("none")
    if compression is True:
        return _bundled("coalesced")
    if isinstance(compression, str):
        label = strategy_label(compression)
        if label is None:
            names = ", ".join(n for label, spellings in STRATEGY_NAMES.items() for n in (label, *spellings))
            raise ValueError(f"unknown compression strategy {compression!r}; choose from: {names}")
        return _bundled(label)
    if isinstance(compression, tuple) and len(compression) == 2 and isinstance(compression[1], dict):
        cls, options = compression
        return cls(**options)  # type: ignore[no-any-return]
    if isinstance(compression, type):
        return compression()  # type: ignore[no-any-return]
    if hasattr(compression, "to_messages"):
        return compression  # type: ignore[no-any-return]
    raise TypeError(f"compression must be a bool, a strategy name, class or instance, or (Class, options); "
                    f"got {compression!r}")
