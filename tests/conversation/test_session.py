"""ChatSession: chat and agent mode over one stored session, with a scripted model."""

from __future__ import annotations

import json

import pytest

import ptc
from ptc.conversation.session import ChatSession, default_settings, strip_number
from ptc.llm.base import LLMError
from ptc.llm.scripted import ScriptedLLM
from ptc.store import COMPRESSED, Store

RENDERERS = ["builder", "forest"]


@ptc.tool
def lookup(region: str) -> dict:
    "Revenue of a region."
    return {"region": region, "revenue": {"north": 120, "south": 80}.get(region, 0)}


@ptc.tool
def rows(n: int) -> list[dict]:
    "Many rows."
    return [{"id": i, "text": "row text " * 5} for i in range(n)]


def program(code: str) -> str:
    return f"```clojure\n{code}\n```"


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("PTC_HOME", str(tmp_path / "home"))
    s = Store(tmp_path / "chat.db")
    yield s
    s.close()


def log(store, sid):
    return list(store.full(sid).items)


def contents(request):
    return [m["content"] for m in request]


@pytest.mark.parametrize("renderer", RENDERERS)
def test_chat_mode_answers_from_the_numbered_context(store, renderer):
    llm = ScriptedLLM(["Hello!", "[4] You said hi."])
    chat = ChatSession(store, llm=llm, renderer=renderer)
    first = chat.send("hi")
    assert first.ok and first.text == "Hello!" and first.mode == "chat"
    assert first.usage.status == "normal" and 0 < first.usage.percent < 10
    second = chat.send("what did I say?")
    assert second.text == "You said hi."  # a copied "[n] " is not kept
    request = llm.requests[1]
    assert request[0]["role"] == "system" and "MODE: active=chat" in request[0]["content"]
    assert contents(request)[1:] == ["[1] hi", "[2] Hello!", "[3] what did I say?"]
    stored = log(store, chat.session_id)
    assert [(m.role, m.content, m.mode) for m in stored] == [
        ("user", "hi", "chat"), ("assistant", "Hello!", "chat"), ("user", "what did I say?", "chat"),
        ("assistant", "You said hi.", "chat")]
    assert "[1]" not in chat.view_text("display")


@pytest.mark.parametrize("renderer", RENDERERS)
def test_agent_mode_runs_a_mission_that_sees_the_conversation(store, renderer):
    llm = ScriptedLLM([
        "North and south are the regions.",
        program('(def n (tool/lookup {:region "north"}))\n(def s (tool/lookup {:region "south"}))\n(:revenue n)'),
        program("(return (max (:revenue n) (:revenue s)))"),
    ])
    chat = ChatSession(store, llm=llm, tools=[lookup], renderer=renderer)
    chat.send("which regions are there?")
    chat.set_mode("agent")
    reply = chat.send("which one sells most?")
    assert reply.ok and reply.value == 120 and reply.text == "120" and reply.run_id
    first_turn = llm.requests[1]
    assert "PTC-Lisp" in first_turn[0]["content"] and "MODE: active=agent" in first_turn[0]["content"]
    assert "(tool/compress-last" in first_turn[0]["content"] and "(tool/read-artifact" in first_turn[0]["content"]
    assert contents(first_turn)[1:] == ["[1] which regions are there?", "[2] North and south are the regions.",
                                        "[3] which one sells most?"]
    second_turn = contents(llm.requests[2])
    assert any("Result: 120" in c for c in second_turn)  # the feedback of turn 1, read back from the store
    stored = log(store, chat.session_id)
    assert stored[-1].content == "Answer: 120" and stored[-1].mode == "agent"
    assert store.load_run(reply.run_id).session_id == chat.session_id
    runs = {m.run_id for m in stored if m.mode == "agent"}
    assert runs == {reply.run_id}
    nodes = store.compaction_nodes(chat.session_id)
    assert [n.type for n in nodes] == ["tool_execution", "tool_execution", "tool_loop"]
    assert nodes[0].summary == 'lookup({:region "north"}) -> map[2]'
    shown = chat.view("display")
    loop = next(e for e in shown if e.kind == "tool_loop")
    assert loop.children == ('lookup({:region "north"}) -> map[2]', 'lookup({:region "south"}) -> map[2]')


def test_chat_replies_keep_what_the_provider_billed(store):
    from ptc.llm.base import Reply, Usage

    billed = Usage(prompt_tokens=2_000, completion_tokens=9, cached_tokens=1_536, cache_write_tokens=0, cost=0.001,
                   calls=1)
    chat = ChatSession(store, llm=ScriptedLLM([Reply(text="Hello!", usage=billed)]))
    chat.send("hi")
    block = log(store, chat.session_id)[-1].blocks[0]
    assert block.data == {"prompt_tokens": 2_000, "completion_tokens": 9, "cached_tokens": 1_536,
                          "cache_write_tokens": 0, "cost": 0.001}


def test_mode_switch_is_persisted_and_keeps_the_history(store):
    llm = ScriptedLLM(["one", program("(return 2)"), "three"])
    chat = ChatSession(store, llm=llm)
    chat.send("a")
    chat.set_mode("agent")
    assert store.get_session(chat.session_id).mode == "agent"
    again = ChatSession(store, chat.session_id, llm=llm)
    assert again.mode == "agent"
    assert again.send("b").value == 2
    again.set_mode("chat")
    assert again.send("c").text == "three"
    last = contents(llm.requests[-1])
    assert "MODE: active=chat" in last[0]
    assert last[1:] == ["[1] a", "[2] one", "[3] b", "[4] ```clojure\n(return 2)\n```", "[5] Answer: 2", "[6] c"]
    with pytest.raises(ValueError):
        again.set_mode("debug")


@pytest.mark.parametrize("renderer", RENDERERS)
def test_compaction_before_a_request_over_the_trigger(store, renderer):
    llm = ScriptedLLM([f"Reply {i}: " + "words " * 120 for i in range(20)])
    chat = ChatSession(store, llm=llm, renderer=renderer,
                       settings=default_settings(budget=2400, reserve_for_reply=400))
    compacted = []
    for i in range(9):
        reply = chat.send(f"Question {i}: " + "blah " * 30)
        assert reply.ok
        if reply.compacted is not None:
            compacted.append(reply.compacted)
    assert compacted, "the conversation outgrew the trigger; a compaction should have run"
    assert compacted[0].tokens_after < compacted[0].tokens_before
    sid = chat.session_id
    assert store.stats(sid).messages["compressed"] > 0
    assert any(n.type == "broad" for n in store.compaction_nodes(sid))
    assert chat.usage().status != "compacting"
    # compressed messages are still in the full view
    assert any(e.status == "compressed" for e in chat.view("full") if e.kind == "message")


@pytest.mark.parametrize("renderer", RENDERERS)
def test_compact_now(store, renderer):
    llm = ScriptedLLM([f"answer {i}" for i in range(10)])
    chat = ChatSession(store, llm=llm, renderer=renderer)
    for i in range(5):
        chat.send(f"question {i}")
    before = chat.usage().used
    done = chat.compact()
    assert done is not None and done.messages >= 4 and done.tokens_after < before
    request_after = chat.send("and now?")
    assert request_after.ok
    last = contents(llm.requests[-1])
    assert any("CONVERSATION_SUMMARY" in c for c in last)
    assert "question 0" not in " ".join(c for c in last if "CONVERSATION_SUMMARY" not in c)


def test_rollback_by_display_seq(store):
    llm = ScriptedLLM(["r1", program('(tool/lookup {:region "north"})'), program("(return 1)"), "r3"])
    chat = ChatSession(store, llm=llm, tools=[lookup])
    chat.send("q1")  # seqs 1, 2
    chat.set_mode("agent")
    chat.send("q2")  # 3 mission, 4 reply, 5-6 exchange, 7 feedback, 8 reply, 9 answer
    exchange = next(e for e in chat.view("display") if e.kind == "tool_execution")
    assert (exchange.first_seq, exchange.last_seq) == (5, 6)
    hidden = chat.rollback(5)  # inside the exchange: it is kept whole
    assert hidden == 3
    assert [m.seq for m in store.display(chat.session_id).items] == [1, 2, 3, 4, 5, 6]
    assert chat.rollback(2) == 4
    chat.set_mode("chat")
    assert chat.send("q3").text == "r3"
    assert contents(llm.requests[-1])[1:] == ["[1] q1", "[2] r1", "[3] q3"]
    assert all(m.status == COMPRESSED for m in log(store, chat.session_id)[2:9])
    with pytest.raises(ValueError):
        chat.rollback(-1)


def test_resume_after_an_llm_error_in_chat_mode(store):
    first = ScriptedLLM(["Hello!", LLMError("timeout", "the model took too long", partial="The answ")])
    chat = ChatSession(store, llm=first)
    chat.send("hi")
    failed = chat.send("what is 6 times 7?")
    assert not failed.ok and failed.error_kind == "timeout" and failed.text == "The answ"
    assert "LLM error (timeout)" in failed.error
    sid = chat.session_id
    # a new process: the session is resumed with a model that works
    second = ScriptedLLM(["The answer is 42."])
    resumed = ChatSession(store, sid, llm=second)
    assert resumed.pending_error() is not None
    reply = resumed.continue_()
    assert reply.ok and reply.text == "The answer is 42."
    request = contents(second.requests[0])[1:]
    assert request[-3:] == ["[3] what is 6 times 7?",
                            "[4] The answ\n\nLLM_ERROR kind=timeout: the model took too long", "[5] continue"]
    assert resumed.pending_error() is None
    with pytest.raises(ValueError, match="nothing to continue"):
        resumed.continue_()


def test_resume_after_an_llm_error_in_agent_mode(store):
    first = ScriptedLLM([program('(def n (tool/lookup {:region "north"}))\n(:revenue n)'),
                         LLMError("server", "502 bad gateway")])
    chat = ChatSession(store, llm=first, tools=[lookup], mode="agent")
    failed = chat.send("north revenue doubled?")
    assert not failed.ok and failed.error_kind == "server" and failed.run_id
    sid, run_id = chat.session_id, failed.run_id
    assert store.load_run(run_id).status == "failed"
    second = ScriptedLLM([program("(return (* 2 (:revenue n)))")])  # n is restored by the resume
    resumed = ChatSession(store, sid, llm=second, tools=[lookup])
    assert resumed.mode == "agent"
    reply = resumed.continue_()
    assert reply.ok and reply.value == 240 and reply.run_id == run_id
    assert store.load_run(run_id).status == "ok"
    stored = log(store, sid)
    assert [m.content for m in stored if m.role == "user" and m.content == "north revenue doubled?"] == \
        ["north revenue doubled?"]  # the mission is not repeated
    request = contents(second.requests[0])
    assert any("LLM_ERROR kind=server: 502 bad gateway" in c for c in request)
    assert request[-1].endswith("continue")


def test_a_failed_first_turn_is_continued_without_repeating_the_mission(store):
    llm = ScriptedLLM([LLMError("rate_limit", "slow down"), program("(return :ok)")])
    chat = ChatSession(store, llm=llm, mode="agent")
    assert not chat.send("go").ok
    assert chat.continue_().ok
    assert [m.content for m in log(store, chat.session_id) if m.role == "user"] == ["go", "continue"]


@pytest.mark.parametrize("renderer", RENDERERS)
def test_big_tool_results_go_to_artifacts_and_are_read_back(store, renderer):
    llm = ScriptedLLM([
        program("(def r (tool/rows {:n 200}))\n(count r)"),
        lambda messages: program(
            f'(return (:text (tool/read-artifact {{:path "{_alias(messages)}" :offset 0 :limit 30}})))'),
    ])
    chat = ChatSession(store, llm=llm, tools=[rows], mode="agent", renderer=renderer, artifact_threshold=2000)
    reply = chat.send("look at the rows")
    assert reply.ok, reply.error
    assert reply.value == json.dumps([{"id": 0, "text": "row text " * 5}])[:30]
    result = next(m for m in log(store, chat.session_id) if m.role == "tool")
    data = result.blocks[0].data
    alias = data["artifact"]
    assert alias.startswith("artifacts/") and data["size"] > 2000
    assert len(result.content) < 1200 and alias in result.content
    assert chat.artifacts.read(alias, 0, 10)["total"] == data["size"]
    assert data["summary"] == "rows({:n 200}) -> list[200]"  # summarized from the real result
    line = next(e for e in chat.view("display") if e.kind == "tool_execution").text
    assert line == f"Tool call: rows({{:n 200}}) -> list[200] (full result saved as {alias})"
    assert chat.stats()["artifacts"] == 1


def _alias(messages):
    import re

    for m in messages[1:]:  # not the system prompt (its tool docs show an example path)
        found = re.search(r"artifacts/[\w.-]+\.txt", m.get("content") or "")
        if found:
            return found.group(0)
    raise AssertionError("the preview's path is not in the context")


@pytest.mark.parametrize("renderer", RENDERERS)
def test_the_model_compresses_its_own_history(store, renderer):
    llm = ScriptedLLM(["a1", "a2",
                       program('(tool/compress-range {:from 1 :to 4 :summary "greetings were exchanged"})'),
                       program("(return :done)")])
    chat = ChatSession(store, llm=llm, renderer=renderer)
    chat.send("q1")
    chat.send("q2")
    chat.set_mode("agent")
    assert chat.send("tidy up your history").ok
    after = contents(llm.requests[-1])
    assert not any(c.endswith(("q1", "a1", "q2", "a2")) for c in after)
    assert any("greetings were exchanged" in c for c in after)
    stored = log(store, chat.session_id)
    assert [m.status for m in stored[:4]] == [COMPRESSED] * 4
    assert any(n.type == "broad" and n.summary == "greetings were exchanged"
               for n in store.compaction_nodes(chat.session_id))


@pytest.mark.parametrize("renderer", RENDERERS)
def test_view_thread_lists_what_the_prompt_numbers(store, renderer):
    llm = ScriptedLLM(["a1", program("(println (tool/view-thread))"), program("(return :ok)")])
    chat = ChatSession(store, llm=llm, renderer=renderer)
    chat.send("q1")
    chat.set_mode("agent")
    assert chat.send("show me the thread").ok
    prompt = contents(llm.requests[1])[1:]
    feedback = next(c for c in contents(llm.requests[2])[1:] if "Output:" in c)
    listed = [line for line in feedback.splitlines()[1:] if line.startswith("[")]
    assert len(listed) == len(prompt) + 1  # the reply with the program came after the prompt
    for line, shown in zip(listed, prompt):
        number = shown.split(" ", 1)[0]
        assert line.startswith(number + " ") and shown[len(number) + 1:][:20].split("\n")[0] in line


def test_absolute_numbering(store):
    llm = ScriptedLLM(["a1", "a2", "a3"])
    chat = ChatSession(store, llm=llm, settings=default_settings(numbering="absolute"))
    chat.send("q1")
    chat.send("q2")
    store.compress_range(chat.session_id, 1, 2, "first exchange")
    chat.send("q3")
    request = contents(llm.requests[-1])[1:]
    assert request[0].startswith("[5] ") and "first exchange" in request[0]  # the summary keeps its seq
    assert request[1:] == ["[3] q2", "[4] a2", "[6] q3"]  # gaps where 1 and 2 were


def test_views_and_stats(store):
    llm = ScriptedLLM(["fine"])
    chat = ChatSession(store, llm=llm, title="demo")
    chat.send("how are you?")
    assert [e.text for e in chat.view("display")] == ["how are you?", "fine"]
    assert chat.view_text("context").splitlines()[-1].endswith("[2] fine")
    assert "#1 user: how are you?" in chat.view_text("full")
    stats = chat.stats()
    assert stats["title"] == "demo" and stats["messages"]["active"] == 2 and stats["mode"] == "chat"
    assert stats["context"]["status"] == "normal"
    with pytest.raises(ValueError):
        chat.view("everything")


def test_sessions_by_prefix_and_new_ids(store):
    chat = ChatSession(store, llm=ScriptedLLM([]), title="x")
    assert ChatSession(store, chat.session_id[:6], llm=ScriptedLLM([])).session_id == chat.session_id
    made = ChatSession(store, "my-own-id", llm=ScriptedLLM([]))
    assert made.session_id == "my-own-id" and store.get_session("my-own-id").mode == "chat"
    with pytest.raises(ValueError):
        ChatSession(store, llm=ScriptedLLM([]), mode="debug")
    with pytest.raises(ValueError):
        chat.send("   ")


def test_strip_number():
    assert strip_number("[12] Hello") == "Hello"
    assert strip_number("Hello [12]") == "Hello [12]"
    assert strip_number("") == ""
