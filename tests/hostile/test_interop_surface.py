"""Every interop name (issue 22) called with every kind of value: a PTC value or a PTCError.

The curated Java interop (`.method` builtins, `Character/`, `Math/`, `Integer/`, `String/`,
`System/`, `LocalDate/`... statics) is plain builtins over PTC values. This calls each one
directly, inside a run, with hostile and odd arguments (functions, nil, huge integers, NaN,
dates of every kind, java.time constants, collections) at every arity up to three, and
checks that each call either returns a value made only of PTC value types or raises a
PTCError (a Python arity error named after the builtin is what the runtime translates).
Nothing else may escape: no host object, no AttributeError, no traceback.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from typing import Any

import pytest

from ptc.interpreter import context, dates
from ptc.interpreter import values as v
from ptc.interpreter.errors import PTCError
from ptc.interpreter.limits import Limits
from ptc.interpreter.lib import java_format
from ptc.interpreter.registry import REGISTRY, load_library

load_library()
NEW_NAMESPACES = ("Character/", "Boolean/", "String/", "System/", "LocalDate/", "LocalDateTime/", "LocalTime/",
                  "Instant/", "Duration/", "DateTimeFormatter/", "Math/", "clojure.math/", "Integer/", "Double/",
                  "clojure.walk/")
NAMES = sorted(k for k in REGISTRY if k.startswith(".") or k.startswith(NEW_NAMESPACES))

POOL: list[Any] = [
    None, True, 0, -1, 7, 2**70, 1.5, math.nan, -math.inf, "", "abc", "2026-03-14", "\\d+",
    v.keyword("k"), v.Symbol("s"), v.vec([1, "a"]), v.make_map([(v.keyword("a"), 1)]), v.make_set([1]),
    REGISTRY["inc"].fn, dt.date(2026, 3, 14), dt.datetime(2026, 3, 14, 10, 15),
    dt.datetime(2026, 3, 14, 10, 15, tzinfo=dates.UTC), dt.timedelta(hours=5), dates.CHRONO_UNITS["DAYS"],
    dates.DAYS_OF_WEEK["MONDAY"], dt.date.max, dt.time(23, 59, 59, 999999), dates.LOCALES["UK"],
    java_format.of_pattern("yyyy-MM-dd[ HH:mm] EEE a"), java_format.ISO["ISO_DATE_TIME"],
]
SMALL_POOL = [None, 3, "ab", dt.date(2026, 1, 31), dates.CHRONO_UNITS["MONTHS"], v.vec([]), dt.time(0, 30),
              java_format.of_pattern("h:mm a"), dates.LOCALES["ROOT"]]
ALLOWED = v._KNOWN


def _check_value(x: Any, depth: int = 0) -> None:
    assert depth < 50
    t = type(x)
    assert t in ALLOWED or (callable(x) and getattr(x, "__qualname__", "").startswith("ptc:")), \
        f"a host value escaped: {t.__name__}"
    if t in v.MAP_TYPES:
        for k, val in v.map_items(x):
            _check_value(k, depth + 1)
            _check_value(val, depth + 1)
    elif t in v.SET_TYPES or t in v.VECTOR_TYPES or t is v.PList:
        for item in x:
            _check_value(item, depth + 1)


def _calls(n_args: int) -> list[tuple[Any, ...]]:
    pool = POOL if n_args <= 1 else SMALL_POOL
    return list(itertools.product(pool, repeat=n_args))


@pytest.mark.parametrize("name", NAMES)
def test_every_interop_name_gives_a_value_or_a_ptc_error(name: str) -> None:
    fn = REGISTRY[name].fn
    state = context.RunState(Limits(timeout=30))
    prev = context.enter(state)
    try:
        for n_args in range(4):
            for args in _calls(n_args):
                try:
                    result = fn(*args)
                except PTCError:
                    continue
                except TypeError as e:  # Python's arity errors, translated by the runtime by this name
                    assert str(e).startswith("ptc:"), f"({name} {args!r}) raised TypeError: {e}"
                    continue
                except Exception as e:  # noqa: BLE001
                    pytest.fail(f"({name} {args!r}) raised {type(e).__name__}: {e}")
                if type(result) is v.LazySeq:
                    try:
                        result = v.PList(result.realize())
                    except PTCError:
                        continue
                _check_value(result)
    finally:
        context.leave(prev)


def test_the_surface_is_what_the_docs_list() -> None:
    assert len([n for n in NAMES if n.startswith(".")]) >= 60
    assert {".toUpperCase", ".plusDays", ".isBefore", ".between", ".getYear", "LocalDate/parse", ".format",
            "DateTimeFormatter/ofPattern", "LocalTime/of", "clojure.math/floor-div", "Character/isDigit",
            "System/currentTimeMillis", "clojure.walk/postwalk"} <= set(NAMES)
