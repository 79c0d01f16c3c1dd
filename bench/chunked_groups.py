"""A group body per group over a chunked table (as Parquet gives it) against the same table
combined, and against pandas' idiomatic groupby, through the public API.

    python bench/chunked_groups.py [--rows 1000000] [--groups 10000]

The program is db-benchmark's shape "sum and max of v per id", written as a model writes it:
a map literal of folds in a fn over (group-by :id ...); a second body that is not a plan of
folds (`str` of a count) measures what a group costs when it runs group by group. The table is built once, then split
into 8 chunks as pyarrow's Parquet reader gives 1M rows. Best of 3 runs each; the ratios are
from this one run.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

PROGRAM = ("(count (map (fn [[k rows]] {:k k :s (reduce + (map :v rows)) :m (apply max (map :v rows))}) "
           "(group-by :id data/t)))")
# a body that is not a plan of folds (str): it runs group by group, over views of one table
PER_GROUP = "(count (map (fn [[k rows]] [k (str (count rows))]) (group-by :id data/t)))"


def best(fn: Callable[[], Any], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    import numpy as np
    import pyarrow as pa

    import ptc

    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=10_000)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    combined = pa.table({"id": rng.integers(0, args.groups, args.rows), "v": rng.random(args.rows)})
    chunked = pa.Table.from_batches(combined.to_batches(max_chunksize=max(1, args.rows // 8)))
    frame = combined.to_pandas()
    limits = ptc.Limits(timeout=600)
    ptc.run("1")
    t_combined = best(lambda: ptc.run(PROGRAM, data={"t": combined}, limits=limits))
    t_chunked = best(lambda: ptc.run(PROGRAM, data={"t": chunked}, limits=limits))
    t_pandas = best(lambda: frame.groupby("id")["v"].agg(["sum", "max"]))
    t_each = best(lambda: ptc.run(PER_GROUP, data={"t": combined}, limits=limits))
    print(f"{args.rows:,} rows, {args.groups:,} groups, chunks: {chunked.column(0).num_chunks}")
    print(f"ptc combined {t_combined:.3f} s, ptc chunked {t_chunked:.3f} s, pandas {t_pandas:.4f} s")
    print(f"chunked / combined: {t_chunked / t_combined:.2f}x; combined / pandas: {t_combined / t_pandas:.0f}x; "
          f"per group: {t_combined / args.groups * 1e6:.0f} us")
    print(f"a body that is not a plan, group by group: {t_each:.3f} s, {t_each / args.groups * 1e6:.1f} us a group "
          "(target <= 20 us)")


if __name__ == "__main__":
    main()
