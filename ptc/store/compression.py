"""Compressing a range of messages into a summary, invalidating, rolling back, statistics.

Every operation is one transaction that first locks the session row (SELECT ... FOR UPDATE
on PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises writers), so two compressions,
or a compression and an append, never interleave on one session.

Token accounting: ``sessions.token_count`` is the number of tokens of the session's active
messages. A compression subtracts the tokens of the messages it hides (token_before) and adds
the summary's (token_after); invalidating subtracts; a rollback recomputes it.

Protocol integrity: an assistant message with tool_calls and the tool messages answering
them form a group. A compression range must hold whole groups; invalidating any member
invalidates the group; a rollback may not cut a group in two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .messages import CompressionRecord, Stats, as_blocks
from .schema import ACTIVE, COMPRESSED, INVALID, STATUS_NAMES, SUMMARY, compression_records, messages, sessions
from .errors import InvalidRange, NotFound
from .writes import IS_ACTIVE, _insert, _now, _spec

if TYPE_CHECKING:
    from .store import Store

ROLLBACK_LOOKAHEAD = 256  # tool results are looked for this many messages past a rollback point
APPLIED, FAILED, ROLLED_BACK = 0, 1, 2  # compression record status


def _call_ids(tool_calls: Any) -> list[str]:
    return [str(c.get("id")) for c in (tool_calls or []) if isinstance(c, dict) and c.get("id")]


def compress_range(store: "Store", session_id: str, first_seq: int, last_seq: int, summary_text: str,
                   strategy: str = "summary", *, summary_role: str = "system",
                   blocks: Iterable[Any] | None = None, token_after: int | None = None,
                   mode: str | None = None) -> CompressionRecord:
    """Hide messages first_seq..last_seq behind a summary message (priority 1), atomically.

    Refused (InvalidRange, and a failed record with the reason is kept) when the range is
    empty or reversed, an end is missing or not active, a message inside is already
    compressed, or the range would separate a tool call from its result. Invalid messages
    strictly inside the range stay invalid. The summary is appended (next seq) as
    `summary_role` with `summary_text` (or `blocks`); `token_after` defaults to its tokens.
    """
    summary_blocks = as_blocks(blocks, None if blocks is not None else summary_text)
    spec = _spec(summary_role, summary_blocks, None, None, mode, None, None, token_after, ACTIVE, SUMMARY)

    def compress(conn: Connection) -> CompressionRecord:
        store._session(conn, session_id, lock=True)
        m = messages.c
        rows = list(conn.execute(
            sa.select(m.id, m.seq, m.role, m.status, m.token_count, m.tool_calls, m.tool_call_id)
            .where(m.session_id == session_id, m.seq >= first_seq, m.seq <= last_seq).order_by(m.seq)
        ).mappings())
        _validate(conn, session_id, first_seq, last_seq, rows)
        hidden = [r for r in rows if r["status"] == ACTIVE]
        before = sum(r["token_count"] for r in hidden)
        conn.execute(messages.update().where(m.session_id == session_id, m.seq >= first_seq, m.seq <= last_seq,
                                             m.status == ACTIVE).values(status=COMPRESSED))
        summary = _insert(conn, session_id, [spec])[0]
        s = sessions.c
        conn.execute(sessions.update().where(s.id == session_id).values(token_count=s.token_count - before))
        row = dict(session_id=session_id, strategy=strategy, start_message_id=rows[0]["id"],
                   end_message_id=rows[-1]["id"], start_seq=first_seq, end_seq=last_seq,
                   summary_message_id=summary.id, token_before=before, token_after=summary.token_count, status=APPLIED,
                   created_at=_now(), error=None)
        rid = conn.execute(compression_records.insert().values(**row).returning(compression_records.c.id)).scalar_one()
        return CompressionRecord(id=int(rid), **row)

    try:
        return store._transact(compress)
    except InvalidRange as e:
        _record_failure(store, session_id, first_seq, last_seq, strategy, str(e))
        raise


def _validate(conn: Connection, session_id: str, first: int, last: int, rows: list[Any]) -> None:
    if first > last:
        raise InvalidRange(f"empty range: first seq {first} is after last seq {last}")
    by_seq = {r["seq"]: r for r in rows}
    for end in (first, last):
        if end not in by_seq:
            raise InvalidRange(f"no message with seq {end} in session {session_id!r}")
        if by_seq[end]["status"] != ACTIVE:
            raise InvalidRange(f"message {end} is {STATUS_NAMES[by_seq[end]['status']]}, not active")
    compressed = [r["seq"] for r in rows if r["status"] == COMPRESSED]
    if compressed:
        raise InvalidRange(f"message {compressed[0]} is already compressed")
    live = [r for r in rows if r["status"] != INVALID]
    calls = {cid: r["seq"] for r in live if r["role"] == "assistant" for cid in _call_ids(r["tool_calls"])}
    for r in live:
        if r["role"] == "tool" and r["tool_call_id"] not in calls:
            raise InvalidRange(f"the range would separate tool result {r['seq']} from its call "
                               f"{r['tool_call_id']!r} (which is before seq {first}); start the range earlier")
    if calls:
        m = messages.c
        outside = conn.execute(
            sa.select(m.seq, m.tool_call_id)
            .where(m.session_id == session_id, m.tool_call_id.in_(list(calls)), m.status != INVALID,
                   sa.or_(m.seq < first, m.seq > last)).order_by(m.seq).limit(1)
        ).first()
        if outside is not None:
            raise InvalidRange(f"the range would separate the call {outside.tool_call_id!r} at seq "
                               f"{calls[outside.tool_call_id]} from its result at seq {outside.seq}; "
                               f"end the range at {outside.seq} or later")


def _record_failure(store: "Store", session_id: str, first: int, last: int, strategy: str, error: str) -> None:
    def write(conn: Connection) -> None:
        if conn.execute(sa.select(sessions.c.id).where(sessions.c.id == session_id)).first() is None:
            return
        conn.execute(compression_records.insert().values(
            session_id=session_id, strategy=strategy, start_seq=first, end_seq=last, token_before=0, token_after=0,
            status=FAILED, created_at=_now(), error=error))

    try:
        store._transact(write)
    except Exception:  # noqa: BLE001 - the refusal itself is what the caller must see
        pass


def invalidate(store: "Store", message_id: int) -> list[int]:
    """Mark a message invalid (deleted) together with its tool-call group; returns the ids changed."""
    def run(conn: Connection) -> list[int]:
        m = messages.c
        row = conn.execute(sa.select(m.id, m.session_id, m.seq, m.role, m.tool_calls, m.tool_call_id)
                           .where(m.id == message_id)).mappings().first()
        if row is None:
            raise NotFound(f"no message {message_id}")
        sid = row["session_id"]
        store._session(conn, sid, lock=True)
        group = {row["id"]}
        call_ids = _call_ids(row["tool_calls"])
        if row["role"] == "tool" and row["tool_call_id"]:
            caller = conn.execute(
                sa.select(m.id, m.tool_calls).where(m.session_id == sid, m.seq < row["seq"], m.role == "assistant",
                                                    m.tool_calls.isnot(None)).order_by(m.seq.desc()).limit(1)
            ).first()
            if caller is not None and row["tool_call_id"] in _call_ids(caller.tool_calls):
                group.add(caller.id)
                call_ids = _call_ids(caller.tool_calls)
        if call_ids:
            group.update(r[0] for r in conn.execute(
                sa.select(m.id).where(m.session_id == sid, m.tool_call_id.in_(call_ids))))
        targets = list(conn.execute(sa.select(m.id, m.status, m.token_count)
                                    .where(m.id.in_(sorted(group)), m.status != INVALID)))
        if not targets:
            return []
        tokens = sum(t.token_count for t in targets if t.status == ACTIVE)
        ids = sorted(t.id for t in targets)
        conn.execute(messages.update().where(m.id.in_(ids)).values(status=INVALID))
        s = sessions.c
        conn.execute(sessions.update().where(s.id == sid).values(token_count=s.token_count - tokens,
                                                                 updated_at=_now()))
        return ids

    return store._transact(run)


def rollback(store: "Store", session_id: str, seq: int) -> int:
    """Hide every active message after `seq` (they become compressed); returns how many.

    Summaries of ranges that end at or before `seq` stay active (they stand for kept
    messages); compressions wholly after `seq` are marked rolled back (status 2) and leave the
    statistics. The session's token count is recomputed. Refused when `seq` is inside a
    compressed range, or would separate a tool call from its results.
    """
    def run(conn: Connection) -> int:
        store._session(conn, session_id, lock=True)
        m = messages.c
        following = list(conn.execute(
            sa.select(m.seq, m.role, m.tool_call_id).where(m.session_id == session_id, m.seq > seq, IS_ACTIVE)
            .order_by(m.seq).limit(ROLLBACK_LOOKAHEAD)
        ).mappings())
        pending = [r["tool_call_id"] for r in following if r["role"] == "tool"]
        if pending:
            callers = conn.execute(
                sa.select(m.seq, m.tool_calls).where(m.session_id == session_id, m.seq <= seq, m.role == "assistant",
                                                     m.tool_calls.isnot(None), IS_ACTIVE)
                .order_by(m.seq.desc()).limit(1)
            ).first()
            if callers is not None:
                cut = set(_call_ids(callers.tool_calls)) & set(pending)
                if cut:
                    last_result = max(r["seq"] for r in following if r["tool_call_id"] in cut)
                    raise InvalidRange(f"rolling back to {seq} would separate the tool call at seq {callers.seq} "
                                       f"from its results; roll back to {last_result} or to before {callers.seq}")
        c = compression_records.c
        keep: list[int] = []
        undone: list[int] = []
        for rec in conn.execute(sa.select(c.id, c.start_seq, c.end_seq, c.summary_message_id)
                                .where(c.session_id == session_id, c.status == APPLIED)):
            if rec.start_seq <= seq < rec.end_seq:
                raise InvalidRange(f"seq {seq} is inside the compressed range {rec.start_seq}..{rec.end_seq}; "
                                   f"roll back to {rec.end_seq} or to before {rec.start_seq}")
            if rec.end_seq <= seq:
                keep.append(rec.summary_message_id)  # its summary stands for messages we keep
            else:
                undone.append(rec.id)  # everything it summarised is after the rollback point
        hide = messages.update().where(m.session_id == session_id, m.seq > seq, IS_ACTIVE)
        if keep:
            hide = hide.where(m.id.notin_(keep))
        changed = conn.execute(hide.values(status=COMPRESSED)).rowcount
        if undone:
            conn.execute(compression_records.update().where(c.id.in_(undone)).values(status=ROLLED_BACK))
        total = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(m.token_count), 0))
                             .where(m.session_id == session_id, IS_ACTIVE)).scalar_one()
        conn.execute(sessions.update().where(sessions.c.id == session_id)
                     .values(token_count=int(total), updated_at=_now()))
        return int(changed or 0)

    return store._transact(run)


def stats(store: "Store", session_id: str) -> Stats:
    """Applied compressions (count, tokens before/after, saved, average saved) and messages by status."""
    c = compression_records.c
    m = messages.c
    with store._read() as conn:
        session = store._session(conn, session_id)
        agg = conn.execute(sa.select(
            sa.func.count(), sa.func.coalesce(sa.func.sum(c.token_before), 0),
            sa.func.coalesce(sa.func.sum(c.token_after), 0),
        ).where(c.session_id == session_id, c.status == APPLIED)).one()
        by_status = {STATUS_NAMES[s]: int(n) for s, n in conn.execute(
            sa.select(m.status, sa.func.count()).where(m.session_id == session_id).group_by(m.status))}
    count, before, after = int(agg[0]), int(agg[1]), int(agg[2])
    saved = before - after
    return Stats(session_id=session_id, compressions=count, tokens_before=before, tokens_after=after,
                 tokens_saved=saved, avg_saved=(saved / count) if count else 0.0, token_count=session.token_count,
                 messages={name: by_status.get(name, 0) for name in STATUS_NAMES.values()})


def records(store: "Store", session_id: str) -> list[CompressionRecord]:
    """Every compression record of a session (applied and failed), oldest first."""
    q = sa.select(compression_records).where(compression_records.c.session_id == session_id) \
        .order_by(compression_records.c.id)
    with store._read() as conn:
        return [CompressionRecord(**r) for r in conn.execute(q).mappings()]


__all__ = ["compress_range", "invalidate", "rollback", "stats", "records"]
