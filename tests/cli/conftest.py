"""Fixtures for the CLI tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "cli"


def make_runner() -> CliRunner:
    """A CliRunner keeping stderr apart from stdout (click 8.1 needs mix_stderr=False)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


@pytest.fixture
def runner() -> CliRunner:
    return make_runner()


@pytest.fixture
def invoke(runner, monkeypatch, tmp_path):
    """Invoke the `ptc` group with args (and optional stdin text); colours and history are off."""
    from ptc.cli.main import main

    monkeypatch.setenv("PTC_HOME", str(tmp_path / "ptc_home"))
    monkeypatch.delenv("FORCE_COLOR", raising=False)

    def _invoke(*args: str, input: str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return _invoke
