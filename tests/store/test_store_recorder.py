"""recorder(): a whole agent run persisted as a protocol-complete log."""

from __future__ import annotations

import ptc
from ptc.llm.base import LLMError
from ptc.store import Store, recorder


def block(code: str) -> str:
    return f"Here is my program.\n```clojure\n{code}\n```"


def lookup(id: int) -> dict:
    """Look up an order by id."""
    return {"id": id, "amount": 10 * id}


def boom(x: int) -> int:
    """Always fails."""
    raise RuntimeError("tool exploded")


def protocol_ok(messages: list[dict]) -> None:
    """Every tool message answers a call of the nearest assistant tool_calls message before it."""
    open_calls: set[str] = set()
    for m in messages:
        if m["role"] == "assistant" and m.get("tool_calls"):
            assert not open_calls, "a new tool-call message before all results arrived"
            open_calls = {c["id"] for c in m["tool_calls"]}
        elif m["role"] == "tool":
            assert m["tool_call_id"] in open_calls
            open_calls.discard(m["tool_call_id"])
        else:
            assert not open_calls, f"{m['role']} message between a call and its results"
    assert not open_calls


def test_run_is_recorded_as_a_protocol_complete_log(store: Store) -> None:
    llm = ptc.ScriptedLLM([
        block("(def a (tool/lookup {:id 1}))\n(def b (tool/lookup {:id 2}))\n(println (+ (:amount a) (:amount b)))"),
        block("(undefined-fn a)"),
        block("(return (+ (:amount a) (:amount b)))"),
    ])
    sid = store.create_session("orders", "agent").id
    handler = recorder(store, sid)
    step = ptc.Agent("Sum the two orders", tools=[lookup], llm=llm, on_event=handler, max_turns=4).run()
    assert step.ok and step.value == 30

    log = store.full(sid)
    roles = [m.role for m in log]
    assert roles == ["user", "assistant", "assistant", "tool", "tool", "user",  # turn 1
                     "assistant", "user",                                      # turn 2 (error)
                     "assistant"]                                              # turn 3 returns
    assert all(m.run_id == step.run_id and m.mode == "agent" for m in log)
    assert [m.turn for m in log] == [None, 1, 1, 1, 1, 1, 2, 2, 3]
    messages = store.messages_for_llm(sid)
    protocol_ok(messages)

    calls = log[2].tool_calls
    assert [c["function"]["name"] for c in calls] == ["lookup", "lookup"]
    assert calls[0]["function"]["arguments"] == '{"id": 1}'
    assert [m.tool_call_id for m in log[3:5]] == [c["id"] for c in calls]
    assert log[3].content == '{"id": 1, "amount": 10}'
    assert log[1].blocks[1].type == "code" and log[1].blocks[1].content.startswith("(def a")

    # without the tool exchanges, the log is exactly what the model was sent (minus the
    # system prompt, which is never stored), plus its last reply
    plain = [{"role": m.role, "content": m.content} for m in log if not m.tool_calls and m.role != "tool"]
    assert plain == llm.requests[-1][1:] + [{"role": "assistant", "content": llm.replies[2]}]
    assert all(m["role"] != "system" for m in messages)
    assert [b.type for b in log[7].blocks] == ["text", "error"]
    assert log[7].blocks[1].data["kind"] == "analysis"

    run = store.load_run(step.run_id)
    assert run.status == "ok" and run.mission == "Sum the two orders" and run.session_id == sid
    assert run.outcome["ok"] is True and run.outcome["value"] == 30
    assert run.meta["max_turns"] == 4 and run.meta["tools"] == ["lookup"]
    assert [t["number"] for t in run.turns] == [1, 2, 3]
    assert list(run.turns) == [t.to_json() for t in step.turns]
    assert set(run.memory) == {"a", "b"}


def test_llm_failure_is_recorded_and_stays_in_context(store: Store) -> None:
    llm = ptc.ScriptedLLM([block("(def x 41)"), LLMError("timeout", "read timed out", partial="```clojure\n(ret")])
    handler = recorder(store)  # no session: one is created, titled after the mission
    step = ptc.Agent("Compute x", llm=llm, on_event=handler).run()
    assert not step.ok and step.error.kind == "llm"
    sid = handler.session_id
    assert store.get_session(sid).title == "Compute x"
    last = store.context(sid)[-1]
    assert last.role == "assistant" and [b.type for b in last.blocks] == ["text", "llm_error"]
    assert last.blocks[0].content == "```clojure\n(ret"
    assert last.blocks[1].data["kind"] == "timeout" and last.blocks[1].data["message"] == "read timed out"
    assert "LLM_ERROR kind=timeout" in store.messages_for_llm(sid)[-1]["content"]
    run = store.load_run(step.run_id)
    assert run.status == "failed" and len(run.turns) == 1 and run.memory == {"x": "41"}
    assert run.outcome["error"]["kind"] == "llm"


def test_failed_program_keeps_its_tool_calls(store: Store) -> None:
    llm = ptc.ScriptedLLM([block("(def a (tool/lookup {:id 3}))\n(tool/boom {:x 1})"), block("(return 1)")])
    sid = store.create_session().id
    ptc.Agent("try", tools=[lookup, boom], llm=llm, on_event=recorder(store, sid)).run()
    log = store.full(sid)
    calls = next(m for m in log if m.tool_calls).tool_calls
    assert [c["function"]["name"] for c in calls] == ["lookup", "boom"]
    results = [m for m in log if m.role == "tool"]
    assert results[0].content == '{"id": 3, "amount": 30}'
    assert results[1].content.startswith("error: ") and "exploded" in results[1].content
    assert results[1].blocks[0].data["error"]
    protocol_ok(store.messages_for_llm(sid))


def test_two_runs_share_one_session(store: Store) -> None:
    sid = store.create_session("chat").id
    for mission, value in (("one", 1), ("two", 2)):
        llm = ptc.ScriptedLLM([block(f"(return {value})")])
        ptc.Agent(mission, llm=llm, on_event=recorder(store, sid)).run()
    log = store.full(sid)
    assert [(m.role, m.content.split("\n")[0]) for m in log] == [
        ("user", "one"), ("assistant", "Here is my program."), ("user", "two"), ("assistant", "Here is my program.")]
    assert len({m.run_id for m in log}) == 2
    assert len(store.list_runs(sid)) == 2


def test_a_session_id_chosen_by_the_caller_is_created_on_first_use(store: Store) -> None:
    llm = ptc.ScriptedLLM([block("(return 7)")])
    ptc.Agent("Seven", llm=llm, on_event=recorder(store, "my-chat", title="My chat")).run()
    session = store.get_session("my-chat")
    assert session.title == "My chat" and session.mode == "agent"
    assert [m.role for m in store.full("my-chat")] == ["user", "assistant"]
