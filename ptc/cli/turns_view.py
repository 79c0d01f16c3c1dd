"""Showing turns and runs to people (rich on a terminal, plain text otherwise)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import click


def _console(err: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=err, highlight=False, soft_wrap=True)


def show_turn(record: dict[str, Any], console: Any = None) -> None:
    """One turn from its JSON record (Turn.to_json / a trace line)."""
    from rich.markup import escape as esc
    from rich.panel import Panel
    from rich.syntax import Syntax

    console = console or _console()
    number = record.get("number")
    ok = record.get("success")
    status = "[green]ok[/green]" if ok else "[red]failed[/red]"
    if record.get("returned"):
        status = "[green]returned[/green]"
    console.rule(f"turn {number} {status}")
    program = record.get("program")
    if program:
        console.print(Syntax(program, "clojure", theme="ansi_dark", word_wrap=True), soft_wrap=False)
    else:
        console.print(Panel(esc(record.get("raw_response", "")[:1000]), title="reply (no code)"))
    for call in record.get("tool_calls", []):
        mark = "[red]x[/red]" if call.get("error") else "->"
        args = _short(call.get("args"))
        result = esc(_short(call.get("error") or call.get("result")))
        console.print(f"  tool/{esc(call['name'])} {esc(args)} {mark} {result}")
    for line in record.get("prints", []):
        console.print(f"  [dim]|[/dim] {esc(line)}")
    error = record.get("error")
    if error:
        where = f" {error['line']}:{error['column']}" if error.get("line") is not None else ""
        console.print(f"  [red]{esc('error[' + error['kind'] + ']')}{where}:[/red] {esc(error['message'])}")
        if error.get("hint"):
            console.print(f"  [yellow]hint:[/yellow] {esc(error['hint'])}")
    elif record.get("success"):
        console.print(f"  [bold]=>[/bold] {esc(record.get('result', '')[:400])}")
    for line in (record.get("note") or "").splitlines():  # why an empty answer is empty; which blocks ran
        console.print(f"  [yellow]{esc(line)}[/yellow]")


def _short(x: Any, n: int = 100) -> str:
    import json

    text = x if isinstance(x, str) else json.dumps(x, default=str)
    return text if len(text) <= n else text[: n - 3] + "..."


def progress_printer(console: Any = None) -> Callable[[Any], None]:
    """An on_event handler that shows a run live."""
    from rich.markup import escape as esc

    console = console or _console()

    def on_event(event: Any) -> None:
        d = event.data
        if event.type == "run_started":
            console.print(f"[bold]mission:[/bold] {esc(d['mission'])}")
            console.print(f"[dim]strategy {d['strategy']}, up to {d['max_turns']} turns, "
                          f"tools: {', '.join(d['tools']) or 'none'}[/dim]")
        elif event.type == "llm_replied":
            if d.get("ok"):
                console.print(f"[dim]turn {event.turn}: model replied ({usage_text(d)} tokens, "
                              f"{d.get('duration', 0):.2f}s)[/dim]")
            else:
                console.print(f"[red]turn {event.turn}: model failed: {esc(str(d.get('error')))}[/red]")
        elif event.type == "turn_finished":
            show_turn(d["record"], console)
        elif event.type == "run_finished":
            console.rule("result")
            if d["ok"]:
                console.print(f"[green]ok[/green] after {d['turns']} turn(s): {esc(_short(d['value'], 2000))}")
            else:
                err = d.get("error") or {}
                console.print(f"[red]failed[/red] after {d['turns']} turn(s): {err.get('kind')}: "
                              f"{esc(str(err.get('message')))}")
            console.print(f"[dim]{totals_text(d.get('usage', {}))}; {d.get('duration', 0):.2f}s[/dim]")

    return on_event


def totals_text(usage: Mapping[str, Any]) -> str:
    """A run's usage JSON for people: "tokens: 6,794 prompt (5,120 cached) + 312 completion, cost $0.00123"."""
    cost = usage.get("cost")
    return f"tokens: {usage_text(usage)}" + (f", cost ${cost:.5f}" if cost else "")


def usage_text(usage: Mapping[str, Any]) -> str:
    """Usage JSON for people: "6,794 prompt (5,120 cached) + 312 completion"."""
    from ptc.llm.base import format_prompt_tokens

    prompt = format_prompt_tokens(usage.get("prompt_tokens", 0), usage.get("cached_tokens", 0),
                                  usage.get("cache_write_tokens", 0))
    return f"{prompt} + {int(usage.get('completion_tokens') or 0):,} completion"


def fail(message: str) -> None:
    raise click.ClickException(message)
