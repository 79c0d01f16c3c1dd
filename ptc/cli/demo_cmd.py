"""`ptc demo`: a bundled mission, replayed offline from its committed cassette or solved live.

The cassettes hold scripted replies written for the demo (`ptc.examples.cassettes`), not a
recorded model; `--model` (and `--api-base`) sends the same mission to a real model.
"""

from __future__ import annotations

import sys

import click

from .common import chart_option, compression_option, model_llm, save_chart, server_options
from .turns_view import progress_printer

EPILOG = """\b
Examples:
  ptc demo                          # the data-analysis mission, replayed offline (scripted replies)
  ptc demo acting                   # an agent whose tools act (send email, book meeting)
  ptc demo recovering --compression # errors fed back and fixed, with compressed history
  ptc demo chart --chart revenue.png  # the answer is a chart, rendered on the host
  ptc demo --trace run.jsonl        # then: ptc trace show run.jsonl --view compressed
  ptc demo --store demo.db          # then: ptc sessions --db demo.db show demo
  ptc demo --model openai/gpt-4o-mini   # the same mission solved live by a real model
  ptc demo --model ollama_chat/llama3.1 --api-base http://localhost:11434   # ... by a local one
"""


@click.command("demo", epilog=EPILOG)
@click.argument("scenario", default="data-analysis",
                type=click.Choice(["data-analysis", "acting", "recovering", "chart"]))
@click.option("--model", default=None, help="Solve it live with this litellm model instead of the cassette.")
@server_options
@compression_option
@click.option("--trace", type=click.Path(dir_okay=True), help="Also write a JSONL trace of the run.")
@click.option("--store", "store_url", metavar="URL",
              help="Also record the run in a session store (a SQLAlchemy URL or a file path).")
@chart_option
def demo_cmd(scenario: str, model: str | None, api_base: str | None, api_key: str | None, compression: str,
             trace: str | None, store_url: str | None, chart_path: str | None) -> None:
    """Run a bundled example mission and show each turn.

    Offline by default: the replies come from a cassette of scripted replies written for the
    demo. With --model the same mission is sent to that model through litellm.
    """
    from ptc.examples.cassettes import cassette_path
    from ptc.scenarios.demo import get
    from ptc.examples.tools import Outbox
    from ptc.llm.cassette import ReplayLLM

    sc = get(scenario)
    if compression != "none" and model is None:
        raise click.UsageError("--compression changes the prompts, so it needs --model (the cassette "
                               "holds the uncompressed conversation)")
    if model is None and (api_base or api_key):
        raise click.UsageError("--api-base and --api-key need --model (without it the demo replays its cassette)")
    llm = model_llm(model, api_base, api_key) if model is not None else ReplayLLM(cassette_path(scenario))
    outbox = Outbox() if sc.uses_outbox else None
    store = None
    if store_url:
        from ptc.store import Store

        store = Store(store_url)
    agent = sc.agent(llm, outbox=outbox, compression=compression, on_event=progress_printer(), trace=trace,
                     store=store, session_id="demo" if store is not None else None)
    step = agent.run()
    if outbox is not None:
        click.echo("\n" + outbox.render())
    problems = sc.check(step, outbox)
    click.echo("\nanswer: correct" if not problems else "\nanswer: WRONG\n  " + "\n  ".join(problems))
    if chart_path and step.ok and save_chart(step.value, chart_path):
        sys.exit(1)
    sys.exit(0 if not problems else 1)
