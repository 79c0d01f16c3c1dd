"""What a tracing backend receives: a run's spans through OpenTelemetry's OTLP/HTTP exporter to
a receiver on 127.0.0.1 (the collector is not installable here, so the receiver is the tests'
own: it decodes the protobuf ExportTraceServiceRequest as a collector would)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import pytest

pytest.importorskip("opentelemetry.sdk.trace")
pytest.importorskip("opentelemetry.exporter.otlp.proto.http.trace_exporter")
trace_service = pytest.importorskip("opentelemetry.proto.collector.trace.v1.trace_service_pb2")


class Receiver(ThreadingHTTPServer):
    """An OTLP/HTTP traces endpoint (POST /v1/traces, binary protobuf) keeping what it got."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[Any] = []
        self.paths: list[str] = []

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1/traces"

    def spans(self) -> list[tuple[Any, Any, Any]]:
        """(resource, scope, span) of every span received."""
        return [(rs.resource, ss.scope, span) for request in self.requests for rs in request.resource_spans
                for ss in rs.scope_spans for span in ss.spans]


class _Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        request = trace_service.ExportTraceServiceRequest()
        request.ParseFromString(body)
        self.server.requests.append(request)
        self.server.paths.append(self.path)
        reply = trace_service.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


# An application that traces: the SDK's provider, a batch processor and the OTLP/HTTP exporter,
# configured by the standard environment variables (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
# OTEL_SERVICE_NAME); a scripted agent run; the provider's shutdown flushes the batch.
APP = textwrap.dedent("""
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create())
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)

    import ptc

    def weather(city: str) -> dict:
        "Today's weather in a city."
        return {"city": city, "temp_c": 18}

    llm = ptc.ScriptedLLM(['```clojure\\n(def w (tool/weather {:city "Lyon"}))\\n```',
                           '```clojure\\n(return (:temp_c w))\\n```'])
    step = ptc.Agent("How warm is Lyon?", tools=[ptc.tool(weather)], llm=llm, name="forecaster").run()
    assert step.ok and step.value == 18, step
    provider.shutdown()
    print(step.run_id)
""")


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [_value(v) for v in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


def _attributes(span: Any) -> dict[str, Any]:
    return {kv.key: _value(kv.value) for kv in span.attributes}


def _export(receiver: Receiver, **env: str) -> str:
    out = subprocess.run([sys.executable, "-c", APP], capture_output=True, text=True, timeout=180,
                         env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OTEL_SERVICE_NAME": "ptc-test",
                              "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": receiver.endpoint, **env})
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_spans_arrive_over_otlp_http_with_their_genai_names_and_attributes(receiver: Receiver) -> None:
    run_id = _export(receiver, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="false")
    assert receiver.paths and set(receiver.paths) == {"/v1/traces"}
    received = receiver.spans()
    by_name: dict[str, list[Any]] = {}
    for _, _, span in received:
        by_name.setdefault(span.name, []).append(span)
    assert sorted((name, len(spans)) for name, spans in by_name.items()) == [
        ("chat scripted", 2), ("execute_tool weather", 1), ("invoke_agent forecaster", 1), ("ptc.program", 2)]

    resource, scope, _ = received[0]
    assert {kv.key: _value(kv.value) for kv in resource.attributes}["service.name"] == "ptc-test"
    assert scope.name == "ptc"

    from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

    agent, = by_name["invoke_agent forecaster"]
    tool, = by_name["execute_tool weather"]
    assert agent.kind == Span.SPAN_KIND_INTERNAL and agent.parent_span_id == b""
    assert all(c.kind == Span.SPAN_KIND_CLIENT and c.parent_span_id == agent.span_id for c in by_name["chat scripted"])
    program = next(p for p in by_name["ptc.program"] if p.span_id == tool.parent_span_id)
    assert program.parent_span_id == agent.span_id and tool.kind == Span.SPAN_KIND_INTERNAL
    assert len({s.trace_id for _, _, s in received}) == 1
    assert program.start_time_unix_nano <= tool.start_time_unix_nano <= tool.end_time_unix_nano \
        <= program.end_time_unix_nano

    a = _attributes(agent)
    assert a["gen_ai.operation.name"] == "invoke_agent" and a["gen_ai.agent.name"] == "forecaster"
    assert a["ptc.run_id"] == run_id and a["ptc.stop_reason"] == "returned" and a["ptc.tools"] == ["weather"]
    assert isinstance(a["gen_ai.usage.input_tokens"], int) and a["gen_ai.usage.input_tokens"] > 0
    chat = _attributes(by_name["chat scripted"][0])
    assert chat["gen_ai.operation.name"] == "chat" and chat["gen_ai.request.model"] == "scripted"
    assert chat["gen_ai.provider.name"] == "ptc.ScriptedLLM" and "gen_ai.input.messages" not in chat
    t = _attributes(tool)
    assert t == {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "weather", "gen_ai.tool.type": "function",
                 "gen_ai.tool.call.id": f"{run_id}-1-0", "gen_ai.tool.description": "Today's weather in a city."}
    assert tool.status.code != Status.STATUS_CODE_ERROR
    p = _attributes(program)
    assert p["ptc.program"] == '(def w (tool/weather {:city "Lyon"}))' and p["ptc.program.outcome"] == "continued"
    assert p["ptc.limits.timeout"] == 2.0


def test_captured_content_arrives_when_opted_in(receiver: Receiver) -> None:
    _export(receiver, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="SPAN_ONLY")
    import json

    spans = {span.name: span for _, _, span in receiver.spans()}
    t = _attributes(spans["execute_tool weather"])
    assert json.loads(t["gen_ai.tool.call.arguments"]) == {"city": "Lyon"}
    assert json.loads(t["gen_ai.tool.call.result"]) == {"city": "Lyon", "temp_c": 18}
    agent = _attributes(spans["invoke_agent forecaster"])
    assert json.loads(agent["gen_ai.input.messages"])[0]["parts"][0]["content"] == "How warm is Lyon?"
