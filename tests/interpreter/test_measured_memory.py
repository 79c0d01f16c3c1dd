"""The memory a run holds is measured, not only estimated: every limit check that reads the
clock also reads the process's resident growth since the run began (at most every 10 ms), so
what no estimate counts (here a tool that keeps 400 MB alive) still ends the run at max_memory."""

from __future__ import annotations

import pytest

import ptc

_KEPT: list[object] = []


def test_memory_no_estimate_counts_ends_the_run_at_max_memory() -> None:
    np = pytest.importorskip("numpy")

    def hoard() -> int:
        _KEPT.append(np.ones(400 << 17))  # 400 MB the run's estimates never see
        return 1

    try:
        with pytest.raises(ptc.PTCError) as e:
            ptc.run("(do (tool/hoard) (count (filter odd? (range 900000))))", tools={"hoard": hoard},
                    limits=ptc.Limits(max_memory=256 << 20, timeout=30))
        assert e.value.kind == "limit" and "max_memory" in e.value.message and "measured" in e.value.message
    finally:
        _KEPT.clear()


def test_ordinary_work_is_not_refused() -> None:
    r = ptc.run("(count (filter odd? (range 900000)))")
    assert r.value == 450000
