"""`ptc.run`: a program run in this process (inline) or in an isolated child (isolation/)."""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from . import context, hooks
from .inline import Inputs, RunResult, compile_program, convert_data, make_tool_caller, prepare_inputs, run_inline
from .limits import Limits

__all__ = ["Inputs", "RunResult", "compile_program", "convert_data", "make_tool_caller", "prepare_inputs", "run"]

_TOOL_NAMED = re.compile(r"tool/([^\s()\[\]{}\"',;@^`~]+)")  # the tools a program's text names


def run(
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    tools: Mapping[str, Any] | None = None,
    memory: Mapping[str, Any] | None = None,
    limits: Limits | None = None,
    history: Sequence[Any] | None = None,
    resume: tuple[Any, Any] | None = None,
) -> RunResult:
    """Run a PTC-Lisp program. Raises PTCError (with .partial prints/tool calls) on failure.

    `memory` maps names defined by earlier programs to values; the result's `memory` adds
    this program's defs. A failed program leaves the caller's memory untouched. Tools that
    hold a resource for a run (an MCP server's connection) hold it for this run; the
    servers of the tools the program names are started before its clock starts.

    A run that reaches a tool call to be answered later (a tool that requires approval, or
    raises `ptc.Pause`) returns paused: `result.paused` is the `PausedRun` to resume
    (`PausedRun.resume`, which passes `resume=(paused, answer)` here; see docs/approvals.md).
    """
    if tools:
        if not isinstance(tools, Mapping):
            tools = hooks.as_tools(tools)
        with hooks.tools_scope(tools, eager=False):
            if isinstance(source, str):
                hooks.wait_started(tools, _TOOL_NAMED.findall(source))  # a server's start is not on the clock
            return _run(source, data, tools, memory, limits, history, resume)
    return _run(source, data, tools, memory, limits, history, resume)


def _run(source: str, data: Mapping[str, Any] | None, tools: Mapping[str, Any] | None,
         memory: Mapping[str, Any] | None, limits: Limits | None, history: Sequence[Any] | None,
         resume: tuple[Any, Any] | None) -> RunResult:
    limits = limits or context.DEFAULT_LIMITS
    if limits.isolation == "process":
        from .isolation import run_isolated

        return run_isolated(source, data=data, tools=tools, memory=memory, limits=limits, history=history,
                            resume=resume)
    return run_inline(source, data, tools, memory, limits, history, resume)
