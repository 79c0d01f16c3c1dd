"""Whole programs written as Clojure programmers write them, against real Clojure 1.11.

tests/conformance/programs.clj holds the programs: each ends in a vector of results, and
each result is one assertion. tests/conformance/programs.json holds what real Clojure
printed for each (regenerate with `python tests/conformance/generate.py --corpus
tests/conformance/programs.clj --out tests/conformance/programs.json`). A program that
exercises a documented deviation (docs/deviations.md) is marked `;; deviation:` there and
expects its recorded PTC result instead; such programs are excluded from the share and
listed. `python tests/test_programs.py [-v]` prints the share and every miss.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from test_conformance import run_source  # tests/ is on sys.path

FIXTURE = Path(__file__).resolve().parent / "conformance" / "programs.json"
PROGRAMS: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
GOAL = 1.0  # every assertion (the last misses were clojure.lang.PersistentQueue, now in)


def _results(entry: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """(the expected results, a description of each miss) for one program."""
    from ptc.interpreter.printer import pr_str
    from ptc.interpreter.reader import read_value
    from ptc.interpreter.values import equals

    dev = entry.get("deviation")
    want = list(read_value(dev["ptc_expected"] if dev else entry["expected"]))
    status, got = run_source(entry["source"])
    where = f"programs.clj:{entry['line']}"
    if status != "ok":
        return want, [f"{where}: the program failed ({status}): {got}"] * len(want)
    got = list(got)
    misses = []
    for i, w in enumerate(want):
        if i >= len(got):
            misses.append(f"{where} result {i}: expected {pr_str(w, max_len=200)}, got nothing")
        elif not equals(w, got[i]):
            misses.append(f"{where} result {i}: expected {pr_str(w, max_len=200)}, got {pr_str(got[i], max_len=200)}")
    return want, misses


def share() -> tuple[int, int, list[str], list[str]]:
    """(assertions, passed, misses, excluded deviations) over the programs that are not deviations."""
    total = passed = 0
    misses: list[str] = []
    excluded: list[str] = []
    for entry in PROGRAMS:
        want, miss = _results(entry)
        if entry.get("deviation"):
            excluded.append(f"programs.clj:{entry['line']} ({len(want)} results): {entry['deviation']['reason']}"
                            + ("" if not miss else f" -- but {len(miss)} differ from the recorded PTC result"))
            continue
        total += len(want)
        passed += len(want) - len(miss)
        misses += miss
    return total, passed, misses, excluded


def test_fixture_is_big_enough_and_generated() -> None:
    assert len(PROGRAMS) >= 40
    assert sum(len(_results(e)[0]) for e in PROGRAMS) >= 300
    for e in PROGRAMS:
        assert "expected" in e, f"Clojure failed on programs.clj:{e['line']}: {e.get('error')}"


def test_whole_programs_agree_with_clojure() -> None:
    total, passed, misses, excluded = share()
    rate = passed / total
    print(f"\nwhole programs: {passed}/{total} assertions agree with Clojure 1.11 = {rate:.1%}"
          f" ({len(excluded)} deviation programs excluded)")
    assert rate >= GOAL, "\n".join(misses)
    for e in excluded:
        assert "differ" not in e, e


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    t, p, m, x = share()
    print(f"whole programs: {p}/{t} = {p / t:.1%}")
    for line in x:
        print("  excluded:", line)
    if "-v" in sys.argv:
        for line in m:
            print("  ", line)
