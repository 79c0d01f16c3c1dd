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


def tool_error_type(error: BaseException) -> str:
    """error.type of a failed tool call: the class of the exception the tool raised, "timeout"
    when the run's deadline came first, "limit" for a limit, else "ptc.tool_error" (a tool's
    own refusal, a PTCError)."""
    from ..interpreter.errors import PTCError
    from ..interpreter.tool_calls import Abandoned

    if isinstance(error, Abandoned):
        return "timeout"
    if isinstance(error, PTCError):
        raised = error.__context__  # a Python exception the call turned into a tool error
        if isinstance(raised, Exception) and not isinstance(raised, (PTCError, Abandoned)):
            return type(raised).__name__
        return "limit" if error.kind == "limit" else "ptc.tool_error"
    return type(error).__name__


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

    Each span is the current one while its operation goes: the run's for the run (`scope`), a
    chat span from llm_request to llm_replied, a program's from the reply to program_ran, a
    tool call's around the call (`tool_calls.TOOL_WATCHER`; the tool's worker thread gets the
    context), so a sub-agent's spans and other instrumentation nest where they happen. Message
    and tool content only when `capture_content()`."""

    def __init__(self, run_id: str, agent: Any, capture: bool | None = None) -> None:
        from opentelemetry import context, trace as ot

        self._ot, self._context = ot, context
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
        self.finished = False
        self.turn = 0
        self.calls = 0  # tool calls of the turn's program so far
        self.chat: tuple[Any, Any] | None = None  # (span, context token) while the model answers
        self.program: tuple[Any, Any] | None = None  # while the program runs
        self.ran: tuple[Any, float] | None = None  # (span, end time) from program_ran to turn_finished

    @classmethod
    def for_run(cls, run_id: str, agent: Any) -> "Telemetry | None":
        """The run's spans when the application traces (`tracing_on`), else None."""
        return cls(run_id, agent, getattr(agent, "capture_content", None)) if tracing_on() else None

    @contextmanager
    def scope(self) -> Iterator[None]:
        """The run's span as the current one while the run goes, and its tool calls watched;
        a run that ends without run_finished (an exception) ends its open spans as errors."""
        from ..interpreter.tool_calls import TOOL_WATCHER

        token = self._context.attach(self._ot.set_span_in_context(self.run_span))
        watching = TOOL_WATCHER.set(self._watch)
        try:
            yield
        finally:
            TOOL_WATCHER.reset(watching)
            for open_span in (self.chat, self.program):
                if open_span is not None:
                    self._fail(open_span[0], "_OTHER", "the run stopped here")
                    open_span[0].end()
            if self.ran is not None:
                self.ran[0].end(end_time=int(self.ran[1] * 1e9))
            self.chat = self.program = self.ran = None
            self._context.detach(token)
            if not self.finished:
                self.finished = True
                self._fail(self.run_span, "_OTHER", "the run stopped unfinished")
                self.run_span.end()

    def _begin(self, name: str, kind: Any, attributes: dict[str, Any]) -> tuple[Any, Any]:
        """A span started now under the current one, made current (its context token)."""
        span = self.tracer.start_span(name, kind=kind, attributes=attributes)
        return span, self._context.attach(self._ot.set_span_in_context(span))

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

    def _on_turn_started(self, event: Event) -> None:
        self.turn, self.calls = event.turn or 0, 0

    def _on_llm_request(self, event: Event) -> None:
        attributes: dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": self.provider,
                                      "ptc.turn": event.turn or 0, **self.server}
        if self.model:
            attributes["gen_ai.request.model"] = self.model
        if self.capture:
            attributes["gen_ai.input.messages"] = _text_messages(event.data.get("messages"))
        self.chat = self._begin(f"chat {self.model}" if self.model else "chat", self._ot.SpanKind.CLIENT, attributes)

    def _on_llm_replied(self, event: Event) -> None:
        if self.chat is None:
            return
        (span, token), self.chat = self.chat, None
        self._context.detach(token)
        data = event.data
        if isinstance(data.get("model"), str) and data["model"]:
            span.set_attribute("gen_ai.response.model", data["model"])
        for key, attribute in GEN_AI_USAGE.items():
            if isinstance(data.get(key), int):
                span.set_attribute(attribute, data[key])
        if isinstance(data.get("cost"), (int, float)):
            span.set_attribute("ptc.cost_usd", float(data["cost"]))
        if not data.get("ok", True):
            self._fail(span, str(data.get("kind") or "_OTHER"), str(data.get("error", "")))
            if data.get("retries"):
                span.set_attribute("ptc.llm.retries", int(data["retries"]))
        elif self.capture:
            span.set_attribute("gen_ai.output.messages", _json([{
                "role": "assistant", "parts": [{"type": "text", "content": data.get("text", "")}],
                "finish_reason": "stop"}]))
        span.end()
        if data.get("ok", True):
            from .response import parse_reply

            code = parse_reply(str(data.get("text", ""))).code  # what the loop runs next, if anything
            if code is not None:
                self.program = self._begin("ptc.program", self._ot.SpanKind.INTERNAL,
                                           {"ptc.turn": event.turn or 0, "ptc.program": code, **self.limits})

    def _on_program_ran(self, event: Event) -> None:
        if self.program is None:
            return
        (span, token), self.program = self.program, None
        self._context.detach(token)
        self.ran = (span, event.time)  # ended at turn_finished, which says how the program ended

    def _on_turn_finished(self, event: Event) -> None:
        if self.ran is None:
            return
        (span, end), self.ran = self.ran, None
        record = event.data.get("record") or {}
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
            message = str(error.get("message", ""))
            span.set_attribute("ptc.program.error", message[:2000])
            kind = str(error.get("kind") or "_OTHER")
            if kind == "limit":
                import re

                limit = re.search(r"limit (\w+)=", message)
                if limit:
                    span.set_attribute("ptc.program.limit", limit[1])
            self._fail(span, kind, message)
        if self.capture and record.get("prints"):
            span.set_attribute("ptc.program.prints", [str(p) for p in record["prints"]])
        if self.capture and outcome in ("returned", "continued"):
            span.set_attribute("ptc.program.result", str(record.get("result", "")))
        span.end(end_time=int(end * 1e9))

    @contextmanager
    def _watch(self, name: str, args: Any) -> Iterator[Any]:
        """One tool call's execute_tool span, current while the call goes (the watcher of
        ptc.interpreter.tool_calls.recorded_call)."""
        index, self.calls = self.calls, self.calls + 1
        attributes: dict[str, Any] = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name,
                                      "gen_ai.tool.type": "function",
                                      # the id the session store gives the call (ptc.store.recorder.tool_call_id)
                                      "gen_ai.tool.call.id": f"{self.run_id}-{self.turn}-{index}"}
        if self.descriptions.get(name):
            attributes["gen_ai.tool.description"] = self.descriptions[name][:1000]
        if self.capture:
            from ..interpreter.values import to_python

            attributes["gen_ai.tool.call.arguments"] = _json(to_python(args))
        span, token = self._begin(f"execute_tool {name}", self._ot.SpanKind.INTERNAL, attributes)
        watch = _Watch(span, self.capture)
        try:
            yield watch
        except BaseException as e:
            self._fail(span, tool_error_type(e), str(getattr(e, "message", e)))
            raise
        finally:
            self._context.detach(token)
            span.end()

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
        span.end()


class _Watch:
    """What a tool call's span is told of the call's result (captured when content is)."""

    __slots__ = ("span", "capture")

    def __init__(self, span: Any, capture: bool) -> None:
        self.span, self.capture = span, capture

    def returned(self, result: Any) -> None:
        if self.capture:
            from ..interpreter.values import to_python

            self.span.set_attribute("gen_ai.tool.call.result", _json(to_python(result)))


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
