"""The agent loop end to end with scripted models."""

import asyncio
import json

import pytest

import ptc
from ptc.agent.trace import read_trace
from ptc.llm.base import LLMError


def block(code: str) -> str:
    return f"Here is my program.\n```clojure\n{code}\n```"


ORDERS = [{"id": 1, "amount": 10.0, "status": "paid"}, {"id": 2, "amount": 5.5, "status": "pending"},
          {"id": 3, "amount": 7.0, "status": "paid"}]


def test_multi_turn_run_returns_typed_value() -> None:
    llm = ptc.ScriptedLLM([
        block('(def paid (filter #(= (:status %) "paid") data/orders))\n(println "paid:" (count paid))'),
        block("(return {:total (reduce + (map :amount paid)) :ids (mapv :id paid)})"),
    ])
    agent = ptc.Agent("Total of paid orders", data={"orders": ORDERS}, llm=llm,
                      signature="{total :float, ids [:int]}")
    step = agent.run()
    assert step.ok, step.error
    assert step.value == {"total": 17.0, "ids": [1, 3]}
    assert len(step.turns) == 2
    t1, t2 = step.turns
    assert t1.prints == ("paid: 2",) and t1.success and "paid" in t1.memory and t1.defined == ("paid",)
    assert t2.returned and t2.number == 2
    # the second request carries the first turn's feedback (full history)
    second = llm.requests[1]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert "paid: 2" in second[-1]["content"] and "Turns left: 4" in second[-1]["content"]
    assert step.usage.total.calls == 2 and step.usage.total.prompt_tokens > 0


def test_turns_are_immutable() -> None:
    step = ptc.Agent("x", llm=ptc.ScriptedLLM([block("(return 1)")])).run()
    with pytest.raises(Exception):
        step.turns[0].success = False  # type: ignore[misc]
    assert isinstance(step.turns, tuple)


def test_error_is_fed_back_and_memory_kept() -> None:
    llm = ptc.ScriptedLLM([
        block("(def x 5)"),
        block("(def x 99)\n(undefined-fn x)"),
        block("(return x)"),
    ])
    step = ptc.Agent("recover", llm=llm).run()
    assert step.ok and step.value == 5  # the failed turn's def did not stick
    failed = step.turns[1]
    assert not failed.success and failed.error.kind == "analysis"
    feedback = llm.requests[2][-1]["content"]
    assert "undefined-fn" in feedback and "hint" in feedback


def test_reply_without_code_counts_as_a_turn() -> None:
    llm = ptc.ScriptedLLM(["I am thinking...", block("(return :ok)")])
    step = ptc.Agent("x", llm=llm).run()
    assert step.ok and len(step.turns) == 2
    assert step.turns[0].program is None and step.turns[0].error.kind == "no_code"
    assert "No code found" in llm.requests[1][-1]["content"]


def test_signature_mismatch_is_fed_back() -> None:
    llm = ptc.ScriptedLLM([block('(return {:total "lots"})'), block("(return {:total 3.0})")])
    step = ptc.Agent("x", llm=llm, signature="{total :float}").run()
    assert step.ok and step.value == {"total": 3.0}
    assert step.turns[0].error.kind == "signature"
    text = llm.requests[1][-1]["content"]
    assert "expected :float" in text and "string" in text


def test_fail_ends_the_run() -> None:
    step = ptc.Agent("x", llm=ptc.ScriptedLLM([block('(fail "no such customer")')])).run()
    assert not step.ok and step.error.kind == "fail" and "no such customer" in step.error.message


def test_max_turns() -> None:
    step = ptc.Agent("x", llm=ptc.ScriptedLLM([block("(+ 1 1)")] * 3), max_turns=3).run()
    assert not step.ok and step.error.kind == "max_turns" and len(step.turns) == 3


def test_llm_failure_ends_cleanly_and_keeps_turns() -> None:
    llm = ptc.ScriptedLLM([block("(def a 1)"), LLMError("rate_limit", "still limited after 4 retries")])
    step = ptc.Agent("x", llm=llm).run()
    assert not step.ok and step.error.kind == "llm" and len(step.turns) == 1


def test_history_star_1() -> None:
    step = ptc.Agent("x", llm=ptc.ScriptedLLM([block("(+ 40 2)"), block("(return *1)")])).run()
    assert step.value == 42


def test_tools_and_tool_errors() -> None:
    def lookup(id: int) -> dict:  # noqa: A002
        """Find an order by id."""
        if id == 0:
            raise KeyError("no order 0")
        return next(o for o in ORDERS if o["id"] == id)

    llm = ptc.ScriptedLLM([block("(tool/lookup {:id 0})"), block("(return (:amount (tool/lookup {:id 2})))")])
    step = ptc.Agent("x", tools=[lookup], llm=llm).run()
    assert step.ok and step.value == 5.5
    first = step.turns[0]
    assert first.error.kind == "tool" and first.tool_calls[0].error is not None
    assert "(tool/lookup" in llm.requests[0][0]["content"]  # the tool is described in the system prompt


def test_callable_llm_and_events_and_trace(tmp_path) -> None:  # type: ignore[no-untyped-def]
    events = []
    step = ptc.Agent("x", llm=lambda messages: block("(return 7)"), on_event=events.append,
                     trace=tmp_path / "run.jsonl").run()
    assert step.ok and step.value == 7
    types = [e.type for e in events]
    assert types[0] == "run_started" and types[-1] == "run_finished"
    assert {"turn_started", "llm_replied", "program_ran", "turn_finished"} <= set(types)
    records = list(read_trace(tmp_path / "run.jsonl"))
    assert [r["type"] for r in records] == types
    assert records[-1]["ok"] is True
    json.dumps(records)  # everything in a trace is JSON


def test_arun_and_astream() -> None:
    async def main() -> tuple:
        step = await ptc.Agent("x", llm=ptc.ScriptedLLM([block("(return 1)")])).arun()
        seen = [e.type async for e in ptc.Agent("x", llm=ptc.ScriptedLLM([block("(return 2)")])).astream()]
        return step, seen

    step, seen = asyncio.run(main())
    assert step.ok and step.value == 1
    assert seen[0] == "run_started" and seen[-1] == "run_finished"


def test_agent_as_tool() -> None:
    sub = ptc.Agent("You compute squares.", llm=ptc.ScriptedLLM([block("(return 49)")]))
    tool = sub.as_tool("square", "Squares a number given as a task")
    outer = ptc.Agent("x", tools=[tool], llm=ptc.ScriptedLLM([block('(return (tool/square {:task "7"}))')]))
    step = outer.run()
    assert step.ok and step.value == 49


def test_llm_query_tool() -> None:
    answers = ptc.ScriptedLLM([block('(return (tool/llm-query {:prompt "Is this positive?" :data ["great"]}))'),
                               "yes"])
    step = ptc.Agent("x", llm=answers, llm_query=True).run()
    assert step.ok and step.value == "yes"
    assert "great" in answers.requests[1][1]["content"]


def test_system_prompt_reaches_every_registered_function_and_names_no_unknown_one() -> None:
    """Every function is named in the prompt, or is in a library the prompt names with the way to
    list it ((dir stats)), or is a core variant the prompt says exists (transients, bit-*, +');
    every name the function section lists exists."""
    import re

    from ptc.agent.prompt import JAVA_INTEROP
    from ptc.interpreter.reference import DISCOVERY, LIBRARY_LINES, _listed, all_names, is_java
    from ptc.interpreter.registry import REGISTRY

    prompt = ptc.Agent("x", llm=lambda m: "").system_prompt
    assert JAVA_INTEROP in prompt and DISCOVERY in prompt
    for name in all_names():
        b = REGISTRY.get(name)
        if b is not None and is_java(b):
            assert b.ns == "core" or b.ns in JAVA_INTEROP, name
            continue
        if b is not None and b.ns in LIBRARY_LINES:
            assert f"(dir {b.ns})" in prompt, name
            continue
        if b is not None and b.ns == "core" and not _listed(b):
            continue
        short = name.split("/")[-1]
        assert re.search(rf"(?<![\w\-!?*/]){re.escape(short)}(?![\w\-!?*])", prompt), name
    # every word in the function section that looks like a function name exists
    section = prompt.split("## PTC-Lisp functions")[1].split("## Tools")[0].replace(JAVA_INTEROP, "")
    section = section.replace(DISCOVERY, "")
    listed = set()
    for line in section.splitlines():
        if ":" in line and not line.startswith(("  (", "PTC only", "(min-by", ":in")):
            head, _, names = line.partition(": ")
            prefix = head.split(" ")[0] if head.split(" ")[0].endswith("/") or "(alias" in head else ""
            for n in names.split():
                if n in ("...", "(dir") or n.startswith(("(", "all")) or n.endswith(")") or n.isdigit():
                    continue
                listed.add(f"{prefix.rstrip('/')}/{n}" if prefix else n)
    known = set(REGISTRY) | set(all_names())
    unknown = {n for n in listed if n not in known and n.split("/")[-1] not in known}
    assert not unknown, unknown
