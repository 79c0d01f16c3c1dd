"""The provider cost model on hand-computed cases, and the shared cache-breakpoint rule."""

from __future__ import annotations

import pytest

from ptc.llm.caching import cache_breakpoints
from ptc.llm.pricing import (
    ANTHROPIC,
    OPENAI,
    UNCACHED,
    Billing,
    Prices,
    Request,
    bill,
    model_prices,
    openai_cached,
)
from ptc.llm.tokens import count_message_tokens, message_token_ids

PRIMING = 3


def request(*sizes: int, breakpoints: tuple[int, ...] = (), tail: int = 0) -> Request:
    """Messages of the given token sizes; message i's tokens are (i, 0), (i, 1), ... encoded as
    ints, so requests that share messages share exactly those tokens. `tail` makes the last
    message differ from any other request's (a rewritten message)."""
    tokens: list[int] = []
    ends = []
    for i, n in enumerate(sizes):
        salt = tail if i == len(sizes) - 1 else 0
        tokens += [i * 1_000_000 + salt * 100_000 + k for k in range(n)]
        ends.append(len(tokens))
    return Request(tuple(tokens) + (-1, -5, -2), tuple(ends), breakpoints)


# -- the breakpoint rule -----------------------------------------------------------------------


def test_breakpoints_end_of_system_and_last_message_when_append_only() -> None:
    msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "m"},
            {"role": "assistant", "content": "a"}, {"role": "user", "content": "f"}]
    assert cache_breakpoints(msgs, append_only=True) == [0, 3]
    assert cache_breakpoints(msgs, append_only=False) == [0]
    assert cache_breakpoints(msgs[:2], append_only=True) == [0, 1]
    assert cache_breakpoints(msgs[:1], append_only=True) == [0]
    assert cache_breakpoints(msgs[1:], append_only=True) == [2]  # no system prompt
    assert cache_breakpoints(msgs[1:], append_only=False) == []
    assert cache_breakpoints([], append_only=True) == []
    two_systems = [{"role": "system", "content": "a"}, {"role": "system", "content": "b"}, msgs[1]]
    assert cache_breakpoints(two_systems, append_only=False) == [1]


# -- OpenAI: automatic, 1,024 minimum, 128-token steps, 0.5x -----------------------------------


@pytest.mark.parametrize("shared, cached", [(0, 0), (1023, 0), (1024, 1024), (1151, 1024), (1152, 1152),
                                            (5000, 4992)])
def test_openai_cached_prefix_grid(shared: int, cached: int) -> None:
    assert openai_cached(shared) == cached


def test_openai_reads_the_longest_shared_prefix_of_an_earlier_long_enough_request() -> None:
    first = request(1500, 500)  # 2,003 tokens
    second = request(1500, 500, tail=1)  # shares the first 1,500 tokens
    third = request(1500, 500, 700)  # extends `first`: shares 2,000 tokens (not the priming)
    billed = bill([first, second, third], OPENAI)
    assert billed[0] == Billing(uncached=2003)
    assert billed[1] == Billing(uncached=2003 - 1408, cache_read=1408)  # 1,024 + 3 x 128
    assert billed[2] == Billing(uncached=2703 - 1920, cache_read=1920)  # 1,024 + 7 x 128
    assert billed[2].equivalents(OPENAI) == 783 + 0.5 * 1920


def test_openai_does_not_cache_a_prompt_under_1024_tokens() -> None:
    short, longer, longest = request(900, 100), request(900, 100, 2000), request(900, 100, 2000, 50)
    billed = bill([short, longer, longest], OPENAI)
    assert billed[1].cache_read == 0  # the 1,003-token prompt before it was never cached
    assert billed[2].cache_read == openai_cached(3000) == 2944


# -- Anthropic: breakpoints, 1,024 minimum, 20-block lookback, 0.1x reads, 1.25x writes -----


def test_anthropic_append_only_reads_the_previous_prompt_and_writes_the_new_messages() -> None:
    first = request(1100, 50, breakpoints=(0, 1))
    second = request(1100, 50, 100, 60, breakpoints=(0, 3))
    billed = bill([first, second], ANTHROPIC)
    assert billed[0] == Billing(uncached=PRIMING, cache_write=1150)
    assert billed[1] == Billing(uncached=PRIMING, cache_read=1150, cache_write=160)
    assert billed[1].equivalents(ANTHROPIC) == pytest.approx(3 + 115 + 200)


def test_anthropic_rewritten_message_reads_only_the_system_prompt() -> None:
    first = request(1100, 50, breakpoints=(0,))
    second = request(1100, 200, breakpoints=(0,), tail=1)
    billed = bill([first, second], ANTHROPIC)
    assert billed[0] == Billing(uncached=50 + PRIMING, cache_write=1100)
    assert billed[1] == Billing(uncached=200 + PRIMING, cache_read=1100)


def test_anthropic_prefix_under_1024_tokens_is_not_cached_until_it_grows() -> None:
    first = request(500, 50, breakpoints=(0, 1))
    second = request(500, 50, 300, 350, breakpoints=(0, 3))  # 1,200 tokens at the last breakpoint
    third = request(500, 50, 300, 350, 40, 10, breakpoints=(0, 5))
    billed = bill([first, second, third], ANTHROPIC)
    assert billed[0] == Billing(uncached=553)  # no write premium: nothing was cacheable
    assert billed[1] == Billing(uncached=PRIMING, cache_write=1200)
    assert billed[2] == Billing(uncached=PRIMING, cache_read=1200, cache_write=50)


def test_anthropic_looks_back_at_most_20_blocks_before_a_breakpoint() -> None:
    first = request(1100, 50, breakpoints=(0, 1))
    sizes = (1100, 50) + (10,) * 24  # message 1 (cached) is 24 blocks before the last one
    second = request(*sizes, breakpoints=(0, 25))
    within = request(*sizes[:21], breakpoints=(0, 20))  # 19 blocks: found
    assert bill([first, second], ANTHROPIC)[1] == Billing(uncached=PRIMING, cache_read=1100, cache_write=290)
    assert bill([first, within], ANTHROPIC)[1] == Billing(uncached=PRIMING, cache_read=1150, cache_write=190)


def test_uncached_bills_every_token() -> None:
    reqs = [request(1100, 50, breakpoints=(0, 1)), request(1100, 50, 100, breakpoints=(0, 2))]
    assert bill(reqs, UNCACHED) == [Billing(uncached=1153), Billing(uncached=1253)]
    assert sum(bill(reqs, UNCACHED), Billing()).equivalents(UNCACHED) == 2406


def test_dollars_use_the_model_prices() -> None:
    prices = Prices(model="m", input=3e-6, cache_read=3e-7, cache_write=3.75e-6)
    assert Billing(uncached=1000, cache_read=10_000, cache_write=2000).dollars(prices) == pytest.approx(
        0.003 + 0.003 + 0.0075)


# -- from messages ----------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["o200k_base", "no_such_encoding"])  # tiktoken, and the chars/4 estimate
def test_request_from_messages_counts_like_count_message_tokens(encoding: str) -> None:
    msgs = [{"role": "system", "content": "You write PTC-Lisp."}, {"role": "user", "content": "Count the rows."},
            {"role": "assistant", "content": "```clojure\n(count data/rows)\n```", "name": "bot"}]
    req = Request.from_messages(msgs, append_only=True, encoding=encoding)
    assert len(req.tokens) == count_message_tokens(msgs, encoding)
    assert req.message_ends[-1] == len(req.tokens) - PRIMING
    assert [len(message_token_ids(m, encoding)) for m in msgs] == [
        req.message_ends[0], req.message_ends[1] - req.message_ends[0], req.message_ends[2] - req.message_ends[1]]
    assert req.breakpoints == (0, 2)
    longer = Request.from_messages(msgs + [{"role": "user", "content": "ok"}], append_only=False, encoding=encoding)
    assert longer.tokens[:req.message_ends[-1]] == req.tokens[:req.message_ends[-1]]
    assert longer.breakpoints == (0,)


# -- prices from litellm's bundled map ---------------------------------------------------------


def test_model_prices_from_litellm_cost_map() -> None:
    gpt = model_prices("gpt-4o")
    assert gpt.provider == "openai" and gpt.cache_read == pytest.approx(gpt.input / 2)
    assert gpt.cache_write == gpt.input  # OpenAI charges nothing for writing its cache
    claude = model_prices("anthropic/claude-sonnet-4-5")
    assert claude.provider == "anthropic"
    assert claude.cache_read == pytest.approx(0.1 * claude.input)
    assert claude.cache_write == pytest.approx(1.25 * claude.input)


def test_model_prices_unknown_model_names_close_matches() -> None:
    with pytest.raises(ValueError, match=r"no input price for 'gpt-4oo'.*close matches: .*gpt-4o"):
        model_prices("gpt-4oo")
