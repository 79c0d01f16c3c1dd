"""No raw Python exception from the command line (issue 43, item 14): `ptc eval` of an
integer past Python's 4,300-digit conversion limit (max_int_bits raised) raised ValueError,
and `ptc trace show --html` a TypeError or OverflowError on a trace whose token counts are
not integers. A big integer prints whole; a trace with counts that are not counts is a bad
file: one line naming it, exit status 2, in every view."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

FACTORIAL = "(reduce *' (range 1 3000))"  # 9,131 digits
RAISED = ("--limits", "max_int_bits=100000")


def factorial_digits() -> str:
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        n = 1
        for i in range(1, 3000):
            n *= i
        return str(n)
    finally:
        sys.set_int_max_str_digits(saved)


@pytest.mark.parametrize("program, shown", [
    (FACTORIAL, "{n}"), (f"[{FACTORIAL} -1]", "[{n} -1]"), (f"{{:n {FACTORIAL}}}", "{{:n {n}}}"),
])
def test_a_big_integer_result_prints_whole(invoke, program: str, shown: str) -> None:
    r = invoke("eval", program, *RAISED)
    assert r.exit_code == 0 and r.stdout.strip() == shown.format(n=factorial_digits()), r.stderr[-2000:]


def test_a_big_integer_result_is_a_json_number(invoke) -> None:
    r = invoke("eval", f"[{FACTORIAL} 1]", "--json", *RAISED)
    assert r.exit_code == 0, r.stderr[-2000:]
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert json.loads(r.stdout)["value"] == [int(factorial_digits()), 1]
    finally:
        sys.set_int_max_str_digits(saved)
    assert sys.get_int_max_str_digits() == saved  # the command gives the limit back


@pytest.fixture(scope="module")
def trace_records(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    from ptc.agent.trace import read_trace
    from ptc.scenarios.demo import SCENARIOS

    path = tmp_path_factory.mktemp("trace") / "run.jsonl"
    SCENARIOS["recovering"].agent(trace=path).run()
    return list(read_trace(path))


NOT_COUNTS = {"text": "many", "fraction": 1.5, "nil": None, "list": [1], "map": {"a": 1}, "negative": -5,
              "boolean": True, "past-2^53": 10**400, "nan": float("nan"), "infinity": float("inf")}
VIEWS = {"turns": [], "full": ["--view", "full"], "compressed": ["--view", "compressed"],
         "requests": ["--view", "requests"], "html": ["--html", "out.html"]}


def spoiled(x: Any, value: Any, keys: tuple[str, ...]) -> Any:
    """x with every one of `keys` (at any depth) holding value."""
    if isinstance(x, dict):
        return {k: value if k in keys else spoiled(v, value, keys) for k, v in x.items()}
    if isinstance(x, list):
        return [spoiled(v, value, keys) for v in x]
    return x


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("where", ["prompt_tokens", "cost", "usage"])
@pytest.mark.parametrize("kind", NOT_COUNTS)
def test_a_trace_whose_token_counts_are_not_counts_is_a_bad_file(invoke, trace_records: list[dict[str, Any]],
                                                                   tmp_path: Path, kind: str, where: str,
                                                                   view: str) -> None:
    value = NOT_COUNTS[kind]
    if where == "cost" and kind in ("fraction", "nil"):  # an amount, or unknown: what a trace writes
        return
    path = tmp_path / "spoiled.jsonl"
    path.write_text("".join(json.dumps(spoiled(r, value, (where,))) + "\n" for r in trace_records))
    args = [tmp_path / a if a == "out.html" else a for a in VIEWS[view]]
    r = invoke("trace", "show", str(path), *map(str, args))
    out = r.stdout + r.stderr
    if where == "usage" and kind == "nil":  # a turn without usage: shown as one
        assert r.exit_code == 0, out[-2000:]
        return
    assert r.exit_code == 2 and "Traceback" not in out, out[-2000:]
    assert r.stderr.strip().count("\n") == 0 and path.name in r.stderr and where in r.stderr, r.stderr


def test_json_output_is_json_nan_and_infinities_are_null(invoke) -> None:
    """issue 44, item 12: `--json` wrote NaN and Infinity, which no JSON reader accepts."""
    r = invoke("eval", "[##NaN ##Inf {:a ##-Inf :b [1.5 ##NaN]}]", "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout, parse_constant=lambda c: pytest.fail(f"{c} in {r.stdout}"))["value"] == \
        [None, None, {"a": None, "b": [1.5, None]}]
