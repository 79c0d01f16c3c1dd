"""Every `$ ptc ...` command shown in the README and docs/ runs, offline, and prints what is shown."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def console_blocks(path: Path) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each ```console block."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", path.read_text(), re.S):
        lines = block.rstrip("\n").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ "):
                expected = []
                for nxt in lines[i + 1:]:
                    if nxt.startswith("$ "):
                        break
                    expected.append(nxt)
                out.append((line[2:], [e for e in expected if e.strip()]))
    return out


# Commands run in order per document (later ones may use files earlier ones wrote), so one
# document's commands run on one xdist worker (`--dist loadgroup`, pyproject's addopts).
CASES = [pytest.param(p, cmd, exp, id=f"{p.name}:{cmd[:50]}", marks=pytest.mark.xdist_group(f"docs-{p.name}"))
         for p in DOCS for cmd, exp in console_blocks(p)]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("docs")
    (d / "examples").symlink_to(ROOT / "examples")
    (d / "ptc").symlink_to(ROOT / "ptc")  # the shipped data files and cassettes (ptc/examples/...)
    return d


@pytest.mark.parametrize("doc, command, expected", CASES)
def test_command(workdir: Path, doc: Path, command: str, expected: list[str]) -> None:
    assert command.startswith(("ptc ", "printf ")), "docs show ptc commands only"
    env = {**os.environ, "PTC_HOME": str(workdir / "home"), "NO_COLOR": "1", "COLUMNS": "200"}
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    proc = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, (command, proc.stdout[-2000:], proc.stderr[-2000:])
    for line in expected:
        assert line in proc.stdout, (command, line, proc.stdout[-3000:])


def test_docs_show_commands() -> None:
    assert len(CASES) >= 10
