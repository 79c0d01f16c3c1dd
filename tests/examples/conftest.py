"""Fixtures for the ptc.examples package tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def tools_map():
    """The analysis tools as ptc.run wants them: {name: Tool}."""
    from ptc.examples.tools import analysis_tools
    from ptc.tools import as_tools

    return as_tools(analysis_tools())
