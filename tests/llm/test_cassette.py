"""Cassettes: RecordingLLM writes JSONL, ReplayLLM answers from it deterministically."""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading

import pytest

from ptc.llm.base import LLMError, Message, Reply, Usage
from ptc.llm.cassette import (
    RecordingLLM,
    ReplayLLM,
    canonical_json,
    describe_difference,
    load_cassette,
    request_key,
)
from ptc.llm.scripted import ScriptedLLM
from ptc.llm.tokens import count_message_tokens, count_tokens

SYSTEM = {"role": "system", "content": "You write PTC-Lisp programs. Answer with one program."}


def conv(*contents: str) -> list[dict[str, str]]:
    """system + alternating user/assistant messages."""
    msgs = [dict(SYSTEM)]
    for i, c in enumerate(contents):
        msgs.append({"role": "user" if i % 2 == 0 else "assistant", "content": c})
    return msgs


def lines(path) -> list[dict]:
    return [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]


def record(path, pairs, **kw):
    """Record (request, reply-text-or-Reply) pairs through a ScriptedLLM."""
    inner = ScriptedLLM([r for _, r in pairs], model="scripted-model")
    rec = RecordingLLM(inner, path, **kw)
    return [rec.complete(req) for req, _ in pairs]


# -- keys ------------------------------------------------------------------------------------

def test_key_is_sha256_of_canonical_json():
    msgs = [{"role": "user", "content": "héllo"}]
    canon = '[{"content":"héllo","role":"user"}]'
    assert canonical_json(msgs) == canon
    assert request_key(msgs) == hashlib.sha256(canon.encode("utf-8")).hexdigest()


def test_key_ignores_dict_order_but_not_content():
    a = [{"role": "user", "content": "x"}]
    b = [{"content": "x", "role": "user"}]
    assert request_key(a) == request_key(b)
    assert request_key(a) == request_key([Message(role="user", content="x")])
    assert request_key(a) != request_key([{"role": "user", "content": "x "}])
    assert request_key(a) != request_key(a + a)


# -- recording -------------------------------------------------------------------------------

def test_recording_writes_one_record_per_call(tmp_path):
    path = tmp_path / "run.jsonl"
    replies = record(path, [(conv("add 1 2"), "(+ 1 2)"), (conv("add 1 2", "(+ 1 2)", "ok"), "(done 3)")])
    assert [r.text for r in replies] == ["(+ 1 2)", "(done 3)"]
    recs = lines(path)
    assert len(recs) == 2
    first = recs[0]
    assert set(first) == {"request", "key", "reply", "usage", "model"}
    assert first["request"] == conv("add 1 2")
    assert first["key"] == request_key(conv("add 1 2"))
    assert first["reply"] == "(+ 1 2)"
    assert first["model"] == "scripted-model"
    assert first["usage"] == {"prompt_tokens": count_message_tokens(conv("add 1 2")),
                              "completion_tokens": count_tokens("(+ 1 2)"), "cost": None, "calls": 1}
    assert path.read_text(encoding="utf-8").endswith("\n")


def test_recording_keeps_usage_and_cost(tmp_path):
    path = tmp_path / "c.jsonl"
    reply = Reply(text="(+ 1 2)", usage=Usage(prompt_tokens=100, completion_tokens=7, cost=0.0123, calls=1),
                  model="gpt-4o-mini")
    record(path, [(conv("q"), reply)])
    rec = lines(path)[0]
    assert rec["usage"] == {"prompt_tokens": 100, "completion_tokens": 7, "cost": 0.0123, "calls": 1}
    assert rec["model"] == "gpt-4o-mini"


def test_recording_wraps_a_callable_and_message_objects(tmp_path):
    path = tmp_path / "c.jsonl"
    rec = RecordingLLM(lambda msgs: f"(echo {len(msgs)})", path)
    reply = rec.complete([Message(role="system", content="s"), Message(role="user", content="u")])
    assert reply.text == "(echo 2)"
    assert lines(path)[0]["request"] == [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]


def test_recording_async(tmp_path):
    path = tmp_path / "c.jsonl"
    rec = RecordingLLM(ScriptedLLM(["(a)", "(b)"]), path)

    async def main():
        return [await rec.acomplete(conv("1")), await rec.acomplete(conv("2"))]

    assert [r.text for r in asyncio.run(main())] == ["(a)", "(b)"]
    assert [r["reply"] for r in lines(path)] == ["(a)", "(b)"]


def test_recording_appends_unless_overwrite(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("1"), "(a)")])
    record(path, [(conv("2"), "(b)")])
    assert [r["reply"] for r in lines(path)] == ["(a)", "(b)"]
    record(path, [(conv("3"), "(c)")], overwrite=True)
    assert [r["reply"] for r in lines(path)] == ["(c)"]


def test_recording_creates_parent_dirs(tmp_path):
    path = tmp_path / "deep" / "er" / "c.jsonl"
    record(path, [(conv("1"), "(a)")])
    assert len(lines(path)) == 1


def test_failed_calls_are_not_recorded(tmp_path):
    path = tmp_path / "c.jsonl"
    rec = RecordingLLM(ScriptedLLM(["(a)", LLMError("rate_limit", "slow down")]), path)
    rec.complete(conv("1"))
    with pytest.raises(LLMError):
        rec.complete(conv("2"))
    assert len(lines(path)) == 1 and rec.recorded == 1


def test_recording_is_byte_deterministic(tmp_path):
    pairs = [(conv("ünïcode ✓"), "(str \"✓\")"), (conv("x"), "(+ 1 2)")]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    record(a, pairs)
    record(b, pairs)
    assert a.read_bytes() == b.read_bytes()
    assert "✓" in a.read_text(encoding="utf-8")  # readable, not \\u-escaped


def test_recording_from_threads(tmp_path):
    path = tmp_path / "c.jsonl"
    rec = RecordingLLM(lambda msgs: "(x)" * 200, path)
    threads = [threading.Thread(target=lambda i=i: [rec.complete(conv(f"{i}-{j}")) for j in range(20)])
               for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    recs = lines(path)
    assert len(recs) == 160 and len({r["key"] for r in recs}) == 160


# -- replay ----------------------------------------------------------------------------------

def test_replay_answers_from_the_cassette(tmp_path):
    path = tmp_path / "c.jsonl"
    reply = Reply(text="(+ 1 2)", usage=Usage(prompt_tokens=100, completion_tokens=7, cost=0.5, calls=1),
                  model="gpt-4o-mini")
    record(path, [(conv("q"), reply), (conv("q", "(+ 1 2)", "more"), "(done)")])
    replay = ReplayLLM(path)
    assert replay.remaining == 2
    first = replay.complete(conv("q"))
    assert first == reply  # text, usage (incl. cost) and model from the record
    second = replay.complete([Message(**m) for m in conv("q", "(+ 1 2)", "more")])
    assert second.text == "(done)" and second.model == "scripted-model"
    assert replay.requests == [conv("q"), conv("q", "(+ 1 2)", "more")]
    assert replay.remaining == 0


def test_replay_out_of_order_matches_by_key(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)"), (conv("b"), "(b)"), (conv("c"), "(c)")])
    replay = ReplayLLM(path)
    assert [replay.complete(conv(x)).text for x in "cab"] == ["(c)", "(a)", "(b)"]


def test_repeated_request_gets_replies_in_recorded_order(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("roll"), "(1)"), (conv("other"), "(x)"), (conv("roll"), "(2)"), (conv("roll"), "(3)")])
    replay = ReplayLLM(path)
    assert [replay.complete(conv("roll")).text for _ in range(3)] == ["(1)", "(2)", "(3)"]
    with pytest.raises(LLMError) as info:
        replay.complete(conv("roll"))
    assert info.value.kind == "replay"
    assert "recorded 3 time(s)" in info.value.message and "already replayed" in info.value.message
    assert replay.complete(conv("other")).text == "(x)"


def test_non_strict_repeats_last_reply(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("roll"), "(1)"), (conv("roll"), "(2)")])
    replay = ReplayLLM(path, strict=False)
    assert [replay.complete(conv("roll")).text for _ in range(4)] == ["(1)", "(2)", "(2)", "(2)"]


def test_replay_async(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)")])
    replay = ReplayLLM(path)
    assert asyncio.run(replay.acomplete(conv("a"))).text == "(a)"


def test_replay_is_deterministic(tmp_path):
    path = tmp_path / "c.jsonl"
    pairs = [(conv(str(i % 3)), f"({i})") for i in range(9)]
    record(path, pairs)

    def run():
        replay = ReplayLLM(path)
        return [replay.complete(req).text for req, _ in pairs]

    assert run() == run() == [r for _, r in pairs]


# -- misses ----------------------------------------------------------------------------------

def test_miss_explains_the_first_difference(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("Find the total of the orders placed in March 2024."), "(a)"),
                  (conv("something else entirely"), "(b)")])
    replay = ReplayLLM(path)
    with pytest.raises(LLMError) as info:
        replay.complete(conv("Find the total of the orders placed in April 2024."))
    err = info.value
    assert err.kind == "replay"
    msg = err.message
    assert "not in" in msg and str(path) in msg and "2 records" in msg
    assert "record #1 (line 1)" in msg  # the closest one
    assert "message 1 (user)" in msg and "character 39" in msg
    assert "March" in msg and "April" in msg
    assert "recorded:" in msg and "got:" in msg
    assert replay.requests[-1] == conv("Find the total of the orders placed in April 2024.")


def test_miss_picks_the_closest_request(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)"), (conv("a", "(a)", "turn 2"), "(b)"), (conv("zzz"), "(z)")])
    replay = ReplayLLM(path)
    with pytest.raises(LLMError) as info:
        replay.complete(conv("a", "(a)", "turn 2!"))
    assert "record #2 (line 2)" in info.value.message
    assert "message 3 (user)" in info.value.message


def test_miss_with_extra_or_missing_messages(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a", "(a)"), "(b)")])
    replay = ReplayLLM(path)
    with pytest.raises(LLMError) as info:
        replay.complete(conv("a", "(a)", "and then?"))
    assert "the request has 4 messages, the recorded one 3" in info.value.message
    assert "first extra message 3 (user)" in info.value.message and "and then?" in info.value.message
    with pytest.raises(LLMError) as info:
        replay.complete(conv("a"))
    assert "missing message 2 (assistant)" in info.value.message


def test_miss_with_different_role_or_system_prompt(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)")])
    replay = ReplayLLM(path)
    changed = conv("a")
    changed[1]["role"] = "assistant"
    with pytest.raises(LLMError) as info:
        replay.complete(changed)
    assert "message 1: role 'assistant', recorded 'user'" in info.value.message
    new_system = conv("a")
    new_system[0]["content"] = SYSTEM["content"].replace("one program", "a single program")
    with pytest.raises(LLMError) as info:
        replay.complete(new_system)
    assert "message 0 (system) content differs" in info.value.message


def test_miss_long_contents_are_clipped(tmp_path):
    path = tmp_path / "c.jsonl"
    base = "x" * 5000
    record(path, [(conv(base + "A" + base), "(a)")])
    with pytest.raises(LLMError) as info:
        ReplayLLM(path).complete(conv(base + "B" + base))
    assert len(info.value.message) < 1000 and "character 5000" in info.value.message


def test_miss_on_empty_cassette(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text("")
    with pytest.raises(LLMError, match="empty"):
        ReplayLLM(path).complete(conv("a"))


def test_missing_cassette_file(tmp_path):
    with pytest.raises(LLMError) as info:
        ReplayLLM(tmp_path / "nope.jsonl")
    assert info.value.kind == "replay" and "nope.jsonl" in info.value.message


def test_non_strict_falls_back_to_recorded_order(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)"), (conv("b"), "(b)")])
    replay = ReplayLLM(path, strict=False)
    assert replay.complete(conv("b")).text == "(b)"
    assert replay.complete(conv("changed")).text == "(a)"  # next unused record
    assert len(replay.misses) == 1 and "record #1" in replay.misses[0]
    with pytest.raises(LLMError):
        replay.complete(conv("changed again"))  # nothing left


def test_describe_difference_identical():
    assert describe_difference(conv("a"), conv("a")) == "the requests are identical"


# -- robustness ------------------------------------------------------------------------------

def test_truncated_last_line_is_ignored(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)"), (conv("b"), "(b)")])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 25])  # crash in the middle of writing record 2
    replay = ReplayLLM(path)
    assert len(replay.records) == 1
    assert replay.complete(conv("a")).text == "(a)"
    with pytest.raises(LLMError):
        replay.complete(conv("b"))


def test_recording_after_a_truncated_line_repairs_the_file(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)"), (conv("b"), "(b)")])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 25])
    record(path, [(conv("c"), "(c)")])
    # the partial record was cut off; every line is valid and strict replay loads it
    assert [r["reply"] for r in lines(path)] == ["(a)", "(c)"]
    replay = ReplayLLM(path)
    assert replay.complete(conv("c")).text == "(c)"


def test_complete_last_line_without_newline_is_kept(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)")])
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert ReplayLLM(path).complete(conv("a")).text == "(a)"
    record(path, [(conv("b"), "(b)")])
    assert [r["reply"] for r in lines(path)] == ["(a)", "(b)"]


def test_malformed_middle_line(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)")])
    with open(path, "a", encoding="utf-8") as f:
        f.write("{not json\n")
    record(path, [(conv("b"), "(b)")])
    with pytest.raises(LLMError) as info:
        ReplayLLM(path)
    assert info.value.kind == "replay" and "line 2" in info.value.message
    replay = ReplayLLM(path, strict=False)
    assert replay.complete(conv("b")).text == "(b)"


def test_blank_lines_and_crlf_are_tolerated(tmp_path):
    path = tmp_path / "c.jsonl"
    record(path, [(conv("a"), "(a)"), (conv("b"), "(b)")])
    text = path.read_text(encoding="utf-8").replace("\n", "\r\n\n")
    path.write_bytes(text.encode("utf-8"))
    replay = ReplayLLM(path)
    assert [replay.complete(conv(x)).text for x in "ab"] == ["(a)", "(b)"]


def test_hand_written_cassette(tmp_path):
    path = tmp_path / "c.jsonl"
    req = [{"role": "user", "content": "what is 1+2?"}]
    # no key/usage/model; and a stale key is ignored in favour of the request
    path.write_text(json.dumps({"request": req, "reply": "(+ 1 2)", "key": "stale"}) + "\n"
                    + json.dumps({"key": request_key(conv("k")), "reply": "(k)"}) + "\n", encoding="utf-8")
    replay = ReplayLLM(path)
    reply = replay.complete(req)
    assert reply.text == "(+ 1 2)" and reply.model is None
    assert reply.usage == Usage(prompt_tokens=count_message_tokens(req), completion_tokens=count_tokens("(+ 1 2)"),
                                calls=1)
    assert replay.complete(conv("k")).text == "(k)"  # a key-only record still matches


def test_invalid_record_shapes(tmp_path):
    path = tmp_path / "c.jsonl"
    for bad in ['[1, 2]', '{"reply": 3, "request": []}', '{"reply": "x"}', '{"reply": "x", "request": "nope"}',
                '{"reply": "x", "request": [], "usage": {"prompt_tokens": "many"}}']:
        path.write_text(bad + "\n" + json.dumps({"request": conv("a"), "reply": "(a)"}) + "\n")
        with pytest.raises(LLMError, match="line 1"):
            load_cassette(path)
        assert len(load_cassette(path, strict=False)) == 1


def test_round_trip_with_litellm_mock(tmp_path):
    litellm = pytest.importorskip("litellm")  # noqa: F841
    from ptc.llm.litellm_client import LiteLLM

    path = tmp_path / "c.jsonl"
    live = RecordingLLM(LiteLLM("openai/gpt-4o-mini", mock_response="(+ 1 2)"), path)
    recorded = live.complete(conv("add"))
    assert live.model == "openai/gpt-4o-mini"
    replayed = ReplayLLM(path).complete(conv("add"))
    assert replayed == recorded
    assert replayed.usage.cost is not None and replayed.usage.prompt_tokens == 10
