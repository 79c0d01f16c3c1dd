"""Traces: a JSONL file per run with every request, reply, turn and timing; OpenTelemetry spans
in the GenAI semantic conventions (`Telemetry`).

A trace is written as the run goes (one flushed line per event), so a crash loses nothing
already recorded. `read_trace` loads one back for `ptc trace show`.
"""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Iterator

from .events import Event


class TraceWriter:
    """An event handler appending each event as one JSON line."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("a", encoding="utf-8")

    def __call__(self, event: Event) -> None:
        record = {"type": event.type, "run_id": event.run_id, "turn": event.turn, "time": event.time, **event.data}
        self._fh.write(json.dumps(record, default=_json_default, ensure_ascii=False) + "\n")
        self._fh.flush()
        if event.type == "run_finished":
            self._fh.close()


def _json_default(x: Any) -> Any:
    from ..interpreter.printer import pr_str

    return pr_str(x, max_len=10_000)


def trace_path(target: str | Path, run_id: str) -> Path:
    """A directory gets one file per run; anything else is the file itself."""
    p = Path(target)
    if p.is_dir() or str(target).endswith(("/", "\\")):
        return p / f"{run_id}.jsonl"
    return p


def read_trace(path: str | Path) -> Iterator[dict[str, Any]]:
    with Path(path).open(encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    return  # a truncated last line (the process died while writing)


# llm_replied data -> OpenTelemetry's GenAI semantic-convention attributes (as integers)
GEN_AI_USAGE = {"prompt_tokens": "gen_ai.usage.input_tokens", "completion_tokens": "gen_ai.usage.output_tokens",
                "cached_tokens": "gen_ai.usage.cache_read.input_tokens",
                "cache_write_tokens": "gen_ai.usage.cache_creation.input_tokens"}

# The switch of the GenAI conventions for prompts, completions, tool arguments and results on spans
CAPTURE_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
_CAPTURE_ON = {"true", "1", "yes", "span_only", "span_and_event"}

# litellm's model prefixes -> the conventions' gen_ai.provider.name (others pass through as they are)
PROVIDERS = {"openai": "openai", "text-completion-openai": "openai", "anthropic": "anthropic",
             "azure": "azure.ai.openai", "azure_ai": "azure.ai.inference", "bedrock": "aws.bedrock",
             "bedrock_converse": "aws.bedrock", "vertex_ai": "gcp.vertex_ai", "vertex_ai_beta": "gcp.vertex_ai",
             "gemini": "gcp.gemini", "cohere": "cohere", "cohere_chat": "cohere", "deepseek": "deepseek",
             "groq": "groq", "mistral": "mistral_ai", "perplexity": "perplexity", "xai": "x_ai",
             "watsonx": "ibm.watsonx.ai", "ollama_chat": "ollama", "hosted_vllm": "vllm"}


def capture_content() -> bool:
    """Whether spans carry message and tool content: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
    is true (or SPAN_ONLY / SPAN_AND_EVENT, the values of OpenTelemetry's GenAI instrumentations)."""
    return os.environ.get(CAPTURE_ENV, "").strip().lower() in _CAPTURE_ON


def tracing_on() -> bool:
    """Whether the application set up OpenTelemetry tracing (a tracer provider of its own). ptc
    never imports opentelemetry itself: without it loaded, a run costs no import and no span."""
    ot = sys.modules.get("opentelemetry.trace")
    if ot is None:
        return False
    return type(ot.get_tracer_provider()).__name__ not in ("ProxyTracerProvider", "NoOpTracerProvider")


def provider_and_model(llm: Any) -> tuple[str, str | None]:
    """gen_ai.provider.name and gen_ai.request.model of a model: from a litellm name's prefix
    ("openai/gpt-4o-mini" -> openai, gpt-4o-mini); an LLM object may say its `provider`; any
    other model is "ptc.<its class>" (ptc.ScriptedLLM, ptc.ReplayLLM...)."""
    inner = getattr(llm, "inner", None)  # RecordingLLM: the model it records
    if inner is not None and type(llm).__name__ == "RecordingLLM":
        return provider_and_model(inner)
    model = getattr(llm, "model", None)
    model = model if isinstance(model, str) and model else None
    provider = getattr(llm, "provider", None)
    if isinstance(provider, str) and provider:
        return provider, model
    if type(llm).__name__ != "LiteLLM" or model is None:
        return f"ptc.{type(llm).__name__}", model
    if "/" in model:
        prefix, rest = model.split("/", 1)
        return PROVIDERS.get(prefix, prefix), rest
    if model.startswith(("gpt-", "o1", "o3", "o4", "chatgpt-")):
        return "openai", model
    if model.startswith("claude"):
        return "anthropic", model
    return "_OTHER", model


def tool_error_type(message: str) -> str:
    """error.type of a failed tool call: the exception's class when the tool raised one,
    "timeout" when the run's deadline came first, else the kind of ptc's refusal."""
    import re

    raised = re.match(r"tool/\S+ failed: ([A-Za-z_][\w.]*):", message)
    if raised:
        return raised[1]
    if "still running at the deadline" in message:
        return "timeout"
    if "limit " in message and "exceeded" in message:
        return "limit"
    return "ptc.tool_error"


def _json(value: Any) -> str:
    return json.dumps(value, default=_json_default, ensure_ascii=False)


def _text_messages(messages: Any) -> str:
    """ptc's chat messages in the conventions' gen_ai.input.messages shape (a JSON string)."""
    return _json([{"role": m.get("role"), "parts": [{"type": "text", "content": m.get("content")}]}
                  for m in messages or ()])


class Telemetry:
    """OpenTelemetry spans of a run, named and attributed as the OpenTelemetry GenAI semantic
    conventions say (docs/agent.md, "OpenTelemetry"):

        invoke_agent {agent name}     INTERNAL  the run
          chat {model}                CLIENT    each LLM call (ptc.turn: its turn)
          ptc.program                 INTERNAL  each turn's program: its text, limits, outcome
            execute_tool {tool}       INTERNAL  each tool call the program made

    Spans are made from the run's events; they carry the events' own times. Message and tool
    content only when `capture_content()`."""

    def __init__(self, run_id: str, agent: Any, capture: bool | None = None) -> None:
        from opentelemetry import trace as ot

        self._ot = ot
        self.tracer = ot.get_tracer("ptc")
        self.run_id = run_id
        self.capture = capture_content() if capture is None else capture
        self.provider, self.model = provider_and_model(agent.llm)
        self.limits = {f"ptc.limits.{k}": v if isinstance(v, (int, float, str)) else str(v)
                       for k, v in agent.limits.model_dump().items() if v is not None}
        self.descriptions = {name: getattr(tool, "description", None) or "" for name, tool in agent.tools.items()}
        self.server = _server(getattr(agent.llm, "api_base", None))
        attributes: dict[str, Any] = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent.name,
                                      "gen_ai.provider.name": self.provider, "ptc.run_id": run_id,
                                      "ptc.max_turns": agent.max_turns}
        if self.model:
            attributes["gen_ai.request.model"] = self.model
        if agent.session_id:
            attributes["gen_ai.conversation.id"] = agent.session_id
        if self.capture:
            attributes["gen_ai.input.messages"] = _text_messages([{"role": "user", "content": agent.mission}])
        self.run_span = self.tracer.start_span(f"invoke_agent {agent.name}", kind=ot.SpanKind.INTERNAL,
                                               attributes=attributes)
        self._run_context = ot.set_span_in_context(self.run_span)
        self.finished = False
        self.request_time: float | None = None
        self.request_messages: Any = None
        self.program: dict[str, Any] | None = None  # the turn's program_ran data, until turn_finished

    @classmethod
    def for_run(cls, run_id: str, agent: Any) -> "Telemetry | None":
        """The run's spans when the application traces (`tracing_on`), else None."""
        return cls(run_id, agent) if tracing_on() else None

    @contextmanager
    def scope(self) -> Iterator[None]:
        """The run's span as the current one while the run goes (other instrumentation in the
        run's thread joins its trace); a run that ends without run_finished ends it as an error."""
        from opentelemetry import context

        token = context.attach(self._run_context)
        try:
            yield
        finally:
            context.detach(token)
            if not self.finished:
                self.finished = True
                self.run_span.set_status(self._ot.Status(self._ot.StatusCode.ERROR, "the run stopped unfinished"))
                self.run_span.set_attribute("error.type", "_OTHER")
                self.run_span.end()

    def _start(self, name: str, start: float, kind: Any, attributes: dict[str, Any], parent: Any = None) -> Any:
        return self.tracer.start_span(name, context=parent or self._run_context, kind=kind, attributes=attributes,
                                      start_time=int(start * 1e9))

    def _fail(self, span: Any, error_type: str, message: str) -> None:
        span.set_attribute("error.type", error_type)
        span.set_status(self._ot.Status(self._ot.StatusCode.ERROR, message[:1000]))

    def __call__(self, event: Event) -> None:
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is not None:
            handler(event)

    def _on_run_started(self, event: Event) -> None:
        data = event.data
        self.run_span.set_attribute("ptc.strategy", str(data.get("strategy")))
        self.run_span.set_attribute("ptc.tools", [str(t) for t in data.get("tools") or ()])
        if data.get("resumed_at"):
            self.run_span.set_attribute("ptc.resumed_at", int(data["resumed_at"]))

    def _on_llm_request(self, event: Event) -> None:
        self.request_time = event.time
        self.request_messages = event.data.get("messages") if self.capture else None

    def _on_llm_replied(self, event: Event) -> None:
        data = event.data
        start = self.request_time if self.request_time is not None else event.time - float(data.get("duration", 0))
        attributes: dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": self.provider,
                                      "ptc.turn": event.turn or 0, **self.server}
        if self.model:
            attributes["gen_ai.request.model"] = self.model
        span = self._start(f"chat {self.model}" if self.model else "chat", start, self._ot.SpanKind.CLIENT,
                           attributes)
        if isinstance(data.get("model"), str) and data["model"]:
            span.set_attribute("gen_ai.response.model", data["model"])
        for key, attribute in GEN_AI_USAGE.items():
            if isinstance(data.get(key), int):
                span.set_attribute(attribute, data[key])
        if isinstance(data.get("cost"), (int, float)):
            span.set_attribute("ptc.cost_usd", float(data["cost"]))
        if self.request_messages is not None:
            span.set_attribute("gen_ai.input.messages", _text_messages(self.request_messages))
        if not data.get("ok", True):
            self._fail(span, str(data.get("kind") or "_OTHER"), str(data.get("error", "")))
            if data.get("retries"):
                span.set_attribute("ptc.llm.retries", int(data["retries"]))
        elif self.capture:
            span.set_attribute("gen_ai.output.messages", _json([{
                "role": "assistant", "parts": [{"type": "text", "content": data.get("text", "")}],
                "finish_reason": "stop"}]))
        span.end(end_time=int(event.time * 1e9))
        self.request_time = self.request_messages = None

    def _on_program_ran(self, event: Event) -> None:
        self.program = {"end": event.time, **event.data}

    def _on_turn_finished(self, event: Event) -> None:
        ran, self.program = self.program, None
        record = event.data.get("record") or {}
        if ran is None or record.get("program") is None:
            return  # no program in the reply
        end = float(ran["end"])
        start = end - float(ran.get("duration") or 0.0)
        attributes: dict[str, Any] = {"ptc.turn": event.turn or 0, "ptc.program": record["program"], **self.limits}
        span = self._start("ptc.program", start, self._ot.SpanKind.INTERNAL, attributes)
        error = record.get("error") or {}
        if record.get("returned"):
            outcome = "returned"
        elif record.get("failed"):
            outcome = "failed"  # (fail ...): the run ends without an answer
        elif error:
            outcome = "error"
        else:
            outcome = "continued"
        span.set_attribute("ptc.program.outcome", outcome)
        if error:
            span.set_attribute("ptc.program.error", str(error.get("message", ""))[:2000])
            kind = str(error.get("kind") or "_OTHER")
            if kind == "limit":
                import re

                limit = re.search(r"limit (\w+)=", str(error.get("message", "")))
                if limit:
                    span.set_attribute("ptc.program.limit", limit[1])
            self._fail(span, kind, str(error.get("message", "")))
        if self.capture and record.get("prints"):
            span.set_attribute("ptc.program.prints", [str(p) for p in record["prints"]])
        if self.capture and outcome in ("returned", "continued"):
            span.set_attribute("ptc.program.result", str(record.get("result", "")))
        parent = self._ot.set_span_in_context(span)
        for index, call in enumerate(ran.get("tool_calls") or ()):
            self._tool_span(call, index, event.turn, parent, start, end)
        span.end(end_time=int(end * 1e9))

    def _tool_span(self, call: dict[str, Any], index: int, turn: int | None, parent: Any, start: float,
                   end: float) -> None:
        name = str(call.get("name"))
        duration = float(call.get("duration") or 0.0)
        ended = min(float(call.get("ended") or end), end)
        began = max(ended - duration, start)
        attributes: dict[str, Any] = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name,
                                      "gen_ai.tool.type": "function",
                                      # the id the session store gives the call (ptc.store.recorder.tool_call_id)
                                      "gen_ai.tool.call.id": f"{self.run_id}-{turn if turn is not None else 0}-{index}"}
        if self.descriptions.get(name):
            attributes["gen_ai.tool.description"] = self.descriptions[name][:1000]
        if self.capture:
            attributes["gen_ai.tool.call.arguments"] = _json(call.get("args"))
        span = self._start(f"execute_tool {name}", began, self._ot.SpanKind.INTERNAL, attributes, parent)
        if call.get("error"):
            self._fail(span, tool_error_type(str(call["error"])), str(call["error"]))
        elif self.capture:
            span.set_attribute("gen_ai.tool.call.result", _json(call.get("result")))
        span.end(end_time=int(ended * 1e9))

    def _on_run_finished(self, event: Event) -> None:
        data = event.data
        span = self.run_span
        usage = data.get("usage") or {}
        for key, attribute in GEN_AI_USAGE.items():
            if isinstance(usage.get(key), int):
                span.set_attribute(attribute, usage[key])
        if isinstance(usage.get("cost"), (int, float)):
            span.set_attribute("ptc.cost_usd", float(usage["cost"]))
        span.set_attribute("ptc.turns", int(data.get("turns") or 0))
        span.set_attribute("ptc.ok", bool(data.get("ok")))
        error = data.get("error") or {}
        span.set_attribute("ptc.stop_reason", "returned" if data.get("ok") else str(error.get("kind") or "_OTHER"))
        if not data.get("ok"):
            self._fail(span, str(error.get("kind") or "_OTHER"), str(error.get("message", "")))
        elif self.capture:
            span.set_attribute("gen_ai.output.messages", _json([{
                "role": "assistant", "parts": [{"type": "text", "content": _json(data.get("value"))}],
                "finish_reason": "stop"}]))
        self.finished = True
        span.end(end_time=int(event.time * 1e9))


def _server(api_base: Any) -> dict[str, Any]:
    """server.address / server.port of a model served at `api_base` (a local server, a proxy)."""
    if not isinstance(api_base, str) or not api_base:
        return {}
    from urllib.parse import urlsplit

    parts = urlsplit(api_base)
    if not parts.hostname:
        return {}
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return {"server.address": parts.hostname, "server.port": port}


def telemetry_scope(emit: Any) -> Any:
    """The run's span as the current one while `emit`'s run goes, when it has telemetry."""
    telemetry = getattr(emit, "telemetry", None)
    return telemetry.scope() if telemetry is not None else nullcontext()
