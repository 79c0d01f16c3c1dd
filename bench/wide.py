"""Interpreter speed on the programs agents write, not only bench/interpreter.py's five shapes.

Each of the programs below is a PTC-Lisp program of a kind agents write (filtering,
projections, nested data, joins through maps, group and aggregate, sorting and top-k,
windows and partitions, string work, arithmetic loops, building maps, set operations,
early exit, lazy prefixes), run through the public `ptc.run` with plain data (lists of
dicts, as from `json.loads`), next to the idiomatic Python a person would write instead.
Both run in the same process, interleaved, best of N (bench/interpreter.py's timing); the
ratio is ptc / Python. Printed: each ratio, the geometric mean and the worst program.

    python bench/wide.py [--rows 50000] [--repeat 5] [--only SUBSTRING] [--clock wall|cpu] [--json]

Only the public API is timed, so the script measures older versions of ptc too.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import Counter
from itertools import islice, takewhile
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ptc  # noqa: E402
from interpreter import LIMITS, best_of  # noqa: E402  (the shared timing helpers)

Row = dict[str, Any]
CITIES = ["Paris", "Lyon", "Berlin", "Madrid", "Rome", "Oslo"]
TAGS = ["new", "gift", "bulk", "promo", "vip", "repeat"]


def make_data(n: int) -> dict[str, list[Row]]:
    """Orders with nested lines and a shipping address, and the customers they refer to."""
    rnd = random.Random(7)
    orders = []
    for i in range(n):
        order: Row = {
            "id": i,
            "customer": f"c{rnd.randrange(500)}",
            "status": rnd.choice(["paid", "pending", "refunded"]),
            "amount": round(rnd.random() * 500, 2),
            "items": rnd.randint(1, 5),
            "date": f"2024-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}",
            "tags": rnd.sample(TAGS, rnd.randint(0, 3)),
            "lines": [{"sku": f"s{rnd.randrange(100)}", "qty": rnd.randint(1, 4), "price": round(rnd.random() * 50, 2)}
                      for _ in range(rnd.randint(1, 3))],
            "ship": {"city": rnd.choice(CITIES), "n": rnd.randrange(10)},
        }
        if rnd.random() < 0.3:
            order["discount"] = round(rnd.random() * 20, 2)
        orders.append(order)
    customers = [{"id": f"c{i}", "region": ["eu", "us", "apac"][i % 3], "tier": i % 4} for i in range(500)]
    return {"orders": orders, "customers": customers}


def programs(d: dict[str, list[Row]]) -> list[tuple[str, str, Callable[[], Any]]]:
    """(name, PTC source, idiomatic Python) for each program."""
    orders, customers = d["orders"], d["customers"]
    vip = {f"c{i}" for i in range(0, 500, 7)}
    vip_ptc = "#{" + " ".join(f'"{c}"' for c in sorted(vip)) + "}"

    def moving_average() -> float:
        xs = [o["amount"] for o in orders]
        return sum((xs[i] + xs[i + 1] + xs[i + 2]) / 3 for i in range(len(xs) - 2))

    def batches() -> list[float]:
        return [sum(o["amount"] for o in orders[i:i + 100]) for i in range(0, len(orders), 100)]

    def runs() -> int:
        return sum(1 for i, o in enumerate(orders) if i == 0 or o["status"] != orders[i - 1]["status"])

    def fnil_totals() -> dict[str, float]:
        totals: dict[str, float] = {}
        for o in orders:
            totals[o["customer"]] = totals.get(o["customer"], 0) + o["amount"]
        return totals

    def nested_counts() -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for o in orders:
            inner = out.setdefault(o["customer"], {})
            inner[o["status"]] = inner.get(o["status"], 0) + 1
        return out

    def groups_by_pair() -> int:
        groups: dict[tuple[str, str], list[Row]] = {}
        for o in orders:
            groups.setdefault((o["customer"], o["status"]), []).append(o)
        return len(groups)

    def customer_desc_amount_asc() -> list[int]:
        by_amount = sorted(orders, key=lambda o: o["amount"])
        return [o["id"] for o in sorted(by_amount, key=lambda o: o["customer"], reverse=True)[:10]]

    def group_stats() -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for o in orders:
            s = out.setdefault(o["status"], {"n": 0, "total": 0})
            s["n"] += 1
            s["total"] += o["amount"]
        return out

    def region_counts() -> dict[str, int]:
        region = {c["id"]: c["region"] for c in customers}
        return dict(Counter(region[o["customer"]] for o in orders))

    def tier_discounted() -> float:
        tier = {c["id"]: c["tier"] for c in customers}
        return sum(o["amount"] * (0.9 if tier[o["customer"]] == 1 else 1.0) for o in orders)

    def square_loop() -> int:
        s = 0
        for i in range(200_000):
            s += i * i
        return s

    def iterate_nth() -> int:
        x = 0
        for _ in range(100_000):
            x += 3
        return x

    def both_statuses() -> int:
        paid = {o["customer"] for o in orders if o["status"] == "paid"}
        refunded = {o["customer"] for o in orders if o["status"] == "refunded"}
        return len(paid & refunded)

    def lazy_squares() -> list[int]:
        out = []
        i = 0
        while len(out) < 1000:
            if (i * i) % 7 == 0:
                out.append(i * i)
            i += 1
        return out

    def update_in_ship() -> int:
        total = 0
        for o in orders:
            o2 = {**o, "ship": {**o["ship"], "n": o["ship"]["n"] + 1}}
            total += o2["ship"]["n"]
        return total

    def max_key() -> int:
        return max(reversed(orders), key=lambda o: o["amount"])["id"]  # Clojure's max-key keeps the last

    def min_key() -> int:
        return min(reversed(orders), key=lambda o: o["amount"] * o["items"])["id"]

    def merge_rows() -> int:
        return len([{**o, "region": "eu", "checked": True} for o in orders])

    def enriched() -> float:
        rows = [{**o, "total": o["amount"] * o["items"]} for o in orders]
        return sum(r["total"] for r in rows)

    def sq_map() -> int:
        return len({i: i * i for i in range(100_000)})

    def interleaved() -> int:
        return len(dict(zip([o["id"] for o in orders], [o["amount"] for o in orders])))

    def score_fn() -> float:
        def score(o: Row) -> float:
            return o["amount"] * (o["items"] + 1)
        return sum(score(o) for o in orders)

    return [
        # filtering
        ("filter count", '(count (filter #(= (:status %) "paid") data/orders))',
         lambda: sum(1 for o in orders if o["status"] == "paid")),
        ("filter and/>", '(count (filter #(and (= (:status %) "paid") (> (:amount %) 100)) data/orders))',
         lambda: sum(1 for o in orders if o["status"] == "paid" and o["amount"] > 100)),
        ("remove <", "(count (remove #(< (:amount %) 50) data/orders))",
         lambda: sum(1 for o in orders if not o["amount"] < 50)),
        ("filterv set member", f"(let [vip {vip_ptc}] (count (filterv #(contains? vip (:customer %)) data/orders)))",
         lambda: len([o for o in orders if o["customer"] in vip])),
        ("keep optional key", "(reduce + (keep :discount data/orders))",
         lambda: sum(o["discount"] for o in orders if o.get("discount") is not None)),
        # projections
        ("select-keys", "(count (mapv #(select-keys % [:id :amount :status]) data/orders))",
         lambda: len([{"id": o["id"], "amount": o["amount"], "status": o["status"]} for o in orders])),
        ("destructure + *", "(reduce + (map (fn [{:keys [amount items]}] (* amount items)) data/orders))",
         lambda: sum(o["amount"] * o["items"] for o in orders)),
        ("assoc enrich", "(reduce + (map :total (mapv #(assoc % :total (* (:amount %) (:items %))) data/orders)))",
         enriched),
        ("update field", "(reduce + (map :amount (mapv #(update % :amount * 2) data/orders)))",
         lambda: sum(r["amount"] for r in [{**o, "amount": o["amount"] * 2} for o in orders])),
        ("merge rows", '(count (mapv #(merge % {:region "eu" :checked true}) data/orders))', merge_rows),
        # nested data
        ("mapcat nested", "(reduce + (mapcat #(map :qty (:lines %)) data/orders))",
         lambda: sum(line["qty"] for o in orders for line in o["lines"])),
        ("for 2 bindings", "(reduce + (for [o data/orders l (:lines o)] (* (:qty l) (:price l))))",
         lambda: sum(line["qty"] * line["price"] for o in orders for line in o["lines"])),
        ("get-in filter", '(count (filter #(= "Paris" (get-in % [:ship :city])) data/orders))',
         lambda: sum(1 for o in orders if o["ship"]["city"] == "Paris")),
        ("update-in nested", "(reduce + (map #(get-in % [:ship :n]) (map #(update-in % [:ship :n] inc) data/orders)))",
         update_in_ship),
        ("frequencies mapcat", "(frequencies (mapcat :tags data/orders))",
         lambda: dict(Counter(t for o in orders for t in o["tags"]))),
        # joins through maps
        ("join region", "(let [region (into {} (map (juxt :id :region) data/customers))] "
                        "(frequencies (map #(region (:customer %)) data/orders)))", region_counts),
        ("join zipmap tier", "(let [tier (zipmap (map :id data/customers) (map :tier data/customers))] "
                             "(reduce + (map #(* (:amount %) (if (= 1 (tier (:customer %))) 0.9 1.0)) data/orders)))",
         tier_discounted),
        # group and aggregate
        ("group-by count", "(update-vals (group-by :status data/orders) count)",
         lambda: dict(Counter(o["status"] for o in orders))),
        ("frequencies", "(frequencies (map :customer data/orders))",
         lambda: dict(Counter(o["customer"] for o in orders))),
        ("reduce update fnil", "(reduce (fn [m o] (update m (:customer o) (fnil + 0) (:amount o))) {} data/orders)",
         fnil_totals),
        ("update-in 2 keys fnil", "(reduce (fn [m o] (update-in m [(:customer o) (:status o)] (fnil inc 0))) "
                                  "{} data/orders)", nested_counts),
        ("group-by juxt", "(count (group-by (juxt :customer :status) data/orders))", groups_by_pair),
        ("group-by fn vector", "(count (group-by (fn [o] [(:customer o) (:status o)]) data/orders))", groups_by_pair),
        ("group stats for", "(into {} (for [[k rows] (group-by :status data/orders)] "
                            "[k {:n (count rows) :total (reduce + (map :amount rows))}]))", group_stats),
        ("group stats fn", "(update-vals (group-by :status data/orders) "
                           "(fn [g] {:n (count g) :total (reduce + (map :amount g))}))", group_stats),
        # sorting and top-k
        ("sort-by > top10", "(mapv :id (take 10 (sort-by :amount > data/orders)))",
         lambda: [o["id"] for o in sorted(orders, key=lambda o: o["amount"], reverse=True)[:10]]),
        ("sort-by comparator", "(mapv :id (take 10 (sort-by :amount #(compare %2 %1) data/orders)))",
         lambda: [o["id"] for o in sorted(orders, key=lambda o: o["amount"], reverse=True)[:10]]),
        ("sort-by juxt", "(mapv :id (take 10 (sort-by (juxt :customer :amount) data/orders)))",
         lambda: [o["id"] for o in sorted(orders, key=lambda o: (o["customer"], o["amount"]))[:10]]),
        ("sort vector compare", "(mapv :id (take 10 (sort (fn [a b] (compare [(:customer b) (:amount a)] "
                                "[(:customer a) (:amount b)])) data/orders)))", customer_desc_amount_asc),
        ("max-key", "(:id (apply max-key :amount data/orders))", max_key),
        ("min-key fn", "(:id (apply min-key #(* (:amount %) (:items %)) data/orders))", min_key),
        # windows and partitions
        ("partition 3 1 avg", "(reduce + (map #(/ (reduce + %) 3) (partition 3 1 (map :amount data/orders))))",
         moving_average),
        ("partition-all 100", "(mapv #(reduce + (map :amount %)) (partition-all 100 data/orders))", batches),
        ("deltas map -", "(let [xs (mapv :amount data/orders)] (reduce + (map - (rest xs) xs)))",
         lambda: sum(b - a for a, b in zip([o["amount"] for o in orders], [o["amount"] for o in orders][1:]))),
        ("partition-by runs", "(count (partition-by :status data/orders))", runs),
        ("interleave hash-map", "(count (apply hash-map (interleave (map :id data/orders) (map :amount data/orders))))",
         interleaved),
        # string work
        ("str key set", '(count (into #{} (map #(str (:customer %) "/" (:status %)) data/orders)))',
         lambda: len({f"{o['customer']}/{o['status']}" for o in orders})),
        ("starts-with?", '(count (filter #(clojure.string/starts-with? (:customer %) "c1") data/orders))',
         lambda: sum(1 for o in orders if o["customer"].startswith("c1"))),
        ("subs month freq", "(frequencies (map #(subs (:date %) 0 7) data/orders))",
         lambda: dict(Counter(o["date"][:7] for o in orders))),
        ("split/join", '(count (into #{} (map #(clojure.string/join "/" (reverse (clojure.string/split (:date %) #"-"))) '
                       "data/orders)))",
         lambda: len({"/".join(reversed(o["date"].split("-"))) for o in orders})),
        # arithmetic loops
        ("loop sum squares", "(loop [i 0 s 0] (if (< i 200000) (recur (inc i) (+ s (* i i))) s))", square_loop),
        ("mod filter range", "(count (filter #(zero? (mod % 7)) (range 200000)))",
         lambda: sum(1 for i in range(200_000) if i % 7 == 0)),
        ("quot+rem", "(reduce + (map #(+ (quot % 10) (rem % 10)) (range 200000)))",
         lambda: sum(i // 10 + i % 10 for i in range(200_000))),
        ("user defn score", "(defn score [o] (* (:amount o) (inc (:items o)))) (reduce + (map score data/orders))",
         score_fn),
        ("abs/max reduce", "(reduce max (map #(abs (- (:amount %) 250)) data/orders))",
         lambda: max(abs(o["amount"] - 250) for o in orders)),
        ("even? ids", "(count (filter even? (map :id data/orders)))",
         lambda: sum(1 for o in orders if o["id"] % 2 == 0)),
        # building maps
        ("reduce assoc i*i", "(count (reduce (fn [m i] (assoc m i (* i i))) {} (range 100000)))", sq_map),
        ("zipmap", "(count (zipmap (map :id data/orders) (map :amount data/orders)))",
         lambda: len(dict(zip([o["id"] for o in orders], [o["amount"] for o in orders])))),
        ("into {} for", "(count (into {} (for [o data/orders] [(:id o) (:status o)])))",
         lambda: len({o["id"]: o["status"] for o in orders})),
        # set operations
        ("distinct count", "(count (distinct (map :customer data/orders)))",
         lambda: len(set(o["customer"] for o in orders))),
        ("set intersection", '(count (clojure.set/intersection (set (map :customer (filter #(= "paid" (:status %)) '
                             'data/orders))) (set (map :customer (filter #(= "refunded" (:status %)) data/orders)))))',
         both_statuses),
        # early exit
        ("some late", "(some #(when (> (:amount %) 499.99) (:id %)) data/orders)",
         lambda: next((o["id"] for o in orders if o["amount"] > 499.99), None)),
        ("every? pos?", "(every? #(pos? (:amount %)) data/orders)", lambda: all(o["amount"] > 0 for o in orders)),
        # lazy prefixes
        ("lazy squares prefix", "(vec (take 1000 (filter #(zero? (mod % 7)) (map #(* % %) (range)))))", lazy_squares),
        ("take-while prefix", "(count (take-while #(< (:id %) 30000) data/orders))",
         lambda: sum(1 for _ in takewhile(lambda o: o["id"] < 30000, orders))),
        ("iterate nth", "(nth (iterate #(+ % 3) 0) 100000)", iterate_nth),
        ("drop/take window", "(reduce + (map :amount (take 1000 (drop 20000 data/orders))))",
         lambda: sum(o["amount"] for o in islice(orders, 20000, 21000))),
    ]


def same(a: Any, b: Any) -> bool:
    """Equal as plain data, floats within rounding (sums in another order)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def measure(data: dict[str, list[Row]], repeat: int, only: str | None,
            clock: Callable[[], float] = time.perf_counter) -> list[dict[str, Any]]:
    out = []
    for name, src, idiom in programs(data):
        if only and only not in name:
            continue
        got = ptc.to_python(ptc.run(src, data=data, limits=LIMITS).value)
        if not same(got, idiom()):
            raise SystemExit(f"{name}: ptc and Python disagree: {str(got)[:200]} vs {str(idiom())[:200]}")
        t_ptc, t_py = best_of([lambda: ptc.run(src, data=data, limits=LIMITS), idiom], repeat, clock)
        out.append({"name": name, "src": src, "ptc_ms": t_ptc * 1e3, "python_ms": t_py * 1e3, "ratio": t_ptc / t_py})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", help="run only the programs whose name contains this")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="cpu: this process's CPU time (steadier when other processes load the machine)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rows = measure(make_data(args.rows), args.repeat, args.only, clock)
    geo = math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows))
    worst = max(rows, key=lambda r: r["ratio"])
    if args.json:
        print(json.dumps({"rows": args.rows, "clock": args.clock, "programs": rows, "geomean": geo,
                          "worst": worst["name"]}, indent=2))
        return
    print(f"ptc on {len(rows)} programs agents write: plain data through ptc.run "
          f"({args.rows} rows, best of {args.repeat}, {args.clock} time)")
    print(f"{'program':22} {'ptc ms':>8} {'python ms':>10} {'ratio':>8}")
    for r in rows:
        print(f"{r['name']:22} {r['ptc_ms']:8.1f} {r['python_ms']:10.1f} {r['ratio']:7.2f}x")
    print(f"geometric mean {geo:.2f}x (goal <= 2.0x); worst {worst['name']} {worst['ratio']:.2f}x (goal <= 4x)")


if __name__ == "__main__":
    main()
