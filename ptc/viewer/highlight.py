"""PTC-Lisp source as escaped HTML with syntax colours (spans with classes, no script)."""

from __future__ import annotations

import html
import re

SPECIAL = frozenset("""def defn defn- fn fn* let letfn loop recur if if-let if-some when when-let when-not when-some
cond condp case do and or not -> ->> as-> cond-> cond->> some-> some->> doseq for dotimes try catch finally throw
return fail quote""".split())

_TOKEN = re.compile(r"""
    (?P<comment>;[^\n]*)
  | (?P<string>"(?:[^"\\]|\\.)*"?)
  | (?P<keyword>::?[^\s()\[\]{}",;]+)
  | (?P<number>[-+]?\d[\w.]*)
  | (?P<symbol>[^\s()\[\]{}",;'`~@^]+)
  | (?P<bracket>[()\[\]{}])
  | (?P<other>[\s\S])
""", re.X)


def highlight(source: str) -> str:
    """Escaped HTML; tokens wrapped in <span class="k|s|c|n|sf|tool|ns">."""
    out: list[str] = []
    for m in _TOKEN.finditer(source):
        kind, text = m.lastgroup, m.group()
        esc = html.escape(text)
        if kind == "symbol":
            if text in SPECIAL:
                cls = "sf"
            elif text.startswith("tool/"):
                cls = "tool"
            elif "/" in text.strip("/"):
                cls = "ns"
            else:
                cls = ""
        else:
            cls = {"comment": "c", "string": "s", "keyword": "k", "number": "n", "bracket": "b"}.get(kind or "", "")
        out.append(f'<span class="{cls}">{esc}</span>' if cls else esc)
    return "".join(out)
