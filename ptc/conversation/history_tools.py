"""Tools that let the model look at and compress its own history.

    history = History(store, session_id, numbering="positional", tools=session_tools)
    agent_tools = [*session_tools, *history.tools()]
    # (tool/view-thread)                                   -> "[1] user: ...\n[2] assistant: ..."
    # (tool/compress-last {:count 3 :summary "..."})
    # (tool/compress-range {:from 2 :to 5 :summary "..."})

The thread is the forest's context rendering of the session (``forest.context``), numbered
as in ``numbering``, unless a `source` says otherwise (`ChatSession` passes the entries of
the request it would send, so view-thread lists exactly what the prompt numbers). Numbers
refer to the latest listing the model was shown: the prompt (the session calls
`History.shown(entries)` when it renders one) or the result of
``view-thread``. So ``compress-last 2`` means the last two entries the model saw, not the
reply it is writing now. With absolute numbering an entry's number is stable, so numbers
not in the latest listing are looked up in the current thread too.

A compression hides the entries' messages (status compressed, still in the full view) behind
a summary message (priority 1) holding the model's text, through ``Store.compress_range``,
and records a ``broad`` compaction node over them. Entries whose messages are not contiguous
in the log (an earlier compression or a rollback left compressed messages between them) are
compressed range by range: the last range gets the summary, earlier ones a stub summary
that is invalidated at once, and the broad node ties them together, so every rendering (the
forest's and the store's own context) shows one summary.

Mistakes (no such entry, an empty summary, a range cutting a tool call from its result...)
are tool errors with a hint, which the model sees as its program's error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from . import forest as F
from .numbering import NumberingError, ThreadEntry, check_mode, listing, resolve_last, resolve_range, thread

MAX_SUMMARY_CHARS = 20_000


def _tool_error(message: str, hint: str | None = None) -> Exception:
    from ..interpreter.errors import PTCError

    return PTCError("tool", message, hint=hint)


class History:
    """A session's thread as the model addresses it, and the history tools bound to it."""

    def __init__(self, store: Any, session_id: str, *, numbering: str = "positional",
                 tools: Mapping[str, Any] | None = None, on_change: Callable[[], None] | None = None,
                 mode: str | None = None, source: Callable[[], Sequence[ThreadEntry]] | None = None) -> None:
        self.store = store
        self.session_id = session_id
        self.numbering = check_mode(numbering)
        self.session_tools = dict(tools or {})
        self.on_change = on_change
        self.mode = mode
        self.source = source
        self._shown: list[ThreadEntry] | None = None

    # -- the thread -----------------------------------------------------------------------

    def entries(self) -> list[F.Entry]:
        """The forest's context entries of the session now."""
        return F.Forest.load(self.store, self.session_id, tools=self.session_tools).context()

    def current(self) -> list[ThreadEntry]:
        """The thread as the model would be shown it now: `source()` when given (a session
        numbering its requests its own way), else the forest's context numbered."""
        if self.source is not None:
            return list(self.source())
        return thread(self.entries(), self.numbering)

    def shown(self, entries: Sequence[Any]) -> list[ThreadEntry]:
        """Remember the listing the model was just shown (forest entries or ThreadEntries)."""
        items = list(entries)
        numbered = items if all(isinstance(e, ThreadEntry) for e in items) else thread(items, self.numbering)
        self._shown = list(numbered)  # type: ignore[arg-type]
        return self._shown

    def forget(self) -> None:
        """The thread changed under the model (a rollback): resolve against the current thread."""
        self._shown = None

    def listing(self, limit: int | None = None) -> str:
        entries = self.current()
        self._shown = entries
        return listing(entries, limit=limit)

    def _basis(self) -> list[ThreadEntry]:
        return self._shown if self._shown is not None else self.current()

    # -- compressing ----------------------------------------------------------------------

    def compress_last(self, count: int, summary: str) -> dict[str, Any]:
        try:
            chosen = resolve_last(self._basis(), count)
        except NumberingError as e:
            raise _tool_error(f"compress-last: {e}", "call (tool/view-thread) to see the numbered entries") from None
        return self._compress(chosen, summary, "compress-last")

    def compress_range(self, first: int, last: int, summary: str) -> dict[str, Any]:
        basis = self._basis()
        try:
            try:
                chosen = resolve_range(basis, first, last, self.numbering)
            except NumberingError:
                if self.numbering != "absolute" or self._shown is None:
                    raise
                chosen = resolve_range(self.current(), first, last, self.numbering)  # stable numbers
        except NumberingError as e:
            raise _tool_error(f"compress-range: {e}", "call (tool/view-thread) to see the numbered entries") from None
        return self._compress(chosen, summary, "compress-range")

    def _compress(self, chosen: Sequence[ThreadEntry], summary: str, op: str) -> dict[str, Any]:
        if not isinstance(summary, str) or not summary.strip():
            raise _tool_error(f"{op}: :summary must be a non-empty string",
                              "write the summary that will stand for the entries")
        if len(summary) > MAX_SUMMARY_CHARS:
            raise _tool_error(f"{op}: the summary has {len(summary)} characters (at most {MAX_SUMMARY_CHARS})")
        try:
            result = compress_entries(self.store, self.session_id, chosen, summary, strategy=op, mode=self.mode)
        except ValueError as e:
            raise _tool_error(f"{op}: {e}", "call (tool/view-thread) to see the numbered entries; keep each tool "
                                            "call with its result") from None
        self._shown = None  # numbers move: the next listing (prompt or view-thread) is the reference
        if self.on_change is not None:
            self.on_change()
        labels = [e.label() for e in chosen]
        return {"compressed": len(chosen), "entries": f"{labels[0]}..{labels[-1]}" if len(labels) > 1 else labels[0],
                "messages": result.messages, "tokens-saved": result.tokens_saved, "summary-seq": result.summary_seq}

    # -- tools ------------------------------------------------------------------------------

    def tools(self) -> list[Any]:
        """view-thread, compress-last and compress-range, bound to this session."""
        from ..tools import Tool

        history = self

        def view_thread(limit: int | None = None) -> str:
            """Show your conversation thread as numbered entries ("[n] role: text").

            Args:
                limit: show only the newest entries
            """
            if limit is not None and limit < 1:
                raise _tool_error("view-thread: :limit must be at least 1")
            return history.listing(limit)

        def compress_last(count: int, summary: str) -> dict:
            """Replace the last `count` entries of your thread by a summary you write.

            Args:
                count: how many entries, counted back from the newest one you were shown
                summary: the text that stands for them from now on (keep every fact you still need)
            """
            return history.compress_last(count, summary)

        def compress_range(from_: int, to: int, summary: str) -> dict:
            """Replace entries [from]..[to] of your thread by a summary you write.

            Args:
                from_: the number of the first entry to compress
                to: the number of the last entry (inclusive)
                summary: the text that stands for them from now on (keep every fact you still need)
            """
            return history.compress_range(from_, to, summary)

        return [
            Tool(view_thread, name="view-thread",
                 summarize=lambda a, r: f"view-thread() -> {len(str(r).splitlines())} lines"),
            Tool(compress_last, name="compress-last",
                 summarize=lambda a, r: f"compress-last({a.get('count')}) -> {_done(r)}"),
            Tool(compress_range, name="compress-range",
                 summarize=lambda a, r: f"compress-range({a.get('from_')}..{a.get('to')}) -> {_done(r)}"),
        ]


def _done(result: Any) -> str:
    if isinstance(result, dict):
        return f"compressed {result.get('compressed')} entries, saved {result.get('tokens-saved')} tokens"
    return str(result)


def segments_for(messages: Sequence[Any], seqs: Sequence[int]) -> list[tuple[int, int]]:
    """Split the seqs to compress into ranges `Store.compress_range` accepts.

    A range may not contain a compressed message or an active message that is not to be
    compressed; invalid messages inside are fine. Raises ValueError when a seq is not an
    active message.
    """
    from ..store.schema import ACTIVE, INVALID

    wanted = set(seqs)
    by_seq = {m.seq: m for m in messages}
    for s in sorted(wanted):
        m = by_seq.get(s)
        if m is None or m.status != ACTIVE:
            raise ValueError(f"message {s} is no longer active")
    out: list[tuple[int, int]] = []
    start = prev = None
    for m in sorted(messages, key=lambda x: x.seq):
        if m.status == INVALID:
            continue
        if m.seq in wanted:
            if start is None:
                start = m.seq
            prev = m.seq
        elif start is not None:
            out.append((start, prev))  # type: ignore[arg-type]
            start = prev = None
    if start is not None:
        out.append((start, prev))  # type: ignore[arg-type]
    return out


@dataclass(frozen=True)
class Compression:
    """What `compress_entries` did: the store's records (one per seq range) and the broad node."""

    records: tuple[Any, ...]
    node: Any
    messages: int
    tokens_before: int
    tokens_after: int
    summary_seq: int | None

    @property
    def tokens_saved(self) -> int:
        return self.tokens_before - self.tokens_after


def compress_entries(store: Any, session_id: str, entries: Sequence[Any], summary: str, *,
                     strategy: str = "summary", mode: str | None = None) -> Compression:
    """Compress the messages behind thread entries (anything with `.seqs`) into one summary.

    Range by range (see `segments_for`): the last range gets `summary`, earlier ones a stub
    summary message that is invalidated at once (it stays in the full view), so one summary
    stands for the whole selection in every rendering; one broad node ties them together.
    Raises ValueError (InvalidRange included) when the entries no longer stand for active
    messages or a range would cut a tool call from its result; ranges compressed before the
    failure are still tied by a broad node.
    """
    from ..store import InvalidRange

    text = summary.strip()
    if not text:
        raise ValueError("the summary is empty")
    wanted = sorted({s for e in entries for s in e.seqs})
    if not wanted:
        raise ValueError("the entries stand for no messages")
    messages = list(store.full(session_id).items)
    segments = segments_for(messages, wanted)
    records: list[Any] = []
    try:
        for i, (a, b) in enumerate(segments):
            body = text if i == len(segments) - 1 else F.STUB_SUMMARY
            records.append(store.compress_range(session_id, a, b, body, strategy=strategy, mode=mode))
    except InvalidRange:
        if records:  # the ranges done stay done: give them the real summary, tied by one node
            F.add_broad_node(store, session_id, text, records)
        raise
    node = F.add_broad_node(store, session_id, text, records)
    for r in records[:-1]:  # the stubs of a split compression: the primary summary stands for all
        store.invalidate(r.summary_message_id)
    summary_seq = None
    try:
        summary_seq = int(store.get_message(records[-1].summary_message_id).seq)
    except Exception:  # noqa: BLE001 - informative only
        pass
    count = sum(1 for m in messages if m.seq in set(wanted))
    return Compression(tuple(records), node, count, sum(r.token_before for r in records),
                       sum(r.token_after for r in records), summary_seq)


def history_tools(store: Any, session_id: str, *, numbering: str = "positional",
                  tools: Mapping[str, Any] | None = None) -> list[Any]:
    """The three history tools for a session (a fresh `History`; see it for the details)."""
    return History(store, session_id, numbering=numbering, tools=tools).tools()


__all__ = ["History", "Compression", "compress_entries", "history_tools", "segments_for"]
