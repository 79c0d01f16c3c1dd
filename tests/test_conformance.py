"""Conformance with Clojure 1.11: every corpus entry must give Clojure's answer.

tests/conformance/corpus.clj holds the expressions; tests/conformance/expected.json holds
what real Clojure printed for each (regenerate with `python tests/conformance/generate.py`).
Clojure's `pr-str` output is read back with ptc's own reader and compared structurally
(`values.equals`: maps and sets unordered, [1 2] = (1 2), \\a reads as "a", 1N as 1).
Entries where Clojure threw must raise a PTCError; entries marked as deliberate deviations
expect their recorded PTC result instead.

`python tests/test_conformance.py [-v]` prints the pass rate and every failure by section.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

FIXTURE = Path(__file__).resolve().parent / "conformance" / "expected.json"
ENTRIES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))

# a deviation whose ptc_expected is this token expects PTC to raise a PTCError
ERROR_TOKEN = "!error"


def _id(entry: dict[str, Any]) -> str:
    src = " ".join(entry["source"].split())
    return f"L{entry['line']}:{src[:60]}"


def run_source(source: str) -> tuple[str, Any]:
    """("ok", value) or ("error", exception); a non-PTC exception is ("crash", exc)."""
    import ptc

    try:
        r = ptc.run(source)
    except ptc.PTCError as e:
        return "error", e
    except Exception as e:  # noqa: BLE001 - a Python exception escaping ptc is a bug
        return "crash", e
    err = getattr(r, "error", None)
    if err is not None:
        return ("error", err) if isinstance(err, ptc.PTCError) else ("crash", err)
    return "ok", r.value


def check(entry: dict[str, Any]) -> str | None:
    """None if ptc conforms on this entry, else a description of the mismatch."""
    from ptc.interpreter.printer import pr_str
    from ptc.interpreter.reader import read_value
    from ptc.interpreter.values import equals

    status, got = run_source(entry["source"])
    dev = entry.get("deviation")
    if dev:
        want_text = dev["ptc_expected"]
        want_error = want_text == ERROR_TOKEN
    elif "error" in entry:
        want_text, want_error = f"an error ({entry['error']})", True
    else:
        want_text, want_error = entry["expected"], False

    if status == "crash":
        return f"expected {want_text}, ptc crashed with {type(got).__name__}: {got}"
    if want_error:
        if status == "error":
            return None
        return f"expected {want_text}, got {pr_str(got, max_len=300)}"
    if status == "error":
        return f"expected {want_text}, got {got}"
    want = read_value(want_text)
    if equals(want, got):
        return None
    return f"expected {want_text}, got {pr_str(got, max_len=300)}"


@pytest.mark.parametrize("entry", ENTRIES, ids=[_id(e) for e in ENTRIES])
def test_conformance(entry: dict[str, Any]) -> None:
    problem = check(entry)
    if problem is not None:
        pytest.fail(f"{entry['source']}\n  [{entry['section']}] {problem}", pytrace=False)


def test_fixture_is_well_formed() -> None:
    assert len(ENTRIES) >= 450
    deviations = [e for e in ENTRIES if e["deviation"]]
    reasons = {e["deviation"]["reason"] for e in deviations}
    # few root causes (each listed in docs/deviations.md), and deviations a small share of the corpus
    assert len(reasons) <= 15, sorted(reasons)
    assert len(deviations) < 0.04 * len(ENTRIES), "keep deliberate deviations few"
    for e in ENTRIES:
        assert ("expected" in e) != ("error" in e), e
        if e["deviation"]:
            assert e["deviation"]["reason"] and e["deviation"]["ptc_expected"], e


def test_expected_values_are_readable() -> None:
    """ptc's reader can read every value Clojure printed (else the comparison is moot)."""
    from ptc.interpreter.reader import read_value

    unreadable = []
    for e in ENTRIES:
        texts = [e["deviation"]["ptc_expected"]] if e["deviation"] else [e.get("expected")]
        for text in texts:
            if text is None or text == ERROR_TOKEN:
                continue
            try:
                read_value(text)
            except Exception as exc:  # noqa: BLE001
                unreadable.append(f"{text!r}: {exc}")
    assert not unreadable, "\n".join(unreadable)


def report(verbose: bool = False, sections: bool = True) -> float:
    """Print the pass rate (per section) and, if verbose, every failure; returns the rate."""
    by_section: dict[str, list[tuple[dict[str, Any], str | None]]] = defaultdict(list)
    for e in ENTRIES:
        try:
            problem = check(e)
        except Exception as exc:  # noqa: BLE001 - e.g. read_value failing
            problem = f"harness error {type(exc).__name__}: {exc}"
        by_section[e["section"]].append((e, problem))
    total = passed = 0
    for section, results in by_section.items():
        ok = sum(1 for _, p in results if p is None)
        total += len(results)
        passed += ok
        if sections:
            print(f"{section:28s} {ok:4d}/{len(results):<4d}")
        for e, p in results:
            if p is not None and verbose:
                print(f"    L{e['line']}: {e['source']}\n        {p}")
    rate = passed / total if total else 0.0
    print(f"conformance with Clojure 1.11: {passed}/{total} = {rate:.1%}")
    return rate


def test_pass_rate_summary(capsys: pytest.CaptureFixture[str], record_property: Any) -> None:
    """Informational: the pass rate, printed in the run's summary (conftest.py) by whichever
    process ran it (a pytest-xdist worker's own output is not shown)."""
    report(sections=False)
    record_property("summary_line", capsys.readouterr().out.strip().splitlines()[-1])


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    report(verbose="-v" in sys.argv)
