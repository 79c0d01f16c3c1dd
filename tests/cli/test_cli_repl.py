"""`ptc repl` with piped stdin (the non-terminal mode) through CliRunner."""

from __future__ import annotations

from pathlib import Path

from ptc.cli.repl import history_path


def test_repl_values_and_memory(invoke):
    r = invoke("repl", input="(def x 20)\n(+ x 1)\n(defn twice [n] (* 2 n))\n(twice x)\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[1] == "21"
    assert out[3] == "40"
    assert len(out) == 4


def test_repl_star_history(invoke):
    r = invoke("repl", input="1\n2\n3\n[*1 *2 *3]\n")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == ["1", "2", "3", "[3 2 1]"]


def test_repl_star_one_previous(invoke):
    r = invoke("repl", input="(+ 1 2)\n(* *1 10)\n(- *1 *2)\n")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == ["3", "30", "27"]


def test_repl_multiline_entry(invoke):
    src = '(let [s "(not a bracket"\n      ; a comment (\n      n 2]\n  (str s n))\n(+ 1\n   2)\n'
    r = invoke("repl", input=src)
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == ['"(not a bracket2"', "3"]


def test_repl_prints_before_value(invoke):
    r = invoke("repl", input='(do (println "a") (println "b") :done)\n')
    assert r.stdout.splitlines() == ["a", "b", ":done"]


def test_repl_errors_continue(invoke):
    r = invoke("repl", input='(def a 5)\n(+ a "x")\n(nosuchfn 1)\n(* a 2)\n')
    assert r.stdout.splitlines()[-1] == "10"
    assert r.stderr.count("error[") == 2
    assert r.exit_code == 1  # piped mode reports that some entry failed


def test_repl_error_keeps_memory_and_history(invoke):
    r = invoke("repl", input="(def k 3)\n7\n(/ 1 0)\n[k *1]\n")
    assert r.stdout.splitlines()[-1] == "[3 7]"


def test_repl_prints_before_error(invoke):
    r = invoke("repl", input='(do (println "partial") (/ 1 0))\n')
    assert r.stdout == "partial\n"
    assert r.stderr.startswith("error[runtime]")


def test_repl_quit(invoke):
    r = invoke("repl", input="1\n:quit\n2\n")
    assert r.exit_code == 0
    assert r.stdout.splitlines() == ["1"]


def test_repl_commands(invoke):
    r = invoke("repl", input="(def zz [1 2])\n:memory\n:reset\n:memory\n:help\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "zz = [1 2]" in out
    assert "(nothing defined)" in out
    assert ":quit" in out


def test_repl_reset_forgets(invoke):
    r = invoke("repl", input="(def q 1)\n:reset\nq\n")
    assert r.exit_code == 1
    assert "error[" in r.stderr


def test_repl_unfinished_entry_at_eof(invoke):
    r = invoke("repl", input="(+ 1 2)\n(+ 1\n")
    assert r.stdout.splitlines() == ["3"]
    assert r.stderr.startswith("error[parse]")


def test_repl_data(invoke, tmp_path):
    data = tmp_path / "d.json"
    data.write_text('{"nums": [4, 5]}')
    r = invoke("repl", "--data", str(data), input="(apply + data/nums)\n")
    assert r.stdout == "9\n"


def test_repl_fail(invoke):
    r = invoke("repl", input='(fail "bad")\n1\n')
    assert r.stdout.splitlines() == ["1"]
    assert "failed: \"bad\"" in r.stderr


def test_history_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PTC_HOME", str(tmp_path))
    assert history_path() == tmp_path / "history"
    monkeypatch.delenv("PTC_HOME")
    assert history_path() == Path("~/.ptc_history").expanduser()
