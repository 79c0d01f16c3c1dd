"""`ptc run PROGRAM --explain`: the value on stdout as usual, then the kernel report on stderr."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")


def test_run_explain_without_tables(invoke: Any, tmp_path: Path) -> None:
    prog = tmp_path / "p.clj"
    prog.write_text("(count (filter #(> (:a %) 1) data/rows))")
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"rows": [{"a": 1}, {"a": 2}]}))
    r = invoke("run", str(prog), "--data", str(data), "--explain")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "1\n"
    assert r.stderr == "explain: no builtin call met a table: nothing to run as a kernel\n"


def test_run_explain_with_a_table(invoke: Any, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"a": [1, 2, 3], "s": ["x", "y", "x"]}), tmp_path / "rows.parquet")
    prog = tmp_path / "p.clj"
    prog.write_text("(->> data/rows (filter #(> (:a %) 1)) (map #(str/capitalize (:s %))) frequencies)")
    r = invoke("run", str(prog), "--data", str(tmp_path / "rows.parquet"), "--explain")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == '{"Y" 1, "X" 1}\n'
    assert r.stderr.splitlines() == [
        "explain: 2 calls over tables: 1 as kernels, 1 row by row",
        "kernel  filter       (> :a 1)",
        "rows    map          fn body calls clojure.string/capitalize: not a column expression",
    ]
