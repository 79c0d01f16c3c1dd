"""BroadSummary: background summary above the soft threshold, blocking above the hard one."""

from __future__ import annotations

import threading

import pytest

from ptc.conversation import ContextSettings, build_context
from ptc.conversation.compaction import BroadSummary, Compactor
from ptc.llm.base import CallableLLM, LLMError
from ptc.store import COMPRESSED, SUMMARY

from .test_builder import log_of, new_session, protocol_errors, qa_round, tool_round

# thresholds low enough for a short test conversation; a large budget so the ratio trigger stays out of the way
SETTINGS = ContextSettings(budget=40_000, reserve_for_reply=1_000, soft_threshold=1_500, hard_threshold=3_000)


class Gate:
    """A summarizer that waits until released (a slow model), counting its calls."""

    def __init__(self, text="- broad: the user analysed regions", fail: bool = False):
        self.release = threading.Event()
        self.started = threading.Event()
        self.calls = 0
        self.text = text
        self.fail = fail

    def __call__(self, messages):
        self.calls += 1
        self.started.set()
        assert self.release.wait(10)
        if self.fail:
            raise LLMError("timeout", "summarizer timed out")
        return self.text


def grow(store, sid, start, n, rows=20):
    for i in range(start, start + n):
        tool_round(store, sid, i, rows=rows)


def usage_of(store, sid):
    return build_context(log_of(store, sid), "chat", SETTINGS, enforce_budget=False)[1].usage


def test_below_soft_nothing_happens():
    store, sid = new_session()
    qa_round(store, sid, 1)
    strategy = BroadSummary(CallableLLM(Gate()))
    assert not strategy.should_compact(usage_of(store, sid), SETTINGS)
    compactor = Compactor(store, sid, strategy, SETTINGS)
    compactor.prepare("chat")
    assert compactor.counters.attempts == 0


def test_soft_starts_in_background_and_applies_later():
    store, sid = new_session()
    grow(store, sid, 0, 5)
    u = usage_of(store, sid)
    assert SETTINGS.soft_threshold < u.used < SETTINGS.hard_threshold
    gate = Gate()
    strategy = BroadSummary(CallableLLM(gate))
    compactor = Compactor(store, sid, strategy, SETTINGS)
    statuses = [(m.id, m.status) for m in store.full(sid).items]
    _, first = compactor.prepare("chat")                # starts the job, does not wait
    assert first.compaction.pending and not first.records
    assert gate.started.wait(5) and strategy.pending
    assert [(m.id, m.status) for m in store.full(sid).items] == statuses
    _, second = compactor.prepare("chat")               # still running: nothing changes, no second job
    assert second.compaction.pending and gate.calls == 1
    gate.release.set()
    strategy.close()
    qa_round(store, sid, 99)                            # the conversation went on meanwhile
    messages, third = compactor.prepare("chat")         # ready: applied now
    assert third.records and not third.compaction.blocked
    assert third.after.used < third.before.used
    summary = store.get_message(third.records[0].summary_message_id)
    assert summary.priority == SUMMARY and "- broad: the user analysed regions" in summary.content
    assert messages[1]["content"].startswith("CONVERSATION_SUMMARY (broad summary by")
    assert strategy.counters == {"started": 1, "applied": 1, "blocked": 0, "discarded": 0, "failed": 0}
    assert compactor.counters.pending == 2 and compactor.counters.compactions == 1
    assert not protocol_errors(messages)
    # the recent rounds were not summarized
    log = log_of(store, sid)
    assert log[-1].content == "Answer 99."


def test_hard_blocks_until_the_running_job_is_done():
    store, sid = new_session()
    grow(store, sid, 0, 5)
    gate = Gate()
    strategy = BroadSummary(CallableLLM(gate))
    compactor = Compactor(store, sid, strategy, SETTINGS)
    compactor.prepare("chat")                           # soft: started
    assert gate.started.wait(5)
    grow(store, sid, 5, 6)                              # now over the hard threshold
    assert usage_of(store, sid).used > SETTINGS.hard_threshold
    threading.Timer(0.2, gate.release.set).start()
    _, report = compactor.prepare("chat")               # waits for the job, then applies it
    assert report.compaction.blocked and report.records
    assert gate.calls == 1
    assert strategy.counters["blocked"] == 1 and compactor.counters.blocked == 1


def test_hard_without_a_job_summarizes_right_away():
    store, sid = new_session()
    grow(store, sid, 0, 12)
    assert usage_of(store, sid).used > SETTINGS.hard_threshold
    gate = Gate()
    gate.release.set()
    compactor = Compactor(store, sid, BroadSummary(CallableLLM(gate)), SETTINGS)
    messages, report = compactor.prepare("chat")
    assert report.compaction.blocked and report.records and gate.calls == 1
    compressed = [m for m in store.full(sid).items if m.status == COMPRESSED]
    assert compressed and not protocol_errors(messages)


def test_rule_based_without_a_model():
    store, sid = new_session()
    store.append(sid, "user", content="Never include cancelled orders.")
    store.append(sid, "assistant", content="Understood.")
    grow(store, sid, 0, 12)
    compactor = Compactor(store, sid, BroadSummary(), SETTINGS)
    _, report = compactor.prepare("chat")
    assert report.records
    text = store.get_message(report.records[0].summary_message_id).content
    assert text.startswith("CONVERSATION_SUMMARY (broad, rule-based)")
    assert "Never include cancelled orders." in text


def test_a_stale_job_is_discarded():
    store, sid = new_session()
    grow(store, sid, 0, 5)
    gate = Gate()
    strategy = BroadSummary(CallableLLM(gate))
    compactor = Compactor(store, sid, strategy, SETTINGS)
    compactor.prepare("chat")
    assert gate.started.wait(5)
    first = log_of(store, sid)[0]
    store.invalidate(first.id)                          # the snapshot changed meanwhile
    gate.release.set()
    strategy.close()
    _, report = compactor.prepare("chat")
    assert strategy.counters["discarded"] == 1
    assert not report.records


def test_failing_model_leaves_the_messages():
    store, sid = new_session()
    grow(store, sid, 0, 12)
    gate = Gate(fail=True)
    gate.release.set()
    compactor = Compactor(store, sid, BroadSummary(CallableLLM(gate)), SETTINGS)
    statuses = [(m.id, m.status) for m in store.full(sid).items]
    _, report = compactor.prepare("chat")
    assert report.compaction.error and "summarizer timed out" in report.compaction.error
    assert not report.records
    assert [(m.id, m.status) for m in store.full(sid).items] == statuses
    assert any(r.status == 1 and "summarizer timed out" in (r.error or "") for r in store.compression_records(sid))


@pytest.mark.parametrize("keep", [1, 2])
def test_candidates_keep_the_recent_rounds(keep):
    store, sid = new_session()
    grow(store, sid, 0, 4)
    log = log_of(store, sid)
    chosen = BroadSummary(keep_rounds=keep).candidates(log, SETTINGS)
    assert len(chosen) == (4 - keep) * 4
    assert all(m.seq < log[-4 * keep].seq for m in chosen)
