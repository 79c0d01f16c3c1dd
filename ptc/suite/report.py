"""Reports over suite results: the per-model/per-strategy table, a self-contained HTML page
(inline SVG charts, no dependency) and an optional PNG (matplotlib, `pip install 'ptc-lisp[plot]'`).

    from ptc.suite.report import load, summarize, print_table, write_html
    records = load("results.jsonl")
    print_table(summarize(records))
    write_html(records, "report.html")
"""

from __future__ import annotations

import html
import math
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .execute import record_key

if TYPE_CHECKING:
    from rich.console import Console


@dataclass
class Row:
    """Aggregates of one (model, strategy) group."""

    model: str
    strategy: str
    executions: int = 0
    passed: int = 0
    turns: float = 0.0
    prompt_tokens: float = 0.0
    completion_tokens: float = 0.0
    cost: float | None = None
    duration: float = 0.0
    errors: Counter[str] = field(default_factory=Counter)
    cached_tokens: float = 0.0  # of prompt_tokens, read from the provider's cache
    cache_write_tokens: float = 0.0  # of prompt_tokens, written to it

    @property
    def prompt_text(self) -> str:
        """Mean prompt tokens, "6,794 (5,120 cached)" when the provider cached some."""
        from ptc.llm.base import format_prompt_tokens

        return format_prompt_tokens(self.prompt_tokens, self.cached_tokens, self.cache_write_tokens, unit="")

    @property
    def pass_rate(self) -> float:
        return self.passed / self.executions if self.executions else 0.0

    @property
    def label(self) -> str:
        return f"{self.model} / {self.strategy}"

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "strategy": self.strategy, "executions": self.executions, "passed": self.passed,
                "pass_rate": self.pass_rate, "mean_turns": self.turns, "mean_prompt_tokens": self.prompt_tokens,
                "mean_cached_tokens": self.cached_tokens, "mean_cache_write_tokens": self.cache_write_tokens,
                "mean_completion_tokens": self.completion_tokens, "total_cost": self.cost,
                "mean_duration": self.duration, "errors": dict(self.errors)}


def load(path: str | Path) -> list[dict[str, Any]]:
    """The records of a results file, the latest one per execution (a re-run replaces)."""
    from .runner import read_results

    return latest(read_results(path))


def latest(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    by_key: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in records:
        by_key[record_key(r)] = r
    return list(by_key.values())


def summarize(records: Sequence[dict[str, Any]]) -> list[Row]:
    """One row per (model, strategy), by model, then none, coalesced, append and other strategies."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[(str(r.get("model")), str(r.get("strategy")))].append(r)
    rows = []
    order = {"none": 0, "coalesced": 1, "append": 2}
    for (model, strategy), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 3), kv[0][1])):
        n = len(rs)
        costs = [r["cost"] for r in rs if isinstance(r.get("cost"), (int, float))]
        rows.append(Row(
            model=model, strategy=strategy, executions=n, passed=sum(1 for r in rs if r.get("passed")),
            turns=_mean(r.get("turns") for r in rs), prompt_tokens=_mean(r.get("prompt_tokens") for r in rs),
            completion_tokens=_mean(r.get("completion_tokens") for r in rs),
            cached_tokens=_mean(r.get("cached_tokens", 0) for r in rs),
            cache_write_tokens=_mean(r.get("cache_write_tokens", 0) for r in rs),
            cost=sum(costs) if costs else None, duration=_mean(r.get("duration") for r in rs),
            errors=Counter(str(r["error_kind"]) for r in rs if r.get("error_kind")),
        ))
    return rows


def _mean(values: Any) -> float:
    xs = [float(v) for v in values if isinstance(v, (int, float))]
    return sum(xs) / len(xs) if xs else 0.0


def mission_matrix(records: Sequence[dict[str, Any]]) -> tuple[list[str], list[tuple[str, str]],
                                                               dict[tuple[str, str, str], tuple[int, int]]]:
    """missions, (model, strategy) columns, and (mission, model, strategy) -> (passed, runs)."""
    missions: dict[str, None] = {}
    columns: dict[tuple[str, str], None] = {}
    cells: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        m, col = str(r.get("mission")), (str(r.get("model")), str(r.get("strategy")))
        missions.setdefault(m, None)
        columns.setdefault(col, None)
        cell = cells[(m, *col)]
        cell[0] += 1 if r.get("passed") else 0
        cell[1] += 1
    return list(missions), list(columns), {k: (v[0], v[1]) for k, v in cells.items()}


# -- text -----------------------------------------------------------------------------------


def _money(x: float | None) -> str:
    return "n/a" if x is None else f"${x:,.4f}" if x < 1 else f"${x:,.2f}"


def _errors_text(errors: Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in errors.most_common()) or "-"


def table(rows: Sequence[Row], title: str | None = None) -> Any:
    from rich import box
    from rich.table import Table

    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0))
    t.add_column("model", no_wrap=True)
    t.add_column("strategy", no_wrap=True)
    for heading in ("runs", "pass rate", "turns", "prompt", "compl", "cost", "time"):
        t.add_column(heading, justify="right", no_wrap=True)
    show_errors = any(r.errors for r in rows)
    if show_errors:
        t.add_column("failures")
    for r in rows:
        color = "green" if r.passed == r.executions else "yellow" if r.pass_rate >= 0.8 else "red"
        cells = [r.model, r.strategy, str(r.executions), f"[{color}]{100 * r.pass_rate:.1f}%[/{color}]",
                 f"{r.turns:.2f}", r.prompt_text, f"{r.completion_tokens:,.0f}", _money(r.cost),
                 f"{r.duration:.2f}s"]
        if show_errors:
            cells.append(_errors_text(r.errors))
        t.add_row(*cells)
    t.caption = "turns, tokens, time: means per execution; cost: total"
    t.caption_justify = "left"
    return t


def print_table(rows: Sequence[Row], console: "Console | None" = None, title: str | None = None) -> None:
    from rich.console import Console

    (console or Console()).print(table(rows, title))


def failures(records: Sequence[dict[str, Any]], limit: int = 20) -> list[str]:
    out = []
    for r in records:
        if r.get("passed"):
            continue
        first = (r.get("failures") or [r.get("error") or "?"])[0]
        out.append(f"{r['mission']} / {r['model']} / {r['strategy']} / run {r['run']} "
                   f"[{r.get('error_kind') or '?'}]: {first}")
    return out[:limit] + ([f"... and {len(out) - limit} more"] if len(out) > limit else [])


# -- SVG charts -------------------------------------------------------------------------------

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#d62728", "#8c564b", "#e377c2", "#17becf")


def _nice_max(x: float) -> float:
    if x <= 0:
        return 1.0
    exp = 10 ** math.floor(math.log10(x))
    for m in (1, 2, 2.5, 5, 10):
        if m * exp >= x:
            return m * exp
    return 10 * exp


def svg_bars(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], *, title: str,
             unit: str = "", max_value: float | None = None, stacked: bool = False, width: int = 640,
             colors: Sequence[str] | None = None) -> str:
    """A horizontal bar chart as an SVG string: one bar per label (stacked series, or one bar
    per series side by side). `colors`: one per label, for a single series."""
    n = len(labels)
    k = 1 if stacked else max(1, len(series))
    bar_h, gap = 16, 10
    left = min(360, max(120, 16 + int(6.8 * max((len(x) for x in labels), default=0))))
    right, top = 70, 34
    width = max(width, left + 380)
    legend_h = 22 if len(series) > 1 else 0
    height = top + n * (k * bar_h + gap) + 26 + legend_h
    totals = [sum(s[1][i] for s in series) if stacked else max((s[1][i] for s in series), default=0)
              for i in range(n)]
    vmax = max_value if max_value is not None else _nice_max(max(totals, default=0))
    plot_w = width - left - right
    esc = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="system-ui, sans-serif" font-size="12">',
             f'<text x="{left}" y="18" font-weight="600" font-size="13">{esc(title)}</text>']
    for j in range(5):
        x = left + plot_w * j / 4
        val = vmax * j / 4
        parts.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{height - 22 - legend_h}" '
                     f'stroke="#ddd"/>')
        parts.append(f'<text x="{x:.1f}" y="{height - 8 - legend_h}" text-anchor="middle" fill="#555">'
                     f'{esc(_fmt(val) + unit)}</text>')
    for i, label in enumerate(labels):
        y0 = top + i * (k * bar_h + gap)
        parts.append(f'<text x="{left - 8}" y="{y0 + k * bar_h / 2 + 4:.1f}" text-anchor="end">{esc(label)}</text>')
        offset = 0.0
        for si, (name, values) in enumerate(series):
            v = float(values[i])
            w = plot_w * (v / vmax) if vmax else 0
            x = left + (plot_w * offset / vmax if stacked and vmax else 0)
            y = y0 if stacked else y0 + si * bar_h
            color = colors[i] if colors is not None and len(series) == 1 else PALETTE[si % len(PALETTE)]
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{max(w, 0):.1f}" height="{bar_h - 2}" fill="{color}">'
                         f'<title>{esc(label)} {esc(name)}: {esc(_fmt(v) + unit)}</title></rect>')
            if not stacked:
                parts.append(f'<text x="{x + w + 4:.1f}" y="{y + bar_h - 5}" fill="#333">{esc(_fmt(v) + unit)}</text>')
            offset += v
        if stacked:
            total = totals[i]
            parts.append(f'<text x="{left + plot_w * total / vmax + 4 if vmax else left:.1f}" '
                         f'y="{y0 + bar_h - 5}" fill="#333">{esc(_fmt(total) + unit)}</text>')
    if len(series) > 1:
        x = left
        for si, (name, _) in enumerate(series):
            y = height - 12
            parts.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{PALETTE[si % len(PALETTE)]}"/>')
            parts.append(f'<text x="{x + 14}" y="{y}">{esc(name)}</text>')
            x += 24 + 7 * len(name)
    parts.append("</svg>")
    return "".join(parts)


def _fmt(v: float) -> str:
    if abs(v) >= 10_000:
        return f"{v / 1000:,.0f}k"
    if abs(v) >= 100 or float(v).is_integer():
        return f"{v:,.0f}"
    return f"{v:,.1f}"


# -- HTML -----------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;font-size:.9em}th,td{padding:.3em .7em;border-bottom:1px solid #e4e4e4;text-align:right}
th{background:#f6f6f6}td.l,th.l{text-align:left}.ok{background:#e7f6e7}.bad{background:#fde8e8}.mid{background:#fff4d6}
.meta{color:#666;font-size:.9em}.charts svg{margin:0 1em 1em 0;vertical-align:top}
ul.fail{font-size:.85em;font-family:ui-monospace,monospace}
"""


def render_html(records: Sequence[dict[str, Any]], *, title: str | None = None) -> str:
    """A self-contained HTML report: the summary table, charts (inline SVG), a mission x
    (model, strategy) matrix and the failures."""
    records = latest(records)
    rows = summarize(records)
    esc = html.escape
    suites = sorted({str(r.get("suite")) for r in records})
    title = title or f"ptc suite report: {', '.join(suites) or 'no results'}"
    total = len(records)
    passed = sum(1 for r in records if r.get("passed"))
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>"
           f"<style>{_CSS}</style></head><body>",
           f"<h1>{esc(title)}</h1>",
           f"<p class='meta'>{total} executions, {passed} passed "
           f"({100 * passed / total if total else 0:.1f}%); generated {time.strftime('%Y-%m-%d %H:%M:%S')}</p>",
           "<h2>By model and strategy</h2><table><tr><th class='l'>model</th><th class='l'>strategy</th>"
           "<th>runs</th><th>passed</th><th>pass rate</th><th>mean turns</th><th>mean prompt tokens</th>"
           "<th>mean completion tokens</th><th>total cost</th><th>mean duration</th>"
           "<th class='l'>failures by kind</th></tr>"]
    for r in rows:
        cls = "ok" if r.passed == r.executions else "mid" if r.pass_rate >= 0.8 else "bad"
        out.append(f"<tr><td class='l'>{esc(r.model)}</td><td class='l'>{esc(r.strategy)}</td><td>{r.executions}</td>"
                   f"<td>{r.passed}</td><td class='{cls}'>{100 * r.pass_rate:.1f}%</td><td>{r.turns:.2f}</td>"
                   f"<td>{esc(r.prompt_text)}</td><td>{r.completion_tokens:,.0f}</td><td>{esc(_money(r.cost))}</td>"
                   f"<td>{r.duration:.2f}s</td><td class='l'>{esc(_errors_text(r.errors))}</td></tr>")
    out.append("</table>")
    if rows:
        labels = [r.label for r in rows]
        strategies = list(dict.fromkeys(r.strategy for r in rows))
        colors = [PALETTE[strategies.index(r.strategy) % len(PALETTE)] for r in rows]
        out.append("<h2>Charts</h2><div class='charts'>")
        out.append(svg_bars(labels, [("pass rate", [100 * r.pass_rate for r in rows])], title="Pass rate",
                            unit="%", max_value=100, colors=colors))
        out.append(svg_bars(labels, [("prompt", [r.prompt_tokens for r in rows]),
                                     ("completion", [r.completion_tokens for r in rows])],
                            title="Mean tokens per execution", stacked=True))
        out.append(svg_bars(labels, [("turns", [r.turns for r in rows])], title="Mean turns", colors=colors))
        out.append("</div>")
    missions, columns, cells = mission_matrix(records)
    if missions:
        out.append("<h2>By mission</h2><table><tr><th class='l'>mission</th>")
        out += [f"<th>{esc(m)}<br>{esc(s)}</th>" for m, s in columns]
        out.append("</tr>")
        for mission in missions:
            out.append(f"<tr><td class='l'>{esc(mission)}</td>")
            for m, s in columns:
                p, n = cells.get((mission, m, s), (0, 0))
                cls = "" if n == 0 else "ok" if p == n else "bad" if p == 0 else "mid"
                out.append(f"<td class='{cls}'>{f'{p}/{n}' if n else '-'}</td>")
            out.append("</tr>")
        out.append("</table>")
    fails = failures(records, limit=200)
    if fails:
        out.append("<h2>Failures</h2><ul class='fail'>" + "".join(f"<li>{esc(f)}</li>" for f in fails) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out)


def write_html(records: Sequence[dict[str, Any]], path: str | Path, *, title: str | None = None) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(render_html(records, title=title), encoding="utf-8")
    return p


# -- PNG --------------------------------------------------------------------------------------


def matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def write_png(records: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Pass rate and mean tokens per model/strategy as a PNG (needs matplotlib)."""
    if not matplotlib_available():
        raise RuntimeError("PNG reports need matplotlib: pip install 'ptc-lisp[plot]' (the HTML report does not)")
    from matplotlib.figure import Figure

    rows = summarize(latest(records))
    labels = [r.label for r in rows]
    fig = Figure(figsize=(11, 0.45 * max(3, len(rows)) + 1.4), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    ys = list(range(len(rows)))
    strategies = list(dict.fromkeys(r.strategy for r in rows))
    colors = [PALETTE[strategies.index(r.strategy) % len(PALETTE)] for r in rows]
    ax1.barh(ys, [100 * r.pass_rate for r in rows], color=colors)
    for y, r in zip(ys, rows):
        ax1.text(min(100 * r.pass_rate + 1, 88), y, f"{100 * r.pass_rate:.1f}%", va="center", fontsize=8)
    ax1.set_xlim(0, 100)
    ax1.set_yticks(ys, labels, fontsize=8)
    ax1.invert_yaxis()
    ax1.set_xlabel("pass rate (%)")
    ax1.set_title("Pass rate", fontsize=10)
    prompt = [r.prompt_tokens for r in rows]
    ax2.barh(ys, prompt, color=PALETTE[0], label="prompt")
    ax2.barh(ys, [r.completion_tokens for r in rows], left=prompt, color=PALETTE[1], label="completion")
    ax2.set_yticks(ys, labels, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xlabel("mean tokens per execution")
    ax2.set_title("Tokens", fontsize=10)
    ax2.legend(fontsize=8, frameon=False)
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=110)
    return p
