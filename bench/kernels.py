"""Columnar kernels vs pandas, Polars, DuckDB and ptc's own row path, on a 1M-row orders table.

    python bench/kernels.py [--rows 1000000] [--big 10000000] [--big-only]

Writes a Parquet orders table (10 columns) to a temporary directory first, reads it once into
Arrow, pandas, Polars and DuckDB, then times each pipeline shape through the public API
(`ptc.run(src, data={"orders": table})`) next to the idiomatic code of each engine on the data
already loaded. The row path is the same program with kernels switched off (dispatch.rows_only).
Each figure is the best of 5 runs (the row path: 1); ratios are measured in this one run. With --big N it also
measures, in a fresh subprocess, the peak RSS of a group-by + sum over an N-row file against
the size of its Arrow table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

SHAPES: dict[str, str] = {
    "filter + sum": '(->> data/orders (filter #(and (= (:status %) "paid") (> (:amount %) 100.0))) (sum-by :amount))',
    "group-by + sum": "(update-vals (group-by :region data/orders) #(sum-by :amount %))",
    "frequencies": "(frequencies (map :status data/orders))",
    "top-10 sort-by": "(mapv :id (take 10 (sort-by :amount > data/orders)))",
    "distinct count": "(count (distinct (map :customer data/orders)))",
    "lookup join": ('(let [tier (zipmap (map :customer data/customers) (map :tier data/customers))] '
                    '(frequencies (map #(tier (:customer %)) (filter #(> (:qty %) 8) data/orders))))'),
    "monthly revenue": "(update-vals (group-by :month data/orders) #(reduce + (map :amount %)))",
}


def write_orders(path: Path, n: int) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(7)
    days = rng.integers(0, 365, n)
    base = np.datetime64("2024-01-01")
    dates = (base + days.astype("timedelta64[D]")).astype("datetime64[D]")
    months = np.datetime_as_string(dates.astype("datetime64[M]"))
    table = pa.table({
        "id": np.arange(n, dtype=np.int64),
        "customer": rng.integers(0, 50_000, n),
        "region": pa.array(np.array(["north", "south", "east", "west", "central"])[rng.integers(0, 5, n)]),
        "status": pa.array(np.array(["paid", "open", "void", "refunded"])[rng.choice(4, n, p=[.6, .25, .1, .05])]),
        "amount": np.round(rng.gamma(2.0, 60.0, n), 2),
        "qty": rng.integers(1, 10, n),
        "discount": rng.random(n) / 5,
        "date": pa.array(dates),
        "month": pa.array(months),
        "channel": pa.array(np.array(["web", "store", "phone"])[rng.integers(0, 3, n)]),
    })
    pq.write_table(table, path)


def customers_table() -> Any:
    import numpy as np
    import pyarrow as pa

    ids = np.arange(50_000)
    return pa.table({"customer": ids, "tier": pa.array(np.array(["gold", "silver", "bronze"])[ids % 3])})


def best(fn: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def peers(orders: Any, customers: Any) -> dict[str, dict[str, Callable[[], Any]]]:
    import duckdb
    import pandas as pd
    import polars as pl

    df = orders.to_pandas()
    cdf = customers.to_pandas()
    pf = pl.from_arrow(orders)
    cpf = pl.from_arrow(customers)
    con = duckdb.connect()
    con.register("orders", orders)
    con.register("customers", customers)
    tier = pd.Series(cdf.tier.values, index=cdf.customer)

    def sql(q: str) -> Callable[[], Any]:
        return lambda: con.execute(q).fetchall()

    return {
        "filter + sum": {
            "pandas": lambda: df.amount[(df.status == "paid") & (df.amount > 100.0)].sum(),
            "polars": lambda: pf.filter((pl.col("status") == "paid") & (pl.col("amount") > 100.0))["amount"].sum(),
            "duckdb": sql("select sum(amount) from orders where status = 'paid' and amount > 100.0")},
        "group-by + sum": {
            "pandas": lambda: df.groupby("region", sort=False).amount.sum().to_dict(),
            "polars": lambda: pf.group_by("region", maintain_order=True).agg(pl.col("amount").sum()),
            "duckdb": sql("select region, sum(amount) from orders group by region")},
        "frequencies": {
            "pandas": lambda: df.status.value_counts(sort=False).to_dict(),
            "polars": lambda: pf["status"].value_counts(),
            "duckdb": sql("select status, count(*) from orders group by status")},
        "top-10 sort-by": {
            "pandas": lambda: df.nlargest(10, "amount", keep="first").id.tolist(),
            "polars": lambda: pf.top_k(10, by="amount")["id"].to_list(),
            "duckdb": sql("select id from orders order by amount desc limit 10")},
        "distinct count": {
            "pandas": lambda: df.customer.nunique(),
            "polars": lambda: pf["customer"].n_unique(),
            "duckdb": sql("select count(distinct customer) from orders")},
        "lookup join": {
            "pandas": lambda: df.customer[df.qty > 8].map(tier).value_counts(sort=False).to_dict(),
            "polars": lambda: pf.filter(pl.col("qty") > 8).join(cpf, on="customer")["tier"].value_counts(),
            "duckdb": sql("select tier, count(*) from orders join customers using (customer) where qty > 8 group by tier")},
        "monthly revenue": {
            "pandas": lambda: df.groupby("month", sort=False).amount.sum().to_dict(),
            "polars": lambda: pf.group_by("month", maintain_order=True).agg(pl.col("amount").sum()),
            "duckdb": sql("select month, sum(amount) from orders group by month")},
    }


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def big_group_by(path: str) -> None:
    """In a fresh process: open the file, then group-by + sum. Prints the peak RSS of the whole
    process (reading Parquet included) and of the run alone (Linux: the peak is reset after the
    read through /proc/self/clear_refs), next to the Arrow table's size."""
    import pyarrow.parquet as pq

    import ptc

    table = pq.read_table(path)
    after_read = _status_kb("VmRSS")
    read_peak = _status_kb("VmHWM")
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # reset VmHWM to the current RSS
    r = ptc.run(SHAPES["group-by + sum"], data={"orders": table},
                limits=ptc.Limits(timeout=600, max_collection=10 ** 9))
    print(json.dumps({"read_peak": read_peak, "after_read": after_read, "run_peak": _status_kb("VmHWM"),
                      "arrow_bytes": table.nbytes, "groups": len(r.value)}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--big", type=int, default=0)
    ap.add_argument("--child", default="")
    ap.add_argument("--big-only", action="store_true", help="only the --big measurement")
    a = ap.parse_args()
    if a.child:
        big_group_by(a.child)
        return
    import pyarrow.parquet as pq

    import ptc
    from ptc.interpreter.columnar.dispatch import rows_only

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "orders.parquet"
        write_orders(path, a.rows)
        orders = pq.read_table(path)
        customers = customers_table()
        data = {"orders": orders, "customers": customers}
        limits = ptc.Limits(timeout=600, max_collection=10 * a.rows)
        engines = {} if a.big_only else peers(orders, customers)
        if not a.big_only:
            print(f"{a.rows:,} rows, {orders.num_columns} columns, {orders.nbytes / 1e6:.0f} MB as Arrow")
            print(f"{'shape':<16} {'ptc':>9} {'pandas':>9} {'polars':>9} {'duckdb':>9} {'rows':>9} {'ptc/pandas':>11}")
        for name, src in ({} if a.big_only else SHAPES).items():
            kernel = ptc.run(src, data=data, limits=limits).value
            with rows_only():
                assert ptc.pr_str(ptc.run(src, data=data, limits=limits).value) == ptc.pr_str(kernel), name
            t_ptc = best(lambda: ptc.run(src, data=data, limits=limits))
            with rows_only():
                t_rows = best(lambda: ptc.run(src, data=data, limits=limits), 1)
            t = {k: best(f) for k, f in engines[name].items()}
            print(f"{name:<16} {t_ptc * 1e3:8.1f}ms {t['pandas'] * 1e3:8.1f}ms {t['polars'] * 1e3:8.1f}ms "
                  f"{t['duckdb'] * 1e3:8.1f}ms {t_rows * 1e3:8.0f}ms {t_ptc / t['pandas']:10.2f}x")
        if a.big:
            big = Path(tmp) / "big.parquet"
            write_orders(big, a.big)
            out = subprocess.run([sys.executable, __file__, "--child", str(big)], capture_output=True, text=True,
                                 check=True)
            m = json.loads(out.stdout)
            mb, size = 1e6, m["arrow_bytes"]
            print(f"group-by + sum over {a.big:,} rows, Arrow table {size / mb:.0f} MB: RSS after reading "
                  f"{m['after_read'] / mb:.0f} MB, peak while running {m['run_peak'] / mb:.0f} MB "
                  f"({m['run_peak'] / size:.2f}x the table), peak while reading Parquet {m['read_peak'] / mb:.0f} MB")


if __name__ == "__main__":
    main()
