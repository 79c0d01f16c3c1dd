"""The bounded JSON parser (ptc/data/jsonparse.py) gives json.loads' values and refusals.

Its windows are shrunk here to a few characters, so that every value of a generated document
is parsed by parts (windows grown and cut, arrays' runs of items, objects' members, long
strings found by their quotes) as only megabyte-long values are in real files.
"""

from __future__ import annotations

import io
import json
import math
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ptc import DataFileError, LoadLimits
from ptc.data import jsonparse
from ptc.data.limits import loading

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                                            max_size=6), max_leaves=40)


windows = pytest.mark.parametrize("first,window", [(4, 16), (16, 64), (256, 1 << 18)], ids=["tiny", "small", "real"])


def shrunk(first: int, window: int) -> Any:
    return mock.patch.multiple(jsonparse, _FIRST=first, WINDOW=window)


def parsed(text: str) -> Any:
    with loading("t.json", LoadLimits()):
        return jsonparse.parse_json(text, "t.json")


@windows
@settings(max_examples=80, deadline=None)
@given(value=values, indent=st.sampled_from([None, 1]), ascii_only=st.booleans())
def test_a_document_parses_to_json_loads_value(first: int, window: int, value: Any, indent: int | None,
                                               ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    with shrunk(first, window):
        assert parsed(text) == json.loads(text)


@windows
@settings(max_examples=80, deadline=None)
@given(value=values, cut=st.integers(min_value=0), junk=st.sampled_from(["", ",", "]", "}", '"', "x", "1"]))
def test_a_broken_document_is_refused_where_json_loads_refuses_it(first: int, window: int, value: Any, cut: int,
                                                                  junk: str) -> None:
    text = json.dumps(value)
    text = text[:cut % (len(text) + 1)] + junk
    with shrunk(first, window):
        try:
            expected: Any = json.loads(text)
        except json.JSONDecodeError:
            with pytest.raises(DataFileError, match="is not valid JSON"):
                parsed(text)
        else:
            assert parsed(text) == expected


@windows
@settings(max_examples=40, deadline=None)
@given(rows=st.lists(values, max_size=12), blank=st.booleans())
def test_json_lines_parse_line_by_line(first: int, window: int, rows: list[Any], blank: bool) -> None:
    text = "".join(json.dumps(row) + ("\n\n" if blank else "\n") for row in rows)
    with shrunk(first, window), loading("t.jsonl", LoadLimits()):
        got = list(jsonparse.parse_json_lines(io.StringIO(text), "t.jsonl"))
    assert [value for _, value in got] == rows
    assert [n for n, _ in got] == [1 + i * (2 if blank else 1) for i in range(len(rows))]


def test_a_json_lines_error_names_its_line() -> None:
    for bad in ('{"a": 1}, {"b": 2}', "1 2", '{"a": 1}{"b": 2}', "[1,"):
        with loading("t.jsonl", LoadLimits()), pytest.raises(DataFileError, match="t.jsonl line 2 is not valid JSON"):
            list(jsonparse.parse_json_lines(io.StringIO('{"ok": 1}\n' + bad + '\n{"ok": 2}\n'), "t.jsonl"))


def test_a_string_past_max_cell_is_refused_before_it_is_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonparse, "WINDOW", 1024)
    with loading("t.json", LoadLimits(max_cell=10_000)), pytest.raises(DataFileError, match="max_cell=10,000"):
        jsonparse.parse_json(json.dumps([{"s": "x" * 20_000}]), "t.json")


@pytest.mark.parametrize("first, window", [(16, 64), (4, 8), (4, 16), (8, 32)])
@pytest.mark.parametrize("value", [{"": [False, -math.inf]}, [1, math.inf], [math.nan, 2], [True, None]])
def test_a_window_that_cuts_a_word_reads_it_whole(first: int, window: int, value: Any) -> None:
    """-Infinity (9 characters) cut by a window's end was "Expecting value" (CI, hypothesis:
    first=16, window=64); a window shorter than the word opened it as a number."""
    text = json.dumps(value)
    with shrunk(first, window):
        assert json.dumps(parsed(text)) == json.dumps(json.loads(text))
