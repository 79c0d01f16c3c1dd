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


# One test per document: its commands run in order, in one directory (later ones may use files
# earlier ones wrote), whichever worker runs it.
CASES = {p.name: commands for p in DOCS if (commands := console_blocks(p))}


def workdir(tmp_path: Path) -> Path:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "ptc").symlink_to(ROOT / "ptc")  # the shipped data files and cassettes (ptc/examples/...)
    return tmp_path


def run_command(cwd: Path, command: str, expected: list[str]) -> None:
    assert command.startswith(("ptc ", "printf ")), "docs show ptc commands only"
    env = {**os.environ, "PTC_HOME": str(cwd / "home"), "NO_COLOR": "1", "COLUMNS": "200"}
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    proc = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, (command, proc.stdout[-2000:], proc.stderr[-2000:])
    for line in expected:
        assert line in proc.stdout, (command, line, proc.stdout[-3000:])


@pytest.mark.parametrize("doc", list(CASES))
def test_commands(doc: str, tmp_path: Path) -> None:
    cwd = workdir(tmp_path)
    for command, expected in CASES[doc]:
        run_command(cwd, command, expected)


def test_docs_show_commands() -> None:
    assert sum(map(len, CASES.values())) >= 10
