"""Tables as users meet them (issue 19): files opened with `ptc.table`, programs run with `ptc.run`.

1. Open: a 10,000,000-row Parquet orders file (8 columns, written first) is opened with
   `ptc.table(path)` and `(count data/orders)` runs over it. Printed: the open time, the run
   time after the open (target < 10 ms), and the process's peak resident memory growth against
   the Arrow table's size (target <= 1.5x: no per-row Python objects). Measured in a fresh
   subprocess so the peak is this job's alone.
2. Row path: programs that walk rows one at a time over a 1,000,000-row table, against the same
   rows passed as plain dicts (made outside the timing, as a user holding them would): the ratio
   table / dicts (target <= 1.0x). Best of N, interleaved.

    python bench/data.py [--rows 10000000] [--row-path-rows 1000000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import ptc

LIMITS = ptc.Limits(timeout=600, max_steps=10**11, max_collection=10**8, max_memory=10**12, max_result=10**9)

ROW_PROGRAMS = {
    "filter+map+sum": '(->> data/orders (filter #(= "paid" (:status %))) (map :amount) (reduce +))',
    "reduce fn over rows": "(reduce (fn [acc r] (+ acc (* (:qty r) (:amount r)))) 0 data/orders)",
    "count with and": '(count (filter #(and (= "north" (:region %)) (> (:qty %) 4)) data/orders))',
    "group-by + count": "(update-vals (group-by :region data/orders) count)",
    "first 10 matching": '(into [] (take 10 (filter #(> (:amount %) 490) data/orders)))',
}


def write_orders(path: Path, n: int) -> None:
    """An orders table of n rows, 8 columns (ints, floats, strings, a date, a boolean)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(42)
    chunk = 1_000_000
    writer = None
    for lo in range(0, n, chunk):
        m = min(chunk, n - lo)
        t = pa.table({
            "id": np.arange(lo, lo + m, dtype=np.int64),
            "customer": pa.array([f"c{i % 5000}" for i in range(lo, lo + m)]),
            "status": pa.array(np.array(["paid", "pending", "refunded"])[rng.integers(0, 3, m)]),
            "region": pa.array(np.array(["north", "south", "east", "west"])[rng.integers(0, 4, m)]),
            "amount": np.round(rng.random(m) * 500, 2),
            "qty": rng.integers(1, 10, m),
            "day": pa.array(np.datetime64("2026-01-01") + rng.integers(0, 365, m).astype("timedelta64[D]")),
            "gift": rng.random(m) < 0.1,
        })
        if writer is None:
            writer = pq.ParquetWriter(path, t.schema)
        writer.write_table(t)
    assert writer is not None
    writer.close()


_OPEN_CHILD = """
import json, resource, sys, time
import ptc
import pyarrow  # loaded before the baseline: its code is not the table
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
t0 = time.perf_counter()
table = ptc.table(sys.argv[1])
t1 = time.perf_counter()
ptc.run("(count data/orders)", data={"orders": table})  # first run: library load, compile
runs = []
for _ in range(5):
    s = time.perf_counter()
    n = ptc.run("(count data/orders)", data={"orders": table}).value
    runs.append(time.perf_counter() - s)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"rows": n, "open_s": t1 - t0, "count_s": min(runs), "arrow_bytes": table.nbytes,
                  "rss_growth": peak - base}))
"""


def open_and_count(path: Path) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", _OPEN_CHILD, str(path)], capture_output=True, text=True,
                         check=True, env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def row_path(path: Path, rows: int, repeat: int) -> dict[str, dict[str, float]]:
    import pyarrow.parquet as pq

    table = pq.read_table(path).slice(0, rows)
    small = path.with_name("orders-rows.parquet")
    pq.write_table(table, small)
    arrow = ptc.table(small)
    dicts = arrow.to_pylist() if hasattr(arrow, "to_pylist") else list(arrow)
    out: dict[str, dict[str, float]] = {}
    for name, src in ROW_PROGRAMS.items():
        assert ptc.pr_str(ptc.run(src, data={"orders": arrow}, limits=LIMITS).value) == \
            ptc.pr_str(ptc.run(src, data={"orders": dicts}, limits=LIMITS).value), name
        best = {"table": float("inf"), "dicts": float("inf")}
        for _ in range(repeat):
            for kind, data in (("table", arrow), ("dicts", dicts)):
                s = time.perf_counter()
                ptc.run(src, data={"orders": data}, limits=LIMITS)
                best[kind] = min(best[kind], time.perf_counter() - s)
        out[name] = {**best, "ratio": best["table"] / best["dicts"]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--row-path-rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "orders.parquet"
        write_orders(path, args.rows)
        opened = open_and_count(path)
        rows = row_path(path, min(args.row_path_rows, args.rows), args.repeat)
    if args.json:
        print(json.dumps({"open": opened, "row_path": rows}, indent=2))
        return
    mb = opened["arrow_bytes"] / 1e6
    print(f"open {args.rows:,}-row Parquet with ptc.table: {opened['open_s'] * 1000:.0f} ms "
          f"(Arrow table {mb:.0f} MB)")
    print(f"(count data/orders) after the open: {opened['count_s'] * 1000:.2f} ms (target < 10 ms)")
    print(f"peak RSS growth: {opened['rss_growth'] / 1e6:.0f} MB = "
          f"{opened['rss_growth'] / opened['arrow_bytes']:.2f}x the Arrow table (target <= 1.5x)")
    print(f"\nrow path over {min(args.row_path_rows, args.rows):,} rows: table vs the same rows as dicts")
    for name, r in rows.items():
        print(f"  {name:22} table {r['table'] * 1000:8.1f} ms  dicts {r['dicts'] * 1000:8.1f} ms  "
              f"{r['ratio']:5.2f}x (target <= 1.0x)")


if __name__ == "__main__":
    main()
