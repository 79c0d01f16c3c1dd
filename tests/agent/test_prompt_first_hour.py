"""What a capable model said the prompt left out: the time each program has, that a result
map's keys are keywords, how to look at values as data (prn), how many nils a column holds,
and what is fast over a large table."""

from __future__ import annotations

import pytest

import ptc
from ptc.agent.prompt import LARGE, system_prompt


def test_the_prompt_states_the_time_each_program_has() -> None:
    assert "Each program has 2 s, tools included." in system_prompt(tools={}, data=None)
    assert "Each program has 7.5 s, tools included." in system_prompt(tools={}, data=None,
                                                                      limits=ptc.Limits(timeout=7.5))
    agent = ptc.Agent("x", llm=ptc.ScriptedLLM([]), limits=ptc.Limits(timeout=9))
    assert "Each program has 9 s" in agent.system_prompt
    assert "Each program has 3 s" in ptc.Sandbox(limits=ptc.Limits(timeout=3)).instructions


def test_a_map_signature_says_its_keys_are_keywords_and_prn_is_taught() -> None:
    agent = ptc.Agent("x", llm=ptc.ScriptedLLM([]), signature="{name :string, price :float}")
    assert "{name :string, price :float} (write its keys as keywords: {:name ...})" in agent.system_prompt
    assert "(prn x) (strings keep quotes)" in agent.system_prompt


def test_a_large_table_says_what_runs_over_whole_columns() -> None:
    pa = pytest.importorskip("pyarrow")
    big = ptc.Sandbox(data={"t": pa.table({"a": list(range(LARGE + 1))})}).instructions
    assert f"({LARGE + 1:,} rows: filter, remove, group-by with counts or sums" in big
    small = ptc.Sandbox(data={"t": pa.table({"a": [1, None]})}).instructions
    assert "rows: filter, remove" not in small and ":a int (1 nil)" in small
