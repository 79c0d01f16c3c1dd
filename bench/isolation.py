"""Per-run overhead of process isolation: inline vs process mode, measured in the same run.

    python bench/isolation.py [runs]

For each program: mean and median milliseconds per `ptc.run` in each mode, and the ratio
process/inline. The last program shows what data costs: the rows passed to an isolated run
are sent to its child process (pickled) on every run. Inline runs hit the compile cache after the first run; process runs compile
in a fresh child every time (that is part of the overhead being measured). The zygote is
started before timing (its one-off start is reported separately).
"""

from __future__ import annotations

import statistics
import sys
import time

import ptc
from ptc import Limits
from ptc.interpreter import isolation
from ptc.interpreter.isolation.zygote import _spawn

ROWS = [{"id": i, "region": ("north", "south", "east", "west")[i % 4], "amount": (i * 37) % 500,
         "tags": ["a", "b"] if i % 3 else ["c"]} for i in range(200)]


BIG = [{"id": i, "region": ("north", "south")[i % 2], "amount": i % 500} for i in range(10_000)]


def lookup(region: str) -> dict:
    return {"region": region, "manager": region.upper() + "-MGR"}


PROGRAMS = {
    "trivial": ("(+ 1 2)", {}, {}),
    "data (200 rows, 1 tool call)": (
        """
        (def by-region (group-by :region data/rows))
        (def totals (into {} (map (fn [[r rows]] [r (reduce + (map :amount rows))]) by-region)))
        (def top (first (sort-by (comp - val) totals)))
        (println "top region" (key top))
        {:top (key top) :total (val top) :manager (:manager (tool/lookup {:region (key top)}))
         :big (count (filter #(> (:amount %) 250) data/rows))}
        """,
        {"rows": ROWS},
        {"lookup": lookup},
    ),
    "count of 10,000 rows passed": ("(count data/rows)", {"rows": BIG}, {}),
}

try:  # a table's kernels in the child: what the zygote imported for tables is not paid per run
    import pyarrow as pa

    TABLE = pa.table({"id": list(range(100_000)), "amount": [(i * 37) % 500 for i in range(100_000)]})
    PROGRAMS["filter of a 100,000-row table"] = ("(count (filter #(> (:amount %) 250) data/t))", {"t": TABLE}, {})
except ImportError:
    pass


def bench(source: str, data: dict, tools: dict, limits: Limits, runs: int) -> list[float]:
    ptc.run(source, data=data, tools=tools, limits=limits)  # warm (inline: compile cache)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        ptc.run(source, data=data, tools=tools, limits=limits)
        times.append((time.perf_counter() - t) * 1000)
    return times


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    t = time.perf_counter()
    isolation.start()
    print(f"zygote start (once per host process): {(time.perf_counter() - t) * 1000:.0f} ms")
    inline, process = Limits(), Limits(isolation="process")
    print(f"{'program':32} {'inline mean':>12} {'process mean':>13} {'inline p50':>11} {'process p50':>12} {'ratio':>7}")
    for name, (source, data, tools) in PROGRAMS.items():
        a = bench(source, data, tools, inline, runs)
        b = bench(source, data, tools, process, runs)
        ratio = statistics.mean(b) / statistics.mean(a)
        print(f"{name:32} {statistics.mean(a):10.3f}ms {statistics.mean(b):11.3f}ms "
              f"{statistics.median(a):9.3f}ms {statistics.median(b):10.3f}ms {ratio:6.1f}x")
    spawn = []
    for _ in range(runs):
        t = time.perf_counter()
        child = _spawn()
        spawn.append((time.perf_counter() - t) * 1000)
        child.kill()
        child.exit_code(1.0)
        child.close()
    print(f"fork of one child by the zygote: mean {statistics.mean(spawn):.3f} ms, "
          f"p50 {statistics.median(spawn):.3f} ms")


if __name__ == "__main__":
    main()
