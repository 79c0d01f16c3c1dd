"""One-line records of tool calls: `search-reviews({:category "Electronics"}) -> list[12]`."""

from __future__ import annotations

import inspect
from typing import Any, Callable

from ptc.interpreter import values as v

ARGS_CHARS = 60  # printed arguments beyond this are cut with "..."
MAX_CHARS = 300  # a summary, however produced, never exceeds this


def one_line(text: str, limit: int = MAX_CHARS) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def to_ptc(x: Any) -> Any:
    """PTC values pass through; plain Python becomes PTC (best effort, for display only)."""
    try:
        return v.from_python(x)
    except Exception:  # noqa: BLE001
        return x


def format_args(args: Any, limit: int = ARGS_CHARS) -> str:
    """`{:category "Electronics"}` for a map, `"a" 10` for positional args, `` for none."""
    from ptc.interpreter.printer import pr_str

    a = to_ptc(args)  # a plain dict shows its JSON keys as keywords (`{:limit 5}`)
    if a is None or (type(a) in v.MAP_TYPES and len(a) == 0):
        return ""
    if type(a) in v.SEQUENTIAL_TYPES:
        text = " ".join(pr_str(x, max_len=limit + 1) for x in list(a)[: limit // 2 + 1])
    else:
        text = pr_str(a, max_len=limit + 1)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_result(result: Any) -> str:
    """Type and size: `list[12]`, `map[3]`, `set[2]`, `string[480]`; small scalars as is."""
    from ptc.interpreter.printer import pr_str

    r = to_ptc(result)
    t = type(r)
    if r is None or t is bool or t is int or t is float or t is v.Keyword:
        return pr_str(r)
    if t is str:
        return pr_str(r) if len(r) <= 30 and "\n" not in r else f"string[{len(r)}]"
    if t in v.MAP_TYPES:
        return f"map[{len(r)}]"
    if t in v.SET_TYPES:
        return f"set[{len(r)}]"
    if t in v.VECTOR_TYPES or t is v.PList:
        return f"list[{len(r)}]"
    if t is v.LazySeq:
        return "seq"
    return v.type_name(r)


def default_summary(name: str, args: Any, result: Any) -> str:
    return one_line(f"{name}({format_args(args)}) -> {describe_result(result)}")


def call_summarizer(fn: Callable[..., Any], args: Any, result: Any) -> str:
    """Call a user summarizer with plain Python values: `fn(args, result)`, or `fn(result)`
    when it takes a single argument."""
    plain_args, plain_result = v.to_python(args), v.to_python(result)
    if _takes_one(fn):
        return str(fn(plain_result))
    return str(fn(plain_args, plain_result))


def _takes_one(fn: Callable[..., Any]) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return False
    return len([p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]) == 1
