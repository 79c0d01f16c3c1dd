"""DuckDB as the executor of a plan's folds over a large table, within the run's limits.

A group body read as a plan (see folds) is folds of the group's rows, then arithmetic between
them over one row per group. When the table is large and its groups must be found by hashing
(a text key, several keys), the numbering of 10M rows costs more than the folds: Arrow hashes
10M strings of 100,000 distinct values in ~2.8 s where DuckDB groups and folds them in ~0.8 s.
So the folds of such a plan run as one SQL aggregate on an in-process DuckDB over the table's
Arrow columns (zero copy), and the arithmetic stays with the plan. A Parquet file too large to
read (a table.Scan) is folded the same way, DuckDB reading the file itself a row group at a time.

The kernels' rule holds: the row path's exact result, or `Fallback` (the numpy path then runs).
- Groups come back in first-seen order (`ORDER BY min(row number)`), keys as the column holds them.
- Counts, integer sums (DuckDB adds them exactly; a sum beyond 64 bits falls back), min and max
  (no NaN or -0.0 floats: Clojure's max of 0.0 and -0.0 depends on order), distinct counts of
  exact kinds, first and last values (`arg_min`/`arg_max` by row number) are exact.
- A float sum or mean runs on one DuckDB thread, which adds each group's values in row order:
  the bits `reduce +` gives (on two threads the partial sums differ from run to run).
- What the data decides (a nil reaching `+`, NaN or -0.0 under max/min) is checked by
  aggregates of the same query: a file is read once.
Everything else (filters, sorts within groups, values broadcast to the rows) is the numpy path's.

Limits: the query gets the run's `max_memory` as DuckDB's memory limit, spills to a temporary
directory of at most 4 x max_memory (removed at exit), and is interrupted at the run's deadline
(`interrupt()` from a timer: 0.03-0.22 s past it, measured). No file (but a scanned one),
network or extension is reachable from a query.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import shutil
import tempfile
import threading
import time
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import context
from ..values import host_key
from .frame import _flat, holds_negative_zero
from .kernels import Fallback, kind

# below ~2M rows the numpy path (group numbers, np.bincount) is as fast or faster: at 1M rows of
# db-benchmark 0.05-0.09 s against 0.08-0.15 s on DuckDB, at 10M 4.5 s against 2.3 s (q3, bench/h2o.py)
MIN_ROWS = 1 << 21

_AVAILABLE: tuple[bool, int] | None = None  # (available, in which process)


def available() -> bool:
    """Whether duckdb can be imported (ptc[data]) and can run here: not where the address space
    is capped (an isolated child), since DuckDB reserves ~1.7 GB of address space for a query
    of any size; the plan then runs on group numbers in the child. Looked up once per process."""
    global _AVAILABLE
    if _AVAILABLE is None or _AVAILABLE[1] != os.getpid():
        ok = importlib.util.find_spec("duckdb") is not None
        try:
            import resource

            ok = ok and resource.getrlimit(resource.RLIMIT_AS)[0] == resource.RLIM_INFINITY
        except ImportError:  # no resource module (not POSIX): nothing caps the address space
            pass
        _AVAILABLE = (ok, os.getpid())
    return _AVAILABLE[0]


def worth_it(table: Any, parts: tuple[tuple[Any, ...], ...]) -> bool:
    """Whether the engine should fold this table: a file not read yet (a Scan: the engine
    streams it, never holding it whole), or a large table grouped by keys that must be hashed
    (text, or more than one key; dictionary columns and integers of a small range are numbered
    without hashing by the numpy path)."""
    if not available() or not all(p[0] == "col" and p[2] is None for p in parts):
        return False
    cols = [_column_index(table.schema, p[1]) for p in parts]
    if any(i is None for i in cols):
        return False
    if not isinstance(table, pa.Table):
        return True
    if table.num_rows < MIN_ROWS:
        return False
    return len(parts) > 1 or kind(table.column(cols[0])) == "str"


def _column_index(schema: pa.Schema, key: Any) -> int | None:
    for i, name in enumerate(schema.names):
        if host_key(name) == key and type(host_key(name)) is type(key):
            return i
    return None


def folds(steps: list[tuple[Any, ...]], table: Any,
          parts: tuple[tuple[Any, ...], ...]) -> tuple[list[pa.Array], int, dict[str, pa.Array]]:
    """The groups' key arrays (one per key part), their number, and each fold step's column,
    computed as one DuckDB aggregate over `table` (a pyarrow.Table, or a Scan: a Parquet file
    DuckDB reads itself, never held whole). Raises Fallback when a step is not one the engine
    computes exactly, or when the data holds a value (a nil, NaN) that makes a fold inexact:
    such checks are aggregates of the same query, so a file is read once."""
    scan = None if isinstance(table, pa.Table) else table
    schema = table.schema
    empty = schema.empty_table()
    cols: dict[int, str] = {}  # column position -> its name in the query

    def ref(key: Any) -> tuple[str, Any]:
        i = _column_index(schema, key)
        if i is None:
            raise Fallback("a fold of a column the table does not have")
        if pa.types.is_dictionary(schema.field(i).type):
            raise Fallback("a fold of a dictionary column")
        cols.setdefault(i, f"c{len(cols)}")
        return cols[i], empty.column(i) if scan is not None else table.column(i)

    keys = []
    for p in parts:
        name, col = ref(p[1])
        if kind(col) not in ("int", "str", "bool", "date"):
            raise Fallback("a group key of a kind the engine does not group by")
        keys.append(name)
    select, guards, ordered = [], [], False
    for step in steps:
        sql, in_order, checks = _fold_sql(step, ref)
        select.append(f"{sql} AS f{len(select)}")
        for cond, why in checks:
            guards.append((f"({cond}) AS g{len(guards)}", why))
        ordered = ordered or in_order
    if scan is None:
        frame = pa.table({name: _flat(table.column(i)) for i, name in cols.items()})
        frame = frame.append_column("rn", pa.array(np.arange(table.num_rows, dtype=np.int64)))
        source = "frame"
    else:
        frame = None
        named = ", ".join(f"{_quoted(schema.field(i).name)} AS {name}" for i, name in cols.items())
        source = f"(SELECT {named}, file_row_number AS rn FROM read_parquet({_text(scan.parquet_path)}, file_row_number=true))"
    query = (f"SELECT {', '.join(keys)}{''.join(', ' + s for s in select)}"
             f"{''.join(', ' + g for g, _ in guards)}, min(rn) AS first_row "
             f"FROM {source} GROUP BY {', '.join(keys)} ORDER BY first_row")
    result = _query(query, frame, threads=1 if ordered else 2, path=None if scan is None else scan.parquet_path)
    for i, (_, why) in enumerate(guards):
        if pc.any(result.column(f"g{i}")).as_py():
            raise Fallback(why)
    arrays = [_flat(result.column(k)) for k in keys]
    out: dict[str, pa.Array] = {}
    for i, step in enumerate(steps):
        out[step[1]] = _flat(result.column(f"f{i}"))
    return arrays, result.num_rows, out


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _text(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _fold_sql(step: tuple[Any, ...], ref: Any) -> tuple[str, bool, list[tuple[str, str]]]:
    """A fold step as an SQL aggregate, whether it must add in row order (a float sum), and the
    checks (aggregates true in a group where the fold is not the row path's) with their reasons.
    A check the column already answers (an in-memory column with no nil, no -0.0, no NaN or
    zero) is left out of the query: each costs a pass of its own (a quarter of q3's time at 10M)."""
    if step[0] != "fold":
        raise Fallback("a group value used by the rows")
    _, _, how, elem, pred, mod, *extra = step
    if pred is not None:
        raise Fallback("a fold of the rows a filter keeps")
    if how == "count":
        return "count(*)", False, []
    if elem[0] != "col" or elem[2] is not None or mod not in (None, "distinct"):
        raise Fallback("a fold of a value computed from each row")
    c, col = ref(elem[1])
    k = kind(col)
    nils = [] if _holds_none(col, "nil") else [(f"count({c}) < count(*)", f"a nil reaches {how}")]
    if how in ("sum", "sum-by", "avg-by"):
        if k not in ("int", "float"):
            raise Fallback(f"{how} over {k} values")
        if k == "float":
            from .reduce import _SEQUENTIAL_SUM

            if not _SEQUENTIAL_SUM:
                raise Fallback("a float sum Python compensates")
        if how == "avg-by":  # nils skipped; none: nil
            return f"sum({c})::DOUBLE / count({c})", k == "float", []
        if how == "sum-by":  # nils skipped; none: 0, an integer (among floats: values of two types)
            checks = [(f"count({c}) = 0", "a float sum-by of a group of nils (0 among floats)")] if k == "float" else []
            return f"coalesce(sum({c}), 0)" + ("::BIGINT" if k == "int" else ""), k == "float", checks
        init = extra[0]
        if init is not None and not (init == 0 and (type(init) is int or (k == "float" and not np.signbit(init)))):
            raise Fallback("reduce + from a start other than 0")
        if k == "int":
            return f"sum({c})::BIGINT", False, nils
        if init is None and not _holds_none(col, "-0.0"):  # (reduce + xs) starts from the first value:
            # a group of only -0.0 sums to -0.0
            return (f"CASE WHEN count_if({c} = 0 AND signbit({c})) = count(*) THEN -0.0::DOUBLE "
                    f"ELSE sum({c}) END"), True, nils
        return f"sum({c})", True, nils
    if how in ("max", "min"):
        if k not in ("int", "float"):
            raise Fallback(f"{how} over {k} values")
        checks = list(nils)
        if k == "float" and not _holds_none(col, "NaN or -0.0"):  # Clojure's max of NaN, or of 0.0
            # and -0.0, depends on the order
            checks.append((f"count_if(isnan({c}) OR ({c} = 0 AND signbit({c}))) > 0",
                           f"{how} over floats holding NaN or -0.0"))
        return f"{how}({c})", False, checks
    if how == "ndistinct":
        if k not in ("int", "str", "bool", "date"):
            raise Fallback(f"a distinct count of {k} values")
        return f"count(DISTINCT {c})", False, nils
    if how in ("first", "last"):
        return f"{'arg_min' if how == 'first' else 'arg_max'}({c}, rn)", False, nils
    raise Fallback(f"{how} is a fold the engine does not compute")


def _holds_none(col: Any, what: str) -> bool:
    """Whether an in-memory column certainly holds no `what` ("nil", "-0.0", "NaN or -0.0"); a
    file's column (no rows read: an empty one) is not known to."""
    if len(col) == 0:
        return False
    if what == "nil":
        return col.null_count == 0
    if holds_negative_zero(col):
        return False
    return what == "-0.0" or not np.isnan(_flat(col).to_numpy(zero_copy_only=False)).any()


_LOCAL = threading.local()


def _connect(path: str | None) -> Any:
    """A new in-memory DuckDB from which no file (but `path`, a file to scan), network or
    extension is reachable, spilling to a temporary directory removed when the process exits
    (where there is none, as in an isolated child, a query that outgrows memory ends with the limit)."""
    import duckdb

    try:
        spill = tempfile.mkdtemp(prefix="ptc-engine-")
        atexit.register(shutil.rmtree, spill, True)
    except OSError:
        spill = ""
    con = duckdb.connect(config={"temp_directory": spill, "autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    if path is not None:
        con.execute("SET allowed_paths = $1", [[path]])
    con.execute("SET enable_external_access = false")  # cannot be turned back on
    return con


def _connection() -> Any:
    """This thread's DuckDB for Arrow frames, kept (connecting costs ~40 ms); one made before
    a fork is not used after it."""
    con, pid = getattr(_LOCAL, "con", None), getattr(_LOCAL, "pid", None)
    if con is None or pid != os.getpid():
        con = _connect(None)
        _LOCAL.con, _LOCAL.pid = con, os.getpid()
    return con


def _query(sql: str, frame: pa.Table | None, threads: int, path: str | None = None) -> pa.Table:
    """Runs sql over frame (or the file at path) with the run's limits: its max_memory as
    DuckDB's memory limit (spilling at most 4 x that to disk), interrupted at the deadline. A
    limit reached is the run's limit error; any other DuckDB error a Fallback."""
    import duckdb

    st = context.CURRENT
    context.check_deadline()
    memory = st.limits.max_memory
    con = _connection() if path is None else _connect(path)
    interrupted = threading.Event()

    def stop() -> None:
        interrupted.set()
        con.interrupt()

    timer = threading.Timer(max(0.0, st.deadline - time.monotonic()), stop)
    timer.daemon = True
    try:
        con.execute(f"SET threads = {threads}; SET memory_limit = '{memory}B'; "
                    f"SET max_temp_directory_size = '{4 * memory}B'")
        if frame is not None:
            con.register("frame", frame)
        timer.start()
        return con.sql(sql).to_arrow_table()
    except duckdb.InterruptException:
        raise context.limit_error("timeout", st.limits.timeout, "program ran too long (in a query)") from None
    except duckdb.OutOfMemoryException:
        raise context.limit_error("max_memory", memory, "a query needs more memory than the run may hold") from None
    except duckdb.Error as e:
        if interrupted.is_set():
            raise context.limit_error("timeout", st.limits.timeout, "program ran too long (in a query)") from None
        raise Fallback(f"the engine could not run the folds ({type(e).__name__})") from None
    finally:
        timer.cancel()
        if frame is not None:
            con.unregister("frame")
        if path is not None:
            con.close()
        else:  # a kept connection gives back what its allocator holds: a lower limit makes it
            # release its caches (a 3M-group query held ~400 MB of the host's memory after it ended)
            with contextlib.suppress(duckdb.Error):
                con.execute("SET memory_limit = '16MB'")
