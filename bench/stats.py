"""The analyst's library against pandas, from one run: a statistic of a million-row column, and
the same statistics per group as folds of the table engine (issue 41's figures).

    python bench/stats.py [--rows N]

Each case times the whole ptc.run (parse, compile once cached, the run, the result out) over a
pyarrow Table, against the pandas a person would write over the same DataFrame, best of 5, and
checks the answers agree (1e-9 relative). Prints a ratio per case and the geometric mean.
"""

from __future__ import annotations

import argparse
import math
from typing import Any, Callable

import numpy as np
import pandas as pd
import pyarrow as pa

import ptc
from chunked_groups import best  # the best of n runs (bench/ is on the path of a script here)

LIMITS = ptc.Limits(timeout=120, max_result=100_000_000, max_collection=100_000_000, max_memory=8 << 30)


def _values(x: Any) -> list[float]:
    """The answer as floats in key order (nil, pandas' NaN, as NaN)."""
    items = [x[k] for k in sorted(x)] if isinstance(x, dict) else [x]
    return [math.nan if v is None else float(v) for v in items]


def _agree(got: Any, want: Any) -> bool:
    a, b = _values(got), _values(want)
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) or (math.isnan(x) and math.isnan(y))
                                    for x, y in zip(a, b))


def case(name: str, src: str, data: dict[str, Any], python: Callable[[], Any]) -> float:
    got = ptc.to_python(ptc.run(src, data=data, limits=LIMITS).value)
    want = python()
    if isinstance(want, pd.Series):
        want = want.to_dict()
    if isinstance(got, dict):
        got = {str(k): v for k, v in got.items()}
        want = {str(k): v for k, v in want.items()}
    assert _agree(got, want), name
    p = best(lambda: ptc.run(src, data=data, limits=LIMITS), 5)
    q = best(python, 5)
    print(f"{name:34} ptc {p * 1e3:8.1f} ms  pandas {q * 1e3:8.1f} ms  ptc/pandas {p / q:5.2f}x", flush=True)
    return p / q


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    n = ap.parse_args().rows
    rng = np.random.default_rng(0)
    ratios = []
    x = rng.normal(50, 10, n)
    t = pa.table({"v": x})
    s = t.column("v").to_pandas()
    print(f"one column of {n:,} floats")
    for fn, py in [("median", s.median), ("mean", s.mean), ("stddev", s.std), ("quantile", lambda: s.quantile(0.9)),
                   ("skewness", s.skew)]:
        arg = " 0.9" if fn == "quantile" else ""
        ratios.append(case(f"  stats/{fn}", f"(stats/{fn} (map :v data/t){arg})", {"t": t}, py))
    for groups in (100, 10_000, 100_000):
        print(f"{n:,} rows in {groups:,} groups")
        g = pa.table({"k": rng.integers(0, groups, n), "v": rng.normal(50, 10, n), "w": rng.normal(0, 1, n)})
        df = g.to_pandas()
        # df.groupby("k") in every call, as a person writes it: a GroupBy object kept between calls
        # keeps its factorized keys (std over 100 groups: 2.7 ms kept, 10.6 ms written out), and
        # each ptc.run groups its table anew
        cases = [
            ("median", "#(stats/median (map :v %))", lambda: df.groupby("k")["v"].median()),
            ("stddev", "#(stats/stddev (map :v %))", lambda: df.groupby("k")["v"].std()),
            ("quantile 0.9", "#(stats/quantile (map :v %) 0.9)", lambda: df.groupby("k")["v"].quantile(0.9)),
            ("mean", "#(stats/mean (map :v %))", lambda: df.groupby("k")["v"].mean()),
            ("correlation", "#(stats/correlation (map :v %) (map :w %))",
             lambda: df.groupby("k")[["v", "w"]].corr().xs("v", level=1)["w"]),
        ]
        for name, body, py in cases:
            if name == "correlation" and groups > 100:  # pandas' per-group corr is a Python loop: seconds
                continue
            ratios.append(case(f"  update-vals {name}", f"(update-vals (group-by :k data/t) {body})", {"t": g}, py))
    print(f"geomean ptc/pandas over {len(ratios)} cases: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}x")


if __name__ == "__main__":
    main()
