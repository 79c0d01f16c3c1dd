"""SQLite and DuckDB files as tables: every table by name, one table (`#orders`) or a query (`#SELECT ...`).

Databases are opened read-only: the query comes from the host's user, never from a program.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from .arrow import DataFileError, has_pyarrow, require, table_or_rows


def is_query(part: str) -> bool:
    """A part with a space is SQL; a bare word names a table."""
    return any(ch.isspace() for ch in part)


def read_sqlite(path: Path, part: str | None) -> Any:
    """{table: rows} for every table, or the table or query result that `part` names."""
    import sqlite3

    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                           "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return _tables(path, part, names, lambda sql: _sqlite_rows(con, sql))
    finally:
        con.close()


def _sqlite_rows(con: Any, sql: str) -> Any:
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description or ()]
    return table_or_rows([dict(zip(columns, row)) for row in cursor], columns)


def read_duckdb(path: Path, part: str | None) -> Any:
    """The same for a DuckDB file, through DuckDB's own Arrow export when pyarrow is installed."""
    duckdb = require("duckdb", "reading DuckDB files", install="pip install duckdb")
    con = duckdb.connect(str(path), read_only=True)
    try:
        names = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables WHERE "
                                           "table_schema = 'main' ORDER BY table_name").fetchall()]
        return _tables(path, part, names, lambda sql: _duckdb_rows(con, sql))
    finally:
        con.close()


def _duckdb_rows(con: Any, sql: str) -> Any:
    relation = con.sql(sql)
    if relation is None:  # a statement that returns no rows
        raise DataFileError(f"{sql!r} returns no rows: give a SELECT")
    if has_pyarrow():
        to_arrow = getattr(relation, "to_arrow_table", None) or relation.arrow  # duckdb >= 1.4 / older
        return to_arrow()
    return [dict(zip(relation.columns, row)) for row in relation.fetchall()]


def _tables(path: Path, part: str | None, names: list[str], rows: Callable[[str], Any]) -> Any:
    """{table: rows} for every table of a database, or the table or query result `part` names;
    `rows` runs one SQL statement on the open connection."""
    if part is None:
        return {name: rows(f'SELECT * FROM "{_ident(name)}"') for name in names}
    if is_query(part):
        return rows(part)
    if part not in names:
        raise DataFileError(f"{path} has no table {part!r}; tables: {', '.join(names) or 'none'} "
                            f"(a query needs a space: {path}#SELECT ...)")
    return rows(f'SELECT * FROM "{_ident(part)}"')


def _ident(name: str) -> str:
    return name.replace('"', '""')
