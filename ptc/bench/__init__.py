"""Deterministic benchmarks of ptc itself, the library side of `ptc bench`.

`ptc.bench.tokens`: prompt tokens and billed cost per LLM call under each way of keeping
history, over the scripted runs of `ptc.scenarios.bench`.
"""

from __future__ import annotations

__all__ = ["tokens"]
