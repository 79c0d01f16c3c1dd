"""Run one ptc program in a forked child, so a hang, a segfault or a memory blow-up in ptc
fails the test that caused it instead of taking the whole test session down.

The child inherits the parent's memory (tools may be closures or lambdas), caps its own
address space, measures the wall time of `ptc.run` alone and sends back a small summary.
The parent kills the child when it overruns a hard deadline.
"""

from __future__ import annotations

import multiprocessing
import resource
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

import ptc
from ptc.interpreter.isolation.child import _vm_size

# Address-space cap for the child: a runaway program must hit MemoryError, never the
# machine's OOM killer (which would take other processes down with it).
CHILD_MEMORY = 4 << 30

_CTX = multiprocessing.get_context("fork")


@dataclass
class Outcome:
    status: str  # "value" | "error" | "crash" (non-PTCError exception) | "hang" | "died"
    elapsed: float = 0.0  # wall time of ptc.run in the child (hang: time until killed)
    kind: str | None = None  # PTCError.kind
    message: str = ""  # PTCError message, or exception type + text for a crash
    printed: str | None = None  # ptc.pr_str(value), truncated
    print_error: str | None = None  # pr_str failed on the returned value
    detail: str = ""  # traceback for a crash, exit code for a death
    peak_growth: int = 0  # bytes the child's peak resident memory grew by during ptc.run (Linux)

    def describe(self) -> str:
        if self.status == "value":
            extra = f" (pr_str failed: {self.print_error})" if self.print_error else ""
            return f"value {self.printed!r:.200}{extra} after {self.elapsed:.2f}s"
        if self.status == "error":
            return f"PTCError[{self.kind}] {self.message!r:.300} after {self.elapsed:.2f}s"
        if self.status == "crash":
            return f"non-PTCError exception {self.message!r:.300} after {self.elapsed:.2f}s\n{self.detail}"
        if self.status == "hang":
            return f"no answer after {self.elapsed:.1f}s (child killed)"
        return f"child died without answering ({self.detail}) after {self.elapsed:.2f}s"


def _child(conn: Any, job: Callable[[], Any], warm: Callable[[], Any], mem: int) -> None:
    """Cap the address space, warm up, then time and measure job() alone."""
    try:
        # `mem` is the program's headroom on top of what the child inherits mapped (thread stacks and
        # allocator arenas of pyarrow, polars or DuckDB used by earlier tests take gigabytes)
        mem += _vm_size()
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    except (ValueError, OSError):  # pragma: no cover - platform without the limit
        pass
    warm()
    _reset_peak()
    start = time.perf_counter()
    try:
        value = job()
        elapsed = time.perf_counter() - start
        printed = print_error = None
        try:
            text = ptc.pr_str(value)
            printed = text[:4000] if isinstance(text, str) else None
            if not isinstance(text, str):
                print_error = f"pr_str returned {type(text).__name__}"
        except BaseException as e:  # noqa: BLE001
            print_error = f"{type(e).__name__}: {e}"[:500]
        out = Outcome("value", elapsed, printed=printed, print_error=print_error)
    except ptc.PTCError as e:
        elapsed = time.perf_counter() - start
        out = Outcome("error", elapsed, kind=e.kind, message=str(e.message)[:2000])
    except BaseException as e:  # noqa: BLE001 - anything else is a ptc bug worth reporting
        elapsed = time.perf_counter() - start
        tb = "".join(traceback.format_exception(e)[-12:])
        out = Outcome("crash", elapsed, message=f"{type(e).__name__}: {str(e)[:500]}", detail=tb[-4000:])
    out.peak_growth = _peak() - base if (base := _base) else 0
    try:
        conn.send(out)
    finally:
        conn.close()


_base = 0


def _status(field: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> None:
    """Start measuring the peak resident memory from now: the kernel resets VmHWM on "5"."""
    global _base
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        _base = _status("VmRSS:")
    except OSError:  # pragma: no cover - not Linux
        _base = 0


def _peak() -> int:
    try:
        return _status("VmHWM:")
    except OSError:  # pragma: no cover
        return 0


_warm = False


def _warm_up() -> None:
    """Load here, once, what a process's first run loads before its clock starts (the library,
    the compiler, the table kernels and pyarrow's first conversion: 0.4-0.5 s), so that a forked
    child's wall time is its run's, whichever tests ran before in this process."""
    global _warm
    if _warm:
        return
    _warm = True
    ptc.run("(count (filter odd? (range 10)))")
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - pyarrow is in the test extra
        return
    t = pa.table({"k": [1, 2, 1], "v": [0.5, 1.5, 2.5]})
    ptc.run("[(count (filter #(> (:v %) 1) data/t)) (sort-by :v data/t) "
            "(count (map (fn [[k g]] {:k k :s (reduce + (map :v g))}) (group-by :k data/t)))]", data={"t": t})


def run_forked(source: Any, *, hard_timeout: float, mem: int = CHILD_MEMORY, **kwargs: Any) -> Outcome:
    """ptc.run(source, **kwargs) in a forked child; kill it after hard_timeout seconds."""

    def warm() -> None:
        from ptc.interpreter.registry import REGISTRY, names_heavy_namespace, prepare

        # the analyst's library imported once (seconds, at analysis), before the timed run that names it
        heavy = isinstance(source, str) and names_heavy_namespace(source)
        limits = kwargs.get("limits")
        if limits is not None and limits.isolation == "process":  # the zygote starts once, not in the timed run
            ptc.run("(stats/mean [1])" if heavy else "nil", limits=ptc.Limits(isolation="process"))
        elif heavy:
            for b in list(REGISTRY.values()):
                if b.needs:
                    prepare(b)

    return run_forked_call(lambda: ptc.run(source, **kwargs).value, hard_timeout=hard_timeout, mem=mem, warm=warm)


def run_forked_call(job: Callable[[], Any], *, hard_timeout: float, mem: int = CHILD_MEMORY,
                    warm: Callable[[], Any] = lambda: None) -> Outcome:
    """job() in a forked child (a PTCError it raises is an "error" outcome, its value printed with
    pr_str), after warm() there; kill it after hard_timeout seconds."""
    _warm_up()
    parent, child = _CTX.Pipe(duplex=False)
    proc = _CTX.Process(target=_child, args=(child, job, warm, mem), daemon=True)
    start = time.perf_counter()
    proc.start()
    child.close()
    try:
        if parent.poll(hard_timeout):
            try:
                return parent.recv()  # type: ignore[no-any-return]
            except EOFError:
                proc.join(5)
                return Outcome("died", time.perf_counter() - start, detail=f"exit code {proc.exitcode}")
        return Outcome("hang", time.perf_counter() - start)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
