"""Traces: a JSONL file per run with every request, reply, turn and timing; OpenTelemetry spans.

A trace is written as the run goes (one flushed line per event), so a crash loses nothing
already recorded. `read_trace` loads one back for `ptc trace show`.
"""

from __future__ import annotations

import json
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


class Telemetry:
    """OpenTelemetry spans run -> turn -> llm/program/tool, when opentelemetry is installed.

    An llm span carries the usage twice: as ``ptc.prompt_tokens``, ``ptc.cached_tokens``...
    (text) and under the GenAI semantic conventions (`GEN_AI_USAGE`, integers)."""

    def __init__(self, run_id: str, mission: str) -> None:
        try:
            from opentelemetry import trace as ot
        except ImportError:
            self.tracer = None
            return
        self.tracer = ot.get_tracer("ptc")
        self._ot = ot
        self.run_span = self.tracer.start_span("ptc.run", attributes={"ptc.run_id": run_id,
                                                                      "ptc.mission": mission[:500]})
        self.turn_span: Any = None

    def __call__(self, event: Event) -> None:
        if self.tracer is None:
            return
        ctx_run = self._ot.set_span_in_context(self.run_span)
        ns = int(event.time * 1e9)
        if event.type == "turn_started":
            self.turn_span = self.tracer.start_span("ptc.turn", context=ctx_run, start_time=ns,
                                                    attributes={"ptc.turn": event.turn or 0})
        elif event.type in ("llm_replied", "program_ran") and self.turn_span is not None:
            ctx_turn = self._ot.set_span_in_context(self.turn_span)
            duration = float(event.data.get("duration", 0.0))
            name = "ptc.llm" if event.type == "llm_replied" else "ptc.program"
            span = self.tracer.start_span(name, context=ctx_turn, start_time=ns - int(duration * 1e9))
            for key in ("prompt_tokens", "completion_tokens", "cached_tokens", "cache_write_tokens", "ok", "error"):
                if event.data.get(key) is not None:
                    span.set_attribute(f"ptc.{key}", str(event.data[key]))
            for key, attribute in GEN_AI_USAGE.items():
                if isinstance(event.data.get(key), int):
                    span.set_attribute(attribute, event.data[key])
            span.end(end_time=ns)
            if event.type == "program_ran":
                for call in event.data.get("tool_calls", []):
                    tspan = self.tracer.start_span(f"ptc.tool/{call['name']}", context=ctx_turn, start_time=ns)
                    tspan.set_attribute("ptc.duration", call.get("duration", 0.0))
                    if call.get("error"):
                        tspan.set_attribute("ptc.error", call["error"])
                    tspan.end(end_time=ns)
        elif event.type == "turn_finished" and self.turn_span is not None:
            self.turn_span.end(end_time=ns)
            self.turn_span = None
        elif event.type == "run_finished":
            self.run_span.set_attribute("ptc.ok", bool(event.data.get("ok")))
            self.run_span.end(end_time=ns)
