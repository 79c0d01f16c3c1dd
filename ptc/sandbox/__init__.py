"""ptc as the code-execution tool of other agents: one function-calling tool, `run_ptc_lisp`,
whose calls run in a sandbox that keeps its definitions from call to call (`Sandbox`), also
served to any MCP client by `Gateway` (`ptc mcp serve`)."""

from .mcp_server import Gateway
from .session import Reply, Sandbox, as_tool_spec

__all__ = ["Sandbox", "Reply", "Gateway", "as_tool_spec"]
