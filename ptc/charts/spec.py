"""Checking a Vega-Lite spec before it leaves a program: safe, bounded, and valid.

A spec is refused when it could reach outside the page that shows it (a `url`, an `href`
channel, an image mark, a `$ref`, any URL-looking string outside the data rows, a CSS
`url(` anywhere), when its data is not inline rows, when it is too large or too deep, when
it could make the renderer build more than it holds (a canvas over MAX_PIXELS, a transform
or expression that generates rows or text: `flatten`, `sequence(...)`, impute's generated
keyvals, steps over MAX_STEPS), or when Vega-Lite's own JSON schema (shipped by the `altair`
package, part of `ptc-lisp[charts]`) rejects it. Text inside a spec (titles, labels) is kept as
it is: whatever renders it escapes it, and the renderer (render.py) drops the characters
SVG cannot hold. Every string is read as CSS reads it and as Vega's expression parser reads it
(escapes decoded: `sequ\\u0065nce(` is `sequence(`); what an expression computes when it runs
is beyond any check of the spec, so the rendered output is made self-contained (output.py).
The schema check is bounded: by the spec's size (MAX_NODES values outside the rows), by the
run's deadline, and by reading each alternative only up to its first error.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import Any, Callable, Iterator

from ..interpreter import context

MAX_ROWS = 5_000  # rows of inline data, over all the spec's data
MAX_BYTES = 1_000_000  # the spec as JSON
MAX_DEPTH = 16  # nesting of the spec outside its data rows
MAX_NODES = 5_000  # maps, lists and values of the spec outside its data rows: what the schema check reads
CHART_KEY = "vega-lite"  # a chart is a map {:vega-lite spec}
EXTRA = "pip install 'ptc-lisp[charts]'"

# keys that fetch or link something outside the spec, with why they are refused
_FORBIDDEN_KEYS = {
    "url": "charts carry their data inline: use :data {:values rows}",
    "href": "charts cannot link anywhere",
    "$ref": "references are not allowed in a chart",
    "datasets": "put the rows in :data {:values rows}",
    "loader": "charts cannot load anything",
}
# the one URL a spec may hold: Vega-Lite's own schema, as every example in its docs has it
_SCHEMA = re.compile(r"^https://vega\.github\.io/schema/vega-lite/v(\d+)(?:\.\d+)*\.json$")
_URLISH = re.compile(r"^\s*(?:[a-z][a-z0-9+.\-]*:)?//|^\s*(?:javascript|vbscript|data|file|https?|ftp|mailto):", re.I)
# a CSS function that fetches, anywhere in a string (a colour "red url(http://...)" is drawn by the viewer)
CSS_FETCH = re.compile(r"(?:url|image|image-set|cross-fade|element|src)\s*\(|@import", re.I)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.S)
# Vega expression functions that build data or text of any size ("sequence(0, 3e7)"), called
# as Vega's parser reads a call: after any JavaScript white space, or parentheses, `(sequence)(...)`
_GENERATING = re.compile(r"\b(?:sequence|pad|repeat|padStart|padEnd)[\s\ufeff\u180e)]*\(")
# the escapes Vega's expression parser decodes: \uXXXX (in names too), \u{X...}, \xXX, \c
_JS_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))")
_JS_CHARACTER = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0",
                 "\n": "", "\r": "", "\r\n": "", "\u2028": "", "\u2029": ""}  # a backslash before a line break joins lines
MAX_PIXELS = 4_000  # width, height and step of a view: a bounded canvas
MAX_STEPS = 1_000  # steps, bins and samples a transform may generate per group
_PIXEL_KEYS = frozenset({"width", "height", "step", "continuousWidth", "continuousHeight", "discreteWidth",
                         "discreteHeight", "padding", "spacing", "size", "fontSize", "strokeWidth"})
_STEP_KEYS = frozenset({"steps", "maxbins", "maxsteps", "minsteps", "samples"})
# transforms that multiply rows by an amount the data does not bound
_GENERATING_TRANSFORMS = {
    "flatten": "aggregate or reshape the rows in the program instead",
    "sequence": "build the rows in the program instead",
}


class ChartError(ValueError):
    """A chart spec that was refused; the message says where and why."""


def check_spec(spec: Any) -> dict[str, Any]:
    """`spec` (plain JSON-like Python) if it is a safe, valid Vega-Lite spec; else ChartError."""
    if not isinstance(spec, dict):
        raise ChartError(f"a chart spec must be a map, got {type(spec).__name__}")
    skeleton: list[Any] = [None]
    tally = _Tally()
    _walk(spec, "", 0, skeleton, 0, tally)
    if tally.rows > MAX_ROWS:
        raise ChartError(f"chart data has {tally.rows} rows; at most {MAX_ROWS}: aggregate or sample the rows first")
    size = len(json.dumps(spec, ensure_ascii=False, default=str))
    if size > MAX_BYTES:
        raise ChartError(f"chart spec is {size} bytes as JSON; at most {MAX_BYTES}: send fewer rows or fields")
    _validate(skeleton[0])  # the rows are checked above: the schema sees the spec without them
    return spec


def _where(path: str) -> str:
    return f" at {path}" if path else ""


@dataclasses.dataclass
class _Tally:
    """What the walk of a spec counted: its inline data rows, and its nodes outside them."""

    rows: int = 0
    nodes: int = 0


def _walk(x: Any, path: str, depth: int, out: list[Any], slot: Any, tally: _Tally) -> None:
    """Refuse what could reach outside the chart, counting its rows and nodes into `tally`.
    Builds in out[slot] a copy of x whose inline rows are left out (for the schema check)."""
    if depth > MAX_DEPTH:
        raise ChartError(f"chart spec nested more than {MAX_DEPTH} levels deep{_where(path)}")
    tally.nodes += 1
    if tally.nodes > MAX_NODES:  # the schema check's time grows with them: a bound before it starts
        raise ChartError(f"chart spec has more than {MAX_NODES} values outside its data rows{_where(path)}: "
                         "make it simpler (fewer layers, views, transforms)")
    if isinstance(x, dict):
        copy: dict[str, Any] = {}
        out[slot] = copy
        for key, item in x.items():
            if not isinstance(key, str):
                raise ChartError(f"chart spec keys must be names, got {key!r}{_where(path)}")
            here = f"{path}.{key}" if path else key
            why = _FORBIDDEN_KEYS.get(key)
            if why is not None:
                raise ChartError(f"{key!r} is not allowed{_where(here)}: {why}")
            if key == "$schema":
                _check_schema(item, depth, here)
                continue  # a name, not a link: nothing fetches it
            if key == "data":
                tally.rows += _check_data(item, here)
                copy[key] = {"values": []}
                continue
            if key in _GENERATING_TRANSFORMS:
                raise ChartError(f"the {key!r} transform is not allowed{_where(here)}: {_GENERATING_TRANSFORMS[key]}")
            if key == "keyvals" and isinstance(item, dict):
                raise ChartError(f"impute keyvals must be a list of values{_where(here)}, not a sequence to generate")
            if isinstance(item, (int, float)) and not isinstance(item, bool):
                _bounded(key, item, here)
            if key == "mark" and (item == "image" or isinstance(item, dict) and item.get("type") == "image"):
                raise ChartError(f"image marks are not allowed{_where(here)}: they load pictures from URLs")
            _walk(item, here, depth + 1, copy, key, tally)  # type: ignore[arg-type]
    elif isinstance(x, list):
        items: list[Any] = [None] * len(x)
        out[slot] = items
        for i, item in enumerate(x):
            _walk(item, f"{path}[{i}]", depth + 1, items, i, tally)
    else:
        out[slot] = x
        if isinstance(x, str):
            for text in _readings(x):
                _check_text(text, path)
        elif x is not None and not isinstance(x, (bool, int, float)):
            raise ChartError(f"chart spec values must be JSON-like, got {type(x).__name__}{_where(path)}")


def _check_schema(value: Any, depth: int, path: str) -> None:
    """`$schema` at the top naming Vega-Lite: the major version specs are checked against, or
    v5 (its docs' examples; what changed in v6 does not touch the specs charts are made of)."""
    m = _SCHEMA.match(value) if isinstance(value, str) and depth == 0 else None
    major = vega_lite_major()
    if m is None or not 5 <= int(m.group(1)) <= major:
        raise ChartError(f"$schema{_where(path)} must be Vega-Lite's own, "
                         f"https://vega.github.io/schema/vega-lite/v{major}.json (or leave it out)")


def _bounded(key: str, n: float, path: str) -> None:
    """A number that sizes the canvas or the rows a transform generates, within its bound."""
    if key in _PIXEL_KEYS and abs(n) > MAX_PIXELS:
        raise ChartError(f"{key} {n:g} is too large{_where(path)}: at most {MAX_PIXELS} pixels")
    if key in _STEP_KEYS and abs(n) > MAX_STEPS:
        raise ChartError(f"{key} {n:g} is too large{_where(path)}: at most {MAX_STEPS}")


def _readings(text: str) -> tuple[str, ...]:
    """The text, and the text as Vega's expression parser reads it (its escapes decoded) when
    that differs: any string of a spec may be an expression (`{:expr ...}`, `:calculate`...)."""
    if "\\" not in text:
        return (text,)
    return text, _JS_ESCAPE.sub(_js_character, text)


def _js_character(m: re.Match[str]) -> str:
    code = m[1] or m[2] or m[3]
    if code is not None:
        n = int(code, 16)
        return chr(n) if n < 0x110000 else ""
    return _JS_CHARACTER.get(m[4], m[4])


def _check_text(text: str, path: str) -> None:
    """Refuse a string outside the rows that names a URL, fetches as CSS or calls a Vega function
    that generates data or text."""
    if _URLISH.search(text):
        raise ChartError(f"URLs are not allowed in a chart{_where(path)}: {text[:60]!r}")
    _no_fetch(text, path)
    if _GENERATING.search(text):
        raise ChartError(f"expressions that generate data or text (sequence, pad, repeat) are not allowed"
                         f"{_where(path)}: build the values in the program instead")


def css_unescape(text: str) -> str:
    """The text as CSS reads it, its escapes (`\\75 rl(`) decoded."""
    return _CSS_ESCAPE.sub(lambda m: chr(int(m[1], 16)) if m[1] and int(m[1], 16) < 0x110000 else (m[2] or ""), text)


def _no_fetch(text: str, path: str) -> None:
    """Refuse a string that CSS would read as a fetch (url(...), with or without escapes)."""
    if "(" not in text and "@" not in text:
        return
    if CSS_FETCH.search(css_unescape(text)):
        raise ChartError(f"CSS that fetches (url(...)) is not allowed in a chart{_where(path)}: {text[:60]!r}")


def _check_data(data: Any, path: str) -> int:
    if not isinstance(data, dict) or set(data) - {"values"} or not isinstance(data.get("values"), list):
        raise ChartError(f"chart data must be inline rows, {{:values [...]}}{_where(path)}",)
    for i, row in enumerate(data["values"]):
        if isinstance(row, dict):
            for key, value in row.items():
                if not isinstance(key, str) or not (value is None or isinstance(value, (str, bool, int, float))):
                    raise ChartError(f"chart rows hold names mapped to numbers, strings, booleans or nil"
                                     f"{_where(f'{path}.values[{i}]')}")
                if isinstance(value, str):  # a row's text can be drawn as a colour
                    _no_fetch(value, f"{path}.values[{i}]")
        elif not (row is None or isinstance(row, (str, bool, int, float))):
            raise ChartError(f"chart rows must be maps or plain values{_where(f'{path}.values[{i}]')}")
        elif isinstance(row, str):
            _no_fetch(row, f"{path}.values[{i}]")
    return len(data["values"])


def _validate(spec: dict[str, Any]) -> None:
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(spec))
    if error is None:
        return
    error = _deepest(error)  # "x is not valid under any of the given schemas" says little
    where = ".".join(str(p) for p in error.absolute_path)
    if not where and error.validator in ("required", "anyOf"):
        raise ChartError("not a valid Vega-Lite spec: a chart needs :mark, :data {:values rows} and :encoding")
    raise ChartError(f"not a valid Vega-Lite spec{_where(where)}: {error.message[:300]}")


def _deepest(error: Any) -> Any:
    """The most specific of an error's alternatives: the deepest path, an enum's choices first."""
    best = error
    stack = list(error.context or ())
    while stack:
        e = stack.pop()
        if (len(e.absolute_path), e.validator == "enum") > (len(best.absolute_path), best.validator == "enum"):
            best = e
        stack.extend(e.context or ())
    return best


@functools.lru_cache(maxsize=1)
def _validator() -> Any:
    """Vega-Lite's schema as a validator whose check reads the run's deadline and whose
    alternatives (`anyOf`) stop at their first error: an invalid view otherwise keeps the
    error tree of every alternative it fails (12,000 of them: 27 s, 1 GB)."""
    try:
        import jsonschema
    except ImportError:
        raise ChartError(f"checking charts needs jsonschema: {EXTRA}") from None
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    base = jsonschema.validators.validator_for(schema)
    checked = jsonschema.validators.extend(base, {"anyOf": _any_of, "$ref": _on_the_clock(base.VALIDATORS["$ref"])})
    return checked(schema)


def _any_of(validator: Any, alternatives: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """jsonschema's anyOf, an alternative read up to its first error (the instance fails it
    there); the first errors are the context the message is chosen from."""
    from jsonschema.exceptions import ValidationError

    firsts = []
    for index, alternative in enumerate(alternatives):
        first = next(validator.descend(instance, alternative, schema_path=index), None)
        if first is None:
            return
        firsts.append(first)
    yield ValidationError(f"{instance!r} is not valid under any of the given schemas", context=firsts)


Keyword = Callable[[Any, Any, Any, Any], Iterator[Any]]


def _on_the_clock(keyword: Keyword) -> Keyword:
    """A schema keyword that checks the run's deadline first: every definition of Vega-Lite's
    schema is reached through `$ref`, so a long check ends at the deadline (a limit error)."""
    def checked(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
        context.check_deadline()
        yield from keyword(validator, value, instance, schema)

    return checked


def schema_path() -> Path:
    """Vega-Lite's JSON schema, as the altair package ships it (the newest version it has)."""
    import importlib.util

    found = importlib.util.find_spec("altair")
    if found is None or found.origin is None:
        raise ChartError(f"checking charts needs Vega-Lite's schema from the altair package: {EXTRA}")
    versions = sorted(Path(found.origin).parent.glob("vegalite/v*/schema/vega-lite-schema.json"),
                      key=lambda p: int(p.parent.parent.name[1:]))
    if not versions:
        raise ChartError(f"the installed altair package ships no Vega-Lite schema: {EXTRA}")
    return versions[-1]


def vega_lite_major() -> int:
    """The Vega-Lite major version specs are checked against (and rendered with)."""
    return int(schema_path().parent.parent.name[1:])
