"""Python type hints -> pydantic parameter models, JSON schemas and Clojure-flavoured types.

Type notation used in tool signatures (what the model reads in its system prompt):

    :string :int :float :bool :nil :any        scalars (:float also accepts integers)
    :map                                       a map with any keys
    :datetime :date :time :uuid                ISO strings ("2024-05-01T10:00:00")
    [T]                                        a vector of T
    #{T}                                       a set of T (a vector is accepted too)
    (tuple A B)                                a vector of exactly these items
    (map-of K V)                               a map from K to V
    {:id :int, :note :string?}                 a record (pydantic model, dataclass, TypedDict)
    (enum "a" "b")                             one of these values (keywords work: :a)
    (or A B)                                   either type
    T?                                         T or nil; on a parameter or record key:
                                               it may also be left out
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import decimal
import enum
import inspect
import re
import types
import typing
import uuid
import warnings
from collections import abc
from dataclasses import dataclass
from typing import Any, Literal, Union

import pydantic
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema

from ptc.interpreter import values as v

from .naming import kebab

EMPTY = inspect.Parameter.empty
_NoneType = type(None)


# -- type helpers -------------------------------------------------------------------------


def strip_annotated(ann: Any) -> Any:
    while typing.get_origin(ann) is typing.Annotated:
        ann = typing.get_args(ann)[0]
    return ann


def _is_union(origin: Any) -> bool:
    return origin is Union or origin is types.UnionType


def _is_typeddict(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, dict) and hasattr(ann, "__required_keys__")


def _is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def _is_dataclass_type(ann: Any) -> bool:
    return isinstance(ann, type) and dataclasses.is_dataclass(ann)


def is_record(ann: Any) -> bool:
    ann = strip_annotated(ann)
    return _is_model(ann) or _is_dataclass_type(ann) or _is_typeddict(ann)


def is_map_like(ann: Any) -> bool:
    """Would a PTC map be a natural value for this annotation?"""
    ann = strip_annotated(ann)
    origin = typing.get_origin(ann) or ann
    if _is_union(origin):
        return any(is_map_like(a) for a in typing.get_args(ann) if a is not _NoneType)
    return is_record(ann) or origin in (dict, abc.Mapping, abc.MutableMapping, typing.Mapping)


def record_fields(ann: Any, output: bool = False) -> list[tuple[str, Any, bool]]:
    """(key, annotation, required) of a record type, keys as they appear in its data (a
    model's input keys are its aliases; its output, model_dump, uses the field names)."""
    if _is_model(ann):
        out = []
        for name, f in ann.model_fields.items():
            key = name if output else (f.alias or name)
            out.append((key, f.annotation if f.annotation is not None else Any, f.is_required()))
        return out
    hints = _hints(ann)
    if _is_dataclass_type(ann):
        return [(f.name, hints.get(f.name, Any),
                 f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)  # type: ignore[misc]
                for f in dataclasses.fields(ann) if f.init]
    if _is_typeddict(ann):
        required = getattr(ann, "__required_keys__", frozenset())
        return [(k, t, k in required) for k, t in hints.items()]
    return []


def _hints(ann: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(ann, include_extras=True)
    except Exception:  # noqa: BLE001 - unresolvable forward references: treat as Any
        return {k: (Any if isinstance(t, str) else t) for k, t in getattr(ann, "__annotations__", {}).items()}


_JSON_SCALARS = frozenset({str, int, float, bool, _NoneType, None})
_JSON_CONTAINERS = frozenset({list, dict, tuple, set, frozenset})


def is_json_data(ann: Any, depth: int = 0) -> bool:
    """Whether every value of this annotation is JSON-like data as it is (no model, dataclass,
    enum, date... that would need converting). `Any` counts as JSON-like: such results enter
    programs without being walked, and a value inside them that is not JSON-like is refused
    where a program first uses it."""
    ann = strip_annotated(ann)
    if ann is Any or ann in _JSON_SCALARS:
        return True
    if depth > 8:
        return False
    if _is_typeddict(ann):
        return all(is_json_data(t, depth + 1) for t in _hints(ann).values())
    origin = typing.get_origin(ann)
    if origin is typing.Literal:
        return all(type(a) in _JSON_SCALARS for a in typing.get_args(ann))
    if _is_union(origin) or origin in _JSON_CONTAINERS:
        return all(a is Ellipsis or is_json_data(a, depth + 1) for a in typing.get_args(ann))
    return ann in _JSON_CONTAINERS


def contains_record(ann: Any, depth: int = 0) -> bool:
    if depth > 8:
        return False
    ann = strip_annotated(ann)
    if is_record(ann):
        return True
    return any(contains_record(a, depth + 1) for a in typing.get_args(ann) if not isinstance(a, (str, int)))


def fix_keys(value: Any, ann: Any, depth: int = 0) -> Any:
    """Let kebab-case keys (`:min-rating`) find snake_case fields of nested records."""
    if depth > 32 or value is None:
        return value
    ann = strip_annotated(ann)
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if _is_union(origin):
        for a in args:
            if a is not _NoneType and contains_record(a):
                value = fix_keys(value, a, depth + 1)
        return value
    if isinstance(value, list):
        if origin is tuple and args and args[-1] is not Ellipsis:
            return [fix_keys(x, a, depth + 1) for x, a in zip(value, args)] + value[len(args):]
        if origin is not None and args and origin is not dict and not issubclass_safe(origin, abc.Mapping):
            return [fix_keys(x, args[0], depth + 1) for x in value]
        return value
    if not isinstance(value, dict):
        return value
    if origin is not None and issubclass_safe(origin, abc.Mapping):
        if len(args) == 2 and contains_record(args[1]):
            return {k: fix_keys(x, args[1], depth + 1) for k, x in value.items()}
        return value
    if not is_record(ann):
        return value
    fields = {key: t for key, t, _ in record_fields(ann)}
    if _is_model(ann):  # a model also accepts its Python field names
        for name, f in ann.model_fields.items():
            fields.setdefault(name, f.annotation)
    out = {}
    for k, x in value.items():
        if isinstance(k, str) and k not in fields and k.replace("-", "_") in fields:
            k = k.replace("-", "_")
        t = fields.get(k)
        out[k] = fix_keys(x, t, depth + 1) if t is not None and contains_record(t) else x
    return out


def issubclass_safe(a: Any, b: Any) -> bool:
    try:
        return isinstance(a, type) and issubclass(a, b)
    except TypeError:
        return False


# -- Clojure-flavoured rendering of types ------------------------------------------------

_SCALARS: dict[Any, str] = {
    str: ":string", bytes: ":string", int: ":int", float: ":float", bool: ":bool",
    decimal.Decimal: ":float", _NoneType: ":nil", None: ":nil", Any: ":any", object: ":any",
    _dt.datetime: ":datetime", _dt.date: ":date", _dt.time: ":time", _dt.timedelta: ":duration",
    uuid.UUID: ":uuid", dict: ":map", list: "[:any]", tuple: "[:any]", set: "#{:any}",
    frozenset: "#{:any}",
}
_SEQUENCES = (list, tuple, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Iterator,
              abc.Collection, abc.Generator, abc.AsyncIterator, abc.AsyncIterable, abc.AsyncGenerator)
_SETS = (set, frozenset, abc.Set, abc.MutableSet)
_MAPS = (dict, abc.Mapping, abc.MutableMapping)


def optional(text: str) -> str:
    return text if text.endswith("?") else text + "?"


def render(ann: Any, depth: int = 0, seen: frozenset[Any] = frozenset(), output: bool = False) -> str:
    """The signature notation of a type (see the module docstring). With `output`, the type
    of a result: record fields with defaults are still always present (model_dump)."""
    if isinstance(ann, typing.TypeVar):
        bound = ann.__bound__
        return render(bound, depth, seen, output) if bound is not None else ":any"
    if isinstance(ann, (str, typing.ForwardRef)):
        return ":any"
    ann = strip_annotated(ann)
    try:
        scalar = _SCALARS.get(ann)
    except TypeError:  # unhashable annotation
        scalar = None
    if scalar is not None:
        return scalar
    if isinstance(ann, typing.NewType):
        return render(ann.__supertype__, depth, seen, output)
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is Literal:
        return "(enum " + " ".join(literal(a) for a in args) + ")" if len(args) > 1 else literal(args[0])
    if _is_union(origin):
        arms = [a for a in args if a is not _NoneType]
        nullable = len(arms) < len(args)
        text = render(arms[0], depth, seen, output) if len(arms) == 1 else \
            "(or " + " ".join(render(a, depth, seen, output) for a in arms) + ")"
        return optional(text) if nullable else text
    if origin is not None:
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return f"[{render(args[0], depth, seen, output)}]"
            if not args or args == ((),):
                return "[]"
            return "(tuple " + " ".join(render(a, depth, seen, output) for a in args) + ")"
        if origin in _SETS:
            return "#{" + (render(args[0], depth, seen, output) if args else ":any") + "}"
        if origin in _MAPS:
            if len(args) == 2 and not (strip_annotated(args[1]) is Any and strip_annotated(args[0]) in (str, Any)):
                return f"(map-of {render(args[0], depth, seen, output)} {render(args[1], depth, seen, output)})"
            return ":map"
        if origin in (abc.Awaitable, abc.Coroutine) and args:
            return render(args[-1], depth, seen, output)
        if origin in _SEQUENCES:
            return f"[{render(args[0], depth, seen, output)}]" if args else "[:any]"
        if origin is type:
            return ":any"
        if origin in (abc.Callable,):
            return ":fn"
        return render(origin, depth, seen, output)
    if isinstance(ann, type):
        if issubclass(ann, enum.Enum):
            vals = [m.value if isinstance(m.value, (str, int, float, bool)) else m.name for m in ann]
            return "(enum " + " ".join(literal(x) for x in vals) + ")"
        if is_record(ann):
            if depth >= 3 or ann in seen:
                return ":map"
            fields = record_fields(ann, output)
            parts = []
            for key, t, required in fields:
                text = render(t, depth + 1, seen | {ann}, output)
                if output and not _is_typeddict(ann):
                    required = True
                parts.append(f":{key} {text if required else optional(text)}")
            return "{" + ", ".join(parts) + "}"
        for base, text in _SCALARS.items():  # subclasses of str, int, dict...
            if isinstance(base, type) and base not in (object,) and issubclass(ann, base):
                return text
        if issubclass(ann, abc.Mapping):
            return ":map"
        if issubclass(ann, (list, tuple, abc.Sequence)):
            return "[:any]"
        return ":" + (kebab(ann.__name__) or "any")
    if ann is Ellipsis or ann is EMPTY:
        return ":any"
    return ":any"


def literal(x: Any) -> str:
    from ptc.interpreter.printer import pr_str

    if isinstance(x, enum.Enum):
        x = x.value
    try:
        return pr_str(v.from_python(x))
    except Exception:  # noqa: BLE001
        return repr(x)


# -- parameters --------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One parameter of a tool."""

    name: str  # the Python name
    key: str  # the name shown to programs (kebab case)
    field: str  # the field of the parameters model (== name unless that would clash)
    annotation: Any
    kind: Any  # inspect.Parameter kind
    default: Any  # inspect.Parameter.empty when required
    description: str = ""
    accepts_none: bool = True
    fix_keys: bool = False

    @property
    def required(self) -> bool:
        return self.default is EMPTY and self.kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                           inspect.Parameter.VAR_KEYWORD)


_RESERVED = frozenset(dir(BaseModel))


def _field_name(name: str, taken: set[str]) -> str:
    if not name.startswith("_") and name not in _RESERVED and not name.startswith("model_"):
        return name
    i = 0
    while f"p{i}_{name.strip('_')}" in taken:
        i += 1
    return f"p{i}_{name.strip('_')}"


def _accepts_none(ann: Any) -> bool:
    ann = strip_annotated(ann)
    if ann is Any or ann is None or ann is _NoneType or ann is object:
        return True
    origin = typing.get_origin(ann)
    if _is_union(origin):
        return any(_accepts_none(a) for a in typing.get_args(ann))
    if origin is Literal:
        return None in typing.get_args(ann)
    return False


def globals_of(fn: Any) -> dict[str, Any]:
    """The module namespace a callable's annotations were written in."""
    import functools

    target = fn
    while isinstance(target, functools.partial):
        target = target.func
    target = inspect.unwrap(target) if callable(target) else target
    if not inspect.isroutine(target) and not isinstance(target, type):
        target = getattr(type(target), "__call__", target)  # a callable object
    target = getattr(target, "__func__", target)  # a bound method
    g = getattr(target, "__globals__", None)
    if isinstance(g, dict):
        return g
    module = inspect.getmodule(target)
    return vars(module) if module is not None else {}


def namespace(fn: Any, localns: dict[str, Any] | None) -> dict[str, Any]:
    """Names an annotation may use: the function's module first, then the local scope that
    created the tool (local classes under `from __future__ import annotations`)."""
    return {**(localns or {}), **globals_of(fn)}


def resolve(ann: Any, fn: Any, localns: dict[str, Any] | None = None) -> Any:
    """An annotation as a type: strings (`from __future__ import annotations`) are evaluated
    in the function's module and the scope that defined it; unresolvable ones mean Any."""
    if ann is EMPTY:
        return Any
    if isinstance(ann, str):
        try:
            return eval(ann, namespace(fn, localns))  # noqa: S307 - the tool author's annotation
        except Exception:  # noqa: BLE001
            return Any
    return ann


def build_params(fn: Any, sig: inspect.Signature, docs: dict[str, str],
                 localns: dict[str, Any] | None = None) -> tuple[Param, ...]:
    params: list[Param] = []
    taken: set[str] = set(sig.parameters)
    for p in sig.parameters.values():
        ann = resolve(p.annotation, fn, localns)
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            ann = list[ann] if ann is not Any else list  # type: ignore[valid-type]
        elif p.kind is inspect.Parameter.VAR_KEYWORD:
            ann = dict[str, ann] if ann is not Any else dict  # type: ignore[valid-type]
        field = _field_name(p.name, taken - {p.name})
        taken.add(field)
        params.append(Param(
            name=p.name, key=kebab(p.name) or p.name, field=field, annotation=ann, kind=p.kind,
            default=p.default, description=docs.get(p.name) or _annotated_description(ann),
            accepts_none=_accepts_none(ann), fix_keys=contains_record(ann),
        ))
    return tuple(params)


def _annotated_description(ann: Any) -> str:
    """`Annotated[int, Field(description="...")]` -> the description."""
    if typing.get_origin(ann) is typing.Annotated:
        for meta in typing.get_args(ann)[1:]:
            text = getattr(meta, "description", None)
            if isinstance(text, str) and text:
                return " ".join(text.split())
    return ""


def build_model(model_name: str, params: tuple[Param, ...]) -> type[BaseModel]:
    """The pydantic model validating a tool's keyword arguments (**kwargs become extras)."""
    fields: dict[str, Any] = {}
    extra = "forbid"
    for p in params:
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            extra = "allow"
            continue
        fields[p.field] = _field_def(p)
    config = ConfigDict(extra=extra, arbitrary_types_allowed=True, protected_namespaces=(),  # type: ignore[typeddict-item]
                        populate_by_name=True)
    try:
        return pydantic.create_model(model_name, __config__=config, **fields)
    except Exception:  # noqa: BLE001 - an annotation pydantic cannot handle is accepted as Any
        safe = {}
        for p in params:
            if p.kind is inspect.Parameter.VAR_KEYWORD:
                continue
            try:
                pydantic.create_model("Probe", __config__=config, probe=(p.annotation, ...))
                safe[p.field] = _field_def(p)
            except Exception:  # noqa: BLE001 - e.g. typing.TypedDict on Python < 3.12
                safe[p.field] = _field_def(p, Any)
        return pydantic.create_model(model_name, __config__=config, **safe)


def _field_def(p: Param, ann: Any = None) -> tuple[Any, Any]:
    kw: dict[str, Any] = {}
    if p.description:
        kw["description"] = p.description
    if p.field != p.name:
        kw["alias"] = p.name
    if p.kind is inspect.Parameter.VAR_POSITIONAL:
        default: Any = []
    else:
        default = ... if p.default is EMPTY else p.default
    return (p.annotation if ann is None else ann, Field(default, **kw))


def extras_model(params: tuple[Param, ...]) -> type[BaseModel] | None:
    """For `**kwargs: T`: a one-field model (`value: T`) validating each extra argument."""
    for p in params:
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            args = typing.get_args(p.annotation)
            if args and strip_annotated(args[1]) is not Any:
                try:
                    return pydantic.create_model(  # type: ignore[no-any-return]
                        "Extra", __config__=ConfigDict(arbitrary_types_allowed=True), value=(args[1], ...))
                except Exception:  # noqa: BLE001 - not validatable: passed as is
                    return None
    return None


# -- JSON schema ---------------------------------------------------------------------------


class _Schema(GenerateJsonSchema):
    def handle_invalid_for_json_schema(self, schema: Any, error_info: str) -> dict[str, Any]:
        return {}

    def emit_warning(self, kind: Any, detail: str) -> None:
        return None


def json_schema(model: type[BaseModel], params: tuple[Param, ...]) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        schema = model.model_json_schema(schema_generator=_Schema)
    schema = _strip_titles(schema)
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    order = ("type", "properties", "required", "additionalProperties", "$defs")
    schema = {k: schema[k] for k in order if k in schema} | {k: x for k, x in schema.items() if k not in order}
    for p in params:
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            extra = extras_model(params)
            if extra is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        sub = _strip_titles(extra.model_json_schema(schema_generator=_Schema))
                        value = sub.get("properties", {}).get("value", True)
                        if "$defs" in sub:
                            schema.setdefault("$defs", {}).update(sub["$defs"])
                        schema["additionalProperties"] = value
                    except Exception:  # noqa: BLE001
                        schema["additionalProperties"] = True
            else:
                schema["additionalProperties"] = True
    return schema


def _strip_titles(node: Any, container: bool = False) -> Any:
    """Drop pydantic's auto-generated "title" keys (noise in a prompt), keeping properties
    or definitions that happen to be *named* title."""
    if isinstance(node, dict):
        out = {}
        for k, x in node.items():
            if not container and k == "title" and isinstance(x, str):
                continue
            out[k] = _strip_titles(x, container=(not container and k in ("properties", "$defs", "definitions",
                                                                          "patternProperties")))
        return out
    if isinstance(node, list):
        return [_strip_titles(x) for x in node]
    return node


# -- validation errors ------------------------------------------------------------------------

_EXPECTED = {
    "int_type": "integer", "int_parsing": "integer", "int_from_float": "integer (a whole number)",
    "float_type": "number", "float_parsing": "number", "decimal_type": "number",
    "decimal_parsing": "number", "string_type": "string", "bytes_type": "string",
    "bool_type": "boolean", "bool_parsing": "boolean", "list_type": "vector",
    "tuple_type": "vector", "set_type": "set or vector", "frozen_set_type": "set or vector",
    "iterable_type": "vector", "dict_type": "map", "mapping_type": "map", "model_type": "map",
    "model_attributes_type": "map", "dataclass_type": "map", "dataclass_exact_type": "map",
    "none_required": "nil", "datetime_type": "ISO date-time string",
    "datetime_parsing": "ISO date-time string (e.g. \"2024-05-01T10:00:00\")",
    "datetime_from_date_parsing": "ISO date-time string (e.g. \"2024-05-01T10:00:00\")",
    "date_type": "ISO date string", "date_parsing": "ISO date string (e.g. \"2024-05-01\")",
    "date_from_datetime_parsing": "ISO date string (e.g. \"2024-05-01\")",
    "time_type": "ISO time string", "time_parsing": "ISO time string (e.g. \"10:00:00\")",
    "uuid_type": "UUID string", "uuid_parsing": "UUID string",
    "callable_type": "function", "is_instance_of": "a value of a Python type programs cannot build",
}


def _quote(text: str) -> str:
    return re.sub(r"'([^']*)'", r'"\1"', text)


def expected_of(err: dict[str, Any]) -> str | None:
    t = err.get("type", "")
    ctx = err.get("ctx") or {}
    if t in ("literal_error", "enum") and "expected" in ctx:
        return "one of " + _quote(str(ctx["expected"])).replace(" or ", ", ")
    if t == "is_instance_of" and "class" in ctx:
        return f"a {ctx['class']} (not something a program can pass)"
    return _EXPECTED.get(t)


MISSING: Any = object()


def describe_value(x: Any) -> str:
    """`string "ten"`, `integer 5`, `nil`, `vector [1 2]` - PTC type and value, short."""
    if x is None:
        return "nil"
    if x is MISSING:
        return "nothing"
    try:
        return f"{v.type_name(x)} {v.short(x, 40)}"
    except Exception:  # noqa: BLE001
        return type(x).__name__



def lookup_path(raw: Any, loc: tuple[Any, ...]) -> tuple[str, Any]:
    """Follow a pydantic error location (below the parameter) through the value the program
    passed. Returns the printable path (`[2].price`; union arms such as `int` or
    `function-after[...]` dropped) and the value found there (`MISSING` when absent)."""
    path = ""
    cur = raw
    last = len(loc) - 1
    for i, seg in enumerate(loc):
        is_map = type(cur) in v.MAP_TYPES or isinstance(cur, dict)
        if isinstance(seg, int) and not isinstance(seg, bool) and not is_map:
            if type(cur) in v.SEQUENTIAL_TYPES or isinstance(cur, (list, tuple)):
                try:
                    cur = cur[seg] if type(cur) is not v.LazySeq else list(cur)[seg]
                except Exception:  # noqa: BLE001
                    cur = MISSING
                path += f"[{seg}]"
            continue
        if is_map:
            found = MISSING
            for k in (v.Keyword(str(seg)), seg, v.Keyword(str(seg).replace("_", "-")),
                      str(seg).replace("_", "-")):
                try:
                    if k in cur:
                        found = cur[k]
                        break
                except TypeError:
                    continue
            if found is not MISSING or i == last:
                path += f".{seg}"
                cur = found
        # otherwise: a union arm, not part of the data path
    return path, cur

