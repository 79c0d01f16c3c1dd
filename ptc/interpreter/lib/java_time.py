"""java.time as models write it: LocalDate, LocalDateTime, LocalTime, Instant, Duration, ChronoUnit.

The values are Python's (see dates.py); the static methods (`LocalDate/parse`,
`Duration/between`...) are builtins in their class's namespace and the instance methods
(`.plusDays`, `.isBefore`, `.between`...) are `methods.method` builtins dispatching on the
date type. Text is parsed by java_format.py's formatters: `(LocalDate/parse s)` is
`(LocalDate/parse s DateTimeFormatter/ISO_LOCAL_DATE)`, as in Java. Times are kept to the
microsecond (Java: nanosecond). "Now" (`LocalDate/now`, `Instant/now`,
`System/currentTimeMillis`) is the run clock: read once, at its first use in a run, and the
same for the rest of that run.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Any

from .. import dates
from ..context import run_clock
from ..errors import runtime_error
from ..registry import builtin
from . import java_format
from .core_numbers import describe
from .methods import method

D, DT, TM, DUR, ENUM = dt.date, dt.datetime, dt.time, dt.timedelta, dates.JavaEnum
TEMPORAL = (D, DT)
ALL = (D, DT, TM, DUR)
_DAY = 86_400_000_000  # microseconds
_CAT = "dates"
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dates.UTC)
_MICROS = {"NANOS": 0.001, "MICROS": 1, "MILLIS": 1_000, "SECONDS": 1_000_000, "MINUTES": 60_000_000,
           "HOURS": 3_600_000_000, "HALF_DAYS": 43_200_000_000, "DAYS": 86_400_000_000,
           "WEEKS": 604_800_000_000}
_MONTHS_IN = {"MONTHS": 1, "YEARS": 12, "DECADES": 120, "CENTURIES": 1200, "MILLENNIA": 12000}

# the enum constants, read by the analyzer like Math/PI (ChronoUnit/DAYS, DayOfWeek/MONDAY, Month/MARCH)
CONSTANTS: dict[str, Any] = {
    **{f"ChronoUnit/{k}": e for k, e in dates.CHRONO_UNITS.items()},
    **{f"DayOfWeek/{k}": e for k, e in dates.DAYS_OF_WEEK.items()},
    **{f"Month/{k}": e for k, e in dates.MONTHS.items()},
    "Duration/ZERO": dt.timedelta(0),
    "LocalDate/MIN": dt.date.min,
    "LocalDate/MAX": dt.date.max,
    "LocalTime/MIDNIGHT": dt.time(0),
    "LocalTime/MIN": dt.time.min,
    "LocalTime/NOON": dt.time(12),
    "LocalTime/MAX": dt.time.max,
    "Instant/EPOCH": _EPOCH,
    **java_format.CONSTANTS,
}


def _int(who: str, x: Any) -> int:
    if type(x) is int:
        return x
    raise runtime_error(f"{who}: expected an integer, got {describe(x)}")


def _checked(who: str, make: Any, *args: Any) -> Any:
    """Build a date value; out-of-range fields are Java's DateTimeException, as a runtime error."""
    try:
        return make(*args)
    except OverflowError:
        raise runtime_error(f"{who}: the result is outside the dates PTC-Lisp holds (years 1 to 9999)") from None
    except ValueError as e:
        text = str(e)
        if "C int" in text or "C long" in text or "integer" in text:  # Python's words for an overflow
            raise runtime_error(f"{who}: the result is outside the dates PTC-Lisp holds (years 1 to 9999)") from None
        raise runtime_error(f"{who}: invalid date or time ({text})") from None


# -- parsing -----------------------------------------------------------------------------

_DATE = r"([+-]?\d{4,9})-(\d{2})-(\d{2})"
_TIME = r"(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?"
_INSTANT = re.compile(_DATE + "T" + _TIME + r"(Z|[+-]\d{2}:\d{2})")
_ISO_OF = {"LocalDate": ("ISO_LOCAL_DATE", "2026-03-14", "dd/MM/yyyy"),
           "LocalDateTime": ("ISO_LOCAL_DATE_TIME", "2026-03-14T10:15:30", "dd/MM/yyyy HH:mm"),
           "LocalTime": ("ISO_LOCAL_TIME", "10:15:30", "h:mm a")}
_NO_FORMATTER = object()


def _parse_local(kind: str, s: Any, fmt: Any) -> Any:
    """(X/parse s) reads ISO text (Java's ISO_LOCAL_... formatter, strict); (X/parse s fmt) the formatter's."""
    who = f"{kind}/parse"
    if fmt is not _NO_FORMATTER:
        return java_format.parse(who, s, fmt, kind)
    iso, example, pattern = _ISO_OF[kind]
    return java_format.parse(who, s, java_format.ISO[iso], kind,
                             hint=f"{who} reads ISO text such as {example}; for other text give a pattern: "
                                  f'({who} s (DateTimeFormatter/ofPattern "{pattern}"))')


def _parse(who: str, rx: re.Pattern[str], s: Any) -> re.Match[str]:
    if type(s) is not str:
        raise runtime_error(f"{who}: expected a string, got {describe(s)}")
    m = rx.fullmatch(s) if len(s) <= 64 else None
    if m is None:
        raise runtime_error(f"{who}: Text {s[:64]!r} could not be parsed",
                            hint=f"{who} reads ISO text such as 2026-03-14T10:15:30Z; take the parts apart with "
                                 "re-find for other formats, or read the local date and time with "
                                 "(LocalDateTime/parse s DateTimeFormatter/ISO_DATE_TIME)")
    return m


def _datetime(who: str, m: re.Match[str]) -> dt.datetime:
    y, mo, d, h, mi, sec, frac = m.groups()[:7]
    micros = int((frac or "0").ljust(6, "0")[:6])
    return _checked(who, dt.datetime, int(y), int(mo), int(d), int(h), int(mi), int(sec or 0), micros)


@builtin("parse", ns="LocalDate", args=("[s]", "[s formatter]"), category=_CAT, column_op="parse-date",
         doc="The date of ISO text yyyy-MM-dd, or of text in a DateTimeFormatter's pattern.",
         ex=(('(str (LocalDate/parse "2026-03-14"))', '"2026-03-14"'),
             ('(str (LocalDate/parse "14 Mar 2026" (DateTimeFormatter/ofPattern "d MMM yyyy")))', '"2026-03-14"')))
def local_date_parse(s: Any, fmt: Any = _NO_FORMATTER) -> dt.date:
    return _parse_local("LocalDate", s, fmt)  # type: ignore[no-any-return]


@builtin("of", ns="LocalDate", args="[year month day]", category=_CAT, doc="The date of year, month (1-12), day.",
         ex=(('(str (LocalDate/of 2026 3 14))', '"2026-03-14"'),))
def local_date_of(year: Any, month: Any, day: Any) -> dt.date:
    who = "LocalDate/of"
    mo = month.value if type(month) is ENUM and month.kind == "Month" else month
    return _checked(who, dt.date, _int(who, year), _int(who, mo), _int(who, day))


@builtin("ofEpochDay", ns="LocalDate", args="[n]", category=_CAT, doc="The date n days after 1970-01-01.",
         ex=(('(str (LocalDate/ofEpochDay 365))', '"1971-01-01"'),))
def local_date_of_epoch_day(n: Any) -> dt.date:
    return _checked("LocalDate/ofEpochDay", lambda k: dt.date(1970, 1, 1) + dt.timedelta(days=k),
                    _int("LocalDate/ofEpochDay", n))


@builtin("now", ns="LocalDate", args="[]", category=_CAT,
         doc="Today's date (UTC) by the run clock: read once per run, the same for the whole run.",
         ex=(("(= (LocalDate/now) (LocalDate/now))", "true"),))
def local_date_now() -> dt.date:
    return run_clock().date()


@builtin("parse", ns="LocalDateTime", args=("[s]", "[s formatter]"), category=_CAT,
         doc="The date and time of ISO text yyyy-MM-ddTHH:mm[:ss[.fraction]], or of text in a DateTimeFormatter's "
             "pattern.",
         ex=(('(str (LocalDateTime/parse "2026-03-14T10:15:30"))', '"2026-03-14T10:15:30"'),
             ('(str (LocalDateTime/parse "03/14/2026 9:05 PM" (DateTimeFormatter/ofPattern "MM/dd/yyyy h:mm a")))',
              '"2026-03-14T21:05"')))
def local_date_time_parse(s: Any, fmt: Any = _NO_FORMATTER) -> dt.datetime:
    return _parse_local("LocalDateTime", s, fmt)  # type: ignore[no-any-return]


@builtin("of", ns="LocalDateTime", args=("[date time]", "[year month day hour minute]",
                                         "[year month day hour minute second]"),
         category=_CAT, doc="The date and time of its fields (or of a LocalDate and a LocalTime).",
         ex=(('(str (LocalDateTime/of 2026 3 14 9 30))', '"2026-03-14T09:30"'),
             ('(str (LocalDateTime/of (LocalDate/of 2026 3 14) (LocalTime/of 9 30)))', '"2026-03-14T09:30"')))
def local_date_time_of(year: Any, month: Any, day: Any = None, hour: Any = None, minute: Any = None,
                       second: Any = 0) -> dt.datetime:
    who = "LocalDateTime/of"
    if day is None and hour is None:
        if type(year) is not D or type(month) is not TM:
            raise runtime_error(f"{who}: expected a LocalDate and a LocalTime, got {describe(year)} and "
                                f"{describe(month)}")
        return dt.datetime.combine(year, month)
    if minute is None:
        raise runtime_error(f"Wrong number of args ({3 if hour is None else 4}) passed to: {who}",
                            hint=f"{who} accepts 2, 5 or 6 argument(s)")
    mo = month.value if type(month) is ENUM and month.kind == "Month" else month
    return _checked(who, dt.datetime, *(_int(who, x) for x in (year, mo, day, hour, minute, second)))


@builtin("now", ns="LocalDateTime", args="[]", category=_CAT, doc="The date and time (UTC) by the run clock.",
         ex=(("(= (LocalDateTime/now) (LocalDateTime/now))", "true"),))
def local_date_time_now() -> dt.datetime:
    return run_clock().replace(tzinfo=None)


# -- LocalTime --------------------------------------------------------------------------------


@builtin("parse", ns="LocalTime", args=("[s]", "[s formatter]"), category=_CAT,
         doc="The time of ISO text HH:mm[:ss[.fraction]], or of text in a DateTimeFormatter's pattern.",
         ex=(('(str (LocalTime/parse "09:30"))', '"09:30"'),
             ('(str (LocalTime/parse "9:30 PM" (DateTimeFormatter/ofPattern "h:mm a")))', '"21:30"')))
def local_time_parse(s: Any, fmt: Any = _NO_FORMATTER) -> dt.time:
    return _parse_local("LocalTime", s, fmt)  # type: ignore[no-any-return]


@builtin("of", ns="LocalTime", args=("[hour minute]", "[hour minute second]", "[hour minute second nanos]"),
         category=_CAT, doc="The time of its fields (nanoseconds are kept to the microsecond).",
         ex=(('(str (LocalTime/of 9 30))', '"09:30"'), ('(str (LocalTime/of 23 59 30))', '"23:59:30"')))
def local_time_of(hour: Any, minute: Any, second: Any = 0, nanos: Any = 0) -> dt.time:
    who = "LocalTime/of"
    fields = zip(("HourOfDay", "MinuteOfHour", "SecondOfMinute", "NanoOfSecond"), (hour, minute, second, nanos))
    try:
        h, m, s, n = (java_format.check(field, _int(who, x)) for field, x in fields)
    except java_format._Failure as e:
        raise runtime_error(f"{who}: {e.message}") from None
    return dt.time(h, m, s, n // 1000)


@builtin("now", ns="LocalTime", args="[]", category=_CAT, doc="The time of day (UTC) by the run clock.",
         ex=(("(= (LocalTime/now) (LocalTime/now))", "true"),))
def local_time_now() -> dt.time:
    return run_clock().time()


def _time_micros(t: dt.time) -> int:
    return ((t.hour * 60 + t.minute) * 60 + t.second) * 1_000_000 + t.microsecond


def _time_of_micros(micros: int) -> dt.time:
    """The time of day micros after midnight, wrapping around as LocalTime's plus does."""
    s, us = divmod(micros % _DAY, 1_000_000)
    return dt.time(s // 3600, s // 60 % 60, s % 60, us)


# -- Instant ------------------------------------------------------------------------------------


@builtin("parse", ns="Instant", args="[s]", category=_CAT, doc="The instant of ISO text such as 2026-03-14T10:15:30Z.",
         ex=(('(str (Instant/parse "2026-03-14T10:15:30.5Z"))', '"2026-03-14T10:15:30.500Z"'),))
def instant_parse(s: Any) -> dt.datetime:
    m = _parse("Instant/parse", _INSTANT, s)
    local = _datetime("Instant/parse", m)
    zone = m.group(8)
    offset = dt.timedelta(0) if zone == "Z" else \
        (1 if zone[0] == "+" else -1) * dt.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    return _checked("Instant/parse", lambda: (local - offset).replace(tzinfo=dates.UTC))


@builtin("ofEpochMilli", ns="Instant", args="[ms]", category=_CAT, doc="The instant ms milliseconds after the epoch.",
         ex=(('(str (Instant/ofEpochMilli 0))', '"1970-01-01T00:00:00Z"'),))
def instant_of_epoch_milli(ms: Any) -> dt.datetime:
    return _checked("Instant/ofEpochMilli", lambda n: _EPOCH + dt.timedelta(milliseconds=n),
                    _int("Instant/ofEpochMilli", ms))


@builtin("ofEpochSecond", ns="Instant", args="[s]", category=_CAT, doc="The instant s seconds after the epoch.",
         ex=(('(str (Instant/ofEpochSecond 86400))', '"1970-01-02T00:00:00Z"'),))
def instant_of_epoch_second(s: Any) -> dt.datetime:
    return _checked("Instant/ofEpochSecond", lambda n: _EPOCH + dt.timedelta(seconds=n),
                    _int("Instant/ofEpochSecond", s))


@builtin("now", ns="Instant", args="[]", category=_CAT, doc="The current instant by the run clock.",
         ex=(("(= (Instant/now) (Instant/now))", "true"),))
def instant_now() -> dt.datetime:
    return run_clock()


def _micros(d: dt.timedelta) -> int:
    return (d.days * 86_400 + d.seconds) * 1_000_000 + d.microseconds


@builtin("between", ns="Duration", args="[start end]", category=_CAT,
         doc="The duration from start to end (two LocalDateTimes, two Instants or two LocalTimes).",
         ex=(('(str (Duration/between (Instant/parse "2026-03-14T10:00:00Z") (Instant/parse "2026-03-14T11:30:00Z")))',
              '"PT1H30M"'), ('(str (Duration/between (LocalTime/of 9 0) (LocalTime/of 17 30)))', '"PT8H30M"')))
def duration_between(start: Any, end: Any) -> dt.timedelta:
    if type(start) is TM and type(end) is TM:
        return dt.timedelta(microseconds=_time_micros(end) - _time_micros(start))
    if type(start) is not DT or not dates.comparable(start, end):
        raise runtime_error(f"Duration/between: expected two LocalDateTimes, two Instants or two LocalTimes, got "
                            f"{describe(start)} and {describe(end)}")
    return end - start  # type: ignore[no-any-return]


def _duration_of(unit: str, scale: int) -> None:
    @builtin("of" + unit, ns="Duration", args="[n]", category=_CAT, doc=f"A duration of n {unit.lower()}.",
             ex=((f"(str (Duration/of{unit} 2))", '"' + dates.iso_text(dt.timedelta(microseconds=2 * scale)) + '"'),))
    def of(n: Any) -> dt.timedelta:
        return _checked(f"Duration/of{unit}", lambda k: dt.timedelta(microseconds=k * scale),
                        _int(f"Duration/of{unit}", n))


for _unit, _scale in (("Days", 86_400_000_000), ("Hours", 3_600_000_000), ("Minutes", 60_000_000),
                      ("Seconds", 1_000_000), ("Millis", 1_000)):
    _duration_of(_unit, _scale)


# -- arithmetic ----------------------------------------------------------------------------


def _plus_months(who: str, d: Any, n: int) -> Any:
    """Java's plusMonths: the day of month is clamped to the new month's last day."""
    total = d.year * 12 + (d.month - 1) + n
    year, month = divmod(total, 12)
    day = min(d.day, calendar.monthrange(year, month + 1)[1]) if 1 <= year <= 9999 else d.day
    return _checked(who, d.replace, year, month + 1, day)


def _plus(who: str, d: Any, amount: int, unit: str) -> Any:
    if type(d) is TM:  # wraps around midnight, as LocalTime's plus does
        if unit not in _MICROS or unit in ("DAYS", "WEEKS"):
            raise runtime_error(f"{who}: a LocalTime cannot add {unit.lower()}", hint="use a LocalDateTime for dates")
        return _time_of_micros(_time_micros(d) + (amount // 1000 if unit == "NANOS" else amount * int(_MICROS[unit])))
    if unit in _MONTHS_IN:
        if type(d) is DUR:
            raise runtime_error(f"{who}: a Duration cannot add {unit.lower()} (they vary in length)")
        return _plus_months(who, d, amount * _MONTHS_IN[unit])
    if type(d) is D and unit not in ("DAYS", "WEEKS"):
        raise runtime_error(f"{who}: a LocalDate cannot add {unit.lower()}", hint="use a LocalDateTime for times")
    return _checked(who, lambda: d + dt.timedelta(microseconds=amount * _MICROS[unit]))


def _plus_method(name: str, unit: str, sign: int, on: tuple[type, ...]) -> None:
    @method(name, on, "[t n]", f"t with n {unit.lower()} {'added' if sign > 0 else 'subtracted'}"
            + (" (the day clamped to the month's end)." if unit in _MONTHS_IN else "."), category=_CAT,
            ex=((f'(str (.{name} (LocalDate/parse "2026-01-31") 1))',
                 '"' + dates.iso_text(_plus(name, dt.date(2026, 1, 31), sign, unit)) + '"'),)
            if on[0] is D else ((f"(str (.{name} (Duration/ofHours 1) 30))",
                                 '"' + dates.iso_text(_plus(name, dt.timedelta(hours=1), 30 * sign, unit)) + '"'),))
    def f(t: Any, n: Any) -> Any:
        return _plus(f".{name}", t, sign * _int(f".{name}", n), unit)


for _unit in ("DAYS", "WEEKS", "MONTHS", "YEARS"):
    for _sign in (1, -1):
        _plus_method(("plus" if _sign > 0 else "minus") + _unit.capitalize(), _unit, _sign, TEMPORAL)
for _unit in ("HOURS", "MINUTES", "SECONDS", "MILLIS"):
    for _sign in (1, -1):
        _plus_method(("plus" if _sign > 0 else "minus") + _unit.capitalize(), _unit, _sign,
                     (DT, DUR) if _unit == "MILLIS" else (DT, TM, DUR))
for _sign in (1, -1):
    method(("plus" if _sign > 0 else "minus") + "Days", (DUR,), "", "")(
        lambda t, n, s=_sign: _plus(".plusDays", t, s * _int(".plusDays", n), "DAYS"))


def _unit_of(who: str, u: Any) -> str:
    if type(u) is ENUM and u.kind == "ChronoUnit":
        return u.name  # type: ignore[no-any-return]
    raise runtime_error(f"{who}: expected a ChronoUnit such as ChronoUnit/DAYS, got {describe(u)}")


def _plus_any(who: str, sign: int, t: Any, amount: Any, unit: Any) -> Any:
    if unit is None:
        if type(amount) is not DUR:
            raise runtime_error(f"{who}: expected a Duration (or an amount and a ChronoUnit), got {describe(amount)}")
        if type(t) is D:
            raise runtime_error(f"{who}: a LocalDate cannot add a Duration", hint="use .plusDays")
        if type(t) is TM:
            return _time_of_micros(_time_micros(t) + sign * _micros(amount))
        return _checked(who, lambda: t + amount if sign > 0 else t - amount)
    return _plus(who, t, sign * _int(who, amount), _unit_of(who, unit))


@method("plus", ALL, ("[t duration]", "[t amount unit]"), "t plus a Duration, or plus amount of a ChronoUnit.",
        category=_CAT, ex=(('(str (.plus (LocalDate/parse "2026-03-14") 2 ChronoUnit/WEEKS))', '"2026-03-28"'),))
def plus(t: Any, amount: Any, unit: Any = None) -> Any:
    return _plus_any(".plus", 1, t, amount, unit)


@method("minus", ALL, ("[t duration]", "[t amount unit]"), "t minus a Duration, or minus amount of a ChronoUnit.",
        category=_CAT, ex=(('(str (.minus (LocalDate/parse "2026-03-14") 1 ChronoUnit/MONTHS))', '"2026-02-14"'),))
def minus(t: Any, amount: Any, unit: Any = None) -> Any:
    return _plus_any(".minus", -1, t, amount, unit)


# -- comparison ----------------------------------------------------------------------------


def _same(who: str, a: Any, b: Any) -> None:
    if not dates.comparable(a, b):
        raise runtime_error(f"{who}: cannot compare {describe(a)} with {describe(b)}")


@method("isBefore", (*TEMPORAL, TM), "[a b]", "True if a is strictly before b.", category=_CAT, column_op="isBefore",
        ex=(('(.isBefore (LocalDate/parse "2026-01-01") (LocalDate/parse "2026-03-14"))', "true"),))
def is_before(a: Any, b: Any) -> bool:
    _same(".isBefore", a, b)
    return a < b  # type: ignore[no-any-return]


@method("isAfter", (*TEMPORAL, TM), "[a b]", "True if a is strictly after b.", category=_CAT, column_op="isAfter",
        ex=(('(.isAfter (LocalDate/parse "2026-01-01") (LocalDate/parse "2026-03-14"))', "false"),))
def is_after(a: Any, b: Any) -> bool:
    _same(".isAfter", a, b)
    return a > b  # type: ignore[no-any-return]


@method("isEqual", TEMPORAL, "[a b]", "True if a and b are the same date (time).", category=_CAT,
        column_op="isEqual",
        ex=(('(.isEqual (LocalDate/of 2026 3 14) (LocalDate/parse "2026-03-14"))', "true"),))
def is_equal(a: Any, b: Any) -> bool:
    _same(".isEqual", a, b)
    return a == b  # type: ignore[no-any-return]


# -- fields ----------------------------------------------------------------------------------


def _field(name: str, on: tuple[type, ...], doc: str, get: Any, example: str, column_op: str | None = None) -> None:
    method(name, on, "[t]", doc, category=_CAT, ex=((f'(.{name} (LocalDate/parse "2026-03-14"))', example),)
           if D in on else ((f'(.{name} (LocalDateTime/parse "2026-03-14T10:15:30"))', example),),
           column_op=column_op)(lambda t: get(t))


_field("getYear", TEMPORAL, "The year.", lambda t: t.year, "2026", "year")
_field("getMonthValue", TEMPORAL, "The month, 1 to 12.", lambda t: t.month, "3", "month")
_field("getDayOfMonth", TEMPORAL, "The day of the month, 1 to 31.", lambda t: t.day, "14", "day")
_field("getDayOfYear", TEMPORAL, "The day of the year, 1 to 366.", lambda t: t.timetuple().tm_yday, "73", "day_of_year")
_field("lengthOfMonth", TEMPORAL, "The number of days in t's month.",
       lambda t: calendar.monthrange(t.year, t.month)[1], "31")
_field("lengthOfYear", TEMPORAL, "The number of days in t's year.", lambda t: 366 if calendar.isleap(t.year) else 365,
       "365")
_field("isLeapYear", TEMPORAL, "True if t's year is a leap year.", lambda t: calendar.isleap(t.year), "false")
_field("getMonth", TEMPORAL, "The month as a Month constant (str gives MARCH; .getValue its number).",
       lambda t: list(dates.MONTHS.values())[t.month - 1], "\"MARCH\"")
_field("getDayOfWeek", TEMPORAL, "The day of the week as a DayOfWeek constant (str gives SATURDAY; .getValue 1-7).",
       lambda t: list(dates.DAYS_OF_WEEK.values())[t.weekday()], "\"SATURDAY\"", "dow")
_field("toEpochDay", (D,), "Days since 1970-01-01.", lambda t: (t - dt.date(1970, 1, 1)).days, "20526")
_field("getHour", (DT, TM), "The hour, 0 to 23.", lambda t: t.hour, "10")
_field("getMinute", (DT, TM), "The minute, 0 to 59.", lambda t: t.minute, "15")
_field("getSecond", (DT, TM), "The second, 0 to 59.", lambda t: t.second, "30")
_field("toLocalDate", (DT,), "The date part.", lambda t: t.date(), "\"2026-03-14\"")
_field("toLocalTime", (DT,), "The time part, a LocalTime.", lambda t: t.time(), "\"10:15:30\"")
method("toSecondOfDay", (TM,), "[t]", "The seconds since midnight.", category=_CAT,
       ex=(('(.toSecondOfDay (LocalTime/of 1 30))', "5400"),))(lambda t: _time_micros(t) // 1_000_000)


@method("atDate", (TM,), "[t date]", "The LocalDateTime of date at time t.", category=_CAT,
        ex=(('(str (.atDate (LocalTime/of 9 30) (LocalDate/of 2026 3 14)))', '"2026-03-14T09:30"'),))
def at_date(t: dt.time, date: Any) -> dt.datetime:
    return local_date_time_of(date, t)


@method("atStartOfDay", (D,), "[d]", "The LocalDateTime at midnight of d.", category=_CAT,
        ex=(('(str (.atStartOfDay (LocalDate/parse "2026-03-14")))', '"2026-03-14T00:00"'),))
def at_start_of_day(d: dt.date) -> dt.datetime:
    return dt.datetime(d.year, d.month, d.day)


@method("atTime", (D,), ("[d time]", "[d hour minute]", "[d hour minute second]"),
        "The LocalDateTime at that time (a LocalTime, or its fields) of d.",
        category=_CAT, ex=(('(str (.atTime (LocalDate/parse "2026-03-14") 9 30))', '"2026-03-14T09:30"'),
                           ('(str (.atTime (LocalDate/of 2026 3 14) (LocalTime/of 9 30)))', '"2026-03-14T09:30"')))
def at_time(d: dt.date, hour: Any, minute: Any = None, second: Any = 0) -> dt.datetime:
    if minute is None:
        return local_date_time_of(d, hour)
    return local_date_time_of(d.year, d.month, d.day, hour, minute, second)


def _with(name: str, fld: str) -> None:
    @method(name, TEMPORAL, f"[t {fld}]", f"t with its {fld} replaced.", category=_CAT,
            ex=((f'(str (.{name} (LocalDate/parse "2026-03-14") 1))',
                 '"' + dates.iso_text(dt.date(2026, 3, 14).replace(**{fld: 1})) + '"'),))
    def f(t: Any, n: Any) -> Any:
        return _checked(f".{name}", lambda: t.replace(**{fld: _int(f".{name}", n)}))


_with("withDayOfMonth", "day")
_with("withMonth", "month")
_with("withYear", "year")


# -- Instant and Duration ---------------------------------------------------------------------


def _epoch_micros(who: str, t: Any) -> int:
    if type(t) is not DT or t.tzinfo is None:
        raise runtime_error(f"{who}: expected an Instant, got {describe(t)}")
    return _micros(t - _EPOCH)


method("toEpochMilli", (DT,), "[instant]", "Milliseconds since the epoch.", category=_CAT,
       ex=(('(.toEpochMilli (Instant/parse "1970-01-01T00:00:01Z"))', "1000"),))(
    lambda t: _epoch_micros(".toEpochMilli", t) // 1000)
method("getEpochSecond", (DT,), "[instant]", "Seconds since the epoch.", category=_CAT,
       ex=(('(.getEpochSecond (Instant/parse "1970-01-01T00:01:00Z"))', "60"),))(
    lambda t: _epoch_micros(".getEpochSecond", t) // 1_000_000)


def _dur_get(name: str, scale: int, example: str) -> None:
    method(name, (DUR,), "[d]", f"The whole {name[2:].lower() or 'seconds'} of duration d (truncated).",
           category=_CAT, ex=((f"(.{name} (Duration/ofMinutes 150))", example),))(
        lambda d: int(_micros(d) / scale))


_dur_get("toDays", 86_400_000_000, "0")
_dur_get("toHours", 3_600_000_000, "2")
_dur_get("toMinutes", 60_000_000, "150")
_dur_get("toSeconds", 1_000_000, "9000")
_dur_get("getSeconds", 1_000_000, "9000")
_dur_get("toMillis", 1_000, "9000000")
method("isNegative", (DUR,), "[d]", "True if d is negative.", category=_CAT,
       ex=(("(.isNegative (Duration/ofDays -1))", "true"),))(lambda d: _micros(d) < 0)
method("isZero", (DUR,), "[d]", "True if d is zero.", category=_CAT,
       ex=(("(.isZero Duration/ZERO)", "true"),))(lambda d: _micros(d) == 0)
method("negated", (DUR,), "[d]", "-d.", category=_CAT, ex=(("(str (.negated (Duration/ofHours 2)))", '"PT-2H"'),))(
    lambda d: -d)
method("multipliedBy", (DUR,), "[d n]", "d times n.", category=_CAT,
       ex=(("(str (.multipliedBy (Duration/ofMinutes 20) 3))", '"PT1H"'),))(
    lambda d, n: _checked(".multipliedBy", lambda: d * _int(".multipliedBy", n)))


# -- ChronoUnit, DayOfWeek, Month ---------------------------------------------------------------


def _months_between(a: Any, b: Any) -> int:
    """Java's until(.., MONTHS): whole months, the partial one not counted (toward zero)."""
    months = (b.year * 12 + b.month) - (a.year * 12 + a.month)
    rest_a = (a.day, a.hour, a.minute, a.second, a.microsecond) if type(a) is DT else (a.day,)
    rest_b = (b.day, b.hour, b.minute, b.second, b.microsecond) if type(b) is DT else (b.day,)
    if months > 0 and rest_b < rest_a:
        months -= 1
    elif months < 0 and rest_b > rest_a:
        months += 1
    return months


def between(who: str, unit: str, a: Any, b: Any) -> int:
    if type(a) not in (*TEMPORAL, TM) or not dates.comparable(a, b):
        raise runtime_error(f"{who}: expected two dates of the same kind, got {describe(a)} and {describe(b)}")
    if type(a) is TM:
        if unit not in _MICROS or unit in ("DAYS", "WEEKS"):
            raise runtime_error(f"{who}: LocalTimes are apart by hours, minutes, seconds or less, not {unit.lower()}")
        a, b = dt.datetime.combine(dt.date.min, a), dt.datetime.combine(dt.date.min, b)
    if unit in _MONTHS_IN:
        return int(_months_between(a, b) / _MONTHS_IN[unit])
    if type(a) is D:
        if unit not in ("DAYS", "WEEKS"):
            raise runtime_error(f"{who}: LocalDates are apart by days, weeks, months or years, not {unit.lower()}")
        return int((b - a).days / (1 if unit == "DAYS" else 7))
    micros = _micros(b - a)
    if unit == "NANOS":
        return micros * 1000
    whole = abs(micros) // int(_MICROS[unit])  # Java truncates toward zero
    return whole if micros >= 0 else -whole


@method("between", (ENUM,), "[unit a b]", "The whole units (ChronoUnit/DAYS, MONTHS...) from a to b.",
        category=_CAT, ex=(('(.between ChronoUnit/DAYS (LocalDate/parse "2026-01-01") (LocalDate/parse "2026-03-14"))',
                            "72"),))
def unit_between(unit: Any, a: Any, b: Any) -> int:
    return between(".between", _unit_of(".between", unit), a, b)


@method("until", (*TEMPORAL, TM), "[a b unit]", "The whole units from a to b (the same as (.between unit a b)).",
        category=_CAT, ex=(('(.until (LocalDate/parse "2026-01-31") (LocalDate/parse "2026-03-14") ChronoUnit/MONTHS)',
                            "1"),))
def until(a: Any, b: Any, unit: Any) -> int:
    return between(".until", _unit_of(".until", unit), a, b)


method("getValue", (ENUM,), "[day-or-month]", "The number of a DayOfWeek (1 = MONDAY) or Month (1 = JANUARY).",
       category=_CAT, column_op="getValue", ex=(('(.getValue (.getDayOfWeek (LocalDate/parse "2026-03-14")))', "6"),))(
    lambda e: e.value if e.kind in ("DayOfWeek", "Month") else _no_value(e))
method("name", (ENUM,), "[constant]", "The name of a java.time constant.", category=_CAT,
       ex=(("(.name ChronoUnit/DAYS)", '"DAYS"'),))(lambda e: e.name)


def _no_value(e: Any) -> int:
    raise runtime_error(f"(.getValue x): no method .getValue for {describe(e)}")


__all__ = ["CONSTANTS", "between"]
