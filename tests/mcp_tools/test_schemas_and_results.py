"""JSON schemas as tool signatures and checks, and MCP results as PTC data (no server needed:
the tools are built from the SDK's own Tool and CallToolResult types)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.types import CallToolResult, ImageContent, TextContent
from mcp.types import Tool as MCPToolSpec

import ptc
from ptc.tools.mcp import mcp_tool, tool_name, tool_result
from ptc.tools.mcp_connection import MCPConnection, MCPServerSpec

ITEM = {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}},
        "required": ["sku", "qty"], "additionalProperties": False}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "$defs": {"Item": ITEM, "Node": {"type": "object", "properties": {"children": {"type": "array",
                                                                                  "items": {"$ref": "#/$defs/Node"}}}}},
    "properties": {
        "customerId": {"type": "string", "description": "Who orders.", "pattern": "^C[0-9]+$"},
        "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "minItems": 1},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "priority": {"enum": ["low", "high"], "default": "low"},
        "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": False},
        "tags": {"type": "object", "additionalProperties": {"type": "integer"}},
        "tree": {"$ref": "#/$defs/Node"},
        "from": {"type": ["string", "integer"]},
    },
    "required": ["customerId", "items"],
}


def spec_tool(schema: dict[str, Any] = SCHEMA, name: str = "place_order", **more: Any) -> ptc.Tool:
    connection = MCPConnection(MCPServerSpec.of("unused-server-command"))  # never opened by these tests
    return mcp_tool(connection, MCPToolSpec(name=name, description="Place an order.\n\nMore details.",
                                            input_schema=schema, **more))


def test_schema_becomes_a_typed_signature() -> None:
    t = spec_tool()
    assert t.name == "place-order"
    assert t.signature() == (
        "(tool/place-order {:customer-id :string, :items [{:sku :string, :qty :int}], :note :string?, "
        ':priority (enum "low" "high")?, :point (tuple :float :float)?, :tags (map-of :string :int)?, '
        ":tree {:children [:map]?}?, :from (or :string :int)?}) -> :any\n"
        "  Place an order.\n"
        '  :customer-id - Who orders. (matching "^C[0-9]+$")\n'
        "  :items - (at least 1 items)\n"
        '  :priority - (default "low")'
    )


def test_arguments_are_checked_against_the_whole_schema() -> None:
    t = spec_tool()
    bad = {
        '{:customer-id "X1" :items [{:sku "a" :qty 1}]}': 'parameter customer-id: \'X1\' does not match',
        '{:customer-id "C1" :items []}': "parameter items: [] should be non-empty",
        '{:customer-id "C1" :items [{:sku "a" :qty 0}]}': "parameter items[0].qty: 0 is less than the minimum of 1",
        '{:customer-id "C1" :items [{:sku "a" :qty 1 :gift true}]}': "parameter items[0].gift: unknown key",
        '{:customer-id "C1" :items [{:sku "a"}]}': "parameter items[0].qty: missing required key",
        '{:customer-id "C1" :items [{:sku "a" :qty 1}] :priority :urgent}': "parameter priority: expected one of",
    }
    for args, message in bad.items():
        with pytest.raises(ptc.PTCError) as e:
            ptc.run(f"(tool/place-order {args})", tools=[t])
        assert e.value.kind == "tool" and message in e.value.message, (args, e.value.message)


def test_valid_arguments_reach_the_server_with_their_json_names() -> None:
    """A bad connection shows what would have been sent: the call gets as far as connecting."""
    t = spec_tool()
    with pytest.raises(ptc.PTCError) as e:
        ptc.run('(tool/place-order {:customer-id "C7" :items [{:sku "a" :qty "2"}] :point [1 2] :from 3 :tags {:x 1}})',
                tools=[t])
    assert "could not be started" in e.value.message  # validation passed; the server is not there
    assert t.bind(ptc.run('["C7" [{:sku "a" :qty "2"}]]').value) == {
        "customerId": "C7", "items": [{"sku": "a", "qty": 2}]}


def test_additional_properties_are_extra_keys() -> None:
    t = spec_tool({"type": "object", "properties": {"more_arguments": {"type": "string"}},
                   "additionalProperties": {"type": "integer"}}, name="tag")
    assert t.signature(description=False) == "(tool/tag {:more-arguments :string?, ...}) -> :any"
    assert t.bind(ptc.run('{:more-arguments "a" :x "5"}').value) == {"more_arguments": "a", "x": 5}
    with pytest.raises(ptc.PTCError, match="parameter y: expected integer"):
        t.bind(ptc.run("{:y :z}").value)
    loose = spec_tool({"type": "object", "properties": {}}, name="ping")
    assert loose.signature(description=False) == "(tool/ping) -> :any"


def test_names_are_kebab_case_and_valid() -> None:
    assert tool_name("get_forecast") == "get-forecast"
    assert tool_name("searchRepos") == "search-repos"
    assert tool_name("github.search/issues") == "github-search-issues"
    assert tool_name("2fa_check") == "t-2fa-check"
    assert tool_name("list", prefix="fs") == "fs-list"


def test_results_become_ptc_data() -> None:
    def result(*blocks: Any, structured: Any = None, error: bool = False) -> CallToolResult:
        return CallToolResult(content=list(blocks), structured_content=structured, is_error=error)

    text = TextContent(type="text", text='{"a": 1}')
    assert tool_result(result(text, structured={"result": [1, 2]}), "t", unwrap=True) == [1, 2]
    assert tool_result(result(text, structured={"result": [1, 2]}), "t", unwrap=False) == {"result": [1, 2]}
    assert tool_result(result(text), "t", unwrap=False) == {"a": 1}
    assert tool_result(result(text, TextContent(type="text", text="[2]")), "t", unwrap=False) == [{"a": 1}, [2]]
    assert tool_result(result(TextContent(type="text", text="it is sunny")), "t", unwrap=False) == "it is sunny"
    assert tool_result(result(), "t", unwrap=False) is None
    image = ImageContent(type="image", data="aGk=", mime_type="image/png")
    assert tool_result(result(text, image), "t", unwrap=False) == [
        {"type": "text", "text": '{"a": 1}'}, {"type": "image", "data": "aGk=", "mimeType": "image/png"}]
    with pytest.raises(ptc.PTCError, match="tool/t: no such city") as e:
        tool_result(result(TextContent(type="text", text="no such city"), error=True), "t", unwrap=False)
    assert e.value.kind == "tool"


def test_server_specs() -> None:
    assert MCPServerSpec.of("python -m my_server --root '/data dir'").command == \
        ("python", "-m", "my_server", "--root", "/data dir")
    http = MCPServerSpec.of("https://user:pw@mcp.example.com:8443/mcp?key=secret", {"Authorization": "Bearer x"})
    assert http.url is not None and http.headers == {"Authorization": "Bearer x"}
    assert http.label == "https://mcp.example.com:8443/mcp"  # no credentials in messages
    with pytest.raises(ValueError, match="headers are for MCP servers reached by URL"):
        MCPServerSpec.of("python server.py", {"X": "1"})
    with pytest.raises(ValueError, match="exactly one of"):
        MCPServerSpec.of({"command": [], "url": None})
    with pytest.raises(ValueError, match="cannot split"):
        MCPServerSpec.of("python 'unclosed")
