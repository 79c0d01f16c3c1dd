"""While a program compiles and runs, the cyclic collector's full pass is deferred (a scan of
a large host heap, a DataFrame of dates, cost 45 ms a time in the middle of a compile), and
the host's setting is back when the run ends, whether it failed or not."""

from __future__ import annotations

import gc

import pytest

import ptc
from ptc.interpreter import inline


@pytest.mark.parametrize("src", ["(+ 1 2)", "(/ 1 0)"])
def test_full_collections_are_deferred_while_compiling_and_running(src: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    real = inline.compile_program

    def compile_program(source: str, names: object) -> object:
        seen.append(gc.get_threshold()[2])
        return real(source, names)  # type: ignore[arg-type]

    monkeypatch.setattr(inline, "compile_program", compile_program)
    before = gc.get_threshold()
    try:
        ptc.run(src + " ")
    except ptc.PTCError:
        pass
    assert seen == [max(before[2], inline.RUN_GC_FULL_EVERY)]
    assert gc.get_threshold() == before
