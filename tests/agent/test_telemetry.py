"""OpenTelemetry spans run -> turn -> llm/program/tool, when opentelemetry is installed."""

import pytest

import ptc

otel = pytest.importorskip("opentelemetry.sdk.trace")


def test_spans_nest_run_turn_llm_tool() -> None:
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
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
