"""Agent(store=...) records a run; resume() continues it after a failure, without re-calling tools."""

import ptc
from ptc.llm.base import LLMError
from ptc.store import Store


def block(code: str) -> str:
    return f"```clojure\n{code}\n```"


def test_store_records_and_resume_continues_after_llm_failure() -> None:
    store = Store(":memory:")
    sent = []

    def send(to: str) -> None:
        """Send a note."""
        sent.append(to)

    def double(x: int) -> int:
        """Twice x."""
        return 2 * x

    first = ptc.Agent("Send notes and compute", tools=[send, double], store=store, llm=ptc.ScriptedLLM([
        block('(defn triple [x] (* 3 x)) (tool/send {:to "ann"}) (def d (tool/double {:x 21}))'),
        block("(def t (triple d))"),
        LLMError("server", "the model is down"),
    ]))
    step = first.run()
    assert not step.ok and step.error.kind == "llm" and len(step.turns) == 2
    assert sent == ["ann"]
    record = store.load_run(step.run_id)
    assert record.status == "failed" and len(record.turns) == 2

    second = ptc.Agent("Send notes and compute", tools=[send, double], store=store,
                       llm=ptc.ScriptedLLM([block("(return (+ t (triple 1)))")]))
    resumed = second.resume(step.run_id)
    assert resumed.ok and resumed.value == 129  # t = 126 (rebuilt, incl. the fn triple) + 3
    assert sent == ["ann"]  # tools were not called again while rebuilding memory
    assert [t.number for t in resumed.turns] == [1, 2, 3]
    assert store.load_run(step.run_id).status == "ok"
    # the conversation log has the mission once and the LLM error kept in context
    messages = store.context(record.session_id)
    texts = [m.content for m in messages]
    assert sum(1 for t in texts if t == "Send notes and compute") == 1
    assert any(b.type == "llm_error" for m in messages for b in m.blocks)


CHILD = r'''
import os, signal, sys
import ptc
from ptc.store import Store

def block(code):
    return "```clojure\n" + code + "\n```"

def crash() -> None:
    """Dies."""
    os.kill(os.getpid(), signal.SIGKILL)

store = Store(sys.argv[1])
agent = ptc.Agent("count up", tools=[crash], store=store, session_id="s1", llm=ptc.ScriptedLLM([
    block("(def a 1)"), block("(def b (+ a 1))"), block("(tool/crash)")]))
agent.run()
'''


def test_resume_after_the_process_was_killed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    db = tmp_path / "ptc.db"
    proc = subprocess.run([sys.executable, "-c", CHILD, str(db)], capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()
    store = Store(str(db))
    runs = store.list_runs("s1")
    assert len(runs) == 1 and runs[0].status == "running"
    record = store.load_run(runs[0].id)
    assert [t["number"] for t in record.turns] == [1, 2]  # the killed turn 3 never finished

    def crash() -> None:
        """Dies."""
        raise AssertionError("must not be called while rebuilding memory")

    agent = ptc.Agent("count up", tools=[crash], store=store, llm=ptc.ScriptedLLM([block("(return (+ a b))")]))
    step = agent.resume(runs[0].id)
    assert step.ok and step.value == 3 and len(step.turns) == 3
