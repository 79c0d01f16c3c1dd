"""ptc.Sandbox: PTC-Lisp as the function-calling tool of another agent's loop."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

import ptc

ORDERS = [{"id": 1, "customer": "ada", "amount": 120}, {"id": 2, "customer": "bob", "amount": 80},
          {"id": 3, "customer": "ada", "amount": 30}]


def customer(name: str) -> dict:
    """Look up a customer by name.

    Args:
        name: the customer's name.
    """
    return {"name": name, "city": {"ada": "London", "bob": "Paris"}.get(name, "?")}


def sandbox(**kw: Any) -> ptc.Sandbox:
    return ptc.Sandbox(tools=[customer], data={"orders": ORDERS}, **kw)


def args(program: str) -> str:
    return json.dumps({"program": program})


def test_the_definition_teaches_the_language_tools_and_data() -> None:
    sb = sandbox()
    spec = sb.openai_tool()
    assert spec["type"] == "function" and spec["function"]["name"] == "run_ptc_lisp"
    assert spec["function"]["parameters"]["required"] == ["program"]
    text = spec["function"]["description"]
    assert "(tool/customer {:name :string}) -> :map" in text and "the customer's name" in text
    assert "data/orders: list[3], sample: {:id 1, :customer \"ada\", :amount 120}" in text
    assert "Not available:" in text and "persist from one call" in text
    # the intro allows the interop the reference then lists (it said "without I/O or Java interop")
    assert "Java interop only for the common methods its reference lists" in text and "\nJava interop: " in text
    assert ptc.as_tool_spec(tools=[customer], data={"orders": ORDERS}) == spec
    anthropic = sb.anthropic_tool()
    assert anthropic["name"] == "run_ptc_lisp" and anthropic["input_schema"] == spec["function"]["parameters"]
    brief = sb.openai_tool(brief=True)["function"]["description"]
    assert "tool/customer" not in brief and "system prompt" in brief and "tool/customer" in sb.instructions
    assert "mapcat" in sandbox(prompt="default").instructions  # the full function list
    with pytest.raises(ValueError, match="1-64 letters"):
        ptc.Sandbox(name="run ptc")


def test_definitions_and_results_carry_from_call_to_call() -> None:
    sb = sandbox()
    first = sb.call(args('(def by-customer (group-by :customer data/orders))\n(println "groups:" (count by-customer))\n'
                         '(sum-by :amount (by-customer "ada"))'))
    assert first == "Output:\ngroups: 2\n\nResult: 150\n\nDefined: by-customer"
    second = sb.call({"program": "[(* 2 *1) (:city (tool/customer (ffirst by-customer)))]"})
    assert second == 'Result: [300 "London"]'
    assert list(sb.memory) == ["by-customer"]
    sb.reset()
    assert "by-customer" in sb.call(args("by-customer")) and not sb.memory


def test_a_failed_program_reports_where_and_keeps_the_definitions() -> None:
    sb = sandbox()
    sb.call(args("(def n 1)"))
    text = sb.call(args('(def n 2)\n(println "before")\n(+ n (:amount (first data/orders) "x") nil)'))
    assert text.startswith("Output:\nbefore\n\nerror[runtime] 3:")
    assert "hint:" in text
    assert sb.call(args("n")) == "Result: 1"  # the failed program's def did not land
    assert sb.call(args("(fail {:reason \"no data\"})")) == 'error[fail]: {:reason "no data"}'
    assert sb.call(args("(let [x 1] x")).startswith("error[parse] 1:1: unclosed '('")


@pytest.mark.parametrize("arguments, expected", [
    ("(+ 1 2)", "are not JSON"),
    ('["(+ 1 2)"]', "must be a JSON object, not list"),
    ('{"code": "(+ 1 2)"}', "need \"program\", a string (got keys ['code'])"),
    ({"program": 3}, "need \"program\", a string (got a int)"),
])
def test_bad_arguments_are_an_error_for_the_model_to_fix(arguments: Any, expected: str) -> None:
    text = sandbox().call(arguments)
    assert text.startswith("error[parse]: ") and expected in text
    assert 'hint: call it with one argument, the program: {"program": "(+ 1 2)"}' in text


def test_limits_apply_to_every_call() -> None:
    release = threading.Event()

    def slow() -> int:
        """Never answers in time."""
        release.wait(30)
        return 1

    sb = ptc.Sandbox(tools=[slow], limits=ptc.Limits(timeout=0.3, max_steps=10_000))
    try:
        assert "error[limit]" in sb.call(args("(tool/slow)")) and "abandoned" in sb.call(args("(tool/slow)"))
    finally:
        release.set()
    assert "error[limit]" in sb.call(args("(loop [i 0] (recur (inc i)))"))
    assert "not supported" in sb.call(args('(.getClass "x")')) or "error[analysis]" in sb.call(args('(.getClass "x")'))


def test_long_results_are_cut() -> None:
    text = sandbox(max_result_chars=50).call(args("(range 1000)"))
    assert text.startswith("Result: (0 1 2") and text.endswith("(take 10 xs))") and len(text) < 115


def test_acall_runs_in_a_worker_thread() -> None:
    sb = sandbox()

    async def main() -> list[str]:
        return [await sb.acall(args("(def k (count data/orders)) k")), await sb.acall(args("(inc k)"))]

    assert asyncio.run(main()) == ["Result: 3\n\nDefined: k", "Result: 4"]


class ScriptedToolCaller:
    """A function-calling model that replies from a script: tool calls, then a final answer.
    It records the tool results it was sent, as an OpenAI chat loop would send them."""

    def __init__(self, programs: list[str], answer: str) -> None:
        self.programs, self.answer, self.seen = programs, answer, []

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        assert [t["function"]["name"] for t in tools] == ["run_ptc_lisp"]
        self.seen = [m["content"] for m in messages if m["role"] == "tool"]
        turn = sum(1 for m in messages if m["role"] == "assistant")
        if turn < len(self.programs):
            call = {"id": f"call_{turn}", "type": "function",
                    "function": {"name": "run_ptc_lisp", "arguments": json.dumps({"program": self.programs[turn]})}}
            return {"role": "assistant", "content": None, "tool_calls": [call]}
        return {"role": "assistant", "content": self.answer}


def tool_loop(model: Any, sb: ptc.Sandbox, question: str) -> str:
    """The plain OpenAI tool loop of docs/sandbox.md, with the model as a function."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    while True:
        message = model(messages, [sb.openai_tool()])
        messages.append(message)
        if not message.get("tool_calls"):
            return str(message["content"])
        for call in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": call["id"],
                             "content": sb.call(call["function"]["arguments"])})


def test_a_scripted_function_calling_model_drives_the_sandbox() -> None:
    model = ScriptedToolCaller([
        "(def totals (update-vals (group-by :customer data/orders) #(sum-by :amount %)))\ntotals",
        "(let [[who total] (apply max-key val totals)] {:who who :total total :city (:city (tool/customer who))})",
        "(undefined-thing)",
    ], answer="ada from London spent the most (150).")
    assert tool_loop(model, sandbox(), "Who spent the most, and where do they live?") == \
        "ada from London spent the most (150)."
    assert model.seen[0] == 'Result: {"ada" 150, "bob" 80}\n\nDefined: totals'
    assert model.seen[1] == 'Result: {:who "ada", :total 150, :city "London"}'
    assert model.seen[2].startswith("error[analysis] 1:2: Unable to resolve symbol: undefined-thing\n  hint:")


def test_definitions_cross_process_isolation() -> None:
    sb = sandbox(limits=ptc.Limits(isolation="process"))
    assert sb.call(args('(def s (sum-by :amount data/orders)) (tool/customer "bob")')) == \
        'Result: {:name "bob", :city "Paris"}\n\nDefined: s'
    assert sb.call(args("[s (:city *1)]")) == 'Result: [230 "Paris"]'


def test_a_with_block_holds_the_tools_run_resources() -> None:
    events: list[str] = []

    class Connection:
        def acquire(self, eager: bool = True) -> None:
            events.append("open" if eager else "open at first use")

        def release(self) -> None:
            events.append("close")

    tool = ptc.Tool(lambda: 1, name="ping", scope=Connection())
    with ptc.Sandbox(tools=[tool]) as sb:
        assert sb.call(args("(tool/ping)")) == "Result: 1" and sb.call(args("(inc (tool/ping))")) == "Result: 2"
        assert events[0] == "open" and "close" not in events[:1]
    assert events == ["open", "open at first use", "close", "open at first use", "close", "close"]
