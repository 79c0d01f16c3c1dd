"""Judging a mission's result: each check gives None (passed) or a message saying why not."""

from __future__ import annotations

import json
import math
from typing import Any, Mapping, Sequence

from .spec import Check, Count, OutboxExpect, Range

_MISSING = object()
DEFAULT_REL_TOL = 1e-6
DEFAULT_ABS_TOL = 0.005


def plain(value: Any) -> Any:
    """A result as plain JSON-like Python (pydantic models dumped, tuples as lists)."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return plain(value.model_dump())
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    return value


def short(value: Any, limit: int = 120) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _key_variants(key: str) -> list[str]:
    out = [key]
    for alt in (key.replace("-", "_"), key.replace("_", "-")):
        if alt not in out:
            out.append(alt)
    if key.startswith(":"):
        out += _key_variants(key[1:])
    return out


def lookup(value: Any, path: Sequence[str | int]) -> tuple[Any, str | None]:
    """The value at a key path, or (_MISSING, why). Map keys match kebab/snake variants;
    integers (or digit strings) index lists."""
    current = value
    for i, part in enumerate(path):
        where = ".".join(str(p) for p in path[: i + 1])
        if isinstance(current, Mapping):
            for key in _key_variants(str(part)):
                if key in current:
                    current = current[key]
                    break
            else:
                keys = ", ".join(map(str, list(current)[:10]))
                return _MISSING, f"no key {str(part)!r} at {where} (keys: {keys})"
        elif isinstance(current, list) and isinstance(part, int):
            if not -len(current) <= part < len(current):
                return _MISSING, f"index {part} out of range at {where} (length {len(current)})"
            current = current[part]
        else:
            kind = "a list" if isinstance(current, list) else type(current).__name__
            return _MISSING, f"cannot take {str(part)!r} of {kind} at {where}"
    return current, None


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def equal(got: Any, want: Any, tol: float | None = None) -> bool:
    """Structural equality with numeric tolerance and kebab/snake-insensitive map keys."""
    if _is_number(got) and _is_number(want):
        if tol is None:
            return math.isclose(got, want, rel_tol=DEFAULT_REL_TOL, abs_tol=DEFAULT_ABS_TOL)
        return abs(got - want) <= tol
    if isinstance(want, Mapping):
        if not isinstance(got, Mapping) or len(got) != len(want):
            return False
        for k, v in want.items():
            found, why = lookup(got, [str(k)])
            if why is not None or not equal(found, v, tol):
                return False
        return True
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(equal(g, w, tol) for g, w in zip(got, want))
    if isinstance(got, bool) or isinstance(want, bool):
        return got is want
    return bool(got == want)


def _count_ok(n: int, spec: Count) -> bool:
    if isinstance(spec, Range):
        return (spec.min is None or n >= spec.min) and (spec.max is None or n <= spec.max)
    return n == spec


def _count_text(spec: Count) -> str:
    if isinstance(spec, Range):
        if spec.min is not None and spec.max is not None:
            return f"between {spec.min} and {spec.max}"
        return f"at least {spec.min}" if spec.min is not None else f"at most {spec.max}"
    return str(spec)


def predicate_passes(source: str, bound: Any, *, name: str = "result",
                     data: Mapping[str, Any] | None = None) -> tuple[bool, str | None]:
    """Evaluate a PTC-Lisp predicate with `name` bound to `bound`; `(fn ...)` sources are
    called with it. (passed, error message or None)."""
    from ptc.interpreter import values as V
    from ptc.interpreter.api import run
    from ptc.interpreter.errors import PTCError
    from ptc.interpreter.limits import Limits

    limits = Limits(timeout=5.0)
    try:
        value = V.from_python(bound, name)
        memory = {name: value}
        out = run(source, memory=memory, data=data, limits=limits).value
        if callable(out) and not isinstance(out, (str, bytes)) and type(out) not in V.MAP_TYPES \
                and type(out) not in V.SET_TYPES and not isinstance(out, V.Keyword):
            out = run(f"(check-fn {name})", memory={**memory, "check-fn": out}, data=data, limits=limits).value
    except PTCError as e:
        return False, f"predicate raised {e.kind}: {e.message}"
    except Exception as e:  # noqa: BLE001 - a broken predicate fails its check, never the suite
        return False, f"predicate raised {type(e).__name__}: {e}"
    return (out is not None and out is not False), None


def run_check(check: Check, result: Any, *, data: Mapping[str, Any] | None = None) -> str | None:
    """None when the check passes, else a one-line reason."""
    value, why = (result, None) if not check.path_parts else lookup(result, check.path_parts)
    at = f" at {'.'.join(map(str, check.path_parts))}" if check.path_parts else ""
    if why is not None:
        return check.message or f"{check.kind}{at}: {why}"
    reason = _reason(check, value, data)
    if reason is None:
        return None
    return f"{check.kind}{at}: {check.message}" if check.message else f"{check.kind}{at}: {reason}"


def _reason(check: Check, value: Any, data: Mapping[str, Any] | None) -> str | None:
    kind = check.kind
    if kind == "equals":
        want = plain(check.equals)
        return None if equal(value, want, check.tolerance) else f"expected {short(want)}, got {short(value)}"
    if kind == "between":
        lo, hi = check.between  # type: ignore[misc]
        if not _is_number(value):
            return f"expected a number in [{lo:g}, {hi:g}], got {short(value)}"
        return None if lo <= value <= hi else f"{value!r} is not in [{lo:g}, {hi:g}]"
    if kind == "has_keys":
        if not isinstance(value, Mapping):
            return f"expected a map, got {short(value)}"
        missing = [k for k in check.has_keys or [] if lookup(value, [k])[1] is not None]
        return None if not missing else f"missing key(s) {', '.join(missing)} (has: {', '.join(map(str, value))})"
    if kind == "length":
        if not isinstance(value, (list, Mapping, str)):
            return f"expected a collection, got {short(value)}"
        n = len(value)
        return None if _count_ok(n, check.length) else f"length {n}, expected {_count_text(check.length)}"  # type: ignore[arg-type]
    passed, err = predicate_passes(check.predicate or "", value, data=data)
    if err:
        return err
    return None if passed else f"{short(check.predicate, 100)} is false for {short(value)}"


def outbox_value(outbox: Any) -> dict[str, Any]:
    """An Outbox as plain data, for predicates and reports."""
    if outbox is None:
        return {"emails": [], "meetings": []}
    return {"emails": [{"to": e.to, "subject": e.subject, "body": e.body} for e in outbox.emails],
            "meetings": [{"attendees": list(m.attendees), "title": m.title, "day": m.day} for m in outbox.meetings]}


def check_outbox(expect: OutboxExpect, outbox: Any) -> list[str]:
    box = outbox_value(outbox)
    problems = []
    if expect.emails is not None and not _count_ok(len(box["emails"]), expect.emails):
        problems.append(f"outbox: {len(box['emails'])} email(s) sent, expected {_count_text(expect.emails)}")
    if expect.meetings is not None and not _count_ok(len(box["meetings"]), expect.meetings):
        problems.append(f"outbox: {len(box['meetings'])} meeting(s) booked, expected {_count_text(expect.meetings)}")
    if expect.email_to is not None:
        got = sorted({e["to"].lower() for e in box["emails"]})
        want = sorted({a.lower() for a in expect.email_to})
        if got != want:
            problems.append(f"outbox: emails went to {got}, expected {want}")
    if expect.predicate is not None:
        passed, err = predicate_passes(expect.predicate, box, name="outbox")
        if err or not passed:
            problems.append(f"outbox predicate: {err or short(expect.predicate, 100) + ' is false'}")
    return problems


def judge(checks: Sequence[Check], result: Any, *, outbox_expect: OutboxExpect | None = None, outbox: Any = None,
          data: Mapping[str, Any] | None = None) -> list[str]:
    """Every failed check's message ([] when all pass)."""
    value = plain(result)
    problems = [msg for c in checks if (msg := run_check(c, value, data=data)) is not None]
    if outbox_expect is not None:
        problems += check_outbox(outbox_expect, outbox)
    return problems
