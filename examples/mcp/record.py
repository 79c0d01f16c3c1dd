"""Re-record inventory.jsonl, the cassette docs/tools.md's `ptc agent --mcp ... --replay` uses.

Its reply is scripted (written for the example, not a model's); the cassette also holds the
prompt ptc sent, so after a prompt change (a new library function, say) re-record it:

    python examples/mcp/record.py            # from the repository root
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import ptc

HERE = Path(__file__).resolve().parent
MISSION = ("Which electronics product is lowest on stock, and what does restocking all electronics "
           "to 20 units cost?")
REPLY = """The inventory server has what I need.

```clojure
(let [items (tool/list-products {:category "electronics"})
      lowest (apply min-key :stock items)]
  (return {:lowest (:name lowest)
           :restock-cost (tool/restock-cost {:skus (mapv :sku items) :target 20})}))
```"""


def record(path: Path = HERE / "inventory.jsonl") -> ptc.Step:
    """Run the mission against the example server with the scripted reply, recording it."""
    tools = ptc.mcp_tools([sys.executable, str(HERE / "inventory_server.py")])
    path.unlink(missing_ok=True)
    return ptc.Agent(MISSION, tools=tools, llm=ptc.RecordingLLM(ptc.ScriptedLLM([REPLY]), path)).run()


if __name__ == "__main__":
    step = record(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "inventory.jsonl")
    print(json.dumps(step.value) if step.ok else step.error)
