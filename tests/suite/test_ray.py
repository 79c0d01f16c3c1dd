"""The Ray executor gives the same results as the local one (skipped without ray)."""

from __future__ import annotations

import pytest

from .conftest import stable

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


@pytest.mark.timeout(180)
def test_ray_matches_local(local_ray, tmp_path):
    from ptc.store import Store
    from ptc.suite.bundled import CASSETTES, load
    from ptc.suite.runner import read_results, run_suite

    suite = load()
    missions = ["refund-rate", "recover-key", "restock-email", "travel-by-department", "cfo-team", "tenure"]
    kw = dict(strategies=["none", "coalesced"], replay=CASSETTES, missions=missions, concurrency=4)
    local = run_suite(suite, results=tmp_path / "local.jsonl", **kw)
    store = Store(":memory:")
    remote = run_suite(suite, executor="ray", results=tmp_path / "ray.jsonl", store=store, **kw)
    assert remote.ran == local.ran == 12 and remote.passed == 12
    assert {r["executor"] for r in read_results(tmp_path / "ray.jsonl")} == {"ray"}
    assert stable(remote.records) == stable(local.records)
    assert len(store.list_runs(remote.session_id)) == 12


@pytest.mark.timeout(180)
def test_ray_records_cassettes_in_the_driver(local_ray, tmp_path, tiny):
    from ptc.suite.runner import run_suite

    recorded = run_suite(tiny, executor="ray", record=tmp_path / "c", missions=["sum"])
    assert recorded.records[0]["passed"]
    replayed = run_suite(tiny, replay=tmp_path / "c", missions=["sum"])
    assert stable(replayed.records) == stable(recorded.records)
