"""`ptc sandbox spec` prints what ptc.Sandbox gives from Python, for the same tools and data."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import ptc
from ptc.cli.main import main
from ptc.examples.tools import analysis_tools

ORDERS = Path(__file__).resolve().parents[2] / "examples" / "cli" / "orders.json"


def spec(*args: str) -> str:
    result = CliRunner().invoke(main, ["sandbox", "spec", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_cli_prints_the_sandbox_definition() -> None:
    data = json.loads(ORDERS.read_text())
    tools_arg = ["--tools", "ptc.examples.tools:analysis_tools", "--data", str(ORDERS)]
    sandbox = ptc.Sandbox(tools=analysis_tools(), data=data)
    assert json.loads(spec(*tools_arg)) == sandbox.openai_tool()
    assert json.loads(spec(*tools_arg, "--format", "anthropic", "--brief")) == sandbox.anthropic_tool(brief=True)
    assert spec(*tools_arg, "--format", "text") == sandbox.instructions + "\n"
    named = json.loads(spec("--name", "lisp", "--prompt", "default"))
    assert named["function"]["name"] == "lisp" and "PTC-Lisp functions:" in named["function"]["description"]


def test_bad_options_are_clear_errors() -> None:
    result = CliRunner().invoke(main, ["sandbox", "spec", "--name", "run ptc"])
    assert result.exit_code == 1 and "must be 1-64 letters" in result.output
    result = CliRunner().invoke(main, ["sandbox", "spec", "--tools", "nowhere:tools"])
    assert result.exit_code == 2 and "cannot load nowhere:tools" in result.output
