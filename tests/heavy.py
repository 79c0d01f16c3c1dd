"""Heavy optional libraries in tests: litellm takes ~7 s to import. A module that needs one
marks itself with `needs(name)` (skipped when the library is missing) and reads it through
`Lazy(name)`, so that the library is imported by the first test that uses it, not when every
xdist worker collects every module (the timing part, for one, never imports it)."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import pytest


def needs(name: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(importlib.util.find_spec(name) is None, reason=f"{name} is not installed")


class Lazy:
    """A module imported at the first read of one of its public attributes. Read-only: patch
    the module itself (`monkeypatch.setattr("litellm.completion", fake)`), since pytest restores
    an instance's attribute from the instance's own __dict__, which a proxy does not have."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):  # pytest's collection probes module globals (fixture markers...)
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._name), attr)
