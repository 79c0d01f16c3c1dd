"""Paused runs kept in a store (SQLite, and PostgreSQL when PTC_TEST_POSTGRES_URL is set):
saved, loaded and resumed here, and paused in one process then resumed in another, which
gives what the uninterrupted run gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ptc
from ptc.store import NotFound, Store

from .conftest import PERSISTENT

PAUSER = Path(__file__).with_name("pauser.py")
ROOT = Path(__file__).resolve().parents[2]


def pauser(*args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, str(PAUSER), *args], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@ptc.tool(approval=True)
def send(to: str) -> str:
    "Send a message."
    return f"sent to {to}"


def test_saved_loaded_resumed(store):
    r = ptc.run('(str (tool/send {:to "ann"}) "!")', tools=[send], limits=ptc.Limits(seed=7))
    key = store.save_paused(r.paused)
    loaded = store.load_paused(key)
    assert loaded == r.paused
    assert loaded.pending.tool == "send" and loaded.pending.args == {"to": "ann"}
    assert loaded.resume(ptc.Answer.approve(), tools=[send]).value == "sent to ann!"
    store.save_paused(r.paused.__class__(**{**r.paused.__dict__, "context": {"turn": 2}}), key)  # replaced
    assert store.load_paused(key).context == {"turn": 2}
    assert store.delete_paused(key) is True and store.delete_paused(key) is False
    with pytest.raises(NotFound, match="no paused run"):
        store.load_paused(key)


@pytest.mark.parametrize("backend", PERSISTENT)
@pytest.mark.parametrize("answer", ["approve", "reject"])
def test_paused_in_one_process_resumed_in_another(backend, answer, make_url):
    url = make_url(backend)
    Store(url).close()  # the schema exists before two processes open the store
    pending = pauser("pause", url, "refund-1")
    assert pending["tool"] == "refund" and pending["args"] == {"order": "b", "amount": 500}
    assert (pending["line"], pending["column"]) == (6, 22)
    resumed = pauser("resume", url, "refund-1", answer)
    whole = pauser("whole", json.dumps([pending["seed"], pending["clock"]]))
    refunds = {r["order"]: r for r in resumed["value"]["refunds"]}
    if answer == "approve":  # the same answer as the run that was never paused: order, draws, clock
        assert resumed == whole
        assert refunds["b"] == {"order": "b", "refunded": 500}
    else:
        assert refunds["b"] == {"order": "b", "error": "tool/refund was rejected: not today"}
        assert {k: r for k, r in refunds.items() if k != "b"} == \
            {r["order"]: r for r in whole["value"]["refunds"] if r["order"] != "b"}
        assert resumed["value"]["draw"] == whole["value"]["draw"]
