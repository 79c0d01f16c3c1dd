"""The context builder: the messages of the next LLM call, from the log. Pure: no store, no LLM.

    messages, report = build_context(log, "chat", settings)

1. The system prompt for the mode is composed fresh (`ptc.conversation.prompts`), never
   taken from the log: switching modes keeps the whole history and changes only this prompt.
2. The log is filtered: invalid messages, compressed ones (their summary stands for them,
   unless ``settings.include_compressed``) and stored non-summary system messages are left
   out, each with the reason in the report.
3. Summaries (priority 1) come first, then the rest by seq (the `Store.context` order).
4. `ptc.conversation.log.repair` makes the list protocol-valid: orphan tool results are
   dropped, dangling calls get a ``TOOL_RESULT_MISSING`` result, results follow their call.
5. A `Plan` from a compaction strategy is applied (request-only previews, shortened texts,
   excluded messages), then, when the request is over ``trim_to`` (or over the prompt budget
   with ``settings.enforce_budget``), the fallback ladder
   (`ptc.conversation.compaction.fallbacks.fit`) trims it. None of this touches the store:
   full tool results stay stored.
6. The report says what was sent and why anything was not.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..store.messages import Message
from .log import context_order, repair, sendable, to_openai
from .prompts import system_prompt
from .usage import REPLY_PRIMING_TOKENS, ContextSettings, ContextUsage, message_tokens, request_tokens, usage_of

Decorate = Callable[[Message, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Plan:
    """Request-only changes: `rewrites` id -> (content, reason); `excluded` id -> reason."""

    rewrites: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    excluded: Mapping[int, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.rewrites or self.excluded)


@dataclass
class BuildReport:
    """What `build_context` sent and why anything was left out or changed."""

    mode: str
    counts: dict[str, int]           # messages sent, by role (the system prompt included)
    tokens: int                      # estimated prompt tokens (= usage.used)
    usage: ContextUsage
    kept: list[int]                  # log message ids sent, in send order
    dropped: dict[int, str]          # log message id -> why it was not sent
    rewritten: dict[int, str]        # log message id -> why its text was replaced (preview, shortened)
    repairs: list[str]               # what `repair` changed
    synthetic: int = 0               # placeholder tool results added by `repair`
    trim_steps: list[str] = field(default_factory=list)
    system_tokens: int = 0           # the system prompt's share of `tokens`

    @property
    def over_budget(self) -> bool:
        return self.usage.over_budget

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["usage"] = self.usage.to_dict()
        return out

    def summary(self) -> str:
        parts = [f"{self.mode}: {len(self.kept)} messages sent, {self.tokens:,} tokens ({self.usage.percent:.0f}%)"]
        if self.dropped:
            parts.append(f"{len(self.dropped)} left out")
        if self.rewritten:
            parts.append(f"{len(self.rewritten)} shortened")
        if self.repairs:
            parts.append(f"{len(self.repairs)} repairs")
        return ", ".join(parts)


def _render(m: Message, rewrites: Mapping[int, tuple[str, str]], settings: ContextSettings) -> dict[str, Any]:
    rw = rewrites.get(m.id)
    return to_openai(m, content=rw[0] if rw else None, tool_protocol=settings.tool_protocol)


def prepare_log(log: Iterable[Message], settings: ContextSettings, plan: Plan | None = None
                ) -> tuple[list[Message], dict[int, str], list[Any]]:
    """Steps 2-4: the sendable, ordered, repaired messages; dropped id -> reason; repair notes."""
    dropped: dict[int, str] = {}
    items: list[Message] = []
    seen: set[int] = set()
    excluded = plan.excluded if plan else {}
    for m in log:
        if m.id in seen:
            continue
        seen.add(m.id)
        reason = sendable(m, include_compressed=settings.include_compressed) or excluded.get(m.id)
        if reason:
            dropped[m.id] = reason
        else:
            items.append(m)
    repaired, notes = repair(context_order(items))
    for n in notes:
        if n.kind in ("orphan", "duplicate"):
            dropped[n.message_id] = f"repair: {n.detail}"
    return repaired, dropped, notes


def build_context(log: Iterable[Message], mode: str, settings: ContextSettings | None = None, *,
                  tools: Mapping[str, Any] | None = None, data: Mapping[str, Any] | None = None,
                  extra: str | None = None, plan: Plan | None = None, trim_to: int | None = None,
                  enforce_budget: bool | None = None, system: str | None = None,
                  decorate: Decorate | None = None, **prompt_options: Any) -> tuple[list[dict[str, Any]], BuildReport]:
    """The OpenAI messages of the next call and a `BuildReport`.

    `log`: store messages (any statuses; see the module docstring). `mode`: "chat" or
    "agent" (`tools`, `data`, `extra` and `prompt_options` go to the prompt; `system` replaces
    it altogether). `plan`: request-only changes from a compaction strategy. `trim_to`: trim
    toward this many tokens (content a strategy must keep -- the last ``mandatory_rounds``
    rounds, summaries, the latest user message -- is trimmed only as far as the prompt budget
    requires when `enforce_budget` is on, else down to `trim_to` too). Without `trim_to`
    the request is trimmed only when it exceeds the prompt budget and `enforce_budget`
    (default ``settings.enforce_budget``) is on.
    `decorate(message, openai_dict) -> dict` may rewrite each rendered message (e.g. to
    number it).
    """
    settings = settings or ContextSettings()
    prompt = system if system is not None else system_prompt(mode, tools=tools, data=data, extra=extra,
                                                               **prompt_options)
    head = {"role": "system", "content": prompt}
    system_tokens = message_tokens(head, settings.encoding)
    items, dropped, notes = prepare_log(log, settings, plan)
    present = {m.id for m in items}
    rewrites = {i: rw for i, rw in (plan.rewrites.items() if plan else ()) if i in present}
    rewritten = {i: rw[1] for i, rw in rewrites.items()}
    trim_steps: list[str] = []

    fixed = system_tokens + REPLY_PRIMING_TOKENS
    enforce = settings.enforce_budget if enforce_budget is None else enforce_budget
    goal = trim_to
    if goal is None and enforce:
        goal = settings.prompt_budget
    if goal is not None:
        total = fixed + sum(message_tokens(_render(m, rewrites, settings), settings.encoding) for m in items)
        if total > goal:
            from .compaction.fallbacks import fit

            limit = max(goal, settings.prompt_budget) if enforce else goal
            trim = fit(items, goal, settings, fixed=fixed, rewrites=rewrites, limit=limit)
            rewrites = dict(trim.rewrites)
            rewritten = {i: rw[1] for i, rw in rewrites.items()}
            for i, reason in trim.excluded.items():
                if i > 0:  # placeholders from `repair` are not log messages
                    dropped[i] = reason
            items = [m for m in items if m.id not in trim.excluded]
            trim_steps = list(trim.steps)

    messages: list[dict[str, Any]] = [head]
    kept: list[int] = []
    synthetic = 0
    for m in items:
        d = _render(m, rewrites, settings)
        if decorate is not None:
            d = decorate(m, d)
        messages.append(d)
        if m.id < 0:
            synthetic += 1
        else:
            kept.append(m.id)
    counts: dict[str, int] = {}
    for d in messages:
        counts[d["role"]] = counts.get(d["role"], 0) + 1
    used = request_tokens(messages, settings.encoding)
    usage = usage_of(used, settings, system=system_tokens, messages=len(messages))
    sent = set(kept)
    report = BuildReport(mode=mode, counts=counts, tokens=used, usage=usage, kept=kept, dropped=dropped,
                         rewritten={i: r for i, r in rewritten.items() if i in sent},
                         repairs=[str(n) for n in notes], synthetic=synthetic, trim_steps=trim_steps,
                         system_tokens=system_tokens)
    return messages, report


def log_tokens(items: Sequence[Message], settings: ContextSettings,
               rewrites: Mapping[int, tuple[str, str]] | None = None) -> dict[int, int]:
    """Each message's share of a request (id -> tokens), as the builder would render it."""
    rw = rewrites or {}
    return {m.id: message_tokens(_render(m, rw, settings), settings.encoding) for m in items}
