"""`--api-base` on the commands that call a model, against a local OpenAI-compatible server
on 127.0.0.1 (tests/llm_server.py), through litellm's own HTTP client."""

from __future__ import annotations

import json
import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from heavy import needs  # noqa: E402

from llm_server import ServedReply  # noqa: E402

from ptc.scenarios.demo import get  # noqa: E402

DEFINE = "```clojure\n(def total (reduce + data/xs))\n```"
RETURN = "```clojure\n(return (* 2 total))\n```"

pytestmark = needs("litellm")


@pytest.fixture(autouse=True)
def no_openai_key(monkeypatch):
    """A local server needs no key: nothing from the environment may be relied on."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_agent_against_a_local_server_shows_cached_tokens(invoke, llm_server, tmp_path) -> None:
    server = llm_server([ServedReply(DEFINE, prompt_tokens=1500, completion_tokens=20),
                         ServedReply(RETURN, prompt_tokens=6794, completion_tokens=12, cached_tokens=5120)],
                        model="x")
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"xs": [1, 2, 3]}))
    trace = tmp_path / "t.jsonl"
    result = invoke("agent", "Double the sum of xs", "--data", str(data), "--model", "openai/x",
                    "--api-base", server.openai_base, "--trace", str(trace))
    assert result.exit_code == 0, result.output
    assert "ok after 2 turn(s): 12" in result.output
    assert "turn 2: model replied (6,794 prompt (5,120 cached) + 12 completion tokens" in result.output
    assert "tokens: 8,294 prompt (5,120 cached) + 32 completion" in result.output
    request = server.requests[0]
    assert request.path == "/v1/chat/completions" and request.body["model"] == "x"
    assert request.headers["authorization"] == "Bearer no-key"
    assert "Double the sum of xs" in json.dumps(request.body["messages"])

    shown = invoke("trace", "show", str(trace))
    assert shown.exit_code == 0, shown.output
    assert "6,794 prompt (5,120 cached) + 12 completion tokens" in shown.output
    assert "tokens: 8,294 prompt (5,120 cached) + 32 completion" in shown.output


def test_the_documented_ollama_command_works(invoke, llm_server) -> None:
    """docs/agent.md: --model ollama_chat/llama3.1 --api-base http://localhost:11434 (here: our server)."""
    server = llm_server([ServedReply(RETURN.replace("total", "3"), prompt_tokens=700, completion_tokens=9)])
    result = invoke("agent", "Six", "--model", "ollama_chat/llama3.1", "--api-base", server.url)
    assert result.exit_code == 0, result.output
    assert "ok after 1 turn(s): 6" in result.output and "700 prompt + 9 completion" in result.output
    request = server.requests[0]
    assert request.path == "/api/chat" and request.body["model"] == "llama3.1"
    assert "Six" in json.dumps(request.body["messages"])


def test_api_key_is_sent_and_replay_refuses_a_server(invoke, llm_server, tmp_path) -> None:
    server = llm_server([RETURN.replace("total", "3")])
    result = invoke("agent", "Six", "--model", "openai/x", "--api-base", server.openai_base, "--api-key", "sk-local")
    assert result.exit_code == 0, result.output
    assert server.requests[0].headers["authorization"] == "Bearer sk-local"
    cassette = tmp_path / "c.jsonl"
    cassette.write_text("")
    refused = invoke("agent", "Six", "--replay", str(cassette), "--api-base", server.openai_base)
    assert refused.exit_code == 2 and "--api-base and --api-key go with --model" in refused.output


def test_unreachable_server_is_a_clear_error(invoke, llm_server) -> None:
    server = llm_server([])  # answers 400 to everything
    result = invoke("agent", "Six", "--model", "openai/x", "--api-base", server.openai_base)
    assert result.exit_code == 1
    assert "model failed" in result.output and "no more scripted replies" in result.output


def test_demo_live_sends_the_same_mission_to_the_model(invoke, llm_server) -> None:
    scenario = get("data-analysis")
    server = llm_server(list(scenario.replies))
    result = invoke("demo", "--model", "openai/local-model", "--api-base", server.openai_base)
    assert result.exit_code == 0, result.output
    assert "answer: correct" in result.output
    assert len(server.requests) == len(scenario.replies)
    assert scenario.mission in json.dumps(server.requests[0].body["messages"])
    offline = invoke("demo", "--api-base", server.openai_base)
    assert offline.exit_code == 2 and "need --model" in offline.output


def test_chat_against_a_local_server(invoke, llm_server, tmp_path) -> None:
    server = llm_server(["Hello from the local model."])
    result = invoke("chat", "--db", str(tmp_path / "chat.db"), "--model", "openai/x", "--api-base",
                    server.openai_base, input="hi there\n")
    assert result.exit_code == 0, result.output
    assert "Hello from the local model." in result.output
    assert "hi there" in json.dumps(server.requests[0].body["messages"])


SUITE = """\
name: local
api_base: {url}
missions:
  - id: double
    prompt: Double the sum of xs
    data: {{xs: [1, 2, 3]}}
    checks: [{{equals: 12}}]
"""


def test_suite_file_api_base_and_report_with_cached_tokens(invoke, llm_server, tmp_path) -> None:
    server = llm_server([ServedReply(DEFINE, prompt_tokens=1000), ServedReply(RETURN, prompt_tokens=1200,
                                                                               cached_tokens=1024)])
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE.format(url=server.openai_base))
    results = tmp_path / "r.jsonl"
    db = tmp_path / "suite.db"
    result = invoke("suite", "run", str(suite), "--model", "openai/x", "--results", str(results), "--store", str(db),
                    "--quiet")
    assert result.exit_code == 0, result.output
    record = json.loads(results.read_text().splitlines()[0])
    assert record["passed"] and record["cached_tokens"] == 1024 and record["prompt_tokens"] == 2200
    from ptc.store import Store

    with Store(db) as store:
        (run,) = store.list_runs()
        assert (run.prompt_tokens, run.cached_tokens, run.cache_write_tokens) == (2200, 1024, 0)
    assert "2,200 (1,024 cached)" in result.output
    report = invoke("suite", "report", str(results))
    assert "2,200 (1,024 cached)" in report.output


def test_suite_api_base_option_wins_over_the_file(invoke, llm_server, tmp_path) -> None:
    server = llm_server([RETURN.replace("total", "6")])
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE.format(url="http://127.0.0.1:9/v1"))  # nothing listens there
    result = invoke("suite", "run", str(suite), "--model", "openai/x", "--api-base", server.openai_base,
                    "--api-key", "k", "--results", str(tmp_path / "r.jsonl"), "--no-store", "--quiet")
    assert result.exit_code == 0, result.output
    assert server.requests[0].headers["authorization"] == "Bearer k"


def test_suite_file_rejects_a_bad_api_base(invoke, tmp_path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE.format(url="localhost:11434"))
    result = invoke("suite", "validate", str(suite))
    assert result.exit_code != 0 and "api_base: the URL of a model server" in result.output + result.stderr


def test_an_empty_model_name_is_a_usage_error(invoke) -> None:
    result = invoke("agent", "Six", "--model", "", "--api-base", "http://127.0.0.1:9/v1")
    assert result.exit_code == 2 and "model must be a non-empty litellm model name" in result.output + result.stderr
