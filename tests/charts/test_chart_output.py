"""A saved chart references nothing outside itself, whatever its spec computed (issue 43,
docs/security.md): a Vega expression builds text the spec check never sees (`'u' + 'rl(...)'`),
so the renderer's SVG is rebuilt without what could fetch, the PNG is drawn from that SVG, and
the expression bans read an expression as Vega parses it (its escapes decoded)."""

from __future__ import annotations

import base64
import http.server
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

import ptc
from ptc.charts import Chart, ChartError, check_spec
from ptc.charts import render as worker
from ptc.charts.output import self_contained_svg

vl_convert = pytest.importorskip("vl_convert")
pytest.importorskip("jsonschema")

ROWS = [{"a": "x", "b": 2}, {"a": "y", "b": 3}]
ENCODING = {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}
OUTSIDE = "http://127.0.0.1:9/"
# a reference out of the document: url( to anything but #id, or an href/src not starting with #
_REACHES_OUT = re.compile(r"""url\(\s*['"]?(?!#)|(?:href|src)\s*=\s*['"](?!#)""", re.I)


def spec(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"data": {"values": ROWS}, "mark": "bar", "encoding": dict(ENCODING)}
    base.update(extra)
    return base


def computed(path: str, before: str = "") -> dict[str, str]:
    """A Vega expression whose value is a CSS url( the spec check cannot see."""
    return {"expr": f"'{before}u' + 'rl({OUTSIDE}{path})'"}


# each draws an outside url( into a different attribute of the raw SVG (fill, stroke,
# font-family, style, stroke-dasharray, aria-label...)
COMPUTED = {
    "colour": spec(encoding={**ENCODING, "color": {"value": computed("fill")}}),
    "stroke": spec(mark={"type": "bar", "stroke": computed("stroke")}),
    "background": spec(background=computed("background")),
    "font": spec(mark={"type": "text", "font": computed("font", "x; fill: ")},
                 encoding={**ENCODING, "text": {"field": "a"}}),
    "calculated-field": spec(transform=[{"calculate": computed("field")["expr"], "as": "c"}],
                             encoding={**ENCODING, "color": {"field": "c", "type": "nominal", "scale": None}}),
    "view-stroke": spec(config={"view": {"stroke": computed("view")}}),
    "title": spec(title={"text": "t", "color": computed("title")}),
    "axis-labels": spec(encoding={**ENCODING, "x": {**ENCODING["x"], "axis": {"labelColor": computed("axis")}}}),
    "blend-style": spec(mark={"type": "bar", "blend": computed("blend", "normal; background: ")}),
    "stroke-dash": spec(mark={"type": "bar", "strokeDash": computed("dash")}),
    "description": spec(mark={"type": "bar", "description": computed("description")}),
}


@pytest.mark.parametrize("name", COMPUTED)
def test_a_computed_url_never_reaches_the_saved_chart(name: str, tmp_path: Path) -> None:
    chart = Chart(COMPUTED[name])  # the spec check passes it: the url exists only once Vega runs
    raw = vl_convert.vegalite_to_svg(chart.spec)
    assert _REACHES_OUT.search(raw), "the renderer no longer draws this url: the case tests nothing"
    svg = chart.to_svg()
    assert not _REACHES_OUT.search(svg), svg[:2000]
    assert svg.startswith("<svg") and "mark-" in svg  # still the chart, its marks drawn
    page = chart.save(tmp_path / "c.html").read_text()
    image = re.search(r"src='data:image/svg\+xml;base64,([^']*)'", page)
    assert image is not None and base64.b64decode(image[1]).decode() == svg
    assert "default-src 'none'" in page and not _REACHES_OUT.search(page.replace(image[0], ""))


def test_the_renderer_loads_nothing_even_for_what_the_check_refuses() -> None:
    """The worker, given what the check would refuse (an image mark, a data URL), draws and
    fetches nothing outside: the PNG is drawn from the rebuilt SVG, no base URL is allowed."""
    with _Listener() as listener:
        image = {"data": {"values": [{"u": f"{listener.url}img.png"}]}, "mark": "image", "width": 50, "height": 50,
                 "encoding": {"url": {"field": "u"}, "x": {"value": 10}, "y": {"value": 10}}}
        svg = worker.render(image, "svg").decode()
        assert "<image" not in svg and "img.png" not in svg.replace("aria-label", "")
        assert worker.render(image, "png")[:4] == b"\x89PNG"
        with pytest.raises(ChartError, match="not allowed"):
            worker.render({"data": {"url": f"{listener.url}d.json"}, "mark": "point"}, "svg")
    assert listener.requests == []


@pytest.mark.parametrize("kept", [
    '<defs><clipPath id="c1"><rect width="5" height="5"/></clipPath></defs><g clip-path="url(#c1)"/>',
    '<rect fill="url(#gradient_0)" style="mix-blend-mode: multiply"/>',
    '<a xlink:href="#mark"><text>see url(http://x) written as text</text></a>',
    '<text font-family="sans-serif" aria-label="a &lt;b&gt; &amp; c">x &lt; y</text>',
])
def test_what_draws_is_kept_as_it_is(kept: str) -> None:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">{kept}</svg>'
    assert self_contained_svg(svg) == svg


@pytest.mark.parametrize("outside, left", [
    ('<rect fill="url(http://h/x)"/>', "<rect/>"),
    ('<rect fill="URL( \'//h/x\' )"/>', "<rect/>"),
    ('<rect fill="\\75 rl(http://h/x)"/>', "<rect/>"),  # a CSS escape
    ('<rect fill="&#117;rl(http://h/x)"/>', "<rect/>"),  # an XML character reference
    ('<rect fill="url(#ok) url(http://h/x)"/>', "<rect/>"),
    ('<rect style="fill: red; background: image-set(\'http://h/x\' 1x)"/>', "<rect/>"),
    ('<rect style="@import \'http://h/x\'"/>', "<rect/>"),
    ('<a href="http://h/x" xlink:href="javascript:alert(1)"><rect/></a>', "<a><rect/></a>"),
    ('<g xml:base="http://h/"><rect onload="fetch(1)" onclick="x"/></g>', "<g><rect/></g>"),
    ('<image xlink:href="http://h/x.png"/><rect/>', "<rect/>"),
    ('<use href="other.svg#a"/><script>fetch(1)</script><style>@import "x"</style>', ""),
    ('<foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="http://h/x"/></foreignObject>', ""),
    ('<set attributeName="href" to="http://h/x"/><animate attributeName="fill" to="url(http://h/x)"/>', ""),
    ('<?xml-stylesheet href="http://h/x.css"?><!-- url(http://h/x) --><rect/>', "<rect/>"),
    ('<h:rect xmlns:h="urn:other" fill="red"/><rect h:fill="x" xmlns:h="urn:other"/>', "<rect/>"),
])
def test_what_reaches_outside_is_left_out(outside: str, left: str) -> None:
    head = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
    assert self_contained_svg(f"{head}{outside}</svg>") == f"{head}{left}</svg>"


def test_every_kind_of_chart_is_drawn_unchanged() -> None:
    """What Vega draws with (marks, gradients, clip paths, multi-line text, facets) is kept:
    the rebuilt SVG is the renderer's, byte for byte."""
    gradient = {"gradient": "linear", "stops": [{"offset": 0, "color": "white"}, {"offset": 1, "color": "green"}]}
    text = {**ENCODING, "text": {"field": "a"}}
    specs = [spec(mark={"type": m, "tooltip": True}, title={"text": ["two", "lines"], "subtitle": "s"})
             for m in ("bar", "line", "area", "point", "tick", "rect", "rule", "trail")]
    specs += [spec(mark="boxplot"), spec(mark="errorbar"),spec(mark={"type": "text", "angle": 30, "limit": 20}, encoding=text),
              spec(mark={"type": "arc"}, encoding={"theta": {"field": "b", "type": "quantitative"},
                                                    "color": {"field": "a"}}),
              spec(mark={"type": "bar", "color": gradient, "clip": True, "cornerRadius": 3}),
              spec(mark={"type": "bar", "color": {**gradient, "gradient": "radial"}}),
              {"data": {"values": ROWS}, "facet": {"row": {"field": "a"}}, "spec": {"mark": "point", "encoding": ENCODING}},
              {"data": {"values": ROWS}, "hconcat": [{"mark": "bar", "encoding": ENCODING},
                                                     {"mark": "line", "encoding": ENCODING}]}]
    for s in specs:
        raw = vl_convert.vegalite_to_svg(check_spec(s))
        assert self_contained_svg(raw) == raw, s


@pytest.mark.parametrize("expression", [
    "sequ\\u0065nce(0, 30000000)",  # a name escaped as Vega's parser reads it
    "\\u0073equence(0, 30000000)",
    "p\\u0061d('', 1e9)",
    "(sequence)(0, 30000000)",  # a parenthesized name is still the callee
    "sequence\ufeff(0, 30000000)",  # JavaScript white space Python's \\s does not hold
    "length(sequence\u00a0(0, 30000000))",
])
def test_escaped_or_wrapped_generating_calls_are_refused(expression: str) -> None:
    with pytest.raises(ChartError, match="generate data or text"):
        check_spec(spec(transform=[{"calculate": expression, "as": "s"}]))


@pytest.mark.parametrize("text", ["'\\x75rl(http://h/x)'", "'\\u0075rl(http://h/x)'", "'\\u{75}rl(http://h/x)'"])
def test_an_escaped_url_in_an_expression_is_refused(text: str) -> None:
    with pytest.raises(ChartError, match="CSS that fetches"):
        check_spec(spec(encoding={**ENCODING, "color": {"value": {"expr": text}}}))


def test_an_escaped_refusal_reaches_the_program() -> None:
    with pytest.raises(ptc.PTCError, match="generate data or text"):
        ptc.run('(chart/spec {:mark "bar" :data {:values [{:a 1}]} '
                ':transform [{:calculate "sequ\\\\u0065nce(0, 3e7)" :as "s"}] '
                ':encoding {:x {:field "a" :type "quantitative"}}})')


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_chromium_opening_the_saved_chart_requests_nothing(tmp_path: Path) -> None:
    with _Listener() as listener:
        hostile = spec(encoding={**ENCODING, "color": {"value": {"expr": f"'u' + 'rl({listener.url}fill)'"}}},
                       background={"expr": f"'u' + 'rl({listener.url}background)'"})
        chart = Chart(hostile)
        raw = tmp_path / "raw.svg"  # the renderer's own SVG: what was saved before (the control)
        raw.write_text(vl_convert.vegalite_to_svg(chart.spec))
        _open(raw, tmp_path)
        assert listener.requests, "chromium fetched nothing from the raw SVG: the test cannot see a fetch"
        listener.requests.clear()
        for name in ("c.svg", "c.html", "c.png"):
            _open(chart.save(tmp_path / name), tmp_path)
    assert listener.requests == []


def _open(path: Path, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}",
                    "--virtual-time-budget=2000", "--dump-dom", path.as_uri()],
                   capture_output=True, timeout=90, check=False)


class _Listener:
    """An HTTP server on 127.0.0.1 that records the paths it is asked for (and answers 404)."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        requests = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the standard library's name
                requests.append(self.path)
                self.send_response(404)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __enter__(self) -> "_Listener":
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_listener_sees_a_request() -> None:
    import urllib.request

    with _Listener() as listener, pytest.raises(OSError):
        urllib.request.urlopen(f"{listener.url}probe", timeout=5)
    assert listener.requests == ["/probe"]
