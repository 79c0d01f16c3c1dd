"""Suite throughput in replay mode: ptc's own overhead per mission execution.

Replays the bundled suite (26 missions x none/coalesced, from the committed cassettes), so
LLM calls cost nothing and what is measured is ptc: building agents and prompts, running the
programs, judging results, writing records. Reports executions per second for

1. the local executor at concurrency 1 and 16 (no results file, no store);
2. the local executor at concurrency 16 with the JSONL results file and a SQLite store;
3. concurrency 1 vs 16 when every replayed reply arrives after a simulated latency (--latency,
   default 200 ms): what concurrency is for with real models;
4. the Ray executor (a local Ray, workers warmed up first) at 16 in flight, when ray is
   importable -- Ray pays per-task scheduling and serialization, which replay makes visible.

Every figure and ratio comes from this run. Each configuration runs --repeat times; the
median is reported (min and max alongside).

    python bench/suite.py
    python bench/suite.py --runs 8 --repeat 5
    python bench/suite.py --no-ray --latency 0
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ptc.suite.bundled import CASSETTES, MODEL, STRATEGIES, load  # noqa: E402
from ptc.suite.runner import run_suite  # noqa: E402


def measure(label: str, fn: Callable[[], Any], executions: int, repeat: int) -> dict[str, Any]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        summary = fn()
        times.append(time.perf_counter() - t0)
        if summary.ran != executions or summary.passed != executions:
            raise SystemExit(f"{label}: {summary.passed}/{summary.ran} passed, expected {executions}/{executions}")
    med = statistics.median(times)
    row = {"label": label, "median_s": med, "min_s": min(times), "max_s": max(times), "rate": executions / med}
    print(f"  {label:<44} {row['rate']:8.1f} executions/s   (median {med:.3f}s, min {min(times):.3f}s, "
          f"max {max(times):.3f}s)", flush=True)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=4, help="runs of every mission x strategy (default 4)")
    ap.add_argument("--repeat", type=int, default=3, help="timed repetitions per configuration (default 3)")
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray executor")
    ap.add_argument("--latency", type=float, default=200, metavar="MS",
                    help="simulated model latency for the concurrency-with-latency rows (default 200; 0: skip)")
    args = ap.parse_args()

    suite = load()
    executions = len(suite.missions) * len(STRATEGIES) * args.runs
    kw: dict[str, Any] = dict(models=[MODEL], strategies=list(STRATEGIES), replay=CASSETTES, runs=args.runs)
    print(f"bundled suite: {len(suite.missions)} missions x {len(STRATEGIES)} strategies x {args.runs} runs = "
          f"{executions} executions per measurement, replayed; {os.cpu_count()} CPUs; python "
          f"{sys.version.split()[0]}")

    # warm-up: imports, the compile cache, tool schemas
    run_suite(suite, concurrency=4, **kw)

    rows: dict[str, dict[str, Any]] = {}
    rows["c1"] = measure("local, concurrency 1", lambda: run_suite(suite, concurrency=1, **kw), executions,
                         args.repeat)
    rows["c16"] = measure("local, concurrency 16", lambda: run_suite(suite, concurrency=16, **kw), executions,
                          args.repeat)

    with tempfile.TemporaryDirectory() as tmp:
        from ptc.store import Store

        counter = iter(range(1_000_000))

        def with_outputs() -> Any:
            n = next(counter)
            store = Store(Path(tmp) / f"s{n}.db")
            try:
                return run_suite(suite, concurrency=16, results=Path(tmp) / f"r{n}.jsonl", store=store, **kw)
            finally:
                store.close()

        rows["c16io"] = measure("local, concurrency 16, JSONL + SQLite store", with_outputs, executions,
                                args.repeat)

    if args.latency > 0:
        # what concurrency is for: overlapping model latency (simulated: each replayed reply
        # arrives after --latency ms, as from a real LLM)
        from ptc.llm.cassette import ReplayLLM

        original = ReplayLLM.acomplete
        delay = args.latency / 1000

        async def slow(self: Any, messages: Any) -> Any:
            import asyncio

            await asyncio.sleep(delay)
            return self.complete(messages)

        ReplayLLM.acomplete = slow  # type: ignore[method-assign]
        try:
            lat = dict(kw, runs=1)
            n = executions // args.runs
            rows["lat1"] = measure(f"local, concurrency 1, {args.latency:g} ms per LLM call",
                                   lambda: run_suite(suite, concurrency=1, **lat), n, 1)
            rows["lat16"] = measure(f"local, concurrency 16, {args.latency:g} ms per LLM call",
                                    lambda: run_suite(suite, concurrency=16, **lat), n, args.repeat)
        finally:
            ReplayLLM.acomplete = original  # type: ignore[method-assign]

    ray_ok = False
    if not args.no_ray:
        try:
            import ray
        except ImportError:
            print("  ray: not installed (pip install 'ptc-lisp[ray]'), skipped")
        else:
            t0 = time.perf_counter()
            ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="ERROR", log_to_driver=False)
            print(f"  (ray.init: {time.perf_counter() - t0:.1f}s)")
            try:
                run_suite(suite, concurrency=16, executor="ray", **kw)  # warm the workers up
                rows["ray"] = measure("ray (local, %d CPUs), 16 in flight" % (os.cpu_count() or 1),
                                      lambda: run_suite(suite, concurrency=16, executor="ray", **kw), executions,
                                      args.repeat)
                ray_ok = True
            finally:
                ray.shutdown()

    print()
    print(f"concurrency 16 / concurrency 1:          {rows['c16']['rate'] / rows['c1']['rate']:.2f}x")
    print(f"with JSONL + store / without (c=16):      {rows['c16io']['rate'] / rows['c16']['rate']:.2f}x")
    if "lat16" in rows:
        print(f"concurrency 16 / 1 with {args.latency:g} ms latency:     "
              f"{rows['lat16']['rate'] / rows['lat1']['rate']:.2f}x")
    if ray_ok:
        print(f"ray / local (both 16 in flight):          {rows['ray']['rate'] / rows['c16']['rate']:.2f}x")
    per_exec_ms = 1000 / rows["c1"]["rate"]
    print(f"ptc overhead per execution (c=1): {per_exec_ms:.1f} ms "
          f"({per_exec_ms / 1.5:.1f} ms per turn at the suite's 1.5 turns per execution)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
