"""The single error hierarchy of ptc: every failure a program can cause is a PTCError."""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Literal

ErrorKind = Literal["parse", "analysis", "runtime", "tool", "limit", "resume"]  # resume: a paused run replayed differently


class PTCError(Exception):
    """A failure attributable to a PTC-Lisp program, a tool it called, or a sandbox limit.

    `kind` says which layer refused the program; `line`/`column` point into the source
    when known; `hint` is a short suggestion worth showing to the model or the user.
    """

    kind: ErrorKind

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint

    def at(self, line: int | None, column: int | None) -> "PTCError":
        """Attach a position unless a more precise one is already known."""
        if self.line is None and line is not None:
            self.line, self.column = line, column
        return self

    def format(self) -> str:
        """The one-line form used by the CLI and fed back to models."""
        where = f" {self.line}:{self.column}" if self.line is not None else ""
        text = f"error[{self.kind}]{where}: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "hint": self.hint,
        }

    def __str__(self) -> str:
        return self.format()

    def __reduce__(self):  # picklable across the process-isolation pipe
        return (_rebuild_error, (self.kind, self.message, self.line, self.column, self.hint))


def _rebuild_error(kind, message, line, column, hint) -> PTCError:  # type: ignore[no-untyped-def]
    return PTCError(kind, message, line=line, column=column, hint=hint)


def runtime_error(message: str, hint: str | None = None) -> PTCError:
    return PTCError("runtime", message, hint=hint)


def limit_error(limit: str, value: object, what: str) -> PTCError:
    """Exceeding a sandbox limit always names the limit and its configured value."""
    return PTCError(
        "limit",
        f"{what}: limit {limit}={value} exceeded",
        hint=f"raise Limits({limit}=...) if this is legitimate, or process less data at once",
    )


_LIMIT_NAMED = re.compile(r"limit (\w+)=(\S+) exceeded")

# What a program can do when it meets a limit it cannot raise (the model's side): the host
# set the limit, so the fix is less work per program, said for each limit.
_INSTEAD = {
    "timeout": "the host allows {value} s per program and a program cannot change it: do it in one pass "
               "(group-by or reduce over the rows, not a filter per item), join through a map built once, "
               "or work on fewer rows (filter or take first)",
    "max_result": "the answer is too large to send back: return an aggregate, a count, or (take 20 ...) of the rows",
    "max_memory": "too much data built at once: aggregate as you go (reduce, frequencies, group-by then counts), "
                  "keep only the fields you need (select-keys), or work on fewer rows",
    "max_collection": "a collection of more than {value} items: aggregate as you go (reduce, frequencies, "
                      "count) instead of building it, or work on fewer rows (take)",
    "max_steps": "too many steps: one pass over the data (reduce, group-by) instead of nested loops",
    "max_output": "print less: (take 10 ...) of what you look at, or return the value instead",
    "max_string": "a string of more than {value} characters: build fewer or shorter strings",
    "max_tool_calls": "at most {value} tool calls per program: ask a tool for more at once (a larger :limit, "
                      "a filter) or spread the calls over programs",
    "max_depth": "recursion too deep: use loop/recur, reduce or iterate",
}


def limit_named(message: str) -> tuple[str, str] | None:
    """(limit, configured value) named by a limit error's message, e.g. ("timeout", "2.0")."""
    m = _LIMIT_NAMED.search(message)
    return (m.group(1), m.group(2)) if m else None


def limit_hint(error: PTCError, audience: Literal["python", "cli", "model"]) -> str | None:
    """The hint of a limit error for whoever reads it: where the host raises the limit (a
    `Limits(...)` field, or `--limits` on the command line), or, for a model that cannot
    raise it, what the program can do instead. Other errors keep their hint."""
    named = limit_named(error.message) if error.kind == "limit" and error.hint else None
    if named is None:
        return error.hint
    name, value = named
    if audience == "model":
        return _INSTEAD.get(name, "the host sets this limit: do less work in one program").format(value=value)
    if audience == "cli":
        flag = "--timeout SECONDS (or --limits timeout=...)" if name == "timeout" else f"--limits {name}=..."
        return f"raise it with {flag} if this is legitimate, or process less data at once"
    return error.hint


def not_supported(what: str, hint: str | None = None) -> PTCError:
    return PTCError("analysis", f"{what} is not supported in PTC-Lisp", hint=hint)


def suggest(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Closest known names for an unknown one, including the `foo_bar` -> `foo-bar` fix."""
    pool = list(dict.fromkeys(candidates))
    found: list[str] = []
    dashed = name.replace("_", "-")
    if dashed != name and dashed in pool:
        found.append(dashed)
    lowered = name.lower()
    if lowered != name and lowered in pool and lowered not in found:
        found.append(lowered)
    for c in difflib.get_close_matches(name, pool, n=n, cutoff=0.6):
        if c not in found:
            found.append(c)
    return found[:n]
