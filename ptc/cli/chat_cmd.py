"""`ptc chat`: an interactive assistant over a session of the message store.

Each line you type is a user message, answered in the current mode (chat: the model replies
from the conversation; agent: the model writes PTC-Lisp programs that call the tools). The
prompt shows how full the next request's context is: ``[ctx 42% normal] chat>`` (normal,
warning, or compacting: the next request compacts the history first). Lines starting with
``/`` are commands (see HELP_TEXT). After a failed model call, type ``continue`` to ask
again; ``ptc chat --session ID`` resumes a conversation, also one that ended on an error.

On a terminal the prompt uses prompt_toolkit (history in $PTC_HOME/chat_history or
~/.ptc_chat_history); otherwise lines are read from stdin one by one, so a conversation can
be piped in. Offline: ``--script replies.json`` (a JSON list of replies; an entry
``{"error": "timeout", "message": "...", "partial": "..."}`` is a failing call) or
``--replay cassette.jsonl`` (recorded with ``--record``; replayed in order when a request
differs, since tool-call ids carry run ids).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterable, TextIO

import click

from .common import (data_option, history_file, load_data, load_tools, model_llm, open_replay, prompt_history,
                     read_json_file, server_options, tools_option)
from .mcp_options import load_mcp_tools, mcp_options

EPILOG = """\b
Examples:
  ptc chat --model openai/gpt-4o-mini --data orders.json --tools ptc.examples.tools:analysis_tools
  ptc chat --mode agent --data orders.json --model ollama_chat/llama3.1 --api-base http://localhost:11434
  ptc chat --mode agent --mcp "npx -y @modelcontextprotocol/server-filesystem ."   # an MCP server's tools
  ptc chat --session 3f2a9c                 # resume (also after an LLM error: type continue)
  ptc chat --script replies.json            # offline: answers from a JSON list
  ptc chat --model openai/gpt-4o-mini --record chat.jsonl   # record a cassette while chatting
  ptc chat --replay chat.jsonl              # offline: answers from a recorded cassette (in order)
  printf 'hello\\n/stats\\n' | ptc chat --script replies.json

\b
Commands inside the chat:
  /mode chat|agent   /compact   /view context|display|full   /rollback N
  /stats   /session   /help   /quit
"""

HELP_TEXT = """\
Type a message and press Enter; it is answered in the current mode.
  /mode [chat|agent]             show or switch the mode (the history is kept)
  /compact                       compress older history into a summary now
  /view [context|display|full]   the conversation as the model sees it (numbered), as people
                                 see it (tool calls collapsed; # = seq), or everything
  /rollback N                    hide everything after the entry with # N in /view display
  /stats                         messages, compressions, tokens, context usage
  /session                       the session id, store and how to resume it
  continue                       after a failed model call: ask again
  /help                          this text
  /quit                          leave (also /exit or Ctrl-D)"""

QUIT = {"/quit", "/exit", "/q"}
VIEWS = ("context", "display", "full")
ROLE_STYLE = {"user": "cyan", "assistant": "green", "tool": "magenta", "system": "yellow", "summary": "yellow"}


def history_path() -> Path:
    return history_file("chat_history", ".ptc_chat_history")


def indicator(usage: Any) -> str:
    """``[ctx 42% normal]`` from a ContextUsage."""
    if usage is None:
        return "[ctx ?]"
    return f"[ctx {usage.percent:.0f}% {usage.status}]"


def load_script(path: str) -> Any:
    """A ScriptedLLM from a JSON file: a list (or {"replies": [...]}) of reply texts,
    {"text": ...} objects, or {"error": kind, "message": ..., "partial": ...} failures."""
    from ptc.llm.base import LLMError
    from ptc.llm.scripted import ScriptedLLM

    raw = read_json_file(path, "a JSON list of replies")
    if isinstance(raw, dict):
        raw = raw.get("replies")
    if not isinstance(raw, list):
        raise click.BadParameter(f"{path} must hold a JSON list of replies", param_hint="--script")
    entries: list[Any] = []
    for i, item in enumerate(raw, start=1):
        if isinstance(item, str):
            entries.append(item)
        elif isinstance(item, dict) and "error" in item:
            entries.append(LLMError(str(item["error"]), str(item.get("message", "scripted failure")),
                                    partial=str(item.get("partial", ""))))
        elif isinstance(item, dict) and isinstance(item.get("text", item.get("reply")), str):
            entries.append(item.get("text", item.get("reply")))
        else:
            raise click.BadParameter(f"entry {i} of {path} must be a string, {{\"text\": ...}} or "
                                     f"{{\"error\": kind, \"message\": ...}}", param_hint="--script")
    return ScriptedLLM(entries)


class ChatUI:
    """The commands and output of `ptc chat`, shared by the terminal and the piped loops."""

    def __init__(self, chat: Any, console: Any, *, db: str | None) -> None:
        self.chat = chat
        self.console = console
        self.db = db
        self.failed = False

    # -- output ------------------------------------------------------------------------------

    def say(self, text: str, style: str | None = None) -> None:
        from rich.markup import escape

        self.console.print(f"[{style}]{escape(text)}[/{style}]" if style else escape(text))

    def prompt_text(self) -> str:
        return f"{indicator(self.chat.last_usage or self.chat.usage())} {self.chat.mode}> "

    def banner(self, resumed: bool) -> None:
        chat = self.chat
        what = "resumed" if resumed else "new"
        self.say(f"ptc chat: {what} session {chat.session_id} ({chat.mode} mode). /help for commands, /quit to leave.",
                 "bold")
        if resumed:
            entries = chat.view("display")
            self.say(f"{len(entries)} entries so far; the last ones:", "dim")
            self.print_entries(entries[-3:])
        self.notice_pending()

    def notice_pending(self) -> None:
        failed = self.chat.pending_error()
        if failed is not None:
            detail = next((b.content for b in failed.blocks if b.type == "llm_error"), "LLM_ERROR")
            self.say(f"The last reply failed ({detail}). Type 'continue' to ask again.", "yellow")

    def print_entries(self, entries: Iterable[Any]) -> None:
        from rich.markup import escape

        for e in entries:
            pad = "  " * e.depth
            if e.kind == "node":
                self.console.print(f"{pad}[dim]+ {escape(e.role)} #{e.node.id if e.node else '?'}:[/dim] "
                                   f"{escape(_one_line(e.text))}")
                continue
            where = f"#{e.first_seq}" if e.first_seq == e.last_seq else f"#{e.first_seq}-{e.last_seq}"
            style = ROLE_STYLE.get(e.role, "")
            status = "" if e.status == "active" else f" [dim]({escape(e.status)})[/dim]"
            label = f"summary of {e.hidden} messages" if e.kind == "summary" else e.role
            if e.error:
                style = "red"
            head = f"{pad}[dim]{where}[/dim] [{style or 'default'}]{escape(label)}[/]{status}:"
            body = e.text if len(e.text) <= 2000 else e.text[:2000] + " ..."
            if "\n" in body or len(body) > 80:
                self.console.print(head)
                for line in body.splitlines():
                    self.console.print(f"{pad}  {escape(line)}")
            else:
                self.console.print(f"{head} {escape(body)}")
            for child in e.children:
                self.console.print(f"{pad}  [dim]|[/dim] {escape(_one_line(child))}")

    def show_reply(self, reply: Any) -> None:
        if reply.compacted is not None:
            self.say(f"(context compacted: {reply.compacted})", "dim")
        if reply.ok:
            prefix = "answer: " if reply.mode == "agent" else ""
            self.say(prefix + reply.text, "green" if reply.mode == "agent" else None)
        elif reply.error_kind == "run":
            self.say(f"the run failed: {reply.error}", "red")
        else:
            if reply.text:
                self.say(reply.text)
            self.say(f"{reply.error}. Type 'continue' to ask again.", "red")
        self.failed = not reply.ok

    # -- input -------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """One input line; False when the user leaves."""
        text = line.strip()
        if not text:
            return True
        if text.lower() in QUIT:
            return False
        if text.startswith("/"):
            self.command(text)
            return True
        try:
            if text.lower() == "continue" and self.chat.pending_error() is not None:
                reply = self.chat.continue_()
            else:
                reply = self.chat.send(line.rstrip("\r\n"))
        except KeyboardInterrupt:
            self.say("interrupted", "red")
            return True
        except Exception as e:  # noqa: BLE001 - report and keep the conversation going
            from .common import report_internal_error

            report_internal_error(e)
            return True
        self.show_reply(reply)
        return True

    def command(self, text: str) -> None:
        name, _, rest = text.partition(" ")
        arg = rest.strip()
        chat = self.chat
        if name == "/help":
            self.say(HELP_TEXT)
        elif name == "/mode":
            if not arg:
                self.say(f"mode: {chat.mode} (switch with /mode chat or /mode agent)")
            elif arg not in ("chat", "agent"):
                self.say(f"unknown mode {arg!r}: use /mode chat or /mode agent", "red")
            else:
                chat.set_mode(arg)
                chat.usage()
                self.say(f"mode: {arg}")
        elif name == "/compact":
            done = chat.compact()
            self.say(str(done) if done is not None else "nothing to compact", None if done else "dim")
        elif name == "/view":
            kind = arg or "display"
            if kind not in VIEWS:
                self.say(f"unknown view {kind!r}: use /view context, /view display or /view full", "red")
            elif kind == "context":
                self.say(chat.view_text("context"))
            else:
                entries = chat.view(kind)
                if not entries:
                    self.say("(empty)", "dim")
                self.print_entries(entries)
        elif name == "/rollback":
            try:
                n = int(arg)
            except ValueError:
                self.say("usage: /rollback N (N = the # of an entry in /view display)", "red")
                return
            try:
                hidden = chat.rollback(n)
            except Exception as e:  # noqa: BLE001 - InvalidRange, ValueError: show the reason
                self.say(f"cannot roll back to {n}: {e}", "red")
                return
            chat.usage()
            self.say(f"rolled back to #{n}: {hidden} message{'s' if hidden != 1 else ''} hidden")
        elif name == "/stats":
            s = chat.stats()
            ctx = s["context"]
            self.say(f"session {s['session']} ({s['mode']} mode, {s['renderer']} context, numbering {s['numbering']})")
            msgs = s["messages"]
            self.say(f"messages: {msgs.get('active', 0)} active, {msgs.get('compressed', 0)} compressed, "
                     f"{msgs.get('invalid', 0)} invalid; {s['active_tokens']:,} active tokens")
            self.say(f"compressions: {s['compressions']}, tokens saved: {s['tokens_saved']:,}")
            nodes = ", ".join(f"{k} {v}" for k, v in sorted(s["nodes"].items())) or "none"
            self.say(f"nodes: {nodes}; artifacts: {s['artifacts']}")
            self.say(f"context: {ctx['used']:,}/{ctx['budget']:,} tokens ({ctx['percent']:.0f}%, {ctx['status']})")
        elif name == "/session":
            self.say(f"session: {chat.session_id}  title: {chat.title!r}  mode: {chat.mode}")
            self.say(f"store: {chat.store.safe_url}")
            self.say(f"artifacts: {chat.artifacts.root}")
            db = f" --db {self.db}" if self.db else ""
            self.say(f"resume with: ptc chat --session {chat.session_id}{db}")
        else:
            self.say(f"unknown command {name}; /help lists them", "red")


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def run_interactive(ui: ChatUI) -> int:
    from prompt_toolkit import PromptSession

    session: Any = PromptSession(history=prompt_history(history_path()))
    while True:
        try:
            line = session.prompt(ui.prompt_text())
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        if not ui.handle(line):
            break
    ui.say(f"bye. resume with: ptc chat --session {ui.chat.session_id}" + (f" --db {ui.db}" if ui.db else ""), "dim")
    return 0


def run_piped(ui: ChatUI, stream: TextIO) -> int:
    for line in stream:
        if not ui.handle(line):
            break
        if line.strip() and not line.strip().startswith("/"):
            ui.say(indicator(ui.chat.last_usage), "dim")
    return 1 if ui.failed else 0


def _open_store(db: str | None) -> Any:
    from ptc.store import Store, StoreError

    try:
        return Store(db)
    except StoreError as e:
        raise click.ClickException(str(e)) from e
    except Exception as e:  # noqa: BLE001 - a bad URL or an unreachable server
        raise click.ClickException(f"cannot open the store {db or '(default)'}: {e}") from e


@click.command("chat", epilog=EPILOG)
@click.option("--session", "session_id", metavar="ID", help="Resume this session (a unique id prefix is enough).")
@click.option("--db", metavar="URL", default=None,
              help="The store: a SQLite file or a SQLAlchemy URL (default $PTC_STORE_URL, else $PTC_HOME/ptc.db).")
@click.option("--model", default=None, help="Any litellm model name (default openai/gpt-4o-mini).")
@server_options
@click.option("--replay", metavar="CASSETTE", help="Answer from a recorded cassette.")
@click.option("--record", type=click.Path(dir_okay=False), metavar="CASSETTE",
              help="Record the model's answers to a cassette (replay it with --replay).")
@click.option("--script", "script", metavar="FILE.json",
              help="Answer from a JSON list of replies (offline; for demos and tests).")
@click.option("--mode", type=click.Choice(["chat", "agent"]), default=None,
              help="Start in this mode (default: the session's mode, else chat).")
@data_option
@tools_option("Tools for agent mode")
@mcp_options
@click.option("--numbering", type=click.Choice(["positional", "absolute", "none"]), default="positional",
              show_default=True, help="How the model sees its history numbered.")
@click.option("--context", "renderer", type=click.Choice(["builder", "forest"]), default=None,
              help="How the model's context is rendered (default: builder).")
@click.option("--budget", type=click.IntRange(min=1000), default=None,
              help="Context window in tokens (default 16000); compaction starts at 80% of it.")
@click.option("--max-turns", type=click.IntRange(1, 100), default=5, show_default=True,
              help="Programs per agent-mode request.")
@click.option("--title", default=None, help="Title of a new session.")
def chat_cmd(session_id: str | None, db: str | None, model: str | None, api_base: str | None, api_key: str | None,
             replay: str | None, record: str | None,
             script: str | None,
             mode: str | None, data_specs: tuple[str, ...], tool_specs: tuple[str, ...], mcp_servers: tuple[str, ...],
             mcp_headers: tuple[str, ...], numbering: str,
             renderer: str | None, budget: int | None, max_turns: int, title: str | None) -> None:
    """Chat with a model over a stored session; /help inside lists the commands."""
    from rich.console import Console

    from ptc.conversation.session import ChatSession, default_settings
    from ptc.store import NotFound, StoreError

    from .turns_view import show_turn

    if sum(x is not None for x in (model, replay, script)) > 1:
        raise click.UsageError("give one of --model, --replay and --script")
    if (api_base or api_key) and (replay or script):
        raise click.UsageError("--api-base and --api-key go with --model, not --replay or --script")
    if "-" in data_specs:
        raise click.UsageError("the chat reads messages from stdin; give --data a file")
    # the session first: a resume of one that is not there says so before the model's key is asked for
    store = _open_store(db)
    resumed = session_id is not None
    if session_id is not None:
        try:
            session_id = store.resolve_session(session_id)
        except NotFound:
            raise click.ClickException(f"no session {session_id!r} in {store.safe_url} (ptc sessions list)") from None
        except StoreError as e:
            raise click.ClickException(str(e)) from None
    llm: Any
    if script:
        llm = load_script(script)
    elif replay:
        llm = open_replay(replay, strict=False)  # tool-call ids carry run ids: replay in order
    else:
        llm = model_llm(model or "openai/gpt-4o-mini", api_base, api_key)
    if record:
        import ptc

        llm = ptc.RecordingLLM(llm, record)
    data = load_data(data_specs)
    tools = load_tools(tool_specs) + load_mcp_tools(mcp_servers, mcp_headers)
    overrides: dict[str, Any] = {"numbering": numbering}
    if budget is not None:
        overrides.update(budget=budget, reserve_for_reply=min(2000, budget // 8))
    console = Console(highlight=False, soft_wrap=True)

    def on_event(event: Any) -> None:
        if event.type == "turn_finished":
            show_turn(event.data["record"], console)

    try:
        chat = ChatSession(store, session_id, llm=llm, tools=tools, data=data, mode=mode,
                           settings=default_settings(**overrides), title=title, max_turns=max_turns,
                           renderer=renderer, on_event=on_event)
    except (ValueError, TypeError) as e:
        raise click.ClickException(str(e)) from e
    ui = ChatUI(chat, console, db=db)
    try:
        if sys.stdin.isatty() and sys.stdout.isatty():
            ui.banner(resumed)
            code = run_interactive(ui)
        else:
            if resumed:
                ui.notice_pending()
            code = run_piped(ui, sys.stdin)
    finally:
        store.close()
    sys.exit(code)
