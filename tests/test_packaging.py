"""`pip install .` builds a wheel that carries the grammar and the data files ptc needs."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_contains_grammar_cassettes_scenarios_and_bundled_suite(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    wheel = next(tmp_path.glob("ptc_lisp-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    # `ptc` on the package index is an unrelated project: the distribution is ptc-lisp, the
    # import name and the command stay ptc
    assert "\nName: ptc-lisp\n" in metadata
    assert "Provides-Extra: data" in metadata and "duckdb" in metadata
    assert "ptc/interpreter/grammar.lark" in names
    assert "ptc/examples/cassettes/data-analysis.jsonl" in names
    assert {"ptc/examples/data/orders.csv", "ptc/examples/data/orders.parquet"} <= names
    assert {"ptc/scenarios/demo.py", "ptc/scenarios/bench.py", "ptc/bench/tokens.py"} <= names
    assert any(n.startswith("ptc/suite/bundled/") and n.endswith((".yaml", ".json")) for n in names)
    assert any(n.startswith("ptc/suite/bundled/") and n.endswith(".jsonl") for n in names)
    assert not any(n.startswith("tests/") for n in names)
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "ptc = ptc.cli.main:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_optional_extras_are_declared() -> None:
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = meta["optional-dependencies"]
    assert {"ray", "otel", "plot", "postgres", "test", "charts", "notebook", "data"} <= set(extras)
    assert any(d.startswith("pyarrow") for d in extras["data"]) and any(d.startswith("openpyxl") for d in extras["data"])
    core = " ".join(meta["dependencies"])
    for heavy in ("ray", "matplotlib", "psycopg", "opentelemetry", "vl-convert", "altair", "ipython", "nbclient",
                  "pyarrow", "openpyxl", "pandas", "polars", "duckdb"):
        assert heavy not in core  # extras install only what they need


# Binary files the tree may hold: images of the docs and the bundled example data, nothing else
# (a wheel or an archive committed by accident is caught here; 678f4ec committed seven wheels).
ALLOWED_BINARIES = {"docs/": (".png",), "ptc/examples/data/": (".parquet", ".xlsx", ".sqlite", ".duckdb")}


def test_no_binary_file_lands_in_the_tree_outside_the_data_folders() -> None:
    import codecs
    import shutil

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        import pytest

        pytest.skip("not a git checkout")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    binaries = []
    for raw in filter(None, files):
        name = raw.decode()
        data = (ROOT / name).read_bytes()[:65536]
        if b"\0" not in data:
            try:  # a prefix: a character cut at its end is not an error
                codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
                continue
            except UnicodeDecodeError:
                pass
        if not any(name.startswith(folder) and name.endswith(suffixes) for folder, suffixes in ALLOWED_BINARIES.items()):
            binaries.append(name)
    assert not binaries, f"binary files outside {sorted(ALLOWED_BINARIES)}: {binaries}"
