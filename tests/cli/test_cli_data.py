"""`--data [NAME=]FILE` on the commands, results printed as tables and written with --output, suites' data files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

CSV = "id,region,amount\n1,north,2.5\n2,south,4\n3,north,\n"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sales.csv").write_text(CSV)
    (tmp_path / "d.json").write_text('{"limit": 2}')
    con = sqlite3.connect(tmp_path / "shop.db")
    con.execute("CREATE TABLE customers (id INTEGER, name TEXT)")
    con.executemany("INSERT INTO customers VALUES (?, ?)", [(1, "Ada"), (2, "Grace")])
    con.commit()
    con.close()
    return tmp_path


def test_data_files_repeated_named_and_queried(invoke, files: Path) -> None:
    r = invoke("eval", "[(count data/sales) (count data/q) (:name (first data/customers)) data/limit (count data/c)]",
               "--data", "sales.csv", "--data", "q=sales.csv", "--data", "shop.db", "--data", "d.json",
               "--data", "c=shop.db#SELECT * FROM customers WHERE id > 1")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.strip() == '[3 3 "Ada" 2 1]'


def test_a_name_given_twice_is_refused(invoke, files: Path) -> None:
    r = invoke("eval", "1", "--data", "sales.csv", "--data", "sales=d.json#x")
    assert r.exit_code == 2 and "a .json file has none" in r.stderr
    r = invoke("eval", "1", "--data", "sales.csv", "--data", "sales=shop.db#customers")
    assert r.exit_code == 2 and "data/sales is given twice" in r.stderr


def test_a_vector_of_maps_prints_as_a_table_and_json_is_unchanged(invoke, files: Path) -> None:
    r = invoke("eval", "(filter :amount data/sales)", "--data", "sales.csv")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["id", "region", "amount"]
    assert lines[2].split() == ["1", "north", "2.5"] and lines[3].split() == ["2", "south", "4.0"]
    assert lines[-1] == "2 rows x 3 columns"
    r = invoke("eval", "(filter :amount data/sales)", "--data", "sales.csv", "--json")
    assert json.loads(r.stdout)["value"] == [{"id": 1, "region": "north", "amount": 2.5},
                                             {"id": 2, "region": "south", "amount": 4.0}]
    r = invoke("eval", "(vec (range 3))")
    assert r.stdout.strip() == "[0 1 2]"  # other values print as before


def test_a_long_result_shows_its_first_rows_and_the_count(invoke) -> None:
    r = invoke("eval", "(mapv (fn [i] {:i i}) (range 5000))")
    assert r.exit_code == 0 and r.stdout.splitlines()[-1] == \
        "5,000 rows x 1 column (first 40 shown; --output FILE writes them all)"


def test_output_writes_every_row_by_suffix(invoke, files: Path) -> None:
    for name in ("out.csv", "out.jsonl", "out.parquet"):
        r = invoke("eval", "(mapv (fn [i] {:i i :sq (* i i)}) (range 100))", "--output", name)
        assert r.exit_code == 0 and f"wrote 100 rows to {name}" in r.stderr
    assert (files / "out.csv").read_text().splitlines()[:2] == ["i,sq", "0,0"]
    assert json.loads((files / "out.jsonl").read_text().splitlines()[-1]) == {"i": 99, "sq": 9801}
    r = invoke("run", "-", "--data", "sales.csv", "--output", "copy.parquet", input="data/sales")
    assert r.exit_code == 0, r.stderr
    import ptc

    assert ptc.table(files / "copy.parquet").to_pylist()[2] == {"id": 3, "region": "north", "amount": None}


def test_output_errors_are_one_line_exit_2(invoke, files: Path) -> None:
    r = invoke("eval", "[{:a 1}]", "--output", "out.xlsx")
    assert r.exit_code == 2 and r.stderr.strip().count("\n") == 0 and "give a .csv, .jsonl, .parquet file" in r.stderr
    r = invoke("eval", "42", "--output", "out.csv")
    assert r.exit_code == 2 and "a table needs a vector of maps (rows), not 42" in r.stderr
    r = invoke("eval", "[{:a 1}]", "--output", "no/such/dir/out.csv")
    assert r.exit_code == 2 and "cannot write no/such/dir/out.csv" in r.stderr


def test_sandbox_spec_and_agent_take_data_files(invoke, files: Path) -> None:
    r = invoke("sandbox", "spec", "--data", "sales.csv", "--format", "text")
    assert r.exit_code == 0 and "data/sales" in r.stdout
    script = files / "script.json"
    script.write_text(json.dumps(["```clojure\n(return (count data/sales))\n```"]))
    r = invoke("chat", "--mode", "agent", "--script", str(script), "--data", "sales.csv", input="how many sales?\n")
    assert r.exit_code == 0, r.stderr
    assert "3" in r.stdout


def test_repl_reads_data_files(invoke, files: Path) -> None:
    r = invoke("repl", "--data", "sales.csv", input="(count data/sales)\n")
    assert r.exit_code == 0 and r.stdout.strip().splitlines()[-1] == "3"


def test_suite_data_entries_read_data_files(files: Path) -> None:
    from ptc.suite.spec import resolve_data

    assert sorted(resolve_data(["sales.csv", "shop.db"], str(files))) == ["customers", "sales"]
    data = resolve_data({"s": "file:sales.csv", "first": "file:shop.db#SELECT name FROM customers LIMIT 1"},
                        str(files))
    assert data["s"].num_rows == 3 and data["first"].to_pylist() == [{"name": "Ada"}]
    with pytest.raises(ValueError, match="no such file"):
        resolve_data(["missing.csv"], str(files))
