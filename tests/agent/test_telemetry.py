"""OpenTelemetry spans run -> turn -> llm/program/tool, when opentelemetry is installed."""

from __future__ import annotations

import os

import pytest

import ptc

otel = pytest.importorskip("opentelemetry.sdk.trace")


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


def test_spans_nest_run_turn_llm_tool(exporter) -> None:
    exporter.clear()
    llm = ptc.ScriptedLLM(["```clojure\n(def n (tool/two))\n```", "```clojure\n(return (inc n))\n```"])
    step = ptc.Agent("x", tools={"two": lambda: 2}, llm=llm).run()
    assert step.ok and step.value == 3
    spans = exporter.get_finished_spans()
    names = [s.name for s in spans]
    assert names.count("ptc.turn") == 2 and names.count("ptc.llm") == 2 and "ptc.tool/two" in names
    run = next(s for s in spans if s.name == "ptc.run")
    turns = [s for s in spans if s.name == "ptc.turn"]
    assert all(t.parent.span_id == run.context.span_id for t in turns)
    tool = next(s for s in spans if s.name == "ptc.tool/two")
    assert tool.parent.span_id in {t.context.span_id for t in turns}


def test_llm_spans_carry_usage_with_cached_tokens(exporter, llm_server) -> None:
    """Over real HTTP: the provider's cached tokens become gen_ai.usage.* attributes."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    pytest.importorskip("litellm")
    from llm_server import ServedReply

    exporter.clear()
    server = llm_server([ServedReply("```clojure\n(return 12)\n```", prompt_tokens=900, completion_tokens=9,
                                     cached_tokens=512)])
    step = ptc.Agent("Twelve", llm="openai/gpt-4o-mini", api_base=server.openai_base, api_key="k").run()
    assert step.ok
    span = next(s for s in exporter.get_finished_spans() if s.name == "ptc.llm")
    attributes = dict(span.attributes or {})
    assert attributes["gen_ai.usage.input_tokens"] == 900 and attributes["gen_ai.usage.output_tokens"] == 9
    assert attributes["gen_ai.usage.cache_read.input_tokens"] == 512
    assert attributes["gen_ai.usage.cache_creation.input_tokens"] == 0
    assert attributes["ptc.cached_tokens"] == "512"
