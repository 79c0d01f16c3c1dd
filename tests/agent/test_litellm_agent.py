"""The agent loop through the real litellm path, answered by litellm's own mock_response."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import ptc  # noqa: E402
from ptc.llm.litellm_client import LiteLLM  # noqa: E402


def test_agent_runs_through_litellm_with_mock_response() -> None:
    llm = LiteLLM("openai/gpt-4o-mini", mock_response="Done.\n```clojure\n(return (reduce + data/xs))\n```")
    step = ptc.Agent("Sum xs", data={"xs": [1, 2, 3]}, llm=llm).run()
    assert step.ok and step.value == 6
    usage = step.usage.total
    assert usage.calls == 1 and usage.prompt_tokens > 0 and usage.completion_tokens > 0
    assert usage.cost is not None and usage.cost > 0  # priced from litellm's (local) price map
