"""LiteLLM client: the real litellm code path, offline, through litellm's own `mock_response`."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from heavy import Lazy, needs  # noqa: E402
httpx = pytest.importorskip("httpx")

from ptc.llm import litellm_client  # noqa: E402
from ptc.llm.base import LLMError, Message, Reply  # noqa: E402
from ptc.llm.choose import as_llm  # noqa: E402
from ptc.llm.litellm_client import LiteLLM, classify_error  # noqa: E402
from ptc.llm.tokens import count_message_tokens, count_tokens  # noqa: E402

MSGS = [{"role": "system", "content": "You write PTC-Lisp."}, {"role": "user", "content": "add 1 and 2"}]
MODEL = "openai/gpt-4o-mini"
pytestmark = needs("litellm")
litellm = Lazy("litellm")


_REAL: dict[str, Any] = {}


@pytest.fixture(autouse=True, scope="module")
def _real_completion() -> None:
    """litellm.completion as litellm defines it, read before any test monkeypatches it."""
    _REAL["completion"] = litellm.completion


def real_completion(**kw: Any) -> Any:
    return _REAL["completion"](**kw)


def price(model: str, prompt: int, completion: int) -> float:
    a, b = litellm.cost_per_token(model=model, prompt_tokens=prompt, completion_tokens=completion)
    return a + b


def no_wait(llm: LiteLLM) -> list[float]:
    """Record the backoff delays instead of sleeping (sync and async)."""
    waits: list[float] = []

    async def asleep(seconds: float) -> None:
        waits.append(seconds)

    llm._sleep = waits.append
    llm._asleep = asleep
    return waits


def rate_limit(msg: str = "slow down", headers: dict[str, str] | None = None) -> Exception:
    response = None
    if headers is not None:
        response = httpx.Response(429, headers=headers, request=httpx.Request("POST", "https://example.invalid"))
    return litellm.RateLimitError(msg, llm_provider="openai", model="gpt-4o-mini", response=response)


def mock_ok(text: str = "ok", model: str = MODEL):
    """A genuine litellm ModelResponse, produced by litellm itself."""
    return real_completion(model=model, messages=[{"role": "user", "content": "x"}], mock_response=text)


class Flaky:
    """Stands in for litellm.completion: raises the given errors in turn, then answers."""

    def __init__(self, errors, text="ok"):
        self.errors = list(errors)
        self.text = text
        self.calls: list[dict] = []

    def __call__(self, **kwargs):
        self.calls.append(kwargs)
        if self.errors:
            raise self.errors.pop(0)
        return mock_ok(self.text)

    async def acall(self, **kwargs):
        return self(**kwargs)


# -- replies ---------------------------------------------------------------------------------

def test_reply_text_usage_cost_through_real_litellm():
    reply = LiteLLM(MODEL, mock_response="(+ 1 2)").complete(MSGS)
    assert isinstance(reply, Reply)
    assert reply.text == "(+ 1 2)"
    # litellm's mock reports usage 10 prompt / 20 completion tokens
    assert reply.usage.prompt_tokens == 10 and reply.usage.completion_tokens == 20
    assert reply.usage.calls == 1
    assert reply.usage.cost == pytest.approx(price("gpt-4o-mini", 10, 20))
    assert reply.usage.cost > 0
    assert reply.model == "gpt-4o-mini"


def test_async_reply_through_real_litellm():
    llm = LiteLLM(MODEL, mock_response="(tool/search {:q \"x\"})")
    reply = asyncio.run(llm.acomplete(MSGS))
    assert reply.text == '(tool/search {:q "x"})'
    assert reply.usage.prompt_tokens == 10 and reply.usage.completion_tokens == 20
    assert reply.usage.cost == pytest.approx(price("gpt-4o-mini", 10, 20))


def test_message_objects_are_accepted():
    msgs = [Message(role="system", content="s"), Message(role="user", content="u")]
    assert LiteLLM(MODEL, mock_response="hi").complete(msgs).text == "hi"


def test_unpriced_model_has_no_cost():
    reply = LiteLLM("openai/my-private-finetune", api_base="http://localhost:8000/v1", api_key="x",
                    mock_response="hi").complete(MSGS)
    assert reply.text == "hi" and reply.usage.cost is None
    assert reply.usage.prompt_tokens == 10


def test_local_ollama_model():
    llm = LiteLLM("ollama/llama3", api_base="http://localhost:11434", mock_response="(+ 1 2)")
    reply = llm.complete(MSGS)
    assert reply.text == "(+ 1 2)"
    assert reply.usage.cost == 0.0  # known local model: free
    assert reply.model == "llama3"


def test_none_content_becomes_empty_text_and_usage_is_counted():
    # A tool-call-only answer with no usage reported (real litellm ModelResponse, via mock_response).
    response = litellm.ModelResponse(model="gpt-4o-mini", choices=[
        {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None}}])
    reply = LiteLLM(MODEL, mock_response=response).complete(MSGS)
    assert reply.text == ""
    assert reply.usage.prompt_tokens == count_message_tokens(MSGS)
    assert reply.usage.completion_tokens == 0
    # priced from our own counts
    assert reply.usage.cost == pytest.approx(price("gpt-4o-mini", count_message_tokens(MSGS), 0))


def test_no_choices_is_empty_text(monkeypatch):
    monkeypatch.setattr("litellm.completion", lambda **kw: litellm.ModelResponse(model="gpt-4o-mini", choices=[]))
    assert LiteLLM(MODEL).complete(MSGS).text == ""


def test_missing_usage_is_counted_locally(monkeypatch):
    def fake(**kwargs):
        r = mock_ok("(+ 1 2)")
        r.usage = litellm.Usage(prompt_tokens=0, completion_tokens=0, total_tokens=0)
        return r

    monkeypatch.setattr("litellm.completion", fake)
    reply = LiteLLM(MODEL).complete(MSGS)
    assert reply.usage.prompt_tokens == count_message_tokens(MSGS)
    assert reply.usage.completion_tokens == count_tokens("(+ 1 2)")
    assert reply.usage.cost == pytest.approx(price("gpt-4o-mini", reply.usage.prompt_tokens,
                                                   reply.usage.completion_tokens))


def test_provider_usage_wins(monkeypatch):
    def fake(**kwargs):
        r = mock_ok("hi")
        r.usage = litellm.Usage(prompt_tokens=1234, completion_tokens=56, total_tokens=1290)
        return r

    monkeypatch.setattr("litellm.completion", fake)
    usage = LiteLLM(MODEL).complete(MSGS).usage
    assert (usage.prompt_tokens, usage.completion_tokens) == (1234, 56)
    assert usage.cost == pytest.approx(price("gpt-4o-mini", 1234, 56))


def test_completion_kwargs_are_forwarded(monkeypatch):
    flaky = Flaky([])
    monkeypatch.setattr("litellm.completion", flaky)
    LiteLLM(MODEL, temperature=0, api_base="http://x").complete([Message(role="user", content="u")])
    kw = flaky.calls[0]
    assert kw["model"] == MODEL and kw["temperature"] == 0 and kw["api_base"] == "http://x"
    assert kw["messages"] == [{"role": "user", "content": "u"}]
    assert kw["timeout"] == 60
    assert kw["max_retries"] == 0  # ptc retries; litellm/the OpenAI SDK must not retry as well
    flaky.calls.clear()
    LiteLLM(MODEL, timeout=None, max_retries=3).complete(MSGS)
    assert "timeout" not in flaky.calls[0] and flaky.calls[0]["max_retries"] == 3


def test_as_llm_with_a_model_name():
    llm = as_llm(MODEL)
    assert isinstance(llm, LiteLLM) and llm.model == MODEL


def test_bad_arguments():
    with pytest.raises(ValueError):
        LiteLLM("")
    with pytest.raises(ValueError):
        LiteLLM(MODEL, retries=-1)


# -- retries ---------------------------------------------------------------------------------

def test_rate_limit_via_mock_response_retries_then_raises():
    llm = LiteLLM(MODEL, retries=4, backoff=0.5, max_backoff=20, mock_response=rate_limit())
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        llm.complete(MSGS)
    err = info.value
    assert err.kind == "rate_limit" and err.retries == 4
    assert isinstance(err.__cause__, litellm.RateLimitError)
    assert "after 4 retries" in str(err)
    assert len(waits) == 4
    for attempt, wait in enumerate(waits):  # exponential with equal jitter: [base/2, base]
        base = 0.5 * 2 ** attempt
        assert base / 2 <= wait <= base


def test_rate_limit_string_mock():
    llm = LiteLLM(MODEL, retries=2, mock_response="litellm.RateLimitError")
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        llm.complete(MSGS)
    assert info.value.kind == "rate_limit" and info.value.retries == 2 and len(waits) == 2


def test_internal_server_error_string_mock():
    llm = LiteLLM(MODEL, retries=1, mock_response="litellm.InternalServerError")
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        llm.complete(MSGS)
    assert info.value.kind == "server" and info.value.retries == 1 and len(waits) == 1


def test_backoff_is_capped():
    llm = LiteLLM(MODEL, retries=6, backoff=4, max_backoff=10, mock_response=rate_limit())
    waits = no_wait(llm)
    with pytest.raises(LLMError):
        llm.complete(MSGS)
    assert len(waits) == 6 and all(w <= 10 for w in waits) and max(waits) >= 5


def test_jitter_is_deterministic_with_a_seeded_random():
    def delays():
        llm = LiteLLM(MODEL, retries=3, mock_response=rate_limit())
        llm._random.seed(7)
        waits = no_wait(llm)
        with pytest.raises(LLMError):
            llm.complete(MSGS)
        return waits

    assert delays() == delays()


def test_retry_after_header_is_honoured():
    llm = LiteLLM(MODEL, retries=2, backoff=0.1, max_backoff=20,
                  mock_response=rate_limit(headers={"Retry-After": "7"}))
    waits = no_wait(llm)
    with pytest.raises(LLMError):
        llm.complete(MSGS)
    assert waits == [7.0, 7.0]
    llm = LiteLLM(MODEL, retries=1, backoff=0.1, max_backoff=3,
                  mock_response=rate_limit(headers={"retry-after-ms": "60000"}))
    waits = no_wait(llm)
    with pytest.raises(LLMError):
        llm.complete(MSGS)
    assert waits == [3.0]  # capped by max_backoff


def test_retries_then_succeeds(monkeypatch):
    flaky = Flaky([rate_limit(), litellm.InternalServerError("oops", llm_provider="openai", model="m")],
                  text="(+ 1 2)")
    monkeypatch.setattr("litellm.completion", flaky)
    llm = LiteLLM(MODEL)
    waits = no_wait(llm)
    reply = llm.complete(MSGS)
    assert reply.text == "(+ 1 2)" and len(waits) == 2 and len(flaky.calls) == 3
    assert reply.usage.calls == 1


@pytest.mark.parametrize("make, kind", [
    (lambda: litellm.Timeout("slow", model="m", llm_provider="openai"), "timeout"),
    (lambda: litellm.APIConnectionError("refused", llm_provider="ollama", model="m"), "server"),
    (lambda: litellm.ServiceUnavailableError("down", llm_provider="openai", model="m"), "server"),
    (lambda: litellm.InternalServerError("boom", llm_provider="openai", model="m"), "server"),
    (lambda: litellm.BadGatewayError("gw", llm_provider="openai", model="m"), "server"),
    (lambda: litellm.APIError(503, "busy", llm_provider="openai", model="m"), "server"),
    (lambda: litellm.APIError(500, "err", llm_provider="openai", model="m"), "server"),
    (lambda: TimeoutError("socket"), "timeout"),
    (lambda: ConnectionResetError("reset"), "server"),
])
def test_transient_errors_are_retried(monkeypatch, make, kind):
    flaky = Flaky([make(), make()])
    monkeypatch.setattr("litellm.completion", flaky)
    llm = LiteLLM(MODEL, retries=2)
    waits = no_wait(llm)
    assert llm.complete(MSGS).text == "ok" and len(waits) == 2
    # and when they persist:
    flaky = Flaky([make() for _ in range(3)])
    monkeypatch.setattr("litellm.completion", flaky)
    llm = LiteLLM(MODEL, retries=2)
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        llm.complete(MSGS)
    assert info.value.kind == kind and info.value.retries == 2 and len(flaky.calls) == 3


@pytest.mark.parametrize("make, kind", [
    (lambda: litellm.AuthenticationError("bad key", llm_provider="openai", model="m"), "auth"),
    (lambda: litellm.PermissionDeniedError("no", llm_provider="openai", model="m",
                                           response=httpx.Response(403, request=httpx.Request("POST", "http://x"))),
     "auth"),
    (lambda: litellm.BadRequestError("bad", model="m", llm_provider="openai"), "bad_request"),
    (lambda: litellm.NotFoundError("no model", model="m", llm_provider="openai"), "bad_request"),
    (lambda: litellm.ContextWindowExceededError("too long", model="m", llm_provider="openai"), "bad_request"),
    (lambda: litellm.ContentPolicyViolationError("nope", model="m", llm_provider="openai"), "bad_request"),
    (lambda: litellm.APIError(400, "bad", llm_provider="openai", model="m"), "bad_request"),
    (lambda: litellm.BudgetExceededError(current_cost=2.0, max_budget=1.0), "other"),
    (lambda: RuntimeError("a bug somewhere"), "other"),
    (lambda: litellm.InternalServerError("OpenAIException - Missing credentials. Please pass an `api_key`",
                                         llm_provider="openai", model="m"), "auth"),
])
def test_permanent_errors_raise_at_once(monkeypatch, make, kind):
    flaky = Flaky([make()])
    monkeypatch.setattr("litellm.completion", flaky)
    llm = LiteLLM(MODEL, retries=4)
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        llm.complete(MSGS)
    assert info.value.kind == kind and info.value.retries == 0
    assert waits == [] and len(flaky.calls) == 1
    assert info.value.__cause__ is not None


def test_context_window_via_mock_response_is_not_retried():
    llm = LiteLLM(MODEL, mock_response="litellm.ContextWindowExceededError")
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        llm.complete(MSGS)
    assert info.value.kind == "bad_request" and waits == []
    assert "ContextWindowExceededError" in str(info.value)


def test_no_retries_configured():
    llm = LiteLLM(MODEL, retries=0, mock_response=rate_limit())
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        llm.complete(MSGS)
    assert info.value.kind == "rate_limit" and info.value.retries == 0 and waits == []


def test_llm_error_from_inside_passes_through(monkeypatch):
    def fake(**kw):
        raise LLMError("other", "already wrapped")

    monkeypatch.setattr("litellm.completion", fake)
    with pytest.raises(LLMError, match="already wrapped"):
        LiteLLM(MODEL).complete(MSGS)


def test_keyboard_interrupt_is_not_wrapped(monkeypatch):
    def fake(**kw):
        raise KeyboardInterrupt

    monkeypatch.setattr("litellm.completion", fake)
    with pytest.raises(KeyboardInterrupt):
        LiteLLM(MODEL).complete(MSGS)


# -- async retries ---------------------------------------------------------------------------

def test_async_rate_limit_via_mock_response():
    llm = LiteLLM(MODEL, retries=3, mock_response=rate_limit())
    async_waits = no_wait(llm)
    sync_waits: list[float] = []
    llm._sleep = sync_waits.append  # acomplete must not block the event loop with time.sleep
    with pytest.raises(LLMError) as info:
        asyncio.run(llm.acomplete(MSGS))
    assert info.value.kind == "rate_limit" and info.value.retries == 3
    assert len(async_waits) == 3 and sync_waits == []


def test_async_retries_then_succeeds(monkeypatch):
    flaky = Flaky([rate_limit(), litellm.Timeout("slow", model="m", llm_provider="openai")], text="done")
    monkeypatch.setattr("litellm.acompletion", flaky.acall)
    llm = LiteLLM(MODEL)
    sync_waits: list[float] = []
    async_waits = no_wait(llm)
    llm._sleep = sync_waits.append
    reply = asyncio.run(llm.acomplete(MSGS))
    assert reply.text == "done" and len(async_waits) == 2 and sync_waits == []


def test_async_permanent_error(monkeypatch):
    flaky = Flaky([litellm.AuthenticationError("bad key", llm_provider="openai", model="m")])
    monkeypatch.setattr("litellm.acompletion", flaky.acall)
    llm = LiteLLM(MODEL)
    waits = no_wait(llm)
    with pytest.raises(LLMError) as info:
        asyncio.run(llm.acomplete(MSGS))
    assert info.value.kind == "auth" and waits == []


def test_base_acomplete_uses_native_async():
    from ptc.llm.base import acomplete

    reply = asyncio.run(acomplete(LiteLLM(MODEL, mock_response="x"), MSGS))
    assert reply.text == "x"


def test_classify_by_status_code_without_litellm_types():
    class E(Exception):
        def __init__(self, code):
            self.status_code = code

    assert classify_error(E(429)) == "rate_limit"
    assert classify_error(E(408)) == "timeout"
    assert classify_error(E(502)) == "server"
    assert classify_error(E(401)) == "auth"
    assert classify_error(E(404)) == "bad_request"
    assert classify_error(ValueError("x")) == "other"
    assert litellm_client.RETRYABLE_KINDS == ("rate_limit", "timeout", "server")
