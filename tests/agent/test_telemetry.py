"""OpenTelemetry spans in the GenAI semantic conventions: invoke_agent -> chat / ptc.program ->
execute_tool, with their gen_ai.* and ptc.* attributes (an in-memory exporter on the global
provider; the OTLP path is tests/agent/test_otlp_export.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import ptc

otel = pytest.importorskip("opentelemetry.sdk.trace")

from opentelemetry.trace import SpanKind, StatusCode  # noqa: E402


@pytest.fixture(scope="module")
def exporter():
    """One in-memory exporter on the global provider (OpenTelemetry lets it be set once)."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    provider = trace.get_tracer_provider()
    if not isinstance(provider, otel.TracerProvider):
        provider = otel.TracerProvider()
        trace.set_tracer_provider(provider)
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter


def _run(exporter, replies, tools=None, **options):
    exporter.clear()
    step = ptc.Agent("Add one to what tool/two gives", tools=tools or {}, llm=ptc.ScriptedLLM(replies),
                     name="adder", **options).run()
    return step, list(exporter.get_finished_spans())


def _one(spans, name):
    found = [s for s in spans if s.name == name]
    assert len(found) == 1, [s.name for s in spans]
    return found[0]


TWO_TURNS = ["```clojure\n(def n (tool/two))\n```", "```clojure\n(return (inc n))\n```"]


def test_span_tree_names_kinds_and_attributes(exporter, monkeypatch) -> None:
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", raising=False)
    step, spans = _run(exporter, TWO_TURNS, tools={"two": ptc.tool(lambda: 2, name="two", description="Two.")},
                       limits=ptc.Limits(timeout=3.0))
    assert step.ok and step.value == 3
    names = sorted(s.name for s in spans)
    assert names == ["chat scripted", "chat scripted", "execute_tool two", "invoke_agent adder",
                     "ptc.program", "ptc.program"]
    agent = _one(spans, "invoke_agent adder")
    chats = [s for s in spans if s.name == "chat scripted"]
    programs = sorted((s for s in spans if s.name == "ptc.program"), key=lambda s: s.attributes["ptc.turn"])
    tool = _one(spans, "execute_tool two")

    assert agent.parent is None and agent.kind is SpanKind.INTERNAL
    assert all(s.parent.span_id == agent.context.span_id for s in chats + programs)
    assert tool.parent.span_id == programs[0].context.span_id
    assert {s.context.trace_id for s in spans} == {agent.context.trace_id}
    assert all(c.kind is SpanKind.CLIENT for c in chats) and tool.kind is SpanKind.INTERNAL

    a = dict(agent.attributes)
    assert a["gen_ai.operation.name"] == "invoke_agent" and a["gen_ai.agent.name"] == "adder"
    assert a["gen_ai.provider.name"] == "ptc.ScriptedLLM" and a["gen_ai.request.model"] == "scripted"
    assert a["ptc.run_id"] == step.run_id and a["ptc.stop_reason"] == "returned" and a["ptc.turns"] == 2
    assert a["gen_ai.usage.input_tokens"] == step.usage.prompt_tokens
    assert a["gen_ai.usage.output_tokens"] == step.usage.completion_tokens
    assert "error.type" not in a and agent.status.status_code is not StatusCode.ERROR

    c = dict(sorted(chats, key=lambda s: s.attributes["ptc.turn"])[0].attributes)
    assert c["gen_ai.operation.name"] == "chat" and c["gen_ai.provider.name"] == "ptc.ScriptedLLM"
    assert c["gen_ai.request.model"] == "scripted" and c["gen_ai.response.model"] == "scripted"
    assert c["ptc.turn"] == 1 and c["gen_ai.usage.input_tokens"] == step.turns[0].usage.prompt_tokens
    assert c["gen_ai.usage.cache_read.input_tokens"] == 0

    p = dict(programs[0].attributes)
    assert p["ptc.program"] == "(def n (tool/two))" and p["ptc.program.outcome"] == "continued"
    assert p["ptc.limits.timeout"] == 3.0 and p["ptc.limits.max_tool_calls"] == 100
    assert programs[1].attributes["ptc.program.outcome"] == "returned"

    t = dict(tool.attributes)
    assert t == {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "two", "gen_ai.tool.type": "function",
                 "gen_ai.tool.call.id": f"{step.run_id}-1-0", "gen_ai.tool.description": "Two."}

    # the events' own times: chat before its program, the tool call inside its program
    assert chats[0].end_time <= programs[0].start_time or chats[1].end_time <= programs[1].start_time
    assert programs[0].start_time <= tool.start_time <= tool.end_time <= programs[0].end_time
    assert agent.start_time <= min(s.start_time for s in spans) and agent.end_time >= max(s.end_time for s in spans)
    # no content by default: no messages, no tool arguments or results, no mission
    assert not any(k.startswith(("gen_ai.input", "gen_ai.output", "gen_ai.tool.call.arg", "gen_ai.tool.call.res"))
                   for s in spans for k in s.attributes)


def test_content_is_captured_when_the_environment_or_the_agent_says_so(exporter, monkeypatch) -> None:
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    step, spans = _run(exporter, ["```clojure\n(return (tool/add {:a 1 :b 2}))\n```"],
                       tools={"add": lambda a, b: {"sum": a + b}})
    assert step.ok and step.value == {"sum": 3}
    agent = _one(spans, "invoke_agent adder")
    assert json.loads(agent.attributes["gen_ai.input.messages"]) == [
        {"role": "user", "parts": [{"type": "text", "content": "Add one to what tool/two gives"}]}]
    output = json.loads(agent.attributes["gen_ai.output.messages"])
    assert output[0]["role"] == "assistant" and json.loads(output[0]["parts"][0]["content"]) == {"sum": 3}
    chat = _one(spans, "chat scripted")
    sent = json.loads(chat.attributes["gen_ai.input.messages"])
    assert [m["role"] for m in sent] == ["system", "user"] and sent[0]["parts"][0]["type"] == "text"
    reply = json.loads(chat.attributes["gen_ai.output.messages"])
    assert "(tool/add" in reply[0]["parts"][0]["content"] and reply[0]["finish_reason"] == "stop"
    tool = _one(spans, "execute_tool add")
    assert json.loads(tool.attributes["gen_ai.tool.call.arguments"]) == {"a": 1, "b": 2}
    assert json.loads(tool.attributes["gen_ai.tool.call.result"]) == {"sum": 3}

    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "NO_CONTENT")
    _, spans = _run(exporter, ["```clojure\n(return (tool/add {:a 1 :b 2}))\n```"],
                    tools={"add": lambda a, b: {"sum": a + b}})
    assert "gen_ai.tool.call.arguments" not in _one(spans, "execute_tool add").attributes
    _, spans = _run(exporter, ["```clojure\n(return (tool/add {:a 1 :b 2}))\n```"],
                    tools={"add": lambda a, b: {"sum": a + b}}, capture_content=True)  # the option wins
    assert json.loads(_one(spans, "execute_tool add").attributes["gen_ai.tool.call.result"]) == {"sum": 3}
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    _, spans = _run(exporter, ["```clojure\n(return (tool/add {:a 1 :b 2}))\n```"],
                    tools={"add": lambda a, b: {"sum": a + b}}, capture_content=False)
    assert not any(k.startswith(("gen_ai.input", "gen_ai.output", "gen_ai.tool.call.arg", "gen_ai.tool.call.res"))
                   for s in spans for k in s.attributes)


def test_failures_carry_error_type_and_what_stopped_the_program(exporter) -> None:
    def boom() -> None:
        raise ValueError("no")

    step, spans = _run(exporter, ["```clojure\n(tool/boom)\n```", "```clojure\n(loop [] (recur))\n```",
                                  "```clojure\n(fail \"gave up\")\n```"],
                       tools={"boom": boom}, limits=ptc.Limits(max_steps=1000))
    assert not step.ok and step.error.kind == "fail"
    tool = _one(spans, "execute_tool boom")
    assert tool.attributes["error.type"] == "ValueError" and tool.status.status_code is StatusCode.ERROR
    programs = sorted((s for s in spans if s.name == "ptc.program"), key=lambda s: s.attributes["ptc.turn"])
    assert [p.attributes["ptc.program.outcome"] for p in programs] == ["error", "error", "failed"]
    assert programs[0].attributes["error.type"] == "tool"
    assert programs[1].attributes["error.type"] == "limit" and programs[1].attributes["ptc.program.limit"] == "max_steps"
    agent = _one(spans, "invoke_agent adder")
    assert agent.attributes["ptc.stop_reason"] == "fail" and agent.attributes["error.type"] == "fail"
    assert agent.status.status_code is StatusCode.ERROR

    from ptc.llm.base import LLMError

    step, spans = _run(exporter, [LLMError("rate_limit", "slow down", retries=3)])
    chat = _one(spans, "chat scripted")
    assert chat.attributes["error.type"] == "rate_limit" and chat.status.status_code is StatusCode.ERROR
    assert _one(spans, "invoke_agent adder").attributes["ptc.stop_reason"] == "llm"


def test_a_tool_still_running_at_the_deadline_is_a_timeout(exporter) -> None:
    import time

    def slow() -> int:
        time.sleep(1.0)
        return 1

    _, spans = _run(exporter, ["```clojure\n(tool/slow)\n```", "```clojure\n(return 0)\n```"],
                    tools={"slow": slow}, limits=ptc.Limits(timeout=0.2))
    tool = _one(spans, "execute_tool slow")
    assert tool.attributes["error.type"] == "timeout" and tool.status.status_code is StatusCode.ERROR
    program = next(s for s in spans if s.context.span_id == tool.parent.span_id)
    assert program.attributes["ptc.program.limit"] == "timeout"


def test_an_isolated_programs_tool_calls_are_spans_of_the_host(exporter) -> None:
    """Limits(isolation="process"): the host makes the calls, so their spans nest and time the same."""
    step, spans = _run(exporter, TWO_TURNS, tools={"two": lambda: 2}, limits=ptc.Limits(isolation="process"))
    assert step.ok and step.value == 3
    tool = _one(spans, "execute_tool two")
    program = next(s for s in spans if s.context.span_id == tool.parent.span_id)
    assert program.name == "ptc.program" and program.attributes["ptc.limits.isolation"] == "process"
    assert program.start_time <= tool.start_time <= tool.end_time <= program.end_time


def test_a_run_inside_a_span_of_the_application_joins_its_trace(exporter) -> None:
    from opentelemetry import trace

    exporter.clear()
    with trace.get_tracer("app").start_as_current_span("request") as outer:
        ptc.Agent("x", llm=ptc.ScriptedLLM(["```clojure\n(return 1)\n```"])).run()
    agent = _one(list(exporter.get_finished_spans()), "invoke_agent agent")
    assert agent.parent.span_id == outer.get_span_context().span_id


def test_a_sub_agent_nests_under_the_tool_call_that_runs_it(exporter) -> None:
    """A sub-agent runs inside a tool call, on a worker thread that gets the caller's context:
    its invoke_agent is a child of that call's execute_tool span, in the caller's trace."""
    sub = ptc.Agent("Double it", llm=ptc.ScriptedLLM(["```clojure\n(return 42)\n```"]), name="doubler")
    exporter.clear()
    step = ptc.Agent("Ask the doubler", tools=[sub.as_tool("doubler", "Doubles a number.")], name="boss",
                     llm=ptc.ScriptedLLM(['```clojure\n(return (tool/doubler {:task "21"}))\n```'])).run()
    assert step.ok and step.value == 42
    spans = list(exporter.get_finished_spans())
    boss, doubler = _one(spans, "invoke_agent boss"), _one(spans, "invoke_agent doubler")
    tool = _one(spans, "execute_tool doubler")
    program = next(s for s in spans if s.context.span_id == tool.parent.span_id)
    assert program.name == "ptc.program" and program.parent.span_id == boss.context.span_id
    assert doubler.parent.span_id == tool.context.span_id
    assert {s.context.trace_id for s in spans} == {boss.context.trace_id}
    assert tool.start_time <= doubler.start_time <= doubler.end_time <= tool.end_time
    inner = [s for s in spans if s.parent is not None and s.parent.span_id == doubler.context.span_id]
    assert sorted(s.name for s in inner) == ["chat scripted", "ptc.program"]


def test_arun_spans_nest_the_same_way(exporter) -> None:
    import asyncio

    exporter.clear()
    step = asyncio.run(ptc.Agent("x", tools={"two": lambda: 2}, llm=ptc.ScriptedLLM(TWO_TURNS)).arun())
    assert step.ok
    spans = list(exporter.get_finished_spans())
    agent = _one(spans, "invoke_agent agent")
    tool = _one(spans, "execute_tool two")
    program = next(s for s in spans if s.context.span_id == tool.parent.span_id)
    assert program.name == "ptc.program" and program.parent.span_id == agent.context.span_id


def test_llm_spans_carry_usage_with_cached_tokens(exporter, llm_server) -> None:
    """Over real HTTP: provider, model, server and the provider's cached tokens as gen_ai.* attributes."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    pytest.importorskip("litellm")
    from llm_server import ServedReply

    exporter.clear()
    server = llm_server([ServedReply("```clojure\n(return 12)\n```", prompt_tokens=900, completion_tokens=9,
                                     cached_tokens=512)])
    step = ptc.Agent("Twelve", llm="openai/gpt-4o-mini", api_base=server.openai_base, api_key="k").run()
    assert step.ok
    span = _one(list(exporter.get_finished_spans()), "chat gpt-4o-mini")
    attributes = dict(span.attributes or {})
    assert attributes["gen_ai.provider.name"] == "openai" and attributes["gen_ai.request.model"] == "gpt-4o-mini"
    assert attributes["server.address"] == "127.0.0.1" and isinstance(attributes["server.port"], int)
    assert attributes["gen_ai.usage.input_tokens"] == 900 and attributes["gen_ai.usage.output_tokens"] == 9
    assert attributes["gen_ai.usage.cache_read.input_tokens"] == 512
    assert attributes["gen_ai.usage.cache_creation.input_tokens"] == 0


def test_provider_names_follow_the_conventions() -> None:
    from ptc.agent.trace import provider_and_model
    from ptc.llm.litellm_client import LiteLLM

    assert provider_and_model(LiteLLM("anthropic/claude-sonnet-4-5")) == ("anthropic", "claude-sonnet-4-5")
    assert provider_and_model(LiteLLM("bedrock/meta.llama3")) == ("aws.bedrock", "meta.llama3")
    assert provider_and_model(LiteLLM("gpt-4o")) == ("openai", "gpt-4o")
    assert provider_and_model(LiteLLM("ollama_chat/llama3.1")) == ("ollama", "llama3.1")


def test_without_tracing_set_up_a_run_imports_no_opentelemetry() -> None:
    code = ("import sys, ptc\n"
            "s = ptc.Agent('x', tools={'two': lambda: 2}, llm=ptc.ScriptedLLM(['```clojure\\n(return (tool/two))\\n```']))"
            ".run()\n"
            "assert s.ok and s.value == 2\n"
            "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
