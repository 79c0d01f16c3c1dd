"""Host tools for PTC-Lisp programs: `@ptc.tool`, `ptc.Tool` and `as_tools`.

    import ptc

    @ptc.tool
    def search_reviews(category: str, limit: int = 10) -> list[dict]:
        "Search product reviews by category."
        ...

    ptc.run('(count (tool/search-reviews {:category "Electronics"}))',
            tools=ptc.tools.as_tools([search_reviews]))

Modules: `tool` (the Tool class, the decorator, as_tools), `naming` (kebab-case names,
docstrings), `schema` (type hints -> pydantic model, JSON schema, signature notation),
`summarize` (one-line call records), `lifetime` (resources held for a run), `mcp` (an MCP
server's tools, `ptc.mcp_tools`), `mcp_connection` (the connection they share),
`json_schema` (JSON schemas -> type hints, for tools described by a schema), `search`
(tool search for large catalogs: `tool/search-tools`, the prompt's groups).
"""

from .tool import Tool, as_tools, tool

__all__ = ["Tool", "as_tools", "tool"]
