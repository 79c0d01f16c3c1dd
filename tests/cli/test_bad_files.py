"""Every command that reads a file answers a bad one with one line naming it and exit status 2, never a traceback.

Files: data (every format), programs (`ptc run`), traces, suites, cassettes (`--replay`),
chat scripts and tools modules (`--tools mod:attr`). Inputs: binary, non-UTF-8, empty,
truncated, nested 100,000 deep, huge (3 MB), a directory and a missing file.
"""

from __future__ import annotations

import functools
import io
import itertools
import sys
from pathlib import Path
from typing import Callable

import pytest

DEEP = b"[" * 100_000 + b"]" * 100_000
HUGE = b'{"a": "' + b"x" * 3_000_000  # 3 MB, unterminated
BINARY = bytes(range(256)) * 16
LATIN1 = "name,city\nJos\u00e9,M\u00e1laga\n".encode("latin-1")


@functools.lru_cache(maxsize=None)
def _valid(suffix: str) -> bytes:
    """A small valid file of the format, to truncate."""
    import openpyxl
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"id": list(range(200)), "name": [f"n{i}" for i in range(200)]})
    sink = io.BytesIO()
    if suffix == ".parquet":
        pq.write_table(table, sink)
    elif suffix == ".arrow":
        with pa.ipc.new_file(sink, table.schema) as w:
            w.write_table(table)
    elif suffix == ".xlsx":
        book = openpyxl.Workbook()
        for row in [["id", "name"], *([i, f"n{i}"] for i in range(200))]:
            book.active.append(row)
        book.save(sink)
    elif suffix == ".sqlite":
        import sqlite3
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            con = sqlite3.connect(Path(d) / "x.sqlite")
            con.execute("CREATE TABLE t (id INTEGER, name TEXT)")
            con.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"n{i}") for i in range(2000)])
            con.commit()
            con.close()
            return (Path(d) / "x.sqlite").read_bytes()
    else:
        text = {".json": '{"rows": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}',
                ".jsonl": '{"id": 1}\n{"id": 2, "name": "b"}\n',
                ".csv": 'id,name\n1,"a"\n2,"bbbbbbbbbbbbbbbbbbbbbb"\n',
                ".clj": "(defn f [x]\n  (* x 2))\n(f 21)\n",
                ".yaml": "name: s\nmissions:\n  - id: m\n    prompt: p\n    script: ['```clojure\\n1\\n```']\n"}[suffix]
        return text.encode()
    return sink.getvalue()


INPUTS: dict[str, Callable[[str], bytes | None]] = {
    "binary": lambda s: BINARY,
    "non-utf8": lambda s: LATIN1,
    "empty": lambda s: b"",
    "truncated": lambda s: _valid(s)[: len(_valid(s)) // 2],
    "deep": lambda s: DEEP,
    "huge": lambda s: HUGE,
    "directory": lambda s: None,
    "missing": lambda s: None,
}

# command -> (file suffix, the arguments given the file's path)
DATA_FORMATS = (".json", ".jsonl", ".csv", ".parquet", ".arrow", ".xlsx", ".sqlite")
COMMANDS: dict[str, tuple[str, Callable[[str], list[str]]]] = {
    **{f"eval --data {s}": (s, lambda p: ["eval", "1", "--data", p]) for s in DATA_FORMATS},
    "run --data": (".csv", lambda p: ["run", "-", "--data", p]),
    "repl --data": (".csv", lambda p: ["repl", "--data", p]),
    "agent --data": (".jsonl", lambda p: ["agent", "m", "--data", p, "--replay", p]),
    "sandbox spec --data": (".json", lambda p: ["sandbox", "spec", "--data", p]),
    "run PROGRAM": (".clj", lambda p: ["run", p]),
    "trace show": (".jsonl", lambda p: ["trace", "show", p]),
    "suite run": (".yaml", lambda p: ["suite", "run", p]),
    "suite validate": (".json", lambda p: ["suite", "validate", p]),
    "agent --replay": (".jsonl", lambda p: ["agent", "m", "--replay", p]),
    "chat --replay": (".jsonl", lambda p: ["chat", "--replay", p]),
    "chat --script": (".json", lambda p: ["chat", "--script", p]),
}

# What is not a bad file: an empty or truncated program is a program (its own error, exit 1,
# or nil). The truncated CSV ends inside its quoted cell ("bbbb...): a bad file, as pandas says.
NOT_BAD = {("run PROGRAM", "empty"), ("run PROGRAM", "truncated"), ("run PROGRAM", "deep"),
           ("run PROGRAM", "huge")}

CASES = [(c, i) for c, i in itertools.product(COMMANDS, INPUTS)]


@pytest.mark.parametrize("command, kind", CASES, ids=[f"{c}-{i}" for c, i in CASES])
def test_bad_file(invoke, tmp_path: Path, command: str, kind: str) -> None:
    suffix, args = COMMANDS[command]
    path = tmp_path / f"bad-{kind}{suffix}"
    if kind == "directory":
        path.mkdir()
    elif kind != "missing":
        content = INPUTS[kind](suffix)
        assert content is not None
        path.write_bytes(content)
    r = invoke(*args(str(path)), input="")
    out = r.stdout + r.stderr
    assert "Traceback" not in out and r.exception is None or isinstance(r.exception, SystemExit), out[-2000:]
    if (command, kind) in NOT_BAD:
        assert r.exit_code in (0, 1), out[-2000:]
        return
    assert r.exit_code == 2, (r.exit_code, out[-2000:])
    message = r.stderr.strip()
    assert message.count("\n") == 0 and path.name in message, message


@pytest.mark.parametrize("kind", ["binary", "non-utf8", "empty", "deep"])
def test_a_broken_tools_module(invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    module = f"broken_tools_{kind.replace('-', '_')}"
    content = {"binary": BINARY, "non-utf8": b"x = '\xe9'\n", "empty": b"", "deep": b"x = " + DEEP + b"\n"}[kind]
    (tmp_path / f"{module}.py").write_bytes(content)
    monkeypatch.syspath_prepend(str(tmp_path))
    r = invoke("sandbox", "spec", "--tools", f"{module}:tools")
    sys.modules.pop(module, None)
    assert r.exit_code == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip().count("\n") == 0 and module in r.stderr, r.stderr


def test_a_huge_valid_csv_cell_is_read(invoke, tmp_path: Path) -> None:
    (tmp_path / "big.csv").write_text("id,text\n1," + "y" * 3_000_000 + "\n")
    r = invoke("eval", "(count (:text (first data/big)))", "--data", str(tmp_path / "big.csv"))
    assert r.exit_code == 0 and r.stdout.strip() == "3000000"
