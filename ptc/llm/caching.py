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

OpenAI, Gemini and DeepSeek cache prefixes on their own; only Anthropic's models (direct,
or on Bedrock / Vertex AI) need the marks, which `LiteLLM` adds with `mark_breakpoints`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

EPHEMERAL = {"type": "ephemeral"}


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


def needs_breakpoints(model: str) -> bool:
    """Whether a litellm model name reaches a Claude model, which caches only at marked blocks."""
    name = model.lower()
    if name.startswith(("anthropic/", "claude")):
        return True
    return name.startswith(("bedrock/", "vertex_ai/")) and "claude" in name


def mark_breakpoints(messages: Sequence[Mapping[str, Any]], append_only: bool) -> list[dict[str, Any]]:
    """A copy of `messages` whose breakpoint messages carry their content as blocks, the
    last one with ``cache_control`` (the form litellm passes on to Anthropic)."""
    out = [dict(m) for m in messages]
    for i in cache_breakpoints(messages, append_only):
        content = out[i].get("content")
        if isinstance(content, str):
            if not content:
                continue  # Anthropic rejects cache_control on an empty text block
            blocks: list[Any] = [{"type": "text", "text": content}]
        elif isinstance(content, list) and content and isinstance(content[-1], Mapping):
            blocks = [dict(b) if isinstance(b, Mapping) else b for b in content]
        else:
            continue
        blocks[-1] = {**blocks[-1], "cache_control": dict(EPHEMERAL)}
        out[i]["content"] = blocks
    return out


__all__ = ["cache_breakpoints", "mark_breakpoints", "needs_breakpoints"]
