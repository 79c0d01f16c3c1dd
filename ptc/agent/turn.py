"""Turns: the immutable record of one LLM interaction cycle, and a run's outcome."""

from __future__ import annotations

from typing import Any, Literal, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..interpreter.tool_calls import ToolCall
from ..llm.base import Usage

ErrorKind = Literal[
    "parse", "analysis", "runtime", "tool", "limit",  # from the program (PTCError kinds)
    "no_code", "signature", "fail", "max_turns", "llm",  # from the loop
]


# The line a turn's note ends with when an empty answer it returned was held back (Agent: once a
# run, when the runtime has a note saying why the answer is empty).
CONFIRM = "Not returned yet: if this empty answer is right, (return ...) it again."


class ErrorInfo(BaseModel):
    """Why a turn or a run failed; line/column point into the turn's program."""

    model_config = ConfigDict(frozen=True)

    kind: ErrorKind
    message: str
    line: int | None = None
    column: int | None = None
    hint: str | None = None

    @classmethod
    def from_ptc(cls, e: Any) -> "ErrorInfo":
        """A program's error as the model reads it: a limit's hint says what the program can do
        instead (the model cannot raise a limit the host set)."""
        from ..interpreter.errors import limit_hint

        return cls(kind=e.kind, message=e.message, line=e.line, column=e.column, hint=limit_hint(e, "model"))

    def format(self) -> str:
        where = f" {self.line}:{self.column}" if self.line is not None else ""
        text = f"error[{self.kind}]{where}: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


def unkept_note(defined: Sequence[str]) -> str | None:
    """After a failed program: the names it defined before it failed, which are not kept (a
    model otherwise reads the next program's error about them as a new mystery)."""
    if not defined:
        return None
    names = ", ".join(defined[:8]) + (f" and {len(defined) - 8} more" if len(defined) > 8 else "")
    return (f"note: {names} {'was' if len(defined) == 1 else 'were'} defined before the error, but a program "
            f"that fails keeps none of its definitions: define {'it' if len(defined) == 1 else 'them'} again")



class Turn(BaseModel):
    """One cycle: the model's reply, the program in it, and what running it did.

    Turns are frozen; a run's turns are an append-only tuple, and the turn count is
    `len(turns)`. `memory` is the snapshot of the program's defs after this turn (unchanged
    from the previous turn when the program failed).
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    number: int
    program: str | None
    raw_response: str
    result: Any = None
    prints: tuple[str, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()  # the run's own records (ptc.ToolCall)
    memory: Mapping[str, Any] = Field(default_factory=dict)
    success: bool = False
    error: ErrorInfo | None = None
    usage: Usage = Field(default_factory=Usage)
    duration: float = 0.0
    returned: bool = False
    failed: bool = False
    defined: tuple[str, ...] = ()  # names this turn's program (re)defined, in definition order
    docs: Mapping[str, str] = Field(default_factory=dict)  # docstrings of those definitions
    note: str | None = None  # why an empty answer is empty (ptc.interpreter.diagnose), or which code blocks ran

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe rendering (values as Clojure text and plain data) for traces and stores."""
        from ..interpreter.printer import pr_str
        from ..interpreter.values import to_python

        return {
            "number": self.number,
            "program": self.program,
            "raw_response": self.raw_response,
            "result": pr_str(self.result, max_len=20_000),
            "result_data": _safe_python(self.result, to_python),
            "prints": list(self.prints),
            "tool_calls": [t.to_dict() for t in self.tool_calls],
            "memory": {k: pr_str(v, max_len=2_000) for k, v in self.memory.items()},
            "success": self.success,
            "error": self.error.model_dump() if self.error else None,
            "usage": self.usage.model_dump(),
            "duration": self.duration,
            "returned": self.returned,
            "failed": self.failed,
            "defined": list(self.defined),
            "docs": dict(self.docs),
            "note": self.note,
        }

    def _repr_html_(self) -> str:
        from ..interpreter import hooks

        return hooks.turn_html(self)  # type: ignore[no-any-return]


def value_from_text(text: str) -> Any:
    """A value back from its Clojure text (functions become named placeholders)."""
    from ..interpreter import values as V
    from ..interpreter.reader import read_value

    if text.startswith("#fn[") and text.endswith("]"):
        def placeholder(*_: Any) -> None:
            return None

        placeholder.__qualname__ = "ptc:" + text[4:-1]
        return placeholder
    try:
        return read_value(text)
    except Exception:  # noqa: BLE001 - a truncated or odd value stays as its text
        return V.Symbol(text)


def turn_from_json(rec: Mapping[str, Any]) -> Turn:
    """Rebuild a Turn from `Turn.to_json()` (a trace line or a stored turn)."""
    from ..interpreter import values as V

    calls = tuple(ToolCall(name=c["name"], args=V.from_python(c["args"]), result=V.from_python(c["result"]),
                           error=c.get("error"), duration=c.get("duration", 0.0))
                  for c in rec.get("tool_calls", []))
    from ..llm.base import Usage

    return Turn(number=rec["number"], program=rec.get("program"), raw_response=rec.get("raw_response", ""),
                result=value_from_text(rec.get("result", "nil")), prints=tuple(rec.get("prints", [])),
                tool_calls=calls, memory={k: value_from_text(v) for k, v in rec.get("memory", {}).items()},
                success=rec.get("success", False), error=ErrorInfo(**rec["error"]) if rec.get("error") else None,
                usage=Usage(**rec["usage"]) if rec.get("usage") else Usage(), duration=rec.get("duration", 0.0),
                returned=rec.get("returned", False), failed=rec.get("failed", False),
                defined=tuple(rec.get("defined", [])), docs=rec.get("docs", {}), note=rec.get("note"))


def _safe_python(value: Any, to_python: Any) -> Any:
    try:
        return to_python(value)
    except Exception:  # noqa: BLE001 - traces must never fail on an odd value
        return None
