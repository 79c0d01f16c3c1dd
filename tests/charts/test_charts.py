"""chart/: specs built and checked in the sandbox, refused when hostile, rendered on the host."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ptc
from ptc.charts import Chart, ChartError
from ptc.charts.spec import MAX_ROWS, check_spec

pytest.importorskip("jsonschema")
pytest.importorskip("altair")  # ships Vega-Lite's schema

ROOT = Path(__file__).resolve().parents[2]
ORDERS = [{"region": "north", "amount": 10, "day": "2026-01-02"}, {"region": "south", "amount": 7, "day": "2026-01-03"},
          {"region": "north", "amount": 5, "day": "2026-01-04"}]


def spec_of(source: str, **data: object) -> dict:
    return ptc.run(source, data=data).chart.spec


def refused(source: str) -> ptc.PTCError:
    with pytest.raises(ptc.PTCError) as info:
        ptc.run(source)
    assert info.value.kind == "runtime" and info.value.hint
    return info.value


def test_bar_keeps_only_the_columns_it_draws_and_the_rows_order() -> None:
    spec = spec_of("(chart/bar (sort-by :amount data/o) :region :amount {:title \"T\" :color :region})", o=ORDERS)
    assert spec["mark"]["type"] == "bar" and spec["title"] == "T"
    assert spec["data"]["values"] == [{"region": "north", "amount": 5}, {"region": "south", "amount": 7},
                                      {"region": "north", "amount": 10}]
    enc = spec["encoding"]
    assert enc["x"] == {"field": "region", "type": "nominal", "title": "region", "sort": None}
    assert enc["y"]["type"] == "quantitative" and enc["color"]["field"] == "region"


def test_types_are_inferred_and_a_map_is_read_as_pairs() -> None:
    assert spec_of("(chart/line data/o :day :amount)", o=ORDERS)["encoding"]["x"]["type"] == "temporal"
    spec = spec_of("(chart/area (frequencies (map :region data/o)) :region :n)", o=ORDERS)
    assert spec["data"]["values"] == [{"region": "north", "n": 2}, {"region": "south", "n": 1}]
    assert spec_of("(chart/scatter data/o :amount :amount)", o=ORDERS)["mark"]["type"] == "point"
    hist = spec_of("(chart/histogram data/o :amount {:bins 4})", o=ORDERS)  # binned in the sandbox
    assert hist["encoding"]["x"]["bin"]["binned"] and len(hist["data"]["values"]) <= 4
    assert sum(b["count"] for b in hist["data"]["values"]) == len(ORDERS)
    # a dotted column name is a column, not a path into nested data
    assert spec_of("(chart/bar [{\"a.b\" 1 :n 2}] \"a.b\" :n)")["encoding"]["x"]["field"] == "a\\.b"


def test_chart_spec_takes_any_valid_vega_lite() -> None:
    spec = spec_of('(chart/spec {:mark "tick" :data {:values [{:a 1} {:a 3}]} '
                   ':encoding {:x {:field "a" :type "quantitative"}}})')
    assert spec["mark"] == "tick"


def test_answer_charts_are_found_in_the_value_or_its_first_items() -> None:
    r = ptc.run("{:total 3 :chart (chart/bar [{:k \"a\" :n 3}] :k :n)}")
    assert r.chart is not None and len(r.charts) == 1
    assert len(ptc.run("[(chart/bar [{:k 1 :n 1}] :k :n) (chart/line [{:k 1 :n 1}] :k :n)]").charts) == 2
    assert ptc.run("{:n 1}").chart is None and ptc.run("(sorted-map 3 :c)").chart is None


@pytest.mark.parametrize("source, message", [
    ('(chart/spec {:mark "bar" :data {:url "http://example.com/x.csv"}})', "inline rows"),
    ('(chart/spec {:mark "bar" :data {:values []} :transform [{:lookup "a" :from {:data {:url "x.csv"} :key "a"}}]})',
     "at transform[0].from.data"),
    ('(chart/spec {:mark "point" :data {:values []} :encoding {:url {:field "a"}}})', "'url' is not allowed"),
    ('(chart/spec {:mark "image" :data {:values []}})', "image marks"),
    ('(chart/spec {:mark "bar" :data {:values []} :encoding {:href {:value "javascript:alert(1)"}}})',
     "'href' is not allowed"),
    ('(chart/spec {:mark "text" :data {:values []} :encoding {:text {:value "//evil.example/x"}}})', "URLs"),
    ('(chart/spec {:$schema "https://vega.github.io/schema/vega-lite/v4.json" :mark "bar"})', "$schema"),
    ('(chart/spec {:$schema "http://127.0.0.1:9/x.json" :mark "bar"})', "$schema"),
    ('(chart/spec {:$ref "#/definitions/x"})', "$ref"),
    ('(chart/spec (reduce (fn [m _] {:layer [m]}) {:mark "bar"} (range 20)))', "nested more than"),
    ('(chart/spec {:mark "bars" :data {:values []}})', "'bars' is not one of"),
    ('(chart/spec {:mark "bar" :data {:values [{:a [1 2]}]}})', "chart rows"),
    ("(chart/bar (map (fn [i] {:a i :b i}) (range 5001)) :a :b)", f"more than {MAX_ROWS} rows"),
    ('(chart/bar [{:a (apply str (repeat 300000 "x")) :b 1} {:a (apply str (repeat 300000 "y")) :b 1}'
     ' {:a (apply str (repeat 300000 "z")) :b 1} {:a (apply str (repeat 300000 "w")) :b 1}] :a :b)', "bytes as JSON"),
    ("(chart/bar [1 2] :a :b)", "rows must be maps"),
    ("(chart/bar [{:a 1}] :a :b {:colour :a})", "unknown option :colour"),
    ('{:vega-lite {:mark "bar" :data {:url "x.csv"}}}', "chart in the result was refused"),
])
def test_hostile_or_broken_specs_are_refused_with_clear_errors(source: str, message: str) -> None:
    err = refused(source)
    assert message in err.message, err.message


def test_script_in_labels_stays_text_wherever_it_is_rendered(tmp_path: Path) -> None:
    pytest.importorskip("vl_convert")
    chart = ptc.run('(chart/bar [{:k "<script>alert(1)</script>" :n 1}] :k :n '
                    '{:title "</title><script>alert(2)</script>"})').chart
    svg = chart.to_svg()
    assert "<script" not in svg and "&lt;script&gt;" in svg
    page = chart.save(tmp_path / "c.html").read_text()
    assert "<script" not in page and "&lt;/title&gt;" in page


def test_render_to_png_svg_and_html(tmp_path: Path) -> None:
    pytest.importorskip("vl_convert")
    result = ptc.run("(chart/bar data/o :region :amount)", data={"o": ORDERS})
    png = ptc.render_chart(result.chart, tmp_path / "c.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 2000
    assert "<svg" in ptc.render_chart(result.value, tmp_path / "c.svg").read_text()
    page = ptc.render_chart(result.chart.spec, tmp_path / "c.html").read_text()
    assert "data:image/svg+xml;base64," in page and "http:" not in page and "https:" not in page
    with pytest.raises(ValueError, match="use one of .png, .svg, .html"):
        result.chart.save(tmp_path / "c.gif")
    bundle = result.chart._repr_mimebundle_()
    assert bundle["image/png"] and any(k.startswith("application/vnd.vegalite.v") for k in bundle)


def test_host_side_checks_refuse_what_a_program_could_not_build() -> None:
    with pytest.raises(ChartError, match="inline rows"):
        Chart({"mark": "bar", "data": {"url": "x.csv"}})
    with pytest.raises(ChartError, match="JSON-like"):
        check_spec({"mark": "bar", "data": {"values": []}, "title": object()})
    with pytest.raises(ChartError, match="bytes as JSON"):
        check_spec({"mark": "bar", "data": {"values": [{"a": "x" * 1_000_001}]}})


def test_agent_step_exposes_the_chart() -> None:
    from ptc.scenarios.demo import SCENARIOS

    step = SCENARIOS["chart"].agent().run()
    assert step.ok and step.chart is not None and step.chart.spec["mark"]["type"] == "line"
    assert json.loads(json.dumps(step.chart.spec)) == step.chart.spec


def test_without_the_charts_extra_errors_name_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import sys

    from ptc.charts import spec as spec_module

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "altair" else real_find_spec(name, *a))
    spec_module._validator.cache_clear()
    try:
        err = refused("(chart/bar [{:a 1 :b 2}] :a :b)")
        assert "pip install 'ptc-lisp[charts]'" in err.message
    finally:
        monkeypatch.undo()
        spec_module._validator.cache_clear()
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # an import of it fails
    chart = ptc.run("(chart/bar [{:a 1 :b 2}] :a :b)").chart
    with pytest.raises(ChartError, match=r"needs vl-convert-python: pip install 'ptc-lisp\[charts\]'"):
        chart.to_png()
    assert "image/png" not in chart._repr_mimebundle_()  # Jupyter still gets the Vega-Lite spec
