"""Upgrades of a store created by an older ptc, run when the store opens.

`MIGRATIONS[n]` brings a schema at version n - 1 to version n, inside the opening
transaction (so a failed upgrade leaves the store as it was). Columns are added with
``ALTER TABLE ... ADD COLUMN``, which SQLite and PostgreSQL both do in place.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .schema import RUN_USAGE_COLUMNS, runs


def run_usage(usage: Mapping[str, Any] | None) -> dict[str, Any]:
    """The usage columns of a run from a `Usage` as JSON; NULL for what it lacks."""
    usage = usage if isinstance(usage, Mapping) else {}
    values: dict[str, Any] = {}
    for name in RUN_USAGE_COLUMNS:
        value = usage.get(name)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        values[name] = (float(value) if name == "cost" else int(value)) if ok else None
    return values


def _add_run_usage(conn: Connection) -> None:
    present = {c["name"] for c in sa.inspect(conn).get_columns("runs")}
    for name in RUN_USAGE_COLUMNS:
        if name not in present:
            kind = runs.c[name].type.compile(dialect=conn.dialect)
            conn.execute(sa.text(f"ALTER TABLE runs ADD COLUMN {name} {kind}"))
    finished = conn.execute(sa.select(runs.c.id, runs.c.outcome).where(runs.c.outcome.isnot(None))).all()
    for run_id, outcome in finished:
        conn.execute(runs.update().where(runs.c.id == run_id).values(**run_usage((outcome or {}).get("usage"))))


MIGRATIONS: dict[int, Callable[[Connection], None]] = {2: _add_run_usage}


def migrate(conn: Connection, version: int, target: int) -> None:
    """Apply every migration from `version` to `target`, in order."""
    for step in range(version + 1, target + 1):
        MIGRATIONS[step](conn)
