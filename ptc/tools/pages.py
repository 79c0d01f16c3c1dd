"""A tool result that filled its page: exactly `:limit` rows came back, so more may exist.

A model that asks for products and gets back exactly the 10 its `:limit` allows (often by
default) tends to take them for all there are. The feedback after its program says so,
naming the tool and the limit; nothing else changes (the run's value and note stay as they were).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..interpreter import values as V

LIMIT_NAMES = ("limit", "max_results", "max-results", "page_size", "page-size", "top", "n")


def full_page_note(calls: Sequence[Any], tools: Mapping[str, Any]) -> str | None:
    """One line for the first tool call whose result holds exactly its limit of rows, else None."""
    for call in calls:
        if getattr(call, "error", None) is not None or type(call.result) not in V.SEQUENTIAL_TYPES \
                or type(call.result) is V.LazySeq:
            continue
        found = _limit_of(call.args, tools.get(call.name))
        if found is not None and found[1] == len(call.result) > 0:
            name, limit = found
            return (f"note: tool/{call.name} returned {limit} items, exactly its :{name} ({limit}): there may be "
                    f"more; call it again with a larger :{name} (or narrower filters) if you need them all")
    return None


def _limit_of(args: Any, tool: Any) -> tuple[str, int] | None:
    """(the limit parameter's name, its value in this call, else its default)."""
    if type(args) in V.MAP_TYPES:
        for name in LIMIT_NAMES:
            for key in (V.keyword(name), name):
                value = V.lookup(args, key, None)
                if type(value) is int:
                    return name, value
    for p in getattr(tool, "params", ()) or ():
        key = getattr(p, "key", None) or getattr(p, "name", "")
        if key in LIMIT_NAMES and type(getattr(p, "default", None)) is int:
            return key, p.default
    return None
