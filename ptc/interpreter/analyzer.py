"""The analyzer: forms -> resolved, macro-expanded nodes (a pure function of its inputs).

It knows which names exist (locals, user defs, builtins, data, tools) and refuses
everything outside PTC-Lisp with an `analysis` error that carries line and column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from . import nodes as n
from . import values as v
from .errors import PTCError, suggest
from .idioms import FOREIGN, foreign_hint, library_hint, namespace_hint
from .reader import Coll, Form, Lit, RegexLit, Sym, form_to_value
from .registry import REGISTRY, SPECIAL_FORMS, load_library, resolve
from .unsupported import MISSING


@dataclass(frozen=True)
class Names:
    """What exists outside the program: user defs from memory, data keys, tools, history."""

    memory: frozenset[str] = frozenset()
    data: frozenset[str] = frozenset()
    tools: frozenset[str] = frozenset()
    history: int = 0


@dataclass
class _Env:
    locals: dict[str, n.Binding]
    parent: "_Env | None" = None

    def lookup(self, name: str) -> n.Binding | None:
        env: _Env | None = self
        while env is not None:
            b = env.locals.get(name)
            if b is not None:
                return b
            env = env.parent
        return None

    def child(self) -> "_Env":
        return _Env({}, self)


@dataclass
class _RecurTarget:
    targets: list[n.Binding]
    fn_depth: int


@dataclass
class _State:
    names: Names
    user_defs: set[str]
    counter: int = 0
    fn_stack: list[dict[int, n.Binding]] = field(default_factory=list)
    recur: list[_RecurTarget | None] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # (require '[clojure.string :as cs]): cs -> clojure.string
    refers: dict[str, str] = field(default_factory=dict)  # (require '[clojure.set :refer [union]]): union -> set/union


_INTEROP_HINTS = {  # Python/JavaScript methods with no curated Java counterpart: the Clojure way
    "includes": "clojure.string/includes?", "push": "conj", "append": "conj", "get": "(get m k)",
    "keys": "keys", "values": "vals", "items": "seq", "upper": "clojure.string/upper-case",
    "lower": "clojure.string/lower-case", "join": "clojure.string/join",
    "map": "(map f coll)", "filter": "(filter pred coll)", "forEach": "doseq",
}

# Clojure's special forms and host names PTC-Lisp refuses (clojure.core's: unsupported.MISSING)
_UNSUPPORTED_FORMS = {
    "set!": "set!", "var": "vars", "new": "Java interop (new)", ".": "Java interop (.)",
    "monitor-enter": "locking", "monitor-exit": "locking", "sh": "shell access", "System/exit": "System/exit",
}


def _unsupported(form: Any, name: str) -> PTCError | None:
    """The error for a Clojure name PTC-Lisp deliberately lacks, saying why; None for others."""
    if name in _UNSUPPORTED_FORMS:
        return _err(form, f"{_UNSUPPORTED_FORMS[name]} ({name}) is not supported in PTC-Lisp",
                    hint="see docs/deviations.md")
    reason = MISSING.get(name)
    if reason is None:
        return None
    return _err(form, f"{name} is not supported in PTC-Lisp ({reason.title})", hint=FOREIGN.get(name, reason.why))


def _err(form: Any, message: str, hint: str | None = None) -> PTCError:
    return PTCError("analysis", message, line=getattr(form, "line", None), column=getattr(form, "col", None),
                    hint=hint)


def _is_sym(f: Any, name: str | None = None) -> bool:
    return isinstance(f, Sym) and f.ns is None and (name is None or f.name == name)


def _kw(f: Any, name: str) -> bool:
    return isinstance(f, Lit) and type(f.value) is v.Keyword and f.value.name == name


def _list(items: list[Form], at: Any) -> Coll:
    return Coll("list", items, at.line, at.col)


def _sym(name: str, at: Any) -> Sym:
    return Sym(name, None, at.line, at.col)


def _collect_defs(forms: Iterable[Form]) -> set[str]:
    """Every name a program may def anywhere (Clojure needs declare; we are lenient)."""
    out: set[str] = set()
    stack = list(forms)
    while stack:
        f = stack.pop()
        if isinstance(f, Coll):
            items = f.items
            if f.kind == "list" and len(items) >= 2 and isinstance(items[0], Sym) and items[0].ns is None \
                    and items[0].name in ("def", "defn", "defn-", "declare") and isinstance(items[1], Sym):
                if items[0].name == "declare":
                    out.update(i.name for i in items[1:] if isinstance(i, Sym))
                else:
                    out.add(items[1].name)
            stack.extend(items)
    return out


class Analyzer:
    """Turns forms into nodes; one instance per program."""

    def __init__(self, names: Names, forms: list[Form]) -> None:
        load_library()
        self.st = _State(names, set(names.memory) | _collect_defs(forms))

    # -- bindings and scopes ------------------------------------------------------------

    def _new_binding(self, name: str) -> n.Binding:
        self.st.counter += 1
        # ASCII letters and digits only: every symbol the reader accepts (a², x①, λ...) must give
        # a valid Python identifier; the counter keeps names unique
        safe = "".join(c if c.isascii() and c.isalnum() else "_" for c in name)[:20]
        return n.Binding(name, f"l{self.st.counter}_{safe}", len(self.st.fn_stack))

    def _temp(self, hint: str = "t") -> n.Binding:
        return self._new_binding(f"__{hint}")

    def _ref(self, b: n.Binding, at: Any) -> n.Local:
        target = b.box if b.box is not None else b
        for depth in range(target.fn_depth, len(self.st.fn_stack)):
            self.st.fn_stack[depth][id(target)] = target
        return n.Local(at.line, at.col, b)

    # -- entry --------------------------------------------------------------------------

    def program(self, forms: list[Form]) -> n.Node:
        env = _Env({})
        body = [self.analyze(f, env, tail=False) for f in forms]
        if not body:
            return n.Const(1, 1, None)
        if len(body) == 1:
            return body[0]
        return n.Do(1, 1, body)

    def analyze(self, f: Form, env: _Env, tail: bool) -> n.Node:
        if isinstance(f, Lit):
            return n.Const(f.line, f.col, f.value)
        if isinstance(f, Sym):
            return self.symbol(f, env)
        if isinstance(f, RegexLit):
            return n.Const(f.line, f.col, self._regex(f))
        if f.kind == "list":
            return self.list_form(f, env, tail)
        items = [self.analyze(i, env, False) for i in f.items]
        if all(isinstance(i, n.Const) for i in items):
            return n.Const(f.line, f.col, self._const_coll(f.kind, [i.value for i in items], f))  # type: ignore[attr-defined]
        if f.kind == "vector":
            return n.VectorLit(f.line, f.col, items)
        if f.kind == "map":
            return n.MapLit(f.line, f.col, list(zip(items[0::2], items[1::2])))
        return n.SetLit(f.line, f.col, items)

    def _const_coll(self, kind: str, items: list[Any], at: Any) -> Any:
        try:
            if kind == "vector":
                return v.vec(items)
            if kind == "map":
                keys = items[0::2]
                if len({_hashable(k) for k in keys}) != len(keys):
                    raise _err(at, "duplicate key in map literal")
                return v.make_map(zip(keys, items[1::2]))
            if len({_hashable(i) for i in items}) != len(items):
                raise _err(at, "duplicate key in set literal")
            return v.make_set(items)
        except TypeError:
            raise _err(at, f"{kind} literal contains an unhashable value") from None

    def _regex(self, f: RegexLit) -> Any:
        from .lib.regex import compile_regex

        try:
            return compile_regex(f.source)
        except PTCError as e:
            raise e.at(f.line, f.col)

    # -- symbols ------------------------------------------------------------------------

    def symbol(self, s: Sym, env: _Env) -> n.Node:
        if s.ns is None:
            b = env.lookup(s.name)
            if b is not None:
                return self._ref(b, s)
            return self._global(s, env)
        return self._qualified(s)

    def _global(self, s: Sym, env: _Env) -> n.Node:
        name, names = s.name, self.st.names
        if name in self.st.user_defs:
            return n.GlobalRef(s.line, s.col, name)
        b = REGISTRY.get(name) or REGISTRY.get(self.st.refers.get(name, ""))
        if b is not None:
            return self._builtin(s, b)
        if name in ("*1", "*2", "*3"):
            i = int(name[1]) - 1
            if i >= names.history:
                raise _err(s, f"{name} is not available: no result from {i + 1} turn(s) ago",
                           hint="*1 *2 *3 hold the results of earlier turns when the host provides them")
            return n.HistoryRef(s.line, s.col, i)
        in_tools, in_data = name in names.tools, name in names.data
        if in_tools and in_data:
            raise _err(s, f"ambiguous name {name}: it is both a tool and a data key",
                       hint=f"write tool/{name} or data/{name}")
        if in_tools:
            return n.ToolRef(s.line, s.col, name)
        if in_data:
            return n.DataRef(s.line, s.col, name)
        if name in SPECIAL_FORMS:
            raise _err(s, f"{name} is a special form and cannot be used as a value")
        if name.startswith(".") and len(name) > 1:
            raise self._interop(s)
        if name.endswith(".") and len(name) > 1:
            raise _err(s, f"Java constructor call ({name}) is not supported in PTC-Lisp")
        refused = _unsupported(s, name)
        if refused is not None:
            raise refused
        home = None if name in FOREIGN else _library_home(name)  # console.log is println, not clojure.math/log
        if home is not None:
            raise _err(s, f"Unable to resolve symbol: {name}", hint=f"did you mean {home}?")
        foreign = foreign_hint(name, names.data, names.tools)
        if foreign is not None:
            raise _err(s, f"Unable to resolve symbol: {name}", hint=foreign)
        pool = list(self.st.user_defs) + list(REGISTRY) + list(names.tools) + list(names.data) \
            + list(SPECIAL_FORMS) + _visible_locals(env)
        close = suggest(name, pool)
        hint = (_did_you_mean(close) if close else
                "def it before use; tools are called as tool/name and input data is read as data/name")
        raise _err(s, f"Unable to resolve symbol: {name}", hint=hint)

    def _builtin(self, s: Sym, b: Any) -> n.Node:
        """A reference to builtin b, whose modules are imported now (registry.prepare)."""
        if b.needs:
            from .registry import prepare

            missing = prepare(b)
            if missing is not None:
                raise _err(s, missing, hint="the rest of PTC-Lisp works without it")
        return n.BuiltinRef(s.line, s.col, b)

    def _interop(self, s: Sym) -> PTCError:
        """An unknown `.method`: only the curated methods exist (docs/deviations.md), no reflection."""
        from .lib.methods import method_names_like

        method = s.name[1:]
        close = method_names_like(method)
        alt = _INTEROP_HINTS.get(method)  # a Python/JavaScript habit: the Clojure way
        hint = (f"use {alt}" if alt else _did_you_mean(close) if close else
                "only the String, number, collection and java.time methods listed in docs/deviations.md exist")
        return _err(s, f"Java method {s.name} is not supported in PTC-Lisp", hint=hint)

    def _qualified(self, s: Sym) -> n.Node:
        ns, name, names = self.st.aliases.get(s.ns, s.ns), s.name, self.st.names  # type: ignore[arg-type]
        if ns == "data":
            if name not in names.data:
                if "." in name and name.split(".")[0] in names.data:  # data/orders.length
                    raise _err(s, f"data/{name} does not exist", hint=foreign_hint(f"data/{name}"))
                close = suggest(name, names.data)
                raise _err(s, f"data/{name} does not exist",
                           hint=(f"did you mean data/{close[0]}?" if close else
                                 f"available: {', '.join(sorted(names.data)) or 'no data'}"))
            return n.DataRef(s.line, s.col, name)
        if ns == "tool":
            if name not in names.tools:
                close = suggest(name, names.tools)
                raise _err(s, f"tool/{name} does not exist",
                           hint=(f"did you mean tool/{close[0]}?" if close else _tools_hint(names.tools)))
            return n.ToolRef(s.line, s.col, name)
        b = resolve(ns, name)
        if b is not None:
            return self._builtin(s, b)
        from .lib.interop import constant

        const = constant(ns, name)
        if const is not None:
            return n.Const(s.line, s.col, const)
        full = s.full
        if full in _UNSUPPORTED_FORMS:
            raise _err(s, f"{full} is not supported in PTC-Lisp", hint="programs cannot exit or reach the system")
        from .registry import NS_ALIASES

        if ns in NS_ALIASES:
            from .lib.interop import constant_names

            canonical = NS_ALIASES[ns]
            pool = [k.split("/", 1)[1] for k in REGISTRY if k.startswith(canonical + "/")] + constant_names(canonical)
            from .idioms import PYTHON_NAMES

            alt = PYTHON_NAMES.get(name, name.replace("_", "-"))
            close = [alt] if alt in pool else suggest(name, pool)
            hint = f"did you mean {ns}/{close[0]}?" if close else None
            if canonical == "Math" and f"clojure.math/{name}" in REGISTRY:  # math/floor-div without the require
                hint = f"{ns}/ is Java's Math; for clojure.math/{name} write (require '[clojure.math :as {ns}]) first"
            raise _err(s, f"Unable to resolve symbol: {full}", hint=hint)
        dialect = namespace_hint(ns, name, names.data, names.tools)
        if dialect is not None:
            raise _err(s, f"namespace {ns} is not available in PTC-Lisp", hint=dialect)
        raise _err(s, f"namespace {ns} is not available in PTC-Lisp (Java interop is not supported)",
                   hint="namespaces: clojure.string (str), clojure.set (set), clojure.walk, clojure.math, Math, "
                        "Integer, Long, Double, Boolean, Character, String, System, LocalDate, LocalDateTime, "
                        "LocalTime, Instant, Duration, ChronoUnit, DateTimeFormatter, Locale, "
                        "clojure.lang.PersistentQueue (EMPTY), data, tool")

    # -- lists ----------------------------------------------------------------------------

    def list_form(self, f: Coll, env: _Env, tail: bool) -> n.Node:
        items = f.items
        if not items:
            return n.Const(f.line, f.col, v.EMPTY_LIST)
        head = items[0]
        if isinstance(head, Sym) and head.ns is None and env.lookup(head.name) is None:
            special = _SPECIALS.get(head.name)
            if special is not None:
                return special(self, f, env, tail)
            refused = None if head.name in self.st.user_defs else _unsupported(head, head.name)
            if refused is not None:
                raise refused
        if isinstance(head, Sym) and head.ns is not None and head.full in _UNSUPPORTED_FORMS:
            raise _err(head, f"{head.full} is not supported in PTC-Lisp",
                       hint="programs cannot exit or reach the system")
        if isinstance(head, Lit):
            if type(head.value) is v.Keyword:
                if not 2 <= len(items) <= 3:
                    raise _err(f, f"Wrong number of args ({len(items) - 1}) passed to keyword :{head.value.name}")
                target = self.analyze(items[1], env, False)
                default = self.analyze(items[2], env, False) if len(items) == 3 else None
                return n.KeywordCall(f.line, f.col, head.value, target, default)
            if not isinstance(head.value, (v.FMap, v.FSet)) and head.value is not None:
                raise _err(head, f"cannot call a value of type {v.type_name(head.value)} as a function",
                           hint="the function goes first inside the parens: (println \"hi\"), not println(\"hi\")"
                           if type(head.value) is str else
                           "a number is not a function: (inc x) adds one, (+ 1 x)" if type(head.value) is int
                           else None)
            if head.value is None:
                raise _err(head, "nil cannot be called as a function")
        if isinstance(head, Sym) and head.ns is not None and len(items) == 1 and resolve(head.ns, head.name) is None:
            from .lib.interop import constant

            const = constant(head.ns, head.name)
            if const is not None:  # (Long/MAX_VALUE): Clojure reads a static field in call position too
                return n.Const(f.line, f.col, const)
        fn = self.analyze(head, env, False)
        args = [self.analyze(a, env, False) for a in items[1:]]
        if isinstance(fn, n.ToolRef):
            return n.ToolCall(f.line, f.col, fn.name, args)
        return n.Call(f.line, f.col, fn, args)

    def body(self, forms: list[Form], env: _Env, tail: bool, at: Any) -> n.Node:
        if not forms:
            return n.Const(at.line, at.col, None)
        nodes = [self.analyze(x, env, False) for x in forms[:-1]]
        nodes.append(self.analyze(forms[-1], env, tail))
        return nodes[0] if len(nodes) == 1 else n.Do(at.line, at.col, nodes)

    # -- destructuring ----------------------------------------------------------------

    def bind(self, pattern: Form, value: n.Node, env: _Env, out: list[tuple[n.Binding, n.Node]]) -> None:
        """Append simple (binding, node) pairs that destructure `value` by `pattern` into env."""
        if isinstance(pattern, Sym):
            if pattern.ns is not None:
                raise _err(pattern, f"cannot bind qualified name {pattern.full}")
            b = self._new_binding(pattern.name)
            out.append((b, value))
            env.locals[pattern.name] = b
            return
        if isinstance(pattern, Coll) and pattern.kind == "vector":
            t = self._temp("vec")
            out.append((t, value))
            items = pattern.items
            if any(_is_sym(p, "&") for p in items):
                self._bind_seq(pattern, t, env, out)
                return
            i, pos = 0, 0
            while i < len(items):
                p = items[i]
                if _is_sym(p, "&"):
                    if i + 1 >= len(items):
                        raise _err(p, "missing binding after & in destructuring")
                    rest = self._rt("nthnext", [self._ref(t, p), n.Const(p.line, p.col, pos)], p)
                    self.bind(items[i + 1], rest, env, out)
                    i += 2
                elif _kw(p, "as"):
                    self._bind_as(items, i, t, env, out)
                    i += 2
                else:
                    self.bind(p, self._rt("nth_or_nil", [self._ref(t, p), n.Const(p.line, p.col, pos)], p),
                              env, out)
                    pos += 1
                    i += 1
            return
        if isinstance(pattern, Coll) and pattern.kind == "map":
            self._bind_map(pattern, value, env, out)
            return
        raise _err(pattern, f"unsupported binding form: {_show(pattern)}",
                   hint="bind a symbol, a [vector] or a {map} pattern")

    def _bind_as(self, items: list[Any], i: int, t: n.Binding, env: _Env, out: list[tuple[n.Binding, n.Node]]) -> None:
        """`:as name` at items[i] of a sequential pattern: name is the whole value."""
        if i + 1 >= len(items) or not _is_sym(items[i + 1]):
            raise _err(items[i], ":as must be followed by a symbol")
        self.bind(items[i + 1], self._ref(t, items[i]), env, out)

    def _bind_seq(self, pattern: Coll, t: n.Binding, env: _Env, out: list[tuple[n.Binding, n.Node]]) -> None:
        """[a b & more] reads its value through seq, first and next, as Clojure's destructure does
        when there is a `&`: any seqable (a set, a map, a string) destructures."""
        items = pattern.items
        at = pattern
        cur = self._temp("seq")
        out.append((cur, self._core("seq", [self._ref(t, at)], at)))
        i = 0
        while i < len(items):
            p = items[i]
            if _is_sym(p, "&"):
                if i + 1 >= len(items):
                    raise _err(p, "missing binding after & in destructuring")
                self.bind(items[i + 1], self._ref(cur, p), env, out)
                i += 2
            elif _kw(p, "as"):
                self._bind_as(items, i, t, env, out)
                i += 2
            else:
                self.bind(p, self._core("first", [self._ref(cur, p)], p), env, out)
                nxt = self._temp("seq")
                out.append((nxt, self._core("next", [self._ref(cur, p)], p)))
                cur = nxt
                i += 1

    def _core(self, name: str, args: list[n.Node], at: Any) -> n.Call:
        return n.Call(at.line, at.col, n.BuiltinRef(at.line, at.col, REGISTRY[name]), args)

    def _bind_map(self, pattern: Coll, value: n.Node, env: _Env, out: list[tuple[n.Binding, n.Node]]) -> None:
        t = self._temp("map")
        out.append((t, self._rt("map_for_destructure", [value], pattern)))
        pairs = list(zip(pattern.items[0::2], pattern.items[1::2]))
        defaults: dict[str, Form] = {}
        for k, val in pairs:
            if _kw(k, "or"):
                if not (isinstance(val, Coll) and val.kind == "map"):
                    raise _err(k, ":or must be followed by a map")
                for dk, dv in zip(val.items[0::2], val.items[1::2]):
                    if not _is_sym(dk):
                        raise _err(dk, ":or keys must be symbols")
                    defaults[dk.name] = dv  # type: ignore[union-attr]
        for k, val in pairs:
            if _kw(k, "or"):
                continue
            if _kw(k, "as"):
                if not _is_sym(val):
                    raise _err(k, ":as must be followed by a symbol")
                self.bind(val, self._ref(t, k), env, out)
            elif isinstance(k, Lit) and type(k.value) is v.Keyword and \
                    k.value.name.split("/")[-1] in ("keys", "strs", "syms"):
                kind = k.value.name.split("/")[-1]
                ns_prefix = k.value.name[: -len(kind)]  # "a/" for :a/keys
                if not (isinstance(val, Coll) and val.kind == "vector"):
                    raise _err(k, f":{k.value.name} must be followed by a vector of names")
                for s in val.items:
                    if isinstance(s, Sym):
                        local, key_name = s.name, s.full
                    elif isinstance(s, Lit) and type(s.value) is v.Keyword:
                        key_name = s.value.name
                        local = key_name.split("/")[-1]
                    else:
                        raise _err(s, f"invalid name in :{k.value.name}: {_show(s)}")
                    if ns_prefix and "/" not in key_name:
                        key_name = ns_prefix + key_name
                    key: Any = (v.keyword(key_name) if kind == "keys" else
                                key_name if kind == "strs" else v.Symbol(key_name))
                    self._bind_key(s, local, t, key, defaults.get(local), env, out)
            else:
                # {local-pattern key-form}
                key_node = self.analyze(val, env, False)
                if isinstance(k, Sym):
                    self._bind_key(k, k.name, t, key_node, defaults.get(k.name), env, out)
                else:
                    sub = self._rt("get", [self._ref(t, k), key_node], k)
                    self.bind(k, sub, env, out)

    def _bind_key(self, at: Any, local: str, t: n.Binding, key: Any, default: Form | None, env: _Env,
                  out: list[tuple[n.Binding, n.Node]]) -> None:
        key_node = key if isinstance(key, n.Node) else n.Const(at.line, at.col, key)
        args: list[n.Node] = [self._ref(t, at), key_node]
        if default is not None:
            args.append(self.analyze(default, env, False))
        b = self._new_binding(local)
        out.append((b, self._rt("get", args, at)))
        env.locals[local] = b

    def _rt(self, name: str, args: list[n.Node], at: Any) -> n.Call:
        return n.Call(at.line, at.col, n.RuntimeRef(at.line, at.col, name), args)

    # -- functions ------------------------------------------------------------------------

    def fn(self, f: Coll, env: _Env, name: str | None = None, doc: str | None = None,
           rest_items: list[Form] | None = None) -> n.Fn:
        items = rest_items if rest_items is not None else f.items[1:]
        fn_name = name
        if items and isinstance(items[0], Sym):
            fn_name = items[0].name
            items = items[1:]
        if items and isinstance(items[0], Lit) and type(items[0].value) is str and len(items) > 1:
            doc = doc or items[0].value
            items = items[1:]
        if items and isinstance(items[0], Coll) and items[0].kind == "map" and len(items) > 1:
            items = items[1:]  # attr-map
        if not items:
            raise _err(f, "fn needs a parameter vector", hint="(fn [x] ...)")
        if isinstance(items[0], Coll) and items[0].kind == "vector":
            arities_src = [(items[0], items[1:])]
        else:
            arities_src = []
            for a in items:
                if not (isinstance(a, Coll) and a.kind == "list" and a.items and isinstance(a.items[0], Coll)
                        and a.items[0].kind == "vector"):
                    raise _err(a, "invalid fn arity: expected ([params] body...)")
                arities_src.append((a.items[0], a.items[1:]))
        captures: dict[int, n.Binding] = {}
        self.st.fn_stack.append(captures)
        try:
            fn_env = env.child()
            self_binding = None
            if fn_name is not None:
                self_binding = self._new_binding(fn_name)
                fn_env.locals[fn_name] = self_binding
            arities = [self._arity(params, body, fn_env, f) for params, body in arities_src]
        finally:
            self.st.fn_stack.pop()
        seen: set[int] = set()
        variadic = 0
        for a in arities:
            if a.rest is not None:
                variadic += 1
            elif len(a.params) in seen:
                raise _err(f, f"fn {fn_name or ''} has two arities with {len(a.params)} parameters")
            seen.add(len(a.params))
        if variadic > 1:
            raise _err(f, "fn can have at most one variadic arity")
        return n.Fn(f.line, f.col, fn_name, self_binding, arities, captures, doc)

    def _arity(self, params: Coll, body: list[Form], env: _Env, at: Any) -> n.Arity:
        aenv = env.child()
        binds: list[n.Binding] = []
        rest: n.Binding | None = None
        destructure: list[tuple[n.Binding, n.Node]] = []
        items = params.items
        i = 0
        while i < len(items):
            p = items[i]
            if _is_sym(p, "&"):
                if i + 1 >= len(items) or i + 2 != len(items):
                    raise _err(p, "& must be followed by exactly one parameter")
                rp = items[i + 1]
                if _is_sym(rp):
                    rest = self._new_binding(rp.name)  # type: ignore[union-attr]
                    aenv.locals[rp.name] = rest  # type: ignore[union-attr]
                else:
                    rest = self._temp("rest")
                    self.bind(rp, n.Local(rp.line, rp.col, rest), aenv, destructure)
                break
            if _is_sym(p):
                b = self._new_binding(p.name)  # type: ignore[union-attr]
                aenv.locals[p.name] = b  # type: ignore[union-attr]
                binds.append(b)
            elif isinstance(p, Coll) and p.kind in ("vector", "map"):
                b = self._temp("arg")
                binds.append(b)
                self.bind(p, n.Local(p.line, p.col, b), aenv, destructure)
            else:
                raise _err(p, f"invalid parameter: {_show(p)}", hint="parameters are symbols or destructuring forms")
            i += 1
        targets = binds + ([rest] if rest is not None else [])
        target = _RecurTarget(targets, len(self.st.fn_stack))
        self.st.recur.append(target)
        try:
            inner = self.body(body, aenv, True, at)
        finally:
            self.st.recur.pop()
        if destructure:
            inner = n.Let(at.line, at.col, destructure, inner)
        arity = n.Arity(binds, rest, inner)
        arity.has_recur = _has_recur(inner, targets)
        return arity


def _did_you_mean(names: list[str]) -> str:
    """`did you mean filter? (or: filterv, iterate)`: the best guess first, one question mark."""
    text = f"did you mean {names[0]}?" if not names[0].endswith("?") else f"did you mean {names[0]}"
    return text + (f" (or: {', '.join(names[1:])})" if len(names) > 1 else "")


def _hashable(x: Any) -> Any:
    return (type(x), x) if isinstance(x, (int, float, bool)) else x


def _visible_locals(env: _Env) -> list[str]:
    names: list[str] = []
    e: _Env | None = env
    while e is not None:
        names.extend(n for n in e.locals if not n.startswith("__"))
        e = e.parent
    return names


def _show(f: Any) -> str:
    if isinstance(f, Lit):
        from .printer import pr_str

        return pr_str(f.value)
    if isinstance(f, Sym):
        return f.full
    if isinstance(f, RegexLit):
        return f'#"{f.source}"'
    return {"list": "(...)", "vector": "[...]", "map": "{...}", "set": "#{...}"}[f.kind]


def _has_recur(node: n.Node, targets: list[n.Binding]) -> bool:
    stack: list[Any] = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, n.Recur):
            if x.targets is targets:
                return True
            continue
        if isinstance(x, (n.Fn, n.Loop)):
            continue
        if isinstance(x, n.Node):
            for val in vars(x).values():
                if isinstance(val, n.Node):
                    stack.append(val)
                elif isinstance(val, list):
                    for item in val:
                        if isinstance(item, n.Node):
                            stack.append(item)
                        elif isinstance(item, tuple):
                            stack.extend(i for i in item if isinstance(i, n.Node))
                        elif isinstance(item, n.ForClause):
                            stack.extend(i for i in (item.coll, item.test) if i is not None)
                            if item.lets:
                                stack.extend(i for _, i in item.lets)
    return False


# -- special forms and macros ------------------------------------------------------------

_SPECIALS: dict[str, Callable[[Analyzer, Coll, _Env, bool], n.Node]] = {}


def special(name: str, args: str, doc: str, category: str = "special forms",
            ex: tuple[tuple[str, str], ...] = ()) -> Callable[[Callable[..., n.Node]], Callable[..., n.Node]]:
    """Register a special form or macro with the analyzer and in the reference."""
    from .registry import special_form

    def deco(fn: Callable[..., n.Node]) -> Callable[..., n.Node]:
        _SPECIALS[name] = fn
        special_form(name, args=args, doc=doc, category=category, ex=ex)
        return fn

    return deco


def _arity_check(f: Coll, lo: int, hi: int | None, usage: str) -> None:
    count = len(f.items) - 1
    if count < lo or (hi is not None and count > hi):
        raise _err(f, f"wrong number of forms in {_show(f.items[0])}: expected {usage}", hint=usage)


@special("quote", "(quote form)", "The form itself, unevaluated: 'x, '(1 2).", ex=(("'(1 2)", "(1 2)"),))
def _quote(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, 1, "(quote form)")
    return n.Const(f.line, f.col, form_to_value(f.items[1]))


@special("if", "(if test then else?)", "then when test is truthy (not nil/false), else otherwise.",
         ex=(("(if (> 2 1) :yes :no)", ":yes"),))
def _if(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 2, 3, "(if test then else?)")
    it = f.items
    els = a.analyze(it[3], env, tail) if len(it) == 4 else n.Const(f.line, f.col, None)
    return n.If(f.line, f.col, a.analyze(it[1], env, False), a.analyze(it[2], env, tail), els)


@special("do", "(do exprs*)", "Evaluates exprs in order; the value of the last.", ex=(("(do 1 2)", "2"),))
def _do(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    return a.body(f.items[1:], env, tail, f)


def _binding_pairs(f: Coll, vec: Form, what: str) -> list[tuple[Form, Form]]:
    if not (isinstance(vec, Coll) and vec.kind == "vector"):
        raise _err(vec if isinstance(vec, (Coll, Sym, Lit)) else f, f"{what} requires a vector for its bindings",
                   hint=f"({what} [name value ...] body)")
    if len(vec.items) % 2:
        raise _err(vec, f"{what} requires an even number of forms in its binding vector")
    return list(zip(vec.items[0::2], vec.items[1::2]))


@special("let", "(let [bindings*] body*)", "Binds names (with destructuring) sequentially, then evaluates body.",
         ex=(("(let [x 1 y (+ x 1)] (* x y))", "2"),))
def _let(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, None, "(let [bindings*] body*)")
    pairs = _binding_pairs(f, f.items[1], "let")
    lenv = env.child()
    binds: list[tuple[n.Binding, n.Node]] = []
    for pat, val in pairs:
        node = a.analyze(val, lenv, False)
        a.bind(pat, node, lenv, binds)
    return n.Let(f.line, f.col, binds, a.body(f.items[2:], lenv, tail, f))


@special("loop", "(loop [bindings*] body*)", "Like let, and a target for recur.",
         ex=(("(loop [i 0 s 0] (if (< i 5) (recur (inc i) (+ s i)) s))", "10"),))
def _loop(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, None, "(loop [bindings*] body*)")
    pairs = _binding_pairs(f, f.items[1], "loop")
    lenv = env.child()
    slots: list[tuple[n.Binding, n.Node]] = []
    destructure: list[tuple[n.Binding, n.Node]] = []
    for pat, val in pairs:
        init = a.analyze(val, lenv, False)
        if _is_sym(pat):
            b = a._new_binding(pat.name)  # type: ignore[union-attr]
            lenv.locals[pat.name] = b  # type: ignore[union-attr]
            slots.append((b, init))
        else:
            b = a._temp("slot")
            slots.append((b, init))
            a.bind(pat, n.Local(f.line, f.col, b), lenv, destructure)
    targets = [b for b, _ in slots]
    a.st.recur.append(_RecurTarget(targets, len(a.st.fn_stack)))
    try:
        body = a.body(f.items[2:], lenv, True, f)
    finally:
        a.st.recur.pop()
    if destructure:
        body = n.Let(f.line, f.col, destructure, body)
    return n.Loop(f.line, f.col, slots, body)


@special("recur", "(recur exprs*)", "Jumps back to the nearest loop or fn with new values (tail position only).",
         ex=(("(loop [n 3 acc 1] (if (zero? n) acc (recur (dec n) (* acc n))))", "6"),))
def _recur(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    target = a.st.recur[-1] if a.st.recur else None
    if target is None:
        raise _err(f, "recur outside of loop or fn")
    if not tail:
        raise _err(f, "Can only recur from tail position",
                   hint="recur must be the last thing evaluated in its loop or fn")
    if target.fn_depth != len(a.st.fn_stack):
        raise _err(f, "recur crosses a fn boundary", hint="recur targets the innermost loop or fn")
    args = [a.analyze(x, env, False) for x in f.items[1:]]
    if len(args) != len(target.targets):
        raise _err(f, f"Mismatched argument count to recur, expected: {len(target.targets)} args, got: {len(args)}")
    return n.Recur(f.line, f.col, target.targets, args)


@special("fn", ("(fn name? [params*] body*)", "(fn name? ([params*] body*)+)"),
         "An anonymous function (multi-arity, variadic with &, destructuring params).",
         ex=(("((fn [x & more] (count more)) 1 2 3)", "2"),))
def _fn(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    a.st.recur.append(None)
    try:
        return a.fn(f, env)
    finally:
        a.st.recur.pop()


def _thunk(f: Coll, body: list[Form]) -> Form:
    """(fn [] body*): what lazy-seq and lazy-cat run when their items are first needed."""
    return _list([_sym("fn", f), Coll("vector", [], f.line, f.col), *body], f)


@special("lazy-seq", "(lazy-seq body*)",
         "A lazy seq of what body returns (a seq, a collection or nil), run only when its first item is "
         "needed, once; a recursive one, (lazy-seq (cons x (f ...))), may be infinite.",
         ex=(("(do (defn nat [n] (lazy-seq (cons n (nat (inc n))))) (take 3 (nat 5)))", "(5 6 7)"),))
def _lazy_seq(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    return a._rt("lazy_seq", [a.analyze(_thunk(f, f.items[1:]), env, False)], f)


@special("lazy-cat", "(lazy-cat colls*)",
         "The items of colls in order, each coll's expression evaluated only when its items are reached.",
         ex=(("(do (def fib (lazy-cat [0 1] (map + fib (rest fib)))) (take 8 fib))", "(0 1 1 2 3 5 8 13)"),))
def _lazy_cat(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    return a._rt("lazy_cat", [a.analyze(_thunk(f, [c]), env, False) for c in f.items[1:]], f)


@special("def", "(def name doc? value)", "Defines name in the program's memory (kept across turns).",
         ex=(("(do (def x 42) x)", "42"),))
def _def(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, 3, "(def name value)")
    name = f.items[1]
    if not _is_sym(name):
        raise _err(f, "def needs a symbol name")
    items = f.items[2:]
    doc = None
    if len(items) == 2:
        if not (isinstance(items[0], Lit) and type(items[0].value) is str):
            raise _err(f, "def: expected (def name \"doc\" value)")
        doc = items[0].value
        items = items[1:]
    value = a.analyze(items[0], env, False) if items else n.Const(f.line, f.col, None)
    return n.Def(f.line, f.col, name.name, value, doc)  # type: ignore[union-attr]


def _defn(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    if len(f.items) < 3 or not _is_sym(f.items[1]):
        raise _err(f, f"{_show(f.items[0])} needs a name and a parameter vector", hint="(defn name [params] body)")
    name = f.items[1].name  # type: ignore[union-attr]
    rest = f.items[2:]
    doc = None
    if rest and isinstance(rest[0], Lit) and type(rest[0].value) is str:
        doc = rest[0].value
        rest = rest[1:]
    a.st.recur.append(None)
    try:
        fn = a.fn(f, env, name=name, doc=doc, rest_items=rest)
    finally:
        a.st.recur.pop()
    fn.name = name
    return n.Def(f.line, f.col, name, fn, doc)


special("defn", ("(defn name doc? [params*] body*)", "(defn name doc? ([params*] body*)+)"),
        "Defines a named function in memory (docstring shown to the model).",
        ex=(("(do (defn sq [x] (* x x)) (sq 4))", "16"),))(_defn)
special("defn-", "(defn- name doc? [params*] body*)", "Same as defn.",
        ex=(("(do (defn- half [x] (/ x 2)) (half 9))", "4.5"),))(_defn)


@special("letfn", "(letfn [(name [params*] body*)*] body*)", "Local, mutually recursive functions.",
         ex=(("(letfn [(ev? [n] (if (zero? n) true (od? (dec n)))) (od? [n] (if (zero? n) false (ev? (dec n))))] "
              "(ev? 10))", "true"),))
def _letfn(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, None, "(letfn [(name [params] body)*] body*)")
    specs = f.items[1]
    if not (isinstance(specs, Coll) and specs.kind == "vector"):
        raise _err(f, "letfn requires a vector of function specs")
    lenv = env.child()
    box = a._temp("letfn")
    names: list[tuple[n.Binding, Coll]] = []
    for i, spec in enumerate(specs.items):
        if not (isinstance(spec, Coll) and spec.kind == "list" and spec.items and _is_sym(spec.items[0])):
            raise _err(spec, "letfn spec must be (name [params] body)")
        nm = spec.items[0].name  # type: ignore[union-attr]
        b = a._new_binding(nm)
        b.box, b.index = box, i
        lenv.locals[nm] = b
        names.append((b, spec))
    fns: list[tuple[n.Binding, n.Fn]] = []
    for b, spec in names:
        a.st.recur.append(None)
        try:
            fn = a.fn(spec, lenv, name=None, rest_items=spec.items[1:])
        finally:
            a.st.recur.pop()
        fn.name = b.name
        fns.append((b, fn))
    body = a.body(f.items[2:], lenv, tail, f)
    node = n.Letfn(f.line, f.col, fns, body)
    node.captures = {id(box): box}
    return n.Let(f.line, f.col, [(box, a._rt("letfn_box", [n.Const(f.line, f.col, len(fns))], f))], node)


def _expand(a: Analyzer, f: Coll, env: _Env, tail: bool, form: Form) -> n.Node:
    return a.analyze(form, env, tail)


def _macro(name: str, args: str, doc: str, ex: tuple[tuple[str, str], ...] = (),
           category: str = "special forms") -> Callable[[Callable[[Coll], Form]], Callable[[Coll], Form]]:
    """Register a macro written as a form -> form rewrite."""

    def deco(rewrite: Callable[[Coll], Form]) -> Callable[[Coll], Form]:
        def handler(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
            return a.analyze(rewrite(f), env, tail)

        special(name, args, doc, category, ex)(handler)
        return rewrite

    return deco


@_macro("when", "(when test body*)", "Evaluates body when test is truthy, else nil.", (("(when true 1 2)", "2"),))
def _when(f: Coll) -> Form:
    _arity_check(f, 1, None, "(when test body*)")
    return _list([_sym("if", f), f.items[1], _list([_sym("do", f)] + f.items[2:], f)], f)


@_macro("when-not", "(when-not test body*)", "Evaluates body when test is falsey.", (("(when-not false 1)", "1"),))
def _when_not(f: Coll) -> Form:
    _arity_check(f, 1, None, "(when-not test body*)")
    return _list([_sym("if", f), f.items[1], Lit(None, f.line, f.col), _list([_sym("do", f)] + f.items[2:], f)], f)


@_macro("assert", "(assert test message?)", "Throws an error (\"Assert failed: ...\") when test is falsey; nil otherwise.",
        (("(assert (pos? 1) \"must be positive\")", "nil"),))
def _assert(f: Coll) -> Form:
    _arity_check(f, 1, 2, "(assert test message?)")
    test = f.items[1]
    shown = _list([_sym("pr-str", f), _list([_sym("quote", f), test], f)], f)
    parts: list[Form] = [Lit("Assert failed: ", f.line, f.col)]
    if len(f.items) == 3:
        parts += [f.items[2], Lit("\n", f.line, f.col)]
    message = _list([_sym("str", f)] + parts + [shown], f)
    error = _list([_sym("ex-info", f), message, Coll("map", [], f.line, f.col)], f)
    return _list([_sym("when-not", f), test, _list([_sym("throw", f), error], f)], f)


@_macro("if-not", "(if-not test then else?)", "if with the test negated.", (("(if-not false 1 2)", "1"),))
def _if_not(f: Coll) -> Form:
    _arity_check(f, 2, 3, "(if-not test then else?)")
    els = f.items[3] if len(f.items) == 4 else Lit(None, f.line, f.col)
    return _list([_sym("if", f), f.items[1], els, f.items[2]], f)


@_macro("cond", "(cond test expr ...)", "The expr of the first truthy test (:else as a catch-all).",
        (("(cond (< 5 3) :a (< 5 10) :b :else :c)", ":b"),))
def _cond(f: Coll) -> Form:
    clauses = f.items[1:]
    if len(clauses) % 2:
        raise _err(f, "cond requires an even number of forms")
    result: Form = Lit(None, f.line, f.col)
    for test, expr in reversed(list(zip(clauses[0::2], clauses[1::2]))):
        result = _list([_sym("if", test), test, expr, result], test)
    return result


@_macro("condp", "(condp pred expr test result ... default?)", "The result of the first test for which "
        "(pred test expr) is truthy.", (("(condp = 2 1 :one 2 :two :other)", ":two"),))
def _condp(f: Coll) -> Form:
    _arity_check(f, 2, None, "(condp pred expr clauses*)")
    p, e = _sym("__condp_pred", f), _sym("__condp_expr", f)
    rest = f.items[3:]
    clauses: list[list[Form]] = []
    while len(rest) > 1:  # (test expr) or (test :>> result-fn), as Clojure splits them
        n = 3 if _kw(rest[1], ">>") else 2
        if len(rest) < n:
            raise _err(rest[0], "condp :>> needs a function after it", hint="(condp some xs #{1 2} :>> inc ...)")
        clauses.append(rest[:n])
        rest = rest[n:]
    result: Form = rest[0] if rest else _list([_sym("__no_matching_clause", f), e], f)
    for clause in reversed(clauses):
        test = clause[0]
        check = _list([p, test, e], test)
        if len(clause) == 2:
            result = _list([_sym("if", test), check, clause[1], result], test)
        else:
            hit = _sym("__condp_hit", test)
            result = _list([_sym("if-let", test), Coll("vector", [hit, check], test.line, test.col),
                            _list([clause[2], hit], test), result], test)
    return _list([_sym("let", f), Coll("vector", [p, f.items[1], e, f.items[2]], f.line, f.col), result], f)


def _if_let_like(f: Coll, name: str, test_sym: str, with_else: bool) -> Form:
    _arity_check(f, 2, 3 if with_else else None, f"({name} [binding test] then else?)")
    vec = f.items[1]
    if not (isinstance(vec, Coll) and vec.kind == "vector" and len(vec.items) == 2):
        raise _err(f, f"{name} requires a vector with exactly one binding", hint=f"({name} [x (f)] ...)")
    pat, test = vec.items
    tmp = _sym("__iflet", f)
    then = f.items[2] if with_else else _list([_sym("do", f)] + f.items[2:], f)
    then = _list([_sym("let", f), Coll("vector", [pat, tmp], f.line, f.col), then], f)
    els: Form = f.items[3] if with_else and len(f.items) == 4 else Lit(None, f.line, f.col)
    check: Form = tmp if test_sym == "truthy" else _list([_sym("some?", f), tmp], f)
    return _list([_sym("let", f), Coll("vector", [tmp, test], f.line, f.col),
                  _list([_sym("if", f), check, then, els], f)], f)


special("if-let", "(if-let [binding test] then else?)", "then with binding when test is truthy.",
        ex=(("(if-let [x (first [1])] (inc x) :none)", "2"),))(
    lambda a, f, env, tail: a.analyze(_if_let_like(f, "if-let", "truthy", True), env, tail))
special("when-let", "(when-let [binding test] body*)", "body with binding when test is truthy.",
        ex=(("(when-let [x (first [1])] (inc x))", "2"),))(
    lambda a, f, env, tail: a.analyze(_if_let_like(f, "when-let", "truthy", False), env, tail))
special("if-some", "(if-some [binding test] then else?)", "then with binding when test is not nil.",
        ex=(("(if-some [x false] x :none)", "false"),))(
    lambda a, f, env, tail: a.analyze(_if_let_like(f, "if-some", "some", True), env, tail))
special("when-some", "(when-some [binding test] body*)", "body with binding when test is not nil.",
        ex=(("(when-some [x 0] (inc x))", "1"),))(
    lambda a, f, env, tail: a.analyze(_if_let_like(f, "when-some", "some", False), env, tail))


def _thread(f: Coll, last: bool) -> Form:
    _arity_check(f, 1, None, "(-> x forms*)")
    acc = f.items[1]
    for step in f.items[2:]:
        if isinstance(step, Coll) and step.kind == "list" and step.items:
            items = step.items + [acc] if last else [step.items[0], acc] + step.items[1:]
            acc = Coll("list", items, step.line, step.col)
        else:
            acc = Coll("list", [step, acc], getattr(step, "line", f.line), getattr(step, "col", f.col))
    return acc


_macro("->", "(-> x forms*)", "Threads x as the first argument through the forms.",
       (("(-> 5 (- 2) (* 3))", "9"),))(lambda f: _thread(f, False))
_macro("->>", "(->> x forms*)", "Threads x as the last argument through the forms.",
       (("(->> [1 2 3] (map inc) (reduce +))", "9"),))(lambda f: _thread(f, True))


def _some_thread(f: Coll, last: bool) -> Form:
    _arity_check(f, 1, None, "(some-> x forms*)")
    g = _sym("__some", f)
    steps = f.items[2:]
    if not steps:
        return f.items[1]
    return _stepped(f, g, [_list([_sym("if", f), _list([_sym("nil?", f), g], f), Lit(None, f.line, f.col),
                                  _thread(_list([_sym("->", f), g, step], f), last)], f) for step in steps])


def _stepped(f: Coll, g: Sym, steps: list[Form]) -> Form:
    """(let [g x, g step1 ...] last-step), Clojure's shape for some-> and cond->: the last step
    stays in tail position, so it may `recur`."""
    bindings: list[Form] = [g, f.items[1]]
    for step in steps[:-1]:
        bindings += [g, step]
    return _list([_sym("let", f), Coll("vector", bindings, f.line, f.col), steps[-1] if steps else g], f)


_macro("some->", "(some-> x forms*)", "Like -> but stops at the first nil.",
       (("(some-> {:a 1} :b inc)", "nil"),))(lambda f: _some_thread(f, False))
_macro("some->>", "(some->> x forms*)", "Like ->> but stops at the first nil.",
       (("(some->> [1 2] (map inc) first)", "2"),))(lambda f: _some_thread(f, True))


def _cond_thread(f: Coll, last: bool) -> Form:
    _arity_check(f, 1, None, "(cond-> x test form ...)")
    clauses = f.items[2:]
    if len(clauses) % 2:
        raise _err(f, "cond-> requires pairs of test and form")
    g = _sym("__cond", f)
    return _stepped(f, g, [_list([_sym("if", f), test, _thread(_list([_sym("->", f), g, step], f), last), g], f)
                           for test, step in zip(clauses[0::2], clauses[1::2])])


_macro("cond->", "(cond-> x test form ...)", "Threads x (first argument) through each form whose test is truthy.",
       (("(cond-> 1 true inc false (* 10))", "2"),))(lambda f: _cond_thread(f, False))
_macro("cond->>", "(cond->> x test form ...)", "Threads x (last argument) through each form whose test is truthy.",
       (("(cond->> [1 2] true (map inc))", "(2 3)"),))(lambda f: _cond_thread(f, True))


@_macro("as->", "(as-> expr name forms*)", "Binds name to expr, then to each form's result in turn.",
        (("(as-> 2 x (+ x 1) (* x x))", "9"),))
def _as_thread(f: Coll) -> Form:
    _arity_check(f, 2, None, "(as-> expr name forms*)")
    name = f.items[2]
    bindings: list[Form] = [name, f.items[1]]
    for step in f.items[3:]:
        bindings += [name, step]
    return _list([_sym("let", f), Coll("vector", bindings, f.line, f.col), name], f)


@_macro("when-first", "(when-first [x coll] body*)", "body with x bound to the first item of coll, when coll "
        "has one.", (("(when-first [x [7 8]] (* x 2))", "14"),))
def _when_first(f: Coll) -> Form:
    vec = f.items[1] if len(f.items) > 1 else None
    if not (isinstance(vec, Coll) and vec.kind == "vector" and len(vec.items) == 2):
        raise _err(f, "when-first requires [name coll]", hint="(when-first [x xs] ...)")
    tmp = _sym("__wf", f)
    inner = _list([_sym("let", f), Coll("vector", [vec.items[0], _list([_sym("first", f), tmp], f)], f.line, f.col)]
                  + f.items[2:], f)
    return _list([_sym("when-let", f), Coll("vector", [tmp, _list([_sym("seq", f), vec.items[1]], f)],
                                                 f.line, f.col), inner], f)


@_macro("comment", "(comment forms*)", "Ignores its body; nil.", (("(comment (launch))", "nil"),))
def _comment(f: Coll) -> Form:
    return Lit(None, f.line, f.col)


@_macro("declare", "(declare names*)", "Accepted for compatibility; names may be used before their def.",
        (("(do (declare f) (defn g [] (f)) (defn f [] 1) (g))", "1"),))
def _declare(f: Coll) -> Form:
    return Lit(None, f.line, f.col)


@_macro("dotimes", "(dotimes [name n] body*)", "Evaluates body n times with name bound to 0..n-1; nil.",
        (("(dotimes [i 3] i)", "nil"),))
def _dotimes(f: Coll) -> Form:
    vec = f.items[1] if len(f.items) > 1 else None
    if not (isinstance(vec, Coll) and vec.kind == "vector" and len(vec.items) == 2):
        raise _err(f, "dotimes requires [name n]", hint="(dotimes [i 10] ...)")
    rng = _list([_sym("__int_range", f), vec.items[1]], f)
    return _list([_sym("doseq", f), Coll("vector", [vec.items[0], rng], f.line, f.col)] + f.items[2:], f)


@special("and", "(and exprs*)", "The first falsey expr, or the last; true when empty.",
         ex=(("(and 1 nil 2)", "nil"),))
def _and(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    items = [a.analyze(x, env, False) for x in f.items[1:]]
    if not items:
        return n.Const(f.line, f.col, True)
    return items[0] if len(items) == 1 else n.And(f.line, f.col, items)


@special("or", "(or exprs*)", "The first truthy expr, or the last; nil when empty.", ex=(("(or nil false 3)", "3"),))
def _or(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    items = [a.analyze(x, env, False) for x in f.items[1:]]
    if not items:
        return n.Const(f.line, f.col, None)
    return items[0] if len(items) == 1 else n.Or(f.line, f.col, items)


@special("case", "(case expr const result ... default?)", "Constant-time dispatch on literal values; "
         "(a b) groups alternatives.", ex=(("(case 2 1 :one (2 3) :few :many)", ":few"),))
def _case(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, None, "(case expr clauses*)")
    expr = a.analyze(f.items[1], env, False)
    clauses = f.items[2:]
    default = None
    if len(clauses) % 2:
        default = a.analyze(clauses[-1], env, tail)
        clauses = clauses[:-1]
    out: list[tuple[list[Any], n.Node]] = []
    seen: set[Any] = set()
    for test, result in zip(clauses[0::2], clauses[1::2]):
        if isinstance(test, Coll) and test.kind == "list":
            consts = [form_to_value(t) for t in test.items]
        else:
            consts = [form_to_value(test)]
        for c in consts:
            key = _hashable(c)
            if key in seen:
                raise _err(test, f"duplicate case test constant: {_show(test)}")
            seen.add(key)
        out.append((consts, a.analyze(result, env, tail)))
    return n.Case(f.line, f.col, expr, out, default)


def _for_clauses(a: Analyzer, f: Coll, env: _Env, what: str) -> tuple[list[n.ForClause], _Env]:
    vec = f.items[1] if len(f.items) > 1 else None
    if not (isinstance(vec, Coll) and vec.kind == "vector") or len(vec.items) % 2:
        raise _err(f, f"{what} requires a vector of bindings", hint=f"({what} [x coll :when (odd? x)] body)")
    lenv = env.child()
    clauses: list[n.ForClause] = []
    for key, val in zip(vec.items[0::2], vec.items[1::2]):
        if isinstance(key, Lit) and type(key.value) is v.Keyword:
            kind = key.value.name
            if kind == "let":
                pairs = _binding_pairs(f, val, ":let")
                lets: list[tuple[n.Binding, n.Node]] = []
                for pat, expr in pairs:
                    a.bind(pat, a.analyze(expr, lenv, False), lenv, lets)
                clauses.append(n.ForClause("let", lets=lets))
            elif kind in ("when", "while"):
                clauses.append(n.ForClause(kind, test=a.analyze(val, lenv, False)))
            else:
                raise _err(key, f"unsupported {what} modifier :{kind}", hint="use :let, :when or :while")
        else:
            coll = a.analyze(val, lenv, False)
            if _is_sym(key):
                b = a._new_binding(key.name)  # type: ignore[union-attr]
                lenv.locals[key.name] = b  # type: ignore[union-attr]
                clauses.append(n.ForClause("bind", binding=b, coll=coll))
            else:
                b = a._temp("item")
                clauses.append(n.ForClause("bind", binding=b, coll=coll))
                lets = []
                a.bind(key, n.Local(key.line, key.col, b), lenv, lets)
                clauses.append(n.ForClause("let", lets=lets))
    if not clauses or clauses[0].kind != "bind":
        raise _err(f, f"{what} must start with a binding")
    return clauses, lenv


@special("for", "(for [x coll :let [...] :when test :while test ...] body)",
         "List comprehension over one or more collections (nested, left to right).",
         ex=(("(for [x [1 2 3] :when (odd? x)] (* x 10))", "(10 30)"),))
def _for(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 2, 2, "(for [bindings] body)")
    captures: dict[int, n.Binding] = {}
    a.st.fn_stack.append(captures)  # the lazy seq runs later, as a fn would: it captures
    a.st.recur.append(None)
    try:
        clauses, lenv = _for_clauses(a, f, env, "for")
        body = a.analyze(f.items[2], lenv, False)
    finally:
        a.st.recur.pop()
        a.st.fn_stack.pop()
    return n.For(f.line, f.col, clauses, body, True, captures)


@special("doseq", "(doseq [x coll ...] body*)", "Runs body for each binding, for side effects; nil.",
         ex=(("(doseq [x [1 2]] (println x))", "nil"),))
def _doseq(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, None, "(doseq [bindings] body*)")
    clauses, lenv = _for_clauses(a, f, env, "doseq")
    a.st.recur.append(None)
    try:
        body = a.body(f.items[2:], lenv, False, f)
    finally:
        a.st.recur.pop()
    return n.For(f.line, f.col, clauses, body, False)


@special("return", "(return value?)", "PTC: ends the program now with value as its answer.",
         ex=(("(do (return 1) 2)", "1"),))
def _return(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 0, 1, "(return value)")
    val = a.analyze(f.items[1], env, False) if len(f.items) == 2 else n.Const(f.line, f.col, None)
    return n.Return(f.line, f.col, val)


@special("fail", "(fail reason?)", "PTC: ends the program now, reporting failure with reason.",
         ex=(('(do (fail "no such customer") 1)', '"no such customer"'),))
def _fail(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 0, 1, "(fail reason)")
    val = a.analyze(f.items[1], env, False) if len(f.items) == 2 else n.Const(f.line, f.col, None)
    return n.Fail(f.line, f.col, val)


@special("throw", "(throw (ex-info msg data))", "Raises an error that try/catch can handle.",
         ex=(('(try (throw (ex-info "boom" {})) (catch Exception e (ex-message e)))', '"boom"'),))
def _throw(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    _arity_check(f, 1, 1, "(throw ex)")
    return n.Throw(f.line, f.col, a.analyze(f.items[1], env, False))


@special("try", "(try body* (catch Exception e handler*)? (finally cleanup*)?)",
         "Handles runtime and tool errors (never sandbox limits); e is a map with :message.",
         ex=(("(try (nth [] 1) (catch Exception e :caught))", ":caught"),))
def _try(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    body_forms: list[Form] = []
    catch: Coll | None = None
    fin: Coll | None = None
    for item in f.items[1:]:
        if isinstance(item, Coll) and item.kind == "list" and item.items and _is_sym(item.items[0], "catch"):
            if catch is not None:
                continue  # every catch class matches the same errors; the first wins
            if len(item.items) < 3 or not _is_sym(item.items[2]):
                raise _err(item, "catch needs a class and a name", hint="(catch Exception e ...)")
            catch = item
        elif isinstance(item, Coll) and item.kind == "list" and item.items and _is_sym(item.items[0], "finally"):
            fin = item
        else:
            if catch is not None or fin is not None:
                raise _err(item, "try body must come before catch/finally")
            body_forms.append(item)
    body = a.body(body_forms, env, False, f)
    cb = cbody = fbody = None
    if catch is not None:
        cenv = env.child()
        name = catch.items[2]
        cb = a._new_binding(name.name)  # type: ignore[union-attr]
        cenv.locals[name.name] = cb  # type: ignore[union-attr]
        cbody = a.body(catch.items[3:], cenv, False, catch)
    if fin is not None:
        fbody = a.body(fin.items[1:], env, False, fin)
    return n.Try(f.line, f.col, body, cb, cbody, fbody)


def _internal(name: str) -> Callable[[Analyzer, Coll, _Env, bool], n.Node]:
    def handler(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
        return a._rt(name, [a.analyze(x, env, False) for x in f.items[1:]], f)

    return handler


def _require_spec(a: Analyzer, spec: Any) -> None:
    """One libspec: clojure.string, [clojure.string :as str], [clojure.set :refer [union]]."""
    if isinstance(spec, Coll) and spec.kind == "list" and len(spec.items) == 2 and _is_sym(spec.items[0], "quote"):
        spec = spec.items[1]
    items = spec.items if isinstance(spec, Coll) and spec.kind == "vector" else [spec]
    lib = items[0] if items else None
    from .registry import LIBRARIES

    if not (isinstance(lib, Sym) and lib.full in LIBRARIES):
        what = lib.full if isinstance(lib, Sym) else _show(spec)
        raise _err(spec, f"cannot require {what}: PTC-Lisp has only {', '.join(LIBRARIES)} (always loaded)",
                   hint=library_hint(what))
    opts = items[1:]
    if len(opts) % 2:
        raise _err(spec, f"require: options of {lib.full} must be pairs such as :as name or :refer [names]")
    for key, val in zip(opts[0::2], opts[1::2]):
        if _kw(key, "as") and _is_sym(val):
            a.st.aliases[val.name] = lib.full  # type: ignore[union-attr]
        elif _kw(key, "refer") and isinstance(val, Coll) and val.kind == "vector" and all(_is_sym(x) for x in val.items):
            for x in val.items:
                canonical = LIBRARIES[lib.full]
                target = x.name if canonical == "core" else f"{canonical}/{x.name}"  # type: ignore[union-attr]
                if target not in REGISTRY:
                    raise _err(x, f"{lib.full} has no {x.name} to refer")  # type: ignore[union-attr]
                a.st.refers[x.name] = target  # type: ignore[union-attr]
        else:
            raise _err(key, f"require: unsupported option {_show(key)} for {lib.full}", hint="use :as or :refer [names]")


SEARCH_TOOL = "search-tools"  # ptc.tools.search.SEARCH_TOOL: a large catalog's search (a test keeps them equal)
LISTED_TOOLS = 30  # names an unknown tool's hint lists at most


def _tools_hint(tools: frozenset[str]) -> str:
    """What an unknown tool's error offers when no name is close: the tools, or for a large
    catalog how to search it (never hundreds of names)."""
    if SEARCH_TOOL in tools:
        return f'find tools with (tool/{SEARCH_TOOL} "what it does"), then (doc tool/name)'
    names = sorted(tools)
    if not names:
        return "available: no tools"
    more = f" and {len(names) - LISTED_TOOLS} more" if len(names) > LISTED_TOOLS else ""
    return f"available: {', '.join(names[:LISTED_TOOLS])}{more}"


def _library_home(name: str) -> str | None:
    """The library function a bare or dotted name means (median, np.median, scipy.stats.ttest_ind,
    train_test_split): `stats/median`, `stats/t-test-two-samples`, `ml/train-test-split`."""
    from .idioms import PYTHON_NAMES

    last = name.rsplit(".", 1)[-1]
    wanted = {last, last.replace("_", "-"), PYTHON_NAMES.get(last, last)}
    homes = sorted(b.qualified for b in REGISTRY.values()
                   if b.name in wanted and b.ns not in ("core", "clojure.string", "clojure.set") and b.ns[:1].islower())
    return homes[0] if homes else None


def _printed(f: Coll, text: str) -> n.Node:
    """(println text), whose value is nil: what the documentation forms compile to."""
    return n.Call(f.line, f.col, n.BuiltinRef(f.line, f.col, REGISTRY["println"]), [n.Const(f.line, f.col, text)])


@special("doc", "(doc name)",
         "Prints the documentation of a function, special form, tool or def: its arglists, what it does (a library "
         "function says which Python function's answer it gives) and an example. nil.", category="documentation",
         ex=(("(doc stats/median)", "nil"),))
def _doc(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    from .reference import doc_text

    _arity_check(f, 1, 1, "(doc name)")
    target = f.items[1]
    if not isinstance(target, Sym):
        raise _err(target, "doc takes a name, such as (doc stats/median)", hint="(find-doc \"text\") searches")
    if target.ns is None and target.name in SPECIAL_FORMS and env.lookup(target.name) is None:
        return _printed(f, doc_text(SPECIAL_FORMS[target.name]))
    node = a.symbol(target, env)
    if type(node) is n.BuiltinRef:
        return _printed(f, doc_text(node.builtin))  # type: ignore[attr-defined]
    if type(node) is n.ToolRef:
        return a._rt("tool_doc", [n.Const(f.line, f.col, node.name)], f)  # type: ignore[attr-defined]
    return a._rt("doc_of", [n.Const(f.line, f.col, target.full), node], f)


@special("find-doc", "(find-doc text)",
         "Prints each function whose name or documentation holds text (a string, any case, or a regex), one line "
         "each, names first: the way to find the function for a task, e.g. (find-doc \"quantile\"). nil.",
         category="documentation", ex=(('(find-doc "interquartile")', "nil"),))
def _find_doc(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    from .reference import find_doc

    _arity_check(f, 1, 1, '(find-doc "text")')
    arg = f.items[1]
    if isinstance(arg, Lit) and type(arg.value) is str:
        text = arg.value.lower()
        found = find_doc(lambda s: text in s.lower())
        if SEARCH_TOOL in a.st.names.tools:  # functions only: a large catalog's tools are searched apart
            found += f"\n(tool/{SEARCH_TOOL} {_show(arg)}) searches this run's tools"
        return _printed(f, found)
    if isinstance(arg, RegexLit):
        rx = a._regex(arg).compiled.rx
        return _printed(f, find_doc(lambda s: rx.search(s) is not None))
    raise _err(arg, "find-doc takes a string or a regex literal, such as (find-doc \"median\")")


@special("dir", "(dir namespace)",
         "Prints the names of a library's functions, one per line: (dir stats), (dir str), (dir clojure.math), "
         "(dir chart), or an alias made by require. nil.", category="documentation", ex=(("(dir clojure.walk)", "nil"),))
def _dir(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    from .reference import namespace_names
    from .registry import LIBRARIES, NS_ALIASES

    _arity_check(f, 1, 1, "(dir namespace)")
    t = f.items[1]
    name = t.full if isinstance(t, Sym) else None
    name = a.st.aliases.get(name, name) if name is not None else None
    canonical = NS_ALIASES.get(name) or LIBRARIES.get(name) if name is not None else None  # type: ignore[arg-type]
    if canonical is None:
        known = sorted({ns for ns in NS_ALIASES.values() if namespace_names(ns)})
        raise _err(t, f"dir lists a library's functions; {_show(t)} is not one", hint="libraries: " + " ".join(known))
    return _printed(f, "\n".join(namespace_names(canonical)))


@special("require", "(require '[lib :as alias :refer [names]]*)",
         "Accepted for compatibility: clojure.string, clojure.set and clojure.walk are always loaded; :as names an "
         "alias and :refer names functions for the rest of the program. nil.",
         ex=(("(do (require '[clojure.string :as cs]) (cs/upper-case \"a\"))", '"A"'),))
def _require(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    for spec in f.items[1:]:
        _require_spec(a, spec)
    return n.Const(f.line, f.col, None)


@special("ns", "(ns name (:require libspec*)?)",
         "Accepted for compatibility: its :require clauses work as require; the name is ignored. nil.",
         ex=(("(do (ns demo.core (:require [clojure.set :refer [union]])) (union #{1} #{2}))", "#{1 2}"),))
def _ns(a: Analyzer, f: Coll, env: _Env, tail: bool) -> n.Node:
    for clause in f.items[2:]:
        if isinstance(clause, Coll) and clause.kind == "list" and clause.items and _kw(clause.items[0], "require"):
            for spec in clause.items[1:]:
                _require_spec(a, spec)
        elif not (isinstance(clause, Lit) and type(clause.value) is str):  # a docstring is fine
            raise _err(clause, f"ns: only (:require ...) clauses are supported, not {_show(clause)}",
                       hint="PTC-Lisp has no imports, gen-class or namespaces of its own")
    return n.Const(f.line, f.col, None)


_SPECIALS["__int_range"] = _internal("int_range")
_SPECIALS["__no_matching_clause"] = _internal("no_matching_clause")


def analyze_program(forms: list[Form], names: Names) -> n.Node:
    """Analyze a whole program (implicit do) against the names available to it."""
    try:
        return Analyzer(names, forms).program(forms)
    except RecursionError:
        raise PTCError("analysis", "program is nested too deeply") from None
