"""Two threads for the columnar layer's numpy and Arrow calls, which release the interpreter
lock (bincount, Arrow's hashing and aggregation kernels): independent folds, the halves of a
column being dictionary-encoded. 1.4-1.9x on two cores over a million rows and more; below
PARALLEL_ROWS a call takes about what handing it to a thread does."""

from __future__ import annotations

import os
from typing import Any, Callable

from .. import context

PARALLEL_ROWS = 1 << 17

_POOL: tuple[Any, int] | None = None  # (the threads, in which process)


def worth_it(calls: int, rows: int, bytes_per_row: int) -> bool:
    """Whether `calls` calls over `rows` rows should run on two threads: several of them, over
    enough rows, on a machine of two cores or more, with max_memory holding what two of them
    allocate at once (bytes_per_row each)."""
    return calls >= 2 and rows >= PARALLEL_ROWS and (os.cpu_count() or 1) >= 2 \
        and 2 * rows * bytes_per_row <= context.CURRENT.limits.max_memory


def run_all(calls: list[Callable[[], Any]]) -> list[Any]:
    """Each call's value, the calls run on two threads; every call has ended when this returns,
    and the first error in the calls' order is raised."""
    global _POOL
    if _POOL is None or _POOL[1] != os.getpid():  # threads made before a fork are not in the child
        from concurrent.futures import ThreadPoolExecutor

        _POOL = (ThreadPoolExecutor(2, thread_name_prefix="ptc-columnar"), os.getpid())
    from concurrent.futures import wait

    futures = [_POOL[0].submit(c) for c in calls]
    wait(futures)
    return [f.result() for f in futures]
