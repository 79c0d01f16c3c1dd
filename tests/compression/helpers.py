"""Build turns by really running programs (no LLM needed)."""

from __future__ import annotations

from typing import Any, Mapping

import ptc
from ptc.agent.turn import ErrorInfo, Turn
from ptc.interpreter.tool_calls import ToolCall
from ptc.compression import RenderContext


class Run:
    """Runs programs as consecutive turns, threading memory like the agent loop does."""

    def __init__(self, tools: Mapping[str, Any] | None = None, data: Mapping[str, Any] | None = None) -> None:
        self.tools = dict(tools or {})
        self.data = data
        self.turns: list[Turn] = []
        self.memory: Mapping[str, Any] = {}

    def turn(self, code: str) -> Turn:
        number = len(self.turns) + 1
        try:
            r = ptc.run(code, tools=self.tools, data=self.data, memory=self.memory)
        except ptc.PTCError as e:
            p = e.partial  # type: ignore[attr-defined]
            t = Turn(number=number, program=code, raw_response=f"```clojure\n{code}\n```", memory=self.memory,
                     prints=p.prints, tool_calls=_records(p.tool_calls), error=ErrorInfo.from_ptc(e))
        else:
            t = Turn(number=number, program=code, raw_response=f"```clojure\n{code}\n```", result=r.value,
                     prints=r.prints, tool_calls=_records(r.tool_calls), memory=r.memory, success=True,
                     defined=r.defined, docs=r.docs)
            self.memory = r.memory
        self.turns.append(t)
        return t


def _records(calls: Any) -> tuple[ToolCall, ...]:
    return tuple(ToolCall(name=c.name, args=c.args, result=c.result, error=c.error) for c in calls)


def context(mission: str = "Find well-reviewed products in stock", max_turns: int = 5) -> RenderContext:
    return RenderContext(mission=mission, system_prompt="SYSTEM PROMPT", max_turns=max_turns)
