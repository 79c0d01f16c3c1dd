"""Heavy optional libraries in tests: litellm takes ~7 s to import, in every process that
imports it. A module that needs one marks itself with `needs(name)`: it is skipped when the
library is missing, it imports the library in its first test rather than at collection (every
xdist worker collects every module), and its tests run on one worker (`xdist_group`, with
`--dist loadgroup` in pyproject's addopts), so one worker pays the import, not both. A test in
a module that does not need it marks itself with `on_worker_of(name)`."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import pytest


def on_worker_of(name: str) -> pytest.MarkDecorator:
    return pytest.mark.xdist_group(name)


def needs(name: str) -> list[pytest.MarkDecorator]:
    missing = importlib.util.find_spec(name) is None
    return [pytest.mark.skipif(missing, reason=f"{name} is not installed"), on_worker_of(name)]


class Lazy:
    """A module imported at the first read of one of its public attributes; setting or deleting
    an attribute (monkeypatch) sets or deletes it on the module."""

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_name", name)

    def _module(self) -> Any:
        return importlib.import_module(object.__getattribute__(self, "_name"))

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):  # pytest's collection probes module globals (fixture markers...)
            raise AttributeError(attr)
        return getattr(self._module(), attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        setattr(self._module(), attr, value)

    def __delattr__(self, attr: str) -> None:
        delattr(self._module(), attr)
