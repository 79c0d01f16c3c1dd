"""`ptc suite run / report / validate`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ptc.cli.main import main

from .conftest import write_suite


@pytest.fixture
def invoke(monkeypatch, tmp_path):
    monkeypatch.setenv("PTC_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        runner = CliRunner()

    def _invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return _invoke


def test_run_bundled_replay(invoke, tmp_path):
    result = invoke("suite", "run", "bundled", "--replay", "bundled", "-c", "none,coalesced",
                    "--mission", "refund-rate", "--mission", "cfo-team", "--html", "report.html")
    assert result.exit_code == 0, result.output
    assert "scripted" in result.output and "100.0%" in result.output
    assert "store session" in result.output
    lines = (tmp_path / "bundled-results.jsonl").read_text().splitlines()
    assert len(lines) == 4
    assert "<svg" in (tmp_path / "report.html").read_text()
    again = invoke("suite", "run", "bundled", "--replay", "bundled", "-c", "none,coalesced",
                   "--mission", "refund-rate", "--mission", "cfo-team", "--json")
    assert again.exit_code == 0
    data = json.loads(again.stdout)
    assert data["ran"] == 0 and data["skipped"] == 4 and data["rows"][0]["pass_rate"] == 1.0


def test_run_failures_set_the_exit_status(invoke, tmp_path):
    write_suite(tmp_path)
    result = invoke("suite", "run", "suite.json", "--no-store", "--results", "r.jsonl")
    assert result.exit_code == 1
    assert "FAIL" in result.output and "wrong / scripted / none / run 0 [check]" in result.output
    assert "66.7%" in result.output
    ok = invoke("suite", "run", "suite.json", "--no-store", "--results", "r.jsonl", "--fail-under", "0.6")
    assert ok.exit_code == 0
    fresh = invoke("suite", "run", "suite.json", "--no-store", "--results", "r.jsonl", "--fresh", "--json",
                   "--mission", "sum")
    assert json.loads(fresh.stdout)["ran"] == 1


def test_run_usage_errors(invoke, tmp_path):
    write_suite(tmp_path)
    r = invoke("suite", "run", "suite.json", "--replay", "x", "--record", "y")
    assert r.exit_code == 2 and "exclude each other" in r.stderr
    r = invoke("suite", "run", "suite.json", "--replay", str(tmp_path))
    assert r.exit_code == 1 and "no cassette" in r.stderr and "--record DIR" in r.stderr
    r = invoke("suite", "run", "missing.yaml")
    assert r.exit_code == 2 and "cannot read the suite file" in r.stderr  # a bad file: exit 2
    r = invoke("suite", "run", "suite.json", "-c", "zip")
    assert r.exit_code == 1 and "unknown compression strategy 'zip'" in r.stderr


def test_validate(invoke, tmp_path):
    r = invoke("suite", "validate", "bundled")
    assert r.exit_code == 0 and "26 missions" in r.output and r.output.strip().endswith("ok")
    (tmp_path / "bad.json").write_text(json.dumps({"name": "b", "missions": [{"id": "m", "prompt": "p",
                                                                               "checks": [{"between": [2, 1]}]}]}))
    r = invoke("suite", "validate", "bad.json")
    assert r.exit_code == 2 and "mission 'm' (#1): checks[0]: between: the low bound" in r.stderr


def test_report(invoke, tmp_path):
    write_suite(tmp_path)
    invoke("suite", "run", "suite.json", "--no-store", "--results", "r.jsonl")
    r = invoke("suite", "report", "r.jsonl", "--html", "out/r.html")
    assert r.exit_code == 0 and "pass rate" in r.output and "66.7%" in r.output
    assert (tmp_path / "out" / "r.html").exists()
    r = invoke("suite", "report", "r.jsonl", "--json")
    assert json.loads(r.stdout)[0]["executions"] == 3
    r = invoke("suite", "report", "r.jsonl", "--suite", "other")
    assert r.exit_code == 1 and "no results" in r.stderr
    pytest.importorskip("matplotlib")
    r = invoke("suite", "report", "r.jsonl", "--png", "r.png")
    assert r.exit_code == 0 and (tmp_path / "r.png").exists()


def test_help_has_examples(invoke):
    for args in (["suite"], ["suite", "run"], ["suite", "report"], ["suite", "validate"]):
        r = invoke(*args, "--help")
        assert r.exit_code == 0 and "Examples:" in r.output
