"""Agents as tools, and the opt-in `llm-query` tool (a focused question to the model)."""

from __future__ import annotations

import json as _json
from typing import Any

from ..interpreter.errors import PTCError
from ..llm.base import LLMError, complete


def agent_tool(agent: Any, name: str, description: str) -> Any:
    """A tool that runs `agent` on a sub-task and returns its answer (or a tool error)."""
    from ..tools import Tool

    def run_subagent(task: str) -> Any:
        mission = f"{agent.mission}\n\nTask: {task}" if task else agent.mission
        step = agent.with_mission(mission).run()
        if not step.ok:
            raise PTCError("tool", f"sub-agent {name} failed: {step.error.message if step.error else 'unknown'}")
        return step.value

    run_subagent.__doc__ = description
    return Tool(run_subagent, name=name, description=description)


QUERY_SYSTEM = ("You answer one focused question about the data given. Answer briefly and precisely. "
                "If asked for JSON, reply with JSON only.")


def llm_query_tool(llm: Any) -> Any:
    """`(tool/llm-query {:prompt "..." :data x :json false})` -> the model's answer as text
    (or parsed JSON when :json is true)."""
    from ..tools import Tool

    def llm_query(prompt: str, data: Any = None, json: bool = False) -> Any:
        content = prompt if data is None else f"{prompt}\n\nData:\n{_json.dumps(data, default=str)[:20_000]}"
        try:
            reply = complete(llm, [{"role": "system", "content": QUERY_SYSTEM}, {"role": "user", "content": content}])
        except LLMError as e:
            raise PTCError("tool", f"llm-query: {e}") from None
        if json:
            try:
                return _json.loads(reply.text)
            except _json.JSONDecodeError:
                raise PTCError("tool", "llm-query: the model did not answer with JSON") from None
        return reply.text

    llm_query.__doc__ = "Ask the language model a focused question about some data; returns its answer."
    return Tool(llm_query, name="llm-query", description=llm_query.__doc__)
