"""PTC-specific aggregation and row-predicate helpers (not part of Clojure).

Data work over lists of records is what PTC programs mostly do, so these shortcuts exist:

- `(sum-by key rows)`   sum of (key row), skipping nil values; 0 for no rows.
- `(avg-by key rows)`   mean of the non-nil (key row) values, always a float; nil if there are none.
- `(min-by key rows)`   the ROW whose (key row) is smallest (nil keys skipped; first wins on ties;
                        nil for no rows). `max-by` likewise for the largest.
- `(pluck key rows)`    the vector of (key row), nils included.
- `(where key)`               a predicate: (key row) is truthy.
- `(where key op value)`      a predicate comparing (key row) with value. op is a keyword, a string
                              or one of the functions = not= > < >= <=:
    := :not=              equality (numbers compare by value: 1 matches 1.0; a keyword matches the
                          string of its name: :paid matches "paid", as JSON data holds it)
    :> :< :>= :<=         ordering of numbers, or of strings (e.g. ISO dates); nil never matches
    :in :not-in           (key row) is / is not a member of the collection value
    :contains             (key row) is a string containing value, or a collection holding it
    :starts-with :ends-with   string prefix / suffix tests (non-strings never match)
  Any other function op is called as (op (key row) value).
- `(all-of p ...)`, `(any-of p ...)`, `(none-of p ...)` combine predicates.

`key` may be a keyword, a string, any function, or a vector of keys meaning a nested path
(`(where [:customer :tier] := "gold")`). Example:
`(->> orders (filter (where :status := "paid")) (sum-by :amount))`.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from .. import context
from ..errors import PTCError, runtime_error
from ..columnar import dispatch as _col
from ..columnar.expr import tag as _tag
from ..registry import builtin
from ..table import Table
from ..values import (
    MAP_TYPES,
    SET_TYPES,
    VECTOR_TYPES,
    Keyword,
    LazySeq,
    PList,
    PVector,
    Symbol,
    as_fn,
    iter_all,
    iter_seq,
    PACED,
    lookup,
    map_keys,
    paced,
    short,
    type_name,
    vec,
)

_NO = object()
_NoneType = type(None)


def _keyfn(key: Any, who: str) -> Callable[[Any], Any]:
    t = type(key)
    if t is Keyword:
        return key
    if t is str:
        return lambda row: lookup(row, key)
    if t in VECTOR_TYPES:
        path = tuple(key)

        def get_path(row: Any) -> Any:
            for k in path:
                row = lookup(row, k)
                if row is None:
                    return None
            return row

        return get_path
    return as_fn(key, who)


def _values(key: Any, rows: Any, who: str) -> list[Any]:
    """[(key row) for row in rows], with a fast path for keywords over maps."""
    if type(key) is Keyword:
        from .core_sequences import kw_values

        return kw_values(key, rows)
    return list(map(_keyfn(key, who), paced(rows) if len(rows) > PACED else rows))  # the clock read as it goes


def _rows(coll: Any, who: str) -> Any:
    t = type(coll)
    if t is PVector or t is PList or t is list or t is tuple or t is Table:
        return coll
    if t is LazySeq:
        return coll.realize()
    return list(iter_all(coll, who))


def _numbers(vals: list[Any], who: str) -> list[Any]:
    """The non-nil values, which must all be numbers."""
    ts = set(map(type, vals))
    if _NoneType in ts:
        vals = [v for v in vals if v is not None]
        ts.discard(_NoneType)
    if not ts <= {int, float}:
        for v in vals:
            if type(v) is not int and type(v) is not float:
                raise runtime_error(f"{who}: expected numbers, got {type_name(v)} {short(v)}",
                                    hint="values must be numbers (nil values are skipped)")
    return vals


@builtin("sum-by", group_read="sum-by", consumes=1, args="[key coll]", category="aggregates",
         doc="PTC: the sum of (key row) over coll, skipping nil values (0 when empty).",
         ex=(("(sum-by :amount [{:amount 10} {:amount 5} {:amount nil}])", "15"),
             ("(sum-by :x [])", "0"), ("(sum-by :price [{:price 1.5} {:price 2}])", "3.5")))
def sum_by(key: Any, coll: Any) -> Any:
    if (r := _col.by_key(key, coll, "sum-by")) is not _col.NO:
        return r
    vals = _numbers(_values(key, _rows(coll, "sum-by"), "sum-by"), "sum-by")
    total = sum(vals)
    if type(total) is int:
        context.check_int(total)
    return total


@builtin("avg-by", group_read="avg-by", consumes=1, args="[key coll]", category="aggregates",
         doc="PTC: the mean (a float) of the non-nil (key row) values, or nil if there are none.",
         ex=(("(avg-by :score [{:score 1} {:score 2} {:score nil}])", "1.5"), ("(avg-by :score [])", "nil")))
def avg_by(key: Any, coll: Any) -> Any:
    if (r := _col.by_key(key, coll, "avg-by")) is not _col.NO:
        return r
    vals = _numbers(_values(key, _rows(coll, "avg-by"), "avg-by"), "avg-by")
    if not vals:
        return None
    total = sum(vals)
    try:
        return float(total) / len(vals)
    except OverflowError:
        return total / len(vals)


def _extreme_row(key: Any, coll: Any, who: str, largest: bool) -> Any:
    rows = _rows(coll, who)
    keys = _values(key, rows, who)
    idx = [i for i, k in enumerate(keys) if k is not None]
    if not idx:
        return None
    ks = [keys[i] for i in idx]
    types = set(map(type, ks))
    if types <= {int, float} and not any(k != k for k in ks):
        getkey: Any = keys.__getitem__
    elif types == {str}:
        getkey = keys.__getitem__
    else:
        from .core_numbers import compare_values

        def cmp(a: Any, b: Any) -> int:
            try:
                return compare_values(a, b)
            except PTCError as e:
                raise runtime_error(f"{who}: keys are not comparable ({e.message})") from None

        ck = functools.cmp_to_key(cmp)
        getkey = lambda i: ck(keys[i])  # noqa: E731
    best = max(idx, key=getkey) if largest else min(idx, key=getkey)
    return rows[best]


@builtin("min-by", group_read="min-by", consumes=1, args="[key coll]", category="aggregates",
         doc="PTC: the row with the smallest (key row) (nil keys skipped, first wins ties; nil if none).",
         ex=(("(min-by :price [{:id 1 :price 5} {:id 2 :price 3}])", "{:id 2, :price 3}"),
             ("(min-by :price [])", "nil")))
def min_by(key: Any, coll: Any) -> Any:
    if (r := _col.by_key(key, coll, "min-by")) is not _col.NO:
        return r
    return _extreme_row(key, coll, "min-by", False)


@builtin("max-by", group_read="max-by", consumes=1, args="[key coll]", category="aggregates",
         doc="PTC: the row with the largest (key row) (nil keys skipped, first wins ties; nil if none).",
         ex=(("(max-by :price [{:id 1 :price 5} {:id 2 :price 3}])", "{:id 1, :price 5}"),
             ("(max-by :date [{:date \"2024-01-02\"} {:date \"2024-03-01\"}])", "{:date \"2024-03-01\"}")))
def max_by(key: Any, coll: Any) -> Any:
    if (r := _col.by_key(key, coll, "max-by")) is not _col.NO:
        return r
    return _extreme_row(key, coll, "max-by", True)


@builtin("pluck", args="[key coll]", category="aggregates",
         doc="PTC: the vector of (key row) for each row (nils included).",
         ex=(("(pluck :id [{:id 1} {:id 2} {}])", "[1 2 nil]"),
             ("(pluck [:user :name] [{:user {:name \"a\"}}])", "[\"a\"]")))
def pluck(key: Any, coll: Any) -> Any:
    if (r := _col.by_key(key, coll, "pluck")) is not _col.NO:
        return r
    return vec(_values(key, _rows(coll, "pluck"), "pluck"))


# -- where ------------------------------------------------------------------------------------------


def _columnar(describe: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A predicate builder whose predicates carry their column expression (see ptc.interpreter.columnar)."""

    def wrap(build: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(build)
        def tagged(*args: Any) -> Any:
            return _tag(build(*args), describe(*args))

        build.__qualname__ = "ptc:" + build.__name__.replace("_", "-")  # arity errors name the builtin
        return tagged

    return wrap


_TAG_F = object()


def _wkey(x: Any) -> Any:
    """Equality key for `where`: Clojure = except that numbers compare by value and a
    keyword equals the string of its name (models write :paid for the "paid" in JSON data)."""
    t = type(x)
    if t is str or t is int or x is None:
        return x
    if t is Keyword:
        return x.name
    if t is float:
        if x.is_integer():
            return int(x)
        return (_TAG_F, x)
    from .core_sequences import eq_key

    if t in VECTOR_TYPES or t is PList or t is LazySeq:
        return eq_key(PList([_wkey(y) for y in x]))
    return eq_key(x)


_OP_ALIASES = {
    "=": "=", "==": "=", "eq": "=",
    "not=": "not=", "!=": "not=", "not-eq": "not=",
    ">": ">", "<": "<", ">=": ">=", "<=": "<=",
    "in": "in", "not-in": "not-in",
    "contains": "contains", "contains?": "contains", "includes": "contains", "includes?": "contains",
    "starts-with": "starts-with", "starts-with?": "starts-with",
    "ends-with": "ends-with", "ends-with?": "ends-with",
}


def _op_name(op: Any) -> str | None:
    t = type(op)
    if t is Keyword or t is Symbol:
        name = op.name
    elif t is str:
        name = op
    else:
        q = getattr(op, "__qualname__", "") or ""
        if not q.startswith("ptc:"):
            return None
        name = q[4:].rsplit("/", 1)[-1]
        if name not in ("=", "not=", "==", ">", "<", ">=", "<=", "contains?", "includes?",
                        "starts-with?", "ends-with?"):
            return None
        if name == "contains?" and "/" not in q:  # core contains? checks keys, not substrings
            return None
    canon = _OP_ALIASES.get(name)
    if canon is None:
        raise runtime_error(
            f"where: unknown operator {short(op)}",
            hint="use one of := :not= :> :< :>= :<= :in :not-in :contains :starts-with :ends-with")
    return canon


def _same_name(value: str | Keyword) -> tuple[str, Keyword]:
    """The values `where` counts equal to a string or keyword: the string and the keyword of
    one name."""
    text = value.name if type(value) is Keyword else value
    return text, Keyword(text)


def _member_test(coll: Any) -> Callable[[Any], bool]:
    t = type(coll)
    if t is str:
        return lambda x: type(x) is str and x in coll
    if t in MAP_TYPES:
        items: Any = map_keys(coll)
    elif coll is None:
        items = ()
    else:
        items = iter_seq(coll, "where")
    keys = {_wkey(y) for y in items}
    return lambda x: _wkey(x) in keys


def _ordered(op: str, value: Any) -> Callable[[Any], bool]:
    tv = type(value)
    if value is None:
        return lambda x: False
    num = tv is int or tv is float
    if not num and tv is not str:
        from .core_numbers import compare_values
    else:
        compare_values = None  # type: ignore[assignment]

    def test(x: Any) -> bool:
        if x is None:
            return False
        tx = type(x)
        if num and (tx is int or tx is float):
            a, b = x, value
        elif tx is str and tv is str:
            a, b = x, value
        else:
            if compare_values is None:
                raise runtime_error(f"where: cannot compare {type_name(x)} {short(x)} with "
                                    f"{type_name(value)} {short(value)}")
            try:
                a, b = compare_values(x, value), 0
            except PTCError as e:
                raise runtime_error(f"where: {e.message}") from None
        if op == ">":
            return a > b
        if op == "<":
            return a < b
        if op == ">=":
            return a >= b
        return a <= b

    return test


def _contains(value: Any) -> Callable[[Any], bool]:
    vk = _wkey(value)

    def test(x: Any) -> bool:
        tx = type(x)
        if tx is str:
            return type(vk) is str and vk in x
        if tx in MAP_TYPES:
            return lookup(x, value, _NO) is not _NO
        if tx in SET_TYPES or tx in VECTOR_TYPES or tx is PList or tx is LazySeq:
            return any(_wkey(y) == vk for y in x)
        return False

    return test


@builtin("where", args=("[key]", "[key op value]"), category="aggregates",
         doc="PTC: a row predicate: (where :k) tests (:k row) is truthy; (where :k op v) compares "
             "(:k row) with v, op one of := :not= :> :< :>= :<= :in :not-in :contains :starts-with :ends-with.",
         ex=(("(filter (where :status := \"paid\") [{:status \"paid\"} {:status \"open\"}])",
              "({:status \"paid\"})"),
             ("(count (filter (where :amount :> 10) [{:amount 5} {:amount 20} {:amount nil}]))", "1"),
             ("(filter (where :tag :in #{:a :b}) [{:tag :a} {:tag :c}])", "({:tag :a})"),
             ("(remove (where :done) [{:done true} {:done false}])", "({:done false})")))
@_columnar(lambda key, op=_NO, value=_NO: ("where", key, None if op is _NO else op, None if value is _NO else value))
def where(key: Any, op: Any = _NO, value: Any = _NO) -> Callable[[Any], bool]:
    kf = _keyfn(key, "where")
    if op is _NO:
        def truthy_test(row: Any) -> bool:
            r = kf(row)
            return r is not None and r is not False

        return truthy_test
    if value is _NO:
        raise runtime_error("where: expected (where key) or (where key op value)",
                            hint='e.g. (where :status := "paid")')
    name = _op_name(op)
    test: Callable[[Any], bool]
    if name is None:
        f = as_fn(op, "where")

        def custom(row: Any) -> bool:
            r = f(kf(row), value)
            return r is not None and r is not False

        return custom
    if name == "=" or name == "not=":
        tv = type(value)
        if tv is bool or value is None:  # equal only to themselves
            if name == "=":
                return lambda row: kf(row) is value
            return lambda row: kf(row) is not value
        if tv is str or tv is Keyword:  # a keyword or the string of its name; no other type
            text, kw = _same_name(value)
            if name == "=":
                return lambda row: (x := kf(row)) == text or x is kw
            return lambda row: not ((x := kf(row)) == text or x is kw)
        vk = _wkey(value)
        if name == "=":
            return lambda row: _wkey(kf(row)) == vk
        return lambda row: _wkey(kf(row)) != vk
    if name in (">", "<", ">=", "<="):
        test = _ordered(name, value)
    elif name == "in" or name == "not-in":
        member = _member_test(value)
        if name == "in":
            test = member
        else:
            def test(x: Any) -> bool:
                return not member(x)
    elif name == "contains":
        test = _contains(value)
    else:
        if type(value) is not str:
            raise runtime_error(f"where: {name} needs a string value, got {type_name(value)} {short(value)}")
        if name == "starts-with":
            def test(x: Any) -> bool:
                return type(x) is str and x.startswith(value)
        else:
            def test(x: Any) -> bool:
                return type(x) is str and x.endswith(value)
    return lambda row: test(kf(row))


def _preds(ps: tuple[Any, ...], who: str) -> list[Callable[[Any], Any]]:
    return [as_fn(p, who) for p in ps]


@builtin("all-of", args="[& preds]", category="aggregates",
         doc="PTC: a predicate true when every pred is truthy for the row (true with no preds).",
         ex=(("(filter (all-of (where :a :> 1) (where :b)) [{:a 2 :b true} {:a 2 :b false} {:a 0 :b true}])",
              "({:a 2, :b true})"),))
@_columnar(lambda *ps: _col.combined("all", ps))
def all_of(*preds: Any) -> Callable[[Any], bool]:
    ps = _preds(preds, "all-of")

    def test(row: Any) -> bool:
        for p in ps:
            r = p(row)
            if r is None or r is False:
                return False
        return True

    return test


@builtin("any-of", args="[& preds]", category="aggregates",
         doc="PTC: a predicate true when at least one pred is truthy for the row (false with no preds).",
         ex=(("(filter (any-of (where :a := 1) (where :a := 3)) [{:a 1} {:a 2} {:a 3}])", "({:a 1} {:a 3})"),))
@_columnar(lambda *ps: _col.combined("any", ps))
def any_of(*preds: Any) -> Callable[[Any], bool]:
    ps = _preds(preds, "any-of")

    def test(row: Any) -> bool:
        for p in ps:
            r = p(row)
            if r is not None and r is not False:
                return True
        return False

    return test


@builtin("none-of", args="[& preds]", category="aggregates",
         doc="PTC: a predicate true when no pred is truthy for the row (true with no preds).",
         ex=(("(filter (none-of :deleted (where :a :< 0)) [{:a 1} {:a -1} {:a 2 :deleted true}])", "({:a 1})"),))
@_columnar(lambda *ps: _col.combined("none", ps))
def none_of(*preds: Any) -> Callable[[Any], bool]:
    ps = _preds(preds, "none-of")

    def test(row: Any) -> bool:
        for p in ps:
            r = p(row)
            if r is not None and r is not False:
                return False
        return True

    return test


__all__ = ["sum_by", "avg_by", "min_by", "max_by", "pluck", "where", "all_of", "any_of", "none_of"]
