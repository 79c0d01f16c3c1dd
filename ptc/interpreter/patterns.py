"""Shapes of analyzed code that the compiler turns into faster Python: pure functions of nodes.

Each recognizer answers "is this node that shape, and what are its parts?"; the compiler
(compiler.py) decides what to emit. Keeping them apart keeps the code generator about code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import nodes as n
from . import values as v

# -- comparators ---------------------------------------------------------------------------

COMPARED_KEYS_ATTR = "compared_keys"  # on a compiled comparator fn: what compared_keys found


def compared_keys(node: n.Fn) -> tuple[tuple[Any, bool], ...] | None:
    """`(fn [a b] (compare [(:x b) (:y a)] [(:x a) (:y b)]))`, `#(compare (:x %2) (:x %1))`:
    the keys the comparator compares its arguments by, in order, each with its direction
    (true: descending, the arguments swapped); a key is a keyword or None (the argument
    itself). Sort then orders by those keys instead of calling the fn per comparison."""
    if len(node.arities) != 1 or node.self_binding is not None or node.captures:
        return None
    ar = node.arities[0]
    body = ar.body
    if ar.rest is not None or len(ar.params) != 2 or type(body) is not n.Call or type(body.fn) is not n.BuiltinRef \
            or body.fn.builtin.qualified != "compare" or len(body.args) != 2:
        return None
    x, y = body.args
    if type(x) is n.VectorLit and type(y) is n.VectorLit:
        if len(x.items) != len(y.items) or not x.items:
            return None
        pairs = list(zip(x.items, y.items))
    else:
        pairs = [(x, y)]
    a, b = ar.params
    parts = []
    for p, q in pairs:
        kp, kq = _argument_key(p), _argument_key(q)
        if kp is None or kq is None or kp[1] != kq[1] or {kp[0], kq[0]} != {a, b}:
            return None
        parts.append((kp[1], kp[0] is b))
    return tuple(parts)


KEY_PARTS_ATTR = "parts"  # on `(juxt :a :b)` and fns like it: the keywords of the key vector


def keyword_vector(node: n.Fn) -> tuple[v.Keyword, ...] | None:
    """`(fn [o] [(:a o) (:b o)])`, `#(vector (:a %) (:b %))`: the keywords of a one-argument fn
    that returns the vector of its argument's fields, as `(juxt :a :b)` (grouping and sorting
    by it read the columns, without a vector per item)."""
    if len(node.arities) != 1 or node.self_binding is not None or node.captures:
        return None
    ar = node.arities[0]
    body = ar.body
    if ar.rest is not None or len(ar.params) != 1:
        return None
    if type(body) is n.VectorLit:
        items = body.items
    elif type(body) is n.Call and type(body.fn) is n.BuiltinRef and body.fn.builtin.qualified == "vector":
        items = body.args
    else:
        return None
    keys = [_argument_key(x) for x in items]
    if not keys or any(k is None or k[0] is not ar.params[0] or k[1] is None for k in keys):
        return None
    return tuple(k[1] for k in keys)  # type: ignore[index]


def _argument_key(x: n.Node) -> tuple[n.Binding, Any] | None:
    """(argument, key) for `(:k arg)` or `(get arg :k)` (key a keyword), or (arg, None) for `arg`."""
    if type(x) is n.Local:
        return x.binding, None
    if type(x) is n.KeywordCall and x.default is None and type(x.target) is n.Local and type(x.key) is v.Keyword:
        return x.target.binding, x.key
    if type(x) is n.Call and type(x.fn) is n.BuiltinRef and x.fn.builtin.qualified == "get" and len(x.args) == 2 \
            and type(x.args[0]) is n.Local and type(x.args[1]) is n.Const and type(x.args[1].value) is v.Keyword:
        return x.args[0].binding, x.args[1].value
    return None


# -- map/filter/remove/keep chains -------------------------------------------------------

def stage_of(node: n.Node) -> tuple[str, n.Node, n.Node] | None:
    """(kind, fn, coll) when node is a pipeline stage `(f coll)` of a builtin whose entry says
    it is one (map, mapv, filter, filterv, remove, keep: see registry.Builtin.stage)."""
    if type(node) is not n.Call or type(node.fn) is not n.BuiltinRef or len(node.args) != 2:
        return None
    kind = node.fn.builtin.stage  # type: ignore[attr-defined]
    return None if kind is None or kind == "reduce" else (kind, node.args[0], node.args[1])


def inlinable(f: n.Node) -> bool:
    """A stage fn a fused loop evaluates in place: a literal one-argument fn, or a keyword."""
    if type(f) is n.Const:
        return type(f.value) is v.Keyword  # type: ignore[attr-defined]
    if type(f) is not n.Fn or len(f.arities) != 1 or f.self_binding is not None:
        return False
    a = f.arities[0]
    return a.rest is None and not a.has_recur and len(a.params) == 1


# builtins with no effect but their value (or an error): a fused chain of literal fns that
# call only these may be computed ahead of what a lazy seq's reader asks for (see lazy.Ahead)



def pure_stage(f: n.Node) -> bool:
    """An inlinable stage fn whose body only reads locals and constants, looks up keys and
    calls pure builtins (their registry entries say so): evaluating it has no effect but its
    value or an error."""
    if type(f) is n.Const:
        return type(f.value) is v.Keyword  # type: ignore[attr-defined]
    if type(f) is n.BuiltinRef:
        return f.builtin.pure  # type: ignore[attr-defined,no-any-return]
    return inlinable(f) and all(_pure_node(x) for x in walk(f.arities[0].body))  # type: ignore[attr-defined]


def _pure_node(x: Any) -> bool:
    t = type(x)
    if t is n.Call:
        return type(x.fn) is n.BuiltinRef and x.fn.builtin.pure
    return t in (n.Const, n.Local, n.KeywordCall, n.If, n.And, n.Or, n.BuiltinRef)


# -- reduce with a private accumulator ----------------------------------------------------


def transient_update(body: n.Node, acc: n.Binding) -> tuple[str, list[n.Node], list[tuple[n.Binding, n.Node]]] | None:
    """(kind, parts, lets): ("assoc", [k, v]), ("update", [k, f, args...]), ("update-in",
    [[k1 k2 ...], f, args...]), ("assoc-in", [[k1 k2 ...], v]) or ("conj", [x]) when body is
    `(assoc acc k v)` / `(update acc k f args...)` / `(update-in acc [k1 k2 ...] f args...)` /
    `(assoc-in acc [k1 k2 ...] v)` (literal paths of two keys or more) / `(conj acc x)`, possibly inside `let`s (a destructured item: lets, their bindings in order),
    and acc appears nowhere else in it (so no other code can observe the accumulator)."""
    lets: list[tuple[n.Binding, n.Node]] = []
    while type(body) is n.Let:
        if any(mentions(init, acc) for _, init in body.bindings):
            return None
        lets.extend(body.bindings)
        body = body.body
    if type(body) is not n.Call or type(body.fn) is not n.BuiltinRef:
        return None
    name = body.fn.builtin.qualified
    args = body.args
    if not args or type(args[0]) is not n.Local or args[0].binding is not acc:
        return None
    rest = args[1:]
    if any(mentions(x, acc) for x in rest):
        return None
    if name == "assoc" and len(rest) == 2:
        return "assoc", rest, lets
    if name == "update" and len(rest) >= 2:
        return "update", rest, lets
    if name in ("update-in", "assoc-in") and len(rest) >= 2 and type(rest[0]) is n.VectorLit \
            and len(rest[0].items) >= 2 and (name == "update-in" or len(rest) == 2):
        return name, rest, lets
    if name == "conj" and len(rest) == 1:
        return "conj", rest, lets
    return None


def mentions(node: Any, binding: n.Binding) -> bool:
    """Whether node refers to binding anywhere (conservatively true for unknown shapes)."""
    return any(isinstance(x, n.Local) and (x.binding is binding or x.binding.box is binding)
               or isinstance(x, n.Fn) and id(binding) in x.captures for x in walk(node))


def walk(node: Any) -> Any:
    """Every node, clause and arity under node (node included), in no particular order."""
    stack: list[Any] = [node]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, n.Fn):
            stack.extend(a.body for a in x.arities)
        elif isinstance(x, (n.Node, n.ForClause, n.Arity)):
            for val in vars(x).values():
                if isinstance(val, (n.Node, n.ForClause, n.Arity)):
                    stack.append(val)
                elif isinstance(val, (list, tuple)):
                    for item in val:
                        if isinstance(item, (n.Node, n.ForClause, n.Arity)):
                            stack.append(item)
                        elif isinstance(item, tuple):
                            stack.extend(i for i in item if isinstance(i, (n.Node, n.Fn)))


# -- counted loops ------------------------------------------------------------------------


@dataclass
class CountedLoop:
    """`(loop [i i0 ...] (if (< i n) (recur (inc i) ...) done))` and its variants: i steps by
    `step` (+1 or -1) while `(op i bound)` holds, every recur passing `(inc i)`/`(dec i)`;
    `body` is the branch that recurs (on every path) and `done` the one that ends the loop."""

    counter: n.Binding
    step: int
    op: str  # "<", "<=", ">", ">=", "!=": the condition under which the loop goes on
    bound: n.Node  # a constant or a local the loop does not rebind
    body: n.Node
    done: n.Node


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "!="}


def counted_loop(loop: n.Loop) -> CountedLoop | None:
    body = loop.body
    if type(body) is not n.If or not loop.bindings:
        return None
    targets = [b for b, _ in loop.bindings]
    cond = _comparison(body.test, targets)
    if cond is None:
        return None
    counter, op, bound = cond
    if _recurs_on_every_path(body.then, targets):
        go, done = body.then, body.else_
    elif _recurs_on_every_path(body.else_, targets):
        go, done, op = body.else_, body.then, _NEGATE[op]
    else:
        return None
    if any(_is_recur_to(x, targets) for x in walk(done)):
        return None
    index = targets.index(counter)
    steps = {_step_of(r.args[index], counter) for r in walk(go) if _is_recur_to(r, targets)}
    if len(steps) != 1 or None in steps:
        return None
    step = steps.pop()
    if op not in (("<", "<=", "!=") if step > 0 else (">", ">=", "!=")):
        return None  # a loop that never ends or never starts: left to the general loop
    return CountedLoop(counter, step, op, bound, go, done)  # type: ignore[arg-type]


def _comparison(test: n.Node, targets: list[n.Binding]) -> tuple[n.Binding, str, n.Node] | None:
    """(counter, op, bound) for `(op counter bound)`, `(op bound counter)` (flipped), `(zero? i)`
    and `(pos? i)`, with bound a loop-invariant constant or local."""
    if type(test) is not n.Call or type(test.fn) is not n.BuiltinRef or test.fn.builtin.comparison is None:
        return None
    op, _, zero = test.fn.builtin.comparison.partition(" ")  # "<" or, for zero? and pos?, "= 0"
    args = test.args
    if zero:
        if len(args) == 1 and _is_target(args[0], targets):
            return args[0].binding, op, n.Const(test.line, test.col, 0)  # type: ignore[attr-defined]
        return None
    if len(args) != 2:
        return None
    a, b = args
    if _is_target(a, targets) and _invariant(b, targets):
        return a.binding, op, b  # type: ignore[attr-defined]
    if _is_target(b, targets) and _invariant(a, targets):
        return b.binding, _FLIP[op], a  # type: ignore[attr-defined]
    return None


def _is_target(x: n.Node, targets: list[n.Binding]) -> bool:
    return type(x) is n.Local and x.binding in targets  # type: ignore[attr-defined]


def _invariant(x: n.Node, targets: list[n.Binding]) -> bool:
    if type(x) is n.Const:
        return type(x.value) is int  # type: ignore[attr-defined]
    return type(x) is n.Local and x.binding not in targets and x.binding.box is None  # type: ignore[attr-defined]


def _step_of(arg: n.Node, counter: n.Binding) -> int | None:
    """+1 for `(inc i)`/`(+ i 1)`/`(+ 1 i)`, -1 for `(dec i)`/`(- i 1)`, else None (the entries'
    `step`, and their column op for + and -)."""
    if type(arg) is not n.Call or type(arg.fn) is not n.BuiltinRef:
        return None
    b, args = arg.fn.builtin, arg.args

    def is_i(x: n.Node) -> bool:
        return type(x) is n.Local and x.binding is counter  # type: ignore[attr-defined]

    def is_one(x: n.Node) -> bool:
        return type(x) is n.Const and type(x.value) is int and x.value == 1  # type: ignore[attr-defined]

    if b.step is not None and len(args) == 1 and is_i(args[0]):
        return b.step  # type: ignore[no-any-return]
    if b.column_op == "+" and len(args) == 2 and (is_i(args[0]) and is_one(args[1]) or is_one(args[0]) and is_i(args[1])):
        return 1
    if b.column_op == "-" and len(args) == 2 and is_i(args[0]) and is_one(args[1]):
        return -1
    return None


def _is_recur_to(x: Any, targets: list[n.Binding]) -> bool:
    return type(x) is n.Recur and recurs_to(x, targets)


def recurs_to(r: n.Recur, targets: list[n.Binding]) -> bool:
    """Whether recur r jumps to the loop whose bindings are targets (bindings are unique)."""
    return len(r.targets) == len(targets) and bool(targets) and r.targets[0] is targets[0]


def _recurs_on_every_path(node: n.Node, targets: list[n.Binding]) -> bool:
    """Every way out of node is a recur to this loop or an exit (return, fail, throw)."""
    t = type(node)
    if t is n.Recur:
        return recurs_to(node, targets)  # type: ignore[arg-type]
    if t in (n.Return, n.Fail, n.Throw):
        return True
    if t is n.If:
        return _recurs_on_every_path(node.then, targets) and _recurs_on_every_path(node.else_, targets)  # type: ignore[attr-defined]
    if t is n.Do:
        return _recurs_on_every_path(node.body[-1], targets)  # type: ignore[attr-defined]
    if t is n.Let or t is n.Letfn:
        return _recurs_on_every_path(node.body, targets)  # type: ignore[attr-defined]
    if t is n.Case:
        return node.default is not None and _recurs_on_every_path(node.default, targets) and \
            all(_recurs_on_every_path(body, targets) for _, body in node.clauses)  # type: ignore[attr-defined]
    return False


def integer_accumulators(loop: n.Loop, c: CountedLoop) -> list[n.Binding]:
    """The loop's other bindings that stay integers once they start as integers: every recur
    gives them `+`, `-`, `*`, `quot`, `rem`, `mod`, `inc` or `dec` of integers (the counter,
    integer constants, or each other). A counted loop whose accumulators start as integers runs with no type checks."""
    targets = [b for b, _ in loop.bindings]
    recurs = [r for r in walk(c.body) if _is_recur_to(r, targets)]
    ints = {b for b in targets if b is not c.counter}
    changed = True
    while changed:
        changed = False
        for b in list(ints):
            i = targets.index(b)
            if not all(_integer_closed(r.args[i], ints | {c.counter}) for r in recurs):
                ints.discard(b)
                changed = True
    return [b for b in targets if b in ints]


def _integer_closed(x: n.Node, ints: set[n.Binding]) -> bool:
    """An integer whenever the locals in ints hold integers."""
    t = type(x)
    if t is n.Const:
        return type(x.value) is int  # type: ignore[attr-defined]
    if t is n.Local:
        return x.binding in ints  # type: ignore[attr-defined]
    if t is n.Call and _integer_op(x):
        return all(_integer_closed(a, ints) for a in x.args)  # type: ignore[attr-defined]
    return False


def _integer_op(x: n.Call) -> bool:
    """x is a call of integers in, an integer out (its entry's `int_result`: +, -, *, quot, rem,
    mod of two, inc and dec of one; a product or quotient is size-checked where it is computed)."""
    b = x.fn.builtin if type(x.fn) is n.BuiltinRef else None  # type: ignore[attr-defined]
    return b is not None and b.int_result and len(x.args) == (1 if b.step is not None else 2)


def int_valued(x: n.Node, ints: set[str]) -> bool:
    """x is an integer when the locals named in ints (Python names) hold integers."""
    t = type(x)
    if t is n.Local:
        return x.binding.box is None and x.binding.py in ints  # type: ignore[attr-defined]
    if t is n.Const:
        return type(x.value) is int  # type: ignore[attr-defined]
    if t is n.Call and _integer_op(x):  # type: ignore[arg-type]
        return all(int_valued(a, ints) for a in x.args)  # type: ignore[attr-defined]
    return False


# -- grouped folds --------------------------------------------------------------------------

_REFS = (n.Local, n.BuiltinRef, n.GlobalRef, n.Const)  # naming a fn evaluates nothing


@dataclass
class Fold:
    """One fold of a group in the body of `(update-vals (group-by key coll) (fn [g] body))`:
    `(count (stages... g))` or `(reduce f [init] (stages... g))`."""

    site: n.Call  # the fold's node in the body
    stages: list[tuple[str, n.Node]]  # applied to each item, innermost first
    kind: str  # "reduce" or "count"
    f: n.Node | None
    init: n.Node | None


@dataclass
class GroupedFold:
    """`(update-vals (group-by key coll) (fn [g] body))` where g is used only by folds of the
    group, each evaluated once per group (`(fn [g] (reduce + (map :x g)))`, `(fn [g] {:n (count
    g) :avg (/ (reduce + (map :x g)) (count g))})`...): one pass over coll can compute every fold
    of every group, then body runs once per group with the folds' values (each group's items
    folded in the order the group would hold them)."""

    key: n.Node
    coll: n.Node
    group_by: n.Call
    fn: n.Fn | None  # None for the `(into {} (for [[k g] (group-by ...)] [k body]))` form
    folds: list[Fold]
    body: n.Node
    key_binding: n.Binding | None = None  # k of that form: the group's key where body runs


def grouped_fold(call: n.Call) -> GroupedFold | None:
    if len(call.args) != 2:
        return None
    grouping, fn = call.args
    if not (type(grouping) is n.Call and type(grouping.fn) is n.BuiltinRef
            and grouping.fn.builtin.qualified == "group-by" and len(grouping.args) == 2):
        return None
    if type(fn) is n.BuiltinRef and fn.builtin.qualified == "count":  # (update-vals groups count)
        g = n.Binding("group", f"l_group{id(fn)}", 0)
        fn = n.Fn(fn.line, fn.col, None, None, [n.Arity([g], None, n.Call(fn.line, fn.col, fn, [n.Local(fn.line, fn.col, g)]))])
    if type(fn) is not n.Fn or len(fn.arities) != 1 or fn.self_binding is not None:
        return None
    a = fn.arities[0]
    if a.rest is not None or a.has_recur or len(a.params) != 1:
        return None
    folds: list[Fold] = []
    if not _folds_in(a.body, a.params[0], folds) or not folds:
        return None
    fs = [x for fold in folds for x in (fold.f, *(s for _, s in fold.stages)) if x is not None]
    if not all(inlinable(x) or type(x) in _REFS for x in fs):
        return None  # a fn computed by an expression: evaluated per group, so kept as written
    if (len(folds) > 1 or folds[0].site is not a.body) and not all(_pure_fn(x) for x in fs):
        return None  # several folds are computed interleaved: only fns with no effect may be
    return GroupedFold(grouping.args[0], grouping.args[1], grouping, fn, folds, a.body)


def grouped_for(call: n.Call) -> GroupedFold | None:
    """`(into {} (for [[k g] (group-by key coll)] [k body]))`, body using g only in folds
    (see grouped_fold): the same one pass, body run per group with k bound to its key."""
    if len(call.args) != 2 or not (type(call.args[0]) is n.Const and call.args[0].value == {}):
        return None
    loop = call.args[1]
    if not (type(loop) is n.For and loop.collect and len(loop.clauses) == 2):
        return None
    bind, lets = loop.clauses
    grouping = bind.coll
    if not (bind.kind == "bind" and lets.kind == "let" and type(grouping) is n.Call and type(grouping.fn) is n.BuiltinRef
            and grouping.fn.builtin.qualified == "group-by" and len(grouping.args) == 2):
        return None
    pair = _pair_destructured(bind.binding, lets.lets or [])
    body = loop.body
    if pair is None or not (type(body) is n.VectorLit and len(body.items) == 2):
        return None
    k, g = pair
    if not (type(body.items[0]) is n.Local and body.items[0].binding is k):
        return None
    folds: list[Fold] = []
    value = body.items[1]
    if not _folds_in(value, g, folds) or not folds or mentions(value, bind.binding):  # type: ignore[arg-type]
        return None
    fs = [x for fold in folds for x in (fold.f, *(s for _, s in fold.stages)) if x is not None]
    if not all((inlinable(x) or type(x) in _REFS) and _pure_fn(x) for x in fs):
        return None
    return GroupedFold(grouping.args[0], grouping.args[1], grouping, None, folds, value, k)


def _pair_destructured(item: n.Binding | None, lets: list[tuple[n.Binding, n.Node]]) -> tuple[n.Binding, n.Binding] | None:
    """(k, g) when lets are what `[k g]` destructuring of item makes (a local for item, then k
    and g as its items 0 and 1), else None."""
    if item is None or len(lets) != 3:
        return None
    (vec, whole), (k, first), (g, second) = lets
    if not (type(whole) is n.Local and whole.binding is item):
        return None
    for node, i in ((first, 0), (second, 1)):
        if not (type(node) is n.Call and type(node.fn) is n.RuntimeRef and node.fn.name == "nth_or_nil"
                and len(node.args) == 2 and type(node.args[0]) is n.Local and node.args[0].binding is vec
                and type(node.args[1]) is n.Const and node.args[1].value == i):
            return None
    return k, g


# nodes whose parts (those _parts_of gives) are each evaluated exactly once when they are
_ONCE = (n.Call, n.Let, n.Do, n.KeywordCall, n.VectorLit, n.MapLit, n.SetLit, n.If, n.And, n.Or)


def _folds_in(node: n.Node, g: n.Binding, out: list[Fold]) -> bool:
    """Collect the folds of g in node into out; False when g is used any other way, or by a
    fold that might not be evaluated exactly once (in a branch, a loop, a nested fn...)."""
    if type(node) is n.Call and (fold := _fold_of(node, g)) is not None:
        out.append(fold)
        return True
    if not mentions(node, g):
        return True
    if type(node) not in _ONCE:
        return False
    parts = _parts_of(node)
    return all(_folds_in(x, g, out) for x in parts) and not any(mentions(x, g) for x in _branches_of(node))


def _parts_of(node: Any) -> list[Any]:
    """The parts of an _ONCE node evaluated every time it is (a branch is not)."""
    t = type(node)
    if t is n.Call:
        return [node.fn, *node.args]
    if t is n.Let:
        return [*(x for _, x in node.bindings), node.body]
    if t is n.Do:
        return list(node.body)
    if t is n.KeywordCall:
        return [node.target] + ([node.default] if node.default is not None else [])
    if t is n.MapLit:
        return [x for kv in node.pairs for x in kv]
    if t is n.If:
        return [node.test]
    if t is n.And or t is n.Or:
        return node.items[:1]
    return list(node.items)  # VectorLit, SetLit


def _branches_of(node: Any) -> list[Any]:
    """The parts of an _ONCE node that may not be evaluated."""
    t = type(node)
    if t is n.If:
        return [node.then, node.else_]
    if t is n.And or t is n.Or:
        return node.items[1:]
    return []


def _fold_of(body: n.Call, g: n.Binding) -> Fold | None:
    """The fold body is, when it is `(count (stages... g))` or `(reduce f [init] (stages... g))`."""
    if type(body.fn) is not n.BuiltinRef:
        return None
    name, args = body.fn.builtin.qualified, body.args
    if name == "count" and len(args) == 1:
        f, init, over = None, None, args[0]
    elif name == "reduce" and len(args) in (2, 3):
        f, init, over = args[0], (args[1] if len(args) == 3 else None), args[-1]
        if init is not None and type(init) is not n.Const or mentions(f, g):
            return None
    else:
        return None
    stages: list[tuple[str, n.Node]] = []
    while (stage := stage_of(over)) is not None:
        if mentions(stage[1], g):
            return None
        stages.append((stage[0], stage[1]))
        over = stage[2]
    if not (type(over) is n.Local and over.binding is g):
        return None
    return Fold(body, stages[::-1], name, f, init)


def _pure_fn(f: n.Node) -> bool:
    """f has no effect but its value (a keyword, a pure builtin, a literal fn calling only those)."""
    if type(f) is n.Fn:
        return all(_pure_node(x) for a in f.arities for x in walk(a.body))
    return pure_stage(f)
