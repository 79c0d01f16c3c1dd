"""Whole-process time of `ptc` commands, as a user at a shell waits for them (issue 44, item 10).

    python bench/cli.py [runs]

Each command is started as a new process (the `ptc` console script next to this Python, or
`python -m ptc`), best of `runs` (default 7), in two conditions: `installed` (bytecode
cached, as after `pip install`: a private PYTHONPYCACHEPREFIX warmed by one run first) and
`no .pyc` (PYTHONDONTWRITEBYTECODE=1: every ptc module of a checkout without __pycache__
compiled from source on each start, as in this container). The ratio is the
installed time over the target; <= 1.00x meets it. Also `python -c pass`, the floor no
command can go under.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "cli"


def ptc_command() -> list[str]:
    """The console script installed with this Python, else `python -m ptc`."""
    script = Path(sys.executable).with_name("ptc")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ptc"]


def commands(tmp: Path) -> list[tuple[str, list[str], float | None]]:
    """(label, argv, target seconds or None) for each measured command."""
    rows = tmp / "rows.csv"
    with rows.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "region", "amount"])
        w.writerows([i, ("north", "south", "east")[i % 3], (i * 37) % 500] for i in range(1000))
    program = tmp / "count.clj"
    program.write_text("(count data/rows)\n")
    ptc = ptc_command()
    orders = str(EXAMPLES / "orders.json")
    chart = str(EXAMPLES / "chart.clj")
    return [
        ("python -c pass", [sys.executable, "-c", "pass"], None),
        ("ptc --help", [*ptc, "--help"], None),
        ("ptc eval '(+ 1 2)'", [*ptc, "eval", "(+ 1 2)"], 0.3),
        ("ptc eval --data rows.csv '(count data/rows)' (1,000 rows)",
         [*ptc, "eval", "--data", str(rows), "(count data/rows)"], 0.5),
        ("ptc run count.clj --data rows.csv (1,000 rows)", [*ptc, "run", str(program), "--data", str(rows)], 0.5),
        ("ptc run chart.clj --data orders.json", [*ptc, "run", chart, "--data", orders], None),
        ("ptc run chart.clj ... --chart out.png", [*ptc, "run", chart, "--data", orders, "--chart", str(tmp / "c.png")],
         None),
        ("ptc run chart.clj ... --chart out.html",
         [*ptc, "run", chart, "--data", orders, "--chart", str(tmp / "c.html")], None),
    ]


def best(argv: list[str], env: dict[str, str], runs: int) -> float:
    """The fastest of `runs` starts of argv (seconds); a failing command stops the bench."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode:
            raise SystemExit(f"{argv} failed:\n{done.stderr}")
    return min(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory(prefix="ptc-bench-cli-") as name:
        tmp = Path(name)
        base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
        installed = {**base, "PYTHONPYCACHEPREFIX": str(tmp / "pyc")}
        cold = {**base, "PYTHONDONTWRITEBYTECODE": "1"}  # the stdlib's own __pycache__ still read
        table = commands(tmp)
        for _, argv, _ in table:  # writes the bytecode the installed condition reads
            subprocess.run(argv, env=installed, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"best of {runs} whole-process runs; commands as `{' '.join(ptc_command())}`")
        print("| command | installed s | no .pyc s | target s | installed/target |")
        print("|---|---|---|---|---|")
        for label, argv, target in table:
            warm = best(argv, installed, runs)
            cold_s = best(argv, cold, max(2, runs // 2))
            ratio = f"{warm / target:.2f}x" if target else ""
            print(f"| {label} | {warm:.3f} | {cold_s:.3f} | {target or ''} | {ratio} |", flush=True)
        shutil.rmtree(tmp / "pyc", ignore_errors=True)


if __name__ == "__main__":
    main()
