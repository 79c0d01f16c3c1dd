"""The Compactor: measure, compact at most once per call, persist, trim; loop guards."""

from __future__ import annotations

from ptc.conversation import ContextSettings
from ptc.conversation.compaction import CompactionResult, Compactor, KeyMessageExtraction, RangePlan
from ptc.store import COMPRESSED, SUMMARY

from .test_builder import log_of, new_session, protocol_errors, qa_round, tool_round

SMALL = ContextSettings(budget=4000, reserve_for_reply=500)


def conversation(n=10, rows=30):
    store, sid = new_session()
    store.append(sid, "user", content="You must report amounts in EUR.")
    store.append(sid, "assistant", content="OK.")
    for i in range(n):
        tool_round(store, sid, i, rows=rows)
    return store, sid


class Spy:
    """Wraps a strategy and counts its runs."""

    def __init__(self, inner, always: bool = False):
        self.inner = inner
        self.name = getattr(inner, "name", "spy")
        self.always = always
        self.runs = 0

    def should_compact(self, usage, settings):
        return True if self.always else self.inner.should_compact(usage, settings)

    def compact(self, log, settings, usage):
        self.runs += 1
        return self.inner.compact(log, settings, usage)


def test_below_the_trigger_nothing_is_compacted():
    store, sid = new_session()
    tool_round(store, sid, 1)
    spy = Spy(KeyMessageExtraction())
    compactor = Compactor(store, sid, spy, SMALL)
    messages, report = compactor.prepare("chat")
    assert spy.runs == 0 and report.compaction is None and not report.trimmed
    assert report.before.used == report.after.used and report.after.status == "normal"


def test_compaction_is_persisted_and_reaches_the_target():
    store, sid = conversation()
    compactor = Compactor(store, sid, KeyMessageExtraction(), SMALL)
    messages, report = compactor.prepare("chat")
    assert report.before.used > SMALL.trigger_tokens
    assert report.records and report.compacted
    assert report.after.used <= SMALL.target_tokens
    for record in report.records:
        summary = store.get_message(record.summary_message_id)
        assert summary.priority == SUMMARY and summary.role == "system"
        assert record.strategy == "key_messages" and record.token_before > record.token_after > 0
        assert all(store.message_at(sid, s).status == COMPRESSED for s in range(record.start_seq, record.end_seq + 1))
    stats = store.stats(sid)
    assert stats.compressions == len(report.records) and stats.tokens_saved > 0
    assert not protocol_errors(messages)
    # the instruction message scored high and stayed
    assert messages[1]["role"] == "system" and any(m.get("content") == "You must report amounts in EUR."
                                                   for m in messages)
    # the next call starts from the compacted log: below the trigger, nothing to do
    _, again = compactor.prepare("chat")
    assert again.compaction is None and again.before.used == report.after.used
    assert compactor.counters.compactions == 1 and compactor.counters.loops == 0


class NoOp:
    name = "noop"

    def should_compact(self, usage, settings):
        return True

    def compact(self, log, settings, usage):
        return CompactionResult(strategy=self.name, kept=[m.id for m in log])


def test_never_compacts_twice_for_one_call():
    store, sid = conversation()
    # a strategy that always wants to run and never reaches the target
    spy = Spy(NoOp(), always=True)
    compactor = Compactor(store, sid, spy, SMALL)
    messages, report = compactor.prepare("chat")
    assert spy.runs == 1
    assert report.trimmed and report.after.used <= SMALL.target_tokens
    assert compactor.counters.futile == 1 and compactor.counters.loops == 0
    assert not protocol_errors(messages)
    for _ in range(3):
        compactor.prepare("chat")
    assert spy.runs == 4 and compactor.counters.attempts == 4 and compactor.counters.loops == 0


def test_the_loop_guard_refuses_a_second_attempt():
    store, sid = conversation(3)
    compactor = Compactor(store, sid, KeyMessageExtraction(), SMALL)
    log = log_of(store, sid)
    usage = compactor.usage("chat")
    compactor._compact_once(7, log, usage, "chat")
    result, records = compactor._compact_once(7, log, usage, "chat")
    assert result is None and records == [] and compactor.counters.loops == 1


def test_a_raising_strategy_does_not_break_the_call():
    class Broken:
        name = "broken"

        def should_compact(self, usage, settings):
            return True

        def compact(self, log, settings, usage):
            raise ZeroDivisionError("oops")

    store, sid = conversation()
    compactor = Compactor(store, sid, Broken(), SMALL, retry_after_calls=1)
    messages, report = compactor.prepare("chat")
    assert report.compaction.error == "ZeroDivisionError: oops"
    assert report.trimmed and report.after.used <= SMALL.prompt_budget
    assert not protocol_errors(messages)
    compactor.prepare("chat")
    assert compactor.counters.cooldown == 1 and compactor.counters.failures == 1


def test_a_refused_range_is_counted_not_raised():
    class Bad:
        name = "bad"

        def should_compact(self, usage, settings):
            return True

        def compact(self, log, settings, usage):
            call = next(m for m in log if m.tool_calls)
            # a range holding the call but not its result: the store refuses it
            return CompactionResult(strategy="bad", dropped={call.id: "x"},
                                    ranges=[RangePlan(call.seq, call.seq, [call.id], 10, "CONVERSATION_SUMMARY x")])

    store, sid = conversation(3)
    compactor = Compactor(store, sid, Bad(), SMALL)
    messages, report = compactor.prepare("chat")
    assert not report.records and compactor.counters.refused == 1
    assert any("refused" in n for n in report.compaction.notes)
    assert [r.status for r in store.compression_records(sid)] == [1]
    assert not protocol_errors(messages)


def test_trim_only_without_a_strategy():
    store, sid = conversation()
    compactor = Compactor(store, sid, None, SMALL)
    messages, report = compactor.prepare("chat")
    assert report.compaction is None and report.trimmed
    assert report.after.used <= SMALL.target_tokens
    assert not store.compression_records(sid)          # request-only
    assert compactor.counters.trims == 1


def test_mode_switch_keeps_history_and_composes_a_fresh_prompt():
    store, sid = conversation(2)
    compactor = Compactor(store, sid, KeyMessageExtraction(), ContextSettings())
    chat, rc = compactor.prepare("chat")
    agent, ra = compactor.prepare("agent")
    assert rc.build.kept == ra.build.kept
    assert chat[1:] == agent[1:]
    assert "MODE: active=chat" in chat[0]["content"] and "MODE: active=agent" in agent[0]["content"]


def test_back_to_back_counter_and_summaries_stay_few():
    store, sid = new_session()
    compactor = Compactor(store, sid, KeyMessageExtraction(), SMALL)
    for i in range(40):
        tool_round(store, sid, i, rows=25)
        qa_round(store, sid, 1000 + i, question=f"Always double-check region {i}. Is it fine?")
        messages, report = compactor.prepare("chat")
        assert not protocol_errors(messages)
        assert report.after.used <= SMALL.prompt_budget
    c = compactor.counters
    assert c.loops == 0 and c.compactions >= 5
    assert c.back_to_back <= c.compactions
    active_summaries = [m for m in log_of(store, sid) if m.priority == SUMMARY]
    assert len(active_summaries) <= 6
    assert compactor.last_report is not None and "call 40" in compactor.last_report.summary()
