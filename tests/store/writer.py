"""A child process for the reliability tests: appends to a session in a loop.

    python writer.py URL SESSION_ID TAG [COUNT] [HANG_AT]

Alternates single appends and batches of three, each message with a text and a code
block; after every commit prints "committed <last seq>" (flushed). Without COUNT (or with
0) it runs until killed. With HANG_AT, iteration HANG_AT inserts a batch, prints "inside"
and sleeps *inside the transaction*, so the parent can kill it mid-write.
"""

from __future__ import annotations

import sys
import time

from ptc.store import Block, Store
from ptc.store.writes import _insert, _spec


def main() -> None:
    url, sid, tag = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 and int(sys.argv[4]) > 0 else None
    hang_at = int(sys.argv[5]) if len(sys.argv) > 5 else None
    store = Store(url)
    i = 0
    while count is None or i < count:
        if i == hang_at:
            specs = [_spec("user", [Block("text", f"{tag}-uncommitted"), Block("code", "(never)")], None, None,
                           None, None, None, None, 0, 0) for _ in range(5)]

            def hang(conn):  # type: ignore[no-untyped-def]
                _insert(conn, sid, specs)
                print("inside", flush=True)
                time.sleep(60)

            store._transact(hang)
        if i % 2 == 0:
            last = store.append(sid, "user", [Block("text", f"{tag}-{i}"), Block("code", f"(step {i})")]).seq
        else:
            batch = [dict(role="assistant", blocks=[Block("text", f"{tag}-{i}.{k}"), Block("code", "(batch)")])
                     for k in range(3)]
            last = store.append_many(sid, batch)[-1].seq
        print(f"committed {last}", flush=True)
        i += 1
    store.close()


if __name__ == "__main__":
    main()
