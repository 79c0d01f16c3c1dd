"""Group bodies the table engine cannot fold, and folds whose data once made them fall back:
ptc over an Arrow table against pandas' groupby, from one run.

    python bench/group_fallbacks.py

- "zeros": 200,000 groups whose float column starts at 0.0, each {:s sum :m max}. A max over
  floats holding +0.0 used to refuse the fold (only -0.0 makes Clojure's max depend on order):
  every group then ran by kernels one by one, over 40 s.
- "small groups": 10,000 groups of 2 rows whose column holds one NaN (a max that depends on
  the order: no fold), so the body runs group by group; a group under 64 rows is read as rows.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

import ptc
from chunked_groups import best  # the best of 3 runs (bench/ is on the path of a script here)

SRC = "(count (map (fn [[k rows]] {:k k :s (reduce + (map :v rows)) :m (apply max (map :v rows))}) (group-by :id data/t)))"


def case(name: str, ids: np.ndarray, v: np.ndarray) -> None:
    t = pa.table({"id": ids, "v": v})
    df = t.to_pandas()
    groups = len(np.unique(ids))
    try:
        assert ptc.run(SRC, data={"t": t}, limits=ptc.Limits(timeout=120)).value == groups
    except ptc.PTCError as e:  # what the version before the fix did
        print(f"{name:14} {groups:>8} groups  ptc: {e.message}")
        return
    p = best(lambda: ptc.run(SRC, data={"t": t}, limits=ptc.Limits(timeout=120)))
    q = best(lambda: df.groupby("id", sort=False).agg(s=("v", "sum"), m=("v", "max")))
    print(f"{name:14} {groups:>8} groups  ptc {p:7.3f} s  pandas {q:7.3f} s  ptc/pandas {p / q:6.2f}x")


def main() -> None:
    n = 200_000
    case("zeros", np.arange(n), np.arange(n, dtype=np.float64))
    v = np.arange(20_000, dtype=np.float64)
    v[5] = np.nan
    case("small groups", np.arange(20_000) // 2, v)


if __name__ == "__main__":
    main()
