"""Interpreter speed as users meet it: plain JSON-like data passed to `ptc.run` on every call.

Each PTC-Lisp program is timed through the public API with the data a user passes (a list
of dicts, as from `json.loads`), next to the idiomatic Python a person would write instead
(comprehensions, dict loops, `sum`), in the same process and run (best of N, interleaved so
machine noise hits both alike). Also printed:

- `shape`: the same algorithm written as the PTC program is (filter/map/reduce with
  lambdas, a while loop for loop/recur);
- `pre-converted`: the program over data converted to PTC values once, outside the timing
  (what this benchmark used to measure);
- what entering data costs: `(count data/orders)` with 100,000 rows against 10 rows, and
  `(+ 1 2)` with the 100,000 rows passed against no data;
- parse+analyze+compile time per KB of source and `import ptc` time.

    python bench/interpreter.py [--rows 100000] [--repeat 7] [--json]

Only the public API is timed, so the script also measures older versions of ptc (it is how
docs/benchmarks.md's "before" figures were taken).
"""

from __future__ import annotations

import argparse
import json
import operator
import random
import subprocess
import sys
import time
from functools import reduce
from typing import Any, Callable

import ptc

LIMITS = ptc.Limits(timeout=120, max_steps=10**10, max_collection=10**7, max_memory=10**11, max_result=10**8)


def make_orders(n: int) -> list[dict[str, Any]]:
    rnd = random.Random(42)
    return [
        {
            "id": i,
            "customer": f"c{i % 500}",
            "status": rnd.choice(["paid", "pending", "refunded"]),
            "amount": round(rnd.random() * 500, 2),
            "items": rnd.randint(1, 5),
        }
        for i in range(n)
    ]


def once(fn: Callable[[], Any], clock: Callable[[], float] = time.perf_counter) -> float:
    t = clock()
    fn()
    return clock() - t


def best_of(fns: list[Callable[[], Any]], repeat: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """The best time of each function, the functions run in turn `repeat` times (clock: wall
    time by default; time.process_time counts this process's CPU only, steadier on a busy machine)."""
    out = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            out[i] = min(out[i], once(fn, clock))
    return out


def cases(orders: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def pipeline_shape() -> float:
        paid = filter(lambda o: o["status"] == "paid", orders)
        return reduce(operator.add, map(lambda o: o["amount"] * o["items"], paid))

    def pipeline_idiom() -> float:
        return sum(o["amount"] * o["items"] for o in orders if o["status"] == "paid")

    def group_shape() -> dict[str, float]:
        groups: dict[str, list[dict[str, Any]]] = {}
        for o in orders:
            groups.setdefault(o["customer"], []).append(o)
        return {k: reduce(operator.add, map(lambda o: o["amount"], rows)) for k, rows in groups.items()}

    def group_idiom() -> dict[str, float]:
        totals: dict[str, float] = {}
        for o in orders:
            totals[o["customer"]] = totals.get(o["customer"], 0) + o["amount"]
        return totals

    def loop_shape() -> int:
        i, s = 0, 0
        while i < 1_000_000:
            s += i
            i += 1
        return s

    def loop_idiom() -> int:
        return sum(range(1_000_000))

    def build_shape() -> int:
        def step(m: dict[int, float], o: dict[str, Any]) -> dict[int, float]:
            m[o["id"]] = o["amount"]
            return m

        return len(reduce(step, orders, {}))

    def build_idiom() -> int:
        return len({o["id"]: o["amount"] for o in orders})

    return [
        {"name": "filter/map/reduce pipeline", "target": 3,
         "src": '(->> data/orders (filter #(= (:status %) "paid")) (map #(* (:amount %) (:items %))) (reduce +))',
         "shape": pipeline_shape, "idiom": pipeline_idiom},
        {"name": "group-by + per-group sum", "target": 3,
         "src": "(update-vals (group-by :customer data/orders) (fn [rows] (reduce + (map :amount rows))))",
         "shape": group_shape, "idiom": group_idiom},
        {"name": "loop/recur 1M iterations", "target": 5,
         "src": "(loop [i 0 s 0] (if (< i 1000000) (recur (inc i) (+ s i)) s))",
         "shape": loop_shape, "idiom": loop_idiom},
        {"name": "build a map with reduce/assoc", "target": 4,
         "src": "(count (reduce (fn [m o] (assoc m (:id o) (:amount o))) {} data/orders))",
         "shape": build_shape, "idiom": build_idiom},
    ]


def same(result: Any, native: Any) -> bool:
    py = ptc.to_python(result)
    if isinstance(native, float):
        return abs(py - native) < 1e-6 * max(1.0, abs(native))
    if isinstance(native, dict):
        return len(py) == len(native) and all(abs(py[k] - native[k]) < 1e-6 * max(1, abs(native[k])) for k in native)
    return bool(py == native)


def pre_converted(raw: list[dict[str, Any]]) -> Any:
    """The rows as PTC values, converted once (the way agents kept data before the data path)."""
    from ptc.interpreter import values

    return {"orders": values.from_python(raw)}


def run_cases(raw: list[dict[str, Any]], repeat: int) -> list[dict[str, Any]]:
    plain = {"orders": raw}
    converted = pre_converted(raw)
    rows = []
    for case in cases(raw):
        src = case["src"]
        if not same(ptc.run(src, data=plain, limits=LIMITS).value, case["idiom"]()):
            raise SystemExit(f"{case['name']}: ptc and Python disagree")
        t_ptc, t_conv, t_shape, t_idiom = best_of([
            lambda: ptc.run(src, data=plain, limits=LIMITS),
            lambda: ptc.run(src, data=converted, limits=LIMITS),
            case["shape"], case["idiom"]], repeat)
        ratio = t_ptc / t_idiom
        rows.append({"name": case["name"], "ptc_ms": t_ptc * 1e3, "pre_converted_ms": t_conv * 1e3,
                     "python_shape_ms": t_shape * 1e3, "python_idiom_ms": t_idiom * 1e3,
                     "ratio": ratio, "ratio_pre_converted": t_conv / t_idiom, "ratio_shape": t_ptc / t_shape,
                     "target": case["target"], "met": ratio <= case["target"]})
    return rows


def entry_costs(raw: list[dict[str, Any]], repeat: int) -> dict[str, float]:
    """What passing data costs before a program does anything with it."""
    big, small = {"orders": raw}, {"orders": raw[:10]}
    count_big, count_small, add_big, add_none = best_of([
        lambda: ptc.run("(count data/orders)", data=big, limits=LIMITS),
        lambda: ptc.run("(count data/orders)", data=small, limits=LIMITS),
        lambda: ptc.run("(+ 1 2)", data=big, limits=LIMITS),
        lambda: ptc.run("(+ 1 2)", limits=LIMITS)], repeat * 3)
    return {"count_big_us": count_big * 1e6, "count_small_us": count_small * 1e6,
            "count_ratio": count_big / count_small, "count_target": 3,
            "add_with_data_us": add_big * 1e6, "add_without_data_us": add_none * 1e6,
            "add_ratio": add_big / add_none}


def compile_ms_per_kb(repeat: int) -> float:
    """Source to code objects, measured as the first run of programs never seen before."""
    body = "\n".join(
        f"(defn f{i} [rows] (->> rows (filter #(> (:amount %) {i})) (map (fn [{{:keys [id amount]}}] "
        f"{{:id id :total (* amount 1.2)}})) (sort-by :total) (take 10)))"
        for i in range(40)
    )
    counter = iter(range(10**9))

    def fresh() -> None:  # a new constant each time defeats any compile cache
        ptc.run(body + f"\n{next(counter)}", limits=LIMITS)

    return best_of([fresh], repeat)[0] * 1e3 / (len(body) / 1024)


def import_time() -> tuple[float, bool]:
    code = ("import time,sys; t=time.perf_counter(); import ptc; d=time.perf_counter()-t; "
            "print(d, 'litellm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]) * 1e3, out[1] == "True"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    raw = make_orders(args.rows)
    rows = run_cases(raw, args.repeat)
    entry = entry_costs(raw, args.repeat)
    per_kb = compile_ms_per_kb(args.repeat)
    imp_ms, litellm_loaded = import_time()
    if args.json:
        print(json.dumps({"rows": args.rows, "cases": rows, "entry": entry, "compile_ms_per_kb": per_kb,
                          "import_ptc_ms": imp_ms, "import_loads_litellm": litellm_loaded}, indent=2))
        return
    print(f"ptc interpreter benchmark: plain data passed to ptc.run ({args.rows} rows, best of {args.repeat})")
    print(f"{'case':30} {'ptc ms':>8} {'python ms':>10} {'ptc/python':>11}  target  "
          f"{'pre-conv.':>10} {'ptc/shape':>10}")
    for r in rows:
        print(f"{r['name']:30} {r['ptc_ms']:8.1f} {r['python_idiom_ms']:10.1f} {r['ratio']:10.2f}x  "
              f"<= {r['target']}x {'ok ' if r['met'] else 'NO '} {r['ratio_pre_converted']:9.2f}x "
              f"{r['ratio_shape']:9.2f}x")
    print(f"(count data/orders): {entry['count_big_us']:.1f} us with {args.rows} rows, "
          f"{entry['count_small_us']:.1f} us with 10: {entry['count_ratio']:.2f}x (target <= 3x)")
    print(f"(+ 1 2) with the {args.rows} rows passed: {entry['add_with_data_us']:.1f} us, without data "
          f"{entry['add_without_data_us']:.1f} us: {entry['add_ratio']:.2f}x")
    print(f"parse+analyze+compile: {per_kb:.2f} ms per KB of source")
    print(f"import ptc: {imp_ms:.1f} ms (litellm imported: {'yes' if litellm_loaded else 'no'})")


if __name__ == "__main__":
    main()
