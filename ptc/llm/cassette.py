"""Record a model's answers to a JSONL cassette; replay them later without the model.

A cassette is a JSON-lines file, one record per model call::

    {"request": [{"role": "system", "content": "..."}, ...],
     "key": "<sha256 of the canonical JSON of request>",
     "reply": "(+ 1 2)",
     "usage": {"prompt_tokens": 812, "completion_tokens": 9, "cost": 0.0001, "calls": 1},
     "model": "gpt-4o-mini"}

Canonical JSON: ``json.dumps(request, sort_keys=True, ensure_ascii=False,
separators=(",", ":"))`` encoded as UTF-8. When a record has a "request", its key is
recomputed from it on load (so hand-edited cassettes stay consistent); "key", "usage" and
"model" are optional, which makes cassettes easy to write by hand. A usage also carries
"cached_tokens" / "cache_write_tokens" when the provider reported prompt caching.

Recording appends and flushes one line per call, so a crashed run leaves a usable cassette;
a truncated last line is ignored on replay and cut off before the next append.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from .base import LLMError, Message, Messages, Reply, Usage, acomplete as _acomplete, complete as _complete


def canonical_json(messages: Any) -> str:
    return json.dumps(_normalize(messages), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def request_key(messages: Any) -> str:
    """sha256 (hex) of the canonical JSON of a request's messages."""
    return hashlib.sha256(canonical_json(messages).encode("utf-8")).hexdigest()


def _normalize(messages: Any) -> list[dict[str, Any]]:
    out = []
    for m in messages:
        if isinstance(m, Message):
            out.append(m.to_dict())
        elif isinstance(m, dict):
            out.append(dict(m))
        else:
            raise TypeError(f"a message must be a dict or Message, got {type(m).__name__}")
    return out


def _usage_dict(usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
                           "cost": usage.cost, "calls": usage.calls}
    # cache figures only when the provider cached something (older cassettes stay byte-identical)
    out.update({k: v for k, v in (("cached_tokens", usage.cached_tokens),
                                  ("cache_write_tokens", usage.cache_write_tokens)) if v})
    return out


def repair_tail(path: Path) -> None:
    """Make a JSON Lines file end with a newline before appending to it (a cassette, a suite's
    results): a complete last record just gets its newline; a truncated one (a crashed run,
    an interrupted write) is cut off."""
    try:
        with open(path, "r+b") as f:
            size = f.seek(0, os.SEEK_END)
            if not size:
                return
            f.seek(max(0, size - 1))
            if f.read(1) == b"\n":
                return
            f.seek(0)
            data = f.read()
            start = data.rfind(b"\n") + 1
            try:
                json.loads(data[start:].decode("utf-8"))
                complete = True
            except ValueError:
                complete = False
            if complete:
                f.seek(0, os.SEEK_END)
                f.write(b"\n")
            else:
                f.truncate(start)
    except FileNotFoundError:
        return


class RecordingLLM:
    """Wraps a model and appends every call (request, reply, usage, model) to a cassette.

    `inner` is anything `as_llm` accepts (a litellm model name, a callable, an LLM object).
    Records are appended to an existing cassette unless ``overwrite=True``. Failed calls are
    not recorded (the error propagates). Thread-safe.
    """

    def __init__(self, inner: Any, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        from .choose import as_llm

        self.inner = as_llm(inner)
        self.path = Path(path)
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if overwrite:
            self.path.write_bytes(b"")
        self.recorded = 0
        self._repaired = False

    @property
    def model(self) -> Any:
        return getattr(self.inner, "model", None)

    def complete(self, messages: Messages, *, append_only: bool = False) -> Reply:
        reply = _complete(self.inner, messages, append_only=append_only)
        self._record(messages, reply)
        return reply

    async def acomplete(self, messages: Messages, *, append_only: bool = False) -> Reply:
        reply = await _acomplete(self.inner, messages, append_only=append_only)
        self._record(messages, reply)
        return reply

    def _record(self, messages: Messages, reply: Reply) -> None:
        request = _normalize(messages)
        record = {"request": request, "key": request_key(request), "reply": reply.text,
                  "usage": _usage_dict(reply.usage), "model": reply.model}
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            if not self._repaired:
                repair_tail(self.path)
                self._repaired = True
            with open(self.path, "ab") as f:
                f.write(line.encode("utf-8"))
                f.flush()
            self.recorded += 1


class _Record:
    __slots__ = ("index", "line", "request", "key", "reply", "usage", "model")

    def __init__(self, index: int, line: int, request: list[dict[str, Any]] | None, key: str, reply: str,
                 usage: Usage, model: str | None) -> None:
        self.index = index
        self.line = line
        self.request = request
        self.key = key
        self.reply = reply
        self.usage = usage
        self.model = model


def load_cassette(path: str | os.PathLike[str], *, strict: bool = True) -> list[_Record]:
    """Parse a cassette. A truncated/malformed last line is skipped; a malformed line
    elsewhere raises LLMError(kind="replay") when strict, and is skipped otherwise."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise LLMError("replay", f"cannot read cassette {path}: {e}") from e
    text = raw.decode("utf-8", errors="replace")
    lines = text.split("\n")
    last = max((i for i, l in enumerate(lines) if l.strip()), default=-1)
    records: list[_Record] = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or not isinstance(data.get("reply"), str):
                raise ValueError("a record must be an object with a string 'reply'")
            request = data.get("request")
            if request is not None:
                request = _normalize(request)
                key = request_key(request)
            elif isinstance(data.get("key"), str):
                key = data["key"]
            else:
                raise ValueError("a record needs a 'request' or a 'key'")
            usage_data = data.get("usage")
            if isinstance(usage_data, dict):
                usage = Usage(**{k: v for k, v in usage_data.items() if k in Usage.model_fields})
            elif request is not None:
                from .tokens import count_message_tokens, count_tokens

                usage = Usage(prompt_tokens=count_message_tokens(request),
                              completion_tokens=count_tokens(data["reply"]), calls=1)
            else:
                usage = Usage(calls=1)
            model = data.get("model")
        except (ValueError, TypeError, RecursionError) as e:  # RecursionError: a line nested too deeply
            if i == last or not strict:
                continue  # a truncated last line (interrupted recording) or tolerated damage
            raise LLMError("replay", f"cassette {path}, line {i + 1} is not a valid record: {e}") from e
        records.append(_Record(len(records), i + 1, request, key, data["reply"], usage,
                               model if isinstance(model, str) else None))
    return records


def _clip(text: str, limit: int = 80) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _snippet(text: str, at: int, radius: int = 30) -> str:
    start = max(0, at - radius)
    end = min(len(text), at + radius)
    piece = repr(text[start:end])
    return ("..." if start else "") + piece + ("..." if end < len(text) else "")


def _first_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def describe_difference(recorded: list[dict[str, Any]], got: list[dict[str, Any]]) -> str:
    """Where `got` first departs from `recorded`, in a sentence or two."""
    for i, (r, g) in enumerate(zip(recorded, got)):
        if r == g:
            continue
        if r.get("role") != g.get("role"):
            return f"message {i}: role {g.get('role')!r}, recorded {r.get('role')!r}"
        rc, gc = r.get("content"), g.get("content")
        if rc != gc:
            if isinstance(rc, str) and isinstance(gc, str):
                at = _first_difference(rc, gc)
                return (f"message {i} ({g.get('role')}) content differs at character {at}:\n"
                        f"    recorded: {_snippet(rc, at)}\n"
                        f"    got:      {_snippet(gc, at)}")
            return f"message {i} ({g.get('role')}) content differs: recorded {_clip(str(rc))}, got {_clip(str(gc))}"
        keys = sorted(set(r) ^ set(g)) or sorted(k for k in r if r[k] != g.get(k))
        return f"message {i} ({g.get('role')}) differs in field(s) {', '.join(map(str, keys))}"
    if len(got) > len(recorded):
        extra = got[len(recorded)]
        return (f"the request has {len(got)} messages, the recorded one {len(recorded)}; "
                f"first extra message {len(recorded)} ({extra.get('role')}): {_clip(str(extra.get('content')))}")
    if len(got) < len(recorded):
        missing = recorded[len(got)]
        return (f"the request has {len(got)} messages, the recorded one {len(recorded)}; "
                f"missing message {len(got)} ({missing.get('role')}): {_clip(str(missing.get('content')))}")
    return "the requests are identical"


def _similarity(recorded: list[dict[str, Any]], got: list[dict[str, Any]]) -> tuple[int, int, int]:
    """Sort key for 'closest': longer common message prefix, then longer common prefix of the
    first differing message, then closer message count."""
    prefix = 0
    for r, g in zip(recorded, got):
        if r != g:
            break
        prefix += 1
    chars = 0
    if prefix < len(recorded) and prefix < len(got):
        r, g = recorded[prefix], got[prefix]
        if r.get("role") == g.get("role") and isinstance(r.get("content"), str) and isinstance(g.get("content"), str):
            chars = _first_difference(r["content"], g["content"])
    return prefix, chars, -abs(len(recorded) - len(got))


class ReplayLLM:
    """Answers requests from a cassette recorded by `RecordingLLM` (no model involved).

    Each request is matched by its key (sha256 of its canonical JSON). A request recorded
    several times gets the recorded replies in order. Usage and model come from the record.

    strict=True (default): every recorded reply is used at most once; a request that is not
    in the cassette (or asked more often than recorded) raises ``LLMError(kind="replay")``
    naming the closest recorded request and the first difference. A malformed line other
    than the last raises on load.

    strict=False: a request asked more often than recorded gets its last recorded reply
    again; an unknown request gets the next unused record in file order (sequential replay,
    handy when prompts changed slightly -- each such fallback is noted in `.misses`);
    malformed lines are skipped. It still raises when nothing is left to answer with.

    `.requests` holds every request received, in order.
    """

    def __init__(self, path: str | os.PathLike[str], *, strict: bool = True) -> None:
        self.path = Path(path)
        self.strict = strict
        self.records = load_cassette(self.path, strict=strict)
        self.requests: list[Messages] = []
        self.misses: list[str] = []
        self._by_key: dict[str, list[_Record]] = {}
        for record in self.records:
            self._by_key.setdefault(record.key, []).append(record)
        self._next: dict[str, int] = {}  # per key: how many of its records were used
        self._used: set[int] = set()
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return f"replay:{self.path.name}"

    @property
    def remaining(self) -> int:
        """Recorded replies not used yet."""
        return len(self.records) - len(self._used)

    def complete(self, messages: Messages) -> Reply:
        request = _normalize(messages)
        key = request_key(request)
        with self._lock:
            self.requests.append(request)
            record = self._pick(key, request)
            self._used.add(record.index)
        return Reply(text=record.reply, usage=record.usage, model=record.model)

    async def acomplete(self, messages: Messages) -> Reply:
        return self.complete(messages)

    def _pick(self, key: str, request: list[dict[str, Any]]) -> _Record:
        matches = self._by_key.get(key, [])
        used = self._next.get(key, 0)
        if used < len(matches):
            self._next[key] = used + 1
            return matches[used]
        if matches and not self.strict:
            return matches[-1]
        if not self.strict:
            for record in self.records:
                if record.index not in self._used:
                    self.misses.append(f"request #{len(self.requests)} not in the cassette; answered with record "
                                       f"#{record.index + 1} (line {record.line}) in order")
                    return record
        raise LLMError("replay", self._explain_miss(request, matches))

    def _explain_miss(self, request: list[dict[str, Any]], matches: list[_Record]) -> str:
        n = len(self.requests)
        where = f"cassette {self.path} ({len(self.records)} records)"
        if matches:
            return (f"request #{n} was recorded {len(matches)} time(s) in {where} and all of them were "
                    f"already replayed; the run asks the model more often than the recorded one did "
                    f"(use strict=False to repeat the last reply)")
        if not self.records:
            return f"request #{n} is not in {where}: the cassette is empty"
        candidates = [r for r in self.records if r.request is not None]
        if not candidates:
            return f"request #{n} is not in {where} (its records carry keys only, so no diff can be shown)"
        # Prefer unused records when they are as close as used ones.
        best = max(candidates, key=lambda r: (_similarity(r.request or [], request), r.index not in self._used,
                                              -r.index))
        return (f"request #{n} ({len(request)} messages) is not in {where}. Closest recorded request: "
                f"record #{best.index + 1} (line {best.line}); {describe_difference(best.request or [], request)}")
