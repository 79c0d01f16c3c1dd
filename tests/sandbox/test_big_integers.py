"""A result past Python's 4,300-digit limit on one int-to-str conversion (a host that raised
max_int_bits computes one) raised a raw ValueError from Sandbox.call, `ptc eval` and the MCP
server (issue 43, item 14). The printer writes its digits: exactly, and no more of them than
the rendering has room for."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ptc
from ptc.interpreter.printer import pr_str
from ptc.sandbox import Sandbox
from ptc.sandbox.mcp_server import Gateway, call_result

LIMITS = ptc.Limits(max_int_bits=100_000)
FACTORIAL = "(reduce *' (range 1 3000))"  # 9,131 digits


def digits(n: int) -> str:
    """str(n), Python's conversion limit lifted for it."""
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(saved)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=14_000, max_value=80_000).flatmap(
    lambda bits: st.integers(min_value=-(1 << bits), max_value=1 << bits)))
def test_an_integer_past_the_conversion_limit_prints_exactly(n: int) -> None:
    assert pr_str(n) == digits(n)
    assert pr_str([1, n, -n]) == f"[1 {digits(n)} {digits(-n)}]"  # a vector's run of numbers
    assert pr_str({n: 1}) == f"{{{digits(n)} 1}}"


@pytest.mark.parametrize("room", [1, 5, 2_000, 4_301, 30_000])
def test_a_clipped_rendering_converts_only_the_digits_it_shows(room: int) -> None:
    n = -(7 ** 60_000)  # 50,704 digits
    shown = pr_str(["x", n], max_len=room)
    full = f'["x" {digits(n)}]'
    assert full.startswith(shown) and len(shown) >= min(room, len(full))


def test_every_entry_point_shows_the_digits() -> None:
    n = ptc.run(FACTORIAL, limits=LIMITS).value
    head = digits(n)[:50]
    assert head in Sandbox(limits=LIMITS).call({"program": FACTORIAL})
    sandbox = Sandbox(limits=LIMITS)
    sandbox.call({"program": FACTORIAL})
    assert head in sandbox.call({"program": "[*1 (println *1)]"})  # history and printed output
    reply = Gateway(limits=LIMITS).run_program(_Client(), {"program": FACTORIAL})
    assert not reply.error and head in reply.text
    assert call_result(reply).structured_content is None  # JSON's numbers stop at Python's limit: text only


class _Client:
    """A client connection, as the gateway keys its sessions (weakly)."""


def test_inside_a_program_str_of_such_an_integer_is_a_limit_error() -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(str (reduce *' (range 1 3000)))", limits=LIMITS)
    assert e.value.kind == "limit" and "max_int_bits" in e.value.message
