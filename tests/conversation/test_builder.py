"""The context builder and the log helpers: pure functions over store messages."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ptc.conversation import ContextSettings, build_context, measure
from ptc.conversation.builder import Plan
from ptc.conversation.log import (
    MISSING_RESULT, atoms, context_order, repair, rounds, starts_round, to_openai, tool_groups,
)
from ptc.store import COMPRESSED, INVALID, Block, Message, Store

# -- helpers (imported by the other conversation tests) -------------------------------------------


def new_session() -> tuple[Store, str]:
    store = Store(":memory:")
    return store, store.create_session("t").id


def call(cid: str, name: str = "sales", **args: Any) -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def rows_payload(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return json.dumps([{"id": i, "region": rng.choice(["EMEA", "APAC", "NA"]), "amount": rng.randrange(100, 9999)}
                       for i in range(n)])


def tool_round(store: Store, sid: str, i: int, *, rows: int = 20, question: str | None = None,
               answer: str | None = None, calls: int = 1, name: str = "sales") -> list[Message]:
    """user question, assistant tool calls, tool results, assistant answer."""
    out = [store.append(sid, "user", content=question or f"Question {i}: what were sales in region {i}?")]
    cids = [f"c{i}_{k}" for k in range(calls)]
    out.append(store.append(sid, "assistant", tool_calls=[call(c, name, region=i) for c in cids]))
    for c in cids:
        out.append(store.append(sid, "tool", [Block("tool_result", rows_payload(rows, i), {"name": name})],
                                tool_call_id=c))
    out.append(store.append(sid, "assistant", content=answer or f"Region {i} sold {100 + i} units."))
    return out


def qa_round(store: Store, sid: str, i: int, *, question: str | None = None, answer: str | None = None) -> list[Message]:
    return [store.append(sid, "user", content=question or f"Small talk {i}?"),
            store.append(sid, "assistant", content=answer or f"Answer {i}.")]


def log_of(store: Store, sid: str) -> list[Message]:
    return list(store.context(sid, include_compressed=False).items)


def protocol_errors(messages: list[dict[str, Any]]) -> list[str]:
    """What is wrong with an OpenAI request's tool-call structure (empty when valid)."""
    errors = []
    i = 0
    while i < len(messages):
        m = messages[i]
        if m["role"] == "tool":
            errors.append(f"tool message at {i} does not follow its call")
            i += 1
            continue
        if m["role"] == "assistant" and m.get("tool_calls"):
            ids = [c["id"] for c in m["tool_calls"]]
            j = i + 1
            got = []
            while j < len(messages) and messages[j]["role"] == "tool":
                got.append(messages[j]["tool_call_id"])
                j += 1
            if sorted(got) != sorted(ids):
                errors.append(f"call at {i} answered by {got}, expected {ids}")
            i = j
            continue
        i += 1
    return errors


def msg(id: int, role: str, content: str | None = "", *, seq: int | None = None, tool_calls=None,  # noqa: A002
        tool_call_id=None, status: int = 0, priority: int = 0, blocks=()) -> Message:
    return Message(id=id, session_id="s", seq=seq if seq is not None else id, role=role, content=content,
                   blocks=tuple(blocks), tool_calls=tool_calls, tool_call_id=tool_call_id, status=status,
                   priority=priority)


# -- the builder ------------------------------------------------------------------------------------


def test_system_prompt_first_and_fresh_per_mode_history_kept():
    store, sid = new_session()
    tool_round(store, sid, 1)
    qa_round(store, sid, 2)
    log = log_of(store, sid)
    chat, rc = build_context(log, "chat")
    agent, ra = build_context(log, "agent")
    assert chat[0]["role"] == agent[0]["role"] == "system"
    assert "MODE: active=chat" in chat[0]["content"] and "MODE: active=agent" in agent[0]["content"]
    assert "PTC-Lisp" in agent[0]["content"] and "clojure" in agent[0]["content"]
    assert chat[1:] == agent[1:]                       # switching modes keeps the history
    assert rc.kept == ra.kept == [m.id for m in log]
    assert all(m.role != "system" for m in store.full(sid).items)   # the prompt is never stored
    with pytest.raises(ValueError):
        build_context(log, "run")


def test_report_counts_tokens_and_usage():
    store, sid = new_session()
    tool_round(store, sid, 1, calls=2)
    messages, report = build_context(log_of(store, sid), "chat")
    assert report.counts == {"system": 1, "user": 1, "assistant": 2, "tool": 2}
    assert report.tokens == report.usage.used == measure(messages).used
    assert report.system_tokens == report.usage.system > 0
    assert not report.dropped and not report.repairs and not report.over_budget
    assert report.to_dict()["usage"]["used"] == report.tokens
    assert "6 messages sent" not in report.summary() and "5 messages sent" in report.summary()


def test_left_out_messages_have_reasons():
    store, sid = new_session()
    a = qa_round(store, sid, 1)
    b = qa_round(store, sid, 2)
    stored_system = store.append(sid, "system", content="You are a pirate.")
    store.invalidate(b[0].id)
    store.compress_range(sid, a[0].seq, a[1].seq, "the first exchange", strategy="test")
    full = list(store.full(sid).items)
    messages, report = build_context(full, "chat")
    assert "invalid" in report.dropped[b[0].id]
    assert "compressed" in report.dropped[a[0].id] and "compressed" in report.dropped[a[1].id]
    assert "system prompt is composed fresh" in report.dropped[stored_system.id]
    assert "pirate" not in json.dumps(messages)
    summary = messages[1]
    assert summary["role"] == "system" and summary["content"].startswith("CONVERSATION_SUMMARY")
    assert "the first exchange" in summary["content"]
    # include_compressed sends them too
    _, rep2 = build_context(full, "chat", ContextSettings(include_compressed=True))
    assert a[0].id in rep2.kept


def test_summaries_first_then_by_seq():
    log = [msg(1, "user", "q1"), msg(2, "assistant", "a1"), msg(3, "system", "SUMMARY of old stuff", priority=1),
           msg(4, "user", "q2")]
    messages, report = build_context(list(reversed(log)), "chat")
    assert report.kept == [3, 1, 2, 4]
    assert messages[1]["content"] == "SUMMARY of old stuff"       # already prefixed: left alone


def test_llm_error_rendered_as_text_and_kept():
    store, sid = new_session()
    store.append(sid, "user", content="Summarize Q3")
    err = store.append_llm_error(sid, "Q3 revenue grew by", "timeout", "no answer in 60 s")
    store.append(sid, "user", content="continue")
    messages, report = build_context(log_of(store, sid), "chat")
    assert err.id in report.kept
    text = messages[2]["content"]
    assert text.startswith("Q3 revenue grew by") and "LLM_ERROR kind=timeout: no answer in 60 s" in text
    # even when the content column lacks it
    bare = msg(9, "assistant", None, blocks=[Block("llm_error", "LLM_ERROR kind=server: boom")])
    assert to_openai(bare)["content"] == "LLM_ERROR kind=server: boom"


def test_tool_protocol_text():
    store, sid = new_session()
    tool_round(store, sid, 1)
    messages, _ = build_context(log_of(store, sid), "chat", ContextSettings(tool_protocol="text"))
    assert {m["role"] for m in messages} == {"system", "user", "assistant"}
    assert not any("tool_calls" in m for m in messages)
    assert "[tool calls]" in messages[2]["content"] and "sales(" in messages[2]["content"]
    assert messages[3]["content"].startswith("[tool result for c1_0]")


def test_decorate_hook_and_prompt_override():
    store, sid = new_session()
    qa_round(store, sid, 1)
    messages, _ = build_context(log_of(store, sid), "chat", system="SYS",
                                decorate=lambda m, d: {**d, "content": f"[{m.seq}] {d['content']}"})
    assert messages[0]["content"] == "SYS"
    assert messages[1]["content"] == "[1] Small talk 1?"


def test_chat_prompt_lists_tools_and_data():
    from ptc.conversation.prompts import system_prompt

    def sales(region: str) -> list:
        "Sales rows of a region."
        return []

    text = system_prompt("chat", tools={"sales": sales}, data={"regions": ["EMEA", "APAC"]}, extra="Persona: Ada.")
    assert "sales" in text and "data/regions" in text and "Persona: Ada." in text
    assert text.rstrip().endswith("follow the instructions for the active mode.")


def test_plan_rewrites_and_exclusions_are_request_only():
    store, sid = new_session()
    r = tool_round(store, sid, 1)
    plan = Plan(rewrites={r[2].id: ("PREVIEW", "preview")}, excluded={r[3].id: "test"})
    messages, report = build_context(log_of(store, sid), "chat", plan=plan)
    assert messages[3]["content"] == "PREVIEW" and report.rewritten == {r[2].id: "preview"}
    assert report.dropped[r[3].id] == "test"
    assert store.get_message(r[2].id).content == rows_payload(20, 1)   # the store is untouched


def test_enforce_budget_trims_and_can_be_turned_off():
    store, sid = new_session()
    for i in range(12):
        tool_round(store, sid, i, rows=40)
    s = ContextSettings(budget=4000, reserve_for_reply=500)
    log = log_of(store, sid)
    raw, raw_report = build_context(log, "chat", s, enforce_budget=False)
    assert raw_report.tokens > s.prompt_budget and not raw_report.trim_steps
    trimmed, report = build_context(log, "chat", s)
    assert report.tokens <= s.prompt_budget
    assert report.trim_steps and not protocol_errors(trimmed)
    assert log[-1].id in report.kept                  # the latest message stays
    goal, rep_goal = build_context(log, "chat", s, trim_to=1500)
    assert rep_goal.tokens <= s.prompt_budget and not protocol_errors(goal)


# -- the log helpers -----------------------------------------------------------------------------------


def test_repair_leaves_a_valid_log_alone():
    store, sid = new_session()
    tool_round(store, sid, 1, calls=2)
    log = log_of(store, sid)
    fixed, notes = repair(log)
    assert fixed == log and notes == []


def test_repair_drops_orphans_and_duplicates():
    log = [msg(1, "user", "q"), msg(2, "tool", "orphan", tool_call_id="gone"),
           msg(3, "assistant", None, tool_calls=[call("a")]), msg(4, "tool", "r1", tool_call_id="a"),
           msg(5, "tool", "r1 again", tool_call_id="a")]
    fixed, notes = repair(log)
    assert [m.id for m in fixed] == [1, 3, 4]
    assert {n.kind for n in notes} == {"orphan", "duplicate"}
    assert "#2" in str(notes[0])


def test_repair_result_before_its_call_is_an_orphan():
    log = [msg(1, "tool", "early", tool_call_id="a"), msg(2, "assistant", None, tool_calls=[call("a")])]
    fixed, notes = repair(log)
    assert [n.kind for n in notes] == ["orphan", "missing"]
    assert fixed[1].role == "tool" and fixed[1].id < 0 and fixed[1].content == MISSING_RESULT


def test_repair_adds_placeholders_for_dangling_calls():
    log = [msg(1, "user", "q"), msg(2, "assistant", "checking", tool_calls=[call("a"), call("b")]),
           msg(3, "tool", "ra", tool_call_id="a"), msg(4, "user", "next")]
    fixed, notes = repair(log)
    assert [m.role for m in fixed] == ["user", "assistant", "tool", "tool", "user"]
    placeholder = fixed[3]
    assert placeholder.tool_call_id == "b" and placeholder.id < 0 and "TOOL_RESULT_MISSING" in placeholder.content
    assert [n.kind for n in notes] == ["missing"]
    messages, report = build_context(log, "chat")
    assert report.synthetic == 1 and not protocol_errors(messages)
    assert report.kept == [1, 2, 3, 4]


def test_repair_moves_a_separated_result():
    log = [msg(1, "assistant", None, tool_calls=[call("a")]), msg(2, "user", "meanwhile"),
           msg(3, "tool", "ra", tool_call_id="a")]
    fixed, notes = repair(log)
    assert [m.id for m in fixed] == [1, 3, 2]
    assert notes[0].kind == "moved"


def test_repair_reused_call_id():
    log = [msg(1, "assistant", None, tool_calls=[call("a")]), msg(2, "tool", "r", tool_call_id="a"),
           msg(3, "assistant", None, tool_calls=[call("a")])]
    fixed, _ = repair(log)
    assert not protocol_errors([to_openai(m) for m in fixed])


def test_rounds_groups_and_atoms():
    store, sid = new_session()
    tool_round(store, sid, 1, calls=2)
    store.append(sid, "user", [Block("text", "turn 1 output", {"feedback": True})])   # agent feedback
    store.append(sid, "assistant", content="done")
    qa_round(store, sid, 2)
    log = log_of(store, sid)
    rs = rounds(log)
    assert [len(r.messages) for r in rs] == [7, 2]
    assert rs[0].user is not None and starts_round(rs[1].messages[0])
    groups = tool_groups(log)
    assert len(groups) == 1 and groups[0].complete and len(groups[0].results) == 2
    units = atoms(log)
    assert [len(u) for u in units] == [1, 3, 1, 1, 1, 1, 1]


def test_rounds_preamble_and_summaries():
    log = [msg(1, "system", "SUMMARY x", priority=1), msg(2, "assistant", "hello"), msg(3, "user", "q")]
    rs = rounds(context_order(log))
    assert [r.ids for r in rs] == [(2,), (3,)]
    assert rs[0].user is None


def _random_log(rng: random.Random, n: int) -> list[Message]:
    out: list[Message] = []
    next_id = 1
    open_calls: list[str] = []
    for _ in range(n):
        kind = rng.random()
        status = INVALID if rng.random() < 0.1 else (COMPRESSED if rng.random() < 0.05 else 0)
        if kind < 0.25:
            m = msg(next_id, "user", f"question {next_id} " + "words " * rng.randrange(1, 40), status=status)
        elif kind < 0.45:
            cids = [f"k{next_id}_{j}" for j in range(rng.randrange(1, 4))]
            open_calls.extend(cids)
            m = msg(next_id, "assistant", None, tool_calls=[call(c) for c in cids], status=status)
        elif kind < 0.75:
            cid = rng.choice(open_calls) if open_calls and rng.random() < 0.85 else f"ghost{next_id}"
            m = msg(next_id, "tool", rows_payload(rng.randrange(1, 30), next_id), tool_call_id=cid, status=status)
        elif kind < 0.8:
            m = msg(next_id, "system", "CONVERSATION_SUMMARY earlier", priority=1)
        else:
            m = msg(next_id, "assistant", f"answer {next_id}", status=status)
        out.append(m)
        next_id += 1
    return out


@pytest.mark.parametrize("seed", range(60))
def test_random_logs_always_give_a_valid_request(seed):
    rng = random.Random(seed)
    log = _random_log(rng, rng.randrange(1, 60))
    settings = ContextSettings(budget=3000, reserve_for_reply=500)
    for kwargs in ({}, {"trim_to": 400}, {"enforce_budget": False}):
        messages, report = build_context(log, "chat", settings, **kwargs)
        assert not protocol_errors(messages), (seed, kwargs)
        sent = set(report.kept)
        assert not sent & set(report.dropped)
        # every log message is either sent or explained
        assert {m.id for m in log} == sent | set(report.dropped)
