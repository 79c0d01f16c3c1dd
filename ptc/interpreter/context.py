"""The state of the run in progress, and the limit checks every builtin calls.

Program execution is synchronous and one run at a time per process (nested runs, such as
a tool that runs a sub-agent, save and restore the state), so the current run lives in a
module global: reading it costs one global lookup, which matters inside builtins' loops.
"""

from __future__ import annotations

import contextlib
import datetime
import itertools
import os
import random
import threading
import time
from typing import Any, Callable, Iterator

from .errors import PTCError, limit_error
from .limits import Limits

BYTES_PER_ITEM = 64  # rough cost of one element of a realized collection
BYTES_PER_CHAR = 1
MEASURE_EVERY = 0.01  # seconds between two reads of resident memory by the limit checks (~5 us a read)


class RunState:
    """Counters and outputs of one program run."""

    __slots__ = (
        "limits", "deadline", "steps", "prints", "print_chars", "tool_calls", "tools",
        "data", "allocated", "max_int", "call_tool", "pending", "defined", "docs", "rss_base", "budgets",
        "random", "seed", "emptied", "clock", "memory_due",
    )

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.timeout
        self.steps = 0
        self.prints: list[str] = []
        self.print_chars = 0
        self.tool_calls: list[Any] = []
        self.tools: dict[str, Any] = {}
        self.data: Any = None
        self.allocated = 0
        self.max_int = 1 << limits.max_int_bits
        self.call_tool: Callable[..., Any] | None = None
        self.pending: str | None = None  # text of `print` calls not yet ended by a newline
        self.defined: list[str] = []  # names def'd by the program, in execution order
        self.docs: dict[str, str] = {}  # docstrings of this run's defs
        self.rss_base = resident_bytes()  # memory in use when the run started
        self.budgets = 0  # step chunks consumed (every 16th also checks memory)
        self.random: random.Random | None = None  # made on first use (seeding from the OS costs)
        self.seed: int | None = None  # the seed it was made with (a paused run keeps it, to replay)
        self.emptied: Emptied | None = None  # the last filter that kept nothing (for the empty-result note)
        self.clock: datetime.datetime | None = None  # the run clock, read at its first use (run_clock)
        self.memory_due = time.monotonic() + MEASURE_EVERY  # when a limit check next reads resident memory

    def flush_output(self) -> None:
        if self.pending is not None:
            self.prints.append(self.pending)
            self.pending = None


class Emptied:
    """A filter/filterv/remove (or a compiled chain of them) whose input had items and whose
    output had none: what the empty-result note (`ptc.interpreter.diagnose`) explains. Kept
    only when that happens, so the cost of a filter that keeps something is one test."""

    __slots__ = ("who", "count", "samples", "key")

    def __init__(self, who: str, count: int, samples: tuple[Any, ...], key: object) -> None:
        self.who, self.count, self.samples, self.key = who, count, samples, key


def emptied(who: str, items: Any, key: object = None) -> None:
    """`items` (a non-empty chunk or collection) all failed `who`'s predicate. Successive
    chunks of one lazy filter (the same `key`) add up their counts."""
    st = CURRENT
    last = st.emptied
    if key is not None and last is not None and last.key is key:
        last.count += len(items)
    else:
        st.emptied = Emptied(who, len(items), tuple(itertools.islice(items, 3)), key)


def rng() -> random.Random:
    """The run's random number generator: seeded by Limits.seed, so a seeded run replays."""
    st = CURRENT
    if st.random is None:
        seed = st.limits.seed
        st.seed = seed if seed is not None else int.from_bytes(os.urandom(8), "little")
        st.random = random.Random(st.seed)
    return st.random


def run_clock() -> datetime.datetime:
    """The run's "now" (UTC): read once, at its first use in the run, so every clock read of a
    program (LocalDate/now, System/currentTimeMillis...) sees the same instant."""
    st = CURRENT
    if st.clock is None:
        fixed = st.limits.clock
        if fixed is None:
            st.clock = datetime.datetime.now(datetime.timezone.utc)
        else:  # a naive instant is taken as UTC
            st.clock = fixed if fixed.tzinfo is not None else fixed.replace(tzinfo=datetime.timezone.utc)
    return st.clock


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """Current resident memory of this process (Linux /proc; 0 where unavailable)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def check_memory() -> None:
    """Growth of the process's resident memory since the run began, against max_memory.

    This bounds everything a program allocates (including fast paths that do not count
    items) at the cost of reading /proc every 16,000 steps.
    """
    st = CURRENT
    if st.rss_base and resident_bytes() - st.rss_base > st.limits.max_memory:
        raise limit_error("max_memory", st.limits.max_memory, "program holds too much memory")


@contextlib.contextmanager
def reading_data() -> Iterator[None]:
    """Reading the run's data (a file scanned, not read, before the run): the memory it takes
    is the data's, held by the host as if read before the run, not the program's max_memory."""
    st = CURRENT
    before = resident_bytes()
    try:
        yield
    finally:
        if st.rss_base:
            st.rss_base += max(0, resident_bytes() - before)


class Loan:
    """The interpreter lock lent by a run that waits for a tool to the tool's thread."""

    __slots__ = ("key", "count", "active")

    def __init__(self, key: object, count: int) -> None:
        self.key, self.count, self.active = key, count, True


_BORROWED = threading.local()


def borrow(loan: Loan | None) -> None:
    """The current thread (a tool's) runs with the lock that loan lends (None: its own)."""
    _BORROWED.loan = loan


class RunLock:
    """The interpreter lock: one program runs at a time per process (its state is module
    globals). Reentrant, for nested runs in one thread, and lendable: while a run waits for a
    tool running in another thread, that tool may start a run of its own (a sub-agent); when
    the waiting run stops waiting, it takes the lock back, after any such nested run ended."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._owner: object = None
        self._count = 0

    @staticmethod
    def _key() -> object:
        loan = getattr(_BORROWED, "loan", None)
        return loan.key if loan is not None and loan.active else threading.get_ident()

    def acquire(self) -> None:
        with self._cond:
            key = self._key()
            if self._owner == key:
                self._count += 1
                return
            while self._owner is not None:
                self._cond.wait()
            self._owner, self._count = key, 1

    def release(self) -> None:
        with self._cond:
            self._count -= 1
            if self._count == 0:
                self._owner = None
            self._cond.notify_all()

    __enter__ = acquire

    def __exit__(self, *exc: object) -> None:
        self.release()

    def lend(self) -> Loan | None:
        """Lend the lock this thread holds (None when it holds none) to a tool's thread."""
        with self._cond:
            key = self._key()
            return Loan(key, self._count) if self._owner == key else None

    def take_back(self, loan: Loan | None) -> None:
        """End the loan, once every run the borrower started has ended."""
        if loan is None:
            return
        with self._cond:
            while self._count > loan.count:
                self._cond.wait()
            loan.active = False


DEFAULT_LIMITS = Limits()
IDLE = RunState(DEFAULT_LIMITS)  # current between runs
IDLE.deadline = IDLE.memory_due = float("inf")

CURRENT: RunState = IDLE
LOCK = RunLock()


def current() -> RunState:
    return CURRENT


def enter(state: RunState) -> RunState:
    """Make `state` current; returns the previous one for `leave`."""
    global CURRENT
    prev, CURRENT = CURRENT, state
    return prev


def leave(prev: RunState) -> None:
    global CURRENT
    CURRENT = prev


def check_deadline() -> None:
    now = time.monotonic()
    st = CURRENT
    if now > st.deadline:
        raise limit_error("timeout", st.limits.timeout, "program ran too long")
    if now > st.memory_due:
        _measure(st, now)


def _measure(st: RunState, now: float) -> None:
    """The memory the run holds, measured (resident growth since it began, which Arrow's and
    numpy's allocations are part of) rather than estimated: every check that reads the
    clock reads it too, at most every MEASURE_EVERY seconds."""
    st.memory_due = now + MEASURE_EVERY
    if st.rss_base and resident_bytes() - st.rss_base > st.limits.max_memory:
        raise limit_error("max_memory", st.limits.max_memory, "program holds too much memory (measured)")


def check_time(seconds: float, what: str) -> None:
    """Refuse a call that cannot be stopped once it starts (a sort in numpy, a fit in
    scikit-learn) when the time it is estimated to take is more than the run has left."""
    st = CURRENT
    left = st.deadline - time.monotonic()
    if seconds > left:
        raise limit_error("timeout", st.limits.timeout,
                          f"{what} would take about {seconds:.2g} s, and the run has {max(left, 0):.2g} s left")


def check_bytes(n: int, what: str, charge: bool = True) -> None:
    """Refuse what would take the run's memory estimate past max_memory: the n bytes a call's
    result holds (a fitted model's arrays: charged) or may need at most before it starts (a
    bound, charge=False: the call then charges what it holds)."""
    st = CURRENT
    if st.allocated + n > st.limits.max_memory:
        raise limit_error("max_memory", st.limits.max_memory,
                          f"{what} would hold up to {n / 2**20:.3g} MB (the run may hold "
                          f"{max(st.limits.max_memory - st.allocated, 0) / 2**20:.3g} MB more)")
    if charge:
        st.allocated += n


def check_size(n: int, what: str = "collection") -> None:
    """Refuse to realize a collection of n items; also charges the memory estimate."""
    st = CURRENT
    if n > st.limits.max_collection:
        raise limit_error("max_collection", st.limits.max_collection, f"{what} of {n} items")
    st.allocated += n * BYTES_PER_ITEM
    if st.allocated > st.limits.max_memory:
        raise limit_error("max_memory", st.limits.max_memory, "program allocated too much (estimate)")
    now = time.monotonic()
    if now > st.deadline:
        raise limit_error("timeout", st.limits.timeout, "program ran too long")
    if now > st.memory_due:
        _measure(st, now)


def check_realized(total: int, new: int, what: str = "lazy sequence") -> None:
    """A lazy sequence grew by `new` items to `total`: bound the total, charge only the growth."""
    st = CURRENT
    if total > st.limits.max_collection:
        raise limit_error("max_collection", st.limits.max_collection, f"{what} of more than {total - 1} items")
    st.allocated += new * BYTES_PER_ITEM
    if st.allocated > st.limits.max_memory:
        raise limit_error("max_memory", st.limits.max_memory, "program allocated too much (estimate)")
    now = time.monotonic()
    if now > st.deadline:
        raise limit_error("timeout", st.limits.timeout, "program ran too long")
    if now > st.memory_due:
        _measure(st, now)


def check_string(n: int, what: str = "string") -> None:
    st = CURRENT
    if n > st.limits.max_string:
        raise limit_error("max_string", st.limits.max_string, f"{what} of {n} characters")
    st.allocated += n * BYTES_PER_CHAR
    if st.allocated > st.limits.max_memory:
        raise limit_error("max_memory", st.limits.max_memory, "program allocated too much (estimate)")
    now = time.monotonic()
    if now > st.deadline:
        raise limit_error("timeout", st.limits.timeout, "program ran too long")
    if now > st.memory_due:
        _measure(st, now)


def check_int(x: int) -> int:
    """Bigint guard: results beyond max_int_bits are refused before they grow further."""
    if -CURRENT.max_int < x < CURRENT.max_int:
        return x
    raise limit_error("max_int_bits", CURRENT.limits.max_int_bits, "integer too large")


def int_product_fits(a: int, b: int) -> None:
    """Check a product's size before computing it (multiplying huge ints is itself slow)."""
    if a.bit_length() + b.bit_length() > CURRENT.limits.max_int_bits + 1:
        raise limit_error("max_int_bits", CURRENT.limits.max_int_bits, "integer too large")


def emit_print(text: str, newline: bool = True) -> None:
    """Record output. Each completed line is one entry of `prints`: `println` ends a line,
    `print` continues the current one."""
    st = CURRENT
    st.print_chars += len(text) + (1 if newline else 0)
    if st.print_chars > st.limits.max_output:
        raise limit_error("max_output", st.limits.max_output, "too much printed output")
    if st.pending is not None:
        text, st.pending = st.pending + text, None
    if newline:
        st.prints.append(text)
    else:
        st.pending = text


def tick(n: int = 1) -> None:
    """Charge n steps from a builtin that loops without calling program code."""
    st = CURRENT
    st.steps += n
    if st.steps > st.limits.max_steps:
        raise limit_error("max_steps", st.limits.max_steps, "too many evaluation steps")
    now = time.monotonic()
    if now > st.deadline:
        raise limit_error("timeout", st.limits.timeout, "program ran too long")
    if now > st.memory_due:
        _measure(st, now)


__all__ = [
    "RunState", "CURRENT", "LOCK", "current", "enter", "leave", "check_deadline", "check_size",
    "check_string", "check_int", "int_product_fits", "emit_print", "tick", "PTCError",
]
