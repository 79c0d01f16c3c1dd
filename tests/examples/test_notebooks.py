"""The teaching notebooks run from a clean kernel, cell by cell, and show ptc's rich output."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "examples" / "notebooks"


def _charts_installed() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) for m in ("vl_convert", "jsonschema", "altair"))


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every notebook, executed at once (one clean kernel each), by name."""
    names = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    if not _charts_installed():
        names = [n for n in names if "charts" not in n]
    work = tmp_path_factory.mktemp("notebooks")
    books = {n: nbformat.read(NOTEBOOKS / f"{n}.ipynb", as_version=4) for n in names}

    async def run_all() -> None:
        await asyncio.gather(*(nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                                       resources={"metadata": {"path": str(work)}}).async_execute()
                               for nb in books.values()))

    asyncio.run(run_all())  # a failing cell raises CellExecutionError, naming the cell
    return books


def outputs(nb: Any) -> list[list[dict[str, Any]]]:
    return [c.get("outputs", []) for c in nb.cells if c.cell_type == "code"]


def html_of(cell_outputs: list[dict[str, Any]]) -> str:
    return "".join(o.get("data", {}).get("text/html", "") for o in cell_outputs)


def stderr_of(cell_outputs: list[dict[str, Any]]) -> str:
    return "".join(o.get("text", "") for o in cell_outputs if o.get("name") == "stderr")


def test_notebooks_are_committed_without_outputs() -> None:
    for path in NOTEBOOKS.glob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code"), path.name


def test_programs_notebook(executed: dict[str, Any]) -> None:
    cells = outputs(executed["01_programs"])
    assert "class='ptc'" in html_of(cells[0]) and "items: 4" in html_of(cells[0])
    magic_errors = [stderr_of(c) for c in cells if "error[" in stderr_of(c)]
    assert magic_errors and "did you mean map-indexed?" in magic_errors[0]  # shown, not a traceback
    assert not any(o.get("output_type") == "error" for c in cells for o in c)
    assert cells[-1][0]["data"]["text/plain"] == "'ann'"  # %%ptc --out kept the result in a variable


def test_tools_agents_charts_notebook(executed: dict[str, Any]) -> None:
    if "02_tools_agents_charts" not in executed:
        pytest.skip("charts need ptc-lisp[charts]")
    cells = outputs(executed["02_tools_agents_charts"])
    html = [html_of(c) for c in cells]
    assert any("tool/search-products" in h for h in html)
    assert any("parameter max-price" in stderr_of(c) for c in cells)
    assert any("Turn 2" in h and "<svg" in h for h in html)  # the step: turns and tokens per turn
    charts = [o for c in cells for o in c if "image/png" in o.get("data", {})]
    assert len(charts) == 2 and all(any(k.startswith("application/vnd.vegalite") for k in o["data"]) for o in charts)


def test_compression_traces_sessions_notebook(executed: dict[str, Any]) -> None:
    cells = outputs(executed["03_compression_traces_sessions"])
    text = "".join(o.get("text", "") for c in cells for o in c)
    assert "with compression" in text and "leaks in rain" in text
    assert any("What the model saw" in html_of(c) and "Append-only summaries" in html_of(c) for c in cells)
