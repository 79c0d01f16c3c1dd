"""Token counting: tiktoken (offline, from litellm's bundled encodings) or the chars/4 estimate."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time

import pytest

from ptc.llm import tokens
from ptc.llm.base import Message
from ptc.llm.tokens import (
    ESTIMATE_NAME,
    count_message_tokens,
    count_tokens,
    estimate_tokens,
    tokenizer_name,
)

HAVE_TIKTOKEN = tokenizer_name("o200k_base") == "tiktoken:o200k_base"
needs_tiktoken = pytest.mark.skipif(not HAVE_TIKTOKEN, reason="tiktoken / bundled o200k_base not available")


def run_py(code: str, env: dict[str, str] | None = None) -> str:
    full_env = {k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")}
    full_env.update(env or {})
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full_env, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_empty_text_is_zero_tokens():
    assert count_tokens("") == 0
    assert count_tokens("", "no_such_encoding") == 0


@needs_tiktoken
def test_tiktoken_counts_o200k():
    assert count_tokens("hello world") == 2
    assert count_tokens("hello world", "cl100k_base") == 2
    assert tokenizer_name() == "tiktoken:o200k_base"
    assert tokenizer_name("cl100k_base") == "tiktoken:cl100k_base"


@needs_tiktoken
def test_special_token_text_is_ordinary_text():
    # Model output may contain "<|endoftext|>"; counting must not raise.
    assert count_tokens("a <|endoftext|> b") > 3


def test_unknown_encoding_falls_back_to_estimate():
    assert tokenizer_name("no_such_encoding") == ESTIMATE_NAME
    assert count_tokens("abcde", "no_such_encoding") == 2  # ceil(5 / 4)
    assert count_tokens("abcd", "no_such_encoding") == 1
    assert count_tokens("a", "no_such_encoding") == 1


def test_estimate_is_ceil_len_over_4():
    for n in range(0, 40):
        assert estimate_tokens("x" * n) == math.ceil(n / 4)


@pytest.mark.timing
def test_uncached_encoding_is_not_downloaded(monkeypatch):
    # r50k_base is not bundled with litellm: with no network, tiktoken's download would fail
    # or hang. It must fall back to the estimate, quickly, without trying.
    cache = tokens._tiktoken_cache_dir()
    if os.path.exists(os.path.join(cache, "0ea1e91bbb3a60f729a8dc8f777fd2fc07cd8df4")):
        pytest.skip("r50k_base happens to be cached here")
    monkeypatch.delenv("PTC_TIKTOKEN_DOWNLOAD", raising=False)
    tokens._encoder.cache_clear()
    try:
        start = time.perf_counter()
        assert tokenizer_name("r50k_base") == ESTIMATE_NAME
        assert count_tokens("abcdefgh", "r50k_base") == 2
        assert time.perf_counter() - start < 1.0
    finally:
        tokens._encoder.cache_clear()


def test_message_formula_fallback():
    enc = "no_such_encoding"
    msgs = [{"role": "system", "content": "x" * 10}, {"role": "user", "content": "y" * 8}]
    # 3 priming + per message (3 + role + content)
    expected = 3 + (3 + estimate_tokens("system") + 3) + (3 + estimate_tokens("user") + 2)
    assert count_message_tokens(msgs, enc) == expected


@needs_tiktoken
def test_message_formula_tiktoken():
    assert count_message_tokens([{"role": "user", "content": "hello world"}]) == 3 + (3 + 1 + 2)
    assert count_message_tokens([]) == 3
    msgs = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "(+ 1 2)"},
            {"role": "assistant", "content": "3"}]
    expected = 3 + sum(3 + count_tokens(m["role"]) + count_tokens(m["content"]) for m in msgs)
    assert count_message_tokens(msgs) == expected


@needs_tiktoken
def test_message_name_costs_one_extra_token():
    base = count_message_tokens([{"role": "user", "content": "hi"}])
    named = count_message_tokens([{"role": "user", "content": "hi", "name": "bob"}])
    assert named == base + count_tokens("bob") + 1


def test_message_objects_and_odd_contents():
    enc = "no_such_encoding"
    as_dict = count_message_tokens([{"role": "user", "content": "hello there"}], enc)
    assert count_message_tokens([Message(role="user", content="hello there")], enc) == as_dict
    # None content (e.g. an assistant tool call) counts as empty.
    assert count_message_tokens([{"role": "assistant", "content": None}], enc) == 3 + 3 + estimate_tokens("assistant")
    # Multimodal content: only the text parts count.
    parts = [{"type": "text", "text": "hello "}, {"type": "image_url", "image_url": {"url": "x"}},
             {"type": "text", "text": "there"}]
    assert count_message_tokens([{"role": "user", "content": parts}], enc) == as_dict
    # Non-string extra fields are ignored.
    assert count_message_tokens([{"role": "user", "content": "hello there", "tool_calls": [1, 2]}], enc) == as_dict
    with pytest.raises(TypeError):
        count_message_tokens([42], enc)


def test_counts_are_cached():
    text = "(defn f [x] (* x x)) " * 2000
    count_tokens(text)
    before = tokens._count.cache_info().hits
    for _ in range(5):
        count_tokens(text)
    assert tokens._count.cache_info().hits == before + 5


@pytest.mark.timing
@needs_tiktoken
def test_counting_a_long_history_is_fast():
    history = [{"role": "system", "content": "You write PTC-Lisp. " * 500}]
    for i in range(40):
        history.append({"role": "user" if i % 2 else "assistant", "content": f"(tool/search {{:q \"{i}\"}}) " * 50})
    count_message_tokens(history)  # warm
    start = time.perf_counter()
    for _ in range(100):
        count_message_tokens(history)
    assert time.perf_counter() - start < 0.5


def test_deterministic_across_calls():
    text = "Deterministic? (map inc [1 2 3])"
    assert count_tokens(text) == count_tokens(text)
    assert count_tokens(text, "no_such_encoding") == count_tokens(text, "no_such_encoding")


@needs_tiktoken
def test_cache_dir_points_at_litellm_when_unset():
    out = run_py("import os, json; from ptc.llm.tokens import tokenizer_name, count_tokens;"
                 "print(json.dumps([tokenizer_name(), count_tokens('hello world'),"
                 " os.environ.get('TIKTOKEN_CACHE_DIR')]))")
    name, n, cache_dir = json.loads(out)
    assert name == "tiktoken:o200k_base" and n == 2
    assert cache_dir == tokens.litellm_tokenizers_dir()


def test_user_cache_dir_is_respected(tmp_path):
    # An empty user cache: the user's setting is kept and nothing is downloaded.
    out = run_py("import os, json; from ptc.llm.tokens import tokenizer_name, count_tokens;"
                 "print(json.dumps([tokenizer_name(), count_tokens('abcdefgh'), os.environ['TIKTOKEN_CACHE_DIR']]))",
                 env={"TIKTOKEN_CACHE_DIR": str(tmp_path)})
    name, n, cache_dir = json.loads(out)
    assert name == ESTIMATE_NAME and n == 2 and cache_dir == str(tmp_path)


def test_without_tiktoken_estimate_is_used():
    code = ("import sys; sys.modules['tiktoken'] = None\n"
            "from ptc.llm.tokens import tokenizer_name, count_tokens, count_message_tokens\n"
            "print(tokenizer_name(), count_tokens('abcdefghi'), count_message_tokens([{'role':'user','content':'abcd'}]))")
    assert run_py(code) == f"{ESTIMATE_NAME} 3 {3 + 3 + 1 + 1}"


def test_import_ptc_stays_light():
    code = ("import sys, ptc, ptc.llm.tokens, ptc.llm.litellm_client, ptc.llm.cassette, ptc.llm.base\n"
            "print(sorted(m for m in ('litellm', 'tiktoken', 'openai') if m in sys.modules))")
    assert run_py(code) == "[]"
