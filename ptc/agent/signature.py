"""Typed results: what `(return v)` must produce, and checking that it did.

A signature is a pydantic model, a Python type (anything pydantic's TypeAdapter takes), or
a short string written in PTC-Lisp syntax, e.g. `{total :float, items [:string]}`:
`:string :int :float :number :bool :keyword :map :vector :any :nil`, a trailing `?` for
optional/nil-able (`:int?`), `[t]` for a list of t, `{name t ...}` for a map with those keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..interpreter import values as V
from ..interpreter.printer import pr_str
from ..interpreter.reader import Coll, Lit, Sym, read

_SCALARS = {"string", "int", "integer", "float", "number", "bool", "boolean", "keyword", "map", "vector",
            "list", "any", "nil"}


@dataclass(frozen=True)
class Spec:
    """A parsed short signature node."""

    kind: str  # scalar name, "list" (of item), or "record" (fields)
    optional: bool = False
    item: "Spec | None" = None
    fields: tuple[tuple[str, "Spec"], ...] = ()

    def text(self) -> str:
        q = "?" if self.optional else ""
        if self.kind == "seq":
            return f"[{self.item.text()}]"  # type: ignore[union-attr]
        if self.kind == "record":
            return "{" + ", ".join(f"{k} {s.text()}" for k, s in self.fields) + "}"
        return f":{self.kind}{q}"


class SignatureError(ValueError):
    pass


def parse_signature(text: str) -> Spec:
    forms = read(text)
    if len(forms) != 1:
        raise SignatureError(f"a signature is one form, got {len(forms)}: {text!r}")
    return _spec(forms[0])


def _spec(f: Any) -> Spec:
    if isinstance(f, Lit) and type(f.value) is V.Keyword:
        name = f.value.name
        optional = name.endswith("?")
        name = name.rstrip("?")
        if name not in _SCALARS:
            raise SignatureError(f"unknown type :{name} (known: {', '.join(sorted(_SCALARS))})")
        return Spec(name, optional)
    if isinstance(f, Coll) and f.kind == "vector":
        if len(f.items) != 1:
            raise SignatureError("a list type is written [item-type]")
        return Spec("seq", item=_spec(f.items[0]))
    if isinstance(f, Coll) and f.kind == "map":
        fields = []
        for k, val in zip(f.items[0::2], f.items[1::2]):
            if isinstance(k, Sym):
                key = k.name
            elif isinstance(k, Lit) and type(k.value) in (V.Keyword, str):
                key = k.value.name if type(k.value) is V.Keyword else k.value
            else:
                raise SignatureError("map signature keys are names, e.g. {total :float}")
            fields.append((key, _spec(val)))
        return Spec("record", fields=tuple(fields))
    raise SignatureError("signatures use :type, [type] and {name type}")


def _check(spec: Spec, value: Any, path: str) -> str | None:
    """None when value conforms, else a message naming the first mismatch."""
    if value is None:
        return None if spec.optional or spec.kind in ("any", "nil") else f"{path or 'value'}: expected {spec.text()}, got nil"
    k = spec.kind
    t = type(value)
    ok = {
        "string": t is str, "int": t is int, "integer": t is int, "float": t in (int, float),
        "number": t in (int, float), "bool": t is bool, "boolean": t is bool, "keyword": t is V.Keyword,
        "map": t in V.MAP_TYPES, "vector": t in V.SEQUENTIAL_TYPES, "list": t in V.SEQUENTIAL_TYPES,
        "any": True, "nil": False,
    }.get(k)
    if ok is not None:
        return None if ok else f"{path or 'value'}: expected :{k}, got {V.type_name(value)} {V.short(value)}"
    if k == "seq":
        if t not in V.SEQUENTIAL_TYPES and t not in V.SET_TYPES:
            return f"{path or 'value'}: expected a list, got {V.type_name(value)} {V.short(value)}"
        for i, item in enumerate(value):
            err = _check(spec.item, item, f"{path}[{i}]")  # type: ignore[arg-type]
            if err:
                return err
        return None
    if t not in V.MAP_TYPES:
        return f"{path or 'value'}: expected a map with keys {', '.join(n for n, _ in spec.fields)}, got {V.type_name(value)}"
    for name, sub in spec.fields:
        found = V.lookup(value, V.keyword(name), V._MISSING)
        if found is V._MISSING:
            found = V.lookup(value, name, V._MISSING)
        if found is V._MISSING:
            if sub.optional:
                continue
            return f"{path}:{name}: missing"
        err = _check(sub, found, f"{path}:{name}")
        if err:
            return err
    return None


class Signature:
    """Validates returned values and renders the expectation for the prompt and feedback."""

    def __init__(self, spec: Any) -> None:
        self.raw = spec
        self.short: Spec | None = None
        self.adapter: Any = None
        if isinstance(spec, str):
            self.short = parse_signature(spec)
        else:
            from pydantic import TypeAdapter

            self.adapter = TypeAdapter(spec)

    def describe(self) -> str:
        """The expected shape in the same notation as tool signatures ({:field :type})."""
        if self.short is not None:
            return self.short.text()
        from ..tools.schema import render

        return render(self.raw, output=True)

    def validate(self, value: Any) -> tuple[Any, str | None]:
        """(python value, None) when value conforms, else (None, message with expected and got)."""
        if self.short is not None:
            err = _check(self.short, value, "")
            if err:
                return None, f"return value does not match the signature {self.short.text()}: {err}"
            return V.to_python(value), None
        from pydantic import ValidationError

        from ..tools.schema import fix_keys

        try:
            return self.adapter.validate_python(fix_keys(V.to_python(value), self.raw)), None
        except ValidationError as e:
            first = e.errors()[0]
            loc = ".".join(str(p) for p in first.get("loc", ())) or "value"
            return None, (f"return value does not match the signature {self.describe()}: {loc}: {first['msg']} "
                          f"(got {pr_str(value, max_len=120)[:120]})")
