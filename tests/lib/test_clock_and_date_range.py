"""The run clock can be fixed (a run that reads "now" replays), and dates out of range are
errors in PTC-Lisp's words, never Python's ("Python int too large to convert to C int")."""

from __future__ import annotations

import datetime

import pytest

import ptc

UTC = datetime.timezone.utc


@pytest.mark.parametrize("isolation", ["inline", "process"])
def test_a_fixed_clock_is_what_every_clock_read_sees(isolation: str) -> None:
    limits = ptc.Limits(clock=datetime.datetime(2026, 1, 1, 12, tzinfo=UTC), isolation=isolation)
    r = ptc.run("[(System/currentTimeMillis) (str (LocalDate/now)) (str (Instant/now))]", limits=limits)
    assert ptc.to_python(r.value) == [1767268800000, "2026-01-01", "2026-01-01T12:00:00Z"]


def test_the_clock_from_the_command_line() -> None:
    from click.testing import CliRunner

    from ptc.cli.main import main

    out = CliRunner().invoke(main, ["mcp", "serve", "--help"])
    assert out.exit_code == 0
    from ptc.cli.common import parse_limits

    assert parse_limits("clock=2026-01-01T00:00:00Z").clock == datetime.datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("src", [
    "(.plusDays (LocalDate/of 2020 1 1) 99999999999999999999)",
    "(.plusYears (LocalDate/of 2020 1 1) 100000000000000000000000)",
    "(LocalDate/ofEpochDay 1000000000000000000000)",
    "(Instant/ofEpochMilli 100000000000000000000000)",
    "(.plusMonths (LocalDate/of 2020 1 1) 100000000000000000000)",
    "(LocalDate/of 99999999999 1 1)",
    "(Duration/ofDays 100000000000000000000000)",
])
def test_a_date_out_of_range_is_said_in_ptc_words(src: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src)
    assert "outside the dates PTC-Lisp holds (years 1 to 9999)" in e.value.message
    assert "C int" not in e.value.message and "C long" not in e.value.message
