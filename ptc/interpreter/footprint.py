"""What a value holds, estimated the way the limits charge it: 64 bytes per collection item,
one per character. Sessions (a Sandbox, an MCP session) keep values between runs, where no
run's `max_memory` sees them; this is how their definitions are counted against
`Limits.max_session_memory`.
"""

from __future__ import annotations

from typing import Any

from .context import BYTES_PER_CHAR, BYTES_PER_ITEM
from .lazy import LazySeq
from .table import Table
from .values import Record

_ATOMS = frozenset({int, float, bool, type(None), str})


def footprint(x: Any, cap: int) -> int:
    """Estimated bytes held by x, its nested collections counted once each; the walk stops
    as soon as the count passes `cap` (so a huge value costs no more than the cap to refuse).
    A table counts one index per row: a table derived from the data shares the data's columns;
    a record (a fitted model) what it holds (Record.held_bytes)."""
    total = 0
    seen: set[int] = set()
    stack = [x]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is str:
            total += len(v) * BYTES_PER_CHAR
        elif t in _ATOMS:
            continue
        elif id(v) in seen:
            continue
        elif t is Table:
            seen.add(id(v))
            total += len(v) * 8
        elif isinstance(v, Record):  # a fitted model: its arrays (trees' nodes...), then its fields
            seen.add(id(v))
            total += v.held_bytes()
            stack.append(v.fields)
        else:
            seen.add(id(v))
            items: Any
            if t is LazySeq:
                items = getattr(v, "_cache", ())  # only what was realized is held
            elif hasattr(v, "items") and callable(v.items):
                items = [part for kv in v.items() for part in kv]
            elif hasattr(v, "__len__") and hasattr(v, "__iter__"):
                items = v
            else:
                continue  # a keyword, a date, a function: small and fixed
            total += len(items) * BYTES_PER_ITEM
            if total > cap:
                return total
            stack.extend(item for item in items if type(item) not in _ATOMS or type(item) is str)
        if total > cap:
            return total
    return total
