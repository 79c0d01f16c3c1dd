"""The agent end to end over real HTTP: ptc's LiteLLM client (litellm's own HTTP client)
against a local OpenAI / Anthropic compatible server on 127.0.0.1 (tests/llm_server.py).

The request carries the mission and the data; the reply's usage, cached tokens included,
reaches the Step, the store's run row, the trace file and the telemetry spans."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from heavy import needs  # noqa: E402

from llm_server import ServedReply  # noqa: E402

import ptc  # noqa: E402
from ptc.agent.trace import read_trace  # noqa: E402
from ptc.llm.base import Reply  # noqa: E402
from ptc.store import Store  # noqa: E402

DEFINE = "First the total.\n```clojure\n(def total (reduce + data/xs))\n```"
RETURN = "```clojure\n(return (* 2 total))\n```"
EPHEMERAL = {"type": "ephemeral"}

pytestmark = needs("litellm")


def test_agent_over_http_records_usage_everywhere(llm_server, tmp_path) -> None:
    server = llm_server([ServedReply(DEFINE, prompt_tokens=1500, completion_tokens=30),
                         ServedReply(RETURN, prompt_tokens=1700, completion_tokens=12, cached_tokens=1408)])
    store = Store(tmp_path / "runs.db")
    trace = tmp_path / "run.jsonl"
    step = ptc.Agent("Double the sum of xs", data={"xs": [1, 2, 3]}, llm="openai/gpt-4o-mini",
                     api_base=server.openai_base, api_key="sk-test", store=store, trace=trace).run()
    assert step.ok and step.value == 12

    first = server.requests[0].body
    assert first["model"] == "gpt-4o-mini"
    sent = json.dumps(first["messages"])
    assert "Double the sum of xs" in sent and "xs" in first["messages"][0]["content"]
    assert "(def total" in json.dumps(server.requests[1].body["messages"])  # turn 1 fed back

    turns = step.usage.per_turn
    assert [u.cached_tokens for u in turns] == [0, 1408]
    total = step.usage.total
    assert (total.prompt_tokens, total.completion_tokens, total.cached_tokens, total.calls) == (3200, 42, 1408, 2)
    assert total.prompt_text() == "3,200 prompt (1,408 cached)"
    assert isinstance(total, ptc.Usage) and total.cost is not None and total.cost > 0

    run = store.load_run(step.run_id)
    assert (run.prompt_tokens, run.completion_tokens, run.cached_tokens, run.cost) == \
        (3200, 42, 1408, pytest.approx(total.cost))
    assert run.turns[1]["usage"]["cached_tokens"] == 1408
    store.close()

    records = list(read_trace(trace))
    replies = [r for r in records if r["type"] == "llm_replied"]
    assert [r["cached_tokens"] for r in replies] == [0, 1408]
    assert records[-1]["type"] == "run_finished" and records[-1]["usage"]["cached_tokens"] == 1408


@pytest.mark.parametrize("compression, marked_last", [("append", True), ("coalesced", False)])
def test_anthropic_breakpoints_follow_the_strategy(llm_server, compression, marked_last) -> None:
    server = llm_server([ServedReply(DEFINE, cache_write_tokens=1100),
                         ServedReply(RETURN, cached_tokens=1100, cache_write_tokens=60)])
    agent = ptc.Agent("Double the sum of xs", data={"xs": [1, 2, 3]}, llm="anthropic/claude-sonnet-4-5",
                      api_base=server.url, api_key="sk-ant-test", compression=compression)
    step = asyncio.run(agent.arun())  # the async path passes the hint too
    assert step.ok and step.value == 12
    for request in server.requests:
        body = request.body
        assert body["system"][-1]["cache_control"] == EPHEMERAL
        last_block = body["messages"][-1]["content"][-1]
        assert ("cache_control" in last_block) is marked_last
    total = step.usage.total
    assert (total.cached_tokens, total.cache_write_tokens) == (1100, 1160)


def test_api_base_goes_with_a_model_name_only() -> None:
    with pytest.raises(ValueError, match="api_base and api_key go with a model name"):
        ptc.Agent("x", llm=ptc.ScriptedLLM(["(return 1)"]), api_base="http://127.0.0.1:9/v1")
    agent = ptc.Agent("x", llm="openai/m", api_base="http://127.0.0.1:9/v1", api_key="k")
    assert isinstance(agent.llm, ptc.LiteLLM) and (agent.llm.api_base, agent.llm.api_key) == \
        ("http://127.0.0.1:9/v1", "k")


class AsyncOnlyModel:
    """A model object with only `async acomplete`, as a wrapper around an async SDK is: here
    ptc's LiteLLM client over real HTTP, reached through its async method only."""

    def __init__(self, base: str) -> None:
        from ptc.llm.litellm_client import LiteLLM

        self._client = LiteLLM("openai/gpt-4o-mini", api_base=base, api_key="sk-test")
        self.calls = 0

    async def acomplete(self, messages: list[dict[str, str]]) -> Reply:
        self.calls += 1
        return await self._client.acomplete(messages)


def _async_only_agent(server: object) -> tuple[ptc.Agent, AsyncOnlyModel]:
    model = AsyncOnlyModel(server.openai_base)  # type: ignore[attr-defined]
    return ptc.Agent("Double the sum of xs", data={"xs": [1, 2, 3]}, llm=model), model


def test_async_only_model_with_arun(llm_server) -> None:
    server = llm_server([ServedReply(DEFINE), ServedReply(RETURN)])
    agent, model = _async_only_agent(server)
    step = asyncio.run(agent.arun())
    assert step.ok and step.value == 12 and model.calls == 2


def test_async_only_model_with_run_awaits_each_call(llm_server) -> None:
    server = llm_server([ServedReply(DEFINE), ServedReply(RETURN)])
    agent, model = _async_only_agent(server)
    step = agent.run()  # no event loop in this thread: each call runs on a loop of its own
    assert step.ok and step.value == 12 and model.calls == 2 and step.usage.total.calls == 2


def test_async_only_model_with_run_inside_an_event_loop(llm_server) -> None:
    server = llm_server([ServedReply(DEFINE), ServedReply(RETURN)])
    agent, model = _async_only_agent(server)

    async def blocking_call_from_async_code() -> ptc.Step:
        return agent.run()  # this thread's loop is busy: the calls are awaited in a worker thread

    step = asyncio.run(blocking_call_from_async_code())
    assert step.ok and step.value == 12 and model.calls == 2


def test_an_object_without_complete_or_acomplete_is_refused() -> None:
    with pytest.raises(TypeError, match="complete\\(\\) or async acomplete\\(\\)"):
        ptc.Agent("x", llm=object())
