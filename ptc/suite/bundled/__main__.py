"""`python -m ptc.suite.bundled`: re-record the bundled suite's cassettes from its scripts."""

from __future__ import annotations

import sys


def main() -> int:
    from . import CASSETTES, record

    records = record()
    print(f"recorded {len(records)} executions into {CASSETTES} "
          f"({len(list(CASSETTES.glob('*.jsonl')))} cassettes); all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
