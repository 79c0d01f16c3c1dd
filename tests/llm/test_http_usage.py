"""LiteLLM over real HTTP (tests/llm_server.py on 127.0.0.1): cached tokens, cache
breakpoints, api_base / api_key. litellm's own HTTP clients make every request."""

from __future__ import annotations

import asyncio
import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from heavy import Lazy, needs  # noqa: E402

from llm_server import ServedReply  # noqa: E402

from ptc.llm.base import LLMError, Usage  # noqa: E402
from ptc.llm.cassette import RecordingLLM, ReplayLLM  # noqa: E402
from ptc.llm.litellm_client import LiteLLM  # noqa: E402

MSGS = [{"role": "system", "content": "You write PTC-Lisp."}, {"role": "user", "content": "add 1 and 2"},
        {"role": "assistant", "content": "```clojure\n(+ 1 2)\n```"}, {"role": "user", "content": "Result: 3"}]
EPHEMERAL = {"type": "ephemeral"}

pytestmark = needs("litellm")
litellm = Lazy("litellm")


def cost_of(model: str, prompt: int, completion: int, cached: int = 0, written: int = 0) -> float:
    """What litellm's price map says, from the model's per-token prices."""
    info = litellm.get_model_info(model)
    uncached = prompt - cached - written
    return (uncached * info["input_cost_per_token"] + cached * info["cache_read_input_token_cost"]
            + written * (info.get("cache_creation_input_token_cost") or info["input_cost_per_token"])
            + completion * info["output_cost_per_token"])


def test_openai_cached_tokens_reach_usage_and_cost(llm_server) -> None:
    server = llm_server([ServedReply("ok", prompt_tokens=6794, completion_tokens=50, cached_tokens=5120)])
    reply = LiteLLM("openai/gpt-4o-mini", api_base=server.openai_base, api_key="sk-test").complete(MSGS)
    usage = reply.usage
    assert (usage.prompt_tokens, usage.completion_tokens, usage.cached_tokens, usage.cache_write_tokens) == \
        (6794, 50, 5120, 0)
    assert usage.prompt_text() == "6,794 prompt (5,120 cached)"
    assert usage.cost == pytest.approx(cost_of("gpt-4o-mini", 6794, 50, cached=5120))
    assert usage.cost < cost_of("gpt-4o-mini", 6794, 50)  # the cached part is billed cheaper
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.body["messages"] == MSGS  # OpenAI caches on its own: the request is left as it was


def test_no_cache_reported_means_zero_and_plain_text(llm_server) -> None:
    server = llm_server([ServedReply("ok", prompt_tokens=900, completion_tokens=5)])
    usage = LiteLLM("openai/gpt-4o-mini", api_base=server.openai_base, api_key="k").complete(MSGS).usage
    assert usage.cached_tokens == 0 and usage.prompt_text() == "900 prompt"


def test_anthropic_append_only_marks_system_and_last_message(llm_server) -> None:
    server = llm_server([ServedReply("ok", prompt_tokens=2000, completion_tokens=40, cached_tokens=1500,
                                     cache_write_tokens=300)])
    llm = LiteLLM("anthropic/claude-sonnet-4-5", api_base=server.url, api_key="sk-ant-test")
    reply = llm.complete(MSGS, append_only=True)
    body = server.requests[0].body
    assert server.requests[0].path == "/v1/messages"
    assert server.requests[0].headers["x-api-key"] == "sk-ant-test"
    assert body["system"] == [{"type": "text", "text": "You write PTC-Lisp.", "cache_control": EPHEMERAL}]
    *earlier, last = body["messages"]
    assert last["content"][-1]["cache_control"] == EPHEMERAL and last["content"][-1]["text"] == "Result: 3"
    assert all("cache_control" not in block for m in earlier for block in m["content"])
    usage = reply.usage
    assert (usage.prompt_tokens, usage.cached_tokens, usage.cache_write_tokens) == (2000, 1500, 300)
    assert usage.prompt_text() == "2,000 prompt (1,500 cached, 300 written to cache)"
    assert usage.cost == pytest.approx(cost_of("claude-sonnet-4-5", 2000, 40, cached=1500, written=300))


def test_anthropic_rewriting_strategy_marks_the_system_prompt_only(llm_server) -> None:
    server = llm_server(["ok"])
    LiteLLM("anthropic/claude-sonnet-4-5", api_base=server.url, api_key="k").complete(MSGS)
    body = server.requests[0].body
    assert body["system"][-1]["cache_control"] == EPHEMERAL
    assert not any("cache_control" in block for m in body["messages"] for block in m["content"])


def test_breakpoints_can_be_turned_off_or_forced(llm_server) -> None:
    server = llm_server(["ok", "ok"])
    LiteLLM("anthropic/claude-sonnet-4-5", api_base=server.url, api_key="k",
            cache_breakpoints=False).complete(MSGS, append_only=True)
    assert "cache_control" not in str(server.requests[0].body)
    LiteLLM("openai/gpt-4o-mini", api_base=server.openai_base, api_key="k",
            cache_breakpoints=True).complete(MSGS, append_only=True)
    sent = server.requests[1].body["messages"]
    assert sent[0]["content"][-1]["cache_control"] == EPHEMERAL and sent[-1]["content"][-1]["cache_control"] == EPHEMERAL
    assert sent[1]["content"] == "add 1 and 2"


def test_async_path_and_recording_pass_the_hint(llm_server, tmp_path) -> None:
    server = llm_server([ServedReply("ok", cached_tokens=1000, cache_write_tokens=100)])
    llm = RecordingLLM(LiteLLM("anthropic/claude-sonnet-4-5", api_base=server.url, api_key="k"),
                       tmp_path / "c.jsonl")
    reply = asyncio.run(llm.acomplete(MSGS, append_only=True))
    assert server.requests[0].body["messages"][-1]["content"][-1]["cache_control"] == EPHEMERAL
    assert (reply.usage.cached_tokens, reply.usage.cache_write_tokens) == (1000, 100)
    replayed = ReplayLLM(tmp_path / "c.jsonl").complete(MSGS)  # the cassette keeps the cache figures
    assert (replayed.usage.cached_tokens, replayed.usage.cache_write_tokens) == (1000, 100)


def test_local_openai_compatible_server_needs_no_key(llm_server, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = llm_server(["one", "two"], model="llama-3.1-8b")
    reply = LiteLLM("openai/llama-3.1-8b", api_base=server.openai_base).complete(MSGS)
    assert reply.text == "one" and reply.model == "llama-3.1-8b"
    assert server.requests[0].headers["authorization"] == "Bearer no-key"
    assert server.requests[0].body["model"] == "llama-3.1-8b"
    assert reply.usage.cost is None  # an unknown model has no price
    vllm = LiteLLM("hosted_vllm/llama-3.1-8b", api_base=server.openai_base).complete(MSGS)
    assert vllm.text == "two" and server.requests[1].path == "/v1/chat/completions"


def test_usage_sums_cache_figures() -> None:
    a = Usage(prompt_tokens=10, cached_tokens=4, cache_write_tokens=1, calls=1)
    b = Usage(prompt_tokens=20, cached_tokens=6, calls=1)
    assert (a + b).cached_tokens == 10 and (a + b).cache_write_tokens == 1 and (a + b).prompt_tokens == 30


def test_server_errors_are_llm_errors(llm_server) -> None:
    server = llm_server([])  # no scripted reply: HTTP 400
    with pytest.raises(LLMError) as info:
        LiteLLM("openai/gpt-4o-mini", api_base=server.openai_base, api_key="k").complete(MSGS)
    assert info.value.kind == "bad_request" and "no more scripted replies" in info.value.message


def test_which_models_need_breakpoints_and_how_blocks_are_marked() -> None:
    from ptc.llm.caching import mark_breakpoints, needs_breakpoints

    assert all(needs_breakpoints(m) for m in ("anthropic/claude-sonnet-4-5", "claude-sonnet-4-5",
                                              "bedrock/anthropic.claude-sonnet-4-6",
                                              "vertex_ai/claude-sonnet-4-5@20250929"))
    assert not any(needs_breakpoints(m) for m in ("openai/gpt-4o-mini", "gemini/gemini-2.5-flash",
                                                  "bedrock/amazon.nova-pro-v1:0", "ollama_chat/llama3.1"))
    blocks = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": blocks},
                {"role": "assistant", "content": ""}]
    marked = mark_breakpoints(messages, append_only=True)
    assert marked[0]["content"] == [{"type": "text", "text": "s", "cache_control": EPHEMERAL}]
    assert marked[2]["content"] == ""  # an empty message cannot carry a breakpoint
    assert messages[1]["content"] is blocks and "cache_control" not in blocks[1]  # the input is not changed
    assert mark_breakpoints(messages[:2], append_only=True)[1]["content"][1]["cache_control"] == EPHEMERAL
