"""An agent that recovers from its own mistakes.

The first program passes a status the tool does not accept; the tool's validation error
(which lists the accepted values) is fed back. The second fixes that but reads `:unit-price`
where the orders say `unit_price`, so it multiplies nil; that runtime error, with its line
and column, is fed back too. The third program works, and the fourth returns a value that
is validated against a pydantic model (`step.value` is a `TopCustomer`).

A failed turn keeps none of its `def`s, so the fix fetches the orders again. The scripted
replies are in `ptc/scenarios/demo.py` ("recovering"); every program is printed.

    python examples/recovering_agent.py                             # offline, scripted replies
    python examples/recovering_agent.py --model openai/gpt-4o-mini  # a real model (API key needed)
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

import ptc
from ptc.examples.report import choose_llm, parse_args, print_step
from ptc.scenarios.demo import RECOVERING_MISSION, RECOVERING_REPLIES, SCENARIOS, TopCustomer
from ptc.examples.tools import analysis_tools

MISSION = RECOVERING_MISSION
REPLIES = RECOVERING_REPLIES


def make_agent(llm: Any) -> ptc.Agent:
    # signature=TopCustomer: the returned map is validated by pydantic and becomes a TopCustomer
    return ptc.Agent(MISSION, tools=analysis_tools(), signature=TopCustomer, max_turns=6, llm=llm)


def run(llm: Any = None) -> ptc.Step:
    """Run the mission (with the scripted replies unless `llm` is given)."""
    return make_agent(llm if llm is not None else ptc.ScriptedLLM(REPLIES)).run()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(__doc__, argv)
    agent = make_agent(choose_llm(args.model, REPLIES))
    step = agent.run()
    print_step(step, agent.tools, quiet=args.quiet)
    if not args.quiet:
        failed = [str(t.number) for t in step.turns if t.error is not None]
        if failed:
            print(f"errors fed back in turn(s) {', '.join(failed)}; "
                  + ("recovered" if step.ok else "did not recover"))
    if step.ok and not args.quiet:  # grade the answer against the one computed in Python
        problems = SCENARIOS["recovering"].check(step)
        print("answer: correct" if not problems else "answer: WRONG\n  " + "\n  ".join(problems))
    return 0 if step.ok else 1


if __name__ == "__main__":
    sys.exit(main())
