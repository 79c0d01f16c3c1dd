"""Where the default store lives, and how locations become URLs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ptc.store import Store, default_path, default_url
from ptc.store.paths import is_memory, normalize_url, sqlite_file


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ("PTC_HOME", "PTC_STORE_URL", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)


def test_ptc_home_wins(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PTC_HOME", str(tmp_path))
    assert default_path() == tmp_path / "ptc.db"
    assert default_url() == "sqlite:///" + str(tmp_path / "ptc.db")


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG layout")
def test_xdg_data_home(monkeypatch, tmp_path) -> None:
    assert default_path() == Path.home() / ".local" / "share" / "ptc" / "ptc.db"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "ptc" / "ptc.db"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")
    assert default_path() == Path.home() / ".local" / "share" / "ptc" / "ptc.db"


def test_store_url_env(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PTC_HOME", str(tmp_path / "ignored"))
    monkeypatch.setenv("PTC_STORE_URL", "postgresql://u@h/db")
    assert default_url() == "postgresql+psycopg://u@h/db"


def test_normalize_url(tmp_path) -> None:
    assert normalize_url(":memory:") == "sqlite://"
    assert is_memory(normalize_url(":memory:"))
    assert normalize_url(tmp_path / "x.db") == "sqlite:///" + str(tmp_path / "x.db")
    assert normalize_url("postgres://u:p@h:5/d") == "postgresql+psycopg://u:p@h:5/d"
    assert normalize_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalize_url("sqlite:////tmp/a.db") == "sqlite:////tmp/a.db"
    assert sqlite_file("sqlite:////tmp/a.db") == Path("/tmp/a.db")
    assert sqlite_file("sqlite://") is None


def test_default_store_creates_its_folder(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PTC_HOME", str(tmp_path / "deep" / "home"))
    with Store() as store:
        assert store.create_session("x").title == "x"
    assert (tmp_path / "deep" / "home" / "ptc.db").exists()


def test_memory_stores_are_separate_and_shared_across_threads() -> None:
    import threading

    a, b = Store(":memory:"), Store(":memory:")
    sid = a.create_session().id
    seen = []
    t = threading.Thread(target=lambda: seen.append(a.get_session(sid).id))
    t.start()
    t.join()
    assert seen == [sid]
    assert b.list_sessions() == []


def test_safe_url_hides_the_password() -> None:
    store = Store.__new__(Store)
    store.url = "postgresql+psycopg://me:secret@host/db"
    assert "secret" not in store.safe_url and "me" in store.safe_url
