"""Rendering a checked spec in a child process, so that a renderer crash is an error.

vl-convert runs Vega in V8 inside the process that calls it: text it cannot put in SVG makes
it panic (SIGABRT), a huge canvas exhausts V8's heap (a fatal abort) or the host's memory.
Whatever the spec check misses, the host must survive, so rendering happens in a worker
process: started on first use with a scrubbed environment, kept warm between renders (V8
takes a second to start), watched while it renders (resident memory read every 50 ms,
a wall-clock deadline) and killed past either bound. A worker that died or was killed is
replaced by the next render. The request and reply cross a pipe as length-prefixed frames.
What the worker sends back references nothing outside itself (output.py): the SVG is rebuilt
from its checked parse, and the PNG drawn from that SVG.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import threading
import time
from typing import Any

from .spec import ChartError

RENDER_TIMEOUT = 30.0  # seconds one render may take
RENDER_MEMORY = 2 << 30  # resident bytes the renderer may reach while it renders
_POLL = 0.05
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
# characters that XML (so SVG) cannot hold: vl-convert aborts on them
_NON_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

_LOCK = threading.Lock()
_WORKER: subprocess.Popen[bytes] | None = None


def xml_safe(x: Any) -> Any:
    """x with the characters SVG cannot hold removed from every string (keys included)."""
    if isinstance(x, str):
        return _NON_XML.sub("", x)
    if isinstance(x, dict):
        return {xml_safe(k): xml_safe(v) for k, v in x.items()}
    if isinstance(x, list):
        return [xml_safe(v) for v in x]
    return x


def render(spec: dict[str, Any], fmt: str, scale: float = 1.0, version: str | None = None) -> bytes:
    """The spec rendered as SVG text (UTF-8) or PNG bytes, by the worker; ChartError when the
    renderer fails, dies, or passes RENDER_TIMEOUT or RENDER_MEMORY."""
    request = json.dumps({"spec": xml_safe(spec), "format": fmt, "scale": scale, "version": version}).encode()
    with _LOCK:
        worker = _worker()
        try:
            _write(worker, request)
            status, body = _read(worker)
        except BaseException:
            _kill(worker)
            raise
    if status == b"E":
        raise ChartError(f"the renderer refused the chart: {body.decode('utf-8', 'replace')[:300]}")
    return body


def _worker() -> subprocess.Popen[bytes]:
    global _WORKER
    if _WORKER is None or _WORKER.poll() is not None:
        # -I leaves out the environment and the user's site: the host's sys.path finds ptc and vl-convert
        paths = json.dumps([os.path.abspath(p or os.getcwd()) for p in sys.path])
        boot = ("import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
                "from ptc.charts.render import worker_main; worker_main()")
        _WORKER = subprocess.Popen(
            [sys.executable, "-I", "-c", boot, paths], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env={"PATH": os.defpath, "PYTHONUTF8": "1"}, cwd="/",
            start_new_session=True)
    return _WORKER


def _kill(worker: subprocess.Popen[bytes]) -> None:
    global _WORKER
    if worker.poll() is None:
        worker.kill()
    worker.wait()
    if _WORKER is worker:
        _WORKER = None


def _write(worker: subprocess.Popen[bytes], payload: bytes) -> None:
    assert worker.stdin is not None
    try:
        worker.stdin.write(len(payload).to_bytes(8, "big") + payload)
        worker.stdin.flush()
    except (BrokenPipeError, OSError):
        raise _died(worker) from None


def _read(worker: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """One reply frame, watching the worker's time and memory while it comes."""
    assert worker.stdout is not None
    fd = worker.stdout.fileno()
    buf = bytearray()
    need = 8
    deadline = time.monotonic() + RENDER_TIMEOUT
    while True:
        if len(buf) >= need:
            if need == 8:
                need = 8 + int.from_bytes(buf[:8], "big")
                continue
            return bytes(buf[8:9]), bytes(buf[9:need])
        if _resident(worker.pid) > RENDER_MEMORY:
            _kill(worker)
            raise ChartError(f"the chart needs more than {RENDER_MEMORY >> 20} MB to render: "
                             "make it smaller (width, height, rows, facets)")
        if time.monotonic() >= deadline:
            _kill(worker)
            raise ChartError(f"the chart took more than {RENDER_TIMEOUT:g} s to render: "
                             "make it smaller (width, height, rows, facets)")
        ready, _, _ = select.select([fd], [], [], _POLL)
        if ready:
            chunk = os.read(fd, max(need - len(buf), 1 << 16))
            if not chunk:
                raise _died(worker)
            buf += chunk


def _died(worker: subprocess.Popen[bytes]) -> ChartError:
    _kill(worker)
    code = worker.returncode
    how = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
    return ChartError(f"the chart renderer crashed ({how}) on this chart: it was not drawn")


def _resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def worker_main() -> None:
    """The worker: renders one request frame after another until its input closes."""
    proto = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever the renderer prints goes to stderr, never into a reply
    source = sys.stdin.buffer
    import vl_convert

    from .output import self_contained_svg

    while True:
        head = source.read(8)
        if len(head) < 8:
            return
        req = json.loads(source.read(int.from_bytes(head, "big")))
        kw = {"vl_version": req["version"]} if req.get("version") else {}
        try:
            # no base URL allowed: the renderer loads nothing; the PNG is drawn from the checked SVG
            svg = self_contained_svg(vl_convert.vegalite_to_svg(req["spec"], allowed_base_urls=[], **kw))
            if req["format"] == "svg":
                body = b"S" + svg.encode()
            else:
                body = b"P" + bytes(vl_convert.svg_to_png(svg, scale=req["scale"]))
        except Exception as e:  # noqa: BLE001 - the renderer's own refusal, reported as text
            body = b"E" + f"{type(e).__name__}: {e}".encode()[:2000]
        proto.write(len(body).to_bytes(8, "big") + body)
        proto.flush()
