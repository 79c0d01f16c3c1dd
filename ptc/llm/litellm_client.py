"""Any model litellm can reach, behind ptc's `complete(messages) -> Reply` protocol.

litellm is imported lazily (on the first call), so `import ptc` stays fast and litellm stays
an optional dependency (``pip install ptc-lisp[llm]``).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
import warnings
from typing import Any, Callable

from .base import LLMError, Message, Messages, Reply, Usage
from .caching import mark_breakpoints, needs_breakpoints

RETRYABLE_KINDS = ("rate_limit", "timeout", "server")

_litellm: Any = None


def _import_litellm() -> Any:
    """Import litellm once, offline-friendly: use its bundled price map, no feedback banners."""
    global _litellm
    if _litellm is None:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        # pydantic complains about litellm's own TypedDicts the first time a call builds them;
        # that is noise to a ptc user.
        warnings.filterwarnings("ignore", message=r".*using the `ReadOnly` qualifier", category=UserWarning)
        try:
            import litellm
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise LLMError("other", "litellm is not installed: pip install 'ptc-lisp[llm]' (or pip install litellm)") from e
        litellm.suppress_debug_info = True
        _litellm = litellm
    return _litellm


def _status_code(error: BaseException) -> int | None:
    for attr in ("status_code", "http_status"):
        code = getattr(error, attr, None)
        if isinstance(code, int):
            return code
    response = getattr(error, "response", None)
    code = getattr(response, "status_code", None)
    return code if isinstance(code, int) else None


# litellm maps some missing-key errors to InternalServerError (500); retrying cannot help.
_MISSING_KEY = re.compile(r"missing (?:\w+ )?(?:credentials|api[ _-]?key)", re.IGNORECASE)


def classify_error(error: BaseException) -> str:
    """The LLMError kind of a provider error: rate_limit, timeout, server (retryable),
    auth, bad_request or other (not retryable)."""
    if _MISSING_KEY.search(str(error)):
        return "auth"
    litellm = _litellm
    if litellm is not None:
        # Order matters: litellm.Timeout subclasses openai.APIConnectionError, and
        # ContextWindowExceededError / ContentPolicyViolationError subclass BadRequestError.
        table: list[tuple[str, str]] = [
            ("BudgetExceededError", "other"),  # litellm's own budget: waiting will not help
            ("Timeout", "timeout"),
            ("RateLimitError", "rate_limit"),
            ("AuthenticationError", "auth"),
            ("PermissionDeniedError", "auth"),
            ("ContextWindowExceededError", "bad_request"),
            ("BadRequestError", "bad_request"),
            ("NotFoundError", "bad_request"),
            ("UnprocessableEntityError", "bad_request"),
            ("ServiceUnavailableError", "server"),
            ("InternalServerError", "server"),
            ("BadGatewayError", "server"),
            ("APIConnectionError", "server"),
        ]
        for name, kind in table:
            cls = getattr(litellm, name, None)
            if isinstance(cls, type) and isinstance(error, cls):
                return kind
    code = _status_code(error)
    if code is not None:
        if code == 429:
            return "rate_limit"
        if code == 408:
            return "timeout"
        if code >= 500:
            return "server"
        if code in (401, 403):
            return "auth"
        if 400 <= code < 500:
            return "bad_request"
    if isinstance(error, TimeoutError):
        return "timeout"
    if isinstance(error, ConnectionError):
        return "server"
    name = type(error).__name__
    if name in ("APITimeoutError", "ReadTimeout", "ConnectTimeout", "WriteTimeout", "PoolTimeout"):
        return "timeout"
    if name in ("APIConnectionError", "ConnectError", "RemoteProtocolError", "ReadError"):
        return "server"
    return "other"


def _retry_after(error: BaseException) -> float | None:
    """Seconds the provider asked us to wait (retry-after-ms / Retry-After), if it said."""
    sources = (getattr(error, "litellm_response_headers", None), getattr(error, "headers", None),
               getattr(getattr(error, "response", None), "headers", None))
    for headers in sources:
        if headers is None:
            continue
        try:
            lowered = {str(k).lower(): v for k, v in headers.items()}
        except (AttributeError, TypeError):
            continue
        for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
            value = lowered.get(name)
            if value is None:
                continue
            try:
                return max(0.0, float(value) / scale)
            except (TypeError, ValueError):
                continue  # e.g. an HTTP date: ignore
    return None


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _count(value: Any) -> int:
    return value if _positive_int(value) else 0


def _cache_tokens(usage: Any) -> tuple[int, int]:
    """(cached, written to cache) prompt tokens of a litellm usage; 0 when not reported."""
    details = getattr(usage, "prompt_tokens_details", None)
    cached = _count(getattr(details, "cached_tokens", None)) or _count(getattr(usage, "cache_read_input_tokens", None))
    written = _count(getattr(usage, "cache_creation_input_tokens", None)) \
        or _count(getattr(details, "cache_creation_tokens", None))
    return cached, written


def _normalize(messages: Any) -> list[dict[str, Any]]:
    out = []
    for m in messages:
        if isinstance(m, Message):
            out.append(m.to_dict())
        elif isinstance(m, dict):
            out.append(m)
        else:
            raise LLMError("bad_request", f"a message must be a dict or Message, got {type(m).__name__}")
    return out


# the environment variable litellm reads each provider's key from (a provider not named here,
# Bedrock's or Vertex's cloud credentials, or a local server, is not checked)
PROVIDER_KEYS = {
    "openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY", "groq": "GROQ_API_KEY", "openrouter": "OPENROUTER_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY", "cohere": "COHERE_API_KEY", "deepseek": "DEEPSEEK_API_KEY",
    "xai": "XAI_API_KEY", "fireworks_ai": "FIREWORKS_API_KEY", "perplexity": "PERPLEXITYAI_API_KEY",
}


def missing_key(model: str, api_base: str | None = None, api_key: str | None = None) -> str | None:
    """What to set before `model` can answer, when its provider's key is known and absent from
    the environment (checked before litellm loads: a missing key otherwise fails after seconds
    with litellm's own messages), or None."""
    if api_key or api_base:
        return None
    provider = model.split("/", 1)[0] if "/" in model else \
        "openai" if model.startswith(("gpt-", "o1", "o3", "o4")) else "anthropic" if model.startswith("claude") else None
    var = PROVIDER_KEYS.get(provider or "")
    if var is None or os.environ.get(var):
        return None
    return (f"{model} needs {var} in the environment (or --api-key KEY); a local model needs --api-base URL, "
            f"e.g. --model ollama_chat/llama3.1 --api-base http://localhost:11434; `ptc demo` runs offline")


class LiteLLM:
    """A chat model reached through litellm: OpenAI, Anthropic, Gemini, Bedrock, Azure,
    Mistral, Groq, OpenRouter, local Ollama / vLLM / LM Studio servers, ... -- anything
    ``litellm.completion`` supports.

    Examples::

        LiteLLM("openai/gpt-4o-mini")                      # OPENAI_API_KEY from the env
        LiteLLM("anthropic/claude-3-5-sonnet-latest", temperature=0)
        LiteLLM("ollama_chat/llama3.1", api_base="http://localhost:11434")   # local, no key
        LiteLLM("hosted_vllm/my-model", api_base="http://localhost:8000/v1")  # vLLM
        LiteLLM("openai/my-model", api_base="http://localhost:8080/v1")       # llama.cpp server
        LiteLLM("openai/gpt-4o-mini", mock_response="(+ 1 2)")  # litellm's offline mock

    `api_base`: the server's URL (a local or self-hosted OpenAI-compatible server, a proxy).
    `api_key`: its key; without one, an ``openai/`` model with an `api_base` and no
    OPENAI_API_KEY in the environment sends the placeholder "no-key" (local servers
    usually check none, and the OpenAI SDK refuses to send a request without one).
    Extra keyword arguments (temperature, max_tokens, mock_response, ...) are passed to
    every ``litellm.completion`` call.

    Prompt caching: `cache_breakpoints` None (default) marks Anthropic cache breakpoints
    (`ptc.llm.caching`) for the models that need them (Claude, directly or on Bedrock /
    Vertex AI) and leaves other requests alone; True marks them for any model, False never.
    ``complete(messages, append_only=True)`` (the agent loop passes it for strategies that
    only append) also marks the last message, so the next request reads it from the cache.

    Failures: rate limits (429), timeouts, connection errors and server errors (5xx) are
    retried up to `retries` times with exponential backoff -- ``backoff * 2**attempt``
    seconds capped at `max_backoff`, with "equal jitter" (half fixed, half random), and at
    least what a Retry-After header asks for (also capped). When they persist,
    ``LLMError(kind="rate_limit"|"timeout"|"server", retries=n)`` is raised. Errors that a
    retry cannot fix raise at once: ``kind="auth"`` (401/403), ``kind="bad_request"`` (bad
    request, unknown model, context window exceeded, content policy) or ``kind="other"``.
    The original exception is chained as ``__cause__``. litellm's/the OpenAI SDK's own
    retries are turned off (``max_retries=0``) unless you pass ``max_retries`` yourself.

    Usage: the provider's prompt/completion token counts when it reports them (missing,
    None or all-zero counts count as unreported), else counted locally with `ptc.llm.tokens`;
    `cached_tokens` from ``prompt_tokens_details.cached_tokens`` (OpenAI; Anthropic's
    ``cache_read_input_tokens``), `cache_write_tokens` from ``cache_creation_input_tokens``.
    Cost: ``litellm.completion_cost(response)`` for reported usage (cache reads and writes at
    the model's cache prices when litellm knows them), ``litellm.cost_per_token``
    of the local counts otherwise; 0.0 for known free/local models (Ollama), None when the
    model's price is unknown. `Reply.model` is the model name the provider reports (e.g.
    "gpt-4o-mini" for "openai/gpt-4o-mini"), else the configured one. A reply with no text
    content (None, or tool calls only) is returned as "": the agent loop deals with it.

    Tests can replace `_sleep` (and `_asleep` for `acomplete`) to avoid real waits, and
    `_random` (a `random.Random`) to make the jitter deterministic.
    """

    def __init__(self, model: str, *, api_base: str | None = None, api_key: str | None = None,
                 cache_breakpoints: bool | None = None, retries: int = 4, backoff: float = 0.5,
                 max_backoff: float = 20, timeout: float | None = 60, **completion_kwargs: Any) -> None:
        if not isinstance(model, str) or not model:
            raise ValueError("model must be a non-empty litellm model name, e.g. 'openai/gpt-4o-mini'")
        if retries < 0:
            raise ValueError("retries must be >= 0")
        self.model = model
        self.api_base = api_base
        self.api_key = api_key
        self.cache_breakpoints = needs_breakpoints(model) if cache_breakpoints is None else cache_breakpoints
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.timeout = timeout
        self.completion_kwargs = completion_kwargs
        self._sleep: Callable[[float], Any] = time.sleep
        self._asleep: Callable[[float], Any] = asyncio.sleep
        self._random = random.Random()

    def __repr__(self) -> str:
        return f"LiteLLM({self.model!r})"

    # -- request / response -------------------------------------------------------------

    def _kwargs(self, messages: list[dict[str, Any]], append_only: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"max_retries": 0, **self.completion_kwargs}
        kwargs["model"] = self.model
        kwargs["messages"] = mark_breakpoints(messages, append_only) if self.cache_breakpoints else messages
        if self.timeout is not None and "timeout" not in self.completion_kwargs:
            kwargs["timeout"] = self.timeout
        if self.api_base is not None:
            kwargs["api_base"] = self.api_base
        api_key = self.api_key
        if api_key is None and self.api_base is not None and self.model.startswith("openai/") \
                and not os.environ.get("OPENAI_API_KEY"):
            api_key = "no-key"
        if api_key is not None:
            kwargs["api_key"] = api_key
        return kwargs

    def _reply(self, response: Any, messages: list[dict[str, Any]]) -> Reply:
        text = ""
        choices = getattr(response, "choices", None) or []
        if choices:
            message = getattr(choices[0], "message", None)
            content = getattr(message, "content", None)
            if isinstance(content, str):
                text = content
            elif content is not None:
                from .tokens import _content_text

                text = _content_text(content)
        usage = getattr(response, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None) if usage is not None else None
        completion = getattr(usage, "completion_tokens", None) if usage is not None else None
        # Unreported usage: missing, None, or zeros (a real request never has 0 prompt tokens,
        # nor a non-empty answer 0 completion tokens) -- count locally instead.
        reported = True
        if not _positive_int(prompt):
            from .tokens import count_message_tokens

            prompt = count_message_tokens(messages)
            reported = False
        if not isinstance(completion, int) or isinstance(completion, bool) or completion < 0 or (completion == 0 and text):
            from .tokens import count_tokens

            completion = count_tokens(text)
            reported = False
        served = getattr(response, "model", None)
        model = served if isinstance(served, str) and served else self.model
        # Price the provider's usage when it reported it; else price our own counts (litellm
        # would price a response without usage at 0 tokens).
        cost = self._cost(response) if reported else self._cost_of_tokens(prompt, completion, model)
        cached, written = _cache_tokens(usage) if reported else (0, 0)
        return Reply(text=text, usage=Usage(prompt_tokens=prompt, completion_tokens=completion, cost=cost, calls=1,
                                            cached_tokens=cached, cache_write_tokens=written),
                     model=model)

    def _cost(self, response: Any) -> float | None:
        litellm = _import_litellm()
        try:
            cost = litellm.completion_cost(completion_response=response)
        except Exception:
            return None
        try:
            return float(cost) if cost is not None else None
        except (TypeError, ValueError):
            return None

    def _cost_of_tokens(self, prompt: int, completion: int, served_model: str) -> float | None:
        litellm = _import_litellm()
        for name in dict.fromkeys((self.model, served_model)):
            try:
                prompt_cost, completion_cost = litellm.cost_per_token(model=name, prompt_tokens=prompt,
                                                                      completion_tokens=completion)
                return float(prompt_cost) + float(completion_cost)
            except Exception:
                continue
        return None

    # -- retries ------------------------------------------------------------------------

    def _delay(self, attempt: int, error: BaseException) -> float:
        """Wait before retry number `attempt + 1`: exponential, capped, equal jitter."""
        base = min(self.max_backoff, self.backoff * (2 ** attempt))
        delay = base / 2 + self._random.uniform(0, base / 2)
        hinted = _retry_after(error)
        if hinted is not None:
            delay = max(delay, min(hinted, self.max_backoff))
        return delay

    def _failure(self, error: BaseException, attempt: int) -> tuple[LLMError, bool]:
        """The LLMError for `error` and whether to retry it."""
        if isinstance(error, LLMError):
            return error, False
        kind = classify_error(error)
        retry = kind in RETRYABLE_KINDS and attempt < self.retries
        detail = str(error).strip() or type(error).__name__
        if len(detail) > 2000:
            detail = detail[:2000] + "..."
        if kind in RETRYABLE_KINDS and not retry and self.retries:
            message = f"{self.model}: {type(error).__name__} persisted after {attempt} retries: {detail}"
        else:
            message = f"{self.model}: {type(error).__name__}: {detail}"
        return LLMError(kind, message, retries=attempt), retry

    def complete(self, messages: Messages, *, append_only: bool = False) -> Reply:
        """One chat completion, retried on transient failures (see the class docstring)."""
        litellm = _import_litellm()
        plain = _normalize(messages)
        kwargs = self._kwargs(plain, append_only)
        attempt = 0
        while True:
            try:
                response = litellm.completion(**kwargs)
            except Exception as error:  # KeyboardInterrupt etc. propagate untouched
                failure, retry = self._failure(error, attempt)
                if not retry:
                    raise failure from error
                self._sleep(self._delay(attempt, error))
                attempt += 1
                continue
            return self._reply(response, plain)

    async def acomplete(self, messages: Messages, *, append_only: bool = False) -> Reply:
        """`complete` for asyncio, via ``litellm.acompletion``."""
        litellm = _import_litellm()
        plain = _normalize(messages)
        kwargs = self._kwargs(plain, append_only)
        attempt = 0
        while True:
            try:
                response = await litellm.acompletion(**kwargs)
            except Exception as error:  # CancelledError is a BaseException: propagates
                failure, retry = self._failure(error, attempt)
                if not retry:
                    raise failure from error
                await self._asleep(self._delay(attempt, error))
                attempt += 1
                continue
            return self._reply(response, plain)
