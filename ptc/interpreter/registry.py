"""The function registry: the single source of truth for what PTC-Lisp offers.

The analyzer resolves names against it, the system prompt and docs/reference.md are
generated from it, and every entry's examples are run by the test suite, so the language
reference can never name a function that does not exist nor miss one.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

# Namespace aliases a program may use, mapped to the canonical namespace.
NS_ALIASES: dict[str, str] = {
    "clojure.string": "clojure.string",
    "str": "clojure.string",
    "string": "clojure.string",
    "s": "clojure.string",
    "clojure.set": "clojure.set",
    "set": "clojure.set",
    "Math": "Math",
    "math": "Math",
    "clojure.math": "clojure.math",
    "Integer": "Integer",
    "Long": "Integer",
    "Double": "Double",
    "clojure.core": "core",
    "chart": "chart",
    "clojure.walk": "clojure.walk",
    "walk": "clojure.walk",
    "Character": "Character",
    "Boolean": "Boolean",
    "System": "System",
    "String": "String",
    **{f"{pkg}{cls}": cls for cls in ("Math", "Character", "Boolean", "System", "String", "Double")
       for pkg in ("java.lang.",)},
    "stats": "stats",
    "fastmath.stats": "stats",
    "fastmath.ml.regression": "stats",
    "ml": "ml",
    "java.lang.Integer": "Integer",
    "java.lang.Long": "Integer",
    **{f"{pkg}{cls}": cls for cls in ("LocalDate", "LocalDateTime", "LocalTime", "Instant", "Duration", "ChronoUnit",
                                      "DayOfWeek", "Month") for pkg in ("", "java.time.", "java.time.temporal.")},
    **{f"{pkg}{cls}": cls for cls, pkg in (("DateTimeFormatter", ""), ("DateTimeFormatter", "java.time.format."),
                                           ("Locale", ""), ("Locale", "java.util."))},
}

# The libraries a program may `require` (all always loaded), mapped to their canonical namespace:
# `(require '[clojure.string :as cs])` makes cs an alias of it. A library added here needs its
# name in NS_ALIASES too, so that `lib/name` resolves.
LIBRARIES: dict[str, str] = {
    "clojure.string": "clojure.string",
    "clojure.set": "clojure.set",
    "clojure.walk": "clojure.walk",
    "clojure.math": "clojure.math",
    "fastmath.stats": "stats",
    "fastmath.ml.regression": "stats",
    "ml": "ml",
}


@dataclass(frozen=True)
class Segmented:
    """How a call runs over many groups' values at once (columnar.segments): its first `columns`
    arguments are sequences of numbers, the rest constants, and `kernel(segments, *constants)`
    gives each segment's value as a float array (NaN: nil). `picks`: the value is one of the
    sequence's values (a mode, a lower quantile), an integer when they all are."""

    columns: int
    kernel: Callable[..., Any]
    picks: bool = False


@dataclass(frozen=True)
class Builtin:
    """One library function. `examples` are (source, expected printed result) pairs."""

    name: str
    ns: str
    fn: Callable[..., Any]
    arglists: tuple[str, ...]
    doc: str
    category: str
    examples: tuple[tuple[str, str], ...] = ()
    # its fast forms, which every other part asks the entry for: `pure` (a call has no effect
    # but its value or an error: a pipeline stage calling only such builtins may be fused), and
    # `column_op` (the operation columnar/kernels.py computes over Arrow columns for it)
    pure: bool = False
    column_op: str | None = None
    # and `inline`: the template of the Python source a call compiles to (see lib/inline.py)
    inline: Callable[..., Any] | None = None
    # `stage`: what a call (f coll) is in a pipeline the compiler fuses into one loop ("map",
    # "filter", "remove", "keep"; "reduce": the fold that may end one), `vector_result` when
    # that stage gives a vector (mapv, filterv); `consumes`: which argument (-1: the last) a call
    # reads every item of at once, so the compiler makes that argument eagerly, not as a lazy seq
    stage: str | None = None
    vector_result: bool = False
    consumes: int | None = None
    # `shapes`: the shapes of its calls the compiler generates code of its own for, tried in
    # order (compiler.SHAPES: each declines a call that is not of its shape)
    shapes: tuple[str, ...] = ()
    # what the compiler may assume of a call's value: `boolean` (always true or false, so a test
    # of it needs no truthiness check), `int_result` (integer arguments give an integer),
    # `comparison` (a call of two numbers is this comparison of them; "= 0" / "> 0": of its one
    # argument and zero) and `step` ((f i) is i + step): counted loops are read from these
    boolean: bool = False
    int_result: bool = False
    comparison: str | None = None
    step: int | None = None
    # `group_read`: how the table engine reads a call of it in a group's body into a plan of
    # folds (a key of columnar/folds.GROUP_READS: "count", "reduce", "sort", "take"...)
    group_read: str | None = None
    # `row_map`: how a derived table reads a call of it that makes a map from each row
    # (columnar/expr._row_map: "assoc", "dissoc", "select-keys", "update", "merge", "rename-keys")
    row_map: str | None = None
    # `needs`: the Python modules a call imports (numpy, scipy.stats...), imported when a program
    # naming it is analyzed, before its run's clock starts (see `prepare`); `extra`: the pip
    # extra that installs them, which the error names when one is missing
    needs: tuple[str, ...] = ()
    extra: str | None = None
    # `segmented`: how a call runs over every group of a table at once (see Segmented): a group
    # body calling it is a fold of the table engine (columnar/folds.py)
    segmented: Segmented | None = None

    @property
    def qualified(self) -> str:
        return self.name if self.ns == "core" else f"{self.ns}/{self.name}"


@dataclass(frozen=True)
class SpecialForm:
    """A special form or built-in macro, handled by the analyzer; listed for the reference."""

    name: str
    arglists: tuple[str, ...]
    doc: str
    category: str
    examples: tuple[tuple[str, str], ...] = field(default=())


REGISTRY: dict[str, Builtin] = {}
SPECIAL_FORMS: dict[str, SpecialForm] = {}


def builtin(
    name: str,
    *,
    args: str | tuple[str, ...],
    doc: str,
    category: str,
    ns: str = "core",
    ex: tuple[tuple[str, str], ...] | tuple[str, str] = (),
    pure: bool = False,
    column_op: str | None = None,
    inline: Callable[..., Any] | None = None,
    stage: str | None = None,
    vector_result: bool = False,
    consumes: int | None = None,
    shapes: tuple[str, ...] = (),
    boolean: bool | None = None,
    int_result: bool = False,
    comparison: str | None = None,
    step: int | None = None,
    group_read: str | None = None,
    row_map: str | None = None,
    needs: tuple[str, ...] = (),
    extra: str | None = None,
    segmented: Segmented | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a Python function as a PTC builtin (`pure`, `column_op`, `inline`, `stage`,
    `vector_result`, `consumes`, `shapes`, `boolean`, `int_result`, `comparison`, `step`,
    `group_read`, `row_map`, `segmented`: its fast forms and what the compiler may assume of its
    value; `needs`, `extra`: the modules it imports, see Builtin). `boolean` is true by
    default for a predicate of clojure.core, clojure.string or clojure.set (a name ending in ?).

    Its `__qualname__` becomes `ptc:<name>` so that Python's own arity errors
    ("ptc:inc() takes 1 positional argument...") can be translated into PTC errors.
    """
    arglists = (args,) if isinstance(args, str) else tuple(args)
    examples: tuple[tuple[str, str], ...]
    if ex and isinstance(ex[0], str):
        examples = (ex,)  # type: ignore[assignment]
    else:
        examples = ex  # type: ignore[assignment]

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        predicate = name.endswith("?") and ns in ("core", "clojure.string", "clojure.set")
        b = Builtin(name, ns, fn, arglists, doc, category, examples, pure, column_op, inline, stage, vector_result,
                    consumes, shapes, predicate if boolean is None else boolean, int_result, comparison, step,
                    group_read, row_map, needs, extra, segmented)
        key = b.qualified
        if key in REGISTRY:
            raise ValueError(f"builtin {key} registered twice")
        REGISTRY[key] = b
        try:
            fn.__qualname__ = "ptc:" + key
        except (AttributeError, TypeError):
            pass
        return fn

    return register


def alias(name: str, target: str, ns: str = "core") -> None:
    """Register another name for an existing builtin (e.g. `clojure.math/floor` for `Math/floor`):
    its examples are the target's that call it, calling it by the new name."""
    b = REGISTRY[target]
    new = replace(b, name=name, ns=ns, doc=b.doc + f" (same as `{target}`)")
    call = re.compile(rf"\({re.escape(target)}(?=[\s)])")
    examples = tuple((call.sub(lambda _: "(" + new.qualified, src), expected)
                     for src, expected in b.examples if call.search(src))
    REGISTRY[new.qualified] = replace(new, examples=examples)


def names_heavy_namespace(source: str) -> bool:
    """Whether program text may name a builtin that needs modules (`stats/median`, a require of
    fastmath.stats): a process that will run it imports them first (isolation's zygote). A
    word test, not an analysis: a false yes costs one import per process, never a wrong answer."""
    heavy = {b.ns for b in REGISTRY.values() if b.needs}
    names = [a for a, ns in NS_ALIASES.items() if ns in heavy] + [lib for lib, ns in LIBRARIES.items() if ns in heavy]
    return any(re.search(rf"(?<![\w.*+!?<>=-]){re.escape(name)}[/\s\]]", source) for name in names)


_READY: set[str] = set()  # modules `prepare` has imported


def prepare(b: Builtin) -> str | None:
    """Import the modules b needs (once per process): a program's analysis does it, so a
    first call of a statistic does not spend its run's time importing scipy. Returns None, or
    what to tell the program when a module is not installed."""
    for module in b.needs:
        if module in _READY:
            continue
        try:
            importlib.import_module(module)
        except ImportError:
            root = module.split(".")[0]
            install = f"pip install 'ptc-lisp[{b.extra}]'" if b.extra else f"pip install {root}"
            return f"{b.qualified} needs the Python package {root}, which is not installed here: {install}"
        _READY.add(module)
    return None


def special_form(
    name: str, *, args: str | tuple[str, ...], doc: str, category: str,
    ex: tuple[tuple[str, str], ...] = (),
) -> None:
    arglists = (args,) if isinstance(args, str) else tuple(args)
    SPECIAL_FORMS[name] = SpecialForm(name, arglists, doc, category, ex)


def resolve(ns: str | None, name: str) -> Builtin | None:
    """The builtin a (possibly namespaced) symbol names, or None."""
    if ns is None:
        return REGISTRY.get(name)
    canonical = NS_ALIASES.get(ns)
    if canonical is None:
        return None
    return REGISTRY.get(name if canonical == "core" else f"{canonical}/{name}")


def all_builtins() -> Iterator[Builtin]:
    load_library()
    return iter(sorted(REGISTRY.values(), key=lambda b: (b.category, b.qualified)))


_loaded = False


def load_library() -> None:
    """Import the library modules (they register themselves); idempotent."""
    global _loaded
    if not _loaded:
        from . import analyzer, lib  # noqa: F401  (the analyzer registers the special forms)

        _loaded = True
