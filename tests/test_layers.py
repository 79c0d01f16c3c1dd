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

# known upward imports (issue 32: at most 2): the higher part should register what the lower needs
KNOWN = {
    ("ptc.interpreter.api", "charts"),  # RunResult.chart / .charts
    ("ptc.interpreter.api", "viewer"),  # RunResult._repr_html_
    ("ptc.interpreter.api", "data"),  # RunResult.to_arrow / .to_pandas
    ("ptc.interpreter.api", "tools"),  # tools given to ptc.run, their lifetimes
    ("ptc.interpreter.values", "data"),  # DataFrames, Arrow and DuckDB objects as data
    ("ptc.interpreter.tool_calls", "tools"),
    ("ptc.interpreter.lib.chart", "charts"),
    ("ptc.agent.turn", "viewer"),  # Turn._repr_html_
    ("ptc.agent.loop", "viewer"),
    ("ptc.agent.loop", "compression"),
    ("ptc.agent.loop", "store"),
}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, module: str) -> set[str]:
    """Every module path:'s code imports, at the top or inside functions."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                out.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                out.add(node.module)
    return out


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
