"""Every command that runs programs takes `--limits NAME=VALUE,...` (and `--timeout`), and a
limit's hint names the way to raise it where the program runs: the flag on the command line,
`Limits(...)` in Python, and for a model (which cannot raise it) what the program can do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ptc
from ptc.cli.main import main
from ptc.interpreter.errors import limit_hint


@pytest.mark.parametrize("command", ["eval", "run", "repl", "agent"])
def test_every_running_command_takes_limits_and_timeout(command: str) -> None:
    out = CliRunner().invoke(main, [command, "--help"])
    assert out.exit_code == 0 and "--limits NAME=VALUE,..." in out.output and "--timeout SECONDS" in out.output


def test_eval_with_limits_raised_and_lowered(invoke) -> None:  # type: ignore[no-untyped-def]
    lowered = invoke("eval", "--limits", "max_result=10", "(vec (range 100))")
    assert lowered.exit_code == 1
    assert "limit max_result=10 exceeded" in lowered.stderr
    assert "hint: raise it with --limits max_result=... if this is legitimate" in lowered.stderr
    raised = invoke("eval", "--limits", "max_collection=2000000", "(count (vec (range 1500000)))")
    assert raised.exit_code == 0 and raised.stdout.strip() == "1500000"
    timed = invoke("eval", "--timeout", "0.2", "(loop [i 0] (recur (inc i)))")
    assert "hint: raise it with --timeout SECONDS (or --limits timeout=...)" in timed.stderr


def test_run_and_repl_take_limits(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    program = tmp_path / "p.clj"
    program.write_text("(vec (range 100))")
    assert "limit max_result=10 exceeded" in invoke("run", str(program), "--limits", "max_result=10").stderr
    out = invoke("repl", "--limits", "max_result=10", input="(vec (range 100))\n(+ 1 2)\n")
    assert "limit max_result=10 exceeded" in out.output + (out.stderr or "") and "3" in out.output


def test_agent_takes_limits(tmp_path: Path) -> None:
    from ptc.llm.cassette import RecordingLLM
    from ptc.llm.scripted import ScriptedLLM

    cassette, data = tmp_path / "c.jsonl", tmp_path / "d.json"
    data.write_text(json.dumps({"xs": [1, 2, 3]}))
    replies = ["```clojure\n(return (vec (range 100)))\n```", "```clojure\n(return (count (range 100)))\n```"]
    limits = ptc.Limits(max_result=20)
    ptc.Agent("Count", data={"xs": [1, 2, 3]}, limits=limits,
              llm=RecordingLLM(ScriptedLLM(replies), cassette)).run()
    out = CliRunner().invoke(main, ["agent", "Count", "--data", str(data), "--replay", str(cassette),
                                    "--limits", "max_result=20"])
    assert out.exit_code == 0, out.output
    assert "ok after 2 turn(s): 100" in out.output


def test_the_model_is_told_what_to_do_instead() -> None:
    sandbox = ptc.Sandbox(limits=ptc.Limits(timeout=0.2))
    text = sandbox.call({"program": "(loop [i 0] (recur (inc i)))"})
    assert "the host allows 0.2 s per program and a program cannot change it: do it in one pass" in text
    assert "raise Limits" not in text
    text = ptc.Sandbox(limits=ptc.Limits(max_result=50)).call({"program": "(vec (range 100))"})
    assert "return an aggregate, a count, or (take 20 ...)" in text
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(vec (range 100))", limits=ptc.Limits(max_result=50))
    assert "raise Limits(max_result=...)" in e.value.hint  # Python: the host's own words
    assert limit_hint(e.value, "python") == e.value.hint


def test_sandbox_spec_states_the_limits_it_is_given() -> None:
    out = CliRunner().invoke(main, ["sandbox", "spec", "--format", "text", "--limits", "timeout=7"])
    assert out.exit_code == 0 and "- Each program has 7 s, tools included." in out.output


def test_integer_limits_take_the_short_form() -> None:
    from ptc.cli.common import parse_limits

    limits = parse_limits("max_memory=1e9,max_steps=2e6,timeout=2.5")
    assert limits.max_memory == 1_000_000_000 and limits.max_steps == 2_000_000 and limits.timeout == 2.5
