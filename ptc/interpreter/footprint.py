"""What a value holds, estimated the way the limits charge it: 64 bytes per collection item,
one per character, a big integer's digits, a function what its closure captured. Sessions (a Sandbox, an MCP session) keep values between runs, where no
run's `max_memory` sees them; this is how their definitions are counted against
`Limits.max_session_memory`.
"""

from __future__ import annotations

from functools import partial
from types import FunctionType
from typing import Any

from .context import BYTES_PER_CHAR, BYTES_PER_ITEM
from .lazy import LazySeq
from .table import Table
from .values import Record

_ATOMS = frozenset({int, float, bool, type(None), str})
_SMALL = 1 << 64  # integers up to 64 bits are counted in their collection's 64 bytes an item


def _held_by(f: Any) -> list[Any]:
    """What a function keeps alive: its closure's cells and its defaults (a partial's function
    and arguments). A cell not yet filled (a letfn being made) holds nothing."""
    if type(f) is partial:
        return [f.func, *f.args, *f.keywords.values()]
    out: list[Any] = list(f.__defaults__ or ())
    for cell in f.__closure__ or ():
        try:
            out.append(cell.cell_contents)
        except ValueError:
            continue
    return out


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
        elif t is int and not -_SMALL < v < _SMALL:  # a big integer: its digits (8,000 bits are 1 KB)
            total += v.bit_length() // 8
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
        elif t is FunctionType or t is partial:  # a closure holds what it captured (a memoize cache...)
            seen.add(id(v))
            total += BYTES_PER_ITEM
            stack.extend(_held_by(v))
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
