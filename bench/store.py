"""Message store throughput and page-fetch latency.

1. Append throughput: `Store.append` (one transaction per message) and `Store.append_many`
   (batches of 100), on a fresh store.
2. Page latency on a session of 1,000,000 messages (built with a bulk insert that bypasses
   the API: driver executemany on SQLite, COPY on PostgreSQL). Median and p95 of the public
   API calls, blocks and Message objects included: the first display page, a middle page
   via a forward cursor and via a backward cursor, the newest page, and the context's first
   page and a middle one. Target: under 10 ms.

The big session is realistic-ish: 10% compressed in its first part, one message in a
thousand invalid, ten summaries, one text block per message (every fifth also a code block).

    python bench/store.py                       # SQLite file in a temp folder
    python bench/store.py --messages 200000 --repeat 100
    python bench/store.py --url "$(.ci/postgres.sh)"
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ptc.store import Block, Store  # noqa: E402
from ptc.store.paths import normalize_url  # noqa: E402
from ptc.store.schema import sessions  # noqa: E402

SUMMARIES = 10


def open_store(url: str | None, tmp: Path, name: str) -> Store:
    if url:
        return Store(url)
    return Store(tmp / f"{name}.db")


@contextmanager
def scratch_url(url: str | None) -> Iterator[str | None]:
    """On PostgreSQL, a schema of our own (search_path), dropped afterwards: the bench leaves nothing."""
    if not url or not normalize_url(url).startswith("postgresql"):
        yield url
        return
    import sqlalchemy as sa

    base = normalize_url(url)
    schema = "ptc_bench_" + uuid.uuid4().hex[:8]
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    try:
        yield sa.engine.make_url(base).update_query_dict({"options": f"-csearch_path={schema}"}) \
            .render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


def bench_appends(store: Store, single: int, batches: int, batch_size: int) -> dict[str, float]:
    sid = store.create_session("append bench").id
    blocks = [Block("text", "Here is my program: it looks up the orders and sums them."),
              Block("code", "(def orders (tool/list-orders {}))\n(return (count orders))")]
    store.append(sid, "user", content="warm-up")  # token counter and connection pool warm
    t0 = time.perf_counter()
    for i in range(single):
        store.append(sid, "assistant", blocks, token_count=20, run_id="bench", turn=i)
    single_s = time.perf_counter() - t0
    items = [dict(role="assistant", blocks=blocks, token_count=20) for _ in range(batch_size)]
    t0 = time.perf_counter()
    for _ in range(batches):
        store.append_many(sid, items)
    batch_s = time.perf_counter() - t0
    return {"single_per_s": single / single_s, "single_ms": single_s / single * 1000,
            "batch_per_s": batches * batch_size / batch_s, "batch_ms": batch_s / batches * 1000}


def build_session(store: Store, n: int, chunk: int = 50_000) -> str:
    """A session of n messages inserted in bulk (ids assigned here; the store must be empty)."""
    sid = "big" + uuid.uuid4().hex[:9]
    now = time.time()
    regular = n - SUMMARIES
    compressed_until = regular // 10
    with store.engine.begin() as conn:
        conn.execute(sessions.insert().values(id=sid, title=f"{n:,} messages", mode="agent", token_count=0,
                                              created_at=now, updated_at=now, next_seq=n + 1))
        base = int(conn.exec_driver_sql("SELECT COALESCE(MAX(id), 0) FROM messages").scalar() or 0)
        block_base = int(conn.exec_driver_sql("SELECT COALESCE(MAX(id), 0) FROM message_blocks").scalar() or 0)

    def rows(start: int, stop: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        msg, blk = [], []
        for seq in range(start, stop):
            mid = base + seq
            summary = seq > regular
            status = 1 if seq % 1000 == 0 else 2 if seq <= compressed_until else 0
            role = "system" if summary else ("user" if seq % 2 else "assistant")
            text = f"SUMMARY of part {seq - regular}" if summary else f"message {seq}: some words about orders"
            msg.append((mid, sid, seq, role, text, None, None, "agent", None, None, 9, status,
                        1 if summary else 0, now))
            blk.append((block_base + 2 * seq, mid, 0, "text", text, None))
            if seq % 5 == 0:
                blk.append((block_base + 2 * seq + 1, mid, 1, "code", "(return 1)", None))
        return msg, blk

    msg_cols = ("id", "session_id", "seq", "role", "content", "tool_calls", "tool_call_id", "mode", "run_id", "turn",
                "token_count", "status", "priority", "created_at")
    blk_cols = ("id", "message_id", "position", "block_type", "content", "extension_data")
    raw = store.engine.raw_connection()
    try:
        cur = raw.cursor()
        if store.dialect == "sqlite":
            cur.execute("BEGIN")
        for start in range(1, n + 1, chunk):
            msg, blk = rows(start, min(n + 1, start + chunk))
            if store.dialect == "sqlite":
                cur.executemany(f"INSERT INTO messages ({', '.join(msg_cols)}) VALUES ({', '.join('?' * 14)})", msg)
                cur.executemany(f"INSERT INTO message_blocks ({', '.join(blk_cols)}) VALUES (?, ?, ?, ?, ?, ?)", blk)
            else:
                with cur.copy(f"COPY messages ({', '.join(msg_cols)}) FROM STDIN") as copy:
                    for r in msg:
                        copy.write_row(r)
                with cur.copy(f"COPY message_blocks ({', '.join(blk_cols)}) FROM STDIN") as copy:
                    for r in blk:
                        copy.write_row(r)
        if store.dialect == "sqlite":
            cur.execute("COMMIT")
        else:
            raw.commit()
            for table in ("messages", "message_blocks"):  # identity sequences past the explicit ids
                cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")
            cur.execute("ANALYZE messages")
            cur.execute("ANALYZE message_blocks")
            raw.commit()
    finally:
        raw.close()
    with store.engine.begin() as conn:
        total = conn.exec_driver_sql("SELECT SUM(token_count) FROM messages WHERE session_id = ? AND status = 0"
                                     if store.dialect == "sqlite" else
                                     "SELECT SUM(token_count) FROM messages WHERE session_id = %s AND status = 0",
                                     (sid,)).scalar()
        conn.execute(sessions.update().where(sessions.c.id == sid).values(token_count=int(total or 0)))
    return sid


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    fn()  # warm
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.95) - 1] * 1000, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="store URL (default: a SQLite file in a temp folder)")
    ap.add_argument("--messages", type=int, default=1_000_000, help="size of the big session")
    ap.add_argument("--single", type=int, default=2_000, help="single appends to time")
    ap.add_argument("--batches", type=int, default=200, help="append_many batches (of --batch-size) to time")
    ap.add_argument("--batch-size", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=200, help="fetches per measured query")
    ap.add_argument("--limit", type=int, default=50, help="page size")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="ptc-store-bench-") as tmp_name, scratch_url(args.url) as url:
        args.url = url
        tmp = Path(tmp_name)
        store = open_store(args.url, tmp, "appends")
        print(f"store: {store.safe_url.split('?')[0]} ({store.dialect})")
        a = bench_appends(store, args.single, args.batches, args.batch_size)
        print(f"append, 1 message per transaction : {a['single_per_s']:>9,.0f} messages/s "
              f"({a['single_ms']:.3f} ms each, {args.single:,} messages)")
        print(f"append_many, {args.batch_size} per transaction: {a['batch_per_s']:>9,.0f} messages/s "
              f"({a['batch_ms']:.2f} ms per batch, {args.batches * args.batch_size:,} messages)")
        store.close()

        store = open_store(args.url, tmp, "big")
        t0 = time.perf_counter()
        sid = build_session(store, args.messages)
        build_s = time.perf_counter() - t0
        size = ""
        if not args.url:
            size = f", {sum(f.stat().st_size for f in tmp.glob('big.db*')) / 1e6:,.0f} MB on disk"
        print(f"built a session of {args.messages:,} messages in {build_s:.1f} s (bulk insert{size})")
        store.close()
        store = open_store(args.url, tmp, "big")  # a fresh process-like start: cold statement caches

        n, limit = args.messages, args.limit
        middle = n // 2
        cases: list[tuple[str, Callable[[], Any]]] = [
            ("display: first page", lambda: store.display(sid, limit=limit)),
            (f"display: middle page (after={middle:,})", lambda: store.display(sid, after=middle, limit=limit)),
            (f"display: middle page (before={middle:,})", lambda: store.display(sid, before=middle, limit=limit)),
            ("display: newest page (last=True)", lambda: store.display(sid, last=True, limit=limit)),
            ("context: first page (summaries first)", lambda: store.context(sid, limit=limit)),
            (f"context: middle page (after='0:{middle:,}')",
             lambda: store.context(sid, after=f"0:{middle}", limit=limit)),
            ("context, active only: first page", lambda: store.context(sid, limit=limit, include_compressed=False)),
            ("full: middle page", lambda: store.full(sid, after=middle, limit=limit)),
        ]
        print(f"\npage of {limit} from {n:,} messages, {args.repeat} fetches each "
              f"(public API: messages + blocks + objects):")
        worst = 0.0
        for name, fn in cases:
            med, p95, page = timed(fn, args.repeat)
            worst = max(worst, med)
            assert len(page) == limit, (name, len(page))
            print(f"  {name:<44} median {med:6.2f} ms   p95 {p95:6.2f} ms")
        print(f"\nslowest median {worst:.2f} ms: {'under' if worst < 10 else 'OVER'} the 10 ms target")
        store.close()


if __name__ == "__main__":
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    main()
