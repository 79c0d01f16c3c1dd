"""A tool that is still running at the run's deadline does not hold the run up: the run ends
with a `limit` error then; a synchronous tool is abandoned (it finishes in the background,
its result dropped), an async tool is cancelled. Inline and in process isolation alike.

No test measures absolute time: a tool blocks on an event that the test sets only after
`ptc.run` has returned, so a run that waited for the tool could not return at all.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import ptc

MODES = ["inline", "process"]


def blocking_tool(release: threading.Event, finished: threading.Event) -> Any:
    def slow_lookup(q: str = "") -> list[int]:
        release.wait(60)
        finished.set()
        return [1, 2, 3]

    return slow_lookup


@pytest.mark.parametrize("mode", MODES)
def test_a_sync_tool_is_abandoned_at_the_deadline(mode: str) -> None:
    release, finished = threading.Event(), threading.Event()
    tool = blocking_tool(release, finished)
    try:
        with pytest.raises(ptc.PTCError) as info:
            ptc.run('(println "before") (tool/slow-lookup {:q "x"})', tools={"slow-lookup": tool},
                    limits=ptc.Limits(timeout=0.5, isolation=mode))
        assert not finished.is_set()  # the run returned while the tool was still running
    finally:
        release.set()
    err = info.value
    assert err.kind == "limit" and "timeout" in err.message and "tool/slow-lookup" in err.message
    calls = err.partial.tool_calls  # type: ignore[attr-defined]
    assert [(c.name, c.result) for c in calls] == [("slow-lookup", None)]  # its result is not recorded
    assert "abandoned" in calls[0].error
    assert err.partial.prints == ("before",)  # type: ignore[attr-defined]
    assert finished.wait(10)  # the abandoned call finishes in the background


@pytest.mark.parametrize("mode", MODES)
def test_an_async_tool_is_cancelled_at_the_deadline(mode: str) -> None:
    cancelled = threading.Event()

    async def watch(topic: str = "") -> str:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    with pytest.raises(ptc.PTCError) as info:
        ptc.run("(tool/watch)", tools={"watch": watch}, limits=ptc.Limits(timeout=0.5, isolation=mode))
    assert info.value.kind == "limit"
    if mode == "inline":  # in process isolation the host cancels it too, but it is not observable from here
        assert cancelled.wait(10)


def test_tools_that_finish_in_time_are_unaffected() -> None:
    def add(a: int, b: int) -> int:
        return a + b

    async def twice(x: int) -> int:
        await asyncio.sleep(0)
        return 2 * x

    r = ptc.run("[(tool/add 1 2) (tool/twice 21)]", tools={"add": add, "twice": twice})
    assert ptc.pr_str(r.value) == "[3 42]"
    assert [c.result for c in r.tool_calls] == [3, 42]


def test_a_tool_may_run_a_program_and_its_deadline_is_the_callers() -> None:
    def sub_agent(src: str) -> Any:
        return ptc.run(src, limits=ptc.Limits(timeout=60)).value

    r = ptc.run('(tool/sub-agent "(reduce + (range 10))")', tools={"sub-agent": sub_agent})
    assert r.value == 45
    with pytest.raises(ptc.PTCError) as info:  # the nested run stops at the outer run's deadline
        ptc.run('(tool/sub-agent "(loop [] (recur))")', tools={"sub-agent": sub_agent},
                limits=ptc.Limits(timeout=0.5, max_steps=10**12))
    assert info.value.kind == "limit"


def test_an_abandoned_tool_that_runs_a_program_later_does_not_disturb_other_runs() -> None:
    release, done = threading.Event(), threading.Event()
    results: list[Any] = []

    def late(**_: Any) -> int:
        release.wait(60)
        results.append(ptc.run("(* 6 7)").value)  # after its caller gave up on it
        done.set()
        return 0

    with pytest.raises(ptc.PTCError):
        ptc.run("(tool/late)", tools={"late": late}, limits=ptc.Limits(timeout=0.3))
    release.set()
    assert ptc.run("(+ 1 2)").value == 3
    assert done.wait(10) and results == [42]
