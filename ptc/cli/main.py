"""The `ptc` console script: a thin click group whose commands live in their own modules.

Commands are imported only when they are invoked (or when `--help` lists them), so
`import ptc.cli.main` and `ptc --version` stay fast. To add a command, write a module
defining a click command and add one line to `COMMANDS`.
"""

from __future__ import annotations

import importlib

import click

from ptc import __version__

# command name -> "module:attribute" of the click command implementing it
COMMANDS: dict[str, str] = {
    "eval": "ptc.cli.eval_cmd:eval_cmd",
    "run": "ptc.cli.eval_cmd:run_cmd",
    "repl": "ptc.cli.repl:repl_cmd",
    "bench": "ptc.cli.bench_cmd:bench",
    "agent": "ptc.cli.agent_cmd:agent_cmd",
    "demo": "ptc.cli.demo_cmd:demo_cmd",
    "trace": "ptc.cli.trace_cmd:trace_group",
    "sessions": "ptc.cli.sessions_cmd:sessions_group",
    "suite": "ptc.cli.suite_cmd:suite_group",
    "chat": "ptc.cli.chat_cmd:chat_cmd",
    "sandbox": "ptc.cli.sandbox_cmd:sandbox_group",
    "mcp": "ptc.cli.mcp_cmd:mcp_group",
}


class LazyGroup(click.Group):
    """A click group that imports each command's module on first use."""

    def __init__(self, *args: object, lazy_commands: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands:
            return self._load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def _load(self, cmd_name: str) -> click.Command:
        module_name, attr = self.lazy_commands[cmd_name].split(":")
        command = getattr(importlib.import_module(module_name), attr)
        if not isinstance(command, click.Command):
            raise RuntimeError(f"{module_name}:{attr} is not a click command")
        return command


EPILOG = """\b
Examples:
  ptc demo
  ptc eval '(+ 1 2)'
  ptc run examples/cli/orders.clj --data examples/cli/orders.json
  ptc repl
  ptc agent "Which region sells most?" --data orders.json --model openai/gpt-4o-mini
  ptc trace show run.jsonl --view compressed
  ptc bench tokens --plot tokens.png
  ptc sessions list
  ptc suite run bundled --replay bundled --compression none,coalesced
  ptc chat --mode agent --data orders.json --model openai/gpt-4o-mini
  ptc sandbox spec --data orders.json --format anthropic
  ptc mcp serve --mcp "python examples/mcp/inventory_server.py"
"""


@click.group(
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    epilog=EPILOG,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "-V", "--version", prog_name="ptc", message="%(prog)s %(version)s")
def main() -> None:
    """ptc: run PTC-Lisp, a safe subset of Clojure that LLMs write, in a sandbox."""


if __name__ == "__main__":  # pragma: no cover
    main()
