"""SQLite and DuckDB files as tables: every table by name, one table (`#orders`) or a query (`#SELECT ...`).

A database file is data, not code: it is opened read-only; DuckDB with external access off
and its configuration locked (a view cannot read a host file, a URL or an extension), with a
memory limit and no host path in its settings, and none of the file's own code runs (generated
columns, macros); only base tables load by default, and a view runs only when named (`#view`)
or queried. Every query runs under the load limits (ptc/data/limits.py): interrupted at the
deadline (a recursive view ends there), its rows counted before they become Python values or
Arrow batches. The query comes from the host's user, never from a program.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable

from .arrow import DataFileError, has_pyarrow, require, table_or_rows
from .limits import BATCH_BYTES, VALUE_BYTES, Load, current, row_copies


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
        # the schema is read: from here SQLite itself refuses to make a value (or read a stored
        # row) past max_cell, before allocating it (a generated zeroblob(500000000) included)
        con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(load.limits.max_cell, 2**31 - 1))
        return _tables(path, part, names, views, lambda sql: _sqlite_rows(con, sql, load))
    except sqlite3.DataError as e:
        if "too big" in str(e):
            raise load.cell_error("a cell (or a stored row) holds") from None
        raise
    except Exception:
        load.check_time()  # interrupted at the deadline: say which limit ended it
        raise
    finally:
        con.close()


def _sqlite_rows(con: Any, sql: str, load: Load) -> Any:
    """The rows of one statement, each charged inside SQLite (its cells' length(), by a function
    of ours in the WHERE clause) before it is handed over as Python values: a query past
    max_bytes ends on the row that passes it, never a batch later."""
    import sqlite3

    inner = sql.strip().rstrip(";")
    try:
        columns = [d[0] for d in con.execute(f"SELECT * FROM ({inner}) LIMIT 0").description or ()]
    except sqlite3.OperationalError:
        con.execute(inner)  # a statement that is not a query says why itself (a write: readonly)
        raise DataFileError(f"{sql!r} is not a query whose rows can be counted as they come: give a SELECT "
                            f"(WITH ... SELECT, VALUES)") from None
    load.check_columns(len(columns))
    refused: list[Exception] = []
    per_row = len(columns) * VALUE_BYTES

    def charge(text: int) -> int:
        try:
            load.charge(per_row + text * row_copies(), "its rows hold")
        except Exception as e:  # SQLite reports only that the function failed: keep why
            refused.append(e)
            raise
        return 1

    con.create_function("ptc_charge", 1, charge)
    size = " + ".join(f'coalesce(length(CAST("{_ident(c)}" AS BLOB)), 0)' for c in columns) or "0"
    cursor = con.execute(f"SELECT * FROM ({inner}) WHERE ptc_charge({size})")
    rows: list[dict[str, Any]] = []
    try:
        while batch := cursor.fetchmany(4096):
            rows.extend(dict(zip(columns, row)) for row in batch)
    except sqlite3.OperationalError:
        if refused:
            raise refused[0] from None
        raise
    return table_or_rows(rows, columns)


# DuckDB settings that name host paths (the user's home, through the secrets and extensions
# directories): a file's views can read any setting with current_setting(), so these are set
# to name nothing before the configuration is locked
_NOWHERE = {"secret_directory": "/nonexistent", "extension_directory": "/nonexistent"}
# DuckDB's own catalog, named in full: a file's macro may take any function's name (strlen,
# max, duckdb_columns...), and an unqualified call would run the file's
_SYSTEM = "system.main"


def read_duckdb(path: Path, part: str | None) -> Any:
    """The same for a DuckDB file, through DuckDB's own Arrow export when pyarrow is installed.

    What a file defines runs nowhere: a table with generated columns is refused (its stored
    columns can be queried), and so is a view or query of a file that defines macros (a macro
    may take a built-in function's name)."""
    duckdb = require("duckdb", "reading DuckDB files")
    load = current()
    con = duckdb.connect(str(path), read_only=True, config={
        "enable_external_access": False, "autoinstall_known_extensions": False,
        "autoload_known_extensions": False, "memory_limit": f"{max(load.limits.max_bytes >> 20, 64)}MB",
        **_NOWHERE, "lock_configuration": True})
    timer = threading.Timer(max(0.0, load.deadline - time.monotonic()), con.interrupt)
    timer.daemon = True
    timer.start()
    try:
        mine = "database_name NOT IN ('system', 'temp') AND schema_name = 'main'"
        names = _column(con, f"SELECT table_name FROM {_SYSTEM}.duckdb_tables() WHERE {mine} ORDER BY 1")
        views = _column(con, f"SELECT view_name FROM {_SYSTEM}.duckdb_views() WHERE {mine} AND NOT internal "
                             f"ORDER BY 1")
        _refuse_file_code(con, path, part, names, views, mine)
        return _tables(path, part, names, views, lambda sql: _duckdb_rows(con, sql, load))
    except Exception:
        load.check_time()  # interrupted at the deadline: say which limit ended it
        raise
    finally:
        timer.cancel()
        con.close()


def _column(con: Any, sql: str, *params: Any) -> list[Any]:
    return [row[0] for row in con.execute(sql, list(params)).fetchall()]


def _refuse_file_code(con: Any, path: Path, part: str | None, names: list[str], views: list[str], mine: str) -> None:
    """Refuse reading what would run the file's own code: generated columns of a table read,
    macros where a view or query could call them."""
    reading = names if part is None else [part] if part in names else []
    generated: dict[str, list[str]] = {}
    for table, column in con.execute(f"SELECT table_name, column_name FROM {_SYSTEM}.duckdb_columns() "
                                     f"WHERE {mine} AND is_generated ORDER BY column_index").fetchall():
        generated.setdefault(table, []).append(column)
    for table in reading:
        if table in generated:
            stored = _column(con, f"SELECT column_name FROM {_SYSTEM}.duckdb_columns() WHERE {mine} AND "
                                  f"table_name = ? AND NOT is_generated ORDER BY column_index", table)
            raise DataFileError(f"{path}: table {table!r} has generated columns ({', '.join(generated[table])}), "
                                f"computed by the file's own SQL, which ptc does not run; read its stored columns "
                                f"with a query: {path}#SELECT {', '.join(stored) or '...'} FROM \"{_ident(table)}\"")
    if reading or part is None:
        return
    macros = _column(con, f"SELECT DISTINCT function_name FROM {_SYSTEM}.duckdb_functions() WHERE {mine} "
                          f"AND function_type IN ('macro', 'table_macro') ORDER BY 1")
    if macros:
        what = "view" if part in views else "query"
        raise DataFileError(f"{path} defines macros ({', '.join(macros)}), the file's own SQL, which ptc does not "
                            f"run; a {what} could call them (a macro may take a built-in function's name), so only "
                            f"its tables are read")


def _duckdb_rows(con: Any, sql: str, load: Load) -> Any:
    """A statement's rows, sized first by one query of their cells' lengths (refused before any
    row is read past max_bytes or max_cell), then read in batches of at most BATCH_BYTES."""
    relation = con.sql(sql)
    if relation is None:  # a statement that returns no rows
        raise DataFileError(f"{sql!r} returns no rows: give a SELECT")
    columns, types = list(relation.columns), [str(t) for t in relation.types]
    load.check_columns(len(columns))
    widest = _duckdb_sizes(con, sql, columns, types, load)
    if not has_pyarrow():
        rows: list[dict[str, Any]] = []
        while batch := relation.fetchmany(4096):
            for row in batch:
                load.charge_row(row, columns)
                rows.append(dict(zip(columns, row)))
        return rows
    to_reader = getattr(relation, "to_arrow_reader", None) or relation.fetch_arrow_reader  # duckdb >= 1.4 / older
    reader = to_reader(max(1, min(65_536, BATCH_BYTES // widest)))  # streamed: each batch counted as it arrives
    return load.table_of(reader.schema, reader, "its rows hold")


_LENGTH = {"VARCHAR": "strlen", "BLOB": "octet_length"}


def _duckdb_sizes(con: Any, sql: str, columns: list[str], types: list[str], load: Load) -> int:
    """Check the rows' text against max_cell and max_bytes from DuckDB's lengths of it (a view of
    stored strings compressed a thousandfold is counted as it will be exported); the widest
    row's bytes."""
    texts = [(i, _LENGTH[kind]) for i, kind in enumerate(types) if kind in _LENGTH]
    aliases = ", ".join(f"c{i}" for i in range(len(columns)))
    parts = [f"{_SYSTEM}.count_star()"] + [f"{_SYSTEM}.{agg}({_SYSTEM}.{length}(c{i}))" for i, length in texts
                                             for agg in ("max", "sum")]
    row = con.execute(f"SELECT {', '.join(parts)} FROM ({sql}) AS q({aliases})").fetchall()[0]
    fixed = 8 * len(columns)  # a fixed-width value or an offset each
    widest, text = fixed, 0
    for (i, _), longest, total in zip(texts, row[1::2], row[2::2]):
        load.check_cell(longest or 0, columns[i])
        widest += longest or 0
        text += total or 0
    load.check_bytes(row[0] * fixed + text, "its rows hold")
    return widest


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
