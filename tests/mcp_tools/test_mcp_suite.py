"""`mcp:` in suite files: missions get an MCP server's tools (a real server process)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from ptc.suite import load_suite
from ptc.suite.runner import read_results, run_suite
from ptc.suite.spec import SuiteError

from .conftest import SERVER, ServerProcesses

PROGRAM = '(return (tool/order-total {:order-ids (mapv :id (tool/list-orders {:region "north"}))}))'


def test_a_suite_mission_with_an_mcp_server(tmp_path: Path, servers: ServerProcesses) -> None:
    shutil.copy(SERVER, tmp_path / "orders_server.py")  # a command line runs in the suite file's directory
    suite = {
        "name": "mcp",
        "defaults": {"mcp": [{"command": [sys.executable, "orders_server.py"], "env": servers.env}]},
        "missions": [
            {"id": "north", "prompt": "What did the north region sell?", "signature": "{count :int, total :float}",
             "checks": [{"path": "total", "equals": 162.75}], "script": [f"```clojure\n{PROGRAM}\n```"]},
            {"id": "no-server", "prompt": "Add 1 and 2.", "mcp": [], "script": ["```clojure\n(return (+ 1 2))\n```"],
             "checks": [{"equals": 3}]},
        ],
    }
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(suite))
    results = tmp_path / "r.jsonl"
    summary = run_suite(load_suite(path), models=["scripted"], strategies=["none"], results=results)
    assert (summary.ran, summary.passed) == (2, 2), read_results(results)
    assert len(servers.pids()) == 2 and servers.alive() == []  # listing and run, for the one mission using it


def test_bad_mcp_entries_are_suite_problems(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    path.write_text(json.dumps({"name": "bad", "missions": [
        {"id": "a", "prompt": "x", "mcp": ["python 'unclosed"]},
        {"id": "b", "prompt": "x", "mcp": [{"url": "ftp://host/mcp"}]},
    ]}))
    with pytest.raises(SuiteError) as e:
        load_suite(path)
    text = str(e.value)
    assert "cannot split the MCP server command" in text and "must start with http:// or https://" in text
