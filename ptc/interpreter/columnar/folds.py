"""Group bodies as plans: what a fn computes from one group of a table's rows, for every group at once.

`(map (fn [[k g]] {:id k :v (reduce + (map :v1 g)) :m (mean (map :v3 g))}) (group-by :id1 t))`
calls its fn once per group; over a table, this module reads the fn's body instead and computes
each fold for all groups in one pass over the columns (np.bincount / reduceat over the group
numbers), then the arithmetic between folds as column expressions over a table with one row per
group. A fn is a plan when its body is built from:

- the group's rows `g` (or, over map entries, `[k g]`, `(key e)`, `(val e)`, juxt keys destructured);
- row sequences: `(map f g)`, `(filter p g)`, `(remove p g)`, `(distinct xs)`, `(set xs)`,
  `(sort xs)`, `(sort > xs)`, f and p column expressions that may use the body's group values;
- folds: `count`, `reduce`/`apply` of `+` `max` `min`, `sum-by`, `avg-by`, `first`, `last`,
  `nth` of a sorted seq, `(count (distinct xs))`, `(take n (sort ... xs))`, `(:k (first g))`;
- `let`, `if`, map and vector literals, arithmetic and comparisons between folds, constants,
  captured locals, and calls of `defn` helpers whose bodies are built the same way (inlined).

The rule is the kernels' rule: the row path's exact result, or `Fallback`. Sums add each group's
values in row order (`np.bincount`, a sequential loop), so a float sum has the bits `reduce +`
gives; min, max, counts, distinct counts and order statistics are exact.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import context
from .. import nodes as n
from . import threads
from ..values import FMap, HMap, Keyword, PVector, host_key, lookup
from .expr import NODE_ATTR, _NotColumn, _bind, _translate, scalar
from .frame import _flat, holds_negative_zero
from .segments import stable_order as by_group
from .kernels import Fallback, Mixed, column_name, is_array, kind, truth, value

# the names of the columns a plan makes: no PTC key equals them (a string with a space and a NUL
# is no keyword, and no data key starts with NUL)
KEY = "\x00 key"  # the group table's column holding each group's key


def _keypart(i: int) -> str:
    return f"\x00 key{i}"


@dataclasses.dataclass
class Plan:
    """A group body: its steps (folds and broadcasts, in dependency order) and its result tree."""

    steps: list[tuple[Any, ...]]
    body: tuple[Any, ...]  # ("G", colexpr) | ("M", ((key, tree), ...)) | ("V", (tree, ...))


class _Fail(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- translation: a fn's analyzed body -> a Plan (at run time, once per call over groups) ----------

_MAX_INLINE = 8  # helper calls nested deeper than this are not inlined


class _Translator:
    def __init__(self, fn: Any, captured: set[int], user: dict[str, Any]) -> None:
        self.fn = fn
        self.captured = captured
        self.user = user
        self.steps: list[tuple[Any, ...]] = []
        self.depth = 0
        self.vectors: set[int] = set()  # locals bound to (vec ...): `(s i)` reads them as nth

    def _name(self, kind_: str) -> str:
        return f"\x00 {kind_}{len(self.steps)}"

    def fold(self, how: str, r: tuple[Any, ...] | None, *extra: Any) -> tuple[Any, ...]:
        elem, pred, mod = (("arg",), None, None) if r is None else r[1:]
        if how == "count":  # how many, whatever each item is and in whatever order
            elem, mod = ("arg",), None
        spec = ("fold", self._name("f"), how, elem, pred, mod, *extra)
        name = spec[1]
        for s in self.steps:  # the same fold twice (count xs in a mean and an sd) is computed once
            if s[0] == "fold" and repr(s[2:]) == repr(spec[2:]):
                name = s[1]
                break
        else:
            self.steps.append(spec)
        ref = ("col", name, None)
        # an index out of range is a nil no computation may reach (the row path raises there)
        return ("G", ("op", "present", ref) if how == "nth" else ref)

    def bcast(self, g: tuple[Any, ...]) -> tuple[Any, ...]:
        """A group value as a column of the rows (each row gets its group's value)."""
        if g[1][0] == "lit":
            return g[1]
        for s in self.steps:
            if s[0] == "bcast" and s[2] == g[1]:
                return ("col", s[1], None)
        name = self._name("b")
        self.steps.append(("bcast", name, g[1]))
        return ("col", name, None)

    # -- nodes -------------------------------------------------------------------------------

    def tr(self, node: n.Node, env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
        t = type(node)
        if t is n.Const:
            v = node.value  # type: ignore[attr-defined]
            if not scalar(v):
                raise _Fail("a collection constant")
            return ("G", ("lit", v))
        if t is n.Local:
            b = node.binding  # type: ignore[attr-defined]
            if id(b) in env:
                return env[id(b)]
            if id(b) in self.captured and b.box is None:
                return ("G", ("cap", b.py))
            raise _Fail(f"local {b.name}")
        if t is n.Let:
            env = dict(env)
            for b, v in node.bindings:  # type: ignore[attr-defined]
                env[id(b)] = self.tr(v, env)
                if type(v) is n.Call and type(v.fn) is n.BuiltinRef and v.fn.builtin.qualified in ("vec", "mapv"):  # type: ignore[attr-defined]
                    self.vectors.add(id(b))
            return self.tr(node.body, env)  # type: ignore[attr-defined]
        if t is n.MapLit:
            pairs = []
            for k, v in node.pairs:  # type: ignore[attr-defined]
                if type(k) is not n.Const or type(k.value) not in (Keyword, str):  # type: ignore[attr-defined]
                    raise _Fail("a map literal whose keys are not keywords or strings")
                pairs.append((k.value, self.value_tree(self.tr(v, env))))  # type: ignore[attr-defined]
            return ("M", tuple(pairs))
        if t is n.VectorLit:
            return ("V", tuple(self.value_tree(self.tr(x, env)) for x in node.items))  # type: ignore[attr-defined]
        if t is n.If:
            test, a, b = (self.group(self.tr(x, env)) for x in (node.test, node.then, node.else_))  # type: ignore[attr-defined]
            return ("G", ("if", test, a, b))
        if t is n.KeywordCall:
            target = self.tr(node.target, env)  # type: ignore[attr-defined]
            if node.default is not None or target[0] != "W":  # type: ignore[attr-defined]
                raise _Fail("a key looked up on something other than a group's first or last row")
            return self._row_field(target, node.key)  # type: ignore[attr-defined]
        if t is n.And or t is n.Or:
            items = [self.group(self.tr(x, env)) for x in node.items]  # type: ignore[attr-defined]
            return ("G", ("and" if t is n.And else "or", *items))
        if t is n.Call:
            return self.call(node, env)  # type: ignore[arg-type]
        raise _Fail(f"{type(node).__name__.lower()} in a group body")

    def group(self, v: tuple[Any, ...]) -> tuple[Any, ...]:
        """v as a group value's column expression (a fold, a key, arithmetic of them)."""
        if v[0] != "G":
            raise _Fail("a sequence of a group's rows where one value per group is needed")
        return v[1]

    def value_tree(self, v: tuple[Any, ...]) -> tuple[Any, ...]:
        if v[0] == "T" and v[2][1] != ("arg",):  # (take n xs), (map :v (take n rows)): the first n values, a seq
            return self.fold("take", v[2], v[1], False)
        if v[0] in ("G", "M", "V"):
            return v
        raise _Fail("a sequence of a group's rows in the result (not a fold of them)")

    def _row_field(self, w: tuple[Any, ...], key: Any) -> tuple[Any, ...]:
        _, which, r = w
        if type(key) not in (Keyword, str):
            raise _Fail("a row's field that is not a keyword")
        return _first_last(self, ("R", ("col", key, None), r[2], r[3]), which)

    def rows(self, v: tuple[Any, ...], who: str) -> tuple[Any, ...]:
        if v[0] == "E":
            raise _Fail(f"{who} of a map entry")
        if v[0] != "R":
            raise _Fail(f"{who} of something other than a group's rows")
        return v

    def call(self, node: n.Call, env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
        head, args = node.fn, node.args
        th = type(head)
        if th is n.RuntimeRef and head.name == "nth_or_nil" and len(args) == 2 \
                and type(args[1]) is n.Const and type(args[1].value) is int:  # type: ignore[attr-defined]
            x, i = self.tr(args[0], env), args[1].value  # type: ignore[attr-defined]
            if x[0] == "E" and i in (0, 1):
                return ("G", ("col", KEY, None)) if i == 0 else ("R", ("arg",), None, None)
            if x == ("G", ("col", KEY, None)):
                return ("G", ("col", _keypart(i), None))
            raise _Fail("destructuring beyond a group's key and rows")
        if th is n.GlobalRef:
            return self.inline(head.name, [self.tr(a, env) for a in args])  # type: ignore[attr-defined]
        if th is n.Local and id(head.binding) in self.vectors and len(args) == 1:  # type: ignore[attr-defined]
            return _nth(self, [head, args[0]], env)  # (s i) of a vector s: its item i
        if th is n.Const and type(head.value) is Keyword and len(args) == 1:  # type: ignore[attr-defined]
            w = self.tr(args[0], env)
            if w[0] == "W":
                return self._row_field(w, head.value)  # type: ignore[attr-defined]
            raise _Fail("a key looked up on something other than a group's first or last row")
        if th is not n.BuiltinRef:
            raise _Fail("a call of a local or computed fn")
        if head.builtin.segmented is not None:  # type: ignore[attr-defined]
            return self.segmented(head.builtin, args, env)  # type: ignore[attr-defined]
        read = head.builtin.group_read  # type: ignore[attr-defined]
        if read is not None:
            return GROUP_READS[read](self, args, env)  # type: ignore[no-any-return]
        op = head.builtin.column_op  # type: ignore[attr-defined]
        if op is None:
            raise _Fail(f"{head.builtin.qualified} in a group body")  # type: ignore[attr-defined]
        return ("G", ("op", op, *[self.group(self.tr(a, env)) for a in args]))

    def segmented(self, b: Any, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
        """A call of a builtin with a segmented kernel (a statistic): a fold of its sequences of
        the group's values (the same filter for both of a pair), its other arguments constants."""
        columns = b.segmented.columns
        if len(args) < columns:
            raise _Fail(f"{b.qualified} with too few arguments")
        rs = [self.rows(self.tr(a, env), b.qualified) for a in args[:columns]]
        for r in rs:
            if r[1] == ("arg",):
                raise _Fail(f"{b.qualified} of a group's rows (not of values)")
            if r[3] is not None:
                raise _Fail(f"{b.qualified} of a sorted or distinct seq")
        if columns == 2 and repr(rs[0][2]) != repr(rs[1][2]):
            raise _Fail(f"{b.qualified} of two sequences filtered differently")
        consts = tuple(self.group(self.tr(a, env)) for a in args[columns:])
        if any(c[0] not in ("lit", "cap") for c in consts):
            raise _Fail(f"{b.qualified} with an argument that is not a constant")
        return self.fold("segmented", rs[0], b.qualified, rs[1][1] if columns == 2 else None, *consts)

    def inline(self, name: str, args: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        """A defn helper's body with its parameters bound to the arguments' plans."""
        f = self.user.get(name)
        node = getattr(f, NODE_ATTR, None)
        if node is None or len(node.arities) != 1 or node.captures:
            raise _Fail(f"{name} is not a defn whose body is folds over its arguments")
        a = node.arities[0]
        if a.rest is not None or a.has_recur or len(a.params) != len(args):
            raise _Fail(f"{name} takes its arguments in a way that is not inlined")
        if self.depth >= _MAX_INLINE:
            raise _Fail(f"{name} nests helpers too deeply")
        self.depth += 1
        saved = self.captured
        self.captured = set()
        try:
            return self.tr(a.body, {id(p): v for p, v in zip(a.params, args)})
        finally:
            self.depth -= 1
            self.captured = saved

    def row_fn(self, f: n.Node, elem: tuple[Any, ...], env: dict[int, tuple[Any, ...]],
               *more: tuple[Any, ...]) -> tuple[Any, ...]:
        """The column expression of (f x) for x the sequence's element (elem), or of (f x y ...)
        over several aligned sequences (elem and more): f a keyword, a fn literal (its body may
        use the group body's values), or a builtin with a column op."""
        elems = (elem, *more)
        if type(f) is n.Const and type(f.value) in (Keyword, str) and not more:  # type: ignore[attr-defined]
            if elem != ("arg",):
                raise _Fail("a key looked up on a value that is not a row")
            return ("col", f.value, None)  # type: ignore[attr-defined]
        if type(f) is n.BuiltinRef and f.builtin.column_op is not None:  # type: ignore[attr-defined]
            return ("op", f.builtin.column_op, *elems)  # type: ignore[attr-defined]
        if type(f) is n.BuiltinRef and f.builtin.qualified == "identity" and not more:  # type: ignore[attr-defined]
            return elem
        if type(f) is not n.Fn or len(f.arities) != 1:  # type: ignore[attr-defined]
            raise _Fail("a fn over a group's rows that is not a keyword or a fn literal")
        a = f.arities[0]  # type: ignore[attr-defined]
        if a.rest is not None or len(a.params) != len(elems) or a.has_recur:
            raise _Fail(f"a fn over a group's rows that does not take {len(elems)} argument(s)")
        row_env: dict[int, tuple[Any, ...]] = {id(p): e for p, e in zip(a.params, elems)}
        body = self.hoisted(a.body, tuple(a.params), env, row_env)
        for b in _locals_used(body):
            v = env.get(id(b))
            if v is not None and v[0] == "G":
                row_env[id(b)] = self.bcast(v)
        try:
            return _translate(body, row_env, self.captured)
        except _NotColumn as err:  # "fn body calls str: not a column expression" -> "str inside ..."
            what = err.reason.split(":")[0].removeprefix("fn body ").removeprefix("calls ").removeprefix("uses ")
            raise _Fail(f"{what} inside a fn over the group's rows") from None

    def computed(self, e: tuple[Any, ...]) -> tuple[Any, ...]:
        """e, a value computed from each row, made as a column of the rows now (a ("row") step)
        and read from there: what an eager call (`mapv`) computes whatever later reads of it,
        so an error it raises on any row is raised (the kernels' Fallback) as the row path's."""
        for s in self.steps:
            if s[0] == "row" and repr(s[2]) == repr(e):
                return ("col", s[1], None)
        name = self._name("v")
        self.steps.append(("row", name, e))
        return ("col", name, None)

    def hoisted(self, node: Any, params: tuple[n.Binding, ...], env: dict[int, tuple[Any, ...]],
                row_env: dict[int, tuple[Any, ...]]) -> Any:
        """node (a row fn's body) with each call that does not use the row but uses the group
        (`(mean xs)` in `#(- % (mean xs))`) replaced by a local bound to its value per group: the
        row path computes it again for every row, a plan once per group."""
        if type(node) is n.Call or type(node) is n.KeywordCall:
            used = _locals_used(node)
            if all(b is not p for b in used for p in params) and any(id(b) in env for b in used):
                try:
                    v = self.tr(node, env)
                except _Fail:
                    v = None
                if v is not None and v[0] == "G":
                    b = n.Binding("group value", f"_hoisted{len(row_env)}", 0)
                    row_env[id(b)] = self.bcast(v)
                    return n.Local(node.line, node.col, b)
        if not isinstance(node, n.Node):
            return node
        changed = {}
        for f in dataclasses.fields(node):
            old = getattr(node, f.name)
            new = self._hoisted_in(old, params, env, row_env)
            if new is not old:
                changed[f.name] = new
        return dataclasses.replace(node, **changed) if changed else node

    def _hoisted_in(self, x: Any, params: tuple[n.Binding, ...], env: dict[int, tuple[Any, ...]],
                    row_env: dict[int, tuple[Any, ...]]) -> Any:
        if isinstance(x, n.Node):
            return self.hoisted(x, params, env, row_env)
        if type(x) in (list, tuple):
            items = [self._hoisted_in(y, params, env, row_env) for y in x]
            return type(x)(items) if any(y is not z for y, z in zip(items, x)) else x
        return x


def _locals_used(node: Any) -> list[n.Binding]:
    out: list[n.Binding] = []
    stack = [node]
    while stack:
        x = stack.pop()
        if type(x) is n.Local:
            out.append(x.binding)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                v = getattr(x, f.name)
                if isinstance(v, (list, tuple)):
                    for y in v:
                        stack.extend(y if isinstance(y, tuple) else (y,))
                elif dataclasses.is_dataclass(v):
                    stack.append(v)
    return out


def _is(node: n.Node, *ops: str) -> bool:
    """node names a builtin whose column op is one of ops (`+`, `max`, `<`...), or `compare`
    (the comparator sort and sort-by read as ascending, which has no column op)."""
    if type(node) is not n.BuiltinRef:
        return False
    b = node.builtin  # type: ignore[attr-defined]
    return b.column_op in ops if b.column_op is not None else "compare" in ops and b.qualified == "compare"


# -- the builtins a group body may call, each read into the plan -------------------------------


def _entry_part(i: int) -> Any:
    def part(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
        if len(args) != 1:
            raise _Fail("an entry function with several arguments")
        x = t.tr(args[0], env)
        if x[0] == "E":
            return ("G", ("col", KEY, None)) if i == 0 else ("R", ("arg",), None, None)
        if x == ("G", ("col", KEY, None)):  # (first k) (second k) of a juxt key
            return ("G", ("col", _keypart(i), None))
        if i == 0 and x[0] == "R":  # (first xs): the first element (the least of a sorted seq)
            return _first_last(t, x, "first")
        raise _Fail("key, val, first or second of something other than a map entry or a group")
    return part


def _first_last(t: _Translator, r: tuple[Any, ...], which: str) -> tuple[Any, ...]:
    mod = r[3]
    if mod == "distinct":
        raise _Fail(f"{which} of a distinct seq")
    if r[1] == ("arg",):
        return ("W", which, r)  # a row (of a sorted seq too): only its fields are read
    if mod is not None:  # a sorted seq: the smallest or largest
        return t.fold("nth", r, ("lit", 0) if which == "first" else ("last",))
    return t.fold(which, r)


def _last(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) != 1:
        raise _Fail("last with several arguments")
    return _first_last(t, t.rows(t.tr(args[0], env), "last"), "last")


def _count(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) != 1:
        raise _Fail("count with several arguments")
    r = t.rows(t.tr(args[0], env), "count")
    return t.fold("ndistinct" if r[3] == "distinct" else "count", r)


def _reduce(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) not in (2, 3):
        raise _Fail("reduce with a transducer")
    f = args[0]
    r = t.rows(t.tr(args[-1], env), "reduce")
    if r[3] == "distinct":
        raise _Fail("reduce over a distinct seq")
    if _is(f, "+"):
        init = None
        if len(args) == 3:
            i = t.group(t.tr(args[1], env))
            if i[0] != "lit" or type(i[1]) not in (int, float):
                raise _Fail("reduce + from a start that is not a number")
            init = i[1]
        return t.fold("sum", r, init)
    if _is(f, "max", "min") and len(args) == 2:
        return t.fold(f.builtin.column_op, r)  # type: ignore[attr-defined]
    raise _Fail("reduce with a fn other than +, max or min")


def _apply(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) == 3 and type(args[0]) is n.BuiltinRef and args[0].builtin.qualified in ("max-key", "min-key"):  # type: ignore[attr-defined]
        return _extreme_key(t, args[0].builtin.qualified == "max-key", args[1], args[2], env)  # type: ignore[attr-defined]
    if len(args) != 2:
        raise _Fail("apply with leading arguments")
    r = t.rows(t.tr(args[1], env), "apply")
    if r[3] == "distinct":
        raise _Fail("apply over a distinct seq")
    if _is(args[0], "+"):
        return t.fold("sum", r, None)
    if _is(args[0], "max", "min"):
        return t.fold(args[0].builtin.column_op, r)  # type: ignore[attr-defined]
    raise _Fail("apply of a fn other than +, max or min")


def _extreme_key(t: _Translator, largest: bool, keyfn: n.Node, coll: n.Node,
                 env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(apply max-key k xs) / (apply min-key k xs): the item whose (k x) is largest (smallest),
    the last one on ties as max-key gives it, which is the last of xs sorted stably by (k x)
    ascending (descending); by < and >, so keys other than numbers (which max-key refuses) fall
    back."""
    r = t.rows(t.tr(coll, env), "max-key")
    if r[3] is not None:
        raise _Fail("max-key over a sorted or distinct seq")
    return _first_last(t, ("R", r[1], r[2], ("sort", "<" if largest else ">", t.row_fn(keyfn, r[1], env))), "last")


def _extreme_by(largest: bool) -> Any:
    """(max-by k g) / (min-by k g): the row whose (k row) is largest (smallest), nil keys left
    out, the first one on ties: the first of the rows with a key sorted stably by it descending
    (ascending). By > and <: string keys, which max-by compares, fall back."""
    who = "max-by" if largest else "min-by"

    def by(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
        if len(args) != 2:
            raise _Fail(f"{who} with several seqs")
        r = t.rows(t.tr(args[1], env), who)
        if r[1] != ("arg",) or r[3] is not None:
            raise _Fail(f"{who} over something other than a group's rows")
        key = t.row_fn(args[0], ("arg",), env)
        return _first_last(t, ("R", ("arg",), _also(r, ("op", "some?", key)), ("sort", ">" if largest else "<", key)),
                           "first")
    return by


def _also(r: tuple[Any, ...], p: tuple[Any, ...]) -> tuple[Any, ...]:
    """The predicate of the rows of seq r that also pass p (checked only on the rows r keeps)."""
    return p if r[2] is None else ("and", r[2], p)


def _by_key(how: str) -> Any:
    def agg(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
        if len(args) != 2 or type(args[0]) is not n.Const or type(args[0].value) not in (Keyword, str):  # type: ignore[attr-defined]
            raise _Fail(f"{how} with a key that is not a keyword")
        r = t.rows(t.tr(args[1], env), how)
        if r[1] != ("arg",) or r[3] is not None:
            raise _Fail(f"{how} over something other than a group's rows")
        return t.fold(how, ("R", ("col", args[0].value, None), r[2], None))  # type: ignore[attr-defined]
    return agg


def _map(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) > 2:
        return _map_aligned(t, args, env)
    if len(args) != 2:
        raise _Fail("map as a transducer")
    x = t.tr(args[1], env)
    if x[0] == "T":  # (map f (take n rows)): f of the first n
        return ("T", x[1], _mapped(t, args[0], x[2], env))
    return _mapped(t, args[0], t.rows(x, "map"), env)


def _map_aligned(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(map f xs ys ...) over seqs of the same rows kept alike and in row order (`(map * dx dy)`
    of two values of each row): one value of each row from their values side by side (of the
    same length, so none is cut at the shortest)."""
    rs = [t.rows(t.tr(a, env), "map") for a in args[1:]]
    if any(r[3] is not None for r in rs) or len({repr(r[2]) for r in rs}) != 1:
        raise _Fail("map over several seqs that are not the same rows in row order")
    return ("R", t.row_fn(args[0], rs[0][1], env, *(r[1] for r in rs[1:])), rs[0][2], None)


def _mapv(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(mapv f xs ...): map's seq, computed whole as mapv is (eager) when f computes its
    values (not only reads a key of each row): then on every row, so only of all the rows
    (a filter's rows would compute f on rows the row path never gives it)."""
    r = _map(t, args, env)
    if r[0] == "R" and r[1][0] not in ("col", "arg", "lit"):
        if r[2] is not None:
            raise _Fail("mapv of a computed value over a filtered seq")
        return ("R", t.computed(r[1]), None, r[3])
    if r[0] == "T" and r[2][1][0] not in ("col", "arg", "lit"):
        raise _Fail("mapv of a computed value over the first n of a seq")
    return r


def _mapped(t: _Translator, f: n.Node, r: tuple[Any, ...], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(map f r) in r's order: a sort of the values becomes a sort by them (sort-by keys are of
    the rows already), so the values f makes stay in the order of the ones they are made from."""
    mod = r[3]
    if mod == "distinct":
        raise _Fail("map over a distinct seq")
    if mod is not None:
        mod = ("sort", mod[1], r[1] if mod[2] is None else mod[2])
    return ("R", t.row_fn(f, r[1], env), r[2], mod)


def _keep(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(keep f xs): map, then the nils left out (false kept), so the values of f where they are not nil."""
    if len(args) != 2:
        raise _Fail("keep with a transducer")
    r = t.rows(t.tr(args[1], env), "keep")
    if r[3] is not None:
        raise _Fail("keep over a sorted or distinct seq")
    e = t.row_fn(args[0], r[1], env)
    return ("R", e, _also(r, ("op", "some?", e)), None)


def _select(want: bool) -> Any:
    def select(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
        if len(args) != 2:
            raise _Fail("filter with a transducer")
        r = t.rows(t.tr(args[1], env), "filter")
        if r[3] is not None:
            raise _Fail("filter over a sorted or distinct seq")
        p = t.row_fn(args[0], r[1], env)
        if not want:
            p = ("op", "not", p)
        return ("R", r[1], _also(r, p), None)
    return select


def _distinct(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) != 1:
        raise _Fail("distinct with a transducer")
    r = t.rows(t.tr(args[0], env), "distinct")
    if r[1] == ("arg",):
        raise _Fail("distinct rows")
    return ("R", r[1], r[2], "distinct")


def _same(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) != 1:
        raise _Fail("vec/seq with several arguments")
    return t.rows(t.tr(args[0], env), "vec")


def _sort(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) == 2 and not _is(args[0], "<", ">", "compare"):
        raise _Fail("sort with a comparator other than <, > or compare")
    r = t.rows(t.tr(args[-1], env), "sort")
    if r[1] == ("arg",) or r[3] is not None:
        raise _Fail("sort of rows or of a sorted or distinct seq")
    cmp = "compare" if len(args) == 1 else args[0].builtin.column_op or "compare"  # type: ignore[attr-defined]
    return ("R", r[1], r[2], ("sort", cmp, None))


def _sort_by(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(sort-by f xs) / (sort-by f cmp xs): xs (values or rows) ordered by (f x)."""
    if len(args) == 3 and not _is(args[1], "<", ">", "compare"):
        raise _Fail("sort-by with a comparator other than <, > or compare")
    if len(args) not in (2, 3):
        raise _Fail("sort-by with several seqs")
    r = t.rows(t.tr(args[-1], env), "sort-by")
    if r[3] is not None:
        raise _Fail("sort-by of a sorted or distinct seq")
    cmp = "compare" if len(args) == 2 else args[1].builtin.column_op or "compare"  # type: ignore[attr-defined]
    return ("R", r[1], r[2], ("sort", cmp, t.row_fn(args[0], r[1], env)))


def _take(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) != 2 or type(args[0]) is not n.Const or type(args[0].value) is not int:  # type: ignore[attr-defined]
        raise _Fail("take of a count that is not a constant integer")
    r = t.rows(t.tr(args[1], env), "take")
    if r[3] == "distinct":
        raise _Fail("take of a distinct seq")
    # the first n (of a sort): a fold once what is read of them is known (their values, a seq or a vector)
    return ("T", args[0].value, r)  # type: ignore[attr-defined]


def _vec(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(vec xs): the seq (its folds read it alike), or of (take n xs) a vector of the first n."""
    if len(args) != 1:
        raise _Fail("vec with several arguments")
    x = t.tr(args[0], env)
    if x[0] == "T" and x[2][1] != ("arg",):
        return t.fold("take", x[2], x[1], True)
    return t.rows(x, "vec")


_FLIPPED = {"compare": ">", "<": ">", ">": "<"}  # a sort's comparator the other way (numbers: < is compare)


def _reverse(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """(reverse (sort xs)): the sort the other way. Equal values of a sort are the same value,
    so the reversed ties are no different (a sort-by's ties are: those fall back)."""
    if len(args) != 1:
        raise _Fail("reverse with several arguments")
    r = t.rows(t.tr(args[0], env), "reverse")
    if type(r[3]) is not tuple or r[3][2] is not None:
        raise _Fail("reverse of a seq other than a sort of values")
    return ("R", r[1], r[2], ("sort", _FLIPPED[r[3][1]], None))


def _nth(t: _Translator, args: list[n.Node], env: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    if len(args) != 2:
        raise _Fail("nth with a default")
    r = t.rows(t.tr(args[0], env), "nth")
    if r[1] == ("arg",) or r[3] is None or r[3] == "distinct":
        raise _Fail("nth of something other than a sorted seq of values")
    return t.fold("nth", r, t.group(t.tr(args[1], env)))


# a builtin's entry names its reading (`group_read`): key and first read a map entry's key or
# the first of a seq, val and second its value, set reads as distinct, vec/seq/doall as the seq
GROUP_READS: dict[str, Any] = {
    "first": _entry_part(0), "second": _entry_part(1), "last": _last, "count": _count, "reduce": _reduce,
    "apply": _apply, "sum-by": _by_key("sum-by"), "avg-by": _by_key("avg-by"), "map": _map,
    "mapv": _mapv,
    "filter": _select(True), "remove": _select(False), "distinct": _distinct, "same": _same,
    "sort": _sort, "sort-by": _sort_by, "take": _take, "nth": _nth, "keep": _keep, "reverse": _reverse, "vec": _vec,
    "max-by": _extreme_by(True), "min-by": _extreme_by(False),
}


def plan_of(f: Any, mode: str) -> Plan | str:
    """The plan of fn value f called on each group's rows (mode "group"), on each [key rows]
    entry (mode "entry"), or by reduce-kv on an accumulator, each key and its rows (mode "kv",
    `(fn [m k g] (assoc m k body))`: body's plan), or why there is none."""
    node = getattr(f, NODE_ATTR, None)
    if node is None and mode == "group" and getattr(f, "__qualname__", None) == "ptc:count":
        return Plan([("fold", "\x00 f0", "count", ("arg",), None, None)], ("G", ("col", "\x00 f0", None)))
    if node is None:
        return "the fn is not a fn literal or defn: each group is built"
    a = node.arities[0]
    if len(node.arities) != 1 or a.rest is not None or len(a.params) != (3 if mode == "kv" else 1) or a.has_recur:
        takes = "an accumulator, a key and a group" if mode == "kv" else "one argument"
        return f"the fn does not take {takes}: each group is built"
    if mode == "kv":
        return _planned(f, node, *_assoc_of_key(a))
    start = ("E",) if mode == "entry" else ("R", ("arg",), None, None)
    return _planned(f, node, a.body, {id(a.params[0]): start})


def _assoc_of_key(a: n.Arity) -> tuple[n.Node, dict[int, tuple[Any, ...]]]:
    """A reduce-kv fn's `(assoc m k body)`: body, and k and g as the group's key and rows (m is
    no local of the plan: a body reading it is none)."""
    m, k, g = a.params
    b = a.body
    if type(b) is n.Call and type(b.fn) is n.BuiltinRef and b.fn.builtin.qualified == "assoc" and len(b.args) == 3 \
            and type(b.args[0]) is n.Local and b.args[0].binding is m and type(b.args[1]) is n.Local \
            and b.args[1].binding is k:  # type: ignore[attr-defined]
        return b.args[2], {id(k): ("G", ("col", KEY, None)), id(g): ("R", ("arg",), None, None)}  # type: ignore[attr-defined]
    return b, {}  # not read: the accumulator is a local the translation refuses


def _planned(f: Any, node: Any, body: n.Node, env: dict[int, tuple[Any, ...]]) -> Plan | str:
    """The plan of body, a group's fn's, its parameters' readings in env."""
    code = getattr(f, "__code__", None)
    user = (getattr(f, "__globals__", None) or {}).get("_U") or {}
    t = _Translator(f, {id(b) for b in node.captures.values()}, user)
    try:
        tree = t.value_tree(t.tr(body, env))
        steps = [s if s[0] != "bcast" else (s[0], s[1], _bind(s[2], f)) for s in t.steps]
        steps = [_bind_fold(s, f) if s[0] == "fold" else s for s in steps]
        return Plan(_shared_row_values(steps), _bind_tree(tree, f))
    except _Fail as e:
        return f"fn body uses {e.reason}: not a fold of the group, each group is built" if code else e.reason
    except _NotColumn as e:
        return e.reason


def _shared_row_values(steps: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The steps with each computation from the rows that unfiltered folds repeat (`(- (:v1 %) mx)`
    in an sxy and an sxx) made once, as a ("row", name, expr) step before its first use: a
    column of the rows the folds read (common subexpressions, the largest first)."""
    while True:
        seen: dict[str, list[Any]] = {}  # repr -> [expr, occurrences]

        def walk(e: Any) -> bool:
            """Counts e's computations from the rows, through arithmetic only (never out of an if,
            an and, an or: a value computed on every row where it was computed on some may
            raise where the row path does not); whether e reads a column of the rows."""
            if type(e) is not tuple or not e:
                return False
            if e[0] != "op":
                return "'col'" in repr(e)
            reads = [walk(x) for x in e[2:]]
            if any(reads):
                seen.setdefault(repr(e), [e, 0])[1] += 1
            return any(reads)

        for st in steps:
            if st[0] == "fold" and st[4] is None:
                walk(st[3])
        shared = [e for e, times in seen.values() if times > 1]
        if not shared:
            return steps
        e = max(shared, key=lambda x: len(repr(x)))
        name = f"\x00 r{len(steps)}"
        key = repr(e)
        out: list[tuple[Any, ...]] = []
        for st in steps:
            if st[0] == "fold" and st[4] is None:
                elem = _replaced(st[3], key, ("col", name, None))
                if elem is not st[3] and not any(o[1] == name for o in out):
                    out.append(("row", name, e))
                st = st[:3] + (elem,) + st[4:]
            out.append(st)
        steps = out


def _replaced(e: Any, key: str, by: Any) -> Any:
    """e with each part written `key` (a repr) replaced by `by`, through arithmetic only."""
    if type(e) is not tuple or not e:
        return e
    if repr(e) == key:
        return by
    if e[0] != "op":
        return e
    parts = e[:2] + tuple(_replaced(x, key, by) for x in e[2:])
    return e if all(a is b for a, b in zip(parts, e)) else parts


def _bind_fold(s: tuple[Any, ...], f: Any) -> tuple[Any, ...]:
    _, name, how, elem, pred, mod, *extra = s
    extra = [_bind(x, f) if type(x) is tuple else x for x in extra]
    return ("fold", name, how, _bind(elem, f), None if pred is None else _bind(pred, f), mod, *extra)


def _bind_tree(tree: tuple[Any, ...], f: Any) -> tuple[Any, ...]:
    if tree[0] == "G":
        return ("G", _bind(tree[1], f))
    if tree[0] == "M":
        return ("M", tuple((k, _bind_tree(v, f)) for k, v in tree[1]))
    return ("V", tuple(_bind_tree(v, f) for v in tree[1]))


# -- running a plan over a grouping ------------------------------------------------------------


@dataclasses.dataclass
class Grouping:
    """A table's rows numbered by group (first-seen order) and the groups' keys."""

    table: pa.Table
    codes: np.ndarray  # each row's group number
    count: int  # how many groups
    key_arrays: list[Any]  # each key part's value per group (one part unless keys are juxt vectors)
    juxt: bool
    engine: bool = False  # the folds ran on DuckDB (see engine): no group numbers were made
    _keys: list[Any] | None = None
    _order: np.ndarray | None = None
    _group_sizes: np.ndarray | None = None

    @property
    def keys(self) -> list[Any]:
        """The groups' keys as PTC values (juxt keys: vectors), made when first asked for: a
        plan's rows take the keys' columns as they are."""
        if self._keys is None:
            from pyrsistent import pvector

            from .dispatch import _values

            columns = [_values(a) for a in self.key_arrays]
            if not self.juxt:
                self._keys = columns[0]
            else:
                keys = []
                for i, key in enumerate(zip(*columns)):
                    if (i & 4095) == 4095:
                        context.check_deadline()
                    keys.append(pvector(key))  # scalars and dates only (see reduce._codes): already keys
                self._keys = keys
        return self._keys

    def ordered(self) -> pa.Table:
        """The table's rows with each group's rows together (what the groups' views show)."""
        from .frame import selection

        context.check_deadline()
        return selection(self.table).take(pa.array(self.order)).table().combine_chunks()

    @property
    def sizes(self) -> np.ndarray:
        """Each group's number of rows, counted once for all the plan's folds."""
        if self._group_sizes is None:
            self._group_sizes = _sizes(self.codes, self.count)
        return self._group_sizes

    @property
    def order(self) -> np.ndarray:
        """Row numbers with each group's rows together, in row order within a group."""
        if self._order is None:
            self._order = by_group(self.codes, self.count)
        return self._order


def group_table(g: Grouping) -> dict[str, Any]:
    """The columns every plan starts from: the key (one part) or each part of a juxt key."""
    if not g.juxt:
        return {KEY: g.key_arrays[0]}
    return {_keypart(i): a for i, a in enumerate(g.key_arrays)}


def _check_keys(plan: Plan, juxt: bool, parts: int) -> None:
    """Fallback unless every key column the plan reads is one group_table gives: the key, or
    each part of a juxt key."""
    have = {_keypart(i) for i in range(parts)} if juxt else {KEY}
    for name in _key_refs((plan.steps, plan.body)):
        if name not in have:
            raise Fallback("a key destructured as a vector that is not a juxt key" if name != KEY
                           else "the vector key of a juxt grouping (only its parts are columns)")


def _key_refs(x: Any) -> set[str]:
    if type(x) is tuple and len(x) == 3 and x[0] == "col" and type(x[1]) is str and x[1].startswith(KEY):
        return {x[1]}
    if type(x) in (tuple, list):
        return set().union(*(_key_refs(y) for y in x)) if x else set()
    return set()


def run(plan: Plan, g: Grouping) -> Any:
    """The plan's result tree with each G leaf computed for every group (an Array or a scalar)."""
    _check_keys(plan, g.juxt, len(g.key_arrays))
    gcols = group_table(g)
    rows = g.table
    sorts: dict[str, np.ndarray] = {}  # a seq's order within groups, sorted once for all its folds
    mixed: dict[str, Mixed] = {}
    steps = plan.steps
    i = 0
    while i < len(steps):
        step = steps[i]
        _check_work(rows.num_rows)
        if step[0] == "bcast":
            gframe = _gframe(gcols, g.count)
            v = value(step[2], gframe)
            if type(v) is Mixed:  # with the next group values' types: the plan splits once
                later = [value(s[2], gframe) for s in _bcasts_after(steps, i)]
                return _by_type(plan, g, [v, *(x for x in later if type(x) is Mixed)])
            if not is_array(v):
                raise Fallback("a group value that is the same for every group")
            rows = rows.append_column(step[1], _flat(v).take(pa.array(g.codes)))
        elif step[0] == "row":
            v = value(step[2], rows)
            if not is_array(v):
                raise Fallback("a value of the rows that is the same for every row")
            rows = rows.append_column(step[1], _flat(v))
        else:
            batch = [step]
            while i + len(batch) < len(steps) and _independent(steps[i + len(batch)]) and _independent(step):
                batch.append(steps[i + len(batch)])
            gframe = _gframe(gcols, g.count)
            for s, v in zip(batch, _each(batch, lambda s: _fold(s, rows, g, gframe, sorts), rows.num_rows, g)):
                if type(v) is Mixed:  # a result only: as an operand its column is of no kind kernels compute
                    mixed[s[1]] = v
                    v = pa.nulls(g.count, pa.binary())
                gcols[s[1]] = v
            i += len(batch)
            continue
        i += 1
    context.check_deadline()
    frame = _gframe(gcols, g.count)
    return _eval_tree(plan.body, frame, mixed)


# folds that read only the rows and the group numbers (not the group values nor a shared sort):
# consecutive ones run at once on the fold threads
_INDEPENDENT = frozenset({"count", "sum", "sum-by", "avg-by", "max", "min", "first", "last", "ndistinct"})


def _independent(step: tuple[Any, ...]) -> bool:
    return step[0] == "fold" and step[2] in _INDEPENDENT


def _each(batch: list[tuple[Any, ...]], fold: Any, rows: int, g: Grouping) -> list[Any]:
    """fold of each step, on two threads when there are several over many rows and max_memory
    holds two folds' allocations (see threads). Every fold has ended when this returns, and
    the first error in step order is raised."""
    if not threads.worth_it(len(batch), rows, _BYTES_PER_ROW):
        return [fold(s) for s in batch]
    g.sizes  # counted once, before the threads would each count them
    return threads.run_all([functools.partial(fold, s) for s in batch])


def run_on_engine(plan: Plan, table: Any, e: tuple[Any, ...]) -> tuple[Any, Grouping] | None:
    """The plan's result and its grouping with the folds computed by DuckDB (see engine) over
    a pyarrow.Table or a file not read (a table.Scan), or None where the engine is not worth it
    (a small table, keys numbered without hashing) or cannot compute a fold exactly: the plan
    then runs on group numbers."""
    from . import engine

    parts = e[1:] if e[0] == "juxt" else (e,)
    if not engine.worth_it(table, parts):
        return None
    try:
        _check_keys(plan, e[0] == "juxt", len(parts))  # before the query: a plan the keys cannot serve
        key_arrays, count, cols = engine.folds(plan.steps, table, parts)
    except Fallback:
        return None
    g = Grouping(table, None, count, key_arrays, e[0] == "juxt", engine=True)  # type: ignore[arg-type]
    gcols = group_table(g)
    gcols.update(cols)
    return _eval_tree(plan.body, _gframe(gcols, count), {}), g


def _bcasts_after(steps: list[tuple[Any, ...]], i: int) -> list[tuple[Any, ...]]:
    """The group values broadcast right after step i (computed from the same folds)."""
    out = []
    for step in steps[i + 1:]:
        if step[0] != "bcast":
            break
        out.append(step)
    return out


def _by_type(plan: Plan, g: Grouping, values: list[Mixed]) -> Any:
    """Group values the rows use that are each of two types (a mean that is an exact integer
    quotient in some groups, a float in others): the plan runs apart over the groups of each
    combination of their types, where each is of one type, and the results are put back in
    group order (two such means: one split into up to four parts, not a split in each part)."""
    signature = np.zeros(len(values[0].values), np.int64)
    for bit, v in enumerate(values):
        signature |= np.fromiter((type(x) is int for x in v.values), bool, len(v.values)).astype(np.int64) << bit
    read = _row_columns(plan, g.table)
    table = g.table if read is None else g.table.select(read)
    parts = []
    for sig in np.unique(signature).tolist():
        sel = signature == sig
        idx = np.flatnonzero(sel)
        rank = np.full(g.count, -1, np.int64)
        rank[idx] = np.arange(len(idx))
        keep = sel[g.codes]
        sub = Grouping(table.filter(pa.array(keep)), rank[g.codes[keep]], len(idx),
                       [a.take(pa.array(idx)) for a in g.key_arrays], g.juxt)
        parts.append((idx, run(plan, sub)))
    return _merged(parts, g.count)


def _row_columns(plan: Plan, table: pa.Table, also: tuple[Any, ...] = ()) -> list[int] | None:
    """The positions of the table's columns the plan's steps (and the expressions `also`) read
    (kernels.column's rule), or None when a fold reads whole rows (so a table split by group
    type, or filtered, keeps only what is read)."""
    keys: set[Any] = set()

    def walk(x: Any) -> None:
        if type(x) is tuple:
            if len(x) >= 2 and x[0] == "col" and type(x[1]) in (Keyword, str):
                keys.add(x[1])
            for y in x:
                walk(y)
        elif type(x) is list:
            for y in x:
                walk(y)

    for step in plan.steps:
        if step[0] == "fold" and step[2] != "count" and step[3] == ("arg",):
            return None
        walk(step)
    walk(also)
    return [i for i, c in enumerate(table.column_names)
            if (k := host_key(c)) in keys and any(type(k) is type(x) and k == x for x in keys)]


def _merged(parts: list[tuple[np.ndarray, Any]], count: int) -> Any:
    """Results over disjoint sets of groups covering them all (their group numbers, their
    trees) as one."""
    first = parts[0][1]
    if len(parts) == 1:
        return first
    if type(first) is tuple:  # the same map or vector literal in every part
        if first[0] == "M":
            return ("M", tuple((k, _merged([(idx, r[1][j][1]) for idx, r in parts], count))
                               for j, (k, _) in enumerate(first[1])))
        return ("V", tuple(_merged([(idx, r[1][j]) for idx, r in parts], count) for j in range(len(first[1]))))
    if all(is_array(r) and r.type == first.type for _, r in parts):
        order = np.empty(count, np.int64)
        start = 0
        for idx, _ in parts:
            order[idx] = start + np.arange(len(idx))
            start += len(idx)
        return pa.concat_arrays([_flat(r) for _, r in parts]).take(pa.array(order))
    values: list[Any] = [None] * count
    for idx, r in parts:
        for i, x in zip(idx.tolist(), _leaf_values(r, len(idx))):
            values[i] = x
    return Mixed(values)


_BYTES_PER_ROW = 40  # what one fold allocates per row at most: codes, values, masks, an order


def _check_work(rows: int) -> None:
    """Before each fold: the deadline, the memory the run holds, and what the fold will allocate
    (each fold is one pass of numpy or Arrow calls over the rows, bounded by their number)."""
    context.check_deadline()
    context.check_memory()
    st = context.CURRENT
    if rows * _BYTES_PER_ROW > st.limits.max_memory:
        raise context.limit_error("max_memory", st.limits.max_memory,
                                  f"a fold over {rows:,} rows needs about {rows * _BYTES_PER_ROW >> 20} MB")


def _gframe(cols: dict[str, Any], count: int) -> pa.Table:
    return pa.table(cols) if cols else pa.table({"\x00": pa.nulls(count)})


def _eval_tree(tree: tuple[Any, ...], frame: pa.Table, mixed: dict[str, Mixed]) -> Any:
    """The tree's G leaves computed (Arrays or scalars), containers as ("M", ...) / ("V", ...)."""
    if tree[0] == "G":
        e = tree[1]
        if e[0] in ("and", "or", "in", "has", "where", "all", "any", "none"):
            raise Fallback("a predicate's value (not only its truth) is asked for")
        if e[0] == "col" and e[1] in mixed:
            return mixed[e[1]]
        return value(e, frame)
    if tree[0] == "M":
        return ("M", tuple((k, _eval_tree(v, frame, mixed)) for k, v in tree[1]))
    return ("V", tuple(_eval_tree(v, frame, mixed) for v in tree[1]))


def _np(x: Any) -> np.ndarray:
    return _flat(x).to_numpy(zero_copy_only=False)


def _fold(step: tuple[Any, ...], rows: pa.Table, g: Grouping, gframe: pa.Table, sorts: dict[str, np.ndarray]) -> Any:
    _, name, how, elem, pred, mod, *extra = step
    keep = None
    if pred is not None:
        keep = _np(truth(pred, rows)).astype(bool, copy=False)
    reach = None if keep is None else pa.array(keep)
    codes = g.codes if keep is None else g.codes[keep]
    G = g.count
    sizes = g.sizes if keep is None else _sizes(codes, G)
    if how == "count":
        return pa.array(sizes)
    x = value(elem, rows, reach)
    if not is_array(x):
        if x is None and how in ("sum-by", "avg-by", "first", "last"):
            x = pa.nulls(rows.num_rows)
        else:
            raise Fallback("a fold of a constant")
    x = _flat(x)
    if keep is not None:
        x = x.filter(reach)
    k = kind(x)
    context.check_deadline()
    if how == "ndistinct":
        return _ndistinct(x, k, codes, G)
    if how in ("first", "last"):
        return _first_last_of(x, codes, G, how)
    if how in ("sum-by", "avg-by"):
        return _sum_avg_by(x, k, codes, G, how, sizes)
    if how == "segmented":
        second = None if extra[1] is None else value(extra[1], rows, reach)
        if second is not None:
            if not is_array(second):
                raise Fallback("a statistic of a constant")
            second = _flat(second).filter(reach) if keep is not None else _flat(second)
        return _segmented(x, k, second, codes, G, extra[0], extra[2:], sizes)
    if how == "sum":
        return _sum(x, k, codes, G, extra[0], sizes)
    if how in ("max", "min"):
        return _extreme(x, k, codes, G, how, sizes)
    if how == "conj":  # every value in row order, a vector per group
        return _lists(x, np.concatenate([[0], np.cumsum(sizes)]), g.order if keep is None else by_group(codes, G), True)
    order = None
    if how in ("take", "nth") and mod is not None:
        key = repr((elem, pred, mod[1] == ">", mod[2]))
        if key not in sorts:
            by = x
            if mod[2] is not None:  # sort-by: the order of the keys
                by = value(mod[2], rows, reach)
                if not is_array(by):
                    raise Fallback("a sort key that is the same for every value")
                by = _flat(by).filter(reach) if keep is not None else _flat(by)
            keys = _sort_keys(by, kind(by), mod[1])
            if how == "take" and extra[0] <= _TOP_ROUNDS:
                top = _top_n(keys, codes, G, extra[0], sizes)
                if top is not None:
                    return _lists(x, *top, extra[1])
            if how == "nth" and extra[0] in (("lit", 0), ("last",)):
                ends = _an_end(x, keys, codes, G, sizes, extra[0] == ("last",))
                if ends is not None:
                    return ends
            stable = mod[2] is not None or _both_zeros(keys)
            sorts[key] = _sorted_within(keys, codes, stable, g.order if keep is None else None)
        order = sorts[key]
    if how == "take":
        return _take_n(x, codes, G, mod, extra[0], order, sizes, extra[1])
    if how == "nth":
        return _nth_of(x, codes, G, mod, extra[0], gframe, order, sizes)
    raise Fallback(f"{how} is not a fold kernels compute")


_MEASURED_PER_VALUE = 1e-7  # seconds a statistic's kernel takes per value at most (a sort within groups)


def _segmented(x: Any, k: str, second: Any, codes: np.ndarray, G: int, qualified: str, consts: tuple[Any, ...],
               sizes: np.ndarray) -> Any:
    """A statistic's segmented kernel (its registry entry's) over each group's values, nil and
    NaN left out as the row path leaves them (of a pair: where either is missing); the groups'
    sizes are the segments' when nothing is left out (a bincount the kernel need not make)."""
    from ..errors import PTCError
    from ..registry import REGISTRY
    from .segments import Segments, as_float_values

    seg = REGISTRY[qualified].segmented
    args = []
    for c in consts:
        if c[0] != "lit":
            raise Fallback("a statistic's argument that is not a constant")
        args.append(c[1])
    columns = [(x, k)] if second is None else [(x, k), (second, kind(second))]
    arrays, valid = [], np.ones(len(x), bool)
    for col, ck in columns:
        if ck not in ("int", "float", "null"):
            raise Fallback(f"{qualified} over {ck} values (the row path raises)")
        if ck == "null":
            v, ok = np.zeros(len(col)), np.zeros(len(col), bool)
        else:
            v, ok = as_float_values(col)
        arrays.append(v)
        valid &= ok
    everything = bool(valid.all())  # no nil, no NaN: no copies
    values = arrays[0] if everything else arrays[0][valid]
    picks = seg.picks(*args) if callable(seg.picks) else seg.picks
    integral = k == "int" and second is None
    if picks and integral and len(values) and np.abs(values).max() > float(1 << 53):
        raise Fallback("integers beyond 2^53, which a float statistic would round")
    context.check_time(len(values) * _MEASURED_PER_VALUE, f"{qualified} over {len(values):,} values")
    pick = slice(None) if everything else valid
    segments = Segments.of_groups(values, codes[pick], G, None if second is None else arrays[1][pick], integral,
                                  sizes if everything else None)
    context.check_deadline()
    try:
        out = seg.kernel(segments, *args)
    except PTCError as e:  # an argument the row path refuses: it raises there
        raise Fallback(f"{qualified}: {e.message}") from None
    missing = np.isnan(out)
    if picks and integral:
        return pa.array(np.where(missing, 0, out).astype(np.int64), mask=missing)
    return pa.array(out, mask=missing)


def _numbers(x: Any, k: str, who: str) -> None:
    if k not in ("int", "float"):
        if k == "null" and len(x) == 0:
            return
        raise Fallback(f"{who} over {k} values (the row path raises)")
    if x.null_count:
        raise Fallback(f"a nil reaches {who} (the row path raises)")


def _sizes(codes: np.ndarray, G: int) -> np.ndarray:
    return np.bincount(codes, minlength=G)


def _sum(x: Any, k: str, codes: np.ndarray, G: int, init: Any, sizes: np.ndarray) -> Any:
    """(reduce + [init] xs) per group: integers exactly, floats added in row order from 0.0."""
    if len(x) == 0:
        return pa.array([0 if init is None else init] * G)
    _numbers(x, k, "+")
    vals = _np(x)
    if k == "int":
        if init is not None and type(init) is float:
            raise Fallback("reduce + of integers from a float start")
        bound = max(int(vals.max()), -int(vals.min())) * int(sizes.max()) + abs(init or 0)
        if bound >= 1 << 53:
            raise Fallback("integer sums beyond 2^53")
        sums = np.bincount(codes, weights=vals.astype(np.float64), minlength=G).astype(np.int64)
        if init:
            sums = sums + init
        return pa.array(sums)
    if init is not None and type(init) is int and abs(init) >= 1 << 53:
        raise Fallback("an integer beyond 2^53 added to floats")
    if init not in (None, 0, 0.0) or (type(init) is float and np.signbit(init)):
        raise Fallback("reduce + from a start other than 0")
    sums = np.bincount(codes, weights=vals, minlength=G)
    if init is None:
        zeros = np.flatnonzero(vals == 0)
        negzero = zeros[np.signbit(vals[zeros])]
        if len(negzero):
            # from +0.0 the partial sums are those from the first value except while every value
            # so far is -0.0: a group of only -0.0 values sums to -0.0 in the row path
            sums[np.bincount(codes[negzero], minlength=G) == sizes] = -0.0
    if init is None and (sizes == 0).any():  # (reduce + []) is 0, an integer
        raise Fallback("a float sum of an empty group")
    return pa.array(sums)


def _sum_avg_by(x: Any, k: str, codes: np.ndarray, G: int, how: str, sizes: np.ndarray) -> Any:
    """sum-by / avg-by per group: nils skipped, (sum-by) 0 and (avg-by) nil for none."""
    valid = None
    if x.null_count:
        valid = _np(pc.is_valid(x)).astype(bool)
    if k == "null" or (valid is not None and not valid.any()):
        return pa.array([0] * G) if how == "sum-by" else pa.nulls(G, pa.float64())
    if k not in ("int", "float"):
        raise Fallback(f"{how} over {k} values (the row path raises)")
    from .reduce import _SEQUENTIAL_SUM

    if k == "float" and not _SEQUENTIAL_SUM:
        raise Fallback("a float sum Python compensates")
    vals = _np(x.fill_null(0) if valid is not None else x)
    c = codes if valid is None else codes[valid]
    w = vals if valid is None else vals[valid]
    ns = sizes if valid is None else np.bincount(c, minlength=G)
    if k == "int":
        if len(w) and int(np.abs(w).max()) * int(ns.max()) >= 1 << 53:
            raise Fallback("integer sums beyond 2^53")
        sums: Any = np.bincount(c, weights=w.astype(np.float64), minlength=G).astype(np.int64)
    else:
        sums = np.bincount(c, weights=w, minlength=G)
    if how == "sum-by":
        if k == "float" and (ns == 0).any():  # (sum-by :k []) is 0, an integer, among float sums
            return Mixed([0 if c == 0 else x for x, c in zip(sums.tolist(), ns.tolist())])
        return pa.array(sums)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums.astype(np.float64) / ns
    return pa.array(means, mask=ns == 0)


def _extreme(x: Any, k: str, codes: np.ndarray, G: int, how: str, sizes: np.ndarray) -> Any:
    _numbers(x, k, how)
    if (sizes == 0).any():
        raise Fallback(f"{how} of an empty group (the row path raises)")
    if k == "float":
        if np.isnan(_np(x)).any() or holds_negative_zero(x):
            raise Fallback(f"{how} over floats holding NaN or -0.0")
    return _hash_aggregate(codes, x, how, G)


def _hash_aggregate(codes: np.ndarray, x: Any, how: str, G: int) -> Any:
    """Arrow's hash aggregate `how` of x by group number, as an array indexed by group (a
    group with no rows gets nil)."""
    r = pa.table({"c": codes, "x": x}).group_by("c", use_threads=False).aggregate(
        [("x", how, pc.CountOptions(mode="all"))] if how == "count_distinct" else [("x", how)])
    at = np.full(G, -1, np.int64)
    at[_np(r.column("c"))] = np.arange(r.num_rows)
    return _flat(r.column(f"x_{how}")).take(pa.array(at, mask=at < 0))


def _first_last_of(x: Any, codes: np.ndarray, G: int, how: str) -> Any:
    """The first or last value of each group (nil for an empty group)."""
    n = len(codes)
    pos = np.full(G, -1, np.int64)
    idx = np.arange(n, dtype=np.int64)
    if how == "first":
        pos[codes[::-1]] = idx[::-1]  # the last write wins: the first row
    else:
        pos[codes] = idx
    take = pa.array(pos, mask=pos < 0)
    return x.take(take)


def _ndistinct(x: Any, k: str, codes: np.ndarray, G: int) -> Any:
    if k not in ("int", "str", "bool", "date", "null"):
        raise Fallback(f"a distinct count of {k} values")
    return _hash_aggregate(codes, x, "count_distinct", G).fill_null(0)


def _sort_keys(x: Any, k: str, cmp: str) -> np.ndarray:
    """x's values as numbers whose ascending order is the sort's order (negated for >; strings
    under compare as their ranks), or Fallback where the kernels' order could differ from the
    row path's (nil, NaN). -0.0 equals 0.0 there as here (compare, < and >), so they are ties
    a stable sort leaves in row order (see _both_zeros)."""
    if k not in ("int", "float") and not (k == "str" and cmp == "compare"):
        raise Fallback(f"sort of {k} values (kernels sort numbers, and strings with compare)")
    if x.null_count:
        raise Fallback("sort of values holding nil")
    if k == "float":
        keys = _np(x)
        if np.isnan(keys).any():
            raise Fallback("sort of floats holding NaN")
    elif k == "int":
        keys = _np(x)
    else:
        keys = _np(pc.rank(x, sort_keys="ascending", tiebreaker="first"))
    if cmp == ">":
        if k == "int" and len(keys) and keys.min() == np.iinfo(np.int64).min:
            raise Fallback("a descending sort of the smallest 64-bit integer")
        keys = -keys
    context.check_deadline()  # a few passes over the rows: the clock is read before the sort's
    return keys


def _both_zeros(keys: np.ndarray) -> bool:
    """Whether float keys hold 0.0 and -0.0: equal keys that are not the same bits, whose order
    a sort of the values themselves must keep too (a stable sort, as for sort-by's keys)."""
    if keys.dtype.kind != "f":
        return False
    signs = np.signbit(keys[keys == 0])
    return bool(signs.any() and not signs.all())


def _sorted_within(keys: np.ndarray, codes: np.ndarray, stable: bool, grouped: np.ndarray | None = None) -> np.ndarray:
    """Row positions ordered by group, then by their _sort_keys, ties in row order as
    Clojure's stable sort leaves them (stable: the keys are sort-by keys, whose ties may hold
    different values; else equal keys are the same bits and any order of ties will do).
    `grouped`: the rows' positions by group (by_group of codes), when already known."""
    G = int(codes.max()) + 1 if len(codes) else 0
    if G * _SEGMENT_ROWS <= len(keys):
        return _sorted_segments(keys, codes, G, stable, grouped)
    by_value = np.argsort(keys, kind="stable" if stable else "quicksort")
    context.check_deadline()  # each numpy call is bounded by the rows; the clock is read between them
    return by_value[by_group(codes[by_value], G)]


_TOP_ROUNDS = 4  # (take n (sort ...)) per group for n up to this: n passes of minima, no sort


def _top_n(keys: np.ndarray, codes: np.ndarray, G: int, n: int,
           sizes: np.ndarray, last: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """(take n (sort ...)) per group without sorting or putting rows in group order: n rounds,
    each taking every group's smallest key left (its first row among equal keys: the stable
    sort's order; `last`: its last row among them) in a few numpy passes over the rows
    (db-benchmark's q8, the top 2 of 100,000 groups of 10M rows: 2.9 s -> 0.8-1.35 s end to end).
    Gives the lists' offsets and the rows' positions (as _take_n), or None when a key equals the
    mark of a taken row (the largest integer, or infinity)."""
    big = np.iinfo(keys.dtype).max if keys.dtype.kind in "iu" else np.inf
    if len(keys) and keys.max() == big:
        return None
    n = max(n, 0)
    m = np.minimum(sizes, n)
    offsets = np.concatenate([[0], np.cumsum(m)])
    out = np.empty(offsets[-1], np.int64)
    left = np.array(keys)  # a copy: taken rows are marked in it
    for r in range(n):
        least = np.full(G, big, keys.dtype)
        np.minimum.at(least, codes, left)
        at = np.flatnonzero(left == least[codes])
        first = np.zeros(G, np.int64)
        if last:
            first[codes[at]] = at  # the last write wins: each group's last row at its least
        else:
            first[codes[at][::-1]] = at[::-1]  # each group's first row at its least
        active = np.flatnonzero(sizes > r)
        out[offsets[active] + r] = first[active]
        left[first[active]] = big
        context.check_deadline()
    return offsets, out


def _lists(x: Any, offsets: np.ndarray, positions: np.ndarray, vectors: bool = False) -> Any:
    """Each group's values at these positions as a list per group (offsets: where each starts):
    a seq each as take gives, or (vectors) a vector each as conj gives, which a large list marks."""
    if vectors:
        return pa.LargeListArray.from_arrays(pa.array(offsets.astype(np.int64)), x.take(pa.array(positions)))
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), x.take(pa.array(positions)))


def _is_lists(t: pa.DataType) -> bool:
    """A column of a seq (take) or a vector (conj) per group (see _lists)."""
    return bool(pa.types.is_list(t) or pa.types.is_large_list(t))


def _an_end(x: Any, keys: np.ndarray, codes: np.ndarray, G: int, sizes: np.ndarray, last: bool) -> Any:
    """(first xs) / (last xs) of a seq sorted stably by keys, per group, without sorting: the
    row at each group's least key, the first among equal ones (first), or at its greatest, the
    last among equal ones (last); nil for an empty group (read as nth's, which it is). None when
    _top_n cannot take these keys."""
    if last:
        if keys.dtype.kind in "iu" and len(keys) and keys.min() == np.iinfo(keys.dtype).min:
            return None
        keys = -keys
    top = _top_n(keys, codes, G, 1, sizes, last)
    if top is None:
        return None
    has = sizes > 0
    pos = np.zeros(G, np.int64)
    pos[has] = top[1]
    return x.take(pa.array(pos, mask=~has))


_SEGMENT_ROWS = 32  # rows per group on average from which each group is sorted on its own


def _sorted_segments(keys: np.ndarray, codes: np.ndarray, G: int, stable: bool,
                     grouped: np.ndarray | None) -> np.ndarray:
    """_sorted_within for large groups: the rows put in group order once, then each group's
    slice sorted on its own (sorts that fit in cache, n log(group size) work instead of n log n:
    10M rows in 10,000 groups 1.4 s against 3.2 s for one sort of all the values); the clock
    is read every 256 groups."""
    order = by_group(codes, G) if grouped is None else grouped
    context.check_deadline()
    values = keys[order]
    out = np.empty_like(order)
    kind = "stable" if stable else "quicksort"
    start = 0
    for i, size in enumerate(np.bincount(codes, minlength=G).tolist()):
        end = start + size
        out[start:end] = order[start:end][np.argsort(values[start:end], kind=kind)]
        start = end
        if (i & 255) == 255:
            context.check_deadline()
    return out


def _take_n(x: Any, codes: np.ndarray, G: int, mod: Any, count: int, order: Any, sizes: np.ndarray,
            vectors: bool) -> Any:
    """(take n xs) per group as a list per group (a seq, or a vector: see _lists): the first n
    in row order, or of the sorted seq."""
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    m = np.minimum(sizes, max(count, 0))
    if mod is None:
        order = by_group(codes, G)
    context.check_deadline()
    offsets = np.concatenate([[0], np.cumsum(m)])
    within = np.arange(offsets[-1], dtype=np.int64) - np.repeat(offsets[:-1], m)
    grp = np.repeat(np.arange(G, dtype=np.int64), m)
    return _lists(x, offsets, order[starts[grp] + within], vectors)


def _nth_of(x: Any, codes: np.ndarray, G: int, mod: Any, index: Any, gframe: pa.Table, order: Any,
            sizes: np.ndarray) -> Any:
    """(nth (sort xs) i) per group, i a group value; an index out of range is a nil that no
    computation may reach (the row path raises there)."""
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    if index == ("last",):
        i = sizes - 1
    else:
        iv = value(index, gframe)
        if is_array(iv):
            if kind(iv) != "int" or iv.null_count:
                raise Fallback("nth with an index that is not an integer")
            i = _np(iv).astype(np.int64)
        elif type(iv) is int:
            i = np.full(G, iv, np.int64)
        else:
            raise Fallback("nth with an index that is not an integer")
    ok = (i >= 0) & (i < sizes)
    safe = np.where(ok, starts + np.clip(i, 0, np.maximum(sizes - 1, 0)), 0)
    if not len(order):
        return pa.nulls(G, x.type)
    return x.take(pa.array(order[safe], mask=~ok))  # read through ("op", "present", ...)


# -- results: columns per group -> what the row path returns -----------------------------------


def _leaf_values(v: Any, count: int) -> list[Any]:
    from .dispatch import _values

    if type(v) is Mixed:
        return v.values
    if not is_array(v):
        return [v] * count
    from ..values import PList, vec

    out: list[Any] = []
    for start in range(0, len(v), _BLOCK):  # a million groups: the clock is read as they are converted
        context.check_deadline()
        vals = _values(v.slice(start, _BLOCK))
        if pa.types.is_list(v.type):  # (take n ...) per group: a seq each, as take gives
            vals = [None if x is None else PList(x) for x in vals]
        elif pa.types.is_large_list(v.type):  # (conj acc x) per key: a vector each
            vals = [None if x is None else vec(x) for x in vals]
        out.extend(vals)
    return out


_BLOCK = 65536


def values_by_group(result: tuple[Any, ...] | Any, count: int) -> list[Any]:
    """Each group's value as PTC values: a map or vector literal built per group."""
    from ..values import map_of, vec

    if type(result) is not tuple:
        return _leaf_values(result, count)
    parts = [values_by_group(v, count) for v in (result[1] if result[0] == "V" else [v for _, v in result[1]])]
    rows = zip(*parts) if parts else ((),) * count
    if result[0] == "V":
        make: Any = lambda xs: vec(list(xs))  # noqa: E731
    else:
        keys = [k for k, _ in result[1]]
        make = lambda xs: map_of(dict(zip(keys, xs)))  # noqa: E731
    out = []
    for i, xs in enumerate(rows):
        if not i & 16383:
            context.check_deadline()
        out.append(make(xs))
    return out


def _table_of(result: tuple[Any, ...], count: int) -> pa.Table | None:
    """A flat map literal of keywords to values of one type each, as a table (no row built), or None."""
    if type(result) is not tuple or result[0] != "M" or not result[1]:
        return None
    cols: dict[str, Any] = {}
    for k, v in result[1]:
        name = column_name(k)
        if name is None or name in cols:
            return None
        if type(v) is tuple or type(v) is Mixed or is_array(v) and (_is_lists(v.type) or kind(v) in ("kw", "dow")):
            return None  # a keyword column is no table's: to_arrow gives a keyword's name
        if is_array(v):
            cols[name] = v
        elif v is None or type(v) in (bool, int, float, str):
            cols[name] = pa.array([v] * count)
        else:
            return None
    return pa.table(cols)


def entries(result: tuple[Any, ...] | Any, g: Grouping) -> Any:
    """(map f groups)'s lazy seq: a table's rows when each value is a flat map literal, else the values."""
    from ..lazy import LazySeq
    from .dispatch import rows_seq

    table = _table_of(result, g.count)
    if table is not None:
        return rows_seq(table)
    vals = values_by_group(result, g.count)
    if len(vals) > 1024:  # what realizing it would charge: it is realized already
        context.check_realized(len(vals), len(vals), "sequence")
    seq = LazySeq.of_items(vals)  # realized: the result's size is bound without printing it
    bound = printed_at_most(result, g.count)
    if bound is not None:
        seq.printed_at_most = 2 * g.count + 3 + bound
    return seq


def printed_at_most(result: tuple[Any, ...] | Any, count: int) -> int | None:
    """An upper bound of the printed length of values_by_group(result, count), counted as
    printer.printed_bound counts, from the columns (walking 10,000 maps of lists cost 70-90 ms),
    or None for values it does not bound this way (dates, host values, mixed types)."""
    from ..printer import printed_bound

    if type(result) is tuple:
        parts = [v for _, v in result[1]] if result[0] == "M" else list(result[1])
        total = (2 * len(parts) + 3) * count
        if result[0] == "M":
            keys = [printed_bound(k, 1 << 20) for k, _ in result[1]]
            if None in keys:
                return None
            total = (4 * len(parts) + 2 + sum(keys)) * count  # type: ignore[arg-type]
        for part in parts:
            b = printed_at_most(part, count)
            if b is None:
                return None
            total += b
        return total
    if type(result) is Mixed:
        return None
    if not is_array(result):
        one = printed_bound(result, 1 << 20)
        return None if one is None else one * count
    t = result.type
    if pa.types.is_floating(t) or pa.types.is_integer(t) or pa.types.is_boolean(t) or pa.types.is_null(t):
        return 24 * len(result)  # a number, true/false or nil: at most 24 characters
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return 2 * result.nbytes + 2 * len(result)  # printed_bound's 2 per character and 2 quotes
    if _is_lists(t):
        items = _flat(result).flatten()
        inner = printed_at_most(items, 1)  # each list: its items, spaces and parentheses (or nil)
        return None if inner is None else 3 * len(result) + 2 * len(items) + inner
    return None


def groups_map(result: tuple[Any, ...] | Any, g: Grouping) -> Any:
    """(update-vals groups f)'s map: each group's key to its value."""
    from ..values import map_of

    if g.count > 4096:  # as the row path: a map of this many entries
        context.check_size(g.count, "map")
    return map_of(dict(zip(g.keys, values_by_group(result, g.count))))


def describe(plan: Plan) -> str:
    """The plan's folds as PTC-like text, for explain: `sum :v1, count, max :v2 (3 folds)`."""
    from .expr import text

    parts = []
    shared: dict[str, Any] = {}  # a row value folds share, shown where it is used
    for step in plan.steps:
        if step[0] == "row":
            shared[repr(("col", step[1], None))] = step[2]
        if step[0] != "fold":
            continue
        _, _, how, elem, pred, mod, *extra = step
        for key, e in shared.items():
            elem = _replaced(elem, key, e)
        what = "" if how == "count" or elem == ("arg",) else " " + text(elem)
        if mod == "distinct" or how == "ndistinct":
            how = "count-distinct"
        elif mod is not None:
            what += f" sorted {mod[1]}" if mod[2] is None or mod[2] == elem else f" sorted by {text(mod[2])} {mod[1]}"
        if how == "take":
            how = f"take {extra[0]}"
        elif how == "nth" and extra[0] in (("lit", 0), ("last",)):
            how = "first" if extra[0] == ("lit", 0) else "last"
        elif how == "segmented":
            how = extra[0]
            if extra[1] is not None:
                what += " " + text(extra[1])
        parts.append(how + what + ("" if pred is None else f" where {text(pred)}"))
    shown = ", ".join(parts[:6]) + (f", ... ({len(parts)} folds)" if len(parts) > 6 else "")
    return re.sub(r'"\x00 [a-z]+\d*"', "<group value>", shown)  # a broadcast: the group's own value


# -- reduce fns as folds: (reduce (fn [acc row] ...) init table) ------------------------------------

_NIL: Any = object()  # the old value of a key the accumulator does not hold yet
_FIRST: Any = object()  # a fold from its first value (`#(if % (+ % v) v)`), not from a start
_NOT: Any = object()  # a form that does not read the old value


@dataclasses.dataclass
class ByKey:
    """A reduce fn over a table's rows read as folds (see plan_by_key)."""

    pred: tuple[Any, ...] | None  # the rows that change the accumulator (on the others the fn returns it)
    parts: tuple[tuple[Any, ...], ...]  # the computed keys its maps are nested by, outermost first
    plan: Plan  # each key's value (no parts: the value) as folds of its rows
    into: bool  # the plan's map of constant keys is merged into init's


def plan_by_key(f: Any, init: Any) -> ByKey | str:
    """What a reduce fn `(fn [acc row] body)` from init computes over a table's rows as folds
    (the row path's loop becomes a group-by and a fold), or why it is not read so. body, after
    lets (the row or a vector acc destructured) and ifs one branch of which is acc itself (the
    other's test picks the rows), is
    - a chain of `(update acc K f args...)`, `(update-in acc [K1 K2 ...] f args...)` and
      `(assoc acc K (f (get acc K d) args...))`: from an empty map, each key's value folded over
      its rows, maps nested by the computed keys then by the constant ones (`[carrier :sum]`);
      with constant keys alone (`(update acc :n inc)`), init's values at them folded on;
    - a vector of the parts of a destructured acc (`(fn [[s n] r] [(+ s (:v r)) (inc n)])`), or
      one value (`(+ acc (:v r))`): folded over the whole table from init.
    A value is a fold step from the old one: `(+ old v)` (a sum), `(inc old)` (a count), `(max old
    v)` `(min old v)`, `(conj old v)` (the values in row order), old with a start where there is
    none yet (fnil's, get's or `or`'s default, `(if old (inc old) 1)`'s first value)."""
    node = getattr(f, NODE_ATTR, None)
    a = node.arities[0] if node is not None and len(node.arities) == 1 else None
    if a is None or a.rest is not None or a.has_recur or len(a.params) != 2:
        return "the reduce fn does not take an accumulator and a row"
    user = (getattr(f, "__globals__", None) or {}).get("_U") or {}
    try:
        return _ReduceReader(f, node, init, user).read(a.body)
    except _Fail as e:
        return f"the reduce fn {e.reason}"
    except _NotColumn as e:
        return e.reason


class _ReduceReader:
    """Reads a reduce fn's body into a ByKey: the row's values as column expressions, each change
    of the accumulator as a fold of them (see plan_by_key)."""

    def __init__(self, f: Any, node: Any, init: Any, user: dict[str, Any]) -> None:
        self.f, self.init = f, init
        self.t = _Translator(f, {id(b) for b in node.captures.values()}, user)
        acc, row = node.arities[0].params
        self.acc = {id(acc)}  # the accumulator and the locals bound to it
        self.parts: dict[int, int] = {}  # a local bound to part i of a destructured vector acc
        self.env: dict[int, tuple[Any, ...]] = {id(row): ("arg",)}
        self.pred: tuple[Any, ...] | None = None

    def read(self, body: n.Node) -> ByKey:
        body = self.guarded(body)
        steps = self.chain(body)
        parts: tuple[tuple[Any, ...], ...] = ()
        if steps is not None:
            parts, tree = self.keyed(steps)
        elif type(body) is n.VectorLit and self.parts:
            tree = self.vector_of(body.items, self.parts, _NIL if self.init is None else self.init)  # type: ignore[attr-defined]
        else:
            tree = self.folded(*self.leaf(body, self.whole))
        steps_ = [_bind_fold(s, self.f) for s in self.t.steps]
        return ByKey(None if self.pred is None else _bind(self.pred, self.f), tuple(_bind(p, self.f) for p in parts),
                     Plan(steps_, _bind_tree(tree, self.f)), steps is not None and not parts)

    # -- the body's shape ----------------------------------------------------------------------

    def guarded(self, body: n.Node) -> n.Node:
        """body past its lets and the ifs that return acc as it is on some rows (their tests,
        and-ed, are the rows the rest is computed on)."""
        body = self.lets(body, self.acc, self.parts)
        while type(body) is n.If:
            if self.is_acc(body.else_):  # type: ignore[attr-defined]
                body, p = body.then, self.col(body.test)  # type: ignore[attr-defined]
            elif self.is_acc(body.then):  # type: ignore[attr-defined]
                body, p = body.else_, ("op", "not", self.col(body.test))  # type: ignore[attr-defined]
            else:
                break
            self.pred = p if self.pred is None else ("and", self.pred, p)
            body = self.lets(body, self.acc, self.parts)
        return body

    def lets(self, body: n.Node, whole: set[int], parts: dict[int, int]) -> n.Node:
        """body past its lets: a local bound to a value of whole's (the acc, an old value) joins
        whole, one bound to its part i (a vector destructured: `[s n]`) gets i in parts, the
        others are column expressions of the row."""
        def of_whole(x: n.Node) -> bool:
            return type(x) is n.Local and id(x.binding) in whole  # type: ignore[attr-defined]

        while type(body) is n.Let:
            for b, x in body.bindings:  # type: ignore[attr-defined]
                if of_whole(x):
                    whole.add(id(b))
                elif type(x) is n.Call and type(x.fn) is n.RuntimeRef and x.fn.name == "nth_or_nil" \
                        and of_whole(x.args[0]) and type(x.args[1]) is n.Const and type(x.args[1].value) is int:  # type: ignore[attr-defined]
                    parts[id(b)] = x.args[1].value  # type: ignore[attr-defined]
                else:
                    self.env[id(b)] = self.col(x)
            body = body.body  # type: ignore[attr-defined]
        return body

    def chain(self, body: n.Node) -> list[tuple[str, list[n.Node]]] | None:
        """The updates of acc in the order they apply (`(-> acc (update ...) (update-in ...))`), or
        None when body is not one."""
        steps = []
        while type(body) is n.Call and type(body.fn) is n.BuiltinRef and body.args \
                and body.fn.builtin.qualified in ("update", "update-in", "assoc"):  # type: ignore[attr-defined]
            steps.append((body.fn.builtin.qualified, body.args[1:]))  # type: ignore[attr-defined]
            body = body.args[0]  # type: ignore[attr-defined]
        if not steps:
            return None
        if not self.is_acc(body):
            raise _Fail("updates something other than its accumulator")
        return steps[::-1]

    def keyed(self, steps: list[tuple[str, list[n.Node]]]) -> tuple[tuple[tuple[Any, ...], ...], tuple[Any, ...]]:
        """The computed keys all the updates share and the tree of each key's values: the
        constant keys after the computed ones nest them (`[(:origin r) :n]`)."""
        shared: tuple[tuple[Any, ...], ...] | None = None
        leaves = []
        for name, args in steps:
            if len(args) < 2 or name == "assoc" and len(args) != 2:
                raise _Fail(f"calls {name} with other arguments than a key and a change")
            path = self.path(args[0]) if name == "update-in" else [self.col(args[0])]
            parts, inner = _split_path(path)
            if shared is None:
                shared = parts
            elif repr(parts) != repr(shared):
                raise _Fail("updates keys computed differently")
            o = self.start_at(parts, inner)
            if name == "assoc":
                leaves.append((inner, self.folded(*self.leaf(args[1], functools.partial(self.got, path[0], o)))))
            else:
                leaves.append((inner, self.updated(args[1], args[2:], o)))
        return shared or (), _tree(leaves)

    def path(self, node: n.Node) -> list[tuple[Any, ...]]:
        if type(node) is n.VectorLit and node.items:  # type: ignore[attr-defined]
            return [self.col(k) for k in node.items]  # type: ignore[attr-defined]
        if type(node) is n.Const and type(node.value) is PVector and len(node.value):  # type: ignore[attr-defined]
            return [("lit", k) for k in node.value]  # type: ignore[attr-defined]
        raise _Fail("updates a path that is not a vector of keys")

    def start_at(self, parts: tuple[tuple[Any, ...], ...], inner: tuple[Any, ...]) -> Any:
        """The old value an update first meets: none under computed keys (from an empty map),
        init's at a constant key."""
        if type(self.init) not in (FMap, HMap):
            raise _Fail("updates keys of a start that is not a map")
        if parts:
            if len(self.init):
                raise _Fail("adds keys to a map that is not empty at the start")
            return _NIL
        if len(inner) != 1:
            raise _Fail("updates a path of constant keys")
        v = lookup(self.init, inner[0])
        return _NIL if v is None else v

    # -- one value's change ----------------------------------------------------------------------

    def updated(self, f: n.Node, extra: list[n.Node], o: Any) -> tuple[Any, ...]:
        """The value tree of (update acc k f extra...), o the old value it first meets: f a
        builtin, `(fnil f x)`, or a fn literal of the old value (which may destructure it as a
        vector, `(fn [[s n]] [(+ (or s 0) v) (inc (or n 0))])`: a vector of folds)."""
        if type(f) is n.Call and type(f.fn) is n.BuiltinRef and f.fn.builtin.qualified == "fnil" \
                and len(f.args) == 2 and type(f.args[1]) is n.Const:  # type: ignore[attr-defined]
            return self.updated(f.args[0], extra, f.args[1].value if o is _NIL else o)  # type: ignore[attr-defined]
        args = [self.col(x) for x in extra]
        if type(f) is n.BuiltinRef:
            return self.folded(f.builtin.qualified, o, args)  # type: ignore[attr-defined]
        a = f.arities[0] if type(f) is n.Fn and len(f.arities) == 1 else None  # type: ignore[attr-defined]
        if a is None or a.rest is not None or a.has_recur or len(a.params) != 1 + len(args):
            raise _Fail("updates with a fn other than (fnil f x), a builtin or a fn literal of the old value")
        old, *rest = a.params
        self.env.update((id(b), x) for b, x in zip(rest, args))
        whole, parts = {id(old)}, {}
        body = self.lets(a.body, whole, parts)
        if type(body) is n.VectorLit and parts:
            return self.vector_of(body.items, parts, o)  # type: ignore[attr-defined]
        return self.folded(*self.leaf(body, lambda x: o if type(x) is n.Local and id(x.binding) in whole else _NOT))  # type: ignore[attr-defined]

    def vector_of(self, items: list[n.Node], parts: dict[int, int], o: Any) -> tuple[Any, ...]:
        """A vector of steps, item i from part i of the old vector o (none: each part nil)."""
        if o is not _NIL and (type(o) is not PVector or len(o) != len(items)):
            raise _Fail("makes a vector of another length than its start's")
        return ("V", tuple(self.folded(*self.leaf(x, functools.partial(self.part, parts, i, o))) for i, x in enumerate(items)))

    def leaf(self, e: n.Node, base: Any) -> tuple[str, Any, list[tuple[Any, ...]]]:
        """(op, start, args) of a new value e: `(op old args...)`, base(x) the start when x reads
        the old value (else _NOT); or `(if old (op old args...) first)` (see first_or_next)."""
        if type(e) is n.If:
            return self.first_or_next(e, base)
        if type(e) is n.Call and type(e.fn) is n.BuiltinRef and e.args:  # type: ignore[attr-defined]
            op, xs = e.fn.builtin.qualified, list(e.args)  # type: ignore[attr-defined]
            if op == "+" and len(xs) == 2 and self.old(xs[0], base) is _NOT:
                xs.reverse()  # (+ v old): a sum of two numbers either way round
            start = self.old(xs[0], base)
            if start is not _NOT:
                return op, start, [self.col(x) for x in xs[1:]]
        raise _Fail("changes a value other than by (f old args...) or (if old (f old ...) first)")

    def first_or_next(self, e: n.Node, base: Any) -> tuple[str, Any, list[tuple[Any, ...]]]:
        """`(if old (op old args...) first)`: op's fold from the start first makes (inc: first -
        1; + max min: none, first being the value itself; conj: [])."""
        test, then, first = e.test, e.then, e.else_  # type: ignore[attr-defined]
        if type(test) is n.Call and type(test.fn) is n.BuiltinRef and len(test.args) == 1 \
                and test.fn.builtin.qualified in ("nil?", "some?"):  # type: ignore[attr-defined]
            if test.fn.builtin.qualified == "nil?":  # type: ignore[attr-defined]
                then, first = first, then
            test = test.args[0]  # type: ignore[attr-defined]
        o = self.old(test, base)
        op, start, args = self.leaf(then, base)
        if o is _NOT or start is not o:
            raise _Fail("tests something other than the old value")
        if o is not _NIL:  # the old value is there from the start: the test always holds
            return op, start, args
        if op == "conj" and type(first) is n.VectorLit and len(first.items) == 1 and len(args) == 1 \
                and repr(self.col(first.items[0])) == repr(args[0]):  # type: ignore[attr-defined]
            return op, PVector(), args
        v = self.col(first)
        if op == "inc" and not args and v[0] == "lit" and type(v[1]) is int:
            return op, v[1] - 1, args
        if op in ("+", "max", "min") and len(args) == 1 and repr(v) == repr(args[0]):
            return op, _FIRST, args
        raise _Fail("starts a value otherwise than its later changes make it")

    def folded(self, op: str, start: Any, args: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        """The ("G", ...) tree of the value a step (op, start, args) makes of a key's rows."""
        t = self.t
        if start is _NIL:
            raise _Fail(f"applies {op} to nil where a key is new (the row path raises or makes a list)")
        if op == "inc" and not args:
            return _counted(t.fold("count", None), 1, start)
        if op not in ("+", "max", "min", "conj") or len(args) != 1:
            raise _Fail(f"changes a value with {op} of {len(args)} values, not + inc max min or conj of one")
        v = args[0]
        if op == "conj":
            if type(start) is not PVector or len(start):
                raise _Fail("conjoins onto something other than []")
            return t.fold("conj", ("R", v, None, None))
        if start is not _FIRST and type(start) not in (int, float):
            raise _Fail(f"folds {op} from a start that is not a number")
        if op == "+" and v[0] == "lit" and type(v[1]) is int and abs(v[1]) < 1 << 20:  # (+ old 1): a count
            return _counted(t.fold("count", None), v[1], 0 if start is _FIRST else start)
        if op == "+":
            return t.fold("sum", ("R", v, None, None), None if start is _FIRST else start)
        m = t.fold(op, ("R", v, None, None))
        return m if start is _FIRST else ("G", ("op", op, ("lit", start), m[1]))

    # -- what reads the old value ------------------------------------------------------------------

    def old(self, x: n.Node, base: Any) -> Any:
        """base(x), also through `(or x d)` (d where there is no old value)."""
        if type(x) is n.Or and len(x.items) == 2 and type(x.items[1]) is n.Const:  # type: ignore[attr-defined]
            s = self.old(x.items[0], base)  # type: ignore[attr-defined]
            return x.items[1].value if s is _NIL else s  # type: ignore[attr-defined]
        return base(x)

    def whole(self, x: n.Node) -> Any:
        return (_NIL if self.init is None else self.init) if self.is_acc(x) else _NOT

    def part(self, parts: dict[int, int], i: int, o: Any, x: n.Node) -> Any:
        """Part i of the old vector o (nil where o is none) when x is the local bound to it."""
        if type(x) is not n.Local or parts.get(id(x.binding)) != i:  # type: ignore[attr-defined]
            return _NOT
        v = None if o is _NIL else o[i]
        return _NIL if v is None else v

    def got(self, key: tuple[Any, ...], o: Any, x: n.Node) -> Any:
        """o (or the default) when x is (get acc key d) or (acc key d)."""
        if type(x) is not n.Call:
            return _NOT
        if type(x.fn) is n.BuiltinRef and x.fn.builtin.qualified == "get" and x.args:  # type: ignore[attr-defined]
            target, rest = x.args[0], x.args[1:]  # type: ignore[attr-defined]
        else:
            target, rest = x.fn, x.args  # type: ignore[attr-defined]
        if not self.is_acc(target) or len(rest) not in (1, 2) or repr(self.col(rest[0])) != repr(key):
            return _NOT
        if o is not _NIL or len(rest) == 1:
            return o
        if type(rest[1]) is not n.Const:
            raise _Fail("reads its accumulator with a default that is not a constant")
        return rest[1].value  # type: ignore[attr-defined]

    def is_acc(self, x: n.Node) -> bool:
        return type(x) is n.Local and id(x.binding) in self.acc  # type: ignore[attr-defined]

    def col(self, x: n.Node) -> tuple[Any, ...]:
        """x as a column expression of the row, which must not read the accumulator."""
        if any(id(b) in self.acc or id(b) in self.parts for b in _locals_used(x)):
            raise _Fail("reads its accumulator beyond changing it")
        return _translate(x, self.env, self.t.captured)


def _split_path(path: list[tuple[Any, ...]]) -> tuple[tuple[tuple[Any, ...], ...], tuple[Any, ...]]:
    """A key path's computed keys (outermost first: the grouping) and the constant keys after them."""
    i = len(path)
    while i and path[i - 1][0] == "lit" and type(path[i - 1][1]) in (Keyword, str):
        i -= 1
    parts = tuple(path[:i])
    if any(p[0] == "lit" for p in parts) or len(parts) > 1 and any(p[0] == "juxt" for p in parts):
        raise _Fail("nests a constant or vector key among computed ones")
    return parts, tuple(p[1] for p in path[i:])


def _tree(leaves: list[tuple[tuple[Any, ...], tuple[Any, ...]]]) -> tuple[Any, ...]:
    """Values at constant key paths as a plan's result tree: one value, or nested map literals
    whose keys are in the order the updates first make them."""
    if len(leaves) == 1 and not leaves[0][0]:
        return leaves[0][1]
    root: dict[Any, Any] = {}
    for path, leaf in leaves:
        m = root
        for k in path[:-1]:
            m = m.setdefault(k, {})
            if type(m) is not dict:
                raise _Fail("updates a key and keys inside it")
        if not path or path[-1] in m:
            raise _Fail("changes one key twice")
        m[path[-1]] = leaf

    def as_tree(d: dict[Any, Any]) -> tuple[Any, ...]:
        return ("M", tuple((k, as_tree(v) if type(v) is dict else v) for k, v in d.items()))
    return as_tree(root)


def _counted(count: tuple[Any, ...], each: int, start: Any) -> tuple[Any, ...]:
    """start plus each for every row (a count's fold): the row path's (inc ...) or (+ ... 1)
    from start, exact for a float start below 2^53 too."""
    if type(start) not in (int, float) or type(start) is float and abs(start) >= 1 << 53:
        raise _Fail("counts from a start that is not a number below 2^53")
    e = count[1] if each == 1 else ("op", "*", count[1], ("lit", each))
    return ("G", e if start == 0 and type(start) is int else ("op", "+", e, ("lit", start)))


def reduced(bk: ByKey, table: pa.Table, init: Any) -> tuple[Any, str]:
    """The reduce's value over table as plan_by_key read it (init when no row changes it), and
    what explain says of it. Raises Fallback."""
    from ..values import map_of, map_items
    from .expr import text
    from .reduce import group_keys

    where = ""
    if bk.pred is not None:
        read = _row_columns(bk.plan, table, (bk.pred, bk.parts))
        rows = table if read is None else table.select(read)
        table = rows.filter(truth(bk.pred, rows))
        where = f" (of the rows where {text(bk.pred)})"
    if not table.num_rows:
        return init, f"no row to fold{where}: the start"
    if not bk.parts:
        if any(s[2] == "conj" for s in bk.plan.steps):  # (conj acc x): a vector of every row's
            _within_limit(table.num_rows)
        g = Grouping(table, np.zeros(table.num_rows, np.int64), 1, [pa.nulls(1)], False)
        value = values_by_group(run(bk.plan, g), 1)[0]
        if bk.into:
            value = map_of({**dict(map_items(init)), **dict(map_items(value))})
        return value, f"the whole table as one group, no group built: {describe(bk.plan)}{where}"
    key = bk.parts[0] if len(bk.parts) == 1 else ("juxt", *bk.parts)
    g = group_keys(table, key)
    if len(bk.parts) == 1:
        _within_limit(g.count)
    result = run(bk.plan, g)
    value = groups_map(result, g) if len(bk.parts) == 1 else _nested(g, values_by_group(result, g.count))
    return value, f"{text(key)}: {g.count} keys, no group built: {describe(bk.plan)}{where}"


def _within_limit(items: int) -> None:
    """Fallback when the accumulator would hold more than max_collection items: the row path
    stops there with its own limit error (its words and the count it has reached)."""
    if items > context.CURRENT.limits.max_collection:
        raise Fallback(f"an accumulator of {items:,} items, beyond max_collection")


def _nested(g: Grouping, values: list[Any]) -> Any:
    """{k1 {k2 v}} from the groups of a juxt of the keys, the maps update-in makes: each level's
    keys in the order of their first row, as the groups are numbered (a group's first row is
    the first of its outer keys' too)."""
    from ..values import map_of

    from .dispatch import _values

    keys = [_values(a) for a in g.key_arrays]
    root: dict[Any, Any] = {}
    for i, v in enumerate(values):
        if not i & 16383:
            context.check_deadline()
        m = root
        for part in keys[:-1]:
            m = m.setdefault(part[i], {})
        m[keys[-1][i]] = v

    def maps(d: dict[Any, Any]) -> Any:
        _within_limit(len(d))
        if len(d) > 4096:  # as the row path: a map of this many entries
            context.check_size(len(d), "map")
        return map_of({k: maps(v) if type(v) is dict else v for k, v in d.items()})
    return maps(root)
