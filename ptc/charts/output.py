"""A rendered chart references nothing outside itself, whatever its spec computed.

The spec check (spec.py) refuses URLs and CSS `url(` it can see, but a Vega expression
computes text the check never sees: `{:expr "'u' + 'rl(http://...)'"}` draws
`fill="url(http://...)"`, and a browser opening that SVG fetches the address (a channel out
for whatever the program read). So the renderer's SVG is rebuilt from what an XML parser
reads of it, keeping only what draws:

- elements Vega's SVG renderer draws with (no image, script, style, foreignObject, use,
  animation), in the SVG namespace; an element outside the list is left out with its content;
- no attribute that names a resource (href, xlink:href, src, xml:base) unless it points into
  the document itself (`#id`), no event handler (`on...`);
- no attribute whose value CSS would read as a fetch (`url(`, `image(`, `image-set(`,
  `cross-fade(`, `element(`, `src(`, `@import`, CSS escapes decoded) other than the
  same-document `url(#id)` references gradients and clip paths are drawn with.

The text written back is serialized from the checked tree (comments, processing
instructions and document types are not part of it). The PNG is drawn from this SVG, and
the HTML page holds it as an image, so all three formats hold the same self-contained chart.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

from .spec import CSS_FETCH, ChartError, css_unescape

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
_XML = "http://www.w3.org/XML/1998/namespace"
_PREFIXES = {SVG: "", XLINK: "xlink:", _XML: "xml:"}
# what Vega's SVG renderer draws with (image left out: it shows only what a URL fetches)
_ELEMENTS = frozenset({"svg", "g", "defs", "path", "rect", "line", "circle", "ellipse", "polygon", "polyline",
                       "text", "tspan", "title", "desc", "a", "clipPath", "linearGradient", "radialGradient",
                       "stop", "pattern"})
_LINKS = frozenset({"href", "src", "base"})  # attributes that name a resource
_SAME_DOCUMENT = re.compile(r"^#[^\s'\"()]*$")
_LOCAL_URL = re.compile(r"url\(\s*(['\"]?)#[^\s'\"()]*\1\s*\)", re.I)
_ATTRIBUTE_ESCAPES = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def self_contained_svg(svg: str) -> str:
    """`svg` with every element and attribute that could reach outside it left out."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as e:
        raise ChartError(f"the renderer's SVG could not be read: {e}") from None
    if root.tag != f"{{{SVG}}}svg":
        raise ChartError("the renderer did not draw an SVG document")
    out: list[str] = []
    _write(root, out, top=True)
    return "".join(out)


def _write(element: ET.Element, out: list[str], top: bool = False) -> None:
    """The element (when it draws), its kept attributes and children, then its tail text."""
    namespace, _, name = element.tag[1:].partition("}")
    if element.tag.startswith("{") and namespace == SVG and name in _ELEMENTS:
        attributes = "".join(f' {key}="{escape(value, _ATTRIBUTE_ESCAPES)}"'
                             for key, value in _kept(element))
        if top:
            attributes = f' xmlns="{SVG}" xmlns:xlink="{XLINK}"' + attributes
        if element.text or len(element):
            out.append(f"<{name}{attributes}>{escape(element.text or '')}")
            for child in element:
                _write(child, out)
            out.append(f"</{name}>")
        else:
            out.append(f"<{name}{attributes}/>")
    if not top:
        out.append(escape(element.tail or ""))


def _kept(element: ET.Element) -> list[tuple[str, str]]:
    """The element's attributes that reference nothing outside the document, as written."""
    kept = []
    for key, value in element.attrib.items():
        name = _name(key)
        local = name.rpartition(":")[2] if name is not None else ""
        if name is None or local.lower().startswith("on"):
            continue
        if local in _LINKS and not _SAME_DOCUMENT.match(value.strip()):
            continue
        if fetches(value):
            continue
        kept.append((name, value))
    return kept


def fetches(value: str) -> bool:
    """Whether CSS would read `value` as fetching something (a same-document url(#id) does not)."""
    if "(" not in value and "@" not in value:  # a CSS escape never makes a call or an at-rule
        return False
    return CSS_FETCH.search(_LOCAL_URL.sub(" ", css_unescape(value))) is not None


def _name(qualified: str) -> str | None:
    """An attribute's `{namespace}local` as written in SVG (`xlink:href`), None for a namespace
    SVG does not use."""
    if not qualified.startswith("{"):
        return qualified
    namespace, _, local = qualified[1:].partition("}")
    prefix = _PREFIXES.get(namespace)
    return None if prefix is None else prefix + local
