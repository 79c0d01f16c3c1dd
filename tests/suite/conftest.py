"""Fixtures for the suite tests: small suites written to tmp_path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

TIMING = ("duration", "wall", "run_id", "finished_at", "executor")

COUNT_REPLY = 'Counting.\n\n```clojure\n(return {:count (count (tool/search-products {:query "" :limit 100}))})\n```'
SUM_REPLIES = [
    "Looking first.\n\n```clojure\n(def xs data/numbers)\n(println (count xs))\n```",
    "Now the sum.\n\n```clojure\n(return {:total (reduce + xs) :items (count xs)})\n```",
]


def tiny_suite_dict(**overrides: Any) -> dict[str, Any]:
    suite = {
        "name": "tiny",
        "defaults": {"max_turns": 4, "tools": ["ptc.examples.tools:analysis_tools"]},
        "missions": [
            {"id": "count", "prompt": "How many products are there?", "signature": "{count :int}",
             "checks": [{"path": "count", "equals": 60}], "script": [COUNT_REPLY]},
            {"id": "sum", "prompt": "Sum the numbers.", "tools": [], "data": {"numbers": [1, 2, 3, 4]},
             "checks": [{"path": "total", "equals": 10}, {"has_keys": ["total", "items"]}], "script": SUM_REPLIES},
            {"id": "wrong", "prompt": "How many products are there? (the script gets it wrong)",
             "checks": [{"path": "count", "equals": 61}], "script": [COUNT_REPLY]},
        ],
    }
    suite.update(overrides)
    return suite


def write_suite(directory: Path, suite: dict[str, Any] | None = None, name: str = "suite.json") -> Path:
    path = directory / name
    path.write_text(json.dumps(suite if suite is not None else tiny_suite_dict(), indent=1), encoding="utf-8")
    return path


def stable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without timing fields, in a stable order (for equality across runs)."""
    out = [{k: v for k, v in r.items() if k not in TIMING} for r in records]
    return sorted(out, key=lambda r: (r["mission"], r["model"], r["strategy"], r["run"]))


@pytest.fixture
def tiny(tmp_path: Path):
    from ptc.suite import load_suite

    return load_suite(write_suite(tmp_path))
