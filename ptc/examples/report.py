"""Helpers shared by the example scripts: pick the model, print a run turn by turn."""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import Any, Mapping, Sequence, TextIO

RULE_WIDTH = 72


def parse_args(description: str | None, argv: Sequence[str] | None = None) -> argparse.Namespace:
    """`--model MODEL` (a litellm model name) and `--quiet`; without --model the script's
    scripted replies are used, so the example runs offline."""
    first = (description or "").strip().split("\n\n")[0]
    parser = argparse.ArgumentParser(description=first or None)
    parser.add_argument("--model", metavar="MODEL", default=None,
                        help="a litellm model name, e.g. openai/gpt-4o-mini (needs the provider's API key "
                             "and `pip install ptc-lisp[llm]`); default: replay the scripted replies offline")
    parser.add_argument("--quiet", action="store_true", help="print only the final value")
    return parser.parse_args(list(argv) if argv is not None else None)


def choose_llm(model: str | None, replies: Sequence[Any]) -> Any:
    """A litellm model name when given, else a `ptc.ScriptedLLM` over the script's replies."""
    if model:
        return model
    from ptc.llm.scripted import ScriptedLLM

    return ScriptedLLM(replies)


def prose(reply: str) -> str:
    """What the model wrote outside its code block (its short explanation)."""
    text = re.sub(r"```.*?(```|\Z)", "", reply, flags=re.S)
    return " ".join(text.split())


def _indent(text: str, prefix: str = "    ") -> str:
    return textwrap.indent(text.rstrip("\n"), prefix, lambda _line: True)


def format_turn(turn: Any, tools: Mapping[str, Any] | None = None) -> str:
    """One turn: the model's words, the program, its tool calls, output, result or error."""
    from ptc.interpreter.printer import pr_str

    status = "returned" if turn.returned else "failed" if turn.error is not None or turn.failed else "ok"
    head = f"── turn {turn.number} ({status}) "
    lines = [head + "─" * max(4, RULE_WIDTH - len(head))]
    said = prose(turn.raw_response)
    if said:
        lines.append(_indent(textwrap.fill(said, RULE_WIDTH - 4), "  "))
    if turn.program is not None:
        lines += ["  program:", _indent(turn.program)]
    if turn.tool_calls:
        lines.append(f"  tool calls ({len(turn.tool_calls)}):")
        shown = turn.tool_calls if len(turn.tool_calls) <= 8 else turn.tool_calls[:6]
        for call in shown:
            tool = (tools or {}).get(call.name)
            if call.error is not None:
                first = call.error.splitlines()[0] if call.error else ""
                line = f"{call.name} -> error: {first[:100]}{'...' if len(first) > 100 else ''}"
            elif tool is not None and hasattr(tool, "summarize"):
                line = tool.summarize(call.args, call.result)
            else:
                line = f"{call.name}({pr_str(call.args, max_len=60)}) -> {pr_str(call.result, max_len=60)}"
            lines.append(f"    {line}")
        if len(shown) < len(turn.tool_calls):
            lines.append(f"    ... and {len(turn.tool_calls) - len(shown)} more")
    if turn.prints:
        lines += ["  output:", _indent("".join(p if p.endswith("\n") else p + "\n" for p in turn.prints))]
    if turn.error is not None:
        lines += ["  error:", _indent(turn.error.format())]
    elif turn.returned or turn.failed:
        lines.append(f"  {'return' if turn.returned else 'fail'}: {pr_str(turn.result, max_len=300)}")
    elif turn.program is not None:
        lines.append(f"  result: {pr_str(turn.result, max_len=300)}")
    return "\n".join(lines)


def format_step(step: Any, tools: Mapping[str, Any] | None = None) -> str:
    """Every turn, then the outcome (value or error) and the token usage."""
    import json

    parts = [format_turn(t, tools) for t in step.turns]
    parts.append("═" * RULE_WIDTH)
    if step.ok:
        try:
            value = json.dumps(step.value, indent=2, ensure_ascii=False, default=_default)
        except (TypeError, ValueError):
            value = repr(step.value)
        parts.append("ok: True\nvalue: " + value)
    else:
        parts.append(f"ok: False\nerror: {step.error.format() if step.error else '?'}")
    u = step.usage.total
    cost = f", cost ${u.cost:.4f}" if u.cost is not None else ""
    parts.append(f"usage: {len(step.turns)} turn(s), {u.calls} LLM call(s), {u.prompt_tokens} prompt + "
                 f"{u.completion_tokens} completion tokens{cost}; {step.duration:.2f}s")
    return "\n".join(parts)


def _default(x: Any) -> Any:
    dump = getattr(x, "model_dump", None)
    return dump() if callable(dump) else repr(x)


def print_step(step: Any, tools: Mapping[str, Any] | None = None, *, quiet: bool = False,
               file: TextIO | None = None) -> None:
    if quiet:
        print(_default(step.value) if step.ok else step.error, file=file)
        return
    print(format_step(step, tools), file=file)
