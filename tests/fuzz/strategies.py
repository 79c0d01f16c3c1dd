"""Hypothesis strategies producing PTC-Lisp source text.

`programs()` builds programs from the real vocabulary (every registered builtin and special
form) with a grammar: sometimes well-formed, often nonsense (wrong arities, wrong types,
bad binding forms). `texts()` produces arbitrary text and mutations of valid programs taken
from the registry's examples and the conformance corpus.
"""

from __future__ import annotations

import math
from pathlib import Path

from hypothesis import strategies as st

import ptc.interpreter.analyzer  # noqa: F401 - registers the special forms
from ptc.interpreter.registry import NS_ALIASES, REGISTRY, SPECIAL_FORMS, load_library

load_library()

FUNCTIONS: list[str] = sorted(REGISTRY)
# The same builtins reached through namespace aliases (str/join, s/join, math/pow, ...).
ALIASED: list[str] = sorted(
    f"{alias}/{name.split('/', 1)[1]}"
    for name in REGISTRY if "/" in name
    for alias, canonical in NS_ALIASES.items() if name.startswith(canonical + "/") and alias != canonical
)
SPECIALS: list[str] = sorted(SPECIAL_FORMS)
REFUSED = ["eval", "atom", "swap!", "deref", "slurp", "ns", "import", "new", ".", ".toString", "Math/PI",
           "System/exit", "clojure.core/eval", "realized?", "while", "hash", "type", "class", "fn*"]
LOCALS = ["x", "y", "n", "acc", "xs", "a", "b", "k", "v", "f", "m"]
ODD_SYMBOLS = ["nil", "true", "false", "&", "_", "%", "%1", "%2", "%&", "data/n", "data/rows", "data/s",
               "data/missing", "tool/echo", "tool/boom", "tool/nope", "*1", "*2", "*3", "Double/MAX_VALUE",
               "Integer/MAX_VALUE", "Math/E", "foo", "foo.bar", "a.b/c", "__class__", "_n", "_U", "recur"]

# -- atoms ----------------------------------------------------------------------------------

EDGE_INTS = [0, -1, 1, 2**31 - 1, -(2**31), 2**53 + 1, 2**63 - 1, -(2**63), 2**63, 2**64, 10**30, -(10**30),
             10**100]


def _render_float(f: float) -> str:
    if math.isnan(f):
        return "##NaN"
    if math.isinf(f):
        return "##Inf" if f > 0 else "##-Inf"
    text = repr(f)
    return text


def _render_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


_odd_chars = st.sampled_from(["\\", '"', "\n", "\t", "\r", "\x00", "\u2028", "\ufb03", "\u00df", "\u0130",
                              "\U0001F600", "\u200b", "\ufeff", "(", ")", "%", "$", "é"])
_chars = st.one_of(st.characters(codec=None), st.characters(categories=["Cs"]), _odd_chars)

ints = st.one_of(
    st.integers(-3, 12),
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.sampled_from(EDGE_INTS),
).map(str)
big_ints = st.sampled_from(EDGE_INTS).map(lambda i: f"{i}N")
floats = st.one_of(st.floats(), st.sampled_from([0.5, -0.0, 1e308, 5e-324, 1e16, 0.1])).map(_render_float)
float_literals = st.sampled_from(["##Inf", "##-Inf", "##NaN", "1e999", "1.5M", "1.", "-0.0", "1E5"])
ratios = st.tuples(st.integers(-20, 20), st.integers(1, 9)).map(lambda t: f"{t[0]}/{t[1]}")
_good_strings = st.sampled_from(['""', '"a,b,c"', '"hello world"', '"\\n"', '"\\t"', '"\\u00e9"', '"\\ud800"',
                                 '"\\\\"', '"  x  "', '"a1b22c333"', '"%s %d"', '"%1000000000d"', '"a"', '"abc"'])
_bad_literals = st.sampled_from(['"\\q"', '"\\u12"', "1/0", "::k", "\\uZZZZ", "1.2.3", "08", "0x", "1e"])
strings = st.one_of(st.text(_chars, max_size=10).map(_render_string), _good_strings, _good_strings)
chars = st.sampled_from(["\\a", "\\newline", "\\space", "\\tab", "\\u0041", "\\uD800", "\\o101", "\\\\", '\\"',
                         "\\(", "\\é", "\\1"])
keywords = st.one_of(
    st.sampled_from([":a", ":b", ":c", ":name", ":x/y", ":ptc/exception", ":message", ":data", ":a.b",
                     ":1", ":keys", ":as", ":or", ":else", ":when", ":let", ":while"]),
    st.from_regex(r":[a-z][a-z0-9?!*-]{0,5}", fullmatch=True),
)
regexes = st.sampled_from(['#"a+"', '#"(a+)+$"', '#"\\d+"', '#"(a)\\1"', '#"["', '#"(?i)abc"', '#"(?=x)"', '#""',
                           '#"a{1000}"', '#"\\p{L}+"', '#"(?P<n>a)"', '#"[^,]+"', '#"(\\w+)@(\\w+)"', '#"."',
                           '#"$"', '#"a*?"', '#"\\s*,\\s*"'])
_locals = st.sampled_from(LOCALS)
_functions = st.sampled_from(FUNCTIONS)
symbols = st.one_of(_locals, _locals, _locals, _functions, _functions, _functions,
                    st.sampled_from(ALIASED or ["str/join"]), st.sampled_from(ODD_SYMBOLS))
atoms = st.one_of(ints, ints, ints, big_ints, floats, float_literals, ratios, strings, strings, chars, keywords,
                  keywords, regexes, symbols, symbols, symbols, symbols, st.sampled_from(["nil", "true", "false"]),
                  st.integers(0, 60).flatmap(lambda i: _bad_literals if i == 0 else st.just("nil")))

# -- compound forms ---------------------------------------------------------------------------


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p != "")


def _paren(*parts: str) -> str:
    return "(" + _join(*parts) + ")"


local = st.sampled_from(LOCALS)


def _targets(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Binding targets: symbols, destructuring patterns, and some nonsense."""
    return st.one_of(
        local, local, local,
        st.lists(local, min_size=1, max_size=3).map(lambda xs: "[" + " ".join(xs) + "]"),
        st.tuples(local, local).map(lambda t: f"[{t[0]} & {t[1]}]"),
        st.lists(local, min_size=1, max_size=3).map(lambda xs: "{:keys [" + " ".join(xs) + "]}"),
        st.tuples(local, children).map(lambda t: f"{{{t[0]} :a :or {{{t[0]} {t[1]}}}}}"),
        st.tuples(local, local).map(lambda t: f"[{t[0]} :as {t[1]}]"),
        st.sampled_from(["_", "1", '"s"', ":k", "nil", "[]", "{}", "[& r]", "{:strs [a]}", "[a [b c]]"]),
    )


# Form kinds, repeated to weight them: plain builtin calls dominate, as in real programs.
KINDS = (["call"] * 12 + ["aliased", "call_any", "special", "special", "refused", "vector", "vector", "map",
          "odd_map", "set", "quoted", "let", "let", "fn", "fn_call", "anon", "hof", "hof", "hof", "loop",
          "counting_loop", "if", "if", "cond", "case", "for", "dotimes", "try", "throw", "thread", "def",
          "defn", "tool", "data"])
HOFS = ["map", "filter", "remove", "reduce", "mapv", "filterv", "keep", "some", "every?", "sort-by", "group-by",
        "mapcat", "take-while", "drop-while", "partition-by", "map-indexed", "reduce-kv", "update", "update-in",
        "apply", "comp", "partial", "juxt", "iterate", "repeatedly", "transduce", "max-by", "min-by", "sum-by"]


@st.composite
def form(draw: st.DrawFn, depth: int = 4) -> str:
    """One form: an atom, or (with decreasing probability as depth runs out) a compound form."""
    if depth <= 0 or draw(st.integers(0, 99)) < 25:
        return draw(atoms)
    child = form(depth - 1)
    args = st.lists(child, max_size=4)

    def body() -> str:
        return " ".join(draw(st.lists(child, min_size=1, max_size=2)))

    def params() -> str:
        return draw(st.one_of(
            st.lists(local, max_size=3, unique=True).map(lambda xs: "[" + " ".join(xs) + "]"),
            st.lists(_targets(child), max_size=3).map(lambda xs: "[" + " ".join(xs) + "]"),
            st.just("[& xs]"),
        ))

    def bindings() -> str:
        pairs = draw(st.lists(st.tuples(_targets(child), child), max_size=3))
        return "[" + " ".join(f"{t} {e}" for t, e in pairs) + "]"

    kind = draw(st.sampled_from(KINDS))
    if kind == "call":
        return _paren(draw(st.sampled_from(FUNCTIONS)), *draw(args))
    if kind == "aliased":
        return _paren(draw(st.sampled_from(ALIASED or ["str/join"])), *draw(args))
    if kind == "call_any":
        return _paren(draw(child), *draw(args))
    if kind == "special":
        return _paren(draw(st.sampled_from(SPECIALS)), *draw(args))
    if kind == "refused":
        return _paren(draw(st.sampled_from(REFUSED)), *draw(args))
    if kind == "vector":
        return "[" + " ".join(draw(args)) + "]"
    if kind == "map":
        pairs = draw(st.lists(st.tuples(child, child), max_size=3))
        return "{" + " ".join(f"{k} {v}" for k, v in pairs) + "}"
    if kind == "odd_map":
        return "{" + " ".join(draw(args)) + "}"
    if kind == "set":
        return "#{" + " ".join(draw(args)) + "}"
    if kind == "quoted":
        return draw(st.one_of(args.map(lambda a: "'(" + " ".join(a) + ")"), child.map(lambda c: "'" + c)))
    if kind == "let":
        return _paren("let", bindings(), body())
    if kind == "fn":
        return _paren("fn", draw(st.sampled_from(["", "self"])), params(), body())
    if kind == "fn_call":
        return _paren(_paren("fn", params(), body()), *draw(args))
    if kind == "anon":
        inner = draw(st.lists(st.one_of(child, st.sampled_from(["%", "%1", "%2", "%&"])), max_size=3))
        return "#(" + _join(draw(st.sampled_from(FUNCTIONS)), *inner) + ")"
    if kind == "hof":
        f = draw(st.one_of(child, st.sampled_from(FUNCTIONS), keywords, child.map(lambda c: f"(fn [x] {c})"),
                           child.map(lambda c: f"#(+ % {c})")))
        return _paren(draw(st.sampled_from(HOFS)), f, *draw(args))
    if kind == "loop":
        pairs = draw(st.lists(st.tuples(local, child), max_size=3))
        n = len(pairs) if draw(st.integers(0, 4)) else draw(st.integers(0, 4))
        recur_args = draw(st.lists(child, min_size=n, max_size=n))
        return _paren("loop", "[" + " ".join(f"{s} {e}" for s, e in pairs) + "]",
                      _paren("if", draw(child), _paren("recur", *recur_args), draw(child)))
    if kind == "counting_loop":
        return (f"(loop [i 0 acc []] (if (< i {draw(st.integers(0, 2000))}) "
                f"(recur (inc i) (conj acc {draw(child)})) (count acc)))")
    if kind == "if":
        head = draw(st.sampled_from(["if", "if-not", "when", "when-not", "if-let", "when-let", "if-some"]))
        test = draw(child)
        if head in ("if-let", "when-let", "if-some"):
            test = f"[{draw(_targets(child))} {test}]"
        few, many = (1, 2) if head.startswith("if") and draw(st.integers(0, 4)) else (0, 3)
        return _paren(head, test, *draw(st.lists(child, min_size=few, max_size=many)))
    if kind == "cond":
        return _paren(draw(st.sampled_from(["cond", "condp =", "cond->", "case"])), *draw(st.lists(child, max_size=6)))
    if kind == "case":
        return _paren("case", draw(child), *draw(st.lists(child, max_size=5)))
    if kind == "for":
        mod = draw(st.sampled_from(["", ":when (odd? x)", ":let [z 1]", ":while false", ":when", "y (range 3)"]))
        return _paren(draw(st.sampled_from(["for", "doseq"])), f"[x {draw(child)} {mod}]", body())
    if kind == "dotimes":
        return _paren("dotimes", f"[i {draw(child)}]", body())
    if kind == "try":
        cls = draw(st.sampled_from(["Exception", "Throwable", "ExceptionInfo", "Error", "e"]))
        fin = draw(st.sampled_from(["", "(finally 1)", "(finally (println :f))"]))
        return _paren("try", body(), _paren("catch", cls, "e", draw(child)), fin)
    if kind == "throw":
        return f'(throw (ex-info "boom" {{:v {draw(child)}}}))'
    if kind == "thread":
        steps = draw(st.lists(st.one_of(st.sampled_from(FUNCTIONS), child, keywords), max_size=4))
        return _paren(draw(st.sampled_from(["->", "->>", "some->", "some->>", "cond->", "as-> x"])), draw(child),
                      *steps)
    if kind == "def":
        return _paren("def", draw(local), draw(child))
    if kind == "defn":
        return _paren("defn", draw(local), params(), body())
    if kind == "tool":
        return _paren(draw(st.sampled_from(["tool/echo", "tool/boom"])), *draw(args))
    assert kind == "data"
    return draw(st.sampled_from(["data/n", "data/rows", "data/s", "(:a (first data/rows))",
                                 "(pluck data/rows :a)", "(sum-by :a data/rows)", "*1", "m"]))


def forms(depth: int = 4) -> st.SearchStrategy[str]:
    return form(depth)


# Defines every local name, so that programs using them get past the analyzer and run.
PRELUDE = ("(def x 3) (def y [1 2 3]) (def n 2) (def acc []) (def xs '(1 \"a\" :k)) (def a {:a 1 :b [2]}) "
           "(def b \"bee\") (def k :a) (def v 1.5) (def f inc)")


def programs() -> st.SearchStrategy[str]:
    """One to three top-level forms built from the vocabulary, usually after PRELUDE."""
    return st.tuples(st.booleans(), st.booleans(), st.lists(forms(), min_size=1, max_size=3)).map(
        lambda t: "\n".join(([PRELUDE] if t[0] or t[1] else []) + t[2]))


# -- text and mutations ---------------------------------------------------------------------------


def _seed_programs() -> list[str]:
    seeds = [src for b in REGISTRY.values() for src, _ in b.examples]
    seeds += [src for s in SPECIAL_FORMS.values() for src, _ in s.examples]
    corpus = Path(__file__).resolve().parents[1] / "conformance" / "corpus.clj"
    if corpus.exists():
        for line in corpus.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith(";"):
                seeds.append(line)
    return sorted(set(seeds)) or ["(+ 1 2)"]


SEEDS = _seed_programs()
_INSERTS = list("()[]{}#'\"\\;@^`~%&:/ 0123456789.-+NM_e") + ["\x00", "\ud800", "é", "\n", "#_", "#(", "#{",
                                                            "##", "#\"", "\\u", "1e", "recur", "(range)"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid program with a few characters deleted, duplicated, inserted or spliced in."""
    src = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        if not src:
            src = draw(st.sampled_from(SEEDS))
            continue
        i = draw(st.integers(0, len(src) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "insert", "insert", "splice", "swap"]))
        if op == "delete":
            j = draw(st.integers(i, min(len(src), i + 4)))
            src = src[:i] + src[j:]
        elif op == "duplicate":
            j = draw(st.integers(i, min(len(src), i + 20)))
            src = src[:j] + src[i:j] * draw(st.integers(1, 3)) + src[j:]
        elif op == "insert":
            src = src[:i] + draw(st.sampled_from(_INSERTS)) + src[i:]
        elif op == "splice":
            src = src[:i] + draw(st.sampled_from(SEEDS)) + src[i:]
        else:
            j = draw(st.integers(0, len(src) - 1))
            a, b = sorted((i, j))
            if a != b:
                src = src[:a] + src[b] + src[a + 1:b] + src[a] + src[b + 1:]
    return src


lisp_text = st.lists(st.one_of(st.sampled_from(_INSERTS), st.sampled_from(list("abcxyz+-*/<>=!?"))),
                     max_size=40).map("".join)


def texts() -> st.SearchStrategy[str]:
    """Arbitrary text, Lisp-flavoured character soup, and mutations of valid programs."""
    return st.one_of(st.text(_chars, max_size=40), lisp_text, mutated(), mutated())


# -- stress: big, deep, shared or infinite values fed to random builtins -------------------------

STRUCTURES = [
    "(reduce (fn [m _] [m]) [] (range {d}))",  # deep vector
    "(reduce (fn [m _] {{:a m}}) {{}} (range {d}))",  # deep map
    "(reduce (fn [m _] (list m)) () (range {d}))",  # deep list
    "(reduce (fn [m _] #{{m}}) #{{}} (range {d}))",  # deep set
    "(reduce (fn [s _] (map identity s)) [1 2 3] (range {d}))",  # deeply nested lazy seq
    "(reduce (fn [s _] (concat s [1])) [] (range {d}))",  # concat tower
    "(reduce (fn [s _] (rest s)) (range {d}) (range {d}))",
    "(reduce (fn [m _] [m m]) [] (range {k}))",  # DAG: 2^k leaves, k nodes
    "(reduce (fn [m _] {{:a m :b m}}) {{}} (range {k}))",
    "(reduce (fn [m _] (list m m)) () (range {k}))",
    "(range {n})", "(vec (range {n}))", "(set (range {n}))", "(zipmap (range {n}) (range {n}))",
    "(apply str (repeat {n} \"x\"))", "(apply str (repeat {n} \"\\u00df\ufb03\"))",
    "(repeat {n} [1 2])", "(map str (range {n}))",
    "(apply *' (range 1 {i}))", "(bit-shift-left 1 62)", "(- (bit-shift-left 1 62))",
    "(range)", "(iterate inc 0)", "(cycle [1 2])", "(repeat 1)", "(repeatedly (fn [] 1))",
    "[##NaN ##NaN]", "{{##NaN 1}}", "(str \"\\ud800\" \"a\")", "(vec (repeat 10 (range 10)))",
]
_OP_SHAPES = [
    "({f} s)", "({f} s t)", "({f} identity s)", "({f} s 1)", "({f} s :a)", "({f} #(vector % %) s)",
    "({f} 2 s)", "({f} s s s)", "(count ({f} s))", "(str ({f} s))", "(first ({f} s))", "({f} [s t])",
    "({f} {{:a s}})", "({f} #{{1}} s)", "({f} \",\" s)", "({f} s 0 3)", "({f} inc s)", "({f} + 0 s)",
]
_FIXED_OPS = ["(= s t)", "(hash-set s t)", "(tool/echo s)", "(println s)", "(pr-str s)", "(sort [s t])",
              "(compare s t)", "(get-in s [0 0 0])", "(frequencies [s t])", "(distinct [s t])", "(flatten s)",
              "(group-by identity [s t])", "(into #{} [s t])", "(str s)", "(count (str s))", "s",
              "(def g s)", "(try (throw (ex-info \"x\" {:v s})) (catch Exception e (ex-data e)))"]


@st.composite
def stress(draw: st.DrawFn) -> str:
    """Big, deep, shared or infinite values handed to random builtins (limits' worst cases)."""
    sizes = dict(d=draw(st.sampled_from([100, 1000, 5000, 30000])), k=draw(st.integers(5, 64)),
                 n=draw(st.sampled_from([1000, 100000, 999999, 1000001])), i=draw(st.integers(10, 1500)))
    s_ = draw(st.sampled_from(STRUCTURES)).format(**sizes)
    t_ = draw(st.sampled_from(STRUCTURES)).format(**sizes) if draw(st.booleans()) else s_
    if draw(st.integers(0, 3)):
        op = draw(st.sampled_from(_OP_SHAPES)).format(f=draw(st.sampled_from(FUNCTIONS)))
    else:
        op = draw(st.sampled_from(_FIXED_OPS))
    return f"(let [s {s_} t {t_}] {op})"


def anything() -> st.SearchStrategy[str]:
    return st.one_of(programs(), programs(), texts(), stress())
