"""The example scripts run offline and do what they say; scenarios grade runs."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import ptc
from ptc.scenarios import demo as scenarios
from ptc.examples.report import format_step, prose
from ptc.scenarios.demo import SCENARIOS, TopCustomer
from ptc.examples.tools import Outbox

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "examples"
SCRIPT_NAMES = ["data_analysis_agent", "acting_agent", "recovering_agent"]


def load_script(name: str) -> ModuleType:
    """Import examples/NAME.py as a module (examples/ is not a package on sys.path)."""
    spec = importlib.util.spec_from_file_location(f"_ptc_example_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# -- the scripts -------------------------------------------------------------------------------


def test_data_analysis_agent():
    module = load_script("data_analysis_agent")
    step = module.run()
    assert step.ok, step.error
    assert step.value == scenarios.analysis_expected()
    assert step.value["top-category"] == "home"
    assert len(step.turns) == 3 and all(t.error is None for t in step.turns)
    assert [t.returned for t in step.turns] == [False, False, True]
    first = step.turns[0]
    assert [c.name for c in first.tool_calls] == ["list-orders", "list-orders", "search-products"]
    assert first.prints[0].startswith("paid/delivered orders: 305 products: 60")
    assert "revenue-by-category" in step.turns[1].defined
    assert step.usage.total.calls == 3 and step.usage.total.prompt_tokens > 0


def test_acting_agent():
    module = load_script("acting_agent")
    step, outbox = module.run()
    assert step.ok, step.error
    want = scenarios.acting_expected()
    assert step.value["emails-sent"] == 3 == len(outbox.emails)
    assert sorted(step.value["meeting-attendees"]) == want["meeting-attendees"]
    assert step.value["unapproved-total"] == want["unapproved-total"]
    # one email per affected manager, listing exactly their team's claims
    assert {e.to: e.body.count("\n- ") for e in outbox.emails} == want["claims-per-manager"]
    assert all(e.subject.startswith("Action needed: ") for e in outbox.emails)
    assert len(outbox.meetings) == 1
    meeting = outbox.meetings[0]
    assert (meeting.title, meeting.day) == ("Sales expense review", "2026-07-06")
    assert sorted(meeting.attendees) == want["meeting-attendees"]
    # the actions happen in different turns, each once
    acted = [[c.name for c in t.tool_calls if c.name in ("send-email", "book-meeting")] for t in step.turns]
    assert acted == [[], [], ["send-email"] * 3, ["book-meeting"]]
    assert all(c.result is None for t in step.turns for c in t.tool_calls if c.name == "send-email")


def test_acting_agent_records_into_a_given_outbox():
    module = load_script("acting_agent")
    mine = Outbox()
    step, outbox = module.run(outbox=mine)
    assert outbox is mine and len(mine) == 4 and step.ok


def test_recovering_agent():
    module = load_script("recovering_agent")
    step = module.run()
    assert step.ok, step.error
    first, second, third, last = step.turns
    assert first.error is not None and first.error.kind == "tool"
    assert '"completed"' in first.error.message and '"delivered"' in first.error.message
    assert second.error is not None and second.error.kind == "runtime"
    assert "nil" in second.error.message and second.error.line == 6
    assert third.error is None and third.success and third.prints[0].startswith("Alan Conway ")
    assert last.error is None and last.returned
    assert not first.success and not first.memory  # a failed turn keeps no defs
    assert isinstance(step.value, TopCustomer)
    assert step.value.model_dump() == scenarios.recovering_expected()
    # the errors were fed back to the model
    llm = ptc.ScriptedLLM(module.REPLIES)
    module.run(llm)
    fed_back = [m["content"] for m in llm.requests[-1] if m["role"] == "user"]
    assert any("error[tool]" in m for m in fed_back) and any("error[runtime] 6:40" in m for m in fed_back)


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_main_prints_every_turn_and_the_outcome(name, capsys):
    module = load_script(name)
    assert module.main([]) == 0
    out = capsys.readouterr().out
    for n in range(1, len(module.REPLIES) + 1):
        assert f"── turn {n} " in out
    assert "program:" in out and "ok: True" in out and "usage: " in out
    assert "WRONG" not in out and "correct" in out
    if name == "acting_agent":
        assert "Outbox: 3 email(s), 1 meeting(s)" in out
    if name == "recovering_agent":
        assert "error[tool]" in out and "error[runtime] 6:40" in out and "recovered" in out


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_main_quiet(name, capsys):
    assert load_script(name).main(["--quiet"]) == 0
    out = capsys.readouterr().out.strip()
    assert "turn" not in out and out.startswith("{")


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_scripts_run_as_programs(name):
    proc = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py")], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert "ok: True" in proc.stdout


def test_model_flag_uses_a_real_model_name(monkeypatch):
    module = load_script("data_analysis_agent")
    seen = {}

    def fake_make_agent(llm):
        seen["llm"] = llm
        return ptc.Agent(module.MISSION, tools=(), llm=ptc.ScriptedLLM(['```clojure\n(fail "offline")\n```']))

    monkeypatch.setattr(module, "make_agent", fake_make_agent)
    assert module.main(["--model", "openai/gpt-4o-mini", "--quiet"]) == 1
    assert seen["llm"] == "openai/gpt-4o-mini"


# -- scenarios ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scripted_scenarios_are_graded_correct(name):
    s = SCENARIOS[name]
    outbox = Outbox() if s.uses_outbox else None
    step = s.agent(outbox=outbox).run()
    assert s.check(step, outbox) == []


def test_check_reports_wrong_answers():
    s = SCENARIOS["data-analysis"]
    wrong = '```clojure\n(return {:top-category "books" :revenue 1.0 :orders 1 :share 0.1})\n```'
    problems = s.check(s.agent(ptc.ScriptedLLM([wrong])).run())
    assert problems and problems[0].startswith("top-category: expected 'home', got 'books'")
    failed = s.check(s.agent(ptc.ScriptedLLM(['```clojure\n(fail "no idea")\n```'])).run())
    assert failed[0].startswith("the run failed")


def test_check_inspects_the_outbox():
    s = SCENARIOS["acting"]
    outbox = Outbox()
    step = s.agent(outbox=outbox).run()
    outbox.meetings.clear()
    outbox.emails.append(outbox.emails[0])
    problems = s.check(step, outbox)
    assert any("got 2 emails" in p for p in problems) and any("0 meetings" in p for p in problems)


def test_acting_scenario_needs_an_outbox_for_tools():
    with pytest.raises(ValueError, match="pass an Outbox"):
        SCENARIOS["acting"].tools()
    assert len(SCENARIOS["acting"].tools(Outbox())) == 9


def test_agent_options_pass_through():
    agent = SCENARIOS["data-analysis"].agent(max_turns=2, compression=True)
    assert agent.max_turns == 2


def test_get_unknown_scenario():
    with pytest.raises(KeyError, match="scenarios: data-analysis, acting, recovering"):
        scenarios.get("nope")


def test_demo_module_runs_every_scenario():
    proc = subprocess.run([sys.executable, "-m", "ptc.examples"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("answer: correct") == len(SCENARIOS)


def test_report_helpers():
    assert prose("Let me look.\n\n```clojure\n(+ 1 2)\n```\n") == "Let me look."
    step = SCENARIOS["recovering"].agent().run()
    text = format_step(step)
    assert "── turn 1 (failed)" in text and "── turn 4 (returned)" in text
    assert "tool calls (1):" in text and "list-orders -> error: " in text
