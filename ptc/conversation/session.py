"""`ChatSession`: an interactive assistant over a session of the store.

    from ptc.store import Store
    from ptc.conversation.session import ChatSession

    chat = ChatSession(Store(), llm="openai/gpt-4o-mini", tools=my_tools, data={"orders": orders})
    chat.send("What can you tell me about the orders?")        # chat mode: the model answers
    chat.set_mode("agent")
    chat.send("Which region sells most?")                      # agent mode: a PTC-Lisp run
    chat.usage()                                               # ContextUsage: percent, status
    chat.compact(); chat.view("display"); chat.rollback(12); chat.stats()

Every user message, reply, program, tool call and result is appended to one session of the
store, so ``ChatSession(store, session_id)`` resumes a conversation, in this process or a
later one.

Modes (persisted on the session; switching keeps the whole history):

- ``chat``: the model answers from the context built from the log.
- ``agent``: the request is the mission of a `ptc.Agent` whose every turn sees the
  conversation so far (re-read from the store on each turn, so history compressed by a
  program is gone on the next turn) and whose run is recorded into the same session. Its
  tools: the session's tools, the history tools (``view-thread``, ``compress-last``,
  ``compress-range``) and ``read-artifact``. A tool result larger than
  ``artifact_threshold`` characters is stored as a preview plus the alias of a file holding
  all of it (`ptc.conversation.artifacts`). Each call gets a ``tool_execution`` node (from
  the tool's ``summarize()``) and a program making several calls a ``tool_loop`` node,
  when it is recorded. The answer is appended as an assistant message
  ("Answer: <value>"), so the conversation goes on from it in either mode.

The context (`renderer`):

- ``"builder"`` (the default): the request comes from the session's `Compactor`
  (``ptc.conversation.compaction``), i.e. `build_context` after budget-triggered
  compaction: the mode's system prompt, summaries first, the log protocol-valid (tool calls
  and results as ``settings.tool_protocol`` renders them; `default_settings` picks "text").
  One numbered entry per log message.
- ``"forest"``: the forest's context rendering (`forest.context`): each tool exchange
  collapses to its nodes' summary lines and a summary stands where the messages it replaced
  stood. Compaction runs the same strategy when the rendering is over the trigger.

Either way each entry is numbered as ``settings.numbering`` says (positional by default
here) and the history tools resolve numbers against what the model was last shown.

Compaction: `strategy` (default `KeyMessageExtraction()`, no LLM) runs before a request
that is over ``settings.trigger_ratio`` of the prompt budget; `compact()` runs it now
whatever the usage, aiming at nothing, so everything but what the strategy must keep (the
latest rounds, summaries) is summarised. Every summary gets a ``broad`` node.

Errors: a failing model call is appended as an assistant message with an ``LLM_ERROR``
block (it stays in the context). `continue_()` appends the user's "continue" and asks
again: in chat mode the model sees the failed attempt and answers; in agent mode the failed
run is resumed (`Agent.resume`) from its last good turn.

`rollback(n)`: ``n`` is the store seq shown in the ``#`` column of the display view (not
a model-facing number). Every entry after the one holding seq ``n`` is hidden (compressed,
still in the full view); a tool exchange is kept or hidden whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..llm.base import LLMError
from ..llm.choose import as_llm
from ..store.messages import Block, Message
from ..store.recorder import Recorder
from . import forest as F
from .artifacts import DEFAULT_THRESHOLD, ArtifactStore, as_text, read_artifact_tool
from .history_tools import History, compress_entries
from .numbering import ThreadEntry, check_mode, listing, number_for_model, thread

MODES = ("chat", "agent")
RENDERERS = ("builder", "forest")
CONTINUE = "continue"
EXEMPT_FROM_ARTIFACTS = ("read-artifact", "view-thread")

_NUMBER_PREFIX = re.compile(r"^\s*\[\d+\]\s+")

NUMBERING_NOTE = """\
## Conversation numbering
Each message of the conversation below starts with its number in brackets, e.g. [3]. The
numbers are for addressing history only: never write them in your replies."""

HISTORY_NOTE = """\
## Your history
You can look at and compress the conversation: (tool/view-thread) lists it numbered;
(tool/compress-last {:count N :summary "..."}) and (tool/compress-range {:from a :to b
:summary "..."}) replace entries by a summary you write (numbers as last shown to you; keep
every fact you still need). Big tool results are shown as a preview and an artifacts/...
path: read more with (tool/read-artifact {:path "artifacts/..." :offset 0 :limit 4000})."""


# -- settings and the other helper's modules, with fallbacks -----------------------------------


def default_settings(**overrides: Any) -> Any:
    """`ContextSettings` with positional numbering and tool exchanges as text (the model is
    not given native tool definitions: agent-mode programs call tools, not the model)."""
    from .usage import ContextSettings

    values = {"numbering": "positional", "tool_protocol": "text", **overrides}
    return ContextSettings(**values)


def _system_prompt(mode: str, tools: Mapping[str, Any], data: Any, extra: str | None, **options: Any) -> str:
    from .prompts import system_prompt

    return system_prompt(mode, tools=tools, data=data, extra=extra, **options)


def strip_number(text: str) -> str:
    """A reply without a leading "[n] " (models sometimes copy the numbering)."""
    return _NUMBER_PREFIX.sub("", text, count=1) if text else text


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChatReply:
    """What `send` / `continue_` produced."""

    ok: bool
    text: str
    mode: str
    error: str | None = None
    error_kind: str | None = None
    value: Any = None
    run_id: str | None = None
    usage: Any = None  # ContextUsage of the next request
    compacted: Any = None  # what compaction did before the request (None: nothing)
    step: Any = None  # agent mode: the ptc Step

    @property
    def llm_error(self) -> bool:
        return self.error_kind is not None and self.error_kind != "run"


@dataclass
class Compacted:
    """What a compaction did."""

    entries: int  # summaries written
    messages: int  # messages they stand for
    tokens_before: int
    tokens_after: int
    strategy: str
    detail: Any = None

    @property
    def saved(self) -> int:
        return self.tokens_before - self.tokens_after

    def __str__(self) -> str:
        return (f"{self.messages} messages condensed into {self.entries} summar{'y' if self.entries == 1 else 'ies'} "
                f"({self.strategy}): {self.tokens_before:,} -> {self.tokens_after:,} tokens")


@dataclass(frozen=True)
class _Seqs:
    seqs: tuple[int, ...]


@dataclass
class _Rendered:
    messages: list[dict[str, Any]]
    shown: list[ThreadEntry]
    usage: Any
    report: Any = None
    compacted: Any = None


# -- recording agent runs -----------------------------------------------------------------------


class SessionRecorder(Recorder):
    """The store's `Recorder`, plus: big tool results go to artifacts, each result's block
    carries its `summarize()` line, and execution / loop nodes are created as calls are
    recorded."""

    def __init__(self, store: Any, session_id: str, *, mode: str = "agent", artifacts: ArtifactStore,
                 threshold: int = DEFAULT_THRESHOLD, tools: Mapping[str, Any] | None = None,
                 preview_chars: int = 600) -> None:
        super().__init__(store, session_id, mode=mode)
        self.artifacts = artifacts
        self.threshold = threshold
        self.tools = dict(tools or {})
        self.preview_chars = preview_chars
        self.skip_mission = False  # the mission is in the log already (a continued run)

    def _on_run_started(self, run_id: str, turn: int | None, data: Mapping[str, Any]) -> None:
        if self.skip_mission and not data.get("resumed_at"):
            data = {**data, "resumed_at": -1}
        self.skip_mission = False
        super()._on_run_started(run_id, turn, data)

    def _tool_result(self, cid: str, call: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The stored message, plus a summary of the call, and a large result kept as an artifact
        (the message holds its preview and alias)."""
        content, info = super()._tool_result(cid, call)
        name, error = str(call.get("name")), info["error"]
        info["summary"] = F.summarize_call(name, call.get("args"), call.get("result"), error, self.tools)
        if not error and name not in EXEMPT_FROM_ARTIFACTS and len(content) > self.threshold:
            content, alias = self.artifacts.externalize(cid, call.get("result"), self.threshold,
                                                        preview_chars=self.preview_chars, tool=name)
            if alias is not None:
                info.update(artifact=alias, size=len(as_text(call.get("result"))))
        return content, info

    def _stored(self, written: Any) -> None:
        assert self.session_id is not None
        F.persist(self.store, self.session_id, F.plan_nodes(written, tools=self.tools, close_tail=True))


class ConversationStrategy:
    """The agent's history strategy: every turn, the conversation as the session renders it."""

    name = "conversation"

    def __init__(self, chat: "ChatSession") -> None:
        self.chat = chat

    def to_messages(self, turns: Any, memory: Any, context: Any) -> list[dict[str, Any]]:
        rendered = self.chat._prepare("agent", agent=self.chat._agent)
        if rendered.compacted is not None:
            self.chat._run_compactions.append(rendered.compacted)
        return rendered.messages


# -- the session ----------------------------------------------------------------------------------


class ChatSession:
    """A conversation with a model over one session of the store (see the module docstring).

    `session_id`: an existing session (a unique prefix is enough) to resume, a new id to
    create, or None for a new session. `mode`: "chat" or "agent"; None keeps the session's
    mode (new sessions: chat). `settings`: a `ContextSettings` (default: positional
    numbering). `strategy`: a compaction strategy for the `Compactor`. `artifacts`: an
    `ArtifactStore` (default: `ArtifactStore.for_session(store, id)`). `renderer`: "builder"
    or "forest" (see the module docstring). `on_event`: an agent event handler (progress),
    given to every agent-mode run. `max_turns`, `limits`: for agent-mode runs.
    """

    def __init__(self, store: Any, session_id: str | None = None, *, llm: Any, tools: Any = (),
                 data: Mapping[str, Any] | None = None, mode: str | None = None, settings: Any = None,
                 strategy: Any = None, artifacts: ArtifactStore | None = None, title: str | None = None,
                 max_turns: int = 5, limits: Any = None, renderer: str | None = None,
                 artifact_threshold: int = DEFAULT_THRESHOLD, extra_prompt: str | None = None,
                 on_event: Callable[[Any], None] | None = None) -> None:
        from ..store import NotFound
        from ..tools import as_tools

        self.store = store
        self.llm = as_llm(llm)
        self.tools = as_tools(tools)
        self.data = dict(data or {})
        self.settings = settings if settings is not None else default_settings()
        check_mode(self.numbering)
        self.strategy = strategy
        self.max_turns = max_turns
        self.limits = limits
        self.extra_prompt = extra_prompt
        self.on_event = on_event
        self.renderer = renderer or "builder"
        if self.renderer not in RENDERERS:
            raise ValueError(f"renderer must be one of {', '.join(RENDERERS)}, got {self.renderer!r}")
        if mode is not None and mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if session_id is None:
            session = store.create_session(title or "chat", mode or "chat")
        else:
            try:
                session = store.get_session(store.resolve_session(session_id))
            except NotFound:
                session = store.create_session(title or "chat", mode or "chat", id=session_id)
        self.session_id: str = session.id
        chosen = mode or session.mode
        self.mode: str = chosen if chosen in MODES else "chat"
        if mode is not None and session.mode != mode:
            self._persist_mode(mode)
        self.artifacts = artifacts or ArtifactStore.for_session(store, self.session_id)
        self.artifact_threshold = artifact_threshold
        self.history = History(store, self.session_id, numbering=self.numbering_for_tools, tools=self.tools,
                               source=self._thread_now, mode=self.mode)
        self.recorder = SessionRecorder(store, self.session_id, mode="agent", artifacts=self.artifacts,
                                        threshold=artifact_threshold, tools=self.tools,
                                        preview_chars=getattr(self.settings, "tool_preview_chars", 600))
        self._agent: Any = None
        self._compactor: Any = None
        self._run_compactions: list[Compacted] = []  # compactions during the current agent run
        self.last_usage: Any = None

    # -- properties ---------------------------------------------------------------------------

    @property
    def numbering(self) -> str:
        return str(getattr(self.settings, "numbering", "positional"))

    @property
    def numbering_for_tools(self) -> str:
        return "absolute" if self.numbering == "absolute" else "positional"

    @property
    def title(self) -> str:
        return self.store.get_session(self.session_id).title

    def _thread_now(self) -> list[ThreadEntry]:
        """The numbered thread of the request the session would send now (for view-thread)."""
        return self._render(self.mode, self._agent).shown

    def agent_tools(self) -> dict[str, Any]:
        """The tools an agent-mode program gets: the session's, the history tools, read-artifact."""
        from ..tools import as_tools

        return as_tools([*self.tools.values(), *self.history.tools(), read_artifact_tool(self.artifacts)])

    # -- mode ---------------------------------------------------------------------------------

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode = mode
        self.history.mode = mode
        self._persist_mode(mode)

    def _persist_mode(self, mode: str) -> None:
        self.store.set_session_mode(self.session_id, mode)

    # -- rendering the next request -----------------------------------------------------------

    def _log(self) -> list[Message]:
        return list(self.store.full(self.session_id).items)

    def _prompt_parts(self, mode: str, agent: Any) -> tuple[str | None, dict[str, Any]]:
        notes = []
        if self.numbering != "none":
            notes.append(NUMBERING_NOTE)
        if mode == "agent":
            notes.append(HISTORY_NOTE)
        if self.extra_prompt:
            notes.append(self.extra_prompt)
        extra = "\n\n".join(notes) or None
        if mode == "agent":
            a = agent
            options = dict(tools=a.tools if a is not None else self.agent_tools(),
                           data=a.data if a is not None else _ptc_data(self.data),
                           signature=getattr(a, "signature", None), max_turns=self.max_turns)
        else:
            options = dict(tools=self.tools, data=_ptc_data(self.data) if self.data else None)
        return extra, options

    def _render(self, mode: str, agent: Any = None) -> _Rendered:
        """The next request's messages as they stand (nothing compacted or trimmed)."""
        extra, options = self._prompt_parts(mode, agent)
        if self.renderer == "builder":
            from .builder import build_context

            tools, data = options.pop("tools"), options.pop("data")
            messages, report = build_context(self._log(), mode, self.settings, tools=tools, data=data, extra=extra,
                                             decorate=self._tag, enforce_budget=False,
                                             **_agent_options(mode, options))
            return self._numbered(messages, report.usage, report)
        return self._render_forest(mode, extra, options)

    def _render_forest(self, mode: str, extra: str | None, options: dict[str, Any]) -> _Rendered:
        from .usage import measure

        entries = F.Forest.load(self.store, self.session_id, tools=self.tools).context()
        prompt = _system_prompt(mode, options.pop("tools"), options.pop("data"), extra, **_agent_options(mode, options))
        numbered = number_for_model(entries, self.numbering) if self.numbering != "none" else \
            [e.to_openai() for e in entries]
        messages = [{"role": "system", "content": prompt}, *numbered]
        shown = thread(entries, self.numbering_for_tools)
        return _Rendered(messages, shown, measure(messages, self.settings))

    def _tag(self, message: Message, rendered: dict[str, Any]) -> dict[str, Any]:
        """The builder's `decorate` hook: remember which log message each request message is
        and number it provisionally by seq (so the token estimate includes the numbers);
        `_numbered` puts the real numbers in once the request is final."""
        out = dict(rendered)
        out["_seq"], out["_id"] = message.seq, message.id
        if self.numbering != "none":
            content = out.get("content")
            out["content"] = f"[{message.seq}] " + (content if isinstance(content, str) else "")
        return out

    def _numbered(self, messages: list[dict[str, Any]], usage: Any, report: Any) -> _Rendered:
        out: list[dict[str, Any]] = []
        shown: list[ThreadEntry] = []
        for d in messages:
            if "_seq" not in d:
                out.append(d)
                continue
            d = dict(d)
            seq, mid = d.pop("_seq"), d.pop("_id")
            position = len(shown) + 1
            number = seq if self.numbering == "absolute" else position
            content = d.get("content")
            text = content if isinstance(content, str) else ""
            if self.numbering != "none":
                text = text[len(f"[{seq}] "):]
                d["content"] = f"[{number}] {text}"
            out.append(d)
            shown.append(ThreadEntry(number=seq if self.numbering_for_tools == "absolute" else position,
                                     position=position, absolute=seq, role=str(d.get("role")), text=text,
                                     seqs=(seq,) if mid > 0 else ()))
        return _Rendered(out, shown, usage, report)

    def _prepare(self, mode: str, agent: Any = None) -> _Rendered:
        """The request for the next call: compacted first when over the trigger; the history
        tools learn what the model is shown."""
        if self.renderer == "builder":
            rendered = self._prepare_builder(mode, agent)
        else:
            rendered = self._render(mode, agent)
            if rendered.usage is not None and rendered.usage.status == "compacting":
                compacted = self._run_strategy(mode, agent, force=False)
                if compacted is not None:
                    rendered = self._render(mode, agent)
                    rendered.compacted = compacted
        self.history.shown(rendered.shown)
        self.last_usage = rendered.usage
        return rendered

    def _prepare_builder(self, mode: str, agent: Any) -> _Rendered:
        extra, options = self._prompt_parts(mode, agent)
        tools, data = options.pop("tools"), options.pop("data")
        messages, report = self.compactor.prepare(mode, tools=tools, data=data, extra=extra, decorate=self._tag,
                                                  **_agent_options(mode, options))
        rendered = self._numbered(messages, report.usage, report)
        if report.compacted:
            F.build_nodes(self.store, self.session_id, self.tools)
            c = report.compaction
            rendered.compacted = Compacted(entries=len(report.records), messages=len(c.dropped) if c else 0,
                                           tokens_before=report.before.used, tokens_after=report.after.used,
                                           strategy=c.strategy if c else "?", detail=report)
        return rendered

    # -- compaction ---------------------------------------------------------------------------

    @property
    def compactor(self) -> Any:
        """The session's `Compactor` (budget-triggered compaction with `self.strategy`)."""
        if self._compactor is None:
            from .compaction import Compactor, KeyMessageExtraction

            if self.strategy is None:
                self.strategy = KeyMessageExtraction()
            self._compactor = Compactor(self.store, self.session_id, self.strategy, self.settings)
        return self._compactor

    def _run_strategy(self, mode: str, agent: Any, *, force: bool) -> Compacted | None:
        """Run the compaction strategy once and write what it drops to the store.

        `force`: compact whatever the usage: the strategy is told to aim at nothing, so it
        drops everything but what it must keep (summaries, the latest rounds)."""
        strategy = self.compactor.strategy
        settings = self.settings
        if force:
            settings = settings.model_copy(update={"target_ratio": 0.0})
        before = self._render(mode, agent)
        usage = before.usage
        if force and hasattr(usage, "used"):
            from dataclasses import replace

            usage = replace(usage, status="compacting")
        log = list(self.store.context(self.session_id, include_compressed=False).items)
        result = strategy.compact(log, settings, usage)
        if getattr(result, "error", None) or not result.ranges:
            return self._force_rounds(mode, agent, usage.used) if force else None
        records = []
        for plan in result.ranges:
            try:
                records.append(self.store.compress_range(self.session_id, plan.first_seq, plan.last_seq, plan.text,
                                                         strategy=result.strategy, mode=mode))
            except ValueError:  # InvalidRange: the store refused this range
                continue
        if not records:
            return None
        F.build_nodes(self.store, self.session_id, self.tools)
        after = self._render(mode, agent).usage
        return Compacted(entries=len(records), messages=len(result.dropped), tokens_before=usage.used,
                         tokens_after=after.used, strategy=result.strategy, detail=result)

    def _force_rounds(self, mode: str, agent: Any, before: int) -> Compacted | None:
        """`/compact` when the strategy found nothing worth a note: everything before the last
        ``settings.mandatory_rounds`` rounds under one rule-based note (rounds keep tool
        calls with their results)."""
        from .compaction.notes import rule_note
        from .log import rounds

        log = list(self.store.context(self.session_id, include_compressed=False).items)
        regular = sorted((m for m in log if m.priority == 0), key=lambda m: m.seq)
        keep_rounds = int(getattr(self.settings, "mandatory_rounds", 2))
        groups = rounds(regular)
        old = [m for r in groups[:-keep_rounds] for m in r.messages] if len(groups) > keep_rounds else []
        if not old:
            return None
        folded = [m for m in log if m.priority == 1]
        chosen = sorted([*old, *folded], key=lambda m: m.seq)
        note = rule_note(chosen)
        try:
            done = compress_entries(self.store, self.session_id, [_Seqs((m.seq,)) for m in chosen], note,
                                    strategy="compact", mode=mode)
        except ValueError:
            return None
        after = self._render(mode, agent).usage
        return Compacted(entries=1, messages=done.messages, tokens_before=before,
                         tokens_after=after.used, strategy="compact (rule-based note)", detail=done)

    def compact(self) -> Compacted | None:
        """Compact now, whatever the usage; None when there is nothing to compact."""
        done = self._run_strategy(self.mode, None, force=True)
        self.history.forget()
        self.last_usage = self.usage()
        return done

    # -- talking ------------------------------------------------------------------------------

    def send(self, text: str) -> ChatReply:
        """One user message, answered in the current mode."""
        if not isinstance(text, str) or not text.strip():
            raise ValueError("a message must be non-empty text")
        if self.mode == "chat":
            self.store.append(self.session_id, "user", content=text, mode="chat")
            return self._chat_reply()
        return self._agent_run(text)

    def _chat_reply(self) -> ChatReply:
        rendered = self._prepare("chat")
        try:
            reply = self.llm.complete(rendered.messages)
        except LLMError as e:
            return self._llm_failed(e, "chat", None, rendered.compacted)
        except Exception as e:  # noqa: BLE001 - any model failure is logged, the session goes on
            return self._llm_failed(LLMError("other", f"{type(e).__name__}: {e}"), "chat", None, rendered.compacted)
        text = strip_number(reply.text)
        usage = reply.usage.model_dump(exclude={"calls"})  # as the agent's replies keep it (store/recorder.py)
        self.store.append(self.session_id, "assistant", [Block("text", text, usage)], mode="chat",
                          token_count=reply.usage.completion_tokens or None)
        return ChatReply(ok=True, text=text, mode="chat", usage=self.usage(), compacted=rendered.compacted)

    def _llm_failed(self, e: LLMError, mode: str, run_id: str | None, compacted: Any) -> ChatReply:
        self.store.append_llm_error(self.session_id, e.partial or "", e.kind, e.message, run_id, mode=mode,
                                    retries=e.retries or None)
        return ChatReply(ok=False, text=e.partial or "", mode=mode, error=str(e), error_kind=e.kind,
                         usage=self.usage(), compacted=compacted)

    def _make_agent(self, mission: str) -> Any:
        from ..agent.loop import Agent

        agent = Agent(mission, tools=self.agent_tools(), data=self.data, llm=self.llm, max_turns=self.max_turns,
                      compression=ConversationStrategy(self), limits=self.limits, store=self.store,
                      session_id=self.session_id, on_event=self.on_event, recorder=self.recorder)
        self.recorder.tools = dict(agent.tools)
        self._agent = agent
        return agent

    def _agent_run(self, mission: str, *, resume: str | None = None) -> ChatReply:
        from ..agent.loop import Step

        self.recorder.mode = "agent"
        self._run_compactions = []
        try:
            if resume is not None:
                record = self.store.load_run(resume)
                agent = self._make_agent(record.mission)
                self.recorder.skip_mission = True
                step: Step = agent.resume(resume)
            else:
                agent = self._make_agent(mission)
                step = agent.run()
        finally:
            self._agent = None
            self.recorder.skip_mission = False
        compactions, self._run_compactions = self._run_compactions, []
        F.build_nodes(self.store, self.session_id, self.tools)
        compacted = compactions[-1] if compactions else None
        if step.ok:
            from ..interpreter.printer import pr_str

            # The answer as Clojure data: the program's own value (step.value is its plain
            # Python form, where {"paid" 1} and {:paid 1} look alike).
            text = pr_str(step.turns[-1].result, max_len=4000) if step.turns else str(step.value)
            self.store.append(self.session_id, "assistant", [Block("text", f"Answer: {text}", {"answer": True})],
                              mode="agent", run_id=step.run_id)
            return ChatReply(ok=True, text=text, mode="agent", value=step.value, run_id=step.run_id,
                             usage=self.usage(), compacted=compacted, step=step)
        error = step.error
        if error is not None and error.kind == "llm":
            kind = "other"
            last = self._last_active()
            for b in (last.blocks if last is not None else ()):
                if b.type == "llm_error" and b.data:
                    kind = str(b.data.get("kind") or kind)
            return ChatReply(ok=False, text="", mode="agent", error=error.message, error_kind=kind,
                             run_id=step.run_id, usage=self.usage(), compacted=compacted, step=step)
        message = error.format() if error is not None else "the run failed"
        self.store.append(self.session_id, "assistant", [Block("text", f"The run failed: {message}", {"answer": True})],
                          mode="agent", run_id=step.run_id)
        return ChatReply(ok=False, text=message, mode="agent", error=message, error_kind="run", run_id=step.run_id,
                         usage=self.usage(), compacted=compacted, step=step)

    # -- errors and continuing ----------------------------------------------------------------

    def _last_active(self) -> Message | None:
        page = self.store.display(self.session_id, last=True, limit=1)
        return page.items[-1] if page.items else None

    def pending_error(self) -> Message | None:
        """The failed reply to continue from: the newest active message, if it is an LLM_ERROR."""
        last = self._last_active()
        if last is not None and last.role == "assistant" and any(b.type == "llm_error" for b in last.blocks):
            return last
        return None

    def continue_(self) -> ChatReply:
        """After an LLM error: append "continue" and ask again (agent mode: resume the run)."""
        failed = self.pending_error()
        if failed is None:
            raise ValueError("nothing to continue: the last reply did not fail")
        self.store.append(self.session_id, "user", content=CONTINUE, mode=self.mode)
        if self.mode == "chat":
            return self._chat_reply()
        run_id = failed.run_id
        if run_id is not None:
            try:
                record = self.store.load_run(run_id)
            except KeyError:
                record = None
            if record is not None and record.status != "ok":
                return self._agent_run(record.mission, resume=run_id)
        self.recorder.skip_mission = True  # "continue" is in the log already
        return self._agent_run(CONTINUE)

    # -- views, rollback, statistics ---------------------------------------------------------

    def usage(self) -> Any:
        """The `ContextUsage` of the next request in the current mode (nothing is compacted)."""
        agent = self._agent
        usage = self._render(self.mode, agent).usage
        self.last_usage = usage
        return usage

    def view(self, kind: str = "display") -> list[F.Entry]:
        """The forest's "context", "display" or "full" rendering of the session."""
        return F.Forest.load(self.store, self.session_id, tools=self.tools).render(kind)

    def view_text(self, kind: str = "display") -> str:
        """A rendering as text; the context view is numbered as the model sees it."""
        entries = self.view(kind)
        if kind == "context":
            if self.renderer == "builder":
                rendered = self._render(self.mode)
                return "\n".join(f"{m['role']}: {m.get('content') or ''}" for m in rendered.messages[1:]) \
                    or "(empty)"
            return listing(thread(entries, self.numbering_for_tools), width=400)
        return F.render_text(entries) or "(empty)"

    def rollback(self, n: int) -> int:
        """Hide every entry after the one holding seq `n` (see the module docstring); returns
        how many messages were hidden."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"rollback needs a seq (the # shown in the display view), got {n!r}")
        target = n
        for e in self.view("display"):
            if e.seqs and e.first_seq <= n <= e.last_seq:
                target = max(target, e.last_seq)
        hidden = self.store.rollback(self.session_id, target)
        self.history.forget()
        return hidden

    def stats(self) -> dict[str, Any]:
        s = self.store.stats(self.session_id)
        session = self.store.get_session(self.session_id)
        usage = self.usage()
        nodes = self.store.compaction_nodes(self.session_id)
        by_type: dict[str, int] = {}
        for node in nodes:
            by_type[node.type] = by_type.get(node.type, 0) + 1
        return {"session": self.session_id, "title": session.title, "mode": self.mode, "renderer": self.renderer,
                "numbering": self.numbering, "messages": s.messages, "active_tokens": s.token_count,
                "compressions": s.compressions, "tokens_saved": s.tokens_saved, "nodes": by_type,
                "artifacts": len(self.artifacts.list()), "context": usage.to_dict() if hasattr(usage, "to_dict")
                else usage}


def _ptc_data(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not data:
        return None
    from ..interpreter import values as V

    return {str(k): V.from_python(v, f"data/{k}") for k, v in data.items()}


def _agent_options(mode: str, options: Mapping[str, Any]) -> dict[str, Any]:
    if mode != "agent":
        return {}
    return {k: v for k, v in options.items() if k in ("signature", "max_turns") and v is not None}


__all__ = ["ChatSession", "ChatReply", "Compacted", "SessionRecorder", "ConversationStrategy", "strip_number",
           "default_settings", "MODES", "RENDERERS", "CONTINUE"]
