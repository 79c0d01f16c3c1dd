"""Running suites: record/replay, resume, concurrency, the store, planning errors."""

from __future__ import annotations

import json

import pytest

from ptc.suite.execute import cassette_name, strategy_name
from ptc.suite.runner import PlanError, plan, read_results, run_suite

from .conftest import stable, tiny_suite_dict, write_suite


def test_scripted_run_records_every_field(tiny, tmp_path):
    results = tmp_path / "r.jsonl"
    summary = run_suite(tiny, models=["scripted"], strategies=["none"], results=results)
    assert (summary.planned, summary.skipped, summary.ran, summary.passed) == (3, 0, 3, 2)
    records = {r["mission"]: r for r in read_results(results)}
    ok = records["sum"]
    assert ok["passed"] and ok["ok"] and ok["failures"] == [] and ok["error_kind"] is None
    assert ok["turns"] == 2 and ok["llm_calls"] == 2
    assert ok["prompt_tokens"] > 0 and ok["completion_tokens"] > 0
    assert ok["value"] == {"total": 10, "items": 4}
    assert (ok["suite"], ok["model"], ok["strategy"], ok["run"]) == ("tiny", "scripted", "none", 0)
    bad = records["wrong"]
    assert not bad["passed"] and bad["ok"] and bad["error_kind"] == "check"
    assert bad["failures"] == ["equals at count: expected 61, got 60"]


def test_record_then_replay_gives_the_same_results(tiny, tmp_path):
    cassettes = tmp_path / "cassettes"
    recorded = run_suite(tiny, models=["scripted"], strategies=["none", "coalesced"], record=cassettes)
    names = sorted(p.name for p in cassettes.iterdir())
    assert names == sorted(cassette_name(m, "scripted", s) for m in ("count", "sum", "wrong")
                           for s in ("none", "coalesced"))
    replayed = run_suite(tiny, models=["scripted"], strategies=["none", "coalesced"], replay=cassettes)
    assert stable(replayed.records) == stable(recorded.records)


def test_replay_mismatch_is_a_replay_error(tiny, tmp_path):
    cassettes = tmp_path / "c"
    run_suite(tiny, models=["scripted"], strategies=["none"], record=cassettes, missions=["count"])
    # the coalesced prompts differ from the recorded full-history ones
    (cassettes / cassette_name("count", "scripted", "coalesced")).write_bytes(
        (cassettes / cassette_name("count", "scripted", "none")).read_bytes())
    summary = run_suite(tiny, models=["scripted"], strategies=["coalesced"], replay=cassettes, missions=["count"])
    [rec] = summary.records
    assert not rec["passed"] and rec["error_kind"] == "replay"
    assert "not in cassette" in rec["error"]


def test_later_runs_replay_the_first_runs_cassette(tiny, tmp_path):
    cassettes = tmp_path / "c"
    run_suite(tiny, models=["scripted"], strategies=["none"], record=cassettes, missions=["sum"])
    summary = run_suite(tiny, models=["scripted"], strategies=["none"], replay=cassettes, missions=["sum"], runs=3)
    assert sorted(r["run"] for r in summary.records) == [0, 1, 2]
    assert all(r["passed"] for r in summary.records)


def test_recording_several_runs_writes_one_cassette_per_run(tiny, tmp_path):
    cassettes = tmp_path / "c"
    run_suite(tiny, models=["scripted"], strategies=["none"], record=cassettes, missions=["sum"], runs=2)
    assert sorted(p.name for p in cassettes.iterdir()) == ["sum__scripted__none.jsonl", "sum__scripted__none__r1.jsonl"]


def test_resume_after_interruption(tiny, tmp_path):
    results = tmp_path / "r.jsonl"
    first = run_suite(tiny, models=["scripted"], strategies=["none", "coalesced"], results=results,
                      missions=["count"])
    assert first.ran == 2
    # an interrupted write leaves half a line behind
    with open(results, "a", encoding="utf-8") as f:
        f.write('{"suite": "tiny", "mission": "sum", "mod')
    second = run_suite(tiny, models=["scripted"], strategies=["none", "coalesced"], results=results)
    assert (second.planned, second.skipped, second.ran) == (6, 2, 4)
    assert {r["mission"] for r in second.records} == {"sum", "wrong"}
    records = read_results(results)
    keys = [(r["mission"], r["strategy"], r["run"]) for r in records]
    assert len(keys) == len(set(keys)) == 6
    lines = results.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and all(json.loads(line) for line in lines)
    third = run_suite(tiny, models=["scripted"], strategies=["none", "coalesced"], results=results)
    assert (third.skipped, third.ran) == (6, 0)


def test_retry_errors_reruns_crashed_executions(tiny, tmp_path):
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"suite": "tiny", "mission": "count", "model": "scripted", "strategy": "none",
                                   "run": 0, "passed": False, "error_kind": "llm"}) + "\n", encoding="utf-8")
    assert run_suite(tiny, results=results, missions=["count"]).ran == 0
    again = run_suite(tiny, results=results, missions=["count"], retry_errors=True)
    assert again.ran == 1 and again.records[0]["passed"]


def test_concurrency_1_and_4_give_the_same_results(tmp_path):
    from ptc.suite.bundled import CASSETTES, load

    suite = load()
    subset = [m.id for m in suite.missions[:10]]
    one = run_suite(suite, strategies=["none", "coalesced"], replay=CASSETTES, missions=subset, concurrency=1)
    four = run_suite(suite, strategies=["none", "coalesced"], replay=CASSETTES, missions=subset, concurrency=4)
    assert one.ran == four.ran == 20
    assert stable(one.records) == stable(four.records)


def test_results_go_to_the_store(tiny, tmp_path):
    from ptc.store import Store

    store = Store(":memory:")
    summary = run_suite(tiny, strategies=["none"], results=tmp_path / "r.jsonl", store=store)
    session = store.get_session(summary.session_id)
    assert session.mode == "suite" and "tiny" in session.title
    runs = {r.meta["mission"]: r for r in store.list_runs(summary.session_id)}
    assert set(runs) == {"count", "sum", "wrong"}
    assert runs["sum"].status == "ok" and runs["wrong"].status == "failed"
    assert runs["sum"].mission == "Sum the numbers."
    assert runs["wrong"].outcome["failures"] == ["equals at count: expected 61, got 60"]
    loaded = store.load_run(runs["sum"].id)
    assert [t["number"] for t in loaded.turns] == [1, 2]
    assert {r["run_id"] for r in read_results(tmp_path / "r.jsonl")} == {r.id for r in runs.values()}


def test_a_crashing_execution_is_recorded_not_raised(tmp_path):
    from ptc.suite import load_suite

    (tmp_path / "numbers.json").write_text('{"numbers": [1, 2, 3, 4]}', encoding="utf-8")
    raw = tiny_suite_dict()
    raw["missions"][1]["data"] = "numbers.json"
    suite = load_suite(write_suite(tmp_path, raw))
    (tmp_path / "numbers.json").unlink()  # gone between loading and running
    summary = run_suite(suite, strategies=["none"], results=tmp_path / "r.jsonl")
    records = {r["mission"]: r for r in summary.records}
    assert records["count"]["passed"]
    crash = records["sum"]
    assert not crash["passed"] and crash["error_kind"] == "exception"
    assert "numbers.json: no such file" in crash["error"] and crash["failures"][0].startswith("the execution crashed")


def test_plan_errors(tiny, tmp_path):
    with pytest.raises(PlanError, match="no cassette"):
        plan(tiny, models=["scripted"], strategies=["none"], replay=tmp_path)
    with pytest.raises(PlanError, match="exclude each other"):
        plan(tiny, models=["scripted"], strategies=["none"], replay=tmp_path, record=tmp_path)
    with pytest.raises(PlanError, match="unknown compression strategy"):
        plan(tiny, models=["scripted"], strategies=["zip"])
    with pytest.raises(PlanError, match="no mission"):
        plan(tiny, models=["scripted"], strategies=["none"], missions=["nope"])
    raw = tiny_suite_dict()
    del raw["missions"][0]["script"]
    from ptc.suite import load_suite

    suite = load_suite(write_suite(tmp_path, raw))
    with pytest.raises(PlanError, match="has no script"):
        plan(suite, models=["scripted"], strategies=["none"])
    specs = plan(tiny, models=["scripted", "m/x"], strategies=["full", "suc", "coalesced"], runs=2)
    assert len(specs) == 3 * 2 * 2 * 2
    assert {s.strategy for s in specs} == {"none", "coalesced"}


def test_strategy_names():
    assert strategy_name("full-history") == "none" and strategy_name("Single-User-Coalesced") == "coalesced"
    assert strategy_name("ptc.compression:SingleUserCoalesced") == "ptc.compression:SingleUserCoalesced"
    assert cassette_name("m", "openai/gpt-4o-mini", "none", 0) == "m__openai-gpt-4o-mini__none.jsonl"
    assert cassette_name("m", "x", "ptc.compression:FullHistory", 2) == "m__x__ptc.compression.FullHistory__r2.jsonl"


def test_append_strategy_and_compact_prompt_from_the_suite_file(tmp_path):
    from ptc.suite import load_suite

    raw = tiny_suite_dict()
    raw["defaults"]["system_prompt"] = "compact"
    raw["missions"][0]["system_prompt"] = "default"
    suite = load_suite(write_suite(tmp_path, raw))
    assert strategy_name("append-only-summaries") == "append"
    cassettes = tmp_path / "c"
    summary = run_suite(suite, strategies=["append"], record=cassettes)
    prompts = {r["mission"]: r["prompt"] for r in summary.records}
    assert prompts == {raw["missions"][0]["id"]: "default",
                       **{m["id"]: "compact" for m in raw["missions"][1:]}}
    compact = next(m["id"] for m in raw["missions"][1:])
    first_request = json.loads((cassettes / cassette_name(compact, "scripted", "append")).read_text().splitlines()[0])
    assert "Clojure 1.11 (clojure.core" in json.dumps(first_request)
    assert all(r["strategy"] == "append" for r in summary.records)


def test_a_strategy_class_reference_runs(tiny):
    summary = run_suite(tiny, strategies=["ptc.compression:SingleUserCoalesced"], missions=["sum"])
    assert summary.records[0]["passed"] and summary.records[0]["strategy"] == "ptc.compression:SingleUserCoalesced"


def test_specs_for_remote_workers_carry_cassettes_and_data_files(tmp_path):
    from ptc.suite import load_suite
    from ptc.suite.execute import execute
    from ptc.suite.runner import _shipped

    (tmp_path / "numbers.json").write_text('{"numbers": [1, 2, 3, 4]}', encoding="utf-8")
    raw = tiny_suite_dict()
    raw["missions"][1]["data"] = "numbers.json"
    suite = load_suite(write_suite(tmp_path, raw))
    run_suite(suite, record=tmp_path / "c", missions=["sum"])
    [spec] = plan(suite, models=["scripted"], strategies=["none"], replay=tmp_path / "c", missions=["sum"])
    shipped = _shipped(spec, {}, {})
    assert shipped.replay_path is None and shipped.replay_text and shipped.data == {"numbers": [1, 2, 3, 4]}
    (tmp_path / "numbers.json").unlink()
    (tmp_path / "c" / "sum__scripted__none.jsonl").unlink()
    assert execute(shipped).record["passed"]
