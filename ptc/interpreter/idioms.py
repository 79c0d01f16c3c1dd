"""What models write from other languages, and the PTC-Lisp that does it: the hints errors give.

Models trained mostly on Python and JavaScript, or on other Lisps and other PTC dialects,
write `len`, `None`, `o.id`, `console.log`, `define`, `car`, `ctx/orders`... A "did you mean"
by spelling would answer `len` with `letfn`; these tables name the fix instead. The
analyzer asks `foreign_hint` about a name it cannot resolve, `namespace_hint` about an
unknown namespace, and `runtime_hint` rewrites the hint of an error whose message shows
arguments in the wrong order (`(update-vals count m)`, `(->> m (update-vals f))`).
"""

from __future__ import annotations

import re
from typing import Iterable

_PYTHON = {
    "len": "use (count xs)", "None": "use nil", "True": "use true", "False": "use false",
    "sum": "use (reduce + xs), or (sum-by :k rows) for a field", "sorted": "use (sort xs) or (sort-by :k xs)",
    "append": "use (conj v x)", "lambda": "use (fn [x] ...) or #(... %)",
    "elif": "use (cond test1 a test2 b :else c)", "else": "in cond write :else, in if just the third form",
    "in": "use (contains? coll k) for keys and sets, (some #{x} coll) for a value",
    "isinstance": "use string?, number?, map?, vector? or nil?", "enumerate": "use (map-indexed (fn [i x] ...) xs)",
    "zip": "use (map vector xs ys)", "dict": "use a map literal {:k v} or (hash-map :k v)",
    "items": "use (seq m) for [k v] pairs, or (keys m) and (vals m)",
    "lower": "use (str/lower-case s)", "upper": "use (str/upper-case s)", "strip": "use (str/trim s)",
    "startswith": "use (str/starts-with? s prefix)", "endswith": "use (str/ends-with? s suffix)",
    "join": "use (str/join sep xs)", "split": "use (str/split s #\"sep\")", "round": "use (Math/round x)",
    "f": "there are no f-strings: use (str \"text \" x) or (format \"text %s\" x)",
    "self": "there are no objects: pass the map and read fields with (:k m)",
    "import": "nothing needs importing: str/ and set/ are always available",
}
_JAVASCRIPT = {
    "console.log": "use (println ...)", "function": "use (fn [x] ...) or (defn name [x] ...)",
    "const": "use (def name value) or (let [name value] ...)", "null": "use nil", "undefined": "use nil",
    "===": "use =", "!==": "use not=", "!=": "use not=", "==": "use =", "&&": "use and", "||": "use or",
    "!": "use not", "parseInt": "use (parse-long s)", "parseFloat": "use (parse-double s)",
    "JSON.stringify": "use (pr-str x)", "JSON.parse": "data is already parsed: read fields with (:k m)",
    "Object.keys": "use (keys m)", "Object.values": "use (vals m)", "Object.entries": "use (seq m)",
    "Math.max": "use (max a b) or (apply max xs)", "Math.min": "use (min a b) or (apply min xs)",
    "push": "use (conj v x)", "forEach": "use (doseq [x xs] ...)", "length": "use (count xs)",
    "toString": "use (str x)", "typeof": "use string?, number?, map? or nil?", "await": "tool calls return their "
    "result directly: (tool/name {...})", "async": "tool calls return their result directly: (tool/name {...})",
}
_LISPS = {
    "define": "use (def name value) or (defn name [args] body)", "car": "use (first xs)", "cdr": "use (rest xs)",
    "cadr": "use (second xs)", "caddr": "use (nth xs 2)", "setq": "values are immutable: use (def name value) or let",
    "setf": "values are immutable: use (def name value), let, or assoc", "progn": "use (do ...)",
    "begin": "use (do ...)", "let*": "use let (its bindings are sequential)", "letrec": "use letfn or let",
    "defun": "use (defn name [args] body)", "null?": "use nil? or empty?", "eq?": "use =", "equal?": "use =",
    "eql": "use =", "eq": "use =", "equal": "use =", "mapcar": "use (map f xs)",
    "funcall": "call the function directly: (f x)", "display": "use (println x)", "string-append": "use (str a b)",
    "list-ref": "use (nth xs i)", "vector-ref": "use (nth v i)", "hash-ref": "use (get m k)",
    "gethash": "use (get m k)", "foldl": "use (reduce f init xs)", "foldr": "use (reduce f init (reverse xs))",
    "fold": "use (reduce f init xs)", "string-length": "use (count s)", "remove-if": "use (remove pred xs)",
    "remove-if-not": "use (filter pred xs)", "dolist": "use (doseq [x xs] ...)", "incf": "use (inc x)",
    "1+": "use (inc x)", "1-": "use (dec x)", "zerop": "use (zero? x)", "string=": "use =",
    "member": "use (some #{x} xs)", "defvar": "use (def name value)", "defparameter": "use (def name value)",
    "make-hash-table": "use a map literal {}", "string-upcase": "use (str/upper-case s)",
    "string-downcase": "use (str/lower-case s)", "princ": "use (println x)", "lambda": "use (fn [x] ...)",
}
# Other PTC dialects: where they keep input data, defined values and tools.
_DIALECT_NS = {
    "ctx": "data", "context": "data", "input": "data", "inputs": "data", "args": "data", "params": "data",
    "memory": "memory", "mem": "memory", "state": "memory", "user": "memory",
    "tools": "tool", "functions": "tool",
}
FOREIGN: dict[str, str] = {**_JAVASCRIPT, **_LISPS, **_PYTHON}

_METHODS = {  # x.method: what PTC-Lisp calls it, with x in place of X
    "length": "(count X)", "len": "(count X)", "size": "(count X)", "count": "(count X)", "keys": "(keys X)",
    "values": "(vals X)", "items": "(seq X)", "upper": "(str/upper-case X)", "lower": "(str/lower-case X)",
    "toUpperCase": "(str/upper-case X)", "toLowerCase": "(str/lower-case X)", "strip": "(str/trim X)",
    "trim": "(str/trim X)", "first": "(first X)", "last": "(last X)", "get": "(get X k)",
}


_TOOL_CALLERS = {"tool", "call-tool", "call_tool", "callTool", "invoke-tool", "use-tool", "run-tool", "tool-call"}


def foreign_hint(name: str, data: Iterable[str] = (), tools: Iterable[str] = ()) -> str | None:
    """The fix for a name from another language or dialect, or None."""
    if name in FOREIGN:
        return FOREIGN[name]
    if name in _TOOL_CALLERS or name.startswith(("tool-", "tool_", "tools-")):
        listed = " ".join(f"tool/{t}" for t in sorted(tools)[:5])
        return f"call a tool as (tool/name {{:arg value}}): {listed or 'no tools in this run'}"
    if name in _DIALECT_NS:
        if _DIALECT_NS[name] == "data":
            listed = " ".join(f"data/{d}" for d in sorted(data)[:5])
            return f"input data is read as data/name ({listed or 'no data in this run'})"
        if _DIALECT_NS[name] == "memory":
            return "names you def are used directly, e.g. (def total 5) then total"
    if "." in name.strip(".") and not name.startswith("."):
        obj, _, attr = name.partition(".")
        if obj in ("data", "tool", "tools"):
            return f"use {'data' if obj == 'data' else 'tool'}/{attr.split('.')[0]}"
        if obj == "str":
            return "clojure.string functions are str/name, e.g. (str/upper-case s)"
        method = _METHODS.get(attr)
        if method is not None:
            return "use " + method.replace("X", obj)
        if re.fullmatch(r"[\w-]+", attr):
            return f"read a field with (:{attr} {obj}) or (get {obj} :{attr})"
    return None


# numpy's, pandas', scipy's and scikit-learn's names whose PTC-Lisp function has another name
# (the analyzer looks up a name as it is, and kebab-cased, among the library's functions first)
PYTHON_NAMES: dict[str, str] = {
    "std": "stddev", "nanstd": "stddev", "var": "variance", "nanvar": "variance", "average": "mean",
    "nanmean": "mean", "nanmedian": "median", "skew": "skewness", "kurt": "kurtosis", "gmean": "geometric-mean",
    "hmean": "harmonic-mean", "rankdata": "rank", "zscore": "standardize", "cov": "covariance",
    "corr": "correlation", "corrcoef": "correlation", "pearsonr": "correlation-test", "spearmanr": "correlation-test",
    "kendalltau": "correlation-test", "ttest_1samp": "t-test-one-sample", "ttest_ind": "t-test-two-samples",
    "ttest_rel": "t-test-two-samples", "chi2_contingency": "chisq-test", "chisquare": "chisq-test",
    "crosstab": "contingency-table", "f_oneway": "one-way-anova-test", "shapiro": "shapiro-wilk-test",
    "kstest": "ks-test-one-sample", "ks_2samp": "ks-test-two-samples", "normaltest": "normality-test",
    "mannwhitneyu": "mann-whitney-u-test", "wilcoxon": "wilcoxon-test", "kruskal": "kruskal-test",
    "levene": "levene-test", "binomtest": "binomial-test", "fisher_exact": "fisher-exact-test",
    "linregress": "lm", "OLS": "lm", "ols": "lm", "polyfit": "lm", "r2_score": "r2", "mean_squared_error": "mse",
    "root_mean_squared_error": "rmse", "mean_absolute_error": "mae", "ppf": "icdf", "pmf": "pdf",
    "accuracy_score": "accuracy", "precision_score": "precision", "recall_score": "recall", "f1_score": "f1",
    "roc_auc_score": "roc-auc", "KMeans": "kmeans", "KNeighborsClassifier": "knn-classifier",
    "KNeighborsRegressor": "knn-regressor",
}
# Clojure libraries PTC-Lisp does not have, whose functions it offers under other names.
_LIBRARY_HINTS: dict[str, str] = {
    "kixi.stats.core": "its statistics are stats/ functions of a collection: (transduce (map :x) kixi/mean rows) "
                       "is (stats/mean (map :x rows)); (require '[fastmath.stats :as s]) also works",
    "incanter.stats": "its statistics are stats/ functions (fastmath.stats' names): (stats/mean xs), "
                      "(stats/quantile xs 0.25), (stats/t-test-two-samples xs ys); see (dir stats)",
    "tech.v3.datatype.functional": "its statistics are stats/ functions: (stats/mean xs), (stats/stddev xs), "
                                   "(stats/percentiles xs [25 75]); see (dir stats)",
    "tablecloth.api": "tables are vectors of maps: group-by, map and the stats/ functions do its work",
}


def library_hint(lib: str) -> str:
    """The hint for `(require '[lib ...])` of a library PTC-Lisp does not have."""
    return _LIBRARY_HINTS.get(lib) or ("call the loaded libraries' functions as str/..., set/..., clojure.walk/...; "
                                       "there are no other libraries")


def namespace_hint(ns: str, name: str, data: Iterable[str] = (), tools: Iterable[str] = ()) -> str | None:
    """The fix for `ns/name` where ns is another PTC dialect's namespace (ctx/, memory/...)."""
    kind = _DIALECT_NS.get(ns)
    if kind == "data":
        return f"use data/{name}" if name in set(data) else \
            f"input data is read as data/name ({' '.join('data/' + d for d in sorted(data)[:5]) or 'no data'})"
    if kind == "memory":
        return f"names you def are used directly: write {name}, not {ns}/{name}"
    if kind == "tool":
        return f"use tool/{name}" if name in set(tools) else \
            f"tools are called as tool/name ({' '.join('tool/' + t for t in sorted(tools)[:5]) or 'no tools'})"
    if ns[:1].isupper():  # a Java class: the namespaces that exist say more than a field read
        return None
    dotted = foreign_hint(f"{ns}.{name}")
    return dotted if dotted is not None and (ns, name) != ("str", name) else None


# Runtime errors whose message shows arguments in the wrong order, and the call's right order.
_ARG_ORDER: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), h) for p, h in (
    (r"^(update-vals|update-keys): expected a map, got function",
     r"(\1 m f): the map comes first; in ->> it comes last, so use -> or call (\1 m f)"),
    (r"^(map|filter|remove|keep|mapcat|mapv|filterv|some|every\?|sort-by|group-by|partition-by|take-while|"
     r"drop-while): don't know how to create a sequence from (keyword|function)",
     r"(\1 f coll): the function comes first; with -> the collection goes first, so use ->> for \1"),
    (r"^reduce: don't know how to create a sequence from",
     "(reduce f init coll): the initial value comes before the collection"),
    (r"^contains\?: not supported on (keyword|string|integer)",
     "(contains? coll key): the collection comes first; for a value in a list use (some #{x} coll)"),
    (r"^nth: index must be an integer, got", "(nth coll index): the collection comes first"),
    (r"^get-in: .*path", "(get-in m [:k1 :k2]): the map first, then a vector of keys"),
    (r"^(assoc|dissoc|update|merge|select-keys): expected a map( or vector)?, got (keyword|function)",
     r"(\1 m ...): the map comes first; in ->> it comes last, so use -> for \1"),
    (r"^(conj|into): .*got (keyword|integer|string)", r"(\1 coll x): the collection comes first"),
    (r"^(<|>|<=|>=|\+|-|\*|/|inc|dec|max|min): expected a number, got string",
     r"a string is not a number: parse it with (parse-long s) or (parse-double s)"),
))


def runtime_hint(message: str) -> str | None:
    """The fix for a runtime error that comes from an argument order or type mix-up."""
    for pattern, hint in _ARG_ORDER:
        m = pattern.search(message)
        if m is not None:
            return m.expand(hint)
    return None


__all__ = ["FOREIGN", "foreign_hint", "namespace_hint", "runtime_hint"]
