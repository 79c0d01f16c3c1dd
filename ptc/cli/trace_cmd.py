"""`ptc trace show FILE`: a recorded run, turn by turn, or the prompts it produced."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .turns_view import show_turn, totals_text, usage_text

EPILOG = """\b
Examples:
  ptc trace show runs/3f2a9c.jsonl                   # turns: programs, output, errors
  ptc trace show runs/3f2a9c.jsonl --view full       # every prompt sent, as full history
  ptc trace show runs/3f2a9c.jsonl --view compressed # the same turns as SingleUserCoalesced
  ptc trace show runs/3f2a9c.jsonl --html run.html   # one self-contained page to open in a browser
"""


@click.group("trace", epilog=EPILOG)
def trace_group() -> None:
    """Inspect JSONL traces written by `Agent(trace=...)` or `ptc agent --trace`."""


@trace_group.command("show", epilog=EPILOG)
@click.argument("path")
@click.option("--view", type=click.Choice(["turns", "compressed", "full", "requests"]), default="turns",
              show_default=True, help="turns; the prompt as rendered by a strategy; or the raw requests sent.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Write the run(s) as one self-contained HTML page instead (no script, no external URL).")
def show_cmd(path: str, view: str, html_path: str | None) -> None:
    """Render the trace at PATH."""
    from rich.console import Console

    records = read_records(path)
    if html_path:
        from ptc.viewer import runs_from_trace, write_html

        runs = runs_from_trace(records)
        write_html(runs, html_path, title=f"ptc trace: {runs[0].mission[:80] if runs else path}")
        click.echo(f"wrote {html_path} ({len(runs)} run(s))", err=True)
        return
    console = Console(highlight=False, soft_wrap=True)
    start = next((r for r in records if r["type"] == "run_started"), {})
    console.print(f"[bold]run {records[0].get('run_id')}[/bold]: {start.get('mission', '?')}")
    if view == "turns":
        for r in records:
            if r["type"] == "turn_finished":
                show_turn(r["record"], console)
                if (r["record"].get("usage") or {}).get("calls"):
                    console.print(f"  [dim]{usage_text(r['record']['usage'])} tokens[/dim]")
            elif r["type"] == "run_finished":
                console.rule("outcome")
                console.print(("ok: " + repr(r.get("value"))) if r.get("ok") else f"failed: {r.get('error')}")
                console.print(f"[dim]{totals_text(r.get('usage') or {})}[/dim]")
        return
    if view == "requests":
        for r in records:
            if r["type"] == "llm_request":
                console.rule(f"request for turn {r['turn']}")
                _print_messages(console, r["messages"])
        return
    _print_messages(console, render_view(records, view))


def read_records(path: str) -> list[dict[str, Any]]:
    """The trace's records, or a FileError naming the file (unreadable, binary, not UTF-8, no records)."""
    from ptc.agent.trace import read_trace

    from .common import FileError, read_text_file

    if Path(path).is_dir():
        raise FileError(f"{path} is a directory, not a trace (a .jsonl file)")
    read_text_file(path, "a JSONL trace")
    try:
        records = [r for r in read_trace(path) if isinstance(r, dict) and isinstance(r.get("type"), str)]
    except RecursionError:
        raise FileError(f"{path}: a record is nested too deeply to read") from None
    if not records:
        raise FileError(f"{path} holds no trace records (one JSON object per line, written by --trace)")
    for number, record in enumerate(records, 1):
        wrong = usage_error(record)
        if wrong is not None:
            raise FileError(f"{path}: record {number} ({record['type']}) {wrong}")
    return records


_COUNTS = ("prompt_tokens", "completion_tokens", "cached_tokens", "cache_write_tokens", "calls")
_USAGE_KEYS = {*_COUNTS, "cost"}  # what a trace writes for a turn's usage (ptc.llm.base.Usage)
_MAX_COUNT = 1 << 53  # what a JSON number holds exactly: a count past it is not one a trace writes


def usage_error(record: dict[str, Any]) -> str | None:
    """What is wrong with a record's token counts and cost, as every view reads them (None: nothing):
    a count that is not a whole number from 0 to 2**53, a cost that is not a finite amount."""
    if record["type"] == "llm_replied":
        usage: Any = record
    else:
        holder = record.get("record") if record["type"] == "turn_finished" else record
        if not isinstance(holder, dict) or holder.get("usage") is None:
            return None
        usage = holder["usage"]
        if not isinstance(usage, dict) or not usage.keys() <= _USAGE_KEYS:
            return f"has usage {usage!r:.40}, not a map of token counts"
    for key in _COUNTS:
        n = usage.get(key, 0)
        if type(n) is not int or not 0 <= n < _MAX_COUNT:
            return f"has {key} {n!r:.40}, not a token count"
    cost = usage.get("cost")
    if cost is not None and (type(cost) not in (int, float) or not 0 <= cost <= sys.float_info.max):
        return f"has cost {cost!r:.40}, not an amount"
    return None


def render_view(records: list[dict[str, Any]], view: str) -> list[dict[str, str]]:
    """The messages for the next LLM call of the traced run, under a strategy."""
    from ptc.agent.turn import turn_from_json
    from ptc.compression import FullHistory, RenderContext, SingleUserCoalesced

    start = next(r for r in records if r["type"] == "run_started")
    turns = tuple(turn_from_json(r["record"]) for r in records if r["type"] == "turn_finished")
    memory = next((dict(t.memory) for t in reversed(turns) if t.success), {})
    context = RenderContext(mission=start["mission"], system_prompt=start.get("system_prompt", ""),
                            max_turns=start.get("max_turns", len(turns)))
    strategy = SingleUserCoalesced() if view == "compressed" else FullHistory()
    return strategy.to_messages(turns, memory, context)


def _print_messages(console: Any, messages: list[dict[str, str]]) -> None:
    for m in messages:
        console.print(f"[bold cyan]{m['role'].upper()}[/bold cyan]")
        console.print(m["content"], markup=False)
        console.print()
