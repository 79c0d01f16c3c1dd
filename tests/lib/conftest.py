"""The library's functions run inside a program run: these tests call them directly, so each
test gets a run state of its own (lazy seqs are realized only while a program runs)."""

from collections.abc import Iterator

import pytest

from ptc.interpreter import context


@pytest.fixture(autouse=True)
def inside_a_run() -> Iterator[context.RunState]:
    state = context.RunState(context.DEFAULT_LIMITS)
    prev = context.enter(state)
    try:
        yield state
    finally:
        context.leave(prev)
