"""Token benchmark: prompt tokens and their billed cost per LLM call (uncached, OpenAI- and
Anthropic-cached), JSON tool calling vs PTC full history, single-user-coalesced and
append-only summaries, on the bundled multi-turn scenarios (ptc.scenarios.bench).

The same command as `ptc bench tokens` (same options), as a script:

    python bench/tokens.py [--encoding o200k_base] [--scenario NAME ...] [--prompt default|compact]
                           [--pricing MODEL] [--json] [--plot FILE.png]
"""

from __future__ import annotations

from ptc.cli.bench_cmd import tokens_cmd

if __name__ == "__main__":
    tokens_cmd(prog_name="python bench/tokens.py")
