"""Numbering the thread the model sees, so it can address its own history.

Two schemes (``frs-message-numbering.md``):

- ``positional`` (the default): ``[1] [2] ...`` by position in the thread as the model is
  shown it now; continuous, no gaps, and it shifts when entries are compressed.
- ``absolute``: ``[n]`` is the store's seq of the entry (an exchange: its first message; a
  summary: its summary message): stable for the entry's lifetime, with gaps where messages
  were compressed or rolled back.
- ``none``: no numbers.

Numbers exist only in what the model sees: `number_for_model` returns new chat messages and
never touches the log, and the display and full renderings never carry them. The system
prompt (a ``system`` message without a seq at the head) is not numbered.

`resolve_last` / `resolve_range` turn what the model wrote (``compress-last 3``,
``compress-range 4..7``) back into thread entries; `ThreadEntry` is what they work on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

MODES = ("positional", "absolute", "none")


class NumberingError(ValueError):
    """The numbers given do not address entries of the thread (the message says why)."""


@dataclass(frozen=True)
class ThreadEntry:
    """One numbered entry of the thread: its number, role, text and the seqs it stands for."""

    number: int
    position: int
    absolute: int
    role: str
    text: str
    seqs: tuple[int, ...]
    kind: str = "message"

    def label(self) -> str:
        return f"[{self.number}]"


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"numbering must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


def _seq_of(item: Any) -> int | None:
    """The stable number of an item: a forest Entry's number, a store Message's seq, a dict's
    "seq" (or "number")."""
    if isinstance(item, dict):
        for key in ("seq", "number", "_seq"):
            if isinstance(item.get(key), int):
                return int(item[key])
        return None
    number = getattr(item, "number", None)
    if isinstance(number, int) and hasattr(item, "seqs"):
        return number
    seq = getattr(item, "seq", None)
    return int(seq) if isinstance(seq, int) else None


def _as_chat(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return {k: v for k, v in item.items() if k not in ("seq", "number", "_seq")}
    to_openai = getattr(item, "to_openai", None)
    if callable(to_openai):
        return dict(to_openai())
    raise TypeError(f"cannot number a {type(item).__name__}: give chat dicts, store Messages or forest entries")


def _is_prompt(item: Any, index: int, items: Sequence[Any]) -> bool:
    """A system message at the head that is not part of the log (no seq): the system prompt."""
    if _seq_of(item) is not None:
        return False
    role = item.get("role") if isinstance(item, dict) else getattr(item, "role", None)
    return role == "system" and all(
        (x.get("role") if isinstance(x, dict) else getattr(x, "role", None)) == "system" and _seq_of(x) is None
        for x in items[:index])


def numbers(items: Sequence[Any], mode: str = "positional") -> list[int | None]:
    """The number each item gets (None: not numbered) under `mode`."""
    check_mode(mode)
    out: list[int | None] = []
    position = 0
    for i, item in enumerate(items):
        if mode == "none" or _is_prompt(item, i, items):
            out.append(None)
            continue
        position += 1
        if mode == "positional":
            out.append(position)
        else:
            seq = _seq_of(item)
            if seq is None:
                raise NumberingError(f"absolute numbering needs a seq for every thread message (item {i} has none)")
            out.append(seq)
    return out


def prefix(number: int) -> str:
    return f"[{number}] "


def number_for_model(messages: Sequence[Any], mode: str = "positional") -> list[dict[str, Any]]:
    """Chat messages with ``[n] `` prefixed to the content of every thread message.

    `messages`: forest entries (`ptc.conversation.forest.context`), store `Message`s, or chat
    dicts (give them a "seq" key for absolute numbering; it is removed from the output). A
    system prompt at the head is left unnumbered. Returns new dicts; the input is not changed.
    """
    out = []
    for item, n in zip(messages, numbers(messages, mode)):
        chat = _as_chat(item)
        if n is not None:
            content = chat.get("content")
            chat["content"] = prefix(n) + (content if isinstance(content, str) else "")
        out.append(chat)
    return out


def thread(entries: Sequence[Any], mode: str = "positional") -> list[ThreadEntry]:
    """Forest context entries (or store messages) as numbered ThreadEntry objects."""
    check_mode(mode)
    out = []
    for i, e in enumerate(entries, start=1):
        absolute = _seq_of(e)
        seqs = tuple(getattr(e, "seqs", ()) or ((absolute,) if absolute is not None else ()))
        text = e.get("content") if isinstance(e, dict) else (getattr(e, "text", None) or getattr(e, "content", ""))
        role = e.get("role") if isinstance(e, dict) else getattr(e, "role", "")
        number = absolute if mode == "absolute" and absolute is not None else i
        out.append(ThreadEntry(number=number, position=i, absolute=absolute if absolute is not None else i,
                               role=str(role), text=str(text or ""), seqs=seqs,
                               kind=str(getattr(e, "kind", "message"))))
    return out


def listing(entries: Sequence[ThreadEntry], *, width: int = 160, limit: int | None = None) -> str:
    """``[n] role: first line...`` one per entry (the newest `limit` when given)."""
    shown = list(entries)[-limit:] if limit else list(entries)
    lines = []
    if limit and len(entries) > len(shown):
        lines.append(f"({len(entries) - len(shown)} earlier entries not shown)")
    for e in shown:
        flat = " ".join(e.text.split())
        head = f"{e.label()} {e.role}: "
        room = max(20, width - len(head))
        lines.append(head + (flat if len(flat) <= room else flat[: room - 3] + "..."))
    return "\n".join(lines) if lines else "(the thread is empty)"


def resolve_last(entries: Sequence[ThreadEntry], count: int) -> list[ThreadEntry]:
    """The last `count` entries."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise NumberingError(f"count must be a positive integer, got {count!r}")
    if count > len(entries):
        raise NumberingError(f"the thread has only {len(entries)} entries; count is {count}")
    return list(entries[-count:])


def resolve_range(entries: Sequence[ThreadEntry], first: int, last: int, mode: str = "positional") -> list[ThreadEntry]:
    """The entries from the one numbered `first` to the one numbered `last` (inclusive, in
    thread order). Positional numbers are 1-based positions; absolute numbers must be
    numbers of entries present in the thread (a gap is not an entry)."""
    check_mode(mode)
    for name, value in (("from", first), ("to", last)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise NumberingError(f":{name} must be an entry number, got {value!r}")
    if not entries:
        raise NumberingError("the thread is empty")
    if mode == "absolute":
        where = {e.number: i for i, e in enumerate(entries)}
        for name, value in (("from", first), ("to", last)):
            if value not in where:
                near = sorted(where, key=lambda n: abs(n - value))[:3]
                raise NumberingError(f"no entry [{value}] in the thread (:{name}); "
                                     f"nearest: {', '.join(f'[{n}]' for n in sorted(near))}")
        i, j = where[first], where[last]
    else:
        n = len(entries)
        for name, value in (("from", first), ("to", last)):
            if not 1 <= value <= n:
                raise NumberingError(f":{name} {value} is outside the thread (entries 1..{n})")
        i, j = first - 1, last - 1
    if i > j:
        raise NumberingError(f"empty range: [{first}] comes after [{last}]")
    return list(entries[i:j + 1])


def seqs_of(entries: Iterable[ThreadEntry]) -> list[int]:
    return sorted({s for e in entries for s in e.seqs})


__all__ = ["MODES", "NumberingError", "ThreadEntry", "check_mode", "numbers", "number_for_model", "thread",
           "listing", "resolve_last", "resolve_range", "seqs_of", "prefix"]
