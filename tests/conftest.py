"""Fixtures shared by every test directory: a local LLM server (tests/llm_server.py)."""

from __future__ import annotations

import functools
import gc
import os
from pathlib import Path
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


# The suite runs in two parts (README): `-m "not fuzz and not timing"`, then `-m timing` apart so
# that deadlines are not measured on a machine busy with the rest. A timing test is marked in its
# own module's text (`pytest.mark.timing`, a decorator or `pytestmark`), so the second part
# imports only those modules: collecting the other ~170 cost ~25 s per worker for nothing.
TIMING_MARK = "mark.timing"


@functools.cache
def _says_timing(path: Path) -> bool:
    return TIMING_MARK in path.read_text(encoding="utf-8")


def _timing_only(config: Any) -> bool:
    return (config.option.markexpr or "").strip() == "timing"


def pytest_ignore_collect(collection_path: Path, config: Any) -> bool | None:
    if _timing_only(config) and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        if not _says_timing(collection_path):
            return True
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Keep the shortcut above true: a test marked timing elsewhere (a conftest, a shared mark)
    would be skipped by both parts, so a run that collects it stops here."""
    for item in items:
        if item.get_closest_marker("timing") and not _says_timing(Path(item.path)):
            raise pytest.UsageError(f"{item.nodeid} is marked timing but its module does not say "
                                    f"{TIMING_MARK!r}: write the mark in the module (tests/conftest.py)")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: Any) -> None:
    """By now a worker holds gigabytes of objects (tables, caches, compiled programs), and
    pytest's unraisable-exception cleanup runs gc.collect() five times over them: 3.5 s per
    worker at the end of the suite, then the exit walks them again. Freezing the heap first
    makes both quick; the price is that cyclic garbage not yet collected by then stays
    uncollected (the automatic collections ran all along), so its __del__ reports nothing."""
    gc.freeze()
