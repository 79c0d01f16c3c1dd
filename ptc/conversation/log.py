"""The conversation log: store messages in the order and shape a model may be sent.

The log is a sequence of `ptc.store.messages.Message` (what `Store.context` or `Store.full`
return). This module knows the protocol rules and nothing about budgets:

- `to_openai(msg)`: the OpenAI chat form of one message. Summaries (priority 1) are system
  messages starting with ``CONVERSATION_SUMMARY``; ``LLM_ERROR`` blocks are rendered as text
  so a model sees why a previous reply stopped and can continue from it.
- `repair(messages)`: makes a list protocol-valid. Every ``tool`` message follows the
  assistant message whose ``tool_calls`` it answers, and every call has a result:

  * a tool result whose call is not in the list (an *orphan*) is dropped;
  * a second result for the same call is dropped;
  * a result separated from its call by other messages is moved right after the call;
  * a call without a result (a *dangling* call: the run died, or the result was deleted)
    gets a synthetic tool message ``TOOL_RESULT_MISSING: ...`` (negative id, never stored).
    We add a placeholder rather than strip the call: the model then knows it tried that call
    and that no result came back, instead of silently forgetting an action that may have
    happened.

- `rounds(log)`: the messages grouped by user turn. A round starts at a user message that
  is not agent feedback (the store's recorder writes the feedback after every agent turn as
  a user message with ``{"feedback": true}`` block data; it belongs to the round of the
  mission that started the run). Summaries belong to no round.
- `tool_groups(log)`: each assistant message with tool calls and the results answering it.
- `atoms(log)`: the units that are kept or dropped as a whole (a tool group, or one message).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

from ..store.messages import Block, Message
from ..store.schema import COMPRESSED, INVALID, SUMMARY

SUMMARY_PREFIXES = ("CONVERSATION_SUMMARY", "SUMMARY")
SUMMARY_HEADER = "CONVERSATION_SUMMARY"
MISSING_RESULT = ("TOOL_RESULT_MISSING: no result was recorded for this call (the run was interrupted "
                  "or the result was deleted). Do not assume it succeeded.")

__all__ = [
    "Message", "Round", "ToolGroup", "RepairNote", "to_openai", "repair", "rounds", "tool_groups", "atoms",
    "is_summary", "is_feedback", "starts_round", "call_ids", "text_of_message", "by_seq", "context_order",
    "MISSING_RESULT", "SUMMARY_HEADER",
]


# -- classification ----------------------------------------------------------------------

def is_summary(msg: Message) -> bool:
    return msg.priority == SUMMARY


def is_feedback(msg: Message) -> bool:
    """An agent-feedback user message (written by the recorder after each agent turn)."""
    return msg.role == "user" and any(b.data and b.data.get("feedback") for b in msg.blocks)


def starts_round(msg: Message) -> bool:
    """A user message that opens a round: a user request, not agent feedback, not a summary."""
    return msg.role == "user" and not is_summary(msg) and not is_feedback(msg)


def is_synthetic(msg: Message) -> bool:
    """A message `repair` made up (never stored): negative id."""
    return msg.id < 0


def call_ids(msg: Message) -> list[str]:
    """The ids of an assistant message's tool calls, in order."""
    if msg.role != "assistant" or not msg.tool_calls:
        return []
    return [str(c["id"]) for c in msg.tool_calls if isinstance(c, dict) and c.get("id")]


def call_names(msg: Message) -> list[str]:
    out = []
    for c in msg.tool_calls or ():
        if isinstance(c, dict):
            fn = c.get("function") or {}
            out.append(str(fn.get("name") or c.get("name") or "?"))
    return out


def by_seq(messages: Iterable[Message]) -> list[Message]:
    return sorted(messages, key=lambda m: (m.seq, m.id))


def context_order(messages: Iterable[Message]) -> list[Message]:
    """Summaries first (by seq), then the rest by seq: the order `Store.context` uses."""
    items = list(messages)
    return by_seq(m for m in items if is_summary(m)) + by_seq(m for m in items if not is_summary(m))


def sendable(msg: Message, *, include_compressed: bool = False) -> str | None:
    """None when the message may be sent; else why not (invalid, compressed, system)."""
    if msg.status == INVALID:
        return "invalid (deleted)"
    if msg.status == COMPRESSED and not include_compressed:
        return "compressed (represented by its summary)"
    if msg.role == "system" and not is_summary(msg):
        return "stored system message (the system prompt is composed fresh)"
    return None


# -- rendering ---------------------------------------------------------------------------

def text_of_message(msg: Message) -> str:
    """The message text, with every LLM_ERROR block present even if the content lacks it."""
    text = msg.content or ""
    for b in msg.blocks:
        if b.type == "llm_error" and b.content and b.content not in text:
            text = f"{text}\n\n{b.content}" if text else b.content
    return text


def _summary_text(text: str, msg: Message) -> str:
    if text.lstrip().upper().startswith(SUMMARY_PREFIXES):
        return text
    return f"{SUMMARY_HEADER} (message #{msg.seq}):\n{text}"


def _calls_as_text(msg: Message) -> str:
    lines = []
    for c in msg.tool_calls or ():
        fn = c.get("function") or {}
        lines.append(f"- {fn.get('name', '?')}({fn.get('arguments', '')}) [id {c.get('id')}]")
    return "[tool calls]\n" + "\n".join(lines)


def to_openai(msg: Message, *, content: str | None = None, tool_protocol: str = "native") -> dict[str, Any]:
    """The OpenAI chat form of a log message.

    `content` replaces the text (a preview or a shortened text; never stored).
    `tool_protocol="text"` renders tool calls and results as plain assistant/user text, for
    models or providers without tool-calling support.
    """
    text = content if content is not None else text_of_message(msg)
    if is_summary(msg):
        return {"role": "system", "content": _summary_text(text, msg)}
    if msg.role == "assistant":
        calls = msg.tool_calls or None
        if calls and tool_protocol == "text":
            rendered = _calls_as_text(msg)
            return {"role": "assistant", "content": f"{text}\n\n{rendered}" if text else rendered}
        out: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else "")}
        if calls:
            out["tool_calls"] = [dict(c) for c in calls]
        return out
    if msg.role == "tool":
        if tool_protocol == "text":
            return {"role": "user", "content": f"[tool result for {msg.tool_call_id}]\n{text}"}
        return {"role": "tool", "tool_call_id": msg.tool_call_id, "content": text}
    return {"role": msg.role, "content": text}


# -- structure ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ToolGroup:
    """An assistant message with tool calls and the tool messages answering it (call order)."""

    call: Message
    results: tuple[Message, ...]
    missing: tuple[str, ...] = ()  # call ids without a result

    @property
    def messages(self) -> tuple[Message, ...]:
        return (self.call, *self.results)

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(m.id for m in self.messages)

    @property
    def complete(self) -> bool:
        return not self.missing


@dataclass(frozen=True)
class Round:
    """A user request and everything up to the next one. `index` 0 may be a preamble (no user)."""

    index: int
    messages: tuple[Message, ...]

    @property
    def user(self) -> Message | None:
        first = self.messages[0] if self.messages else None
        return first if first is not None and starts_round(first) else None

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(m.id for m in self.messages)


def tool_groups(log: Sequence[Message]) -> list[ToolGroup]:
    """Each assistant tool-call message with the (first) result of each of its calls."""
    results: dict[str, Message] = {}
    for m in log:
        if m.role == "tool" and m.tool_call_id is not None and m.tool_call_id not in results:
            results[m.tool_call_id] = m
    groups = []
    for m in log:
        ids = call_ids(m)
        if not ids:
            continue
        found = tuple(results[i] for i in ids if i in results and results[i].seq >= m.seq)
        missing = tuple(i for i in ids if i not in results or results[i].seq < m.seq)
        groups.append(ToolGroup(m, found, missing))
    return groups


def rounds(log: Sequence[Message]) -> list[Round]:
    """Non-summary messages (in the given order) grouped into rounds by user requests."""
    out: list[list[Message]] = []
    for m in log:
        if is_summary(m):
            continue
        if starts_round(m) or not out:
            out.append([m])
        else:
            out[-1].append(m)
    return [Round(i, tuple(ms)) for i, ms in enumerate(out)]


def atoms(log: Sequence[Message]) -> list[tuple[Message, ...]]:
    """The units kept or dropped whole: a tool group (call + its results present in `log`), or
    a single message; in the order of their first message. Run on a repaired list."""
    present = {m.id for m in log}
    member: dict[int, int] = {}
    groups: list[tuple[Message, ...]] = []
    for g in tool_groups(log):
        msgs = tuple(m for m in g.messages if m.id in present and m.id not in member)
        for m in msgs:
            member[m.id] = len(groups)
        groups.append(msgs)
    out: list[tuple[Message, ...]] = []
    emitted: set[int] = set()
    for m in log:
        g = member.get(m.id)
        if g is None:
            out.append((m,))
        elif g not in emitted:
            emitted.add(g)
            out.append(groups[g])
    return out


# -- repair ------------------------------------------------------------------------------

@dataclass(frozen=True)
class RepairNote:
    """What `repair` changed: kind is orphan, duplicate, moved or missing."""

    kind: str
    message_id: int
    seq: int
    detail: str

    def __str__(self) -> str:
        return self.detail


def _placeholder(call: Message, call_id: str, index: int) -> Message:
    return Message(
        id=-(abs(call.id) * 1000 + index + 1), session_id=call.session_id, seq=call.seq, role="tool",
        content=MISSING_RESULT, blocks=(Block("tool_result", MISSING_RESULT, {"synthetic": True}),),
        tool_call_id=call_id, mode=call.mode, run_id=call.run_id, turn=call.turn, token_count=0,
        status=call.status, priority=0, created_at=call.created_at,
    )


def repair(messages: Sequence[Message]) -> tuple[list[Message], list[RepairNote]]:
    """A protocol-valid copy of `messages` (see the module docstring) and what was changed.

    The relative order of everything except tool results is kept; each result is placed
    right after its call, in the call order.
    """
    notes: list[RepairNote] = []
    call_of: dict[str, Message] = {}
    position = {id(m): i for i, m in enumerate(messages)}
    for m in messages:
        for cid in call_ids(m):
            call_of.setdefault(cid, m)
    result_of: dict[str, Message] = {}
    for i, m in enumerate(messages):
        if m.role != "tool":
            continue
        cid = m.tool_call_id or ""
        call = call_of.get(cid)
        if call is None or position[id(call)] > i:
            notes.append(RepairNote("orphan", m.id, m.seq, f"dropped tool result #{m.seq}: its call {cid!r} is "
                                                           "not in the context"))
        elif cid in result_of:
            notes.append(RepairNote("duplicate", m.id, m.seq, f"dropped tool result #{m.seq}: a second result "
                                                              f"for call {cid!r}"))
        else:
            result_of[cid] = m
    out: list[Message] = []
    for i, m in enumerate(messages):
        if m.role == "tool":
            continue
        out.append(m)
        for k, cid in enumerate(call_ids(m)):
            res = result_of.get(cid) if call_of.get(cid) is m else None  # a reused id: its result went to the first
            if res is None:
                out.append(_placeholder(m, cid, k))
                notes.append(RepairNote("missing", m.id, m.seq, f"added a TOOL_RESULT_MISSING result for call "
                                                                f"{cid!r} of #{m.seq}"))
                continue
            if any(messages[j].role != "tool" for j in range(i + 1, position[id(res)])):
                notes.append(RepairNote("moved", res.id, res.seq, f"moved tool result #{res.seq} right after its "
                                                                  f"call #{m.seq}"))
            out.append(res)
    return out, notes


def with_content(msg: Message, content: str) -> Message:
    """A copy of `msg` with another text (for previews and shortened texts; never stored)."""
    return replace(msg, content=content)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
