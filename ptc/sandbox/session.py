"""A sandbox that another agent's model calls as a tool, keeping definitions between calls."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from ..agent.prompt import check_profile
from ..agent.turn import ErrorInfo, unkept_note
from ..compression.feedback import clip_result, program_report
from ..interpreter.api import convert_data, run
from ..interpreter.errors import PTCError
from ..interpreter.footprint import footprint
from ..tools.pages import full_page_note
from ..interpreter.limits import Limits
from ..interpreter.printer import pr_str
from . import tool_spec

@dataclass(frozen=True)
class Reply:
    """What one sandbox call gives back: the text for the model; on success the program's
    value (a PTC value) and whether the text shows it whole (not clipped)."""

    text: str
    error: bool = False
    value: Any = None
    complete: bool = False


USAGE_HINT = 'call it with one argument, the program: {"program": "(+ 1 2)"}'


class Sandbox:
    """PTC-Lisp as one function-calling tool of any agent (an OpenAI or litellm tool loop, a framework).

    `openai_tool()` / `anthropic_tool()` give the tool's definition; `call(arguments)` runs the
    program in the model's arguments and returns the text to send back as the tool result: the
    printed output, the result, the names now defined, or the error with line:column and a hint.
    Definitions (def, defn) and *1 *2 *3 carry from call to call, as in the agent loop; a
    failed program leaves them as they were. Every call runs under `limits`.

    `with Sandbox(...) as sandbox:` holds what its tools keep for a run (an MCP server's
    connection) for the whole block, so every call shares it instead of connecting again.
    """

    def __init__(self, *, tools: Any = (), data: Mapping[str, Any] | None = None, limits: Limits | None = None,
                 name: str = "run_ptc_lisp", prompt: str = "compact", max_result_chars: int = 2_000,
                 tool_search: bool | int | None = None) -> None:
        from ..tools import as_tools
        from ..tools.search import with_search

        self.name = tool_spec.check_name(name)
        self.tools = with_search(as_tools(tools), tool_search)  # above 30 tools: tool/search-tools
        self.data = convert_data(data)
        self.limits = limits or Limits()
        self.prompt = check_profile(prompt)
        self.max_result_chars = max_result_chars
        self._memory: dict[str, Any] = {}
        self._results: list[Any] = []  # latest first: *1 *2 *3
        self._held: dict[str, int] = {}  # estimated bytes each definition holds (max_session_memory)
        self._result_bytes: list[int] = []  # the same for *1 *2 *3
        self._lock = threading.Lock()  # one program at a time: each sees the previous one's defs
        self._instructions: str | None = None
        self._scopes = contextlib.ExitStack()

    def __enter__(self) -> "Sandbox":
        from ..tools.lifetime import run_scope

        self._scopes.enter_context(run_scope(self.tools))
        return self

    def __exit__(self, *exc: object) -> None:
        self._scopes.close()

    def __repr__(self) -> str:
        return f"Sandbox(name={self.name!r}, tools={list(self.tools)}, data={list(self.data)})"

    # -- the definition ---------------------------------------------------------------

    @property
    def instructions(self) -> str:
        """The language, rules, tools and data: the tool's description, or a system prompt's part."""
        if self._instructions is None:
            self._instructions = tool_spec.instructions(self.tools, self.data, self.prompt, limits=self.limits)
        return self._instructions

    def _description(self, brief: bool) -> str:
        return f"{tool_spec.INTRO}\n{tool_spec.BRIEF_NOTE}" if brief else self.instructions

    def openai_tool(self, *, brief: bool = False) -> dict[str, Any]:
        """The OpenAI/litellm function definition. `brief=True` leaves the rules, tools and data
        out of the description (put `instructions` in your system prompt instead), for hosts
        that cap description length."""
        return tool_spec.openai_tool(self.name, self._description(brief))

    def anthropic_tool(self, *, brief: bool = False) -> dict[str, Any]:
        """The Anthropic Messages API tool definition (`brief` as for openai_tool)."""
        return tool_spec.anthropic_tool(self.name, self._description(brief))

    # -- calls ------------------------------------------------------------------------

    @property
    def memory(self) -> Mapping[str, Any]:
        """The names defined so far (read-only)."""
        return MappingProxyType(self._memory)

    def reset(self) -> None:
        """Forget every definition and result."""
        with self._lock:
            self._memory, self._results, self._held, self._result_bytes = {}, [], {}, []

    @property
    def held_bytes(self) -> int:
        """What the definitions and *1 *2 *3 hold, estimated as `max_session_memory` counts it."""
        return sum(self._held.values()) + sum(self._result_bytes)

    def call(self, arguments: str | Mapping[str, Any]) -> str:
        """Run the program in a tool call's arguments (the JSON text or the parsed mapping).

        Never raises for what a model sends: bad arguments and failing programs come back
        as an `error[kind] line:col: message` text with a hint, for the model to fix."""
        return self.execute(arguments).text

    def execute(self, arguments: str | Mapping[str, Any]) -> "Reply":
        """`call`, with the result as data too (for hosts that return structured results,
        such as an MCP server): the text, the value, and whether the program failed."""
        program = _program(arguments)
        if isinstance(program, ErrorInfo):
            return Reply(program.format(), error=True)
        with self._lock:
            try:
                result = run(program, data=self.data, tools=self.tools, memory=self._memory, limits=self.limits,
                             history=tuple(self._results))
            except PTCError as e:
                partial = getattr(e, "partial", None)
                prints = partial.prints if partial is not None else ()
                return Reply(_text(program_report(prints=prints, result=None, defined=(),
                                                  error=ErrorInfo.from_ptc(e).format(),
                                                  note=unkept_note(partial.defined) if partial is not None else None)),
                             error=True)
            over = self._keep(result)
            if over is not None:
                return Reply(_text(program_report(prints=result.prints, result=None, defined=(), error=over.format())),
                             error=True)
            if result.failed:
                error = ErrorInfo(kind="fail", message=pr_str(result.value, max_len=self.max_result_chars))
                return Reply(_text(program_report(prints=result.prints, result=None, defined=result.defined,
                                                  error=error.format())), error=True)
            self._results = [result.value, *self._results][:3]
            self._result_bytes = [footprint(result.value, self.limits.max_session_memory),
                                  *self._result_bytes][:3]
        printed = pr_str(result.value, max_len=self.max_result_chars + 1)
        shown = clip_result(printed, self.max_result_chars)
        note = "\n".join(filter(None, (result.note, full_page_note(result.tool_calls, self.tools)))) or None
        return Reply(_text(program_report(prints=result.prints, result=shown, defined=result.defined, error=None,
                                          note=note)),
                     value=result.value, complete=shown == printed)

    def _keep(self, result: Any) -> ErrorInfo | None:
        """Keep the run's definitions, unless with them the session would hold more than
        max_session_memory: then none of them is kept (the session stays as it was)."""
        cap = self.limits.max_session_memory
        held = dict(self._held)
        for name in result.defined:
            held[name] = footprint(result.memory.get(name), cap)
        total = sum(held.values()) + sum(self._result_bytes)
        if total > cap:
            biggest = max(result.defined, key=lambda n: held[n])
            return ErrorInfo(kind="limit", message=f"the session's definitions would hold about {total >> 20} MB "
                             f"({biggest} about {held[biggest] >> 20} MB): limit max_session_memory={cap} exceeded; "
                             f"this program's definitions were not kept",
                             hint="def only what later programs need (an aggregate, a few rows, not every row), "
                                  "or (def name nil) to let go of an earlier one")
        self._memory, self._held = dict(result.memory), held
        return None

    async def acall(self, arguments: str | Mapping[str, Any]) -> str:
        """`call` for async hosts: the program runs in a worker thread, the event loop goes on."""
        return await asyncio.to_thread(self.call, arguments)


def _program(arguments: Any) -> str | ErrorInfo:
    """The program in a tool call's arguments, or why there is none."""
    if isinstance(arguments, (str, bytes)):
        try:
            arguments = json.loads(arguments)
        except ValueError as e:
            return ErrorInfo(kind="parse", message=f"the tool arguments are not JSON ({e})", hint=USAGE_HINT)
    if not isinstance(arguments, Mapping):
        return ErrorInfo(kind="parse", message=f"the tool arguments must be a JSON object, not {type(arguments).__name__}",
                         hint=USAGE_HINT)
    program = arguments.get("program")
    if not isinstance(program, str):
        got = f"keys {sorted(map(str, arguments))}" if program is None else f"a {type(program).__name__}"
        return ErrorInfo(kind="parse", message=f'the tool arguments need "program", a string (got {got})',
                         hint=USAGE_HINT)
    return program


def _text(parts: list[str]) -> str:
    return "\n\n".join(parts) if parts else "Result: nil"


def as_tool_spec(*, tools: Any = (), data: Mapping[str, Any] | None = None, name: str = "run_ptc_lisp",
                 prompt: str = "compact", brief: bool = False) -> dict[str, Any]:
    """The OpenAI/litellm definition of a sandbox over these tools and data, for hosts that
    register tools before they run them (the calls then go to a Sandbox made with the same
    tools and data: `Sandbox(tools=..., data=...).call(arguments)`)."""
    return Sandbox(tools=tools, data=data, name=name, prompt=prompt).openai_tool(brief=brief)


__all__ = ["Sandbox", "Reply", "as_tool_spec"]
