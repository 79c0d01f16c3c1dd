"""The CI gate: the bundled suite passes 100% offline, replayed from its committed cassettes,
under both compression strategies. A failure here after a prompt change means the cassettes
must be re-recorded: python -m ptc.suite.bundled"""

from __future__ import annotations

from ptc.suite.bundled import CASSETTES, MODEL, STRATEGIES, load
from ptc.suite.execute import cassette_name
from ptc.suite.runner import run_suite


def test_bundled_suite_shape():
    suite = load()
    assert len(suite.missions) >= 20
    for m in suite.missions:
        assert m.script, m.id
        assert m.all_checks, m.id
        for strategy in STRATEGIES:
            assert (CASSETTES / cassette_name(m.id, MODEL, strategy)).is_file(), (m.id, strategy)
    datasets = {d for m in suite.missions for d in (m.tags or [])}
    assert {"products", "orders", "employees", "expenses", "actions", "recovery"} <= datasets


def test_bundled_suite_passes_in_replay_mode(tmp_path):
    suite = load()
    summary = run_suite(suite, models=[MODEL], strategies=list(STRATEGIES), replay=CASSETTES, concurrency=8,
                        results=tmp_path / "results.jsonl")
    failed = [f"{r['mission']} / {r['strategy']}: {r['error_kind']}: {'; '.join(r['failures'])}"
              for r in summary.records if not r["passed"]]
    assert not failed, ("bundled missions failed in replay (after a prompt change, re-record with "
                        "`python -m ptc.suite.bundled`):\n" + "\n".join(failed))
    assert summary.ran == 2 * len(suite.missions)
    # recovery missions really recover: their first turn fails
    recover = [r for r in summary.records if r["mission"].startswith("recover-")]
    assert recover and all(r["turns"] == 2 for r in recover)
