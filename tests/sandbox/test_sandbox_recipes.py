"""The tool-loop recipes of docs/sandbox.md, run as written against a local function-calling
server on 127.0.0.1 (tests/llm_server.py): the OpenAI SDK's and litellm's own HTTP clients,
the provider's base URL and key from the environment as a user would set them."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest

import ptc
from llm_server import LLMServer, ServedReply

DOC = Path(__file__).resolve().parents[2] / "docs" / "sandbox.md"
ORDERS = [{"customer": "ada", "amount": 120}, {"customer": "bob", "amount": 80}, {"customer": "ada", "amount": 30}]
PROGRAMS = [
    "(def totals (update-vals (group-by :customer data/orders) #(sum-by :amount %)))\ntotals",
    "(let [[who total] (apply max-key val totals)] {:who who :total total :city (:city (tool/customer who))})",
]
ANSWER = "ada spent the most (150) and lives in London."


def customer(name: str) -> dict:
    """Look up a customer by name."""
    return {"name": name, "city": {"ada": "London", "bob": "Paris"}.get(name, "?")}


def recipe(heading: str) -> str:
    section = DOC.read_text().split(f"## {heading}", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


def replies() -> list[ServedReply]:
    return [*(ServedReply("", tool_calls=(("run_ptc_lisp", {"program": p}),)) for p in PROGRAMS), ServedReply(ANSWER)]


def run_recipe(code: str) -> str:
    sandbox = ptc.Sandbox(tools=[customer], data={"orders": ORDERS})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"sandbox": sandbox})  # noqa: S102 - the documented recipe
    return out.getvalue().strip()


def tool_results(body: dict[str, Any]) -> list[str]:
    """The tool results a request sends back, in OpenAI or Anthropic shape."""
    found = []
    for m in body["messages"]:
        if m["role"] == "tool":
            found.append(m["content"])
        elif isinstance(m.get("content"), list):
            found += [b["content"] if isinstance(b["content"], str) else b["content"][0]["text"]
                      for b in m["content"] if b.get("type") == "tool_result"]
    return found


EXPECTED_RESULTS = ['Result: {"ada" 150, "bob" 80}\n\nDefined: totals',
                    'Result: {:who "ada", :total 150, :city "London"}']


@pytest.mark.parametrize("heading, env, tools_of", [
    ("Recipe: a plain OpenAI tool loop", lambda s: {"OPENAI_BASE_URL": s.openai_base, "OPENAI_API_KEY": "k"},
     lambda body: [t["function"]["name"] for t in body["tools"]]),
    ("Recipe: litellm (any provider)", lambda s: {"ANTHROPIC_API_BASE": s.url, "ANTHROPIC_API_KEY": "k"},
     lambda body: [t["name"] for t in body["tools"]]),
])
def test_the_documented_tool_loops_work(heading: str, env: Callable[[LLMServer], dict[str, str]],
                                        tools_of: Callable[[dict[str, Any]], list[str]],
                                        llm_server: Callable[..., LLMServer], monkeypatch: pytest.MonkeyPatch) -> None:
    server = llm_server(replies())
    for name, value in env(server).items():
        monkeypatch.setenv(name, value)
    assert run_recipe(recipe(heading)) == ANSWER
    posts = [r.body for r in server.requests if r.method == "POST"]
    assert len(posts) == 3
    assert tools_of(posts[0]) == ["run_ptc_lisp"]
    assert tool_results(posts[2]) == EXPECTED_RESULTS  # the second program used the first one's def
    assert "Which customer spent the most" in json.dumps(posts[0]["messages"])
