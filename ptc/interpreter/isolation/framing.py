"""The protocol between the host and a child: its tuning (grace, headroom, sizes), the exit
codes a child reports by, and length-prefixed frames on a socket, read and written by a
deadline, capped in size."""


from __future__ import annotations

import socket
import struct
import time




GRACE_BASE = 0.5  # seconds the host waits past the timeout before killing the child
GRACE_FACTOR = 0.1  # ... plus this fraction of the timeout
AS_HEADROOM = 128 * 1024 * 1024  # address space above the child's size at start, plus 2*max_memory
MESSAGE_SLACK = 64 * 1024 * 1024  # the largest message the host accepts: 2*max_memory + inputs + this
# The inputs' trip to the child (sent, read, unpickled) is not on the run's clock, but has one of its
# own: timeout + grace, plus a second for each TRANSFER_RATE bytes sent (a 10M-row table of two
# numeric columns, 160 MB, crosses in about 0.5 s; it is allowed 1.6 + 2.5 s at timeout=1).
TRANSFER_RATE = 64 * 1024 * 1024
START_TIMEOUT = 60.0  # seconds to start the zygote (imports the interpreter)
SPAWN_TIMEOUT = 10.0  # seconds for the zygote to fork a child

_HDR = struct.Struct("!Q")
_PID = struct.Struct("!q")
_EXIT_INTERNAL = 70  # the child failed outside the program and could not report it
_EXIT_MEMORY = 71  # the child ran out of memory and could not report it

class _Timeout(Exception):
    pass


class _ChildGone(Exception):
    pass


class _TooLarge(Exception):
    pass


# -- framing --------------------------------------------------------------------------------


_NOSIGNAL = getattr(socket, "MSG_NOSIGNAL", 0)  # a dead peer is EPIPE, never SIGPIPE, whatever the host set


def _send(sock: socket.socket, payload: bytes | memoryview, deadline: float | None = None) -> None:
    """Send one frame; with a deadline (host side) a peer that stops reading is a _Timeout."""
    view = memoryview(_HDR.pack(len(payload)) + payload if len(payload) < 65536 else payload)
    if len(payload) >= 65536:
        _send_all(sock, memoryview(_HDR.pack(len(payload))), deadline)
    _send_all(sock, view, deadline)


def _wait_until(sock: socket.socket, deadline: float | None) -> None:
    """The socket's next send or receive waits no later than the deadline (_Timeout if past)."""
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Timeout()
        sock.settimeout(left)


def _send_all(sock: socket.socket, view: memoryview, deadline: float | None) -> None:
    while view:
        _wait_until(sock, deadline)
        try:
            n = sock.send(view, _NOSIGNAL)
        except socket.timeout:
            raise _Timeout() from None
        except OSError as e:
            raise _ChildGone(str(e)) from None
        view = view[n:]


def _recv_exact(sock: socket.socket, n: int, deadline: float | None) -> bytearray:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        _wait_until(sock, deadline)
        try:
            k = sock.recv_into(view[got:], n - got)
        except socket.timeout:
            raise _Timeout() from None
        except OSError as e:
            raise _ChildGone(str(e)) from None
        if k == 0:
            raise _ChildGone("connection closed")
        got += k
    return buf  # not copied to bytes: pickle reads a bytearray as it is


def _send_parts(sock: socket.socket, payload: bytes | memoryview, buffers: list[memoryview],
                deadline: float | None = None) -> None:
    """Send a pickle and its out-of-band buffers (a table's Arrow stream, not copied into the
    pickle): a frame holding how many buffers follow, the pickle's frame, then one per buffer."""
    _send(sock, _HDR.pack(len(buffers)), deadline)
    _send(sock, payload, deadline)
    for buf in buffers:
        _send(sock, buf, deadline)


def _recv_parts(sock: socket.socket) -> tuple[bytearray, list[bytearray]]:
    """What _send_parts sent: the pickle and its buffers (child side: the host is trusted)."""
    (count,) = _HDR.unpack(_recv(sock))
    payload = _recv(sock)
    return payload, [_recv(sock) for _ in range(count)]


MAX_PARTS = 1 << 16  # out-of-band buffers one message may have (a table each)


def _recv_parts_capped(sock: socket.socket, deadline: float, cap: int) -> tuple[bytearray, list[bytearray]]:
    """What _send_parts sent, from the (untrusted) child: by the deadline, at most cap bytes in all."""
    (count,) = _HDR.unpack(_recv(sock, deadline, _HDR.size))
    if count > MAX_PARTS:
        raise _TooLarge(count)
    payload = _recv(sock, deadline, cap)
    left = cap - len(payload)
    buffers = []
    for _ in range(count):
        buffers.append(_recv(sock, deadline, left))
        left -= len(buffers[-1])
    return payload, buffers


def _recv(sock: socket.socket, deadline: float | None = None, cap: int | None = None) -> bytearray:
    (n,) = _HDR.unpack(_recv_exact(sock, _HDR.size, deadline))
    if cap is not None and n > cap:
        raise _TooLarge(n)
    return _recv_exact(sock, n, deadline)


