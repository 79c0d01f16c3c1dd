"""Tests for regex.py: Java regex syntax on RE2, re-find / re-matches / re-seq / re-pattern.

CASES were produced by evaluating each source with real Clojure 1.11 (pr-str of the
result); every one must give the same printed result under PTC-Lisp.
"""

from __future__ import annotations

import time

import pytest

from ptc.interpreter.errors import PTCError
from ptc.interpreter.limits import Limits
from ptc.interpreter.lib import regex as R
from ptc.interpreter.printer import pr_str
from ptc.interpreter.values import PList, Regex



from .helpers import run, show  # noqa: E402


# (source, what Clojure 1.11 prints)
CASES = [
    ('(re-find #"\\d+" "ab12cd34")', '"12"'),
    ('(re-find #"(\\d)(x)?" "ab12")', '["1" "1" nil]'),
    ('(re-find #"z" "abc")', 'nil'),
    ('(re-find #"" "abc")', '""'),
    ('(re-find #"(\\w+)@(\\w+)" "mail bob@example now")', '["bob@example" "bob" "example"]'),
    ('(re-find #"(?i)HELLO" "say hello")', '"hello"'),
    ('(re-find #"^abc$" "abc")', '"abc"'),
    ('(re-find #"^b" "ab")', 'nil'),
    ('(re-find #"\\bb" "ab b")', '"b"'),
    ('(re-find #"a.c" "a\\nc abc")', '"abc"'),
    ('(re-find #"(?s)a.c" "a\\nc")', '"a\\nc"'),
    ('(re-find #"(?m)^b" "a\\nb")', '"b"'),
    ('(re-find #"\\p{Alpha}+" "123abc")', '"abc"'),
    ('(re-find #"[\\p{Upper}\\d]+" "abcD9e")', '"D9"'),
    ('(re-find #"\\P{Digit}+" "12ab34")', '"ab"'),
    ('(re-find #"\\p{L}+" "123héllo")', '"héllo"'),
    ('(re-find #"\\p{Lu}" "abcDe")', '"D"'),
    ('(re-find #"\\u00e9" "café")', '"é"'),
    ('(re-find #"\\x41" "xAx")', '"A"'),
    ('(re-find #"\\Qa.b\\E" "axb a.b")', '"a.b"'),
    ('(re-find #"(?<year>\\d{4})-(?<month>\\d\\d)" "on 2024-05-01")', '["2024-05" "2024" "05"]'),
    ('(re-find #"a{2,3}" "aaaa")', '"aaa"'),
    ('(re-find #"a{2,3}?" "aaaa")', '"aa"'),
    ('(re-find #"a+?" "aaa")', '"a"'),
    ('(re-find #"[^]a]" "]ab")', '"b"'),
    ('(re-find #"é+" "caféé!")', '"éé"'),
    ('(re-find #"(é)(x)?" "café")', '["é" "é" nil]'),
    ('(re-find #"\\s+" "a \\t b")', '" \\t "'),
    ('(re-find #"\\w+" "héllo")', '"h"'),
    ('(re-find #"\\\\" "a\\\\b")', '"\\\\"'),
    ('(re-find #"\\t" "a\\tb")', '"\\t"'),
    ('(re-find #"a|b" "cb")', '"b"'),
    ('(re-find #"(a)|(b)" "cb")', '["b" nil "b"]'),
    ('(re-find #"\\d{3}-\\d{4}" "call 555-1234 now")', '"555-1234"'),
    ('(re-matches #"\\d+" "123")', '"123"'),
    ('(re-matches #"\\d+" "123a")', 'nil'),
    ('(re-matches #"(\\d)(\\d)" "12")', '["12" "1" "2"]'),
    ('(re-matches #"(\\d+)-(\\d+)" "10-20")', '["10-20" "10" "20"]'),
    ('(re-matches #"" "")', '""'),
    ('(re-matches #"a*" "")', '""'),
    ('(re-matches #"(a)?b" "b")', '["b" nil]'),
    ('(re-matches #"é+" "éé")', '"éé"'),
    ('(re-matches #"[a-z]+@[a-z]+\\.com" "bob@site.com")', '"bob@site.com"'),
    ('(re-matches #"abc" "abcd")', 'nil'),
    ('(re-seq #"\\d" "a1b2")', '("1" "2")'),
    ('(re-seq #"\\d+" "a1b22c333")', '("1" "22" "333")'),
    ('(re-seq #"z" "abc")', 'nil'),
    ('(re-seq #"(\\w)(\\d)" "a1b2")', '(["a1" "a" "1"] ["b2" "b" "2"])'),
    ('(re-seq #"(\\w)(\\d)" "a1 b2")', '(["a1" "a" "1"] ["b2" "b" "2"])'),
    ('(re-seq #"" "ab")', '("" "" "")'),
    ('(re-seq #"a|" "ba")', '("" "a" "")'),
    ('(re-seq #"a*" "baaac")', '("" "aaa" "" "")'),
    ('(re-seq #"\\w+" "héllo wörld")', '("h" "llo" "w" "rld")'),
    ('(re-seq #"" "é")', '("" "")'),
    ('(re-seq #"(é)|(x)" "éxé")', '(["é" "é" nil] ["x" nil "x"] ["é" "é" nil])'),
    ('(re-seq #"[aeiou]" "education")', '("e" "u" "a" "i" "o")'),
    ('(re-seq #"\\b\\w" "hello big world")', '("h" "b" "w")'),
    ('(count (re-seq #"\\d" "1234567890"))', '10'),
    ('(re-find (re-pattern "\\\\d+") "ab12")', '"12"'),
    ('(re-pattern "a+")', '#"a+"'),
    ('(str (re-pattern "a+"))', '"a+"'),
    ('(re-find (re-pattern "[.]") "a.b")', '"."'),
    ('(re-matches (re-pattern "(?i)abc") "ABC")', '"ABC"'),
    ('(re-find (re-pattern #"a") "cat")', '"a"'),
    ('(str #"a\\d")', '"a\\\\d"'),
]


# Deliberate deviations: (source, PTC-Lisp result)
DEVIATIONS = [
    ('(re-find "b+" "abbc")', '"bb"'),  # a string is accepted as a pattern
    ('(re-find #"[[:alpha:]]+" "12abc")', '"abc"'),  # RE2 reads POSIX classes
    ('(re-find #"a$" "a\\n")', "nil"),  # $ is the very end (Java also matches before a final newline)
    ('(re-find #"a\\Z" "a")', '"a"'),
]


@pytest.mark.parametrize("src,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_clojure(src, expected):
    assert show(src) == expected


@pytest.mark.parametrize("src,expected", DEVIATIONS, ids=[c[0] for c in DEVIATIONS])
def test_deviations(src, expected):
    assert show(src) == expected


UNSUPPORTED = [
    (r"(a)\1", "backreferences"),
    (r"(?<n>a)\k<n>", "named backreferences"),
    (r"a(?=b)", "lookahead/lookbehind"),
    (r"a(?!b)", "lookahead/lookbehind"),
    (r"(?<=a)b", "lookahead/lookbehind"),
    (r"(?<!a)b", "lookahead/lookbehind"),
    (r"(?>a+)b", "atomic groups"),
    (r"a++", "possessive"),
    (r"a*+", "possessive"),
    (r"a?+", "possessive"),
    (r"a{2}+", "possessive"),
]


@pytest.mark.parametrize("pattern,what", UNSUPPORTED, ids=[u[0] for u in UNSUPPORTED])
def test_unsupported_backtracking_constructs(pattern, what):
    with pytest.raises(PTCError) as info:
        R.compile_regex(pattern)
    assert info.value.kind == "runtime"
    assert what in info.value.message
    assert "not supported (RE2 has no backtracking)" in info.value.message


@pytest.mark.parametrize("pattern,what", [
    (r"[a-z&&[^b]]", "intersection"),
    (r"[a[bc]]", "nested character classes"),
    (r"(?x) a b", "comments mode"),
    (r"\p{InGreek}", "unicode block"),
    (r"\G", "\\G"),
    (r"\X", "\\X"),
])
def test_other_unsupported(pattern, what):
    with pytest.raises(PTCError) as info:
        R.compile_regex(pattern)
    assert info.value.kind == "runtime" and what in info.value.message


@pytest.mark.parametrize("pattern", ["(", "a)", "[a", "*a", "a{2,1}", "\\", "\\uZZZZ", "\\p{Nope}"])
def test_invalid_patterns(pattern):
    with pytest.raises(PTCError) as info:
        R.compile_regex(pattern)
    assert info.value.kind == "runtime" and "regex" in info.value.message


def test_unsupported_in_program_literal():
    with pytest.raises(PTCError) as info:
        run('(re-find #"(\\w)\\1" "aa")')
    assert "backreferences" in info.value.message


ERRORS = [
    ('(re-find #"a" nil)', "re-find: expected a string, got nil"),
    ('(re-find #"a" 5)', "re-find: expected a string, got integer 5"),
    ('(re-find 5 "a")', "re-find: expected a regex, got integer 5"),
    ('(re-find nil "a")', "re-find: expected a regex, got nil"),
    ('(re-matches #"a" :a)', "re-matches: expected a string"),
    ('(re-seq #"a" nil)', "re-seq: expected a string"),
    ('(re-pattern 5)', "re-pattern: expected a string"),
    ('(re-pattern nil)', "re-pattern: expected a string"),
    ('(re-pattern "(")', "invalid regex"),
]


@pytest.mark.parametrize("src,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(src, message):
    with pytest.raises(PTCError) as info:
        run(src)
    assert info.value.kind == "runtime"
    assert message in info.value.message


def test_pattern_length_limit():
    with pytest.raises(PTCError) as info:
        run('(re-pattern (apply str (repeat 300 "a")))', limits=Limits(max_regex=100))
    assert info.value.kind == "limit" and "max_regex" in info.value.message
    assert run('(re-find (re-pattern (apply str (repeat 90 "a"))) (apply str (repeat 100 "a")))',
               limits=Limits(max_regex=100)) == "a" * 90


@pytest.mark.timing
def test_no_catastrophic_backtracking():
    t = time.perf_counter()
    assert run('(re-matches #"(a+)+b" (apply str (repeat 5000 "a")))') is None
    assert run('(re-find #"(x+x+)+y" (apply str (repeat 5000 "x")))') is None
    assert run('(re-matches #"(a|aa)*c" (apply str (repeat 3000 "a")))') is None
    assert time.perf_counter() - t < 1.0


def test_translation():
    tr = R._translate
    assert tr(r"\d+") == (r"\d+", None)
    assert tr(r"a\.b") == (r"a\.b", "a.b")
    assert tr(",") == (",", ",")
    assert tr(r"\t") == (r"\t", "\t")
    assert tr("") == ("", None)
    assert tr(r"\Qa.b*\E") == (r"a\.b\*", "a.b*")
    assert tr(r"\u00e9") == (r"\x{00e9}", None)
    assert tr(r"\0101") == (r"\x{41}", None)
    assert tr(r"\p{Alpha}")[0] == "[[:alpha:]]"
    assert tr(r"[\p{Digit}x]")[0] == "[[:digit:]x]"
    assert tr(r"\P{Upper}")[0] == "[^[:upper:]]"
    assert tr(r"[\P{Upper}]")[0] == "[[:^upper:]]"
    assert tr(r"\p{IsLatin}")[0] == r"\p{Latin}"
    assert tr(r"\pL")[0] == r"\p{L}"
    assert tr(r"(?u)a")[0] == "a"
    assert tr(r"(?iU)a")[0] == "(?i)a"
    assert tr(r"(?i:a)")[0] == "(?i:a)"
    assert tr(r"a{2,3}?")[0] == "a{2,3}?"
    assert tr(r"x{")[0] == r"x\{"
    assert tr(r"\Z")[0] == r"\z"


def test_java_features_work():
    assert run('(re-find #"\\h+" "a \\t b")') == " \t "
    assert run('(re-find #"\\R" "a\\r\\nb")') == "\r\n"
    assert run('(re-find #"\\u00e9+" "caf\\u00e9\\u00e9")') == "éé"
    assert run('(re-find #"\\p{Punct}+" "ab!?c")') == "!?"
    assert run('(re-find #"\\p{javaLowerCase}+" "ABcdE")') == "cd"
    assert run('(re-find #"\\e" "a\\u001bb")') == "\x1b"
    assert run('(re-find #"\\cA" "a\\u0001b")') == "\x01"


def test_non_ascii_offsets():
    s = "αβγ δεζ ab ηθ"
    c = R.compile_regex(r"\S+").compiled
    spans = [sp[0] for sp in R.iter_spans(c, s)]
    assert [s[a:b] for a, b in spans] == ["αβγ", "δεζ", "ab", "ηθ"]
    assert R.search(c, s, 4)[0] == (4, 7)
    assert R.fullmatch(R.compile_regex("α.γ").compiled, "αβγ") is not None
    assert run('(re-seq #"." "é😀x")') == PList(["é", "😀", "x"])
    assert run('(re-find #"(😀)(y)?" "a😀b")') == ["😀", "😀", None]


def test_regex_value():
    r = R.compile_regex("a+")
    assert type(r) is Regex and r.source == "a+"
    assert R.re_pattern(r) is r
    assert pr_str(r) == '#"a+"'
    assert R.compile_regex("a+").compiled is r.compiled  # compiled programs are cached
    assert R.compile_regex("a+") is not r  # but each pattern is its own value
    assert r.compiled.groups == 0 and R.compile_regex("(a)(?<n>b)").compiled.groupindex == {"n": 2}


def test_re_seq_many_matches_and_size_limit():
    assert len(run('(re-seq #"\\d" (apply str (repeat 50000 "1a")))')) == 50000
    with pytest.raises(PTCError) as info:
        run('(re-seq #"" (apply str (repeat 5000 "a")))', limits=Limits(max_collection=1000))
    assert info.value.kind == "limit"


@pytest.mark.timing
def test_re_find_fast_path_speed():
    c = R.compile_regex(r"(\d+)-(\w+)")
    t = time.perf_counter()
    for i in range(20000):
        R.re_find(c, "order 12345-abc shipped")
    assert time.perf_counter() - t < 1.0
