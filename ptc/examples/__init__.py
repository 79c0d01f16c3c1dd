"""Sample data and typed tools for demos, examples and benchmarks.

`ptc.examples.datasets`: deterministic products / orders / employees / expenses.
`ptc.examples.tools`: typed tools over them (`analysis_tools()`, `action_tools(outbox)`).

Submodules are imported on use, so `import ptc.examples` stays light.
"""

from __future__ import annotations

__all__ = ["datasets", "tools"]
