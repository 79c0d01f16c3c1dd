"""ml/train-test-split: scikit-learn's train_test_split, drawn on the rows' indices.

scikit-learn splits by drawing indices (ShuffleSplit, StratifiedShuffleSplit) and then taking
each array's rows at them, so splitting the indices 0..n-1 with the same options and seed gives
the very rows it would give, of anything: rows of a table, maps, X and y together.
"""

from __future__ import annotations

from typing import Any

from ... import context
from ...errors import runtime_error
from ...values import MAP_TYPES, iter_all, short, type_name, vec
from ..stats.entry import keyword_map, options
from .entry import SPLIT, calling, ml

_OPTIONS = ("test-size", "train-size", "random-state", "seed", "shuffle?", "shuffle", "stratify")


def _rows(coll: Any, who: str) -> list[Any]:
    if type(coll) in MAP_TYPES or type(coll) in (int, float, str, bool):
        raise runtime_error(f"{who}: expected a collection of rows (a vector, seq or table), got {type_name(coll)} "
                            f"{short(coll)}")
    out = list(iter_all(coll, who))
    context.check_size(len(out), f"{who}'s input")
    return out


@ml("train-test-split", args=("[coll]", "[coll opts]", "[xs ys]", "[xs ys opts]"), needs=SPLIT,
    doc="Splits rows into a training and a test part as scikit-learn's train_test_split does: the same rows for "
        "the same options and :random-state (alias :seed; without one, a seed from the run's generator, so a seeded "
        "run replays). (ml/train-test-split coll opts) gives {:train [...] :test [...]}, (ml/train-test-split xs ys "
        "opts) {:x-train :x-test :y-train :y-test}. opts: :test-size (0.25: a fraction, or a count of rows), "
        ":train-size, :shuffle? (true), :stratify (labels, one per row: each part keeps their proportions).",
    ex=(("(ml/train-test-split (range 8) {:test-size 0.25 :random-state 42})", "{:train [0 7 2 4 3 6], :test [1 5]}"),
        ("(:y-test (ml/train-test-split [[1] [2] [3] [4]] [:a :b :c :d] {:test-size 1 :random-state 0}))", "[:c]"),
        ("(:test (ml/train-test-split [1 2 3 4 5] {:shuffle? false :test-size 2}))", "[4 5]")))
def train_test_split(coll: Any, second: Any = None, opts: Any = None) -> Any:
    import numpy as np
    from sklearn.model_selection import train_test_split as split

    from . import data

    who = "ml/train-test-split"
    pair = opts is not None or (second is not None and type(second) not in MAP_TYPES)
    parts = [_rows(coll, who)] + ([_rows(second, who)] if pair else [])
    o = options(opts if pair else second, who, _OPTIONS)
    n = len(parts[0])
    if pair and len(parts[1]) != n:
        raise runtime_error(f"{who}: xs has {n} rows and ys {len(parts[1])} values",
                            hint="ys holds one label (or number) per row of xs")
    shuffle = o.get("shuffle?", o.get("shuffle", True)) not in (False, None)
    seed = o.get("random-state", o.get("seed"))
    if seed is None and shuffle:
        seed = context.rng().getrandbits(32)
    stratify = None
    if o.get("stratify") is not None:
        stratify = data.labels(o["stratify"], who, ":stratify").values
        if len(stratify) != n:
            raise runtime_error(f"{who}: :stratify has {len(stratify)} labels for {n} rows")
    with calling(who):
        train, test = split(np.arange(n), test_size=o.get("test-size"), train_size=o.get("train-size"),
                            random_state=seed, shuffle=shuffle, stratify=stratify)
    taken = [(vec(p[i] for i in train.tolist()), vec(p[i] for i in test.tolist())) for p in parts]
    if not pair:
        return keyword_map([("train", taken[0][0]), ("test", taken[0][1])])
    return keyword_map([("x-train", taken[0][0]), ("x-test", taken[0][1]), ("y-train", taken[1][0]),
                        ("y-test", taken[1][1])])
