"""Numbering what the model sees: positional [1] [2]..., absolute (store seqs, with gaps)."""

from __future__ import annotations

import pytest

from ptc.conversation import forest as F
from ptc.conversation.numbering import (
    NumberingError, listing, number_for_model, numbers, resolve_last, resolve_range, seqs_of, thread,
)
from ptc.store import Store


@pytest.fixture
def store():
    s = Store(":memory:")
    yield s
    s.close()


def session_with_gap(store):
    """m1..m6, with 3..4 compressed (summary at seq 7)."""
    sid = store.create_session().id
    for i in range(1, 7):
        store.append(sid, "user" if i % 2 else "assistant", content=f"m{i}")
    store.compress_range(sid, 3, 4, "three and four")
    F.build_nodes(store, sid)
    return sid


def entries_of(store, sid):
    return F.context(list(store.full(sid).items), store.compaction_nodes(sid))


def test_positional_numbers_every_thread_message_from_one():
    msgs = [{"role": "system", "content": "prompt"}, {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello"}]
    out = number_for_model(msgs)
    assert out == [{"role": "system", "content": "prompt"}, {"role": "user", "content": "[1] hi"},
                   {"role": "assistant", "content": "[2] hello"}]
    assert msgs[1]["content"] == "hi"  # the input is not changed


def test_absolute_uses_seqs_and_keeps_gaps(store):
    sid = session_with_gap(store)
    entries = entries_of(store, sid)
    out = number_for_model(entries, "absolute")
    assert [m["content"] for m in out] == [
        "[1] m1", "[2] m2", "[7] Summary of earlier messages: three and four", "[5] m5", "[6] m6"]
    positional = number_for_model(entries, "positional")
    assert [m["content"][:4] for m in positional] == ["[1] ", "[2] ", "[3] ", "[4] ", "[5] "]
    assert [m["content"] for m in number_for_model(entries, "none")][0] == "m1"


def test_store_messages_and_dicts_with_seqs(store):
    sid = store.create_session().id
    store.append(sid, "user", content="a")
    store.append(sid, "assistant", content="b")
    msgs = list(store.display(sid).items)
    assert [m["content"] for m in number_for_model(msgs, "absolute")] == ["[1] a", "[2] b"]
    dicts = [{"role": "system", "content": "p"}, {"role": "user", "content": "x", "seq": 10}]
    out = number_for_model(dicts, "absolute")
    assert out == [{"role": "system", "content": "p"}, {"role": "user", "content": "[10] x"}]
    with pytest.raises(NumberingError):
        number_for_model([{"role": "user", "content": "no seq"}], "absolute")
    with pytest.raises(ValueError):
        number_for_model(dicts, "roman")


def test_numbers_are_only_in_the_model_view(store):
    sid = session_with_gap(store)
    number_for_model(entries_of(store, sid), "positional")
    assert [m.content for m in store.full(sid).items][:2] == ["m1", "m2"]  # the log is untouched
    text = F.render_text(F.display(list(store.full(sid).items), store.compaction_nodes(sid)))
    assert "[1]" not in text and "[7]" not in text


def test_a_tool_call_without_content_is_numbered():
    out = number_for_model([{"role": "assistant", "content": None, "tool_calls": [{"id": "c"}], "seq": 4}],
                           "absolute")
    assert out[0]["content"] == "[4] " and out[0]["tool_calls"] == [{"id": "c"}] and "seq" not in out[0]


def test_system_messages_after_the_head_are_numbered():
    msgs = [{"role": "system", "content": "p"}, {"role": "user", "content": "u"},
            {"role": "system", "content": "summary"}]
    assert numbers(msgs) == [None, 1, 2]


def test_resolve_last_and_range_positional(store):
    sid = session_with_gap(store)
    t = thread(entries_of(store, sid), "positional")
    assert [e.number for e in t] == [1, 2, 3, 4, 5]
    assert [e.text for e in resolve_last(t, 2)] == ["m5", "m6"]
    chosen = resolve_range(t, 2, 4)
    assert [e.number for e in chosen] == [2, 3, 4] and seqs_of(chosen) == [2, 5, 7]
    for bad in [(0, 2), (4, 2), (1, 6)]:
        with pytest.raises(NumberingError):
            resolve_range(t, *bad)
    for count in (0, 6, -1, "2"):
        with pytest.raises(NumberingError):
            resolve_last(t, count)  # type: ignore[arg-type]


def test_resolve_range_absolute_refuses_gaps(store):
    sid = session_with_gap(store)
    t = thread(entries_of(store, sid), "absolute")
    assert [e.number for e in t] == [1, 2, 7, 5, 6]
    assert [e.text for e in resolve_range(t, 2, 5, "absolute")] == ["m2", "Summary of earlier messages: three and four",
                                                                   "m5"]
    with pytest.raises(NumberingError, match=r"no entry \[3\]"):
        resolve_range(t, 3, 5, "absolute")  # 3 was compressed: a gap


def test_listing(store):
    sid = session_with_gap(store)
    t = thread(entries_of(store, sid), "positional")
    text = listing(t)
    assert text.splitlines()[0] == "[1] user: m1"
    assert text.splitlines()[2] == "[3] user: Summary of earlier messages: three and four"
    short = listing(t, limit=2)
    assert short.splitlines() == ["(3 earlier entries not shown)", "[4] user: m5", "[5] assistant: m6"]
    assert listing([]) == "(the thread is empty)"
