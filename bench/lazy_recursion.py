"""Lazy recursion at scale (issue 22, item 5): the millionth item of a user-written lazy seq
against the same walk written as an eager loop, both through `ptc.run`, in one run.

    python bench/lazy_recursion.py [--n 1000000] [--repeat 2]

Prints each program's best CPU time (`time.process_time`, steadier than wall time on a shared
machine) and the ratio lazy / eager (goal <= 3x).
"""

from __future__ import annotations

import argparse
import time

import ptc

LAZY = """(defn my-map [f s] (lazy-seq (when-let [s (seq s)] (cons (f (first s)) (my-map f (rest s))))))
(nth (my-map inc (range)) {n})"""
EAGER = "(loop [i 0 s (range) acc nil] (if (> i {n}) acc (recur (inc i) (rest s) (inc (first s)))))"
LIMITS = ptc.Limits(timeout=600, max_steps=10**10, max_collection=10**8, max_memory=10**12)


def best_cpu(src: str, repeat: int) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        value = ptc.run(src, limits=LIMITS).value
        best = min(best, time.process_time() - start)
    return best, value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    lazy, lv = best_cpu(LAZY.format(n=args.n), args.repeat)
    eager, ev = best_cpu(EAGER.format(n=args.n), args.repeat)
    assert lv == ev == args.n + 1, (lv, ev)
    print(f"lazy my-map, item {args.n:,}: {lazy:.2f} s CPU")
    print(f"eager loop, same walk:     {eager:.2f} s CPU")
    print(f"lazy / eager: {lazy / eager:.2f}x (goal <= 3x)")


if __name__ == "__main__":
    main()
