"""rand, rand-int, rand-nth, shuffle, random-sample and Math/random: bounds, and replay with Limits.seed."""

from __future__ import annotations

import pytest

import ptc
from ptc.interpreter.errors import PTCError
from ptc.interpreter.lib import core_random as R
from ptc.interpreter.printer import pr_str

DRAWS = ("[(rand) (rand 10) (rand-int 100) (Math/random) (rand-nth (range 50)) (shuffle (range 20))"
         " (vec (random-sample 0.5 (range 40))) (into [] (random-sample 0.5) (range 40))]")


def test_bounds():
    for _ in range(200):
        assert 0 <= R.rand() < 1
        assert 0 <= R.rand(3) < 3
        assert 0 <= R.rand_int(3) < 3
        assert type(R.rand_int(3)) is int
        assert -3 < R.rand_int(-3) <= 0
        assert 0 <= R.rand_int(2.5) < 3
    assert R.rand_int(0) == 0


def test_a_seed_replays_every_draw_and_no_seed_does_not():
    seeded = ptc.Limits(seed=42)
    first = ptc.run(DRAWS, limits=seeded).value
    assert ptc.run(DRAWS, limits=seeded).value == first
    assert ptc.run(DRAWS, limits=ptc.Limits(seed=43)).value != first
    assert ptc.run(DRAWS).value != ptc.run(DRAWS).value


def test_a_seed_replays_in_an_isolated_process_too():
    inline = ptc.run(DRAWS, limits=ptc.Limits(seed=7)).value
    assert ptc.run(DRAWS, limits=ptc.Limits(seed=7, isolation="process")).value == inline


def run(src: str) -> str:
    return pr_str(ptc.run(src).value)


def test_shuffle_and_samples_keep_the_items():
    assert run("(sort (shuffle [3 1 2 2]))") == "(1 2 2 3)"
    assert run("(vector? (shuffle #{1 2 3}))") == "true"
    assert run("(random-sample 1 [1 2 3])") == "(1 2 3)"
    assert run("(random-sample 0 [1 2 3])") == "()"
    assert run("(take 3 (random-sample 1 (range)))") == "(0 1 2)"  # lazy


@pytest.mark.parametrize("src, message", [
    ("(shuffle nil)", "shuffle: expected a vector, list, set or sequence, got nil"),
    ('(shuffle "ab")', "got string"),
    ("(shuffle {:a 1})", "got map"),
    ("(rand-nth [])", "out of bounds"),
    ('(random-sample "x" [1])', "random-sample: expected a number"),
])
def test_bad_arguments(src: str, message: str):
    with pytest.raises(PTCError, match=message):
        ptc.run(src)
