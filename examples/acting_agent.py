"""An agent that acts: it sends emails and books a meeting through tools that return nil.

Action tools (`tool/send-email`, `tool/book-meeting`) return nothing useful; what matters is
their effect. Here the effect is recorded in an in-memory `Outbox` (nothing is really sent),
which the script prints at the end. The agent investigates first, acts in later turns (each
action exactly once) and returns a summary of what it did. The scripted replies are in
`ptc/scenarios/demo.py` ("acting"); every program is printed.

    python examples/acting_agent.py                             # offline, scripted replies
    python examples/acting_agent.py --model openai/gpt-4o-mini  # a real model (API key needed)
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

import ptc
from ptc.examples.report import choose_llm, parse_args, print_step
from ptc.scenarios.demo import ACTING_MISSION, ACTING_REPLIES, ACTING_SIGNATURE, SCENARIOS
from ptc.examples.tools import Outbox, action_tools, analysis_tools

MISSION = ACTING_MISSION
SIGNATURE = ACTING_SIGNATURE  # "{emails-sent :int, meeting-attendees [:string], unapproved-total :float}"
REPLIES = ACTING_REPLIES


def make_agent(llm: Any, outbox: Outbox) -> ptc.Agent:
    # read-only tools to investigate, action tools that record into the outbox
    return ptc.Agent(MISSION, tools=[*analysis_tools(), *action_tools(outbox)], signature=SIGNATURE,
                     max_turns=6, llm=llm)


def run(llm: Any = None, outbox: Outbox | None = None) -> tuple[ptc.Step, Outbox]:
    """Run the mission (scripted unless `llm` is given); returns the step and the outbox."""
    outbox = outbox if outbox is not None else Outbox()
    step = make_agent(llm if llm is not None else ptc.ScriptedLLM(REPLIES), outbox).run()
    return step, outbox


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(__doc__, argv)
    outbox = Outbox()
    agent = make_agent(choose_llm(args.model, REPLIES), outbox)
    step = agent.run()
    print_step(step, agent.tools, quiet=args.quiet)
    if not args.quiet:
        print()
        print(outbox.render())
    if step.ok and not args.quiet:  # grade the outcome against the one computed in Python
        problems = SCENARIOS["acting"].check(step, outbox)
        print("\noutcome: correct" if not problems else "\noutcome: WRONG\n  " + "\n  ".join(problems))
    return 0 if step.ok else 1


if __name__ == "__main__":
    sys.exit(main())
