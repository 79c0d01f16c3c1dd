"""The sandbox's limits: every one has a documented default and can be overridden."""

from __future__ import annotations

import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Limits(BaseModel):
    """Bounds on what one program run may consume (see docs/security.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timeout: float = Field(2.0, gt=0, description="wall-clock seconds for the whole run, tool time included")
    max_steps: int = Field(20_000_000, gt=0, description="evaluation steps (function entries and loop iterations)")
    max_depth: int = Field(400, gt=0, description="nested function calls")
    max_collection: int = Field(1_000_000, gt=0, description="items in any realized collection")
    max_string: int = Field(1_000_000, gt=0, description="characters in any string built by the program")
    max_output: int = Field(64_000, gt=0, description="characters printed by println/print/prn in total")
    max_tool_calls: int = Field(100, ge=0, description="tool calls per run")
    max_result: int = Field(1_000_000, gt=0, description="characters of the printed result")
    max_memory: int = Field(256 * 1024 * 1024, gt=0, description="estimated bytes held by the program's values")
    max_session_memory: int = Field(256 * 1024 * 1024, gt=0,
                                    description="estimated bytes a session's definitions (def, defn, *1 *2 *3) "
                                                "may hold between runs (a Sandbox, an MCP session)")
    max_int_bits: int = Field(8192, gt=0, description="bits of any integer the program computes")
    max_source: int = Field(50_000, gt=0, description="characters of program source")
    max_regex: int = Field(2_000, gt=0, description="characters of a regular expression pattern")
    max_key_depth: int = Field(500, gt=0, description="nesting depth of a collection used as a map key or set "
                                                     "member (hashing it recurses in C)")
    seed: int | None = Field(None, description="seed of rand, rand-int, rand-nth, shuffle, random-sample and "
                                               "Math/random: the same program and seed give the same values")
    clock: datetime.datetime | None = Field(None, description="the run clock (System/currentTimeMillis, LocalDate/now...):"
                                                           " every clock read of a run sees this instant, so a run "
                                                           "that reads now replays; None: the UTC time of the first read")
    isolation: Literal["inline", "process"] = Field(
        "inline", description="inline: in this process (fast); process: a child with OS limits"
    )
