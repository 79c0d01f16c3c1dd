"""The zygote: one warmed process per host process that forks a child per run, and the
host's handle on it and on its children."""


from __future__ import annotations

import array
import atexit
import contextlib
import gc
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading

from ..errors import PTCError
from .child import _child_main
from .framing import SPAWN_TIMEOUT, START_TIMEOUT, _EXIT_INTERNAL, _NOSIGNAL, _PID

# -- the zygote and its children, seen from the host -----------------------------------------


class _Child:
    """One forked child: its run socket, its pid (and pidfd), and its exit-status pipe."""

    def __init__(self, sock: socket.socket, pid: int, pidfd: int | None, status_r: int) -> None:
        self.sock = sock
        self.pid = pid
        self.pidfd = pidfd
        self.status_r = status_r
        self.code: int | None = None
        self.killed = False

    def exit_code(self, timeout: float) -> int | None:
        if self.code is None and self.status_r >= 0:
            sel = selectors.DefaultSelector()
            try:
                sel.register(self.status_r, selectors.EVENT_READ)
                if sel.select(timeout):
                    raw = b""
                    while len(raw) < _PID.size:
                        chunk = os.read(self.status_r, _PID.size - len(raw))
                        if not chunk:
                            break
                        raw += chunk
                    if len(raw) == _PID.size:
                        self.code = _PID.unpack(raw)[0]
                    else:
                        self.code = _EXIT_INTERNAL  # the zygote went away
            finally:
                sel.close()
        return self.code

    def kill(self) -> None:
        if self.killed or self.exit_code(0) is not None:
            return
        self.killed = True
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:  # no pidfd: the status pipe said the child has not been reaped yet
                os.kill(self.pid, signal.SIGKILL)
        except (ProcessLookupError, OSError):
            pass

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        for fd in (self.pidfd, self.status_r):
            if fd is not None and fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.pidfd, self.status_r = None, -1


# environment variables that pick numerical kernels (not secrets): passed to the zygote as they are
_KERNEL_CHOICE = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES",
                  "MKL_CBWR", "MKL_ENABLE_INSTRUCTIONS")


class _Server:
    """The host's handle on its zygote process."""

    def __init__(self) -> None:
        host_end, zygote_end = socket.socketpair()
        paths = [os.path.abspath(p or os.getcwd()) for p in sys.path]
        boot = ("import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
                "from ptc.interpreter.isolation.zygote import _zygote_main; _zygote_main(int(sys.argv[2]), sys.argv[3])")
        # A host that works with tables has pyarrow loaded (now, or before a later spawn: see
        # spawn): its children get what tables need from the zygote's memory instead of
        # importing it on each run.
        self.tables = "pyarrow" in sys.modules
        self.analyst = False  # the zygote has imported what the analyst's library needs (see spawn)
        preload = "pyarrow" if self.tables else ""
        debug = os.environ.get("PTC_ISOLATION_DEBUG") == "1"
        # a child is one sandboxed thread: numerical libraries start no thread pools in it; the
        # host's choice of numerical kernels (OpenBLAS's core type...) is the child's, so that a
        # regression gives the same bits isolated as inline
        threads = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
        kernels = {k: os.environ[k] for k in _KERNEL_CHOICE if k in os.environ}
        env = {"PATH": os.defpath, "PYTHONUTF8": "1", **threads, **kernels,
               **({"PTC_ISOLATION_DEBUG": "1"} if debug else {})}
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-c", boot, json.dumps(paths), str(zygote_end.fileno()), preload],
                pass_fds=(zygote_end.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=None if debug else subprocess.DEVNULL, env=env, cwd="/", start_new_session=True,
            )
        finally:
            zygote_end.close()
        self.ctrl = host_end
        self.lock = threading.Lock()
        self.owner = os.getpid()
        try:
            host_end.settimeout(START_TIMEOUT)
            if host_end.recv(1) != b"R":
                raise OSError("the isolation server did not start")
        except OSError as e:
            self.stop()
            raise PTCError("runtime", f"could not start the isolation server: {e}") from None

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.proc.poll() is None

    def spawn(self, analyst: bool = False) -> _Child:
        """A forked child; with analyst, one forked after the zygote imported the modules the
        analyst's library needs (numpy, scipy, scikit-learn: seconds once, outside any run's
        clock, instead of inside each child's)."""
        with self.lock:
            if not self.tables and "pyarrow" in sys.modules:  # the host began working with tables
                self.ctrl.settimeout(SPAWN_TIMEOUT)
                self.ctrl.sendall(b"T")
                self.tables = True
            if analyst and not self.analyst:
                self.ctrl.settimeout(SPAWN_TIMEOUT)
                self.ctrl.sendall(b"A")
                self.analyst = True
            host_sock, child_sock = socket.socketpair()
            status_r, status_w = os.pipe()
            try:
                self.ctrl.settimeout(SPAWN_TIMEOUT)
                fds_out = array.array("i", [child_sock.fileno(), status_w])  # (socket.send_fds drops flags)
                self.ctrl.sendmsg([b"F"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds_out)], _NOSIGNAL)
                raw, fds = b"", []
                while len(raw) < _PID.size:
                    chunk, more, _flags, _addr = socket.recv_fds(self.ctrl, _PID.size - len(raw), 1)
                    if not chunk:
                        raise OSError("the isolation server went away")
                    raw += chunk
                    fds += more
            except BaseException:
                host_sock.close()
                os.close(status_r)
                raise
            finally:
                child_sock.close()
                os.close(status_w)
        pid = _PID.unpack(raw)[0]
        if pid <= 0:
            host_sock.close()
            os.close(status_r)
            for fd in fds:
                os.close(fd)
            raise OSError("the isolation server could not fork")
        return _Child(host_sock, pid, fds[0] if fds else None, status_r)

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.ctrl.close()
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=2.0)
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.proc.kill()
            with contextlib.suppress(Exception):
                self.proc.wait(timeout=2.0)


_SERVER: _Server | None = None
_SERVER_LOCK = threading.Lock()


def _spawn(analyst: bool = False) -> _Child:
    """Fork a child, (re)starting the zygote when needed; one retry if it had died."""
    for attempt in (1, 2):
        server = _ensure_server()
        try:
            return server.spawn(analyst)
        except OSError as e:
            _drop_server(server)
            if attempt == 2:
                raise PTCError("runtime", f"could not start an isolated process: {e}") from None
    raise AssertionError("unreachable")


def _ensure_server() -> _Server:
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is None or not _SERVER.alive():
            if _SERVER is not None and _SERVER.owner == os.getpid():
                _SERVER.stop()
            _SERVER = _Server()
        return _SERVER


def _drop_server(server: _Server) -> None:
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is server:
            _SERVER = None
    if server.owner == os.getpid():
        server.stop()


def start() -> None:
    """Start the isolation server now (otherwise the first isolated run pays ~0.3 s for it)."""
    _ensure_server()


def shutdown() -> None:
    """Stop the isolation server (it also stops by itself when the host process exits)."""
    global _SERVER
    with _SERVER_LOCK:
        server, _SERVER = _SERVER, None
    if server is not None and server.owner == os.getpid():
        server.stop()


_INHERITED: list[_Server] = []


def _forget_after_fork() -> None:
    """In a forked copy of the host: the zygote belongs to the parent; drop our copy of its socket."""
    global _SERVER, _SERVER_LOCK
    if _SERVER is not None:
        with contextlib.suppress(OSError):
            _SERVER.ctrl.close()
        _INHERITED.append(_SERVER)  # never finalized here (its Popen is the parent's)
    _SERVER, _SERVER_LOCK = None, threading.Lock()


atexit.register(shutdown)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


# -- the zygote -----------------------------------------------------------------------------


_WARM_PROGRAM = """
(defn f [{:keys [a b] :as m} & more] (when (and a (not b)) (-> m (assoc :c 1) (update :c inc))))
(def xs (->> data/rows (filter #(> (:n % 0) 1)) (map :n) (into [])))
(let [[p q] [1 2.5] s #{:k "s" nil} r #"a+\\d"] (cond (= p 1) (str p q) :else (re-find r "aa1")))
(loop [i 0 acc {}] (if (< i 3) (recur (inc i) (assoc acc i (* i i))) acc))
(for [x (range 3) :when (odd? x)] [x (tool/t {:x x})])
(doseq [x [1 2]] (println x))
(try (/ 1 0) (catch Exception e (ex-message e)) (finally nil))
(case *1 :a 1 "b" 2 3)
(fn [x] (if-let [y x] (some-> y inc) (or nil false)))
"""


def _warm_up() -> None:
    from ..analyzer import Names
    from ..inline import compile_program
    from ..registry import load_library

    load_library()
    compile_program(_WARM_PROGRAM, Names(frozenset(), frozenset(["rows"]), frozenset(["t"]), 1))
    compile_program.cache_clear()


def _import_table_modules() -> None:
    """What a run over a table imports, imported once here so that each child forked after
    it has it in memory instead of importing it inside its run's timeout: pyarrow.compute,
    the columnar kernels, and what pyarrow's first table conversion imports (it looks for
    pandas, importing it when installed: 0.45 s). An isolated filter over 100,000 rows took
    0.40 s, now 0.03 s. No kernel runs here, so the zygote starts no thread pool before it forks."""
    import pyarrow as pa
    import pyarrow.compute  # noqa: F401
    import pyarrow.ipc  # noqa: F401

    from ..columnar import derive, dispatch, expr, folds, frame, kernels, reduce  # noqa: F401

    pa.table({"x": [1]})


def _import_analyst_modules() -> None:
    """What the builtins of the analyst's library need (their entries' `needs`), imported once
    here for every child forked after it. Imports only: no numerical call starts a thread pool."""
    from ..registry import REGISTRY, prepare

    for b in list(REGISTRY.values()):
        if b.needs:
            prepare(b)


def _zygote_main(ctrl_fd: int, preload: str = "") -> None:
    """Serve fork requests until the host closes the control socket."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ctrl = socket.socket(fileno=ctrl_fd)
    _warm_up()
    if preload == "pyarrow":
        with contextlib.suppress(ImportError):
            _import_table_modules()
    gc.collect()
    gc.freeze()  # children do not dirty the inherited heap by collecting it
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: dict[int, int] = {}  # pid -> status pipe (write end)
    sel = selectors.DefaultSelector()
    sel.register(ctrl, selectors.EVENT_READ)
    sel.register(wake_r, selectors.EVENT_READ)
    ctrl.sendall(b"R")

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            fd = children.pop(pid, None)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.write(fd, _PID.pack(os.waitstatus_to_exitcode(status)))
                with contextlib.suppress(OSError):
                    os.close(fd)

    while True:
        for key, _ in sel.select():
            if key.fileobj == wake_r:
                with contextlib.suppress(OSError):
                    while os.read(wake_r, 512):
                        pass
                reap()
                continue
            try:
                msg, fds, _flags, _addr = socket.recv_fds(ctrl, 1, 2)
            except OSError:
                msg, fds = b"", []
            if not msg:  # the host is gone: so are its runs
                for pid in list(children):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                os._exit(0)
            if msg == b"T" and not fds:
                with contextlib.suppress(ImportError):
                    _import_table_modules()
                gc.freeze()
                continue
            if msg == b"A" and not fds:
                _import_analyst_modules()
                gc.freeze()
                continue
            if msg != b"F" or len(fds) != 2:
                for fd in fds:
                    os.close(fd)
                continue
            sock_fd, status_w = fds
            try:
                pid = os.fork()
            except OSError:
                pid = -1
            if pid == 0:
                code = _EXIT_INTERNAL
                try:
                    keep = {0, 1, 2, sock_fd}
                    for fd in (ctrl.fileno(), wake_r, wake_w, status_w, sel.fileno(), *children.values()):
                        if fd not in keep:
                            with contextlib.suppress(OSError):
                                os.close(fd)
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    code = _child_main(sock_fd)
                finally:
                    os._exit(code)
            os.close(sock_fd)
            pidfd_list: list[int] = []
            if pid > 0:
                children[pid] = status_w
                with contextlib.suppress(OSError, AttributeError):
                    pidfd_list.append(os.pidfd_open(pid))
            else:
                os.close(status_w)
            try:
                socket.send_fds(ctrl, [_PID.pack(pid)], pidfd_list)
            except OSError:
                pass
            for fd in pidfd_list:
                os.close(fd)


