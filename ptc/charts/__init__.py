"""Charts as data: a program builds a Vega-Lite spec (`chart/bar`...), the host renders it.

A chart is a map `{:vega-lite spec}` (its :vega-lite key holds a map). A run's answer holds charts when its value is one, or
when it is a map or vector with charts among its first items (`{:total 42 :chart (chart/bar
...)}`). Every chart is checked (`spec.check_spec`) when a chart function builds it and again
when the program returns it, so what reaches the host is safe to render. Rendering needs
vl-convert-python (`pip install 'ptc-lisp[charts]'`), no browser.

    result = ptc.run('(chart/bar data/sales :region :revenue)', data=...)
    result.chart.save("sales.png")          # or .svg / .html
    ptc.render_chart(result.chart, "sales.svg")
"""

from __future__ import annotations

import base64
import functools
import html
from itertools import islice
from pathlib import Path
from typing import Any

from ..interpreter.values import VECTOR_TYPES, FMap, HMap, PList, first_values, keyword, to_python
from .spec import CHART_KEY, EXTRA, ChartError, check_spec, vega_lite_major

__all__ = ["Chart", "ChartError", "charts_in", "render_chart", "check_spec"]

SCAN = 20  # how many items of a returned map or vector are looked at for charts
FORMATS = (".png", ".svg", ".html")


class Chart:
    """A checked Vega-Lite spec, renderable to PNG, SVG or a self-contained HTML page."""

    def __init__(self, spec: Any) -> None:
        if isinstance(spec, Chart):
            spec = spec.spec
        if isinstance(spec, dict) and CHART_KEY in spec:  # {:vega-lite spec ...}
            spec = spec[CHART_KEY]
        self.spec: dict[str, Any] = check_spec(spec)

    @property
    def title(self) -> str:
        title = self.spec.get("title")
        if isinstance(title, dict):
            title = title.get("text")
        if isinstance(title, str):
            return title
        mark = self.spec.get("mark")
        mark = mark.get("type") if isinstance(mark, dict) else mark
        return f"{mark} chart" if isinstance(mark, str) else "chart"

    def to_svg(self) -> str:
        return _draw("svg", self.spec).decode("utf-8")

    def to_png(self, scale: float = 1.0) -> bytes:
        if not 0 < scale <= MAX_SCALE:
            raise ChartError(f"a PNG's scale must be above 0 and at most {MAX_SCALE:g}, got {scale:g}")
        return _draw("png", self.spec, scale)

    def to_html(self) -> str:
        """A page holding the chart as an image: no script, no external URL, and a policy that
        lets the browser load nothing but the page's own data: image."""
        title = html.escape(self.title)
        return (f"<!doctype html><html><head><meta charset='utf-8'>"
                f"<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; img-src data:\">"
                f"<title>{title}</title></head><body>{self.img_tag()}</body></html>\n")

    def img_tag(self) -> str:
        """The chart as an `<img>` with an SVG data URI (an image cannot run script)."""
        data = base64.b64encode(self.to_svg().encode()).decode()
        return f"<img alt='{html.escape(self.title, quote=True)}' src='data:image/svg+xml;base64,{data}'>"

    def save(self, path: str | Path) -> Path:
        """Write the chart; the format comes from the suffix (.png, .svg or .html)."""
        p = Path(path)
        suffix = p.suffix.lower()
        if suffix == ".png":
            p.write_bytes(self.to_png(scale=2.0))
        elif suffix == ".svg":
            p.write_text(self.to_svg(), encoding="utf-8")
        elif suffix == ".html":
            p.write_text(self.to_html(), encoding="utf-8")
        else:
            raise ValueError(f"cannot tell the chart format from {p.name!r}: use one of {', '.join(FORMATS)}")
        return p

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {"text/plain": repr(self),
                                  f"application/vnd.vegalite.v{vega_lite_major()}+json": self.spec}
        try:
            bundle["image/png"] = base64.b64encode(self.to_png()).decode()
        except ChartError:
            pass  # no vl-convert: front-ends that know Vega-Lite still draw it
        return bundle

    def _repr_html_(self) -> str:
        return self.img_tag()

    def __repr__(self) -> str:
        return f"<Chart {self.title!r}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chart) and other.spec == self.spec

    __hash__ = None  # type: ignore[assignment]


def charts_in(value: Any) -> list[Chart]:
    """The charts a program's value holds (PTC or plain Python): the value itself, or among
    the first items of a map or vector. A chart that fails its check raises ChartError."""
    return [Chart(to_python(m)) for m in _chart_maps(value)]


def check_returned(value: Any) -> None:
    """Refuse a program's value whose charts fail their check (the program sees the error).
    Called on every run's value: a value that is not a map or a vector costs one type test."""
    t = type(value)
    if t not in _MAPS and t not in _SEQUENCES:
        return
    try:
        charts_in(value)
    except ChartError as e:
        from ..interpreter.errors import runtime_error

        raise runtime_error(f"the chart in the result was refused: {e}",
                            hint="build charts with chart/bar, chart/line... or chart/spec (docs/charts.md)") from None


_KEY = keyword(CHART_KEY)
_MAPS = (dict, FMap, HMap)  # a sorted map cannot hold the key (its keys compare with each other)
_SEQUENCES = (*VECTOR_TYPES, PList)


def _is_chart(x: Any) -> bool:
    """A map whose :vega-lite key holds a map."""
    t = type(x)
    if t is dict:
        return type(x.get(CHART_KEY)) in _MAPS
    return (t is FMap or t is HMap) and type(x.get(_KEY)) in _MAPS


def _chart_maps(value: Any) -> list[Any]:
    if _is_chart(value):
        return [value]
    t = type(value)
    if t in _MAPS:
        items: Any = first_values(value, SCAN)
    elif t in _SEQUENCES:
        items = islice(value, SCAN)
    else:
        return []
    return [x for x in items if _is_chart(x)]


def render_chart(chart: Any, path: str | Path) -> Path:
    """Write `chart` (a Chart, a `{:vega-lite spec}` value, or a spec dict) to path (.png/.svg/.html)."""
    if not isinstance(chart, Chart):
        chart = Chart(to_python(chart))
    return chart.save(path)


MAX_SCALE = 4.0  # a PNG's scale: with the spec's bounded size, a bounded canvas


def _draw(fmt: str, spec: dict[str, Any], scale: float = 1.0) -> bytes:
    """The spec drawn by the render worker (ptc.charts.render), in the newest Vega-Lite that
    vl-convert has in the major version specs are checked against."""
    from . import render as worker

    return worker.render(spec, fmt, scale, _version())


def _version() -> str | None:
    try:
        import vl_convert
    except ImportError:
        raise ChartError(f"rendering charts needs vl-convert-python: {EXTRA}") from None
    return _newest(tuple(vl_convert.get_vegalite_versions()), str(vega_lite_major()))


@functools.lru_cache(maxsize=4)
def _newest(versions: tuple[str, ...], major: str) -> str | None:
    mine = [v for v in versions if v.split(".")[0] == major]
    return max(mine, key=lambda v: tuple(int(p) for p in v.split("."))) if mine else None
