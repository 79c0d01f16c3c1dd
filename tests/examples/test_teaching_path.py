"""The numbered teaching path in examples/ runs offline and shows what each step teaches."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

EXPECT = {
    "01_first_program.py": ["printed: ('items: 4',)", "value:   {:total 42.75, :average 10.6875, :expensive (12.5 20.0)}"],
    "02_data_memory_errors.py": ['totals:    {"ann" 38.0, "bob" 12.5}', "error kind: analysis at 1:2",
                                 "hint: did you mean map-indexed?"],
    "03_typed_tools.py": ['value: ("Lamp")', "error[tool] 1:1: tool/search-products: parameter max-price"],
    "04_first_agent.py": ["answer: {'region': 'south', 'amount': 300.0}"],
    "05_compression_and_traces.py": [";   reviews({:product \"tent\"})", "; Output:\nreviews: 3",
                                     "answer: {'average':"],
}


@pytest.mark.parametrize("script", sorted(EXPECT))
def test_example_runs_offline(script: str) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / script)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    for text in EXPECT[script]:
        assert text in proc.stdout, (text, proc.stdout)


def test_the_path_is_numbered_without_gaps() -> None:
    numbered = sorted(p.name for p in (ROOT / "examples").glob("0*_*.py"))
    assert [n[:2] for n in numbered] == [f"{i:02d}" for i in range(1, len(numbered) + 1)]


def test_chat_session_example() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "06_chat_session.py")], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "ptc> {'paid': 114, 'pending': 67, 'refunded': 28, 'delivered': 191}" in proc.stdout
    assert '#5 assistant: Answer: {"paid" 114, "pending" 67, "refunded" 28, "delivered" 191}' in proc.stdout
    assert "context:" in proc.stdout
