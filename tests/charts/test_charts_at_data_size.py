"""Charts over real data sizes: a histogram of any number of rows is binned in the sandbox
and only its bins are sent; a scatter over many rows draws evenly spaced ones and says so;
axes of points span the data; months are labelled as months; a Vega-Lite `$schema` and an
options map for the columns are accepted."""

from __future__ import annotations

from typing import Any

import pytest

import ptc
from ptc.charts import check_spec

pytest.importorskip("jsonschema")
pytest.importorskip("altair")

N = 336_776


def vl(src: str, **data: Any) -> dict[str, Any]:
    return ptc.to_python(ptc.run(src, data=data).value)["vega-lite"]


@pytest.mark.parametrize("kind", ["rows", "table"])
def test_a_histogram_of_a_big_column_is_binned_in_the_sandbox(kind: str) -> None:
    rows: Any = [{"arr_delay": (i * 7919) % 300 - 50 if i % 50 else None} for i in range(N)]
    if kind == "table":
        rows = pytest.importorskip("pyarrow").Table.from_pylist(rows)
    spec = vl("(chart/histogram data/flights :arr_delay {:bins 20})", flights=rows)
    bins = spec["data"]["values"]
    assert len(bins) <= 20 and sum(b["count"] for b in bins) == N - N // 50 - 1
    assert all(b["bin_end"] - b["bin_start"] == 20 for b in bins) and bins[0]["bin_start"] == -60
    assert spec["title"]["subtitle"] == f"{N - N // 50 - 1:,} values ({N // 50 + 1:,} nil left out)"
    check_spec(spec)


def test_a_histogram_of_text_is_a_clear_error() -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run('(chart/histogram [{:k "a"}] :k)')
    assert "must hold numbers" in e.value.message and "chart/bar" in e.value.hint


def test_a_scatter_over_many_rows_samples_and_says_so() -> None:
    rows = [{"bill": 30 + i % 30, "mass": 3000 + i % 1500} for i in range(20_000)]
    spec = vl("(chart/scatter data/p :bill :mass)", p=rows)
    assert len(spec["data"]["values"]) == 5_000
    assert spec["title"] == {"text": "", "subtitle": "5,000 of 20,000 rows, evenly spaced"}
    assert spec["encoding"]["y"]["scale"] == {"zero": False} and spec["encoding"]["x"]["scale"] == {"zero": False}
    assert "scale" not in vl("(chart/scatter data/p :bill :mass {:zero true})", p=rows[:10])["encoding"]["y"]


def test_bars_keep_zero_and_line_months_are_labelled_as_months() -> None:
    assert "scale" not in vl("(chart/bar [{:k \"a\" :n 5}] :k :n)")["encoding"]["y"]
    x = vl('(chart/line [{:m "2026-01" :n 1} {:m "2026-02" :n 3}] :m :n)')["encoding"]["x"]
    assert x["type"] == "temporal" and x["timeUnit"] == "yearmonth" and x["axis"] == {"format": "%b %Y"}
    assert "timeUnit" not in vl('(chart/line [{:d "2026-01-05" :n 1}] :d :n)')["encoding"]["x"]


def test_an_options_map_may_name_the_columns() -> None:
    assert vl("(chart/bar [{:k \"a\" :n 1}] {:x :k :y :n})") == vl("(chart/bar [{:k \"a\" :n 1}] :k :n)")
    with pytest.raises(ptc.PTCError, match="needs :x and :y"):
        ptc.run("(chart/bar [{:k \"a\" :n 1}] {:x :k})")
    with pytest.raises(ptc.PTCError, match="given twice"):
        ptc.run("(chart/bar [{:k \"a\" :n 1}] :k :n {:x :k})")


def test_a_vega_lite_schema_url_is_accepted(tmp_path: Any) -> None:
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "mark": "bar",
            "data": {"values": [{"a": 1}]}, "encoding": {"x": {"field": "a", "type": "quantitative"}}}
    pytest.importorskip("vl_convert")
    assert ptc.render_chart(spec, tmp_path / "c.svg").read_text().startswith("<svg")
