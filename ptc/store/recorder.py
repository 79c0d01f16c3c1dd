"""Persist an agent run, event by event, as a protocol-complete conversation log.

    store = Store()
    agent = ptc.Agent(mission, tools=..., on_event=recorder(store, session_id))

Mapping (see docs/store.md):

    run_started    start_run(run_id, mission, meta) + user message: the mission
                   (the system prompt is composed fresh on every call and never stored)
    llm_replied    ok: assistant message, blocks text (the reply verbatim) + code (the program)
                   failed: append_llm_error (partial output + LLM_ERROR block; stays in context)
    program_ran    if the program called tools: one assistant message whose tool_calls list
                   every call (ids "<run>-<turn>-<i>"), then one tool message per call
                   (tool_call_id, the result as JSON or the error)
    tool_called    nothing more (program_ran already carries every call, even of a failed program)
    turn_finished  save_turn(run_id, record) + a user message with the feedback the model gets
                   (output, result, defined names, error, turns left) unless the run ends there
    run_finished   finish_run(run_id, ok, outcome)
    llm_request, turn_started: nothing (the requests are recomputable from the log)

Every message carries run_id, turn and mode. Writes are synchronous, one transaction per
message, so a process that dies mid-run leaves a log that is complete up to its last event.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, Mapping

from ..agent.turn import ErrorInfo
from .errors import NotFound
from .messages import Block

if TYPE_CHECKING:  # Store.recorder makes the recorder: the type only
    from .store import Store

_LLM_ERROR = re.compile(r"^LLM error \((?P<kind>[\w-]+)\): (?P<message>.*)$", re.S)


def tool_call_id(run_id: str, turn: int | None, index: int) -> str:
    return f"{run_id}-{turn if turn is not None else 0}-{index}"


def feedback_text(record: Mapping[str, Any], turns_left: int) -> str:
    """The feedback for a turn, rebuilt from its JSON record (as ptc.compression.feedback words it)."""
    from ..compression.feedback import clip_result, no_code_text, program_report, shown_result

    has_program = record.get("program") is not None
    result = None
    prints, defined = record.get("prints") or (), record.get("defined") or ()
    if record.get("success") and not record.get("returned"):
        result = shown_result(clip_result(str(record.get("result", "nil"))), prints, record.get("note"))
    error = record.get("error")
    parts = [] if has_program else [no_code_text(error.get("message") if error else None)]
    parts += program_report(prints=prints, result=result, defined=defined,
                            error=ErrorInfo.model_validate(error).format() if error and has_program else None,
                            note=record.get("note"))
    parts.append(f"Turns left: {turns_left}")
    return "\n\n".join(parts)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr)


class Recorder:
    """An `on_event` handler writing a run into a session (created on run_started if not given)."""

    def __init__(self, store: Store, session_id: str | None = None, *, mode: str = "agent",
                 title: str | None = None) -> None:
        self.store = store
        self.session_id = session_id
        self.mode = mode
        self.title = title
        self.max_turns: dict[str, int] = {}

    def __call__(self, event: Any) -> None:
        handler = getattr(self, "_on_" + event.type, None)
        if handler is not None:
            handler(event.run_id, event.turn, event.data)

    def _append(self, role: str, blocks: list[Block], run_id: str, turn: int | None, **fields: Any) -> Any:
        assert self.session_id is not None
        return self.store.append(self.session_id, role, blocks, mode=self.mode, run_id=run_id, turn=turn, **fields)

    def _on_run_started(self, run_id: str, _turn: int | None, data: Mapping[str, Any]) -> None:
        mission = str(data.get("mission", ""))
        title = self.title if self.title is not None else mission.strip().splitlines()[0][:80] if mission.strip() \
            else "run"
        if self.session_id is None:
            self.session_id = self.store.create_session(title, self.mode).id
        else:
            try:
                self.store.get_session(self.session_id)
            except NotFound:  # a session id chosen by the caller: create it on first use
                self.store.create_session(title, self.mode, id=self.session_id)
        meta = {k: v for k, v in data.items() if k not in ("mission", "system_prompt")}
        self.max_turns[run_id] = int(data.get("max_turns") or 0)
        self.store.start_run(mission, run_id=run_id, session_id=self.session_id, meta=meta)
        if not data.get("resumed_at"):  # a resumed run's mission is already in the log
            self._append("user", [Block("text", mission)], run_id, None)

    def _on_llm_replied(self, run_id: str, turn: int | None, data: Mapping[str, Any]) -> None:
        assert self.session_id is not None
        if not data.get("ok", True):
            raw = str(data.get("error", ""))
            match = _LLM_ERROR.match(raw)  # str(LLMError): "LLM error (<kind>): <message>"
            kind = data.get("kind") or (match["kind"] if match else "other")
            message = match["message"] if match else raw
            retries = data.get("retries")
            self.store.append_llm_error(self.session_id, data.get("partial") or "", str(kind), message, run_id,
                                        turn=turn, mode=self.mode,
                                        retries=retries if isinstance(retries, int) else None)
            return
        from ..agent.response import extract_code

        text = str(data.get("text", ""))
        usage = {k: data.get(k) for k in ("prompt_tokens", "completion_tokens", "cached_tokens", "cache_write_tokens",
                                          "cost", "duration") if k in data}
        blocks = [Block("text", text, usage or None)]
        code = extract_code(text)
        if code is not None:
            blocks.append(Block("code", code, {"language": "clojure"}))
        tokens = data.get("completion_tokens")
        self._append("assistant", blocks, run_id, turn,
                     token_count=tokens if isinstance(tokens, int) and tokens else None)

    def _on_program_ran(self, run_id: str, turn: int | None, data: Mapping[str, Any]) -> None:
        calls = list(data.get("tool_calls") or ())
        if not calls:
            return
        assert self.session_id is not None
        tool_calls, call_blocks, results = [], [], []
        for i, call in enumerate(calls):
            cid = tool_call_id(run_id, turn, i)
            args = _json(call.get("args"))
            tool_calls.append({"id": cid, "type": "function",
                               "function": {"name": call.get("name"), "arguments": args}})
            call_blocks.append(Block("tool_call", args, {"id": cid, "name": call.get("name")}))
            content, info = self._tool_result(cid, call)
            results.append(dict(role="tool", tool_call_id=cid, mode=self.mode, run_id=run_id, turn=turn,
                                blocks=[Block("tool_result", content, info)]))
        first = dict(role="assistant", blocks=call_blocks, tool_calls=tool_calls, mode=self.mode, run_id=run_id,
                     turn=turn)
        self._stored(self.store.append_many(self.session_id, [first, *results]))

    def _tool_result(self, cid: str, call: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """A tool call's result message: its JSON (or its error), and what its block records."""
        error = call.get("error")
        content = f"error: {error}" if error else _json(call.get("result"))
        return content, {"name": call.get("name"), "error": error, "duration": call.get("duration")}

    def _stored(self, written: Any) -> None:
        """After a program's tool-call messages are stored (a conversation indexes them)."""

    def _on_turn_finished(self, run_id: str, turn: int | None, data: Mapping[str, Any]) -> None:
        record = data.get("record")
        if not isinstance(record, Mapping):
            return
        self.store.save_turn(run_id, record)
        if record.get("returned") or record.get("failed"):
            return  # the run ends here: no model reads a feedback message
        number = int(record.get("number") or turn or 0)
        max_turns = self.max_turns.get(run_id, 0)
        left = max(0, max_turns - number)
        blocks = [Block("text", feedback_text(record, left), {"feedback": True})]
        if record.get("error"):
            blocks.append(Block("error", ErrorInfo.model_validate(record["error"]).format(), dict(record["error"])))
        self._append("user", blocks, run_id, turn)

    def _on_run_finished(self, run_id: str, _turn: int | None, data: Mapping[str, Any]) -> None:
        self.store.finish_run(run_id, bool(data.get("ok")), dict(data))
        self.max_turns.pop(run_id, None)


def recorder(store: Store, session_id: str | None = None, *, mode: str = "agent", title: str | None = None) -> Recorder:
    """An event handler for `ptc.Agent(on_event=...)` that persists the run into `session_id`.

    Without a session id, a session titled after the mission is created when the run starts
    (`handler.session_id` tells which).
    """
    return Recorder(store, session_id, mode=mode, title=title)
