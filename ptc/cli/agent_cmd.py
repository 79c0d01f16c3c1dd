"""`ptc agent`: give a mission, data and tools to a model and watch it work."""

from __future__ import annotations

import sys
from typing import Any

import click

from .common import (chart_option, compression_option, data_option, load_data, load_tools, model_llm, open_replay,
                     prompt_option, run_limits, save_chart, server_options, tools_option)
from .mcp_options import load_mcp_tools, mcp_options, tool_search_option
from .turns_view import progress_printer

EPILOG = """\b
Examples:
  ptc agent "Which region has the most revenue?" --data orders.json --model openai/gpt-4o-mini
  ptc agent "Top 3 customers by revenue?" --data sales.csv --data shop.db --model openai/gpt-4o-mini
  ptc agent "Email the top 3 customers" --tools ptc.examples.tools:analysis_tools --compression
  ptc agent "..." --data orders.json --compression append --prompt compact  # cheapest under caching
  ptc agent "..." --data orders.json --replay run.jsonl     # answers from a recorded cassette
  ptc agent "..." --model ollama_chat/llama3.1 --api-base http://localhost:11434  # a local model
  ptc agent "..." --model openai/gpt-4o-mini --record run.jsonl  # record a cassette while running
  ptc agent "What is the weather in Oslo?" --mcp "python weather_server.py"   # an MCP server's tools
  ptc agent "Chart revenue by region" --data orders.json --chart revenue.png  # the answer as a picture
"""


@click.command("agent", epilog=EPILOG)
@click.argument("mission")
@data_option
@tools_option("Tools to offer")
@mcp_options
@tool_search_option
@click.option("--model", default="openai/gpt-4o-mini", show_default=True, help="Any litellm model name.")
@server_options
@click.option("--max-turns", type=click.IntRange(1, 100), default=5, show_default=True)
@compression_option
@prompt_option
@click.option("--signature", default=None, help='Shape of the result, e.g. "{total :float, items [:string]}".')
@click.option("--replay", metavar="CASSETTE", help="Answer from a recorded cassette.")
@click.option("--record", type=click.Path(dir_okay=False), help="Record the model's answers to a cassette.")
@click.option("--trace", type=click.Path(), help="Write a JSONL trace (a file, or a directory for one per run).")
@run_limits
@chart_option
def agent_cmd(mission: str, data_specs: tuple[str, ...], tool_specs: tuple[str, ...], mcp_servers: tuple[str, ...],
              mcp_headers: tuple[str, ...], tool_search: bool | int | None, model: str, api_base: str | None, api_key: str | None,
              max_turns: int, compression: str, prompt_profile: str, signature: str | None,
              replay: str | None, record: str | None, trace: str | None, limits: Any,
              chart_path: str | None) -> None:
    """Let a model solve MISSION by writing PTC-Lisp, with live progress."""
    import ptc

    if replay and (api_base or api_key):
        raise click.UsageError("--api-base and --api-key go with --model, not --replay")
    data = load_data(data_specs)
    tools = load_tools(tool_specs) + load_mcp_tools(mcp_servers, mcp_headers)
    llm: Any = open_replay(replay) if replay else model_llm(model, api_base, api_key)
    if record:
        llm = ptc.RecordingLLM(llm, record)
    try:
        agent = ptc.Agent(mission, tools=tools, data=data, llm=llm, max_turns=max_turns, compression=compression,
                          prompt=prompt_profile, signature=signature, limits=limits, on_event=progress_printer(), trace=trace,
                          tool_search=tool_search)
    except (ValueError, TypeError) as e:
        raise click.ClickException(str(e)) from e
    step = agent.run()
    if chart_path and step.ok:
        sys.exit(save_chart(step.value, chart_path))
    sys.exit(0 if step.ok else 1)
