"""Every command and subcommand's --help shows examples."""

import click
import pytest
from click.testing import CliRunner

from ptc.cli.main import COMMANDS, main


def all_commands() -> list[list[str]]:
    out = []
    ctx = click.Context(main)
    for name in COMMANDS:
        cmd = main.get_command(ctx, name)
        out.append([name])
        if isinstance(cmd, click.Group):
            out += [[name, sub] for sub in cmd.list_commands(ctx)]
    return out


@pytest.mark.parametrize("path", all_commands(), ids=lambda p: " ".join(p))
def test_help_has_examples(path: list[str]) -> None:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output, result.output


def test_version() -> None:
    import ptc

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and ptc.__version__ in result.output
