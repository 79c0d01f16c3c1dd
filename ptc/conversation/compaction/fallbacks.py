"""The fallback ladder: request-only trimming when keeping messages whole does not fit.

`fit(items, goal, settings, fixed=..., limit=...)` returns a `TrimPlan` (rewrites and
exclusions for one request; the store keeps everything). Each step runs only while the
request is over its ceiling and stops as soon as it fits.

Toward the **goal** (the target), touching only what no strategy must keep:

1. ``tool_previews``: tool results outside the last ``mandatory_rounds`` rounds become
   previews (``TOOL_RESULT_PREVIEW``: tool name, size, JSON shape, head and tail, and the
   message number of the full result in the log), oldest first;
2. ``shorten_texts``: user/assistant texts over ``long_text_chars`` there are shortened
   (first paragraph, bullet and conclusion lines), oldest first;
3. ``drop_rounds``: the oldest rounds are dropped, one at a time, down to the last
   ``keep_recent_rounds`` (K=4), then down to the ``mandatory_rounds``.

Toward the **limit** (the prompt budget), touching mandatory content, the current round last:

4. ``recent_rounds``: previews and shortened texts in the earlier mandatory rounds, then
   those rounds are dropped (down to the current round alone);
5. ``current_round``: the current round's tool results become previews, its long texts are
   shortened (the latest user message and request are never changed);
6. ``drop_summaries``: summaries, oldest first;
7. ``drop_in_round``: older tool groups/messages of the current round, oldest first, keeping
   the latest user message and request and the last exchange.

A tool call and its results are kept or dropped together (the items come from
`ptc.conversation.log.repair`). `TrimPlan.reached` says whether the goal was met; a request
still over the limit after step 7 (a huge latest message) is sent as it is and the steps say so.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..log import Message, atoms, is_summary, rounds, starts_round, text_of_message, to_openai
from ..usage import ContextSettings, message_tokens

PREVIEW_HEADER = "TOOL_RESULT_PREVIEW"
SHORTENED_MARK = "TEXT_SHORTENED"
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_CONCLUSION = re.compile(r"\b(?:in short|in summary|summary|conclusion|result|answer|total|therefore|so the)\b|"
                         r"结论|总结", re.IGNORECASE)


@dataclass
class TrimPlan:
    rewrites: dict[int, tuple[str, str]] = field(default_factory=dict)   # id -> (content, reason)
    excluded: dict[int, str] = field(default_factory=dict)               # id -> reason
    steps: list[str] = field(default_factory=list)
    tokens: int = 0
    reached: bool = True


def tool_name(msg: Message) -> str | None:
    for b in msg.blocks:
        if b.data and b.data.get("name"):
            return str(b.data["name"])
    return None


def json_shape(text: str) -> str | None:
    """A one-line description of a JSON text: ``JSON list of 120 items; keys: a, b`` etc."""
    body = text.strip()
    if not body or body[0] not in "[{":
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None
    if isinstance(value, list):
        keys = sorted({k for v in value[:50] if isinstance(v, dict) for k in v})
        return f"JSON list of {len(value)} items" + (f"; keys: {', '.join(keys[:12])}" if keys else "")
    if isinstance(value, dict):
        keys = list(value)
        more = f" (+{len(keys) - 12} more)" if len(keys) > 12 else ""
        return f"JSON object; keys: {', '.join(map(str, keys[:12]))}{more}"
    return None


def is_preview(text: str) -> bool:
    return text.startswith(PREVIEW_HEADER)


def preview_tool_result(msg: Message, chars: int, text: str | None = None) -> str:
    """A preview of a tool result: name, size, shape, head and tail; where the full one is."""
    body = text if text is not None else text_of_message(msg)
    name = tool_name(msg)
    facts = [f"tool {name!r}" if name else "tool result", f"{len(body):,} characters"]
    shape = json_shape(body)
    if shape:
        facts.append(shape)
    where = f"full result: message #{msg.seq} in the session log" if msg.id > 0 else "no full result stored"
    head_n = max(40, chars * 2 // 3)
    tail_n = max(20, chars - head_n)
    if len(body) <= head_n + tail_n + 20:
        excerpt = body
    else:
        excerpt = f"{body[:head_n].rstrip()}\n…\n{body[-tail_n:].lstrip()}"
    return f"{PREVIEW_HEADER} ({'; '.join(facts)}; {where})\n{excerpt}"


def shorten_text(text: str, chars: int) -> str:
    """The first paragraph, then bullet and conclusion lines, within about `chars` characters."""
    if len(text) <= chars:
        return text
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    first = paragraphs[0] if paragraphs else text
    budget_first = max(80, int(chars * 0.6))
    if len(first) > budget_first:
        cut = first[:budget_first]
        stop = max(cut.rfind(". "), cut.rfind("\n"))
        first = (cut[:stop + 1] if stop > budget_first // 2 else cut).rstrip() + " …"
    out = [first]
    used = len(first)
    rest = "\n\n".join(paragraphs[1:]).splitlines()
    for line in rest:
        line = line.strip()
        if not line or not (_BULLET.match(line) or _CONCLUSION.search(line)):
            continue
        if len(line) > 200:
            line = line[:200].rstrip() + " …"
        if used + len(line) > chars:
            break
        out.append(line)
        used += len(line) + 1
    out.append(f"[{SHORTENED_MARK}: about {used:,} of {len(text):,} characters shown]")
    return "\n".join(out)


def fit(items: Sequence[Message], goal: int, settings: ContextSettings, *, fixed: int = 0,
        rewrites: Mapping[int, tuple[str, str]] | None = None, limit: int | None = None) -> TrimPlan:
    """Trim a request toward `goal` tokens; mandatory content only down to `limit`.

    `fixed`: tokens that cannot be trimmed (the system prompt, the reply priming). `limit`
    (default: `goal`; the `Compactor` passes the prompt budget) is the hard ceiling: the
    steps that touch mandatory content (the last ``mandatory_rounds`` rounds, summaries, the
    latest user message) run only while the request is over it.
    """
    limit = max(goal, limit if limit is not None else goal)
    rw: dict[int, tuple[str, str]] = dict(rewrites or {})
    excluded: dict[int, str] = {}
    enc = settings.encoding

    def cost(m: Message) -> int:
        c = rw.get(m.id)
        return message_tokens(to_openai(m, content=c[0] if c else None, tool_protocol=settings.tool_protocol), enc)

    costs = {m.id: cost(m) for m in items}
    state = {"total": fixed + sum(costs.values()), "ceiling": goal}
    steps: list[str] = []

    def over() -> bool:
        return state["total"] > state["ceiling"]

    def rewrite(m: Message, text: str, reason: str) -> int:
        old = costs[m.id]
        rw[m.id] = (text, reason)
        costs[m.id] = cost(m)
        state["total"] += costs[m.id] - old
        return old - costs[m.id]

    def exclude(msgs: Sequence[Message], reason: str) -> int:
        saved = 0
        for m in msgs:
            if m.id not in excluded:
                excluded[m.id] = reason
                saved += costs[m.id]
        state["total"] -= saved
        return saved

    def current_text(m: Message) -> str:
        return rw[m.id][0] if m.id in rw else text_of_message(m)

    regular = [m for m in items if not is_summary(m)]
    summaries = [m for m in items if is_summary(m)]
    rnds = rounds(regular)
    mandatory_n = min(settings.mandatory_rounds, len(rnds))
    recent_ids = {m.id for r in rnds[len(rnds) - mandatory_n:] for m in r.messages}
    last_ids = set(rnds[-1].ids) if rnds else set()
    users = [m for m in regular if m.role == "user"]
    protected = {users[-1].id} if users else set()
    requests = [m for m in regular if starts_round(m)]
    if requests:
        protected.add(requests[-1].id)

    def previews(candidates: Sequence[Message], label: str) -> None:
        n = saved = 0
        for m in candidates:
            if not over():
                break
            text = current_text(m)
            if m.role != "tool" or m.id in excluded or is_preview(text) or len(text) <= settings.tool_preview_chars:
                continue
            saved += rewrite(m, preview_tool_result(m, settings.tool_preview_chars, text_of_message(m)), "preview")
            n += 1
        if n:
            steps.append(f"{label}: {n} tool results shown as previews (-{saved:,} tokens)")

    def shorten(candidates: Sequence[Message], label: str) -> None:
        n = saved = 0
        for m in candidates:
            if not over():
                break
            text = current_text(m)
            if (m.role not in ("user", "assistant") or m.id in protected or m.id in excluded
                    or len(text) <= settings.long_text_chars):
                continue
            saved += rewrite(m, shorten_text(text, settings.shorten_to_chars), "shortened")
            n += 1
        if n:
            steps.append(f"{label}: {n} long texts shortened (-{saved:,} tokens)")

    def drop_rounds(keep: int, label: str) -> None:
        n = saved = 0
        for r in rnds[: max(0, len(rnds) - keep)]:
            if not over():
                break
            if all(m.id in excluded for m in r.messages):
                continue
            saved += exclude(r.messages, f"fallback: dropped round {r.index} (oldest first)")
            n += 1
        if n:
            left = sum(1 for r in rnds if not all(m.id in excluded for m in r.messages))
            steps.append(f"{label}: {n} oldest rounds dropped, {left} kept (-{saved:,} tokens)")

    # toward the goal: only what no strategy must keep
    older = [m for m in regular if m.id not in recent_ids]
    previews(older, "tool_previews")
    shorten(older, "shorten_texts")
    drop_rounds(max(settings.keep_recent_rounds, mandatory_n), f"drop_rounds (K={settings.keep_recent_rounds})")
    drop_rounds(mandatory_n, "drop_rounds (below K)")
    # toward the limit: mandatory content, the current round last
    state["ceiling"] = limit
    previous = [m for m in regular if m.id in recent_ids and m.id not in last_ids]
    previews(previous, "recent_rounds")
    shorten(previous, "recent_rounds")
    drop_rounds(1, "drop_rounds (recent)")
    current = [m for m in regular if m.id in last_ids]
    previews(current, "current_round")
    shorten(current, "current_round")
    if over() and summaries:
        n = saved = 0
        for m in summaries:
            if not over():
                break
            saved += exclude([m], "fallback: summary dropped (over budget)")
            n += 1
        steps.append(f"drop_summaries: {n} summaries dropped (-{saved:,} tokens)")
    if over() and current:
        n = saved = 0
        for unit in atoms(current)[:-1]:
            if not over():
                break
            if any(m.id in protected for m in unit):
                continue
            saved += exclude(unit, "fallback: older part of the current round dropped")
            n += 1
        if n:
            steps.append(f"drop_in_round: {n} older parts of the current round dropped (-{saved:,} tokens)")
    reached = state["total"] <= goal
    if state["total"] > limit:
        steps.append(f"over the limit: {state['total']:,} > {limit:,} tokens after every fallback")
    elif not reached:
        steps.append(f"above the goal ({state['total']:,} > {goal:,} tokens): the rest is mandatory")
    return TrimPlan(rewrites=rw, excluded=excluded, steps=steps, tokens=state["total"], reached=reached)
