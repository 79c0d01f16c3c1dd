"""Interpreter speed: each PTC-Lisp program next to native Python on the same data.

Prints ptc/native time ratios measured in the same process and run (best of N, runs
interleaved), against two native versions: the same algorithm written the way the PTC
program is (`shape`: filter/map/reduce with lambdas, a while loop for loop/recur) and
the idiomatic Python a person would write (`idiom`: comprehensions, dict loops).
Also prints parse+analyze+compile time per KB of source and `import ptc` time.

    python bench/interpreter.py [--rows 100000] [--repeat 5] [--json]
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
from ptc.interpreter import values as V
from ptc.interpreter.analyzer import Names, analyze_program
from ptc.interpreter.compiler import Compiler
from ptc.interpreter.reader import read

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


def best(fn: Callable[[], Any], repeat: int) -> float:
    out = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
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
        {"name": "filter/map/reduce pipeline", "target": 2, "defect": 5,
         "src": '(->> data/orders (filter #(= (:status %) "paid")) (map #(* (:amount %) (:items %))) (reduce +))',
         "shape": pipeline_shape, "idiom": pipeline_idiom},
        {"name": "group-by + per-group sum", "target": 2, "defect": 5,
         "src": "(update-vals (group-by :customer data/orders) (fn [rows] (reduce + (map :amount rows))))",
         "shape": group_shape, "idiom": group_idiom},
        {"name": "loop/recur 1M iterations", "target": 5, "defect": 15,
         "src": "(loop [i 0 s 0] (if (< i 1000000) (recur (inc i) (+ s i)) s))",
         "shape": loop_shape, "idiom": loop_idiom},
        {"name": "build a map with reduce/assoc", "target": 4, "defect": 8,
         "src": "(count (reduce (fn [m o] (assoc m (:id o) (:amount o))) {} data/orders))",
         "shape": build_shape, "idiom": build_idiom},
    ]


def check_same(result: Any, native: Any) -> None:
    py = ptc.to_python(result)
    if isinstance(native, float):
        assert abs(py - native) < 1e-6 * max(1.0, abs(native)), (py, native)
    elif isinstance(native, dict):
        assert len(py) == len(native) and all(abs(py[k] - native[k]) < 1e-6 * max(1, abs(native[k])) for k in native)
    else:
        assert py == native, (py, native)


def compile_time_per_kb(repeat: int) -> float:
    body = "\n".join(
        f"(defn f{i} [rows] (->> rows (filter #(> (:amount %) {i})) (map (fn [{{:keys [id amount]}}] "
        f"{{:id id :total (* amount 1.2)}})) (sort-by :total) (take 10)))"
        for i in range(40)
    )
    kb = len(body) / 1024

    def compile_once() -> None:
        Compiler(body).program(analyze_program(read(body), Names()))

    return best(compile_once, repeat) / kb


def import_time() -> tuple[float, bool]:
    code = ("import time,sys; t=time.perf_counter(); import ptc; d=time.perf_counter()-t; "
            "print(d, 'litellm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), out[1] == "True"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    raw = make_orders(args.rows)
    data = {"orders": V.from_python(raw)}  # converted once, as an agent does across turns
    rows = []
    for case in cases(raw):
        src = case["src"]
        result = ptc.run(src, data=data, limits=LIMITS).value
        check_same(result, case["shape"]())
        t_ptc = t_shape = t_idiom = float("inf")
        for _ in range(args.repeat):  # interleave so that machine noise hits all three alike
            t_ptc = min(t_ptc, best(lambda: ptc.run(src, data=data, limits=LIMITS), 1))
            t_shape = min(t_shape, best(case["shape"], 1))
            t_idiom = min(t_idiom, best(case["idiom"], 1))
        ratio = t_ptc / t_shape
        verdict = "ok" if ratio <= case["target"] else ("above target" if ratio <= case["defect"] else "DEFECT")
        rows.append({"name": case["name"], "ptc_ms": t_ptc * 1e3, "native_shape_ms": t_shape * 1e3,
                     "native_idiom_ms": t_idiom * 1e3, "ratio_shape": ratio, "ratio_idiom": t_ptc / t_idiom,
                     "target": case["target"], "defect": case["defect"], "verdict": verdict})
    per_kb = compile_time_per_kb(args.repeat)
    imp, litellm_loaded = import_time()
    if args.json:
        print(json.dumps({"rows": args.rows, "cases": rows, "compile_ms_per_kb": per_kb * 1e3,
                          "import_ptc_ms": imp * 1e3, "import_loads_litellm": litellm_loaded}, indent=2))
        return
    print(f"ptc interpreter benchmark ({args.rows} rows, best of {args.repeat})")
    print(f"{'case':32} {'ptc ms':>8} {'shape ms':>9} {'idiom ms':>9} {'ptc/shape':>10} {'ptc/idiom':>10}  target")
    for r in rows:
        print(f"{r['name']:32} {r['ptc_ms']:8.1f} {r['native_shape_ms']:9.1f} {r['native_idiom_ms']:9.1f} "
              f"{r['ratio_shape']:9.2f}x {r['ratio_idiom']:9.2f}x  <= {r['target']}x ({r['verdict']})")
    print(f"parse+analyze+compile: {per_kb * 1e3:.2f} ms per KB of source")
    print(f"import ptc: {imp * 1e3:.1f} ms (litellm imported: {'yes' if litellm_loaded else 'no'})")


if __name__ == "__main__":
    main()
