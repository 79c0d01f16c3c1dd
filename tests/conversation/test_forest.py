"""The message forest: nodes over tool exchanges and summaries, and the three renderings."""

from __future__ import annotations

import json

import pytest

import ptc
from ptc.conversation import forest as F
from ptc.llm.base import LLMError
from ptc.llm.scripted import ScriptedLLM
from ptc.store import Block, Store


@ptc.tool
def search(q: str) -> list[dict]:
    "Search the documents."
    return [{"id": i, "q": q} for i in range(12)]


@ptc.tool(summarize=lambda args, result: f"[count {len(args['xs'])} items] -> {result}")
def count(xs: list) -> int:
    "Count items."
    return len(xs)


TOOLS = {"search": search, "count": count}


@pytest.fixture
def store():
    s = Store(":memory:")
    yield s
    s.close()


def exchange(store, sid, calls, *, run_id="r1", turn=1, errors=()):
    """An assistant tool-call message and one result per call, as the recorder writes them."""
    tool_calls, results = [], []
    for i, (name, args, result) in enumerate(calls):
        cid = f"{run_id}-{turn}-{i}"
        tool_calls.append({"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}})
        error = errors[i] if i < len(errors) else None
        content = f"error: {error}" if error else json.dumps(result)
        results.append(dict(role="tool", tool_call_id=cid, blocks=[Block("tool_result", content,
                                                                         {"name": name, "error": error})]))
    return store.append_many(sid, [dict(role="assistant", tool_calls=tool_calls,
                                        blocks=[Block("tool_call", "{}", {})]), *results])


def log_of(store, sid):
    return list(store.full(sid).items)


def agent_session(store):
    """A real agent run recorded by the store's recorder: one program calling two tools."""
    sid = store.create_session("t").id
    llm = ScriptedLLM(['```clojure\n(def r (tool/search {:q "auth"}))\n(tool/count {:xs [1 2 3]})\n```',
                       "```clojure\n(return (count r))\n```"])
    step = ptc.Agent("Find auth files", tools=[search, count], llm=llm, store=store, session_id=sid).run()
    assert step.ok and step.value == 12
    return sid


def test_executions_are_read_from_the_recorded_log(store):
    sid = agent_session(store)
    found = F.executions(log_of(store, sid))
    assert [(e.name, e.args) for e in found] == [("search", {"q": "auth"}), ("count", {"xs": [1, 2, 3]})]
    assert found[0].result == [{"id": i, "q": "auth"} for i in range(12)]
    assert found[1].result == 3 and found[1].error is None
    assert found[0].call_message is found[1].call_message  # one program, one tool-call message
    assert F.summarize_execution(found[0], TOOLS) == 'search({:q "auth"}) -> list[12]'
    assert F.summarize_execution(found[1], TOOLS) == "[count 3 items] -> 3"  # the tool's own summarize()
    assert F.summarize_execution(found[1]) == "count({:xs [1 2 3]}) -> 3"  # unknown tool: generic


def test_build_nodes_makes_executions_and_a_loop_and_is_idempotent(store):
    sid = agent_session(store)
    made = F.build_nodes(store, sid, TOOLS)
    assert [n.type for n in made] == ["tool_execution", "tool_execution", "tool_loop"]
    ex1, ex2, loop = made
    log = log_of(store, sid)
    call = next(m for m in log if m.tool_calls)
    results = [m for m in log if m.role == "tool"]
    assert ex1.children == [{"message": call.id}, {"message": results[0].id}]
    assert ex2.children == [{"message": call.id}, {"message": results[1].id}]
    assert ex2.summary == "[count 3 items] -> 3"
    assert loop.children == [{"node": ex1.id}, {"node": ex2.id}]
    assert loop.display_hint == "Tool loop (2 tools)"
    assert F.build_nodes(store, sid, TOOLS) == []  # nothing missing any more
    assert len(store.compaction_nodes(sid)) == 3


def test_a_single_call_gets_no_loop_and_an_open_run_waits(store):
    sid = store.create_session().id
    store.append(sid, "user", content="go")
    exchange(store, sid, [("search", {"q": "a"}, [1])])
    exchange(store, sid, [("search", {"q": "b"}, [2])], turn=2)  # back to back: one run of two
    plan = F.plan_nodes(log_of(store, sid), tools=TOOLS, close_tail=False)
    assert [s.type for s in plan] == ["tool_execution", "tool_execution"]  # the run may go on
    store.append(sid, "assistant", content="done")
    plan = F.plan_nodes(log_of(store, sid), tools=TOOLS, close_tail=False)
    assert [s.type for s in plan] == ["tool_execution", "tool_execution", "tool_loop"]
    other = store.create_session().id
    exchange(store, other, [("search", {"q": "a"}, [1])])
    assert [s.type for s in F.plan_nodes(log_of(store, other))] == ["tool_execution"]


def test_context_collapses_exchanges_to_summary_lines(store):
    sid = agent_session(store)
    entries = F.context(log_of(store, sid), tools=TOOLS)
    assert [e.kind for e in entries] == ["message", "message", "tool_loop", "message", "message"]
    loop = entries[2]
    assert loop.role == "user"
    assert loop.text == 'Tool calls:\n- search({:q "auth"}) -> list[12]\n- [count 3 items] -> 3'
    assert loop.seqs == (3, 4, 5) and loop.number == 3
    assert entries[0].to_openai() == {"role": "user", "content": "Find auth files"}
    assert all("tool_calls" not in e.to_openai() for e in entries)
    # persisted nodes are the source of the lines once they exist (the tools are not needed)
    F.build_nodes(store, sid, TOOLS)
    again = F.context(log_of(store, sid), store.compaction_nodes(sid))
    assert again[2].text == loop.text and again[2].node is not None and again[2].node.type == "tool_loop"


def test_display_collapses_loops_and_carries_no_numbers(store):
    sid = agent_session(store)
    F.build_nodes(store, sid, TOOLS)
    entries = F.display(log_of(store, sid), store.compaction_nodes(sid))
    loop = entries[2]
    assert loop.role == "tool" and loop.text == "Tool loop (2 tools)"
    assert loop.children == ('search({:q "auth"}) -> list[12]', "[count 3 items] -> 3")
    text = F.render_text(entries)
    assert "#3-5 tool: Tool loop (2 tools)" in text
    assert "  | [count 3 items] -> 3" in text
    assert "[1]" not in text and "[3]" not in text


def test_full_shows_every_status_and_opens_nodes(store):
    sid = agent_session(store)
    F.build_nodes(store, sid, TOOLS)
    store.rollback(sid, 6)  # hides the last reply
    entries = F.full(log_of(store, sid), store.compaction_nodes(sid))
    messages = [e for e in entries if e.kind == "message"]
    assert [e.number for e in messages] == [1, 2, 3, 4, 5, 6, 7]
    assert messages[-1].status == "compressed"
    headers = [(e.role, e.depth) for e in entries if e.kind == "node"]
    assert headers == [("tool_loop", 0), ("tool_execution", 1), ("tool_execution", 1)]
    call = next(e for e in messages if e.message.tool_calls)
    assert call.depth == 2 and 'call search {"q": "auth"}' in call.text
    assert "(compressed)" in F.render_text(entries)
    # the context and the display leave the rolled-back reply out
    assert 7 not in [s for e in F.context(log_of(store, sid)) for s in e.seqs]


def test_unknown_tools_and_errors_get_generic_lines(store):
    sid = store.create_session().id
    store.append(sid, "user", content="go")
    exchange(store, sid, [("fetch", {"url": "x"}, {"a": 1}), ("fetch", {"url": "y"}, None)], errors=(None, "404"))
    store.append(sid, "user", content="Result: ...")
    entries = F.context(log_of(store, sid))
    assert entries[1].text == 'Tool calls:\n- fetch({:url "x"}) -> map[1]\n- fetch({:url "y"}) -> error: 404'


def test_summaries_stand_where_their_range_was(store):
    sid = store.create_session().id
    for i in range(1, 7):
        store.append(sid, "user" if i % 2 else "assistant", content=f"m{i}")
    store.compress_range(sid, 2, 4, "what happened in 2..4")  # summary appended as seq 7
    made = F.build_nodes(store, sid)
    assert [n.type for n in made] == ["broad"]
    broad = made[0]
    log = log_of(store, sid)
    ids = {m.seq: m.id for m in log}
    assert broad.children == [{"message": ids[2]}, {"message": ids[3]}, {"message": ids[4]}, {"message": ids[7]}]
    entries = F.context(log, store.compaction_nodes(sid))
    assert [e.text for e in entries] == ["m1", "Summary of earlier messages: what happened in 2..4", "m5", "m6"]
    summary = entries[1]
    assert summary.kind == "summary" and summary.number == 7 and summary.seqs == (7,) and summary.anchor == 2
    shown = F.display(log, store.compaction_nodes(sid))
    assert shown[1].hidden == 3 and shown[1].role == "summary"
    assert "summary of 3 messages" in F.render_text(shown)
    # without the node (a plain log), the summary stays at its own seq
    assert [e.text for e in F.context(log)][-1].startswith("Summary of earlier messages")
    assert F.build_nodes(store, sid) == []


def test_nested_compression_refers_to_the_earlier_node(store):
    sid = store.create_session().id
    for i in range(1, 5):
        store.append(sid, "user", content=f"m{i}")
    store.compress_range(sid, 1, 2, "first")  # seq 5
    F.build_nodes(store, sid)
    store.compress_range(sid, 5, 5, "second, over the first summary")  # seq 6
    first, second = [n for n in [*store.compaction_nodes(sid), *F.build_nodes(store, sid)] if n.type == "broad"]
    assert {"node": first.id} in second.children
    entries = F.context(log_of(store, sid), store.compaction_nodes(sid))
    assert [e.text for e in entries] == ["Summary of earlier messages: second, over the first summary", "m3", "m4"]
    assert entries[0].anchor == 1


def test_llm_errors_are_flagged(store):
    sid = store.create_session().id
    store.append(sid, "user", content="hi")
    store.append_llm_error(sid, "Hel", "timeout", "slow")
    entries = F.display(log_of(store, sid))
    assert entries[-1].error and "LLM_ERROR kind=timeout" in entries[-1].text


def test_forest_loads_and_renders_by_name(store):
    sid = agent_session(store)
    forest = F.Forest.load(store, sid, tools=TOOLS)
    assert [e.kind for e in forest.render("context")] == [e.kind for e in forest.context()]
    with pytest.raises(ValueError):
        forest.render("everything")


def test_rendering_is_pure(store):
    sid = agent_session(store)
    log = log_of(store, sid)
    before = [m.to_dict() for m in log]
    F.context(log, tools=TOOLS), F.display(log), F.full(log)
    assert [m.to_dict() for m in log] == before
    assert store.compaction_nodes(sid) == []


def test_failing_model_run_is_rendered(store):
    sid = store.create_session().id
    llm = ScriptedLLM([LLMError("timeout", "slow", partial="I think")])
    step = ptc.Agent("Count", tools=[search], llm=llm, store=store, session_id=sid).run()
    assert not step.ok
    entries = F.context(log_of(store, sid))
    assert entries[-1].role == "assistant" and "LLM_ERROR kind=timeout: slow" in entries[-1].text
