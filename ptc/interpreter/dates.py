"""Dates and times as PTC values: plain Python values underneath, shared with tables.

A LocalDate is a `datetime.date`, a LocalDateTime a naive `datetime.datetime`, an Instant a
UTC-aware `datetime.datetime`, a LocalTime a naive `datetime.time` and a Duration a
`datetime.timedelta`, so a date column handed in by the host (`datetime.date` cells) is
already the value `LocalDate/parse` makes, and equality, hashing and ordering are Python's
own. `java.time`'s enums a program may name (`ChronoUnit/DAYS`, `DayOfWeek/MONDAY`,
`Month/MARCH`) and the locales (`Locale/UK`) are `JavaEnum` constants; a `DateTimeFormatter`
is the pattern it was made of (lib/java_format.py compiles and applies it).

Every one of them is shown as its ISO text (`iso_text`), the text java.time's `toString`
gives: that is what `str` and `println` print, what `pr-str` prints quoted (it reads back as
that string), and what the host gets from `to_python`. A formatter, whose Java `toString` is
its builder's internals, shows as `#DateTimeFormatter["MM/dd/yyyy"]`, unquoted like a regex.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

LocalDate = dt.date
DateTime = dt.datetime  # naive: LocalDateTime; UTC-aware: Instant
LocalTime = dt.time
Duration = dt.timedelta
UTC = dt.timezone.utc


class JavaEnum:
    """A java.time enum constant (ChronoUnit/DAYS, DayOfWeek/MONDAY, Month/MARCH): compared by
    identity, shown by its name, `value` is Java's getValue() (1-based) where it has one."""

    __slots__ = ("kind", "name", "value")

    def __init__(self, kind: str, name: str, value: int) -> None:
        self.kind, self.name, self.value = kind, name, value

    def __repr__(self) -> str:
        return f"{self.kind}/{self.name}"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


class DateTimeFormatter:
    """A java.time DateTimeFormatter: the pattern it was made of (or the name of the ISO
    constant it is), the locale whose text it writes (ENGLISH, which Locale/US writes too, UK
    or ROOT: lib/java_format.py knows how they differ), and `program`, the compiled form it
    parses and formats with. Equal when made alike, as a program expects of two ofPattern calls."""

    __slots__ = ("pattern", "iso", "locale", "program")

    def __init__(self, pattern: str | None, iso: str | None, locale: str, program: Any) -> None:
        self.pattern, self.iso, self.locale, self.program = pattern, iso, locale, program

    @property
    def text(self) -> str:
        """#DateTimeFormatter["MM/dd/yyyy"], #DateTimeFormatter["d MMM" Locale/UK], #DateTimeFormatter[ISO_DATE]."""
        inner = self.iso or '"' + "".join(_ESCAPES.get(c, c) for c in self.pattern or "") + '"'
        return f"#DateTimeFormatter[{inner}{'' if self.locale == 'ENGLISH' else ' Locale/' + self.locale}]"

    def __eq__(self, other: object) -> bool:
        return type(other) is DateTimeFormatter and (self.pattern, self.iso, self.locale) == \
            (other.pattern, other.iso, other.locale)

    def __hash__(self) -> int:
        return hash((DateTimeFormatter, self.pattern, self.iso, self.locale))

    def __repr__(self) -> str:
        return self.text


def _enum(kind: str, names: str) -> dict[str, JavaEnum]:
    return {name: JavaEnum(kind, name, i) for i, name in enumerate(names.split(), start=1)}


DAYS_OF_WEEK = _enum("DayOfWeek", "MONDAY TUESDAY WEDNESDAY THURSDAY FRIDAY SATURDAY SUNDAY")
MONTHS = _enum("Month", "JANUARY FEBRUARY MARCH APRIL MAY JUNE JULY AUGUST SEPTEMBER OCTOBER NOVEMBER DECEMBER")
CHRONO_UNITS = _enum("ChronoUnit", "NANOS MICROS MILLIS SECONDS MINUTES HOURS HALF_DAYS DAYS WEEKS MONTHS YEARS "
                                   "DECADES CENTURIES MILLENNIA")
# java.util.Locale's constants a formatter takes, named by their Java toString (str Locale/UK is "en_GB")
LOCALES = {k: JavaEnum("Locale", tag, 0) for k, tag in (("ENGLISH", "en"), ("US", "en_US"), ("UK", "en_GB"),
                                                        ("ROOT", ""))}

TYPES = frozenset({dt.date, dt.datetime, dt.time, dt.timedelta, JavaEnum, DateTimeFormatter})


def kind(x: Any) -> str:
    """The java.time class name of a date value (for errors and type names)."""
    t = type(x)
    if t is dt.date:
        return "LocalDate"
    if t is dt.datetime:
        return "LocalDateTime" if x.tzinfo is None else "Instant"
    if t is dt.time:
        return "LocalTime"
    if t is dt.timedelta:
        return "Duration"
    if t is DateTimeFormatter:
        return "DateTimeFormatter"
    return x.kind  # type: ignore[no-any-return]


def _fraction(micros: int) -> str:
    """Java prints a fraction of a second in groups of three digits, trailing zero groups dropped."""
    if not micros:
        return ""
    text = f"{micros:06d}"
    return "." + (text[:3] if text.endswith("000") else text)


def _time_text(t: dt.datetime | dt.time, always_seconds: bool) -> str:
    text = f"{t.hour:02d}:{t.minute:02d}"
    if always_seconds or t.second or t.microsecond:
        text += f":{t.second:02d}" + _fraction(t.microsecond)
    return text


def _date_text(d: dt.date) -> str:
    y = d.year
    return (f"{y:04d}" if y <= 9999 else f"+{y}") + f"-{d.month:02d}-{d.day:02d}"


def _duration_text(d: dt.timedelta) -> str:
    """Java's Duration.toString: PT8H6M12.345S, hours never folded into days; zero is PT0S."""
    micros = (d.days * 86_400 + d.seconds) * 1_000_000 + d.microseconds
    if micros == 0:
        return "PT0S"
    total_seconds, frac = divmod(abs(micros), 1_000_000)
    sign = "-" if micros < 0 else ""
    hours, rest = divmod(total_seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    out = "PT"
    if hours:
        out += f"{sign}{hours}H"
    if minutes:
        out += f"{sign}{minutes}M"
    if seconds or frac:  # Duration's fraction drops every trailing zero (PT1.5S)
        out += f"{sign}{seconds}" + (f".{frac:06d}".rstrip("0") if frac else "") + "S"
    return out


def iso_text(x: Any) -> str:
    """java.time's toString of a date value: 2026-03-14, 2026-03-14T10:15, 2026-03-14T10:15:00Z, 10:15,
    PT1H30M (a formatter: what it prints as)."""
    t = type(x)
    if t is dt.date:
        return _date_text(x)
    if t is dt.time:
        return _time_text(x, False)
    if t is DateTimeFormatter:
        return x.text  # type: ignore[no-any-return]
    if t is dt.datetime:
        if x.tzinfo is None:
            return _date_text(x) + "T" + _time_text(x, False)
        u = x.astimezone(UTC)
        return _date_text(u) + "T" + _time_text(u, True) + "Z"
    if t is dt.timedelta:
        return _duration_text(x)
    return x.name  # type: ignore[no-any-return]


def comparable(a: Any, b: Any) -> bool:
    """True if a and b are date values of the same java.time class (compare orders them);
    locales and formatters are not ordered (nor are they in Java)."""
    t = type(a)
    if t is not type(b) or t is JavaEnum or t is DateTimeFormatter:
        return t is JavaEnum and t is type(b) and a.kind == b.kind and a.kind != "Locale"
    if t is dt.datetime:
        return (a.tzinfo is None) == (b.tzinfo is None)
    return True


def compare(a: Any, b: Any) -> int:
    """java.time's compareTo of two comparable values: a LocalDate (and the date of a
    LocalDateTime) by the first differing field's difference (year, then month, then day), as
    Java does; times, instants and durations -1, 0 or 1; enum constants by position."""
    t = type(a)
    if t is JavaEnum:
        return a.value - b.value  # type: ignore[no-any-return]
    if t is dt.date or (t is dt.datetime and a.tzinfo is None):
        for x, y in ((a.year, b.year), (a.month, b.month), (a.day, b.day)):
            if x != y:
                return x - y
    return -1 if a < b else (1 if a > b else 0)


__all__ = ["LocalDate", "DateTime", "LocalTime", "Duration", "UTC", "JavaEnum", "DateTimeFormatter", "DAYS_OF_WEEK",
           "MONTHS", "CHRONO_UNITS", "LOCALES", "TYPES", "kind", "iso_text", "comparable", "compare"]
