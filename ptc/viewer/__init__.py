"""A recorded run as one self-contained HTML page (`ptc trace show --html`, `ptc sessions export --html`).

`RunView` is what the page shows, read from a JSONL trace (`runs_from_trace`) or a session
export (`runs_from_export`); `page.render_page` turns runs into HTML. The page has no script
and loads nothing (a Content-Security-Policy says so to the browser): everything it shows is
escaped text, inline SVG drawn by ptc, and charts as `<img>` data URIs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .runs import RunView, load_trace, runs_from_export, runs_from_trace

__all__ = ["RunView", "load_trace", "runs_from_trace", "runs_from_export", "write_html"]


def write_html(runs: list[RunView], path: str | Path, *, title: str,
               messages: list[dict[str, Any]] | None = None) -> Path:
    """Write the page for `runs` (and a session's messages) to path."""
    from .page import render_page

    p = Path(path)
    p.write_text(render_page(runs, title=title, messages=messages), encoding="utf-8")
    return p
