"""What a session's definitions hold, as counted against max_session_memory: a function what
its closure captured (a memoize cache too), a big integer its digits (issue 43, item 4: a
closure or a cache held 4.6 GB reported as 0 bytes)."""

from __future__ import annotations

import ptc
from ptc.interpreter.footprint import footprint


def defined(src: str, name: str) -> object:
    return ptc.run(src, limits=ptc.Limits(max_collection=3_000_000, timeout=10)).memory[name]


def test_a_closure_counts_what_it_captured() -> None:
    f = defined("(def f (let [xs (vec (range 200000))] (fn [] (count xs))))", "f")
    xs = defined("(def xs (vec (range 200000)))", "xs")
    assert footprint(f, 1 << 40) >= footprint(xs, 1 << 40) > 200000 * 8


def test_a_memoize_cache_counts_its_entries() -> None:
    src = "(def m (memoize (fn [n] (vec (range n))))) (m 100000) (m 100001)"
    m = defined(src, "m")
    assert footprint(m, 1 << 40) > 2 * 100000 * 8


def test_a_big_integer_counts_its_digits() -> None:
    n = defined("(def n (reduce *' (range 1 800)))", "n")
    assert footprint(n, 1 << 40) >= n.bit_length() // 8 > 700  # type: ignore[union-attr]
    assert footprint(12345, 1 << 40) == 0


def test_a_session_refuses_definitions_that_hold_too_much_through_a_fn() -> None:
    sandbox = ptc.Sandbox(limits=ptc.Limits(max_session_memory=20 << 20, max_collection=3_000_000))
    reply = sandbox.call({"program": "(def g (let [xs (vec (range 1000000))] (fn [] (count xs)))) 1"})
    assert "max_session_memory" in reply and "not kept" in reply
    assert "Unable to resolve symbol: g" in sandbox.call({"program": "(g)"})
