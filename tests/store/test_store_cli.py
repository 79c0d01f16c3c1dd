"""`ptc sessions`: list, show (three views, cursors), rollback, stats, export."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ptc.cli.main import main
from ptc.store import Block, Store


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("PTC_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PTC_STORE_URL", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    path = tmp_path / "cli.db"
    with Store(path) as store:
        sid = store.create_session("demo session", "agent", id="abc123def456").id
        store.append(sid, "user", content="What is the total?")
        store.append(sid, "assistant", tool_calls=[{"id": "c1", "type": "function",
                                                    "function": {"name": "lookup", "arguments": '{"id": 1}'}}])
        store.append(sid, "tool", [Block("tool_result", '{"amount": 10}')], tool_call_id="c1")
        store.append_many(sid, [dict(role="user", content=f"note {i}") for i in range(10)])
        store.compress_range(sid, 4, 5, "SUMMARY: notes 0 and 1")
        store.create_session("second", id="ff0000000000")
    return str(path)


def run(*args: str) -> str:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, (result.output, getattr(result, "stderr", ""))
    return result.output


def fails(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code != 0
    return result.output


def test_help_has_examples() -> None:
    out = run("sessions", "--help")
    assert "ptc sessions show" in out and "Examples" in out
    for cmd in ("list", "show", "rollback", "stats", "export"):
        assert "Examples" in run("sessions", cmd, "--help")
    assert "sessions" in run("--help")


def test_list(db: str) -> None:
    out = run("sessions", "--db", db, "list")
    assert "abc123def456" in out and "demo session" in out and "ff0000000000" in out
    rows = [json.loads(line) for line in run("sessions", "--db", db, "list", "--json").splitlines()]
    assert {r["id"] for r in rows} == {"abc123def456", "ff0000000000"}


def test_list_uses_the_default_store(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PTC_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PTC_STORE_URL", raising=False)
    assert "no sessions" in run("sessions", "list")
    assert (tmp_path / "home" / "ptc.db").exists()


def test_show_views_and_cursors(db: str) -> None:
    out = run("sessions", "--db", db, "show", "abc1")  # a unique prefix is enough
    assert "What is the total?" in out and "calls lookup" in out and "SUMMARY: notes 0 and 1" in out
    assert "note 0" not in out  # compressed: hidden from the display view
    page = run("sessions", "--db", db, "show", "abc1", "--limit", "3")
    assert "next: ptc sessions show abc123def456 --view display --after 3" in page
    ids = lambda out: [json.loads(line)["seq"] for line in out.splitlines()]  # noqa: E731
    assert ids(run("sessions", "--db", db, "show", "abc1", "--after", "3", "--limit", "3", "--json")) == [6, 7, 8]
    assert ids(run("sessions", "--db", db, "show", "abc1", "--before", "7", "--limit", "2", "--json")) == [3, 6]
    assert ids(run("sessions", "--db", db, "show", "abc1", "--last", "--limit", "2", "--json")) == [13, 14]
    assert ids(run("sessions", "--db", db, "show", "abc1", "--view", "context", "--json"))[:3] == [14, 1, 2]
    ctx = run("sessions", "--db", db, "show", "abc1", "--view", "context", "--limit", "2")
    assert "--view context --after 0:1" in ctx
    assert ids(run("sessions", "--db", db, "show", "abc1", "--view", "context", "--after", "0:1", "--limit", "2",
                   "--json")) == [2, 3]
    assert ids(run("sessions", "--db", db, "show", "abc1", "--view", "context", "--active-only", "--json"))[:5] == \
        [14, 1, 2, 3, 6]
    assert len(ids(run("sessions", "--db", db, "show", "abc1", "--view", "full", "--json"))) == 14
    assert ids(run("sessions", "--db", db, "show", "abc1", "--view", "full", "--last", "--limit", "1",
                   "--json")) == [14]


def test_show_errors(db: str) -> None:
    assert "no session" in fails("sessions", "--db", db, "show", "zzz")
    assert "not a seq" in fails("sessions", "--db", db, "show", "abc1", "--after", "x")
    assert "forwards only" in fails("sessions", "--db", db, "show", "abc1", "--view", "context", "--before", "3")


def test_rollback_and_stats(db: str) -> None:
    stats = json.loads(run("sessions", "--db", db, "stats", "abc1", "--json"))
    assert stats["compressions"] == 1 and stats["messages"] == {"active": 12, "invalid": 0, "compressed": 2}
    assert "tokens saved" in run("sessions", "--db", db, "stats", "abc1")
    out = run("sessions", "--db", db, "rollback", "abc1", "8")
    assert "5 message(s) hidden" in out  # 9..13; the summary (14) of 4..5 stays
    stats = json.loads(run("sessions", "--db", db, "stats", "abc1", "--json"))
    assert stats["messages"]["active"] == 7
    assert "separate" in fails("sessions", "--db", db, "rollback", "abc1", "2")


def test_export(db: str, tmp_path) -> None:
    lines = [json.loads(line) for line in run("sessions", "--db", db, "export", "abc1").splitlines()]
    assert lines[0]["kind"] == "session" and sum(r["kind"] == "message" for r in lines) == 14
    target = tmp_path / "out.jsonl"
    run("sessions", "--db", db, "export", "abc1", "-o", str(target))
    assert target.read_text().splitlines()[0].startswith('{"kind":"session"')


def test_unreachable_store_is_a_clean_error_without_the_password() -> None:
    out = fails("sessions", "--db", "postgresql://me:hunter2@127.0.0.1:1/nope", "list")
    assert "cannot open the store" in out and "hunter2" not in out
