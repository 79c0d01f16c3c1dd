"""An LLM from what a caller gives: a litellm model name, a callable, or an object with complete()."""

from __future__ import annotations

from typing import Any

from .base import CallableLLM


def as_llm(llm: Any, *, api_base: str | None = None, api_key: str | None = None) -> Any:
    """Accept a litellm model name, a callable, or an LLM object.

    `api_base` / `api_key` (a local or self-hosted server) go with a model name only.
    """
    if isinstance(llm, str):
        from .litellm_client import LiteLLM

        return LiteLLM(llm, api_base=api_base, api_key=api_key)
    if api_base is not None or api_key is not None:
        raise ValueError("api_base and api_key go with a model name (e.g. llm='openai/my-model'); "
                         f"configure the {type(llm).__name__} itself instead")
    if hasattr(llm, "complete") or hasattr(llm, "acomplete"):  # acomplete only: see complete()
        return llm
    if callable(llm):
        return CallableLLM(llm)
    raise TypeError("llm must be a model name, a callable or an object with complete() or async acomplete(); "
                    f"got {type(llm).__name__}")
