"""System prompts per mode, composed fresh for every call and never stored.

- ``chat``: the model answers the user directly from the conversation so far.
- ``agent``: the PTC loop's prompt (`ptc.agent.prompt.system_prompt`): the model writes
  PTC-Lisp programs that call the tools.

Both end with a MODE banner (``MODE: active=<mode>; ...``) because the history may hold
messages written in the other mode: switching modes changes only this prompt, never the log.
"""

from __future__ import annotations

from typing import Any, Mapping

MODES = ("chat", "agent")

CHAT_RULES = """\
You are a data assistant in a conversation with the user. Answer the user directly and
concisely from what the conversation already holds: earlier answers, tool results, and
summaries of older parts of the conversation.

- Messages starting with CONVERSATION_SUMMARY stand for earlier messages that were condensed;
  trust them as the record of what happened.
- TOOL_RESULT_PREVIEW marks a tool result shown in part; TOOL_RESULT_MISSING a call whose
  result was never recorded. Do not invent the missing parts.
- LLM_ERROR marks an earlier reply that failed part-way; if the user asks to continue, pick
  up from there.
- In chat mode you cannot run programs or call tools. When a question needs computing over
  the data or calling tools, say so and suggest switching to agent mode, where the assistant
  writes PTC-Lisp programs that run in a sandbox."""


def mode_banner(mode: str) -> str:
    return (f"MODE: active={mode}. The history may include messages from other modes "
            "(chat, agent); follow the instructions for the active mode.")


def _chat_prompt(tools: Mapping[str, Any] | None, data: Mapping[str, Any] | None) -> str:
    parts = [CHAT_RULES]
    if tools:
        from ..agent.prompt import describe_tools

        parts.append("## Tools (usable in agent mode)\n" + describe_tools(tools))
    if data:
        from ..agent.prompt import describe_data

        parts.append("## Data (usable in agent mode)\n" + describe_data(data))
    return "\n\n".join(parts)


def system_prompt(mode: str, *, tools: Mapping[str, Any] | None = None, data: Mapping[str, Any] | None = None,
                  extra: str | None = None, **agent_options: Any) -> str:
    """The system prompt for `mode` ("chat" or "agent"), ending with the MODE banner.

    `extra` is appended before the banner (e.g. a persona or project notes). In agent mode
    `agent_options` go to `ptc.agent.prompt.system_prompt` (`signature`, `max_turns`); `data`
    must then hold PTC values (as `ptc.Agent` prepares them).
    """
    if mode == "chat":
        body = _chat_prompt(tools, data)
    elif mode == "agent":
        from ..agent.prompt import system_prompt as agent_prompt

        body = agent_prompt(tools=tools or {}, data=data, **agent_options)
    else:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    parts = [body]
    if extra:
        parts.append(extra.strip())
    parts.append(mode_banner(mode))
    return "\n\n".join(parts)
