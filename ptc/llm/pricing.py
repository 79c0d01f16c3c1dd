"""Prompt tokens as providers bill them: uncached, OpenAI's automatic prefix cache, Anthropic's breakpoints.

A run sends a sequence of requests; a provider that caches prompt prefixes bills the part of
a request it already holds at a discount. The rules, as documented by the providers:

- **OpenAI** (automatic, https://platform.openai.com/docs/guides/prompt-caching): prompts of
  1,024 tokens or more are cached; a later request that starts with the same tokens reads
  the longest cached prefix, counted in steps of 128 tokens from 1,024 (1,024, 1,152, ...),
  billed at 0.5x the input price (gpt-4o class). Writing costs nothing extra.
- **Anthropic** (explicit, https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching):
  only prefixes that end at a block marked `cache_control` (up to 4 per request) are cached,
  and only when they are at least 1,024 tokens long (Claude Sonnet 4.x / Opus 4 / 4.1; Haiku
  and newer Opus need more). A request reads the longest cached prefix found at a block
  boundary up to 20 blocks before one of its breakpoints (0.1x), writes what lies between
  that and its last cacheable breakpoint (1.25x, five-minute cache), and pays 1x for the rest.

Assumptions: the cache never expires within a run (calls minutes apart at most) and starts
empty for each run; one message is one block; tokens are counted with one tokenizer
(`ptc.llm.tokens`, o200k_base by default) for every provider, so Anthropic figures are
estimates of its own tokenizer's counts. Everything here is a pure function of the requests;
`model_prices` reads litellm's bundled price map to turn token counts into dollars.
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from .caching import cache_breakpoints
from .tokens import DEFAULT_ENCODING, REPLY_PRIMING_IDS, litellm_path, message_token_ids

MIN_CACHED_PREFIX = 1024  # both providers (Anthropic: Sonnet 4.x / Opus 4 class)
OPENAI_CACHE_STEP = 128
ANTHROPIC_LOOKBACK_BLOCKS = 20


class CacheRules(BaseModel):
    """One provider's way of billing prompt tokens (multipliers of its input price)."""

    model_config = ConfigDict(frozen=True)

    name: str
    kind: Literal["none", "automatic", "breakpoints"]
    read_multiplier: float = 1.0
    write_multiplier: float = 1.0


UNCACHED = CacheRules(name="uncached", kind="none")
OPENAI = CacheRules(name="openai", kind="automatic", read_multiplier=0.5)
ANTHROPIC = CacheRules(name="anthropic", kind="breakpoints", read_multiplier=0.1, write_multiplier=1.25)
PROVIDERS: dict[str, CacheRules] = {r.name: r for r in (UNCACHED, OPENAI, ANTHROPIC)}


@dataclass(frozen=True)
class Request:
    """One LLM call's prompt as the tokens a provider sees, with its message boundaries."""

    tokens: tuple[int, ...]  # the whole prompt, reply priming last
    message_ends: tuple[int, ...]  # the offset just past each message
    breakpoints: tuple[int, ...] = ()  # indices of the messages marked `cache_control`

    @classmethod
    def from_messages(cls, messages: Sequence[Mapping[str, Any]], *, append_only: bool,
                      encoding: str = DEFAULT_ENCODING) -> "Request":
        """Tokens per message (`ptc.llm.tokens`) and the shared breakpoint rule (`ptc.llm.caching`)."""
        tokens: list[int] = []
        ends: list[int] = []
        for message in messages:
            tokens += message_token_ids(message, encoding)
            ends.append(len(tokens))
        return cls(tuple(tokens) + REPLY_PRIMING_IDS, tuple(ends),
                   tuple(cache_breakpoints(messages, append_only)))


class Billing(BaseModel):
    """The prompt tokens of one or more requests, split by how they are billed."""

    model_config = ConfigDict(frozen=True)

    uncached: int = 0
    cache_read: int = 0
    cache_write: int = 0

    @property
    def total(self) -> int:
        return self.uncached + self.cache_read + self.cache_write

    def __add__(self, other: "Billing") -> "Billing":
        return Billing(uncached=self.uncached + other.uncached, cache_read=self.cache_read + other.cache_read,
                       cache_write=self.cache_write + other.cache_write)

    def equivalents(self, rules: CacheRules) -> float:
        """The cost in input-token equivalents: what the same money buys in uncached tokens."""
        return self.uncached + rules.read_multiplier * self.cache_read + rules.write_multiplier * self.cache_write

    def dollars(self, prices: "Prices") -> float:
        return (self.uncached * prices.input + self.cache_read * prices.cache_read
                + self.cache_write * prices.cache_write)


def _common_prefix(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Length of the longest common prefix (binary search on C-level slice comparison)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def openai_cached(shared: int) -> int:
    """The part of a shared prefix OpenAI bills as cached: 0 under 1,024, else whole 128-token steps."""
    if shared < MIN_CACHED_PREFIX:
        return 0
    return MIN_CACHED_PREFIX + (shared - MIN_CACHED_PREFIX) // OPENAI_CACHE_STEP * OPENAI_CACHE_STEP


def bill_openai(requests: Sequence[Request]) -> list[Billing]:
    """Each request reads the longest prefix it shares with an earlier request that was cached
    (1,024 tokens or more), rounded down to the 128-token grid."""
    out: list[Billing] = []
    for i, req in enumerate(requests):
        shared = max((_common_prefix(req.tokens, earlier.tokens) for earlier in requests[:i]
                      if len(earlier.tokens) >= MIN_CACHED_PREFIX), default=0)
        read = openai_cached(shared)
        out.append(Billing(uncached=len(req.tokens) - read, cache_read=read))
    return out


def bill_anthropic(requests: Sequence[Request]) -> list[Billing]:
    """Reads at block boundaries within 20 blocks before a breakpoint, writes up to the last
    breakpoint whose prefix is at least 1,024 tokens, the rest at full price."""
    cache: set[tuple[int, ...]] = set()
    out: list[Billing] = []
    for req in requests:
        lookup = sorted({m for b in req.breakpoints for m in range(max(0, b - ANTHROPIC_LOOKBACK_BLOCKS), b + 1)},
                        reverse=True)
        read = next((req.message_ends[m] for m in lookup if req.tokens[:req.message_ends[m]] in cache), 0)
        cacheable = [req.message_ends[b] for b in req.breakpoints if req.message_ends[b] >= MIN_CACHED_PREFIX]
        write = max(0, max(cacheable, default=0) - read)
        cache.update(req.tokens[:end] for end in cacheable)
        out.append(Billing(uncached=len(req.tokens) - read - write, cache_read=read, cache_write=write))
    return out


def bill(requests: Sequence[Request], rules: CacheRules) -> list[Billing]:
    """Per request, the split of its prompt tokens under `rules`."""
    if rules.kind == "automatic":
        return bill_openai(requests)
    if rules.kind == "breakpoints":
        return bill_anthropic(requests)
    return [Billing(uncached=len(r.tokens)) for r in requests]


# -- prices ----------------------------------------------------------------------------------


class Prices(BaseModel):
    """A model's price per prompt token in USD (litellm's cost map)."""

    model_config = ConfigDict(frozen=True)

    model: str
    provider: str | None = None
    input: float
    cache_read: float  # the input price when the map gives no cache price
    cache_write: float


@lru_cache(maxsize=1)
def _price_map() -> dict[str, Any]:
    path = litellm_path("model_prices_and_context_window_backup.json")  # litellm.model_cost, offline
    if path is not None:
        with open(path, encoding="utf-8") as f:
            return json.load(f)  # type: ignore[no-any-return]
    try:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import litellm
    except ImportError:
        raise ValueError("prices come from litellm's cost map: pip install litellm") from None
    return dict(litellm.model_cost)


def model_prices(model: str) -> Prices:
    """Prices of `model` ("gpt-4o", "claude-sonnet-4-5", or with a provider prefix such as
    "anthropic/claude-sonnet-4-5"); ValueError naming close matches when it is not in the map."""
    table = _price_map()
    key = model if model in table else model.split("/", 1)[-1]
    entry = table.get(key)
    if not isinstance(entry, dict) or not isinstance(entry.get("input_cost_per_token"), (int, float)):
        close = difflib.get_close_matches(model, [k for k, v in table.items() if isinstance(v, dict)
                                                  and v.get("input_cost_per_token")], n=5, cutoff=0.6)
        hint = f"; close matches: {', '.join(close)}" if close else ""
        raise ValueError(f"no input price for {model!r} in litellm's cost map{hint}")
    price = float(entry["input_cost_per_token"])
    read, write = entry.get("cache_read_input_token_cost"), entry.get("cache_creation_input_token_cost")
    return Prices(model=model, provider=entry.get("litellm_provider"), input=price,
                  cache_read=float(read) if read is not None else price,
                  cache_write=float(write) if write is not None else price)


__all__ = ["ANTHROPIC", "Billing", "CacheRules", "OPENAI", "PROVIDERS", "Prices", "Request", "UNCACHED", "bill",
           "bill_anthropic", "bill_openai", "model_prices", "openai_cached"]
