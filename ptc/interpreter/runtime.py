"""What compiled programs call at run time: the shared globals of generated code.

Generated functions live in one globals dict (`RT`), so a function defined in one turn
and called in a later turn sees the later turn's state (its user defs, data, counters).
Per-run state is swapped in by `execute` and restored afterwards (runs may nest).
"""

from __future__ import annotations

import itertools
import re
import sys
import time
from types import TracebackType
from typing import Any, Callable, Iterator

from pyrsistent import pvector

from . import context
from . import values as v
from .errors import PTCError, limit_error, runtime_error
from .pause import Diverged, Pause
from .lazy import (CHUNK, OPEN_ENDED_PREFIX, Ahead, Body, Chunks, Items, Iterated, LazySeq, Mapped, chunks_of, linked, range_len,
                   source_of, unbounded)
from .printer import pr_str, printed_bound
from .registry import REGISTRY, Builtin
from .sorted import SortedMap
from .table import table_rows

STEP_CHUNK = 1000


class _Return(BaseException):
    """`(return v)`: unwinds to the top of the program (not catchable by try)."""

    def __init__(self, value: Any) -> None:
        self.value = value


class _Fail(BaseException):
    """`(fail v)`: unwinds to the top of the program (not catchable by try)."""

    def __init__(self, value: Any) -> None:
        self.value = value


RT: dict[str, Any] = {"__builtins__": {"type": type, "len": len, "int": int, "float": float, "str": str, "callable": callable,
                                         "dict": dict, "list": list, "Exception": Exception,
                                         "BaseException": BaseException}}
_builtin_names: dict[int, str] = {}
_counter = itertools.count(1)


def builtin_global(b: Builtin) -> str:
    """The global name under which generated code reaches builtin b."""
    key = id(b.fn)
    name = _builtin_names.get(key)
    if name is None:
        safe = re.sub(r"\W", "_", b.name)[:24]
        name = f"b{next(_counter)}_{safe}"
        _builtin_names[key] = name
        RT[name] = b.fn
    return name


def rt(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Expose a helper to generated code under `_rt_<name>` (used by the analyzer's RuntimeRef)."""
    RT["_rt_" + fn.__name__] = fn
    return fn


# -- per-run state ----------------------------------------------------------------------


class RunContext:
    """The per-run bindings generated code reads: user defs, data, history."""

    __slots__ = ("user", "data", "history", "tools")

    def __init__(self, user: dict[str, Any], data: dict[str, Any], history: tuple[Any, ...],
                 tools: dict[str, Callable[..., Any]]) -> None:
        self.user = user
        self.data = data
        self.history = history
        self.tools = tools


def _budget() -> None:
    """Called every STEP_CHUNK steps: charges the steps, checks the step limit and the deadline."""
    st = context.CURRENT
    st.steps += STEP_CHUNK
    RT["_n"] = STEP_CHUNK
    if st.steps > st.limits.max_steps:
        RT["_n"] = 0  # once over, every later step fails at once (no more work in cleanup code)
        raise limit_error("max_steps", st.limits.max_steps, "too many evaluation steps")
    if time.monotonic() > st.deadline:
        RT["_n"] = 0
        raise limit_error("timeout", st.limits.timeout, "program ran too long")
    st.budgets += 1
    if st.budgets & 15 == 0:
        context.check_memory()


def _def(name: str, value: Any, doc: str | None = None) -> None:
    RT["_U"][name] = value
    st = context.CURRENT
    st.defined.append(name)
    if doc is not None:
        st.docs[name] = doc
    else:
        st.docs.pop(name, None)


_FUSE_CHUNK = 256


def _chunks(coll: Any) -> Any:
    """Slices of a realized collection for fused loops: steps are charged per slice. A short
    collection (a row's nested list) is its own slice, with no generator to make; the
    deadline is then checked each time the steps pass a multiple of _FUSE_CHUNK."""
    if type(coll) is v.LazySeq:  # where every item is needed anyway (an eager consumer)
        r = coll.int_range()  # (range n): counted through, no list of its numbers
        coll = r if r is not None else coll.realize()
    n = len(coll) if type(coll) is not range else range_len(coll)
    if n <= _FUSE_CHUNK:
        st = context.CURRENT
        before = st.steps
        st.steps = after = before + n
        if after > st.limits.max_steps:
            raise limit_error("max_steps", st.limits.max_steps, "too many evaluation steps")
        if (after ^ before) >= _FUSE_CHUNK and time.monotonic() > st.deadline:
            raise limit_error("timeout", st.limits.timeout, "program ran too long")
        return (coll,)
    return _slices(coll, n)


def _lazy_chunks(coll: Any) -> Any:
    """The chunks of a collection for a fused reduce, which may stop early (`reduced`): a lazy
    seq is realized a chunk at a time as the loop reaches it (what Clojure's reduce realizes),
    its steps charged per chunk; an integer range nothing has read is counted through."""
    if type(coll) is not v.LazySeq or coll.int_range() is not None:
        return _chunks(coll)
    return _charged(coll.chunks())


def _charged(chunks: Iterator[Any]) -> Iterator[Any]:
    """chunks, each charged as len(chunk) steps (the step limit and the deadline checked)."""
    st = context.CURRENT
    for chunk in chunks:
        st.steps += len(chunk)
        if st.steps > st.limits.max_steps:
            raise limit_error("max_steps", st.limits.max_steps, "too many evaluation steps")
        if time.monotonic() > st.deadline:
            raise limit_error("timeout", st.limits.timeout, "program ran too long")
        yield chunk


def _slices(coll: Any, n: int) -> Any:
    if n > 4096 and type(coll) is not v.Table:  # a table is read, not realized, by a fused loop
        context.check_size(n, "sequence")
    return _charged(coll[i:i + _FUSE_CHUNK] for i in range(0, n, _FUSE_CHUNK))


def _counted(start: int, stop: int, step: int) -> Any:
    """range(start, stop, step) in slices for counted loops: steps are charged per slice."""
    st = context.CURRENT
    chunk = _FUSE_CHUNK * step
    for lo in range(start, stop, chunk):
        part = range(lo, stop if (stop - lo) * step < _FUSE_CHUNK else lo + chunk, step)
        st.steps += len(part)
        if st.steps > st.limits.max_steps:
            RT["_n"] = 0
            raise limit_error("max_steps", st.limits.max_steps, "too many evaluation steps")
        if time.monotonic() > st.deadline:
            RT["_n"] = 0
            raise limit_error("timeout", st.limits.timeout, "program ran too long")
        yield part


def _lazy_for(gen: Callable[[Chunks], Iterator[list[Any]]]) -> LazySeq:
    """The lazy seq of a `for` (see Compiler.lazy_for): its generator gets its source, to say
    whether the seq is infinite once it has evaluated its outermost collection."""
    src = Chunks(iter(()))
    src.gen = gen(src)
    return LazySeq(src)


def _iterated(steps: Callable[[Any, int, Callable[[Any], None]], None], x: Any) -> LazySeq:
    """`(iterate (fn [x] ...) x)` with the fn's body compiled into steps (see Compiler.iterated)."""
    return LazySeq(Iterated(steps, x))


def _while_seq(gen: Callable[[Iterator[Any]], Iterator[Any]], coll: Any, who: str) -> LazySeq:
    """take-while / drop-while with its test compiled into gen (see Compiler.while_seq); what
    drop-while leaves of an infinite seq is infinite."""
    items = iter(v.iter_seq(coll, who))
    return LazySeq(Items(gen(items), who == "drop-while" and unbounded(coll)))


def _extreme_of(who: str, want_max: bool, items: Any, keys: list[Any]) -> Any:
    """`(apply max-key f items)` from keys computed by a fused map (see Compiler.extreme)."""
    from .lib.core_collections import extreme_of

    return extreme_of(who, want_max, items, keys if type(keys) is list else list(v.iter_seq(keys, who)))


def _seq_chunks(coll: Any) -> Any:
    """The chunks of a `for`'s innermost collection, as Clojure chunks it."""
    return chunks_of(coll, "for")


def _fused_seq(each: Callable[[list[Any]], list[Any]], coll: Any, pure: bool = False,
               who: str | None = None) -> Any:
    """The lazy seq of a compiled map/filter chain: each(chunk) for every chunk of coll, its
    steps charged per chunk (the inlined bodies do not tick). A pure chain (no effect but its
    values) over a pure unchunked source ((range), repeat) is computed a batch ahead. `who`
    names the chain's first filter/remove, whose emptying a chunk is recorded for the
    empty-result note."""
    def counted(chunk: list[Any]) -> list[Any]:
        st = context.CURRENT
        st.steps += len(chunk)
        if st.steps > st.limits.max_steps:
            raise limit_error("max_steps", st.limits.max_steps, "too many evaluation steps")
        out = each(chunk)
        if not out and who is not None and chunk:
            context.emptied(who, chunk, counted)
        return out

    if pure and type(coll) is LazySeq and type(coll._src) is Items and coll._src.pure:
        return LazySeq(Ahead(source_of(coll), counted))
    return LazySeq(Mapped(source_of(coll), counted))


def _kept(result: Any, coll: Any, who: str) -> Any:
    """The result of an eager compiled filter chain; an empty one from items is recorded for
    the empty-result note."""
    if not len(result):
        items = coll.realize() if type(coll) is v.LazySeq else coll
        if len(items):
            context.emptied(who, items)
    return result


def _grown(n: int, new: int = _FUSE_CHUNK) -> None:
    """A fused loop's private accumulator reached n items (it grew by at most `new`)."""
    if n > 4096:
        context.check_realized(n, new, "collection")


def _cat(r: list[Any], coll: Any) -> None:
    """One result of an eager mapcat's function (see Compiler.eager_mapcat) onto its result
    r: each item is charged as a step, and r is bounded as a realized collection."""
    n = len(r)
    r.extend(coll if type(coll) is list else v.iter_seq(coll, "mapcat"))
    k = len(r) - n
    if k:
        st = context.CURRENT
        st.steps += k
        if st.steps > st.limits.max_steps:
            raise limit_error("max_steps", st.limits.max_steps, "too many evaluation steps")
        blocks = ((n + k) >> 10) - (n >> 10)
        if blocks and n + k > 4096:  # charged 1024 items at a time
            context.check_realized(n + k, blocks << 10, "sequence")


def _big(x: Any) -> Any:
    """An inline +/-/inc/dec result beyond the fast bound: floats pass, huge ints are refused."""
    if type(x) is int:
        return context.check_int(x)
    return x


def _data(name: str) -> Any:
    return RT["_ctx"].data[name]


def _hist(i: int) -> Any:
    h = RT["_ctx"].history
    return h[i] if i < len(h) else None


def _tool(name: str, args: tuple[Any, ...]) -> Any:
    call = context.CURRENT.call_tool
    if call is None:
        raise PTCError("tool", f"tool/{name} cannot be called: no tools in this run")
    return call(name, args)


def _tool_fn(name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return _tool(name, args)

    call.__qualname__ = f"ptc:tool/{name}"
    return call


def _invoke(f: Any, *args: Any) -> Any:
    return _fnof(f)(*args)


def _fnof(f: Any) -> Any:
    """What calling the value f runs (f is not a Python callable: a vector, a host map or set)."""
    t = type(f)
    if t in v.VECTOR_TYPES or t is dict or t is set or t is frozenset or (callable(f) and not isinstance(f, type)):
        return v.as_fn(f, "call")
    raise PTCError("runtime", f"cannot call a value of type {v.type_name(f)} as a function",
                   hint="only functions, keywords, maps, sets and vectors can be called")


def _tdict(m: Any) -> dict[Any, Any]:
    """A private dict with m's entries (PTC keys), for transient accumulators."""
    return {v.host_key(k): x for k, x in m.items()} if type(m) is dict else dict(m.items())


def _rest_args(rest: tuple[Any, ...]) -> Any:
    return v.PList(rest) if rest else None


def _plist(items: list[Any]) -> v.PList:
    if len(items) > 4096:
        context.check_size(len(items), "sequence")
    return v.PList(items)


def _set_lit(items: tuple[Any, ...]) -> Any:
    s = v.make_set(items)
    if len(s) != len(items):
        raise runtime_error("Duplicate key in set literal")
    return s


def _map_lit(pairs: tuple[tuple[Any, Any], ...]) -> Any:
    m = v.make_map(pairs)
    if len(m) != len(pairs):
        raise runtime_error("Duplicate key in map literal")
    return m


def _iter(coll: Any) -> Any:
    if type(coll) is range:  # dotimes
        return coll
    return v.iter_seq(coll, "for")


class _NoValue:
    pass


def case_key(x: Any) -> Any:
    """Case constants compare with =: 1 and 1.0 and true must not collide in the table."""
    t = type(x)
    if t is bool or t is float:
        return (t, x)
    if t in v.VECTOR_TYPES or t is v.PList:
        return ("seq", tuple(case_key(i) for i in v.as_key(x)))
    return v.as_key(x)


def _no_case(idx: Any) -> None:
    raise runtime_error("case: no matching clause")


def _arity_error(name: str, got: int, arities: tuple[int, ...], variadic: int | None) -> None:
    accepted = [str(a) for a in arities] + ([f"{variadic}+"] if variadic is not None else [])
    raise PTCError("runtime", f"Wrong number of args ({got}) passed to: {name}",
                   hint=f"{name} accepts {' or '.join(accepted)} argument(s)")


def _throw(x: Any) -> PTCError:
    if type(x) in v.MAP_TYPES and v.lookup(x, v.keyword("ptc/exception")) is True:
        err = PTCError("runtime", str(v.lookup(x, v.keyword("message"))))
    else:
        err = PTCError("runtime", f"thrown: {v.short(x, 200)}")
    err.thrown = x  # type: ignore[attr-defined]
    return err


def _fatal(e: BaseException) -> bool:
    """Errors that end the program: `finally` cleanup does not run for them (it could run
    forever, e.g. recursing again while the stack is already at its limit)."""
    return isinstance(e, (RecursionError, MemoryError, Pause, Diverged)) or (isinstance(e, PTCError) and e.kind == "limit")


def _catch(e: BaseException) -> Any:
    """What a `(catch Exception e ...)` binds: a map with :message (and :data for ex-info)."""
    if isinstance(e, RecursionError):
        raise e
    if isinstance(e, PTCError):
        if e.kind == "limit":
            raise e
        thrown = getattr(e, "thrown", None)
        if thrown is not None:
            return thrown
        return v.make_map([(v.keyword("message"), e.message), (v.keyword("kind"), v.keyword(e.kind)),
                           (v.keyword("ptc/exception"), True)])
    if isinstance(e, MemoryError):
        raise e
    converted = convert_exception(e)
    if converted.kind == "limit":
        raise converted
    return v.make_map([(v.keyword("message"), converted.message), (v.keyword("kind"), v.keyword("runtime")),
                       (v.keyword("ptc/exception"), True)])


def _assoc3(m: Any, k: Any, val: Any) -> Any:
    """`(assoc m k v)` fast path for maps; everything else goes to the builtin."""
    t = type(m)
    if t is v.HMap:
        return m.set(k, val)
    if t is v.FMap or t is dict or t is v.Row:
        return v.assoc(m, k, val)
    return REGISTRY["assoc"].fn(m, k, val)


def _conj2(coll: Any, x: Any) -> Any:
    """`(conj v x)` fast path for vectors; everything else goes to the builtin."""
    if type(coll) is v.PVector:
        return coll.append(x)
    return REGISTRY["conj"].fn(coll, x)


# -- runtime helpers used by destructuring and special forms ---------------------------


@rt
def doc_of(name: str, value: Any) -> None:
    """(doc f) of a def: its docstring, or what it is."""
    text = getattr(value, "__doc__", None) if callable(value) else None
    context.emit_print(f"-------------------------\n{name}\n  " +
                       (text if isinstance(text, str) else f"a {v.type_name(value)} defined by the program"))


@rt
def tool_doc(name: str) -> None:
    """(doc tool/x): the tool's signature and description, as the prompt shows them."""
    tool = RT["_ctx"].tools.get(name)
    sig = getattr(tool, "signature", None)
    text = sig() if callable(sig) else (getattr(tool, "__doc__", None) or "a tool of the host").strip()
    context.emit_print(f"-------------------------\ntool/{name}\n  {text}")


@rt
def lazy_seq(body: Callable[[], Any]) -> LazySeq:
    return linked([Body(body)])


@rt
def lazy_cat(*bodies: Callable[[], Any]) -> LazySeq:
    return linked([Body(b) for b in reversed(bodies)])


@rt
def nth_or_nil(coll: Any, i: int) -> Any:
    if coll is None:
        return None
    t = type(coll)
    if t in v.VECTOR_TYPES or t is v.PList or t is str:
        return coll[i] if i < len(coll) else None
    if t is v.LazySeq:
        return coll.nth(i, None)
    if t in v.MAP_TYPES or t in v.SET_TYPES:
        raise runtime_error(f"cannot destructure a {v.type_name(coll)} with a vector pattern",
                            hint="use {:keys [...]} to destructure maps")
    raise runtime_error(f"nth not supported on {v.type_name(coll)}")


@rt
def nthnext(coll: Any, i: int) -> Any:
    if coll is None:
        return None
    t = type(coll)
    if t in v.VECTOR_TYPES or t is v.PList or t is str:
        rest = coll[i:]
        return v.PList(rest) if len(rest) else None
    items = list(itertools.islice(v.iter_seq(coll, "destructure"), i, None))
    return v.PList(items) if items else None


@rt
def map_for_destructure(x: Any) -> Any:
    t = type(x)
    if x is None or t in v.MAP_TYPES:
        return x
    if t is v.PList or t is v.LazySeq:  # keyword-args style: (f :a 1 :b 2)
        items = list(x)
        if len(items) % 2 == 0:
            return v.make_map(zip(items[0::2], items[1::2]))
    if t in v.VECTOR_TYPES:
        return v.make_map(enumerate(x))
    raise runtime_error(f"cannot destructure a {v.type_name(x)} with a map pattern")


@rt
def get(m: Any, k: Any, default: Any = None) -> Any:
    return v.lookup(m, k, default)


@rt
def letfn_box(n: int) -> list[Any]:
    return [None] * n


@rt
def int_range(n: Any) -> Any:
    if type(n) is float:
        n = int(n)
    if type(n) is not int:
        raise runtime_error(f"dotimes: expected an integer count, got {v.type_name(n)}")
    return range(n)


@rt
def no_matching_clause(x: Any) -> Any:
    raise runtime_error(f"No matching clause: {v.short(x)}")


def _reduced_type() -> type:
    from .lib.transducers import Reduced

    return Reduced


RT.update({
    "_n": STEP_CHUNK, "_budget": _budget, "_def": _def, "_big": _big, "_chunks": _chunks, "_counted": _counted,
    "_FUSE_REAL": frozenset({v.PList, v.PVector, v.MapEntry, list, tuple, v.Table}), "_lazy_chunks": _lazy_chunks, "_grown": _grown, "_cat": _cat,
    "_SEQ_OK": frozenset({v.PList, v.PVector, v.MapEntry, list, tuple, v.LazySeq, v.Table}), "_fused_seq": _fused_seq,
    "_kept": _kept,
    "_lazy_for": _lazy_for, "_iterated": _iterated, "_while_seq": _while_seq, "_extreme_of": _extreme_of, "_seq_chunks": _seq_chunks, "_unbounded": unbounded, "_map_of": v.map_of, "_ABSENT": _NoValue(),
    "_KEYT": frozenset({str, int, float, bool, type(None), v.Keyword}), "_as_key": v.as_key,
    # maps and vectors a transient reduce may rebuild (a sorted map keeps its own order: not these)
    "_MAP_TYPES": frozenset({v.FMap, v.HMap, dict}), "_VEC_TYPES": frozenset({v.PVector, list, tuple}), "_data": _data,
    "_hist": _hist, "_tool": _tool, "_tool_fn": _tool_fn, "_invoke": _invoke, "_fnof": _fnof, "_tdict": _tdict,
    "_rest_args": _rest_args, "_plist": _plist,
    "_set_lit": _set_lit, "_map_lit": _map_lit, "_iter": _iter, "_iter_as": v.iter_seq,
    "_ITER_SELF": frozenset({list, tuple, str, range, v.PList, v.PVector, v.MapEntry, v.LazySeq}), "_case_key": case_key, "_no_case": _no_case,
    "_arity_error": _arity_error, "_throw": _throw, "_catch": _catch, "_fatal": _fatal, "_Return": _Return, "_Fail": _Fail,
    "_assoc3": _assoc3, "_conj2": _conj2, "_vec": pvector, "_lookup": v.lookup, "_FMap": v.FMap, "_Row": v.Row, "_HMap": v.HMap, "_NUMT": frozenset({int, float}), "_NOVAL": _NoValue(), "_abs": abs,
    "_U": {}, "_ctx": None, "_Reduced": _reduced_type(),
})


# -- error conversion -------------------------------------------------------------------

_PY_TYPE_NAMES = {
    "int": "integer", "float": "float", "str": "string", "NoneType": "nil", "bool": "boolean",
    "Keyword": "keyword", "PList": "list", "PVector": "vector", "pvectorc.PVector": "vector",
    "FMap": "map", "HMap": "map", "FSet": "set", "HSet": "set", "LazySeq": "lazy seq", "MapEntry": "vector",
    "function": "function", "tuple": "vector", "list": "vector", "dict": "map", "set": "set",
    "frozenset": "set", "Symbol": "symbol",
}
_ARITY_RE = re.compile(r"ptc:(?P<name>\S+?)\(\) (takes|missing) (?P<rest>.*)")
_ARGS_GIVEN_RE = re.compile(r"but (\d+) (?:positional arguments? )?(?:were|was) given")
_VALUE_CALL_RE = re.compile(r"(?:(?P<cls>\w+)\.__call__|as_fn\.<locals>\.<lambda>)\(\) takes .* but (?P<n>\d+) (?:were|was) given")
_NOT_CALLABLE_RE = re.compile(r"'([\w.]+)' object is not callable")
_OPERAND_RE = re.compile(r"unsupported operand type\(s\) for (\S+): '([\w.]+)' and '([\w.]+)'")
_COMPARE_RE = re.compile(r"'(\S+)' not supported between instances of '([\w.]+)' and '([\w.]+)'")


def _ptc_type(py_name: str) -> str:
    return _PY_TYPE_NAMES.get(py_name, _PY_TYPE_NAMES.get(py_name.split(".")[-1], py_name))


def convert_exception(e: BaseException) -> PTCError:
    """Any Python exception escaping a program becomes a PTCError with a readable message."""
    if isinstance(e, PTCError):
        return e
    if isinstance(e, RecursionError):
        lim = context.CURRENT.limits.max_depth
        return PTCError("limit", f"call depth: limit max_depth={lim} exceeded (recursion too deep)",
                        hint="use loop/recur or reduce instead of deep recursion")
    if isinstance(e, MemoryError):
        return limit_error("max_memory", context.CURRENT.limits.max_memory, "out of memory")
    msg = str(e)
    if isinstance(e, TypeError):
        m = _ARITY_RE.search(msg)
        if m:
            given = _ARGS_GIVEN_RE.search(msg)
            name = m.group("name")
            if given:
                text = f"Wrong number of args ({given.group(1)}) passed to: {name}"
            else:
                text = f"Too few args passed to: {name}"
            return PTCError("runtime", text, hint=_arity_hint(name, msg))
        m1 = _VALUE_CALL_RE.search(msg)
        if m1:  # a collection called as a function (its own __call__ counts self)
            cls = m1.group("cls")
            n = int(m1.group("n")) - (1 if cls else 0)
            return PTCError("runtime", f"Wrong number of args ({n}) passed to: {_ptc_type(cls) if cls else 'vector'}",
                            hint="a map, set or keyword called as a function takes a key and an optional "
                                 "default; a vector takes an index")
        m2 = _NOT_CALLABLE_RE.search(msg)
        if m2:
            tname = _ptc_type(m2.group(1))
            return PTCError("runtime", f"cannot call a value of type {tname} as a function",
                            hint="only functions, keywords, maps, sets and vectors can be called")
        m3 = _OPERAND_RE.search(msg)
        if m3:
            return PTCError("runtime", f"{m3.group(1)}: cannot combine {_ptc_type(m3.group(2))} "
                            f"and {_ptc_type(m3.group(3))}")
        m4 = _COMPARE_RE.search(msg)
        if m4:
            return PTCError("runtime", f"cannot compare {_ptc_type(m4.group(2))} with {_ptc_type(m4.group(3))}")
        return PTCError("runtime", f"wrong argument type: {msg}")
    if isinstance(e, KeyError):
        key = e.args[0] if e.args else "?"
        return PTCError("runtime", f"Unable to resolve var: {key} (it is used before its def ran)",
                        hint="def a name before the code that uses it runs")
    if isinstance(e, ZeroDivisionError):
        return PTCError("runtime", "Divide by zero")
    if isinstance(e, OverflowError):
        return PTCError("runtime", f"numeric overflow: {msg}")
    if isinstance(e, ValueError) and "int" in msg and "digits" in msg:
        return limit_error("max_int_bits", context.CURRENT.limits.max_int_bits, "integer too large to print")
    if isinstance(e, (IndexError, ValueError, AttributeError, StopIteration, UnicodeError, LookupError)):
        return PTCError("runtime", f"{type(e).__name__}: {msg}")
    return PTCError("runtime", f"internal error ({type(e).__name__}): {msg}",
                    hint="this is a bug in ptc; please report it with the program")


_TAKES_RE = re.compile(r"takes (?:from (\d+) to )?(\d+) positional arguments?")
_MISSING_RE = re.compile(r"missing (\d+) required positional argument")


def _arity_hint(name: str, msg: str) -> str | None:
    """Which arities exist: the builtin's arglists, or what Python says the fn takes."""
    b = REGISTRY.get(name)
    if b is not None:
        return f"usage: ({name} {' | '.join(a.strip('[]') for a in b.arglists)})"
    takes = _TAKES_RE.search(msg)
    if takes:
        low, high = takes.group(1), takes.group(2)
        return f"{name} accepts {f'{low} to {high}' if low else high} argument(s)"
    missing = _MISSING_RE.search(msg)
    if missing:
        return f"{name} needs {missing.group(1)} more argument(s)"
    return None


def error_position(tb: TracebackType | None, line_maps: dict[str, dict[int, tuple[int, int]]]) -> tuple[int, int] | None:
    """The PTC position of the innermost generated-code frame in a traceback."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        m = line_maps.get(code.co_filename)
        if m is not None:
            pos = m.get(tb.tb_lineno)
            if pos is not None:
                found = pos
        tb = tb.tb_next
    return found


def realize_defs(user: dict[str, Any], names: list[str]) -> None:
    """Realize the lazy seqs held by the values this run def'd, under its limits. Memory
    outlives the run: printed into the next prompt, stored, sent to another process. A lazy
    seq left in it would run program code (and tool calls) there, outside every limit."""
    for name in dict.fromkeys(names):
        try:
            _realize_deep(user.get(name), 0, set())
        except PTCError as e:
            if e.kind == "limit":
                e.message = f"{e.message} (realizing the lazy sequence held by {name})"
                e.hint = (f"memory outlives the program, so what a def holds is realized when it ends; "
                          f"keep a bounded part, e.g. (def {name} (vec (take 100 ...))), or use let")
            raise


def _realize_deep(x: Any, depth: int, seen: set[int]) -> None:
    """Realize the lazy seqs inside x, visiting a shared part once (values may share
    structure exponentially: (list m m) nested 60 deep)."""
    if id(x) in seen:
        return
    seen.add(id(x))
    t = type(x)
    if t is LazySeq:
        x.fill(CHUNK)  # an infinite seq keeps its first chunk (what a summary of memory shows)
        if not x.infinite:
            x.fill(OPEN_ENDED_PREFIX if x.open_ended else -1)
        items: Any = x._cache
    elif t is v.PVector or t is v.PList:
        items = x
    elif t is v.FMap or t is v.HMap or t is SortedMap:
        items = x.values()
    else:
        return  # host data and scalars hold no lazy seq
    if depth > 100:
        return
    for item in items:
        if type(item) in _HOLDERS:
            _realize_deep(item, depth + 1, seen)


_HOLDERS = frozenset({LazySeq, v.PVector, v.PList, v.FMap, v.HMap, SortedMap})  # set items are hashed: realized


def check_result_size(value: Any) -> None:
    """The printed result within max_result; a result that is rows of one table is columnar
    (it leaves as Arrow, `ptc.to_arrow`, and is shown as its head and shape), so its Arrow size
    counts against max_memory instead of its printed text against max_result."""
    lim = context.CURRENT.limits.max_result
    if printed_bound(value, lim) is not None:
        return
    if type(value) is LazySeq and type(value._src).__name__ == "SelectionSource":  # a kernel's rows:
        sel = value._src.sel  # sized from the rows it selects, before any is taken (10M rows: +279 MB)
        rows, base = len(sel), sel.base
        size = base.nbytes * rows // max(1, base.num_rows)
        if size > context.CURRENT.limits.max_memory:
            raise limit_error("max_memory", context.CURRENT.limits.max_memory,
                              f"a result of {rows:,} table rows ({size:,} bytes as Arrow)")
        return
    parts = table_rows(value)
    if parts is not None:
        if type(value) is v.Table:  # the data's own table, or a slice of it: a view, nothing new is held
            return
        rows = sum(len(idx) for _, idx in parts)
        size = sum(t.arrow.nbytes * len(idx) // max(1, len(t)) for t, idx in parts)
        if size > context.CURRENT.limits.max_memory:
            raise limit_error("max_memory", context.CURRENT.limits.max_memory,
                              f"a result of {rows:,} table rows ({size:,} bytes as Arrow)")
        return
    text = pr_str(value, max_len=lim + 1)
    if len(text) > lim:
        raise limit_error("max_result", lim, "result too large")


MAX_PYTHON_FRAMES = 12_000  # beyond this, recursion through C code can overflow the C stack


def recursion_limit_for(max_depth: int) -> int:
    """Python frames allowed: the current stack plus about three frames per PTC call, capped
    so that no program can crash the host through a C stack overflow (so in-process runs
    allow about 4,000 nested calls at most, whatever max_depth says)."""
    frame = sys._getframe()
    depth = 0
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    return min(depth + 50 + max_depth * 3, depth + MAX_PYTHON_FRAMES)
