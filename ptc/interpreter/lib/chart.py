"""chart/: Vega-Lite charts built from rows inside the sandbox (the host renders them).

Each function returns a chart, the map {:vega-lite spec}, checked (inline data only, bounded,
valid against Vega-Lite's schema) before the program can return it. See docs/charts.md.
"""

from __future__ import annotations

import re
from typing import Any

from ...charts.spec import CHART_KEY, MAX_ROWS, ChartError, check_spec
from ..errors import runtime_error
from ..registry import builtin
from ..values import MAP_TYPES, from_python, iter_all, map_items, to_python
from .core_numbers import describe

NS = "chart"
_NOARG: Any = object()
_OPTIONS = ("title", "color", "width", "height", "x-title", "y-title")
_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
_HINT = "see docs/charts.md; a chart is (chart/bar rows :x-key :y-key {:title \"...\"})"


def _field(who: str, k: Any) -> str:
    name = to_python(k)
    if type(name) is not str or not name:
        raise runtime_error(f"{who}: a column is named by a keyword or a string, got {describe(k)}",
                            hint="e.g. (chart/bar rows :region :revenue)")
    return name


def _rows(who: str, rows: Any, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rows' values of `fields` only; a map {k v} is read as rows {x k, y v}."""
    out: list[dict[str, Any]] = []
    if isinstance(rows, MAP_TYPES) and len(fields) >= 2:
        pairs: Any = ((to_python(k), to_python(v)) for k, v in map_items(rows))
        rows_py: Any = ({fields[0]: k, fields[1]: v} for k, v in pairs)
    else:
        rows_py = (to_python(r) for r in iter_all(rows, who))
    for i, row in enumerate(rows_py):
        if i >= MAX_ROWS:
            raise runtime_error(f"{who}: more than {MAX_ROWS} rows", hint="aggregate or sample the rows first")
        if not isinstance(row, dict):
            raise runtime_error(f"{who}: rows must be maps, row {i} is {type(row).__name__}",
                                hint="pass a collection of maps, e.g. [{:region \"north\" :revenue 10}]")
        out.append({f: row.get(f) for f in fields})
    return out


def _kind(values: list[Any], ordered: bool) -> str:
    """quantitative (numbers), temporal (ISO dates) or nominal/ordinal (anything else)."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return "quantitative"
    if present and all(isinstance(v, str) and _DATE.match(v) for v in present):
        return "temporal"
    return "ordinal" if ordered else "nominal"


def _vl_field(name: str) -> str:
    """A column name as a Vega-Lite field (dots and brackets would mean nesting)."""
    return re.sub(r"([.\[\]\\])", r"\\\1", name)


def _options(who: str, opts: Any, allowed: tuple[str, ...] = _OPTIONS) -> dict[str, Any]:
    if opts is _NOARG or opts is None:
        return {}
    if not isinstance(opts, MAP_TYPES):
        raise runtime_error(f"{who}: options must be a map, got {describe(opts)}", hint=_HINT)
    out = to_python(opts)
    unknown = sorted(str(k) for k in out if k not in allowed)
    if unknown:
        raise runtime_error(f"{who}: unknown option {', '.join(':' + k for k in unknown)}",
                            hint="options: " + " ".join(":" + k for k in allowed))
    return dict(out)


def _finish(who: str, spec: dict[str, Any], opts: dict[str, Any]) -> Any:
    for key in ("title", "width", "height"):
        if key in opts:
            spec[key] = opts[key]
    spec.setdefault("width", 400)
    spec.setdefault("height", 250)
    try:
        check_spec(spec)
    except ChartError as e:
        raise runtime_error(f"{who}: {e}", hint=_HINT) from None
    return from_python({CHART_KEY: spec})


def _xy(who: str, mark: str, rows: Any, x: Any, y: Any, opts: Any, *, ordered_x: bool) -> Any:
    options = _options(who, opts)
    xf, yf = _field(who, x), _field(who, y)
    color = _field(who, options["color"]) if "color" in options else None
    fields = (xf, yf) + ((color,) if color else ())
    values = _rows(who, rows, fields)
    x_enc: dict[str, Any] = {"field": _vl_field(xf), "type": _kind([r[xf] for r in values], ordered_x),
                             "title": options.get("x-title", xf)}
    if x_enc["type"] in ("nominal", "ordinal"):
        x_enc["sort"] = None  # keep the rows' order: sort them in the program
    encoding: dict[str, Any] = {"x": x_enc, "y": {"field": _vl_field(yf), "type": _kind([r[yf] for r in values], True),
                                                  "title": options.get("y-title", yf)}}
    if color:
        encoding["color"] = {"field": _vl_field(color), "type": _kind([r[color] for r in values], False)}
    return _finish(who, {"mark": {"type": mark, "tooltip": True}, "data": {"values": values},
                         "encoding": encoding}, options)


_XY_ARGS = ("[rows x y]", "[rows x y opts]")
_XY_DOC = ("rows (maps, or a map read as {x-key y-key} pairs) with column x along the x axis and y up; "
           "opts: :title :color (a column) :width :height :x-title :y-title.")


@builtin("bar", ns=NS, args=_XY_ARGS, category="charts",
         doc="A bar chart of " + _XY_DOC + " Bars keep the rows' order.",
         ex=("(:mark (:vega-lite (chart/bar [{:k \"a\" :n 1} {:k \"b\" :n 3}] :k :n)))", "{:type \"bar\", :tooltip true}"))
def bar(rows: Any, x: Any, y: Any, opts: Any = _NOARG) -> Any:
    return _xy("chart/bar", "bar", rows, x, y, opts, ordered_x=False)


@builtin("line", ns=NS, args=_XY_ARGS, category="charts", doc="A line chart of " + _XY_DOC,
         ex=("(-> (chart/line [{:day \"2026-01-01\" :n 1}] :day :n) :vega-lite :encoding :x :type)", "\"temporal\""))
def line(rows: Any, x: Any, y: Any, opts: Any = _NOARG) -> Any:
    return _xy("chart/line", "line", rows, x, y, opts, ordered_x=True)


@builtin("area", ns=NS, args=_XY_ARGS, category="charts", doc="An area chart of " + _XY_DOC,
         ex=("(-> (chart/area {1 5, 2 7} :x :y) :vega-lite :data :values)", "[{:x 1, :y 5} {:x 2, :y 7}]"))
def area(rows: Any, x: Any, y: Any, opts: Any = _NOARG) -> Any:
    return _xy("chart/area", "area", rows, x, y, opts, ordered_x=True)


@builtin("scatter", ns=NS, args=_XY_ARGS, category="charts", doc="A scatter plot (points) of " + _XY_DOC,
         ex=("(-> (chart/scatter [{:a 1 :b 2}] :a :b {:title \"t\"}) :vega-lite :title)", "\"t\""))
def scatter(rows: Any, x: Any, y: Any, opts: Any = _NOARG) -> Any:
    return _xy("chart/scatter", "point", rows, x, y, opts, ordered_x=True)


@builtin("histogram", ns=NS, args=("[rows field]", "[rows field opts]"), category="charts",
         doc="A histogram: how many rows fall in each bin of the numeric column field; "
             "opts: :bins (at most that many, default 10) :title :width :height :x-title :y-title.",
         ex=("(-> (chart/histogram [{:p 1} {:p 9}] :p {:bins 5}) :vega-lite :encoding :x :bin)", "{:maxbins 5}"))
def histogram(rows: Any, field: Any, opts: Any = _NOARG) -> Any:
    who = "chart/histogram"
    options = _options(who, opts, ("bins", "title", "width", "height", "x-title", "y-title"))
    bins = options.get("bins", 10)
    if type(bins) is not int or not 1 <= bins <= 200:
        raise runtime_error(f"{who}: :bins must be an integer from 1 to 200, got {describe(bins)}")
    f = _field(who, field)
    encoding = {"x": {"field": _vl_field(f), "bin": {"maxbins": bins}, "type": "quantitative",
                      "title": options.get("x-title", f)},
                "y": {"aggregate": "count", "type": "quantitative", "title": options.get("y-title", "count")}}
    return _finish(who, {"mark": {"type": "bar", "tooltip": True}, "data": {"values": _rows(who, rows, (f,))},
                         "encoding": encoding}, options)


@builtin("spec", ns=NS, args="[vega-lite-map]", category="charts",
         doc="A chart from a Vega-Lite spec map, with its rows inline in :data {:values rows} "
             "(no :url, no links or images).",
         ex=("(-> (chart/spec {:mark \"tick\" :data {:values [{:a 1}]} :encoding {:x {:field \"a\" "
             ":type \"quantitative\"}}}) :vega-lite :mark)", "\"tick\""))
def spec(m: Any) -> Any:
    if not isinstance(m, MAP_TYPES):
        raise runtime_error(f"chart/spec: expected a Vega-Lite map, got {describe(m)}", hint=_HINT)
    return _finish("chart/spec", dict(to_python(m)), {})
