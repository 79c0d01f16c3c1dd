"""Tool search for large catalogs: `(tool/search-tools "weather by city")`.

Above a threshold of tools (`DEFAULT_THRESHOLD`, configurable as `tool_search=` on `Agent`,
`Sandbox` and `Gateway`), the prompt does not list every signature: it lists the tools'
groups (the first word of their names: the `prefix` of `ptc.mcp_tools(..., prefix="gh")`,
or a domain such as `crm-`) and a few lines saying how to find a tool, and the run gets one
more tool, `search-tools`, which ranks the catalog against a query with BM25 (SQLite's FTS5,
in the standard library: no dependency, no model) and returns the best tools' signatures as
text. `(doc tool/x)` then gives one tool's whole signature, as for any tool.

The index is built once per catalog, on the first search (names split into words, the
description, the parameters' names and descriptions; English stemming by FTS5's porter
tokenizer), in memory; 500 tools are searched in about 0.25 ms, 50,000 in tens of milliseconds
(bench/tool_search.py). Below the threshold nothing changes: no search tool, the same prompt.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from typing import Any, Mapping

DEFAULT_THRESHOLD = 30  # above this many tools the prompt lists groups and the run can search them
SEARCH_TOOL = "search-tools"
DEFAULT_LIMIT = 5
MAX_LIMIT = 20  # tools one search returns at most
MAX_TERMS = 32  # words of a query that count (a pasted paragraph is not a slower search)
MAX_SIGNATURE_CHARS = 1_200  # of one tool in a search's result: (doc tool/x) gives the rest
MAX_GROUPS = 40  # groups the prompt names (about 4 tokens each); the rest are counted

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# English function words a query's sentence holds ("what is my...") and no tool is found by
STOP_WORDS = frozenset("""
a about all also am an and any are as at be been being but by can could did do does doing for from had has have
having he her here hers him his how i if in into is it its just me more most my no nor not now of off on once only
or our ours out over own please she should so some such than that the their them then there these they this those
through to too under until up very was we were what when where which while who whom why will with would you your
yours yet me let lets get got want need tell show give
""".split())


def threshold_of(tool_search: bool | int | None) -> int | None:
    """The number of tools above which a catalog is searched: None (never) for False, 0 (always)
    for True, DEFAULT_THRESHOLD for None, else the number given."""
    if tool_search is None:
        return DEFAULT_THRESHOLD
    if tool_search is True:
        return 0
    if tool_search is False:
        return None
    if not isinstance(tool_search, int) or tool_search < 0:
        raise ValueError(f"tool_search must be True, False or a number of tools (>= 0), not {tool_search!r}")
    return tool_search


def is_search_tool(tool: Any) -> bool:
    return getattr(tool, "tool_index", None) is not None


def with_search(tools: Mapping[str, Any], tool_search: bool | int | None = None) -> dict[str, Any]:
    """`tools`, plus the `search-tools` tool over them when there are more than the threshold
    (`threshold_of(tool_search)`); the same mapping's items otherwise. Idempotent: a mapping that
    has its search tool already is given back as it is."""
    tools = dict(tools)
    existing = tools.get(SEARCH_TOOL)
    if existing is not None and is_search_tool(existing):
        return tools
    limit = threshold_of(tool_search)
    if limit is None or len(tools) <= limit:
        return tools
    if existing is not None:
        raise ValueError(f"a tool is named {SEARCH_TOOL!r}, the name of the tool search a catalog of more than "
                         f"{limit} tools gets; rename it, or pass tool_search=False (list every tool) or a "
                         f"higher threshold")
    tools[SEARCH_TOOL] = search_tool(tools)
    return tools


# -- the index -------------------------------------------------------------------------


def _words(name: str) -> str:
    return " ".join(_WORD.findall(name.replace("-", " ").replace("_", " ")))


def tool_text(name: str, tool: Any) -> tuple[str, str, str]:
    """What the index holds of a tool: its name's words, its description, its parameters."""
    description = str(getattr(tool, "description", None) or getattr(tool, "__doc__", None) or "")
    params = []
    for p in getattr(tool, "params", ()) or ():
        params.append(f"{_words(getattr(p, 'key', '') or getattr(p, 'name', ''))} {getattr(p, 'description', '') or ''}")
    return _words(name), " ".join(description.split()), " ".join(" ".join(params).split())


class ToolIndex:
    """A BM25 index (SQLite FTS5) of a catalog's tools, built on the first search."""

    WEIGHTS = (3.0, 2.0, 1.0)  # name, description, parameters

    def __init__(self, tools: Mapping[str, Any]) -> None:
        self._tools = {name: tool for name, tool in tools.items() if name != SEARCH_TOOL}
        self._lock = threading.Lock()
        self._db: Any = None

    def __len__(self) -> int:
        return len(self._tools)

    def _open(self) -> Any:
        import sqlite3

        db = sqlite3.connect(":memory:", check_same_thread=False)  # searched from tool worker threads
        try:
            db.execute("CREATE VIRTUAL TABLE tools USING fts5(name, description, params, "
                       "tokenize = 'porter unicode61')")
        except sqlite3.OperationalError as e:  # pragma: no cover - a Python whose SQLite lacks FTS5
            raise RuntimeError(f"tool search needs SQLite's FTS5 extension, which this Python's sqlite3 lacks ({e}); "
                               "pass tool_search=False to list every tool instead") from None
        db.executemany("INSERT INTO tools (rowid, name, description, params) VALUES (?, ?, ?, ?)",
                       ((i, *tool_text(name, tool)) for i, (name, tool) in enumerate(self._tools.items())))
        return db

    def search(self, query: str, limit: int = DEFAULT_LIMIT) -> list[str]:
        """The names of the `limit` tools that best match `query` (any of its words), best first."""
        words = [w.lower() for w in _WORD.findall(query or "")]
        terms = list(dict.fromkeys(w for w in words if w not in STOP_WORDS) or dict.fromkeys(words))[:MAX_TERMS]
        if not terms or limit < 1:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        names = list(self._tools)
        with self._lock:
            if self._db is None:
                self._db = self._open()
            rows = self._db.execute(f"SELECT rowid FROM tools WHERE tools MATCH ? "
                                    f"ORDER BY bm25(tools, {', '.join(map(str, self.WEIGHTS))}) LIMIT ?",
                                    (match, limit)).fetchall()
        return [names[r[0]] for r in rows]

    def tool(self, name: str) -> Any:
        return self._tools[name]


def signature_text(name: str, tool: Any) -> str:
    """One tool's signature with its description and parameters, as the prompt would list it
    (clipped at MAX_SIGNATURE_CHARS)."""
    sig = getattr(tool, "signature", None)
    if callable(sig):
        text = sig()
    else:
        doc = (getattr(tool, "__doc__", None) or "").strip().splitlines()
        text = f"(tool/{name} ...)" + (f" - {doc[0]}" if doc else "")
    if len(text) > MAX_SIGNATURE_CHARS:
        text = text[:MAX_SIGNATURE_CHARS - 40].rstrip() + f" ... (doc tool/{name}) for all"
    return text


def search_tool(tools: Mapping[str, Any]) -> Any:
    """The `search-tools` tool over `tools` (a ptc.Tool whose `tool_index` is the index)."""
    from .tool import Tool

    index = ToolIndex(tools)

    def search_tools(query: str, limit: int = DEFAULT_LIMIT) -> str:
        """Find the tools for a task among this run's tools: the best matches of the query's words
        (BM25 over their names, descriptions and parameters), best first, each with its signature
        and parameters, as text to print.

        Args:
            query: what the tool should do, in a few words, e.g. "weather forecast for a city".
            limit: how many tools to return (at most 20).
        """
        n = max(1, min(int(limit), MAX_LIMIT))
        found = index.search(query, n)
        if not found:
            return (f"no tool matches {query!r}; try other words (what the tool does, what it reads or "
                    f"changes), or see the groups in the prompt")
        return "\n".join(signature_text(name, index.tool(name)) for name in found)

    t = Tool(search_tools, name=SEARCH_TOOL, _localns={})
    object.__setattr__(t, "tool_index", index)
    return t


# -- the prompt ------------------------------------------------------------------------


def groups(tools: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The catalog's groups, the first word of the tools' names, with their sizes, largest first."""
    counts = Counter(name.split("-", 1)[0] for name in tools if name != SEARCH_TOOL)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def catalog_text(tools: Mapping[str, Any]) -> str:
    """The prompt's Tools section for a searched catalog: its size, its groups, how to search."""
    n = sum(1 for name in tools if name != SEARCH_TOOL)
    found = groups(tools)
    shown = found[:MAX_GROUPS]
    rest = n - sum(k for _, k in shown)
    listed = " ".join(f"{g}- ({k})" for g, k in shown)
    if rest:
        listed += f"{' ' if listed else ''}and {rest} other{'s' if rest != 1 else ''}"
    return "\n".join([
        f"{n} tools, too many to list: find the ones a task needs by searching.",
        f"- (println (tool/{SEARCH_TOOL} \"weather forecast for a city\")) prints the {DEFAULT_LIMIT} tools that best match the "
        f"words, with their signatures;",
        f"  (tool/{SEARCH_TOOL} {{:query \"...\" :limit 10}}) for more. (doc tool/name) prints one tool's signature.",
        "- Search in a program of its own (several searches may share it), then call the tools it found "
        "in the next program.",
        f"Tool names by first word: {listed}",
    ])


__all__ = ["DEFAULT_THRESHOLD", "SEARCH_TOOL", "ToolIndex", "with_search", "search_tool", "catalog_text",
           "groups", "threshold_of", "is_search_tool", "signature_text"]
