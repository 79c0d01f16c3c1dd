"""Bounds on reading one data file: a file is data, and no file may stop or exhaust the host.

A file can be far larger inside than on disk (an 8.7 MB xlsx that unzips to gigabytes, a
10 KB Parquet file holding one 300 MB cell, an 8 KB SQLite file whose generated column makes
500 MB blobs, one 30 MB shared string of a workbook referenced by 200,000 cells), so the
bytes counted are what the data *becomes* in memory, counted before it becomes it where the
format can say (zip entry sizes, Parquet metadata and dictionaries, SQL `length()` of each
row, the text of each JSON value) and batch by batch as it arrives otherwise: every reader
charges one `Load` (`charge`), which holds the running total against `max_bytes` and reads
the clock at each charge. The bound being read is current for the thread (a context
variable), so readers take no extra argument; `ptc.table(path, limits=...)` and
`ptc.read_data(..., limits=...)` set it, the CLI uses the defaults.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import time
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from ptc.interpreter.errors import PTCError

from .arrow import DataFileError, has_pyarrow

# What one value of a row of Python objects costs beyond its text: the object (an int is 28
# bytes, a str 49 plus its text), its slot in the row and the row dict's entry for it.
VALUE_BYTES = 64
# What one batch of rows may hold as it arrives, where the reader picks the batch's length
# (a query's rows, a Parquet file's): the transient beyond what is charged.
BATCH_BYTES = 16 << 20


@functools.cache
def row_copies() -> int:
    """Rows read as Python objects become an Arrow table at the end: both are held then, so a
    row's text is counted twice (once without pyarrow, where the rows are the value)."""
    return 2 if has_pyarrow() else 1


@dataclass(frozen=True)
class LoadLimits:
    """What reading one file may cost (see docs/security.md, "Data files")."""

    timeout: float = 60.0  # seconds to read the file (a query on a database included)
    max_bytes: int = 4 << 30  # bytes the file may hold once decompressed or decoded
    max_columns: int = 10_000  # columns of a table
    max_cell: int = 64 << 20  # bytes of one cell (a Parquet column chunk's average per value)
    # a Parquet file decompressing to more is scanned, not read: its rows are read (within
    # max_bytes) when a program first needs them, and a group-by the engine folds streams it
    scan_bytes: int = 1 << 30


class LoadLimitError(DataFileError, PTCError):
    """A load limit passed: a DataFileError of one line naming the file and the limit (what the
    CLI prints), and a PTCError of kind "limit" with a hint, as a run's own limits are (a file
    scanned, not read, is read while a program runs)."""

    def __init__(self, limit: str, message: str) -> None:
        PTCError.__init__(self, "limit", message, hint=f"raise LoadLimits({limit}=...) if the file is trusted, "
                                                       f"or read less of it (a query, fewer columns or rows)")
        self.limit = limit

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> Any:
        return (LoadLimitError, (self.limit, self.message))


@dataclass
class Load:
    """One file being read: its name (for messages), its limits, its deadline, and the bytes
    it has become in memory so far (`held`: what the readers charged)."""

    path: str
    limits: LoadLimits
    deadline: float
    held: int = 0

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise LoadLimitError("timeout", f"{self.path}: reading it took more than {self.limits.timeout:g} s "
                                            f"(LoadLimits(timeout=...))")

    def check_bytes(self, n: int, what: str = "it holds") -> None:
        if n > self.limits.max_bytes:
            raise LoadLimitError("max_bytes", f"{self.path}: {what} {n:,} bytes, more than "
                                              f"max_bytes={self.limits.max_bytes:,} (LoadLimits(max_bytes=...))")

    def charge(self, n: int, what: str = "it becomes") -> None:
        """n more bytes of what the file becomes, about to be made: the running total against
        max_bytes, and the clock (cheap enough to call per row)."""
        self.held += n
        self.check_bytes(self.held, what)
        self.check_time()

    def release(self, n: int) -> None:
        """n bytes charged that are no longer held (a piece of a file read again, its first reading dropped)."""
        self.held -= n

    def charge_row(self, values: Sequence[Any], columns: Sequence[str]) -> None:
        """A row of Python values about to be kept: each text counted per reference (one shared
        string in many cells is as many copies once in a table) and held to max_cell."""
        text = 0
        for value, column in zip(values, columns):
            if isinstance(value, (str, bytes)):
                n = len(value) if isinstance(value, bytes) or value.isascii() else 4 * len(value)
                self.check_cell(n, column)
                text += n
        self.charge(len(values) * VALUE_BYTES + text * row_copies(), "its rows hold")

    def check_columns(self, n: int) -> None:
        if n > self.limits.max_columns:
            raise self.columns_error(f"{n:,} columns, more than")

    def columns_error(self, what: str) -> LoadLimitError:
        return LoadLimitError("max_columns", f"{self.path}: {what} max_columns={self.limits.max_columns:,} "
                                             f"(LoadLimits(max_columns=...)); pick the columns you need with a "
                                             f"query or another file")

    def table_of(self, schema: Any, batches: Iterable[Any], what: str) -> Any:
        """A pyarrow Table of record batches, each charged and its cells measured as it arrives
        (a compressed IPC file or a query's rows: what arrives can be far larger than the file)."""
        import pyarrow as pa

        out = []
        for batch in batches:
            self.charge(batch.nbytes, what)
            self.check_cells(batch)
            out.append(batch)
        return pa.Table.from_batches(out, schema=schema)

    def check_cell(self, n: float, column: str) -> None:
        if n > self.limits.max_cell:
            raise self.cell_error(f"column {column!r} holds cells of {int(n):,} bytes,")

    def cell_error(self, what: str) -> LoadLimitError:
        return LoadLimitError("max_cell", f"{self.path}: {what} more than max_cell={self.limits.max_cell:,} "
                                          f"(LoadLimits(max_cell=...))")

    def check_cells(self, table: Any) -> None:
        """The longest text or binary cell of each column of a table or batch, against max_cell:
        the rule every format meets, measured on what the cells became."""
        import pyarrow as pa
        import pyarrow.compute as pc

        for field, column in zip(table.schema, table.columns):
            if pa.types.is_dictionary(field.type):
                column = column.dictionary if isinstance(column, pa.Array) else pa.chunked_array(
                    [chunk.dictionary for chunk in column.chunks], field.type.value_type)
            if _is_text(column.type) and len(column):
                longest = pc.max(pc.binary_length(column)).as_py()
                if longest is not None:
                    self.check_cell(longest, field.name)


def _is_text(kind: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_binary(kind)
                or pa.types.is_large_binary(kind) or pa.types.is_string_view(kind) or pa.types.is_binary_view(kind))


DEFAULT = LoadLimits()
_CURRENT: contextvars.ContextVar[Load | None] = contextvars.ContextVar("ptc_load", default=None)


@contextlib.contextmanager
def loading(path: str, limits: LoadLimits | None) -> Iterator[Load]:
    """Read `path` under `limits` (the defaults when None): readers find it with `current()`."""
    limits = limits or DEFAULT
    load = Load(path, limits, time.monotonic() + limits.timeout)
    token = _CURRENT.set(load)
    try:
        yield load
    finally:
        _CURRENT.reset(token)


def current() -> Load:
    """The file being read (a reader called on its own reads under the defaults)."""
    load = _CURRENT.get()
    return load if load is not None else Load("data file", DEFAULT, time.monotonic() + DEFAULT.timeout)
