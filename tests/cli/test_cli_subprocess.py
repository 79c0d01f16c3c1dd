"""The real entry points: the installed `ptc` console script, `python -m ptc`, a pty REPL."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "cli"


def _console_script() -> str | None:
    """The `ptc` script installed next to this interpreter (or on PATH)."""
    bindir = Path(sys.executable).parent
    for name in ("ptc", "ptc.exe"):
        if (bindir / name).exists():
            return str(bindir / name)
    return shutil.which("ptc")


PTC = _console_script()
needs_script = pytest.mark.skipif(PTC is None, reason="the ptc console script is not installed (pip install .)")


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PTC_HOME"] = str(tmp_path / "home")
    env.pop("FORCE_COLOR", None)
    env["NO_COLOR"] = "1"
    return env


def _run(cmd: list[str], tmp_path: Path, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, input=input, capture_output=True, text=True, timeout=60, cwd=ROOT, env=_env(tmp_path)
    )


@needs_script
def test_console_script_eval(tmp_path):
    p = _run([PTC, "eval", '(println "hi") (+ 1 2)'], tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "hi\n3\n"


@needs_script
def test_console_script_version(tmp_path):
    from ptc import __version__

    p = _run([PTC, "--version"], tmp_path)
    assert p.returncode == 0
    assert p.stdout.strip() == f"ptc {__version__}"


@needs_script
def test_console_script_run_orders_json(tmp_path):
    p = _run([PTC, "run", "examples/cli/orders.clj", "--data", "examples/cli/orders.json", "--json"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["value"]["total-revenue"] == 14755


@needs_script
def test_console_script_error_exit_status(tmp_path):
    p = _run([PTC, "eval", "(+ 1 :a)"], tmp_path)
    assert p.returncode == 1
    assert p.stdout == ""
    assert p.stderr.startswith("error[")
    assert "\x1b[" not in p.stderr


def test_python_dash_m(tmp_path):
    p = _run([sys.executable, "-m", "ptc", "eval", "(reduce + (range 5))"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "10\n"


def test_python_dash_m_run_stdin(tmp_path):
    p = _run([sys.executable, "-m", "ptc", "run", "-"], tmp_path, input="(str \"a\" \"b\")")
    assert p.returncode == 0, p.stderr
    assert p.stdout == '"ab"\n'


def test_repl_piped_subprocess(tmp_path):
    p = _run([sys.executable, "-m", "ptc", "repl"], tmp_path, input="(def n 4)\n(* n\n n)\n(inc *1)\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[1:] == ["16", "17"]
    assert not (tmp_path / "home" / "history").exists()  # no prompt history when piped


def test_import_is_light(tmp_path):
    """The CLI loads no heavy module; a program and an agent run without charts load no chart
    or notebook machinery (one subprocess for both checks)."""
    code = (
        "import sys, ptc.cli.main\n"
        "names = ('lark', 'rich', 'prompt_toolkit', 'litellm', 'mcp', 'ptc.interpreter.api', 'jsonschema',\n"
        "         'vl_convert', 'IPython', 'nbformat')\n"
        "print([m for m in names if m in sys.modules])\n"
        "import ptc\n"
        "ptc.run('{:a [1 2]}'); ptc.Agent('x', llm=lambda m: '```clojure\\n(return 1)\\n```').run()\n"
        "print([m for m in ('jsonschema', 'vl_convert', 'IPython', 'altair') if m in sys.modules])"
    )
    p = _run([sys.executable, "-c", code], tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().splitlines()[-2:] == ["[]", "[]"]



def _modules_of_command(tmp_path: Path, *argv: str) -> tuple[str, set[str]]:
    """Run `ptc ARGV` in a fresh process: (its stdout, the names of the modules it loaded)."""
    code = ("import sys\nfrom ptc.cli.main import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)))\n")
    p = _run([sys.executable, "-c", code, *argv], tmp_path)
    loaded = p.stderr.rpartition("MODULES ")[2].split()
    return p.stdout, set(loaded)


def test_eval_and_a_csv_count_load_only_what_they_use(tmp_path):
    """Issue 44, item 10: `ptc eval '(+ 1 2)'` starts without Lark (the scanner's patterns are
    cached), asyncio (async tools alone) or pyarrow; a CSV count loads pyarrow but not pandas
    (pyarrow asks pandas when it converts a Python scalar: `compute.equal(col, "")` did)."""
    out, loaded = _modules_of_command(tmp_path, "eval", "(+ 1 2)")
    assert out == "3\n"
    _, again = _modules_of_command(tmp_path, "eval", "(+ 1 2)")  # the first start wrote the cache
    assert {"lark", "asyncio", "pyarrow", "pandas", "litellm"} & again == set()
    assert list((tmp_path / "home" / "cache").glob("scanner-*.json"))
    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n1,x\n2,\n3,z\n")  # an empty text cell: the path that asked pandas
    out, loaded = _modules_of_command(tmp_path, "eval", "--data", f"x={csv}", "(mapv :b data/x)")
    assert out == '["x" nil "z"]\n'
    assert "pyarrow" in loaded and "pandas" not in loaded


PROMPT = "ptc>"  # prompt_toolkit draws the trailing space as a cursor movement
CONT = "...>"


def test_repl_pty(tmp_path):
    """The interactive prompt on a real pseudo-terminal (prompt_toolkit)."""
    pexpect = pytest.importorskip("pexpect")
    env = _env(tmp_path)
    env.pop("NO_COLOR")  # errors are coloured on a terminal
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"
    env["TERM"] = "xterm"
    child = pexpect.spawn(
        sys.executable, ["-m", "ptc", "repl"], env=env, cwd=str(ROOT), encoding="utf-8", timeout=30,
        dimensions=(24, 100),
    )
    try:
        child.expect_exact(PROMPT)
        child.send("(def x 21)\r")
        child.expect_exact(PROMPT)
        child.send("(* x\r")  # unbalanced: Enter continues the entry
        child.expect_exact(CONT)
        child.send("2)\r")
        child.expect(r"(?<!\d)42(?!\d)")
        child.expect_exact(PROMPT)
        child.send('(+ 1 "a")\r')
        child.expect(r"\x1b\[[0-9;]*m\s*error\[")  # coloured on a terminal
        child.expect_exact(PROMPT)
        child.send("(inc *1)\r")
        child.expect(r"(?<!\d)43(?!\d)")
        child.expect_exact(PROMPT)
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    history = (tmp_path / "home" / "history").read_text()
    assert "+(* x" in history


def test_repl_pty_a_long_line_that_wraps_shows_no_continuation_prompt(tmp_path):
    """A one-line entry longer than the terminal is wrapped by the terminal, not continued:
    no `...>` may appear in it (it read as a stray line before the error that followed)."""
    pexpect = pytest.importorskip("pexpect")
    env = _env(tmp_path)
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"
    env["TERM"] = "xterm"
    child = pexpect.spawn(sys.executable, ["-m", "ptc", "repl", "--limits", "max_result=10"], env=env,
                          cwd=str(ROOT), encoding="utf-8", timeout=30, dimensions=(24, 40))
    try:
        child.expect_exact(PROMPT)
        child.send("(->> (range 100) (map inc) (filter odd?) (map #(* % %)) (vec))\r")
        child.expect(r"error\[")
        assert CONT not in child.before
        child.expect_exact(PROMPT)
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
