"""`ptc repl`: an interactive PTC-Lisp session.

Definitions (`def`, `defn`) persist between entries: each run's memory is passed to the
next one, and the last three values are available as `*1`, `*2`, `*3`. An entry spans
several lines while its brackets are unbalanced (brackets in strings, character literals
and comments do not count).

On a terminal the prompt uses prompt_toolkit (history in ~/.ptc_history, or
$PTC_HOME/history when PTC_HOME is set; Tab completes names). When stdin is not a
terminal, entries are read from stdin line by line with the same multi-line rule and
each result is printed, so a REPL session can be piped in.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterable, Iterator, TextIO

import click

from .balance import is_complete
from .common import data_option, history_file, load_data, prompt_history, run_limits

PROMPT = "ptc> "
CONTINUATION = "...> "
HISTORY_SIZE = 3  # *1 *2 *3

QUIT_COMMANDS = {":quit", ":exit"}
HELP_TEXT = """\
Enter PTC-Lisp forms; an entry continues over several lines until its brackets balance.
Definitions persist between entries; *1 *2 *3 are the last three values.
  :memory   list the names defined so far
  :reset    forget all definitions and *1 *2 *3
  :help     show this text
  :quit     leave (also :exit or Ctrl-D)"""
COMMANDS = QUIT_COMMANDS | {":help", ":memory", ":reset"}

REPL_EPILOG = """\b
Examples:
  ptc repl
  ptc repl --data examples/cli/orders.json
  printf '(def x 20)\\n(+ x 1)\\n(* *1 2)\\n' | ptc repl
      #'user/x
      21
      42
"""


def history_path() -> Path:
    """Where the interactive prompt keeps its history."""
    return history_file("history", ".ptc_history")


class ReplSession:
    """The state carried between entries: memory (definitions) and the last values."""

    def __init__(self, data: Any = None, limits: Any = None, out: TextIO | None = None, err: TextIO | None = None):
        self.data = data
        self.limits = limits
        self.memory: dict[str, Any] = {}
        self.history: list[Any] = []  # most recent first
        self.out = out
        self.err = err
        self.errors = 0

    def _echo(self, text: str) -> None:
        click.echo(text, file=self.out if self.out is not None else sys.stdout)

    def _err_stream(self) -> TextIO:
        return self.err if self.err is not None else sys.stderr

    def command(self, text: str) -> bool:
        """Handle a REPL command (`:help`, ...); False when `text` is not one."""
        cmd = text.strip()
        if cmd == ":help":
            self._echo(HELP_TEXT)
        elif cmd == ":memory":
            import ptc

            if not self.memory:
                self._echo("(nothing defined)")
            for name, value in self.memory.items():
                self._echo(f"{name} = {_short(ptc.pr_str(value, max_len=81))}")
        elif cmd == ":reset":
            self.memory.clear()
            self.history.clear()
            self._echo("memory and *1 *2 *3 cleared")
        else:
            return False
        return True

    def eval(self, source: str) -> bool:
        """Run one entry and print its output; True on success."""
        import ptc

        from .errors import print_error, print_message

        try:
            result = ptc.run(
                source,
                data=self.data,
                limits=self.limits,
                memory=dict(self.memory),
                history=tuple(self.history),
            )
        except ptc.PTCError as e:
            from .common import partial_prints

            self.errors += 1
            for line in partial_prints(e):
                self._echo(line)
            print_error(e, source, self._err_stream())
            return False
        except Exception as exc:  # a bug in ptc: report it and keep the session alive
            from .common import report_internal_error

            self.errors += 1
            report_internal_error(exc)
            return False
        for line in result.prints:
            self._echo(line)
        if result.memory:
            self.memory.update(result.memory)
        if getattr(result, "failed", False):
            self.errors += 1
            print_message(f"failed: {ptc.pr_str(result.value)}", self._err_stream())
            return False
        self._echo(ptc.pr_str(result.value))
        self.history.insert(0, result.value)
        del self.history[HISTORY_SIZE:]
        return True


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def entries(lines: Iterable[str]) -> Iterator[str]:
    """Group input lines into entries: a line starts an entry, which continues while unbalanced.

    Blank lines between entries are skipped; an unfinished entry at end of input is still
    yielded (so the parser can report what is missing).
    """
    buf: list[str] = []
    for line in lines:
        line = line.rstrip("\r\n")
        if not buf and not line.strip():
            continue
        buf.append(line)
        text = "\n".join(buf)
        if is_complete(text):
            buf = []
            if text.strip():
                yield text
    if buf and "\n".join(buf).strip():
        yield "\n".join(buf)


def run_piped(session: ReplSession, stream: TextIO) -> int:
    """The non-interactive REPL: entries from `stream`, results to stdout."""
    for entry in entries(stream):
        stripped = entry.strip()
        if stripped in QUIT_COMMANDS:
            break
        if session.command(stripped):
            continue
        session.eval(entry)
    return 1 if session.errors else 0


def _completer(session: ReplSession) -> Any:
    from prompt_toolkit.completion import Completer, Completion

    word_chars = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_?!*+<>=/.:'&%$")

    class NameCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Any]:
            text = document.text_before_cursor
            i = len(text)
            while i > 0 and text[i - 1] in word_chars:
                i -= 1
            word = text[i:]
            if not word:
                return
            for name in sorted(self.names()):
                if name.startswith(word) and name != word:
                    yield Completion(name, start_position=-len(word))

        def names(self) -> set[str]:
            found: set[str] = set(COMMANDS) | {"*1", "*2", "*3"}
            found.update(session.memory)
            if isinstance(session.data, dict):
                found.update(f"data/{k}" for k in session.data if isinstance(k, str))
            try:
                from ptc.interpreter import registry

                registry.load_library()
                found.update(registry.REGISTRY)
                found.update(registry.SPECIAL_FORMS)
            except Exception:  # completion must never break the prompt
                pass
            return found

    return NameCompleter()


def _prompt_session(session: ReplSession) -> Any:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.key_binding import KeyBindings

    kb = KeyBindings()

    @kb.add("enter")
    def _enter(event: Any) -> None:
        buf = event.current_buffer
        if buf.text.strip() in COMMANDS or is_complete(buf.text):
            buf.validate_and_handle()
        else:
            buf.insert_text("\n")

    @kb.add("escape", "enter")
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    history = prompt_history(history_path())

    lexer = None
    try:
        from prompt_toolkit.lexers import PygmentsLexer
        from pygments.lexers import ClojureLexer

        lexer = PygmentsLexer(ClojureLexer)
    except ImportError:
        pass

    return PromptSession(
        history=history,
        multiline=True,
        key_bindings=kb,
        # a long line wrapped by the terminal is one line of the entry: no continuation prompt in it
        prompt_continuation=lambda width, line_number, is_soft_wrap: "" if is_soft_wrap else CONTINUATION.rjust(width),
        lexer=lexer,
        completer=_completer(session),
        complete_while_typing=False,
        enable_history_search=False,
    )


def run_interactive(session: ReplSession) -> int:
    """The prompt_toolkit REPL on a terminal."""
    prompt = _prompt_session(session)
    click.echo(f"ptc {_version()} REPL. :help for help, :quit or Ctrl-D to leave.")
    while True:
        try:
            text = prompt.prompt(PROMPT)
        except KeyboardInterrupt:  # Ctrl-C clears the entry
            continue
        except EOFError:  # Ctrl-D
            break
        stripped = text.strip()
        if not stripped:
            continue
        if stripped in QUIT_COMMANDS:
            break
        if session.command(stripped):
            continue
        try:
            session.eval(text)
        except KeyboardInterrupt:
            from .errors import print_message

            print_message("interrupted")
    return 0


def _version() -> str:
    from ptc import __version__

    return __version__


@click.command("repl", epilog=REPL_EPILOG)
@data_option
@run_limits
def repl_cmd(data_specs: tuple[str, ...], limits: Any) -> None:
    """Start an interactive PTC-Lisp session.

    Definitions persist between entries and *1 *2 *3 hold the last three values.
    An entry continues over several lines while its brackets are unbalanced. Type
    :help for REPL commands, :quit or Ctrl-D to leave. When stdin is not a terminal,
    entries are read from it and each result is printed; the exit status is then 1 if
    any entry failed.
    """
    if "-" in data_specs:
        raise click.UsageError("the REPL reads entries from stdin; give --data a file")
    session = ReplSession(data=load_data(data_specs), limits=limits)
    if sys.stdin.isatty() and sys.stdout.isatty():
        sys.exit(run_interactive(session))
    sys.exit(run_piped(session, sys.stdin))
