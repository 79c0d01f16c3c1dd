"""DateTimeFormatter, LocalTime and the ISO parses give what real java.time gives.

tests/conformance/java_time.json holds ~2,300 probes and what Clojure 1.11 on the JVM answered
(regenerate with `python tests/conformance/java_time.py`): every pattern letter at every
width formatted and parsed back, SMART resolution, padding, signs, case, 12-hour clocks,
optional sections, literals, the ISO constants and their offsets, and the errors. A value
must be Java's; an error must be a PTCError, and where Java says where the text stopped
matching ("could not be parsed at index 5"), or which field is invalid or in conflict,
PTC-Lisp's message says the same. The probes marked as deviations expect PTC-Lisp's
documented answer instead (docs/deviations.md).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import ptc
from ptc.interpreter.reader import read_value
from ptc.interpreter.values import equals

PROBES: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parents[1] / "conformance" / "java_time.json").read_text(encoding="utf-8"))
GROUPS: dict[str, list[dict[str, Any]]] = defaultdict(list)
for _p in PROBES:
    GROUPS[_p["group"]].append(_p)

# Java's messages PTC-Lisp repeats word for word (the rest: an error of its own words)
_SAME_WORDS = re.compile(r"could not be parsed|^Unsupported field|^Invalid value|^Too many pattern letters|"
                         r"^Unknown pattern letter|^Pattern |^Minimum width|^The minimum width")


def java_words(probe: dict[str, Any]) -> str | None:
    """The part of Java's error message PTC-Lisp's must contain, if it repeats Java's."""
    message = probe["message"]
    if not _SAME_WORDS.search(message) or "Instant" in probe["source"]:
        return None
    if "Unable to obtain" in message:  # the fields after it are listed in Java's hash order
        return message.split(" from TemporalAccessor")[0]
    return message


def mismatch(probe: dict[str, Any]) -> str | None:
    """None if PTC-Lisp answers the probe as Java (or as its deviation says), else what differs."""
    try:
        got: Any = ptc.run(probe["source"]).value
        error = None
    except ptc.PTCError as e:
        got, error = None, e
    dev = probe["deviation"]
    if dev and dev["ptc_expected"] == "!error" or not dev and "error" in probe:
        if error is None:
            return f"expected an error ({probe.get('message', dev and dev['reason'])}), got {ptc.pr_str(got)}"
        words = None if dev else java_words(probe)
        if error.kind not in ("runtime", "analysis") or (words and words not in error.message):
            return f"expected an error saying {words!r}, got {error.kind}: {error.message}"
        return None
    want = dev["ptc_expected"] if dev else probe["expected"]
    if error is not None:
        return f"expected {want}, got the error {error.message}"
    return None if equals(read_value(want), got) else f"expected {want}, got {ptc.pr_str(got)}"


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_probes_answer_as_java_does(group: str) -> None:
    misses = [f"{p['source']}\n    {m}" for p in GROUPS[group] if (m := mismatch(p)) is not None]
    assert not misses, f"{len(misses)} of {len(GROUPS[group])}:\n" + "\n".join(misses[:40])


def test_the_probes_cover_every_letter_both_ways_and_the_errors() -> None:
    letters = set("yuMLdDEahKkHmsS")
    sources = " ".join(p["source"] for p in PROBES)
    for letter in letters:
        assert re.search(rf'\(\.format [^"]*ofPattern "[^"]*{letter}', sources), letter
        assert re.search(rf'/parse "[^"]*" \(DateTimeFormatter/ofPattern "[^"]*{letter}', sources), letter
    assert sum("error" in p for p in PROBES) > 200
    assert sum(bool(p["deviation"]) for p in PROBES) < 50


# -- the values: printing, equality, the host and process boundaries --------------------------------

import datetime as dt  # noqa: E402
import pickle  # noqa: E402

from ptc import Limits  # noqa: E402
from ptc.interpreter.isolation import pickling  # noqa: E402
from ptc.interpreter.printer import pr_str  # noqa: E402


def test_a_formatter_prints_as_its_pattern_and_is_equal_by_it() -> None:
    r = ptc.run('(let [f (DateTimeFormatter/ofPattern "MM/dd \\"yy\\"")] (println f) '
                '[f (str f) DateTimeFormatter/ISO_LOCAL_DATE (DateTimeFormatter/ofPattern "d MMM" Locale/UK) '
                '(count (set [f (DateTimeFormatter/ofPattern "MM/dd \\"yy\\"") (DateTimeFormatter/ofPattern "d")])) '
                '(= (DateTimeFormatter/ofPattern "d") (DateTimeFormatter/ofPattern "d" Locale/US)) '
                '(= (DateTimeFormatter/ofPattern "d") (DateTimeFormatter/ofPattern "d" Locale/UK))])')
    assert r.prints == ('#DateTimeFormatter["MM/dd \\"yy\\""]',)
    assert pr_str(r.value) == ('[#DateTimeFormatter["MM/dd \\"yy\\""] "#DateTimeFormatter[\\"MM/dd \\\\\\"yy\\\\\\"\\"]" '
                               '#DateTimeFormatter[ISO_LOCAL_DATE] #DateTimeFormatter["d MMM" Locale/UK] 2 true false]')


def test_local_times_and_formatters_at_the_host_boundary() -> None:
    value = ptc.run('[(.plusMinutes (:t data/x) 5) (.getHour (:t data/x)) (DateTimeFormatter/ofPattern "h:mm a") '
                    'Locale/UK]', data={"x": {"t": dt.time(9, 30)}}).value
    assert ptc.to_python(value) == ["09:35", 9, '#DateTimeFormatter["h:mm a"]', "en_GB"]


def test_formatters_and_local_times_cross_process_isolation_and_memory() -> None:
    limits = Limits(isolation="process")
    r = ptc.run('(def f (DateTimeFormatter/ofPattern "EEE d MMM h:mm a" Locale/UK)) (def t (LocalTime/of 21 5)) '
                '[f t DateTimeFormatter/BASIC_ISO_DATE Locale/ROOT]', limits=limits)
    assert ptc.to_python(r.value) == ['#DateTimeFormatter["EEE d MMM h:mm a" Locale/UK]', "21:05",
                                      "#DateTimeFormatter[BASIC_ISO_DATE]", ""]
    again = ptc.run("(.format (.atDate t (LocalDate/of 2026 9 14)) f)", memory=r.memory, limits=limits)
    assert again.value == "Mon 14 Sept 9:05 pm"


def test_what_crosses_the_boundary_is_checked() -> None:
    assert pickling._r_time(((9 * 60 + 30) * 60) * 1_000_000) == dt.time(9, 30)
    assert pickling._r_formatter("d MMM", None, "UK").text == '#DateTimeFormatter["d MMM" Locale/UK]'
    assert pickling._r_formatter(None, "ISO_DATE", "ENGLISH").text == "#DateTimeFormatter[ISO_DATE]"
    for bad in (lambda: pickling._r_time(-1), lambda: pickling._r_time(86_400_000_000),
                lambda: pickling._r_formatter("yyyy", None, "FRENCH"), lambda: pickling._r_formatter(None, "NOPE", "UK"),
                lambda: pickling._r_formatter("'", None, "ENGLISH"), lambda: pickling._r_formatter(b"d", None, "UK"),
                lambda: pickling._r_enum("Locale", "fr")):
        with pytest.raises(pickle.UnpicklingError):
            bad()


# -- errors say what to do ------------------------------------------------------------------------------


@pytest.mark.parametrize("src, words", [
    ('(LocalDate/parse "14/03/2026")', 'give a pattern: (LocalDate/parse s (DateTimeFormatter/ofPattern "dd/MM/yyyy"))'),
    ('(LocalDate/parse "3/14/2026" (DateTimeFormatter/ofPattern "MM/dd/yyyy"))',
     'expects MM (the month, 2 digits) at index 0, where the text has "3/14/2026"; M (one letter) reads one or two'),
    ('(LocalDate/parse "14 mar 2026" (DateTimeFormatter/ofPattern "dd MMM yyyy"))', "(the names are case-sensitive)"),
    ('(LocalDate/parse "2026-03-14 10:00" (DateTimeFormatter/ofPattern "yyyy-MM-dd"))',
     'ends at index 10, where the text has " 10:00"'),
    ('(LocalTime/parse "10:30" (DateTimeFormatter/ofPattern "hh:mm"))', 'add a (as in "hh:mm a")'),
    ('(LocalDate/parse "03-14" (DateTimeFormatter/ofPattern "MM-dd"))', "the pattern has no year"),
    ('(LocalDateTime/parse "2026-03-14" (DateTimeFormatter/ofPattern "yyyy-MM-dd"))', "no time of day"),
    ('(DateTimeFormatter/ofPattern "YYYY-MM-dd")', "Y is the week-based year; use yyyy"),
    ('(DateTimeFormatter/ofPattern "yyyy-MM-ddTHH:mm")', "yyyy-MM-dd'T'HH:mm"),
    ('(DateTimeFormatter/ofPattern "HH:mm z")', "no time zones"),
    ('(DateTimeFormatter/ofPattern "G yyyy")', "era) is not supported"),
    ('(LocalDateTime/parse "2026-03-14T10:00Z[Europe/Paris]" DateTimeFormatter/ISO_DATE_TIME)', "no time zones"),
    ('(.format (LocalDate/of 2026 3 14) (DateTimeFormatter/ofPattern "HH:mm"))', "Unsupported field: HourOfDay"),
    ('(.format (Instant/parse "2026-03-14T10:00:00Z") DateTimeFormatter/ISO_DATE)', "(str instant)"),
    ('(.format (LocalDate/of 2026 3 14) "yyyy")', "expected a DateTimeFormatter"),
    ('(LocalDate/parse "2026" "yyyy")', "(DateTimeFormatter/ofPattern"),
    ('(DateTimeFormatter/ofPattern "d" :fr)', "Locale/ENGLISH, Locale/US, Locale/UK and Locale/ROOT"),
    ("(DateTimeFormatter/ofPattern nil)", "expected a pattern string"),
    ("(LocalTime/of 24 0)", "Invalid value for HourOfDay (valid values 0 - 23): 24"),
    ("(.plusDays (LocalTime/of 9 0) 1)", "no method .plusDays"),
    ("(.plus (LocalTime/of 9 0) 1 ChronoUnit/DAYS)", "a LocalTime cannot add days"),
    ("(compare (LocalTime/of 9 0) (LocalDate/of 2026 1 1))", "cannot compare"),
    ("(compare (DateTimeFormatter/ofPattern \"d\") (DateTimeFormatter/ofPattern \"M\"))", "cannot compare"),
    ("(sort [Locale/UK Locale/US])", "cannot compare"),
    ("(.getValue Locale/UK)", "no method .getValue"),
    ("(Locale/FRENCH)", "Unable to resolve symbol: Locale/FRENCH"),
])
def test_errors_name_the_fix(src: str, words: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src)
    assert e.value.kind in ("runtime", "analysis") and words in f"{e.value.message} {e.value.hint}"


@pytest.mark.parametrize("src, words", [
    ('(DateTimeFormatter/ofPattern (apply str (repeat 300 "y")))', "longer than PTC-Lisp reads (256)"),
    ('(DateTimeFormatter/ofPattern (apply str (repeat 40 "[")))', "more than 16 deep"),
    ('(LocalDate/parse (apply str (repeat 999999 "9")) (DateTimeFormatter/ofPattern "yyyy"))',
     "'9999999999999999999999999999999999999999999999999999999999999999...' could not be parsed at index 0"),
    ('(LocalDate/parse (apply str "+" (repeat 999998 "9")))', "could not be parsed at index 11"),
    ('(LocalDate/parse "+999999999-01-01" (DateTimeFormatter/ofPattern "yyyy-MM-dd"))', "years 1 to 9999"),
    ('(LocalDate/parse "9999-12-31 24:00" (DateTimeFormatter/ofPattern "yyyy-MM-dd HH:mm"))', "years 1 to 9999"),
    ('(LocalDate/parse nil)', "expected a string, got nil"),
])
def test_hostile_patterns_and_texts_are_refused_quickly(src: str, words: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, limits=Limits(timeout=5))
    assert e.value.kind == "runtime" and words in e.value.message
