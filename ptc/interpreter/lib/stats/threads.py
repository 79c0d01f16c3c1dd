"""Numerical calls on one thread: the same bits inline and isolated, and no host cores taken.

BLAS (numpy's matrix products, scipy's decompositions) and OpenMP (scikit-learn) split work
over threads, and a sum split another way rounds another way: the pseudo-inverse of a
20,000 x 60 design on two OpenBLAS threads differs in its last bits from the same on one (an
isolated child's zygote sets OPENBLAS_NUM_THREADS=1, and passes the host's choice of kernels,
OPENBLAS_CORETYPE: a different core type gave another lm). Every call of the library that
reaches them runs under a limit of one thread (threadpoolctl, which scikit-learn installs).
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Callable, Iterator

_CONTROLLER: list[Any] = [None, -1]  # the controller, and len(sys.modules) when it looked for libraries


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Within the block, BLAS and OpenMP run on one thread (about 20 us to enter and leave; the
    controller finds the loaded libraries again only after new modules were imported)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # without it (no scikit-learn) numpy's BLAS keeps its threads
        yield
        return
    if _CONTROLLER[1] != len(sys.modules):
        _CONTROLLER[:] = [ThreadpoolController(), len(sys.modules)]
    with _CONTROLLER[0].limit(limits=1):
        yield


def single_threaded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn run under one_thread (its name and docs kept: the registry reads them)."""
    def run(*args: Any) -> Any:
        with one_thread():
            return fn(*args)

    run.__name__, run.__doc__, run.__module__ = fn.__name__, fn.__doc__, fn.__module__
    run.__code__ = run.__code__.replace(co_firstlineno=fn.__code__.co_firstlineno)
    return run
