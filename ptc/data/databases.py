"""SQLite and DuckDB files as tables: every table by name, one table (`#orders`) or a query (`#SELECT ...`).

A database file is data, not code: it is opened read-only; DuckDB with external access off
and its configuration locked (a view cannot read a host file, a URL or an extension), with a
memory limit; only base tables load by default, and a view runs only when named (`#view`) or
queried. Every query runs under the load limits (ptc/data/limits.py): interrupted at the
deadline (a recursive view ends there), its rows counted as they arrive. The query comes
from the host's user, never from a program.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable

from .arrow import DataFileError, has_pyarrow, require, table_or_rows
from .limits import Load, current


def is_query(part: str) -> bool:
    """A part with a space is SQL; a bare word names a table."""
    return any(ch.isspace() for ch in part)


def read_sqlite(path: Path, part: str | None) -> Any:
    """{table: rows} for every table, or the table or query result that `part` names."""
    import sqlite3

    load = current()
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    # SQLite calls this every 10,000 virtual machine steps; a nonzero answer interrupts the query
    con.set_progress_handler(lambda: int(time.monotonic() > load.deadline), 10_000)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                           "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        views = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")]
        return _tables(path, part, names, views, lambda sql: _sqlite_rows(con, sql, load))
    except Exception:
        load.check_time()  # interrupted at the deadline: say which limit ended it
        raise
    finally:
        con.close()


def _sqlite_rows(con: Any, sql: str, load: Load) -> Any:
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description or ()]
    load.check_columns(len(columns))
    rows: list[dict[str, Any]] = []
    size = 0
    while batch := cursor.fetchmany(4096):
        rows.extend(dict(zip(columns, row)) for row in batch)
        size += sum(16 + (len(v) if isinstance(v, (str, bytes)) else 0) for row in batch for v in row)
        load.check_bytes(size, "its rows hold")
        load.check_time()
    return table_or_rows(rows, columns)


def read_duckdb(path: Path, part: str | None) -> Any:
    """The same for a DuckDB file, through DuckDB's own Arrow export when pyarrow is installed."""
    duckdb = require("duckdb", "reading DuckDB files")
    load = current()
    con = duckdb.connect(str(path), read_only=True, config={
        "enable_external_access": False, "autoinstall_known_extensions": False,
        "autoload_known_extensions": False, "memory_limit": f"{max(load.limits.max_bytes >> 20, 64)}MB",
        "lock_configuration": True})
    timer = threading.Timer(max(0.0, load.deadline - time.monotonic()), con.interrupt)
    timer.daemon = True
    timer.start()
    try:
        listed = con.execute("SELECT table_name, table_type FROM information_schema.tables WHERE "
                             "table_schema = 'main' ORDER BY table_name").fetchall()
        names = [name for name, kind in listed if kind == "BASE TABLE"]
        views = [name for name, kind in listed if kind != "BASE TABLE"]
        return _tables(path, part, names, views, lambda sql: _duckdb_rows(con, sql, load))
    except Exception:
        load.check_time()  # interrupted at the deadline: say which limit ended it
        raise
    finally:
        timer.cancel()
        con.close()


def _duckdb_rows(con: Any, sql: str, load: Load) -> Any:
    relation = con.sql(sql)
    if relation is None:  # a statement that returns no rows
        raise DataFileError(f"{sql!r} returns no rows: give a SELECT")
    load.check_columns(len(relation.columns))
    if not has_pyarrow():
        rows: list[dict[str, Any]] = []
        while batch := relation.fetchmany(4096):
            rows.extend(dict(zip(relation.columns, row)) for row in batch)
            load.check_time()
        return rows
    to_reader = getattr(relation, "to_arrow_reader", None) or relation.fetch_arrow_reader  # duckdb >= 1.4 / older
    reader = to_reader(65_536)  # streamed: the rows are counted as they arrive
    return load.table_of(reader.schema, reader, "its rows hold")


def _tables(path: Path, part: str | None, names: list[str], views: list[str], rows: Callable[[str], Any]) -> Any:
    """{table: rows} for every base table of a database, or the table, view or query result
    `part` names; `rows` runs one SQL statement on the open connection."""
    if part is None:
        return {name: rows(f'SELECT * FROM "{_ident(name)}"') for name in names}
    if is_query(part):
        return rows(part)
    if part not in names and part not in views:
        listed = ", ".join(names) or "none"
        also = f"; views (read only when named): {', '.join(views)}" if views else ""
        raise DataFileError(f"{path} has no table {part!r}; tables: {listed}{also} "
                            f"(a query needs a space: {path}#SELECT ...)")
    return rows(f'SELECT * FROM "{_ident(part)}"')


def _ident(name: str) -> str:
    return name.replace('"', '""')
