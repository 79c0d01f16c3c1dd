"""Events a run emits, for progress displays, traces and telemetry."""

from __future__ import annotations

import time
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

EventType = Literal["run_started", "turn_started", "llm_replied", "program_ran", "tool_called",
                    "turn_finished", "run_finished", "llm_request"]


class Event(BaseModel):
    """One thing that happened during a run. `data` is JSON-safe."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    type: EventType
    run_id: str
    turn: int | None = None
    time: float = Field(default_factory=time.time)
    data: dict[str, Any] = Field(default_factory=dict)


EventHandler = Callable[[Event], None]


class Emitter:
    """Fans events out to handlers; a failing handler never breaks the run."""

    def __init__(self, run_id: str, handlers: list[EventHandler]) -> None:
        self.run_id = run_id
        self.handlers = handlers
        self.errors: list[str] = []
        self.telemetry: Any = None  # the run's OpenTelemetry spans (trace.Telemetry), when traced

    def __call__(self, type: EventType, turn: int | None = None, **data: Any) -> Event:  # noqa: A002
        event = Event(type=type, run_id=self.run_id, turn=turn, data=data)
        for handler in self.handlers:
            try:
                handler(event)
            except Exception as e:  # noqa: BLE001 - observers must not break the run
                self.errors.append(f"{type}: {e!r}")
        return event
