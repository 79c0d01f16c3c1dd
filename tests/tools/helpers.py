"""Shared helpers for the tools tests."""

from __future__ import annotations

from typing import Any

import pytest

import ptc
from ptc.tools import as_tools


def run(source: str, *tools: Any) -> Any:
    return ptc.run(source, tools=as_tools(list(tools))).value


def err(source: str, *tools: Any) -> ptc.PTCError:
    with pytest.raises(ptc.PTCError) as info:
        ptc.run(source, tools=as_tools(list(tools)))
    return info.value
