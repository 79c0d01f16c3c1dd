"""The report: the per-model/per-strategy table, HTML (no dependency), PNG (matplotlib)."""

from __future__ import annotations

import io
import json
import re

import pytest

from ptc.suite import report


def rec(mission, model, strategy, run=0, passed=True, **kw):
    base = {"suite": "s", "mission": mission, "model": model, "strategy": strategy, "run": run, "passed": passed,
            "turns": 2, "prompt_tokens": 1000, "completion_tokens": 100, "cost": None, "duration": 1.0,
            "error_kind": None if passed else "check", "failures": [] if passed else ["equals: expected 1, got 2"]}
    base.update(kw)
    return base


RECORDS = [
    rec("a", "m1", "none", cost=0.01), rec("b", "m1", "none", passed=False, turns=4, cost=0.03),
    rec("a", "m1", "coalesced", prompt_tokens=500), rec("b", "m1", "coalesced", prompt_tokens=700),
    rec("a", "m2", "none", passed=False, error_kind="llm", turns=1, duration=3.0),
    rec("b", "m2", "none"),
]


def test_summarize():
    rows = {(r.model, r.strategy): r for r in report.summarize(RECORDS)}
    assert [(r.model, r.strategy) for r in report.summarize(RECORDS)] == [("m1", "none"), ("m1", "coalesced"),
                                                                           ("m2", "none")]
    r = rows[("m1", "none")]
    assert (r.executions, r.passed, r.pass_rate, r.turns) == (2, 1, 0.5, 3.0)
    assert r.cost == pytest.approx(0.04) and r.errors == {"check": 1}
    assert rows[("m1", "coalesced")].prompt_tokens == 600 and rows[("m1", "coalesced")].cost is None
    assert rows[("m2", "none")].duration == 2.0 and rows[("m2", "none")].errors == {"llm": 1}


def test_latest_record_per_execution_wins(tmp_path):
    path = tmp_path / "r.jsonl"
    lines = [rec("a", "m", "none", passed=False), rec("a", "m", "none", passed=True)]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + "{broken", encoding="utf-8")
    records = report.load(path)
    assert len(records) == 1 and records[0]["passed"]


def test_table_renders():
    from rich.console import Console

    buf = io.StringIO()
    report.print_table(report.summarize(RECORDS), Console(file=buf, width=140), title="t")
    text = buf.getvalue()
    assert "pass rate" in text and "50.0%" in text and "100.0%" in text and "$0.0400" in text
    assert "check 1" in text and "llm 1" in text


def test_html_is_self_contained():
    page = report.render_html(RECORDS, title="My <suite>")
    assert page.startswith("<!doctype html>") and "My &lt;suite&gt;" in page
    assert page.count("<svg") == 3 and "Pass rate" in page and "Mean tokens per execution" in page
    assert "<script" not in page and not re.search(r"(src|href)=['\"]https?:", page)
    assert "6 executions, 4 passed (66.7%)" in page
    assert "<td class='l'>a</td>" in page and "1/1" in page  # the mission matrix
    assert "Failures" in page and "equals: expected 1, got 2" in page


def test_html_with_no_records():
    assert "0 executions" in report.render_html([])


def test_png(tmp_path):
    pytest.importorskip("matplotlib")
    path = report.write_png(RECORDS, tmp_path / "r.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
