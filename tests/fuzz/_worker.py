"""A persistent forked worker that runs fuzzed programs, so that a hang, a segfault or a
memory blow-up inside ptc becomes a reportable failure instead of a stuck test session.

The worker is one long-lived process (like an application embedding ptc: state left behind
by one run is seen by the next). It caps its address space; the parent kills and restarts
it when a program overruns its deadline or the worker dies.
"""

from __future__ import annotations

import faulthandler
import multiprocessing
import os
import tempfile
import resource
import time
import traceback
import warnings
from dataclasses import dataclass
from typing import Any

WORKER_MEMORY = 4 << 30
KINDS = frozenset({"parse", "analysis", "runtime", "tool", "limit"})
_CTX = multiprocessing.get_context("fork")


@dataclass
class Outcome:
    status: str  # "value" | "error" | "crash" | "hang" | "died"
    elapsed: float = 0.0
    kind: str | None = None
    message: str = ""
    printed: str | None = None
    print_error: str | None = None
    detail: str = ""
    warning: str | None = None  # a Python warning emitted during the run (e.g. SyntaxWarning)

    def problem(self, allowed: float) -> str | None:
        """None when the outcome satisfies the fuzz property, else a one-line description."""
        if self.status == "hang":
            return f"hang: no answer after {self.elapsed:.1f}s; stack (most recent call first):\n{self.detail[:3000]}"
        if self.status == "died":
            return f"worker died: {self.detail[:3000]}"
        if self.status == "crash":
            return f"non-PTCError exception {self.message}\n{self.detail}"
        if self.elapsed > allowed:
            return f"slow: {self.elapsed:.2f}s > {allowed:.2f}s ({self.status} {self.kind} {self.message[:200]})"
        if self.warning is not None:
            return f"Python warning during the run: {self.warning}"
        if self.status == "value" and self.print_error is not None:
            return f"pr_str failed on the result: {self.print_error}"
        if self.status == "error":
            if self.kind not in KINDS:
                return f"PTCError with unknown kind {self.kind!r}"
            if "internal error" in self.message:
                return f"internal error: {self.message}\n{self.detail}"
        return None


def _tools() -> dict[str, Any]:
    def echo(*args: Any, **kwargs: Any) -> Any:
        return list(args) if args else kwargs

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    return {"echo": echo, "boom": boom}


def _run_one(src: Any, timeout: float) -> Outcome:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = _run_quiet(src, timeout)
    if caught:
        w = caught[0]
        out.warning = f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})"[:300]
    return out


def _run_quiet(src: Any, timeout: float) -> Outcome:
    import ptc
    from ptc.interpreter import api

    # Compile afresh each time: a rerun of the same program (Hypothesis replaying or shrinking
    # a failure) must behave like the first run, warnings included.
    api.compile_program.cache_clear()

    limits = ptc.Limits(timeout=timeout)
    start = time.perf_counter()
    try:
        r = ptc.run(src, limits=limits, tools=_tools(), data={"n": 3, "rows": [{"a": 1}, {"a": 2}], "s": "hi"},
                    memory={"m": 1})
        elapsed = time.perf_counter() - start
        printed = print_error = None
        try:
            text = ptc.pr_str(r.value)
            if isinstance(text, str):
                printed = text[:300]
            else:
                print_error = f"pr_str returned {type(text).__name__}"
        except BaseException as e:  # noqa: BLE001
            print_error = f"{type(e).__name__}: {e}"[:300]
        return Outcome("value", elapsed, printed=printed, print_error=print_error)
    except ptc.PTCError as e:
        elapsed = time.perf_counter() - start
        detail = ""
        if "internal error" in str(e.message):
            detail = "".join(traceback.format_exception(e)[-6:])[-2000:]
        return Outcome("error", elapsed, kind=e.kind, message=str(e.message)[:500], detail=detail)
    except BaseException as e:  # noqa: BLE001
        elapsed = time.perf_counter() - start
        tb = "".join(traceback.format_exception(e)[-10:])
        return Outcome("crash", elapsed, message=f"{type(e).__name__}: {str(e)[:300]}", detail=tb[-3000:])


def _serve(conn: Any, dump_path: str, hang_after: float) -> None:
    try:
        from ptc.interpreter.isolation.child import _vm_size

        cap = WORKER_MEMORY + _vm_size()  # headroom on top of what the worker inherits mapped (see _forkrun)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):  # pragma: no cover
        pass
    dump = open(dump_path, "w+")  # noqa: SIM115 - lives as long as the worker
    faulthandler.enable(dump)  # a segfault leaves the Python stack here
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        src, timeout = msg
        dump.seek(0)
        dump.truncate()
        # A hang leaves the stack of the stuck code in the dump file, then the worker exits.
        faulthandler.dump_traceback_later(timeout + hang_after, exit=True, file=dump)
        try:
            out = _run_one(src, timeout)
        finally:
            faulthandler.cancel_dump_traceback_later()
        conn.send(out)


class Sandbox:
    """Runs programs in the worker; restarts it after a hang or a death.

    `hang_after`: seconds past the program's own timeout after which the worker dumps the
    stuck stack and exits (reported as a hang with that stack); the parent itself gives up
    a few seconds later still, in case the worker cannot even do that.
    """

    def __init__(self, hang_after: float = 3.0) -> None:
        self.hang_after = hang_after
        self.proc: Any = None
        self.conn: Any = None
        self.restarts = 0
        fd, self.dump_path = tempfile.mkstemp(prefix="ptc-fuzz-", suffix=".dump")
        os.close(fd)

    def _start(self) -> None:
        parent, child = _CTX.Pipe()
        self.proc = _CTX.Process(target=_serve, args=(child, self.dump_path, self.hang_after), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent

    def _kill(self) -> None:
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(5)
        if self.conn is not None:
            self.conn.close()
        self.proc = self.conn = None
        self.restarts += 1

    def _dump(self) -> str:
        try:
            with open(self.dump_path, encoding="utf-8", errors="replace") as f:
                return f.read()[:8000]
        except OSError:
            return ""

    def run(self, src: Any, timeout: float) -> Outcome:
        if self.proc is None or not self.proc.is_alive():
            if self.proc is not None:
                self._kill()
            self._start()
        start = time.perf_counter()
        hard = timeout + self.hang_after + 5.0
        try:
            self.conn.send((src, timeout))
            if self.conn.poll(hard):
                return self.conn.recv()  # type: ignore[no-any-return]
            status = "hang"
        except (EOFError, BrokenPipeError, ConnectionResetError, OSError):
            status = "died"
        elapsed = time.perf_counter() - start
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        code = self.proc.exitcode
        dump = self._dump()
        self._kill()
        if "Timeout (" in dump:
            status = "hang"
        return Outcome(status, elapsed, detail=f"exit code {code}\n{dump}")

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.send(None)
            except OSError:
                pass
        if self.proc is not None:
            self.proc.join(2)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join(2)
        if self.conn is not None:
            self.conn.close()
        self.proc = self.conn = None
        try:
            os.unlink(self.dump_path)
        except OSError:
            pass


def _frames(text: str) -> list[str]:
    """'file:function' of the ptc frames in a traceback or faulthandler dump, innermost first."""
    import re

    frames = []
    for m in re.finditer(r'File "([^"]+)", line \d+,? in (\S+)', text):
        path, func = m.group(1), m.group(2)
        if "/ptc/" in path:
            frames.append(f"{path.split('/ptc/', 1)[1]}:{func}")
    return frames


def _normalize(message: str) -> str:
    import re

    text = re.sub(r'"(?:[^"\\]|\\.)*"', '"…"', message)
    text = re.sub(r"'(?:[^'\\]|\\.)*'", "'…'", text)
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    text = re.sub(r"#object\[[^\]]*\]", "#object[…]", text)
    return text.split("\n")[0][:90]


def signature(out: Outcome) -> str:
    """A short key grouping outcomes that are probably the same bug."""
    if out.status in ("hang", "died"):
        frames = _frames(out.detail)
        # faulthandler prints the most recent call first; tracebacks print it last.
        where = frames[0] if frames else "?"
        return f"{out.status}@{where}"
    if out.status == "crash":
        frames = _frames(out.detail)
        where = frames[-1] if frames else "?"
        return f"crash:{out.message.split(':', 1)[0]}@{where}"
    if out.warning is not None:
        return f"warning:{out.warning.split(':', 1)[0]}:{_normalize(out.warning.split(':', 1)[-1])[:40]}"
    if out.status == "value" and out.print_error is not None:
        return f"pr_str:{out.print_error.split(':', 1)[0]}"
    if out.status == "error" and "internal error" in out.message:
        return f"internal:{_normalize(out.message)}"
    return f"slow:{out.status}:{out.kind}:{_normalize(out.message)}"
