"""Run a scenario and print it turn by turn: `python -m ptc.examples [SCENARIO] [--model M]`.

Without --model the scenario's scripted replies are replayed (offline, no API key); with a
litellm model name a real model solves the same mission and the answer is graded.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence, TextIO

from .report import print_step
from ..scenarios.demo import SCENARIOS, get
from .tools import Outbox


def run_scenario(name: str, model: str | None = None, *, quiet: bool = False, file: TextIO | None = None) -> int:
    """Run one scenario, print its turns, outcome and grade; 0 when the answer is right."""
    scenario = get(name)
    out = file if file is not None else sys.stdout
    outbox = Outbox() if scenario.uses_outbox else None
    agent = scenario.agent(model, outbox=outbox)
    if not quiet:
        print(f"# {scenario.title}\n\nmission: {scenario.mission}\n", file=out)
    step = agent.run()
    print_step(step, agent.tools, quiet=quiet, file=out)
    problems = scenario.check(step, outbox)
    if not quiet:
        if outbox is not None:
            print("\n" + outbox.render(), file=out)
        if step.ok:
            print("\nanswer: correct" if not problems else "\nanswer: WRONG\n  " + "\n  ".join(problems), file=out)
    return 0 if not problems else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ptc.examples", description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="?", choices=[*SCENARIOS, "all"], default="all")
    parser.add_argument("--model", default=None, help="a litellm model name (default: scripted replies)")
    parser.add_argument("--quiet", action="store_true", help="print only the final values")
    args = parser.parse_args(list(argv) if argv is not None else None)
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    status = 0
    for i, name in enumerate(names):
        if i and not args.quiet:
            print()
        status |= run_scenario(name, args.model, quiet=args.quiet)
    return status
