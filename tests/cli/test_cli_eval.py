"""`ptc eval` and `ptc run` through click's CliRunner."""

from __future__ import annotations

import json
import re

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "cli"


def test_version(invoke):
    from ptc import __version__

    r = invoke("--version")
    assert r.exit_code == 0
    assert r.stdout.strip() == f"ptc {__version__}"


@pytest.mark.parametrize("command", [[], ["eval"], ["run"], ["repl"]])
def test_help_has_examples(invoke, command):
    r = invoke(*command, "--help")
    assert r.exit_code == 0
    assert "Examples:" in r.stdout
    assert "ptc " in r.stdout.split("Examples:")[1]


def test_eval_prints_value(invoke):
    r = invoke("eval", "(+ 1 2)")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "3\n"
    assert r.stderr == ""


def test_eval_prints_before_value(invoke):
    r = invoke("eval", '(println "hello" 1) (println "world") {:a [1 2] :b "x"}')
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == ["hello 1", "world", '{:a [1 2], :b "x"}']


def test_eval_value_is_pr_str(invoke):
    r = invoke("eval", '["a" nil true 1.5 :k]')
    assert r.stdout == '["a" nil true 1.5 :k]\n'


def test_eval_json(invoke):
    r = invoke("eval", "--json", '(println "hi") {:a [1 2] :b #{} :c nil}')
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout) == {"value": {"a": [1, 2], "b": [], "c": None}, "prints": ["hi"]}


def test_eval_with_data(invoke, tmp_path):
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"xs": [1, 2, 3], "user": {"name": "Ada"}}))
    r = invoke("eval", "--data", str(data), "[(reduce + data/xs) (:name data/user)]")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == '[6 "Ada"]\n'


def test_eval_data_from_stdin(invoke):
    r = invoke("eval", "--data", "-", "(count data/xs)", input='{"xs": [1, 2, 3, 4]}')
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "4\n"


def test_eval_timeout(invoke):
    r = invoke("eval", "--timeout", "0.2", "(loop [] (recur))")
    assert r.exit_code == 1
    assert r.stdout == ""
    assert r.stderr.startswith("error[limit]")
    assert "timeout" in r.stderr


def test_eval_bad_timeout_is_usage_error(invoke):
    r = invoke("eval", "--timeout", "0", "1")
    assert r.exit_code == 2


def _check_caret(stderr: str) -> tuple[int, int]:
    lines = stderr.splitlines()
    m = re.match(r"error\[(\w+)\] (\d+):(\d+): ", lines[0])
    assert m, stderr
    column = int(m.group(3))
    assert lines[2].strip() == "^"
    assert lines[2].index("^") == 2 + column - 1  # under the column, after the 2-space indent
    return int(m.group(2)), column


def test_runtime_error_rendering(invoke):
    src = '(def x 1)\n(+ x "a")'
    r = invoke("eval", src)
    assert r.exit_code == 1
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[0].startswith("error[")
    line, _ = _check_caret(r.stderr)
    assert lines[1] == "  " + src.splitlines()[line - 1]


def test_parse_error_rendering(invoke):
    r = invoke("eval", "(+ 1 2))")
    assert r.exit_code == 1
    assert r.stderr.startswith("error[parse]")


def test_unknown_name_has_hint(invoke):
    r = invoke("eval", "(mapp inc [1 2])")
    assert r.exit_code == 1
    assert r.stderr.startswith("error[")
    _check_caret(r.stderr)
    assert "\n  hint: " in r.stderr
    assert "map" in r.stderr.split("hint:")[1]


def test_error_is_plain_text(invoke):
    r = invoke("eval", "(/ 1 0)")
    assert r.exit_code == 1
    assert "\x1b[" not in r.stderr


def test_prints_before_an_error_are_kept(invoke):
    r = invoke("eval", '(println "step 1") (/ 1 0)')
    assert r.exit_code == 1
    assert r.stdout == "step 1\n"
    assert r.stderr.startswith("error[runtime]")


def test_error_json(invoke):
    r = invoke("eval", "--json", '(println "before") (/ 1 0)')
    assert r.exit_code == 1
    assert json.loads(r.stdout)["prints"] == ["before"]
    err = json.loads(r.stdout)["error"]
    assert err["kind"] == "runtime"
    assert set(err) == {"kind", "message", "line", "column", "hint"}
    assert r.stderr.startswith("error[runtime]")


def test_fail_exits_1(invoke):
    r = invoke("eval", '(fail {:reason "nope"})')
    assert r.exit_code == 1
    assert r.stdout == ""
    assert r.stderr.strip() == 'failed: {:reason "nope"}'
    r = invoke("eval", "--json", '(fail "nope")')
    assert r.exit_code == 1
    assert json.loads(r.stdout) == {"value": "nope", "prints": [], "failed": True}


def test_return_value(invoke):
    r = invoke("eval", "(return 7) 8")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "7\n"


def test_run_file(invoke, tmp_path):
    prog = tmp_path / "p.clj"
    prog.write_text(";; a program\n(defn sq [x] (* x x))\n(println (sq 3))\n(map sq [1 2])\n")
    r = invoke("run", str(prog))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == ["9", "(1 4)"]


def test_run_stdin(invoke):
    r = invoke("run", "-", input="(* 6\n   7)\n")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "42\n"


def test_run_error_shows_file_line(invoke, tmp_path):
    prog = tmp_path / "p.clj"
    prog.write_text('(def a 1)\n\n(let [b "x"]\n  (inc b))\n')
    r = invoke("run", str(prog))
    assert r.exit_code == 1
    line, _ = _check_caret(r.stderr)
    assert r.stderr.splitlines()[1] == "  " + prog.read_text().splitlines()[line - 1]


def test_run_missing_file(invoke, tmp_path):
    r = invoke("run", str(tmp_path / "nope.clj"))
    assert r.exit_code == 2
    assert "nope.clj" in r.stderr


def test_run_invalid_json_data(invoke, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = invoke("eval", "--data", str(bad), "1")
    assert r.exit_code == 2
    assert "not valid JSON" in r.stderr


def test_data_must_be_an_object(invoke, tmp_path):
    data = tmp_path / "list.json"
    data.write_text("[1, 2]")
    r = invoke("eval", "--data", str(data), "1")
    assert r.exit_code == 2
    assert "JSON object" in r.stderr


def test_internal_error_is_one_line(invoke, monkeypatch):
    import ptc

    def boom(*a, **k):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(ptc, "run", boom)
    r = invoke("eval", "1")
    assert r.exit_code == 1
    assert r.stderr.startswith("internal error: ZeroDivisionError: oops")
    assert "Traceback" not in r.stderr


def test_run_both_stdin_refused(invoke):
    r = invoke("run", "-", "--data", "-", input="1")
    assert r.exit_code == 2


ORDERS_STDOUT = """\
orders: 30 delivered: 18
east 5 orders, 6380 revenue
south 4 orders, 3420 revenue
west 5 orders, 3045 revenue
north 4 orders, 1910 revenue
{:total-revenue 14755, :by-region [{:region "east", :orders 5, :revenue 6380} \
{:region "south", :orders 4, :revenue 3420} {:region "west", :orders 5, :revenue 3045} \
{:region "north", :orders 4, :revenue 1910}], :top-products [["Headphones" 9] ["Desk" 8] ["Laptop" 6]]}
"""


def test_readme_example_orders(invoke):
    """The README's quickstart command and its documented output."""
    r = invoke("run", str(EXAMPLES / "orders.clj"), "--data", str(EXAMPLES / "orders.json"))
    assert r.exit_code == 0, r.stderr
    assert r.stdout == ORDERS_STDOUT


def test_orders_json(invoke):
    r = invoke("run", str(EXAMPLES / "orders.clj"), "--data", str(EXAMPLES / "orders.json"), "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"]["total-revenue"] == 14755
    assert out["prints"][0] == "orders: 30 delivered: 18"
