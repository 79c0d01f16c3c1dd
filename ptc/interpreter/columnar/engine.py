"""DuckDB as the executor of a plan's folds over a large table, within the run's limits.

A group body read as a plan (see folds) is folds of the group's rows, then arithmetic between
them over one row per group. When the table is large and its groups must be found by hashing
(a text key, several keys), the numbering of 10M rows costs more than the folds: Arrow hashes
10M strings of 100,000 distinct values in ~2.8 s where DuckDB groups and folds them in ~0.8 s.
So the folds of such a plan run as one SQL aggregate on an in-process DuckDB over the table's
Arrow columns (zero copy), and the arithmetic stays with the plan.

The kernels' rule holds: the row path's exact result, or `Fallback` (the numpy path then runs).
- Groups come back in first-seen order (`ORDER BY min(row number)`), keys as the column holds them.
- Counts, integer sums (DuckDB adds them exactly; a sum beyond 64 bits falls back), min and max
  (no NaN or zero floats: Clojure's max of 0.0 and -0.0 depends on order), distinct counts of
  exact kinds, first and last values (`arg_min`/`arg_max` by row number) are exact.
- A float sum or mean runs on one DuckDB thread, which adds each group's values in row order:
  the bits `reduce +` gives (on two threads the partial sums differ from run to run).
Everything else (filters, sorts within groups, values broadcast to the rows) is the numpy path's.

Limits: the query gets the run's `max_memory` as DuckDB's memory limit, spills to a temporary
directory of at most 4 x max_memory that is removed after the query, and is interrupted at the
run's deadline (`interrupt()` from a timer), which ends it within milliseconds.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import tempfile
import threading
import time
from typing import Any

import numpy as np
import pyarrow as pa

from .. import context
from ..values import host_key
from .frame import _flat
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


def worth_it(table: pa.Table, parts: tuple[tuple[Any, ...], ...]) -> bool:
    """Whether the engine should fold this table: large, and grouped by keys that must be
    hashed (text, or more than one key). Dictionary columns and integers of a small range are
    numbered without hashing by the numpy path."""
    if table.num_rows < MIN_ROWS or not available():
        return False
    if not all(p[0] == "col" and p[2] is None for p in parts):
        return False
    cols = [_column_index(table, p[1]) for p in parts]
    if any(i is None for i in cols):
        return False
    return len(parts) > 1 or kind(table.column(cols[0])) == "str"


def _column_index(table: pa.Table, key: Any) -> int | None:
    for i, name in enumerate(table.column_names):
        if host_key(name) == key and type(host_key(name)) is type(key):
            return i
    return None


def folds(steps: list[tuple[Any, ...]], table: pa.Table,
          parts: tuple[tuple[Any, ...], ...]) -> tuple[list[pa.Array], int, dict[str, pa.Array]]:
    """The groups' key arrays (one per key part), their number, and each fold step's column,
    computed as one DuckDB aggregate. Raises Fallback when a step is not one the engine
    computes exactly."""
    cols: dict[int, str] = {}  # table column position -> its name in the query

    def ref(key: Any) -> tuple[str, pa.ChunkedArray]:
        i = _column_index(table, key)
        if i is None:
            raise Fallback("a fold of a column the table does not have")
        col = table.column(i)
        if pa.types.is_dictionary(col.type):
            raise Fallback("a fold of a dictionary column")
        cols.setdefault(i, f"c{len(cols)}")
        return cols[i], col

    keys = [ref(p[1])[0] for p in parts]
    for p, name in zip(parts, keys):
        if kind(table.column(_column_index(table, p[1]))) not in ("int", "str", "bool", "date"):
            raise Fallback("a group key of a kind the engine does not group by")
    select, ordered = [], False
    for step in steps:
        sql, in_order = _fold_sql(step, ref)
        select.append(f"{sql} AS f{len(select)}")
        ordered = ordered or in_order
    frame = pa.table({name: _flat(table.column(i)) for i, name in cols.items()})
    frame = frame.append_column("rn", pa.array(np.arange(table.num_rows, dtype=np.int64)))
    query = (f"SELECT {', '.join(keys)}{''.join(', ' + s for s in select)}, min(rn) AS first_row "
             f"FROM frame GROUP BY {', '.join(keys)} ORDER BY first_row")
    result = _query(query, frame, threads=1 if ordered else 2)
    arrays = [_flat(result.column(k)) for k in keys]
    out: dict[str, pa.Array] = {}
    for i, step in enumerate(steps):
        out[step[1]] = _flat(result.column(f"f{i}"))
    return arrays, result.num_rows, out


def _fold_sql(step: tuple[Any, ...], ref: Any) -> tuple[str, bool]:
    """A fold step as an SQL aggregate, and whether it must add in row order (a float sum)."""
    if step[0] != "fold":
        raise Fallback("a group value used by the rows")
    _, _, how, elem, pred, mod, *extra = step
    if pred is not None:
        raise Fallback("a fold of the rows a filter keeps")
    if how == "count":
        return "count(*)", False
    if elem[0] != "col" or elem[2] is not None or mod not in (None, "distinct"):
        raise Fallback("a fold of a value computed from each row")
    name, col = ref(elem[1])
    k = kind(col)
    if how in ("sum", "sum-by", "avg-by"):
        if k not in ("int", "float"):
            raise Fallback(f"{how} over {k} values")
        if col.null_count:
            raise Fallback(f"a nil reaches {how}")  # + raises; sum-by of floats may give 0 among floats
        if k == "float":
            from .reduce import _SEQUENTIAL_SUM

            if not _SEQUENTIAL_SUM or _any_negative_zero(col):
                raise Fallback("a float sum Python compensates or that may be -0.0")
        init = extra[0] if how == "sum" else None
        if init is not None and not (init == 0 and (type(init) is int or (k == "float" and not np.signbit(init)))):
            raise Fallback("reduce + from a start other than 0")
        if how == "avg-by":
            return f"sum({name})::DOUBLE / count({name})", k == "float"
        return (f"sum({name})::BIGINT" if k == "int" else f"sum({name})"), k == "float"
    if how in ("max", "min"):
        if k not in ("int", "float") or col.null_count:
            raise Fallback(f"{how} over {k} values or nils")
        if k == "float":
            vals = col.to_numpy()
            if np.isnan(vals).any() or (vals == 0).any():
                raise Fallback(f"{how} over floats holding NaN or zeros")
        return f"{how}({name})", False
    if how == "ndistinct":
        if k not in ("int", "str", "bool", "date") or col.null_count:
            raise Fallback(f"a distinct count of {k} values or nils")
        return f"count(DISTINCT {name})", False
    if how in ("first", "last"):
        if col.null_count:
            raise Fallback(f"{how} of a column holding nils")
        return f"{'arg_min' if how == 'first' else 'arg_max'}({name}, rn)", False
    raise Fallback(f"{how} is a fold the engine does not compute")


def _any_negative_zero(col: Any) -> bool:
    vals = _flat(col).to_numpy(zero_copy_only=False)
    return bool(((vals == 0) & np.signbit(vals)).any())


_LOCAL = threading.local()


def _connection() -> Any:
    """This thread's in-memory DuckDB (connecting costs ~40 ms, so it is kept), with no file,
    network or extension reachable from a query and a temporary directory for spilling that is
    removed when the process exits (where there is none, as in an isolated child, a query that
    outgrows memory ends with the limit). A connection made before a fork is not used after it."""
    import duckdb

    con, pid = getattr(_LOCAL, "con", None), getattr(_LOCAL, "pid", None)
    if con is None or pid != os.getpid():
        try:
            spill = tempfile.mkdtemp(prefix="ptc-engine-")
            atexit.register(shutil.rmtree, spill, True)
        except OSError:  # no temporary directory (an isolated child): no spilling, the limit ends a query
            spill = ""
        con = duckdb.connect(config={"temp_directory": spill, "autoinstall_known_extensions": False,
                                     "autoload_known_extensions": False})
        con.execute("SET enable_external_access = false")  # cannot be turned back on
        _LOCAL.con, _LOCAL.pid = con, os.getpid()
    return con


def _query(sql: str, frame: pa.Table, threads: int) -> pa.Table:
    """Runs sql over frame with the run's limits: its max_memory as DuckDB's memory limit
    (spilling at most 4 x that to disk), interrupted at the deadline. A limit reached is the
    run's limit error; any other DuckDB error a Fallback (the numpy path runs)."""
    import duckdb

    st = context.CURRENT
    context.check_deadline()
    memory = st.limits.max_memory
    con = _connection()
    interrupted = threading.Event()

    def stop() -> None:
        interrupted.set()
        con.interrupt()

    timer = threading.Timer(max(0.0, st.deadline - time.monotonic()), stop)
    timer.daemon = True
    try:
        con.execute(f"SET threads = {threads}; SET memory_limit = '{memory}B'; "
                    f"SET max_temp_directory_size = '{4 * memory}B'")
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
        con.unregister("frame")
