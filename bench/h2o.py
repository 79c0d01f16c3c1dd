"""db-benchmark's groupby questions (H2O.ai, kept by DuckDB Labs) through ptc, against pandas,
polars and DuckDB's own SQL on the same data in the same run.

    python bench/h2o.py [--rows 1000000] [--questions q1,q3] [--timeout 120] [--repeat 3]

The data is made as groupby-datagen.R makes G1_<N>_1e2_0_0 (K=100): id1/id2 "id001".."id100",
id3 "id0000000001".. (N/K values), id4/id5 1..K, id6 1..N/K, v1 1..5, v2 1..15, v3 uniform
[0, 100) rounded to 6 places. Each question is written two or three ways a model writes it
in PTC-Lisp; each phrasing's answer is checked against pandas' (group count and the sum of
each aggregate) and timed end to end through `ptc.run` with the table passed as data (the
result realized, as a caller reads it, the program compiled each time: ptc's cache of compiled
programs is cleared before each run), with `max_collection` raised as its error says to (a
group-by holds every row, 1e7 rows is ten times the default). The other engines run the code
their docs show. Each tool runs each question `--repeat` times (3; db-benchmark itself runs
each twice) and the median is reported: one run of a 30 ms question moves 20-50% between runs
on a shared machine. Printed: each time, ptc / pandas, ptc / DuckDB, and the geomeans.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any, Callable

PTC: dict[str, list[str]] = {
    "q1": [
        "(->> data/x (group-by :id1) (map (fn [[k rows]] {:id1 k :v1 (reduce + (map :v1 rows))})))",
        "(for [[k g] (group-by :id1 data/x)] {:id1 k :v1 (sum-by :v1 g)})",
        "(update-vals (group-by :id1 data/x) (fn [g] (apply + (map :v1 g))))",
    ],
    "q2": [
        "(for [[[a b] g] (group-by (juxt :id1 :id2) data/x)] {:id1 a :id2 b :v1 (reduce + (map :v1 g))})",
        "(->> data/x (group-by (juxt :id1 :id2)) (map (fn [[k g]] {:id1 (first k) :id2 (second k) "
        ":v1 (sum-by :v1 g)})))",
        "(update-vals (group-by (juxt :id1 :id2) data/x) #(reduce + (map :v1 %)))",
    ],
    "q3": [
        "(for [[k g] (group-by :id3 data/x)] {:id3 k :v1 (reduce + (map :v1 g)) "
        ":v3 (/ (reduce + (map :v3 g)) (count g))})",
        "(->> data/x (group-by :id3) (map (fn [[k g]] (let [v3 (map :v3 g)] "
        "{:id3 k :v1 (sum-by :v1 g) :v3 (/ (apply + v3) (count v3))}))))",
        "(update-vals (group-by :id3 data/x) (fn [g] {:v1 (reduce + (map :v1 g)) "
        ":v3 (/ (reduce + (map :v3 g)) (count g))}))",
    ],
    "q4": [
        "(for [[k g] (group-by :id4 data/x)] {:id4 k :v1 (avg-by :v1 g) :v2 (avg-by :v2 g) :v3 (avg-by :v3 g)})",
        "(defn mean [xs] (/ (reduce + xs) (count xs))) "
        "(->> data/x (group-by :id4) (map (fn [[k g]] {:id4 k :v1 (mean (map :v1 g)) :v2 (mean (map :v2 g)) "
        ":v3 (mean (map :v3 g))})))",
        "(defn mean [xs] (/ (reduce + xs) (double (count xs)))) "
        "(into {} (for [[k g] (group-by :id4 data/x)] [k {:v1 (mean (mapv :v1 g)) :v2 (mean (mapv :v2 g)) "
        ":v3 (mean (mapv :v3 g))}]))",
    ],
    "q5": [
        "(for [[k g] (group-by :id6 data/x)] {:id6 k :v1 (sum-by :v1 g) :v2 (sum-by :v2 g) :v3 (sum-by :v3 g)})",
        "(->> data/x (group-by :id6) (map (fn [[k g]] {:id6 k :v1 (reduce + (map :v1 g)) "
        ":v2 (reduce + (map :v2 g)) :v3 (reduce + (map :v3 g))})))",
        "(into {} (map (fn [[k g]] [k {:v1 (reduce + (mapv :v1 g)) :v2 (reduce + (mapv :v2 g)) "
        ":v3 (reduce + (mapv :v3 g))}])) (group-by :id6 data/x))",
    ],
    "q6": [
        "(defn median [xs] (let [s (sort xs) n (count s) m (quot n 2)] "
        "(if (odd? n) (nth s m) (/ (+ (nth s (dec m)) (nth s m)) 2)))) "
        "(defn sd [xs] (let [n (count xs) m (/ (reduce + xs) n)] "
        "(Math/sqrt (/ (reduce + (map #(* (- % m) (- % m)) xs)) (dec n))))) "
        "(for [[[a b] g] (group-by (juxt :id4 :id5) data/x)] "
        "(let [v3 (map :v3 g)] {:id4 a :id5 b :median_v3 (median v3) :sd_v3 (sd v3)}))",
        "(defn median [xs] (let [s (vec (sort xs)) n (count s)] "
        "(if (even? n) (/ (+ (nth s (dec (quot n 2))) (nth s (quot n 2))) 2.0) (nth s (quot n 2))))) "
        "(defn variance [xs] (let [m (/ (reduce + xs) (count xs))] "
        "(/ (reduce + (map (fn [x] (Math/pow (- x m) 2)) xs)) (dec (count xs))))) "
        "(->> (group-by (juxt :id4 :id5) data/x) "
        "(map (fn [[[a b] g]] {:id4 a :id5 b :median_v3 (median (map :v3 g)) "
        ":sd_v3 (Math/sqrt (variance (map :v3 g)))})))",
        "(defn mean [xs] (/ (reduce + xs) (count xs))) "
        "(defn median [xs] (let [s (sort xs) n (count s) m (quot n 2)] "
        "(if (odd? n) (nth s m) (/ (+ (nth s (dec m)) (nth s m)) 2)))) "
        "(defn sd [xs] (let [m (mean xs) sq (mapv #(Math/pow (- % m) 2) xs)] "
        "(Math/sqrt (/ (reduce + sq) (dec (count xs)))))) "
        "(update-vals (group-by (juxt :id4 :id5) data/x) "
        "(fn [g] (let [v3 (mapv :v3 g)] {:median_v3 (median v3) :sd_v3 (sd v3)})))",
    ],
    "q7": [
        "(for [[k g] (group-by :id3 data/x)] {:id3 k :range_v1_v2 (- (apply max (map :v1 g)) (apply min (map :v2 g)))})",
        "(->> data/x (group-by :id3) (map (fn [[k g]] {:id3 k :range_v1_v2 (- (reduce max (map :v1 g)) "
        "(reduce min (map :v2 g)))})))",
        "(update-vals (group-by :id3 data/x) (fn [g] (- (apply max (mapv :v1 g)) (apply min (mapv :v2 g)))))",
    ],
    "q8": [
        "(for [[k g] (group-by :id6 data/x)] {:id6 k :largest2_v3 (take 2 (sort > (map :v3 g)))})",
        "(->> data/x (group-by :id6) (map (fn [[k g]] {:id6 k :largest2_v3 (take 2 (sort-by - (map :v3 g)))})))",
        "(update-vals (group-by :id6 data/x) (fn [g] (->> g (mapv :v3) sort reverse (take 2))))",
    ],
    "q9": [
        "(defn r2 [g] (let [n (count g) mx (/ (reduce + (map :v1 g)) (double n)) my (/ (reduce + (map :v2 g)) (double n)) "
        "sxy (reduce + (map #(* (- (:v1 %) mx) (- (:v2 %) my)) g)) "
        "sxx (reduce + (map #(* (- (:v1 %) mx) (- (:v1 %) mx)) g)) "
        "syy (reduce + (map #(* (- (:v2 %) my) (- (:v2 %) my)) g))] (/ (* sxy sxy) (* sxx syy)))) "
        "(for [[[a b] g] (group-by (juxt :id2 :id4) data/x)] {:id2 a :id4 b :r2 (r2 g)})",
        "(defn mean [xs] (/ (reduce + xs) (count xs))) "
        "(->> (group-by (juxt :id2 :id4) data/x) (map (fn [[[a b] g]] (let [xs (map :v1 g) ys (map :v2 g) "
        "mx (mean xs) my (mean ys) "
        "sxy (reduce + (map #(* (- (:v1 %) mx) (- (:v2 %) my)) g)) "
        "sxx (reduce + (map #(* (- % mx) (- % mx)) xs)) syy (reduce + (map #(* (- % my) (- % my)) ys))] "
        "{:id2 a :id4 b :r2 (/ (* sxy sxy) (double (* sxx syy)))}))))",
        "(defn mean [xs] (/ (reduce + xs) (double (count xs)))) "
        "(defn r2 [xs ys] (let [mx (mean xs) my (mean ys) dx (mapv #(- % mx) xs) dy (mapv #(- % my) ys) "
        "sxy (reduce + (map * dx dy)) sxx (reduce + (map #(* % %) dx)) syy (reduce + (map #(* % %) dy))] "
        "(/ (* sxy sxy) (* sxx syy)))) "
        "(update-vals (group-by (juxt :id2 :id4) data/x) (fn [g] (r2 (mapv :v1 g) (mapv :v2 g))))",
    ],
    "q10": [
        "(for [[[a b c d e f] g] (group-by (juxt :id1 :id2 :id3 :id4 :id5 :id6) data/x)] "
        "{:id1 a :id2 b :id3 c :id4 d :id5 e :id6 f :v3 (reduce + (map :v3 g)) :count (count g)})",
        "(->> data/x (group-by (juxt :id1 :id2 :id3 :id4 :id5 :id6)) "
        "(map (fn [[[a b c d e f] g]] {:id1 a :id2 b :id3 c :id4 d :id5 e :id6 f "
        ":v3 (sum-by :v3 g) :count (count g)})))",
        "(update-vals (group-by (juxt :id1 :id2 :id3 :id4 :id5 :id6) data/x) "
        "(fn [g] {:v3 (reduce + (map :v3 g)) :count (count g)}))",
    ],
}

SQL = {
    "q1": "SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1",
    "q2": "SELECT id1, id2, sum(v1) AS v1 FROM x GROUP BY id1, id2",
    "q3": "SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3",
    "q4": "SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM x GROUP BY id4",
    "q5": "SELECT id6, sum(v1) AS v1, sum(v2) AS v2, sum(v3) AS v3 FROM x GROUP BY id6",
    "q6": "SELECT id4, id5, quantile_cont(v3, 0.5) AS median_v3, stddev(v3) AS sd_v3 FROM x GROUP BY id4, id5",
    "q7": "SELECT id3, max(v1)-min(v2) AS range_v1_v2 FROM x GROUP BY id3",
    "q8": "SELECT id6, v3 AS largest2_v3 FROM (SELECT id6, v3, row_number() OVER (PARTITION BY id6 ORDER BY v3 DESC) "
          "AS order_v3 FROM x WHERE v3 IS NOT NULL) sub_query WHERE order_v3 <= 2",
    "q9": "SELECT id2, id4, pow(corr(v1, v2), 2) AS r2 FROM x GROUP BY id2, id4",
    "q10": "SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS count FROM x "
           "GROUP BY id1, id2, id3, id4, id5, id6",
}

# the value columns of each answer (summed to check ptc against pandas)
MEASURES = {"q1": ["v1"], "q2": ["v1"], "q3": ["v1", "v3"], "q4": ["v1", "v2", "v3"], "q5": ["v1", "v2", "v3"],
            "q6": ["median_v3", "sd_v3"], "q7": ["range_v1_v2"], "q8": ["largest2_v3"], "q9": ["r2"],
            "q10": ["v3", "count"]}


def make_data(n: int, k: int = 100, seed: int = 108) -> Any:
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    nk = max(1, n // k)

    def ids(width: int, m: int) -> Any:
        labels = pa.array([f"id{i:0{width}d}" for i in range(1, m + 1)])
        return labels.take(pa.array(rng.integers(0, m, n)))

    return pa.table({
        "id1": ids(3, k), "id2": ids(3, k), "id3": ids(10, nk),
        "id4": rng.integers(1, k + 1, n), "id5": rng.integers(1, k + 1, n), "id6": rng.integers(1, nk + 1, n),
        "v1": rng.integers(1, 6, n), "v2": rng.integers(1, 16, n), "v3": np.round(rng.random(n) * 100, 6),
    })


def pandas_answers(df: Any) -> dict[str, Callable[[], Any]]:
    def q6() -> Any:
        return df.groupby(["id4", "id5"], observed=True, sort=False).agg(
            median_v3=("v3", "median"), sd_v3=("v3", "std")).reset_index()

    def q8() -> Any:
        return (df[["id6", "v3"]].sort_values("v3", ascending=False).groupby("id6", sort=False).head(2)
                .rename(columns={"v3": "largest2_v3"}))

    def q9() -> Any:
        return (df[["id2", "id4", "v1", "v2"]].groupby(["id2", "id4"], observed=True, sort=False)
                .apply(lambda s: s["v1"].corr(s["v2"]) ** 2, include_groups=False).reset_index(name="r2"))

    g = dict(observed=True, sort=False)
    return {
        "q1": lambda: df.groupby("id1", **g).agg(v1=("v1", "sum")).reset_index(),
        "q2": lambda: df.groupby(["id1", "id2"], **g).agg(v1=("v1", "sum")).reset_index(),
        "q3": lambda: df.groupby("id3", **g).agg(v1=("v1", "sum"), v3=("v3", "mean")).reset_index(),
        "q4": lambda: df.groupby("id4", **g).agg(v1=("v1", "mean"), v2=("v2", "mean"), v3=("v3", "mean")).reset_index(),
        "q5": lambda: df.groupby("id6", **g).agg(v1=("v1", "sum"), v2=("v2", "sum"), v3=("v3", "sum")).reset_index(),
        "q6": q6,
        "q7": lambda: df.groupby("id3", **g).agg(v1=("v1", "max"), v2=("v2", "min")).assign(
            range_v1_v2=lambda x: x["v1"] - x["v2"])[["range_v1_v2"]].reset_index(),
        "q8": q8,
        "q9": q9,
        "q10": lambda: df.groupby(["id1", "id2", "id3", "id4", "id5", "id6"], **g).agg(
            v3=("v3", "sum"), count=("v1", "size")).reset_index(),
    }


def polars_answers(pl_df: Any) -> dict[str, Callable[[], Any]]:
    import polars as pl

    c = pl.col
    return {
        "q1": lambda: pl_df.group_by("id1").agg(c("v1").sum()),
        "q2": lambda: pl_df.group_by("id1", "id2").agg(c("v1").sum()),
        "q3": lambda: pl_df.group_by("id3").agg(c("v1").sum(), c("v3").mean()),
        "q4": lambda: pl_df.group_by("id4").agg(c("v1").mean(), c("v2").mean(), c("v3").mean()),
        "q5": lambda: pl_df.group_by("id6").agg(c("v1").sum(), c("v2").sum(), c("v3").sum()),
        "q6": lambda: pl_df.group_by("id4", "id5").agg(c("v3").median().alias("median_v3"),
                                                        c("v3").std().alias("sd_v3")),
        "q7": lambda: pl_df.group_by("id3").agg((c("v1").max() - c("v2").min()).alias("range_v1_v2")),
        "q8": lambda: pl_df.drop_nulls("v3").group_by("id6").agg(c("v3").top_k(2).alias("largest2_v3")).explode(
            "largest2_v3"),
        "q9": lambda: pl_df.group_by("id2", "id4").agg((pl.corr("v1", "v2") ** 2).alias("r2")),
        "q10": lambda: pl_df.group_by("id1", "id2", "id3", "id4", "id5", "id6").agg(
            c("v3").sum().alias("v3"), c("v1").count().alias("count")),
    }


REPEAT = 1  # runs per measurement (--repeat): the median is reported


def timed(fn: Callable[[], Any], before: Callable[[], None] = lambda: None) -> tuple[float, Any]:
    """The median time of REPEAT runs of fn (each after `before`) and the last run's value."""
    times = []
    for _ in range(REPEAT):
        before()
        t0 = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2], r


def _uncompiled() -> None:
    """Forget ptc's compiled programs, so every timed run of ptc compiles its program (as a
    model's new program is) and repeats measure the same work as the first run."""
    from ptc.interpreter.inline import compile_program

    compile_program.cache_clear()


def ptc_frame(value: Any, measures: list[str]) -> Any:
    """A ptc answer as a pandas DataFrame: a seq of row maps as its rows; a map of key -> value
    (`update-vals`, `into {}`) as a row per entry, its value's keys as columns when it is a map
    (else the one measure), read entry by entry rather than through `ptc.to_pandas`."""
    import pandas as pd

    import ptc
    from ptc.interpreter.values import MAP_TYPES, map_items

    if isinstance(value, MAP_TYPES):
        rows = []
        for _, v in map_items(value):
            v = ptc.to_python(v)
            rows.append(v if isinstance(v, dict) else {measures[0]: v})
        return pd.DataFrame(rows, columns=measures)
    return ptc.to_pandas(value)


def checksum(frame: Any, cols: list[str]) -> tuple[int, list[float]]:
    import numpy as np

    sums = []
    for c in cols:
        col = frame[c]
        vals = [x for v in col for x in (v if isinstance(v, (list, tuple, np.ndarray)) else [v])]
        sums.append(float(np.nansum(np.asarray(vals, dtype=float))))
    return len(frame), sums


def agree(a: tuple[int, list[float]], b: tuple[int, list[float]], q: str) -> bool:
    rows_a, sums_a = a
    rows_b, sums_b = b
    if q != "q8" and rows_a != rows_b:
        return False
    return all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-6) for x, y in zip(sums_a, sums_b))


def main() -> None:
    import duckdb
    import polars as pl

    import ptc

    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e6)
    ap.add_argument("--questions", default=",".join(PTC))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--categorical", action="store_true",
                    help="pass id1-id3 to ptc dictionary-encoded, as pandas gets them (categoricals)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each question by each tool; the median is reported (ptc compiles each time)")
    ap.add_argument("--no-engine", action="store_true",
                    help="fold every group on the numpy path, never on DuckDB (to measure the engine)")
    args = ap.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)
    if args.no_engine:
        from ptc.interpreter.columnar import engine

        engine.MIN_ROWS = 1 << 62
    n = int(args.rows)
    x = make_data(n)
    data = x
    if args.categorical:
        import pyarrow.compute as pc

        for i, c in enumerate(("id1", "id2", "id3")):
            data = data.set_column(i, c, pc.dictionary_encode(x.column(c)))
    df = x.to_pandas()
    for c in ("id1", "id2", "id3"):
        df[c] = df[c].astype("category")  # as db-benchmark reads them
    pl_df = pl.from_arrow(x)
    con = duckdb.connect()
    con.register("x", x)
    pandas_q, polars_q = pandas_answers(df), polars_answers(pl_df)
    limits = ptc.Limits(timeout=args.timeout, max_memory=16 << 30, max_result=1 << 34, max_collection=1 << 31)
    ptc.run(PTC["q1"][0], data={"x": make_data(1000)})  # imports and first-use costs out of the timings
    print(f"db-benchmark groupby, {n:,} rows (K=100), "
          + (f"median of {REPEAT} runs each" if REPEAT > 1 else "one run each") + "; times in seconds"
          + ("; ids passed to ptc as categoricals" if args.categorical else ""))
    print(f"{'question':9} {'phrasing':8} {'ptc':>8} {'pandas':>8} {'polars':>8} {'duckdb':>8} "
          f"{'/pandas':>8} {'/duckdb':>8}  answer")
    ratios_pd, ratios_db = [], []
    for q in args.questions.split(","):
        t_pd, ans = timed(pandas_q[q])
        if q in ("q1", "q2", "q3", "q4", "q5", "q6", "q7", "q9", "q10"):
            ans = ans.reset_index(drop=True)
        want = checksum(ans, MEASURES[q])
        t_pl, _ = timed(polars_q[q])
        t_db, _ = timed(lambda: con.sql(SQL[q]).to_arrow_table())
        for i, src in enumerate(PTC[q]):
            t, r = timed(lambda: ptc.run(src, data={"x": data}, limits=limits), _uncompiled)
            if not r.ok:
                print(f"{q:9} {i + 1:<8} {'-':>8} {t_pd:8.3f} {t_pl:8.3f} {t_db:8.3f} {'-':>8} {'-':>8}  "
                      f"{r.error.kind}: {r.error.message[:60]}")
                continue
            got = ptc_frame(r.value, MEASURES[q])
            ok = agree(checksum(got, MEASURES[q]), want, q)
            ratios_pd.append(t / t_pd)
            ratios_db.append(t / t_db)
            print(f"{q:9} {i + 1:<8} {t:8.3f} {t_pd:8.3f} {t_pl:8.3f} {t_db:8.3f} {t / t_pd:7.2f}x {t / t_db:7.2f}x  "
                  f"{'right' if ok else 'WRONG'}")
    if ratios_pd:
        gp = math.exp(sum(map(math.log, ratios_pd)) / len(ratios_pd))
        gd = math.exp(sum(map(math.log, ratios_db)) / len(ratios_db))
        print(f"geomean over {len(ratios_pd)} phrasings: ptc / pandas {gp:.2f}x, ptc / duckdb {gd:.2f}x; "
              f"worst / pandas {max(ratios_pd):.2f}x")


if __name__ == "__main__":
    main()
