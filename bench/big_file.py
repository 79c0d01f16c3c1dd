"""A group-by over a Parquet file larger than `max_memory`: db-benchmark's G1 data at 50M rows
(about 3 GB decompressed) grouped under `Limits(max_memory=1 GB)`, through the public API as a
user meets it (`ptc.table(path)` then `ptc.run`), against DuckDB's own SQL on the same file.

    python bench/big_file.py [--rows 50000000] [--dir /tmp] [--keep]

The file is written once (groupby-datagen.R's columns, as bench/h2o.py makes them, in 1M-row
row groups) and removed at the end unless --keep. `ptc.table` does not read it (it decompresses
to more than LoadLimits.scan_bytes, set to 256 MB here, or half the file): the plan's folds run on DuckDB, which reads the file a row
group at a time and spills its hash table to disk within 4 x max_memory. Printed per question:
ptc's time, DuckDB's (its own SQL on the file, no memory limit), the ratio, the growth of
the process's resident memory during ptc's run (its peak, sampled every 20 ms),
and whether the answers agree (group count and the sum of each aggregate, to the bit for
integers and within 1e-9 relative for float sums).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

QUESTIONS = {
    "q1 sum v1 by id1 (100 groups)": (
        "(for [[k g] (group-by :id1 data/x)] {:id1 k :v1 (reduce + (map :v1 g))})",
        "SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1"),
    "q3 sum v1, mean v3 by id3 (500,000 groups)": (
        "(for [[k g] (group-by :id3 data/x)] {:id3 k :v1 (reduce + (map :v1 g)) "
        ":v3 (/ (reduce + (map :v3 g)) (count g))})",
        "SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3"),
    "q10 sum v3, count by six keys (one group a row)": (
        "(count (for [[[a b c d e f] g] (group-by (juxt :id1 :id2 :id3 :id4 :id5 :id6) data/x)] "
        "{:id1 a :v3 (reduce + (map :v3 g)) :n (count g)}))",
        "SELECT count(*) FROM (SELECT id1, sum(v3), count(*) FROM x GROUP BY id1, id2, id3, id4, id5, id6)"),
}


def write_file(path: Path, rows: int, chunk: int = 1_000_000) -> None:
    import pyarrow.parquet as pq

    from h2o import make_data

    writer = None
    try:
        for i, start in enumerate(range(0, rows, chunk)):
            t = make_data(min(chunk, rows - start), seed=108 + i)
            if rows > chunk:  # id3 and id6 range over N/K values of the whole file, not of a chunk
                import numpy as np
                import pyarrow as pa

                rng = np.random.default_rng(7 + i)
                nk = rows // 100
                t = t.set_column(2, "id3", pa.array([f"id{j:010d}" for j in rng.integers(1, nk + 1, len(t))]))
                t = t.set_column(5, "id6", pa.array(rng.integers(1, nk + 1, len(t))))
            writer = writer or pq.ParquetWriter(path, t.schema)
            writer.write_table(t)
    finally:
        if writer is not None:
            writer.close()


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


class PeakRSS:
    """The largest resident memory of this process while the block runs (sampled every 20 ms)."""

    def __enter__(self) -> "PeakRSS":
        import threading

        self.base = self.peak = rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss())

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss())

    @property
    def growth(self) -> int:
        return self.peak - self.base


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=float, default=5e7)
    ap.add_argument("--dir", default=tempfile.gettempdir())
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--memory", type=float, default=1 << 30, help="max_memory in bytes (default 1 GiB)")
    args = ap.parse_args()
    rows = int(args.rows)

    import duckdb
    import pyarrow.parquet as pq

    import ptc

    path = Path(args.dir) / f"ptc-g1-{rows}.parquet"
    if not path.exists():
        t0 = time.perf_counter()
        write_file(path, rows)
        print(f"wrote {path} ({path.stat().st_size / 1e9:.2f} GB, {time.perf_counter() - t0:.0f} s)")
    meta = pq.ParquetFile(path).metadata
    decompressed = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    print(f"{meta.num_rows:,} rows, {decompressed / 1e9:.2f} GB decompressed; max_memory {args.memory / 1e9:.2f} GB")
    limits = ptc.Limits(max_memory=int(args.memory), timeout=1800, max_collection=10**9, max_result=10**10)
    con = duckdb.connect()
    con.execute(f"CREATE VIEW x AS SELECT * FROM read_parquet('{path}')")
    print(f"{'question':52} {'ptc s':>8} {'duckdb s':>9} {'ratio':>7} {'rss growth':>11}  answer")
    try:
        for name, (src, sql) in QUESTIONS.items():
            x = ptc.table(path, limits=ptc.LoadLimits(scan_bytes=min(256 << 20, decompressed // 2)))
            assert getattr(x, "unread", None) is not None, "the file was read, not scanned"
            t0 = time.perf_counter()
            with PeakRSS() as mem:
                try:
                    r: Any = ptc.run(src, data={"x": x}, limits=limits)
                    value = r.value
                    err = None
                except ptc.PTCError as e:
                    value, err = None, f"{e.kind}: {e.message}"
            took = time.perf_counter() - t0
            grew = mem.growth
            t0 = time.perf_counter()
            want = con.sql(sql).fetchall()
            duck = time.perf_counter() - t0
            answer = err or _agrees(value, want)
            print(f"{name:52} {took:8.2f} {duck:9.2f} {took / duck:6.2f}x {grew / 1e9:9.2f} GB  {answer}")
    finally:
        if not args.keep:
            os.unlink(path)
    return 0


def _agrees(value: Any, want: list[tuple[Any, ...]]) -> str:
    import ptc

    if isinstance(value, int):  # a count
        return "right" if value == want[0][0] else f"WRONG ({value} != {want[0][0]})"
    got = ptc.to_python(value)
    if len(got) != len(want):
        return f"WRONG ({len(got)} groups, DuckDB {len(want)})"
    cols = list(got[0])[1:]
    for i, c in enumerate(cols, start=1):
        a, b = sum(row[c] for row in got), sum(w[i] for w in want)
        if isinstance(a, int) and a != b or abs(a - b) > 1e-9 * max(1.0, abs(b)):
            return f"WRONG ({c}: {a} != {b})"
    return "right"


if __name__ == "__main__":
    raise SystemExit(main())
