"""Where a request gets Anthropic `cache_control` breakpoints: one rule for the client and the cost model.

Anthropic caches a prompt prefix only up to a block marked with `cache_control` (at most 4
per request), and bills writing it at 1.25x and reading it back at 0.1x of the input price.
A breakpoint pays only on a prefix that later requests send again unchanged, so:

- the end of the system prompt (the same on every call of a run, whatever the strategy);
- for a strategy that only appends (`Strategy.append_only`), also the last message: every
  message of this request is sent again, unchanged, at the start of the next one.

A strategy that rewrites its messages (SingleUserCoalesced rewrites its user message on
every call) gets the system breakpoint only: marking the rewritten message would pay the
write premium for a prefix no later request reuses.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

def cache_breakpoints(messages: Sequence[Mapping[str, Any]], append_only: bool) -> list[int]:
    """Indices of the messages whose (last) content block gets `cache_control`, in order."""
    points: list[int] = []
    system_end = -1
    while system_end + 1 < len(messages) and messages[system_end + 1].get("role") == "system":
        system_end += 1
    if system_end >= 0:
        points.append(system_end)
    last = len(messages) - 1
    if append_only and last >= 0 and last != system_end:
        points.append(last)
    return points  # at most 2 of the 4 Anthropic allows


__all__ = ["cache_breakpoints"]
