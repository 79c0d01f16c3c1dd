"""The Store: sessions, an append-only message log, views over it, runs and turns.

Every write is one transaction. On SQLite write transactions start with ``BEGIN IMMEDIATE``
(they take the write lock up front, so two writers queue on the busy timeout instead of
failing on a lock upgrade); reads use a plain ``BEGIN`` and see one consistent snapshot
(WAL lets them run while a writer commits). Sequence numbers are allocated with
``UPDATE sessions SET next_seq = next_seq + n ... RETURNING next_seq`` inside the transaction
that inserts the messages; on PostgreSQL that UPDATE row-locks the session, so concurrent
appenders (threads or processes) serialise per session and never share a seq. The
UNIQUE(session_id, seq) constraint is the safety net; a violation is retried.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
import uuid
from contextlib import contextmanager, nullcontext
from typing import IO, Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, Row

from . import paths
from .errors import InvalidRange, NotFound, StoreError
from .migrations import migrate, run_usage
from .messages import (
    Block, CompactionNode, CompressionRecord, Message, Page, RunRecord, Session, Stats, as_blocks, dumps,
)
from .schema import (
    ACTIVE, COMPRESSED, INVALID, NODE_TYPES, REGULAR, RUN_STATUSES, SCHEMA_VERSION, SUMMARY,
    compaction_nodes, compression_records, message_blocks, messages, meta, metadata, paused_runs, runs, sessions,
    turns,
)
from .writes import IS_ACTIVE, _insert, _now, _spec

T = TypeVar("T")

DEFAULT_PAGE = 50
MAX_PAGE = 10_000


# -- query builders (module level so tests can EXPLAIN exactly what the store runs) ---------




def display_query(session_id: str, *, after: int | None = None, before: int | None = None,
                  limit: int = DEFAULT_PAGE, backwards: bool = False) -> sa.Select[Any]:
    """Active messages, by seq; forwards after a cursor, or backwards before one (newest first)."""
    m = messages.c
    q = sa.select(messages).where(m.session_id == session_id, IS_ACTIVE)
    if after is not None:
        q = q.where(m.seq > after)
    if before is not None:
        q = q.where(m.seq < before)
    q = q.order_by(m.seq.desc() if backwards else m.seq.asc())
    return q.limit(limit + 1)


def context_query(session_id: str, priority: int, *, after: int | None = None, limit: int | None = None,
                  include_compressed: bool = True) -> sa.Select[Any]:
    """One priority class of the AI context (summaries are priority 1), by seq.

    Active-only regular messages are read like the display (ix_messages_active) *without* a
    priority condition, and the caller drops the few summaries among them: they are nearly
    all the active messages, and a priority condition would send the planners to
    ix_messages_context, which walks every compressed entry first.
    """
    m = messages.c
    if not include_compressed and priority == REGULAR:
        q = sa.select(messages).where(m.session_id == session_id, IS_ACTIVE)
    else:
        status = m.status != INVALID if include_compressed else IS_ACTIVE
        q = sa.select(messages).where(m.session_id == session_id, m.priority == priority, status)
    if after is not None:
        q = q.where(m.seq > after)
    q = q.order_by(m.seq.asc())
    return q.limit(limit + 1) if limit is not None else q


def neighbour_query(session_id: str, seq: int, *, later: bool, active_only: bool = True) -> sa.Select[Any]:
    """The nearest message after (later=True) or before `seq`: does a next / previous page exist?"""
    m = messages.c
    q = sa.select(m.seq).where(m.session_id == session_id, m.seq > seq if later else m.seq < seq)
    if active_only:
        q = q.where(IS_ACTIVE)
    return q.order_by(m.seq.asc() if later else m.seq.desc()).limit(1)


def full_query(session_id: str, *, after: int | None = None, before: int | None = None,
               limit: int | None = None, backwards: bool = False) -> sa.Select[Any]:
    """Every message whatever its status, by seq."""
    m = messages.c
    q = sa.select(messages).where(m.session_id == session_id)
    if after is not None:
        q = q.where(m.seq > after)
    if before is not None:
        q = q.where(m.seq < before)
    q = q.order_by(m.seq.desc() if backwards else m.seq.asc())
    return q.limit(limit + 1) if limit is not None else q


def blocks_query(message_ids: Sequence[int]) -> sa.Select[Any]:
    b = message_blocks.c
    return (sa.select(b.message_id, b.block_type, b.content, b.extension_data)
            .where(b.message_id.in_(list(message_ids))).order_by(b.message_id, b.position))


def parse_context_cursor(cursor: int | str | None) -> tuple[int, int | None]:
    """(priority, seq) from a context cursor "priority:seq" (a bare int means a regular seq)."""
    if cursor is None:
        return SUMMARY, None
    if isinstance(cursor, int):
        return REGULAR, cursor
    text = str(cursor).strip()
    if ":" in text:
        p, s = text.split(":", 1)
        priority, seq = int(p), int(s)
        if priority not in (REGULAR, SUMMARY):
            raise ValueError(f"bad context cursor {cursor!r}: priority must be 0 or 1")
        return priority, seq
    return REGULAR, int(text)


def _check_limit(limit: int | None) -> None:
    if limit is not None and not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be between 1 and {MAX_PAGE}, got {limit}")


def _new_id() -> str:
    return uuid.uuid4().hex[:12]


class Store:
    """A persistent message store on SQLite (default) or PostgreSQL.

    `url`: None (the default file, see `ptc.store.paths`), ``":memory:"``, a file path, or any
    SQLAlchemy URL such as ``postgresql+psycopg://user@host/db``.
    """

    def __init__(self, url: str | os.PathLike[str] | None = None, *, busy_timeout: float = 30.0,
                 echo: bool = False) -> None:
        self.url = paths.normalize_url(url)
        self.memory = paths.is_memory(self.url)
        self.busy_timeout = busy_timeout
        self.engine = self._make_engine(echo)
        self.dialect = self.engine.dialect.name
        self._lock: threading.RLock | None = threading.RLock() if self.memory else None
        self._create_schema()

    # -- engine and transactions ------------------------------------------------------------

    def _make_engine(self, echo: bool) -> Engine:
        serializer = lambda value: json.dumps(value, ensure_ascii=False, default=repr)  # noqa: E731
        if not self.url.startswith("sqlite"):
            return sa.create_engine(self.url, echo=echo, pool_pre_ping=True, json_serializer=serializer)
        kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": self.busy_timeout}}
        if self.memory:
            kwargs["poolclass"] = sa.pool.StaticPool  # one connection: the in-memory database is shared
        else:
            path = paths.sqlite_file(self.url)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(self.url, echo=echo, json_serializer=serializer, **kwargs)
        busy_ms = int(self.busy_timeout * 1000)
        memory = self.memory

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # the driver must not BEGIN on its own; _on_begin does
            cur = dbapi_conn.cursor()
            cur.execute(f"PRAGMA busy_timeout = {busy_ms}")
            if not memory:
                cur.execute("PRAGMA journal_mode = WAL")
            cur.execute("PRAGMA synchronous = NORMAL")
            cur.execute("PRAGMA foreign_keys = ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            immediate = conn.get_execution_options().get("ptc_write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine

    def _guard(self) -> Any:
        return self._lock if self._lock is not None else nullcontext()

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._guard(), self.engine.connect() as conn, conn.begin():
            yield conn

    def _transact(self, fn: Callable[[Connection], T], *, retries: int = 8) -> T:
        """Run fn(conn) in one write transaction; retry on lock contention or a seq collision."""
        attempt = 0
        while True:
            try:
                with self._guard(), self.engine.connect() as conn:
                    if self.dialect == "sqlite":
                        conn.execution_options(ptc_write=True)
                    with conn.begin():
                        return fn(conn)
            except sa.exc.DBAPIError as e:
                attempt += 1
                if attempt > retries or not _retryable(e):
                    raise
                time.sleep(min(0.5, 0.005 * 2 ** attempt) * (0.5 + random.random()))

    def _create_schema(self) -> None:
        def create(conn: Connection) -> None:
            metadata.create_all(conn, checkfirst=True)
            version = conn.execute(sa.select(meta.c.value).where(meta.c.key == "schema_version")).scalar()
            if version is None:
                conn.execute(meta.insert().values(key="schema_version", value=str(SCHEMA_VERSION)))
            elif int(version) > SCHEMA_VERSION:
                raise StoreError(f"the store at {self.safe_url} has schema version {version}; "
                                 f"this ptc understands up to {SCHEMA_VERSION} (upgrade ptc)")
            elif int(version) < SCHEMA_VERSION:
                migrate(conn, int(version), SCHEMA_VERSION)
                conn.execute(meta.update().where(meta.c.key == "schema_version").values(value=str(SCHEMA_VERSION)))

        for attempt in range(5):
            try:
                self._transact(create)
                return
            except (sa.exc.IntegrityError, sa.exc.ProgrammingError):
                # two processes creating the schema at once (PostgreSQL): the loser retries
                if attempt == 4:
                    raise
                time.sleep(0.05 * (attempt + 1))

    @property
    def safe_url(self) -> str:
        """The URL with any password hidden."""
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.safe_url!r})"

    def explain(self, stmt: sa.Executable) -> list[str]:
        """SQLite's EXPLAIN QUERY PLAN for a statement (the `detail` lines)."""
        if self.dialect != "sqlite":
            raise StoreError("explain() is implemented for SQLite only")
        sql = str(stmt.compile(dialect=self.engine.dialect, compile_kwargs={"literal_binds": True}))
        with self._read() as conn:
            return [row[-1] for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql)]

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, title: str = "", mode: str | None = None, *,
                       id: str | None = None) -> Session:  # noqa: A002
        now = _now()
        sid = id or _new_id()
        row = dict(id=sid, title=title or "", mode=mode, token_count=0, created_at=now, updated_at=now, next_seq=1)

        def insert(conn: Connection) -> None:
            conn.execute(sessions.insert().values(**row))

        try:
            self._transact(insert)
        except sa.exc.IntegrityError as e:
            raise StoreError(f"a session with id {sid!r} already exists") from e
        return Session(**row)

    def get_session(self, session_id: str) -> Session:
        with self._read() as conn:
            return self._session(conn, session_id)

    def _session(self, conn: Connection, session_id: str, *, lock: bool = False) -> Session:
        q = sa.select(sessions).where(sessions.c.id == session_id)
        if lock:
            q = q.with_for_update()
        row = conn.execute(q).mappings().first()
        if row is None:
            raise NotFound(f"no session {session_id!r}")
        return Session(**row)

    def list_sessions(self, limit: int = 100) -> list[Session]:
        """Sessions, most recently updated first."""
        q = sa.select(sessions).order_by(sessions.c.updated_at.desc(), sessions.c.id).limit(limit)
        with self._read() as conn:
            return [Session(**r) for r in conn.execute(q).mappings()]

    def set_session_mode(self, session_id: str, mode: str) -> None:
        """Record the mode a session is in (chat/agent); history is kept as it is."""
        def update(conn: Connection) -> None:
            done = conn.execute(sessions.update().where(sessions.c.id == session_id)
                                .values(mode=mode, updated_at=_now()))
            if done.rowcount == 0:
                raise NotFound(f"no session {session_id!r}")

        self._transact(update)

    def record_failed_compression(self, session_id: str, first_seq: int, last_seq: int, strategy: str,
                                  error: str) -> None:
        """A compression record with status failed and its error (nothing is compressed)."""
        from .compression import _record_failure

        _record_failure(self, session_id, first_seq, last_seq, strategy, error)

    def resolve_session(self, prefix: str) -> str:
        """The id of the one session whose id starts with `prefix` (for typing short ids)."""
        s = sessions.c
        with self._read() as conn:
            if conn.execute(sa.select(s.id).where(s.id == prefix)).first() is not None:
                return prefix
            like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            found = [r[0] for r in conn.execute(sa.select(s.id).where(s.id.like(like, escape="\\")).limit(2))]
        if not found:
            raise NotFound(f"no session {prefix!r}")
        if len(found) > 1:
            raise StoreError(f"session id prefix {prefix!r} is ambiguous")
        return found[0]

    def delete_session(self, session_id: str) -> None:
        """Remove a session with its messages, blocks, runs and records."""
        def delete(conn: Connection) -> None:
            self._session(conn, session_id, lock=True)
            ids = sa.select(messages.c.id).where(messages.c.session_id == session_id).scalar_subquery()
            conn.execute(message_blocks.delete().where(message_blocks.c.message_id.in_(ids)))
            conn.execute(messages.delete().where(messages.c.session_id == session_id))
            run_ids = sa.select(runs.c.id).where(runs.c.session_id == session_id).scalar_subquery()
            conn.execute(turns.delete().where(turns.c.run_id.in_(run_ids)))
            conn.execute(runs.delete().where(runs.c.session_id == session_id))
            conn.execute(compression_records.delete().where(compression_records.c.session_id == session_id))
            conn.execute(compaction_nodes.delete().where(compaction_nodes.c.session_id == session_id))
            conn.execute(sessions.delete().where(sessions.c.id == session_id))

        self._transact(delete)

    # -- appending ------------------------------------------------------------------------

    def append(self, session_id: str, role: str, blocks: Iterable[Any] | None = None, *,
               content: str | None = None, tool_calls: list[dict[str, Any]] | None = None,
               tool_call_id: str | None = None, mode: str | None = None, run_id: str | None = None,
               turn: int | None = None, token_count: int | None = None, status: int = ACTIVE,
               priority: int = REGULAR) -> Message:
        """Append one message; returns it with its id and seq.

        `blocks`: Blocks, strings (text), (type, content[, data]) tuples or dicts; or give
        `content` for a single text block. `token_count` defaults to the tokens of the content
        (plus the tool calls' JSON).
        """
        if isinstance(blocks, str):
            blocks, content = None, blocks
        spec = _spec(role, as_blocks(blocks, content), tool_calls, tool_call_id, mode, run_id, turn,
                     token_count, status, priority)
        return self._transact(lambda conn: _insert(conn, session_id, [spec])[0])

    def append_many(self, session_id: str, items: Iterable[Mapping[str, Any]]) -> list[Message]:
        """Append several messages in one transaction (contiguous seqs, in order).

        Each item is a mapping of `append`'s arguments: role, blocks or content, tool_calls...
        """
        specs = []
        for item in items:
            fields = dict(item)
            role = fields.pop("role")
            blocks = fields.pop("blocks", None)
            content = fields.pop("content", None)
            specs.append(_spec(role, as_blocks(blocks, content), fields.pop("tool_calls", None),
                               fields.pop("tool_call_id", None), fields.pop("mode", None),
                               fields.pop("run_id", None), fields.pop("turn", None),
                               fields.pop("token_count", None), fields.pop("status", ACTIVE),
                               fields.pop("priority", REGULAR)))
            if fields:
                raise TypeError(f"unknown message fields: {', '.join(sorted(fields))}")
        if not specs:
            return []
        return self._transact(lambda conn: _insert(conn, session_id, specs))

    def append_llm_error(self, session_id: str, partial: str | None, error_kind: str, message: str,
                         run_id: str | None = None, *, turn: int | None = None, mode: str | None = None,
                         retries: int | None = None) -> Message:
        """Record a failed LLM call as an assistant message: the partial output, then an LLM_ERROR block.

        The message is active and regular, so it stays in the context: a resumed run sees
        what the model had said and why it stopped.
        """
        data: dict[str, Any] = {"kind": error_kind, "message": message}
        if retries is not None:
            data["retries"] = retries
        blocks: list[Block] = []
        if partial:
            blocks.append(Block("text", partial, {"partial": True}))
        blocks.append(Block("llm_error", f"LLM_ERROR kind={error_kind}: {message}", data))
        return self.append(session_id, "assistant", blocks, run_id=run_id, turn=turn, mode=mode)

    # -- reading --------------------------------------------------------------------------

    def get_message(self, message_id: int) -> Message:
        with self._read() as conn:
            row = conn.execute(sa.select(messages).where(messages.c.id == message_id)).mappings().first()
            if row is None:
                raise NotFound(f"no message {message_id}")
            return _messages(conn, [row])[0]

    def message_at(self, session_id: str, seq: int) -> Message:
        m = messages.c
        with self._read() as conn:
            row = conn.execute(sa.select(messages).where(m.session_id == session_id, m.seq == seq)).mappings().first()
            if row is None:
                raise NotFound(f"no message with seq {seq} in session {session_id!r}")
            return _messages(conn, [row])[0]

    def display(self, session_id: str, after: int | None = None, before: int | None = None,
                limit: int = DEFAULT_PAGE, *, last: bool = False) -> Page:
        """Active messages in chronological order, a page at a time.

        First page by default; `after=seq` the page following a cursor, `before=seq` the page
        preceding one, `last=True` the newest page. Cursors are seqs (`page.next`, `page.prev`).
        """
        _check_limit(limit)
        backwards = last or (before is not None and after is None)
        with self._read() as conn:
            self._session(conn, session_id)
            rows = list(conn.execute(display_query(session_id, after=after, before=before, limit=limit,
                                                   backwards=backwards)).mappings())
            more = len(rows) > limit
            rows = rows[:limit]
            if backwards:
                rows.reverse()
            items = _messages(conn, rows)
            return _page(conn, session_id, items, more, after, before, backwards, active_only=True)

    def context(self, session_id: str, after: int | str | None = None, limit: int | None = None, *,
                include_compressed: bool = True) -> Page:
        """The AI context: every message but invalid ones, summaries (priority 1) first, then by seq.

        `include_compressed=False` leaves out compressed (and rolled-back) messages too: the
        summaries plus the active log, i.e. what a compression actually saves. Without `limit`
        the whole context; with it, pages whose `next` cursor ("priority:seq") goes to `after`.
        """
        _check_limit(limit)
        priority, seq = parse_context_cursor(after)
        phases = [(SUMMARY, seq), (REGULAR, None)] if priority == SUMMARY else [(REGULAR, seq)]
        with self._read() as conn:
            self._session(conn, session_id)
            rows: list[Any] = []
            for p, s in phases:
                want = None if limit is None else limit + 1 - len(rows)
                if want is not None and want <= 0:
                    break
                while True:  # more than one round only when summaries crowd an active-only page
                    q = context_query(session_id, p, after=s, limit=None if want is None else want - 1,
                                      include_compressed=include_compressed)
                    batch = list(conn.execute(q).mappings())
                    kept = [r for r in batch if r["priority"] == p]
                    rows.extend(kept if want is None else kept[:want])
                    if want is None or len(batch) < want or len(kept) >= want:
                        break
                    want -= len(kept)
                    s = batch[-1]["seq"]
            more = limit is not None and len(rows) > limit
            rows = rows[:limit] if limit is not None else rows
            items = _messages(conn, rows)
        nxt = f"{items[-1].priority}:{items[-1].seq}" if more and items else None
        return Page(tuple(items), next=nxt, prev=None)

    def full(self, session_id: str, after: int | None = None, before: int | None = None,
             limit: int | None = None) -> Page:
        """Every message (active, invalid, compressed) by seq; paged like `display`."""
        _check_limit(limit)
        backwards = before is not None and after is None and limit is not None
        with self._read() as conn:
            self._session(conn, session_id)
            rows = list(conn.execute(full_query(session_id, after=after, before=before, limit=limit,
                                                backwards=backwards)).mappings())
            more = limit is not None and len(rows) > limit
            rows = rows[:limit] if limit is not None else rows
            if backwards:
                rows.reverse()
            items = _messages(conn, rows)
            return _page(conn, session_id, items, more, after, before, backwards, active_only=False)

    def iter_messages(self, session_id: str, *, chunk: int = 1000) -> Iterator[Message]:
        """Every message of a session by seq, fetched `chunk` at a time (for exports)."""
        after: int | None = None
        while True:
            page = self.full(session_id, after=after, limit=chunk)
            yield from page.items
            if page.next is None:
                return
            after = page.next

    def messages_for_llm(self, session_id: str, *, include_compressed: bool = True) -> list[dict[str, Any]]:
        """The context in OpenAI chat form (no system prompt: compose that fresh per call)."""
        return self.context(session_id, include_compressed=include_compressed).to_openai()

    # -- compression, rollback, statistics (implemented in compression.py) -------------------

    def compress_range(self, session_id: str, first_seq: int, last_seq: int, summary_text: str,
                       strategy: str = "summary", **kwargs: Any) -> CompressionRecord:
        from .compression import compress_range

        return compress_range(self, session_id, first_seq, last_seq, summary_text, strategy, **kwargs)

    def invalidate(self, message_id: int) -> list[int]:
        from .compression import invalidate

        return invalidate(self, message_id)

    def rollback(self, session_id: str, seq: int) -> int:
        from .compression import rollback

        return rollback(self, session_id, seq)

    def stats(self, session_id: str) -> Stats:
        from .compression import stats

        return stats(self, session_id)

    def compression_records(self, session_id: str) -> list[CompressionRecord]:
        from .compression import records

        return records(self, session_id)

    # -- compaction nodes -------------------------------------------------------------------

    def add_compaction_node(self, session_id: str, type: str, summary: str,  # noqa: A002
                            children: Iterable[Any], display_hint: str | None = None) -> CompactionNode:
        """A node of a compaction tree: a summary over messages and/or other nodes.

        `children`: message ids (ints), ("message"|"node", id) pairs or {"message": id} /
        {"node": id} dicts, in display order.
        """
        if type not in NODE_TYPES:
            raise ValueError(f"unknown compaction node type {type!r} (one of {', '.join(NODE_TYPES)})")
        kids = [_child(c) for c in children]
        row = dict(session_id=session_id, type=type, summary=summary, display_hint=display_hint, children=kids,
                   created_at=_now())

        def insert(conn: Connection) -> int:
            self._session(conn, session_id)
            return int(conn.execute(compaction_nodes.insert().values(**row).returning(compaction_nodes.c.id))
                       .scalar_one())

        node_id = self._transact(insert)
        return CompactionNode(id=node_id, **row)  # type: ignore[arg-type]

    def compaction_nodes(self, session_id: str) -> list[CompactionNode]:
        q = sa.select(compaction_nodes).where(compaction_nodes.c.session_id == session_id) \
            .order_by(compaction_nodes.c.id)
        with self._read() as conn:
            return [CompactionNode(**r) for r in conn.execute(q).mappings()]

    # -- runs and turns ---------------------------------------------------------------------

    def start_run(self, mission: str, *, run_id: str | None = None, session_id: str | None = None,
                  meta: Mapping[str, Any] | None = None) -> str:
        """Register a run (status running); starting an existing run id again marks it running."""
        rid = run_id or _new_id()
        now = _now()

        def start(conn: Connection) -> None:
            exists = conn.execute(sa.select(runs.c.id).where(runs.c.id == rid).with_for_update()).first()
            if exists is None:
                conn.execute(runs.insert().values(id=rid, session_id=session_id, mission=mission, status="running",
                                                  meta=dict(meta) if meta is not None else None, outcome=None,
                                                  created_at=now, updated_at=now))
            else:
                values: dict[str, Any] = dict(status="running", updated_at=now, mission=mission)
                if meta is not None:
                    values["meta"] = dict(meta)
                conn.execute(runs.update().where(runs.c.id == rid).values(**values))

        self._transact(start)
        return rid

    def save_turn(self, run_id: str, turn_json: Mapping[str, Any]) -> None:
        """Store a turn's record (Turn.to_json()); saving the same number again replaces it."""
        number = int(turn_json["number"])
        record = dict(turn_json)

        def save(conn: Connection) -> None:
            if conn.execute(sa.select(runs.c.id).where(runs.c.id == run_id)).first() is None:
                raise NotFound(f"no run {run_id!r}")
            conn.execute(turns.delete().where(turns.c.run_id == run_id, turns.c.number == number))
            conn.execute(turns.insert().values(run_id=run_id, number=number, record=record,
                                               success=bool(record.get("success")), created_at=_now()))
            conn.execute(runs.update().where(runs.c.id == run_id).values(updated_at=_now()))

        self._transact(save)

    def finish_run(self, run_id: str, ok: bool | str, outcome: Mapping[str, Any] | None = None, *,
                   usage: Mapping[str, Any] | None = None) -> None:
        """Mark a run finished: `ok` True/False, or a status ("ok", "failed", "running").
        `usage` (a `Usage` as JSON; default `outcome["usage"]`) fills the run's usage columns."""
        if usage is None and outcome is not None:
            usage = outcome.get("usage")
        status = ok if isinstance(ok, str) else ("ok" if ok else "failed")
        if status not in RUN_STATUSES:
            raise ValueError(f"run status must be one of {', '.join(RUN_STATUSES)}")

        def finish(conn: Connection) -> None:
            done = conn.execute(runs.update().where(runs.c.id == run_id).values(
                status=status, outcome=dict(outcome) if outcome is not None else None, updated_at=_now(),
                **run_usage(usage)))
            if done.rowcount == 0:
                raise NotFound(f"no run {run_id!r}")

        self._transact(finish)

    def recorder(self, session_id: str | None = None, *, mode: str = "agent", title: str | None = None) -> Any:
        """The event handler that persists a run into `session_id` (see `ptc.store.recorder`):
        what `Agent(store=...)` asks its store for."""
        from .recorder import recorder

        return recorder(self, session_id, mode=mode, title=title)

    def load_run(self, run_id: str) -> RunRecord:
        """A run with its turns (JSON records, by number): enough to resume it."""
        with self._read() as conn:
            row = conn.execute(sa.select(runs).where(runs.c.id == run_id)).mappings().first()
            if row is None:
                raise NotFound(f"no run {run_id!r}")
            records = [r[0] for r in conn.execute(sa.select(turns.c.record).where(turns.c.run_id == run_id)
                                                  .order_by(turns.c.number))]
        return RunRecord(**row, turns=tuple(records))

    def list_runs(self, session_id: str | None = None, limit: int = 100) -> list[RunRecord]:
        q = sa.select(runs).order_by(runs.c.created_at.desc()).limit(limit)
        if session_id is not None:
            q = q.where(runs.c.session_id == session_id)
        with self._read() as conn:
            return [RunRecord(**r) for r in conn.execute(q).mappings()]

    # -- paused runs ----------------------------------------------------------------------

    def save_paused(self, paused: Any, key: str | None = None) -> str:
        """Keep a run paused at a tool call (a `ptc.PausedRun`) under `key` (default a new id;
        saving under a key again replaces the record); returns the key. Any process with the
        store can then `load_paused(key).resume(...)` it (docs/approvals.md)."""
        rid = key or _new_id()
        record = json.loads(paused.to_json())

        def save(conn: Connection) -> None:
            conn.execute(paused_runs.delete().where(paused_runs.c.id == rid))
            conn.execute(paused_runs.insert().values(id=rid, record=record, created_at=_now()))

        self._transact(save)
        return rid

    def load_paused(self, key: str) -> Any:
        """The `ptc.PausedRun` kept under `key` (NotFound when there is none)."""
        from ..interpreter.pause import PausedRun

        with self._read() as conn:
            record = conn.execute(sa.select(paused_runs.c.record).where(paused_runs.c.id == key)).scalar()
        if record is None:
            raise NotFound(f"no paused run {key!r}")
        return PausedRun.from_json(json.dumps(record))

    def delete_paused(self, key: str) -> bool:
        """Forget a paused run (once resumed); whether there was one."""
        def delete(conn: Connection) -> bool:
            return bool(conn.execute(paused_runs.delete().where(paused_runs.c.id == key)).rowcount)

        return self._transact(delete)

    # -- export ---------------------------------------------------------------------------

    def export_jsonl(self, session_id: str, fh: IO[Any], *, chunk: int = 1000) -> int:
        """Write a session as JSON lines; returns the number of lines.

        Lines carry a "kind": one "session", then every "message" by seq (all statuses, with
        blocks), then "compression" records, "compaction_node"s and "run"s (with their turns).
        """
        session = self.get_session(session_id)

        def write(record: dict[str, Any]) -> None:
            line = dumps(record) + "\n"
            try:
                fh.write(line)
            except TypeError:
                fh.write(line.encode("utf-8"))

        write({"kind": "session", **session.to_dict()})
        count = 1
        for message in self.iter_messages(session_id, chunk=chunk):
            write({"kind": "message", **message.to_dict()})
            count += 1
        for rec in self.compression_records(session_id):
            write({"kind": "compression", **rec.to_dict()})
            count += 1
        for node in self.compaction_nodes(session_id):
            write({"kind": "compaction_node", **node.to_dict()})
            count += 1
        for run in reversed(self.list_runs(session_id, limit=1_000_000)):
            write({"kind": "run", **self.load_run(run.id).to_dict()})
            count += 1
        return count


# -- helpers shared with compression.py ---------------------------------------------------


def _retryable(e: sa.exc.DBAPIError) -> bool:
    text = str(e.orig if e.orig is not None else e).lower()
    if isinstance(e, sa.exc.IntegrityError):
        return "uq_messages_session_seq" in text or "messages.session_id, messages.seq" in text
    if "database is locked" in text or "database is busy" in text or "database table is locked" in text:
        return True
    code = getattr(e.orig, "sqlstate", None) or getattr(e.orig, "pgcode", None)
    return code in ("40001", "40P01", "55P03")


def _page(conn: Connection, session_id: str, items: list[Message], more: bool, after: int | None,
          before: int | None, backwards: bool, *, active_only: bool) -> Page:
    """A page with its cursors: `more` says whether rows remain in the direction of travel."""
    if not items:
        return Page(())

    def exists(seq: int, later: bool) -> bool:
        return conn.execute(neighbour_query(session_id, seq, later=later, active_only=active_only)).first() is not None

    first, last = items[0].seq, items[-1].seq
    if backwards:
        prev = first if more else None
        nxt = last if exists(last, True) else None
    else:
        nxt = last if more or (before is not None and exists(last, True)) else None
        prev = first if after is not None and exists(first, False) else None
    return Page(tuple(items), next=nxt, prev=prev)


def _messages(conn: Connection, rows: Sequence[Any]) -> list[Message]:
    """Messages from rows of the messages table, with their blocks (one query for all)."""
    if not rows:
        return []
    blocks: dict[int, list[Block]] = {}
    ids = [r["id"] for r in rows]
    for i in range(0, len(ids), 900):  # stay under SQLite's bound-parameter limit
        for mid, kind, content, data in conn.execute(blocks_query(ids[i:i + 900])):
            blocks.setdefault(mid, []).append(Block(kind, content, data))
    return [_message(r, blocks.get(r["id"], ())) for r in rows]


def _message(row: Mapping[str, Any] | Row[Any], blocks: Iterable[Block]) -> Message:
    r = row if isinstance(row, Mapping) else row._mapping
    return Message(id=r["id"], session_id=r["session_id"], seq=r["seq"], role=r["role"], content=r["content"],
                   blocks=tuple(blocks), tool_calls=r["tool_calls"], tool_call_id=r["tool_call_id"],
                   mode=r["mode"], run_id=r["run_id"], turn=r["turn"], token_count=r["token_count"],
                   status=r["status"], priority=r["priority"], created_at=r["created_at"])


def _child(child: Any) -> dict[str, int]:
    if isinstance(child, bool):
        raise TypeError("a compaction child is a message id or a node reference")
    if isinstance(child, int):
        return {"message": child}
    if isinstance(child, Mapping) and len(child) == 1:
        (kind, ident), = child.items()
    elif isinstance(child, (tuple, list)) and len(child) == 2:
        kind, ident = child
    else:
        raise TypeError(f"bad compaction child {child!r}")
    if kind not in ("message", "node"):
        raise ValueError(f"a compaction child is a 'message' or a 'node', got {kind!r}")
    return {str(kind): int(ident)}


__all__ = ["Store", "StoreError", "NotFound", "InvalidRange", "display_query", "context_query", "full_query",
           "blocks_query", "neighbour_query", "parse_context_cursor", "INVALID", "COMPRESSED"]
