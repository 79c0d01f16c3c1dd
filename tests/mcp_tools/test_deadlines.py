"""A run whose MCP tool never answers returns at its deadline: closing the server (which may
take seconds to exit while it is stuck in the call) happens after, in the background, and
still ends the process (checked by PID)."""

from __future__ import annotations

import time
from typing import Any

import pytest

import ptc
from ptc.tools.mcp_connection import MCPConnection

from .conftest import ServerProcesses

pytestmark = pytest.mark.timing  # limit tests measure wall time: run apart (see README)

BOUND = 2.0  # seconds for a run with timeout=1: well under the old 3 s (deadline + the SDK's 2 s exit wait)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When each run's server was up: a run's clock starts then (its start is not on it)."""
    started: list[float] = []
    wait = MCPConnection.wait_started

    def recorded(self: MCPConnection) -> None:
        wait(self)
        started.append(time.monotonic())

    monkeypatch.setattr(MCPConnection, "wait_started", recorded)
    return started


def test_ptc_run_returns_at_its_deadline(stdio_tools: Any, module_servers: ServerProcesses,
                                        clock: list[float]) -> None:
    tools, servers = stdio_tools, module_servers
    took = []
    for _ in range(3):  # the slow return happened in about one run in three
        try:
            ptc.run("(tool/hang)", tools=tools, limits=ptc.Limits(timeout=1))
        except ptc.PTCError as e:
            assert e.kind == "limit" and "tool/hang was still running at the deadline" in e.message
        took.append(time.monotonic() - clock[-1])
    assert max(took) < BOUND, took
    # the listing's server and one per run (on a loaded machine a run may end before its server
    # got to write its pid): all ended
    assert len(servers.pids()) <= 4 and servers.alive() == []


def test_agent_run_returns_at_its_deadline(stdio_tools: Any, module_servers: ServerProcesses,
                                          clock: list[float]) -> None:
    ptc.Agent("Warm up.", llm=ptc.ScriptedLLM(["```clojure\n(return 1)\n```"]), max_turns=1).run()  # first-run imports
    agent = ptc.Agent("Wait.", tools=stdio_tools, llm=ptc.ScriptedLLM(["```clojure\n(tool/hang)\n```"]),
                      max_turns=1, limits=ptc.Limits(timeout=1))
    step = agent.run()
    took = time.monotonic() - clock[-1]
    assert not step.ok and step.turns[-1].error is not None and step.turns[-1].error.kind == "limit"
    assert took < BOUND, took
    assert module_servers.alive() == []
