"""Offline setup for the LLM tests: litellm must use its bundled price map."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def pytest_configure(config):
    # litellm's TypedDicts make pydantic warn; ptc silences it at runtime (LiteLLM's first
    # call), but pytest resets warning filters around every test.
    config.addinivalue_line("filterwarnings", "ignore:.*using the `ReadOnly` qualifier:UserWarning")
