"""The analyzed tree: what the analyzer produces and the compiler consumes.

Symbols are resolved (local binding, user def, builtin, data, tool) and macros are
expanded, so the compiler never looks at names or surface syntax again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .registry import Builtin


@dataclass(eq=False)
class Node:
    line: int
    col: int


@dataclass(eq=False)
class Binding:
    """A local name; `py` is its unique Python identifier in generated code."""

    name: str
    py: str
    fn_depth: int
    box: "Binding | None" = None  # letfn names live in a shared list: box.py[index]
    index: int = 0


@dataclass(eq=False)
class Const(Node):
    value: Any


@dataclass(eq=False)
class Local(Node):
    binding: Binding


@dataclass(eq=False)
class GlobalRef(Node):
    name: str


@dataclass(eq=False)
class BuiltinRef(Node):
    builtin: Builtin


@dataclass(eq=False)
class RuntimeRef(Node):
    """A runtime helper (destructuring, lookups) that is not a user-visible builtin."""

    name: str


@dataclass(eq=False)
class DataRef(Node):
    name: str


@dataclass(eq=False)
class ToolRef(Node):
    name: str


@dataclass(eq=False)
class HistoryRef(Node):
    index: int


@dataclass(eq=False)
class If(Node):
    test: Node
    then: Node
    else_: Node


@dataclass(eq=False)
class Do(Node):
    body: list[Node]


@dataclass(eq=False)
class Let(Node):
    bindings: list[tuple[Binding, Node]]
    body: Node


@dataclass(eq=False)
class Loop(Node):
    bindings: list[tuple[Binding, Node]]
    body: Node


@dataclass(eq=False)
class Recur(Node):
    targets: list[Binding]
    args: list[Node]


@dataclass(eq=False)
class Arity:
    params: list[Binding]
    rest: Binding | None
    body: Node
    has_recur: bool = False


@dataclass(eq=False)
class Fn(Node):
    name: str | None
    self_binding: Binding | None
    arities: list[Arity]
    captures: dict[int, Binding] = field(default_factory=dict)
    doc: str | None = None


@dataclass(eq=False)
class Letfn(Node):
    fns: list[tuple[Binding, Fn]]
    body: Node
    captures: dict[int, Binding] = field(default_factory=dict)


@dataclass(eq=False)
class Call(Node):
    fn: Node
    args: list[Node]


@dataclass(eq=False)
class KeywordCall(Node):
    key: Any
    target: Node
    default: Node | None


@dataclass(eq=False)
class ToolCall(Node):
    name: str
    args: list[Node]


@dataclass(eq=False)
class Def(Node):
    name: str
    value: Node
    doc: str | None = None


@dataclass(eq=False)
class VectorLit(Node):
    items: list[Node]


@dataclass(eq=False)
class MapLit(Node):
    pairs: list[tuple[Node, Node]]


@dataclass(eq=False)
class SetLit(Node):
    items: list[Node]


@dataclass(eq=False)
class And(Node):
    items: list[Node]


@dataclass(eq=False)
class Or(Node):
    items: list[Node]


@dataclass(eq=False)
class Case(Node):
    expr: Node
    clauses: list[tuple[list[Any], Node]]
    default: Node | None


@dataclass(eq=False)
class ForClause:
    """One clause of `for`/`doseq`: kind is bind, let, when or while."""

    kind: str
    binding: Binding | None = None
    coll: Node | None = None
    lets: list[tuple[Binding, Node]] | None = None
    test: Node | None = None


@dataclass(eq=False)
class For(Node):
    clauses: list[ForClause]
    body: Node
    collect: bool  # True for `for` (a lazy seq of results), False for `doseq` (nil)
    # for `for`: the outer locals it uses, which its lazy seq keeps (as a fn literal's captures)
    captures: dict[int, Binding] = field(default_factory=dict)


@dataclass(eq=False)
class Return(Node):
    value: Node


@dataclass(eq=False)
class Fail(Node):
    value: Node


@dataclass(eq=False)
class Throw(Node):
    value: Node


@dataclass(eq=False)
class Try(Node):
    body: Node
    catch_binding: Binding | None
    catch_body: Node | None
    finally_body: Node | None
