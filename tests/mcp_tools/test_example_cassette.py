"""examples/mcp/record.py records the cassette docs/tools.md replays, and it is up to date."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mcp"


def requests(path: Path) -> list[object]:
    return [json.loads(line)["request"] for line in path.read_text().splitlines() if line.strip()]


def test_the_committed_cassette_is_what_record_py_records(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("record_mcp_example", EXAMPLE / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    step = module.record(tmp_path / "inventory.jsonl")
    assert step.ok and step.value == {"lowest": "Headphones", "restock-cost": 848.0}
    assert requests(tmp_path / "inventory.jsonl") == requests(EXAMPLE / "inventory.jsonl"), \
        "the prompt changed: re-record with `python examples/mcp/record.py`"
