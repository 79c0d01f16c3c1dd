"""Fixtures shared by every test directory: a local LLM server (tests/llm_server.py)."""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator

import pytest

from llm_server import LLMServer

# Tests that import litellm themselves (the documented recipes) must not fetch its price map
# from the network either (ptc sets this before it imports litellm).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.fixture
def llm_server() -> Iterator[Callable[..., LLMServer]]:
    """`llm_server(replies, **options)` starts an LLMServer on 127.0.0.1; stopped after the test."""
    started: list[LLMServer] = []

    def start(replies: Any, **options: Any) -> LLMServer:
        server = LLMServer(replies, **options).__enter__()
        started.append(server)
        return server

    yield start
    for server in started:
        server.__exit__(None, None, None)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The lines tests ask to be shown (`record_property("summary_line", ...)`, e.g. the
    conformance rate), printed once by the controlling process, with or without workers."""
    for report in terminalreporter.stats.get("passed", []):
        for key, line in getattr(report, "user_properties", ()):
            if key == "summary_line":
                terminalreporter.write_line(line)
