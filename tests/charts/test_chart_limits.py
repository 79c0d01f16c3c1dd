"""Charts that would stop or exhaust the host: refused by the check, or drawn by a worker
process whose crash, memory or time overrun is an error, never the host's death."""

from __future__ import annotations

import pytest

import ptc
from ptc.charts import Chart, ChartError, check_spec
from ptc.charts import render as worker
from ptc.charts.spec import MAX_NODES, MAX_ROWS

pytest.importorskip("vl_convert")
pytest.importorskip("jsonschema")


def spec(**extra: object) -> dict[str, object]:
    base: dict[str, object] = {"mark": "bar", "data": {"values": [{"a": "x", "b": 2}, {"a": "y", "b": 3}]},
                               "encoding": {"x": {"field": "a", "type": "nominal"},
                                            "y": {"field": "b", "type": "quantitative"}}}
    base.update(extra)
    return base


@pytest.mark.parametrize("text", ["bell\x07", "nul\x00", "esc\x1b[31m", "bad\ufffe"])
def test_control_characters_are_dropped_and_the_chart_drawn(text: str) -> None:
    chart = Chart(spec(title=text, data={"values": [{"a": text, "b": 1}]}))
    svg = chart.to_svg()
    assert svg.startswith("<svg") and text[:3] in svg
    assert chart.to_png()[:8] == b"\x89PNG\r\n\x1a\n"


def test_control_characters_in_a_program_chart_render_from_the_cli(tmp_path: object) -> None:
    r = ptc.run('(chart/bar [{:k "a\u0001" :n 1}] :k :n)')
    out = r.chart.save(f"{tmp_path}/c.svg")
    assert out.read_text().startswith("<svg")


@pytest.mark.parametrize("extra, says", [
    ({"width": 1_000_000_000, "height": 1_000_000_000}, "width 1e+09 is too large"),
    ({"config": {"view": {"continuousWidth": 50_000}}}, "continuousWidth 50000 is too large"),
    ({"encoding": {"x": {"field": "a", "type": "nominal"}}, "width": {"step": 90_000}}, "step 90000 is too large"),
    ({"transform": [{"calculate": "sequence(0, 30000000)", "as": "s"}]}, "generate data or text"),
    ({"transform": [{"calculate": "pad('', 1e9)", "as": "s"}]}, "generate data or text"),
    ({"transform": [{"flatten": ["s"]}]}, "'flatten' transform is not allowed"),
    ({"transform": [{"impute": "b", "key": "a", "keyvals": {"start": 0, "stop": 30_000_000}}]},
     "keyvals must be a list"),
    ({"transform": [{"density": "b", "steps": 10_000_000}]}, "steps 1e+07 is too large"),
    ({"mark": {"type": "bar", "color": "url(http://127.0.0.1:9/x)"}}, "CSS that fetches"),
    ({"mark": {"type": "bar", "color": "red url(http://127.0.0.1:9/x)"}}, "CSS that fetches"),
    ({"mark": {"type": "bar", "color": "\\75 rl(http://127.0.0.1:9/x)"}}, "CSS that fetches"),
    ({"data": {"values": [{"a": "URL( //127.0.0.1:9/x)", "b": 1}]}}, "CSS that fetches"),
])
def test_specs_that_would_exhaust_or_reach_out_are_refused(extra: dict[str, object], says: str) -> None:
    with pytest.raises(ChartError, match=says.replace("(", r"\(").replace("+", r"\+")):
        check_spec(spec(**extra))


def test_the_same_refusal_reaches_the_program() -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run('(chart/spec {:mark "bar" :width 1000000000 :data {:values [{:a 1}]} '
                ':encoding {:x {:field "a" :type "quantitative"}}})')
    assert "too large" in e.value.message


def test_png_scale_is_bounded() -> None:
    with pytest.raises(ChartError, match="scale"):
        Chart(spec()).to_png(scale=500)


def test_a_renderer_crash_is_an_error_and_the_next_render_works(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "xml_safe", lambda x: x)  # let a character SVG cannot hold through
    with pytest.raises(ChartError, match="renderer crashed"):
        Chart(spec(title="bell\x07")).to_svg()
    monkeypatch.undo()
    assert Chart(spec()).to_svg().startswith("<svg")


def test_a_render_over_its_memory_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    Chart(spec()).to_svg()  # a warm worker
    monkeypatch.setattr(worker, "RENDER_MEMORY", 1 << 20)
    with pytest.raises(ChartError, match="needs more than 1 MB"):
        Chart(spec()).to_png()
    monkeypatch.undo()
    assert Chart(spec()).to_png()[:4] == b"\x89PNG"


@pytest.mark.timing
def test_a_render_over_its_time_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "RENDER_TIMEOUT", 0.0)
    with pytest.raises(ChartError, match="took more than"):
        Chart(spec()).to_svg()


def test_a_spec_past_its_size_bound_is_refused_before_the_schema_check() -> None:
    """12,000 views (issue 43: 27 s and 1 GB in the schema check at timeout=1) are refused by
    their count, before the check reads them."""
    views = [{"mark": "bar", "encoding": {"x": {"field": "a", "type": "nominall"}}}] * 12_000
    with pytest.raises(ChartError, match=f"more than {MAX_NODES} values outside its data rows"):
        check_spec({"data": {"values": []}, "layer": views})
    check_spec({"data": {"values": [{"a": i} for i in range(MAX_ROWS)]}, "mark": "bar",  # rows do not count
                "encoding": {"x": {"field": "a", "type": "quantitative"}}})


@pytest.mark.parametrize("spec_", [
    spec(), spec(mark="bars"), spec(encoding={"x": {"field": "a", "type": "nominall"}}),
    spec(transform=[{"calculat": "1", "as": "x"}] * 50), spec(transform=[{"calculate": "1", "as": "x"}] * 50),
    {"data": {"values": []}, "layer": [spec(data={"values": []})] * 20 + [spec(mark=1)]},
    {"data": {"values": []}, "hconcat": [{"vconcat": [spec(data={"values": []})] * 3}] * 3},
    spec(params=[{"name": "p", "select": {"type": "x"}}]), spec(width="big"), {"data": {"values": []}},
], ids=range(10))
def test_the_schema_check_says_what_jsonschema_says(spec_: dict[str, object]) -> None:
    """The check's alternatives stop at their first error (the invalid views of a big spec cost
    what its first invalid view costs) and give jsonschema's own verdict."""
    import json

    import jsonschema

    from ptc.charts.spec import schema_path

    schema = json.loads(schema_path().read_text())
    skeleton = {**spec_, "data": {"values": []}}
    valid = jsonschema.validators.validator_for(schema)(schema).is_valid(skeleton)
    try:
        check_spec(spec_)
        checked = True
    except ChartError as e:
        assert "not a valid Vega-Lite spec" in str(e)
        checked = False
    assert checked == valid
