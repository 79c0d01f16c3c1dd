"""The agent loop: mission in; the LLM writes PTC-Lisp turn by turn until it returns.

The loop itself is a generator (`_turns`) that yields what it needs from the outside world
(an LLM reply, a program run) and receives the answer, so the synchronous `run` and the
asynchronous `arun` drive the very same logic.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Generator, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..interpreter import values as V
from ..interpreter.api import RunResult, convert_data, run as run_program
from ..interpreter.errors import PTCError
from ..interpreter.limits import Limits
from ..interpreter.printer import pr_str
from ..llm.base import LLMError, Messages, Reply, Usage, acomplete, complete
from ..llm.choose import as_llm
from ..tools.lifetime import arun_scope, run_scope
from ..tools.pages import full_page_note
from .events import Emitter, Event, EventHandler
from .response import parse_reply
from .signature import Signature
from .turn import CONFIRM, ErrorInfo, Turn, unkept_note


class RunUsage(BaseModel):
    """Tokens and cost per turn and in total; compression figures when a strategy reports them."""

    model_config = ConfigDict(frozen=True)

    total: Usage = Field(default_factory=Usage)
    per_turn: tuple[Usage, ...] = ()
    compression: dict[str, Any] | None = None

    @property
    def prompt_tokens(self) -> int:
        return self.total.prompt_tokens

    @property
    def completion_tokens(self) -> int:
        return self.total.completion_tokens

    @property
    def cost(self) -> float | None:
        return self.total.cost


class Step(BaseModel):
    """The outcome of a run: the answer or the error, and everything that led there."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    ok: bool
    value: Any = None
    error: ErrorInfo | None = None
    turns: tuple[Turn, ...] = ()
    usage: RunUsage = Field(default_factory=RunUsage)
    messages: tuple[dict[str, str], ...] = ()
    run_id: str = ""
    duration: float = 0.0
    trace_path: str | None = None
    memory: Mapping[str, Any] = Field(default_factory=dict)

    @property
    def charts(self) -> list[Any]:
        """The charts (ptc.Chart) the answer holds: the value itself or among its first items."""
        from ..charts import charts_in

        return charts_in(self.value) if self.ok else []

    @property
    def chart(self) -> Any:
        """The answer's first chart, or None (see docs/charts.md)."""
        charts = self.charts
        return charts[0] if charts else None

    def _repr_html_(self) -> str:
        from ..interpreter import hooks

        return hooks.step_html(self)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class _AskLLM:
    messages: Messages


@dataclass(frozen=True)
class _RunProgram:
    code: str
    memory: Mapping[str, Any]
    history: tuple[Any, ...]


class Agent:
    """A mission, tools and data; `run()` lets the LLM solve it in PTC-Lisp.

    `compression`: False (full history), True (SingleUserCoalesced), a strategy name
    ("append" for AppendOnlySummaries, the cheapest under prompt caching), class or instance,
    or (Class, {options}). `prompt`: the system prompt profile, "default" (every function
    listed) or "compact" (Clojure's library minus what differs, ~1/3 the tokens). `llm`: a
    litellm model name, a callable `messages -> text`, or an LLM object (ScriptedLLM, ReplayLLM, ...).
    `api_base` / `api_key`: where a model name is served (a local Ollama, vLLM or llama.cpp
    server, a proxy); see docs/agent.md "Local model servers". `tool_search`: above this many
    tools (default 30, ptc.tools.search) the prompt lists the tools' groups instead of their
    signatures and programs find tools with `(tool/search-tools "...")`; False lists every tool.
    `capture_content`: whether the run's OpenTelemetry spans carry prompts, replies and tool
    arguments and results (None: as OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT says);
    see docs/agent.md "OpenTelemetry".
    """

    def __init__(
        self,
        mission: str,
        *,
        tools: Any = (),
        data: Mapping[str, Any] | None = None,
        signature: Any = None,
        max_turns: int = 5,
        compression: Any = False,
        prompt: str = "default",
        llm: Any = "openai/gpt-4o-mini",
        api_base: str | None = None,
        api_key: str | None = None,
        limits: Limits | None = None,
        on_event: EventHandler | None = None,
        trace: str | Path | None = None,
        llm_query: bool | Any = False,
        name: str = "agent",
        store: Any = None,
        session_id: str | None = None,
        recorder: EventHandler | None = None,
        tool_search: bool | int | None = None,
        capture_content: bool | None = None,
    ) -> None:
        from ..compression import resolve_strategy
        from ..tools import as_tools
        from .prompt import check_profile

        if not isinstance(mission, str) or not mission.strip():
            raise ValueError("mission must be a non-empty string")
        if max_turns < 1:
            raise ValueError("max_turns must be at least 1")
        self.prompt = check_profile(prompt)
        self.mission = mission
        self.name = name
        self.llm = as_llm(llm, api_base=api_base, api_key=api_key)
        self.tools = as_tools(tools)
        if llm_query:
            from .subagent import llm_query_tool

            query_llm = self.llm if llm_query is True else as_llm(llm_query)
            self.tools = {**self.tools, "llm-query": llm_query_tool(query_llm)}
        from ..tools.search import with_search

        self.tools = with_search(self.tools, tool_search)  # above the threshold: groups and tool/search-tools
        self.data = convert_data(data)
        self.signature = Signature(signature) if signature is not None else None
        self.max_turns = max_turns
        self.strategy = resolve_strategy(compression)
        self.limits = limits or Limits()
        self.handlers: list[EventHandler] = [on_event] if on_event is not None else []
        self.trace = trace
        self.store = store
        self.session_id = session_id
        self.recorder = recorder  # persists the run instead of the store's default recorder
        self.capture_content = capture_content
        self._system_prompt: str | None = None

    # -- prompt -------------------------------------------------------------------------

    @property
    def system_prompt(self) -> str:
        if self._system_prompt is None:
            from .prompt import system_prompt

            self._system_prompt = system_prompt(tools=self.tools, data=self.data, signature=self.signature,
                                                max_turns=self.max_turns, profile=self.prompt, limits=self.limits)
        return self._system_prompt

    def render_context(self) -> Any:
        from ..compression import RenderContext

        return RenderContext(mission=self.mission, system_prompt=self.system_prompt, max_turns=self.max_turns)

    # -- driving ------------------------------------------------------------------------

    def _emitter(self, run_id: str, extra: Sequence[EventHandler] = ()) -> tuple[Emitter, str | None]:
        handlers = list(self.handlers) + list(extra)
        path = None
        if self.trace is not None:
            from .trace import TraceWriter, trace_path

            p = trace_path(self.trace, run_id)
            handlers.append(TraceWriter(p))
            path = str(p)
        if self.recorder is not None:
            handlers.append(self.recorder)
        elif self.store is not None:
            handlers.append(self.store.recorder(self.session_id))
        from .trace import Telemetry

        telemetry = Telemetry.for_run(run_id, self)  # None unless the application traces (OpenTelemetry)
        if telemetry is not None:
            handlers.append(telemetry)
        emit = Emitter(run_id, handlers)
        emit.telemetry = telemetry
        return emit, path

    def run(self) -> Step:
        """Run the mission to completion (blocking)."""
        return self._run_scoped(uuid.uuid4().hex[:12])

    def resume(self, run_id: str) -> Step:
        """Continue a run recorded in `store` (e.g. after the process died or the model failed).

        Memory is rebuilt by re-running the successful turns' programs with their recorded tool
        results (tools are not called again), then the loop goes on with the next turn.
        """
        if self.store is None:
            raise ValueError("resume needs Agent(store=...)")
        record = self.store.load_run(run_id)
        if self.session_id is None:
            self.session_id = record.session_id
        turns, memory, results = self._replay(record.turns)
        return self._run_scoped(run_id, turns=turns, memory=memory, results=results)

    def _run_scoped(self, run_id: str, **resumed: Any) -> Step:
        """Drive the turns while the tools' run scopes (an MCP connection) are held."""
        from .trace import telemetry_scope

        with run_scope(self.tools):
            emit, path = self._emitter(run_id)
            with telemetry_scope(emit):
                return self._drive(self._turns(emit, run_id, path, **resumed))

    def _replay(self, records: Sequence[Mapping[str, Any]]) -> tuple[list[Turn], Mapping[str, Any], list[Any]]:
        from .turn import turn_from_json

        turns = [turn_from_json(r) for r in records]
        memory: Mapping[str, Any] = {}
        results: list[Any] = []
        for rec, turn in zip(records, turns):
            if not turn.success or turn.program is None:
                continue
            recorded = iter(rec.get("tool_calls", []))

            def replayed(name: str, recorded: Any = recorded) -> Callable[..., Any]:
                def call(*_: Any, **__: Any) -> Any:
                    c = next(recorded, None)
                    if c is None or c["name"] != name:
                        raise PTCError("tool", f"resume: tool/{name} was not called at this point originally")
                    if c.get("error"):
                        raise PTCError("tool", c["error"])
                    return c["result"]

                return call

            stubs = {name: replayed(name) for name in self.tools}
            outcome = run_program(turn.program, data=self.data, tools=stubs, memory=memory, limits=self.limits,
                                  history=tuple(results[:3]))
            memory = outcome.memory
            if not outcome.returned and not outcome.failed:
                results.insert(0, outcome.value)
        if turns:
            turns[-1] = turns[-1].model_copy(update={"memory": memory}) if turns[-1].success else turns[-1]
        return turns, memory, results

    def _drive(self, gen: Generator[Any, Any, Step]) -> Step:
        """The loop's turns (`_turns`, one generator for both) driven with blocking calls."""
        request, done = _step(gen, None)
        while done is None:
            answer = self._complete(request.messages) if isinstance(request, _AskLLM) else self._execute(request)
            request, done = _step(gen, answer)
        return done

    async def arun(self, _extra: Sequence[EventHandler] = ()) -> Step:
        """Run the mission without blocking the event loop (LLM calls awaited, programs in a thread)."""
        async with arun_scope(self.tools):
            return await self._arun(_extra)

    async def _arun(self, _extra: Sequence[EventHandler]) -> Step:
        from .trace import telemetry_scope

        run_id = uuid.uuid4().hex[:12]
        emit, path = self._emitter(run_id, _extra)
        with telemetry_scope(emit):
            return await self._adrive(self._turns(emit, run_id, path))  # the same turns as run's

    async def _adrive(self, gen: Generator[Any, Any, Step]) -> Step:
        """The loop's turns driven by awaiting (LLM calls awaited, programs in a thread)."""
        request, done = _step(gen, None)
        while done is None:
            answer: Any
            if isinstance(request, _AskLLM):
                try:
                    answer = await acomplete(self.llm, request.messages, append_only=self._append_only)
                except Exception as e:  # noqa: BLE001 - any model failure ends the run cleanly
                    answer = _model_failure(e)
            else:
                answer = await asyncio.to_thread(self._execute, request)
            request, done = _step(gen, answer)
        return done

    async def astream(self) -> AsyncIterator[Event]:
        """Events as they happen; the last one is run_finished (its data holds the outcome)."""
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        task = asyncio.ensure_future(self.arun(_extra=[queue.put_nowait]))
        task.add_done_callback(lambda _t: queue.put_nowait(None))
        while True:
            event = await queue.get()
            if event is None:
                break
            yield event
        await task

    @property
    def _append_only(self) -> bool:
        """Whether each request starts with the previous one unchanged: the model may then
        mark the whole request as a cache prefix (`ptc.llm.caching`)."""
        return bool(getattr(self.strategy, "append_only", False))

    def _complete(self, messages: Messages) -> Reply | LLMError:
        try:
            return complete(self.llm, messages, append_only=self._append_only)
        except Exception as e:  # noqa: BLE001 - any model failure ends the run cleanly
            return _model_failure(e)

    def _execute(self, request: _RunProgram) -> RunResult | PTCError:
        try:
            return run_program(request.code, data=self.data, tools=self.tools, memory=request.memory,
                               limits=self.limits, history=request.history)
        except PTCError as e:
            return e

    # -- the loop -----------------------------------------------------------------------

    def _turns(self, emit: Emitter, run_id: str, path: str | None, *, turns: Sequence[Turn] = (),
               memory: Mapping[str, Any] | None = None, results: Sequence[Any] = ()) -> Generator[Any, Any, Step]:
        started = time.perf_counter()
        context = self.render_context()
        turns = list(turns)
        memory = dict(memory or {})
        results = list(results)
        emit("run_started", mission=self.mission, max_turns=self.max_turns, strategy=self.strategy.name,
             tools=list(self.tools), data=list(self.data), system_prompt=self.system_prompt,
             resumed_at=len(turns) + 1 if turns else None)
        messages: Messages = []
        reply_text = ""

        def finish(ok: bool, value: Any = None, error: ErrorInfo | None = None) -> Step:
            per_turn = tuple(t.usage for t in turns)
            total = sum(per_turn, Usage())
            stats = getattr(self.strategy, "stats", None)
            compression = stats(tuple(turns), memory, context) if callable(stats) else None
            step = Step(ok=ok, value=value, error=error, turns=tuple(turns),
                        usage=RunUsage(total=total, per_turn=per_turn, compression=compression),
                        messages=tuple(messages) + (({"role": "assistant", "content": reply_text},)
                                                    if reply_text else ()),
                        run_id=run_id, duration=time.perf_counter() - started, trace_path=path, memory=memory)
            emit("run_finished", ok=ok, value=_json_value(value), error=error.model_dump() if error else None,
                 turns=len(turns), usage=step.usage.total.model_dump(), duration=step.duration)
            return step

        for number in range(len(turns) + 1, self.max_turns + 1):
            emit("turn_started", number)
            messages = self.strategy.to_messages(tuple(turns), memory, context)
            emit("llm_request", number, messages=messages)
            t0 = time.perf_counter()
            reply = yield _AskLLM(messages)
            llm_time = time.perf_counter() - t0
            if isinstance(reply, LLMError):
                error = ErrorInfo(kind="llm", message=str(reply),
                                  hint="the model could not be reached after retries; the run can be resumed")
                emit("llm_replied", number, ok=False, error=str(reply), kind=reply.kind, retries=reply.retries,
                     partial=reply.partial, duration=llm_time)
                return finish(False, error=error)
            reply_text = reply.text
            emit("llm_replied", number, ok=True, text=reply.text, prompt_tokens=reply.usage.prompt_tokens,
                 completion_tokens=reply.usage.completion_tokens, cached_tokens=reply.usage.cached_tokens,
                 cache_write_tokens=reply.usage.cache_write_tokens, cost=reply.usage.cost, duration=llm_time,
                 model=reply.model)
            turn, outcome = yield from self._one_turn(number, reply, memory, results, emit,
                                                      hold=number < self.max_turns and not any(
                                                          t.note and t.note.endswith(CONFIRM) for t in turns))
            turns.append(turn)
            if turn.success:
                memory = turn.memory
            emit("turn_finished", number, record=turn.to_json())
            if outcome is not None:
                return finish(*outcome)
        error = ErrorInfo(kind="max_turns", message=f"no (return ...) after {self.max_turns} turns",
                          hint="raise max_turns, or make the mission smaller")
        return finish(False, error=error)

    def _one_turn(self, number: int, reply: Reply, memory: Mapping[str, Any], results: list[Any],
                  emit: Emitter, hold: bool = False) -> Generator[Any, Any, tuple[Turn, tuple[Any, ...] | None]]:
        """Run the program in one reply. Returns the turn and, when the run ends, (ok, value, error).

        `hold`: an empty answer the runtime has a note about (a filter that kept nothing,
        ptc.interpreter.diagnose) does not end the run: the model reads the note and returns
        again (once per run), so a mistake is not taken for the answer."""
        parsed = parse_reply(reply.text)
        code = parsed.code
        base = dict(number=number, raw_response=reply.text, usage=reply.usage, memory=memory)
        if code is None:
            err = ErrorInfo(kind="no_code", message=parsed.nudge or "the reply contained no PTC-Lisp program",
                            hint="reply with one ```clojure block")
            return Turn(program=None, error=err, **base), None
        t0 = time.perf_counter()
        outcome = yield _RunProgram(code, memory, tuple(results[:3]))
        duration = time.perf_counter() - t0
        if isinstance(outcome, PTCError):
            partial = getattr(outcome, "partial", None)
            calls = partial.tool_calls if partial is not None else ()
            unkept = unkept_note(partial.defined) if partial is not None else None
            turn = Turn(program=code, error=ErrorInfo.from_ptc(outcome), duration=duration,
                        prints=partial.prints if partial is not None else (), tool_calls=calls,
                        note="\n".join(filter(None, (parsed.note, unkept))) or None, **base)
            emit("program_ran", number, ok=False, error=outcome.format(), duration=duration,
                 tool_calls=[c.to_dict() for c in calls])
            return turn, None
        calls = outcome.tool_calls
        emit("program_ran", number, ok=True, duration=duration, prints=list(outcome.prints),
             tool_calls=[c.to_dict() for c in calls])
        for call in calls:
            emit("tool_called", number, **call.to_dict())
        fields = dict(program=code, result=outcome.value, prints=outcome.prints, tool_calls=calls,
                      duration=duration, defined=outcome.defined, docs=outcome.docs,
                      note="\n".join(filter(None, (parsed.note, outcome.note,
                                                    full_page_note(outcome.tool_calls, self.tools)))) or None,
                      **{**base, "memory": outcome.memory})
        if outcome.failed:
            turn = Turn(success=True, failed=True, **fields)
            reason = pr_str(outcome.value, max_len=2_000)
            return turn, (False, V.to_python(outcome.value), ErrorInfo(kind="fail", message=reason))
        if outcome.returned and hold and outcome.note is not None:
            fields["note"] = f"{fields['note']}\n{CONFIRM}"
            results.insert(0, outcome.value)
            return Turn(success=True, **fields), None
        if outcome.returned:
            value, problem = (V.to_python(outcome.value), None) if self.signature is None \
                else self.signature.validate(outcome.value)
            if problem is not None:
                err = ErrorInfo(kind="signature", message=problem,
                                hint=f"return a value shaped like {self.signature.describe()}")  # type: ignore[union-attr]
                return Turn(success=False, error=err, **{**fields, "memory": memory}), None
            return Turn(success=True, returned=True, **fields), (True, value, None)
        results.insert(0, outcome.value)
        return Turn(success=True, **fields), None

    # -- composition ---------------------------------------------------------------------

    def as_tool(self, name: str, description: str) -> Any:
        """This agent as a tool another agent's program can call with {:task "..."}."""
        from .subagent import agent_tool

        return agent_tool(self, name, description)

    def with_mission(self, mission: str) -> "Agent":
        clone = object.__new__(Agent)
        clone.__dict__.update(self.__dict__)
        clone.mission = mission
        return clone


def _step(gen: Generator[Any, Any, Step], answer: Any) -> tuple[Any, Step | None]:
    """The turns' next request given the answer to the last one, or the finished Step."""
    try:
        return gen.send(answer), None
    except StopIteration as stop:
        return None, stop.value


def _model_failure(e: Exception) -> LLMError:
    """What a failed model call tells the loop (sync and async alike): an LLMError as it is,
    anything else as an "other" LLMError, so the run ends cleanly with a reason."""
    return e if isinstance(e, LLMError) else LLMError("other", f"{type(e).__name__}: {e}")


def _json_value(value: Any) -> Any:
    try:
        import json

        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)


Runner = Callable[[], Step]
