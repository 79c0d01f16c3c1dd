"""A vector of maps prints the way pandas and polars print a frame: fitted to the width, the
middle columns elided with `...`, each cell on one line, the shape last."""

from __future__ import annotations

from ptc.cli.table_view import format_table

WIDE = [{"year": 2013, "month": 1, "day": 1, "dep_time": 517, "sched_dep_time": 515, "dep_delay": 2.0,
         "arr_time": 830, "sched_arr_time": 819, "arr_delay": 11.0, "carrier": "UA", "flight": 1545,
         "tailnum": "N14228", "origin": "EWR", "dest": "IAH", "air_time": 227.0, "distance": 1400,
         "hour": 5, "minute": 15, "time_hour": "2013-01-01T10:00:00Z"},
        {"year": 2013, "month": 1, "day": 1, "dep_time": 533, "sched_dep_time": 529, "dep_delay": None,
         "arr_time": 850, "sched_arr_time": 830, "arr_delay": 20.0, "carrier": "UA", "flight": 1714,
         "tailnum": "N24211", "origin": "LGA", "dest": "IAH", "air_time": 227.0, "distance": 1416,
         "hour": 5, "minute": 29, "time_hour": "2013-01-01T10:00:00Z"}]


def test_a_wide_table_fits_80_columns_with_the_middle_elided() -> None:
    assert format_table(WIDE, 336_776) == (
        "year  month  day  dep_time  ...  distance  hour  minute  time_hour\n"
        "----  -----  ---  --------  ---  --------  ----  ------  --------------------\n"
        "2013      1    1       517  ...      1400     5      15  2013-01-01T10:00:00Z\n"
        "2013      1    1       533  ...      1416     5      29  2013-01-01T10:00:00Z\n"
        "336,776 rows x 19 columns (first 2 shown; --output FILE writes them all)")
    assert all(len(line) <= 80 for line in format_table(WIDE, 2).splitlines()[:-1])


def test_a_wider_terminal_shows_more_columns_and_long_cells_are_cut() -> None:
    text = format_table([{"a": "x" * 50, "b": 1}], 1, width=120)
    assert text == ("a                         b\n"
                    "------------------------  -\n"
                    "xxxxxxxxxxxxxxxxxxxxxxx…  1\n"
                    "1 row x 2 columns")


def test_the_cli_prints_it(invoke) -> None:  # type: ignore[no-untyped-def]
    r = invoke("eval", '[{:year 2013 :carrier "UA"} {:year 2014 :carrier "AA"}]')
    assert r.stdout == "year  carrier\n----  -------\n2013  UA\n2014  AA\n2 rows x 2 columns\n"
