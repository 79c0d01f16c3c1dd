"""The Ray executor: each execution is a Ray task (`pip install 'ptc-lisp[ray]'`).

Worth it when executions are many and slow -- missions x models x runs against real LLMs,
where latency dominates -- and when you want to spread them over several machines. Each task
builds its agent from the picklable `ExecSpec` and runs it with `Agent.run()`; cassettes are
shipped inside the spec (replay) or returned in the outcome (record), so workers need no
shared file system, only ptc (and the modules the suite's tools live in) installed.

For replay-mode runs on one machine the local executor is faster: a replayed LLM call costs
nothing, and Ray's per-task overhead (serialization, scheduling, worker processes) is larger
than the execution itself.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

from .execute import ExecSpec, Outcome, crashed, execute


def _init(address: str | None, init_kwargs: dict[str, Any] | None) -> bool:
    """Connect to (or start) Ray; True when this call started it."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray executor needs Ray: pip install 'ptc-lisp[ray]' (or pip install ray)") from None
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False}
    if address:
        kwargs["address"] = address
    kwargs.update(init_kwargs or {})
    ray.init(**kwargs)
    return True


def run_ray(specs: Sequence[ExecSpec], on_done: Callable[[Outcome], None], *, concurrency: int = 8,
            address: str | None = None, num_cpus: float = 1.0, init_kwargs: dict[str, Any] | None = None,
            shutdown: bool | None = None) -> None:
    """Run the executions as Ray tasks, at most `concurrency` in flight; `on_done` is called
    in this process as each finishes (so the results file and the store have one writer).

    `address`: a cluster ("ray://host:10001", "auto") or None for a local Ray. `num_cpus`:
    CPUs reserved per task; below 1 (e.g. 0.25) lets latency-bound real-LLM executions share
    a core. `shutdown`: disconnect at the end (default: only when this call connected).
    """
    import ray

    from dataclasses import replace

    started = _init(address, init_kwargs)
    remote = ray.remote(num_cpus=num_cpus)(execute)
    queue = [replace(s, executor="ray") for s in specs]
    queue.reverse()
    in_flight: dict[Any, ExecSpec] = {}
    try:
        while queue or in_flight:
            while queue and len(in_flight) < max(1, concurrency):
                spec = queue.pop()
                in_flight[remote.remote(spec)] = spec
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                spec = in_flight.pop(ref)
                t0 = time.perf_counter()
                try:
                    outcome = ray.get(ref)
                except Exception as e:  # noqa: BLE001 - a lost worker fails one execution, not the suite
                    outcome = crashed(spec, e, t0)
                on_done(outcome)
    finally:
        for ref in in_flight:
            try:
                ray.cancel(ref)
            except Exception:  # noqa: BLE001
                pass
        if shutdown if shutdown is not None else started:
            ray.shutdown()
