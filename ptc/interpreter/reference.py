"""The PTC-Lisp reference, generated from the function registry (prompt and Markdown).

Because both the system prompt and docs/reference.md come from here, the model is never
told about a function that does not exist, and no function goes unmentioned.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable

from .registry import REGISTRY, SPECIAL_FORMS, Builtin, SpecialForm, load_library

CATEGORY_ORDER = [
    "special forms", "numbers", "comparison", "predicates", "strings", "regex", "collections", "maps",
    "sequences", "sets", "functions", "transducers", "aggregates", "math", "interop", "output",
]


def _grouped() -> dict[str, list[Builtin]]:
    load_library()
    groups: dict[str, list[Builtin]] = defaultdict(list)
    for b in REGISTRY.values():
        groups[b.category].append(b)
    for items in groups.values():
        items.sort(key=lambda b: b.qualified)
    return groups


def _categories(groups: dict[str, list[Builtin]]) -> list[str]:
    known = [c for c in CATEGORY_ORDER if c in groups]
    return known + sorted(c for c in groups if c not in CATEGORY_ORDER)


_NS_TITLES = {"clojure.string": "clojure.string (alias str)", "clojure.set": "clojure.set (alias set)"}

# The libraries the prompt names in one line each, with the functions a task most often needs:
# (dir ns) lists the rest, (doc f) explains one, so their size does not grow every prompt.
LIBRARY_LINES: dict[str, tuple[str, tuple[str, ...]]] = {
    "stats": ("statistics, fastmath.stats' names, pandas/scipy defaults", (
        "mean", "median", "quantile", "mode", "stddev", "variance", "skewness", "iqr", "outliers", "describe",
        "standardize", "rank", "histogram", "correlation", "correlation-test", "t-test-one-sample",
        "t-test-two-samples", "chisq-test", "one-way-anova-test", "shapiro-wilk-test", "ks-test-two-samples", "lm",
        "r2", "cdf", "icdf")),
    "ml": ("scikit-learn's models, same seed same answer", (
        "train-test-split", "linear-regression", "logistic-regression", "random-forest-classifier", "knn-classifier",
        "kmeans", "standard-scaler", "predict", "accuracy", "f1")),
    "clojure.math": ("Clojure 1.11's, also (round x 2) to 2 digits", ("floor", "round", "pow", "sqrt", "log")),
}

DISCOVERY = ("(doc f) shows a function, (find-doc \"text\") searches every function, (dir ns) lists a library; "
             "clojure.core's other pure functions (transients, bit-*, +') exist too.")


def _listed(b: Builtin) -> bool:
    """Whether the prompt names a core function: not the variants a task never needs to be told
    of (transients' `conj!`, auto-promoting `+'`, bit operations but the common ones, qualified-
    and simple- predicates). They exist, (doc f) explains them, and the prompt says so."""
    n = b.name
    if n.endswith(("!", "'")) or n.startswith(("qualified-", "simple-", "unsigned-")):
        return False
    return not n.startswith("bit-") or n in ("bit-and", "bit-or", "bit-xor", "bit-shift-left")


def is_java(b: Builtin) -> bool:
    """A curated Java method (`.toUpperCase`, `.plusDays`) or a static of a Java class (`Math/sqrt`)."""
    return b.ns[:1].isupper() or (b.ns == "core" and b.name.startswith(".") and len(b.name) > 1)


def library_line(ns: str) -> str | None:
    """The prompt's line for a library namespace (the names it holds among the featured), or None."""
    spec = LIBRARY_LINES.get(ns)
    if spec is None:
        return None
    have = set(namespace_names(ns))
    names = [name for name in spec[1] if name in have]
    return f"{ns}/ ({spec[0]}): {' '.join(names)} ... (dir {ns}) for all {len(have)}" if names else None


def prompt_reference(java: str | None = None) -> str:
    """Compact reference for the system prompt: every special form and core function by
    category, the PTC-only aggregates in one line, the small namespaces whole and the libraries
    (stats/, ml/, clojure.math/) as one line each, and how to find the rest. With `java`, that
    text stands for the ~200 curated Java methods and statics instead of their names (models know
    the Java APIs by heart)."""
    groups = _grouped()
    lines = [DISCOVERY, "Special forms and macros: " + " ".join(sorted(n for n, sf in SPECIAL_FORMS.items()
                                                                        if sf.category != "documentation"))]
    namespaced: dict[str, list[str]] = defaultdict(list)
    for cat in _categories(groups):
        shown = [b for b in groups[cat] if java is None or not is_java(b)]
        items = [b for b in shown if b.ns == "core"]
        for b in shown:
            if b.ns != "core":
                namespaced[b.ns].append(b.name)
        if not items:
            continue
        if cat == "aggregates":
            lines.append(PTC_AGGREGATES)
        else:
            lines.append(f"{cat.capitalize()}: " + " ".join(b.qualified for b in items if _listed(b)))
    for ns in sorted(namespaced):
        line = library_line(ns)
        lines.append(line if line is not None else f"{_NS_TITLES.get(ns, ns)}/: " + " ".join(sorted(namespaced[ns])))
    if java is not None:
        lines.append(java)
    return "\n".join(lines)


PTC_AGGREGATES = """\
PTC only (besides return and fail): (sum-by k rows) (avg-by k rows) (min-by k rows) (max-by k rows) skip nils
(min-by/max-by give the row); (pluck k rows); row predicates (where :k) (where :k op v), op := :not= :> :< :>= :<=
:in :not-in :contains :starts-with :ends-with, combined by all-of any-of none-of."""


def markdown_reference() -> str:
    """docs/reference.md: every function with its arglists, doc and a checked example."""
    groups = _grouped()
    out = ["# PTC-Lisp reference", "",
           "Generated from the interpreter's function registry (`python -m ptc.interpreter.reference`);",
           "every example below is run by the test suite.", ""]
    out += ["## Special forms and macros", ""]
    for name in sorted(SPECIAL_FORMS):
        sf = SPECIAL_FORMS[name]
        out.append(f"- `{'` `'.join(sf.arglists)}`: {sf.doc}")
        for src, expected in sf.examples:
            out.append(f"  `{src}` ;=> `{expected}`")
    for cat in _categories(groups):
        out += ["", f"## {cat.capitalize()}", ""]
        for b in groups[cat]:
            args = " ".join(f"`{a}`" for a in b.arglists)
            out.append(f"- **{b.qualified}** {args}: {b.doc}")
            for src, expected in b.examples:
                out.append(f"  `{src}` ;=> `{expected}`")
    return "\n".join(out) + "\n"


_RULE = "-------------------------"


def doc_text(entry: Builtin | SpecialForm) -> str:
    """What `(doc f)` prints, as Clojure's doc does: the name, the arglists, the doc, and one
    example with its value (what the model most needs to call it right)."""
    if isinstance(entry, Builtin):
        head, kind = entry.qualified, None
    else:
        head, kind = entry.name, "Special Form"
    lines = [_RULE, head, "(" + " ".join(entry.arglists) + ")"]
    if kind:
        lines.append(kind)
    lines.append("  " + entry.doc)
    lines += [f"  {src} ;=> {expected}" for src, expected in entry.examples[:2]]
    return "\n".join(lines)


def _entries() -> list[Builtin | SpecialForm]:
    load_library()
    return [*SPECIAL_FORMS.values(), *sorted(REGISTRY.values(), key=lambda b: b.qualified)]


FIND_LIMIT = 20  # entries find-doc prints at most: the rest are counted, to narrow the search


def find_doc(matches: Callable[[str], bool]) -> str:
    """What `(find-doc "text")` prints: each function whose name or doc matches, one line each
    (its arglists and the doc's first sentence), names that match first."""
    named, described = [], []
    for e in _entries():
        name = e.qualified if isinstance(e, Builtin) else e.name
        if matches(name):
            named.append((name, e))
        elif matches(e.doc):
            described.append((name, e))
    found = named + described
    lines = [f"{name} ({' '.join(e.arglists)}): {_first_sentence(e.doc)}" for name, e in found[:FIND_LIMIT]]
    if len(found) > FIND_LIMIT:
        lines.append(f"... and {len(found) - FIND_LIMIT} more: search for something narrower")
    return "\n".join(lines) if lines else "nothing found"


def _first_sentence(doc: str) -> str:
    cut = doc.find(". ")
    text = doc if cut < 0 else doc[:cut + 1]
    return text if len(text) <= 160 else text[:157] + "..."


def namespace_names(ns: str) -> list[str]:
    """The names of a namespace's functions (`(dir stats)`), sorted."""
    load_library()
    return sorted(b.name for b in REGISTRY.values() if b.ns == ns)


def library_markdown(ns: str) -> str:
    """The function list of a library's page (docs/stats.md), generated from the registry: the
    functions by the module that defines them (its docstring's first line is the section), each
    with its arglists, its doc (which names the Python function whose answer it gives) and its
    checked examples."""
    import sys

    load_library()
    modules: dict[str, list[Builtin]] = defaultdict(list)  # in the order the library imports them
    for b in REGISTRY.values():
        if b.ns == ns:
            modules[b.fn.__module__].append(b)
    out: list[str] = []
    for module in modules:
        first = (sys.modules[module].__doc__ or module).strip().splitlines()[0].split(": ", 1)[-1]
        title = re.split(r"[,(.:]", first)[0].strip()
        out += [f"### {title[:1].upper() + title[1:]}", ""]
        for b in sorted(modules[module], key=_line):
            out.append(f"- **{b.qualified}** {' '.join(f'`{a}`' for a in b.arglists)}: {b.doc}")
            out += [f"  `{src}` ;=> `{expected}`" for src, expected in b.examples]
        out.append("")
    return "\n".join(out)


def _line(b: Builtin) -> int:
    code = getattr(b.fn, "__code__", None)
    return code.co_firstlineno if code is not None else 0


def all_names() -> list[str]:
    load_library()
    return sorted(list(REGISTRY) + list(SPECIAL_FORMS))


if __name__ == "__main__":
    import sys

    print(library_markdown(sys.argv[2]) if sys.argv[1:2] == ["--library"] else markdown_reference(), end="")
