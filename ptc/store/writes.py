"""Writing messages into a session's log: a message checked and counted (`_spec`), seqs
allocated and rows inserted in one transaction (`_insert`): what the store and its compression
both write with."""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .errors import NotFound
from .messages import Block, Message, text_of
from .schema import ACTIVE, COMPRESSED, INVALID, REGULAR, ROLES, SUMMARY, message_blocks, messages, sessions

# "status = 0" as a constant in the SQL, so the partial index ix_messages_active applies
# (a bound parameter would hide it from SQLite, and from PostgreSQL's generic plans)
IS_ACTIVE = messages.c.status == sa.literal_column("0")


def _now() -> float:
    return time.time()


def _count_tokens(content: str | None, tool_calls: Any) -> int:
    from ..llm.tokens import count_tokens

    n = count_tokens(content) if content else 0
    if tool_calls:
        n += count_tokens(json.dumps(tool_calls, ensure_ascii=False))
    return n


def _spec(role: str, blocks: list[Block], tool_calls: Any, tool_call_id: str | None, mode: str | None,
          run_id: str | None, turn: int | None, token_count: int | None, status: int, priority: int) -> dict[str, Any]:
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
    if tool_calls and role != "assistant":
        raise ValueError("only assistant messages carry tool_calls")
    if role == "tool" and not tool_call_id:
        raise ValueError("a tool message needs the tool_call_id of the call it answers")
    if tool_call_id is not None and role != "tool":
        raise ValueError("only tool messages carry a tool_call_id")
    if status not in (ACTIVE, INVALID, COMPRESSED) or priority not in (REGULAR, SUMMARY):
        raise ValueError("status must be 0, 1 or 2 and priority 0 or 1")
    if tool_calls is not None:
        tool_calls = [dict(c) for c in tool_calls]
        for call in tool_calls:
            if not call.get("id"):
                raise ValueError("every tool call needs an id")
    content = text_of(blocks)
    tokens = token_count if token_count is not None else _count_tokens(content, tool_calls)
    return dict(role=role, blocks=blocks, content=content, tool_calls=tool_calls or None, tool_call_id=tool_call_id,
                mode=mode, run_id=run_id, turn=turn, token_count=int(tokens), status=status, priority=priority)


# prebuilt statements (compiled once, cached by SQLAlchemy): the append hot path
_ALLOCATE = (
    sessions.update().where(sessions.c.id == sa.bindparam("p_sid"))
    .values(next_seq=sessions.c.next_seq + sa.bindparam("p_n"),
            token_count=sessions.c.token_count + sa.bindparam("p_tokens"), updated_at=sa.bindparam("p_now"))
    .returning(sessions.c.next_seq)
)
_INSERT_ONE = messages.insert().returning(messages.c.id)
_IDS_BY_SEQ = sa.select(messages.c.seq, messages.c.id).where(
    messages.c.session_id == sa.bindparam("p_sid"),
    messages.c.seq.between(sa.bindparam("p_first"), sa.bindparam("p_last")))


def _insert(conn: Connection, session_id: str, specs: Sequence[dict[str, Any]]) -> list[Message]:
    """Allocate len(specs) seqs and insert the messages and their blocks (inside a transaction)."""
    n = len(specs)
    active_tokens = sum(s["token_count"] for s in specs if s["status"] == ACTIVE)
    now = _now()
    end = conn.execute(_ALLOCATE, {"p_sid": session_id, "p_n": n, "p_tokens": active_tokens, "p_now": now}).scalar()
    if end is None:
        raise NotFound(f"no session {session_id!r}")
    first = int(end) - n
    rows = []
    for i, spec in enumerate(specs):
        row = {k: v for k, v in spec.items() if k != "blocks"}
        row.update(session_id=session_id, seq=first + i, created_at=now)
        rows.append(row)
    if n == 1:
        ids = [int(conn.execute(_INSERT_ONE, rows[0]).scalar_one())]
    else:
        # executemany without RETURNING (SQLite would insert row by row to keep RETURNING in
        # order), then read the ids back by the seqs just allocated: one index range scan
        conn.execute(messages.insert(), rows)
        by_seq = dict(conn.execute(_IDS_BY_SEQ, {"p_sid": session_id, "p_first": first, "p_last": first + n - 1})
                      .all())
        ids = [int(by_seq[first + i]) for i in range(n)]
    block_rows = [dict(message_id=mid, position=pos, block_type=b.type, content=b.content, extension_data=b.data)
                  for mid, spec in zip(ids, specs) for pos, b in enumerate(spec["blocks"])]
    if block_rows:
        conn.execute(message_blocks.insert(), block_rows)
    return [Message(id=mid, blocks=tuple(spec["blocks"]), **rows[i]) for i, (mid, spec) in enumerate(zip(ids, specs))]
