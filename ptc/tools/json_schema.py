"""JSON schemas -> Python annotations, so a tool described by a schema (an MCP server's
`inputSchema`/`outputSchema`) gets the same typed signature, lax pydantic validation and
error messages as a Python function with type hints.

    string -> str, integer -> int, number -> float, boolean -> bool, null -> None
    array -> list[T] (prefixItems: tuple[...]), enum/const -> Literal[...]
    object with properties -> a TypedDict (its keys keep their JSON names; required ones are
        required; additionalProperties false forbids other keys, else they pass through)
    object without properties -> dict[str, T] (T from additionalProperties, else Any)
    anyOf/oneOf/type lists -> a Union; a "null" arm makes it Optional
    $ref -> the definition ($defs/definitions); a recursive reference is a plain map

What a Python type cannot say (minimum, pattern, maxLength, ...) is not lost: the full schema
is still checked with `jsonschema` before a call (see ptc.tools.mcp).
"""

from __future__ import annotations

import json
import keyword
import re
import types
import typing
from typing import Any, Literal, Mapping, Optional, Union

import typing_extensions
from pydantic import ConfigDict, Field

_MAX_DEPTH = 12
_SCALAR_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool,
                                 "null": type(None)}
_REF = re.compile(r"^#/(?:\$defs|definitions)/(.+)$")


class SchemaTypes:
    """Turns the schemas of one document into annotations (definitions resolved against
    its `$defs`/`definitions`; each definition becomes one TypedDict, built once)."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        defs = root.get("$defs") or root.get("definitions") or {}
        self._defs: Mapping[str, Any] = defs if isinstance(defs, Mapping) else {}
        self._built: dict[str, Any] = {}

    def annotation(self, schema: Any, name: str = "Object", depth: int = 0,
                   resolving: frozenset[str] = frozenset()) -> Any:
        """The Python annotation of `schema` (Any for what has no closer Python type)."""
        if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
            return Any
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._ref(ref, depth, resolving)
        if "const" in schema and _is_literal_value(schema["const"]):
            return Literal[schema["const"]]  # type: ignore[valid-type]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum and all(_is_literal_value(x) for x in enum):
            values = tuple(dict.fromkeys(x for x in enum if x is not None))
            arms: list[Any] = [Literal[values]] if values else []  # type: ignore[valid-type]
            return _union(arms + [type(None)] * (None in enum))
        for key in ("anyOf", "oneOf"):
            arms = schema.get(key)
            if isinstance(arms, list) and arms:
                return _union([self.annotation(a, name, depth + 1, resolving) for a in arms])
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and all_of:
            merged = _merge_all_of(all_of, self._defs)
            return self.annotation(merged, name, depth + 1, resolving) if merged is not None else Any
        kind = schema.get("type")
        if isinstance(kind, list):
            return _union([self.annotation({**schema, "type": k}, name, depth + 1, resolving) for k in kind])
        if kind is None and "properties" in schema:
            kind = "object"
        if kind in _SCALAR_TYPES:
            return _SCALAR_TYPES[kind]
        if kind == "array":
            prefix = schema.get("prefixItems")
            if isinstance(prefix, list) and prefix and schema.get("items") is False:
                return tuple[tuple(self.annotation(s, name, depth + 1, resolving) for s in prefix)]  # type: ignore[misc]
            items = schema.get("items")
            return list[self.annotation(items, _singular(name), depth + 1, resolving)]  # type: ignore[misc]
        if kind == "object":
            return self._object(schema, name, depth, resolving)
        return Any

    def _ref(self, ref: str, depth: int, resolving: frozenset[str]) -> Any:
        m = _REF.match(ref)
        target = m.group(1) if m else None
        if target is None or target not in self._defs:
            return Any
        if target in resolving:  # a recursive type: its inner occurrences are plain maps
            return dict[str, Any]
        if target not in self._built:
            self._built[target] = self.annotation(self._defs[target], target, depth + 1, resolving | {target})
        return self._built[target]

    def _object(self, schema: Mapping[str, Any], name: str, depth: int, resolving: frozenset[str]) -> Any:
        props = schema.get("properties")
        extra = schema.get("additionalProperties", True)
        if not isinstance(props, Mapping) or not props:
            value = self.annotation(extra, name, depth + 1, resolving) if isinstance(extra, Mapping) else Any
            return dict[str, value]  # type: ignore[valid-type]
        required = set(schema.get("required") or ())
        fields = {str(k): self.annotation(s, str(k), depth + 1, resolving) for k, s in props.items()}
        title = _class_name(schema.get("title") if isinstance(schema.get("title"), str) else name)
        return typed_dict(title, fields, required, forbid_extra=extra is False)


def typed_dict(name: str, fields: Mapping[str, Any], required: set[str], *, forbid_extra: bool) -> Any:
    """A TypedDict with these keys (any strings) of which `required` must be present. Keys
    not declared are refused with `forbid_extra`, else kept (pydantic's extra="allow")."""
    base = typing_extensions.TypedDict(name, {k: t for k, t in fields.items() if k in required})  # type: ignore[operator]
    optional = {k: t for k, t in fields.items() if k not in required}
    cls = types.new_class(name, (base,), {"total": False},
                          lambda ns: ns.update({"__annotations__": optional})) if optional else base
    cls.__pydantic_config__ = ConfigDict(extra="forbid" if forbid_extra else "allow")
    return cls


_CONSTRAINTS = (("minimum", ">= {}"), ("exclusiveMinimum", "> {}"), ("maximum", "<= {}"),
                ("exclusiveMaximum", "< {}"), ("multipleOf", "a multiple of {}"), ("minLength", "at least {} characters"),
                ("maxLength", "at most {} characters"), ("pattern", "matching {}"), ("format", "format {}"),
                ("minItems", "at least {} items"), ("maxItems", "at most {} items"), ("uniqueItems", "distinct items"))


def described(annotation: Any, schema: Any) -> Any:
    """`annotation` carrying the schema's description and the constraints its type does not
    say (`>= 1, <= 50`), shown under the tool in prompts."""
    if not isinstance(schema, Mapping):
        return annotation
    text = schema.get("description")
    notes = [fmt.format(json.dumps(schema[key]) if key == "pattern" else schema[key])
             for key, fmt in _CONSTRAINTS if key in schema and schema[key] is not False]
    parts = [" ".join(text.split())] if isinstance(text, str) and text.strip() else []
    if notes:
        parts.append(f"({', '.join(notes)})")
    if parts:
        return typing.Annotated[annotation, Field(description=" ".join(parts))]
    return annotation


def python_names(keys: list[str]) -> dict[str, str]:
    """JSON property names -> distinct Python parameter names (`maxResults` stays, `from`
    becomes `from_`, `user.name` becomes `user_name`); kebab case of them is what programs write."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for key in keys:
        name = re.sub(r"\W", "_", key) or "arg"
        if name[0].isdigit():
            name = "p_" + name
        if keyword.iskeyword(name):
            name += "_"
        base, i = name, 2
        while name in taken:
            name = f"{base}_{i}"
            i += 1
        taken.add(name)
        out[key] = name
    return out


def _union(arms: list[Any]) -> Any:
    unique: list[Any] = []
    for a in arms:
        if a is Any:
            return Any
        if a not in unique:
            unique.append(a)
    if len(unique) == 1:
        return unique[0]
    none = type(None)
    rest = [a for a in unique if a is not none]
    if len(rest) == 1:
        return Optional[rest[0]]
    return Union[tuple(unique)]


def _merge_all_of(arms: list[Any], defs: Mapping[str, Any]) -> dict[str, Any] | None:
    """allOf of object schemas as one object schema (None when the arms are not all objects)."""
    merged: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
    for arm in arms:
        if isinstance(arm, Mapping) and isinstance(arm.get("$ref"), str):
            m = _REF.match(arm["$ref"])
            arm = defs.get(m.group(1)) if m else None
        if not isinstance(arm, Mapping):
            return None
        if len(arms) == 1:
            return dict(arm)
        if arm.get("type", "object") != "object" or not isinstance(arm.get("properties", {}), Mapping):
            return None
        merged["properties"].update(arm.get("properties", {}))
        merged["required"] += list(arm.get("required") or ())
    return merged


def _is_literal_value(x: Any) -> bool:
    return x is None or type(x) in (str, int, bool)


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") and len(name) > 1 else name


def _class_name(text: str) -> str:
    name = "".join(part[:1].upper() + part[1:] for part in re.split(r"\W+|_", text) if part)
    return name if name.isidentifier() and not keyword.iskeyword(name) else "Object"


__all__ = ["SchemaTypes", "typed_dict", "described", "python_names"]
