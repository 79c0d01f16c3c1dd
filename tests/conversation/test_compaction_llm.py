"""LlmSummary: a (scripted) cheaper model summarizes what key-message extraction drops."""

from __future__ import annotations

import pytest

from ptc.conversation import ContextSettings, build_context
from ptc.conversation.compaction import Compactor, KeyMessageExtraction, LlmSummary
from ptc.llm.base import LLMError, Reply, Usage
from ptc.llm.scripted import ScriptedLLM
from ptc.store import COMPRESSED, SUMMARY

from .test_builder import log_of, new_session, protocol_errors, tool_round

SMALL = ContextSettings(budget=4000, reserve_for_reply=500)


def conversation(n=8):
    store, sid = new_session()
    store.append(sid, "user", content="Always report amounts in EUR.")
    store.append(sid, "assistant", content="Will do.")
    for i in range(n):
        tool_round(store, sid, i, rows=30)
    return store, sid


def usage_for(log):
    return build_context(log, "chat", SMALL, enforce_budget=False)[1].usage


def test_summary_of_the_dropped_messages():
    store, sid = conversation()
    log = log_of(store, sid)
    llm = ScriptedLLM([Reply(text="- The user wants EUR.\n- Regions 0-5 were analysed.",
                             usage=Usage(prompt_tokens=900, completion_tokens=20, calls=1))], model="cheap")
    strategy = LlmSummary(llm)
    result = strategy.compact(log, SMALL, usage_for(log))
    assert result.strategy == "llm_summary" and result.error is None
    assert result.summary == "- The user wants EUR.\n- Regions 0-5 were analysed."
    main = max(result.ranges, key=lambda p: p.tokens)
    assert main.text.startswith("CONVERSATION_SUMMARY (LLM summary by cheap) of messages #")
    assert result.summary in main.text
    for p in result.ranges:
        if p is not main:
            assert "covered by the summary of messages" in p.text
    assert result.llm_usage is not None and result.llm_usage.prompt_tokens == 900
    # the request: the summarizing prompt, then a transcript of exactly the dropped messages
    request = llm.requests[0]
    assert request[0]["role"] == "system" and "condense" in request[0]["content"]
    by_id = {m.id: m for m in log}
    for i in result.dropped:
        assert f"#{by_id[i].seq} " in request[1]["content"]


def test_nothing_dropped_means_no_model_call():
    store, sid = new_session()
    tool_round(store, sid, 1)
    log = log_of(store, sid)
    llm = ScriptedLLM([])
    result = LlmSummary(llm).compact(log, SMALL, usage_for(log))
    assert not result.ranges and llm.requests == []


def test_inner_strategy_gets_room_for_the_summary():
    strategy = LlmSummary(ScriptedLLM([]), KeyMessageExtraction(summary_reserve=10), max_summary_tokens=333)
    assert strategy.inner.summary_reserve == 333
    assert LlmSummary("openai/gpt-4o-mini").model == "openai/gpt-4o-mini"   # built lazily, no call


@pytest.mark.parametrize("failure", [
    LLMError("timeout", "no answer in 60 s"),
    RuntimeError("socket closed"),
    "",                                         # an empty reply
    "LLM error (rate_limit): slow down",        # an error text is never a summary
])
def test_failure_leaves_the_messages_and_records_the_error(failure):
    store, sid = conversation()
    log = log_of(store, sid)
    llm = ScriptedLLM([failure])
    result = LlmSummary(llm).compact(log, SMALL, usage_for(log))
    assert result.error and not result.ranges and not result.dropped
    assert result.failed_ranges
    assert set(result.kept) >= {m.id for m in log if m.id > 0}
    assert any("stay as they were" in n for n in result.notes)


def test_failure_through_the_compactor():
    store, sid = conversation()
    before = [(m.id, m.status) for m in store.full(sid).items]
    compactor = Compactor(store, sid, LlmSummary(ScriptedLLM([LLMError("server", "503")])), SMALL,
                          retry_after_calls=2)
    messages, report = compactor.prepare("chat")
    assert report.compaction.error == "LLMError(server): 503"
    assert not report.records
    assert [(m.id, m.status) for m in store.full(sid).items] == before        # nothing compressed, no summary
    failed = [r for r in store.compression_records(sid) if r.status == 1]
    assert failed and all(r.error == "LLMError(server): 503" for r in failed)
    assert not any(m.priority == SUMMARY for m in store.full(sid).items)
    # the request is still sent, trimmed to the target
    assert report.trimmed and report.after.used <= SMALL.prompt_budget < report.before.used
    assert not protocol_errors(messages)
    # the strategy rests for two calls, then tries again (and the script is exhausted: fails again)
    compactor.prepare("chat")
    compactor.prepare("chat")
    assert compactor.counters.cooldown == 2 and compactor.counters.attempts == 1
    compactor.prepare("chat")
    assert compactor.counters.attempts == 2 and compactor.counters.failures == 2


def test_success_through_the_compactor():
    store, sid = conversation()
    compactor = Compactor(store, sid, LlmSummary(ScriptedLLM(["- EUR; regions analysed."])), SMALL)
    messages, report = compactor.prepare("chat")
    assert report.records and report.compaction.summary == "- EUR; regions analysed."
    summaries = [m for m in store.full(sid).items if m.priority == SUMMARY]
    assert any("- EUR; regions analysed." in (m.content or "") for m in summaries)
    record = report.records[0]
    assert record.strategy == "llm_summary" and record.token_before > record.token_after
    assert all(store.get_message(i).status == COMPRESSED for i in report.compaction.dropped)
    assert "- EUR; regions analysed." in messages[1]["content"]
    assert not protocol_errors(messages)
