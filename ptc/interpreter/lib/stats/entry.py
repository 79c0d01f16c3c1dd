"""How the library's functions are declared and how they read their arguments and give values.

Every `stats/` function is a builtin of the `stats` namespace that needs numpy (and scipy for
tests and distributions), imported when a program naming it is analyzed (registry.prepare).
This module imports neither: the library registers itself without loading them.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ...errors import runtime_error
from ...registry import Segmented, builtin
from ...values import MAP_TYPES, Keyword, map_items, make_map, short, type_name, vec

NUMPY = ("numpy",)
SCIPY = ("numpy", "scipy.stats")
CATEGORY = "statistics"


def stat(name: str, *, args: str | tuple[str, ...], doc: str, ex: Any = (), needs: tuple[str, ...] = NUMPY,
         segmented: Segmented | None = None, category: str = CATEGORY) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function of the stats namespace (pure: its value or an error, nothing else);
    one that calls scipy runs its numerics on one thread (threads.py: the same bits inline and isolated)."""
    register = builtin(name, ns="stats", args=args, doc=doc, category=category, ex=ex, pure=True, needs=needs,
                       extra="stats", segmented=segmented)
    if "scipy.stats" not in needs:
        return register
    from .threads import single_threaded

    return lambda fn: register(single_threaded(fn))


def kernel(name: str) -> Callable[..., Any]:
    """The kernel `name` of lib/stats/kernels.py, imported when first called (numpy with it)."""
    def run(segments: Any, *args: Any) -> Any:
        from . import kernels

        return getattr(kernels, name)(segments, *args)

    run.__name__ = name
    return run


def value(x: Any) -> float | None:
    """A statistic's float as a PTC value: nil where it has none (NaN)."""
    x = float(x)
    return None if math.isnan(x) else x


def picked(x: Any, integral: bool) -> Any:
    """A statistic that is one of the values: an integer when they all were."""
    v = value(x)
    return int(v) if integral and v is not None and math.isfinite(v) else v


def floats(xs: Any) -> Any:
    """A float array as a PTC vector (NaN as nil)."""
    return vec(None if math.isnan(x) else x for x in xs.tolist())


def options(opts: Any, who: str, known: tuple[str, ...]) -> dict[str, Any]:
    """An options map ({:mu 0 :sides :two-sided}) as {name: value}; an unknown key is an error
    naming the known ones (a misspelt option never passes silently)."""
    if opts is None:
        return {}
    if type(opts) not in MAP_TYPES:
        raise runtime_error(f"{who}: options must be a map such as {{:{known[0]} ...}}, got {type_name(opts)} "
                            f"{short(opts)}" if known else f"{who}: takes no options")
    out = {}
    for k, v in map_items(opts):
        name = k.name if type(k) is Keyword else k if type(k) is str else None
        if name not in known:
            raise runtime_error(f"{who}: unknown option {short(k)}",
                                hint="its options are " + " ".join(f":{o}" for o in known))
        out[name] = v
    return out


def choice(x: Any, who: str, what: str, choices: dict[str, str]) -> str:
    """A keyword (or string) naming one of choices (PTC name -> meaning)."""
    name = x.name if type(x) is Keyword else x if type(x) is str else None
    if name not in choices:
        raise runtime_error(f"{who}: unknown {what} {short(x)}",
                            hint=f"{what}s: " + " ".join(f":{c}" for c in choices))
    return choices[name]


def keyword_map(pairs: list[tuple[str, Any]]) -> Any:
    """A PTC map of keyword keys, in this order."""
    return make_map([(Keyword(k), v) for k, v in pairs])


_SIDES = {"two-sided": "two-sided", "greater": "greater", "less": "less", "one-sided-greater": "greater",
          "one-sided-less": "less"}


def sides(opts: dict[str, Any], who: str) -> str:
    """scipy's `alternative` from fastmath's :sides (or scipy's own name, :alternative)."""
    s = opts.get("sides", opts.get("alternative"))
    return "two-sided" if s is None else choice(s, who, "side", _SIDES)


def alpha_of(opts: dict[str, Any], who: str) -> float:
    """The :alpha of a confidence interval (0.05: a 95% interval)."""
    a = opts.get("alpha", 0.05)
    if (type(a) is not int and type(a) is not float) or not 0 < a < 1:
        raise runtime_error(f"{who}: :alpha must be a number between 0 and 1, got {short(a)}")
    return float(a)
