"""`ptc.mcp_tools(server)`: the tools of an MCP server as ptc tools.

    tools = ptc.mcp_tools("python weather_server.py")           # stdio: a command line
    tools = ptc.mcp_tools("https://mcp.example.com/mcp",         # streamable HTTP
                          headers={"Authorization": "Bearer ..."})
    ptc.Agent("...", tools=[*tools, my_tool]).run()

Each MCP tool becomes a `ptc.Tool`: its name in kebab case (`get_forecast` ->
`tool/get-forecast`), its parameters typed from the tool's `inputSchema` (see
ptc.tools.json_schema; keys in kebab case, `?` for optional ones) and its result type from
`outputSchema`, its description in the system prompt, the usual `summarize()` lines.
Arguments are checked before the server is called: types by pydantic as for Python tools,
then the whole schema (minimum, pattern, enum...) with `jsonschema`. Results become PTC data:
`structuredContent` (unwrapped when the server wraps a non-object result as {"result": ...},
as the SDK's MCPServer/FastMCP does), else the JSON of the text content, else the text.
Errors - an isError result, a protocol error, a server that dies or hangs past the run's
deadline - are tool errors of the program.

Lifetime: `mcp_tools` lists the tools over a short connection. Each run then opens one when
it starts and closes it when it ends; see ptc.tools.mcp_connection.
"""

from __future__ import annotations

import inspect
import json
import re
from typing import Any, Iterator, Mapping, Sequence, overload

from ptc.interpreter.errors import PTCError

from .json_schema import SchemaTypes, described, python_names
from .mcp_connection import MCPConnection, MCPServerError, MCPServerSpec, describe
from .naming import check_tool_name, kebab
from .tool import Tool

_P = inspect.Parameter
_MAX_SHOWN_ERRORS = 3


class MCPTools(Sequence[Tool]):
    """The tools of one MCP server (a sequence of ptc.Tool sharing one connection).

    `with ptc.mcp_tools(...) as tools:` holds the connection for the block, so several runs
    (or bare `ptc.run` calls) inside it share one server process; it is closed at the end."""

    def __init__(self, connection: MCPConnection, tools: Sequence[Tool]) -> None:
        self.connection = connection
        self._tools = tuple(tools)

    @overload
    def __getitem__(self, index: int) -> Tool: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Tool]: ...

    def __getitem__(self, index: int | slice) -> Tool | Sequence[Tool]:
        return self._tools[index]

    def __len__(self) -> int:
        return len(self._tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools)

    def __enter__(self) -> "MCPTools":
        self.connection.acquire()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.connection.release()

    def close(self) -> None:
        """Close the connection now (the next call opens a new one)."""
        self.connection.close()

    def __repr__(self) -> str:
        return f"<MCPTools {self.connection.server.label}: {', '.join(t.name for t in self._tools)}>"


def mcp_tools(
    server: str | Sequence[str] | Mapping[str, Any] | MCPServerSpec,
    *,
    headers: Mapping[str, str] | None = None,
    prefix: str | None = None,
    timeout: float = 30.0,
    hold: bool = False,
) -> MCPTools:
    """The tools of the MCP server `server`: a command line (`"npx -y some-server"`, or a
    list of arguments) started as a subprocess speaking stdio, or an http(s):// URL of a
    streamable HTTP endpoint (`headers` are sent with each request). `prefix` names the
    tools `prefix-name` (two servers with the same tool names). `timeout`: seconds for the
    server to start and list its tools (and to start again in a run). `hold=True` keeps the
    server that listed the tools running, as `with tools:` would from then on (a long-lived
    host, saving a second start); `tools.connection.release()` lets it close.

    Raises MCPServerError when the server cannot be started or reached, or does not answer."""
    spec = MCPServerSpec.of(server, headers)
    if prefix is not None:
        check_tool_name(prefix)
    connection = MCPConnection(spec, connect_timeout=timeout)
    if hold:
        connection.acquire()
    try:
        listed = connection.list_tools(timeout)
    except BaseException:
        if hold:
            connection.release()
        raise
    return MCPTools(connection, [mcp_tool(connection, t, prefix=prefix) for t in listed])


def mcp_tool(connection: MCPConnection, spec: Any, *, prefix: str | None = None) -> Tool:
    """One MCP tool (an `mcp.types.Tool` the server listed) as a ptc Tool calling it over `connection`."""
    name = tool_name(spec.name, prefix)
    inputs: Mapping[str, Any] = spec.input_schema if isinstance(spec.input_schema, Mapping) else {}
    types = SchemaTypes(inputs)
    props: Mapping[str, Any] = inputs.get("properties") if isinstance(inputs.get("properties"), Mapping) else {}
    required = set(inputs.get("required") or ())
    names = python_names([str(k) for k in props])
    params = []  # required parameters first (also positional, in schema order), then optional ones
    for key, schema in sorted(props.items(), key=lambda item: item[0] not in required):
        ann = described(types.annotation(schema, str(key)), schema)
        if key in required:
            params.append(_P(names[str(key)], _P.POSITIONAL_OR_KEYWORD, annotation=ann))
        else:
            default = schema.get("default") if isinstance(schema, Mapping) else None
            params.append(_P(names[str(key)], _P.KEYWORD_ONLY, default=default, annotation=ann))
    extra = inputs.get("additionalProperties", None)
    if extra is True or isinstance(extra, Mapping):  # only when the schema says so: unknown keys are mistakes
        rest = "more_arguments"
        while rest in names.values():
            rest += "_"
        params.append(_P(rest, _P.VAR_KEYWORD,
                         annotation=types.annotation(extra) if isinstance(extra, Mapping) else Any))
    returns, unwrap = _result_type(spec.output_schema)
    json_names = {py: key for key, py in names.items()}
    check = _validator(inputs)

    async def call(**kwargs: Any) -> Any:
        arguments = {json_names.get(k, k): _json_ready(val) for k, val in kwargs.items()}
        if check is not None:
            _check_arguments(check, arguments, name, {k: kebab(py) or py for k, py in names.items()})
        try:
            result = await connection.request(lambda session: session.call_tool(spec.name, arguments))
        except MCPServerError as e:
            raise PTCError("tool", f"tool/{name}: {e}", hint="the MCP server is not available; "
                           "check its command or URL (its stderr is quoted when it wrote any)") from None
        except PTCError:
            raise
        except Exception as e:  # noqa: BLE001 - a JSON-RPC error from the server, a transport failure
            raise PTCError("tool", f"tool/{name}: the MCP server answered with an error: {describe(e)}",
                           hint="check the arguments against the tool's signature") from None
        return tool_result(result, name, unwrap)

    call.__name__ = re.sub(r"\W", "_", spec.name)
    call.__qualname__ = f"mcp:{spec.name}"
    call.__doc__ = spec.description or spec.title or ""
    signature = inspect.Signature(params, return_annotation=returns)
    return Tool(call, name=name, signature=signature, scope=connection, _localns={})


def tool_name(mcp_name: str, prefix: str | None = None) -> str:
    """The program-facing name of an MCP tool: kebab case, only letters, digits, - and _."""
    base = kebab(re.sub(r"[^A-Za-z0-9_-]+", "-", mcp_name)) or "tool"
    if prefix:
        base = f"{prefix}-{base}"
    if not base[0].isalpha():
        base = "t-" + base
    return check_tool_name(base[:64].rstrip("-_"))


def tool_result(result: Any, name: str, unwrap: bool) -> Any:
    """A CallToolResult as PTC data (see the module docstring); an error result is a tool error."""
    blocks = list(result.content or ())
    texts = [b.text for b in blocks if getattr(b, "type", None) == "text"]
    if result.is_error:
        message = " ".join(" ".join(texts).split()) or "the MCP server reported an error (no message)"
        raise PTCError("tool", f"tool/{name}: {message}",
                       hint="the MCP server reported this error; check the arguments")
    data = result.structured_content
    if data is not None:
        return data["result"] if unwrap and isinstance(data, dict) and set(data) == {"result"} else data
    if not blocks:
        return None
    if len(texts) < len(blocks):  # images, audio, resources: their content blocks as maps
        return [b.model_dump(mode="json", by_alias=True, exclude_none=True) for b in blocks]
    parsed = [_parse_json(t) for t in texts]
    if all(p is not _NOT_JSON for p in parsed):
        return parsed[0] if len(parsed) == 1 else parsed
    return "\n".join(texts)


_NOT_JSON: Any = object()


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return _NOT_JSON


def _result_type(schema: Any) -> tuple[Any, bool]:
    """The result annotation from an outputSchema, and whether results come wrapped as
    {"result": value} (the SDK's MCPServer wraps results that are not objects)."""
    if not isinstance(schema, Mapping):
        return Any, False
    types = SchemaTypes(schema)
    props = schema.get("properties")
    if isinstance(props, Mapping) and set(props) == {"result"} and list(schema.get("required") or ()) == ["result"]:
        return types.annotation(props["result"], "result"), True
    return types.annotation(schema, "result"), False


def _validator(schema: Mapping[str, Any]) -> Any:
    """A jsonschema validator of the whole input schema (None when the schema itself is not valid)."""
    if not schema:
        return None
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError:
        return None  # the server validates what it can
    return cls(schema)


def _check_arguments(validator: Any, arguments: dict[str, Any], name: str, keys: Mapping[str, str]) -> None:
    """Refuse arguments the schema refuses, before anything is sent (a clear error naming
    the parameter, with the path inside nested data)."""
    import jsonschema

    errors = sorted(validator.iter_errors(arguments), key=jsonschema.exceptions.relevance)
    if not errors:
        return
    parts = []
    for err in errors[:_MAX_SHOWN_ERRORS]:
        path = list(err.absolute_path)
        where = keys.get(str(path[0]), str(path[0])) if path else ""
        for seg in path[1:]:
            where += f"[{seg}]" if isinstance(seg, int) else f".{seg}"
        parts.append(f"parameter {where}: {err.message}" if where else err.message)
    if len(errors) > _MAX_SHOWN_ERRORS:
        parts.append(f"and {len(errors) - _MAX_SHOWN_ERRORS} more problems")
    raise PTCError("tool", f"tool/{name}: " + "; ".join(parts),
                   hint="the arguments do not match the MCP tool's input schema (its types and constraints "
                        "are in the tool's signature and parameter notes); nothing was sent to the server")


def _json_ready(x: Any) -> Any:
    """Validated arguments as JSON values (tuples from prefixItems become lists)."""
    if isinstance(x, dict):
        return {str(k): _json_ready(val) for k, val in x.items()}
    if isinstance(x, (list, tuple, set, frozenset)):
        return [_json_ready(val) for val in x]
    return x


__all__ = ["MCPTools", "MCPServerSpec", "MCPServerError", "mcp_tools", "mcp_tool", "tool_name", "tool_result"]
