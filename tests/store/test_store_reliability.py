"""Crash safety and concurrent writers.

A child process appending in a loop is SIGKILLed at a random moment; the store must open
cleanly with every committed message present, contiguous seqs and nothing half-written.
Several threads and processes appending to one session must never share a seq.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ptc.store import Block, Store

WRITER = Path(__file__).with_name("writer.py")
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and fork semantics are POSIX")


def spawn(url: str, sid: str, tag: str, count: int | None = None, hang_at: int | None = None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    args = [sys.executable, str(WRITER), url, sid, tag, str(count or 0)] + ([str(hang_at)] if hang_at else [])
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def check_log(store: Store, sid: str) -> list:
    """Contiguous seqs, every message whole (two blocks, content = its text block), counters right."""
    log = list(store.iter_messages(sid, chunk=500))
    assert [m.seq for m in log] == list(range(1, len(log) + 1))
    for m in log:
        assert [b.type for b in m.blocks] == ["text", "code"], m
        assert m.content == m.blocks[0].content
    session = store.get_session(sid)
    assert session.next_seq == len(log) + 1
    assert session.token_count == sum(m.token_count for m in log if m.status == 0)
    if store.dialect == "sqlite":
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    return log


@pytest.mark.timeout(120)
def test_sigkill_mid_run_leaves_a_clean_store(make_url, persistent_backend) -> None:
    url = make_url(persistent_backend)
    with Store(url) as s:
        sid = s.create_session("crash").id
    rng = random.Random(7)
    committed = 0
    # rounds 0 and 2 are killed at a random moment; round 1 while it is inside a transaction
    for round_ in range(3):
        inside = round_ == 1
        target = rng.randint(40, 120)
        child = spawn(url, sid, f"r{round_}", hang_at=target if inside else None)
        try:
            assert child.stdout is not None
            seen = 0
            for line in child.stdout:
                if line.startswith("committed "):
                    committed = max(committed, int(line.split()[1]))
                    seen += 1
                    if not inside and seen >= target:
                        break
                elif line.strip() == "inside":
                    break
            assert seen >= target, child.stderr.read() if child.stderr else ""
            if not inside:
                time.sleep(rng.random() * 0.01)  # land somewhere inside the next transaction(s)
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=10)
            assert child.returncode == -signal.SIGKILL
        finally:
            if child.poll() is None:
                child.kill()
            child.communicate(timeout=10)  # reap it and close the pipes
        with Store(url) as s:
            log = check_log(s, sid)
            assert len(log) >= committed  # every commit the child reported is there
            if inside:  # the transaction killed mid-way left no trace, not even a used seq
                assert len(log) == committed
                assert not any("uncommitted" in (m.content or "") for m in log)
            committed = len(log)
            again = s.append(sid, "user", [Block("text", "after the crash"), Block("code", "(ok)")])
            assert again.seq == len(log) + 1
            committed = again.seq


@pytest.mark.timeout(120)
def test_threads_never_share_a_seq(store: Store) -> None:
    sid = store.create_session("threads").id
    errors: list[BaseException] = []

    def work(tag: int) -> None:
        try:
            for i in range(30):
                if i % 3 == 0:
                    store.append_many(sid, [dict(role="user", blocks=[Block("text", f"t{tag}-{i}.{k}"),
                                                                      Block("code", "(b)")]) for k in range(2)])
                else:
                    store.append(sid, "user", [Block("text", f"t{tag}-{i}"), Block("code", "(s)")])
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    log = check_log(store, sid)
    assert len(log) == 8 * (20 + 10 * 2)
    assert len({m.content for m in log}) == len(log)
    # each thread's messages are in the order it wrote them; a batch is contiguous
    for n in range(8):
        mine = [m for m in log if m.content.startswith(f"t{n}-")]
        assert [m.seq for m in mine] == sorted(m.seq for m in mine)
        for i in range(0, 30, 3):
            a, b = (m.seq for m in mine if m.content.startswith(f"t{n}-{i}."))
            assert b == a + 1


@pytest.mark.timeout(180)
def test_processes_and_threads_never_share_a_seq(make_url, persistent_backend) -> None:
    url = make_url(persistent_backend)
    with Store(url) as store:
        sid = store.create_session("processes").id
        children = [spawn(url, sid, f"p{n}", count=120) for n in range(2)]
        errors: list[BaseException] = []

        def work(tag: int) -> None:
            try:
                for i in range(60):
                    store.append(sid, "user", [Block("text", f"t{tag}-{i}"), Block("code", "(t)")])
            except BaseException as e:  # noqa: BLE001
                errors.append(e)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(2)]
        for t in threads:
            t.start()
        outputs = [c.communicate(timeout=150) for c in children]
        for t in threads:
            t.join()
        for child, (_out, err) in zip(children, outputs):
            assert child.returncode == 0, err
        assert not errors, errors
        log = check_log(store, sid)
        per_child = 60 + 60 * 3
        assert len(log) == 2 * per_child + 2 * 60
        assert len({m.content for m in log}) == len(log)
