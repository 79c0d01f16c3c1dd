"""The function-calling definition of a sandbox (pure functions of its tools, data and profile).

The description teaches what the model needs to write a program: the language (the prompt
profiles' reference), the host's tools with their signatures, the data with samples.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..agent.prompt import (CALL_RULE, DATA_RULE, JAVA_INTEROP, PromptProfile, budget_line, compact_reference,
                            describe_data, describe_tools)
from ..interpreter.reference import prompt_reference

INTRO = """\
Runs a PTC-Lisp program in a sandbox and returns its printed output and its result. PTC-Lisp is
Clojure 1.11 (clojure.core, clojure.string as str/, clojure.set as set/) without I/O (println
aside), and Java interop only for the common methods its reference lists (String, Math,
java.time...). Write one program that calls the tools below and filters, joins and aggregates
their data, so that only the answer comes back."""

RULES = f"""\
Rules:
{CALL_RULE}
- Definitions ((def x ...), (defn f [args] ...)) persist from one call of this tool to the
  next; *1 *2 *3 are the last three results.
- The result is the value of the last expression, or (return value); (println ...) output is shown.
{DATA_RULE}"""

BRIEF_NOTE = "The PTC-Lisp rules, the tools it can call and its data are in the system prompt."

PROGRAM_EXAMPLE = "(count (filter #(> (:amount %) 100) data/orders))"

NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what OpenAI and Anthropic accept as a tool name


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise ValueError(f"tool name {name!r} must be 1-64 letters, digits, '_' or '-'")
    return name


def instructions(tools: Mapping[str, Any], data: Mapping[str, Any], profile: PromptProfile,
                 tools_text: str | None = None, limits: Any = None) -> str:
    """Everything a model needs to write programs for this sandbox (the full tool description).
    `tools_text` replaces the tools' full signatures (e.g. by `tool_index`)."""
    language = compact_reference() if profile == "compact" else "PTC-Lisp functions:\n" + prompt_reference(JAVA_INTEROP)
    tools_text = "Tools:\n" + describe_tools(tools) if tools_text is None else tools_text
    return "\n\n".join([INTRO, f"{RULES}\n- {budget_line(limits)}", language, tools_text,
                        "Data:\n" + describe_data(data)])


def tool_index(tools: Mapping[str, Any], max_summary: int = 90) -> str:
    """One line per tool: its call form and return type, then the first sentence of its
    description (cut at `max_summary` characters). For many tools, whose full documentation
    is fetched on demand."""
    lines = []
    for name, tool in tools.items():
        sig = getattr(tool, "signature", None)
        line = sig(description=False) if callable(sig) else f"(tool/{name} ...)"
        doc = " ".join(str(getattr(tool, "description", None) or getattr(tool, "__doc__", None) or "").split())
        summary = re.split(r"(?<=[.!?])\s", doc, maxsplit=1)[0]
        if len(summary) > max_summary:
            summary = summary[:max_summary - 3].rstrip() + "..."
        lines.append(f"{line} - {summary}" if summary else line)
    return "\n".join(lines) if lines else "No tools."


def parameters() -> dict[str, Any]:
    """The JSON schema of the tool's arguments: one program."""
    return {
        "type": "object",
        "properties": {"program": {"type": "string", "description": f"A PTC-Lisp program, e.g. {PROGRAM_EXAMPLE}"}},
        "required": ["program"],
        "additionalProperties": False,
    }


def openai_tool(name: str, description: str) -> dict[str, Any]:
    """The OpenAI/litellm `tools=[...]` entry."""
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters()}}


def anthropic_tool(name: str, description: str) -> dict[str, Any]:
    """The Anthropic Messages API `tools=[...]` entry."""
    return {"name": name, "description": description, "input_schema": parameters()}


__all__ = ["instructions", "tool_index", "parameters", "openai_tool", "anthropic_tool", "check_name", "INTRO", "BRIEF_NOTE"]
