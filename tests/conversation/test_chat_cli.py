"""`ptc chat` on a real pseudo-terminal (pexpect): messages, slash commands, resuming."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = "```clojure\n{}\n```"


def env_for(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PTC_HOME=str(tmp_path / "home"), PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", NO_COLOR="1",
               PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
    env.pop("FORCE_COLOR", None)
    env.pop("PTC_STORE_URL", None)
    return env


def script(tmp_path: Path, name: str, replies: list) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(replies), encoding="utf-8")
    return str(path)


def spawn(tmp_path: Path, *args: str) -> "pexpect.spawn":
    child = pexpect.spawn(sys.executable, ["-m", "ptc", "chat", "--db", str(tmp_path / "chat.db"), *args],
                          env=env_for(tmp_path), cwd=str(ROOT), encoding="utf-8", timeout=30, dimensions=(40, 160))
    child.logfile_read = open(tmp_path / f"screen-{len(list(tmp_path.glob('screen-*')))}.txt", "w")  # noqa: SIM115
    return child


def prompt(child: "pexpect.spawn", mode: str = "chat") -> tuple[int, str]:
    """Wait for the prompt; returns the usage percent and status it shows."""
    child.expect(r"\[ctx (\d+)% (normal|warning|compacting)\] " + mode + ">")
    return int(child.match.group(1)), child.match.group(2)


def say(child: "pexpect.spawn", text: str) -> None:
    child.send(text + "\r")


ANSI = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"  # styles (bold, dim) and cursor moves between characters


def sees(child: "pexpect.spawn", text: str) -> None:
    """Wait for `text` on the screen, whatever terminal escapes are interleaved with it."""
    child.expect(ANSI.join(re.escape(ch) for ch in text))


def test_a_conversation_with_commands(tmp_path):
    replies = script(tmp_path, "replies.json", [
        "Hello from the script.",
        PROGRAM.format("(def p (tool/get-product {:id 1}))\n(:price p)"),
        PROGRAM.format("(return (* 2 (:stock p)))"),
        "That was 94.",
    ])
    child = spawn(tmp_path, "--script", replies, "--tools", "ptc.examples.tools:analysis_tools")
    try:
        child.expect(r"ptc chat: new session (\w+) \(chat mode\)")
        session = child.match.group(1)
        percent, status = prompt(child)
        assert status == "normal" and percent < 10
        say(child, "hello")
        sees(child, "Hello from the script.")
        prompt(child)

        say(child, "/mode agent")
        sees(child, "mode: agent")
        agent_percent, _ = prompt(child, "agent")
        assert agent_percent > percent  # the PTC prompt is bigger: the indicator follows the mode

        say(child, "double the stock of product 1")
        sees(child, "turn 1")
        sees(child, "turn 2 returned")
        sees(child, "answer: 94")
        prompt(child, "agent")

        say(child, "/mode chat")
        prompt(child)
        say(child, "what was it?")
        sees(child, "That was 94.")
        prompt(child)

        say(child, "/view display")
        sees(child, "#1 user: hello")
        sees(child, "#5-6 tool: Tool call: get-product({:id 1}) -> map[6]")
        sees(child, "Answer: 94")
        prompt(child)

        say(child, "/view context")
        sees(child, "user: [1] hello")  # the model's view is numbered
        sees(child, "assistant: [2] Hello from the script.")
        prompt(child)

        say(child, "/view full")
        sees(child, "+ tool_execution")
        prompt(child)

        say(child, "/stats")
        child.expect(r"messages: 11 active, 0 compressed, 0 invalid")
        sees(child, "nodes: tool_execution 1")
        child.expect(r"context: [\d,]+/14,000 tokens \(\d+%, normal\)")
        prompt(child)

        say(child, "/rollback 2")
        sees(child, "rolled back to #2: 9 messages hidden")
        prompt(child)
        say(child, "/rollback 99x")
        sees(child, "usage: /rollback N")
        prompt(child)

        say(child, "/session")
        sees(child, f"resume with: ptc chat --session {session} --db {tmp_path / 'chat.db'}")
        prompt(child)

        say(child, "/mode debug")
        sees(child, "unknown mode 'debug'")
        say(child, "/nonsense")
        sees(child, "unknown command /nonsense")
        say(child, "/help")
        sees(child, "/rollback N")
        prompt(child)

        say(child, "/quit")
        sees(child, f"resume with: ptc chat --session {session}")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    from ptc.store import Store

    with Store(tmp_path / "chat.db") as store:
        assert [m.content for m in store.display(session).items] == ["hello", "Hello from the script."]
        assert store.get_session(session).mode == "chat"


def test_resume_after_an_llm_error_with_continue(tmp_path):
    failing = script(tmp_path, "failing.json", [
        "First answer.",
        {"error": "timeout", "message": "the model took too long", "partial": "The second ans"},
    ])
    child = spawn(tmp_path, "--script", failing)
    try:
        child.expect(r"new session (\w+)")
        session = child.match.group(1)
        prompt(child)
        say(child, "first question")
        sees(child, "First answer.")
        prompt(child)
        say(child, "second question")
        sees(child, "The second ans")
        sees(child, "LLM error (timeout): the model took too long. Type 'continue' to ask again.")
        prompt(child)
        child.sendcontrol("d")  # leave on the error
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)

    working = script(tmp_path, "working.json", ["The second answer, complete."])
    child = spawn(tmp_path, "--session", session[:6], "--script", working)
    try:
        sees(child, f"resumed session {session} (chat mode)")
        sees(child, "The last reply failed (LLM_ERROR kind=timeout: the model took too long). "
                           "Type 'continue' to ask again.")
        prompt(child)
        say(child, "continue")
        sees(child, "The second answer, complete.")
        prompt(child)
        say(child, "/view display")
        sees(child, "#5 user: continue")
        sees(child, "#6 assistant: The second answer, complete.")
        prompt(child)
        say(child, "/quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_the_indicator_warns_then_compacts(tmp_path):
    long_reply = "Here is a long answer. " * 40
    replies = script(tmp_path, "long.json", [f"{i}: {long_reply}" for i in range(12)])
    child = spawn(tmp_path, "--script", replies, "--budget", "2400")
    seen = []
    compacted = False
    try:
        prompt(child)
        for i in range(10):
            say(child, f"Question {i}: tell me more about part {i}. " + "detail " * 20)
            index = child.expect([r"\(context compacted: .*tokens\)", r"\d+: Here is a long answer"])
            if index == 0:
                compacted = True
            seen.append(prompt(child)[1])
        say(child, "/compact")
        child.expect(r"condensed into 1 summary|nothing to compact")
        prompt(child)
        say(child, "/stats")
        child.expect(r"compressions: [1-9]")
        prompt(child)
        say(child, "/quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "warning" in seen or "compacting" in seen
    assert compacted, f"statuses seen: {seen}"


def test_commands_are_refused_cleanly(tmp_path):
    p = subprocess.run([sys.executable, "-m", "ptc", "chat", "--session", "nope", "--db", str(tmp_path / "x.db")],
                       env=env_for(tmp_path), cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "no session 'nope'" in p.stderr
    replies = script(tmp_path, "r.json", ["x"])
    p = subprocess.run([sys.executable, "-m", "ptc", "chat", "--script", replies, "--model", "m"],
                       env=env_for(tmp_path), cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "one of --model, --replay and --script" in p.stderr


def test_piped_input(tmp_path):
    replies = script(tmp_path, "r.json", ["Piped hello.", {"error": "server", "message": "502"}])
    p = subprocess.run([sys.executable, "-m", "ptc", "chat", "--script", replies, "--db", str(tmp_path / "p.db")],
                       input="hello\n/stats\nagain\n", env=env_for(tmp_path), cwd=str(ROOT), capture_output=True,
                       text=True, timeout=60)
    lines = p.stdout.splitlines()
    assert lines[0] == "Piped hello."
    assert re.fullmatch(r"\[ctx \d+% normal\]", lines[1])
    assert any(line.startswith("messages: 2 active") for line in lines)
    assert "LLM error (server): 502. Type 'continue' to ask again." in p.stdout
    assert p.returncode == 1  # the last reply failed


def test_record_then_replay_offline(tmp_path):
    replies = script(tmp_path, "r.json", ["Recorded hello.", PROGRAM.format("(return 7)")])
    cassette = tmp_path / "chat.jsonl"
    commands = "hello\n/mode agent\nseven please\n"
    outputs = []
    for args in (["--script", replies, "--record", str(cassette), "--db", str(tmp_path / "a.db")],
                 ["--replay", str(cassette), "--db", str(tmp_path / "b.db")]):
        p = subprocess.run([sys.executable, "-m", "ptc", "chat", *args], input=commands, env=env_for(tmp_path),
                           cwd=str(ROOT), capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        outputs.append(p.stdout)
    assert len(cassette.read_text().splitlines()) == 2
    for out in outputs:
        assert "Recorded hello." in out and "answer: 7" in out
