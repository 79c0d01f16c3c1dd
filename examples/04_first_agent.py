"""04 - An agent: the model writes the programs.

`ptc.Agent` gives a mission, tools and data to a model; it writes a PTC-Lisp program per
turn until one calls `(return v)`. Offline, a `ScriptedLLM` plays the model; pass
`--model openai/gpt-4o-mini` (or any litellm model) to use a real one.

    python examples/04_first_agent.py [--model MODEL]
"""

import argparse

import ptc

SCRIPT = [
    "Let me look at the data first.\n```clojure\n(println (count data/sales) (first data/sales))\n```",
    "Now the totals per region.\n```clojure\n"
    "(def totals (update-vals (group-by :region data/sales) #(reduce + (map :amount %))))\n"
    "(return (let [[region amount] (apply max-key val totals)] {:region region :amount amount}))\n```",
]
SALES = [{"region": "north", "amount": 120.0}, {"region": "south", "amount": 300.0},
         {"region": "north", "amount": 90.0}, {"region": "east", "amount": 40.0}]


def main(model: str | None = None) -> ptc.Step:
    agent = ptc.Agent("Which region sold the most, and how much?", data={"sales": SALES},
                      signature="{region :string, amount :float}",
                      llm=model if model else ptc.ScriptedLLM(SCRIPT))
    step = agent.run()
    for turn in step.turns:
        print(f"--- turn {turn.number}: {'ok' if turn.success else turn.error.format()}")
        print(turn.program)
        for line in turn.prints:
            print("  |", line)
    print("answer:", step.value, "| tokens:", step.usage.total.prompt_tokens, "+", step.usage.total.completion_tokens)
    return step


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--model")
    main(ap.parse_args().model)
