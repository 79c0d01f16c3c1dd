"""The system prompt: language reference, rules, tools, data and the expected result.

Composed fresh from its inputs (a pure function), never stored.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..interpreter.printer import sample_text, type_label
from ..interpreter.reference import prompt_reference

RULES = """\
You solve the user's mission by writing PTC-Lisp programs. PTC-Lisp is a safe subset of
Clojure that runs in a sandbox: no Java interop, no atoms, no eval, no I/O except println.
Each reply must contain exactly one ```clojure code block; it runs, and you see its results.

Rules:
- Call tools as (tool/name {:arg value}) or (tool/name arg1 arg2); read input data as data/name.
- (def name value) and (defn name [args] ...) keep values for your next programs; plain
  let-bindings are forgotten when the program ends. Use defined names directly next time.
- Use (println ...) to look at intermediate results you need; output is shown to you.
- Data and tool results are Clojure data: JSON keys are keywords, as the samples show
  ({:price 3} is read with (:price p)); a key that is not a keyword name stays a string.
- When you have the answer, call (return value). If the mission is impossible, call (fail "why").
- Work in small steps: explore first, then compute. Do not repeat tool calls that act (send, book)."""


def describe_data(data: Mapping[str, Any] | None) -> str:
    """`data/name: type, sample: ...` lines (values must already be PTC values)."""
    if not data:
        return "No input data."
    lines = []
    for name, value in data.items():
        label = type_label(value)
        t = type(value)
        first = None
        if label.startswith("list[") and len(value):
            first = next(iter(value))
        sample = sample_text(first if first is not None else value, limit=4, max_chars=160)
        lines.append(f"data/{name}: {label}, sample: {sample}")
        if t is str and len(value) > 160:
            lines[-1] += f" ({len(value)} characters)"
    return "\n".join(lines)


def describe_tools(tools: Mapping[str, Any]) -> str:
    if not tools:
        return "No tools."
    out = []
    for name, tool in tools.items():
        sig = getattr(tool, "signature", None)
        if callable(sig):
            out.append(sig())
        else:
            doc = (getattr(tool, "__doc__", None) or "").strip().splitlines()
            out.append(f"(tool/{name} ...)" + (f" - {doc[0]}" if doc else ""))
    return "\n".join(out)


def system_prompt(*, tools: Mapping[str, Any], data: Mapping[str, Any] | None, signature: Any = None,
                  max_turns: int = 5) -> str:
    parts = [
        RULES,
        f"You have at most {max_turns} programs (turns).",
        "## PTC-Lisp functions\n" + prompt_reference(),
        "## Tools\n" + describe_tools(tools),
        "## Data\n" + describe_data(data),
    ]
    if signature is not None:
        parts.append(f"## Result\nReturn a value of this shape with (return ...): {signature.describe()}")
    parts.append("## Output format\nReply with one ```clojure block containing the program, and nothing after it.")
    return "\n\n".join(parts)
