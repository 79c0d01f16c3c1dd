"""Dates and the curated interop at the host boundary (issue 22): what comes in, what goes out,
how dates print, compare and hash, the run clock, and the errors of the interop names."""

from __future__ import annotations

import datetime as dt

import pytest

import ptc
from ptc import Limits, PTCError
from ptc.interpreter.printer import pr_str

UTC = dt.timezone.utc


def run(src: str, **kw):  # type: ignore[no-untyped-def]
    return ptc.run(src, **kw).value


def test_host_dates_are_java_time_values_and_leave_as_iso_text() -> None:
    data = {"rows": [{"day": dt.date(2026, 3, 14), "at": dt.datetime(2026, 3, 14, 10, 15, tzinfo=UTC),
                      "local": dt.datetime(2026, 3, 14, 10, 15), "took": dt.timedelta(minutes=90)}]}
    src = ("(let [r (first data/rows)] [(.getYear (:day r)) (str (.plusDays (:day r) 1)) (.getHour (:local r))"
           " (.toMinutes (:took r)) (.isBefore (:at r) (Instant/parse \"2026-03-15T00:00:00Z\")) r])")
    value = run(src, data=data)
    assert ptc.to_python(value) == [2026, "2026-03-15", 10, 90, True,
                                    {"day": "2026-03-14", "at": "2026-03-14T10:15:00Z", "local": "2026-03-14T10:15",
                                     "took": "PT1H30M"}]


def test_iso_strings_stay_strings_until_parsed() -> None:
    assert run('(string? (:d data/x))', data={"x": {"d": "2026-03-14"}}) is True
    assert run('(= (LocalDate/parse (:d data/x)) (LocalDate/of 2026 3 14))', data={"x": {"d": "2026-03-14"}}) is True


def test_a_tool_result_is_json_its_dates_iso_strings() -> None:
    """Tool results are JSON (docs/tools.md): a date a tool returns arrives as its ISO string."""
    value = run("[(tool/today) (.getDayOfMonth (LocalDate/parse (tool/today)))]",
                tools={"today": lambda: dt.date(2026, 3, 14)})
    assert ptc.to_python(value) == ["2026-03-14", 14]


def test_printing_str_gives_iso_text_pr_str_quotes_it() -> None:
    r = ptc.run('(let [d (LocalDate/parse "2026-03-14")] (println d) (prn d) [(str d) (pr-str d) d])')
    assert r.prints == ("2026-03-14", '"2026-03-14"')
    assert pr_str(r.value) == '["2026-03-14" "\\"2026-03-14\\"" "2026-03-14"]'


def test_dates_compare_sort_and_hash() -> None:
    src = ('(let [ds (map #(LocalDate/parse %) ["2026-03-14" "2025-12-31" "2026-03-14"])]'
           ' [(map str (sort ds)) (count (set ds)) (get (frequencies ds) (LocalDate/of 2026 3 14))'
           ' (compare (first ds) (second ds)) (= (first ds) (last ds))])')
    assert ptc.to_python(run(src)) == [["2025-12-31", "2026-03-14", "2026-03-14"], 2, 2, 1, True]
    assert ptc.to_python(run('(frequencies [(LocalDate/of 2026 1 1)])')) == {"2026-01-01": 1}
    with pytest.raises(PTCError, match="compare"):
        run('(compare (LocalDate/of 2026 1 1) (Instant/now))')


def test_the_run_clock_is_read_once_per_run() -> None:
    src = "[(System/currentTimeMillis) (.toEpochMilli (Instant/now)) (LocalDate/now) (System/currentTimeMillis)]"
    a, b, today, c = run(src)
    assert a == b == c and today == dt.datetime.fromtimestamp(a / 1000, UTC).date()


def test_dates_cross_process_isolation_and_memory() -> None:
    r = ptc.run('(def d (LocalDate/parse "2026-03-14")) [d ChronoUnit/DAYS (Duration/ofHours 2) (Instant/now)]',
                limits=Limits(isolation="process"))
    assert ptc.to_python(r.value)[:3] == ["2026-03-14", "DAYS", "PT2H"]
    assert run("(str (.plusDays d 1))", memory=r.memory, limits=Limits(isolation="process")) == "2026-03-15"


@pytest.mark.parametrize("src, kind, words", [
    ("(.toUpperCase 42)", "runtime", ".toUpperCase works on string"),
    ('(.plusDays "2026-03-14" 1)', "runtime", "works on LocalDate"),
    ('(.toUppercase "x")', "analysis", ".toUpperCase"),
    ('(LocalDate/parse "14/03/2026")', "runtime", "could not be parsed"),
    ("(LocalDate/of 2026 2 30)", "runtime", "invalid date"),
    ("(.between ChronoUnit/HOURS (LocalDate/now) (LocalDate/now))", "runtime", "not hours"),
    ("^42 x", "parse", "Metadata must be"),
    ("(Foo/bar 1)", "analysis", "LocalDate"),
])
def test_errors_name_the_fix(src: str, kind: str, words: str) -> None:
    with pytest.raises(PTCError) as e:
        run(src)
    assert e.value.kind == kind and words in f"{e.value.message} {e.value.hint}"
