"""The display, context and pagination queries use the indexes (SQLite EXPLAIN QUERY PLAN)."""

from __future__ import annotations

from typing import Iterator

import pytest

from ptc.store import Store

from .conftest import PG_URL
from ptc.store.store import blocks_query, context_query, display_query, full_query, neighbour_query

SID = "s1"

QUERIES = {
    "display first page": display_query(SID, limit=50),
    "display after cursor": display_query(SID, after=500, limit=50),
    "display before cursor": display_query(SID, before=500, limit=50, backwards=True),
    "display last page": display_query(SID, limit=50, backwards=True),
    "display between": display_query(SID, after=10, before=90, limit=50),
    "context summaries": context_query(SID, 1, limit=50),
    "context regular after cursor": context_query(SID, 0, after=500, limit=50),
    "context whole": context_query(SID, 0),
    "context active only": context_query(SID, 0, after=500, limit=50, include_compressed=False),
    "full after cursor": full_query(SID, after=500, limit=50),
    "full before cursor": full_query(SID, before=500, limit=50, backwards=True),
    "context active only, summaries": context_query(SID, 1, limit=50, include_compressed=False),
    "blocks of a page": blocks_query(list(range(1, 51))),
    "is there a previous page": neighbour_query(SID, 500, later=False),
    "is there a next page": neighbour_query(SID, 500, later=True),
    "is there a previous message (full)": neighbour_query(SID, 500, later=False, active_only=False),
}


def assert_indexed(plan: list[str]) -> None:
    text = " | ".join(plan)
    assert plan, "no plan"
    for line in plan:
        assert not line.startswith("SCAN"), f"full scan: {text}"
        assert "TEMP B-TREE" not in line, f"sort without an index: {text}"
    assert "USING INDEX" in text or "USING COVERING INDEX" in text, text


def populate(store: Store) -> None:
    """Several sessions, mixed statuses and summaries; then ANALYZE so the planner has statistics."""
    for n in range(4):
        sid = SID if n == 0 else f"other{n}"
        store.create_session(f"s{n}", id=sid)
        msgs = store.append_many(sid, [dict(role="user" if i % 2 else "assistant", content=f"m{i}", token_count=3)
                                       for i in range(1500)])
        store.compress_range(sid, 10, 40, "summary")
        store.invalidate(msgs[100].id)
        store.rollback(sid, 1400)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")


@pytest.fixture(scope="module")
def populated(tmp_path_factory) -> Iterator[Store]:
    store = Store(tmp_path_factory.mktemp("plans") / "populated.db")
    populate(store)
    yield store
    store.close()


@pytest.mark.parametrize("name", list(QUERIES))
def test_query_uses_an_index_on_an_empty_store(sqlite_store: Store, name: str) -> None:
    assert_indexed(sqlite_store.explain(QUERIES[name]))


@pytest.mark.parametrize("name", list(QUERIES))
def test_query_uses_an_index_after_analyze(populated: Store, name: str) -> None:
    assert_indexed(populated.explain(QUERIES[name]))


def test_named_indexes_serve_the_main_views(populated: Store) -> None:
    assert "ix_messages_active" in " ".join(populated.explain(QUERIES["display after cursor"]))
    assert "ix_messages_context" in " ".join(populated.explain(QUERIES["context regular after cursor"]))
    assert "ix_messages_active" in " ".join(populated.explain(QUERIES["context active only"]))
    assert "ix_messages_context" in " ".join(populated.explain(QUERIES["context active only, summaries"]))
    assert "ix_messages_active" in " ".join(populated.explain(QUERIES["is there a previous page"]))
    assert "uq_messages_session_seq" in " ".join(populated.explain(QUERIES["full after cursor"]))
    assert "uq_blocks_message_position" in " ".join(populated.explain(QUERIES["blocks of a page"]))


def test_sqlite_pragmas(tmp_path) -> None:
    with Store(tmp_path / "p.db") as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000


@pytest.mark.skipif(not PG_URL, reason="PTC_TEST_POSTGRES_URL not set")
def test_postgres_plans_use_the_indexes(make_url) -> None:
    """20,000 messages, the oldest 2,000 compressed (as compression leaves them), ANALYZEd."""
    with Store(make_url("postgres")) as store:
        store.create_session("big", id=SID)
        for _ in range(20):
            store.append_many(SID, [dict(role="user", content="m", token_count=1) for _ in range(1000)])
        store.rollback(SID, 18_000)
        store.append(SID, "user", content="after")
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE messages SET status = 2 WHERE seq <= 2000")
            conn.exec_driver_sql("ANALYZE messages")
            conn.exec_driver_sql("ANALYZE message_blocks")

        def plan(stmt) -> str:
            sql = str(stmt.compile(dialect=store.engine.dialect, compile_kwargs={"literal_binds": True}))
            with store.engine.connect() as conn:
                return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql.replace("%", "%%")))

        for name, stmt in QUERIES.items():
            text = plan(stmt)
            assert "Seq Scan on messages" not in text and "Seq Scan on message_blocks" not in text, (name, text)
            assert "Index" in text, (name, text)
        for name in ("display first page", "display after cursor", "display before cursor", "context active only"):
            assert "ix_messages_active" in plan(QUERIES[name]), name
