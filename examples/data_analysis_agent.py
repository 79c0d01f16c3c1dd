"""A multi-turn data-analysis agent: explore, aggregate, return a typed answer.

The model looks at orders and products through typed tools, joins and aggregates them in
PTC-Lisp (the rows never pass through the model's context, only what it prints) and returns
a value checked against a signature. The scripted replies, and the Python that computes the
right answer, are in `ptc/scenarios/demo.py` ("data-analysis"); every program is printed.

    python examples/data_analysis_agent.py                             # offline, scripted replies
    python examples/data_analysis_agent.py --model openai/gpt-4o-mini  # a real model (API key needed)
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

import ptc
from ptc.examples.report import choose_llm, parse_args, print_step
from ptc.scenarios.demo import ANALYSIS_MISSION, ANALYSIS_REPLIES, ANALYSIS_SIGNATURE, SCENARIOS
from ptc.examples.tools import analysis_tools

MISSION = ANALYSIS_MISSION
SIGNATURE = ANALYSIS_SIGNATURE  # "{top-category :string, revenue :float, orders :int, share :float}"
REPLIES = ANALYSIS_REPLIES


def make_agent(llm: Any) -> ptc.Agent:
    return ptc.Agent(MISSION, tools=analysis_tools(), signature=SIGNATURE, max_turns=6, llm=llm)


def run(llm: Any = None) -> ptc.Step:
    """Run the mission (with the scripted replies unless `llm` is given)."""
    return make_agent(llm if llm is not None else ptc.ScriptedLLM(REPLIES)).run()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(__doc__, argv)
    agent = make_agent(choose_llm(args.model, REPLIES))
    step = agent.run()
    print_step(step, agent.tools, quiet=args.quiet)
    if step.ok and not args.quiet:  # grade the answer against the one computed in Python
        problems = SCENARIOS["data-analysis"].check(step)
        print("answer: correct" if not problems else "answer: WRONG\n  " + "\n  ".join(problems))
    return 0 if step.ok else 1


if __name__ == "__main__":
    sys.exit(main())
