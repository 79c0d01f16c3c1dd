"""The README's quickstart stays true: its commands, its sample output, and .ci/run."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _section(title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert m, f"README has no '## {title}' section"
    return m.group(1)


def _blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.S)


def test_quickstart_has_exactly_two_commands():
    commands = [line for line in _blocks(_section("Quickstart"))[0].splitlines() if line.strip()]
    assert commands == [
        "pip install . && ptc demo",
        'pip install ".[test]" && python -m pytest -q -n 2 -m "not fuzz and not timing" '
        '&& python -m pytest -q -n 2 -m timing',
    ]


def test_quickstart_output_is_what_the_demo_prints(monkeypatch, tmp_path):
    from ptc.cli.main import main

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PTC_HOME", str(tmp_path))
    expected = _blocks(_section("Quickstart"))[1]
    r = CliRunner().invoke(main, ["demo"])
    assert r.exit_code == 0, r.output
    for line in expected.splitlines():
        assert line in r.stdout


def test_sample_program_in_the_command_table_runs(monkeypatch, tmp_path):
    from ptc.cli.main import main

    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(main, ["run", "examples/cli/orders.clj", "--data", "examples/cli/orders.json"])
    assert r.exit_code == 0, r.output
    assert ":total-revenue 14755" in r.stdout


def test_readme_agent_example_runs_offline(monkeypatch):

    code = next(b for b in _blocks(_section("An agent with a typed tool")) if b.startswith("import ptc"))
    reply = ("```clojure\n(let [rs (tool/search-reviews {:category \"Electronics\"})\n"
             "      best (max-by :stars rs)]\n  (return (select-keys best [:product :stars])))\n```")
    code = code.replace('llm="openai/gpt-4o-mini"', "llm=ptc.ScriptedLLM([REPLY])")
    assert "ScriptedLLM" in code
    printed: list[str] = []
    monkeypatch.setattr("builtins.print", lambda *a: printed.append(" ".join(map(str, a))))
    exec(compile(code, "README.md", "exec"), {"REPLY": reply})
    assert printed[0] == "True {'product': 'Laptop', 'stars': 5}"
    assert "prompt_tokens" in printed[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in ci
    assert "export LITELLM_LOCAL_MODEL_COST_MAP=True" in ci
    assert 'pip install -q ".[test]"' in ci
    test_command = _blocks(_section("Quickstart"))[0].splitlines()[1].split(" && ", 1)[1]
    assert test_command in ci
    assert "-eq 5" in ci  # "no tests collected" is a failure


def test_readme_python_example(monkeypatch):
    import ptc

    code = next(b for b in _blocks(_section("A taste of PTC-Lisp")) if b.startswith("import ptc"))
    printed: list[str] = []
    monkeypatch.setattr("builtins.print", lambda *a: printed.append(" ".join(map(str, a))))
    exec(compile(code, "README.md", "exec"), {})
    assert printed == ["3", "3"]
    assert ptc.run("(+ 1 2)").value == 3


def test_readme_taste_program_runs():
    import json

    import ptc

    code = next(b for b in _blocks(README) if b.startswith("(defn revenue"))
    data = json.loads((ROOT / "examples" / "cli" / "orders.json").read_text())
    r = ptc.run(code, data=data)
    assert ptc.to_python(r.value) == {"east": 6380, "south": 3420, "west": 3045, "north": 1910}


def test_readme_error_example(monkeypatch, tmp_path):
    from ptc.cli.main import main

    block = next(b for b in _blocks(_section("Command line")) if b.startswith("$ ptc eval"))
    command, _, expected = block.partition("\n")
    source = command.split("'")[1]
    monkeypatch.setenv("PTC_HOME", str(tmp_path))
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        runner = CliRunner()
    r = runner.invoke(main, ["eval", source])
    assert r.exit_code == 1
    got, want = r.stderr.splitlines(), expected.splitlines()
    assert got[:3] == want[:3]  # header, source line, caret
    # the suggestions may grow with the library; the best one must stay first
    assert got[3].startswith(want[3].split("?")[0])
