"""`ptc bench tool-search` (ptc.bench.tool_search): the generated catalogs, and figures that hold
(fewer tokens after, whatever the catalog; most missions find their tool in the top 5)."""

from __future__ import annotations

from click.testing import CliRunner

from ptc.bench.tool_search import CORE, MISSIONS, catalog, measure
from ptc.cli.main import main


def test_the_catalogs_and_missions() -> None:
    assert len(catalog(50)) == 50 and len(catalog(500)) == 500
    assert {tool for _, tool in MISSIONS} == {spec[0] for spec in CORE}  # one mission per hand-written tool
    assert set(catalog(50)) <= set(catalog(500))


def test_the_figures() -> None:
    report = measure(sizes=(50, 500))
    for size in ("50", "500"):
        before, after = report[size]["before"], report[size]["after"]
        assert all(after[k] < before[k] for k in before)
        assert report[size]["search"]["top5"] >= 0.6 * len(MISSIONS)
    assert report["500"]["after"]["ptc mcp serve description"] < 1_000 < report["500"]["before"]["ptc mcp serve description"]


def test_the_command() -> None:
    out = CliRunner().invoke(main, ["bench", "tool-search"])
    assert out.exit_code == 0, out.output
    assert "500 tools  agent prompt (default)" in out.output and "in the top 5:" in out.output
