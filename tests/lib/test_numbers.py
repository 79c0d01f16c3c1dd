"""Tests for core_numbers, core_predicates and interop (Math/Integer/Double).

CASES were produced by evaluating each source with real Clojure 1.11 (pr-str of the
result); every one must give the same printed result under PTC-Lisp.
"""

from __future__ import annotations

import math

import pytest

from ptc.interpreter.errors import PTCError
from ptc.interpreter.limits import Limits
from ptc.interpreter.lib import core_numbers as N
from ptc.interpreter.lib import core_predicates as P
from ptc.interpreter.lib import interop as I
from ptc.interpreter.values import Keyword, MapEntry, PList, Symbol, make_map, make_set, pvector



from .helpers import run, show  # noqa: E402


# (source, what Clojure 1.11 prints)
CASES = [
    ('(+)', '0'),
    ('(+ 1)', '1'),
    ('(+ 1 2 3 4)', '10'),
    ('(+ 1 2.5)', '3.5'),
    ('(+ 0.1 0.2)', '0.30000000000000004'),
    ('(+ 2147483647 1)', '2147483648'),
    ('(+ 1e308 1e308)', '##Inf'),
    ('(- 5)', '-5'),
    ('(- 5.5)', '-5.5'),
    ('(- 10 3 2)', '5'),
    ('(- 1 2.5)', '-1.5'),
    ('(*)', '1'),
    ('(* 5)', '5'),
    ('(* 2 3 4)', '24'),
    ('(* 2 1.5)', '3.0'),
    ('(* 1e308 10)', '##Inf'),
    ('(* 0 1.5)', '0.0'),
    ('(/ 10 5)', '2'),
    ('(/ 1.0 4)', '0.25'),
    ('(/ 4.0)', '0.25'),
    ('(/ 100 2 5)', '10'),
    ('(/ 1.0 0)', '##Inf'),
    ('(/ 1 0.0)', '##Inf'),
    ('(/ -1 0.0)', '##-Inf'),
    ('(/ 1 -0.0)', '##-Inf'),
    ('(/ 0.0 0)', '##NaN'),
    ('(/ 6 2.0)', '3.0'),
    ('(quot 7 2)', '3'),
    ('(quot -7 2)', '-3'),
    ('(quot 7 -2)', '-3'),
    ('(quot -7 -2)', '3'),
    ('(quot 7.5 2)', '3.0'),
    ('(quot -7.5 2)', '-3.0'),
    ('(rem 7 2)', '1'),
    ('(rem -7 2)', '-1'),
    ('(rem 7 -2)', '1'),
    ('(rem -7 -2)', '-1'),
    ('(rem 7.5 2)', '1.5'),
    ('(rem -7.5 2)', '-1.5'),
    ('(mod 7 2)', '1'),
    ('(mod -7 2)', '1'),
    ('(mod 7 -2)', '-1'),
    ('(mod -7 -2)', '-1'),
    ('(mod -7.5 2)', '0.5'),
    ('(mod 7.5 -2)', '-0.5'),
    ('(mod 0 3)', '0'),
    ('(mod 6 3)', '0'),
    ('(mod -6 3)', '0'),
    ('(inc 1)', '2'),
    ('(inc 1.5)', '2.5'),
    ('(inc -1)', '0'),
    ('(dec 0)', '-1'),
    ('(dec 1.5)', '0.5'),
    ('(max 1 5 3)', '5'),
    ('(max 1 1.0)', '1.0'),
    ('(max 1.0 1)', '1'),
    ('(max 1 2.0)', '2.0'),
    ('(max 2 1.0)', '2'),
    ('(min 1 1.0)', '1.0'),
    ('(min 1.0 1)', '1'),
    ('(min 5 2 8)', '2'),
    ('(max 1 ##NaN)', '##NaN'),
    ('(max ##NaN 1)', '##NaN'),
    ('(min 2 ##NaN 1)', '##NaN'),
    ('(max -1)', '-1'),
    ('(abs -5)', '5'),
    ('(abs 5)', '5'),
    ('(abs -5.5)', '5.5'),
    ('(abs -0.0)', '0.0'),
    ('(= 1)', 'true'),
    ('(= 1 1)', 'true'),
    ('(= 1 1.0)', 'false'),
    ('(= 1 1 1)', 'true'),
    ('(= 1 1 2)', 'false'),
    ("(= [1 2] '(1 2))", 'true'),
    ('(= nil nil)', 'true'),
    ('(= nil false)', 'false'),
    ('(= "a" "a")', 'true'),
    ('(= :a :a)', 'true'),
    ('(= {:a 1} {:a 1})', 'true'),
    ('(= #{1 2} #{2 1})', 'true'),
    ('(not= 1 2)', 'true'),
    ('(not= 1 1)', 'false'),
    ('(not= 1 1 2)', 'true'),
    ('(not= 1)', 'false'),
    ('(== 1 1.0)', 'true'),
    ('(== 1 2)', 'false'),
    ('(== 1)', 'true'),
    ('(== 2 2 2.0)', 'true'),
    ('(< 1)', 'true'),
    ('(< 1 2)', 'true'),
    ('(< 1 2 3)', 'true'),
    ('(< 1 3 2)', 'false'),
    ('(< 1 1)', 'false'),
    ('(<= 1 1 2)', 'true'),
    ('(<= 2 1)', 'false'),
    ('(> 3 2 1)', 'true'),
    ('(> 1 2)', 'false'),
    ('(>= 3 3 1)', 'true'),
    ('(>= 1 2)', 'false'),
    ('(< 1 2.5)', 'true'),
    ('(< 1 ##NaN)', 'false'),
    ('(> ##Inf 1e308)', 'true'),
    ('(compare 1 2)', '-1'),
    ('(compare 2 1)', '1'),
    ('(compare 1 1)', '0'),
    ('(compare 1 1.0)', '0'),
    ('(compare 2 1.5)', '1'),
    ('(compare "a" "c")', '-2'),
    ('(compare "abc" "ab")', '1'),
    ('(compare "ab" "abc")', '-1'),
    ('(compare "b" "a")', '1'),
    ('(compare "" "")', '0'),
    ('(compare "\uffff" "\U0001F600")', '10178'),  # Java compares UTF-16 units: U+FFFF > U+D83D
    ('(compare "\U0001F600" "\U0001F601")', '-1'),  # the low surrogates differ
    ('(compare "a\U0001F600" "a")', '2'),  # lengths in UTF-16 units
    ('(.compareTo "\uffff" "\U0001F600")', '10178'),
    ('(compare :a :c)', '-2'),
    ('(compare :a :a)', '0'),
    ('(compare :b/a :a)', '1'),
    ('(compare :a :b/a)', '-1'),
    ('(compare :x/a :y/a)', '-1'),
    ('(compare nil 1)', '-1'),
    ('(compare 1 nil)', '1'),
    ('(compare nil nil)', '0'),
    ('(compare nil "a")', '-1'),
    ('(compare [1 2] [1 3])', '-1'),
    ('(compare [1 2 3] [5])', '1'),
    ('(compare [5] [1 2 3])', '-1'),
    ('(compare [1 "a"] [1 "c"])', '-2'),
    ('(compare [] [])', '0'),
    ('(compare true false)', '1'),
    ('(compare false true)', '-1'),
    ('(compare false false)', '0'),
    ('(compare ##NaN 1)', '0'),
    ('(zero? 0)', 'true'),
    ('(zero? 0.0)', 'true'),
    ('(zero? -0.0)', 'true'),
    ('(zero? 1)', 'false'),
    ('(pos? 1)', 'true'),
    ('(pos? 0)', 'false'),
    ('(pos? -0.5)', 'false'),
    ('(neg? -1)', 'true'),
    ('(neg? 0)', 'false'),
    ('(even? 0)', 'true'),
    ('(even? 4)', 'true'),
    ('(even? -3)', 'false'),
    ('(odd? 3)', 'true'),
    ('(odd? -3)', 'true'),
    ('(odd? 4)', 'false'),
    ('(number? 1)', 'true'),
    ('(number? 1.5)', 'true'),
    ('(number? "1")', 'false'),
    ('(number? nil)', 'false'),
    ('(integer? 1)', 'true'),
    ('(integer? 1.0)', 'false'),
    ('(int? 1)', 'true'),
    ('(int? 1.0)', 'false'),
    ('(float? 1.0)', 'true'),
    ('(float? 1)', 'false'),
    ('(double? 1.5)', 'true'),
    ('(nat-int? 0)', 'true'),
    ('(nat-int? -1)', 'false'),
    ('(pos-int? 0)', 'false'),
    ('(pos-int? 3)', 'true'),
    ('(neg-int? -1)', 'true'),
    ('(neg-int? 0)', 'false'),
    ('(NaN? ##NaN)', 'true'),
    ('(NaN? 1)', 'false'),
    ('(NaN? 1.0)', 'false'),
    ('(infinite? ##Inf)', 'true'),
    ('(infinite? ##-Inf)', 'true'),
    ('(infinite? 1.0)', 'false'),
    ('(int 2.7)', '2'),
    ('(int -2.7)', '-2'),
    ('(int 5)', '5'),
    ('(int ##NaN)', '0'),
    ('(int \\a)', '97'),
    ('(long 3.99)', '3'),
    ('(long 3e9)', '3000000000'),
    ('(double 1)', '1.0'),
    ('(double 2.5)', '2.5'),
    ('(float 1)', '1.0'),
    ('(num 3)', '3'),
    ('(num 1.5)', '1.5'),
    ('(bit-and 12 10)', '8'),
    ('(bit-and 12 10 6)', '0'),
    ('(bit-or 12 10)', '14'),
    ('(bit-xor 12 10)', '6'),
    ('(bit-xor 5 3)', '6'),
    ('(bit-and-not 7 2)', '5'),
    ('(bit-not 0)', '-1'),
    ('(bit-not 5)', '-6'),
    ('(bit-shift-left 1 10)', '1024'),
    ('(bit-shift-left 1 63)', '-9223372036854775808'),
    ('(bit-shift-left 1 64)', '1'),
    ('(bit-shift-left 3 62)', '-4611686018427387904'),
    ('(bit-shift-right 1024 3)', '128'),
    ('(bit-shift-right -8 1)', '-4'),
    ('(unsigned-bit-shift-right -8 60)', '15'),
    ('(unsigned-bit-shift-right 8 1)', '4'),
    ('(bit-test 5 0)', 'true'),
    ('(bit-test 5 1)', 'false'),
    ('(bit-set 0 3)', '8'),
    ('(bit-clear 5 0)', '4'),
    ('(bit-flip 5 1)', '7'),
    ('(rand-int 1)', '0'),
    ('(<= 0 (rand-int 10) 9)', 'true'),
    ('(let [r (rand)] (and (<= 0 r) (< r 1)))', 'true'),
    ('(let [r (rand 5)] (and (<= 0 r) (< r 5)))', 'true'),
    ('(apply + (range 101))', '5050'),
    ('(apply * (range 1 11))', '3628800'),
    ('(reduce max [3 9 2])', '9'),
    ('(nil? nil)', 'true'),
    ('(nil? false)', 'false'),
    ('(some? 0)', 'true'),
    ('(some? nil)', 'false'),
    ('(some? false)', 'true'),
    ('(true? true)', 'true'),
    ('(true? 1)', 'false'),
    ('(false? false)', 'true'),
    ('(false? nil)', 'false'),
    ('(not nil)', 'true'),
    ('(not false)', 'true'),
    ('(not 0)', 'false'),
    ('(not "")', 'false'),
    ('(string? "a")', 'true'),
    ('(string? :a)', 'false'),
    ('(string? nil)', 'false'),
    ('(keyword? :a)', 'true'),
    ('(keyword? "a")', 'false'),
    ("(symbol? 'a)", 'true'),
    ('(symbol? :a)', 'false'),
    ('(ident? :a)', 'true'),
    ("(ident? 'a)", 'true'),
    ('(ident? "a")', 'false'),
    ('(simple-keyword? :a)', 'true'),
    ('(simple-keyword? :a/b)', 'false'),
    ('(qualified-keyword? :a/b)', 'true'),
    ('(qualified-keyword? :a)', 'false'),
    ("(simple-symbol? 'a)", 'true'),
    ("(qualified-symbol? 'a/b)", 'true'),
    ('(boolean? false)', 'true'),
    ('(boolean? nil)', 'false'),
    ('(boolean? 0)', 'false'),
    ('(map? {:a 1})', 'true'),
    ('(map? {})', 'true'),
    ('(map? [1])', 'false'),
    ('(vector? [1])', 'true'),
    ("(vector? '(1))", 'false'),
    ('(vector? (first {:a 1}))', 'true'),
    ('(map-entry? (first {:a 1}))', 'true'),
    ('(map-entry? [:a 1])', 'false'),
    ("(list? '(1 2))", 'true'),
    ('(list? [1])', 'false'),
    ('(set? #{1})', 'true'),
    ('(set? [1])', 'false'),
    ("(seq? '(1))", 'true'),
    ('(seq? [1])', 'false'),
    ('(seq? nil)', 'false'),
    ('(coll? [1])', 'true'),
    ('(coll? {})', 'true'),
    ('(coll? #{})', 'true'),
    ("(coll? '())", 'true'),
    ('(coll? "abc")', 'false'),
    ('(coll? nil)', 'false'),
    ('(sequential? [1])', 'true'),
    ("(sequential? '(1))", 'true'),
    ('(sequential? #{1})', 'false'),
    ('(sequential? {:a 1})', 'false'),
    ('(sequential? "ab")', 'false'),
    ('(associative? {:a 1})', 'true'),
    ('(associative? [1])', 'true'),
    ("(associative? '(1))", 'false'),
    ('(indexed? [1])', 'true'),
    ("(indexed? '(1))", 'false'),
    ('(counted? [1 2])', 'true'),
    ('(counted? {:a 1})', 'true'),
    ('(counted? "ab")', 'false'),
    ('(seqable? "abc")', 'true'),
    ('(seqable? nil)', 'true'),
    ('(seqable? [1])', 'true'),
    ('(seqable? 1)', 'false'),
    ('(fn? inc)', 'true'),
    ('(fn? (fn [x] x))', 'true'),
    ('(fn? #(+ % 1))', 'true'),
    ('(fn? :a)', 'false'),
    ('(fn? {:a 1})', 'false'),
    ('(fn? #{1})', 'false'),
    ('(fn? [1])', 'false'),
    ('(fn? "a")', 'false'),
    ('(fn? nil)', 'false'),
    ('(ifn? inc)', 'true'),
    ('(ifn? :a)', 'true'),
    ('(ifn? {:a 1})', 'true'),
    ('(ifn? #{1})', 'true'),
    ('(ifn? [1])', 'true'),
    ('(ifn? "a")', 'false'),
    ('(ifn? 1)', 'false'),
    ('(ifn? nil)', 'false'),
    ("(ifn? '(1))", 'false'),
    ('(char? \\a)', 'true'),
    ('(char? 97)', 'false'),
    ('(identical? :a :a)', 'true'),
    ('(identical? [1] [1])', 'false'),
    ('(identical? nil nil)', 'true'),
    ('(any? nil)', 'true'),
    ('(any? 1)', 'true'),
    ('(distinct? 1)', 'true'),
    ('(distinct? 1 2)', 'true'),
    ('(distinct? 1 1)', 'false'),
    ('(distinct? 1 2 3)', 'true'),
    ('(distinct? 1 2 1)', 'false'),
    ('(distinct? 1 1.0)', 'true'),
    ("(distinct? [1 2] '(1 2) 3)", 'false'),
    ('(distinct? "a" :a \'a)', 'true'),
    ('(distinct? nil false)', 'true'),
    ('(distinct? {:a 1} {:a 1} 2)', 'false'),
    ('(apply distinct? (range 100))', 'true'),
    ('(apply distinct? (conj (vec (range 100)) 5))', 'false'),
    ('(Math/floor 5)', '5.0'),
    ('(Math/floor 2.7)', '2.0'),
    ('(Math/floor -2.5)', '-3.0'),
    ('(Math/ceil 2.1)', '3.0'),
    ('(Math/ceil -0.5)', '-0.0'),
    ('(Math/rint 2.5)', '2.0'),
    ('(Math/rint 3.5)', '4.0'),
    ('(Math/round 2.5)', '3'),
    ('(Math/round -2.5)', '-2'),
    ('(Math/round 2.4)', '2'),
    ('(Math/round -2.6)', '-3'),
    ('(Math/round ##NaN)', '0'),
    ('(Math/round 1e20)', '9223372036854775807'),
    ('(Math/round -1e20)', '-9223372036854775808'),
    ('(Math/round 0.49999999999999994)', '0'),
    ('(Math/abs -5)', '5'),
    ('(Math/abs -5.5)', '5.5'),
    ('(Math/sqrt -1)', '##NaN'),
    ('(Math/sqrt 16)', '4.0'),
    ('(Math/sqrt 2)', '1.4142135623730951'),
    ('(Math/cbrt 27)', '3.0'),
    ('(Math/cbrt -8)', '-2.0'),
    ('(Math/pow 2 10)', '1024.0'),
    ('(Math/pow 2 0.5)', '1.4142135623730951'),
    ('(Math/pow 10 400)', '##Inf'),
    ('(Math/pow -10 401)', '##-Inf'),
    ('(Math/pow -8 (/ 1.0 3))', '##NaN'),
    ('(Math/pow 0 -1)', '##Inf'),
    ('(Math/pow -0.0 -1)', '##-Inf'),
    ('(Math/pow -0.0 -2)', '##Inf'),
    ('(Math/pow 2 -1)', '0.5'),
    ('(Math/pow 1 ##NaN)', '##NaN'),
    ('(Math/pow 1 ##Inf)', '##NaN'),
    ('(Math/pow ##NaN 0)', '1.0'),
    ('(Math/pow 0 0)', '1.0'),
    ('(Math/exp 0)', '1.0'),
    ('(Math/exp 1)', '2.718281828459045'),
    ('(Math/exp 1000)', '##Inf'),
    ('(Math/exp -1000)', '0.0'),
    ('(Math/log 0)', '##-Inf'),
    ('(Math/log -1)', '##NaN'),
    ('(Math/log 1)', '0.0'),
    ('(Math/log Math/E)', '1.0'),
    ('(Math/log10 1000)', '3.0'),
    ('(Math/log10 0)', '##-Inf'),
    ('(Math/log1p 0)', '0.0'),
    ('(Math/expm1 0)', '0.0'),
    ('(Math/sin 0)', '0.0'),
    ('(Math/sin ##Inf)', '##NaN'),
    ('(Math/cos 0)', '1.0'),
    ('(Math/tan 0)', '0.0'),
    ('(Math/asin 2)', '##NaN'),
    ('(Math/acos 1)', '0.0'),
    ('(Math/atan 1)', '0.7853981633974483'),
    ('(Math/atan2 1 1)', '0.7853981633974483'),
    ('(Math/atan2 0 1)', '0.0'),
    ('(Math/sinh 1000)', '##Inf'),
    ('(Math/sinh -1000)', '##-Inf'),
    ('(Math/cosh 0)', '1.0'),
    ('(Math/tanh 0)', '0.0'),
    ('(Math/hypot 3 4)', '5.0'),
    ('(Math/toRadians 180)', '3.141592653589793'),
    ('(Math/toDegrees Math/PI)', '180.0'),
    ('(Math/signum -5.0)', '-1.0'),
    ('(Math/signum 0.0)', '0.0'),
    ('(Math/signum 2.5)', '1.0'),
    ('(Math/max 1 2)', '2'),
    ('(Math/min 1 2)', '1'),
    ('(Math/max 1.5 -2.0)', '1.5'),
    ('(Math/min 1.5 -2.0)', '-2.0'),
    ('(Math/max -0.0 0.0)', '0.0'),
    ('(Math/min -0.0 0.0)', '-0.0'),
    ('(Math/floorDiv -7 2)', '-4'),
    ('(Math/floorDiv 7 2)', '3'),
    ('(Math/floorMod -7 2)', '1'),
    ('(Math/floorMod 7 -2)', '-1'),
    ('(< (Math/random) 1)', 'true'),
    ('Math/PI', '3.141592653589793'),
    ('Math/E', '2.718281828459045'),
    ('(Integer/parseInt "42")', '42'),
    ('(Integer/parseInt "-42")', '-42'),
    ('(Integer/parseInt "+7")', '7'),
    ('(Integer/parseInt "ff" 16)', '255'),
    ('(Integer/parseInt "-ff" 16)', '-255'),
    ('(Integer/parseInt "101" 2)', '5'),
    ('(Integer/parseInt "2147483647")', '2147483647'),
    ('(Long/parseLong "3000000000")', '3000000000'),
    ('(Long/parseLong "-9223372036854775808")', '-9223372036854775808'),
    ('(Integer/valueOf "12")', '12'),
    ('(Long/valueOf "7")', '7'),
    ('(Double/parseDouble "1.5")', '1.5'),
    ('(Double/parseDouble " 1.5 ")', '1.5'),
    ('(Double/parseDouble "2")', '2.0'),
    ('(Double/parseDouble "1e3")', '1000.0'),
    ('(Double/parseDouble "-Infinity")', '##-Inf'),
    ('(Double/parseDouble "1d")', '1.0'),
    ('(Double/valueOf "1.5")', '1.5'),
    ('(Double/isNaN ##NaN)', 'true'),
    ('(Double/isNaN 1.0)', 'false'),
    ('(Double/isInfinite ##-Inf)', 'true'),
    ('(Double/isInfinite 1.0)', 'false'),
    ('Integer/MAX_VALUE', '2147483647'),
    ('Integer/MIN_VALUE', '-2147483648'),
    ('Long/MAX_VALUE', '9223372036854775807'),
    ('Long/MIN_VALUE', '-9223372036854775808'),
    ('Double/MAX_VALUE', '1.7976931348623157E308'),
    ('(sort [3 1 2])', '(1 2 3)'),
    ('(sort ["b" "a" "c"])', '("a" "b" "c")'),
    ('(sort [[1 2] [1] [0 5]])', '([1] [0 5] [1 2])'),
    ('(sort [:b :a :c])', '(:a :b :c)'),
    ('(sort [3 nil 1])', '(nil 1 3)'),
    ('(sort [true false])', '(false true)'),
    ('(sort-by :a [{:a 2} {:a 1}])', '({:a 1} {:a 2})'),
]


# Deliberate deviations: (source, PTC-Lisp result)
DEVIATIONS = [
    ("(/ 10 4)", "2.5"),  # no ratios
    ("(/ 4)", "0.25"),
    ("(/ 1 3)", "0.3333333333333333"),
    ("(* 3037000500 3037000500)", "9223372037000250000"),  # arbitrary precision, no overflow error
    ("(+ 9223372036854775807 1)", "9223372036854775808"),
    ("(int 3e9)", "3000000000"),  # no 32-bit range check
    ("(int \"a\")", "97"),  # characters are one-character strings
    ("(char? \"a\")", "true"),
    ("(Math/round 5)", "5"),  # Java reflection would refuse these
    ("(Math/signum 5)", "1.0"),
    ("(Math/max 1 2.0)", "2.0"),
    ("(Math/min 1 ##NaN)", "##NaN"),
]


@pytest.mark.parametrize("src,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_clojure(src, expected):
    assert show(src) == expected


@pytest.mark.parametrize("src,expected", DEVIATIONS, ids=[c[0] for c in DEVIATIONS])
def test_deviations(src, expected):
    assert show(src) == expected


ERRORS = [
    ("(+ 1 nil)", "+: expected a number, got nil"),
    ("(+ 1 \"a\")", "+: expected a number, got string"),
    ("(+ true 1)", "+: expected a number, got boolean"),
    ("(+ \"a\")", "+: expected a number"),
    ("(- \"a\")", "-: expected a number"),
    ("(- 1 :a)", "-: expected a number, got keyword :a"),
    ("(* 2 [1])", "*: expected a number, got vector"),
    ("(*  [1])", "*: expected a number"),
    ("(/ 1 0)", "Divide by zero"),
    ("(/ 0)", "Divide by zero"),
    ("(/ 1 nil)", "/: expected a number"),
    ("(quot 1 0)", "Divide by zero"),
    ("(quot 1.0 0)", "Divide by zero"),
    ("(rem 1 0)", "Divide by zero"),
    ("(mod 1 0)", "Divide by zero"),
    ("(mod 1.0 0.0)", "Divide by zero"),
    ("(quot \"a\" 1)", "quot: expected a number"),
    ("(rem 1 nil)", "rem: expected a number"),
    ("(mod nil 1)", "mod: expected a number"),
    ("(inc nil)", "inc: expected a number, got nil"),
    ("(inc true)", "inc: expected a number, got boolean"),
    ("(dec \"1\")", "dec: expected a number"),
    ("(max \"a\" \"b\")", "max: expected a number"),
    ("(max \"a\")", "max: expected a number"),
    ("(min 1 nil)", "min: expected a number"),
    ("(abs nil)", "abs: expected a number"),
    ("(< \"a\" \"b\")", "<: expected a number, got string"),
    ("(< 1 2 nil)", "<: expected a number, got nil"),
    ("(> :a 1)", ">: expected a number, got keyword"),
    ("(<= 1 [2])", "<=: expected a number"),
    ("(>= nil 1)", ">=: expected a number"),
    ("(== 1 \"a\")", "==: expected a number"),
    ("(compare 1 \"a\")", "compare: cannot compare"),
    ("(compare \"a\" :a)", "compare: cannot compare"),
    ("(compare '(1) '(2))", "compare: cannot compare list"),
    ("(compare {:a 1} {:a 1})", "compare: cannot compare map"),
    ("(compare #{1} #{2})", "compare: cannot compare set"),
    ("(compare [1 \"a\"] [1 2])", "compare: cannot compare"),
    ("(zero? \"a\")", "zero?: expected a number"),
    ("(pos? nil)", "pos?: expected a number"),
    ("(neg? :a)", "neg?: expected a number"),
    ("(even? 2.0)", "even?: argument must be an integer"),
    ("(odd? nil)", "odd?: argument must be an integer"),
    ("(NaN? \"a\")", "NaN?: expected a number"),
    ("(infinite? nil)", "infinite?: expected a number"),
    ("(int \"ab\")", "int: expected a number or a character"),
    ("(int nil)", "int: expected a number"),
    ("(long ##Inf)", "long: value out of range"),
    ("(double \"1\")", "double: expected a number"),
    ("(num \"a\")", "num: expected a number"),
    ("(rand-int \"a\")", "rand-int: expected a number"),
    ("(bit-and 1.5 1)", "bit-and: bit operations need an integer"),
    ("(bit-or 1 nil)", "bit-or: bit operations need an integer"),
    ("(bit-shift-left 1 1.5)", "bit-shift-left: shift count must be an integer"),
    ("(bit-not 100000000000000000000000)", "bit-not: bit operations need a 64-bit integer"),
    ("(Math/sqrt \"a\")", "Math/sqrt: expected a number"),
    ("(Math/floor nil)", "Math/floor: expected a number, got nil"),
    ("(Math/pow 2 :a)", "Math/pow: expected a number"),
    ("(Math/round \"1\")", "Math/round: expected a number"),
    ("(Math/abs nil)", "Math/abs: expected a number"),
    ("(Math/max \"a\" 1)", "Math/max: expected a number"),
    ("(Math/floorDiv 1 0)", "Divide by zero"),
    ("(Math/floorMod 1.5 1)", "Math/floorMod: expected integers"),
    ("(Integer/parseInt \"3000000000\")", "Integer/parseInt: cannot parse"),
    ("(Integer/parseInt \" 1\")", "Integer/parseInt: cannot parse"),
    ("(Integer/parseInt \"1a\")", "Integer/parseInt: cannot parse"),
    ("(Integer/parseInt \"1_0\")", "Integer/parseInt: cannot parse"),
    ("(Integer/parseInt \"\")", "Integer/parseInt: cannot parse"),
    ("(Integer/parseInt 12)", "Integer/parseInt: expected a string"),
    ("(Integer/parseInt \"12\" 99)", "radix must be"),
    ("(Long/parseLong \"9223372036854775808\")", "Long/parseLong: cannot parse"),
    ("(Double/parseDouble \"abc\")", "Double/parseDouble: cannot parse"),
    ("(Double/parseDouble nil)", "Double/parseDouble: expected a string"),
    ("(Double/isNaN \"x\")", "Double/isNaN: expected a number"),
]


@pytest.mark.parametrize("src,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(src, message):
    with pytest.raises(PTCError) as info:
        run(src)
    assert info.value.kind == "runtime"
    assert message in info.value.message


# -- direct calls ---------------------------------------------------------------------


def test_int_float_types():
    assert type(N.add(1, 2)) is int
    assert type(N.add(1, 2.0)) is float
    assert type(N.div(10, 5)) is int and N.div(10, 5) == 2
    assert N.div(10, 4) == 2.5
    assert N.div(-10, 4) == -2.5
    assert type(N.mul(2, 3)) is int
    assert N.sub(3) == -3 and N.sub(3.0) == -3.0
    assert N.add() == 0 and N.mul() == 1
    assert N.add(5) == 5 and N.mul(5) == 5


def test_huge_int_with_float_does_not_overflow():
    big = 1 << 2000
    assert N.add(big, 1.5) == math.inf
    assert N.add(-big, 1.5) == -math.inf
    assert N.mul(big, 2.0) == math.inf
    assert N.div(1.0, big) == 0.0
    assert N.div(big, 3) == math.inf  # not exact: a float that overflows
    assert N.div(big, 1 << 1999) == 2
    assert N.quot(big, 2.0) == math.inf
    assert N.to_float(big) == math.inf and N.to_float(-big) == -math.inf
    assert N.double(big) == math.inf


def test_bigint_guard():
    with pytest.raises(PTCError) as info:
        run("(loop [x 2 i 0] (if (< i 100) (recur (* x x) (inc i)) x))")
    assert info.value.kind == "limit" and "max_int_bits" in info.value.message
    with pytest.raises(PTCError):
        run("(reduce * (range 1 5000))")
    with pytest.raises(PTCError):
        N.add(1 << 8191, 1 << 8191)
    with pytest.raises(PTCError):
        N.sub(-(1 << 8191), 1 << 8191)
    with pytest.raises(PTCError):
        N.mul(1 << 5000, 1 << 5000)
    with pytest.raises(PTCError):
        N.inc((1 << 8192) - 1)
    # within the limit: exact big integers
    assert run("(reduce * (range 1 30))") == math.factorial(29)
    assert run("(inc 9223372036854775807)") == 1 << 63
    assert run("(dec -9223372036854775808)") == -(1 << 63) - 1
    assert run("(* 4611686018427387904 4)") == 1 << 64
    assert run("(- (- 9223372036854775807) 10)") == -(1 << 63) - 9


def test_bigint_guard_inlined_add():
    with pytest.raises(PTCError) as info:
        run("(loop [x 1 i 0] (if (< i 10000) (recur (+ x x) (inc i)) x))")
    assert info.value.kind == "limit"


def test_small_int_limit():
    lim = Limits(max_int_bits=64)
    assert run("(* 4294967296 2147483647)", limits=lim) == 4294967296 * 2147483647
    with pytest.raises(PTCError):
        run("(* 18446744073709551616 18446744073709551616)", limits=lim)
    with pytest.raises(PTCError):
        run("(apply + [18446744073709551615 18446744073709551615])", limits=lim)


def test_variadic_comparisons_direct():
    assert N.cmp_lt(1, 2, 3) and not N.cmp_lt(1, 3, 2)
    assert N.cmp_le(1, 1, 1) and N.cmp_ge(3, 3, 1) and N.cmp_gt(3, 2, 1)
    assert N.cmp_lt("anything") is True  # one argument: true, as Clojure
    assert N.eq(1) and N.eq(1, 1, 1) and not N.eq(1, 1, 2) and not N.eq(1, 1.0)
    assert N.num_eq(1, 1.0, 1)
    assert not N.cmp_lt(1, float("nan"))
    assert not N.cmp_gt(float("nan"), 1)


def test_max_min_clojure_tie_rules():
    assert type(N.max_(1, 1.0)) is float
    assert type(N.max_(1.0, 1)) is int
    assert type(N.min_(1, 1.0)) is float
    assert math.isnan(N.max_(1, float("nan"), 5))
    assert math.isnan(N.min_(float("nan"), 1))
    assert N.max_(-5) == -5


def test_compare_values():
    cv = N.compare_values
    assert cv(None, None) == 0 and cv(None, 1) == -1 and cv("a", None) == 1
    assert cv(1, 2.5) == -1 and cv(2.5, 1) == 1 and cv(1, 1.0) == 0
    assert cv("apple", "b") == -1 and cv("a", "c") == -2 and cv("abc", "ab") == 1
    assert cv(Keyword("a"), Keyword("b")) < 0
    assert cv(Keyword("z"), Keyword("a/b")) < 0  # no namespace sorts first
    assert cv(Keyword("a/z"), Keyword("b/a")) < 0
    assert cv(Symbol("b"), Symbol("a")) > 0
    assert cv(pvector([1, 2]), pvector([1, 3])) == -1
    assert cv(pvector([9]), pvector([1, 1])) == -1
    assert cv(MapEntry((Keyword("a"), 1)), pvector([Keyword("a"), 2])) == -1
    assert cv(False, True) == -1 and cv(True, True) == 0
    assert cv(float("nan"), 1) == 0
    same = PList([1])
    assert cv(same, same) == 0  # identical objects compare equal even if not comparable
    with pytest.raises(PTCError):
        cv(PList([1]), PList([2]))
    with pytest.raises(PTCError):
        cv(make_map({1: 2}), make_map({1: 2}))
    with pytest.raises(PTCError):
        cv(1, Keyword("a"))
    # sorting with compare_values matches Clojure's sort order
    import functools

    items = [3, None, 1.5, -2]
    assert sorted(items, key=functools.cmp_to_key(cv)) == [None, -2, 1.5, 3]


def test_float_division_by_zero():
    assert N.div(1.0, 0) == math.inf
    assert N.div(-1.0, 0) == -math.inf
    assert N.div(1, -0.0) == -math.inf
    assert N.div(-1, -0.0) == math.inf
    assert math.isnan(N.div(0.0, 0))
    assert math.isnan(N.div(float("nan"), 0.0))
    assert N.div(float("inf"), 0) == math.inf


def test_quot_rem_mod_identities():
    for a in range(-9, 10):
        for b in (-4, -3, -1, 1, 2, 5):
            q, r, m = N.quot(a, b), N.rem(a, b), N.mod(a, b)
            assert q * b + r == a
            assert r == 0 or (r < 0) == (a < 0)
            assert m == 0 or (m < 0) == (b < 0)
            assert (m - r) % b == 0
            assert N.rem(float(a), float(b)) == float(r)
            assert N.mod(float(a), float(b)) == float(m)
            assert N.quot(float(a), float(b)) == float(q)


def test_bit_ops_are_64_bit():
    assert N.bit_shift_left(1, 63) == -(1 << 63)
    assert N.bit_shift_left(1, 64) == 1
    assert N.bit_shift_left(-1, 1) == -2
    assert N.bit_not((1 << 63) - 1) == -(1 << 63)
    assert N.unsigned_bit_shift_right(-1, 0) == -1
    assert N.unsigned_bit_shift_right(-1, 1) == (1 << 63) - 1
    assert N.bit_and(-1, 255) == 255
    assert N.bit_test(-1, 63) is True
    assert N.bit_set(0, 63) == -(1 << 63)
    # a 64-bit FNV-1a style hash stays in range
    h = -3750763034362895579
    for ch in "hello":
        h = N.bit_xor(h, ord(ch))
        h = N._wrap(h * 1099511628211)
    assert -(1 << 63) <= h < (1 << 63)


def test_conversions():
    assert N.int_(2.99) == 2 and N.int_(-2.99) == -2 and N.long_(-0.5) == 0
    assert N.int_(float("nan")) == 0
    assert N.int_(1e20) == 100000000000000000000
    assert N.int_("λ") == 955
    assert N.double(3) == 3.0 and type(N.float_(3)) is float
    with pytest.raises(PTCError):
        N.num(True)
    with pytest.raises(PTCError):
        N.int_(float("-inf"))


def test_predicates_direct():
    assert P.char_p("a") and not P.char_p("ab") and not P.char_p(97)
    assert P.fn_p(len) and P.fn_p(lambda: 1)
    assert not P.fn_p(Keyword("a")) and not P.fn_p(make_map({})) and not P.fn_p(make_set([1]))
    assert P.ifn_p(pvector([1])) and P.ifn_p(make_map({})) and P.ifn_p(Keyword("a"))
    assert not P.ifn_p(PList([1])) and not P.ifn_p(None)
    assert P.coll_p(make_map({i: i for i in range(40)}))  # large HAMT map
    assert P.map_p(make_map({i: i for i in range(40)}))
    assert P.set_p(make_set(range(40)))
    assert P.seq_p(PList()) and not P.seq_p(pvector())
    assert P.vector_p(MapEntry((1, 2))) and P.map_entry_p(MapEntry((1, 2)))
    assert P.boolean_p(True) and not P.boolean_p(1)
    assert P.not_(None) and P.not_(False) and not P.not_(0) and not P.not_("")
    assert P.identical_p(Keyword("q"), Keyword("q"))
    assert not P.identical_p(1, True)


def test_distinct_many():
    assert P.distinct_p(*range(10000))
    assert not P.distinct_p(*range(10000), 5)
    assert P.distinct_p(1, 1.0, True, "1", Keyword("1"))
    assert not P.distinct_p(pvector([1, 2]), 3, PList([1, 2]))
    assert P.distinct_p(pvector([1]), pvector([2]), pvector([1.0]))
    assert not P.distinct_p(None, 1, None)


def test_interop_direct():
    assert I.CONSTANTS["Math/PI"] == math.pi
    assert I.CONSTANTS["Long/MAX_VALUE"] == (1 << 63) - 1
    assert I.CONSTANTS["Integer/MAX_VALUE"] == (1 << 31) - 1
    assert math.isnan(I.CONSTANTS["Double/NaN"])
    assert I.math_pow(2, 10000) == math.inf
    assert I.math_pow(-2, 10001) == -math.inf
    assert I.math_pow(1 << 5000, 2) == math.inf  # bigint argument
    assert I.math_round(0.5) == 1 and I.math_round(-0.5) == 0 and I.math_round(-0.51) == -1
    assert I.math_round(float("inf")) == (1 << 63) - 1
    assert I.math_round(4503599627370497.0) == 4503599627370497
    assert I.math_round(1 << 70) == 1 << 70
    assert I.math_max(1, 2) == 2 and type(I.math_max(1, 2.0)) is float
    assert math.copysign(1, I.math_min(0.0, -0.0)) < 0
    assert I.parse_int("-2147483648") == -(1 << 31)
    assert I.parse_int("zz", 36) == 1295
    assert I.value_of(5) == 5


def test_math_one_arg_functions_never_raise_python_errors():
    from ptc.interpreter.registry import REGISTRY

    names = [k for k, b in REGISTRY.items() if k.startswith("Math/") and b.arglists == ("[a]",)]
    assert len(names) > 15
    for name in names:
        f = REGISTRY[name].fn
        for x in (0, -0.0, 1, -1, 0.5, -2.5, 1e308, -1e308, math.inf, -math.inf, math.nan, 1 << 3000, 10**20):
            r = f(x)
            assert type(r) in (int, float), (name, x, r)


@pytest.mark.timing
def test_fast_paths_are_fast():
    import time

    t = time.perf_counter()
    for i in range(100000):
        N.add(i, 1)
        N.cmp_lt(i, 5)
        N.inc(i)
        N.mul(i, 3)
    assert time.perf_counter() - t < 1.0
