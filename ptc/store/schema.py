"""Tables and indexes of the message store (SQLAlchemy Core; SQLite and PostgreSQL).

Status of a message: 0 active (shown, counted), 1 invalid (deleted; never shown, never in
context), 2 compressed (hidden from display; replaced by a summary, or rolled back).
Priority: 0 regular, 1 summary (written by a compression).

Indexes and the queries they serve (tests check the SQLite plans):

- ``uq_messages_session_seq (session_id, seq)``      the full log; seq allocation safety net
- ``ix_messages_active (session_id, seq) WHERE status = 0``  display pages in both cursor
  directions, the active-only context, rollback. Partial: it holds exactly the visible
  messages, so a page is one range read however many compressed or invalid messages come
  before it (a (session_id, status, seq) index lets PostgreSQL's planner prefer the unique
  index and filter, which reads every compressed row first). The queries spell the
  constant ``status = 0`` (not a bound parameter) so both planners can match the index.
- ``ix_messages_context (session_id, priority, seq, status)``  the AI context: summaries
  (priority 1) then regular messages, each in seq order, status filtered inside the index;
  also covers statistics by status
- ``ix_messages_tool_call (session_id, tool_call_id)`` partial (tool messages only): pairing a
  tool result with its call when validating a compression or invalidating a call
- ``uq_blocks_message_position (message_id, position)`` the blocks of a page of messages
"""

from __future__ import annotations

import sqlalchemy as sa

SCHEMA_VERSION = 2  # 2: runs gained the usage columns (ptc/store/migrations.py upgrades 1)

ACTIVE, INVALID, COMPRESSED = 0, 1, 2
REGULAR, SUMMARY = 0, 1
STATUS_NAMES = {ACTIVE: "active", INVALID: "invalid", COMPRESSED: "compressed"}

ROLES = ("system", "user", "assistant", "tool")
BLOCK_TYPES = ("text", "code", "tool_call", "tool_result", "error", "thinking", "llm_error")
RUN_STATUSES = ("running", "ok", "failed", "paused")
NODE_TYPES = ("tool_execution", "tool_loop", "broad")

# an INTEGER PRIMARY KEY is SQLite's rowid (fast, autoincrementing); BIGINT elsewhere
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON(none_as_null=True)
Time = sa.Double()  # seconds since the epoch

metadata = sa.MetaData()

meta = sa.Table(
    "ptc_meta", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

sessions = sa.Table(
    "sessions", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("title", sa.Text, nullable=False, default=""),
    sa.Column("mode", sa.String(32), nullable=True),
    sa.Column("token_count", sa.BigInteger, nullable=False, default=0),  # tokens of active messages
    sa.Column("created_at", Time, nullable=False),
    sa.Column("updated_at", Time, nullable=False),
    sa.Column("next_seq", sa.BigInteger, nullable=False, default=1),  # the seq the next append gets
)

messages = sa.Table(
    "messages", metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.String(64), sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seq", sa.BigInteger, nullable=False),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("content", sa.Text, nullable=True),
    sa.Column("tool_calls", Json, nullable=True),
    sa.Column("tool_call_id", sa.String(128), nullable=True),
    sa.Column("mode", sa.String(32), nullable=True),
    sa.Column("run_id", sa.String(64), nullable=True),
    sa.Column("turn", sa.Integer, nullable=True),
    sa.Column("token_count", sa.Integer, nullable=False, default=0),
    sa.Column("status", sa.SmallInteger, nullable=False, default=ACTIVE),
    sa.Column("priority", sa.SmallInteger, nullable=False, default=REGULAR),
    sa.Column("created_at", Time, nullable=False),
    sa.CheckConstraint("status IN (0, 1, 2)", name="ck_messages_status"),
    sa.CheckConstraint("priority IN (0, 1)", name="ck_messages_priority"),
    sa.CheckConstraint("role IN ('system', 'user', 'assistant', 'tool')", name="ck_messages_role"),
)
sa.Index("uq_messages_session_seq", messages.c.session_id, messages.c.seq, unique=True)
sa.Index("ix_messages_active", messages.c.session_id, messages.c.seq,
         sqlite_where=messages.c.status == sa.literal_column("0"),
         postgresql_where=messages.c.status == sa.literal_column("0"))
sa.Index("ix_messages_context", messages.c.session_id, messages.c.priority, messages.c.seq, messages.c.status)
sa.Index("ix_messages_tool_call", messages.c.session_id, messages.c.tool_call_id,
         sqlite_where=messages.c.tool_call_id.isnot(None), postgresql_where=messages.c.tool_call_id.isnot(None))

message_blocks = sa.Table(
    "message_blocks", metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("message_id", Id, sa.ForeignKey("messages.id", ondelete="CASCADE"), nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("block_type", sa.String(16), nullable=False),
    sa.Column("content", sa.Text, nullable=True),
    sa.Column("extension_data", Json, nullable=True),
)
sa.Index("uq_blocks_message_position", message_blocks.c.message_id, message_blocks.c.position, unique=True)

runs = sa.Table(
    "runs", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("session_id", sa.String(64), sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=True),
    sa.Column("mission", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, default="running"),
    sa.Column("meta", Json, nullable=True),  # max_turns, strategy, tools, data names...
    sa.Column("outcome", Json, nullable=True),  # run_finished data: ok, value, error, usage...
    sa.Column("created_at", Time, nullable=False),
    sa.Column("updated_at", Time, nullable=False),
    # the run's total usage (outcome["usage"]) as columns, for SQL over many runs; NULL until it finishes
    sa.Column("prompt_tokens", sa.BigInteger, nullable=True),
    sa.Column("completion_tokens", sa.BigInteger, nullable=True),
    sa.Column("cached_tokens", sa.BigInteger, nullable=True),  # of prompt_tokens, read from the provider's cache
    sa.Column("cache_write_tokens", sa.BigInteger, nullable=True),  # of prompt_tokens, written to it
    sa.Column("cost", sa.Double, nullable=True),  # USD, when the model's price is known
)
sa.Index("ix_runs_session", runs.c.session_id, runs.c.created_at)

RUN_USAGE_COLUMNS = ("prompt_tokens", "completion_tokens", "cached_tokens", "cache_write_tokens", "cost")

turns = sa.Table(
    "turns", metadata,
    sa.Column("run_id", sa.String(64), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("record", Json, nullable=False),  # Turn.to_json(), memory snapshot included
    sa.Column("success", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", Time, nullable=False),
)

# runs paused at a tool call (ptc.PausedRun.to_json()), by a key the host chose (an agent: its run id)
paused_runs = sa.Table(
    "paused_runs", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("record", Json, nullable=False),
    sa.Column("created_at", Time, nullable=False),
)

compression_records = sa.Table(
    "compression_records", metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.String(64), sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    sa.Column("strategy", sa.String(64), nullable=False),
    sa.Column("start_message_id", Id, nullable=True),
    sa.Column("end_message_id", Id, nullable=True),
    sa.Column("start_seq", sa.BigInteger, nullable=True),
    sa.Column("end_seq", sa.BigInteger, nullable=True),
    sa.Column("summary_message_id", Id, nullable=True),
    sa.Column("token_before", sa.BigInteger, nullable=False, default=0),
    sa.Column("token_after", sa.BigInteger, nullable=False, default=0),
    sa.Column("status", sa.SmallInteger, nullable=False, default=0),  # 0 applied, 1 failed, 2 rolled back
    sa.Column("created_at", Time, nullable=False),
    sa.Column("error", sa.Text, nullable=True),
)
sa.Index("ix_compression_session", compression_records.c.session_id, compression_records.c.status)

compaction_nodes = sa.Table(
    "compaction_nodes", metadata,
    sa.Column("id", Id, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.String(64), sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    sa.Column("type", sa.String(32), nullable=False),
    sa.Column("summary", sa.Text, nullable=False, default=""),
    sa.Column("display_hint", sa.Text, nullable=True),
    sa.Column("children", Json, nullable=False),  # [{"message": id} | {"node": id}, ...]
    sa.Column("created_at", Time, nullable=False),
)
sa.Index("ix_compaction_session", compaction_nodes.c.session_id, compaction_nodes.c.id)
