"""Scripted missions over the example data, in one place for every part that replays them.

`ptc.scenarios.demo`: three missions with graders, for `ptc demo`, the scripts in `examples/`
and the tests (each with a committed cassette in `ptc/examples/cassettes/`).
`ptc.scenarios.bench`: twelve multi-turn runs for the token benchmark (`ptc bench tokens`).

Submodules are imported on use (they load the example datasets).
"""

from __future__ import annotations

__all__ = ["bench", "demo"]
