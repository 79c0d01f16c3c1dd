"""Where the store lives by default, and how a location becomes a SQLAlchemy URL.

Resolution order for the default store:

1. ``$PTC_STORE_URL`` -- any SQLAlchemy URL (``postgresql+psycopg://...``, ``sqlite:///...``);
2. ``$PTC_HOME/ptc.db`` when ``PTC_HOME`` is set;
3. the per-user data directory, platformdirs-style (no dependency on platformdirs):
   Linux/BSD ``$XDG_DATA_HOME/ptc/ptc.db`` (default ``~/.local/share/ptc/ptc.db``),
   macOS ``~/Library/Application Support/ptc/ptc.db``,
   Windows ``%LOCALAPPDATA%\\ptc\\ptc.db``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DB_NAME = "ptc.db"
MEMORY = ":memory:"


def data_dir() -> Path:
    """The per-user data directory for ptc (not created)."""
    home = os.environ.get("PTC_HOME")
    if home:
        return Path(home).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "ptc"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "ptc"
    xdg = os.environ.get("XDG_DATA_HOME")
    base_path = Path(xdg).expanduser() if xdg and os.path.isabs(os.path.expanduser(xdg)) \
        else Path.home() / ".local" / "share"
    return base_path / "ptc"


def default_path() -> Path:
    """The default SQLite file (its folder is created when the store opens it)."""
    return data_dir() / DB_NAME


def default_url() -> str:
    """``$PTC_STORE_URL`` if set, else a SQLite URL for `default_path()`."""
    env = os.environ.get("PTC_STORE_URL")
    if env:
        return normalize_url(env)
    return sqlite_url(default_path())


def sqlite_url(path: str | os.PathLike[str]) -> str:
    return "sqlite:///" + str(Path(path).expanduser().absolute())


def normalize_url(location: str | os.PathLike[str] | None) -> str:
    """A SQLAlchemy URL for a URL, a file path, ``":memory:"``, or None (the default).

    Plain ``postgresql://`` / ``postgres://`` URLs get the psycopg 3 driver, the one the
    ``postgres`` extra installs.
    """
    if location is None:
        return default_url()
    text = os.fspath(location)
    if text in (MEMORY, "sqlite://", "sqlite:///:memory:"):
        return "sqlite://"
    if "://" not in text:
        return sqlite_url(text)
    for prefix in ("postgresql://", "postgres://"):
        if text.startswith(prefix):
            return "postgresql+psycopg://" + text[len(prefix):]
    return text


def is_memory(url: str) -> bool:
    return url in ("sqlite://", "sqlite:///:memory:") or (url.startswith("sqlite") and ":memory:" in url)


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL (None for in-memory or other databases)."""
    if not url.startswith("sqlite") or is_memory(url):
        return None
    rest = url.split("://", 1)[1]
    if not rest.startswith("/"):
        return None
    path = rest[1:].split("?", 1)[0]
    return Path(path) if path else None
