"""ptc: programmatic tool calling. LLMs write PTC-Lisp; ptc runs it in a sandbox.

Attributes are loaded lazily so `import ptc` stays light (no litellm, no compiler).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, tuple[str, str]] = {
    "run": ("ptc.interpreter.api", "run"),
    "RunResult": ("ptc.interpreter.api", "RunResult"),
    "explain": ("ptc.interpreter.columnar.explain", "explain"),
    "pr_str": ("ptc.interpreter.printer", "pr_str"),
    "to_python": ("ptc.interpreter.values", "to_python"),
    "Limits": ("ptc.interpreter.limits", "Limits"),
    "PTCError": ("ptc.interpreter.errors", "PTCError"),
    "Pause": ("ptc.interpreter.pause", "Pause"),
    "PausedRun": ("ptc.interpreter.pause", "PausedRun"),
    "Pending": ("ptc.interpreter.pause", "Pending"),
    "Answer": ("ptc.interpreter.pause", "Answer"),
    "tool": ("ptc.tools", "tool"),
    "Tool": ("ptc.tools", "Tool"),
    "mcp_tools": ("ptc.tools.mcp", "mcp_tools"),
    "Agent": ("ptc.agent.loop", "Agent"),
    "Step": ("ptc.agent.loop", "Step"),
    "Turn": ("ptc.agent.turn", "Turn"),
    "ScriptedLLM": ("ptc.llm.scripted", "ScriptedLLM"),
    "RecordingLLM": ("ptc.llm.cassette", "RecordingLLM"),
    "ReplayLLM": ("ptc.llm.cassette", "ReplayLLM"),
    "LLMError": ("ptc.llm.base", "LLMError"),
    "Sandbox": ("ptc.sandbox", "Sandbox"),
    "as_tool_spec": ("ptc.sandbox", "as_tool_spec"),
    "Usage": ("ptc.llm.base", "Usage"),
    "LiteLLM": ("ptc.llm.litellm_client", "LiteLLM"),
    "table": ("ptc.data.files", "table"),
    "read_data": ("ptc.data.files", "read_data"),
    "DataFileError": ("ptc.data.arrow", "DataFileError"),
    "LoadLimits": ("ptc.data.limits", "LoadLimits"),
    "to_arrow": ("ptc.data.results", "to_arrow"),
    "to_pandas": ("ptc.data.results", "to_pandas"),
    "write_table": ("ptc.data.results", "write_table"),
    "Chart": ("ptc.charts", "Chart"),
    "render_chart": ("ptc.charts", "render_chart"),
}

__all__ = sorted(_EXPORTS) + ["__version__"]

# what the interpreter (the lowest layer) asks of the layers above: each wired here, at the top,
# to the function that provides it, imported on its first call (ptc.interpreter.hooks)
_PROVIDERS: dict[str, str] = {
    "as_arrow": "ptc.data.sources:as_arrow",
    "to_arrow": "ptc.data.results:to_arrow",
    "to_pandas": "ptc.data.results:to_pandas",
    "check_charts": "ptc.charts:check_returned",
    "charts_in": "ptc.charts:charts_in",
    "as_tools": "ptc.tools.tool:as_tools",
    "tools_scope": "ptc.tools.lifetime:run_scope",
    "wait_started": "ptc.tools.lifetime:wait_started",
    "json_result": "ptc.tools.tool:json_result",
    "result_html": "ptc.viewer.display:result_html",
    "turn_html": "ptc.viewer.display:turn_html",
    "step_html": "ptc.viewer.display:step_html",
}


def _wire() -> None:
    from .interpreter import hooks

    for name, where in _PROVIDERS.items():
        getattr(hooks, name).provide(where)


_wire()


def __getattr__(name: str) -> Any:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'ptc' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(target[0]), target[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext ptc`: the `%%ptc` cell magic (see ptc.notebook)."""
    from .notebook import load_ipython_extension as load

    load(ipython)
