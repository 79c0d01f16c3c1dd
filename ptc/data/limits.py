"""Bounds on reading one data file: a file is data, and no file may stop or exhaust the host.

A file can be far larger inside than on disk (an 8.7 MB xlsx that unzips to gigabytes, a
10 KB Parquet file holding one 300 MB cell), so the readers check what a file says of itself
(zip entry sizes, Parquet metadata, Arrow batch sizes) before they read it, and the clock
while they read. The bound being read is current for the thread (a context variable), so
readers take no extra argument; `ptc.table(path, limits=...)` and `ptc.read_data(...,
limits=...)` set it, the CLI uses the defaults.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from .arrow import DataFileError


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


@dataclass(frozen=True)
class Load:
    """One file being read: its name (for messages), its limits and its deadline."""

    path: str
    limits: LoadLimits
    deadline: float

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise DataFileError(f"{self.path}: reading it took more than {self.limits.timeout:g} s "
                                f"(LoadLimits(timeout=...))")

    def check_bytes(self, n: int, what: str = "it holds") -> None:
        if n > self.limits.max_bytes:
            raise DataFileError(f"{self.path}: {what} {n:,} bytes, more than max_bytes={self.limits.max_bytes:,} "
                                f"(LoadLimits(max_bytes=...))")

    def check_columns(self, n: int) -> None:
        if n > self.limits.max_columns:
            raise DataFileError(f"{self.path}: {n:,} columns, more than max_columns={self.limits.max_columns:,} "
                                f"(LoadLimits(max_columns=...)); pick the columns you need with a query or "
                                f"another file")

    def table_of(self, schema: Any, batches: Iterable[Any], what: str) -> Any:
        """A pyarrow Table of record batches, their size and the clock checked batch by batch
        (a compressed IPC file or a query's rows: what arrives can be far larger than the file)."""
        import pyarrow as pa

        out, total = [], 0
        for batch in batches:
            total += batch.nbytes
            self.check_bytes(total, what)
            self.check_time()
            out.append(batch)
        return pa.Table.from_batches(out, schema=schema)

    def check_cell(self, n: float, column: str) -> None:
        if n > self.limits.max_cell:
            raise DataFileError(f"{self.path}: column {column!r} holds cells of {int(n):,} bytes, more than "
                                f"max_cell={self.limits.max_cell:,} (LoadLimits(max_cell=...))")


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
