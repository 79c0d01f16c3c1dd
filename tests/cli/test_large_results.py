"""A large table result after the run (issue 43, item 11): what the CLI prints of it is bounded.

The run's limits end with it; what prints it afterwards is on no clock, so each printer makes
only what it shows or refuses by a budget of its own: the table view makes the head of a
filter's rows (all 10M were made: 15 s, +1.6 GB), `--json` refuses a value past its budget
with the limit error naming `--output` (it made every row first: 9 s, +1.9 GB, then a
traceback), and `--output` converts the rows a batch at a time (10M rows as CSV: 60 s,
3.5 GB -> 14 s, 0.5 GB, the same bytes).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

import ptc

pa = pytest.importorskip("pyarrow")


def _table(n: int) -> Any:
    import numpy as np

    return pa.table({"v": np.arange(n, dtype=np.float64), "s": pa.array(np.arange(n) % 7).cast(pa.string())})


def test_the_table_view_makes_only_the_head_of_a_filters_rows() -> None:
    from ptc.cli.table_view import head_rows

    value = ptc.run("(filter #(> (:v %) -1.0) data/t)", data={"t": _table(3_000_000)}).value
    rows, total = head_rows(value)  # type: ignore[misc]
    assert total == 3_000_000 and rows[:2] == [{"v": 0.0, "s": "0"}, {"v": 1.0, "s": "1"}] and len(rows) == 40
    assert value.known_count() == 3_000_000 and len(value._cache) <= 64  # the head's chunks alone


def test_json_of_a_value_past_its_budget_is_the_limit_error(capsys: pytest.CaptureFixture[str]) -> None:
    from ptc.cli.common import run_and_report

    status = run_and_report("(filter #(> (:v %) -1.0) data/t)", data={"t": _table(3_000_000)}, limits=ptc.Limits(),
                            as_json=True)
    out, err = capsys.readouterr()
    assert status == 1
    error = json.loads(out)["error"]
    assert error["kind"] == "limit" and "too large to print as JSON" in error["message"], error
    assert "--output" in error["hint"] and "Traceback" not in err and "too large to print as JSON" in err


def test_a_json_value_within_its_budget_prints() -> None:
    from ptc.cli.common import json_text

    value = ptc.run("(take 3 (filter #(> (:v %) 0.5) data/t))", data={"t": _table(100)}).value
    assert json.loads(json_text(ptc.to_python(value))) == [{"v": 1.0, "s": "1"}, {"v": 2.0, "s": "2"},
                                                           {"v": 3.0, "s": "3"}]


@pytest.mark.parametrize("program", ["data/t", "(filter #(odd? (long (:v %))) data/t)",
                                     "(vec (take 2500 (sort-by :v > data/t)))", '[{:a 1} {:b "x"} {:a nil}]'])
@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_output_written_in_batches_is_what_all_rows_at_once_give(program: str, suffix: str, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle: the rows converted at once (results.rows_of) written by the csv and json modules."""
    from ptc.data import results

    value = ptc.run(program, data={"t": _table(5000)}).value
    rows = results.rows_of(value)
    assert rows is not None
    want = tmp_path / f"want{suffix}"
    with want.open("w", encoding="utf-8", newline="") as fh:
        if suffix == ".csv":
            columns = list(dict.fromkeys(str(k) for row in rows for k in row))
            writer = csv.writer(fh)
            writer.writerow(columns)
            for row in rows:
                writer.writerow([results._cell(row.get(c)) for c in columns])
        else:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    monkeypatch.setattr(results, "BATCH", 700)  # several batches, the last one short
    got = tmp_path / f"got{suffix}"
    assert results.write_table(value, got) == len(rows)
    assert got.read_bytes() == want.read_bytes()
