"""The Store API: sessions, appends, views, pagination, compression, rollback, runs, export."""

from __future__ import annotations

import io
import json

import pytest

from ptc.store import (
    ACTIVE, COMPRESSED, INVALID, Block, InvalidRange, NotFound, Store, StoreError,
)


def call(cid: str, name: str = "lookup", args: str = "{}") -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


def seqs(page) -> list[int]:
    return [m.seq for m in page]


def fill(store: Store, sid: str, n: int, role: str = "user") -> list:
    return store.append_many(sid, [dict(role=role, content=f"message {i}") for i in range(n)])


# -- sessions and appends ----------------------------------------------------------------


def test_sessions_create_get_list(store: Store) -> None:
    a = store.create_session("first", "agent")
    b = store.create_session("second")
    assert store.get_session(a.id) == a
    assert a.next_seq == 1 and a.token_count == 0 and a.mode == "agent"
    store.append(a.id, "user", content="touch")  # a becomes the most recently updated
    assert [s.id for s in store.list_sessions()] == [a.id, b.id]
    with pytest.raises(NotFound):
        store.get_session("nope")
    with pytest.raises(StoreError):
        store.create_session("dup", id=a.id)
    assert store.resolve_session(a.id[:8]) == a.id


def test_append_assigns_contiguous_seqs_and_keeps_blocks(store: Store) -> None:
    sid = store.create_session("s").id
    m1 = store.append(sid, "user", content="hello")
    m2 = store.append(sid, "assistant", [Block("text", "Sure."), Block("code", "(+ 1 2)", {"language": "clojure"}),
                                         Block("thinking", "hmm")], run_id="r1", turn=1, mode="agent")
    batch = fill(store, sid, 3)
    assert [m1.seq, m2.seq] + [m.seq for m in batch] == [1, 2, 3, 4, 5]
    assert m2.content == "Sure."  # code and thinking blocks are structured detail, not content
    got = store.get_message(m2.id)
    assert got == m2
    assert [b.type for b in got.blocks] == ["text", "code", "thinking"]
    assert got.blocks[1].data == {"language": "clojure"}
    assert got.run_id == "r1" and got.turn == 1 and got.mode == "agent"
    assert store.message_at(sid, 2).id == m2.id
    session = store.get_session(sid)
    assert session.next_seq == 6
    assert session.token_count == sum(m.token_count for m in [m1, m2, *batch]) > 0


def test_block_inputs_and_validation(store: Store) -> None:
    sid = store.create_session().id
    m = store.append(sid, "user", ["plain", ("text", "tuple"), {"type": "error", "content": "E", "data": {"k": 1}}])
    assert [b.type for b in m.blocks] == ["text", "text", "error"]
    assert m.content == "plain\n\ntuple"
    assert store.append(sid, "user", "as content").content == "as content"
    with pytest.raises(ValueError):
        store.append(sid, "robot", content="x")
    with pytest.raises(ValueError):
        store.append(sid, "user", [Block("text", "x")], content="y")
    with pytest.raises(ValueError):
        Block("picture", "x")
    with pytest.raises(ValueError):
        store.append(sid, "tool", content="result without a call id")
    with pytest.raises(ValueError):
        store.append(sid, "user", content="x", tool_calls=[call("c1")])
    with pytest.raises(ValueError):
        store.append(sid, "assistant", content="x", tool_calls=[{"type": "function"}])
    with pytest.raises(NotFound):
        store.append("missing", "user", content="x")
    with pytest.raises(TypeError):
        store.append_many(sid, [dict(role="user", content="x", colour="red")])
    assert store.get_session(sid).next_seq == 3  # refused appends consumed no seq


def test_tool_call_protocol_round_trip(store: Store) -> None:
    sid = store.create_session().id
    store.append(sid, "user", content="go")
    store.append(sid, "assistant", [Block("tool_call", '{"id": 1}', {"id": "c1", "name": "lookup"})],
                 tool_calls=[call("c1", args='{"id": 1}')])
    store.append(sid, "tool", [Block("tool_result", '{"name": "x"}')], tool_call_id="c1")
    store.append(sid, "assistant", content="done")
    assert store.messages_for_llm(sid) == [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [call("c1", args='{"id": 1}')]},
        {"role": "tool", "content": '{"name": "x"}', "tool_call_id": "c1"},
        {"role": "assistant", "content": "done"},
    ]


def test_llm_error_is_an_assistant_message_that_stays_in_context(store: Store) -> None:
    sid = store.create_session().id
    store.append(sid, "user", content="write a poem")
    err = store.append_llm_error(sid, "Roses are", "timeout", "read timed out", "run1", turn=1, retries=3)
    assert err.role == "assistant" and err.status == ACTIVE and err.run_id == "run1"
    assert [b.type for b in err.blocks] == ["text", "llm_error"]
    assert err.blocks[1].data == {"kind": "timeout", "message": "read timed out", "retries": 3}
    assert err.content == "Roses are\n\nLLM_ERROR kind=timeout: read timed out"
    assert store.context(sid)[-1].id == err.id
    no_partial = store.append_llm_error(sid, "", "server", "502")
    assert [b.type for b in no_partial.blocks] == ["llm_error"]


# -- views and pagination ------------------------------------------------------------------


def test_display_pages_forwards_and_backwards(store: Store) -> None:
    sid = store.create_session().id
    fill(store, sid, 12)
    first = store.display(sid, limit=5)
    assert seqs(first) == [1, 2, 3, 4, 5] and first.prev is None and first.next == 5
    second = store.display(sid, after=first.next, limit=5)
    assert seqs(second) == [6, 7, 8, 9, 10] and second.prev == 6 and second.next == 10
    third = store.display(sid, after=second.next, limit=5)
    assert seqs(third) == [11, 12] and third.next is None and third.prev == 11
    back = store.display(sid, before=third.prev, limit=5)
    assert seqs(back) == [6, 7, 8, 9, 10] and back.prev == 6 and back.next == 10
    back2 = store.display(sid, before=back.prev, limit=5)
    assert seqs(back2) == [1, 2, 3, 4, 5] and back2.prev is None and back2.next == 5
    last = store.display(sid, last=True, limit=5)
    assert seqs(last) == [8, 9, 10, 11, 12] and last.next is None and last.prev == 8
    assert seqs(store.display(sid, after=3, before=7)) == [4, 5, 6]
    assert seqs(store.display(sid, after=12)) == [] and store.display(sid, after=12).next is None
    assert len(store.display(sid)) == 12
    with pytest.raises(ValueError):
        store.display(sid, limit=0)


def test_pagination_walk_visits_every_active_message_once(store: Store) -> None:
    sid = store.create_session().id
    msgs = fill(store, sid, 23)
    store.invalidate(msgs[4].id)
    store.invalidate(msgs[17].id)
    seen, cursor = [], None
    while True:
        page = store.display(sid, after=cursor, limit=4)
        seen += seqs(page)
        if page.next is None:
            break
        cursor = page.next
    assert seen == [s for s in range(1, 24) if s not in (5, 18)]
    seen_back, cursor = [], None
    page = store.display(sid, last=True, limit=4)
    while True:
        seen_back = seqs(page) + seen_back
        if page.prev is None:
            break
        page = store.display(sid, before=page.prev, limit=4)
    assert seen_back == seen


def test_views_filter_by_status(store: Store) -> None:
    sid = store.create_session().id
    msgs = fill(store, sid, 6)
    store.invalidate(msgs[1].id)                      # seq 2 invalid
    store.compress_range(sid, 3, 4, "SUMMARY of 3-4")  # seqs 3, 4 compressed; summary is seq 7
    assert seqs(store.display(sid)) == [1, 5, 6, 7]
    ctx = store.context(sid)
    assert seqs(ctx) == [7, 1, 3, 4, 5, 6]  # summaries first, then by seq; invalid excluded
    assert ctx[0].is_summary and ctx[0].role == "system"
    assert seqs(store.context(sid, include_compressed=False)) == [7, 1, 5, 6]
    full = store.full(sid)
    assert seqs(full) == [1, 2, 3, 4, 5, 6, 7]
    assert [m.status for m in full] == [ACTIVE, INVALID, COMPRESSED, COMPRESSED, ACTIVE, ACTIVE, ACTIVE]
    assert seqs(store.full(sid, after=2, limit=3)) == [3, 4, 5]
    page = store.full(sid, before=7, limit=2)
    assert seqs(page) == [5, 6] and page.prev == 5 and page.next == 6


def test_context_cursor_pagination_crosses_from_summaries_to_messages(store: Store) -> None:
    sid = store.create_session().id
    fill(store, sid, 8)
    store.compress_range(sid, 1, 2, "S1")  # summary seq 9
    store.compress_range(sid, 3, 4, "S2")  # summary seq 10
    expected = seqs(store.context(sid))
    assert expected == [9, 10, 1, 2, 3, 4, 5, 6, 7, 8]
    for limit in (1, 2, 3, 4, 10, 11):
        walked, cursor = [], None
        while True:
            page = store.context(sid, after=cursor, limit=limit)
            walked += seqs(page)
            if page.next is None:
                break
            cursor = page.next
        assert walked == expected, limit
    first = store.context(sid, limit=3)
    assert first.next == "0:1"


def test_active_only_context_pages_skip_interleaved_summaries(store: Store) -> None:
    sid = store.create_session().id
    for _ in range(6):  # summaries interleave with the regular messages in seq order
        batch = fill(store, sid, 4)
        store.compress_range(sid, batch[0].seq, batch[1].seq, f"S{batch[0].seq}")
    store.append_many(sid, [dict(role="assistant", content="s", priority=1) for _ in range(3)])
    everything = store.context(sid, include_compressed=False)
    summaries = [m.seq for m in everything if m.priority == 1]
    regular = [m.seq for m in everything if m.priority == 0]
    assert seqs(everything) == summaries + regular and len(summaries) == 9 and len(regular) == 12
    for limit in (1, 2, 3, 5, 9, 10, 21, 22):
        walked, cursor = [], None
        while True:
            page = store.context(sid, after=cursor, limit=limit, include_compressed=False)
            assert len(page) <= limit
            walked += seqs(page)
            if page.next is None:
                break
            cursor = page.next
        assert walked == seqs(everything), limit


def test_iter_messages_and_missing_session(store: Store) -> None:
    sid = store.create_session().id
    fill(store, sid, 25)
    assert [m.seq for m in store.iter_messages(sid, chunk=7)] == list(range(1, 26))
    for view in (store.display, store.context, store.full):
        with pytest.raises(NotFound):
            view("missing")


# -- compression -----------------------------------------------------------------------------


def test_compress_range_is_atomic_and_recorded(store: Store) -> None:
    sid = store.create_session().id
    msgs = fill(store, sid, 5)
    before_tokens = store.get_session(sid).token_count
    rec = store.compress_range(sid, 2, 4, "SUMMARY: messages 2 to 4", strategy="key-messages")
    hidden = sum(m.token_count for m in msgs[1:4])
    assert rec.token_before == hidden and rec.token_after > 0 and rec.strategy == "key-messages"
    assert (rec.start_seq, rec.end_seq) == (2, 4)
    assert rec.start_message_id == msgs[1].id and rec.end_message_id == msgs[3].id
    summary = store.get_message(rec.summary_message_id)
    assert summary.priority == 1 and summary.seq == 6 and summary.content == "SUMMARY: messages 2 to 4"
    assert store.get_session(sid).token_count == before_tokens - hidden + rec.token_after
    assert store.compression_records(sid) == [rec]


def test_compress_range_validation(store: Store) -> None:
    sid = store.create_session().id
    msgs = fill(store, sid, 6)
    for first, last in [(4, 3), (0, 2), (5, 99)]:
        with pytest.raises(InvalidRange):
            store.compress_range(sid, first, last, "x")
    store.invalidate(msgs[0].id)
    with pytest.raises(InvalidRange, match="invalid"):
        store.compress_range(sid, 1, 3, "x")
    store.compress_range(sid, 2, 3, "x")
    with pytest.raises(InvalidRange, match="compressed"):
        store.compress_range(sid, 3, 5, "x")
    with pytest.raises(InvalidRange, match="compressed"):
        store.compress_range(sid, 2, 3, "x")
    # invalid messages strictly inside a range are allowed (and stay invalid)
    store.invalidate(msgs[4].id)
    rec = store.compress_range(sid, 4, 6, "y")
    assert store.get_message(msgs[4].id).status == INVALID
    assert rec.token_before == msgs[3].token_count + msgs[5].token_count
    failed = [r for r in store.compression_records(sid) if r.status == 1]
    assert len(failed) == 6 and all(r.error for r in failed)
    assert store.stats(sid).compressions == 2  # failures are not counted
    with pytest.raises(NotFound):
        store.compress_range("missing", 1, 2, "x")


def test_compress_range_never_splits_a_tool_call_from_its_result(store: Store) -> None:
    sid = store.create_session().id
    store.append(sid, "user", content="go")                                               # 1
    store.append(sid, "assistant", tool_calls=[call("a"), call("b")])                      # 2
    store.append(sid, "tool", content="A", tool_call_id="a")                               # 3
    store.append(sid, "tool", content="B", tool_call_id="b")                               # 4
    store.append(sid, "user", content="next")                                              # 5
    with pytest.raises(InvalidRange, match="separate the call"):
        store.compress_range(sid, 1, 3, "x")
    with pytest.raises(InvalidRange, match="separate tool result"):
        store.compress_range(sid, 3, 5, "x")
    with pytest.raises(InvalidRange, match="separate tool result"):
        store.compress_range(sid, 4, 4, "x")
    assert all(m.status == ACTIVE for m in store.full(sid))  # refusals changed nothing
    rec = store.compress_range(sid, 1, 4, "x")
    assert rec.status == 0 and seqs(store.display(sid)) == [5, 6]


def test_stats(store: Store) -> None:
    sid = store.create_session().id
    fill(store, sid, 6)
    empty = store.stats(sid)
    assert empty.compressions == 0 and empty.avg_saved == 0.0 and empty.messages["active"] == 6
    r1 = store.compress_range(sid, 1, 2, "a")
    r2 = store.compress_range(sid, 3, 5, "b")
    st = store.stats(sid)
    assert st.compressions == 2
    assert st.tokens_before == r1.token_before + r2.token_before
    assert st.tokens_after == r1.token_after + r2.token_after
    assert st.tokens_saved == st.tokens_before - st.tokens_after
    assert st.avg_saved == pytest.approx(st.tokens_saved / 2)
    assert st.messages == {"active": 3, "invalid": 0, "compressed": 5}
    assert st.token_count == store.get_session(sid).token_count


# -- invalidate and rollback ------------------------------------------------------------------


def test_invalidate_takes_the_whole_tool_call_group(store: Store) -> None:
    sid = store.create_session().id
    store.append(sid, "user", content="go")
    asst = store.append(sid, "assistant", tool_calls=[call("a"), call("b")])
    ta = store.append(sid, "tool", content="A", tool_call_id="a")
    tb = store.append(sid, "tool", content="B", tool_call_id="b")
    keep = store.append(sid, "user", content="keep")
    tokens = store.get_session(sid).token_count
    changed = store.invalidate(tb.id)
    assert changed == sorted([asst.id, ta.id, tb.id])
    assert seqs(store.display(sid)) == [1, 5]
    assert store.get_session(sid).token_count == tokens - asst.token_count - ta.token_count - tb.token_count
    assert store.invalidate(asst.id) == []  # already invalid
    assert store.invalidate(keep.id) == [keep.id]
    with pytest.raises(NotFound):
        store.invalidate(10_000)


def test_rollback_hides_later_messages_and_recomputes_tokens(store: Store) -> None:
    sid = store.create_session().id
    msgs = fill(store, sid, 6)
    assert store.rollback(sid, 3) == 3
    assert seqs(store.display(sid)) == [1, 2, 3]
    assert [m.status for m in store.full(sid)][3:] == [COMPRESSED] * 3
    assert store.get_session(sid).token_count == sum(m.token_count for m in msgs[:3])
    new = store.append(sid, "user", content="a new branch")
    assert new.seq == 7 and seqs(store.display(sid)) == [1, 2, 3, 7]
    assert store.rollback(sid, 100) == 0
    assert store.rollback(sid, 0) == 4 and store.get_session(sid).token_count == 0


def test_rollback_keeps_earlier_summaries_and_refuses_bad_points(store: Store) -> None:
    sid = store.create_session().id
    fill(store, sid, 6)
    early = store.compress_range(sid, 1, 2, "early")  # summary seq 7
    late = store.compress_range(sid, 5, 6, "late")    # summary seq 8
    with pytest.raises(InvalidRange, match="inside the compressed range"):
        store.rollback(sid, 5)
    assert store.rollback(sid, 4) == 1  # only the late summary is hidden
    assert seqs(store.display(sid)) == [3, 4, 7]
    statuses = {r.id: r.status for r in store.compression_records(sid)}
    assert statuses == {early.id: 0, late.id: 2}
    assert store.stats(sid).compressions == 1
    # a rollback point between a tool call and its results is refused
    store.append(sid, "assistant", tool_calls=[call("x"), call("y")])  # 9
    store.append(sid, "tool", content="X", tool_call_id="x")            # 10
    store.append(sid, "tool", content="Y", tool_call_id="y")            # 11
    for point in (9, 10):
        with pytest.raises(InvalidRange, match="roll back to 11"):
            store.rollback(sid, point)
    assert store.rollback(sid, 11) == 0


# -- runs, turns, compaction nodes, export ------------------------------------------------------


def test_runs_and_turns_round_trip(store: Store) -> None:
    sid = store.create_session().id
    rid = store.start_run("count orders", run_id="run-1", session_id=sid, meta={"max_turns": 5})
    assert rid == "run-1"
    turn1 = {"number": 1, "program": "(def x 1)", "success": True, "memory": {"x": "1"}, "tool_calls": []}
    turn2 = {"number": 2, "program": "(boom)", "success": False, "memory": {"x": "1"}, "error": {"kind": "analysis"}}
    store.save_turn(rid, turn1)
    store.save_turn(rid, turn2)
    run = store.load_run(rid)
    assert run.status == "running" and run.mission == "count orders" and run.session_id == sid
    assert run.turns == (turn1, turn2) and run.meta == {"max_turns": 5} and run.memory == {"x": "1"}
    store.save_turn(rid, {**turn2, "success": True, "memory": {"x": "2"}})  # replaced, not duplicated
    assert len(store.load_run(rid).turns) == 2 and store.load_run(rid).memory == {"x": "2"}
    store.finish_run(rid, False, {"ok": False, "error": {"kind": "llm"}})
    run = store.load_run(rid)
    assert run.status == "failed" and run.outcome == {"ok": False, "error": {"kind": "llm"}}
    store.start_run("count orders", run_id=rid)  # resuming marks it running again
    assert store.load_run(rid).status == "running" and store.load_run(rid).meta == {"max_turns": 5}
    store.finish_run(rid, True, {"ok": True, "value": 3})
    assert store.load_run(rid).status == "ok"
    assert [r.id for r in store.list_runs(sid)] == [rid]
    with pytest.raises(NotFound):
        store.load_run("nope")
    with pytest.raises(NotFound):
        store.save_turn("nope", turn1)
    with pytest.raises(NotFound):
        store.finish_run("nope", True)


def test_compaction_nodes(store: Store) -> None:
    sid = store.create_session().id
    msgs = fill(store, sid, 3)
    leaf = store.add_compaction_node(sid, "tool_execution", "looked up 2 orders", [msgs[0].id, msgs[1].id],
                                     display_hint="2 calls")
    top = store.add_compaction_node(sid, "broad", "everything", [("node", leaf.id), {"message": msgs[2].id}])
    assert top.children == [{"node": leaf.id}, {"message": msgs[2].id}]
    assert store.compaction_nodes(sid) == [leaf, top]
    with pytest.raises(ValueError):
        store.add_compaction_node(sid, "galaxy", "x", [])
    with pytest.raises(NotFound):
        store.add_compaction_node("missing", "broad", "x", [])


def test_export_jsonl(store: Store) -> None:
    sid = store.create_session("exported", "agent").id
    fill(store, sid, 4)
    store.compress_range(sid, 1, 2, "sum")
    rid = store.start_run("m", session_id=sid)
    store.save_turn(rid, {"number": 1, "success": True})
    store.add_compaction_node(sid, "broad", "b", [1])
    buf = io.StringIO()
    count = store.export_jsonl(sid, buf, chunk=2)
    lines = [json.loads(line) for line in buf.getvalue().splitlines()]
    assert count == len(lines) == 1 + 5 + 1 + 1 + 1
    assert [r["kind"] for r in lines] == ["session"] + ["message"] * 5 + ["compression", "compaction_node", "run"]
    assert lines[0]["title"] == "exported"
    assert [r["seq"] for r in lines[1:6]] == [1, 2, 3, 4, 5]
    assert lines[1]["status_name"] == "compressed" and lines[1]["blocks"][0]["type"] == "text"
    assert lines[-1]["turns"] == [{"number": 1, "success": True}]
    raw = io.BytesIO()
    store.export_jsonl(sid, raw)
    assert raw.getvalue().decode().count("\n") == count


def test_delete_session(store: Store) -> None:
    sid = store.create_session().id
    other = store.create_session().id
    fill(store, sid, 3)
    fill(store, other, 2)
    store.compress_range(sid, 1, 2, "s")
    store.start_run("m", session_id=sid)
    store.delete_session(sid)
    with pytest.raises(NotFound):
        store.get_session(sid)
    assert seqs(store.display(other)) == [1, 2]


def test_reopening_a_store_keeps_everything(make_url, persistent_backend) -> None:
    url = make_url(persistent_backend)
    with Store(url) as s:
        sid = s.create_session("kept").id
        fill(s, sid, 3)
    with Store(url) as s:  # schema creation is idempotent
        assert seqs(s.display(sid)) == [1, 2, 3]
        assert s.append(sid, "user", content="more").seq == 4
