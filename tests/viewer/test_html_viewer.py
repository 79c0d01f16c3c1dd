"""The HTML run viewer: one self-contained page per trace or session, everything escaped,
checked by parsing and, when Chromium is installed, in a real headless browser."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ptc.agent.trace import read_trace
from ptc.scenarios.demo import SCENARIOS
from ptc.viewer import runs_from_trace, write_html
from ptc.viewer.page import CSP

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


class Page(HTMLParser):
    """Tags, attributes and text of a page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)


def assert_inert(page: Page) -> None:
    """No script, no event handler, nothing loaded from anywhere but the page itself."""
    assert not [t for t, _ in page.tags if t in ("script", "iframe", "object", "embed", "link", "base")]
    for tag, attrs in page.tags:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        for a in ("src", "href", "action", "xlink:href"):
            if attrs.get(a) is not None:
                assert attrs[a].startswith("data:image/"), (tag, attrs)
    assert any(t == "meta" and a.get("content") == CSP for t, a in page.tags)


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("traces")
    out = {}
    for name in ("recovering", "chart"):
        SCENARIOS[name].agent(trace=d / f"{name}.jsonl").run()
        out[name] = d / f"{name}.jsonl"
    return out


def test_page_holds_every_turn_with_its_program_prints_tool_calls_and_errors(traces, tmp_path: Path) -> None:
    records = list(read_trace(traces["recovering"]))
    path = write_html(runs_from_trace(records), tmp_path / "run.html", title="recovering")
    page = Page(path.read_text())
    assert_inert(page)
    text = page.all_text
    turns = [r["record"] for r in records if r["type"] == "turn_finished"]
    assert len(turns) == 4
    for t in turns:
        assert f"Turn {t['number']}" in text
        assert t["program"] in text  # the coloured program reads as the program
        for line in t["prints"]:
            assert line in text
        if t["error"]:
            assert t["error"]["message"] in text and t["error"]["hint"] in text
    assert "tool/list-orders" in text and '"status": "delivered"' in text
    assert "What the model saw" in text and "Append-only summaries" in text
    assert sum(1 for tag, _ in page.tags if tag == "svg") == 1  # tokens per turn
    assert sum(1 for tag, a in page.tags if tag == "rect") == 2 * len(turns)
    assert "http" not in path.read_text().replace("http-equiv", "")


def test_charts_the_run_produced_are_drawn(traces, tmp_path: Path) -> None:
    pytest.importorskip("vl_convert")
    path = write_html(runs_from_trace(read_trace(traces["chart"])), tmp_path / "chart.html", title="chart")
    page = Page(path.read_text())
    assert_inert(page)
    images = [a for t, a in page.tags if t == "img"]
    assert len(images) == 1 and images[0]["src"].startswith("data:image/svg+xml;base64,")
    assert "Monthly revenue, 2026" in page.all_text


def test_recorded_text_is_escaped_everywhere(traces, tmp_path: Path) -> None:
    records = list(read_trace(traces["recovering"]))
    for r in records:
        if r["type"] == "run_started":
            r["mission"] = HOSTILE
        elif r["type"] == "turn_finished":
            rec = r["record"]
            rec["prints"] = [HOSTILE]
            rec["raw_response"] = HOSTILE + rec["raw_response"]
            rec["program"] = f'(println "{HOSTILE}") ; </pre>{HOSTILE}'
            rec["result"] = HOSTILE
            for call in rec["tool_calls"]:
                call["name"], call["args"], call["result"] = HOSTILE, {HOSTILE: HOSTILE}, HOSTILE
            if rec["error"]:
                rec["error"]["hint"] = HOSTILE
        elif r["type"] == "run_finished":
            r["value"] = HOSTILE
    runs = runs_from_trace(records)
    runs[0].run_id = HOSTILE
    page_text = write_html(runs, tmp_path / "h.html", title=HOSTILE).read_text()
    page = Page(page_text)
    assert_inert(page)
    assert HOSTILE in page.all_text  # shown as text
    assert "<script>" not in page_text


def test_trace_show_html_and_sessions_export_html(traces, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ptc.cli.main import main

    out = tmp_path / "t.html"
    r = CliRunner().invoke(main, ["trace", "show", str(traces["recovering"]), "--html", str(out)])
    assert r.exit_code == 0, r.output
    assert "Turn 4" in Page(out.read_text()).all_text
    db = tmp_path / "s.db"
    from ptc.store import Store

    SCENARIOS["recovering"].agent(store=Store(str(db)), session_id="demo").run()
    out = tmp_path / "s.html"
    r = CliRunner().invoke(main, ["sessions", "--db", str(db), "export", "demo", "--html", str(out)])
    assert r.exit_code == 0, r.output
    page = Page(out.read_text())
    assert_inert(page)
    text = page.all_text
    assert "Turn 4" in text and "Session messages" in text and "What the model saw" in text


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--enable-logging=stderr", "--v=0", *args], capture_output=True, text=True, timeout=90)


def console_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_page_in_headless_chromium(traces, tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    records = list(read_trace(traces["chart"]))
    page = write_html(runs_from_trace(records), tmp_path / "run.html", title="chart run")
    shot = tmp_path / "shot.png"
    proc = chromium("--window-size=1200,1400", f"--screenshot={shot}", page.as_uri())
    assert shot.exists(), proc.stderr[-2000:]
    assert console_lines(proc.stderr) == []  # no console error (nor a refused load)
    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50  # not blank: text, code colours, a chart
    # the same page with a script smuggled in: its text holds each turn, and the script is refused
    # by the page's policy and reported on the console (so the console check above can fail)
    bad = tmp_path / "bad.html"
    bad.write_text(page.read_text().replace("</main>", "<script>console.log(1)</script></main>"))
    proc = chromium("--dump-dom", bad.as_uri())
    text = re.sub(r"<[^>]+>", "", proc.stdout)
    for r in records:
        if r["type"] == "turn_finished":
            assert f"Turn {r['record']['number']}" in text and "Monthly revenue" in text
    assert any("Content Security Policy" in line for line in console_lines(proc.stderr))


def test_runs_from_trace_groups_runs_and_survives_a_partial_trace(traces) -> None:
    records = list(read_trace(traces["recovering"]))
    cut = [r for r in records if r["type"] != "run_finished"]
    runs = runs_from_trace(cut + [json.loads(json.dumps(r)) | {"run_id": "other"} for r in records])
    assert [len(r.turns) for r in runs] == [4, 4]
    assert runs[0].outcome is None and runs[1].outcome["ok"] is True
