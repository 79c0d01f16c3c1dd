"""Laziness as Clojure's: how much of a seq each function realizes (probes with expected values
from real Clojure, tests/conformance/laziness.py), infinite seqs, and what a lazy seq may do
outside a program run."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

import ptc
from ptc import Limits, PTCError
from ptc.interpreter.printer import pr_str

PROBES = json.loads((Path(__file__).resolve().parents[1] / "conformance" / "laziness.json").read_text())
BY_FUNCTION: dict[str, list[dict]] = defaultdict(list)
for _p in PROBES:
    BY_FUNCTION[_p["function"]].append(_p)


def outcome(source: str) -> str:
    try:
        return pr_str(ptc.run(source).value)
    except PTCError as e:
        return f"error[{e.kind}]"


@pytest.mark.parametrize("function", sorted(BY_FUNCTION))
def test_realizes_what_clojure_realizes(function: str) -> None:
    wrong = []
    for p in BY_FUNCTION[function]:
        got = outcome(p["source"])
        want = "error[runtime]" if "error" in p else p["expected"]
        if got != want:
            wrong.append(f"{p['source']}: Clojure {want}, ptc {got}")
    assert not wrong, "\n".join(wrong)


def test_prefixes_of_infinite_and_throwing_seqs() -> None:
    cases = {
        "(take 2 (cycle (map #(/ 10 %) [1 2 0])))": None,  # a chunk of 3: the 0 is computed
        "(take 2 (cycle (map #(/ 10 %) (list 1 2 0))))": "(10 5)",
        "(take 3 (for [x (range) :when (odd? x)] (* x x)))": "(1 9 25)",
        "(take 3 (for [x (range) y (range x) :while (< y 2)] [x y]))": "([1 0] [2 0] [2 1])",
        "(for [x [1 2 3] y [1 2 3] :while (< y x)] [x y])": "([2 1] [3 1] [3 2])",
        "(take 2 (partition-by #(quot % 3) (range)))": "((0 1 2) (3 4 5))",
        "(take 3 (sequence (map +) (range) (range 10 20)))": "(10 12 14)",
        "(first (drop-while #(< % 1000) (range)))": "1000",
        "(take 4 (distinct (map #(mod % 7) (range))))": "(0 1 2 3)",
        "(list? (map inc [1 2]))": "false",
    }
    for src, want in cases.items():
        assert outcome(src) == (want or "error[runtime]"), src


def test_limits_bound_what_is_realized() -> None:
    small = Limits(max_collection=1000)
    with pytest.raises(PTCError) as e:
        ptc.run("(count (range))", limits=small)
    assert e.value.kind == "limit"
    with pytest.raises(PTCError) as e:
        ptc.run("(last (for [x (range) :when (odd? x)] x))", limits=small)
    assert e.value.kind == "limit"
    with pytest.raises(PTCError) as e:
        ptc.run("(first (filter neg? (range)))", limits=Limits(timeout=0.3))
    assert e.value.kind == "limit"


def test_a_for_whose_seq_is_dropped_never_runs() -> None:
    r = ptc.run("(do (for [x [1 2]] (println x)) (map println [3]) :done)")
    assert r.value == ptc.run(":done").value and r.prints == ()
    assert ptc.run("(doall (for [x [1 2]] (println x)))").prints == ("1", "2")


def test_defs_are_realized_when_the_program_ends() -> None:
    r = ptc.run('(def xs (map (fn [x] (println "f" x) x) [1 2])) :ok')
    assert r.prints == ("f 1", "f 2")  # realized within the run that defined it
    assert ptc.run("(count xs)", memory=r.memory).prints == ()
    with pytest.raises(PTCError) as e:  # not known to be infinite, but never ends
        ptc.run("(def xs (take-while some? (range))) 1", limits=Limits(max_collection=1000))
    assert e.value.kind == "limit" and "held by xs" in e.value.message and "(def xs (vec (take" in e.value.hint


def test_realizing_a_def_visits_shared_structure_once() -> None:
    # (list m m) nested 59 deep is 2**59 paths to the same few values (found by fuzzing)
    r = ptc.run("(def m (reduce (fn [m _] (list m m)) () (range 59))) (count m)", limits=Limits(timeout=5))
    assert r.value == 2


def test_infinite_seqs_stay_lazy_in_memory() -> None:
    r = ptc.run("(def nat (iterate inc 0)) (def sq (for [x (range)] (* x x))) (take 3 sq)")
    assert pr_str(r.value) == "(0 1 4)"
    assert pr_str(r.memory["nat"]).endswith(" 31 ...)")  # its first chunk; the rest is never computed here
    assert pr_str(r.memory["sq"]).startswith("(0 1 4 9 ")
    with pytest.raises(PTCError, match="only while a program runs"):
        list(r.memory["nat"])  # the host cannot run program code outside a run
    assert ptc.run("(nth nat 100)", memory=r.memory).value == 100


NAT = "(defn nat [n] (lazy-seq (cons n (nat (inc n)))))"


def test_recursive_lazy_seqs_run_in_constant_depth() -> None:
    limits = Limits(max_depth=50, timeout=10)
    assert ptc.run(f"{NAT} (nth (nat 0) 100000)", limits=limits).value == 100000
    assert ptc.run("(defn f [n] (lazy-cat [n] (f (inc n)))) (nth (f 0) 50000)", limits=limits).value == 50000
    r = ptc.run('(let [t (lazy-seq (println "body") [1 2]) s (cons 0 t)] [(vec s) (vec t) (vec s) (vec t)])')
    assert r.prints == ("body",)  # a body runs once, whoever reads its items first


def test_a_lazy_seq_that_never_yields_is_stopped_by_the_limits() -> None:
    with pytest.raises(PTCError) as e:
        ptc.run("(defn f [] (lazy-seq (f))) (first (f))", limits=Limits(timeout=0.5, max_steps=100_000))
    assert e.value.kind == "limit"
    with pytest.raises(PTCError) as e:
        ptc.run("(defn f [] (lazy-seq (cons (vec (range 1000)) (f)))) (count (f))", limits=Limits(timeout=5))
    assert e.value.kind == "limit"


@pytest.mark.parametrize("isolation", ["inline", "process"])
def test_a_defined_lazy_seq_keeps_a_prefix_and_stays_lazy(isolation: str) -> None:
    limits = Limits(isolation=isolation)
    r = ptc.run(f"{NAT} (def xs (nat 0)) (def few (lazy-seq [1 2 3])) :ok", limits=limits)
    assert pr_str(r.memory["few"]) == "(1 2 3)"  # it ended within the prefix: complete
    assert pr_str(r.memory["xs"]).endswith(" 1023 ...)")
    if isolation == "inline":
        assert ptc.run("(nth xs 5000)", memory=r.memory, limits=limits).value == 5000
    else:  # only the prefix crossed
        assert ptc.run("(nth xs 1000)", memory=r.memory, limits=limits).value == 1000
        with pytest.raises(PTCError, match="kept in memory only up to"):
            ptc.run("(nth xs 5000)", memory=r.memory, limits=limits)


def test_a_consed_lazy_seq_is_shared_not_copied() -> None:
    """cons adopts an unrealized lazy-seq at once: the tail read on its own (before, after or
    instead of the whole) gives its items once, and a body printing shows each item once."""
    src = ('(let [calls (fn [x] (println "f" x) x) t (lazy-seq (cons (calls 1) (lazy-seq (list (calls 2)))))'
           ' s (cons 0 t)] [(vec t) (vec s) (vec t)])')
    r = ptc.run(src)
    assert pr_str(r.value) == "[[1 2] [0 1 2] [1 2]]" and r.prints == ("f 1", "f 2")
    r = ptc.run("(let [t (lazy-seq (cons 1 nil)) s (cons 0 t)] [(first s) (vec t) (second s)])")
    assert pr_str(r.value) == "[0 [1] 1]"
    r = ptc.run("(do (defn my-map [f s] (lazy-seq (when-let [s (seq s)] (cons (f (first s)) (my-map f (rest s))))))"
                " (let [xs (my-map inc (range 5))] [(nth xs 3) (vec (rest xs)) (first xs) (count xs)]))")
    assert pr_str(r.value) == "[4 [2 3 4 5] 1 5]"
