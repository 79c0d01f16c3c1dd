"""clojure.math as in Clojure 1.11 (the corpus checks its values against real Clojure), and
PTC-Lisp's own `round`, which rounds to n digits as Python does."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ptc
from ptc.interpreter.lib.interop import constant
from ptc.interpreter.registry import REGISTRY, load_library

PUBLICS = json.loads((Path(__file__).resolve().parents[1] / "conformance" / "clojure_publics.json").read_text())


def run(src: str):  # type: ignore[no-untyped-def]
    return ptc.run(src).value


def test_clojure_math_is_whole() -> None:
    load_library()
    names = {b.name for b in REGISTRY.values() if b.ns == "clojure.math"}
    constants = {name for name in PUBLICS["clojure.math"] if constant("clojure.math", name) is not None}
    assert names | constants == set(PUBLICS["clojure.math"]) and constants == {"E", "PI"}


@pytest.mark.parametrize("src, expected", [
    ("(do (require '[clojure.math :as math]) [(math/floor-div -7 2) (math/sqrt 9) (math/round 2.5) math/PI])",
     [-4, 3.0, 3, 3.141592653589793]),
    ("(do (require 'clojure.math) (clojure.math/floor-mod -7 2))", 1),
    ("(do (require '[clojure.math :refer [floor-div next-after]]) [(floor-div 9 2) (next-after 1.0 2)])",
     [4, 1.0000000000000002]),
    ("(do (ns demo (:require [clojure.math :as m])) (m/hypot 3 4))", 5.0),
    ("[(Math/sqrt 16) (math/sqrt 16) math/PI]", [4.0, 4.0, 3.141592653589793]),  # math/ unrequired: Java's Math
    ("(map clojure.math/floor [1.5 -1.5])", [1.0, -2.0]),
])
def test_requiring_clojure_math_and_its_aliases(src: str, expected: object) -> None:
    assert ptc.to_python(run(src)) == expected


@pytest.mark.parametrize("src, expected", [
    ("(clojure.math/floor-div 7.9 2)", 3), ("(clojure.math/floor-mod -7.5 2)", 1),  # (long x) truncates
    ("(clojure.math/add-exact 2.7 3.9)", 5), ("(clojure.math/scalb 1.0 -1.5)", 0.5),
    ("(clojure.math/round 9007199254740993)", 9007199254740992),  # the double of the argument
    ("(clojure.math/round 1e20)", 9223372036854775807), ("(clojure.math/round ##NaN)", 0),
    ("(clojure.math/cbrt 2)", 1.2599210498948732),  # Java's (fdlibm's) bits, not libm's ...734
])
def test_clojure_math_coerces_as_clojure_does(src: str, expected: object) -> None:
    assert run(src) == expected


@pytest.mark.parametrize("src, words", [
    ("(math/floor-div 7 2)", "(require '[clojure.math :as math])"),
    ("(clojure.math/floor-div 1 0)", "Divide by zero"),
    ("(clojure.math/add-exact 9223372036854775807 1)", "long overflow"),
    ('(clojure.math/sqrt "x")', "expected a number"),
    ("(clojure.math/round nil)", "expected a number"),
    ("(clojure.math/floor-div 1)", "passed to: clojure.math/floor-div"),
    ("(require '[clojure.math :as m :refer [nope]])", "has no nope"),
])
def test_clojure_math_errors(src: str, words: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        run(src)
    assert words in f"{e.value.message} {e.value.hint}"


@pytest.mark.parametrize("src, expected", [
    ("(round 3.14159 2)", 3.14), ("(round 2.5)", 3), ("(round -2.5)", -2), ("(round 0.5)", 1), ("(round -0.5)", 0),
    ("(round 0.49999999999999994)", 0), ("(round 2.675 2)", 2.67), ("(round 2.5 0)", 2.0), ("(round 0.125 2)", 0.12),
    ("(round 7 2)", 7), ("(round 1234 -2)", 1200), ("(round 1250 -2)", 1200), ("(round 1234.5 -2)", 1200.0),
    ("(round 1e20)", 100000000000000000000), ("(round ##NaN)", 0), ("(round ##Inf)", 9223372036854775807),
    ("(round 2.5 100000000000000000000)", 2.5), ("(round 2.5 -100000000000000000000)", 0.0),
])
def test_round(src: str, expected: object) -> None:
    got = run(src)
    assert got == expected and type(got) is type(expected)


def test_round_to_digits_is_pythons_round() -> None:
    rng = random.Random(5)
    cases = [(rng.uniform(-1000, 1000), rng.randint(-3, 6)) for _ in range(300)]
    src = "[" + " ".join(f"(round {x!r} {n})" for x, n in cases) + "]"
    assert ptc.to_python(run(src)) == [round(x, n) for x, n in cases]


@pytest.mark.parametrize("src, words", [
    ('(round "1.5")', "parse-double"), ("(round 2.5 1.5)", "must be an integer"), ("(round nil)", "expected a number"),
    ("(round 2.5 nil)", "must be an integer"), ("(round 1 2 3)", "passed to: round"),
])
def test_round_errors(src: str, words: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        run(src)
    assert e.value.kind == "runtime" and words in f"{e.value.message} {e.value.hint}"
