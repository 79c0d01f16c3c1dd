"""05 - Compressed history, traces, and what the model saw.

With `compression=True` the model gets one user message that summarizes earlier turns
(tool calls, definitions with samples, printed output, failed attempts verbatim) instead
of the whole conversation. A trace records every event; `ptc trace show` renders it.

    python examples/05_compression_and_traces.py
"""

import tempfile
from pathlib import Path

import ptc


def block(code: str) -> str:
    return f"```clojure\n{code}\n```"


SCRIPT = [
    block('(def reviews (tool/reviews {:product "tent"}))\n(println "reviews:" (count reviews))'),
    block("(def average (/ (reduce + (map :stars reviews)) (count reviews)))"),
    block("(return {:average average :worst (:text (apply min-key :stars reviews))})"),
]


@ptc.tool
def reviews(product: str) -> list[dict]:
    """Customer reviews of a product."""
    return [{"stars": 5, "text": "great"}, {"stars": 2, "text": "leaks in rain"}, {"stars": 4, "text": "roomy"}]


def main() -> ptc.Step:
    trace = Path(tempfile.mkdtemp()) / "run.jsonl"
    llm = ptc.ScriptedLLM(SCRIPT)
    step = ptc.Agent("How do customers rate the tent?", tools=[reviews], llm=llm, compression=True,
                     trace=trace).run()
    print("answer:", step.value)
    print("\nwhat the model saw before its last turn:\n")
    print(llm.requests[-1][-1]["content"])
    stats = step.usage.compression
    print(f"\nprompt tokens: {stats['prompt_tokens']} with compression, {stats['full_history_tokens']} "
          f"with full history")
    print(f"trace: {trace} (try: ptc trace show {trace} --view compressed)")
    return step


if __name__ == "__main__":
    main()
