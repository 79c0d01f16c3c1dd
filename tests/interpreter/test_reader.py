"""The reader: every literal kind, positions, and clear parse errors."""

import math

import pytest

from ptc import PTCError
from ptc.interpreter import values as v
from ptc.interpreter.reader import Coll, Sym, read, read_value


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


def test_a_mismatched_closer_points_at_the_bracket_it_meets_with_its_text() -> None:
    deep = ("(defn f [r]\n  (cond\n    (> (:a r) 1) (map (fn [q] (assoc q :k (+ (:v q) (* 2 (:w q)])))"
            " [r])\n    :else nil))")
    with pytest.raises(PTCError) as info:
        read(deep)
    assert info.value.format() == (
        "error[parse] 3:64: mismatched ']': expected ')' to close '(' opened at 3:53\n"
        "  hint: the '(' at 3:53 begins `(* 2 (:w q)]`: close it with ')' before this ']'")
    with pytest.raises(PTCError) as info:  # an opener lines above: its line's start
        read("(let [rows (->> data/orders\n             (filter #(> (:amount %) 10))\n  (count rows)]")
    assert info.value.hint == "the '(' at 1:12 begins `(->> data/orders ...`: close it with ')' before this ']'"


def test_read_value_reads_printed_clojure() -> None:
    value = read_value('{:a [1 2.5 "x"], "b" #{:k}, :c (nil true)}')
    assert v.equals(value, v.make_map([(v.keyword("a"), v.vec([1, 2.5, "x"])),
                                       ("b", v.make_set([v.keyword("k")])),
                                       (v.keyword("c"), v.PList([None, True]))]))


# -- the reader agrees with grammar.lark -------------------------------------------------------
# reader.py scans with one regex built from grammar.lark's terminals and reads with a stack;
# Lark's own LALR parser of the grammar is the specification it is checked against.

import functools  # noqa: E402
import json  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from lark import Lark, Token, Tree  # noqa: E402
from lark.exceptions import UnexpectedInput  # noqa: E402

from ptc.interpreter import reader as R  # noqa: E402

from fuzz.strategies import programs, texts  # noqa: E402  (tests/ is on sys.path)

ROOT = Path(__file__).resolve().parents[2]


@functools.lru_cache(maxsize=1)
def _spec() -> Lark:
    return Lark((ROOT / "ptc" / "interpreter" / "grammar.lark").read_text(), parser="lalr")


def _from_tree(t: Any) -> Any:
    """A Lark parse tree as nested tuples: ("kind", items...) or ("atom", TERMINAL, text)."""
    if isinstance(t, Token):
        return ("atom", t.type, str(t))
    data = t.data if isinstance(t.data, str) else t.data.value
    if data in ("string", "regex", "char", "float", "ratio", "int", "symbolic", "keyword", "symbol"):
        return ("atom", t.children[0].type, str(t.children[0]))
    kids = [c for c in t.children if not (isinstance(c, Token) and c.type in
                                          ("LPAR", "LSQB", "LBRACE", "HASH_LBRACE", "HASH_LPAR", "QUOTE", "DISCARD", "META"))]
    kept = [_from_tree(c) for c in kids if not (isinstance(c, Tree) and c.data == "discarded")]
    if data == "meta":  # ^meta form: the reader drops the metadata
        return kept[-1]
    return (data, *kept)


_TERMINAL_OF = {str: "STRING", float: "FLOAT", int: "INT", bool: "SYMBOL", type(None): "SYMBOL"}


def _from_forms(forms: list[R.Form]) -> Any:
    def one(f: R.Form) -> Any:
        if isinstance(f, R.Coll):
            if f.kind == "list" and f.items and isinstance(f.items[0], R.Sym) and f.items[0].name == "quote" \
                    and (f.items[0].line, f.items[0].col) == (f.line, f.col):
                return ("quote", one(f.items[1]))
            return (f.kind, *[one(i) for i in f.items])
        return ("atom", type(f).__name__)
    return ("start", *[one(f) for f in forms])


def _shape(t: Any) -> Any:
    """Compare structure only (atoms by position): the token texts are checked separately."""
    if t[0] == "atom":
        return ("atom",)
    return (t[0], *[_shape(c) for c in t[1:]])


def _spec_read(source: str) -> Any:
    try:
        tree = _spec().parse(source)
    except UnexpectedInput:
        return None
    return _shape(_from_tree(tree))


def _our_read(source: str) -> Any:
    try:
        return _shape(_from_forms(R.read(source)))
    except PTCError as e:
        return None if e.kind == "parse" else ("analysis-only", e.message)


def _agree(source: str) -> None:
    if "#(" in source:  # anonymous fns are expanded while reading: compare what can be compared
        return
    spec, ours = _spec_read(source), _our_read(source)
    if spec is not None and ours is None:
        # the grammar accepts it but a literal inside is invalid ("\q", ::k, 1/0...): the reader refuses
        with pytest.raises(PTCError):
            R.read(source)
        return
    assert ours == spec, source
    if spec is not None:  # same tokens, in the same order
        token, _ = R._scanner()
        ours_tokens, pos = [], 0
        while (m := token.match(source, pos)) is not None:
            ours_tokens.append((m.lastgroup, source[slice(*m.span(m.lastgroup))]))
            pos = m.end()
        spec_tokens = [(t.type, str(t)) for t in _spec().lex(source)]
        assert ours_tokens == spec_tokens, source


CORPUS = [e["source"] for e in json.loads((ROOT / "tests" / "conformance" / "expected.json").read_text())]


def test_reader_agrees_with_the_grammar_on_the_corpus() -> None:
    for source in CORPUS + ["[1 #_#_ 2 3 4]", "'#_x y", "#_#_ a b c", "''x", "(a #_ [b] c)", "{:a #_ 1 2}",
                            "#_ #_", "(#_)", "'", "[1 #_]", "x ; comment\n y", "a,b,,c", "\\a \\space \"s\""]:
        _agree(source)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))  # generating programs is slow
@given(programs())
def test_reader_agrees_with_the_grammar_on_programs(source: str) -> None:
    _agree(source)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts())
def test_reader_agrees_with_the_grammar_on_text(source: str) -> None:
    _agree(source)


def test_scanner_patterns_cached_by_grammar_and_a_bad_cache_is_ignored(tmp_path: Path, monkeypatch: Any) -> None:
    """The patterns a start reads from the cache are Lark's; a corrupt or foreign file there is
    read again from Lark and rewritten (the cache saves ~40 ms of each `ptc` start)."""
    monkeypatch.setenv("PTC_HOME", str(tmp_path))
    grammar = (ROOT / "ptc" / "interpreter" / "grammar.lark").read_text()
    fresh = R._lark_patterns(grammar)
    assert R._cached_patterns(grammar) == fresh
    (cached,) = (tmp_path / "cache").iterdir()
    assert json.loads(cached.read_text()) == list(fresh)
    for bad in ("{not json", "[1, 2]", '"one"', ""):
        cached.write_text(bad)
        assert R._cached_patterns(grammar) == fresh
        assert json.loads(cached.read_text()) == list(fresh)
    assert R._cached_patterns(grammar + "\n// changed\n") == fresh  # another grammar: a file of its own
    assert len(list((tmp_path / "cache").iterdir())) == 2


def test_scanner_works_when_the_cache_cannot_be_written(tmp_path: Path, monkeypatch: Any) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("PTC_HOME", str(blocker))  # cache/ under a file: mkdir fails
    grammar = (ROOT / "ptc" / "interpreter" / "grammar.lark").read_text()
    assert R._cached_patterns(grammar) == R._lark_patterns(grammar)
