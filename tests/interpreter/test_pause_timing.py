"""A resumed run's timeout counts the program's own time: each replayed call takes the time
it took when it was made, and the wait for the answer counts for nothing."""

from __future__ import annotations

import time

import pytest

import ptc

pytestmark = pytest.mark.timing


@ptc.tool
def slow() -> int:
    "Takes 0.6 s."
    time.sleep(0.6)
    return 1


@ptc.tool(approval=True)
def act() -> int:
    "Needs approval, then takes 0.6 s."
    time.sleep(0.6)
    return 2


def test_replayed_calls_take_their_time_and_the_wait_none():
    src = "(+ (tool/slow) (tool/act))"
    r = ptc.run(src, tools=[slow, act], limits=ptc.Limits(timeout=1.0))
    assert r.paused is not None
    time.sleep(1.2)  # the wait: longer than the whole timeout
    with pytest.raises(ptc.PTCError) as e:  # 0.6 s recorded + 0.6 s now > 1.0 s, as in one run
        r.paused.resume(ptc.Answer.approve(), tools=[slow, act])
    assert e.value.kind == "limit" and "timeout=1.0" in e.value.message
    fits = ptc.run(src, tools=[slow, act], limits=ptc.Limits(timeout=2.0))
    time.sleep(1.2)
    assert fits.paused.resume(ptc.Answer.approve(), tools=[slow, act]).value == 3
