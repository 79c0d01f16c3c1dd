"""ContextSettings and usage measurement."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ptc.conversation.usage import ContextSettings, measure, message_tokens, request_tokens, status_for, usage_of
from ptc.llm.tokens import count_message_tokens


def test_defaults_and_derived_budgets():
    s = ContextSettings()
    assert (s.trigger_ratio, s.target_ratio, s.soft_threshold, s.hard_threshold) == (0.8, 0.5, 6000, 8000)
    assert s.keep_recent_rounds == 4 and s.numbering == "none"
    assert s.prompt_budget == s.budget - s.reserve_for_reply
    small = ContextSettings(budget=4000, reserve_for_reply=500)
    assert (small.prompt_budget, small.trigger_tokens, small.target_tokens) == (3500, 2800, 1750)


@pytest.mark.parametrize("bad", [
    dict(budget=1000, reserve_for_reply=1000),
    dict(target_ratio=0.8, trigger_ratio=0.8),
    dict(warning_ratio=0.9),
    dict(soft_threshold=9000, hard_threshold=8000),
    dict(mandatory_rounds=5, keep_recent_rounds=4),
    dict(numbering="roman"),
    dict(unknown=1),
])
def test_invalid_settings(bad):
    with pytest.raises(ValidationError):
        ContextSettings(**bad)


def test_settings_are_frozen():
    with pytest.raises(ValidationError):
        ContextSettings().budget = 3  # type: ignore[misc]


def test_plain_messages_match_the_openai_recipe():
    msgs = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello world"}]
    assert request_tokens(msgs) == count_message_tokens(msgs)
    assert request_tokens(msgs) == 3 + sum(message_tokens(m) for m in msgs)


def test_tool_calls_are_counted():
    call = {"id": "c1", "type": "function", "function": {"name": "sales_by_region", "arguments": '{"q": 3}'}}
    bare = {"role": "assistant", "content": None}
    with_calls = {"role": "assistant", "content": None, "tool_calls": [call]}
    assert message_tokens(with_calls) > message_tokens(bare) + 5
    # the plain recipe ignores them: ours does not
    assert request_tokens([with_calls]) > count_message_tokens([with_calls])


def test_measure_usage_fields_and_status():
    s = ContextSettings(budget=1000, reserve_for_reply=200)   # prompt budget 800: warning > 560, compacting > 640
    msgs = [{"role": "system", "content": "rules " * 20}, {"role": "user", "content": "x"}]
    u = measure(msgs, s)
    assert u.budget == 800 and u.window == 1000 and u.reserve == 200
    assert u.used == request_tokens(msgs)
    assert u.remaining == 800 - u.used
    assert u.percent == round(100 * u.used / 800, 1)
    assert u.system == message_tokens(msgs[0]) and u.messages == 2
    assert u.status == "normal" and not u.over_budget
    assert status_for(561, s) == "warning"
    assert status_for(641, s) == "compacting"
    assert usage_of(900, s).over_budget
    assert "tokens" in str(u)
    assert u.to_dict()["used"] == u.used


def test_measure_without_system_prompt():
    u = measure([{"role": "user", "content": "hi"}])
    assert u.system == 0 and u.messages == 1
