"""The PTC-Lisp reference, generated from the function registry (prompt and Markdown).

Because both the system prompt and docs/reference.md come from here, the model is never
told about a function that does not exist, and no function goes unmentioned.
"""

from __future__ import annotations

from collections import defaultdict

from .registry import REGISTRY, SPECIAL_FORMS, Builtin, load_library

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


def is_java(b: Builtin) -> bool:
    """A curated Java method (`.toUpperCase`, `.plusDays`) or a static of a Java class (`Math/sqrt`)."""
    return b.ns[:1].isupper() or (b.ns == "core" and b.name.startswith(".") and len(b.name) > 1)


def prompt_reference(java: str | None = None) -> str:
    """Compact reference for the system prompt: every special form and function, core ones by
    category, namespaced ones by namespace, with full docs only for PTC-specific aggregates
    (models already know Clojure's). With `java`, that text stands for the ~200 curated Java
    methods and statics instead of their names (models know the Java APIs by heart)."""
    groups = _grouped()
    lines = ["Special forms and macros: " + " ".join(sorted(SPECIAL_FORMS))]
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
            lines.append("PTC aggregates (not in Clojure):")
            lines += [f"  ({b.qualified} {' '.join(a.strip('[]') for a in b.arglists[:1])}) - {b.doc}" for b in items]
        else:
            lines.append(f"{cat.capitalize()}: " + " ".join(b.qualified for b in items))
    for ns in sorted(namespaced):
        lines.append(f"{_NS_TITLES.get(ns, ns)}/: " + " ".join(sorted(namespaced[ns])))
    if java is not None:
        lines.append(java)
    return "\n".join(lines)


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


def all_names() -> list[str]:
    load_library()
    return sorted(list(REGISTRY) + list(SPECIAL_FORMS))


if __name__ == "__main__":
    print(markdown_reference(), end="")
