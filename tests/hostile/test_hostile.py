"""Hostile programs: every one must end in a PTCError of the expected kind (a few must
return a value) and must do so within the run's timeout plus a margin.

Each program runs in a forked child (see _forkrun.py) so that a hang, a segfault or a
memory blow-up fails that one test instead of the session. A program that crashes with a
non-PTCError exception, hangs, or fails with the wrong kind is a bug in ptc: such tests are
kept failing until ptc is fixed (see tests/fuzz/FINDINGS.md for the list).
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest

import ptc
from ptc import Limits

from ._forkrun import Outcome, run_forked

pytestmark = pytest.mark.timing  # limit tests measure wall time: run apart (see README)

# Wall-time slack on top of limits.timeout. Generous: the machine is noisy (2 cores,
# other test sessions). Never assert tight absolute times.
MARGIN = 1.5
# Extra time before the parent gives up on the child entirely (fork and start-up).
KILL_SLACK = 3.0

DEFAULT = Limits()
FAST = Limits(timeout=0.5)  # programs that only end by the deadline: keep the suite quick
BIG_SOURCE = Limits(max_source=1_000_000)  # a host that accepts long programs


# -- tools used by the table (the child is forked, so lambdas and closures are fine) ------


def t_echo(*args: Any, **kwargs: Any) -> Any:
    return args[0] if args else kwargs


def t_sleep(**_: Any) -> int:
    time.sleep(1.5)
    return 1


async def t_async_sleep(**_: Any) -> int:
    await asyncio.sleep(3.0)
    return 1


def t_boom(**_: Any) -> Any:
    raise ValueError("boom")


def t_object(**_: Any) -> Any:
    return object()


def t_nested_object(**_: Any) -> Any:
    return {"rows": [1, 2, {"x": object()}]}


def t_function(**_: Any) -> Any:
    return lambda: 1


def t_cyclic(**_: Any) -> Any:
    a: list[Any] = []
    a.append(a)
    return a


def t_deep(**_: Any) -> Any:
    x: list[Any] = []
    for _ in range(100_000):
        x = [x]
    return x


def t_bigint(**_: Any) -> int:
    return 1 << 100_000


def t_nested_run(**_: Any) -> Any:
    """A tool that runs a hostile sub-program (sub-agent style) and returns its value."""
    return ptc.run("(count (range))").value


def deep_data() -> dict[str, Any]:
    x: list[Any] = []
    for _ in range(100_000):
        x = [x]
    return {"x": x}


# -- host data the program sees through read-only views (no copy at entry) -----------------


class _Sneaky:
    """A host object with tempting attributes: no program may reach any of them."""

    secret = "s3cret"

    def __str__(self) -> str:
        return "sneaky"

    def keys(self) -> list[str]:
        return ["secret"]


def cyclic_map() -> dict[str, Any]:
    m: dict[str, Any] = {"id": 1}
    m["self"] = m
    return {"m": m}


def cyclic_list() -> dict[str, Any]:
    a: list[Any] = [1]
    a.append(a)
    return {"xs": a}


def shared_dag() -> dict[str, Any]:
    x: list[Any] = []
    for _ in range(60):
        x = [x, x]  # 2^60 leaves, 60 distinct lists
    return {"x": x}


def million_rows() -> dict[str, Any]:
    return {"rows": [{"id": i, "v": i % 7} for i in range(1_000_000)]}


def foreign_inside() -> dict[str, Any]:
    return {"rows": [{"id": 1, "obj": _Sneaky()}]}


def nan_key() -> dict[str, Any]:
    return {"m": {float("nan"): 1}}


def object_key() -> dict[str, Any]:
    return {"m": {_Sneaky(): 1}}


# -- the table ----------------------------------------------------------------------------


@dataclass
class H:
    id: str
    src: Any
    expect: str | tuple[str, ...]  # an error kind, kinds, "value" (must succeed) or "safe" (either)
    limits: Limits = DEFAULT
    tools: dict[str, Callable[..., Any]] | None = None
    data: Callable[[], dict[str, Any]] | None = None  # built in the child (may be huge)
    value: str | None = None  # expected pr_str of the value
    check: Callable[[str], bool] | None = None  # predicate on pr_str of the value
    msg: str | None = None  # substring expected in the error message (case-insensitive)
    budget: float = 0.0  # extra seconds allowed (e.g. a tool that sleeps past the deadline)
    kw: dict[str, Any] = field(default_factory=dict)


def nest(open_: str, close: str, n: int, inner: str = "1") -> str:
    return open_ * n + inner + close * n


DAG = "(let [m (reduce (fn [m _] [m m]) [] (range 60))] {})"  # 2^60 leaves, 60 distinct nodes
DAG2 = ("(let [a (reduce (fn [m _] [m m]) [] (range 60)) "
        "b (reduce (fn [m _] [m m]) [] (range 60))] {})")
DEEP_VEC = "(let [m (reduce (fn [m _] [m]) [] (range 49000))] {})"
BIG_ARGS = 100_000

CASES: list[H] = [
    # --- infinite loops -----------------------------------------------------------------
    H("loop-recur-one-binding", "(loop [i 0] (recur (inc i)))", "limit", FAST),
    H("loop-recur-two-bindings", "(loop [i 0 j 0] (recur (inc i) j))", "limit", FAST),
    H("loop-recur-no-bindings", "(loop [] (recur))", "limit", FAST),
    H("loop-recur-deadline-not-steps", "(loop [i 0 j 0] (recur (inc i) j))", "limit",
      Limits(timeout=0.5, max_steps=10**12), msg="timeout"),
    H("fn-recur", "((fn [n] (recur (inc n))) 0)", "limit", FAST),
    H("defn-recur", "(defn f [n] (recur (inc n))) (f 0)", "limit", FAST),
    H("last-iterate", "(last (iterate inc 0))", "limit"),
    H("count-range", "(count (range))", "limit"),
    H("doseq-range", "(doseq [x (range)] x)", "limit", FAST),
    H("dotimes-huge", "(dotimes [i 1000000000] i)", "limit", FAST),
    H("reduce-infinite-range", "(reduce + (range))", "limit"),
    H("while-like-iterate", "(first (drop-while (fn [x] true) (iterate inc 0)))", "limit"),
    H("some-over-infinite", "(some neg? (range))", "limit"),
    H("filter-infinite", "(first (filter neg? (range)))", "limit"),
    H("count-cycle", "(count (cycle [1 2 3]))", "limit"),
    H("count-repeatedly", "(count (repeatedly (fn [] 1)))", "limit"),
    H("trampoline-forever", "(trampoline (fn f [] f))", "limit", FAST),
    H("nested-reduce-quadratic", "(reduce (fn [a x] (reduce + a (range 100000))) 0 (range 1000000))",
      "limit", FAST),
    # --- deep and mutual recursion: always kind limit, never a Python RecursionError ------
    H("self-recursion", "(defn f [x] (f x)) (f 1)", "limit"),
    H("non-tail-recursion", "(defn f [x] (inc (f x))) (f 1)", "limit"),
    H("mutual-recursion", "(defn a [x] (b x)) (defn b [x] (a x)) (a 1)", "limit"),
    H("mutual-non-tail", "(defn a [x] (inc (b x))) (defn b [x] (inc (a x))) (a 1)", "limit"),
    H("letfn-mutual", "(letfn [(a [n] (b n)) (b [n] (a n))] (a 1))", "limit"),
    H("named-fn-recursion", "((fn f [n] (f n)) 1)", "limit"),
    H("recursion-through-map", "(defn f [x] (map f [x])) (f 1)", "limit"),
    H("recursion-through-apply", "(defn f [x] (apply f [x])) (f 1)", "limit"),
    H("recursion-through-reduce", "(defn f [x] (reduce (fn [a b] (f b)) 0 [x])) (f 1)", "limit"),
    H("recursion-through-memoize", "(def f (memoize (fn [x] (f x)))) (f 1)", "limit"),
    H("recursion-catch-retry", "(def f (fn [] (try (f) (catch Exception e (f))))) (f)", "limit"),
    H("recursion-finally-bomb", "(defn f [] (try (f) (finally (f)))) (f)", "limit", FAST),
    H("recursion-catch-finally-bomb", "(defn f [] (try (f) (catch Exception e (f)) (finally (f)))) (f)",
      "limit", FAST),
    H("deep-recursion-raised-max-depth",
      "(defn f [n] (if (= n 0) 0 (inc (f (dec n))))) (f 1000000)", "limit", Limits(max_depth=20_000)),
    H("deep-structure-distinct-raised-max-depth", DEEP_VEC.format("(count (distinct [m m]))"),
      ("limit", "value"), Limits(max_depth=50_000)),
    H("deep-structure-set-raised-max-depth", DEEP_VEC.format("(count #{m})"),
      ("limit", "value"), Limits(max_depth=50_000)),
    # --- allocation bombs -------------------------------------------------------------------
    H("vec-range-1e8", "(vec (range 1e8))", "limit"),
    H("reduce-conj-1e8", "(reduce conj [] (range 100000000))", "limit"),
    H("vec-repeat-1e9", "(vec (repeat 1e9 1))", "limit"),
    H("into-range-1e8", "(into [] (range 100000000))", "limit"),
    H("for-product-2", "(count (for [a (range 10000) b (range 10000)] [a b]))", "limit"),
    H("for-product-3", "(count (for [a (range 1000) b (range 1000) c (range 1000)] 1))", "limit"),
    H("doubling-into", "(loop [v [1] i 0] (recur (into v v) (inc i)))", "limit"),
    H("frequencies-2e6", "(frequencies (range 2000000))", "limit"),
    H("set-2e6", "(set (range 2000000))", "limit"),
    H("zipmap-2e6", "(zipmap (range 2000000) (range 2000000))", "limit"),
    H("into-map-2e6", "(into {} (map (fn [i] [i i]) (range 2000000)))", "limit"),
    H("apply-concat", "(count (apply concat (repeat 10000 (range 1000))))", "limit"),
    H("mapcat-product", "(count (mapcat (fn [x] (range 1000000)) (range 1000000)))", "limit"),
    H("concat-big-vectors", "(let [v (vec (range 1000000))] (count (concat v v v v v)))", "limit"),
    H("take-huge-repeat", "(count (take 100000000 (repeat 1)))", "limit"),
    H("map-doubling-loop", "(loop [m {:a 1} i 0] (recur {:a m :b m} (inc i)))", "limit", FAST),
    H("dag-flatten", DAG.format("(count (flatten m))"), "limit", FAST),
    H("dag-hash-in-set", DAG.format("(count #{m})"), "limit", FAST),
    H("dag-frequencies", DAG.format("(count (frequencies [m m]))"), "limit", FAST),
    H("dag-equality", DAG2.format("(= a b)"), "limit", FAST),
    H("dag-print", DAG.format("(count (str m))"), "limit", FAST),
    # Lookups hash their key too: a shared structure used as a key must be refused, not hashed.
    H("dag-get", DAG.format("(get {1 2} m)"), "limit", FAST),
    H("dag-dissoc", DAG.format("(dissoc {1 2} m)"), "limit", FAST),
    H("dag-find", DAG.format("(find {1 2} m)"), "limit", FAST),
    H("dag-set-as-fn", DAG.format("(#{1} m)"), "limit", FAST),
    H("dag-select-keys", DAG.format("(select-keys {1 2} [m])"), "limit", FAST),
    H("dag-case", DAG.format("(case m 1 2 3)"), "limit", FAST),
    H("dag-update", DAG.format("(update {} m identity)"), "limit", FAST),
    H("lazy-seq-never-yields", "(defn f [] (lazy-seq (f))) (first (f))", "limit", FAST),
    H("lazy-seq-infinite-count", "(defn nat [n] (lazy-seq (cons n (nat (inc n))))) (count (nat 0))", "limit", FAST),
    H("lazy-seq-memory-bomb", "(defn f [] (lazy-seq (cons (vec (range 10000)) (f)))) (count (f))", "limit", FAST),
    H("lazy-cat-self-reference-huge", "(def fib (lazy-cat [0 1] (map + fib (rest fib)))) (nth fib 200000)",
      ("limit", "value"), FAST),
    H("lazy-seq-deep-nesting-in-body", "(defn f [n] (if (zero? n) [1] (lazy-seq (f (dec n))))) (first (f 100000))",
      ("limit", "value"), FAST),
    H("dag-array-map-key", DAG.format("(array-map m 1)"), "limit", FAST),  # fuzz F-17
    H("dag-hash-map-key", DAG.format("(hash-map m 1)"), "limit", FAST),
    H("dag-zipmap", DAG.format("(zipmap [m] [1])"), "limit", FAST),
    H("nested-sets-pr-str", "(count (pr-str (reduce (fn [m _] #{m}) #{} (range 40))))", ("value", "limit"), FAST),
    H("nested-sets-result", "(reduce (fn [m _] #{m}) #{} (range 40))", ("value", "limit"), FAST),
    H("nested-sets-dag-pr-str", "(count (pr-str (reduce (fn [m _] #{m [m]}) #{} (range 40))))", "limit", FAST),
    # --- strings ----------------------------------------------------------------------------
    H("apply-str-repeat", '(apply str (repeat 100000000 "x"))', "limit"),
    # a million small collections rendered only to refuse the text (fuzz finding): stopped as it passes
    H("join-rendered-vectors", "(clojure.string/join (repeat 999999 [1 2]))", "limit", FAST),
    H("pr-str-rendered-vectors", "(apply pr-str (repeat 999999 [1 2]))", "limit", FAST),
    H("join-repeat", '(clojure.string/join (repeat 100000000 "x"))', "limit"),
    H("string-doubling-loop", '(loop [s "x" i 0] (recur (str s s) (inc i)))', "limit"),
    H("string-doubling-one-binding", '(loop [s "x"] (recur (str s s)))', "limit", FAST),
    H("string-doubling-reduce", '(reduce (fn [acc _] (str acc acc)) "ab" (range 100))', "limit"),
    H("format-huge-width", '(format "%1000000000d" 1)', "limit"),
    H("format-huge-precision", '(format "%.1000000f" 1.0)', "limit"),
    H("replace-growth", '(clojure.string/replace (apply str (repeat 1000 "a")) "a" '
      '(apply str (repeat 2000 "b")))', "limit"),
    H("regex-replace-growth", '(clojure.string/replace (apply str (repeat 100000 "a")) #"a" '
      '"$0$0$0$0$0$0$0$0$0$0$0$0")', "limit"),
    H("pr-str-escape-growth", '(loop [s "\\"" i 0] (recur (pr-str s) (inc i)))', "limit"),
    H("join-over-max-string", '(clojure.string/join "," (repeat 600000 "ab"))', "limit"),
    H("escape-growth", '(clojure.string/escape (apply str (repeat 500000 "a")) {\\a "aaaa"})', "limit"),
    H("upper-case-growth", '(count (clojure.string/upper-case (apply str (repeat 400000 "\\ufb03"))))',
      "limit", msg="max_string"),
    H("str-of-million-vector", "(count (str (vec (range 1000000))))", "limit"),
    # --- bigints and floats -----------------------------------------------------------------
    H("factorial-100000", "(reduce * (range 1 100000))", "limit"),
    H("squaring-loop", "(loop [x 2 i 0] (recur (* x x) (inc i)))", "limit"),
    H("squaring-loop-promoting", "(loop [x 2 i 0] (recur (*' x x) (inc i)))", "limit"),
    H("apply-promoting-product", "(apply *' (repeat 10000 99999999))", "limit"),
    H("iterate-tripling", "(nth (iterate (fn [x] (* x 3)) 1) 100000)", "limit"),
    H("bit-shift-left-huge", "(bit-shift-left 1 100000000)", "value", value="1"),
    H("math-pow-inf", "(Math/pow 10 400)", "value", value="##Inf"),
    H("math-pow-float-inf", "(Math/pow 2.5 1e10)", "value", value="##Inf"),
    H("math-exp-inf", "(Math/exp 1e6)", "value", value="##Inf"),
    H("huge-int-literal", "1" + "0" * 100_000, ("parse", "limit")),
    H("huge-hex-literal", "0x" + "f" * 100_000, ("parse", "limit")),
    H("parse-long-huge", '(parse-long (apply str (repeat 100000 "9")))', "safe"),
    H("tool-returns-huge-int", "(inc (tool/big))", ("limit", "tool"), tools={"big": t_bigint}),
    # --- print floods -----------------------------------------------------------------------
    H("println-dotimes", '(dotimes [i 10000000] (println "hello"))', "limit", msg="max_output"),
    H("println-doseq", '(doseq [i (range 1000000)] (println "hello world"))', "limit", msg="max_output"),
    H("println-loop", "(loop [i 0 j 0] (println i) (recur (inc i) j))", "limit", msg="max_output"),
    H("println-one-big-string", '(println (apply str (repeat 900000 "x")))', "limit", msg="max_output"),
    H("prn-map", "(dorun (map prn (range 1000000)))", "limit", msg="max_output"),
    # --- tools ------------------------------------------------------------------------------
    H("tool-flood-dotimes", "(dotimes [i 10000] (tool/f {:a i}))", "limit", tools={"f": t_echo},
      msg="max_tool_calls"),
    H("tool-flood-doseq", "(doseq [i (range 10000)] (tool/f {:a i}))", "limit", tools={"f": t_echo},
      msg="max_tool_calls"),
    H("tool-flood-map", "(count (map (fn [i] (tool/f i)) (range 10000)))", "limit", tools={"f": t_echo},
      msg="max_tool_calls"),
    H("tool-flood-recursion", "(defn g [n] (tool/f n) (g (inc n))) (g 0)", "limit", tools={"f": t_echo}),
    H("tool-zero-calls-allowed", "(tool/f {})", "limit", Limits(max_tool_calls=0), tools={"f": t_echo},
      msg="max_tool_calls"),
    H("tool-sleeps-past-deadline", "(tool/slow {})", "limit", Limits(timeout=0.5), tools={"slow": t_sleep},
      budget=1.5, msg="timeout"),
    H("tool-sleeps-then-loop", "(tool/slow {}) (loop [i 0 j 0] (recur (inc i) j))", "limit",
      Limits(timeout=0.5), tools={"slow": t_sleep}, budget=1.5),
    H("async-tool-sleeps-past-deadline", "(tool/slow {})", "limit", Limits(timeout=0.5),
      tools={"slow": t_async_sleep}, msg="timeout"),
    H("tool-raises", "(tool/f {:x 1})", "tool", tools={"f": t_boom}, msg="boom"),
    H("tool-raises-caught", "(try (tool/f {:x 1}) (catch Exception e :caught))", "value",
      tools={"f": t_boom}, value=":caught"),
    H("tool-returns-object", "(tool/f)", "tool", tools={"f": t_object}),
    H("tool-returns-nested-object", "(tool/f)", "tool", tools={"f": t_nested_object}),
    H("tool-returns-function", "(tool/f)", "tool", tools={"f": t_function}),
    H("tool-returns-cyclic-list", "(tool/f)", ("tool", "limit"), tools={"f": t_cyclic}),  # a view: printing it stops
    H("tool-returns-deep-nesting", "(tool/f)", ("tool", "limit"), tools={"f": t_deep}),
    H("tool-runs-hostile-subprogram", "(tool/sub)", "limit", tools={"sub": t_nested_run}),
    H("data-deep-nesting", "(count (str data/x))", ("runtime", "limit"), data=deep_data),
    # --- deep nesting in source ---------------------------------------------------------------
    # Deep nesting is exercised with max_source raised, so the nesting guard (not the size
    # limit) is what refuses these programs.
    H("nested-parens-10k", nest("(", ")", 10_000, ""), ("parse", "analysis"), BIG_SOURCE),
    H("nested-calls-10k", nest("(inc ", ")", 10_000, "0"), ("parse", "analysis"), BIG_SOURCE),
    H("nested-vectors-10k", nest("[", "]", 10_000, ""), ("parse", "analysis"), BIG_SOURCE),
    H("nested-maps-10k", nest("{:a ", "}", 10_000), ("parse", "analysis"), BIG_SOURCE),
    H("nested-quotes-10k", "'" * 10_000 + "x", ("parse", "analysis"), BIG_SOURCE),
    # stacked discards drop as many forms, as in Clojure: nothing is left
    H("nested-discards-10k", "#_" * 10_000 + "1 " * 10_000, "value", BIG_SOURCE, value="nil"),
    H("open-parens-1MB", "(" * 1_000_000, ("parse", "limit")),  # refused as too long (max_source)
    H("open-brackets-1MB", "[" * 1_000_000, ("parse", "limit")),
    H("open-parens-90KB", "(" * 90_000, "parse", BIG_SOURCE),
    H("thread-first-100k", "(-> 1 " + "inc " * BIG_ARGS + ")", ("analysis", "limit", "value")),
    H("and-100k", "(and " + "1 " * BIG_ARGS + ")", ("analysis", "limit", "value")),
    H("or-100k", "(or " + "nil " * BIG_ARGS + "1)", ("analysis", "limit", "value")),
    H("some-thread-100k", "(some-> 1 " + "inc " * BIG_ARGS + ")", ("analysis", "limit", "value")),
    H("cond-50k", "(cond " + "false 1 " * 50_000 + ":else 2)", ("analysis", "limit", "value")),
    H("case-10k", "(case 1 " + " ".join(f"{i} {i}" for i in range(10_000)) + " 0)",
      ("analysis", "limit", "value")),
    H("flat-call-490k-args", "(+ " + "1 " * 490_000 + ")", ("analysis", "limit", "value")),
    H("flat-vector-490k", "[" + "1 " * 490_000 + "]", ("analysis", "limit", "value")),
    # At the max_source boundary (50k characters): reading, analysing and compiling are part of
    # the run, so even a short timeout must bound them.
    # compile time of a max-size program is not part of the timeout (F-12)
    # (its compile takes 2-2.5 s on a quiet 2-core machine, near 4 s in a loaded test session)
    H("some-thread-at-max-source", "(some-> 1 " + "inc " * 12_497 + ")", ("analysis", "limit", "value"),
      Limits(timeout=0.5), budget=3.0),
    H("and-at-max-source", "(and " + "1 " * 24_995 + ")", ("analysis", "limit", "value")),
    H("flat-call-at-max-source", "(+ " + "1 " * 24_997 + ")", ("analysis", "limit", "value"), Limits(timeout=0.5)),
    H("open-parens-at-max-source", "(" * 49_999, "parse", Limits(timeout=0.5)),
    H("nested-fns-at-max-source", "(fn [] " * 3000 + "1" + ")" * 3000, ("parse", "analysis")),
    # F-12: a host that raises max_source accepts longer compile times
    H("open-parens-raised-max-source", "(" * 1_000_000, ("parse", "limit"), Limits(max_source=1_000_000), budget=10.0),
    # F-12: a host that raises max_source accepts longer compile times
    H("flat-vector-raised-max-source", "[" + "1 " * 490_000 + "]", ("analysis", "limit", "value"),
      Limits(max_source=1_000_000), budget=20.0),
    H("source-over-max-source", " " * 1_000_001 + "1", "limit", msg="max_source"),
    # --- regular expressions ------------------------------------------------------------------
    H("redos-nested-plus", '(re-find #"(a+)+$" (str (apply str (repeat 100000 "a")) "!"))', "value",
      value="nil"),
    H("redos-xx-y", '(re-find #"(x+x+)+y" (apply str (repeat 100000 "x")))', "value", value="nil"),
    H("redos-alternation", '(re-matches #"(a|a)*b" (apply str (repeat 100000 "a")))', "value", value="nil"),
    H("regex-backreference", '(re-find #"(a)\\1" "aa")', ("analysis", "runtime"), msg="backreference"),
    H("regex-backreference-dynamic", '(re-find (re-pattern "(a)\\\\1") "aa")', "runtime",
      msg="backreference"),
    H("regex-lookahead", '(re-find #"(?=a)" "a")', ("analysis", "runtime"), msg="look"),
    H("regex-too-long", '(re-pattern (apply str (repeat 3000 "a")))', "limit", msg="max_regex"),
    H("regex-huge-repetition", '(re-find #"a{1000000}" "a")', ("analysis", "runtime")),
    # --- interop and sandbox escapes (refused before anything runs) ------------------------------
    H("getClass", '(println "ran") (.getClass 1)', "analysis"),
    H("system-exit", '(println "ran") (System/exit 0)', "analysis"),
    H("runtime-getRuntime", "(java.lang.Runtime/getRuntime)", "analysis"),
    H("eval", "(eval '(+ 1 2))", "analysis"),
    H("eval-qualified", "(clojure.core/eval '(+ 1 2))", "analysis"),
    H("read-string", '(read-string "1")', "analysis"),
    H("load-file", '(load-file "x")', "analysis"),
    H("slurp", '(slurp "/etc/passwd")', "analysis"),
    H("spit", '(spit "x" "y")', "analysis"),
    H("import", "(import java.io.File)", "analysis"),
    H("require", "(require '[clojure.string :as s])", "value", value="nil"),  # always loaded: accepted
    H("require-host-lib", "(require '[clojure.java.shell :as sh])", "analysis"),
    H("require-io", "(require '[clojure.java.io :as io]) (io/file \"/etc/passwd\")", "analysis"),
    H("require-refer-all", "(require '[clojure.string :refer :all])", "analysis"),
    H("ns", "(ns foo)", "value", value="nil"),
    H("ns-import", "(ns foo (:import [java.io File]))", "analysis"),
    H("def-dynamic-meta", "(def ^:dynamic x 1)", "value", value="#'user/x"),  # metadata is read and dropped
    H("dot-form", "(. 1 toString)", "analysis"),
    H("new-object", "(new Object)", "analysis"),
    H("constructor-dot", '(java.io.File. "x")', "analysis"),
    H("class-forName", '(Class/forName "x")', "analysis"),
    H("thread-sleep", "(Thread/sleep 100000)", "analysis"),
    H("atom", "(atom 1)", "analysis"),
    H("swap", "(swap! a inc)", "analysis"),
    H("future", "(future (loop [] (recur)))", "analysis"),
    H("shell", '(clojure.java.shell/sh "ls")', "analysis"),
    H("import-dunder", '(__import__ "os")', "analysis"),
    H("dunder-class", "(__class__ 1)", "analysis"),
    H("dot-dunder", "(.__class__ 1)", "analysis"),
    H("python-namespace", '(py/eval "1")', "analysis"),
    H("builtins-name", "(__builtins__)", "analysis"),
    H("read-eval", "#=(eval (+ 1 2))", "parse"),
    H("reader-conditional", "#?(:clj 1)", "parse"),
    H("var-quote", "#'inc", "parse"),
    H("deref-reader", "@x", "parse"),
    H("shadow-runtime-globals", "(def _n 5) (def _budget 1) (let [_U 1 _ctx 2] "
      "(loop [i 0 j 0] (recur (inc i) j)))", "limit", FAST),
    # --- the curated interop names (issue 22): plain builtins, no host object reachable ----------
    H("method-getClass", '(.getClass "x")', "analysis"),
    H("method-getClass-date", "(.getClass (LocalDate/now))", "analysis"),
    H("method-invoke", '(.invoke .toUpperCase "x")', "analysis"),
    H("method-dunder-globals", "(.__globals__ .toUpperCase)", "analysis"),
    H("method-dunder-reduce", "(.__reduce__ (LocalDate/now))", "analysis"),
    H("method-dunder-dict", "(.__dict__ ChronoUnit/DAYS)", "analysis"),
    H("method-field-kind", "(.kind ChronoUnit/DAYS)", "analysis"),
    H("method-field-dash", "(.-kind ChronoUnit/DAYS)", "analysis"),
    H("method-tzinfo", "(.tzinfo (Instant/now))", "analysis"),
    H("method-astimezone", "(.astimezone (Instant/now))", "analysis"),
    H("dot-form-method", '(. "x" toUpperCase)', "analysis"),
    H("dot-form-date", "(. (LocalDate/now) plusDays 1)", "analysis"),
    H("new-date", "(new java.util.Date)", "analysis"),
    H("constructor-local-date", "(java.time.LocalDate. 2026 1 1)", "analysis"),
    H("class-forName-runtime", '(Class/forName "java.lang.Runtime")', "analysis"),
    H("system-getenv", '(System/getenv "HOME")', "analysis"),
    H("system-property", '(System/getProperty "user.home")', "analysis"),
    H("system-exit-qualified", "(java.lang.System/exit 0)", "analysis"),
    H("method-on-builtin", "(.toString .toUpperCase)", "runtime"),
    H("date-method-on-string", '(.plusDays "2026-03-14" 1)', "runtime"),
    H("string-method-on-date", "(.replace (LocalDate/now) 2000 1)", "runtime"),
    H("method-wrong-arity", '(.substring "abc")', "runtime"),
    H("method-no-target", "(.trim)", "runtime"),
    H("date-parse-huge", '(LocalDate/parse (apply str (repeat 100000 "9")))', "runtime"),
    H("date-out-of-range", "(LocalDate/of 99999999 1 1)", "runtime"),
    H("date-plus-overflow", "(.plusDays (LocalDate/of 9999 12 31) 1)", "runtime"),
    H("date-plus-bigint", "(.plusDays (LocalDate/now) 100000000000000000000)", "runtime"),
    H("date-plus-float", "(.plusYears (LocalDate/now) 1e308)", "runtime"),
    H("duration-overflow", "(Duration/ofDays 10000000000)", "runtime"),
    H("duration-multiply-overflow", "(.multipliedBy (Duration/ofDays 1) 10000000000)", "runtime"),
    H("between-bad-unit", '(.between :days (LocalDate/now) (LocalDate/now))', "runtime"),
    H("between-mixed-kinds", "(.between ChronoUnit/DAYS (LocalDate/now) (Instant/now))", "runtime"),
    H("string-repeat-bomb", '(.repeat "xx" 100000000)', "limit"),
    H("split-bomb", '(count (.split (apply str (repeat 600000 ",x")) ","))', ("limit", "value")),
    H("character-bad-arg", "(Character/isDigit inc)", "runtime"),
    H("math-exact-overflow", "(Math/multiplyExact Long/MAX_VALUE 2)", "runtime"),
    H("type-hint-to-host-class", "(let [^java.lang.Runtime r 1] r)", "value", value="1"),
    # --- malformed input ------------------------------------------------------------------------
    H("lone-surrogate-escape", '"\\ud800"', "safe"),
    H("lone-surrogate-raw", '(str "\ud800" "x")', "safe"),
    H("nul-in-string", '"a\x00b"', "safe"),
    H("lone-surrogate-in-regex-literal", '(re-find #"\ud800" "a")', ("parse", "analysis", "runtime")),
    H("lone-surrogate-regex-subject", '(re-find #"a" (str "\ud800" "a"))', ("runtime", "value")),
    H("nul-in-source", "(+ 1 2)\x00", ("parse", "analysis")),
    H("invalid-escape", '"\\q"', "parse"),
    H("incomplete-unicode-escape", '"\\u12"', "parse"),
    H("unterminated-string", '(str "abc', "parse"),
    H("unterminated-form", "(let [x 1]", "parse"),
    H("unmatched-close", ")", "parse"),
    H("lone-hash", "#", "parse"),
    H("ratio-divide-by-zero", "1/0", ("parse", "runtime")),
    H("source-none", None, "parse"),
    H("source-bytes", b"(+ 1 2)", "parse"),
    H("source-int", 42, "parse"),
    # --- results and memory ------------------------------------------------------------------
    H("result-range-300k", "(range 300000)", "limit", msg="max_result"),
    H("result-small-max-result", '(apply str (repeat 900000 "x"))', "limit", Limits(max_result=1000),
      msg="max_result"),
    H("result-dag-map", "(reduce (fn [m _] {:a m :b m}) {} (range 60))", "limit", FAST),
    # F-5: 1M-item set builds in a loop that ticks rarely end by the deadline (each build checks it)
    H("bulk-set-in-loop", "(let [a (vec (range 999999))] (dotimes [i 100] (set a)))", "limit", FAST, msg="timeout",
      budget=1.0),
    H("bulk-hash-set-in-loop", "(let [a (vec (range 999999))] (dotimes [i 100] (apply hash-set a)))", "limit", FAST,
      budget=1.0),
    # --- host data seen through views ------------------------------------------------------
    H("view-attribute-by-keyword", "(:__class__ data/m)", "value", data=lambda: {"m": {"a": 1}}, value="nil"),
    H("view-attribute-by-string", '(get data/m "__dict__")', "value", data=lambda: {"m": {"a": 1}}, value="nil"),
    H("view-interop-method", "(.keys data/m)", "analysis", data=lambda: {"m": {"a": 1}}),
    H("view-interop-field", "(.-secret (:obj (first data/rows)))", "analysis", data=foreign_inside),
    H("view-foreign-printed", "(:obj (first data/rows))", "runtime", data=foreign_inside, msg="cannot use a Python"),
    H("view-foreign-str", "(str (:obj (first data/rows)))", "runtime", data=foreign_inside, msg="_Sneaky"),
    H("view-foreign-count", "(count (:obj (first data/rows)))", "runtime", data=foreign_inside, msg="_Sneaky"),
    H("view-foreign-as-key", "#{(:obj (first data/rows))}", "runtime", data=foreign_inside, msg="cannot use a Python"),
    H("view-foreign-equals", "(= (:obj (first data/rows)) 1)", "safe", data=foreign_inside),
    H("view-foreign-keys", "(keys data/m)", "runtime", data=object_key, msg="cannot use a Python"),
    H("view-nan-key", "(keys data/m)", "runtime", data=nan_key, msg="NaN"),
    H("view-cyclic-map-printed", "data/m", "limit", data=cyclic_map),
    H("view-cyclic-map-as-key", "(contains? #{data/m} 1)", "limit", data=cyclic_map),
    H("view-cyclic-map-walked", "(defn depth [m] (if (map? m) (inc (depth (:self m))) 0)) (depth data/m)",
      "limit", FAST, data=cyclic_map),
    H("view-cyclic-list-flatten", "(count (flatten data/xs))", "limit", FAST, data=cyclic_list),
    H("view-cyclic-list-equal", "[(= data/xs (vec data/xs)) (= data/xs [1 [1 [1]]])]", "safe", data=cyclic_list),
    H("view-shared-dag-as-key", "(frequencies [data/x])", "limit", data=shared_dag),
    H("view-shared-dag-printed", "data/x", "limit", data=shared_dag),
    H("view-million-rows-count", "(count data/rows)", "value", data=million_rows, value="1000000"),
    H("view-million-rows-set", "(count (set data/rows))", ("value", "limit"), data=million_rows),
    H("view-million-rows-str", "(count (str data/rows))", "limit", data=million_rows),
    H("view-million-rows-write", "(count (reduce (fn [m r] (assoc m (:id r) r)) {} data/rows))", "value",
      data=million_rows, value="1000000"),
    H("million-vector-allowed", "(count (vec (range 1000000)))", "value", value="1000000"),
    H("million-and-one-vector", "(count (vec (range 1000001)))", "limit", msg="max_collection"),
    H("million-and-one-into", "(count (into [] (range 1000001)))", "limit", msg="max_collection"),
]

assert len({c.id for c in CASES}) == len(CASES), "duplicate case ids"


def _check(case: H, out: Outcome) -> None:
    limits = case.limits
    allowed = limits.timeout + MARGIN + case.budget
    where = f"[{case.id}] {out.describe()}"
    assert out.status not in ("hang", "died"), f"ptc did not return: {where}"
    assert out.status != "crash", f"ptc raised a non-PTCError exception: {where}"
    assert out.elapsed <= allowed, f"took {out.elapsed:.2f}s, allowed {allowed:.2f}s: {where}"
    expect = case.expect if isinstance(case.expect, tuple) else (case.expect,)
    if out.status == "value":
        assert "value" in expect or "safe" in expect, f"expected {expect}, got a value: {where}"
        assert out.print_error is None, f"pr_str failed on the result: {where}"
        if case.value is not None:
            assert out.printed == case.value, where
        if case.check is not None:
            assert case.check(out.printed or ""), where
        return
    assert out.status == "error"
    assert out.kind in expect or "safe" in expect, f"expected {expect}, got: {where}"
    assert "internal error" not in out.message, f"ptc reports an internal error: {where}"
    if case.msg is not None:
        assert case.msg.lower() in out.message.lower(), f"message should mention {case.msg!r}: {where}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile(case: H) -> None:
    kwargs: dict[str, Any] = {"limits": case.limits, **case.kw}
    if case.tools is not None:
        kwargs["tools"] = case.tools
    if case.data is not None:
        kwargs["data"] = case.data()
    hard = case.limits.timeout + MARGIN + case.budget + KILL_SLACK
    out = run_forked(case.src, hard_timeout=hard, **kwargs)
    _check(case, out)


def test_table_is_big_enough() -> None:
    assert len(CASES) >= 70


# -- in-process checks: a failing run leaves the interpreter and the caller's state intact -----


def test_memory_unchanged_after_failure() -> None:
    memory = {"x": 1}
    with pytest.raises(ptc.PTCError) as err:
        ptc.run("(def x 2) (def y 3) (/ 1 0)", memory=memory)
    assert err.value.kind == "runtime"
    assert memory == {"x": 1}
    r = ptc.run("[x (inc x)]", memory=memory)
    assert ptc.to_python(r.value) == [1, 2]
    assert memory == {"x": 1}


def test_memory_unchanged_after_limit() -> None:
    memory = {"x": 1}
    with pytest.raises(ptc.PTCError) as err:
        ptc.run("(def x 2) (defn f [] (f)) (f)", memory=memory)
    assert err.value.kind == "limit"
    assert memory == {"x": 1}
    with pytest.raises(ptc.PTCError):
        ptc.run("(def x 3) (count (range))", memory=memory)
    assert memory == {"x": 1}
    assert ptc.run("x", memory=memory).value == 1


def test_interpreter_state_restored_after_failures() -> None:
    import sys

    from ptc.interpreter import context

    before = sys.getrecursionlimit()
    for src in ("(defn f [x] (inc (f x))) (f 1)", "(count (range))", "(/ 1 0)", "(println",
                "(reduce * (range 1 100000))", '(apply str (repeat 100000000 "x"))'):
        with pytest.raises(ptc.PTCError):
            ptc.run(src)
        assert sys.getrecursionlimit() == before, src
        assert context.CURRENT is context.IDLE, src
    assert ptc.run("(+ 1 2)").value == 3


def test_limit_error_inside_tool_restores_outer_run() -> None:
    calls = []

    def sub(**_: Any) -> Any:
        try:
            ptc.run("(defn f [] (f)) (f)")
        except ptc.PTCError as e:
            calls.append(e.kind)
        return 7

    r = ptc.run("(+ 1 (tool/sub {}))", tools={"sub": sub})
    assert r.value == 8
    assert calls == ["limit"]


def test_math_pow_is_infinite_not_error() -> None:
    r = ptc.run("(Math/pow 10 400)")
    assert math.isinf(r.value)


@pytest.mark.parametrize("src", ['(re-pattern (apply str (repeat 3000 "a")))',
                                 '(re-find (apply str (repeat 3000 "a")) "a")'])
def test_a_pattern_compiled_under_a_larger_limit_is_refused_under_this_runs(src: str) -> None:
    """The regex cache outlives runs: the length limit is checked before it is consulted."""
    ptc.run(src, limits=Limits(max_regex=5000))
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src)
    assert e.value.kind == "limit" and "max_regex" in e.value.message
