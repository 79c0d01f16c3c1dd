"""Tests for ptc/interpreter/lib/set.py (clojure.set)."""

from __future__ import annotations

import pytest

from ptc.interpreter.errors import PTCError
from ptc.interpreter.lib import set as S
from ptc.interpreter.printer import pr_str
from ptc.interpreter.values import (
    EMPTY_MAP,
    EMPTY_SET,
    FMap,
    FSet,
    HMap,
    HSet,
    Keyword,
    PList,
    make_map,
    make_set,
    pvector,
)

K = Keyword
a, b, c, x = K("a"), K("b"), K("c"), K("x")


def m(**kw):
    return make_map((K(k), v) for k, v in kw.items())


def s(*xs):
    return make_set(xs)


def v(*xs):
    return pvector(xs)


def p(val):
    return pr_str(val)


def test_union():
    assert S.union() == EMPTY_SET
    one = s(1)
    assert S.union(one) is one
    assert S.union(s(1, 2), s(2, 3)) == s(1, 2, 3)
    assert S.union(s(1), None) == s(1)
    assert S.union(None, s(1)) == s(1)
    assert S.union(None) == EMPTY_SET
    assert S.union(s(1), s(2), s(3)) == s(1, 2, 3)
    assert S.union(s(1), v(2, 3)) == s(1, 2, 3)  # lenient: any seqable
    assert S.union(v(1, 1)) == s(1)
    big = make_set(range(100))
    r = S.union(s(-1), big, s(200))
    assert type(r) is HSet and len(r) == 102 and len(big) == 100
    r2 = S.union(make_set(range(10)), make_set(range(5, 30)))
    assert len(r2) == 30 and type(r2) is HSet
    with pytest.raises(PTCError, match="union"):
        S.union(s(1), 5)


def test_intersection():
    assert S.intersection(s(1, 2, 3), s(2, 3, 4), s(3, 5)) == s(3)
    one = s(1)
    assert S.intersection(one) is one
    assert S.intersection(s(1, 2), s(3)) == EMPTY_SET
    assert S.intersection(s(1, 2), None) == EMPTY_SET
    assert S.intersection(make_set(range(100)), v(5, 500)) == s(5)
    assert type(S.intersection(s(1), s(1))) is FSet


def test_difference():
    assert S.difference(s(1, 2, 3), s(2), s(3)) == s(1)
    one = s(1)
    assert S.difference(one) is one
    assert S.difference(s(1, 2), None) == s(1, 2)
    assert S.difference(None, s(1)) == EMPTY_SET
    r = S.difference(make_set(range(100)), make_set(range(90)))
    assert r == make_set(range(90, 100)) and type(r) is FSet


def test_select():
    assert S.select(lambda n: n % 2 == 1, s(1, 2, 4)) == s(1)
    assert S.select(lambda n: n > 10, s(1, 2)) == EMPTY_SET
    assert S.select(lambda n: n, None) == EMPTY_SET
    with pytest.raises(PTCError, match="select"):
        S.select(5, s(1))


def test_project():
    rel = v(m(a=1, b=2), m(a=1, b=3))
    assert p(S.project(rel, v(a))) == "#{{:a 1}}"
    assert S.project(rel, v(a, b)) == s(m(a=1, b=2), m(a=1, b=3))
    assert S.project(None, v(a)) == EMPTY_SET
    assert p(S.project([{"a": 1, "b": 2}, {"a": 1, "b": 3}], v(a))) == "#{{:a 1}}"


def test_rename_keys():
    assert p(S.rename_keys(m(a=1, b=2), m(a=x))) == "{:b 2, :x 1}"
    assert p(S.rename_keys(m(a=1, b=2), m(a=b, b=a))) == "{:b 1, :a 2}"
    assert p(S.rename_keys(m(a=1), m(z=x))) == "{:a 1}"
    assert S.rename_keys(None, m(a=b)) is None
    assert p(S.rename_keys(m(a=1), None)) == "{:a 1}"
    assert p(S.rename_keys({"a": 1, "b": 2}, m(a=x))) == "{:b 2, :x 1}"
    assert p(S.rename_keys(make_map([("a", 1)]), m(a=x))) == '{"a" 1}'
    with pytest.raises(PTCError, match="rename-keys"):
        S.rename_keys(v(1), m(a=b))
    with pytest.raises(PTCError, match="rename-keys"):
        S.rename_keys(m(a=1), v(a, b))


def test_rename():
    assert p(S.rename(s(m(a=1)), m(a=b))) == "#{{:b 1}}"
    assert S.rename(v(m(a=1), m(a=2)), m(a=b)) == s(m(b=1), m(b=2))


def test_index():
    rel = v(m(a=1, b=2), m(a=2, b=3), m(a=1, b=4))
    idx = S.index(rel, v(a))
    assert type(idx) is FMap
    assert idx.get(m(a=1)) == s(m(a=1, b=2), m(a=1, b=4))
    assert idx.get(m(a=2)) == s(m(a=2, b=3))
    assert p(S.index(v(m(a=1, b=2), m(a=2, b=3)), v(a))) == "{{:a 1} #{{:a 1, :b 2}}, {:a 2} #{{:a 2, :b 3}}}"
    assert S.index(None, v(a)) == EMPTY_MAP
    # a missing key groups under {}
    assert S.index(v(m(b=1)), v(a)).get(EMPTY_MAP) == s(m(b=1))
    big = S.index(pvector(m(a=i) for i in range(40)), v(a))
    assert type(big) is HMap and len(big) == 40


def test_map_invert():
    assert p(S.map_invert(m(a=1, b=2))) == "{1 :a, 2 :b}"
    assert p(S.map_invert(m(a=1, b=1))) == "{1 :b}"
    assert S.map_invert(None) == EMPTY_MAP
    with pytest.raises(PTCError, match="map-invert"):
        S.map_invert(v(1))


def test_join_natural():
    xs = s(m(a=1, b=2), m(a=2, b=3))
    ys = s(m(a=1, c=5))
    r = S.join(xs, ys)
    assert r == s(m(a=1, b=2, c=5))
    assert p(r) == "#{{:a 1, :c 5, :b 2}}"  # key order as Clojure (smaller relation first)
    assert p(S.join(s(make_map([(K("id"), 1), (K("name"), "a")])), s(make_map([(K("id"), 1), (K("score"), 5)])))) \
        == '#{{:id 1, :name "a", :score 5}}'
    # no shared keys: cartesian product
    assert S.join(s(m(a=1)), s(m(b=2), m(b=3))) == s(m(a=1, b=2), m(a=1, b=3))
    assert S.join(EMPTY_SET, ys) == EMPTY_SET
    assert S.join(None, ys) == EMPTY_SET
    assert S.join(v(m(a=1), m(a=1)), v(m(a=1, c=2))) == s(m(a=1, c=2))
    with pytest.raises(PTCError, match="join"):
        S.join(v(1), v(m(a=1)))


def test_join_keymap():
    r = S.join(s(m(a=1, b=2)), s(m(x=1, c=5)), m(a=x))
    assert p(r) == "#{{:a 1, :b 2, :x 1, :c 5}}"
    r2 = S.join(v(m(a=1), m(a=2), m(a=3)), v(m(x=2, c=9)), m(a=x))
    assert r2 == s(m(a=2, x=2, c=9))
    assert S.join(v(m(a=1)), v(m(x=5)), m(a=x)) == EMPTY_SET
    with pytest.raises(PTCError, match="join"):
        S.join(v(m(a=1)), v(m(x=5)), v(a, x))


def test_subset_superset():
    assert S.is_subset(s(1), s(1, 2)) is True
    assert S.is_subset(s(1, 3), s(1, 2)) is False
    assert S.is_subset(EMPTY_SET, None) is True
    assert S.is_subset(None, s(1)) is True
    assert S.is_subset(s(1, 2), s(1)) is False
    assert S.is_superset(s(1, 2), s(1)) is True
    assert S.is_superset(s(1), s(1, 2)) is False
    assert S.is_subset(make_set(range(20)), make_set(range(30))) is True
    assert S.is_subset(v(1, 1), s(1)) is True


def test_registry():
    from ptc.interpreter.registry import REGISTRY, resolve

    for name in ("union", "intersection", "difference", "select", "project", "rename-keys",
                 "rename", "index", "map-invert", "join", "subset?", "superset?"):
        bi = resolve("set", name)
        assert bi is not None and bi is REGISTRY["clojure.set/" + name], name
        assert bi.examples and bi.doc
    assert resolve(None, "union") is None
    assert isinstance(PList(), tuple)


def test_big_sets_are_persistent_across_branching_versions() -> None:
    from ptc.interpreter.values import HSet, set_conj, set_disj

    base = make_set(range(100))
    assert type(base) is HSet
    a = set_conj(base, 1000)
    b = set_disj(base, 5)
    c = set_conj(a, 2000)
    d = set_disj(a, 1000)
    # every version answers as it was made, whichever was touched last
    for _ in range(2):
        assert 1000 not in base and 5 in base and len(base) == 100
        assert 1000 in a and 2000 not in a and len(a) == 101
        assert 5 not in b and 1000 not in b and len(b) == 99
        assert {1000, 2000} <= set(c) and len(c) == 102
        assert 1000 not in d and len(d) == 100 and d == base
    assert set_conj(a, 1000) is a and set_disj(b, 5) is b
    assert len(set_disj(make_set(range(17)), 0)) == 16
