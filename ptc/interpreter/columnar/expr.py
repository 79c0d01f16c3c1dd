"""Column expressions: what a one-argument fn computes from its argument's columns.

A column expression is a tuple tree, made once when a program compiles (never per call):

    ("arg",)                the argument itself (a row of a table, a value of a column)
    ("col", key, default)   (key arg default): a column of a table
    ("lit", value)          a constant (nil, boolean, number, string, keyword, date, set)
    ("cap", name)           a local the fn captured, read from the fn's closure at run time
    ("op", name, a, ...)    a builtin applied to sub-expressions (its registry entry's column_op)
    ("and", a, ...)  ("or", a, ...)
    ("in", set, x)          (#{...} x): x when it is a member
    ("has", set, x)         (contains? #{...} x)
    ("lookup", m, x[, d])   (m x), (get m x) or (get m x d), m a captured map: a join through a
                            lookup map (a captured set or vector called: ("each", None, m, x))
    ("each", name, a, ...)  a pure builtin without a column op (its registry entry says `pure`),
                            called once per distinct combination of its arguments' values (name
                            None: the first argument, a captured collection, called); its
                            arguments may also be ("const", v) (a collection constant or a
                            captured collection) and ("fnval", name) (a pure builtin passed as a
                            value: `(apply str ...)`), and other each nodes, whose values stay
                            Python values in between
    ("where", key, op, v)   ptc's (where key op v) / (where key) (op None)
    ("all", p, ...)  ("any", p, ...)  ("none", p, ...)   all-of / any-of / none-of
    ("rowmap", base, ops)   a map made from the row, only as a fn's whole value (what `map`
                            computes as a new table: a derived column): base "row" (the row's
                            own keys) or "empty" (a map literal), then ops in order:
                            ("assoc", k, e), ("dissoc", k), ("select", (k, ...)), ("rename",
                            new, old) (the row's old column under a new key, if it has one),
                            each e of the original row: assoc, dissoc, select-keys, update,
                            merge of a map literal, rename-keys, a literal {:k e ...}, threaded
                            with -> or not, after a let

A fn whose body is anything else gets a reason instead (a string naming what stopped it), so
`explain` can say why its call ran row by row. `expr_of` reads either back from a fn value.
"""

from __future__ import annotations

import datetime
from typing import Any

from .. import nodes as n
from ..values import MAP_TYPES, SET_TYPES, VECTOR_TYPES, FSet, Keyword, Regex

_SCALARS = (type(None), bool, int, float, str, Keyword, datetime.date, datetime.datetime)
ATTR = "_ptc_col"  # the attribute a fn carries: its column expression, or why it has none
NODE_ATTR = "_ptc_node"  # a fn's analyzed node, which columnar.folds reads as a plan of folds per group


class _NotColumn(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def scalar(x: Any) -> bool:
    """A value a column expression may hold as a constant."""
    if type(x) in _SCALARS or type(x) is Regex:  # a regex: a constant only re-find/re-matches compute with
        return True
    return type(x) is FSet and all(type(y) in _SCALARS for y in x)


def of_fn_node(node: n.Fn) -> tuple[Any, ...] | str | None:
    """The column expression of a fn literal, a reason it has none, or None when it is not a
    one-argument fn (nothing to say: no builtin calls it with a row)."""
    if len(node.arities) != 1:
        return None
    a = node.arities[0]
    if a.rest is not None or len(a.params) != 1:
        return None
    if a.has_recur:
        return "fn body uses recur: not a column expression"
    captured = {id(b) for b in node.captures.values()}
    env = {id(a.params[0]): ("arg",)}
    try:
        made = _row_map(a.body, env, captured)
        return made if made is not None else _translate(a.body, env, captured)
    except _NotColumn as e:
        return e.reason


def _row_map(node: n.Node, env: dict[int, tuple[Any, ...]], captured: set[int]) -> tuple[Any, ...] | None:
    """("rowmap", base, ops) when node makes a map from the fn's row (see the module's table),
    None when it is no such form (the caller translates it as a value); _NotColumn when it is
    one whose keys or values are not column expressions."""
    if type(node) is n.Let:
        return _row_map(node.body, _let(node, env, captured), captured)  # type: ignore[attr-defined]
    if type(node) is n.MapLit:
        return ("rowmap", "empty", tuple(("assoc", _key(k), _translate(x, env, captured)) for k, x in node.pairs))
    if not (type(node) is n.Call and type(node.fn) is n.BuiltinRef and node.args
            and node.fn.builtin.row_map is not None):  # type: ignore[attr-defined]
        return None
    name, args = node.fn.builtin.row_map, node.args  # type: ignore[attr-defined]
    target = args[0]
    base: tuple[Any, ...] | None
    if type(target) is n.Local and env.get(id(target.binding)) == ("arg",):  # type: ignore[attr-defined]
        base = ("rowmap", "row", ())
    else:
        base = _row_map(target, env, captured)
        if base is None:
            return None
    ops = list(base[2])
    rest = args[1:]
    if name == "assoc" and rest and len(rest) % 2 == 0:
        ops += [("assoc", _key(rest[i]), _translate(rest[i + 1], env, captured)) for i in range(0, len(rest), 2)]
    elif name == "dissoc":
        ops += [("dissoc", _key(k)) for k in rest]
    elif name == "select-keys" and len(rest) == 1 and type(rest[0]) is n.VectorLit:
        ops.append(("select", tuple(_key(k) for k in rest[0].items)))  # type: ignore[attr-defined]
    elif name == "select-keys" and len(rest) == 1 and type(rest[0]) is n.Const \
            and type(rest[0].value) in VECTOR_TYPES and all(type(k) is Keyword for k in rest[0].value):  # type: ignore[attr-defined]
        ops.append(("select", tuple(rest[0].value)))  # type: ignore[attr-defined]
    elif name == "update" and len(rest) >= 2:
        ops.append(("assoc", _key(rest[0]), _updated(rest[0], rest[1], rest[2:], env, captured)))
    elif name == "merge" and all(type(m) is n.MapLit or _constant_map(m) for m in rest):
        for m in rest:
            if type(m) is n.MapLit:
                ops += [("assoc", _key(k), _translate(x, env, captured)) for k, x in m.pairs]  # type: ignore[attr-defined]
            else:
                ops += [("assoc", k, ("lit", x)) for k, x in m.value.items()]  # type: ignore[attr-defined]
    elif name == "rename-keys" and len(rest) == 1 and (type(rest[0]) is n.MapLit or _constant_map(rest[0])) \
            and base[1] == "row" and not base[2]:  # of the row itself: its keys are the table's columns
        pairs = [(_key(old), _key(new)) for old, new in rest[0].pairs] if type(rest[0]) is n.MapLit else [  # type: ignore[attr-defined]
            (old, new) for old, new in rest[0].value.items()]  # type: ignore[attr-defined]
        if not all(type(new) is Keyword for _, new in pairs):
            raise _NotColumn("fn body renames keys to keys that are not keywords: not a column expression")
        ops += [("dissoc", old) for old, _ in pairs] + [("rename", new, old) for old, new in pairs]
    else:
        raise _NotColumn(f"fn body calls {node.fn.builtin.qualified} in a way a table's columns do not compute")  # type: ignore[attr-defined]
    return ("rowmap", base[1], tuple(ops))


def _constant_map(node: n.Node) -> bool:
    """node is a constant map of keywords to constants a column holds (`{:v 0 :new "x"}`)."""
    m = getattr(node, "value", None)
    return type(node) is n.Const and type(m) in MAP_TYPES and all(
        type(k) is Keyword and scalar(x) and type(x) is not FSet for k, x in m.items())


def _key(node: n.Node) -> Keyword:
    if type(node) is n.Const and type(node.value) is Keyword:  # type: ignore[attr-defined]
        return node.value  # type: ignore[attr-defined]
    raise _NotColumn("fn body makes a map with a key that is not a keyword: not a column expression")


def _updated(key: n.Node, f: n.Node, args: list[n.Node], env: dict[int, tuple[Any, ...]],
             captured: set[int]) -> tuple[Any, ...]:
    """(update row k f args...)'s new value: f of the old one, f a builtin with a column op or
    a literal fn of one argument."""
    old = ("col", _key(key), None)
    if type(f) is n.BuiltinRef and f.builtin.column_op is not None:  # type: ignore[attr-defined]
        return ("op", f.builtin.column_op, old, *[_translate(x, env, captured) for x in args])  # type: ignore[attr-defined]
    if type(f) is n.Fn and not args and len(f.arities) == 1 and f.arities[0].rest is None \
            and len(f.arities[0].params) == 1 and not f.arities[0].has_recur:
        return _translate(f.arities[0].body, {**env, id(f.arities[0].params[0]): old}, captured)
    raise _NotColumn("fn body updates a key with a fn that is not a column expression")


def _let(node: n.Node, env: dict[int, tuple[Any, ...]], captured: set[int]) -> dict[int, tuple[Any, ...]]:
    """env with a let's bindings: each a column expression, or ("fn", builtin) for a builtin
    with a column op bound to be called (condp's predicate: `(let [p >] (p 500 x))`)."""
    env = dict(env)
    for b, value in node.bindings:  # type: ignore[attr-defined]
        if type(value) is n.BuiltinRef and value.builtin.column_op is not None:  # type: ignore[attr-defined]
            env[id(b)] = ("fn", value)
        else:
            env[id(b)] = _translate(value, env, captured)
    return env


def _translate(node: n.Node, env: dict[int, tuple[Any, ...]], captured: set[int]) -> tuple[Any, ...]:
    t = type(node)
    if t is n.Const:
        if not scalar(node.value):  # type: ignore[attr-defined]
            raise _NotColumn("fn body holds a collection constant: not a column expression")
        return ("lit", node.value)  # type: ignore[attr-defined]
    if t is n.Local:
        b = node.binding  # type: ignore[attr-defined]
        if id(b) in env:
            if env[id(b)][0] == "fn":
                raise _NotColumn(f"fn body uses {b.name}, a function, as a value: not a column expression")
            return env[id(b)]
        if id(b) in captured and b.box is None:
            return ("cap", b.py)
        raise _NotColumn(f"fn body uses local {b.name}: not a column expression")
    if t is n.KeywordCall:
        return _column(node.key, _translate(node.target, env, captured),  # type: ignore[attr-defined]
                       node.default, env, captured)  # type: ignore[attr-defined]
    if t is n.And or t is n.Or:
        return ("and" if t is n.And else "or",
                *[_translate(x, env, captured) for x in node.items])  # type: ignore[attr-defined]
    if t is n.Let:
        return _translate(node.body, _let(node, env, captured), captured)  # type: ignore[attr-defined]
    if t is n.Case:  # the tests in order, (= x c) each; no match and no default: the row path's error
        x = _translate(node.expr, env, captured)  # type: ignore[attr-defined]
        out = (_translate(node.default, env, captured) if node.default is not None  # type: ignore[attr-defined]
               else ("fail", "case: no matching clause"))
        for consts, result in reversed(node.clauses):  # type: ignore[attr-defined]
            if not consts or not all(scalar(c) and type(c) is not FSet for c in consts):
                raise _NotColumn("fn body uses case with constants that are not numbers, strings, keywords or dates")
            tests = [("op", "=", x, ("lit", c)) for c in consts]
            out = ("if", tests[0] if len(tests) == 1 else ("or", *tests), _translate(result, env, captured), out)
        return out
    if t is n.If:  # when, cond, if-let, when-let, if-not too: each branch computed on the rows that take it
        return ("if", *(_translate(x, env, captured) for x in (node.test, node.then, node.else_)))  # type: ignore[attr-defined]
    if t is n.VectorLit:  # a key of several parts: group-by numbers its combinations, as (juxt ...)
        return ("juxt", *(_translate(x, env, captured) for x in node.items))  # type: ignore[attr-defined]
    if t is n.Call:
        return _call(node, env, captured)  # type: ignore[arg-type]
    raise _NotColumn(f"fn body uses {_form_name(node)}: not a column expression")


def _column(key: Any, target: tuple[Any, ...], default: n.Node | None,
            env: dict[int, tuple[Any, ...]], captured: set[int]) -> tuple[Any, ...]:
    if target != ("arg",):
        raise _NotColumn("fn body reads a nested key: not a column expression")
    if type(key) is not Keyword and type(key) is not str:
        raise _NotColumn("fn body looks up a key that is not a keyword or string: not a column expression")
    dflt = None
    if default is not None:
        d = _translate(default, env, captured)
        if d[0] != "lit":
            raise _NotColumn("fn body's lookup default is not a constant: not a column expression")
        dflt = d[1]
    return ("col", key, dflt)


def _call(node: n.Call, env: dict[int, tuple[Any, ...]], captured: set[int]) -> tuple[Any, ...]:
    head = node.fn
    th = type(head)
    if th is n.Const and type(head.value) is FSet and len(node.args) == 1:  # type: ignore[attr-defined]
        return ("in", _translate(head, env, captured), _translate(node.args[0], env, captured))
    if th is n.Const and type(head.value) is Keyword and 1 <= len(node.args) <= 2:  # type: ignore[attr-defined]
        return _column(head.value, _translate(node.args[0], env, captured),  # type: ignore[attr-defined]
                       node.args[1] if len(node.args) == 2 else None, env, captured)
    if th is n.RuntimeRef:
        name = head.name  # type: ignore[attr-defined]
        if name == "map_for_destructure" and len(node.args) == 1:
            return _translate(node.args[0], env, captured)
        if name == "no_matching_clause":  # condp with no default: the row path's error where a row gets there
            return ("fail", "No matching clause")
        if name == "get" and len(node.args) in (2, 3) and type(node.args[1]) is n.Const:
            return _column(node.args[1].value, _translate(node.args[0], env, captured),  # type: ignore[attr-defined]
                           node.args[2] if len(node.args) == 3 else None, env, captured)
        raise _NotColumn("fn body destructures beyond map keys: not a column expression")
    if th is n.Local and type(env.get(id(head.binding))) is tuple and env[id(head.binding)][0] == "fn":  # type: ignore[attr-defined]
        head = env[id(head.binding)][1]  # type: ignore[attr-defined]
        return ("op", head.builtin.column_op, *[_translate(x, env, captured) for x in node.args])  # type: ignore[attr-defined]
    if th is n.Local and len(node.args) == 1 and id(head.binding) in captured:  # type: ignore[attr-defined]
        return ("lookup", _translate(head, env, captured), _translate(node.args[0], env, captured))
    if th is n.GlobalRef:  # a defn helper: its body, with its parameters bound, once it is known (_bind)
        return ("call", head.name, *[_translate(x, env, captured) for x in node.args])  # type: ignore[attr-defined]
    if th is not n.BuiltinRef:
        raise _NotColumn(f"fn body calls {_form_name(head)}: not a column expression")
    name = head.builtin.qualified  # type: ignore[attr-defined]
    if name == "get" and len(node.args) in (2, 3) and type(node.args[0]) is n.Local \
            and id(node.args[0].binding) in captured:  # type: ignore[attr-defined]
        return ("lookup", *[_translate(x, env, captured) for x in node.args])
    if name == "get" and len(node.args) in (2, 3) and type(node.args[1]) is n.Const:
        return _column(node.args[1].value, _translate(node.args[0], env, captured),  # type: ignore[attr-defined]
                       node.args[2] if len(node.args) == 3 else None, env, captured)
    if name == "contains?" and len(node.args) == 2:
        s = _translate(node.args[0], env, captured)
        if s[0] == "lit" and type(s[1]) is not FSet:
            raise _NotColumn("fn body calls contains? on a non-set: not a column expression")
        return ("has", s, _translate(node.args[1], env, captured))
    if name == "vector" and node.args:  # (vector a b) is the vector literal [a b]
        return ("juxt", *(_translate(x, env, captured) for x in node.args))
    op = head.builtin.column_op  # type: ignore[attr-defined]
    if op is None:
        applied = name == "apply" and node.args and type(node.args[0]) is n.BuiltinRef \
            and node.args[0].builtin.pure  # type: ignore[attr-defined]
        if head.builtin.pure or applied:  # type: ignore[attr-defined]
            return ("each", name, *[_argument(x, env, captured) for x in node.args])
        raise _NotColumn(f"fn body calls {name}: not a column expression")
    return ("op", op, *[_translate(x, env, captured) for x in node.args])


def _argument(node: n.Node, env: dict[int, tuple[Any, ...]], captured: set[int]) -> tuple[Any, ...]:
    """An argument of an each node: also a collection constant or a pure builtin as a value."""
    if type(node) is n.Const and not scalar(node.value):  # type: ignore[attr-defined]
        return ("const", node.value)  # type: ignore[attr-defined]
    if type(node) is n.BuiltinRef:
        if not node.builtin.pure:  # type: ignore[attr-defined]
            raise _NotColumn(f"fn body passes {node.builtin.qualified} as a value: not a column expression")  # type: ignore[attr-defined]
        return ("fnval", node.builtin.qualified)  # type: ignore[attr-defined]
    return _translate(node, env, captured)


def _form_name(node: n.Node) -> str:
    names = {n.If: "if", n.Do: "do", n.Loop: "loop", n.Fn: "a nested fn", n.Case: "case", n.For: "for",
             n.Try: "try", n.ToolCall: "a tool call", n.VectorLit: "a vector literal", n.MapLit: "a map literal",
             n.SetLit: "a set literal", n.GlobalRef: "a def'd name", n.DataRef: "data/...", n.Letfn: "letfn"}
    if type(node) is n.GlobalRef:
        return f"{node.name} (a def'd name)"  # type: ignore[attr-defined]
    return names.get(type(node), type(node).__name__.lower())


# -- at run time ---------------------------------------------------------------------------


def expr_of(f: Any) -> tuple[Any, ...] | str:
    """The column expression of fn value f with its captured locals bound, or why there is none."""
    if type(f) is Keyword:
        return ("col", f, None)
    e = getattr(f, ATTR, None)
    if e is None:
        e = _builtin_expr(f)
    if e is None:
        return f"{_fn_label(f)} is not a fn literal over keyword lookups: not a column expression"
    if type(e) is str:
        return e
    try:
        return _bind(e, f)
    except _NotColumn as err:
        return err.reason


def _builtin_expr(f: Any) -> tuple[Any, ...] | None:
    """(op %) for a builtin passed as a fn that has a column op (`(filter pos? xs)`, `(remove
    nil? xs)`, `(comp pos? :x)`): the op of the argument itself, which a column's values are."""
    q = getattr(f, "__qualname__", None)
    if type(q) is not str or not q.startswith("ptc:"):
        return None
    from ..registry import REGISTRY

    b = REGISTRY.get(q[4:])
    return ("op", b.column_op, ("arg",)) if b is not None and b.fn is f and b.column_op is not None else None


_MAX_INLINE = 8  # defn helpers calling helpers deeper than this are not inlined


def _bind(e: tuple[Any, ...], f: Any, depth: int = 0, inner: bool = False) -> tuple[Any, ...]:
    """e with its captured locals' values and its defn helpers' bodies in place (inner: an
    argument of an each node, which may also be a collection)."""
    head = e[0]
    if head == "call":
        return _inlined(e[1], [_bind(x, f, depth) for x in e[2:]], f, depth)
    if head == "cap":
        value = _captured(e[1], f)
        if scalar(value):
            return ("lit", value)
        if type(value) in SET_TYPES and type(value) is not FSet and all(type(y) in _SCALARS for y in value):
            return ("lit", FSet(value))  # a set built at run time (into #{} ...): a constant set
        if inner and _collection(value):
            return ("const", value)
        raise _NotColumn("fn body uses a captured local that is not a number, string, keyword, "
                         "date or set of them: not a column expression")
    if head in ("lit", "col", "arg", "where", "const", "fnval"):
        return e
    if head == "rowmap":
        return ("rowmap", e[1], tuple((op[0], op[1], _bind(op[2], f)) if op[0] == "assoc" else op for op in e[2]))
    if head == "lookup" and e[1][0] == "cap":
        return _called(_captured(e[1][1], f), [_bind(x, f, depth) for x in e[2:]])
    if head == "each":
        return ("each", e[1], *[_bind(x, f, depth, True) for x in e[2:]])
    return (head, *[_bind(x, f, depth) if type(x) is tuple else x for x in e[1:]])


def _captured(name: str, f: Any) -> Any:
    """The value of local `name` that fn f closed over."""
    code = getattr(f, "__code__", None)
    names = code.co_freevars if code is not None else ()
    if name not in names:
        raise _NotColumn("fn body uses a captured local: not a column expression")
    return f.__closure__[names.index(name)].cell_contents


def _collection(x: Any) -> bool:
    """A map, vector or set value (what an each node may take as a constant: calling a builtin
    on it has no effect, where a captured fn might have one)."""
    return type(x) in MAP_TYPES or type(x) in VECTOR_TYPES or type(x) in SET_TYPES


def _called(m: Any, args: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """(m x) or (get m x d) for a captured or def'd collection m: a lookup of a map (a join), a
    set or vector called value by value."""
    if type(m) in MAP_TYPES and type(m).__name__ != "Row":
        return ("lookup", ("lit", m), *args)
    if len(args) == 1 and type(m) in SET_TYPES and all(type(y) in _SCALARS for y in m):
        return ("in", ("lit", m if type(m) is FSet else FSet(m)), *args)  # a member kernel
    if len(args) == 1 and (type(m) in SET_TYPES or type(m) in VECTOR_TYPES) and type(m).__name__ != "Table":
        return ("each", None, ("const", m), *args)
    raise _NotColumn("fn body calls a captured local that is not a map, set or vector: not a column expression")


def _inlined(name: str, args: list[tuple[Any, ...]], f: Any, depth: int) -> tuple[Any, ...]:
    """The column expression of a call of defn helper `name` from fn f: the helper's body (one
    arity, no captured locals) with its parameters bound to the arguments' expressions."""
    user = (getattr(f, "__globals__", None) or {}).get("_U") or {}
    helper = user.get(name)
    if _collection(helper):  # (def years {...}) called as a fn: a lookup
        return _called(helper, args)
    node = getattr(helper, NODE_ATTR, None)
    if node is None or len(node.arities) != 1 or node.captures or depth >= _MAX_INLINE:
        raise _NotColumn(f"fn body calls {name}, which is not a defn of column expressions")
    a = node.arities[0]
    if a.rest is not None or a.has_recur or len(a.params) != len(args):
        raise _NotColumn(f"fn body calls {name} with arguments its defn does not take as columns")
    body = _translate(a.body, {id(p): x for p, x in zip(a.params, args)}, set())
    return _bind(body, helper, depth + 1)


def _fn_label(f: Any) -> str:
    q = getattr(f, "__qualname__", "") or ""
    if q.startswith("ptc:"):
        return q[4:] if q[4:] != "fn" else "the fn"
    return "the fn"


def tag(pred: Any, e: tuple[Any, ...] | str) -> Any:
    """pred, carrying column expression e (what ptc's own predicate builders return)."""
    try:
        setattr(pred, ATTR, e)
    except (AttributeError, TypeError):
        pass
    return pred


def text(e: tuple[Any, ...]) -> str:
    """A column expression as PTC-like text, for explain."""
    from ..printer import pr_str
    from ..values import type_name

    head = e[0]
    if head == "arg":
        return "%"
    if head == "col":
        return pr_str(e[1]) if e[2] is None else f"({pr_str(e[1])} % {pr_str(e[2])})"
    if head == "lit":
        return pr_str(e[1])
    if head == "cap":
        return e[1]
    if head == "op":
        return f"({e[1]} {' '.join(text(x) for x in e[2:])})"
    if head == "in":
        return f"({text(e[1])} {text(e[2])})"
    if head == "has":
        return f"(contains? {text(e[1])} {text(e[2])})"
    if head == "lookup":
        return f"({{...{len(e[1][1]) if e[1][0] == 'lit' else ''} entries}} {' '.join(text(x) for x in e[2:])})"
    if head == "each":
        return f"({e[1] or ''}{' ' if e[1] else ''}{' '.join(text(x) for x in e[2:])})"
    if head == "const":
        return pr_str(e[1]) if len(e[1]) <= 3 else f"<{type_name(e[1])} of {len(e[1])}>"
    if head == "fnval":
        return e[1]
    if head == "where":
        return "(where " + " ".join(pr_str(x) for x in e[1:] if x is not None) + ")"
    if head == "rowmap":
        return _rowmap_text(e, pr_str)
    if head == "fail":
        return f"(throw {pr_str(e[1])})"
    names = {"all": "all-of", "any": "any-of", "none": "none-of"}
    return f"({names.get(head, head)} {' '.join(text(x) for x in e[1:])})"


def _rowmap_text(e: tuple[Any, ...], pr_str: Any) -> str:
    out = "%" if e[1] == "row" else "{}"
    for op in e[2]:
        if op[0] == "assoc":
            out = f"(assoc {out} {pr_str(op[1])} {text(op[2])})"
        elif op[0] == "dissoc":
            out = f"(dissoc {out} {pr_str(op[1])})"
        elif op[0] == "select":
            out = f"(select-keys {out} [{' '.join(pr_str(k) for k in op[1])}])"
        else:
            out = f"(assoc {out} {pr_str(op[1])} ({pr_str(op[2])} %))"
    return out
