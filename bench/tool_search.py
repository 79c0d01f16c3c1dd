"""Tool search for large catalogs: prompt tokens with 50 and 500 tools, before and after, and
the share of missions whose tool BM25 ranks in the top 5 (ptc.bench.tool_search).

The same command as `ptc bench tool-search` (same options), as a script:

    python bench/tool_search.py [--encoding o200k_base] [--json]
"""

from __future__ import annotations

from ptc.cli.bench_cmd import tool_search_cmd

if __name__ == "__main__":
    tool_search_cmd(prog_name="python bench/tool_search.py")
