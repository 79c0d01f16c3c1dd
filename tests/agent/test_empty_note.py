"""The empty-result note reaches the model by every path: each history strategy, the store's
rebuilt conversation, ptc.Sandbox and `ptc run`; an agent's empty answer with a note is held once."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import ptc
from ptc.cli.main import main
from ptc.store import Store, recorder

ORDERS = [{"id": 1, "status": "paid", "amount": 10}, {"id": 2, "status": "open", "amount": 5}]
WRONG = "(def paid (filter #(= (:status %) :paid) data/orders))\n(println \"paid:\" (count paid))"
NOTE = 'note: (filter ...) removed all 2 items of data/orders: (:status row) is a string ("paid"), ' \
       'compared with the keyword :paid; use "paid"'


def block(code: str) -> str:
    return f"```clojure\n{code}\n```"


@pytest.mark.parametrize("compression", ["none", "coalesced", "append"])
def test_every_history_strategy_shows_the_note(compression: str) -> None:
    llm = ptc.ScriptedLLM([block(WRONG), block('(return (count (filter #(= (:status %) "paid") data/orders)))')])
    step = ptc.Agent("How many orders are paid?", data={"orders": ORDERS}, llm=llm, compression=compression).run()
    assert step.ok and step.value == 1
    assert step.turns[0].note == NOTE
    assert NOTE in "\n".join(m["content"] for m in llm.requests[1])


def test_an_empty_answer_with_a_note_is_held_once_then_accepted() -> None:
    wrong = "(return (count (filter #(= (:status %) :paid) data/orders)))"
    llm = ptc.ScriptedLLM([block(wrong), block(wrong)])
    step = ptc.Agent("How many orders are paid?", data={"orders": ORDERS}, llm=llm).run()
    first, second = step.turns
    assert not first.returned and first.success and first.result == 0
    feedback = llm.requests[1][-1]["content"]
    assert NOTE in feedback and "if this empty answer is right, (return ...) it again" in feedback
    assert "Result: 0\n" in feedback  # the note asks; the result line does not repeat it
    assert second.returned and step.ok and step.value == 0  # the model insisted: its answer stands


def test_the_last_turn_is_never_held() -> None:
    llm = ptc.ScriptedLLM([block("(return (count (filter #(= (:status %) :paid) data/orders)))")])
    step = ptc.Agent("How many?", data={"orders": ORDERS}, llm=llm, max_turns=1).run()
    assert step.ok and step.value == 0


def test_the_stored_conversation_rebuilds_the_note(tmp_path) -> None:
    with Store(tmp_path / "runs.db") as store:
        sid = store.create_session("notes", "agent").id
        llm = ptc.ScriptedLLM([block(WRONG), block("(return 1)")])
        ptc.Agent("How many orders are paid?", data={"orders": ORDERS}, llm=llm, on_event=recorder(store, sid)).run()
        rebuilt = store.messages_for_llm(sid)
        assert any(NOTE in str(m.get("content")) for m in rebuilt if m["role"] == "user")


def test_sandbox_replies_carry_the_note() -> None:
    text = ptc.Sandbox(data={"orders": ORDERS}).call({"program": "(count (filter #(= (:status %) :paid) data/orders))"})
    assert text.startswith("Result: 0") and NOTE in text


def test_ptc_run_prints_the_note_on_stderr(tmp_path) -> None:
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"orders": ORDERS}))
    prog = tmp_path / "p.clj"
    prog.write_text("(count (filter #(= (:status %) :paid) data/orders))")
    result = CliRunner().invoke(main, ["run", str(prog), "--data", str(data)])
    assert result.exit_code == 0 and result.stdout == "0\n" and NOTE in result.stderr
    as_json = CliRunner().invoke(main, ["run", str(prog), "--data", str(data), "--json"])
    assert json.loads(as_json.stdout)["note"] == NOTE


def test_several_code_blocks_are_named_in_the_feedback() -> None:
    reply = "```clojure\n(def n (count data/orders))\n```\nand\n```clojure\n(println n)\n```"
    llm = ptc.ScriptedLLM([reply, block("(return n)")])
    step = ptc.Agent("How many orders?", data={"orders": ORDERS}, llm=llm).run()
    assert step.ok and step.value == 2
    assert "2 code blocks; they ran as one program, in order" in llm.requests[1][-1]["content"]


def test_trace_show_prints_the_note() -> None:
    from io import StringIO

    from rich.console import Console

    from ptc.cli.turns_view import show_turn

    llm = ptc.ScriptedLLM([block(WRONG), block("(return 1)")])
    step = ptc.Agent("How many orders are paid?", data={"orders": ORDERS}, llm=llm).run()
    out = StringIO()
    show_turn(step.turns[0].to_json(), Console(file=out, width=400))
    assert NOTE in out.getvalue()
