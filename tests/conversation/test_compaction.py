"""Key-message extraction, the fallback ladder and rule-based notes (no LLM, no store writes)."""

from __future__ import annotations

import json

from ptc.conversation import ContextSettings, build_context
from ptc.conversation.compaction import KeyMessageExtraction, fit, preview_tool_result, rule_note, shorten_text
from ptc.conversation.compaction.fallbacks import is_preview, json_shape
from ptc.conversation.log import atoms, repair, rounds
from ptc.conversation.usage import REPLY_PRIMING_TOKENS
from ptc.store import Block

from .test_builder import log_of, msg, new_session, protocol_errors, qa_round, tool_round

SMALL = ContextSettings(budget=4000, reserve_for_reply=500)   # prompt 3,500; trigger 2,800; target 1,750


def usage_for(log, settings=SMALL, mode="chat"):
    _, report = build_context(log, mode, settings, enforce_budget=False)
    return report.usage


def long_conversation(n=10, rows=30):
    store, sid = new_session()
    for i in range(n):
        tool_round(store, sid, i, rows=rows)
    return store, sid


# -- mandatory messages and scores ----------------------------------------------------------------


def test_mandatory_messages():
    store, sid = new_session()
    summary = store.append(sid, "system", content="CONVERSATION_SUMMARY old", priority=1)
    first = tool_round(store, sid, 1)
    second = tool_round(store, sid, 2)
    third = tool_round(store, sid, 3)
    items, _ = repair(log_of(store, sid))
    mandatory = KeyMessageExtraction().mandatory(items, SMALL)
    assert mandatory[summary.id] == "summary"
    assert mandatory[third[0].id] == "latest user message"
    assert all(m.id in mandatory for m in second + third)            # the last two rounds
    assert not any(m.id in mandatory for m in first)
    one = KeyMessageExtraction().mandatory(items, SMALL.model_copy(update={"mandatory_rounds": 1}))
    assert not any(m.id in one for m in second)


def test_mandatory_closure_over_tool_groups():
    # the latest user message sits between a call and its (moved) result: the group comes along
    log = [msg(1, "user", "q1"), msg(2, "assistant", None, tool_calls=[{"id": "a", "type": "function",
                                                                        "function": {"name": "f", "arguments": "{}"}}]),
           msg(3, "tool", "r", tool_call_id="a"), msg(4, "user", "q2")]
    items, _ = repair(log)
    mandatory = KeyMessageExtraction().mandatory(items, SMALL.model_copy(update={"mandatory_rounds": 1}))
    assert set(mandatory) >= {4}
    assert 2 not in mandatory


def test_score_breakdown_is_explainable():
    kme = KeyMessageExtraction()
    user = msg(1, "user", "You must always read /data/2024/orders.csv first; the total was 1,234.5 EUR.")
    parts = kme.score(user, rounds_ago=0, tokens=30, settings=SMALL)
    assert parts == {"instructions": 2.0, "file_paths": 1.5, "numbers": 1.0, "user_request": 1.0, "recency": 2.0}
    code = msg(2, "assistant", "Here:\n```clojure\n(+ 1 2)\n```")
    assert kme.score(code, rounds_ago=4, tokens=20, settings=SMALL) == {"code": 1.5, "answer": 1.0, "recency": 1.0}
    big = msg(3, "tool", "x" * 5000, tool_call_id="a")
    small = msg(4, "tool", "error: timeout", tool_call_id="b", blocks=[Block("tool_result", "error: timeout",
                                                                            {"error": "timeout"})])
    assert kme.score(big, rounds_ago=8, tokens=1250, settings=SMALL) == {"recency": 0.5, "large_tool_output": -2.0}
    assert kme.score(small, rounds_ago=8, tokens=5, settings=SMALL) == {"recency": 0.5, "error": -0.5}
    medium = kme.score(big, rounds_ago=8, tokens=300, settings=SMALL)
    assert medium["large_tool_output"] == -1.0
    plain = msg(5, "user", "hello there")
    assert "instructions" not in kme.score(plain, rounds_ago=0, tokens=5, settings=SMALL)


def test_greedy_keeps_high_scores_and_explains_drops():
    store, sid = new_session()
    rule = store.append(sid, "user", content="Always report amounts in EUR; never include cancelled orders.")
    store.append(sid, "assistant", content="Noted.")
    for i in range(8):
        tool_round(store, sid, i, rows=30)
    log = log_of(store, sid)
    result = KeyMessageExtraction().compact(log, SMALL, usage_for(log))
    assert result.dropped and result.ranges
    assert rule.id not in result.dropped and rule.id in result.kept
    some = next(iter(result.dropped))
    why = result.explain(some)
    assert why.startswith("dropped: score") and "did not fit" in why
    assert result.explain(rule.id).startswith("kept")
    assert result.explain(log[-1].id).startswith("kept: mandatory")
    assert result.total(rule.id) == sum(result.scores[rule.id].values())
    assert result.tokens_after <= SMALL.target_tokens < result.tokens_before


def test_dropped_sets_never_split_tool_groups_and_ranges_are_contiguous():
    store, sid = long_conversation(12)
    log = log_of(store, sid)
    result = KeyMessageExtraction().compact(log, SMALL, usage_for(log))
    items, _ = repair(log)
    for unit in atoms(items):
        ids = {m.id for m in unit if m.id > 0}
        assert ids <= set(result.dropped) or not ids & set(result.dropped), unit
    by_id = {m.id: m for m in log}
    for p in result.ranges:
        seqs = sorted(by_id[i].seq for i in p.ids)
        assert seqs == list(range(p.first_seq, p.last_seq + 1))
        assert p.text.startswith("CONVERSATION_SUMMARY (rule-based) of messages")
    assert set(result.dropped) == {i for p in result.ranges for i in p.ids}


def test_nothing_to_drop_under_the_target():
    store, sid = new_session()
    qa_round(store, sid, 1)
    log = log_of(store, sid)
    result = KeyMessageExtraction().compact(log, SMALL, usage_for(log))
    assert not result.ranges and not result.dropped and "nothing to drop" in result.notes[0]


def test_summaries_next_to_a_dropped_range_are_folded():
    store, sid = long_conversation(4)
    summary = store.append(sid, "system", content="CONVERSATION_SUMMARY (rule-based) of messages #1-#2: x.\n"
                                                  "- instructions: Always use EUR.", priority=1)
    for i in range(4, 10):
        tool_round(store, sid, i, rows=30)
    log = log_of(store, sid)
    result = KeyMessageExtraction().compact(log, SMALL, usage_for(log))
    folded = [p for p in result.ranges if summary.id in p.folded]
    assert folded, result.notes
    assert "instructions: Always use EUR." in folded[0].text
    assert "folded" in result.dropped[summary.id]


def test_max_ranges_merges_neighbouring_ranges():
    store, sid = new_session()
    for i in range(10):
        tool_round(store, sid, i, rows=30)
        store.append(sid, "user", content=f"Remember: you must always cite table {i} at /data/t{i}.csv; total {i}00.")
        store.append(sid, "assistant", content="ok")
    log = log_of(store, sid)
    tight = SMALL.model_copy(update={"target_ratio": 0.6})
    many = KeyMessageExtraction(max_ranges=50).compact(log, tight, usage_for(log, tight))
    one = KeyMessageExtraction(max_ranges=1).compact(log, tight, usage_for(log, tight))
    assert len(many.ranges) > 1
    assert len(one.ranges) == 1
    assert any("merged" in r for r in one.dropped.values())


def test_small_ranges_are_kept():
    store, sid = new_session()
    for i in range(6):
        tool_round(store, sid, i, rows=30)
    log = log_of(store, sid)
    result = KeyMessageExtraction(min_range_tokens=10**6).compact(log, SMALL, usage_for(log))
    assert not result.ranges and not result.dropped
    assert any("too small" in n for n in result.notes)


def test_fallbacks_when_mandatory_messages_exceed_the_target():
    store, sid = new_session()
    for i in range(3):
        tool_round(store, sid, i, rows=150)    # two mandatory rounds of ~2,000 tokens each: over the budget
    log = log_of(store, sid)
    result = KeyMessageExtraction().compact(log, SMALL, usage_for(log))
    assert result.rewrites                     # previews, request-only
    assert all(reason == "preview" for _, reason in result.rewrites.values())
    assert any(n.startswith("fallback") for n in result.notes)
    assert result.tokens_after <= SMALL.prompt_budget


# -- the fallback ladder -------------------------------------------------------------------------------


def _fixed(settings=SMALL):
    _, report = build_context([], "chat", settings)
    return report.system_tokens + REPLY_PRIMING_TOKENS


def test_fit_reaches_the_goal_with_previews_first():
    store, sid = long_conversation(6, rows=30)
    items, _ = repair(log_of(store, sid))
    _, raw = build_context(items, "chat", SMALL, enforce_budget=False)
    goal = raw.tokens - 300
    plan = fit(items, goal, SMALL, fixed=_fixed(), limit=SMALL.prompt_budget)
    assert plan.reached and plan.tokens <= goal
    assert plan.rewrites and not plan.excluded
    assert list(plan.rewrites) == [m.id for m in items if m.role == "tool"][:len(plan.rewrites)]   # oldest first
    assert plan.steps[0].startswith("tool_previews")
    last_round = set(rounds(items)[-1].ids)
    assert not last_round & set(plan.rewrites)            # the current round is untouched


def test_fit_drops_old_rounds_down_to_k_then_mandatory():
    store, sid = long_conversation(10, rows=5)
    items, _ = repair(log_of(store, sid))
    plan = fit(items, _fixed() + 200, SMALL, fixed=_fixed(), limit=SMALL.prompt_budget)
    kept_rounds = [r for r in rounds(items) if not set(r.ids) <= set(plan.excluded)]
    assert len(kept_rounds) == SMALL.mandatory_rounds     # mandatory rounds are not dropped for the goal
    assert not plan.reached and "the rest is mandatory" in plan.steps[-1]
    assert any("K=4" in s for s in plan.steps) and any("below K" in s for s in plan.steps)
    assert not protocol_errors([m for m in build_context([m for m in items if m.id not in plan.excluded],
                                                          "chat", SMALL)[0]])


def test_fit_touches_mandatory_content_only_for_the_limit():
    store, sid = new_session()
    for i in range(3):
        tool_round(store, sid, i, rows=80)
    items, _ = repair(log_of(store, sid))
    fixed = _fixed()
    soft = fit(items, 500, SMALL, fixed=fixed, limit=10**6)
    assert not soft.reached and not any(i in soft.rewrites for r in rounds(items)[-2:] for i in r.ids)
    hard = fit(items, 500, SMALL, fixed=fixed, limit=1800)
    assert hard.tokens <= 1800
    latest_user = [m for m in items if m.role == "user"][-1]
    assert latest_user.id not in hard.excluded and latest_user.id not in hard.rewrites


def test_fit_last_resort_keeps_the_latest_user_message():
    store, sid = new_session()
    tool_round(store, sid, 1, rows=10)
    huge = store.append(sid, "user", content="please read this: " + "lorem ipsum " * 3000)
    items, _ = repair(log_of(store, sid))
    plan = fit(items, 500, SMALL, fixed=_fixed(), limit=500)
    assert huge.id not in plan.excluded and huge.id not in plan.rewrites
    assert "over the limit" in plan.steps[-1]


def test_preview_and_shorten_formats():
    payload = json.dumps([{"id": i, "region": "EMEA", "amount": i * 10} for i in range(200)])
    m = msg(7, "tool", payload, seq=42, tool_call_id="a", blocks=[Block("tool_result", payload, {"name": "sales"})])
    text = preview_tool_result(m, 300)
    assert is_preview(text)
    assert "tool 'sales'" in text and "JSON list of 200 items; keys: amount, id, region" in text
    assert "message #42" in text and len(text) < 700
    assert json_shape('{"a": 1, "b": 2}') == "JSON object; keys: a, b"
    assert json_shape("not json") is None
    long = "First paragraph says what matters. " * 10 + "\n\n" + "filler line\n" * 200 + \
        "- bullet one\n- bullet two\nIn summary: revenue grew 12%."
    short = shorten_text(long, 500)
    assert len(short) < 700 and "- bullet one" in short and "In summary" in short and "TEXT_SHORTENED" in short
    assert shorten_text("short", 500) == "short"


def test_rule_note_content():
    store, sid = new_session()
    store.append(sid, "user", content="Always report in EUR. What were Q3 sales?")
    store.append(sid, "assistant", tool_calls=[{"id": "a", "type": "function",
                                                "function": {"name": "sales", "arguments": "{}"}}])
    store.append(sid, "tool", [Block("tool_result", "error: timeout", {"name": "sales", "error": "timeout"})],
                 tool_call_id="a")
    store.append(sid, "assistant", content="Q3 sales were EUR 1.2M.")
    store.append_llm_error(sid, "", "timeout", "slow")
    note = rule_note(log_of(store, sid))
    assert note.startswith("CONVERSATION_SUMMARY (rule-based) of messages #1-#5: 5 messages condensed.")
    assert "- instructions: Always report in EUR." in note
    assert 'user asked: "Always report in EUR. What were Q3 sales?"' in note
    assert "- tools called: sales (1 failed)" in note
    assert 'last answer: "Q3 sales were EUR 1.2M."' in note
    assert "1 replies failed (LLM_ERROR)" in note
    # folding a note carries its instructions and flattens the rest
    old = store.append(sid, "system", content=note, priority=1)
    again = rule_note([old, *log_of(store, sid)[:1]])
    assert again.count("Always report in EUR.") >= 1 and "earlier: earlier" not in again
