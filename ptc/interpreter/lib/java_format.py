"""java.time's DateTimeFormatter as Java runs it: ofPattern, the ISO constants, parse and format.

A pattern is compiled as `DateTimeFormatterBuilder.appendPattern` compiles it, into the same
printer-parsers: numbers with Java's widths and sign styles (and its adjacent value parsing,
so "yyyyMMdd" reads 20260314), text fields, literals, fractions and [optional] sections. A
text therefore parses, or fails at the same index, and a value formats, as in Java. The
fields parsed are resolved as `java.time.format.Parsed` resolves them: SMART for ofPattern
(a day past the month's end is its last day, 24:00 the next midnight), STRICT for the ISO
constants; a day of the week, an AM/PM marker or a second date field is cross-checked
against the date or time resolved. Text is English: Locale/ENGLISH's (and Locale/US's),
Locale/UK's (Sept, am, pm) or Locale/ROOT's (Jan for January, 1 for J), as Java's CLDR data
writes them. There are no time zones: zone and offset letters in a pattern are refused; the offsets
ISO_DATE, ISO_DATE_TIME and BASIC_ISO_DATE read are checked and dropped, as a LocalDate or
LocalDateTime query drops them in Java. Error messages are Java's ("Text '...' could not be
parsed at index 3"), with a hint naming what the pattern expected there.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
from typing import Any, Callable

from .. import dates
from ..errors import runtime_error
from ..registry import builtin
from .core_numbers import describe
from .methods import method

Formatter = dates.DateTimeFormatter
LOCAL = (dt.date, dt.datetime, dt.time)
MAX_PATTERN = 256  # characters: a date pattern is a few dozen
MAX_NESTING = 16  # [optional [sections]] inside each other
_CAT = "dates"
NORMAL, NOT_NEGATIVE, EXCEEDS_PAD = "NORMAL", "NOT_NEGATIVE", "EXCEEDS_PAD"
_LONG = (-(1 << 63), (1 << 63) - 1)


class _Failure(Exception):
    """What Java throws, in its words (a pattern refused, a text not resolved, a field a value lacks)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


class _At(_Failure):
    """A text that does not match its pattern: the message is " at index N" or ", unparsed text found..."."""


# -- fields -------------------------------------------------------------------------------------

# ChronoField names (Java's messages say them) and the values checkValidValue accepts (the
# largest range), with the range as Java's ValueRange prints it.
_RANGES: dict[str, tuple[int, int, str]] = {
    "YearOfEra": (1, 1_000_000_000, "1 - 999999999/1000000000"),
    "Year": (-999_999_999, 999_999_999, "-999999999 - 999999999"),
    "MonthOfYear": (1, 12, "1 - 12"),
    "DayOfMonth": (1, 31, "1 - 28/31"),
    "DayOfYear": (1, 366, "1 - 365/366"),
    "DayOfWeek": (1, 7, "1 - 7"),
    "AmPmOfDay": (0, 1, "0 - 1"),
    "HourOfDay": (0, 23, "0 - 23"),
    "ClockHourOfDay": (1, 24, "1 - 24"),
    "HourOfAmPm": (0, 11, "0 - 11"),
    "ClockHourOfAmPm": (1, 12, "1 - 12"),
    "MinuteOfHour": (0, 59, "0 - 59"),
    "SecondOfMinute": (0, 59, "0 - 59"),
    "NanoOfSecond": (0, 999_999_999, "0 - 999999999"),
}
_WHAT = {"YearOfEra": "the year", "Year": "the year", "MonthOfYear": "the month", "DayOfMonth": "the day of the month",
         "DayOfYear": "the day of the year", "DayOfWeek": "the day of the week", "AmPmOfDay": "AM or PM",
         "HourOfDay": "the hour, 0-23", "ClockHourOfDay": "the hour, 1-24", "HourOfAmPm": "the hour of AM/PM, 0-11",
         "ClockHourOfAmPm": "the hour of AM/PM, 1-12", "MinuteOfHour": "the minutes", "SecondOfMinute": "the seconds",
         "NanoOfSecond": "the fraction of a second"}
_DATE_FIELDS: dict[str, Callable[[Any], int]] = {
    "YearOfEra": lambda d: d.year, "Year": lambda d: d.year, "MonthOfYear": lambda d: d.month,
    "DayOfMonth": lambda d: d.day, "DayOfYear": lambda d: d.toordinal() - dt.date(d.year, 1, 1).toordinal() + 1,
    "DayOfWeek": lambda d: d.isoweekday()}
_TIME_FIELDS: dict[str, Callable[[Any], int]] = {
    "AmPmOfDay": lambda t: t.hour // 12, "HourOfDay": lambda t: t.hour, "ClockHourOfDay": lambda t: t.hour or 24,
    "HourOfAmPm": lambda t: t.hour % 12, "ClockHourOfAmPm": lambda t: t.hour % 12 or 12,
    "MinuteOfHour": lambda t: t.minute, "SecondOfMinute": lambda t: t.second,
    "NanoOfSecond": lambda t: t.microsecond * 1000}


def check(field: str, value: int) -> int:
    """ChronoField.checkValidValue: the value, or Java's error for one out of the field's range."""
    lo, hi, text = _RANGES[field]
    if not lo <= value <= hi:
        raise _Failure(f"Invalid value for {field} (valid values {text}): {value}")
    return value


def _value(t: Any, field: str) -> int | None:
    """The field of a LocalDate, LocalDateTime or LocalTime; None if it has none (a LocalDate's hour)."""
    get = _DATE_FIELDS.get(field)
    if get is not None:
        return None if type(t) is dt.time else get(t)
    get = _TIME_FIELDS.get(field)
    if get is not None:
        return None if type(t) is dt.date else get(t)
    return None  # OffsetSeconds: a local value has none


# -- text --------------------------------------------------------------------------------------

_MONTHS = "January February March April May June July August September October November December".split()
_DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


def _names(field: str, style: str, locale: str) -> dict[int, str]:
    """The text of each value of a field in a style (FULL, SHORT, NARROW), as Java's CLDR data
    has it: English; Locale/UK abbreviates September Sept and writes am/pm; Locale/ROOT has no
    full names (January is Jan) and numbers for the narrow months."""
    if field == "AmPmOfDay":
        return {0: "am", 1: "pm"} if locale == "UK" else {0: "AM", 1: "PM"}
    months = field == "MonthOfYear"
    if locale == "ROOT" and months and style == "NARROW":
        return {i: str(i) for i in range(1, 13)}
    cut = {"FULL": 3 if locale == "ROOT" else None, "SHORT": 3, "NARROW": 1}[style]
    names = {i: name[:cut] for i, name in enumerate(_MONTHS if months else _DAYS, start=1)}
    if locale == "UK" and months and style == "SHORT":
        names[9] = "Sept"
    return names


# -- the printer-parsers ------------------------------------------------------------------------


class _Parse:
    """One parse's state (Java's DateTimeParseContext): the fields read so far, the case rule."""

    __slots__ = ("fields", "sensitive")

    def __init__(self, sensitive: bool) -> None:
        self.fields: dict[str, int] = {}
        self.sensitive = sensitive

    def set(self, field: str, value: int, error_pos: int, end: int) -> int:
        """setParsedField: a field read twice must read the same value."""
        old = self.fields.get(field)
        self.fields[field] = value
        return ~error_pos if old is not None and old != value else end

    def same(self, text: str, pos: int, expected: str) -> bool:
        """The text at pos is `expected` (each character in either case when insensitive, as Java's)."""
        got = text[pos:pos + len(expected)]
        if got == expected:
            return True
        return not self.sensitive and len(got) == len(expected) and all(
            a == b or a.upper() == b.upper() or a.lower() == b.lower() for a, b in zip(got, expected))


def _unsupported(field: str) -> _Failure:
    return _Failure(f"Unsupported field: {field}")


class _Number:
    """NumberPrinterParser: a field's digits with Java's widths and sign style. `sub` is the width
    of the fixed-width values that follow it with no separator (adjacent value parsing: "yyyyMMdd"),
    -1 once a later value is not fixed; `reduced` is a two-digit year (yy: 2000 to 2099)."""

    __slots__ = ("field", "min", "max", "sign", "sub", "reduced", "letters")

    def __init__(self, field: str, lo: int, hi: int, sign: str, letters: str, reduced: bool = False) -> None:
        self.field, self.min, self.max, self.sign, self.letters, self.reduced = field, lo, hi, sign, letters, reduced
        self.sub = 0

    def format(self, t: Any, out: list[str], optional: bool) -> bool:
        v = _value(t, self.field)
        if v is None:
            if optional:
                return False
            raise _unsupported(self.field)
        digits = str(v % 100 if self.reduced else v)  # never negative: PTC-Lisp's years are 1 to 9999
        if self.sign == EXCEEDS_PAD and len(digits) > self.min:
            out.append("+")
        out.append(digits.rjust(self.min, "0"))
        return True

    def parse(self, ctx: _Parse, text: str, pos: int) -> int:
        n = len(text)
        if pos == n:
            return ~pos
        c = text[pos]
        positive = c == "+"
        negative = c == "-"
        if positive or negative:  # strict: NORMAL takes a minus only, NOT_NEGATIVE neither, EXCEEDS_PAD both
            if self.sign == NOT_NEGATIVE or (self.sign == NORMAL and positive):
                return ~pos
            pos += 1
        start, min_end = pos, pos + self.min
        if min_end > n:
            return ~start
        width = self.max + max(self.sub, 0)
        for first in (True, False):
            end, pos = min(start + width, n), start
            while pos < end and "0" <= text[pos] <= "9":  # Java's digits are ASCII's
                pos += 1
            if pos < min_end:
                return ~start
            if not (first and self.sub > 0):
                break
            width = max(self.min, pos - start - self.sub)  # leave the following values their digits
        total = int(text[start:pos])
        if negative:
            if total == 0:
                return ~(start - 1)  # no minus zero
            total = -total
        elif self.sign == EXCEEDS_PAD and (pos - start <= self.min if positive else pos - start > self.min):
            return ~(start - 1) if positive else ~start  # a + exactly when the digits exceed the width
        if not _LONG[0] <= total <= _LONG[1]:  # past a Java long: one digit less, as Java parses
            total = -(-total // 10) if total < 0 else total // 10
            pos -= 1
        if self.reduced and pos - start == self.min:
            total += 2000
        return ctx.set(self.field, total, start, pos)

    def expects(self) -> str:
        width = f"{self.min} digit{'s' if self.min > 1 else ''}" if self.min == self.max else \
            f"{self.min} or more digits" + (", more only after a +" if self.sign == EXCEEDS_PAD else "")
        return f"{self.letters} ({_WHAT[self.field]}, {width})"


class _Fraction:
    """FractionPrinterParser: the nano-of-second as the digits of a fraction (S..., or ISO's
    optional .digits, `point`); `sub` and `sign` let it follow a value as Java's adjacent parsing."""

    __slots__ = ("min", "max", "point", "sub", "letters")
    field, sign, reduced = "NanoOfSecond", NOT_NEGATIVE, False

    def __init__(self, lo: int, hi: int, point: bool, letters: str) -> None:
        self.min, self.max, self.point, self.letters, self.sub = lo, hi, point, letters, 0

    def format(self, t: Any, out: list[str], optional: bool) -> bool:
        v = _value(t, "NanoOfSecond")
        if v is None:
            if optional:
                return False
            raise _unsupported("NanoOfSecond")
        digits = f"{v:09d}".rstrip("0")
        if not digits and not self.min:
            return True
        scale = min(max(len(digits), self.min), self.max)
        out.append(("." if self.point else "") + digits[:scale].ljust(scale, "0"))
        return True

    def parse(self, ctx: _Parse, text: str, pos: int) -> int:
        n = len(text)
        if pos == n or (self.point and text[pos] != "."):
            return ~pos if self.min else pos
        if self.point:
            pos += 1
        start, min_end = pos, pos + self.min
        if min_end > n:
            return ~start
        end = min(start + self.max, n)
        while pos < end and "0" <= text[pos] <= "9":
            pos += 1
        if pos < min_end:
            return ~start
        return ctx.set("NanoOfSecond", int(text[start:pos].ljust(9, "0")), start, pos)

    def expects(self) -> str:
        return f"{self.letters} (the fraction of a second, {self.min} digits)"


class _Text:
    """TextPrinterParser: a month, day of the week or AM/PM as text, matched longest first (a text
    two values share, as the narrow J of June and July, reads as the last, as in Java)."""

    __slots__ = ("field", "names", "choices", "letters")

    def __init__(self, field: str, names: dict[int, str], letters: str) -> None:
        self.field, self.names, self.letters = field, names, letters
        reverse = {text: value for value, text in sorted(names.items())}
        self.choices = sorted(reverse.items(), key=lambda kv: -len(kv[0]))

    def format(self, t: Any, out: list[str], optional: bool) -> bool:
        v = _value(t, self.field)
        if v is None:
            if optional:
                return False
            raise _unsupported(self.field)
        out.append(self.names[v])
        return True

    def parse(self, ctx: _Parse, text: str, pos: int) -> int:
        for name, value in self.choices:
            if ctx.same(text, pos, name):
                return ctx.set(self.field, value, pos, pos + len(name))
        return ~pos

    def expects(self) -> str:
        some = [self.names[k] for k in sorted(self.names)][:3]
        return f"{self.letters} ({_WHAT[self.field]} as text: {', '.join(some)}..., case-sensitive)"


class _Literal:
    """A literal character, or a 'quoted text' (which fails at its start, as Java's)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def format(self, t: Any, out: list[str], optional: bool) -> bool:
        out.append(self.text)
        return True

    def parse(self, ctx: _Parse, text: str, pos: int) -> int:
        return pos + len(self.text) if ctx.same(text, pos, self.text) else ~pos

    def expects(self) -> str:
        return f"'{self.text}'"


class _Offset:
    """An ISO constant's optional offset: Z, +01:00 or +01:00:30 (`colon`), or BASIC_ISO_DATE's
    lenient +01, +0100, +010030. Read and range-checked as Java does, then dropped with the rest."""

    __slots__ = ("colon",)

    def __init__(self, colon: bool) -> None:
        self.colon = colon

    def format(self, t: Any, out: list[str], optional: bool) -> bool:
        return False  # a local value has no offset: the optional section is left out

    def parse(self, ctx: _Parse, text: str, pos: int) -> int:
        if pos == len(text):
            return ~pos
        if ctx.same(text, pos, "Z"):
            return ctx.set("OffsetSeconds", 0, pos, pos + 1)
        if text[pos] not in "+-":
            return ~pos
        at, parts = pos + 1, []
        for i in range(3):  # hours, minutes, seconds: two digits each, 59 at most
            sep = ":" if self.colon and i else ""
            two = text[at + len(sep):at + len(sep) + 2]
            if not text.startswith(sep, at) or len(two) < 2 or not two.isascii() or not two.isdigit() or \
                    int(two) > 59:
                if i == 0 or (i == 1 and self.colon):  # the hours, and +HH:MM's minutes, are required
                    return ~pos
                break
            parts.append(int(two))
            at += len(sep) + 2
        hours, minutes, seconds = (parts + [0, 0])[:3]
        if hours > 23:
            raise _Failure("Value out of range: Hour[0-23], Minute[0-59], Second[0-59]")
        sign = -1 if text[pos] == "-" else 1
        return ctx.set("OffsetSeconds", sign * (hours * 3600 + minutes * 60 + seconds), pos, at)


class _NoZone:
    """ISO_DATE_TIME's [region] after an offset: refused, PTC-Lisp has no time zones."""

    __slots__ = ()

    def format(self, t: Any, out: list[str], optional: bool) -> bool:
        return False

    def parse(self, ctx: _Parse, text: str, pos: int) -> int:
        if text.startswith("[", pos):
            raise _Failure(f"PTC-Lisp has no time zones (the region {text[pos:pos + 40]})",
                           hint='drop the [region] first: (subs s 0 (clojure.string/index-of s "["))')
        return ~pos


class _Section:
    """A CompositePrinterParser: the pattern, or an [optional] part of it, which formats only if
    the value has every field it prints and parses only if all of it matches (else nothing)."""

    __slots__ = ("steps", "optional")

    def __init__(self, steps: list[Any], optional: bool) -> None:
        self.steps, self.optional = steps, optional

    def format(self, t: Any, out: list[str], optional: bool) -> bool:
        mark = len(out)
        inner = optional or self.optional
        for step in self.steps:
            if not step.format(t, out, inner):
                del out[mark:]
                break
        return True

    def parse(self, ctx: _Parse, text: str, pos: int) -> int:
        saved = dict(ctx.fields)
        at = pos
        for step in self.steps:
            at = step.parse(ctx, text, at)
            if at < 0:
                ctx.fields = saved
                return pos
        return at


# -- compiling a pattern ----------------------------------------------------------------------------


class _Frame:
    """A section being built, and the index of its active value parser (-1: none)."""

    __slots__ = ("steps", "active")

    def __init__(self) -> None:
        self.steps: list[Any] = []
        self.active = -1


class _Builder:
    """DateTimeFormatterBuilder: appendValue (with its adjacent value rules), appendLiteral,
    optionalStart/End and appendPattern's letters, as Java builds them."""

    def __init__(self) -> None:
        self.frames = [_Frame()]

    def add(self, step: Any) -> int:
        """appendInternal: any step ends a run of adjacent values."""
        top = self.frames[-1]
        top.steps.append(step)
        top.active = -1
        return len(top.steps) - 1

    def value(self, pp: Any) -> None:
        """appendValue: a fixed-width value after another value gives it its width to leave free;
        any other value makes the one before it fixed and becomes the active one."""
        top = self.frames[-1]
        base = top.active
        if base < 0:
            top.active = self.add(pp)
        elif pp.min == pp.max and pp.sign == NOT_NEGATIVE:
            top.steps[base].sub += pp.max
            pp.sub = -1
            self.add(pp)
            top.active = base
        else:
            top.steps[base].sub = -1
            top.active = self.add(pp)

    def number(self, field: str, lo: int, hi: int, sign: str, letters: str) -> None:
        """appendValue(field, min, max, sign), with Java's checks of the widths."""
        if lo == hi and sign == NOT_NEGATIVE:
            self.value(_Number(field, lo, hi, sign, letters))
            return
        if not 1 <= lo <= 19:
            raise _Failure(f"The minimum width must be from 1 to 19 inclusive but was {lo}")
        self.value(_Number(field, lo, hi, sign, letters))

    def optional_start(self) -> None:
        if len(self.frames) > MAX_NESTING:
            raise _Failure(f"Pattern nests [optional] sections more than {MAX_NESTING} deep")
        self.frames[-1].active = -1
        self.frames.append(_Frame())

    def optional_end(self) -> None:
        frame = self.frames.pop()
        if frame.steps:
            self.add(_Section(frame.steps, True))

    def program(self, smart: bool, sensitive: bool, source: str) -> "_Program":
        while len(self.frames) > 1:  # toFormatter closes the sections left open
            self.optional_end()
        return _Program(_Section(self.frames[0].steps, False), smart, sensitive, source)

    def pattern(self, p: str, locale: str) -> None:
        """appendPattern: letters, 'quoted text', '' (a quote), [optional] and other characters."""
        i, n = 0, len(p)
        while i < n:
            c = p[i]
            if "A" <= c <= "Z" or "a" <= c <= "z":
                j = i
                while j < n and p[j] == c:
                    j += 1
                self.letter(c, j - i, locale)
                i = j
            elif c == "'":
                j = i + 1
                while j < n and (p[j] != "'" or p[j + 1:j + 2] == "'"):
                    j += 2 if p[j] == "'" else 1
                if j >= n:
                    raise _Failure(f"Pattern ends with an incomplete string literal: {p}",
                                   hint="close the quote: 'T', and write '' for a quote itself")
                self.add(_Literal(p[i + 1:j].replace("''", "'") or "'"))
                i = j + 1
            elif c == "[":
                self.optional_start()
                i += 1
            elif c == "]":
                if len(self.frames) == 1:
                    raise _Failure("Pattern invalid as it contains ] without previous [")
                self.optional_end()
                i += 1
            elif c in "{}#":
                raise _Failure(f"Pattern includes reserved character: '{c}'", hint=f"quote it: '{c}'")
            else:
                self.add(_Literal(c))
                i += 1

    def letter(self, c: str, count: int, locale: str) -> None:
        """One run of a pattern letter (DateTimeFormatterBuilder.parseField)."""
        letters = c * count
        field = _LETTERS.get(c)
        if field is None:
            raise _refused(c)
        if c in "yu":
            if count == 2:
                self.value(_Number(field, 2, 2, NOT_NEGATIVE, letters, reduced=True))
            else:
                self.number(field, count, 19, NORMAL if count < 4 else EXCEEDS_PAD, letters)
        elif c in "ML" and count <= 2:
            self.number(field, count, 2 if count == 2 else 19, NOT_NEGATIVE if count == 2 else NORMAL, letters)
        elif c in "MLE":
            if count > 5:
                raise _Failure(f"Too many pattern letters: {c}")
            style = "NARROW" if count == 5 else "FULL" if count == 4 else "SHORT"
            self.add(_Text(field, _names(field, style, locale), letters))
        elif c == "a":
            if count > 1:
                raise _Failure("Too many pattern letters: a", hint="a is AM or PM: write it once")
            self.add(_Text(field, _names(field, "SHORT", locale), letters))
        elif c == "S":
            if count > 9:
                raise _Failure(f"Minimum width must be from 0 to 9 inclusive but was {count}")
            self.value(_Fraction(count, count, False, letters))
        elif c == "D":
            if count > 3:
                raise _Failure("Too many pattern letters: D")
            self.number(field, count, 19 if count == 1 else 3, NORMAL if count == 1 else NOT_NEGATIVE, letters)
        else:  # d h H k K m s
            if count > 2:
                raise _Failure(f"Too many pattern letters: {c}", hint=f"{c} and {c * 2} are the only widths")
            self.number(field, count, 19 if count == 1 else 2, NORMAL if count == 1 else NOT_NEGATIVE, letters)


_LETTERS = {"y": "YearOfEra", "u": "Year", "M": "MonthOfYear", "L": "MonthOfYear", "d": "DayOfMonth",
            "D": "DayOfYear", "E": "DayOfWeek", "a": "AmPmOfDay", "H": "HourOfDay", "k": "ClockHourOfDay",
            "K": "HourOfAmPm", "h": "ClockHourOfAmPm", "m": "MinuteOfHour", "s": "SecondOfMinute",
            "S": "NanoOfSecond"}
_ZONE_LETTERS = {"z": "time-zone name", "Z": "zone offset", "X": "zone offset", "x": "zone offset",
                 "V": "time-zone id", "v": "generic time-zone name", "O": "localized zone offset"}
_OTHER_LETTERS = {"G": "era", "Q": "quarter", "q": "quarter", "w": "week of the week-based year",
                  "W": "week of the month", "e": "localized day of the week", "c": "localized day of the week",
                  "F": "aligned week of the month", "n": "nano of second", "N": "nano of day",
                  "A": "milli of day", "g": "modified Julian day", "B": "period of day", "p": "padding"}


def _refused(c: str) -> _Failure:
    """A pattern letter PTC-Lisp does not read, and why."""
    if c == "Y":
        return _Failure("pattern letter Y is the week-based year (2025-12-31 is in week-based year 2026)",
                        hint="Y is the week-based year; use yyyy")
    if c in _ZONE_LETTERS:
        return _Failure(f"pattern letter {c} ({_ZONE_LETTERS[c]}): PTC-Lisp has no time zones",
                        hint="dates and times are local (LocalDate, LocalDateTime, LocalTime); Instant/parse reads "
                             "UTC text ending in Z")
    if c in _OTHER_LETTERS:
        return _Failure(f"pattern letter {c} ({_OTHER_LETTERS[c]}) is not supported in PTC-Lisp",
                        hint="the letters are y u M L d D E a h K k H m s S; quote other text: 'at'")
    return _Failure(f"Unknown pattern letter: {c}", hint=f"quote letters meant as text: '{c}'"
                    + (" as in yyyy-MM-dd'T'HH:mm" if c == "T" else ""))


class _Program:
    """A compiled formatter: its steps, its resolver (SMART or STRICT), its case rule and its
    source (for the hints)."""

    __slots__ = ("root", "smart", "sensitive", "source")

    def __init__(self, root: _Section, smart: bool, sensitive: bool, source: str) -> None:
        self.root, self.smart, self.sensitive, self.source = root, smart, sensitive, source


@functools.lru_cache(maxsize=512)
def _compile(pattern: str, locale: str) -> _Program:
    """ofPattern's program (cached: a program calling ofPattern per row compiles it once)."""
    b = _Builder()
    b.pattern(pattern, locale)
    return b.program(True, True, f'the pattern "{pattern}"')


# -- resolving the fields parsed ---------------------------------------------------------------------


def _add(f: dict[str, int], field: str, value: int) -> None:
    """Parsed.addFieldValue: a field derived must agree with one parsed."""
    old = f.get(field)
    if old is not None and old != value:
        raise _Failure(f"Conflict found: {field} {old} differs from {field} {value}")
    f[field] = value


def _update(f: dict[str, int], target: str, field: str, value: int) -> None:
    """Parsed.updateCheckConflict (its message has two spaces before the field resolved)."""
    old = f.get(field)
    f[field] = value
    if old is not None and old != value:
        raise _Failure(f"Conflict found: {field} {old} differs from {field} {value} while resolving  {target}")


def _local_date(y: int, m: int, d: int) -> dt.date:
    """A date PTC-Lisp holds: Java's years past 1 to 9999 are an error here."""
    if not 1 <= y <= 9999:
        raise _Failure(f"the year {y} is outside the dates PTC-Lisp holds (years 1 to 9999)")
    return dt.date(y, m, d)


def _month_length(y: int, m: int) -> int:
    return 29 if m == 2 and calendar.isleap(y) else (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[m - 1]


def _resolve_date(f: dict[str, int], smart: bool) -> dt.date | None:
    """IsoChronology.resolveDate for the fields a pattern reads: year-of-era (y) becomes the year,
    then year, month and day (SMART: a day past the month's end is its last day), or year and day
    of year. (No ISO constant reads y, so STRICT's "keep the year of era" never arises.)"""
    yoe = f.pop("YearOfEra", None)
    if yoe is not None:
        check("YearOfEra", yoe)
        year = f.get("Year")
        _add(f, "Year", yoe if year is None or year > 0 else 1 - yoe)
    if "Year" not in f:
        return None
    if "MonthOfYear" in f and "DayOfMonth" in f:
        y, m, d = check("Year", f.pop("Year")), check("MonthOfYear", f.pop("MonthOfYear")), \
            check("DayOfMonth", f.pop("DayOfMonth"))
        last = _month_length(y, m)
        if d > last:
            if smart:
                d = last
            elif d == 29:
                raise _Failure(f"Invalid date 'February 29' as '{y}' is not a leap year")
            else:
                raise _Failure(f"Invalid date '{_MONTHS[m - 1].upper()} {d}'")
        return _local_date(y, m, d)
    if "DayOfYear" in f:
        y, doy = check("Year", f.pop("Year")), check("DayOfYear", f.pop("DayOfYear"))
        if doy == 366 and not calendar.isleap(y):
            raise _Failure(f"Invalid date 'DayOfYear 366' as '{y}' is not a leap year")
        return _local_date(y, 1, 1) + dt.timedelta(days=doy - 1)
    return None


def _time(hod: int, moh: int, som: int, nos: int, smart: bool) -> tuple[dt.time, int]:
    """Parsed.resolveTime: the time, and 1 for SMART's 24:00 (the next day's midnight)."""
    check("MinuteOfHour", moh)
    check("NanoOfSecond", nos)
    if smart and hod == 24 and moh == som == nos == 0:
        return dt.time(0), 1
    return dt.time(check("HourOfDay", hod), moh, check("SecondOfMinute", som), nos // 1000), 0


def _resolve_time(f: dict[str, int], smart: bool) -> tuple[dt.time | None, int]:
    """Parsed.resolveTimeFields and resolveTimeLenient: clock hours and AM/PM to the hour of the
    day, then a time from the hour (minutes, seconds and fraction default to 0 when the ones
    after them are missing too; SMART makes a lone AM or PM 06:00 or 18:00, as Java 16 on
    does); the time fields left over are validated."""
    if "ClockHourOfDay" in f:
        ch = f.pop("ClockHourOfDay")
        if not smart or ch != 0:
            check("ClockHourOfDay", ch)
        _update(f, "ClockHourOfDay", "HourOfDay", 0 if ch == 24 else ch)
    if "ClockHourOfAmPm" in f:
        ch = f.pop("ClockHourOfAmPm")
        if not smart or ch != 0:
            check("ClockHourOfAmPm", ch)
        _update(f, "ClockHourOfAmPm", "HourOfAmPm", 0 if ch == 12 else ch)
    if "AmPmOfDay" in f and "HourOfAmPm" in f:
        ap, hap = check("AmPmOfDay", f.pop("AmPmOfDay")), check("HourOfAmPm", f.pop("HourOfAmPm"))
        _update(f, "AmPmOfDay", "HourOfDay", ap * 12 + hap)
    if "NanoOfSecond" in f:
        check("NanoOfSecond", f["NanoOfSecond"])
    if smart and "AmPmOfDay" in f and not f.keys() & {"HourOfDay", "MinuteOfHour", "SecondOfMinute", "NanoOfSecond"}:
        f["HourOfDay"] = check("AmPmOfDay", f.pop("AmPmOfDay")) * 12 + 6
    hod = f.get("HourOfDay")
    if hod is not None:
        moh, som, nos = f.get("MinuteOfHour"), f.get("SecondOfMinute"), f.get("NanoOfSecond")
        if (moh is None and (som is not None or nos is not None)) or (moh is not None and som is None and
                                                                     nos is not None):
            return None, 0  # seconds without minutes: no time, and (as in Java) nothing validated
        for k in ("HourOfDay", "MinuteOfHour", "SecondOfMinute", "NanoOfSecond"):
            f.pop(k, None)
        time, excess = _time(hod, moh or 0, som or 0, nos or 0, smart)
    else:
        time, excess = None, 0
    for field, v in f.items():
        if field in _TIME_FIELDS:
            check(field, v)
    return time, excess


def _cross_check(f: dict[str, int], target: Any) -> None:
    """Parsed.crossCheck: a field left over (a day of the week, AM/PM...) must be the target's."""
    for field in list(f):
        v = _value(target, field)
        if v is None:
            continue
        if v != f[field]:
            raise _Failure(f"Conflict found: Field {field} {v} differs from {field} {f[field]} derived from "
                           f"{dates.iso_text(target)}", hint="the text names another date or time than its fields give")
        del f[field]


def _resolve(f: dict[str, int], smart: bool) -> tuple[dt.date | None, dt.time | None]:
    """Parsed.resolve: the date and the time the fields give (either may be None)."""
    date = _resolve_date(f, smart)
    time, excess = _resolve_time(f, smart)
    if date is not None:
        _cross_check(f, date)
    if time is not None:
        _cross_check(f, time)
    if date is not None and time is not None:
        if excess:
            date = _next_day(date)
        if abs(f.get("OffsetSeconds", 0)) > 18 * 3600:
            raise _Failure("Zone offset not in valid range: -18:00 to +18:00")
    return date, time


def _next_day(d: dt.date) -> dt.date:
    if d == dt.date.max:
        raise _Failure("the year 10000 is outside the dates PTC-Lisp holds (years 1 to 9999)")
    return d + dt.timedelta(days=1)


def _obtained(kind: str, date: dt.date | None, time: dt.time | None, f: dict[str, int]) -> Any:
    """LocalDate.from, LocalTime.from or LocalDateTime.from of the resolved parse."""
    if kind == "LocalDate" and date is not None:
        return date
    if kind == "LocalTime" and time is not None:
        return time
    if kind == "LocalDateTime" and date is not None and time is not None:
        return dt.datetime.combine(date, time)
    resolved = date if time is None else time if date is None else dt.datetime.combine(date, time)
    fields = ", ".join(f"{k}={v}" for k, v in f.items())
    raise _Failure(f"Unable to obtain {kind} from TemporalAccessor: {{{fields}}},ISO"
                   + ("" if resolved is None else f" resolved to {dates.iso_text(resolved)}"),
                   hint=_missing(kind, date, time, f))


def _missing(kind: str, date: dt.date | None, time: dt.time | None, f: dict[str, int]) -> str:
    """What the pattern lacks for the value asked."""
    if kind != "LocalTime" and date is None:
        if "Year" not in f:
            return "the pattern has no year (yyyy): a date needs a year, a month and a day"
        return "a date needs a month and a day (MM dd) or a day of the year (DDD) besides the year"
    if "HourOfAmPm" in f:
        return 'h and K are the hour of AM/PM: add a (as in "hh:mm a"), or use HH for the hour 0-23'
    if "HourOfDay" in f:
        return "a time with seconds needs its minutes (mm)"
    if kind == "LocalDateTime" and time is None:
        return "the pattern has no time of day: parse with LocalDate/parse (and .atStartOfDay for a LocalDateTime)"
    return "the pattern has no hour (HH, or hh with a)"


# -- parse and format ------------------------------------------------------------------------------


def _snippet(text: str, at: int) -> str:
    return f'where the text has "{text[at:at + 20]}"' if at < len(text) else "where the text ends"


def _hint(prog: _Program, step: Any, text: str, at: int) -> str:
    """What the pattern expected where the text stopped matching it."""
    out = f"{prog.source} expects {step.expects()} at index {at}, {_snippet(text, at)}"
    if type(step) is _Number and step.min == step.max == 2 and text[at:at + 1].isdigit() and \
            not text[at + 1:at + 2].isdigit():
        out += f"; {step.letters[0]} (one letter) reads one or two digits"
    elif type(step) is _Text and any(text[at:at + len(n)].lower() == n.lower() for n, _ in step.choices):
        out += " (the names are case-sensitive)"
    return out


def _fields(prog: _Program, text: str, hint: str | None) -> dict[str, int]:
    """The fields the text gives, read by the program's steps, or Java's error for where it fails."""
    ctx = _Parse(prog.sensitive)
    pos = 0
    for step in prog.root.steps:
        nxt = step.parse(ctx, text, pos)
        if nxt < 0:
            raise _At(f" at index {~nxt}", hint=hint or _hint(prog, step, text, ~nxt))
        pos = nxt
    if pos < len(text):
        raise _At(f", unparsed text found at index {pos}",
                  hint=hint or f"{prog.source} ends at index {pos}, {_snippet(text, pos)}")
    return ctx.fields


def parse(who: str, text: Any, fmt: Any, kind: str, hint: str | None = None) -> Any:
    """`(LocalDate/parse text fmt)`: the LocalDate, LocalDateTime or LocalTime (kind) the text gives.
    `hint` replaces the hint of a text that does not match (the one-argument ISO parses' own)."""
    if type(text) is not str:
        raise runtime_error(f"{who}: expected a string, got {describe(text)}")
    if type(fmt) is not Formatter:
        raise runtime_error(f"{who}: expected a DateTimeFormatter, got {describe(fmt)}",
                            hint='make one with (DateTimeFormatter/ofPattern "dd/MM/yyyy")')
    prog: _Program = fmt.program
    try:
        f = _fields(prog, text, hint)
        return _obtained(kind, *_resolve(f, prog.smart), f)
    except _Failure as e:
        abbr = text if len(text) <= 64 else text[:64] + "..."
        raise runtime_error(f"{who}: Text '{abbr}' could not be parsed{'' if isinstance(e, _At) else ': '}"
                            f"{e.message}", hint=e.hint) from None


def format_value(who: str, t: Any, fmt: Any) -> str:
    """`(.format t fmt)`: the text of a LocalDate, LocalDateTime or LocalTime by the formatter."""
    if type(fmt) is not Formatter:
        raise runtime_error(f"{who}: expected a DateTimeFormatter, got {describe(fmt)}",
                            hint='make one with (DateTimeFormatter/ofPattern "dd/MM/yyyy")')
    if type(t) not in LOCAL or (type(t) is dt.datetime and t.tzinfo is not None):
        instant = "an Instant has no calendar fields without a time zone; (str instant) is its ISO text"
        raise runtime_error(f"{who}: a DateTimeFormatter formats a LocalDate, LocalDateTime or LocalTime, "
                            f"not {describe(t)}", hint=instant if type(t) is dt.datetime else None)
    out: list[str] = []
    try:
        fmt.program.root.format(t, out, False)
    except _Failure as e:
        lacks = "time of day" if type(t) is dt.date else "date"
        raise runtime_error(f"{who}: {e.message}", hint=e.hint or f"a {dates.kind(t)} has no {lacks}: format a "
                            "LocalDateTime, or leave the letters of the missing fields out (or in [optional])") \
            from None
    return "".join(out)


# -- the ISO constants ----------------------------------------------------------------------------------


def _iso_date(b: _Builder) -> None:
    b.number("Year", 4, 10, EXCEEDS_PAD, "uuuu")
    for field, letters in (("MonthOfYear", "MM"), ("DayOfMonth", "dd")):
        b.add(_Literal("-"))
        b.number(field, 2, 2, NOT_NEGATIVE, letters)


def _iso_time(b: _Builder) -> None:
    b.number("HourOfDay", 2, 2, NOT_NEGATIVE, "HH")
    b.add(_Literal(":"))
    b.number("MinuteOfHour", 2, 2, NOT_NEGATIVE, "mm")
    b.optional_start()
    b.add(_Literal(":"))
    b.number("SecondOfMinute", 2, 2, NOT_NEGATIVE, "ss")
    b.optional_start()
    b.add(_Fraction(0, 9, True, ""))
    b.optional_end()
    b.optional_end()


def _iso_date_time(b: _Builder) -> None:
    _iso_date(b)
    b.add(_Literal("T"))
    _iso_time(b)


def _offset(b: _Builder, colon: bool = True, zone: bool = False) -> None:
    """[offset[[region]]]: appendOffsetId (colon) or BASIC_ISO_DATE's lenient appendOffset."""
    b.optional_start()
    b.add(_Offset(colon))
    if zone:
        b.optional_start()
        b.add(_NoZone())
        b.optional_end()
    b.optional_end()


def _iso_date_offset(b: _Builder) -> None:
    _iso_date(b)
    _offset(b)


def _iso_date_time_offset(b: _Builder) -> None:
    _iso_date_time(b)
    _offset(b, zone=True)


def _basic(b: _Builder) -> None:
    for field, width, letters in (("Year", 4, "uuuu"), ("MonthOfYear", 2, "MM"), ("DayOfMonth", 2, "dd")):
        b.number(field, width, width, NOT_NEGATIVE, letters)
    _offset(b, colon=False)


# name: (how it builds, whether its parse ignores case, the text it reads)
_ISO: dict[str, tuple[Callable[[_Builder], None], bool, str]] = {
    "ISO_LOCAL_DATE": (_iso_date, False, "2026-03-14"),
    "ISO_LOCAL_TIME": (_iso_time, False, "10:15 or 10:15:30.5"),
    "ISO_LOCAL_DATE_TIME": (_iso_date_time, True, "2026-03-14T10:15:30"),
    "ISO_DATE": (_iso_date_offset, True, "2026-03-14 or 2026-03-14+01:00"),
    "ISO_DATE_TIME": (_iso_date_time_offset, True, "2026-03-14T10:15:30 or 2026-03-14T10:15:30Z"),
    "BASIC_ISO_DATE": (_basic, True, "20260314"),
}


def _iso(name: str) -> Formatter:
    build, insensitive, reads = _ISO[name]
    b = _Builder()
    build(b)
    return Formatter(None, name, "ENGLISH", b.program(False, not insensitive, f"DateTimeFormatter/{name} ({reads})"))


ISO: dict[str, Formatter] = {name: _iso(name) for name in _ISO}
CONSTANTS: dict[str, Any] = {**{f"DateTimeFormatter/{k}": f for k, f in ISO.items()},
                             **{f"Locale/{k}": loc for k, loc in dates.LOCALES.items()}}
_NO_LOCALE = object()


@builtin("ofPattern", ns="DateTimeFormatter", args=("[pattern]", "[pattern locale]"), category=_CAT,
         doc="A formatter of Java's pattern letters (yyyy MM MMM MMMM dd D E EEEE a hh HH mm ss SSS, 'text', "
             "[optional]) for .format and LocalDate/parse; the text is English (Locale/UK: Sept, pm; Locale/ROOT: "
             "Jan for January). Prints as #DateTimeFormatter[\"pattern\"].",
         ex=(('(.format (LocalDate/of 2026 3 14) (DateTimeFormatter/ofPattern "MMM d, yyyy"))', '"Mar 14, 2026"'),
             ('(str (LocalDate/parse "03/14/2026" (DateTimeFormatter/ofPattern "MM/dd/yyyy")))', '"2026-03-14"'),
             ('(DateTimeFormatter/ofPattern "dd/MM/yyyy")', '#DateTimeFormatter["dd/MM/yyyy"]')))
def of_pattern(pattern: Any, locale: Any = _NO_LOCALE) -> Formatter:
    who = "DateTimeFormatter/ofPattern"
    if type(pattern) is not str:
        raise runtime_error(f"{who}: expected a pattern string, got {describe(pattern)}")
    if locale is not _NO_LOCALE and not (type(locale) is dates.JavaEnum and locale.kind == "Locale"):
        raise runtime_error(f"{who}: expected a Locale, got {describe(locale)}",
                            hint="the locales are Locale/ENGLISH, Locale/US, Locale/UK and Locale/ROOT")
    if len(pattern) > MAX_PATTERN:
        raise runtime_error(f"{who}: a pattern of {len(pattern)} characters is longer than PTC-Lisp reads "
                            f"({MAX_PATTERN})")
    name = "ENGLISH" if locale is _NO_LOCALE else next(k for k, v in dates.LOCALES.items() if v is locale)
    text_of = "ENGLISH" if name == "US" else name  # US English writes ENGLISH's text
    try:
        return Formatter(pattern, None, text_of, _compile(pattern, text_of))
    except _Failure as e:
        raise runtime_error(f"{who}: {e.message}", hint=e.hint) from None


def rebuilt(pattern: Any, iso: Any, locale: Any) -> Formatter:
    """A formatter from what it is made of (a formatter arriving from another process)."""
    return ISO[iso] if iso is not None else of_pattern(pattern, dates.LOCALES[locale])


@method("format", (*LOCAL, Formatter), ("[t formatter]", "[formatter t]"),
        "The text of a LocalDate, LocalDateTime or LocalTime by a DateTimeFormatter (either order, as Java's "
        "date.format(formatter) and formatter.format(date)).", category=_CAT,
        ex=(('(.format (LocalDateTime/of 2026 3 14 9 5) (DateTimeFormatter/ofPattern "EEE d MMM, h:mm a"))',
             '"Sat 14 Mar, 9:05 AM"'),
            ('(.format DateTimeFormatter/BASIC_ISO_DATE (LocalDate/of 2026 3 14))', '"20260314"')))
def format_(a: Any, b: Any) -> str:
    if type(a) is Formatter:
        return format_value(".format", b, a)
    return format_value(".format", a, b)


__all__ = ["CONSTANTS", "ISO", "check", "format_value", "of_pattern", "parse", "rebuilt"]
