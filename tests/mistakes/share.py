"""Print the share of the mistake corpus whose feedback names the fix, by class (markdown).

    python tests/mistakes/share.py            # the table
    python tests/mistakes/share.py --misses   # also each entry whose feedback misses its fix
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.mistakes.harness import feedback_for, load, named, shares, table  # noqa: E402

if __name__ == "__main__":
    entries = load()
    print(table(shares(entries)))
    if "--misses" in sys.argv:
        for e in entries:
            text = feedback_for(e)
            if not named(e, text):
                print(f"\n--- {e.label}: wants {e.fixes}\n{e.reply}\n>>>\n{text}")
