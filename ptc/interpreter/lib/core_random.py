"""Randomness: `rand`, `rand-int`, `rand-nth`, `shuffle`, `random-sample` (and `Math/random`).

Every draw comes from the run's generator (`context.rng()`), seeded by `Limits.seed` when
it is set, so a run can be replayed exactly; unseeded runs draw from the OS's entropy.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..context import check_deadline, rng
from ..errors import runtime_error
from ..registry import builtin
from ..values import MAP_TYPES, iter_all, pvector, short
from .core_collections import count, nth
from .core_numbers import _check_num, _num_err, describe, to_float
from .core_sequences import filter_

_NOARG = object()


@builtin("rand", args=("[]", "[n]"), category="numbers",
         doc="A random float between 0 (inclusive) and n (default 1, exclusive); replayable with Limits(seed=...).",
         ex=(("(< (rand) 1)", "true"),))
def rand(n: Any = _NOARG) -> float:
    if n is _NOARG:
        return rng().random()
    _check_num("rand", n)
    return rng().random() * to_float(n)


@builtin("rand-int", args="[n]", category="numbers",
         doc="A random integer between 0 (inclusive) and n (exclusive); replayable with Limits(seed=...).",
         ex=(("(<= 0 (rand-int 10) 9)", "true"),))
def rand_int(n: Any) -> int:
    t = type(n)
    if t is int:
        return rng().randrange(n) if n > 0 else int(rng().random() * n)
    if t is float:
        r = rng().random() * n
        if not math.isfinite(r):
            raise runtime_error(f"rand-int: bad bound {short(n)}")
        return int(r)
    raise _num_err("rand-int", n)


@builtin("rand-nth", args="[coll]", category="collections",
         doc="A random item of coll (nil for nil; an error for an empty collection).",
         ex=(("(contains? #{1 2 3} (rand-nth [1 2 3]))", "true"), ("(rand-nth nil)", "nil")))
def rand_nth(coll: Any) -> Any:
    return nth(coll, rand_int(count(coll)))


@builtin("shuffle", args="[coll]", category="collections",
         doc="A vector of the items of coll in random order; replayable with Limits(seed=...).",
         ex=(("(count (shuffle (range 10)))", "10"), ("(sort (shuffle [3 1 2]))", "(1 2 3)")))
def shuffle(coll: Any) -> Any:
    if coll is None or type(coll) is str or type(coll) in MAP_TYPES:
        raise runtime_error(f"shuffle: expected a vector, list, set or sequence, got {describe(coll)}")
    items = list(iter_all(coll, "shuffle"))
    _shuffled(items, rng())
    return pvector(items)


def _shuffled(x: list[Any], r: Any) -> None:
    """random.shuffle's Fisher-Yates (the same draws, so a seeded run's permutation is the
    same), reading the deadline every 65,536 swaps: Python's own runs a million items in 0.6 s."""
    below = r._randbelow
    for i in reversed(range(1, len(x))):
        if not i & 0xFFFF:
            check_deadline()
        j = below(i + 1)
        x[i], x[j] = x[j], x[i]


@builtin("random-sample", args=("[prob]", "[prob coll]"), category="sequences",
         doc="The items of coll each kept with probability prob (lazy); with only prob, a transducer.",
         ex=(("(random-sample 1 [1 2 3])", "(1 2 3)"), ("(random-sample 0 [1 2 3])", "()"),
             ("(into [] (random-sample 1) [1 2])", "[1 2]")))
def random_sample(prob: Any, coll: Any = _NOARG) -> Any:
    _check_num("random-sample", prob)
    keep: Callable[[Any], bool] = lambda _: rng().random() < prob  # noqa: E731
    return filter_(keep) if coll is _NOARG else filter_(keep, coll)


__all__ = ["rand", "rand_int", "rand_nth", "shuffle", "random_sample"]
