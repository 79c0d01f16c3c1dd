"""Sample data and typed tools for demos, examples and benchmarks.

`ptc.examples.datasets`: deterministic products / orders / employees / expenses.
`ptc.examples.tools`: typed tools over them (`analysis_tools()`, `action_tools(outbox)`).
`ptc.scenarios.demo`: missions over these, with scripted replies and graders (`SCENARIOS`).
`ptc.examples.report`: print a run turn by turn (used by the scripts in `examples/`).
`python -m ptc.examples [SCENARIO] [--model M]`: run scenarios (`ptc.examples.demo`).

Submodules are imported on use, so `import ptc.examples` stays light.
"""

from __future__ import annotations

__all__ = ["datasets", "tools", "report", "demo"]
