"""Mission suites: run many missions against models and compression strategies, judge each
result with checks, and report pass rates, turns, tokens and cost.

    from ptc.suite import load_suite, run_suite
    suite = load_suite("my-suite.yaml")
    summary = run_suite(suite, models=["openai/gpt-4o-mini"], strategies=["none", "coalesced"],
                        runs=3, concurrency=8, results="results.jsonl")

The CLI: `ptc suite run`, `ptc suite report`, `ptc suite validate` (docs/suites.md).
Submodules are imported on use.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "Suite": "ptc.suite.spec", "Mission": "ptc.suite.spec", "Check": "ptc.suite.spec", "SuiteError": "ptc.suite.spec",
    "load_suite": "ptc.suite.spec", "parse_suite": "ptc.suite.spec",
    "run_suite": "ptc.suite.runner", "plan": "ptc.suite.runner", "read_results": "ptc.suite.runner",
    "RunSummary": "ptc.suite.runner", "PlanError": "ptc.suite.runner",
    "ExecSpec": "ptc.suite.execute", "execute": "ptc.suite.execute", "cassette_name": "ptc.suite.execute",
    "summarize": "ptc.suite.report", "write_html": "ptc.suite.report",
    "judge": "ptc.suite.checks",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ptc.suite' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
