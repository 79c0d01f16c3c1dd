"""Run scopes: a tool's resource is held for the whole run, released however the run ends."""

from __future__ import annotations

import asyncio

import pytest

import ptc
from ptc.tools.lifetime import arun_scope, run_scope, scopes_of


class Counted:
    """A scope that records what happens to it."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.held = 0

    def acquire(self, eager: bool = True) -> None:
        self.held += 1
        self.events.append("acquire" if eager else "acquire at first use")

    def release(self) -> None:
        self.held -= 1
        self.events.append("release")


def test_a_run_holds_each_scope_once_for_all_its_turns() -> None:
    scope = Counted()
    seen: list[int] = []

    def peek() -> int:
        seen.append(scope.held)
        return scope.held

    tools = [ptc.Tool(peek, scope=scope), ptc.Tool(lambda: 1, name="other", scope=scope)]
    assert scopes_of(ptc.tools.as_tools(tools)) == [scope]
    replies = ["```clojure\n(def a (tool/peek))\n```", "```clojure\n(return (+ a (tool/peek) (tool/other)))\n```"]
    step = ptc.Agent("x", tools=tools, llm=ptc.ScriptedLLM(replies)).run()
    assert step.ok and step.value == 5  # 2 + 2 + 1
    # the run holds it from start to end; each program (ptc.run) holds it too, opening at first use
    assert seen == [2, 2] and scope.events == ["acquire", *["acquire at first use", "release"] * 2, "release"]
    assert scope.held == 0
    assert ptc.Tool(peek, scope=scope).replace(name="renamed").scope is scope


def test_scopes_are_released_on_errors_and_in_async_runs() -> None:
    scope = Counted()
    tools = [ptc.Tool(lambda: 1, name="one", scope=scope)]
    with pytest.raises(RuntimeError):
        with run_scope(tools):
            raise RuntimeError("boom")
    assert scope.events == ["acquire", "release"]

    async def main() -> None:
        async with arun_scope(tools):
            assert scope.held == 1
        step = await ptc.Agent("x", tools=tools, llm=ptc.ScriptedLLM(["```clojure\n(return (tool/one))\n```"])).arun()
        assert step.value == 1

    asyncio.run(main())
    assert scope.held == 0 and scope.events.count("acquire") == 3 and scope.events.count("acquire at first use") == 1
