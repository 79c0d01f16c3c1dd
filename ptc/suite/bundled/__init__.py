"""The bundled suite: 26 missions over the example datasets, with committed cassettes.

The cassettes hold every request the agent sent and the reply it got, recorded from the
missions' scripted replies (`script`) for model "scripted" under the "none" and
"coalesced" strategies, so the suite replays offline and in CI:

    ptc suite run bundled --replay bundled --compression none,coalesced

Replaying also checks that ptc still sends exactly the same prompts. After a change to the
prompts (the system prompt, a tool docstring, the feedback format) or to a script,
re-record with

    python -m ptc.suite.bundled
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SUITE_PATH = HERE / "suite.yaml"
CASSETTES = HERE / "cassettes"
MODEL = "scripted"
STRATEGIES = ("none", "coalesced")


def load() -> Any:
    from ..spec import load_suite

    return load_suite(SUITE_PATH)


def record(*, concurrency: int = 8) -> list[dict[str, Any]]:
    """Re-record every cassette from the scripts (old cassettes are removed first); raises
    when a mission does not pass its checks while recording."""
    from ..runner import run_suite

    suite = load()
    CASSETTES.mkdir(parents=True, exist_ok=True)
    for old in CASSETTES.glob("*.jsonl"):
        old.unlink()
    summary = run_suite(suite, models=[MODEL], strategies=list(STRATEGIES), concurrency=concurrency,
                        record=CASSETTES, results=None, store=None)
    failed = [r for r in summary.records if not r["passed"]]
    if failed:
        lines = [f"{r['mission']} / {r['strategy']}: {'; '.join(r['failures'])}" for r in failed]
        raise RuntimeError("missions failed while recording:\n  " + "\n  ".join(lines))
    return summary.records
