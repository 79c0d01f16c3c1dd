"""Fixtures for the data-file tests: a Python without pyarrow (for the stdlib readers)."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture
def no_pyarrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `import pyarrow` (and its submodules) fail for this test, as when it is not installed."""
    for name in [n for n in sys.modules if n == "pyarrow" or n.startswith("pyarrow.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)


@pytest.fixture(params=["pyarrow", "stdlib"])
def reader(request: pytest.FixtureRequest) -> str:
    """Run a test with pyarrow and again without it (the stdlib readers)."""
    if request.param == "stdlib":
        request.getfixturevalue("no_pyarrow")
    return str(request.param)

