"""The compiler: analyzed nodes -> one Python code object, compiled once per program.

Each PTC function becomes a Python function and each loop a `while` loop, so nothing
re-dispatches on node types while a program runs. Names are mangled (`l3_x`), constants
live in a table passed to the outer `_program` function, and every call starts a new line
of generated source so a traceback line maps back to the PTC form's line and column.
"""

from __future__ import annotations

import itertools
import math
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from . import nodes as n
from . import values as v
from .patterns import (COMPARED_KEYS_ATTR, KEY_PARTS_ATTR, CountedLoop, Fold, GroupedFold, compared_keys, counted_loop,
                       grouped_fold, grouped_for, inlinable, int_valued, integer_accumulators, keyword_vector, pure_stage,
                       recurs_to, stage_of, transient_update, walk)
from .columnar.expr import ATTR as COLUMN_ATTR
from .columnar.dispatch import (GROUP_MAPS, MAYBE_COLUMNAR, NO, columnar, fused_rows, over_grouping, over_groups,
                                reduced_by_key)
from .columnar.expr import NODE_ATTR as GROUP_NODE_ATTR
from .columnar.expr import of_fn_node as column_expr
from .pysource import FAST_INT, MARK, bind_once, const_of, is_literal_text, is_simple_text
from .registry import REGISTRY, Builtin

_MARK_END = "\x02"
_MARK_RE = re.compile("\x01(\\d+)\x02")
_MAX_EXPR_DEPTH = 40
_program_ids = itertools.count(1)


@dataclass
class Line:
    indent: int
    text: str
    pos: int


@dataclass
class CompiledProgram:
    """A compiled program: its code, constants and the map from Python lines to PTC positions."""

    filename: str
    code: Any
    consts: list[Any]
    const_names: list[str]
    line_map: dict[int, tuple[int, int]]
    source: str
    python_source: str = ""


class _Func:
    """A Python function being generated: its statement buffer and temp counter."""

    def __init__(self, compiler: "Compiler", indent: int = 0) -> None:
        self.c = compiler
        self.out: list[Line] = []
        self.indent = indent
        self.ticks = False

    def emit(self, text: str, node: n.Node | None = None) -> None:
        self.out.append(Line(self.indent, text, self.c.pos(node) if node is not None else -1))

    @contextmanager
    def block(self) -> Iterator[None]:
        self.indent += 1
        try:
            yield
        finally:
            self.indent -= 1

    @contextmanager
    def capture(self) -> Iterator[list[Line]]:
        saved, saved_indent = self.out, self.indent
        buf: list[Line] = []
        self.out, self.indent = buf, 0
        try:
            yield buf
        finally:
            self.out, self.indent = saved, saved_indent

    def splice(self, buf: list[Line]) -> None:
        for line in buf:
            self.out.append(Line(line.indent + self.indent, line.text, line.pos))

    def tmp(self) -> str:
        return self.c.fresh("_t")

    def tick(self, node: n.Node | None = None) -> None:
        self.ticks = True
        self.emit("_n -= 1")
        self.emit("if _n < 0: _budget()", node)


class _Sink:
    """Where a value in tail position goes: `return x`, or `r = x` (then maybe break)."""

    def __init__(self, kind: str, var: str | None = None) -> None:
        self.kind = kind  # "return" | "assign" | "loop"
        self.var = var

    def put(self, fn: _Func, expr: str, node: n.Node) -> None:
        if self.kind == "return":
            fn.emit(f"return {expr}", node)
        else:
            fn.emit(f"{self.var} = {expr}", node)
            if self.kind == "loop":
                fn.emit("break")


class Compiler:
    def __init__(self, source: str) -> None:
        self.source = source
        self.consts: list[Any] = []
        self.const_names: list[str] = []
        self._const_ids: dict[Any, str] = {}
        self.positions: list[tuple[int, int]] = []
        self.factories: list[list[Line]] = []
        self.hoisted: list[Line] = []
        self.counter = itertools.count(1)
        self.globals_used: dict[str, Any] = {}
        self.depth = 0
        # Fast paths (inline code, fusion) make code bigger, and CPython compiles big code slowly
        # (~0.1 ms per line): a huge program gets them for its first calls only.
        self.fast_paths = _FAST_PATH_BUDGET
        self.counting: list[tuple[list[n.Binding], n.Binding]] = []  # counted loops being compiled
        self.eager_nodes: set[int] = set()  # calls whose whole result is needed at once (see Builtin.consumes)
        self.plain_fors: set[int] = set()  # `for`s over map entries already given their group-by path
        self.list_nodes: set[int] = set()  # eager calls whose result only a runtime helper reads: a list will do
        self.known_ints: set[str] = set()  # locals that hold an integer where the code is emitted
        self.unchecked_ints = False  # integer + and - need no size check (done per chunk)
        # a row local -> the local that holds whether the row is a host dict
        self.row_is_dict: dict[str, str] = {}
        self.substituted: dict[int, str] = {}  # id of a node -> the Python name holding its value (see grouped)
        self.unfused: set[int] = set()  # calls compiled as written (the general branch of a fused form)

    # -- naming ---------------------------------------------------------------------

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.counter)}"

    def pos(self, node: n.Node | None) -> int:
        if node is None:
            return -1
        self.positions.append((node.line, node.col))
        return len(self.positions) - 1

    def mark(self, node: n.Node) -> str:
        return f"{MARK}{self.pos(node)}{_MARK_END}"

    def const(self, value: Any) -> str:
        """A Python expression for a constant value (literal when safe, else the table)."""
        if value is None:
            return "None"
        t = type(value)
        if t is bool:
            return "True" if value else "False"
        if t is int:
            return repr(value) if abs(value) < 1 << 64 else self._table(value)
        if t is float:
            return repr(value) if math.isfinite(value) else self._table(value)
        if t is str:
            return repr(value) if len(value) < 200 else self._table(value)
        return self._table(value)

    def _table(self, value: Any) -> str:
        key = (type(value), id(value)) if not isinstance(value, (str, int, float, v.Keyword)) else (type(value), value)
        name = self._const_ids.get(key)
        if name is None:
            name = f"_K{len(self.consts)}"
            self.consts.append(value)
            self.const_names.append(name)
            self._const_ids[key] = name
        return name

    def number_kind(self, node: n.Node, text: str) -> type | None:
        """int or float when the operand is known to be that number where the code runs (a
        numeric constant, or the counter of a counted loop), else None."""
        const = const_of(node)
        if type(const) in (int, float):
            return type(const)
        if text in self.known_ints or (self.known_ints and type(node) is n.Call and int_valued(node, self.known_ints)):
            return int
        return None

    def builtin(self, b: Builtin) -> str:
        from .runtime import builtin_global

        return builtin_global(b)

    # -- program --------------------------------------------------------------------

    def program(self, root: n.Node) -> CompiledProgram:
        main = _Func(self, 1)
        with main.block():
            sink = _Sink("return")
            self.value(root, main, sink)
        lines: list[Line] = []
        for fac in self.factories:
            lines.extend(Line(l.indent + 1, l.text, l.pos) for l in fac)
        lines.extend(Line(1, l.text, l.pos) for l in self.hoisted)
        lines.append(Line(1, "def _main():", -1))
        lines.append(Line(2, "global _n", -1))
        lines.extend(main.out)
        lines.append(Line(1, "return _main", -1))
        filename = f"<ptc-{next(_program_ids)}>"
        text, line_map = self._assemble(lines, ", ".join(self.const_names))
        code = compile(text, filename, "exec")
        return CompiledProgram(filename, code, self.consts, self.const_names, line_map, self.source, text)

    def _assemble(self, lines: list[Line], params: str) -> tuple[str, dict[int, tuple[int, int]]]:
        out = [f"def _program({params}):"]
        line_map: dict[int, tuple[int, int]] = {}
        for line in lines:
            parts = _MARK_RE.split(line.text)
            physical = ["    " * line.indent + parts[0]]
            positions = []
            for i in range(1, len(parts), 2):
                positions.append(int(parts[i]))
                physical.append(parts[i + 1])
            for j, text in enumerate(physical):
                out.append(text)
                pid = positions[j] if j < len(positions) else line.pos
                if pid >= 0:
                    line_map[len(out)] = self.positions[pid]
        return "\n".join(out) + "\n", line_map

    # -- statements and values -------------------------------------------------------

    def value(self, node: n.Node, fn: _Func, sink: _Sink) -> None:
        """Compile node in tail position of a block: its value goes to sink."""
        t = type(node)
        if t is n.If:
            test = self.truth(node.test, fn)  # type: ignore[attr-defined]
            fn.emit(f"if {test}:", node)
            with fn.block():
                self.value(node.then, fn, sink)  # type: ignore[attr-defined]
            fn.emit("else:")
            with fn.block():
                self.value(node.else_, fn, sink)  # type: ignore[attr-defined]
        elif t is n.Do:
            for x in node.body[:-1]:  # type: ignore[attr-defined]
                self.discard(x, fn)
            self.value(node.body[-1], fn, sink)  # type: ignore[attr-defined]
        elif t is n.Let:
            self.let_bindings(node.bindings, fn)  # type: ignore[attr-defined]
            self.value(node.body, fn, sink)  # type: ignore[attr-defined]
        elif t is n.Letfn:
            self.letfn(node, fn)  # type: ignore[arg-type]
            self.value(node.body, fn, sink)  # type: ignore[attr-defined]
        elif t is n.Recur:
            self.recur(node, fn)  # type: ignore[arg-type]
        elif t is n.Case:
            self.case(node, fn, sink)  # type: ignore[arg-type]
        elif t in (n.Return, n.Fail, n.Throw):
            self.discard(node, fn)
        else:
            sink.put(fn, self.expr(node, fn), node)

    def discard(self, node: n.Node, fn: _Func) -> None:
        """Compile node for its effects only."""
        t = type(node)
        if t is n.Const or t is n.Local:
            return
        if t is n.Return:
            fn.emit(f"raise _Return({self.expr(node.value, fn)})", node)  # type: ignore[attr-defined]
        elif t is n.Fail:
            fn.emit(f"raise _Fail({self.expr(node.value, fn)})", node)  # type: ignore[attr-defined]
        elif t is n.Throw:
            fn.emit(f"raise _throw({self.mark(node)}{self.expr(node.value, fn)})", node)  # type: ignore[attr-defined]
        elif t is n.Def:
            self.expr(node, fn)
        elif t is n.For:
            if not node.collect:  # type: ignore[attr-defined]
                self.for_loop(node, fn, None)  # type: ignore[arg-type]
            # a `for` whose seq is dropped is never realized: nothing runs (as in Clojure)
        elif t in (n.If, n.Do, n.Let, n.Letfn, n.Case):
            sink = _Sink("assign", "_")
            self.value(node, fn, sink)
        else:
            fn.emit(self.expr(node, fn), node)

    def let_bindings(self, bindings: list[tuple[n.Binding, n.Node]], fn: _Func) -> None:
        for b, init in bindings:
            fn.emit(f"{b.py} = {self.expr(init, fn)}", init)

    def recur(self, node: n.Recur, fn: _Func) -> None:
        targets, args = node.targets, node.args
        if self.counting and recurs_to(node, self.counting[-1][0]):
            counter = self.counting[-1][1]  # the range steps the counter: it is not assigned
            pairs = [(b, a) for b, a in zip(targets, args) if b is not counter]
            targets, args = [b for b, _ in pairs], [a for _, a in pairs]
        vals = self.args(args, fn)
        if targets:
            lhs = ", ".join(b.py for b in targets)
            fn.emit(f"{lhs} = {', '.join(vals)}", node)
        fn.emit("continue")

    def letfn(self, node: n.Letfn, fn: _Func) -> None:
        for b, f in node.fns:
            fn.emit(f"{b.box.py}[{b.index}] = {self.expr(f, fn)}", f)  # type: ignore[union-attr]

    def case(self, node: n.Case, fn: _Func, sink: _Sink) -> None:
        from .runtime import case_key

        table: dict[Any, int] = {}
        for i, (consts, _) in enumerate(node.clauses):
            for c in consts:
                table[case_key(c)] = i
        tname = self.const(_CaseTable(table))
        idx = fn.tmp()
        fn.emit(f"{idx} = {tname}.get(_case_key({self.expr(node.expr, fn)}), -1)", node)
        # Independent `if`s, not an elif chain: exactly one index matches, and a flat
        # sequence keeps huge case forms within what Python's compiler accepts.
        for i, (_, result) in enumerate(node.clauses):
            fn.emit(f"if {idx} == {i}:")
            with fn.block():
                self.value(result, fn, sink)
        fn.emit(f"if {idx} == -1:")
        with fn.block():
            if node.default is not None:
                self.value(node.default, fn, sink)
            else:
                fn.emit(f"_no_case({self.mark(node)}{idx})", node)

    # -- expressions ------------------------------------------------------------------

    def expr(self, node: n.Node, fn: _Func) -> str:
        self.depth += 1
        try:
            e = self._expr(node, fn)
            if self.depth > _MAX_EXPR_DEPTH and not is_simple_text(e):
                t = fn.tmp()
                fn.emit(f"{t} = {e}", node)
                return t
            return e
        finally:
            self.depth -= 1

    def _expr(self, node: n.Node, fn: _Func) -> str:
        if self.substituted and id(node) in self.substituted:
            return self.substituted[id(node)]
        t = type(node)
        if t is n.Const:
            return self.const(node.value)  # type: ignore[attr-defined]
        if t is n.Local:
            b = node.binding  # type: ignore[attr-defined]
            return f"{b.box.py}[{b.index}]" if b.box is not None else b.py
        if t is n.Call:
            return self.call(node, fn)  # type: ignore[arg-type]
        if t is n.KeywordCall:
            target = self.expr(node.target, fn)  # type: ignore[attr-defined]
            default = None
            if node.default is not None:  # type: ignore[attr-defined]
                default = self.args([node.target, node.default], fn)[1]  # type: ignore[attr-defined]
            return self.keyword_lookup(fn, node, target, node.key, default)  # type: ignore[attr-defined]
        if t is n.BuiltinRef:
            return self.builtin(node.builtin)  # type: ignore[attr-defined]
        if t is n.GlobalRef:
            return f"_U[{node.name!r}]"  # type: ignore[attr-defined]
        if t is n.RuntimeRef:
            return f"_rt_{node.name}"  # type: ignore[attr-defined]
        if t is n.DataRef:
            return f"_data({self.mark(node)}{node.name!r})"  # type: ignore[attr-defined]
        if t is n.ToolRef:
            return f"_tool_fn({node.name!r})"  # type: ignore[attr-defined]
        if t is n.HistoryRef:
            return f"_hist({node.index})"  # type: ignore[attr-defined]
        if t is n.ToolCall:
            args = self.args(node.args, fn)  # type: ignore[attr-defined]
            tup = "(" + "".join(a + ", " for a in args) + ")"
            return f"_tool({self.mark(node)}{node.name!r}, {tup})"  # type: ignore[attr-defined]
        if t is n.If:
            return self.if_expr(node, fn)  # type: ignore[arg-type]
        if t is n.Do:
            for x in node.body[:-1]:  # type: ignore[attr-defined]
                self.discard(x, fn)
            return self.expr(node.body[-1], fn)  # type: ignore[attr-defined]
        if t is n.Let:
            self.let_bindings(node.bindings, fn)  # type: ignore[attr-defined]
            return self.expr(node.body, fn)  # type: ignore[attr-defined]
        if t is n.Letfn:
            self.letfn(node, fn)  # type: ignore[arg-type]
            return self.expr(node.body, fn)  # type: ignore[attr-defined]
        if t is n.Loop:
            return self.loop(node, fn)  # type: ignore[arg-type]
        if t is n.Fn:
            return self.fn(node)  # type: ignore[arg-type]
        if t is n.Def:
            val = self.expr(node.value, fn)  # type: ignore[attr-defined]
            doc = f", {node.doc!r}" if node.doc else ""  # type: ignore[attr-defined]
            fn.emit(f"_def({node.name!r}, {val}{doc})", node)  # type: ignore[attr-defined]
            return self.const(v.Symbol(f"#'user/{node.name}"))  # type: ignore[attr-defined]
        if t in (n.VectorLit, n.SetLit, n.MapLit):
            lit = _constant_literal(node)
            if lit is not None:  # built once, as Clojure makes a literal of constants a constant
                return self.const(lit)
        if t is n.VectorLit:
            items = self.args(node.items, fn)  # type: ignore[attr-defined]
            return f"_vec(({''.join(i + ', ' for i in items)}))"
        if t is n.SetLit:
            items = self.args(node.items, fn)  # type: ignore[attr-defined]
            return f"_set_lit({self.mark(node)}({''.join(i + ', ' for i in items)}))"
        if t is n.MapLit:
            flat = [x for pair in node.pairs for x in pair]  # type: ignore[attr-defined]
            items = self.args(flat, fn)
            pairs = "".join(f"({items[i]}, {items[i + 1]}), " for i in range(0, len(items), 2))
            return f"_map_lit({self.mark(node)}({pairs}))"
        if t is n.And or t is n.Or:
            return self.and_or(node, fn, t is n.And)
        if t is n.Case:
            r = fn.tmp()
            self.case(node, fn, _Sink("assign", r))  # type: ignore[arg-type]
            return r
        if t is n.For:
            if _over_entries(node) and id(node) not in self.plain_fors:  # type: ignore[arg-type]
                return self.for_groups(node, fn)  # type: ignore[arg-type]
            if node.collect and id(node) not in self.eager_nodes:  # type: ignore[attr-defined]
                return self.lazy_for(node)  # type: ignore[arg-type]
            return self.for_loop(node, fn, fn.tmp() if node.collect else None)  # type: ignore[attr-defined,arg-type]
        if t is n.Try:
            return self.try_(node, fn)  # type: ignore[arg-type]
        if t in (n.Return, n.Fail, n.Throw):
            self.discard(node, fn)
            return "None"
        if t is n.Recur:
            raise AssertionError("recur outside tail position reached the compiler")
        raise AssertionError(f"unknown node {t.__name__}")

    def keyword_lookup(self, fn: _Func, node: n.Node, target: str, key: v.Keyword, default: str | None) -> str:
        """Inline `(:k m)`: one C-level dict probe on host data (a plain dict: the key's name)
        and on small PTC maps (the keyword); anything else goes to `lookup`."""
        k = self.const(key)
        if default is not None and not is_simple_text(default):
            d = fn.tmp()
            fn.emit(f"{d} = {default}", node)
            default = d
        dflt = "" if default is None else f", {default}"
        if target.isidentifier():  # a local: no temporary (inside a comprehension it would be a cell)
            t, bind = target, target
        else:
            t = fn.tmp()
            bind = f"{t} := {target}"
        ptc_map = (f"{t}.get({k}{dflt}) if type({t}) is _FMap or type({t}) is _Row "
                   f"else _lookup({self.mark(node)}{t}, {k}{dflt})")
        if type(key.hk) is not str:  # a name JSON cannot spell: host dicts never hold it
            return f"({t}.get({k}{dflt}) if type({bind}) is _FMap else _lookup({self.mark(node)}{t}, {k}{dflt}))"
        is_dict = self.row_is_dict.get(target)
        if is_dict is not None:  # the row's type was tested once
            return f"({t}.get({key.hk!r}{dflt}) if {is_dict} else {ptc_map})"
        return f"({t}.get({key.hk!r}{dflt}) if type({bind}) is dict else {ptc_map})"

    def fused(self, node: n.Call, fn: _Func, b: Builtin) -> str | None:
        """A chain of map/filter/remove/keep stages over one collection, e.g.
        `(map #(* (:a %) 2) (filter :ok rows))`, as one Python comprehension: literal fns
        are inlined (no call, no step tick per item: steps are charged per chunk of the
        source) and no intermediate collection is built. Where the whole result is needed at
        once (an argument of reduce, count, into... see Builtin.consumes; mapv, filterv) the
        comprehension runs over the whole collection; elsewhere it is the per-chunk function
        of a lazy seq, so a program that needs a prefix computes only the chunks it touches.
        When nothing can be inlined, the builtins run as written."""
        if b.stage == "reduce":
            return self.fused_reduce(node, fn, b)
        stages: list[tuple[str, n.Node, n.Call]] = []
        cur: n.Node = node
        while (stage := stage_of(cur)) is not None:
            stages.append((stage[0], _as_literal_fn(stage[1]), cur))  # type: ignore[arg-type]
            cur = stage[2]
        if not any(inlinable(f) for _, f, _ in stages):
            return None
        stages.reverse()  # innermost (applied first) to outermost
        # What the stages need, evaluated in Clojure's order: the outer fn ... the inner fn, coll.
        called = [f for _, f, _ in reversed(stages) if not inlinable(f)]
        evaluated = self.args(called + [cur], fn)
        fn_text: dict[int, str] = {}
        for f, e in zip(called, evaluated):
            t = fn.tmp()
            fn.emit(f"{t} = {e}", f)
            fn.emit(f"if not callable({t}): {t} = _fnof({t})")  # a set, a vector... as a function
            fn_text[id(f)] = t
        vector = stages[-1][2].fn.builtin.vector_result  # type: ignore[attr-defined]
        eager = vector or id(node) in self.eager_nodes
        src, chunk = fn.tmp(), fn.tmp()
        clauses = [f"for {chunk} in _chunks({src})"] if eager else []
        var: str | None = None
        ints = self.int_items(cur)  # the items reaching the next stage are integers
        for kind, f, call in stages:
            with fn.capture() as buf, self.int_param(f if ints else None):
                value, item, bind = self._stage_value(f, var, chunk, fn, fn_text)
            if buf:  # the body needs statements: call the compiled fn instead
                fn_text[id(f)] = fn.tmp()
                fn.emit(f"{fn_text[id(f)]} = {self.fn(f)}", f)  # type: ignore[arg-type]
                value, item, bind = self._stage_value(f, var, chunk, fn, fn_text)
            if kind in ("map", "keep"):
                ints = ints and id(f) not in fn_text and type(f) is n.Fn and \
                    int_valued(f.arities[0].body, self.known_ints | {f.arities[0].params[0].py})  # type: ignore[attr-defined]
            if bind:
                clauses.append(bind)
            var = item
            # (Python allows := in a comprehension's conditions, not in its iterables.)
            if kind == "map":
                if value != var:
                    var = fn.tmp()
                    clauses.append(f"if ({var} := {value}) is {var}")
            elif kind == "keep":
                var = fn.tmp()
                clauses.append(f"if ({var} := {value}) is not None")
            else:
                inlined = id(f) not in fn_text and type(f) is n.Fn
                test = self.truth_of(value, f.arities[0].body if inlined else call, fn)  # type: ignore[attr-defined]
                clauses.append(f"if {test}" if kind == "filter" else f"if not {test}")
        if stages[-1][0] == "map" and clauses[-1].startswith(f"if ({var} := "):  # the last value is the item
            value_of_last = clauses.pop()[len(f"if ({var} := "):-len(f") is {var}")]
            comp = f"[{value_of_last} {' '.join(clauses)}]"
        else:
            comp = f"[{var} {' '.join(clauses)}]"
        slow = src
        for _, f, call in stages:
            if id(f) in fn_text:
                fv = fn_text[id(f)]
            else:
                fv = self.fn(f) if type(f) is n.Fn else self.const(f.value)  # type: ignore[arg-type,attr-defined]
            slow = f"{self.builtin(call.fn.builtin)}({self.mark(call)}{fv}, {slow})"  # type: ignore[attr-defined]
        who = next((k for k, _, _ in stages if k in ("filter", "remove")), None)
        rows = self._rows_only(stages[0][1], src)
        if eager:
            wrap = "_vec" if vector else "" if id(node) in self.list_nodes else "_plist"
            made = f"{wrap}({comp})"
            if who is not None:
                made = f"_kept({made}, {src}, {who!r})"
            return f"({made} if type({src} := {evaluated[-1]}) in _SEQ_OK{rows} else {slow})"
        # Lazy: the comprehension over one chunk, in a function made with the values it uses
        # (as a fn literal captures them), applied to each chunk when the seq is realized.
        caps = list(dict.fromkeys(fn_text.get(id(f)) or c for _, f, _ in stages
                                  for c in ([fn_text[id(f)]] if id(f) in fn_text else _captured(f))))
        factory = self.fresh("_mkz")
        self.factories.append([Line(0, f"def {factory}({', '.join(caps)}):", -1),
                               Line(1, f"def _fz({chunk}):", -1), Line(2, f"return {comp}", self.pos(node)),
                               Line(1, "return _fz", -1)])
        pure = all(pure_stage(f) for _, f, _ in stages)  # may be computed ahead (see lazy.Ahead)
        lazy = (f"_fused_seq({factory}({', '.join(caps)}), {src}{', True' if pure else ', False'}"
                f"{'' if who is None else f', {who!r}'})")
        return f"({lazy} if type({src} := {evaluated[-1]}) in _SEQ_OK{rows} else {slow})"

    def int_items(self, coll: n.Node) -> bool:
        """coll is `(range ...)` of integers: every item it gives is an integer."""
        return (type(coll) is n.Call and type(coll.fn) is n.BuiltinRef and coll.fn.builtin.qualified == "range"  # type: ignore[attr-defined]
                and all(int_valued(a, self.known_ints) for a in coll.args))  # type: ignore[attr-defined]

    @contextmanager
    def int_param(self, f: n.Node | None) -> Iterator[None]:
        """While compiling the body of literal fn f (if any), its parameter is known to hold an
        integer (its arithmetic then needs no type test)."""
        if type(f) is not n.Fn or len(f.arities) != 1 or len(f.arities[0].params) < 1:
            yield
            return
        known = self.known_ints
        self.known_ints = known | {p.py for p in f.arities[0].params[-1:]}
        try:
            yield
        finally:
            self.known_ints = known

    def grouped(self, node: n.Call, g: GroupedFold, fn: _Func) -> str:
        """`(update-vals (group-by k coll) (fn [g] ...folds of g...))` in one pass over coll:
        each item's key picks its group's accumulators, and the item is folded into each fold
        at once, in the order the group would hold it (see patterns.grouped_fold). No groups
        are built and each item is read once; the fn's body then runs once per group, its
        folds replaced by their values."""
        called = [f for f in (g.key, *(x for fold in g.folds for x in (fold.f, *(s for _, s in fold.stages))))
                  if f is not None and not inlinable(f) and not (type(f) is n.BuiltinRef and f is not g.key)]
        called = list({id(f): f for f in called}.values())
        evaluated = self.args([g.key] + [g.coll] if g.key in called else [g.coll], fn)
        fn_text: dict[int, str] = {}
        for f in called:
            t = fn.tmp()
            fn.emit(f"{t} = {evaluated[0] if f is g.key else self.expr(f, fn)}", f)
            fn.emit(f"if not callable({t}): {t} = _fnof({t})")
            fn_text[id(f)] = t
        r, acc, src, chunk, x, k, cells, is_dict = (fn.tmp() for _ in range(8))
        fn.emit(f"{acc} = {{}}")  # key -> [accumulator of each fold], in the order keys first appear
        fn.emit(f"if type({src} := {evaluated[-1]}) in _FUSE_REAL{self._rows_only(g.key, src)}:", node)
        with fn.block():
            starts = ", ".join("0" if fold.kind == "count" else "_NOVAL" if fold.init is None else self.expr(fold.init, fn)
                               for fold in g.folds)
            fn.emit(f"for {chunk} in _chunks({src}):")
            with fn.block():
                fn.emit(f"for {x} in {chunk}:")
                with fn.block():
                    fn.emit(f"{is_dict} = type({x}) is dict")  # one type test per row, not per key
                    self.row_is_dict[x] = is_dict
                    fn.emit(f"{k} = {self._apply(g.key, x, fn, fn_text)}")
                    fn.emit(f"if type({k}) not in _KEYT: {k} = _as_key({k})")
                    fn.emit(f"{cells} = {acc}.get({k})")
                    fn.emit(f"if {cells} is None: {acc}[{k}] = {cells} = [{starts}]")
                    for i, fold in enumerate(g.folds):
                        with fn.capture() as step:
                            self._fold_item(fold, f"{cells}[{i}]", x, node, fn, fn_text)
                        if any(line.text.endswith("break") for line in step):
                            fn.emit("while True:")  # one fold's step: an item it skips breaks out of it
                            with fn.block():
                                fn.splice(step)
                                fn.emit("break")
                        else:
                            fn.splice(step)
                    self.row_is_dict.clear()
            firsts = [None if fold.kind == "count" else
                      fn_text.get(id(fold.f)) or (self.builtin(fold.f.builtin) if type(fold.f) is n.BuiltinRef  # type: ignore[union-attr]
                                                  else self.fn(fold.f))  # type: ignore[arg-type]
                      for fold in g.folds]  # (f) is the value of a reduce of no item
            fn.emit(f"_grown(len({acc})); {r} = {{}}")
            fn.emit(f"for {k}, {cells} in {acc}.items():")
            with fn.block():
                fn.tick(g.body)  # the body runs once per group: a step each, as the fn's call would be
                subs = {}
                for i, f0 in enumerate(firsts):
                    t = fn.tmp()
                    fn.emit(f"{t} = {cells}[{i}]")
                    if f0 is not None:
                        fn.emit(f"if {t} is _NOVAL: {t} = {f0}()")
                        fn.emit(f"elif type({t}) is _Reduced: {t} = {t}.val")
                    subs[id(g.folds[i].site)] = t
                if g.key_binding is not None:
                    fn.emit(f"{g.key_binding.py} = {k}")
                saved, self.substituted = self.substituted, {**self.substituted, **subs}
                try:
                    fn.emit(f"{r}[{k}] = {self.expr(g.body, fn)}", g.body)
                finally:
                    self.substituted = saved
            fn.emit(f"{r} = _map_of({r})")
        fn.emit("else:")
        with fn.block():
            key_fn = fn_text.get(id(g.key)) or (self.fn(g.key) if type(g.key) is n.Fn else self.expr(g.key, fn))
            if g.fn is not None:
                self._update_groups(node, fn, r, key_fn, src, self.fn(g.fn))
            else:  # the form as written, over the values already evaluated
                self.as_written(node, fn, r, {id(g.coll): src, id(g.key): key_fn})
        return r

    def as_written(self, node: n.Call, fn: _Func, r: str, values: dict[int, str]) -> None:
        """r = node compiled as written (not fused again), its arguments whose ids are in values
        read from the names already holding them (the general branch of a fast form)."""
        saved, self.substituted = self.substituted, {**self.substituted, **values}
        self.unfused.add(id(node))
        try:
            fn.emit(f"{r} = {self.expr(node, fn)}", node)
        finally:
            self.substituted = saved

    def _fold_item(self, fold: Fold, cell: str, x: str, node: n.Node, fn: _Func, fn_text: dict[int, str]) -> None:
        """One item x into one fold's accumulator cell (in a loop that `break` leaves)."""
        if fold.kind == "reduce" and not (type(fold.f) is n.BuiltinRef and "reduced" not in fold.f.builtin.name):  # type: ignore[attr-defined]
            fn.emit(f"if type({cell}) is _Reduced: break")  # a builtin never ends a reduce early
        item = x
        for kind, f in fold.stages:
            value = self._apply(f, item, fn, fn_text)
            if kind in ("filter", "remove"):
                test = self.truth_of(value, f.arities[0].body if type(f) is n.Fn and id(f) not in fn_text
                                     else node, fn)  # type: ignore[attr-defined]
                fn.emit(f"if not {test}: break" if kind == "filter" else f"if {test}: break")
            else:
                item = fn.tmp()
                fn.emit(f"{item} = {value}")
                if kind == "keep":
                    fn.emit(f"if {item} is None: break")
        if fold.kind == "count":
            fn.emit(f"{cell} += 1")
            return
        a = fn.tmp()
        fn.emit(f"{a} = {cell}")
        if fold.init is None:
            fn.emit(f"if {a} is _NOVAL:")
            with fn.block():
                fn.emit(f"{cell} = {item}")
                fn.emit("break")
        fn.emit(f"{cell} = {self._fold_step(fold.f, a, item, fn, fn_text)}")  # type: ignore[arg-type]

    def _update_groups(self, node: n.Call, fn: _Func, r: str, key: str, coll: str, f: str) -> None:
        """r = (update-vals (group-by key coll) f): one columnar pass when coll is a table and f
        is a plan of folds over a group (see columnar.folds), else the builtins as written."""
        gb = node.args[0]
        fv = fn.tmp()
        fn.emit(f"{fv} = {f}")
        fn.emit(f"{r} = {self._table(over_grouping)}({fv}, {key}, {coll}, 'group', 'update-vals')", node)
        grouping = f"{self.builtin(gb.fn.builtin)}({self.mark(gb)}{key}, {coll})"  # type: ignore[attr-defined]
        fn.emit(f"if {r} is {self._table(NO)}: {r} = {self.builtin(node.fn.builtin)}({self.mark(node)}{grouping}, {fv})",  # type: ignore[attr-defined]
                node)

    def _rows_only(self, f: n.Node, src: str) -> str:
        """The extra test a fused row loop needs unless its first fn is a literal with no column
        expression: a columnar src (a table...) goes to the builtins, which run it as a kernel."""
        maybe = f"type({src}) not in {self._table(MAYBE_COLUMNAR)}"
        if type(f) is n.Fn and type(reason := column_expr(f)) is not tuple:  # rows (explain says why)
            return f" and ({maybe} or not {self._table(fused_rows)}({src}, {self._table(reason or 'not a one-argument fn')}))"
        return f" and ({maybe} or not {self._table(columnar)}({src}))"

    def _apply(self, f: n.Node, item: str, fn: _Func, fn_text: dict[int, str]) -> str:
        """The value of one-argument fn f on item, as an expression (statements emitted first)."""
        if id(f) in fn_text:
            return f"{fn_text[id(f)]}({item})"
        if type(f) is n.Const:
            return self.keyword_lookup(fn, f, item, f.value, None)  # type: ignore[attr-defined]
        p = f.arities[0].params[0].py  # type: ignore[attr-defined]
        fn.emit(f"{p} = {item}")
        if item in self.row_is_dict:  # the param is the same row
            self.row_is_dict[p] = self.row_is_dict[item]
        return self.expr(f.arities[0].body, fn)  # type: ignore[attr-defined]

    def _fold_step(self, f: n.Node, acc: str, item: str, fn: _Func, fn_text: dict[int, str]) -> str:
        """(f acc item) as an expression: `+` inline, a literal fn's body inline, else a call."""
        if id(f) in fn_text:
            return f"{fn_text[id(f)]}({acc}, {item})"
        if type(f) is n.Fn:
            p1, p2 = f.arities[0].params
            fn.emit(f"{p1.py}, {p2.py} = {acc}, {item}")
            return self.expr(f.arities[0].body, fn)
        a, b = (n.Local(f.line, f.col, n.Binding(name, py, 0)) for name, py in (("acc", acc), ("item", item)))
        return self.expr(n.Call(f.line, f.col, f, [a, b]), fn)

    def _stage_value(self, f: n.Node, var: str | None, chunk: str, fn: _Func,
                     fn_text: dict[int, str]) -> tuple[str, str, str]:
        """(the stage's value for the item, the item's variable, the clause binding the item):
        the first stage binds the item from the chunk, later ones from the previous value."""
        if id(f) not in fn_text and type(f) is n.Fn:  # inlined: the param is the item
            p = f.arities[0].params[0].py
            bind = f"for {p} in {chunk}" if var is None else (f"for {p} in [{var}]" if var != p else "")
            return self.expr(f.arities[0].body, fn), p, bind
        item = var or fn.tmp()
        bind = "" if var else f"for {item} in {chunk}"
        if id(f) in fn_text:
            return f"{fn_text[id(f)]}({item})", item, bind
        return self.keyword_lookup(fn, f, item, f.value, None), item, bind  # type: ignore[attr-defined]

    def fused_reduce(self, node: n.Call, fn: _Func, b: Builtin) -> str | None:
        """`(reduce (fn [acc x] ...) init coll)` as one loop with the fn's body inlined."""
        if len(node.args) != 3:
            return None
        f = node.args[0]
        if not (type(f) is n.Fn and len(f.arities) == 1 and f.self_binding is None):
            return None
        a = f.arities[0]
        if a.rest is not None or a.has_recur or len(a.params) != 2:
            return None
        with self.int_param(f if self.int_items(node.args[2]) else None):
            return self._fused_reduce(node, fn, b, f, a)

    def _fused_reduce(self, node: n.Call, fn: _Func, b: Builtin, f: n.Fn, a: n.Arity) -> str:
        acc, x = a.params[0].py, a.params[1].py
        init, coll = self.args(node.args[1:], fn)
        t, c = fn.tmp(), fn.tmp()
        fn.emit(f"{acc} = {init}", node)
        fn.emit(f"{t} = {coll}")
        fv, r = fn.tmp(), fn.tmp()
        fn.emit(f"{fv} = {self.fn(f)}")
        # over a table, a fn folding the rows into acc (by key: update, update-in...) is a group-by and folds
        fn.emit(f"{r} = {self._table(reduced_by_key)}({fv}, {acc}, {t}) "
                f"if type({t}) in {self._table(MAYBE_COLUMNAR)} else {self._table(NO)}", node)
        fn.emit(f"if {r} is not {self._table(NO)}: {acc} = {r}")
        transient = transient_update(a.body, a.params[0])
        if transient is not None:
            # (reduce (fn [m x] (assoc m k v)) init coll): the accumulator never escapes the
            # body, so the loop may update a private dict/list and build one persistent value
            # at the end (what Clojure's transients do), instead of a new map per item.
            kind, parts, lets = transient
            d = fn.tmp()
            is_map = kind != "conj"
            # (all of coll is read: a lazy one is realized at once, as for an eager consumer)
            fn.emit(f"elif type({t}) in _SEQ_OK and type({acc}) in {'_MAP_TYPES' if is_map else '_VEC_TYPES'}:",
                    node)
            with fn.block():
                fn.emit(f"{d} = {'_tdict(' + acc + ')' if is_map else 'list(' + acc + ')'}")
                fn.emit(f"for {c} in _chunks({t}):")
                with fn.block():
                    fn.emit(f"for {x} in {c}:")
                    with fn.block():
                        self.let_bindings(lets, fn)  # a destructured item
                        if kind == "assoc":
                            k, val = self.args(parts, fn)
                            fn.emit(f"{d}[{_key_first(fn, k)}] = {val}", a.body)
                        elif kind == "update":
                            self._transient_update(d, parts, a.body, fn)
                        elif kind in ("update-in", "assoc-in"):
                            self._transient_path(kind, d, parts, a.body, fn)
                        else:
                            fn.emit(f"{d}.append({self.args(parts, fn)[0]})", a.body)
                    fn.emit(f"_grown(len({d}))")
                if kind in ("update-in", "assoc-in"):
                    fn.emit(f"_rt_owned_maps({d})")
                fn.emit(f"{acc} = {'_map_of(' + d + ')' if is_map else '_vec(' + d + ')'}")
        fn.emit(f"elif type({t}) in _SEQ_OK:", node)
        with fn.block():
            fn.emit(f"for {c} in _lazy_chunks({t}):")
            with fn.block():
                fn.emit(f"for {x} in {c}:")
                with fn.block():
                    fn.emit(f"{acc} = {self.expr(a.body, fn)}", a.body)
                    fn.emit(f"if type({acc}) is _Reduced: break")
                fn.emit("else:")
                with fn.block():
                    fn.emit("continue")
                fn.emit("break")
            fn.emit(f"if type({acc}) is _Reduced: {acc} = {acc}.val")
        fn.emit("else:")
        with fn.block():
            fn.emit(f"{acc} = {self.builtin(b)}({self.mark(node)}{fv}, {acc}, {t})", node)
        return acc

    def _transient_update(self, d: str, parts: list[n.Node], body: n.Node, fn: _Func) -> None:
        """`(update acc k f args...)` on a transient reduce's private dict d: d[k] = (f old args...)."""
        k = self.expr(parts[0], fn)
        key = fn.tmp()
        fn.emit(f"{key} = {k}", body)
        fn.emit(f"if type({key}) not in _KEYT: {key} = _as_key({key})")
        self._leaf_update(d, key, parts[1], parts[2:], body, fn)

    def _transient_path(self, kind: str, d: str, parts: list[n.Node], body: n.Node, fn: _Func) -> None:
        """`(update-in acc [k1 k2 ...] f args...)` or `(assoc-in acc [k1 k2 ...] x)` on a
        transient reduce's private dict d: the maps on the path are the loop's own, changed in
        place (core_collections.owned_path), and the last one is updated as d is by `update`
        or `assoc`."""
        n_keys = len(parts[0].items)  # type: ignore[attr-defined]
        compiled = self.args([*parts[0].items, *parts[1:]] if kind == "assoc-in" else parts[0].items, fn)  # type: ignore[attr-defined]
        keys = f"({', '.join(compiled[:n_keys])},)"
        path, m, key = fn.tmp(), fn.tmp(), fn.tmp()
        fn.emit(f"{path} = _rt_owned_path({d}, {keys})", body)
        fn.emit(f"if {path} is not None:")
        with fn.block():
            fn.emit(f"{m}, {key} = {path}")
            if kind == "assoc-in":
                fn.emit(f"{m}[{key}] = {compiled[n_keys]}")
            else:
                self._leaf_update(m, key, parts[1], parts[2:], body, fn)
            fn.emit(f"_grown(len({m}), 1)")
        fn.emit("else:")
        with fn.block():
            if kind == "assoc-in":
                fn.emit(f"_rt_assoc_in_owned({d}, {keys}, {compiled[n_keys]})", body)
            else:
                f, *rest = self.args(parts[1:], fn)
                fn.emit(f"_rt_update_in_owned({d}, {keys}, {f}, ({''.join(x + ', ' for x in rest)}))", body)

    def _leaf_update(self, d: str, key: str, f: n.Node, args: list[n.Node], body: n.Node, fn: _Func) -> None:
        """d[key] = (f old args...) on a private dict, compiled as a call (so `+` and the rest
        are inlined); `(fnil f x)` with a constant x becomes a test of old."""
        old = fn.tmp()
        fn.emit(f"{old} = {d}.get({key})")
        if (type(f) is n.Call and type(f.fn) is n.BuiltinRef and f.fn.builtin.qualified == "fnil"  # type: ignore[attr-defined]
                and len(f.args) == 2 and type(f.args[0]) in (n.BuiltinRef, n.Fn)  # type: ignore[attr-defined]
                and type(f.args[1]) is n.Const):  # type: ignore[attr-defined]
            fn.emit(f"if {old} is None: {old} = {self.const(f.args[1].value)}")  # type: ignore[attr-defined]
            f = f.args[0]  # type: ignore[attr-defined]
        call = n.Call(body.line, body.col, f, [n.Local(body.line, body.col, n.Binding("old", old, 0)), *args])
        fn.emit(f"{d}[{key}] = {self.expr(call, fn)}", body)

    def args(self, nodes: list[n.Node], fn: _Func) -> list[str]:
        """Compile arguments left to right, keeping evaluation order if one needs statements."""
        out: list[str] = []
        for node in nodes:
            with fn.capture() as buf:
                e = self.expr(node, fn)
            if buf:
                for i, prev in enumerate(out):
                    if not is_simple_text(prev):
                        tmp = fn.tmp()
                        fn.emit(f"{tmp} = {prev}")
                        out[i] = tmp
                fn.splice(buf)
            out.append(e)
        return out

    def call(self, node: n.Call, fn: _Func) -> str:
        head = node.fn
        if type(head) is n.BuiltinRef:
            consumed = _consumed_arg(head.builtin, node.args)  # type: ignore[arg-type]
            if consumed is not None:  # its whole value is needed at once: no need to be lazy
                self.eager_nodes.add(id(consumed))
        fast = type(head) is n.BuiltinRef and self.fast_paths > 0
        if fast:
            self.fast_paths -= 1
        if type(head) is n.BuiltinRef:
            for shape in head.builtin.shapes:  # type: ignore[attr-defined]
                make, needs_budget = SHAPES[shape]
                made = make(self, node, fn) if fast or not needs_budget else None
                if made is not None:
                    return made
        if fast and head.builtin.stage is not None:  # type: ignore[attr-defined]
            fused = self.fused(node, fn, head.builtin)  # type: ignore[attr-defined]
            if fused is not None:
                return fused
        if type(head) is n.BuiltinRef:
            inline = head.builtin.inline if fast else None
            if inline is not None:
                args = self.args(node.args, fn)
                text = inline(self, fn, node, args)
                if text is not None:
                    return text
            else:
                args = self.args(node.args, fn)
            return f"{self.builtin(head.builtin)}({self.mark(node)}{', '.join(args)})"
        if type(head) is n.Fn:
            f = self.fn(head)
            args = self.args(node.args, fn)
            return f"{f}({self.mark(node)}{', '.join(args)})"
        if type(head) is n.RuntimeRef and self.fast_paths > 0:
            inline = self.destructure(node, fn)
            if inline is not None:
                return inline
        parts = self.args([head] + node.args, fn)
        callee = parts[0]
        if type(head) is n.RuntimeRef or type(head) is n.ToolRef:
            return f"{callee}({self.mark(node)}{', '.join(parts[1:])})"
        if type(head) is n.Local or type(head) is n.GlobalRef:
            # Usually a function; a vector, host map or host set is invokable data too.
            pc, c = bind_once(fn, callee)
            return f"({c} if callable({pc or c}) else _fnof({c}))({self.mark(node)}{', '.join(parts[1:])})"
        return f"_invoke({self.mark(node)}{', '.join(parts)})"

    # -- call shapes (a builtin's entry names those its calls may take: Builtin.shapes) --------

    def _shape_map_groups(self, node: n.Call, fn: _Func) -> str | None:
        """`(map f (group-by k coll))`."""
        if id(node) in self.unfused or len(node.args) != 2 or type(node.args[1]) is not n.Call \
                or not _is_builtin_call(node.args[1], "group-by", 2):  # type: ignore[arg-type]
            return None
        return self.map_groups(node, fn)

    def _shape_grouped_fold(self, node: n.Call, fn: _Func) -> str | None:
        """`(update-vals (group-by k coll) f)`, f a fold of each group."""
        fold = grouped_fold(node)
        return None if fold is None else self.grouped(node, fold, fn)

    def _shape_groups_updated(self, node: n.Call, fn: _Func) -> str | None:
        """`(update-vals (group-by k coll) f)`, any f: the groups made and updated in one place."""
        if not _groups_of(node):
            return None
        k, coll, f = (fn.tmp() for _ in range(3))
        for t, e in zip((k, coll, f), self.args([*node.args[0].args, node.args[1]], fn)):  # type: ignore[attr-defined]
            fn.emit(f"{t} = {e}")
        r = fn.tmp()
        self._update_groups(node, fn, r, k, coll, f)
        return r

    def _shape_eager_mapcat(self, node: n.Call, fn: _Func) -> str | None:
        return self.eager_mapcat(node, fn) if len(node.args) == 2 and id(node) in self.eager_nodes else None

    def _shape_iterated(self, node: n.Call, fn: _Func) -> str | None:
        return self.iterated(node, fn) if len(node.args) == 2 else None

    def _shape_while_seq(self, node: n.Call, fn: _Func) -> str | None:
        return self.while_seq(node, fn) if len(node.args) == 2 else None

    def _shape_extreme(self, node: n.Call, fn: _Func) -> str | None:
        return self.extreme(node, fn) if _extreme_by_literal(node) else None

    def _shape_grouped_for(self, node: n.Call, fn: _Func) -> str | None:
        """`(into {} (for [[k g] (group-by ...)] [k fold]))`."""
        fold = None if id(node) in self.unfused else grouped_for(node)
        return None if fold is None else self.grouped(node, fold, fn)

    def _shape_into_map_for(self, node: n.Call, fn: _Func) -> str | None:
        return self.into_map_for(node, fn) if _into_map_for(node) else None

    def into_map_for(self, node: n.Call, fn: _Func) -> str:
        """`(into {...} (for [...] [k v]))`: the for's pairs stored straight into a private
        dict that becomes the map (no pair vectors, no list of them)."""
        d, r = fn.tmp(), fn.tmp()
        fn.emit(f"{d} = _tdict({self.expr(node.args[0], fn)})", node)
        self.for_loop(node.args[1], fn, None, d)  # type: ignore[arg-type]
        fn.emit(f"{r} = _map_of({d})")
        return r

    def eager_mapcat(self, node: n.Call, fn: _Func) -> str:
        """`(mapcat f coll)` whose whole result is needed at once (see Builtin.consumes) as one loop
        over coll that appends the items of each (f x) to a list: no lazy seq per item. A
        literal fn's body is inlined, and its value (all of which is used) is built eagerly."""
        f, coll = node.args
        a = f.arities[0] if type(f) is n.Fn and len(f.arities) == 1 and f.self_binding is None else None  # type: ignore[attr-defined]
        inline = a is not None and a.rest is None and not a.has_recur and len(a.params) == 1
        nested = _mapped_inner(a.body, self.fresh("l_item")) if inline else None  # type: ignore[union-attr]
        if nested is not None:  # (mapcat (fn [x] (map g (h x))) coll): the loops of (for [x coll y (h x)] (g y))
            y, inner, body = nested
            loops = n.For(node.line, node.col, [n.ForClause("bind", a.params[0], coll),  # type: ignore[union-attr]
                                                n.ForClause("bind", y, inner)], body, True)
            return self.for_loop(loops, fn, fn.tmp())
        if inline:
            src, fv = self.expr(coll, fn), ""
        else:
            fv, src = self.args([f, coll], fn)
            t = fn.tmp()
            fn.emit(f"{t} = {fv}", f)
            fn.emit(f"if not callable({t}): {t} = _fnof({t})")  # a map, a set, a vector... as a function
            fv = t
        r = fn.tmp()
        fn.emit(f"{r} = []", node)
        x = a.params[0].py if inline else fn.tmp()  # type: ignore[union-attr]
        fn.emit(f"for {x} in _iter_as({self.mark(coll)}{src}, 'mapcat'):", coll)
        with fn.block():
            fn.tick(node)
            if inline:
                self.eager_nodes.add(id(a.body))  # type: ignore[union-attr]
                self.list_nodes.add(id(a.body))  # type: ignore[union-attr]  # _cat reads it
                inner = self.expr(a.body, fn)  # type: ignore[union-attr]
            else:
                inner = f"{fv}({self.mark(node)}{x})"
            fn.emit(f"_cat({r}, {inner})", node)
        return f"_plist({self.mark(node)}{r})"

    def extreme(self, node: n.Call, fn: _Func) -> str:
        """`(apply max-key :k coll)` or with a pure literal fn, over a realized coll of two or
        more items: the keys by one fused map (no call per item), the pick in C."""
        which, f, coll = node.args
        items = n.Binding("items", fn.tmp(), 0)
        fn.emit(f"{items.py} = {self.expr(coll, fn)}", coll)
        keys = n.Call(node.line, node.col, n.BuiltinRef(f.line, f.col, REGISTRY["map"]), [f, n.Local(coll.line, coll.col, items)])
        self.eager_nodes.add(id(keys))
        self.list_nodes.add(id(keys))
        r = fn.tmp()
        fn.emit(f"if type({items.py}) in _FUSE_REAL and len({items.py}) > 1:", node)
        with fn.block():
            who = which.builtin.qualified  # type: ignore[attr-defined]
            fn.emit(f"{r} = _extreme_of({who!r}, {who == 'max-key'}, {items.py}, {self.expr(keys, fn)})", node)
        fn.emit("else:")
        with fn.block():
            fv = self.fn(f) if type(f) is n.Fn else self.const(f.value)  # type: ignore[arg-type,attr-defined]
            fn.emit(f"{r} = {self.builtin(node.fn.builtin)}({self.mark(node)}{self.builtin(which.builtin)}, "  # type: ignore[attr-defined]
                    f"{fv}, {items.py})", node)
        return r

    def while_seq(self, node: n.Call, fn: _Func) -> str | None:
        """`(take-while pred coll)` / `(drop-while pred coll)` with a keyword or a literal fn of
        one argument: a generator with the test inlined (a step per item tested, as the fn's
        call would charge), so each item costs no call."""
        f, coll = node.args
        if not inlinable(f):
            return None
        p = f.arities[0].params[0].py if type(f) is n.Fn else self.fresh("l_item")  # type: ignore[attr-defined]
        with fn.capture() as buf:
            value = self.expr(f.arities[0].body, fn) if type(f) is n.Fn else \
                self.keyword_lookup(fn, f, p, f.value, None)  # type: ignore[attr-defined]
            test = self.truth_of(value, f.arities[0].body if type(f) is n.Fn else node, fn)  # type: ignore[attr-defined]
        if buf:  # the test needs statements: the fn is called instead
            return None
        take = node.fn.builtin.qualified == "take-while"  # type: ignore[attr-defined]
        caps = list(dict.fromkeys(_captured(f)))
        factory = self.fresh("_mkw")
        lines = [Line(0, f"def {factory}({', '.join(caps)}):", -1),
                 Line(1, "def _while(_items):", -1),
                 Line(2, "global _n", -1),
                 Line(2, f"for {p} in _items:", -1),
                 Line(3, "_n -= 1", -1),
                 Line(3, "if _n < 0: _budget()", self.pos(f))]
        if take:
            lines += [Line(3, f"if not {test}: return", self.pos(f)), Line(3, f"yield {p}", -1)]
        else:
            lines += [Line(3, f"if not {test}:", self.pos(f)), Line(4, f"yield {p}", -1), Line(4, "break", -1),
                      Line(2, "yield from _items", -1)]
        self.factories.append(lines + [Line(1, "return _while", -1)])
        who = node.fn.builtin.qualified  # type: ignore[attr-defined]
        return f"_while_seq({factory}({', '.join(caps)}), {self.mark(node)}{self.expr(coll, fn)}, {who!r})"

    def iterated(self, node: n.Call, fn: _Func) -> str | None:
        """`(iterate (fn [x] ...) x0)` with the fn's body inlined in the loop that realizes the
        items: no Python call per item, and the steps (one per item, as the fn's calls would
        charge) charged a part of the loop at a time, as a fused loop charges them. When the
        body is integer arithmetic of x, a second loop runs while x is an integer with no type
        or size check per item (the size is checked after each part, as a counted loop does)."""
        f, x0 = node.args
        if not (type(f) is n.Fn and len(f.arities) == 1 and f.self_binding is None):
            return None
        a = f.arities[0]
        if a.rest is not None or a.has_recur or len(a.params) != 1:
            return None
        p = a.params[0].py
        with fn.capture() as buf:
            body = self.expr(a.body, fn)
        if buf:  # the body needs statements: the fn is called instead
            return None
        lines = [Line(1, f"def _steps({p}, _k, _append):", -1)]
        if int_valued(a.body, {p}):
            known, unchecked = self.known_ints, self.unchecked_ints
            self.known_ints, self.unchecked_ints = {p}, True
            try:
                with fn.capture() as buf:
                    int_body = self.expr(a.body, fn)
            finally:
                self.known_ints, self.unchecked_ints = known, unchecked
            if not buf:
                lines += [Line(2, f"if type({p}) is int:", -1),
                          Line(3, "for _part in _counted(0, _k, 1):", self.pos(f)),
                          Line(4, "for _ in _part:", -1),
                          Line(5, f"{p} = {int_body}", self.pos(a.body)),
                          Line(5, f"_append({p})", -1),
                          Line(4, f"if not {-FAST_INT} < {p} < {FAST_INT}: {p} = _big({p})", -1),
                          Line(3, "return", -1)]
        caps = list(dict.fromkeys(_captured(f)))
        factory = self.fresh("_mki")
        self.factories.append([
            Line(0, f"def {factory}({', '.join(caps)}):", -1),
            *lines,
            Line(2, "for _part in _counted(0, _k, 1):", self.pos(f)),  # steps charged per part
            Line(3, "for _ in _part:", -1),
            Line(4, f"{p} = {body}", self.pos(a.body)),
            Line(4, f"_append({p})", -1),
            Line(1, "return _steps", -1)])
        return f"_iterated({factory}({', '.join(caps)}), {self.expr(x0, fn)})"

    def destructure(self, node: n.Call, fn: _Func) -> str | None:
        """What `{:keys [a b]}` destructuring calls, inline: the map of a host dict or PTC map is
        itself, and a keyword's value is a keyword lookup."""
        name = node.fn.name  # type: ignore[attr-defined]
        if name == "map_for_destructure" and len(node.args) == 1:
            x = self.expr(node.args[0], fn)
            if is_simple_text(x):
                return f"({x} if type({x}) is dict or type({x}) is _FMap else _rt_map_for_destructure({self.mark(node)}{x}))"
        if name == "get" and len(node.args) in (2, 3) and type(const_of(node.args[1])) is v.Keyword:
            args = self.args(node.args, fn)
            return self.keyword_lookup(fn, node, args[0], node.args[1].value, args[2] if len(args) == 3 else None)  # type: ignore[attr-defined]
        return None

    def truth(self, node: n.Node, fn: _Func) -> str:
        """A Python condition that is true when node's value is truthy in Clojure."""
        return self.truth_of(self.expr(node, fn), node, fn)

    def truth_of(self, e: str, node: n.Node, fn: _Func) -> str:
        if e in ("None", "False"):
            return "False"
        if e == "True" or is_literal_text(e):  # a literal is always truthy
            return "True"
        if _is_boolean(node):
            return e
        if type(node) is n.Const:
            return "True" if v.truthy(node.value) else "False"  # type: ignore[attr-defined]
        if is_simple_text(e):
            return f"({e} is not None and {e} is not False)"
        t = fn.tmp()
        return f"(({t} := {e}) is not None and {t} is not False)"

    def if_expr(self, node: n.If, fn: _Func) -> str:
        test = self.truth(node.test, fn)
        with fn.capture() as then_buf:
            then = self.expr(node.then, fn)
        with fn.capture() as else_buf:
            els = self.expr(node.else_, fn)
        if not then_buf and not else_buf:
            return f"({then} if {test} else {els})"
        r = fn.tmp()
        fn.emit(f"if {test}:", node)
        with fn.block():
            fn.splice(then_buf)
            fn.emit(f"{r} = {then}")
        fn.emit("else:")
        with fn.block():
            fn.splice(else_buf)
            fn.emit(f"{r} = {els}")
        return r

    def and_or(self, node: n.Node, fn: _Func, is_and: bool) -> str:
        items: list[n.Node] = node.items  # type: ignore[attr-defined]
        if all(_is_boolean(x) for x in items[:-1]):
            with fn.capture() as buf:
                parts = [self.expr(x, fn) for x in items]
            if not buf:
                return "(" + (" and " if is_and else " or ").join(parts) + ")"
        # One pass through a run-once block: each operand either decides the result (break)
        # or falls through to the next, so the generated code stays flat however many
        # operands there are.
        r = fn.tmp()
        fn.emit("while True:")
        with fn.block():
            for i, x in enumerate(items):
                fn.emit(f"{r} = {self.expr(x, fn)}", x)
                if i < len(items) - 1:
                    cond = f"{r} is None or {r} is False"
                    fn.emit(f"if {cond}: break" if is_and else f"if not ({cond}): break")
            fn.emit("break")
        return r

    def loop(self, node: n.Loop, fn: _Func) -> str:
        r = fn.tmp()
        self.let_bindings(node.bindings, fn)
        counted = counted_loop(node) if self.fast_paths > 0 else None
        if counted is not None:
            self.counted(node, counted, fn, r)
            fn.emit("else:")
            fn.indent += 1
        fn.emit("while True:", node)
        with fn.block():
            fn.tick(node)
            self.value(node.body, fn, _Sink("loop", r))
        if counted is not None:
            fn.indent -= 1
        return r

    def counted(self, node: n.Loop, c: CountedLoop, fn: _Func, r: str) -> None:
        """`(loop [i 0 ...] (if (< i n) (recur (inc i) ...) done))` with integer i and n as a
        Python `for` over a range: no test, increment or type check of i per iteration (steps
        are charged per chunk of the range). When the loop's integer accumulators (see
        patterns.integer_accumulators) start as integers, a second version runs with no type
        or size check per iteration; their size is checked after each chunk instead (sums of
        integers grow by at most a few bits per chunk). Emits `if <i and n are integers>:` and
        its block; the caller emits the general loop as the else branch."""
        i = c.counter.py
        bound = self.expr(c.bound, fn)
        if not is_simple_text(bound):
            b = fn.tmp()
            fn.emit(f"{b} = {bound}", c.bound)
            bound = b
        stop = {"<": bound, "<=": f"{bound} + 1", ">": bound, ">=": f"{bound} - 1", "!=": bound}[c.op]
        test = f"type({i}) is int and type({bound}) is int"
        if c.op == "!=":  # i = n ends the loop only when i moves towards n
            test += f" and {i} {'<=' if c.step > 0 else '>='} {bound}"
        ints = [b.py for b in integer_accumulators(node, c)]
        fn.emit(f"if {test}:", node)
        with fn.block():
            if ints:
                fn.emit(f"if {' and '.join(f'type({x}) is int' for x in ints)}:")
                with fn.block():
                    self._counted_body(node, c, fn, r, stop, ints)
                fn.emit("else:")
                with fn.block():
                    self._counted_body(node, c, fn, r, stop, [])
            else:
                self._counted_body(node, c, fn, r, stop, [])

    def _counted_body(self, node: n.Loop, c: CountedLoop, fn: _Func, r: str, stop: str, ints: list[str]) -> None:
        i = c.counter.py
        start, rng = fn.tmp(), fn.tmp()
        fn.emit(f"{start} = {i}")
        fn.emit(f"for {rng} in _counted({i}, {stop}, {c.step}):")
        with fn.block():
            fn.emit(f"for {i} in {rng}:")
            with fn.block():
                self.counting.append(([b for b, _ in node.bindings], c.counter))
                known, unchecked = set(self.known_ints), self.unchecked_ints
                self.known_ints |= {i, *ints}
                self.unchecked_ints = bool(ints)
                try:
                    self.value(c.body, fn, _Sink("loop", r))  # every path recurs (continue) or exits
                finally:
                    self.counting.pop()
                    self.known_ints, self.unchecked_ints = known, unchecked
            for x in ints:
                fn.emit(f"if not {-FAST_INT} < {x} < {FAST_INT}: {x} = _big({x})")
        fn.emit(f"{i} = {stop} if {start} {'<' if c.step > 0 else '>'} {stop} else {start}")
        self.value(c.done, fn, _Sink("assign", r))

    def for_loop(self, node: n.For, fn: _Func, result: str | None, into_dict: str | None = None) -> str:
        """An eager `for` (result: the list of its values) or `doseq`; into_dict: a private
        dict the `[k v]` body of `(into {...} (for ...))` is stored in instead."""
        if result is not None:
            fn.emit(f"{result} = []", node)
        opened = 0
        for clause in node.clauses:
            if clause.kind == "bind":
                coll = self.expr(clause.coll, fn)  # type: ignore[arg-type]
                if not is_simple_text(coll):
                    t = fn.tmp()
                    fn.emit(f"{t} = {coll}", clause.coll)
                    coll = t
                # a sequence is its own iterable (what _iter returns for it), without a call
                fn.emit(f"for {clause.binding.py} in ({coll} if type({coll}) in _ITER_SELF else "  # type: ignore[union-attr]
                        f"_iter({self.mark(clause.coll)}{coll})):", clause.coll)  # type: ignore[arg-type]
                fn.indent += 1
                opened += 1
                fn.tick(clause.coll)
            elif clause.kind == "let":
                self.let_bindings(clause.lets or [], fn)
            elif clause.kind == "when":
                fn.emit(f"if not {self.truth(clause.test, fn)}: continue", clause.test)  # type: ignore[arg-type]
            else:  # while
                fn.emit(f"if not {self.truth(clause.test, fn)}: break", clause.test)  # type: ignore[arg-type]
        if into_dict is not None:
            k, val = self.args(node.body.items, fn)  # type: ignore[attr-defined]
            fn.emit(f"{into_dict}[{_key_first(fn, k)}] = {val}", node.body)
            fn.emit(f"if not len({into_dict}) & 1023: _grown(len({into_dict}), 1024)")
        elif result is not None:
            fn.emit(f"{result}.append({self.expr(node.body, fn)})", node.body)
        else:
            self.discard(node.body, fn)
            fn.emit("pass")
        fn.indent -= opened
        if result is None:
            return "None"
        return f"_plist({self.mark(node)}{result})"

    def map_groups(self, node: n.Call, fn: _Func) -> str:
        """(map f (group-by key coll)): f's plan of folds over a table's groups, never making the
        groups' map (see columnar.dispatch.over_grouping), else the call as written."""
        gb = node.args[1]
        f, key, coll = node.args[0], *gb.args  # type: ignore[attr-defined]
        values = [fn.tmp() for _ in range(3)]
        for t, text in zip(values, self.args([f, key, coll], fn)):
            fn.emit(f"{t} = {text}")
        r = fn.tmp()
        fn.emit(f"{r} = {self._table(over_grouping)}({values[0]}, {values[1]}, {values[2]}, 'entry', 'map')", node)
        fn.emit(f"if {r} is {self._table(NO)}:")
        with fn.block():
            self.as_written(node, fn, r, {id(f): values[0], id(key): values[1], id(coll): values[2]})
        return r

    def for_groups(self, node: n.For, fn: _Func) -> str:
        """`(for [[k g] coll] body)`: when coll is (group-by key table), body read as a plan of
        folds for every group at once (as `(map (fn [[k g]] body) coll)`), else the `for`."""
        clause = node.clauses[0]
        src = fn.tmp()
        local = n.Local(clause.coll.line, clause.coll.col, n.Binding("coll", src, self.depth))  # type: ignore[union-attr]
        body = n.Let(node.line, node.col, list(node.clauses[1].lets or []), node.body)
        body_fn = n.Fn(node.line, node.col, None, None, [n.Arity([clause.binding], None, body)],  # type: ignore[list-item]
                       dict(node.captures))
        plain = n.For(node.line, node.col, [n.ForClause("bind", clause.binding, local), node.clauses[1]],
                      node.body, True, {**node.captures, id(local.binding): local.binding})
        r, body_value = fn.tmp(), fn.tmp()
        fn.emit(f"{r} = {self._table(NO)}")
        fn.emit(f"{body_value} = {self.fn(body_fn)}")
        gb = clause.coll
        if type(gb) is n.Call and _is_builtin_call(gb, "group-by", 2):  # never make the groups' map if it can
            key, coll = self.args(gb.args, fn)  # type: ignore[attr-defined]
            kv, cv = fn.tmp(), fn.tmp()
            fn.emit(f"{kv}, {cv} = {key}, {coll}")
            fn.emit(f"{r} = {self._table(over_grouping)}({body_value}, {kv}, {cv}, 'entry', 'for')")
            fn.emit(f"if {r} is not {self._table(NO)}: {src} = None")
            fn.emit("else:")
            with fn.block():
                fn.emit(f"{src} = {self.builtin(gb.fn.builtin)}({self.mark(gb)}{kv}, {cv})", gb)  # type: ignore[attr-defined]
        else:
            fn.emit(f"{src} = {self.expr(clause.coll, fn)}", clause.coll)  # type: ignore[arg-type]
        fn.emit(f"if {r} is {self._table(NO)} and type({src}) in {self._table(GROUP_MAPS)}: "
                f"{r} = {self._table(over_groups)}({body_value}, {src}, 'entry', 'for')")
        fn.emit(f"if {r} is {self._table(NO)}:")
        with fn.block():
            self.plain_fors.add(id(plain))
            if id(node) in self.eager_nodes:
                self.eager_nodes.add(id(plain))
            fn.emit(f"{r} = {self.expr(plain, fn)}")
        return r

    def lazy_for(self, node: n.For) -> str:
        """`for` as a lazy seq: a generator, made with the outer values it uses (as a fn literal
        captures them), that yields chunks of results. As in Clojure, the innermost binding
        runs a chunk of its collection at a time (32 items of a vector or `(range n)`, one of a
        list) and the outer ones one item at a time, so a program that needs a prefix of
        `(for [x (range) :when (p x)] ...)` computes only what that prefix touches."""
        captures = ", ".join(b.py for b in node.captures.values())
        fac_name = self.fresh("_mkg")
        fac = _Func(self, 0)
        fac.emit(f"def {fac_name}({captures}):")
        saved_depth, self.depth = self.depth, 0
        gen = _Func(self, 0)
        with gen.block():
            self.for_chunks(node, gen)
        self.depth = saved_depth
        with fac.block():
            fac.emit("def _gen(_src):")
            fac.out.append(Line(fac.indent + 1, "global _n", -1))
            fac.out.extend(Line(line.indent + fac.indent, line.text, line.pos) for line in gen.out)
            fac.emit("return _gen")
        self.factories.append(fac.out)
        return f"_lazy_for({fac_name}({captures}))"

    def for_chunks(self, node: n.For, fn: _Func) -> None:
        """The loops of a lazy `for`, yielding each non-empty chunk of results."""
        last = max(i for i, c in enumerate(node.clauses) if c.kind == "bind")
        opened = 0
        buf = stop = ""
        for i, clause in enumerate(node.clauses):
            if clause.kind == "bind":
                coll = self.expr(clause.coll, fn)  # type: ignore[arg-type]
                if i == 0:  # the seq never ends if its outermost collection does not
                    fn.emit(f"_src.infinite = _unbounded({coll})")
                if i == last:
                    buf, stop, chunk = fn.tmp(), fn.tmp(), fn.tmp()
                    fn.emit(f"{stop} = False")
                    fn.emit(f"for {chunk} in _seq_chunks({self.mark(clause.coll)}{coll}):",  # type: ignore[arg-type]
                            clause.coll)
                    fn.indent += 1
                    fn.emit(f"{buf} = []")
                    fn.emit(f"for {clause.binding.py} in {chunk}:")  # type: ignore[union-attr]
                    opened += 1  # the chunk loop is closed below, after its yield
                else:
                    fn.emit(f"for {clause.binding.py} in _iter({self.mark(clause.coll)}{coll}):",  # type: ignore[union-attr,arg-type]
                            clause.coll)
                fn.indent += 1
                opened += 1
                fn.tick(clause.coll)
            elif clause.kind == "let":
                self.let_bindings(clause.lets or [], fn)
            elif clause.kind == "when":
                fn.emit(f"if not {self.truth(clause.test, fn)}: continue", clause.test)  # type: ignore[arg-type]
            elif i > last:  # :while of the innermost binding: ends its loop (both levels)
                fn.emit(f"if not {self.truth(clause.test, fn)}:", clause.test)  # type: ignore[arg-type]
                with fn.block():
                    fn.emit(f"{stop} = True")
                    fn.emit("break")
            else:
                fn.emit(f"if not {self.truth(clause.test, fn)}: break", clause.test)  # type: ignore[arg-type]
        fn.emit(f"{buf}.append({self.expr(node.body, fn)})", node.body)
        fn.indent -= 1
        fn.emit(f"if {buf}: yield {buf}")
        fn.emit(f"if {stop}: break")
        fn.indent -= opened - 1

    def try_(self, node: n.Try, fn: _Func) -> str:
        """try/catch/finally. `finally` runs on success, on PTC errors and on return/fail, but
        not when a sandbox limit ends the program (see runtime._fatal)."""
        r = fn.tmp()
        outer = node.finally_body is not None
        if outer:
            fn.emit("try:", node)
            fn.indent += 1
        fn.emit("try:", node)
        with fn.block():
            fn.emit(f"{r} = {self.expr(node.body, fn)}")
        if node.catch_binding is not None:
            err = fn.tmp()
            fn.emit(f"except Exception as {err}:")
            with fn.block():
                fn.emit(f"{node.catch_binding.py} = _catch({err})")
                fn.emit(f"{r} = {self.expr(node.catch_body, fn)}")  # type: ignore[arg-type]
        else:
            fn.emit("finally:")
            with fn.block():
                fn.emit("pass")
        if outer:
            fn.indent -= 1
            fe = fn.tmp()
            fn.emit(f"except BaseException as {fe}:")
            with fn.block():
                fn.emit(f"if not _fatal({fe}):")
                with fn.block():
                    self.discard(node.finally_body, fn)  # type: ignore[arg-type]
                    fn.emit("pass")
                fn.emit("raise")
            fn.emit("else:")
            with fn.block():
                self.discard(node.finally_body, fn)  # type: ignore[arg-type]
                fn.emit("pass")
        return r

    # -- functions --------------------------------------------------------------------

    def fn(self, node: n.Fn) -> str:
        """Emit a factory for node; return the expression that creates the function."""
        comparator = _literal_comparator(node)
        if comparator is not None:
            return self.const(comparator)
        fac_name = self.fresh("_mk")
        captures = list(node.captures.values())
        fac = _Func(self, 0)
        cap_params = ", ".join(b.py for b in captures)
        fac.emit(f"def {fac_name}({cap_params}):")
        fname = node.self_binding.py if node.self_binding is not None else self.fresh("f")
        label = node.name or "fn"
        saved_depth, self.depth = self.depth, 0
        with fac.block():
            if len(node.arities) == 1:
                self._arity(fac, fname, node.arities[0])
            else:
                names = []
                for a in node.arities:
                    an = self.fresh(f"{fname}_a")
                    self._arity(fac, an, a)
                    names.append((an, a))
                fac.emit(f"def {fname}(*args):")
                with fac.block():
                    fac.emit("k = len(args)")
                    fixed = [(an, a) for an, a in names if a.rest is None]
                    for an, a in fixed:
                        fac.emit(f"if k == {len(a.params)}: return {an}(*args)")
                    variadic = [(an, a) for an, a in names if a.rest is not None]
                    for an, a in variadic:
                        fac.emit(f"if k >= {len(a.params)}: return {an}(*args)")
                    arities = sorted(len(a.params) for _, a in fixed)
                    var_min = len(variadic[0][1].params) if variadic else None
                    fac.emit(f"_arity_error({label!r}, k, {tuple(arities)!r}, {var_min!r})")
            fac.emit(f"{fname}.__qualname__ = {'ptc:' + label!r}")
            col = column_expr(node)  # what a table kernel can compute instead of calling it per row
            if col is not None:
                fac.emit(f"{fname}.{COLUMN_ATTR} = {self._table(col)}")
            if len(node.arities) == 1 and node.arities[0].rest is None and 1 <= len(node.arities[0].params) <= 4:
                fac.emit(f"{fname}.{GROUP_NODE_ATTR} = {self._table(node)}")  # a plan of folds per group?
            keys = compared_keys(node)
            if keys is not None:
                fac.emit(f"{fname}.{COMPARED_KEYS_ATTR} = {self._table(keys)}")  # sorts order by the keys
            fields = keyword_vector(node)
            if fields is not None:
                fac.emit(f"{fname}.{KEY_PARTS_ATTR} = {self._table(fields)}")  # as (juxt :a :b)
            if node.doc:
                fac.emit(f"{fname}.__doc__ = {node.doc!r}")
            fac.emit(f"return {fname}")
        self.depth = saved_depth
        self.factories.append(fac.out)
        if not captures:
            inst = self.fresh("_fn")
            self.hoisted.append(Line(0, f"{inst} = {fac_name}()", -1))
            return inst
        return f"{fac_name}({cap_params})"

    def _arity(self, fac: _Func, name: str, a: n.Arity) -> None:
        params = [b.py for b in a.params]
        if a.rest is not None:
            params.append("*" + a.rest.py)
        fac.emit(f"def {name}({', '.join(params)}):")
        body = _Func(self, 0)
        with body.block():
            if a.rest is not None:
                body.emit(f"{a.rest.py} = _rest_args({a.rest.py})")
            body.tick(a.body)
            if a.has_recur:
                body.emit("while True:")
                with body.block():
                    body.tick(a.body)
                    self.value(a.body, body, _Sink("return"))
            else:
                self.value(a.body, body, _Sink("return"))
        fac.out.append(Line(fac.indent + 1, "global _n", -1))
        for line in body.out:
            fac.out.append(Line(line.indent + fac.indent, line.text, line.pos))


_FAST_PATH_BUDGET = 2000  # builtin calls per program that may get inline code

# Call shapes a builtin's entry may name (Builtin.shapes): the code generator, and whether it
# is a fast path (given only within the program's budget) or how the call always compiles.
SHAPES: dict[str, tuple[Callable[[Compiler, n.Call, _Func], str | None], bool]] = {
    "map-groups": (Compiler._shape_map_groups, True),
    "grouped-fold": (Compiler._shape_grouped_fold, True),
    "groups-updated": (Compiler._shape_groups_updated, False),
    "eager-mapcat": (Compiler._shape_eager_mapcat, True),
    "iterated": (Compiler._shape_iterated, True),
    "while-seq": (Compiler._shape_while_seq, True),
    "extreme": (Compiler._shape_extreme, True),
    "grouped-for": (Compiler._shape_grouped_for, True),
    "into-map-for": (Compiler._shape_into_map_for, True),
}


def _consumed_arg(b: Builtin, args: list[n.Node]) -> n.Node | None:
    """The argument of a call to b whose every item the call uses (its entry's `consumes`),
    or None: not where a fn argument may stop early (a transducer given to into, a reduce fn
    that may call reduced, a fn applied with & rest)."""
    i, name = b.consumes, b.qualified
    if i is None or not args or (name == "into" and len(args) != 2):
        return None
    if name == "reduce" and not _never_reduced(args[0]):  # a reduce that may stop early stays lazy
        return None
    if name == "apply" and type(args[0]) is not n.BuiltinRef:  # a fn with & rest may not read it all
        return None
    return args[i] if -len(args) <= i < len(args) else None


def _never_reduced(f: n.Node) -> bool:
    """f cannot end a reduce early: a builtin, or a literal fn that never calls reduced."""
    if type(f) is n.BuiltinRef:
        return "reduced" not in f.builtin.name  # type: ignore[attr-defined]
    if type(f) is not n.Fn:
        return False
    return not any(type(x) is n.BuiltinRef and "reduced" in x.builtin.name for x in walk(f))


def _groups_of(node: n.Call) -> bool:
    """(update-vals (group-by k coll) f)."""
    g = node.args[0] if len(node.args) == 2 else None
    return (type(g) is n.Call and type(g.fn) is n.BuiltinRef and g.fn.builtin.qualified == "group-by"  # type: ignore[attr-defined]
            and len(g.args) == 2)  # type: ignore[attr-defined]


def _as_literal_fn(f: n.Node) -> n.Node:
    """A stage fn that is a builtin with an inline form of one argument (`inc`, `even?`,
    `nil?`...) as the literal `(fn [x] (f x))`, which a fused loop inlines; else f."""
    if type(f) is not n.BuiltinRef or getattr(f.builtin.inline, "arity", None) != 1:  # type: ignore[attr-defined]
        return f
    x = n.Binding("x", f"l_x{id(f)}", 0)
    return n.Fn(f.line, f.col, None, None, [n.Arity([x], None, n.Call(f.line, f.col, f, [n.Local(f.line, f.col, x)]))])


def _extreme_by_literal(node: n.Call) -> bool:
    """`(apply max-key f coll)` / min-key, f a keyword or a pure literal fn of one argument."""
    return (len(node.args) == 3 and type(node.args[0]) is n.BuiltinRef
            and node.args[0].builtin.qualified in ("max-key", "min-key")  # type: ignore[attr-defined]
            and inlinable(node.args[1]) and pure_stage(node.args[1]))


def _mapped_inner(body: n.Node, item: str) -> tuple[n.Binding, n.Node, n.Node] | None:
    """(y, coll, value) when body is `(map g coll)` with g a keyword or a literal fn of one
    argument y (value: g's body, or `(:k y)`, y then named item), else None."""
    if not (type(body) is n.Call and type(body.fn) is n.BuiltinRef and body.fn.builtin.qualified == "map"  # type: ignore[attr-defined]
            and len(body.args) == 2):  # type: ignore[attr-defined]
        return None
    g, coll = body.args  # type: ignore[attr-defined]
    if type(g) is n.Const and type(g.value) is v.Keyword:  # type: ignore[attr-defined]
        y = n.Binding("item", item, 0)
        return y, coll, n.KeywordCall(g.line, g.col, g.value, n.Local(g.line, g.col, y), None)  # type: ignore[attr-defined]
    if type(g) is n.Fn and len(g.arities) == 1 and g.self_binding is None:
        ga = g.arities[0]
        if ga.rest is None and not ga.has_recur and len(ga.params) == 1:
            return ga.params[0], coll, ga.body
    return None


def _captured(f: n.Node) -> list[str]:
    """The names of the outer locals an inlined stage fn uses (a keyword uses none)."""
    if type(f) is not n.Fn:
        return []
    return [b.py for b in f.captures.values()]


def _literal_comparator(node: n.Fn) -> Any:
    """`#(compare %2 %1)`, `(fn [a b] (> a b))`...: a fn of two arguments that only compares
    them with compare, < or >, as the equivalent function sort and sort-by recognize (see
    core_sequences.LITERAL_COMPARATORS), else None."""
    if len(node.arities) != 1 or node.self_binding is not None or node.captures:
        return None
    a = node.arities[0]
    body = a.body
    if a.rest is not None or len(a.params) != 2 or type(body) is not n.Call or type(body.fn) is not n.BuiltinRef:
        return None
    name = body.fn.builtin.qualified  # type: ignore[attr-defined]
    args = [x.binding if type(x) is n.Local else None for x in body.args]  # type: ignore[attr-defined]
    if name not in ("compare", "<", ">") or args not in ([a.params[0], a.params[1]], [a.params[1], a.params[0]]):
        return None
    from .lib.core_sequences import LITERAL_COMPARATORS, _direction

    _direction(None)  # fills the table
    return LITERAL_COMPARATORS[(name, args[0] is a.params[1])]


def _key_first(fn: _Func, k: str) -> str:
    """The map key k as a dict subscript, k evaluated first (Python evaluates the value of
    `d[k] = v` before k) and made a PTC key."""
    if not is_simple_text(k):
        t = fn.tmp()
        fn.emit(f"{t} = {k}")
        k = t
    return f"{k} if type({k}) in _KEYT else _as_key({k})"


def _is_builtin_call(node: n.Call, name: str, arity: int) -> bool:
    return (type(node.fn) is n.BuiltinRef and node.fn.builtin.qualified == name  # type: ignore[attr-defined]
            and len(node.args) == arity)


def _over_entries(node: n.For) -> bool:
    """node is `(for [[k g] coll] body)`: one binding, destructured as a pair (map entries)."""
    cs = node.clauses
    if not node.collect or len(cs) != 2 or cs[0].kind != "bind" or cs[1].kind != "let" or not cs[1].lets:
        return False
    first = cs[1].lets[0][1]
    return type(first) is n.Local and first.binding is cs[0].binding


def _into_map_for(node: n.Call) -> bool:
    """node is `(into m (for [...] [k v]))` with m a literal map of constants."""
    if len(node.args) != 2 or type(node.args[1]) is not n.For:
        return False
    target, loop = node.args
    if _over_entries(loop):  # type: ignore[arg-type]
        return False  # maybe (for [[k g] groups] ...): see for_groups
    return (type(const_of(target)) is v.FMap and loop.collect  # type: ignore[attr-defined]
            and type(loop.body) is n.VectorLit and len(loop.body.items) == 2)  # type: ignore[attr-defined]


def _constant_literal(node: n.Node) -> Any:
    """The value of a small vector, set or map literal whose items are all constants (an
    immutable PTC value that every evaluation may share), else None."""
    t = type(node)
    items = [x for pair in node.pairs for x in pair] if t is n.MapLit else node.items  # type: ignore[attr-defined]
    if len(items) > 2 * v.SMALL or any(type(x) is not n.Const for x in items):
        return None
    vals = [x.value for x in items]  # type: ignore[attr-defined]
    if t is n.VectorLit:
        return v.pvector(vals)
    if t is n.SetLit:
        s = v.make_set(vals)
        return s if type(s) is v.FSet and len(s) == len(vals) else None
    m = v.make_map(list(zip(vals[0::2], vals[1::2])))
    return m if type(m) is v.FMap and 2 * len(m) == len(vals) else None


class _CaseTable(dict):  # type: ignore[type-arg]
    """A case dispatch table (a constant; never a PTC value)."""


def _is_boolean(node: n.Node) -> bool:
    t = type(node)
    if t is n.Const:
        return type(node.value) is bool  # type: ignore[attr-defined]
    if t is n.Call and type(node.fn) is n.BuiltinRef:  # type: ignore[attr-defined]
        return node.fn.builtin.boolean  # type: ignore[attr-defined,no-any-return]
    if t is n.And or t is n.Or:
        return all(_is_boolean(x) for x in node.items)  # type: ignore[attr-defined]
    return False
