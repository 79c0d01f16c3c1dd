"""The reader: every literal kind, positions, and clear parse errors."""

import math

import pytest

from ptc import PTCError
from ptc.interpreter import values as v
from ptc.interpreter.reader import Coll, Lit, Sym, read, read_value


def test_literals_read_as_values() -> None:
    forms = read('nil true false 42 -7 1.5 2e3 "a\\nb" \\a \\newline :k :ns/k 123456789012345678901234N ##Inf')
    values = [f.value for f in forms]  # type: ignore[union-attr]
    assert values[:7] == [None, True, False, 42, -7, 1.5, 2000.0]
    assert values[7] == "a\nb"
    assert values[8:10] == ["a", "\n"]
    assert values[10] is v.keyword("k") and values[11] is v.keyword("ns/k")
    assert values[12] == 123456789012345678901234
    assert values[13] == math.inf


def test_collections_and_positions() -> None:
    (form,) = read("(f [1 2]\n  {:a #{3}})")
    assert isinstance(form, Coll) and form.kind == "list" and (form.line, form.col) == (1, 1)
    head, vec, m = form.items
    assert isinstance(head, Sym) and head.name == "f"
    assert isinstance(vec, Coll) and vec.kind == "vector" and (vec.line, vec.col) == (1, 4)
    assert isinstance(m, Coll) and m.kind == "map" and (m.line, m.col) == (2, 3)


def test_commas_comments_and_discard_are_whitespace() -> None:
    forms = read("; comment\n[1, 2,3] #_ (ignored form) 4")
    assert len(forms) == 2
    assert read_value("[1, 2,3]") == v.vec([1, 2, 3])


def test_namespaced_symbols() -> None:
    (s,) = read("clojure.string/join")
    assert isinstance(s, Sym) and s.ns == "clojure.string" and s.name == "join"
    (d,) = read("/")
    assert isinstance(d, Sym) and d.ns is None and d.name == "/"


def test_anonymous_fn_expands_to_fn() -> None:
    (f,) = read("#(+ % %2 %&)")
    assert isinstance(f, Coll) and isinstance(f.items[0], Sym) and f.items[0].name == "fn"
    params = [p.name for p in f.items[1].items]  # type: ignore[union-attr]
    assert params == ["%1", "%2", "&", "%&"]


def test_quote_and_regex() -> None:
    (q,) = read("'(a b)")
    assert isinstance(q, Coll) and q.items[0].name == "quote"  # type: ignore[union-attr]
    assert read_value("(1 (2))") == v.PList([1, v.PList([2])])


@pytest.mark.parametrize(
    "source, message, pos",
    [
        ("(+ 1", "unclosed '('", (1, 1)),
        ("(+ 1))", "unmatched closing ')'", (1, 6)),
        ('"abc', "unterminated string", (1, 1)),
        ("[1 2)", "mismatched ')'", (1, 5)),
        ("{:a}", "even number of forms", (1, 1)),
        ("@x", "deref (@) is not supported", (1, 1)),
        ('"\\q"', "unsupported escape", (1, 1)),
        ("::k", "auto-resolved keywords", (1, 1)),
    ],
)
def test_parse_errors_have_kind_message_and_position(source: str, message: str, pos: tuple[int, int]) -> None:
    with pytest.raises(PTCError) as info:
        read(source)
    err = info.value
    assert err.kind == "parse"
    assert message in err.message
    assert (err.line, err.column) == pos


def test_read_value_reads_printed_clojure() -> None:
    value = read_value('{:a [1 2.5 "x"], "b" #{:k}, :c (nil true)}')
    assert v.equals(value, v.make_map([(v.keyword("a"), v.vec([1, 2.5, "x"])),
                                       ("b", v.make_set([v.keyword("k")])),
                                       (v.keyword("c"), v.PList([None, True]))]))
