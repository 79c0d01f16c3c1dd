"""Rich display in Jupyter: results, turns, steps, traces as HTML fragments (the viewer's parts).

Each `_repr_html_` of RunResult, Turn, Step and RunView calls one function here, so that the
notebook shows what `ptc trace show --html` shows, escaped the same way, with no script.
"""

from __future__ import annotations

from typing import Any

from .page import _charts, _outcome, _run, _tool_calls, _turn, esc, fragment, usage_svg


def result_html(result: Any) -> str:
    """A RunResult: what the program printed, its tool calls, its value and the charts it holds."""
    from ..interpreter.printer import pr_str

    record = {"result_data": _plain(result.value)}
    parts = []
    if result.prints:
        parts.append("<div class='muted'>printed</div><pre>" + esc("\n".join(result.prints)) + "</pre>")
    if result.tool_calls:
        parts.append(_tool_calls([c.to_dict() for c in result.tool_calls]))
    label = "failed with" if result.failed else "value"
    parts.append(f"<div class='muted'>{label}</div><pre>{esc(pr_str(result.value, max_len=4000))}</pre>")
    parts.append(_charts([record]))
    if result.defined:
        parts.append(f"<div class='muted'>defined: {esc(' '.join(result.defined))}</div>")
    return fragment("".join(parts))


def turn_html(turn: Any) -> str:
    return fragment(_turn(turn.to_json(), None, beside=False))


def step_html(step: Any) -> str:
    """A Step: the outcome, tokens per turn, charts and every turn."""
    error = step.error.model_dump() if step.error else None
    outcome = {"ok": step.ok, "value": _value_text(step.value), "error": error, "usage": step.usage.total.model_dump()}
    records = [t.to_json() for t in step.turns]
    parts = [_outcome(outcome)]
    if records:
        parts.append(usage_svg(records))
    parts.append(_charts(records))
    parts += [_turn(r, None, beside=False) for r in records]
    return fragment("".join(parts))


def run_view_html(run: Any) -> str:
    return fragment(_run(run))


def _plain(value: Any) -> Any:
    from ..interpreter.values import to_python

    try:
        return to_python(value)
    except Exception:  # noqa: BLE001 - an odd value is shown as its text, never breaks display
        return None


def _value_text(value: Any) -> str:
    from ..interpreter.printer import pr_str

    if hasattr(value, "model_dump_json"):
        return str(value.model_dump_json())
    return pr_str(value, max_len=4000)
