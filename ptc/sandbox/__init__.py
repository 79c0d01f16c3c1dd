"""ptc as the code-execution tool of other agents: one function-calling tool, `run_ptc_lisp`,
whose calls run in a sandbox that keeps its definitions from call to call."""

from .session import Sandbox, as_tool_spec

__all__ = ["Sandbox", "as_tool_spec"]
