"""Type predicates, `not`, `identical?` and `distinct?`.

Characters are one-character strings, so `char?` is true for any one-character string
and `string?` is true for characters (documented deviation).
"""

from __future__ import annotations

from typing import Any

from ..context import tick
from ..registry import builtin
from ..sorted import SortedMap, SortedSet
from ..values import (
    MAP_TYPES, SET_TYPES, VECTOR_TYPES, FMap, FSet, HSet, Keyword, LazySeq, MapEntry, PList, PQueue, Regex, Symbol,
    equals,
)
from . import inline

_MAPS = frozenset(MAP_TYPES)
_VECTORS = frozenset(VECTOR_TYPES)
_SETS = frozenset(SET_TYPES)
_SEQS = frozenset({PList, LazySeq})
_COLLS = _MAPS | _VECTORS | _SETS | _SEQS | {PQueue}
_SEQUENTIAL = _VECTORS | _SEQS | {PQueue}
_ASSOCIATIVE = _MAPS | _VECTORS
_NOT_FN = frozenset({Keyword, FMap, FSet, HSet, Symbol, Regex})  # invokable data, not functions
_IFN_DATA = _MAPS | _VECTORS | _SETS | {Keyword, Symbol}
_SEQABLE = _COLLS | {str}
_REVERSIBLE = _VECTORS | {SortedMap, SortedSet}


@builtin("nil?", inline=inline.is_nil, pure=True, column_op="nil?", args="[x]", category="predicates", doc="True if x is nil.",
         ex=(("(nil? nil)", "true"), ("(nil? false)", "false")))
def nil_p(x: Any) -> bool:
    return x is None


@builtin("some?", inline=inline.is_some, pure=True, column_op="some?", args="[x]", category="predicates", doc="True if x is not nil (false is some?).",
         ex=(("(some? 0)", "true"), ("(some? nil)", "false"), ("(some? false)", "true")))
def some_p(x: Any) -> bool:
    return x is not None


@builtin("true?", args="[x]", category="predicates", doc="True if x is the value true (not just truthy).",
         ex=(("(true? true)", "true"), ("(true? 1)", "false")))
def true_p(x: Any) -> bool:
    return x is True


@builtin("false?", args="[x]", category="predicates", doc="True if x is the value false (nil is not false?).",
         ex=(("(false? false)", "true"), ("(false? nil)", "false")))
def false_p(x: Any) -> bool:
    return x is False


@builtin("not", inline=inline.not_, pure=True, column_op="not", boolean=True, args="[x]", category="predicates", doc="True if x is falsey (nil or false), else false.",
         ex=(("(not nil)", "true"), ("(not 0)", "false"), ("(not false)", "true")))
def not_(x: Any) -> bool:
    return x is None or x is False


@builtin("string?", args="[x]", category="predicates",
         doc="True if x is a string (characters are one-character strings, so also for them).",
         ex=(("(string? \"a\")", "true"), ("(string? :a)", "false")))
def string_p(x: Any) -> bool:
    return type(x) is str


@builtin("char?", args="[x]", category="predicates",
         doc="True if x is a character, i.e. a one-character string (characters are strings in PTC-Lisp).",
         ex=(("(char? \\a)", "true"), ("(char? 97)", "false")))
def char_p(x: Any) -> bool:
    return type(x) is str and len(x) == 1


@builtin("keyword?", args="[x]", category="predicates", doc="True if x is a keyword.",
         ex=(("(keyword? :a)", "true"), ("(keyword? \"a\")", "false")))
def keyword_p(x: Any) -> bool:
    return type(x) is Keyword


@builtin("symbol?", args="[x]", category="predicates", doc="True if x is a symbol.",
         ex=(("(symbol? 'a)", "true"), ("(symbol? :a)", "false")))
def symbol_p(x: Any) -> bool:
    return type(x) is Symbol


@builtin("ident?", args="[x]", category="predicates", doc="True if x is a keyword or a symbol.",
         ex=(("(ident? :a)", "true"), ("(ident? \"a\")", "false")))
def ident_p(x: Any) -> bool:
    t = type(x)
    return t is Keyword or t is Symbol


def _qualified(x: Any) -> bool:
    n = x.name
    i = n.find("/")
    return i > 0 and n != "/"


@builtin("simple-ident?", args="[x]", category="predicates", doc="True if x is a keyword or symbol without a namespace.",
         ex=(("(simple-ident? :a)", "true"), ("(simple-ident? :a/b)", "false")))
def simple_ident_p(x: Any) -> bool:
    return ident_p(x) and not _qualified(x)


@builtin("qualified-ident?", args="[x]", category="predicates", doc="True if x is a keyword or symbol with a namespace.",
         ex=(("(qualified-ident? 'a/b)", "true"), ("(qualified-ident? :a)", "false")))
def qualified_ident_p(x: Any) -> bool:
    return ident_p(x) and _qualified(x)


@builtin("simple-keyword?", args="[x]", category="predicates", doc="True if x is a keyword without a namespace.",
         ex=(("(simple-keyword? :a)", "true"), ("(simple-keyword? :a/b)", "false")))
def simple_keyword_p(x: Any) -> bool:
    return type(x) is Keyword and not _qualified(x)


@builtin("qualified-keyword?", args="[x]", category="predicates", doc="True if x is a keyword with a namespace.",
         ex=(("(qualified-keyword? :a/b)", "true"), ("(qualified-keyword? :a)", "false")))
def qualified_keyword_p(x: Any) -> bool:
    return type(x) is Keyword and _qualified(x)


@builtin("simple-symbol?", args="[x]", category="predicates", doc="True if x is a symbol without a namespace.",
         ex=(("(simple-symbol? 'a)", "true"), ("(simple-symbol? :a)", "false")))
def simple_symbol_p(x: Any) -> bool:
    return type(x) is Symbol and not _qualified(x)


@builtin("qualified-symbol?", args="[x]", category="predicates", doc="True if x is a symbol with a namespace.",
         ex=(("(qualified-symbol? 'a/b)", "true"), ("(qualified-symbol? 'a)", "false")))
def qualified_symbol_p(x: Any) -> bool:
    return type(x) is Symbol and _qualified(x)


@builtin("boolean?", args="[x]", category="predicates", doc="True if x is true or false.",
         ex=(("(boolean? false)", "true"), ("(boolean? nil)", "false")))
def boolean_p(x: Any) -> bool:
    return x is True or x is False


@builtin("map?", args="[x]", category="predicates", doc="True if x is a map.",
         ex=(("(map? {:a 1})", "true"), ("(map? [1])", "false")))
def map_p(x: Any) -> bool:
    return type(x) in _MAPS


@builtin("vector?", args="[x]", category="predicates", doc="True if x is a vector (map entries are vectors).",
         ex=(("(vector? [1 2])", "true"), ("(vector? '(1 2))", "false")))
def vector_p(x: Any) -> bool:
    return type(x) in _VECTORS


@builtin("map-entry?", args="[x]", category="predicates", doc="True if x is a map entry (from seq on a map).",
         ex=(("(map-entry? (first {:a 1}))", "true"), ("(map-entry? [:a 1])", "false")))
def map_entry_p(x: Any) -> bool:
    return type(x) is MapEntry


@builtin("list?", args="[x]", category="predicates",
         doc="True if x is a list. Realized sequences (results of map, filter...) are lists in PTC-Lisp.",
         ex=(("(list? '(1 2))", "true"), ("(list? [1 2])", "false")))
def list_p(x: Any) -> bool:
    return type(x) is PList or type(x) is PQueue  # a PersistentQueue is an IPersistentList


@builtin("set?", args="[x]", category="predicates", doc="True if x is a set.",
         ex=(("(set? #{1})", "true"), ("(set? [1])", "false")))
def set_p(x: Any) -> bool:
    return type(x) in _SETS


@builtin("seq?", args="[x]", category="predicates", doc="True if x is a sequence (list or lazy seq); vectors are not.",
         ex=(("(seq? '(1 2))", "true"), ("(seq? [1 2])", "false")))
def seq_p(x: Any) -> bool:
    return type(x) in _SEQS


@builtin("coll?", args="[x]", category="predicates", doc="True if x is a collection (list, vector, map, set, seq).",
         ex=(("(coll? [1])", "true"), ("(coll? {})", "true"), ("(coll? \"abc\")", "false")))
def coll_p(x: Any) -> bool:
    return type(x) in _COLLS


@builtin("sequential?", args="[x]", category="predicates", doc="True if x is ordered: a list, vector or seq.",
         ex=(("(sequential? [1])", "true"), ("(sequential? #{1})", "false")))
def sequential_p(x: Any) -> bool:
    return type(x) in _SEQUENTIAL


@builtin("associative?", args="[x]", category="predicates", doc="True if x supports assoc: a map or a vector.",
         ex=(("(associative? {:a 1})", "true"), ("(associative? [1])", "true"), ("(associative? '(1))", "false")))
def associative_p(x: Any) -> bool:
    return type(x) in _ASSOCIATIVE


@builtin("reversible?", args="[x]", category="predicates",
         doc="True if rseq works on x: a vector, sorted map or sorted set.",
         ex=(("(reversible? [1])", "true"), ("(reversible? (sorted-set 1))", "true"), ("(reversible? '(1))", "false")))
def reversible_p(x: Any) -> bool:
    return type(x) in _REVERSIBLE


@builtin("indexed?", args="[x]", category="predicates", doc="True if x supports fast nth: a vector.",
         ex=(("(indexed? [1])", "true"), ("(indexed? '(1))", "false")))
def indexed_p(x: Any) -> bool:
    return type(x) in _VECTORS


@builtin("counted?", args="[x]", category="predicates", doc="True if x knows its count: any realized collection.",
         ex=(("(counted? [1 2])", "true"), ("(counted? \"ab\")", "false")))
def counted_p(x: Any) -> bool:
    t = type(x)
    return t in _COLLS and t is not LazySeq


@builtin("seqable?", args="[x]", category="predicates", doc="True if seq works on x: collections, strings and nil.",
         ex=(("(seqable? \"abc\")", "true"), ("(seqable? nil)", "true"), ("(seqable? 1)", "false")))
def seqable_p(x: Any) -> bool:
    return x is None or type(x) in _SEQABLE


@builtin("fn?", args="[x]", category="predicates",
         doc="True if x is a function (keywords, maps and sets are invokable but are not fn?).",
         ex=(("(fn? inc)", "true"), ("(fn? (fn [x] x))", "true"), ("(fn? :a)", "false")))
def fn_p(x: Any) -> bool:
    t = type(x)
    if t in _NOT_FN or t in _COLLS or x is None or t is str or t is int or t is float or t is bool:
        return False
    return callable(x) and not isinstance(x, type)


@builtin("ifn?", args="[x]", category="predicates",
         doc="True if x can be called: functions, keywords, maps, sets and vectors.",
         ex=(("(ifn? :a)", "true"), ("(ifn? {:a 1})", "true"), ("(ifn? \"a\")", "false")))
def ifn_p(x: Any) -> bool:
    t = type(x)
    if t in _IFN_DATA:
        return True
    if x is None or t is str or t is int or t is float or t is bool or t in _COLLS or t is Regex:
        return False
    return callable(x) and not isinstance(x, type)


@builtin("identical?", boolean=True, args="[x y]", category="predicates",
         doc="True if x and y are the very same object (keywords are always identical to themselves).",
         ex=(("(identical? :a :a)", "true"), ("(identical? [1] [1])", "false")))
def identical_p(x: Any, y: Any) -> bool:
    if x is y:
        return True
    t = type(x)
    # scalars have no identity a program could observe consistently: compare by value
    if t is type(y) and (t is int or t is bool) and -128 <= x <= 127:
        return x == y
    return False


@builtin("any?", args="[x]", category="predicates", doc="Always true (useful as a catch-all predicate).",
         ex=(("(any? nil)", "true"),))
def any_p(x: Any) -> bool:
    return True


_SCALARS = frozenset({int, float, str, bool, Keyword, type(None)})


@builtin("distinct?", args=("[x]", "[x y]", "[x y & more]"), category="predicates",
         doc="True if no two of the arguments are equal (=).",
         ex=(("(distinct? 1 2 3)", "true"), ("(distinct? 1 2 1)", "false"), ("(distinct? 1 1.0)", "true")))
def distinct_p(x: Any, *more: Any) -> bool:
    if not more:
        return True
    if len(more) == 1:
        return not equals(x, more[0])
    seen: set[Any] = set()
    others: list[Any] = []
    steps = 0
    for v in (x, *more):
        t = type(v)
        if t in _SCALARS:
            key = (t, v)  # tag by type: 1, 1.0 and true stay distinct as with =
            if key in seen:
                return False
            seen.add(key)
        else:
            for o in others:
                if equals(o, v):
                    return False
            steps += len(others) + 1
            if steps > 4096:
                tick(steps)
                steps = 0
            others.append(v)
    return True
