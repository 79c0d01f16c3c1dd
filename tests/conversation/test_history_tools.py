"""view-thread, compress-last and compress-range: the model compresses its own history."""

from __future__ import annotations

import json

import pytest

import ptc
from ptc.conversation import forest as F
from ptc.conversation.history_tools import History, compress_entries, history_tools, segments_for
from ptc.conversation.numbering import ThreadEntry
from ptc.store import COMPRESSED, SUMMARY, Block, Store


@pytest.fixture
def store():
    s = Store(":memory:")
    yield s
    s.close()


def chat_log(store, n=6):
    sid = store.create_session().id
    for i in range(1, n + 1):
        store.append(sid, "user" if i % 2 else "assistant", content=f"m{i}")
    return sid


def run(program, tools):
    return ptc.run(program, tools={t.name: t for t in tools})


def contents(store, sid):
    return [e.text for e in F.Forest.load(store, sid).context()]


def test_view_thread_lists_numbered_entries(store):
    sid = chat_log(store, 3)
    result = run("(tool/view-thread)", history_tools(store, sid))
    assert result.value == "[1] user: m1\n[2] assistant: m2\n[3] user: m3"
    assert run("(tool/view-thread {:limit 1})", history_tools(store, sid)).value.splitlines()[-1] == "[3] user: m3"


def test_compress_last_hides_entries_behind_the_models_summary(store):
    sid = chat_log(store)
    result = run('(tool/compress-last {:count 3 :summary "m4 to m6: greetings"})', history_tools(store, sid))
    assert result.value["compressed"] == 3 and result.value["entries"] == "[4]..[6]"
    assert result.value["summary-seq"] == 7
    log = list(store.full(sid).items)
    assert [m.status for m in log[3:6]] == [COMPRESSED] * 3  # still in the full view
    summary = log[6]
    assert summary.priority == SUMMARY and summary.content == "m4 to m6: greetings"
    assert contents(store, sid) == ["m1", "m2", "m3", "Summary of earlier messages: m4 to m6: greetings"]
    broad = [n for n in store.compaction_nodes(sid) if n.type == "broad"]
    assert len(broad) == 1 and broad[0].summary == "m4 to m6: greetings"
    assert store.compression_records(sid)[0].strategy == "compress-last"


def test_compress_range_positional_then_positions_shift(store):
    sid = chat_log(store)
    tools = history_tools(store, sid)
    run('(tool/compress-range {:from 2 :to 3 :summary "two and three"})', tools)
    assert contents(store, sid) == ["m1", "Summary of earlier messages: two and three", "m4", "m5", "m6"]
    listing = run("(tool/view-thread)", tools).value
    assert listing.splitlines()[2] == "[3] assistant: m4"  # renumbered after the compression


def test_compress_range_absolute_uses_stable_numbers(store):
    sid = chat_log(store)
    tools = History(store, sid, numbering="absolute").tools()
    run('(tool/compress-range {:from 3 :to 4 :summary "3-4"})', tools)  # summary is seq 7
    assert run("(tool/view-thread)", tools).value.splitlines()[2] == "[7] user: Summary of earlier messages: 3-4"
    err = pytest.raises(ptc.PTCError, run, '(tool/compress-range {:from 3 :to 5 :summary "x"})', tools).value
    assert err.kind == "tool" and "no entry [3]" in err.message  # a gap is not an entry
    run('(tool/compress-range {:from 2 :to 5 :summary "2-5, incl. the summary of 3-4"})', tools)
    assert contents(store, sid) == ["m1", "Summary of earlier messages: 2-5, incl. the summary of 3-4", "m6"]


@pytest.mark.parametrize("program, message", [
    ('(tool/compress-last {:count 0 :summary "x"})', "count must be a positive integer"),
    ('(tool/compress-last {:count 9 :summary "x"})', "only 6 entries"),
    ('(tool/compress-range {:from 4 :to 2 :summary "x"})', "empty range"),
    ('(tool/compress-range {:from 1 :to 7 :summary "x"})', "outside the thread"),
    ('(tool/compress-last {:count 2 :summary "  "})', "non-empty"),
    ("(tool/compress-last {:count 2})", "missing required parameter summary"),
])
def test_mistakes_are_tool_errors(store, program, message):
    sid = chat_log(store)
    with pytest.raises(ptc.PTCError) as info:
        run(program, history_tools(store, sid))
    assert info.value.kind == "tool" and message in info.value.message
    assert store.stats(sid).messages["compressed"] == 0


def test_numbers_refer_to_what_the_model_was_shown(store):
    sid = chat_log(store, 4)
    history = History(store, sid)
    history.shown(F.Forest.load(store, sid).context())  # the prompt showed [1]..[4]
    store.append(sid, "assistant", content="the reply being written now")
    run('(tool/compress-last {:count 2 :summary "m3 and m4"})', history.tools())
    assert contents(store, sid) == ["m1", "m2", "Summary of earlier messages: m3 and m4",
                                    "the reply being written now"]


def test_a_range_across_an_earlier_compression_is_split_but_shown_once(store):
    sid = chat_log(store)
    tools = history_tools(store, sid)
    run('(tool/compress-range {:from 3 :to 4 :summary "inner"})', tools)
    # thread: m1 m2 S(inner) m5 m6 -- compress [2]..[4]: seqs 2, 7, 5 are not one range
    run('(tool/compress-range {:from 2 :to 4 :summary "outer"})', tools)
    records = [r for r in store.compression_records(sid) if r.status == 0]
    assert [(r.start_seq, r.end_seq) for r in records] == [(3, 4), (2, 2), (5, 5), (7, 7)]
    assert contents(store, sid) == ["m1", "Summary of earlier messages: outer", "m6"]
    shown = F.Forest.load(store, sid).display()
    assert shown[1].hidden == 4  # m2 m3 m4 m5
    # the stubs of the split are invalidated: the store's own context shows one summary too
    summaries = [m for m in store.context(sid, include_compressed=False).items if m.priority == SUMMARY]
    assert [m.content for m in summaries] == ["outer"]
    assert store.stats(sid).messages["invalid"] == 2


def test_a_range_may_not_cut_a_tool_call_from_its_result(store):
    sid = store.create_session().id
    store.append(sid, "user", content="go")
    call = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": json.dumps({"q": "x"})}}
    store.append_many(sid, [dict(role="assistant", tool_calls=[call], blocks=[Block("tool_call", "{}")]),
                            dict(role="tool", tool_call_id="c1", content="[1]")])
    store.append(sid, "user", content="Result: 1")
    history = History(store, sid)
    # a message-per-entry listing (as the builder numbers the request) can address the call alone
    history.shown([ThreadEntry(i, i, m.seq, m.role, m.content or "", (m.seq,))
                   for i, m in enumerate(store.display(sid).items, start=1)])
    with pytest.raises(ptc.PTCError) as info:
        run('(tool/compress-range {:from 1 :to 2 :summary "x"})', history.tools())
    assert info.value.kind == "tool" and "separate" in info.value.message
    assert store.stats(sid).messages["compressed"] == 0
    # in the forest's listing the exchange is one entry, so it is always compressed whole
    history.forget()
    assert run('(tool/compress-range {:from 1 :to 2 :summary "searched x"})', history.tools()).value["messages"] == 3


def test_segments_for():
    class M:
        def __init__(self, seq, status=0):
            self.seq, self.status = seq, status

    log = [M(1), M(2), M(3, 2), M(4), M(5, 1), M(6), M(7)]
    assert segments_for(log, [1, 2, 4, 6]) == [(1, 2), (4, 6)]  # 5 is invalid: fine inside a range
    assert segments_for(log, [4, 7]) == [(4, 4), (7, 7)]
    with pytest.raises(ValueError, match="no longer active"):
        segments_for(log, [3])


def test_compress_entries_directly(store):
    sid = chat_log(store)
    entries = F.Forest.load(store, sid).context()[:2]
    done = compress_entries(store, sid, entries, "m1 m2", strategy="test")
    assert done.messages == 2 and done.node.type == "broad" and done.summary_seq == 7
    assert done.tokens_before > 0 and len(done.records) == 1
    with pytest.raises(ValueError):
        compress_entries(store, sid, entries, "again")  # already compressed
    with pytest.raises(ValueError):
        compress_entries(store, sid, entries, "")


def test_signatures_for_the_prompt(store):
    sid = chat_log(store, 1)
    sigs = {t.name: t.signature() for t in history_tools(store, sid)}
    assert sigs["compress-range"].startswith("(tool/compress-range {:from :int, :to :int, :summary :string})")
    assert sigs["compress-last"].startswith("(tool/compress-last {:count :int, :summary :string})")
    assert sigs["view-thread"].startswith("(tool/view-thread {:limit :int?})")
