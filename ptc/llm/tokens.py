"""Token counting for usage accounting when the provider does not report usage.

`count_tokens(text)` counts with tiktoken when it and the encoding are available offline,
else with a deterministic estimate of ``ceil(len(text) / 4)`` (about 4 characters per token
for English text and code). `tokenizer_name(encoding)` says which one is in use.

Chat accounting (`count_message_tokens`) follows OpenAI's published recipe for gpt-3.5/4/4o
chat models::

    total = 3                                   # every reply is primed with <|start|>assistant<|message|>
          + sum over messages of (
                3                               # <|start|>{role}<|message|> ... <|end|> framing
              + tokens(role) + tokens(content)  # every string value of the message is encoded
              + tokens(name) + 1 if "name" set  # a name costs one extra token
            )

e.g. ``[{"role": "user", "content": "hello world"}]`` is 3 + (1 + 2) + 3 = 9 tokens with
o200k_base. Other providers tokenize differently; this is an estimate, which is all it is used
for (usage is taken from the provider whenever it reports it).

Where the encodings come from: tiktoken downloads them on first use, which cannot work
offline. litellm ships cl100k_base, o200k_base and p50k_base in its package folder
(``litellm/litellm_core_utils/tokenizers``), so unless the user set ``TIKTOKEN_CACHE_DIR``
we point it there (found without importing litellm, which is slow). An encoding whose file is
not in the cache is *not* downloaded (tiktoken's download has no timeout and would hang
without network) unless ``PTC_TIKTOKEN_DOWNLOAD=1``; the estimate is used instead.

`message_token_ids(message)` gives a message as the token ids it is counted as (framing as
negative ids), so two prompts can be compared token by token: the provider caching model
(`ptc.llm.pricing`) needs their exact shared prefix.

Speed: encoders are loaded once per process; counts are cached per (encoding, text), so the
system prompt and the conversation history, re-sent on every turn, are encoded only once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import tempfile
import threading
import zlib
from functools import lru_cache
from typing import Any, Iterable, Mapping

DEFAULT_ENCODING = "o200k_base"
ESTIMATE_NAME = "estimate:chars/4"

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3

# Encodings whose BPE file lives at this URL; tiktoken caches it as sha1(url) in its cache dir.
_OPENAI_PUBLIC = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"
_ENCODING_FILES = {
    "r50k_base": "r50k_base",
    "p50k_base": "p50k_base",
    "p50k_edit": "p50k_base",
    "cl100k_base": "cl100k_base",
    "o200k_base": "o200k_base",
    "o200k_harmony": "o200k_base",
}

_lock = threading.Lock()


def litellm_path(*parts: str) -> str | None:
    """A file or folder shipped inside the litellm package, located without importing litellm
    (which takes seconds); None when litellm or the path is not there."""
    try:
        spec = importlib.util.find_spec("litellm")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        path = os.path.join(root, *parts)
        if os.path.exists(path):
            return path
    return None


def litellm_tokenizers_dir() -> str | None:
    """litellm's bundled tiktoken cache folder."""
    return litellm_path("litellm_core_utils", "tokenizers")


def _configure_cache_dir() -> None:
    """Point tiktoken at litellm's bundled encodings unless the user chose a cache dir."""
    if "TIKTOKEN_CACHE_DIR" in os.environ or "DATA_GYM_CACHE_DIR" in os.environ:
        return
    path = litellm_tokenizers_dir()
    if path is not None:
        os.environ["TIKTOKEN_CACHE_DIR"] = path


def _tiktoken_cache_dir() -> str:
    """The folder tiktoken reads cached encodings from (same rule as tiktoken.load)."""
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        return os.environ["TIKTOKEN_CACHE_DIR"]
    if "DATA_GYM_CACHE_DIR" in os.environ:
        return os.environ["DATA_GYM_CACHE_DIR"]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def _available_offline(encoding: str) -> bool:
    """False when loading `encoding` would need a download; True when cached or unknown."""
    if os.environ.get("PTC_TIKTOKEN_DOWNLOAD", "").strip().lower() in ("1", "true", "yes"):
        return True
    blob = _ENCODING_FILES.get(encoding)
    if blob is None:
        return True  # a plugin encoding (tiktoken_ext): let tiktoken decide
    cache_dir = _tiktoken_cache_dir()
    if cache_dir == "":
        return False  # caching disabled: tiktoken would download every time
    key = hashlib.sha1(_OPENAI_PUBLIC.format(blob).encode()).hexdigest()
    return os.path.exists(os.path.join(cache_dir, key))


@lru_cache(maxsize=None)
def _encoder(encoding: str) -> Any | None:
    """The tiktoken Encoding, or None when tiktoken or the encoding is unavailable."""
    with _lock:
        _configure_cache_dir()
        try:
            import tiktoken
        except Exception:
            return None
        if not _available_offline(encoding):
            return None
        try:
            return tiktoken.get_encoding(encoding)
        except Exception:
            return None


def tokenizer_name(encoding: str = DEFAULT_ENCODING) -> str:
    """Which counter `count_tokens(..., encoding)` uses: "tiktoken:<name>" or "estimate:chars/4"."""
    return f"tiktoken:{encoding}" if _encoder(encoding) is not None else ESTIMATE_NAME


def estimate_tokens(text: str) -> int:
    """The tokenizer-free estimate: one token per 4 characters, rounded up."""
    return math.ceil(len(text) / 4)


@lru_cache(maxsize=8192)
def _count(text: str, encoding: str) -> int:
    enc = _encoder(encoding)
    if enc is None:
        return estimate_tokens(text)
    # disallowed_special=(): text that happens to contain "<|endoftext|>" is counted as
    # ordinary text instead of raising.
    return len(enc.encode(text, disallowed_special=()))


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Number of tokens in `text` (tiktoken when available, else ceil(len/4))."""
    if not text:
        return 0
    if not isinstance(text, str):
        text = str(text)
    return _count(text, encoding)


def _content_text(content: Any) -> str:
    """The text of a message content: a string, or the text parts of a multimodal list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, Mapping):
                if isinstance(part.get("text"), str):
                    parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "".join(parts)
    return str(content)


def _as_dict(message: Any) -> Mapping[str, Any]:
    if isinstance(message, Mapping):
        return message
    to_dict = getattr(message, "to_dict", None)  # ptc.llm.base.Message
    if callable(to_dict):
        return to_dict()  # type: ignore[no-any-return]
    raise TypeError(f"a message must be a dict, got {type(message).__name__}")


def count_message_tokens(messages: Iterable[Any], encoding: str = DEFAULT_ENCODING) -> int:
    """Prompt tokens of a chat request, by OpenAI's recipe (see the module docstring).

    Per message: 3 + tokens of each string value (role, content, name...) + 1 if it has a
    name; plus 3 for priming the reply. Non-string values other than content are ignored.
    """
    total = REPLY_PRIMING_TOKENS
    for message in messages:
        total += TOKENS_PER_MESSAGE
        for key, value in _as_dict(message).items():
            if key == "content":
                total += count_tokens(_content_text(value), encoding)
            elif isinstance(value, str):
                total += count_tokens(value, encoding)
                if key == "name":
                    total += TOKENS_PER_NAME
    return total


# Framing of the chat recipe as token ids no tokenizer produces: <|start|>, <|message|>, <|end|>,
# a name's extra token, and the reply priming <|start|>assistant<|message|>.
START, MESSAGE, END, NAME, PRIMING_ROLE = -1, -2, -3, -4, -5
REPLY_PRIMING_IDS = (START, PRIMING_ROLE, MESSAGE)


@lru_cache(maxsize=4096)
def token_ids(text: str, encoding: str = DEFAULT_ENCODING) -> tuple[int, ...]:
    """The tokens of `text`: tiktoken ids, or for the estimate one id per 4-character chunk
    (a checksum of the chunk), so `len(token_ids(t)) == count_tokens(t)` either way."""
    if not text:
        return ()
    enc = _encoder(encoding)
    if enc is None:
        return tuple(zlib.crc32(text[i:i + 4].encode("utf-8", "surrogatepass")) for i in range(0, len(text), 4))
    return tuple(enc.encode(text, disallowed_special=()))


def message_token_ids(message: Any, encoding: str = DEFAULT_ENCODING) -> tuple[int, ...]:
    """One message as counted by `count_message_tokens`: framing, role, content, other strings."""
    ids: list[int] = [START]
    for key, value in _as_dict(message).items():
        if key == "content":
            ids += token_ids(_content_text(value), encoding)
        elif isinstance(value, str):
            ids += token_ids(value, encoding)
            if key == "name":
                ids.append(NAME)
        if key == "role":
            ids.append(MESSAGE)
    if MESSAGE not in ids:
        ids.insert(1, MESSAGE)
    ids.append(END)
    return tuple(ids)


def clear_caches() -> None:
    """Forget loaded encoders and cached counts (for tests, or after changing the env)."""
    _encoder.cache_clear()
    _count.cache_clear()
    token_ids.cache_clear()
