"""Reading data files into tables: each format through `ptc.table`, in one run, files written first.

    python bench/data_files.py [rows]        # default 1,000,000 rows of 8 columns

Before this path existed, `--data` took only a JSON object, so a table had to be turned into
a JSON list of row objects first; that is the baseline (`json.load`). For each format: the
seconds to read the file into the value `data=` takes, the memory that value holds (Arrow
buffers for a pyarrow Table, Python objects for a list of dicts, by tracemalloc) and the
seconds of `(count data/orders)` plus one aggregation over it.
"""

from __future__ import annotations

import csv
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

import ptc
from ptc.data import files

REGIONS = ("north", "south", "east", "west")
STATUSES = ("paid", "delivered", "pending", "refunded")


def rows(n: int) -> list[dict[str, Any]]:
    return [{"id": i, "customer": f"customer {i % 5000}", "product_id": i % 60, "quantity": 1 + i % 5,
             "unit_price": round(5 + (i * 37) % 400 + 0.99, 2), "status": STATUSES[i % 4],
             "region": REGIONS[(i * 7) % 4], "date": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}"} for i in range(n)]


def write_files(directory: Path, data: list[dict[str, Any]]) -> dict[str, Path]:
    out = {name: directory / name for name in ("orders.json", "orders.csv", "orders.jsonl", "orders.parquet")}
    out["orders.json"].write_text(json.dumps(data))
    with out["orders.csv"].open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(data[0]))
        writer.writeheader()
        writer.writerows(data)
    out["orders.jsonl"].write_text("".join(json.dumps(r) + "\n" for r in data))
    ptc.write_table(data, out["orders.parquet"])
    return out


def measure(read: Callable[[], Any]) -> tuple[float, int, Any]:
    """(seconds to read, bytes the value holds, the value): timed without tracing, then read again
    under tracemalloc for a list of dicts (a pyarrow Table's buffers are its nbytes)."""
    import pyarrow as pa

    start = time.perf_counter()
    value = read()
    seconds = time.perf_counter() - start
    if isinstance(value, pa.Table):
        return seconds, value.nbytes, value
    tracemalloc.start()
    again = read()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del again
    return seconds, held, value


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    limits = ptc.Limits(timeout=600)  # a row-by-row filter over a million rows is not a 2-second program
    program = '[(count data/orders) (count (filter #(= "refunded" (:status %)) data/orders))]'
    ptc.run(program, data={"orders": [{"status": "paid"}]})  # compile both programs before timing
    ptc.run("(count data/orders)", data={"orders": []})
    with tempfile.TemporaryDirectory() as d:
        paths = write_files(Path(d), rows(n))
        cases: list[tuple[str, Callable[[], Any]]] = [
            ("JSON list of rows, json.load (before)", lambda: json.loads(paths["orders.json"].read_text())),
            ("CSV, pyarrow", lambda: ptc.table(paths["orders.csv"])),
            ("CSV, stdlib (no pyarrow)", lambda: files._read_csv_stdlib(paths["orders.csv"], ",")),
            ("JSONL", lambda: ptc.table(paths["orders.jsonl"])),
            ("Parquet", lambda: ptc.table(paths["orders.parquet"])),
        ]
        print(f"{n:,} rows x 8 columns; file sizes: " +
              ", ".join(f"{p.suffix} {p.stat().st_size / 1e6:.0f} MB" for p in paths.values()))
        print(f"{'source':40} {'read s':>8} {'held MB':>8} {'count+filter s':>15} {'count s':>8}")
        for name, read in cases:
            seconds, held, value = measure(read)
            start = time.perf_counter()
            ptc.run("(count data/orders)", data={"orders": value}, limits=limits)
            count_s = time.perf_counter() - start
            start = time.perf_counter()
            result = ptc.to_python(ptc.run(program, data={"orders": value}, limits=limits).value)
            run_s = time.perf_counter() - start
            assert result[0] == n, result
            print(f"{name:40} {seconds:8.2f} {held / 1e6:8.0f} {run_s:15.2f} {count_s:8.4f}")
            del value


if __name__ == "__main__":
    main()
