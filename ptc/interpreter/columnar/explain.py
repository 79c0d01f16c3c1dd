"""`ptc.explain(src, data=...)`: run a program and say which calls over tables ran as kernels.

Each builtin call that met a columnar collection (a table, a filtered view of one, a computed
column) is one step: a kernel (with the column expression it computed) or a fall back to the
row path (with the reason, e.g. "fn body calls clojure.string/upper-case: not a column
expression"). A program that never meets a table has no steps. The program runs for real
(same limits, same result or error) so what is reported is what happened.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from .dispatch import _LOG


@dataclass(frozen=True)
class Step:
    """One builtin call over columnar data."""

    call: str  # the builtin ("filter", "sum-by", "reduce +"...)
    kernel: bool  # ran as a columnar kernel (else: row by row)
    detail: str  # the column expression computed, or why it fell back

    def __str__(self) -> str:
        return f"{'kernel' if self.kernel else 'rows  '}  {self.call:<12} {self.detail}"


@dataclass(frozen=True)
class Explanation:
    """What `explain` found: the steps in the order they ran, and the run's value or error."""

    steps: tuple[Step, ...]
    value: Any = None
    error: Any = None  # the PTCError the program raised, if it did
    collapsed: tuple[tuple[Step, int], ...] = field(default=())

    @property
    def kernels(self) -> int:
        return sum(1 for s in self.steps if s.kernel)

    @property
    def fallbacks(self) -> int:
        return sum(1 for s in self.steps if not s.kernel)

    def __str__(self) -> str:
        if not self.steps:
            lines = ["no builtin call met a table: nothing to run as a kernel"]
        else:
            lines = [f"{len(self.steps)} calls over tables: {self.kernels} as kernels, {self.fallbacks} row by row"]
        for step, times in self.collapsed:
            lines.append(str(step) + (f"  (x{times})" if times > 1 else ""))
        if self.error is not None:  # the steps above are those before it
            lines.append(f"the program failed: {self.error.kind}: {self.error.message}")
        return "\n".join(lines)


@contextmanager
def recording() -> Iterator[list[tuple[str, bool, str]]]:
    """Within the block, the columnar steps of runs on this thread are appended to the list."""
    log: list[tuple[str, bool, str]] = []
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


def explain(source: str, data: Any = None, **run_kwargs: Any) -> Explanation:
    """Run `source` (as ptc.run does, with the same arguments) and report its columnar steps.
    It runs in this process even under Limits(isolation="process"): which calls run as kernels
    does not depend on where the program runs, and the steps are recorded here."""
    from ..api import run
    from ..errors import PTCError

    limits = run_kwargs.get("limits")
    if limits is not None and limits.isolation == "process":
        run_kwargs["limits"] = limits.model_copy(update={"isolation": "inline"})

    value = error = None
    with recording() as log:
        try:
            value = run(source, data=data, **run_kwargs).value
        except PTCError as e:
            error = e
    return explanation(log, value, error)


def explanation(log: list[tuple[str, bool, str]], value: Any = None, error: Any = None) -> Explanation:
    """The Explanation of recorded steps."""
    steps = tuple(Step(*s) for s in log)
    collapsed: list[tuple[Step, int]] = []
    for s in steps:  # a kernel run once per group shows once, with a count
        if collapsed and collapsed[-1][0] == s:
            collapsed[-1] = (s, collapsed[-1][1] + 1)
        else:
            collapsed.append((s, 1))
    return Explanation(steps, value, error, tuple(collapsed))
