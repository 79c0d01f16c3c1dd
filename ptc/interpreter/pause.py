"""A run paused at a tool call, and resumed later (in this process or another) by replay.

A run pauses when it reaches a tool call that cannot be answered now: the tool requires
approval (`@ptc.tool(approval=...)`) or the tool raised `Pause`. The run stops there (the
pause unwinds the program: try/catch and finally do not see it) and its result holds a
`PausedRun`: the program, its inputs, its limits with the seed and clock it used, and the
calls it made with their results. Resuming runs the program again from the start: the calls
already made are answered from that record, in order (a call that differs, in tool or
arguments, ends the run with a `resume` error: the program is not the one that paused), the
pending call by the host's `Answer`, and the calls after it by the tools. Seeded `rand` and
the run's clock (fixed at the pause if the program had not read it) make the replayed part compute what it computed before, so the resumed run
gives what an uninterrupted run would have given. The limits count the program's own work:
the replay starts a new clock, and each recorded call takes the time it took when it was
made, as it would have in one run; the wait in between counts for nothing.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping, Sequence

from . import values as v
from .errors import PTCError
from .limits import Limits

FORMAT = 1  # PausedRun.to_json's layout


class Pause(BaseException):
    """Raised by a tool to say its call is answered later: the run pauses at the call, and
    `PausedRun.resume` answers it (`Answer.respond(value)`, or `Answer.approve()` to call the
    tool again). A BaseException so that the program's try/catch does not take it."""

    def __init__(self, reason: str = "the tool answers later") -> None:
        super().__init__(reason)
        self.reason = reason
        self.where: tuple[str, Any, int] | None = None  # (tool, args as JSON, call index), set by the caller


class Diverged(BaseException):
    """A resumed program's call differs from the call the paused run made at that point."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Pending:
    """The tool call a run paused at: which tool, with what arguments (as JSON), where in the
    program, and why (`"approval"`: the tool requires it; otherwise what the tool said)."""

    tool: str
    args: Any
    index: int  # the call's number among the run's tool calls, from 0
    line: int | None = None
    column: int | None = None
    reason: str = "approval"

    @property
    def approval(self) -> bool:
        """Whether the call waits for a person's (or a policy's) decision."""
        return self.reason == "approval"

    def __str__(self) -> str:
        where = f" at {self.line}:{self.column}" if self.line is not None else ""
        return f"tool/{self.tool} {json.dumps(self.args, ensure_ascii=False)}{where} ({self.reason})"


@dataclass(frozen=True)
class Answer:
    """How the host answers a pending call: `Answer.approve()` (call the tool; `args=` edits
    the arguments first), `Answer.reject(reason)` (the call fails with a tool error the program
    can catch), `Answer.respond(value)` (the call returns `value`; the tool is not called)."""

    action: Literal["approve", "reject", "respond"]
    args: Any = None
    reason: str = ""
    value: Any = None

    @classmethod
    def approve(cls, args: Any = None) -> "Answer":
        return cls("approve", args=args)

    @classmethod
    def reject(cls, reason: str = "") -> "Answer":
        return cls("reject", reason=reason)

    @classmethod
    def respond(cls, value: Any) -> "Answer":
        return cls("respond", value=value)


@dataclass(frozen=True)
class Call:
    """A tool call the paused run made: the program's arguments and what it got (as JSON)."""

    tool: str
    args: Any
    result: Any = None
    error: str | None = None
    duration: float = 0.0


@dataclass(frozen=True)
class PausedRun:
    """Everything needed to resume a paused run, in JSON (`to_json`/`from_json`; a store
    keeps it: `Store.save_paused`). `data`, `memory` and `history` are None when they were not
    plain JSON data (a table, a function): `resume` then needs them given again. `context` is
    the host's own JSON (an agent keeps its paused turn there)."""

    source: str
    limits: Limits
    calls: tuple[Call, ...]
    pending: Pending
    data: dict[str, Any] | None = None
    memory: dict[str, Any] | None = None
    history: list[Any] | None = None
    context: Mapping[str, Any] = field(default_factory=dict)

    def resume(self, answer: Answer, *, tools: Any, data: Mapping[str, Any] | None = None,
               memory: Mapping[str, Any] | None = None, history: Sequence[Any] | None = None) -> Any:
        """Run the program again with the recorded calls' results and `answer` to the pending
        call; returns a RunResult (paused again if a later call pauses). The tools are given
        again (they are code); so are inputs the record could not keep."""
        from .api import run

        if not isinstance(answer, Answer):
            raise TypeError(f"answer must be a ptc.Answer (Answer.approve(), .reject(...), .respond(...)), "
                            f"not {type(answer).__name__}")
        inputs = {"data": data, "memory": memory, "history": history}
        for name, given in list(inputs.items()):
            if given is None:
                kept = getattr(self, name)
                if kept is None:
                    raise PTCError("resume", f"the paused run's {name} was not kept (it is not plain JSON data)",
                                   hint=f"pass {name}=... to resume, the same the run was given")
                inputs[name] = kept
        return run(self.source, tools=tools, limits=self.limits, resume=(self, answer), **inputs)

    def to_json(self) -> str:
        record = dataclasses.asdict(self)
        record["limits"] = self.limits.model_dump(mode="json")
        record["format"] = FORMAT
        return json.dumps(record, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> "PausedRun":
        try:
            record = json.loads(text)
            if record.pop("format", None) != FORMAT:
                raise ValueError("not a paused run of this ptc (format)")
            return cls(source=record["source"], limits=Limits.model_validate(record["limits"]),
                       calls=tuple(Call(**c) for c in record["calls"]), pending=Pending(**record["pending"]),
                       data=record["data"], memory=record["memory"], history=record["history"],
                       context=record.get("context") or {})
        except (ValueError, TypeError, KeyError) as e:
            raise PTCError("resume", f"not a paused run: {e}") from None


def as_json(x: Any) -> Any:
    """A PTC value as the JSON a record keeps (dates as ISO text)."""
    return json.loads(json.dumps(v.to_python(x), ensure_ascii=False, default=_iso))


def _iso(x: Any) -> str:
    if isinstance(x, (datetime.date, datetime.time)):
        return x.isoformat()
    raise TypeError(f"{type(x).__name__} is not JSON data")


def kept(values: Any) -> Any:
    """`values` (a dict or a list of PTC values) as JSON when that JSON reads back as the same
    values; None otherwise (the host gives them again at resume)."""
    pairs = list(values.items()) if isinstance(values, Mapping) else list(enumerate(values))
    try:
        plain = {k: as_json(x) for k, x in pairs}
        if not all(v.equals(v.from_python(plain[k]), x) for k, x in pairs):
            return None
    except (TypeError, ValueError, PTCError, RecursionError):
        return None
    return plain if isinstance(values, Mapping) else list(plain.values())


class Replay:
    """The tool calls of one run: answered from a paused run's record while the program
    replays it, the pending one by the host's answer, the rest by the tools; and the record
    of every call made, for a pause."""

    def __init__(self, paused: PausedRun | None = None, answer: Answer | None = None) -> None:
        self.recorded: tuple[Call, ...] = paused.calls if paused is not None else ()
        self.pending = paused.pending if paused is not None else None
        self.answer = answer
        self.made: list[Call] = []

    def call(self, name: str, args: Any, tool: Any, invoke: Callable[[str, Any], tuple[Any, float]],
             record: Callable[[str, Any, Any, str | None, float], None], charge: Callable[[float], None]) -> Any:
        """The value of call number len(made): `invoke(name, args)` calls the tool (giving its
        value and duration), `record` notes a call the tool did not make, `charge` takes a
        recorded call's duration from the run's time."""
        index = len(self.made)
        plain = as_json(args)
        if index < len(self.recorded):
            rec = self.recorded[index]
            self._check(index, rec.tool, rec.args, name, plain)
            self.made.append(rec)
            charge(rec.duration)
            if rec.error is not None:
                record(name, args, None, rec.error, rec.duration)
                raise PTCError("tool", rec.error)
            value = v.from_python(rec.result, f"tool/{name} result")
            record(name, args, value, None, rec.duration)
            return value
        answer = self.answer if self.pending is not None and index == self.pending.index else None
        if answer is not None:
            self._check(index, self.pending.tool, self.pending.args, name, plain)  # type: ignore[union-attr]
            self.answer = None
            if answer.action == "reject":
                msg = f"tool/{name} was rejected" + (f": {answer.reason}" if answer.reason else "")
                self.made.append(Call(name, plain, None, msg))
                record(name, args, None, msg, 0.0)
                raise PTCError("tool", msg, hint="the host refused this call; do without it or ask differently")
            if answer.action == "respond":
                value = v.from_python(answer.value, f"tool/{name} answer")
                self.made.append(Call(name, plain, as_json(value)))
                record(name, args, value, None, 0.0)
                return value
            if answer.args is not None:
                args = v.from_python(answer.args, f"tool/{name} approved arguments")
        else:
            needs = getattr(tool, "needs_approval", None)
            if needs is not None and needs(args):
                raise self._paused(Pause("approval"), name, plain, index)
        try:
            value, duration = invoke(name, args)
        except Pause as p:
            raise self._paused(p, name, plain, index) from None
        except PTCError as e:
            self.made.append(Call(name, plain, None, e.message))
            raise
        self.made.append(Call(name, plain, as_json(value), None, duration))
        return value

    @staticmethod
    def _paused(p: Pause, name: str, plain: Any, index: int) -> Pause:
        p.where = (name, plain, index)
        return p

    @staticmethod
    def _check(index: int, tool: str, args: Any, name: str, plain: Any) -> None:
        if tool != name or args != plain:
            raise Diverged(f"the resumed program's tool call #{index + 1} is tool/{name} "
                           f"{json.dumps(plain, ensure_ascii=False)[:200]}, where the paused run called tool/{tool} "
                           f"{json.dumps(args, ensure_ascii=False)[:200]}")


def diverged_error(e: Diverged) -> PTCError:
    return PTCError("resume", e.message,
                    hint="resume replays the same program with the same inputs, limits, seed and clock; "
                         "a program or input that changed since the pause cannot be resumed: run it again")


def paused_run(p: Pause, source: str, limits: Limits, seed: int | None, clock: datetime.datetime | None,
               made: Sequence[Call], position: tuple[int, int] | None, inputs: Any) -> PausedRun:
    """The record of a run that `p` paused (inputs: the run's prepared Inputs)."""
    tool, args, index = p.where or ("?", None, len(made))
    line, column = position if position is not None else (None, None)
    if clock is None:  # not read yet: every replay (and what follows the pause) reads the pause's instant
        clock = limits.clock or datetime.datetime.now(datetime.timezone.utc)
    fixed = limits.model_copy(update={"seed": limits.seed if limits.seed is not None else seed, "clock": clock})
    return PausedRun(source, fixed, tuple(made), Pending(tool, args, index, line, column, p.reason),
                     kept(inputs.data), kept(inputs.memory), kept(list(inputs.history)))


__all__ = ["Answer", "Call", "Diverged", "Pause", "PausedRun", "Pending", "Replay"]
