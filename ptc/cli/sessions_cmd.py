"""`ptc sessions`: browse the message store (the CLI face of ptc.store.Store).

Each command mirrors one library call: list -> list_sessions, show -> display / context /
full, rollback -> rollback, stats -> stats, export -> export_jsonl. Session ids may be
abbreviated to any unique prefix.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import click

GROUP_EPILOG = """\b
Examples:
  ptc sessions list
  ptc sessions show 3f2a9c                       # first 50 active messages
  ptc sessions show 3f2a9c --last                # the newest 50
  ptc sessions show 3f2a9c --after 50            # the next page (cursor = seq)
  ptc sessions show 3f2a9c --view context        # what the model sees: summaries first
  ptc sessions rollback 3f2a9c 12                # hide everything after seq 12
  ptc sessions stats 3f2a9c
  ptc sessions export 3f2a9c -o session.jsonl
  ptc sessions --db postgresql+psycopg://me@localhost/ptc list

\b
The store defaults to $PTC_STORE_URL, else $PTC_HOME/ptc.db, else ~/.local/share/ptc/ptc.db.
"""

SHOW_EPILOG = """\b
Examples:
  ptc sessions show 3f2a9c                        # display view: active messages, oldest first
  ptc sessions show 3f2a9c --after 50 --limit 20  # the 20 after seq 50
  ptc sessions show 3f2a9c --before 51            # the page before seq 51
  ptc sessions show 3f2a9c --view context --after 0:120   # context cursors are priority:seq
  ptc sessions show 3f2a9c --view full --json     # every message, all statuses, as JSON lines
"""

ROLE_STYLE = {"user": "cyan", "assistant": "green", "tool": "magenta", "system": "yellow"}
STATUS_STYLE = {0: "", 1: "red", 2: "dim"}


def _open(ctx: click.Context) -> Any:
    from ptc.store import Store, StoreError

    obj = ctx.find_object(dict)
    assert obj is not None
    if obj.get("store") is None:
        try:
            obj["store"] = Store(obj.get("db"))
        except StoreError as e:
            raise click.ClickException(str(e)) from e
        except Exception as e:  # noqa: BLE001 - a bad URL or an unreachable server
            raise click.ClickException(f"cannot open the store {_masked(obj.get('db'))}: {e}") from e
        ctx.call_on_close(obj["store"].close)
    return obj["store"]


def _masked(url: str | None) -> str:
    if not url:
        return "(default)"
    try:
        import sqlalchemy as sa

        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a path, or not a URL at all
        return url if "@" not in url else "(the --db URL)"


def _session_id(store: Any, prefix: str) -> str:
    from ptc.store import StoreError

    try:
        return str(store.resolve_session(prefix))
    except StoreError as e:
        raise click.ClickException(str(e)) from e


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


@click.group("sessions", epilog=GROUP_EPILOG)
@click.option("--db", metavar="URL", default=None, envvar="PTC_STORE_URL",
              help="Store location: a SQLAlchemy URL, a SQLite file path or :memory: "
                   "(default: $PTC_HOME/ptc.db or ~/.local/share/ptc/ptc.db).")
@click.pass_context
def sessions_group(ctx: click.Context, db: str | None) -> None:
    """Browse stored sessions: list, show, rollback, stats, export."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


@sessions_group.command("list", epilog="\b\nExamples:\n  ptc sessions list\n  ptc sessions list --limit 5 --json")
@click.option("--limit", type=click.IntRange(1), default=100, show_default=True, help="How many sessions.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line instead of a table.")
@click.pass_context
def list_cmd(ctx: click.Context, limit: int, as_json: bool) -> None:
    """Sessions, most recently updated first (Store.list_sessions)."""
    from rich.table import Table

    from ptc.store.messages import dumps

    store = _open(ctx)
    found = store.list_sessions(limit=limit)
    if as_json:
        for s in found:
            click.echo(dumps(s.to_dict()))
        return
    if not found:
        click.echo(f"no sessions in {store.safe_url}")
        return
    table = Table(title=f"sessions in {store.safe_url}", title_justify="left")
    for col, kw in (("id", {"style": "bold", "no_wrap": True}), ("title", {"overflow": "ellipsis", "max_width": 50}),
                    ("mode", {}), ("messages", {"justify": "right"}), ("tokens", {"justify": "right"}),
                    ("updated", {"no_wrap": True})):
        table.add_column(col, **kw)
    for s in found:
        table.add_row(s.id, s.title, s.mode or "", str(s.last_seq), str(s.token_count), _when(s.updated_at))
    _console().print(table)


def _cursor(text: str | None, view: str) -> int | str | None:
    if text is None:
        return None
    if view == "context":
        return text
    try:
        return int(text)
    except ValueError as e:
        raise click.BadParameter(f"{text!r} is not a seq (an integer)") from e


@sessions_group.command("show", epilog=SHOW_EPILOG)
@click.argument("session_id")
@click.option("--view", type=click.Choice(["display", "context", "full"]), default="display", show_default=True,
              help="display: active messages; context: what the model gets (summaries first, no invalid); "
                   "full: everything.")
@click.option("--after", metavar="CURSOR", default=None,
              help="Page after this cursor (a seq; priority:seq for context).")
@click.option("--before", metavar="CURSOR", default=None, help="Page before this cursor (a seq; display and full).")
@click.option("--last", is_flag=True, help="The newest page (display and full).")
@click.option("--limit", type=click.IntRange(1, 10_000), default=50, show_default=True, help="Messages per page.")
@click.option("--active-only", is_flag=True, help="Context view without compressed or rolled-back messages.")
@click.option("--width", type=click.IntRange(10), default=200, show_default=True,
              help="Characters of content shown per message.")
@click.option("--json", "as_json", is_flag=True, help="One JSON message per line (with blocks), no truncation.")
@click.pass_context
def show_cmd(ctx: click.Context, session_id: str, view: str, after: str | None, before: str | None, last: bool,
             limit: int, active_only: bool, width: int, as_json: bool) -> None:
    """Messages of SESSION_ID, a page at a time (Store.display / context / full)."""
    from rich.markup import escape
    from rich.table import Table

    from ptc.store import StoreError
    from ptc.store.messages import dumps

    if after is not None and before is not None and view == "context":
        raise click.UsageError("the context view pages forwards only (--after)")
    if view == "context" and (before is not None or last):
        raise click.UsageError("the context view pages forwards only (--after)")
    store = _open(ctx)
    sid = _session_id(store, session_id)
    try:
        if view == "display":
            page = store.display(sid, after=_cursor(after, view), before=_cursor(before, view), limit=limit, last=last)
        elif view == "full":
            if last and before is None and after is None:
                before = str(store.get_session(sid).next_seq)
            page = store.full(sid, after=_cursor(after, view), before=_cursor(before, view), limit=limit)
        else:
            page = store.context(sid, after=_cursor(after, view), limit=limit, include_compressed=not active_only)
    except (StoreError, ValueError) as e:
        raise click.ClickException(str(e)) from e
    if as_json:
        for m in page:
            click.echo(dumps(m.to_dict()))
        return
    session = store.get_session(sid)
    table = Table(title=f"{session.id} {escape(session.title)} [dim]({view} view)[/dim]", title_justify="left",
                  show_lines=False)
    table.add_column("seq", justify="right", no_wrap=True)
    table.add_column("role", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("tok", justify="right", no_wrap=True)
    table.add_column("turn", justify="right", no_wrap=True)
    table.add_column("content", overflow="fold")
    for m in page:
        table.add_row(str(m.seq), f"[{ROLE_STYLE.get(m.role, '')}]{m.role}[/]",
                      _status(m), str(m.token_count), "" if m.turn is None else str(m.turn),
                      escape(_preview(m, width)), style=STATUS_STYLE.get(m.status, ""))
    console = _console()
    console.print(table)
    if not len(page):
        console.print("[dim]no messages on this page[/dim]")
    hints = []
    if page.prev is not None:
        hints.append(f"previous: ptc sessions show {sid} --view {view} --before {page.prev}")
    if page.next is not None:
        hints.append(f"next: ptc sessions show {sid} --view {view} --after {page.next}")
    for hint in hints:
        console.print(f"[dim]{escape(hint)}[/dim]")


def _status(m: Any) -> str:
    name = m.status_name
    return f"{name} summary" if m.priority == 1 else name


def _preview(m: Any, width: int) -> str:
    if m.tool_calls:
        text = "calls " + ", ".join(f"{c['function']['name']}({c['function'].get('arguments', '')})"
                                   for c in m.tool_calls if isinstance(c.get("function"), dict))
    else:
        text = m.content or ""
        if m.tool_call_id:
            text = f"[{m.tool_call_id}] {text}"
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


@sessions_group.command("rollback",
                        epilog="\b\nExamples:\n  ptc sessions rollback 3f2a9c 12   # seqs 13.. become compressed")
@click.argument("session_id")
@click.argument("seq", type=click.IntRange(0))
@click.pass_context
def rollback_cmd(ctx: click.Context, session_id: str, seq: int) -> None:
    """Hide every active message after SEQ (they become compressed) (Store.rollback)."""
    from ptc.store import StoreError

    store = _open(ctx)
    sid = _session_id(store, session_id)
    try:
        changed = store.rollback(sid, seq)
    except StoreError as e:
        raise click.ClickException(str(e)) from e
    session = store.get_session(sid)
    click.echo(f"rolled back {sid} to seq {seq}: {changed} message(s) hidden; "
               f"{session.token_count} tokens in active messages")


@sessions_group.command("stats",
                        epilog="\b\nExamples:\n  ptc sessions stats 3f2a9c\n  ptc sessions stats 3f2a9c --json")
@click.argument("session_id")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.pass_context
def stats_cmd(ctx: click.Context, session_id: str, as_json: bool) -> None:
    """Compression statistics and message counts of SESSION_ID (Store.stats)."""
    from rich.table import Table

    from ptc.store.messages import dumps

    store = _open(ctx)
    st = store.stats(_session_id(store, session_id))
    if as_json:
        click.echo(dumps(st.to_dict()))
        return
    table = Table(title=f"stats of {st.session_id}", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    rows = [("compressions", st.compressions), ("tokens before", st.tokens_before), ("tokens after", st.tokens_after),
            ("tokens saved", st.tokens_saved), ("average saved", f"{st.avg_saved:.1f}"),
            ("tokens in active messages", st.token_count)]
    rows += [(f"{name} messages", n) for name, n in st.messages.items()]
    for what, value in rows:
        table.add_row(what, str(value))
    _console().print(table)


@sessions_group.command("export", epilog="\b\nExamples:\n  ptc sessions export 3f2a9c > s.jsonl\n"
                                         "  ptc sessions export 3f2a9c -o s.jsonl\n"
                                         "  ptc sessions export 3f2a9c --html s.html")
@click.argument("session_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, allow_dash=True), default="-",
              show_default=True, help="File to write ('-' for stdout).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Write the session's runs as one self-contained HTML page instead.")
@click.pass_context
def export_cmd(ctx: click.Context, session_id: str, output: str, html_path: str | None) -> None:
    """SESSION_ID as JSON lines: session, messages, compressions, runs (Store.export_jsonl)."""
    store = _open(ctx)
    sid = _session_id(store, session_id)
    if html_path:
        _export_html(store, sid, html_path)
        return
    if output == "-":
        store.export_jsonl(sid, sys.stdout)
        sys.stdout.flush()
        return
    with open(output, "w", encoding="utf-8") as fh:
        count = store.export_jsonl(sid, fh)
    click.echo(f"wrote {count} lines to {output}", err=True)


def _export_html(store: Any, sid: str, path: str) -> None:
    """The page shows exactly what the JSONL export holds."""
    import io
    import json

    from ptc.viewer import runs_from_export, write_html

    buffer = io.StringIO()
    store.export_jsonl(sid, buffer)
    session, runs, messages = runs_from_export(json.loads(line) for line in buffer.getvalue().splitlines())
    write_html(runs, path, title=f"ptc session {sid}: {session.get('title') or ''}".rstrip(": "), messages=messages)
    click.echo(f"wrote {path} ({len(runs)} run(s), {len(messages)} messages)", err=True)
