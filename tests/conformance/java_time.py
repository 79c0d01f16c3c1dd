"""Regenerate tests/conformance/java_time.json: DateTimeFormatter, LocalTime and the ISO parses
as real java.time (Clojure 1.11 on the JVM) runs them.

Usage:  python tests/conformance/java_time.py [--clojure CMD]

Every probe is a PTC-Lisp expression that is also Clojure (the JVM session imports the
java.time classes first, so `LocalDate/parse` and `DateTimeFormatter/ofPattern` mean the
same in both). Formatting probes run every pattern letter PTC-Lisp reads, at each width, on
dates, times and date-times (and Locale/UK, US and ROOT for text); their texts are parsed
back with the same pattern (a second JVM pass), so every letter is probed in both
directions; then hand-written probes cover what a round trip does not: SMART resolution
(June 31st), padding and widths, signs, case, 12-hour clocks, conflicts, optional sections,
literals, the ISO constants' offsets, and the errors (which java.time also raises, with the
same "could not be parsed at index N"). Expected values come from evaluating every probe in
one JVM with generate.py's driver; a Java error is recorded with its message, which
tests/interpreter/test_date_formats.py compares with PTC-Lisp's.

DEVIATIONS lists the probes where PTC-Lisp differs on purpose (docs/deviations.md, dates).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import Entry, evaluate  # noqa: E402

OUT = Path(__file__).resolve().parent / "java_time.json"
IMPORT = ("(import '[java.time LocalDate LocalDateTime LocalTime Instant Duration] "
          "'[java.time.temporal ChronoUnit] '[java.time.format DateTimeFormatter] '[java.util Locale])")

DATES = ["(LocalDate/of 2026 3 14)", "(LocalDate/of 2020 9 1)", "(LocalDate/of 7 1 5)", "(LocalDate/of 1999 12 31)",
         "(LocalDate/of 2000 2 29)", "(LocalDate/of 9999 12 31)", "(LocalDate/of 1 1 1)"]
TIMES = ["(LocalTime/of 0 0)", "(LocalTime/of 0 5)", "(LocalTime/of 9 5 7)", "(LocalTime/of 12 0)",
         "(LocalTime/of 12 30 15)", "(LocalTime/of 13 7 9)", "(LocalTime/of 23 59 59)",
         "(LocalTime/of 10 15 30 123000000)", "(LocalTime/of 10 15 30 500000000)", "(LocalTime/of 23 59 59 999999000)"]
DATE_TIMES = ["(LocalDateTime/of 2026 3 14 0 5 9)", "(LocalDateTime/of 2026 3 14 12 30 0)",
              "(LocalDateTime/of 2020 2 29 23 59 59)", "(LocalDateTime/of 1999 12 31 13 0 0)",
              "(LocalDateTime/of (LocalDate/of 2026 3 14) (LocalTime/of 10 15 30 250000000))"]

# every letter at every width, formatted (a date letter on a time, or a time letter on a date, fails)
DATE_LETTERS = ["y", "yy", "yyy", "yyyy", "yyyyy", "u", "uu", "uuu", "uuuu", "M", "MM", "MMM", "MMMM", "MMMMM",
                "L", "LL", "LLL", "LLLL", "LLLLL", "d", "dd", "D", "DD", "DDD", "E", "EE", "EEE", "EEEE", "EEEEE"]
TIME_LETTERS = ["a", "h", "hh", "K", "KK", "k", "kk", "H", "HH", "m", "mm", "s", "ss", "S", "SS", "SSS", "SSSSSS",
                "SSSSSSSSS"]
# whole patterns, formatted and parsed back
DATE_PATTERNS = ["yyyy-MM-dd", "y-M-d", "yy-MM-dd", "yyy-M-d", "yyyyy-MM-dd", "uuuu-MM-dd", "u-M-d", "uu/MM/dd",
                 "d MMM yyyy", "d MMMM yyyy", "MMMMM d yyyy", "LLL d yyyy", "LLLL d, yyyy", "L/d/yyyy",
                 "EEE, d MMM yyyy", "EEEE d MMMM yyyy", "EEEEE d MMM yyyy", "E dd.MM.yyyy", "yyyyDDD", "yyyy-DDD",
                 "yyyy-D", "yyyy-DD", "yyyyMMdd", "yyMMdd", "ddMMyyyy", "dd/MM/yy", "MM/dd/yyyy",
                 "'Day' D 'of' yyyy", "yyyy'W'MMdd", "yyyy''MM''dd", "[yyyy-MM-dd][dd.MM.yyyy]", "yyyy-MM-dd[ HH:mm]"]
TIME_PATTERNS = ["HH:mm", "H:mm", "HH:mm:ss", "hh:mm a", "h:mm a", "h:mm:ss a", "KK:mm a", "K:mm a", "kk:mm", "k:mm",
                 "HHmmss", "HHmm", "HH:mm:ss.SSS", "HH:mm:ss.S", "HH:mm:ss.SSSSSS", "HHmmssSSS", "HH:mm[:ss]",
                 "HH:mm[:ss[.SSS]]", "h a", "HH 'h' mm", "H.mm.ss", "hh 'o''clock' a"]
DATE_TIME_PATTERNS = ["yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "dd/MM/yyyy HH:mm:ss", "MM/dd/yyyy h:mm a",
                      "EEE, d MMM yyyy HH:mm:ss", "yyyyMMddHHmmss", "yyyyMMddHHmm", "yyyy-MM-dd HH:mm:ss.SSS",
                      "yyyy-MM-dd[ HH:mm]", "MMM d, yyyy 'at' h:mm a", "d MMMM uuuu HH:mm", "yyyy-MM-dd'T'HH:mm[:ss]"]
TEXT_PATTERNS = ["d MMM yyyy", "d MMMM yyyy", "EEE d LLL yyyy", "EEEE, MMMM d, yyyy", "MMMMM EEEEE d yyyy"]
LOCALES = ["Locale/UK", "Locale/US", "Locale/ROOT", "Locale/ENGLISH"]
MONTH_DAYS = [f"(LocalDate/of 2026 {m} {d})" for m, d in zip(range(1, 13), (5, 2, 2, 6, 4, 1, 6, 3, 7, 5, 2, 7))]
ISO = ["ISO_LOCAL_DATE", "ISO_LOCAL_TIME", "ISO_LOCAL_DATE_TIME", "ISO_DATE", "ISO_DATE_TIME", "BASIC_ISO_DATE"]


def _fmt(pattern: str, locale: str | None = None) -> str:
    text = pattern.replace("\\", "\\\\").replace('"', '\\"')
    return f'(DateTimeFormatter/ofPattern "{text}"{" " + locale if locale else ""})'


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _kind(value: str) -> str:
    return value[1:].split("/", 1)[0]


def _parse(kind: str, text: str, fmt: str | None) -> str:
    return f"(str ({kind}/parse {_q(text)}{' ' + fmt if fmt else ''}))"


def format_probes() -> list[dict[str, str]]:
    """Every letter and pattern formatted (group, source, and how to parse the text back)."""
    out: list[dict[str, str]] = []

    def add(group: str, value: str, pattern: str, locale: str | None = None, back: bool = True) -> None:
        out.append({"group": group, "source": f"(.format {value} {_fmt(pattern, locale)})",
                    **({"pattern": pattern, "kind": _kind(value), "locale": locale or ""} if back else {})})

    for p in DATE_LETTERS:
        for v in DATES[:4] + DATE_TIMES[:1] + TIMES[:1]:
            add("format: date letters", v, p, back=False)
    for p in TIME_LETTERS:
        for v in TIMES + DATE_TIMES[:1] + DATES[:1]:
            add("format: time letters", v, p, back=False)
    for p in DATE_PATTERNS:
        for v in DATES:
            add("date patterns", v, p)
    for p in TIME_PATTERNS:
        for v in TIMES:
            add("time patterns", v, p)
    for p in DATE_TIME_PATTERNS:
        for v in DATE_TIMES:
            add("date-time patterns", v, p)
    for loc in LOCALES:
        for p in TEXT_PATTERNS:
            for v in MONTH_DAYS:
                add("locales", v, p, loc)
        for v in TIMES[:6]:
            add("locales", v, "h:mm a", loc)
    # the formatter first, as DateTimeFormatter.format(temporal)
    out.append({"group": "format: formatter first",
                "source": f'(.format {_fmt("EEE d MMM")} (LocalDate/of 2026 3 14))'})
    for name in ISO:
        for v in DATES[:1] + DATES[5:6] + DATE_TIMES[:1] + DATE_TIMES[4:] + TIMES[:1] + TIMES[8:9]:
            out.append({"group": "format: ISO constants", "source": f"(.format DateTimeFormatter/{name} {v})"})
    return out


def round_trips(formats: list[dict[str, str]], results: list[dict]) -> list[dict[str, str]]:
    """Each formatted text parsed back by its pattern."""
    out = []
    for probe, r in zip(formats, results):
        if "pattern" in probe and r["ok"]:
            text = json.loads(r["value"])
            fmt = _fmt(probe["pattern"], probe["locale"] or None)
            out.append({"group": "parse: " + probe["group"], "source": _parse(probe["kind"], text, fmt)})
    return out


# (kind, pattern, text): texts a round trip does not produce
PARSES: list[tuple[str, str, str]] = [
    # SMART resolution: a day past the month's end is its last day; past 31 an error
    ("LocalDate", "yyyy MMM dd", "2020 Jun 31"), ("LocalDate", "yyyy MMM dd", "2020 Feb 30"),
    ("LocalDate", "yyyy MMM dd", "2021 Feb 29"), ("LocalDate", "yyyy MMM dd", "2020 Feb 32"),
    ("LocalDate", "yyyy-MM-dd", "2020-04-31"), ("LocalDate", "yyyy-MM-dd", "2020-13-45"),
    ("LocalDate", "yyyy-MM-dd", "2020-00-10"), ("LocalDate", "yyyy-MM-dd", "2020-01-00"),
    ("LocalDate", "MM-dd", "06-01"), ("LocalDate", "yyyy-MM", "2020-06"), ("LocalDate", "yyyy", "2020"),
    ("LocalDate", "dd/MM/yyyy", "31/09/2020"), ("LocalDate", "dd/MM/yyyy", "29/02/2100"),
    # years: two digits are 2000-2099; y is the year of era (no 0, no minus); signs and widths
    ("LocalDate", "yy MM dd", "99 06 01"), ("LocalDate", "yy MM dd", "00 06 01"), ("LocalDate", "yy-MM-dd", "2020-06-01"),
    ("LocalDate", "yy-MM-dd", "6-06-01"), ("LocalDate", "yyyy MM dd", "0000 06 01"),
    ("LocalDate", "uuuu MM dd", "0000 06 01"),
    ("LocalDate", "yyyy-MM-dd", "+2020-06-01"), ("LocalDate", "yyyy-MM-dd", "12020-06-01"),
    ("LocalDate", "yyyy-MM-dd", "-2020-06-01"), ("LocalDate", "y-M-d", "+2020-06-01"), ("LocalDate", "y-M-d", "12-06-01"),
    ("LocalDate", "yyy-M-d", "12-06-01"), ("LocalDate", "yyyyy-M-d", "2020-06-01"), ("LocalDate", "yyyy-MM-dd", "202-06-01"),
    ("LocalDate", "u-M-d", "-5-06-01"), ("LocalDate", "yyyy uuuu MM dd", "2020 2020 06 01"),
    ("LocalDate", "yyyy uuuu MM dd", "2020 2021 06 01"), ("LocalDate", "yyyy-MM-dd yyyy", "2020-06-01 2021"),
    ("LocalDate", "yyyy-MM-dd yyyy", "2020-06-01 2020"),
    # widths and signs of the other numbers
    ("LocalDate", "yyyy M d", "2020 6 1"), ("LocalDate", "yyyy M d", "2020 06 01"), ("LocalDate", "yyyy M d", "2020 006 01"),
    ("LocalDate", "yyyy MM dd", "2020 6 1"), ("LocalDate", "yyyy MM dd", "2020 +6 01"),
    ("LocalDate", "yyyy M dd", "2020 +6 01"), ("LocalDate", "yyyy M dd", "2020 -6 01"), ("LocalDate", "yyyy MM dd", "2020 -6 01"),
    ("LocalDate", "yyyy MM dd", "2020 123 01"), ("LocalDate", "yyyy M d", "2020 0000000000000000006 1"),
    ("LocalDate", "yyyyMMdd", "202006011"), ("LocalDate", "yyyyMMdd", "2020061"), ("LocalDate", "yyyyMdd", "2020601"),
    ("LocalDate", "yyMMdd", "20200601"), ("LocalDate", "yyyy-DD", "2020-1530"), ("LocalDate", "yyyy-DDD", "2020-53"),
    ("LocalDate", "yyyy-DDD", "2021-366"), ("LocalDate", "yyyy-DDD", "2020-366"), ("LocalDate", "yyyy-DDD", "2020-367"),
    ("LocalDate", "yyyy-DDD", "2020-000"), ("LocalDate", "yyyy-DDD yyyy-MM-dd", "2020-060 2020-02-29"),
    ("LocalDate", "yyyy-DDD yyyy-MM-dd", "2020-061 2020-02-29"), ("LocalDate", "yyyy-DDD MM", "2020-060 02"),
    ("LocalDate", "yyyy-DDD MM", "2020-060 03"),
    # text: case-sensitive, each style its own texts
    ("LocalDate", "yyyy MMM dd", "2020 jun 01"), ("LocalDate", "yyyy MMM dd", "2020 JUN 01"),
    ("LocalDate", "yyyy MMM dd", "2020 June 01"), ("LocalDate", "yyyy MMMM dd", "2020 Jun 01"),
    ("LocalDate", "yyyy MMMM dd", "2020 june 01"), ("LocalDate", "yyyy MMMMM dd", "2020 J 01"),
    ("LocalDate", "yyyy MMMMM dd", "2020 M 01"), ("LocalDate", "yyyy MMMMM dd", "2020 A 01"),
    ("LocalDate", "yyyy MMMMM dd", "2020 S 01"), ("LocalDate", "yyyy MMM dd", "2020 Sept 01"),
    ("LocalDate", "EEE, yyyy-MM-dd", "Mon, 2020-06-15"), ("LocalDate", "EEE, yyyy-MM-dd", "Tue, 2020-06-15"),
    ("LocalDate", "EEE, yyyy-MM-dd", "mon, 2020-06-15"), ("LocalDate", "yyyy-MM-dd EEEE", "2020-06-01 Mon"),
    ("LocalDate", "yyyy-MM-dd E", "2020-06-01 Monday"), ("LocalDate", "yyyy-MM-dd EEEEE", "2020-06-04 T"),
    ("LocalDate", "yyyy-MM-dd EEEEE", "2020-06-02 T"), ("LocalDate", "yyyy-MM-dd EEEEE", "2020-06-07 S"),
    ("LocalDate", "yyyy-MM-dd EEEEE", "2020-06-06 S"), ("LocalDate", "EEE", "Mon"), ("LocalDate", "yyyy EEE MM", "2020 Mon 06"),
    # 12- and 24-hour clocks
    ("LocalTime", "hh:mm", "10:30"), ("LocalTime", "KK:mm", "12:30"), ("LocalTime", "hh:mm a", "12:30 AM"),
    ("LocalTime", "hh:mm a", "12:30 PM"), ("LocalTime", "hh:mm a", "00:30 AM"), ("LocalTime", "hh:mm a", "13:30 PM"),
    ("LocalTime", "h:mm a", "0:05 PM"), ("LocalTime", "hh:mm a", "10:30 am"), ("LocalTime", "hh:mm a", "10:30 P.M."),
    ("LocalTime", "KK:mm a", "11:30 PM"), ("LocalTime", "KK:mm a", "12:30 PM"), ("LocalTime", "K:mm a", "0:30 AM"),
    ("LocalTime", "kk:mm", "24:30"), ("LocalTime", "kk:mm", "00:30"), ("LocalTime", "kk:mm", "25:05"),
    ("LocalTime", "HH:mm a", "13:30 AM"), ("LocalTime", "HH:mm a", "13:30 PM"), ("LocalTime", "h a", "10 PM"),
    ("LocalTime", "a h", "PM 10"), ("LocalTime", "h a H", "10 PM 22"), ("LocalTime", "h a H", "10 PM 21"),
    ("LocalTime", "h H", "10 22"), ("LocalTime", "h H", "10 21"), ("LocalTime", "K H", "10 10"), ("LocalTime", "H H", "10 22"),
    ("LocalTime", "h:mm:ss a", "1:5:3 PM"), ("LocalTime", "h:m:s a", "1:5:3 PM"), ("LocalTime", "h:m:s a", "001:05:03 PM"),
    ("LocalTime", "a", "PM"), ("LocalTime", "a", "AM"), ("LocalTime", "a mm", "PM 30"), ("LocalTime", "a K", "PM 5"),
    ("LocalDateTime", "yyyy-MM-dd a", "2020-01-01 PM"), ("LocalTime", "h:mm", "9:30"),
    # time values, 24:00, partial times
    ("LocalTime", "HH:mm", "24:00"), ("LocalTime", "H:mm:ss", "24:00:00"), ("LocalTime", "H:mm", "24:01"),
    ("LocalTime", "H:mm", "25:05"), ("LocalTime", "H:mm", "10:60"), ("LocalTime", "H:mm:ss", "10:00:60"),
    ("LocalTime", "HH", "10"), ("LocalTime", "HH ss", "10 30"), ("LocalTime", "mm:ss", "30:15"),
    ("LocalTime", "HH:mm", "9:30"), ("LocalTime", "H:mm", "009:30"), ("LocalDateTime", "yyyy-MM-dd HH:mm", "2020-01-01 24:00"),
    ("LocalDateTime", "yyyy-MM-dd HH:mm", "2020-12-31 24:00"), ("LocalDate", "yyyy-MM-dd HH:mm", "2020-06-01 24:00"),
    ("LocalDate", "yyyy-MM-dd HH:mm", "2020-06-01 10:30"), ("LocalTime", "yyyy-MM-dd HH:mm", "2020-06-01 10:30"),
    ("LocalDateTime", "yyyy-MM-dd", "2020-06-01"), ("LocalDateTime", "HH:mm", "10:30"),
    # fractions
    ("LocalTime", "HH:mm:ss.S", "10:15:30.5"), ("LocalTime", "HH:mm:ss.S", "10:15:30.50"),
    ("LocalTime", "HH:mm:ss.SS", "10:15:30.50"), ("LocalTime", "HH:mm:ss.SSS", "10:15:30.12"),
    ("LocalTime", "HH:mm:ss.SSS'x'", "10:15:30.12x"), ("LocalTime", "HH:mm:ss.SSS'x'", "10:15:30.1x"),
    ("LocalTime", "HHmmssSSS", "101530500"), ("LocalTime", "HH:mm:ss[.SSS]", "10:15:30"),
    ("LocalTime", "HH:mm:ss[.SSS]", "10:15:30.250"), ("LocalTime", "HH:mm:ss[.SSS]", "10:15:30.25"),
    ("LocalTime", "HH:mm SSS", "10:15 123"), ("LocalTime", "HH:mm:ss.SSSSSS", "10:15:30.000001"),
    # optional sections and literals
    ("LocalTime", "HH:mm[:ss]", "10:15"), ("LocalTime", "HH:mm[:ss]", "10:15:3"), ("LocalTime", "HH[:mm[:ss]]", "10"),
    ("LocalTime", "HH[:mm[:ss]]", "10:15:30"), ("LocalTime", "[HH", "10"), ("LocalTime", "HH[]mm", "1015"),
    ("LocalDate", "yyyy-MM-dd[ HH:mm]", "2020-06-01"), ("LocalDate", "yyyy-MM-dd[ HH:mm]", "2020-06-01 10:30"),
    ("LocalDate", "yyyy-MM-dd[ HH:mm]", "2020-06-01 10"), ("LocalDate", "[yyyy-MM-dd][dd.MM.yyyy]", "01.06.2020"),
    ("LocalDate", "[yyyy-MM-dd][dd.MM.yyyy]", "2020-06-01"), ("LocalDate", "[dd.MM.][yyyy]MM", "01.06.202006"),
    ("LocalDate", "'Day' D 'of' yyyy", "Day 153 of 2020"), ("LocalDate", "'Day' D 'of' yyyy", "day 153 of 2020"),
    ("LocalDate", "'Day' D 'of' yyyy", "Day 153 in 2020"), ("LocalDate", "yyyy''MM''dd", "2020'06'01"),
    ("LocalDate", "yyyy/MM/dd", "2020-06-01"), ("LocalDate", "yyyy--MM", "2020-x06"), ("LocalDate", "yyyy-MM-dd", " 2020-06-01"),
    ("LocalDate", "yyyy-MM-dd", "2020-06-01 "), ("LocalDate", "yyyy-MM-dd", ""), ("LocalTime", "", ""),
    ("LocalDate", "'x'", "x"), ("LocalDate", "yyyy-MM-dd", "2020-06-01" + "x" * 70),
    ("LocalDate", "yyyy-MM-dd", "x" * 70), ("LocalDate", "dd MMMM yyyy", "01 Juneteenth 2020"),
]

ISO_PARSES: list[tuple[str, str, str | None]] = [
    ("LocalDate", "2026-03-14", None), ("LocalDate", "2026-3-14", None), ("LocalDate", "26-03-14", None),
    ("LocalDate", "+12026-03-14", None), ("LocalDate", "12026-03-14", None), ("LocalDate", "+2026-03-14", None),
    ("LocalDate", "-0001-01-01", None), ("LocalDate", "-0000-01-01", None), ("LocalDate", "+99999999999-01-01", None),
    ("LocalDate", "2026-02-29", None), ("LocalDate", "2024-02-29", None), ("LocalDate", "2026-04-31", None),
    ("LocalDate", "2026-13-01", None), ("LocalDate", "2026-00-10", None), ("LocalDate", "2026-03-32", None),
    ("LocalDate", "2026-03-14T10:00", None), ("LocalDate", " 2026-03-14", None), ("LocalDate", "", None),
    ("LocalDate", "2026/03/14", None), ("LocalDate", "14/03/2026", None),
    ("LocalDateTime", "2026-03-14T10:15", None), ("LocalDateTime", "2026-03-14t10:15", None),
    ("LocalDateTime", "2026-03-14T10:15:30.123", None), ("LocalDateTime", "2026-03-14T10:15:30.", None),
    ("LocalDateTime", "2026-03-14 10:15", None), ("LocalDateTime", "2026-03-14T24:00", None),
    ("LocalDateTime", "2026-03-14T10", None), ("LocalDateTime", "2026-03-14T10:15:30.1234567891", None),
    ("LocalDateTime", "2026-03-14T10:15:30Z", None), ("LocalDateTime", "2026-03-14", None),
    ("LocalTime", "10:15", None), ("LocalTime", "10:15:30", None), ("LocalTime", "10:15:30.5", None),
    ("LocalTime", "1:15", None), ("LocalTime", "10:15:3", None), ("LocalTime", "24:00", None), ("LocalTime", "23:60", None),
    ("LocalTime", "10:15:30.000001", None), ("LocalTime", "10:15:30.000", None), ("LocalTime", "10:15:30.123456789", None),
    ("LocalTime", "10:15:30Z", None), ("LocalTime", "10:15:60", None),
    ("LocalDate", "2026-03-14", "ISO_LOCAL_DATE"), ("LocalDate", "2026-02-30", "ISO_LOCAL_DATE"),
    ("LocalDate", "2026-03-14", "ISO_DATE"), ("LocalDate", "2026-03-14Z", "ISO_DATE"), ("LocalDate", "2026-03-14z", "ISO_DATE"),
    ("LocalDate", "2026-03-14+01:00", "ISO_DATE"), ("LocalDate", "2026-03-14-05:30", "ISO_DATE"),
    ("LocalDate", "2026-03-14+01:00:30", "ISO_DATE"), ("LocalDate", "2026-03-14+01", "ISO_DATE"),
    ("LocalDate", "2026-03-14+0100", "ISO_DATE"), ("LocalDate", "2026-03-14+24:00", "ISO_DATE"),
    ("LocalDate", "2026-03-14+01:60", "ISO_DATE"), ("LocalDate", "2026-03-14+19:00", "ISO_DATE"),
    ("LocalDateTime", "2026-03-14T10:00Z", "ISO_DATE_TIME"), ("LocalDateTime", "2026-03-14T10:00:30.5+05:30", "ISO_DATE_TIME"),
    ("LocalDateTime", "2026-03-14T10:00+19:00", "ISO_DATE_TIME"), ("LocalDateTime", "2026-03-14T10:00+18:00", "ISO_DATE_TIME"),
    ("LocalDateTime", "2026-03-14T10:00-00:00", "ISO_DATE_TIME"), ("LocalDateTime", "2026-03-14T10:00+01:00:60", "ISO_DATE_TIME"),
    ("LocalDateTime", "2026-03-14T10:00+01:0", "ISO_DATE_TIME"), ("LocalDateTime", "2026-03-14T10:00", "ISO_DATE_TIME"),
    ("LocalDateTime", "2026-03-14T10:00+05:30[Asia/Kolkata]", "ISO_DATE_TIME"),
    ("LocalDateTime", "2026-03-14T10:00Z[UTC]", "ISO_DATE_TIME"), ("LocalDateTime", "2026-03-14T10:00[UTC]", "ISO_DATE_TIME"),
    ("LocalDate", "2026-03-14T10:00Z", "ISO_DATE_TIME"), ("LocalTime", "2026-03-14T10:00Z", "ISO_DATE_TIME"),
    ("LocalDate", "20260314", "BASIC_ISO_DATE"), ("LocalDate", "20260314Z", "BASIC_ISO_DATE"),
    ("LocalDate", "20260314z", "BASIC_ISO_DATE"), ("LocalDate", "20260314+0100", "BASIC_ISO_DATE"),
    ("LocalDate", "20260314+01", "BASIC_ISO_DATE"), ("LocalDate", "20260314+01:00", "BASIC_ISO_DATE"),
    ("LocalDate", "20260314+010", "BASIC_ISO_DATE"), ("LocalDate", "20260314+01000", "BASIC_ISO_DATE"),
    ("LocalDate", "20260314+0100001", "BASIC_ISO_DATE"), ("LocalDate", "20260314+1", "BASIC_ISO_DATE"),
    ("LocalDate", "20260314+24", "BASIC_ISO_DATE"), ("LocalDate", "20260314+0160", "BASIC_ISO_DATE"),
    ("LocalDate", "+20260314", "BASIC_ISO_DATE"), ("LocalDate", "2026031", "BASIC_ISO_DATE"),
    ("LocalDate", "202603141", "BASIC_ISO_DATE"), ("LocalDate", "2026-03-14", "BASIC_ISO_DATE"),
    ("LocalDate", "2026-03-14T10:15", "ISO_LOCAL_DATE_TIME"), ("LocalTime", "2026-03-14T10:15", "ISO_LOCAL_DATE_TIME"),
    ("LocalTime", "10:15", "ISO_LOCAL_TIME"), ("LocalDateTime", "2026-03-14", "ISO_LOCAL_DATE"),
    ("LocalDateTime", "10:15", "ISO_LOCAL_TIME"),
]

# (DateTimeFormatter/ofPattern p) alone: Java's IllegalArgumentException, or a formatter
PATTERNS = ["EEEEEE", "MMMMMM", "LLLLLL", "ddd", "HHH", "hhh", "KKK", "kkk", "mmm", "sss", "aa", "DDDD",
            "SSSSSSSSSS", "yyyyyyyyyyyyyyyyyyy", "yyyyyyyyyyyyyyyyyyyy", "b", "yyyy-MM-ddTHH:mm", "yyyy]", "yyyy'",
            "'", "yyyy{", "#", "}", "yyyy-MM-dd p", "ppH", "YYYY", "YY", "G", "GGGG", "Q", "qqq", "w", "W", "e", "c",
            "F", "n", "N", "A", "g", "B", "z", "zzzz", "VV", "v", "Z", "ZZZZZ", "O", "X", "XXX", "x", "[[yyyy]", "", "''",
            "[]", "yyyy-MM-dd'T'HH:mm:ss.SSS"]

OTHERS = [
    # LocalTime
    "(str (LocalTime/of 9 30))", "(str (LocalTime/of 9 30 15))", "(str (LocalTime/of 9 30 15 500000000))",
    "(str (LocalTime/of 9 30 0 1000))", "(str (LocalTime/of 24 0))", "(str (LocalTime/of 10 60))",
    "(str (LocalTime/of 10 0 60))", "(str (LocalTime/of -1 0))", "(str (LocalTime/of 10 0 0 1000000000))",
    "(str LocalTime/MIDNIGHT)", "(str LocalTime/NOON)", "(str LocalTime/MIN)", "(str LocalTime/MAX)",
    "[(.getHour (LocalTime/of 13 7 9)) (.getMinute (LocalTime/of 13 7 9)) (.getSecond (LocalTime/of 13 7 9))]",
    "(str (.plusHours (LocalTime/of 23 0) 2))", "(str (.plusHours (LocalTime/of 10 0) -35))",
    "(str (.minusHours (LocalTime/of 1 0) 2))", "(str (.plusMinutes (LocalTime/of 23 50) 15))",
    "(str (.minusMinutes (LocalTime/of 0 10) 20))", "(str (.plusSeconds (LocalTime/of 23 59 59) 2))",
    "(str (.minusSeconds (LocalTime/of 0 0) 1))", "(str (.plusMinutes (LocalTime/of 9 0) 1000000000))",
    "(str (.plus (LocalTime/of 10 0) (Duration/ofMinutes 90)))", "(str (.minus (LocalTime/of 0 30) (Duration/ofHours 1)))",
    "(str (.plus (LocalTime/of 10 0) 3 ChronoUnit/HOURS))", "(str (.minus (LocalTime/of 0 30) 1 ChronoUnit/HOURS))",
    "(str (.plus (LocalTime/of 10 0) 1 ChronoUnit/DAYS))",
    "(.isBefore (LocalTime/of 9 0) (LocalTime/of 10 0))", "(.isAfter (LocalTime/of 9 0) (LocalTime/of 10 0))",
    "(.isBefore (LocalTime/of 9 0) (LocalTime/of 9 0))", "(.compareTo (LocalTime/of 9 0) (LocalTime/of 10 0))",
    "(compare (LocalTime/of 11 0) (LocalTime/of 10 0))", "(= (LocalTime/of 9 30) (LocalTime/parse \"09:30\"))",
    "(= (LocalTime/of 9 30) (LocalTime/of 9 31))", "(map str (sort [(LocalTime/of 10 0) (LocalTime/of 9 30) (LocalTime/of 0 0)]))",
    "(str (.toLocalTime (LocalDateTime/of 2026 3 14 10 15 30)))", "(str (.atTime (LocalDate/of 2026 3 14) (LocalTime/of 9 30)))",
    "(str (.atTime (LocalDate/of 2026 3 14) 9 30))", "(str (.atDate (LocalTime/of 9 30) (LocalDate/of 2026 3 14)))",
    "(str (LocalDateTime/of (LocalDate/of 2026 3 14) (LocalTime/of 9 30)))", "(.toSecondOfDay (LocalTime/of 1 30 5))",
    "(.between ChronoUnit/MINUTES (LocalTime/of 9 0) (LocalTime/of 17 30))",
    "(.between ChronoUnit/HOURS (LocalTime/of 17 30) (LocalTime/of 9 0))",
    "(.until (LocalTime/of 9 0) (LocalTime/of 17 30) ChronoUnit/HOURS)",
    "(str (Duration/between (LocalTime/of 9 0) (LocalTime/of 17 30)))",
    "(str (Duration/between (LocalTime/of 17 30) (LocalTime/of 9 0)))",
    "(.getHour (LocalTime/parse \"10:15\"))", "(str (java.time.LocalTime/of 9 30))",
    # formatters: qualified names, equality, arguments
    "(.format (LocalDate/of 2026 3 14) (java.time.format.DateTimeFormatter/ofPattern \"dd MMM\" java.util.Locale/UK))",
    "(.format (LocalDate/of 2026 9 14) (DateTimeFormatter/ofPattern \"dd MMM\" java.util.Locale/UK))",
    "(= (DateTimeFormatter/ofPattern \"d\") (DateTimeFormatter/ofPattern \"d\"))",
    "(.format (LocalDate/of 2026 3 14) DateTimeFormatter/ISO_LOCAL_TIME)",
    "(.format (Instant/parse \"2026-03-14T10:00:00Z\") DateTimeFormatter/ISO_DATE_TIME)",
    "(.format (Instant/parse \"2026-03-14T10:00:00Z\") (DateTimeFormatter/ofPattern \"yyyy\"))",
    "(LocalDate/parse nil (DateTimeFormatter/ofPattern \"yyyy\"))", "(LocalDate/parse \"2020\" nil)",
    "(DateTimeFormatter/ofPattern nil)", "(str Locale/UK Locale/US Locale/ENGLISH)",
    "(.format (LocalDate/of 2026 3 14) (DateTimeFormatter/ofPattern \"yyyy-MM-dd HH:mm\"))",
    "(.format (LocalTime/of 9 5) (DateTimeFormatter/ofPattern \"yyyy-MM-dd HH:mm\"))",
    "(.format (LocalTime/of 9 5) (DateTimeFormatter/ofPattern \"[yyyy-MM-dd ]HH:mm\"))",
]

# probes where PTC-Lisp differs on purpose: source -> (reason, what PTC-Lisp gives; "!error": an error)
YEARS = "PTC-Lisp's years are 1 to 9999"
NANOS = "times keep microseconds (Java: nanoseconds)"
REFUSED = "pattern letters PTC-Lisp does not read are refused"
ZONES = "no time zones: a [region] is refused"
EQUAL = "formatters made alike are equal (Java: identity)"
DEVIATIONS: dict[str, tuple[str, str]] = {
    _parse("LocalDate", "0000 06 01", _fmt("uuuu MM dd")): (YEARS, "!error"),
    _parse("LocalDate", "-5-06-01", _fmt("u-M-d")): (YEARS, "!error"),
    _parse("LocalDate", "+12026-03-14", None): (YEARS, "!error"),
    _parse("LocalDate", "-0001-01-01", None): (YEARS, "!error"),
    _parse("LocalTime", "10:15:30.123456789", None): (NANOS, '"10:15:30.123456"'),
    "(str LocalTime/MAX)": (NANOS, '"23:59:59.999999"'),
    _parse("LocalDateTime", "2026-03-14T10:00+05:30[Asia/Kolkata]", "DateTimeFormatter/ISO_DATE_TIME"): (ZONES, "!error"),
    _parse("LocalDateTime", "2026-03-14T10:00Z[UTC]", "DateTimeFormatter/ISO_DATE_TIME"): (ZONES, "!error"),
    '(= (DateTimeFormatter/ofPattern "d") (DateTimeFormatter/ofPattern "d"))': (EQUAL, "true"),
    **{f"(some? {_fmt(p)})": (REFUSED, "!error") for p in ("ppH", "YYYY", "YY", "G", "GGGG", "Q", "qqq", "w", "W",
                                                           "e", "c", "F", "n", "N", "A", "g", "B", "z", "zzzz", "VV",
                                                           "v", "Z", "ZZZZZ", "O", "X", "XXX", "x")},
}


def probes(formats: list[dict[str, str]], results: list[dict]) -> list[dict[str, str]]:
    """Every probe but the formatting ones: round trips, hand-written parses, patterns, the rest."""
    out = round_trips(formats, results)
    out += [{"group": "parse: edges", "source": _parse(kind, text, _fmt(p))} for kind, p, text in PARSES]
    out += [{"group": "parse: ISO", "source": _parse(kind, text, iso and f"DateTimeFormatter/{iso}")}
            for kind, text, iso in ISO_PARSES]
    out += [{"group": "patterns", "source": f"(some? {_fmt(p)})"} for p in PATTERNS]
    out += [{"group": "LocalTime and formatters", "source": src} for src in OTHERS]
    return out


def _record(probe: dict[str, str], r: dict) -> dict[str, object]:
    item: dict[str, object] = {"group": probe["group"], "source": probe["source"]}
    if r["ok"]:
        item["expected"] = r["value"]
    else:
        item["error"], item["message"] = r["error"], r["message"]
    dev = DEVIATIONS.get(probe["source"])
    item["deviation"] = {"reason": dev[0], "ptc_expected": dev[1]} if dev else None
    return item


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clojure", default="clojure", help="command that runs a Clojure script (default: clojure)")
    args = ap.parse_args(argv)

    def run(batch: list[dict[str, str]]) -> list[dict]:
        return evaluate([Entry(0, "java.time", IMPORT)] + [Entry(0, "java.time", p["source"]) for p in batch],
                        args.clojure)[1:]

    formats = format_probes()
    format_results = run(formats)
    rest = probes(formats, format_results)
    items = [_record(p, r) for p, r in zip(formats, format_results)] + [_record(p, r) for p, r in zip(rest, run(rest))]
    unused = set(DEVIATIONS) - {str(i["source"]) for i in items}
    if unused:
        raise SystemExit(f"deviations of no probe: {sorted(unused)}")
    OUT.write_text("[\n" + ",\n".join(json.dumps(i, ensure_ascii=False) for i in items) + "\n]\n", encoding="utf-8")
    errors = sum(1 for i in items if "error" in i)
    print(f"wrote {len(items)} probes ({errors} Java errors) to {OUT.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
