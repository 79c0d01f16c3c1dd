"""The function-calling definition of a sandbox (pure functions of its tools, data and profile).

The description teaches what the model needs to write a program: the language (the prompt
profiles' reference), the host's tools with their signatures, the data with samples.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..agent.prompt import CALL_RULE, DATA_RULE, PromptProfile, compact_reference, describe_data, describe_tools
from ..interpreter.reference import prompt_reference

INTRO = """\
Runs a PTC-Lisp program in a sandbox and returns its printed output and its result. PTC-Lisp is
Clojure 1.11 (clojure.core, clojure.string as str/, clojure.set as set/) without I/O or Java
interop. Write one program that calls the tools below and filters, joins and aggregates their
data, so that only the answer comes back."""

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


def instructions(tools: Mapping[str, Any], data: Mapping[str, Any], profile: PromptProfile) -> str:
    """Everything a model needs to write programs for this sandbox (the full tool description)."""
    language = compact_reference() if profile == "compact" else "PTC-Lisp functions:\n" + prompt_reference()
    return "\n\n".join([INTRO, RULES, language, "Tools:\n" + describe_tools(tools), "Data:\n" + describe_data(data)])


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


__all__ = ["instructions", "parameters", "openai_tool", "anthropic_tool", "check_name", "INTRO", "BRIEF_NOTE"]
