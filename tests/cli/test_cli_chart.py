"""`--chart`: ptc run and ptc demo render the chart their answer holds."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "cli"

pytest.importorskip("altair")  # ships Vega-Lite's schema
pytest.importorskip("vl_convert")


def test_cli_run_writes_the_chart(invoke, tmp_path: Path) -> None:
    out = tmp_path / "revenue.svg"
    r = invoke("run", str(EXAMPLES / "chart.clj"), "--data",
               str(EXAMPLES / "orders.json"), "--chart", str(out))
    assert r.exit_code == 0, r.output
    assert "<svg" in out.read_text() and "Delivered revenue by region" in out.read_text()
    r = invoke("run", "-", "--chart", str(tmp_path / "none.png"), input="(+ 1 2)")
    assert r.exit_code == 1 and "holds no chart" in r.stderr
    r = invoke("run", "-", "--chart", str(tmp_path / "x.gif"), input="(+ 1 2)")
    assert r.exit_code == 2 and ".png, .svg or .html" in r.stderr


def test_demo_chart_mission_answers_with_a_chart(invoke, tmp_path: Path) -> None:
    out = tmp_path / "monthly.png"
    r = invoke("demo", "chart", "--chart", str(out))
    assert r.exit_code == 0, r.stderr
    assert "answer: correct" in r.output and out.read_bytes().startswith(b"\x89PNG")


def test_cli_agent_writes_the_answers_chart(invoke, tmp_path: Path) -> None:
    from ptc.examples.cassettes import cassette_path
    from ptc.scenarios.demo import CHART_MISSION

    out = tmp_path / "monthly.svg"
    r = invoke("agent", CHART_MISSION, "--replay", str(cassette_path("chart")), "--tools",
               "ptc.examples.tools:analysis_tools", "--max-turns", "6", "--chart", str(out))
    assert r.exit_code == 0, r.stderr
    assert "Monthly revenue, 2026" in out.read_text()
