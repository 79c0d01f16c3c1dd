"""The layers of docs/architecture.md: no module imports a package of a higher layer, except
the known debts listed here (each a module and the package it reaches up to). A new upward
import fails this test; so does a listed one that is gone (take it off the list)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "ptc"

LAYERS = [
    ["interpreter"],
    ["data", "charts", "tools", "llm"],
    ["agent"],
    ["compression", "conversation", "store"],
    ["sandbox", "suite", "viewer", "bench", "scenarios", "examples", "notebook"],
    ["cli", "__main__", "__init__"],
]
RANK = {p: i for i, ps in enumerate(LAYERS) for p in ps}

# known upward imports (issue 32: at most 2); what else a lower layer needs from a higher one it
# asks of ptc.interpreter.hooks, which the top layer (ptc/__init__.py) wires
KNOWN = {
    ("ptc.interpreter.lib.chart", "charts"),  # chart/ builtins check their specs as they are built
    ("ptc.agent.loop", "compression"),  # Agent(compression=...) names a strategy
}


def _modules(names: str) -> set[str]:
    return {"ptc." + n for n in names.split()}


# import cycles (issue 32: at most 2, none across packages): the modules of one package that import
# each other, module names under ptc. (the interpreter's values and printer; its library and registry)
KNOWN_CYCLES = [
    _modules("interpreter.lazy interpreter.printer interpreter.sorted interpreter.table interpreter.values"),
    _modules("interpreter.analyzer interpreter.columnar.dispatch interpreter.columnar.engine "
             "interpreter.columnar.expr interpreter.columnar.folds interpreter.columnar.kernels "
             "interpreter.columnar.reduce interpreter.lib interpreter.lib.chart interpreter.lib.core_collections "
             "interpreter.lib.core_functions interpreter.lib.core_numbers interpreter.lib.core_predicates "
             "interpreter.lib.core_random interpreter.lib.core_sequences interpreter.lib.core_sorted "
             "interpreter.lib.core_strings interpreter.lib.exceptions interpreter.lib.interop "
             "interpreter.lib.java_time interpreter.lib.methods interpreter.lib.ptc_aggregates "
             "interpreter.lib.regex interpreter.lib.set interpreter.lib.string interpreter.lib.transducers "
             "interpreter.lib.walk interpreter.nodes interpreter.patterns interpreter.reader interpreter.registry "
             "interpreter.runtime"),
]


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, module: str) -> set[str]:
    """Every module path's code imports, at the top or inside functions (`from . import x`, x a
    module, as that module), but those for annotations only (under `if TYPE_CHECKING:`)."""
    out: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []  # imports for annotations only: no module is loaded
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            elif node.module:
                source = node.module
            else:
                continue
            for a in node.names:
                sub = f"{source}.{a.name}"
                out.add(sub if _exists(sub) else source)
    return out


def _exists(module: str) -> bool:
    path = ROOT.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "ptc" else None


def upward_imports() -> set[tuple[str, str]]:
    found = set()
    for path in ROOT.rglob("*.py"):
        module = _module(path)
        source = _package(module) or "__init__"
        for target in map(_package, _imported(path, module)):
            if target and target != source and source in RANK and target in RANK and RANK[target] > RANK[source]:
                found.add((module, target))
    return found


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    packages |= {p.stem for p in ROOT.glob("*.py")}
    assert packages <= set(RANK), f"give these a layer in docs/architecture.md and here: {packages - set(RANK)}"


def test_no_new_import_points_up() -> None:
    found = upward_imports()
    assert not found - KNOWN, f"imports from a lower layer up (register instead): {sorted(found - KNOWN)}"
    assert not KNOWN - found, f"gone: take these off KNOWN: {sorted(KNOWN - found)}"


def import_cycles() -> list[set[str]]:
    """The sets of modules that import each other (strongly connected, function-level imports
    counted), found by Tarjan's algorithm over the module graph."""
    modules = {_module(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for m, p in modules.items():
        targets = set()
        for t in _imported(p, m):
            while t not in modules and "." in t:  # `from m import name`: the module m
                t = t.rsplit(".", 1)[0]
            if t in modules and t != m:
                targets.add(t)
        graph[m] = targets
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = set()
            while True:
                w = stack.pop()
                on.discard(w)
                scc.add(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(scc)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_import_cycles_stay_within_a_package_and_few() -> None:
    """No cycle across packages; no cycle but the known ones (a known cycle may take in a
    module of its package: each found cycle must meet a known one, one for one)."""
    cycles = import_cycles()
    across = [sorted(c) for c in cycles if len({_package(m) for m in c}) > 1]
    assert not across, f"import cycles across packages: {across}"
    new = [sorted(c) for c in cycles if not any(c & known for known in KNOWN_CYCLES)]
    assert not new, f"new import cycles: {new}"
    gone = [sorted(known) for known in KNOWN_CYCLES if not any(c & known for c in cycles)]
    assert not gone, f"gone: take these off KNOWN_CYCLES: {gone}"
    assert len(cycles) == len(KNOWN_CYCLES), "two known cycles became one, or one split: update KNOWN_CYCLES"
