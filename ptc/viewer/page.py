"""The HTML of a run viewer page: every turn, usage per turn as inline SVG, charts, and what the
model saw beside the full record. No script; every piece of recorded text is escaped here."""

from __future__ import annotations

import html
import json
import re
from typing import TYPE_CHECKING, Any, Sequence

from .highlight import highlight

if TYPE_CHECKING:  # a RunView renders itself through display -> page: the type only
    from .runs import RunView

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
PREVIEW = 400  # characters of a tool call's arguments or result shown
STRATEGIES = (("none", "Full history"), ("coalesced", "Single user, coalesced"), ("append", "Append-only summaries"))

PAGE_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#1d2330;color:#fff;padding:14px 24px}header h1{font-size:18px;margin:0}
main{padding:16px 24px;max-width:1500px}
"""
# the parts' rules, scoped under .ptc so that a fragment in a notebook styles only itself
PARTS_CSS = """
section.run{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:14px 18px;margin-bottom:22px}
h2{font-size:16px;margin:4px 0 10px}
h3{font-size:14px;margin:14px 0 6px}
.outcome{padding:8px 10px;border-radius:6px;margin:8px 0}
.ok{background:#e7f6ec}
.bad{background:#fdecec}
.turn{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:14px;border-top:1px solid #e6e8ec;padding:10px 0}
.turn h3{grid-column:1/-1;margin:0}
.saw{background:#f3f5f8;border-radius:6px;padding:6px 10px;font-size:12px}
pre{background:#f3f5f8;border-radius:6px;padding:8px 10px;overflow-x:auto;white-space:pre-wrap;margin:4px 0}
pre.code{background:#fbfbfd;border:1px solid #e2e5ea}
.k{color:#7a3e9d}
.s{color:#2a7a2a}
.c{color:#8a8f98;font-style:italic}
.n{color:#b05a00}
.sf{color:#0b5cad;font-weight:600}
.tool{color:#b3124e;font-weight:600}
.ns{color:#0a7f86}
.b{color:#8a8f98}
.err{background:#fdecec;border-left:3px solid #d33;padding:6px 10px;border-radius:4px;margin:4px 0}
.hint{color:#6b4e00}
.muted{color:#6b7280;font-size:12px}
table{border-collapse:collapse;width:100%;font-size:12px}
td,th{border:1px solid #e2e5ea;padding:3px 6px;vertical-align:top;text-align:left}
td pre{margin:0;padding:2px 4px;background:none}
.strategies{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:10px}
.msg{border:1px solid #e2e5ea;border-radius:6px;margin:4px 0;padding:4px 8px;background:#fff}
.role{font-weight:600;font-size:11px;text-transform:uppercase;color:#0b5cad}
details summary{cursor:pointer;color:#374151}
img.chart{max-width:100%;background:#fff}
"""


def _scoped(css: str) -> str:
    """Each rule of `css` (one per line) applied only inside an element of class ptc."""
    rules = []
    for line in css.strip().splitlines():
        selectors, body = line.split("{", 1)
        rules.append(",".join(f".ptc {sel.strip()}" for sel in selectors.split(",")) + "{" + body)
    return "\n".join(rules)


CSS = _scoped(PARTS_CSS)


def fragment(body: str) -> str:
    """HTML to embed in another page (a notebook's output): styled, scoped, no script."""
    return f"<div class='ptc'><style>{CSS}</style>{body}</div>"


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def render_page(runs: Sequence[RunView], *, title: str, messages: list[dict[str, Any]] | None = None) -> str:
    body = [_run(run) for run in runs]
    if messages:
        body.append(_session_messages(messages))
    if not body:
        body.append("<p>No runs recorded.</p>")
    return ("<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<meta http-equiv='Content-Security-Policy' content=\"{CSP}\">"
            f"<meta name='viewport' content='width=device-width'><title>{esc(title)}</title>"
            f"<style>{PAGE_CSS}{CSS}</style></head><body><header><h1>{esc(title)}</h1></header><main class='ptc'>"
            + "\n".join(body) + "</main></body></html>\n")


def _run(run: RunView) -> str:
    parts = [f"<section class='run' id='run-{esc(run.run_id)}'><h2>Run {esc(run.run_id)}</h2>",
             f"<p><b>Mission:</b> {esc(run.mission)}</p>",
             f"<p class='muted'>strategy {esc(run.strategy or '?')} · {len(run.turns)} turn(s)"
             + (f" of at most {run.max_turns}" if run.max_turns else "") + "</p>",
             _outcome(run.outcome)]
    if run.turns:
        parts += ["<h3>Tokens and cost per turn</h3>", usage_svg(run.turns)]
    charts = _charts(run.turns)
    if charts:
        parts += ["<h3>Charts</h3>", charts]
    parts.append("<h3>Turns: the full record, and what the model saw</h3>")
    saw = _what_the_model_saw(run)
    for i, turn in enumerate(run.turns):
        parts.append(_turn(turn, saw[i] if i < len(saw) else None))
    parts += ["<h3>The next prompt, by strategy</h3>", _strategies(run), "</section>"]
    return "\n".join(parts)


def _outcome(outcome: dict[str, Any] | None) -> str:
    if not outcome:
        return "<div class='outcome bad'>No outcome recorded (the run did not finish).</div>"
    usage = outcome.get("usage") or {}
    totals = (f"{usage.get('prompt_tokens', 0):,} prompt + {usage.get('completion_tokens', 0):,} completion tokens"
              + (f", ${usage['cost']:.4f}" if isinstance(usage.get("cost"), (int, float)) else ""))
    if outcome.get("ok"):
        value = outcome.get("value")
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        return (f"<div class='outcome ok'><b>Answer</b> <span class='muted'>{esc(totals)}</span>"
                f"<pre>{esc(_cut(text, 4000))}</pre></div>")
    return f"<div class='outcome bad'><b>Failed</b> <span class='muted'>{esc(totals)}</span>{_error(outcome.get('error'))}</div>"


def _error(error: Any) -> str:
    if not error:
        return ""
    if not isinstance(error, dict):
        return f"<div class='err'>{esc(error)}</div>"
    where = f" {error.get('line')}:{error.get('column')}" if error.get("line") is not None else ""
    hint = f"<div class='hint'>hint: {esc(error['hint'])}</div>" if error.get("hint") else ""
    return f"<div class='err'><b>error[{esc(error.get('kind', '?'))}]{esc(where)}</b>: {esc(error.get('message', ''))}{hint}</div>"


def _turn(t: dict[str, Any], saw: list[dict[str, str]] | None, *, beside: bool = True) -> str:
    """One turn; `beside`: with what the model saw in a second column (`saw`, or a note that it
    was not recorded)."""
    status = "ok" if t.get("success") else "error"
    if t.get("returned"):
        status = "returned"
    elif t.get("failed"):
        status = "failed"
    usage = t.get("usage") or {}
    left = [_prose(t.get("raw_response") or "")]
    if t.get("program"):
        left.append(f"<pre class='code'>{highlight(t['program'])}</pre>")
    if t.get("prints"):
        left.append("<div class='muted'>printed</div><pre>" + esc("\n".join(t["prints"])) + "</pre>")
    if t.get("tool_calls"):
        left.append(_tool_calls(t["tool_calls"]))
    left.append(_error(t.get("error")))
    if t.get("success"):
        left.append(f"<div class='muted'>result</div><pre>{esc(_cut(str(t.get('result', '')), 2000))}</pre>")
    right = ("<div class='saw'><b>What the model saw</b> (the request for this turn)"
             + _messages(saw, open_last=2) + "</div>"
             if saw is not None else "<div class='saw muted'>The request for this turn was not recorded.</div>")
    if not beside:
        right = ""
    return (f"<div class='turn' id='turn-{esc(t.get('number'))}'><h3>Turn {esc(t.get('number'))} · {status}"
            f" <span class='muted'>{usage.get('prompt_tokens', 0):,} + {usage.get('completion_tokens', 0):,} tokens"
            f", {float(t.get('duration') or 0):.2f}s</span></h3><div>{''.join(left)}</div>{right}</div>")


def _prose(raw: str) -> str:
    text = re.sub(r"```[a-zA-Z]*\n.*?(```|$)", "", raw, flags=re.S).strip()
    return f"<p>{esc(text)}</p>" if text else ""


def _tool_calls(calls: list[dict[str, Any]]) -> str:
    rows = []
    for c in calls:
        result = (f"<div class='err'>{esc(c['error'])}</div>" if c.get("error")
                  else f"<pre>{esc(_preview(c.get('result')))}</pre>")
        rows.append(f"<tr><td>tool/{esc(c.get('name'))}</td><td><pre>{esc(_preview(c.get('args')))}</pre></td>"
                    f"<td>{result}</td><td>{float(c.get('duration') or 0) * 1000:.0f} ms</td></tr>")
    return ("<table><tr><th>tool call</th><th>arguments</th><th>result</th><th>time</th></tr>"
            + "".join(rows) + "</table>")


def _preview(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return _cut(text, PREVIEW)


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n] + f"… ({len(text):,} characters)"


def _messages(messages: list[dict[str, str]] | None, *, open_last: int | None = None) -> str:
    """Messages as boxes, the system prompt collapsed; with `open_last`, only the last few
    stay open and the earlier ones (shown in earlier turns already) are collapsed together."""
    messages = list(messages or ())
    if open_last is not None:
        head = [m for m in messages[:1] if m.get("role") == "system"]
        rest = messages[len(head):]
        earlier, last = rest[:-open_last], rest[-open_last:]  # open_last >= 1
        if earlier:
            return (_messages(head) + f"<details><summary>{len(earlier)} earlier message(s)</summary>"
                    + _messages(earlier) + "</details>" + _messages(last))
    out = []
    for m in messages:
        role, content = str(m.get("role", "?")), str(m.get("content", ""))
        body = f"<pre>{esc(_cut(content, 20_000))}</pre>"
        if role == "system":
            body = f"<details><summary>system prompt ({len(content):,} characters)</summary>{body}</details>"
        out.append(f"<div class='msg'><div class='role'>{esc(role)}</div>{body}</div>")
    return "".join(out)


def usage_svg(turns: list[dict[str, Any]]) -> str:
    """Prompt and completion tokens per turn as stacked bars (cost under each bar when known)."""
    usages = [t.get("usage") or {} for t in turns]
    totals = [int(u.get("prompt_tokens") or 0) + int(u.get("completion_tokens") or 0) for u in usages]
    top = max(totals + [1])
    bar, gap, h, left = 34, 22, 120, 56
    width = max(left + len(turns) * (bar + gap) + 10, 560)
    out = [f"<svg width='{width}' height='{h + 48}' role='img' "
           f"aria-label='tokens per turn'><line x1='{left - 4}' y1='{h}' x2='{width}' y2='{h}' stroke='#9aa3af'/>",
           f"<text x='{left - 8}' y='12' font-size='10' text-anchor='end' fill='#6b7280'>{top:,}</text>",
           f"<text x='{left - 8}' y='{h}' font-size='10' text-anchor='end' fill='#6b7280'>0</text>"]
    for i, (t, u) in enumerate(zip(turns, usages)):
        x = left + i * (bar + gap)
        p, c = int(u.get("prompt_tokens") or 0), int(u.get("completion_tokens") or 0)
        hp, hc = h * p / top, h * c / top
        out.append(f"<rect x='{x}' y='{h - hp:.1f}' width='{bar}' height='{hp:.1f}' fill='#5b8def'>"
                   f"<title>turn {esc(t.get('number'))}: {p:,} prompt tokens</title></rect>")
        out.append(f"<rect x='{x}' y='{h - hp - hc:.1f}' width='{bar}' height='{hc:.1f}' fill='#f59e0b'>"
                   f"<title>turn {esc(t.get('number'))}: {c:,} completion tokens</title></rect>")
        out.append(f"<text x='{x + bar / 2}' y='{h + 14}' font-size='11' text-anchor='middle'>{esc(t.get('number'))}</text>")
        cost = u.get("cost")
        label = f"${cost:.4f}" if isinstance(cost, (int, float)) else f"{p + c:,}"
        out.append(f"<text x='{x + bar / 2}' y='{h + 28}' font-size='9' text-anchor='middle' fill='#6b7280'>{esc(label)}</text>")
    out.append(f"<text x='{left}' y='{h + 44}' font-size='10' fill='#6b7280'>blue: prompt, orange: completion "
               "tokens; below: cost (tokens when unknown)</text></svg>")
    return "".join(out)


def _charts(turns: list[dict[str, Any]]) -> str:
    from ..charts import ChartError, charts_in

    out = []
    for t in turns:
        try:
            charts = charts_in(t.get("result_data"))
        except ChartError as e:
            out.append(f"<div class='err'>turn {esc(t.get('number'))}: a chart was refused: {esc(e)}</div>")
            continue
        for chart in charts:
            try:
                drawn = chart.img_tag().replace("<img ", "<img class='chart' ", 1)
            except ChartError as e:  # no vl-convert: the spec instead of the picture
                drawn = f"<div class='muted'>{esc(e)}</div><pre>{esc(json.dumps(chart.spec, indent=1)[:20_000])}</pre>"
            out.append(f"<figure><figcaption class='muted'>turn {esc(t.get('number'))}: {esc(chart.title)}"
                       f"</figcaption>{drawn}</figure>")
    return "".join(out)


def _what_the_model_saw(run: RunView) -> list[list[dict[str, str]] | None]:
    """Per turn, the messages the model was sent: recorded in a trace, else re-rendered by the run's strategy."""
    turns = _turns(run)
    strategy = _strategy(run.strategy)
    out: list[list[dict[str, str]] | None] = []
    for i, record in enumerate(run.turns):
        number = int(record.get("number") or i + 1)
        if number in run.requests:
            out.append(run.requests[number])
        elif turns is not None and strategy is not None:
            out.append(strategy.to_messages(turns[:i], _memory(turns[:i]), _context(run)))
        else:
            out.append(None)
    return out


def _strategies(run: RunView) -> str:
    turns = _turns(run)
    if turns is None:
        return "<p class='muted'>These turns cannot be re-rendered.</p>"
    from ..compression import resolve_strategy
    from ..llm.tokens import count_message_tokens

    columns = []
    for label, name in STRATEGIES:
        messages = resolve_strategy(label).to_messages(turns, _memory(turns), _context(run))
        columns.append(f"<div><h3>{esc(name)} <span class='muted'>~{count_message_tokens(messages):,} tokens, "
                       f"{len(messages)} messages</span></h3>{_messages(messages)}</div>")
    return ("<p class='muted'>The prompt the next call would send, as each compression strategy renders the same "
            "turns (the first column is the full record).</p><div class='strategies'>" + "".join(columns) + "</div>")


def _turns(run: RunView) -> list[Any] | None:
    from ..agent.turn import turn_from_json

    try:
        return [turn_from_json(r) for r in run.turns]
    except (KeyError, TypeError, ValueError):
        return None


def _memory(turns: list[Any]) -> dict[str, Any]:
    return next((dict(t.memory) for t in reversed(turns) if t.success), {})


def _context(run: RunView) -> Any:
    from ..compression import RenderContext

    prompt = run.system_prompt or "(the system prompt was not recorded)"
    return RenderContext(mission=run.mission, system_prompt=prompt, max_turns=run.max_turns or max(len(run.turns), 1))


def _strategy(name: str) -> Any:
    from ..compression import resolve_strategy

    try:
        return resolve_strategy(name or False)
    except (ValueError, TypeError):
        return None


def _session_messages(messages: list[dict[str, Any]]) -> str:
    rows = [f"<div class='msg'><div class='role'>{esc(m.get('role', '?'))} <span class='muted'>#{esc(m.get('seq'))}"
            f" {esc(m.get('status_name') or '')}</span></div><pre>{esc(_cut(str(m.get('content') or ''), 20_000))}</pre></div>"
            for m in messages]
    return ("<section class='run'><h2>Session messages</h2><details><summary>"
            f"{len(messages)} messages, as stored</summary>" + "".join(rows) + "</details></section>")
