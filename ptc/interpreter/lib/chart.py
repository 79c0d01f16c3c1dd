"""chart/: Vega-Lite charts built from rows inside the sandbox (the host renders them).

Each function returns a chart, the map {:vega-lite spec}, checked (inline data only, bounded,
valid against Vega-Lite's schema) before the program can return it. See docs/charts.md.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...charts.spec import CHART_KEY, MAX_ROWS, ChartError, check_spec
from .. import context
from ..errors import runtime_error
from ..registry import builtin
from ..values import MAP_TYPES, from_python, iter_all, keyword, lookup, map_items, to_python
from .core_numbers import describe

NS = "chart"
_NOARG: Any = object()
_OPTIONS = ("title", "color", "width", "height", "x-title", "y-title", "zero", "x", "y")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
_HINT = "see docs/charts.md; a chart is (chart/bar rows :x-key :y-key {:title \"...\"})"


def _field(who: str, k: Any) -> str:
    name = to_python(k)
    if type(name) is not str or not name:
        raise runtime_error(f"{who}: a column is named by a keyword or a string, got {describe(k)}",
                            hint="e.g. (chart/bar rows :region :revenue)")
    return name


def _count(rows: Any) -> int | None:
    return len(rows) if hasattr(rows, "__len__") and not isinstance(rows, MAP_TYPES) else None


def _sampled(rows: Any, limit: int = MAX_ROWS) -> tuple[Any, int | None]:
    """At most `limit` rows evenly spaced through `rows` (the same rows on every run), and the
    count they were taken from (None when all are kept)."""
    n = _count(rows)
    if n is None or n <= limit:
        return rows, None
    step = n / limit
    return [rows[int(i * step)] for i in range(limit)], n


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


def _temporal(values: list[Any]) -> dict[str, Any]:
    """A temporal axis: months ("2026-01") labelled as months, not as the year January starts."""
    present = [v for v in values if v is not None]
    if present and all(_MONTH.match(v) for v in present):
        return {"type": "temporal", "timeUnit": "yearmonth", "axis": {"format": "%b %Y"}}
    return {"type": "temporal"}


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


def _finish(who: str, spec: dict[str, Any], opts: dict[str, Any], note: str | None = None) -> Any:
    for key in ("title", "width", "height"):
        if key in opts:
            spec[key] = opts[key]
    if note is not None:  # what the chart shows of the rows (sampled, binned), said on the chart
        spec["title"] = {"text": spec.get("title", ""), "subtitle": note}
    spec.setdefault("width", 400)
    spec.setdefault("height", 250)
    try:
        check_spec(spec)
    except ChartError as e:
        raise runtime_error(f"{who}: {e}", hint=_HINT) from None
    return from_python({CHART_KEY: spec})


def _axes(who: str, x: Any, y: Any, opts: Any) -> tuple[Any, Any, dict[str, Any]]:
    """(x, y, options) from positional columns, or from one options map holding :x and :y
    (`(chart/bar rows {:x :k :y :n})`: a model writes either)."""
    if isinstance(x, MAP_TYPES) and y is _NOARG and opts is _NOARG:
        options = _options(who, x)
        if "x" not in options or "y" not in options:
            raise runtime_error(f"{who}: an options map in place of the columns needs :x and :y", hint=_HINT)
        return options.pop("x"), options.pop("y"), options
    if y is _NOARG:
        raise runtime_error(f"{who}: give the x and y columns, (chart ... rows :x-key :y-key), or {{:x :k :y :n}}",
                            hint=_HINT)
    options = _options(who, opts)
    for key in ("x", "y"):
        if key in options:
            raise runtime_error(f"{who}: :{key} is given twice (as a column and in the options)", hint=_HINT)
    return x, y, options


def _xy(who: str, mark: str, rows: Any, x: Any, y: Any, opts: Any, *, ordered_x: bool, sample: bool = False) -> Any:
    x, y, options = _axes(who, x, y, opts)
    xf, yf = _field(who, x), _field(who, y)
    color = _field(who, options["color"]) if "color" in options else None
    fields = (xf, yf) + ((color,) if color else ())
    shown, total = _sampled(rows) if sample else (rows, None)
    values = _rows(who, shown, fields)
    note = f"{len(values):,} of {total:,} rows, evenly spaced" if total is not None else None
    zero = options.get("zero", not sample)  # points: the axes span the data unless :zero true
    encoding: dict[str, Any] = {}
    for axis, name, ordered in (("x", xf, ordered_x), ("y", yf, True)):
        kind = _kind([r[name] for r in values], ordered)
        enc: dict[str, Any] = {"field": _vl_field(name), "type": kind, "title": options.get(f"{axis}-title", name)}
        if kind == "temporal":
            enc.update(_temporal([r[name] for r in values]))
        elif kind == "quantitative" and not zero:
            enc["scale"] = {"zero": False}
        elif axis == "x" and kind in ("nominal", "ordinal"):
            enc["sort"] = None  # keep the rows' order: sort them in the program
        encoding[axis] = enc
    if color:
        encoding["color"] = {"field": _vl_field(color), "type": _kind([r[color] for r in values], False)}
    return _finish(who, {"mark": {"type": mark, "tooltip": True}, "data": {"values": values},
                         "encoding": encoding}, options, note)


_XY_ARGS = ("[rows opts]", "[rows x y]", "[rows x y opts]")
_XY_DOC = ("rows (maps, or a map read as {x-key y-key} pairs) with column x along the x axis and y up; "
           "opts: :title :color (a column) :width :height :x-title :y-title :zero (quantitative axes start at 0); "
           "the columns may be given in opts instead, {:x :k :y :n}.")


@builtin("bar", ns=NS, args=_XY_ARGS, category="charts",
         doc="A bar chart of " + _XY_DOC + " Bars keep the rows' order.",
         ex=("(:mark (:vega-lite (chart/bar [{:k \"a\" :n 1} {:k \"b\" :n 3}] :k :n)))", "{:type \"bar\", :tooltip true}"))
def bar(rows: Any, x: Any, y: Any = _NOARG, opts: Any = _NOARG) -> Any:
    return _xy("chart/bar", "bar", rows, x, y, opts, ordered_x=False)


@builtin("line", ns=NS, args=_XY_ARGS, category="charts", doc="A line chart of " + _XY_DOC,
         ex=("(-> (chart/line [{:day \"2026-01-01\" :n 1}] :day :n) :vega-lite :encoding :x :type)", "\"temporal\""))
def line(rows: Any, x: Any, y: Any = _NOARG, opts: Any = _NOARG) -> Any:
    return _xy("chart/line", "line", rows, x, y, opts, ordered_x=True)


@builtin("area", ns=NS, args=_XY_ARGS, category="charts", doc="An area chart of " + _XY_DOC,
         ex=("(-> (chart/area {1 5, 2 7} :x :y) :vega-lite :data :values)", "[{:x 1, :y 5} {:x 2, :y 7}]"))
def area(rows: Any, x: Any, y: Any = _NOARG, opts: Any = _NOARG) -> Any:
    return _xy("chart/area", "area", rows, x, y, opts, ordered_x=True)


@builtin("scatter", ns=NS, args=_XY_ARGS, category="charts",
         doc="A scatter plot (points) of " + _XY_DOC + " Over more than 5,000 rows, 5,000 evenly spaced ones "
             "are drawn and the chart says so; the axes span the data (not from 0) unless :zero true.",
         ex=("(-> (chart/scatter [{:a 1 :b 2}] :a :b {:title \"t\"}) :vega-lite :title)", "\"t\""))
def scatter(rows: Any, x: Any, y: Any = _NOARG, opts: Any = _NOARG) -> Any:
    return _xy("chart/scatter", "point", rows, x, y, opts, ordered_x=True, sample=True)


@builtin("histogram", ns=NS, args=("[rows field]", "[rows field opts]"), category="charts",
         doc="A histogram: how many rows fall in each bin of the numeric column field, binned in the sandbox "
             "(any number of rows: only the bins are sent); opts: :bins (at most that many, default 10) :title "
             ":width :height :x-title :y-title.",
         ex=("(-> (chart/histogram [{:p 1} {:p 9}] :p {:bins 5}) :vega-lite :data :values count)", "5"))
def histogram(rows: Any, field: Any, opts: Any = _NOARG) -> Any:
    who = "chart/histogram"
    options = _options(who, opts, ("bins", "title", "width", "height", "x-title", "y-title"))
    bins = options.get("bins", 10)
    if type(bins) is not int or not 1 <= bins <= 200:
        raise runtime_error(f"{who}: :bins must be an integer from 1 to 200, got {describe(bins)}")
    f = _field(who, field)
    numbers = _numbers(who, rows, f)
    table = _bin(numbers, bins)
    skipped = _count(rows)
    note = f"{len(numbers):,} values" + (f" ({skipped - len(numbers):,} nil left out)"
                                           if skipped is not None and skipped > len(numbers) else "")
    encoding = {"x": {"field": "bin_start", "bin": {"binned": True, "step": table[0]["bin_end"] - table[0]["bin_start"]}
                      if table else {"binned": True}, "type": "quantitative", "title": options.get("x-title", f)},
                "x2": {"field": "bin_end"},
                "y": {"field": "count", "type": "quantitative", "title": options.get("y-title", "count")}}
    return _finish(who, {"mark": {"type": "bar", "tooltip": True}, "data": {"values": table},
                         "encoding": encoding}, options, note)


def _numbers(who: str, rows: Any, f: str) -> list[float]:
    """The column's numbers (nils left out), read a block at a time with the clock checked: a
    histogram is the chart of a big column."""
    from ..table import Table

    k = keyword(f)
    if type(rows) is Table:
        values: Any = rows.values_of(k) if k in rows.keys else rows.values_of(f)
    else:
        values = (_cell(r, k, f) for r in iter_all(rows, who))
    out: list[float] = []
    for i, v in enumerate(values):
        if (i & 65535) == 65535:
            context.check_deadline()
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise runtime_error(f"{who}: {f} must hold numbers, got {describe(v)}",
                                hint="a histogram counts a numeric column; use chart/bar for categories")
        if v == v and v not in (math.inf, -math.inf):
            out.append(v)
    context.check_size(len(out), "histogram values")
    return out


def _cell(row: Any, k: Any, f: str) -> Any:
    """The row's value under the keyword k, else under the text f."""
    if not isinstance(row, MAP_TYPES):
        raise runtime_error(f"chart/histogram: rows must be maps, got {describe(row)}")
    v = lookup(row, k, _NOARG)
    return lookup(row, f) if v is _NOARG else v


def _bin(values: list[float], maxbins: int) -> list[dict[str, Any]]:
    """Bins of a "nice" width (1, 2 or 5 times a power of ten, as Vega's own) covering the
    values in at most `maxbins` bins: [{bin_start bin_end count}]."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    span = hi - lo
    if span == 0:
        step = 1.0 if lo == int(lo) else abs(lo) / 10 or 1.0
    else:
        raw = span / maxbins
        power = 10 ** math.floor(math.log10(raw))
        step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(lo / step) * step
    n = max(1, math.ceil((hi - start) / step + (1e-9 if span else 1)))
    while n > maxbins and span:  # rounding put one value past the last bin
        step *= 2
        start = math.floor(lo / step) * step
        n = max(1, math.ceil((hi - start) / step))
    counts = [0] * (n + 1)
    for v in values:
        counts[min(int((v - start) // step), n - 1) if v < start + n * step else n - 1] += 1
    return [{"bin_start": _round(start + i * step), "bin_end": _round(start + (i + 1) * step), "count": counts[i]}
            for i in range(n)]


def _round(x: float) -> float | int:
    r = round(x, 10)
    return int(r) if r == int(r) else r


@builtin("spec", ns=NS, args="[vega-lite-map]", category="charts",
         doc="A chart from a Vega-Lite spec map, with its rows inline in :data {:values rows} "
             "(no :url, no links or images).",
         ex=("(-> (chart/spec {:mark \"tick\" :data {:values [{:a 1}]} :encoding {:x {:field \"a\" "
             ":type \"quantitative\"}}}) :vega-lite :mark)", "\"tick\""))
def spec(m: Any) -> Any:
    if not isinstance(m, MAP_TYPES):
        raise runtime_error(f"chart/spec: expected a Vega-Lite map, got {describe(m)}", hint=_HINT)
    return _finish("chart/spec", dict(to_python(m)), {})
