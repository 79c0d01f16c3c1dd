"""`ptc sandbox spec`: the tool definition another agent gets for ptc (`ptc.Sandbox`)."""

from __future__ import annotations

import json

import click

from .common import data_option, limits_option, load_data, load_tools, parse_limits, tools_option
from .mcp_options import load_mcp_tools, mcp_options

EPILOG = """\b
Examples:
  ptc sandbox spec --data orders.json --tools ptc.examples.tools:analysis_tools
  ptc sandbox spec --data orders.json --format anthropic > run_ptc_lisp.json
  ptc sandbox spec --format text --prompt default     # the description as text
  ptc sandbox spec --mcp "python server.py" --brief   # rules for your system prompt: --format text
"""


@click.group("sandbox", epilog=EPILOG)
def sandbox_group() -> None:
    """ptc as the code tool of another agent (Python: ptc.Sandbox; see docs/sandbox.md)."""


@sandbox_group.command("spec", epilog=EPILOG)
@data_option
@tools_option("Tools the programs may call")
@mcp_options
@click.option("--format", "fmt", type=click.Choice(["openai", "anthropic", "text"]), default="openai",
              show_default=True, help="An OpenAI/litellm or Anthropic tool definition (JSON), or the description text.")
@click.option("--brief", is_flag=True, help="Keep the description to two sentences (the rules go in your system "
                                            "prompt: print them with --format text).")
@click.option("--name", default="run_ptc_lisp", show_default=True, help="The tool's name.")
@click.option("--prompt", "prompt_profile", type=click.Choice(["default", "compact"]), default="compact",
              show_default=True, help="How the language is described: compact (Clojure minus what differs) or "
                                      "default (every function listed).")
@limits_option
def spec_cmd(data_specs: tuple[str, ...], tool_specs: tuple[str, ...], mcp_servers: tuple[str, ...],
             mcp_headers: tuple[str, ...], fmt: str, brief: bool, name: str, prompt_profile: str,
             limits_text: str | None) -> None:
    """Print the definition of the run_ptc_lisp tool over these tools and data (what
    ptc.Sandbox(...).openai_tool() gives)."""
    import ptc

    tools = load_tools(tool_specs) + load_mcp_tools(mcp_servers, mcp_headers)
    try:
        sandbox = ptc.Sandbox(tools=tools, data=load_data(data_specs), name=name, prompt=prompt_profile,
                              limits=parse_limits(limits_text))  # the spec states each program's time
    except (ValueError, TypeError) as e:
        raise click.ClickException(str(e)) from e
    if fmt == "text":
        click.echo(sandbox.instructions)
        return
    spec = sandbox.openai_tool(brief=brief) if fmt == "openai" else sandbox.anthropic_tool(brief=brief)
    click.echo(json.dumps(spec, indent=2, ensure_ascii=False))
