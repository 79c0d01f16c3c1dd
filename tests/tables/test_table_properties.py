"""Property: a generated table gives every program the same result as the same rows passed as
plain dicts (nulls, NaN, empty tables, one row, columns of every scalar type)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ptc

pa = pytest.importorskip("pyarrow")

PROGRAMS = [
    "(count data/t)",
    "data/t",
    "(map :i data/t)",
    "(remove #(nil? (:f %)) data/t)",
    "(filter #(and (:i %) (> (:i %) 0)) data/t)",
    '(filter #(= "a" (:s %)) data/t)',
    "(group-by :s data/t)",
    "(frequencies (map :b data/t))",
    "(reduce + 0 (keep :i data/t))",
    "(sort-by :s (remove #(nil? (:s %)) data/t))",
    "(distinct (map :s data/t))",
    "(into {} (map (juxt :s :i) data/t))",
    "(first data/t)",
    "(last data/t)",
    "(take 2 data/t)",
    "(mapv #(select-keys % [:i :s]) data/t)",
    "(map #(assoc % :n 1) data/t)",
    "(= data/t (vec data/t))",
    "(sum-by :i (remove #(nil? (:i %)) data/t))",
    "(count (filter (where :s = \"b\") data/t))",
    "(set (map :b data/t))",
    "(some #(when (:b %) (:i %)) data/t)",
]

floats = st.one_of(st.none(), st.just(math.nan), st.floats(allow_nan=False, allow_infinity=False, width=32))
row = st.fixed_dictionaries({
    "i": st.one_of(st.none(), st.integers(-5, 5)),
    "f": floats,
    "s": st.one_of(st.none(), st.sampled_from(["a", "b", "", "long text é"])),
    "b": st.one_of(st.none(), st.booleans()),
})


def result(src: str, data: Any) -> tuple[str, str]:
    try:
        return ("ok", ptc.pr_str(ptc.run(src, data={"t": data}).value))
    except ptc.PTCError as e:
        return ("error", e.kind)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(row, max_size=12))
def test_tables_and_dicts_agree(rows: list[dict[str, Any]]) -> None:
    rows = [{k: r[k] for k in "ifsb"} for r in rows]  # the table's column order
    schema = pa.schema([("i", pa.int64()), ("f", pa.float64()), ("s", pa.string()), ("b", pa.bool_())])
    table = pa.Table.from_pylist(rows, schema=schema)
    for src in PROGRAMS:
        assert result(src, table) == result(src, rows), src
