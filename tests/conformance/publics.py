"""Regenerate tests/conformance/clojure_publics.json: the public names of clojure.core,
clojure.string, clojure.set, clojure.math and clojure.walk, from real Clojure (1.11, like
the conformance corpus).

Usage:  python tests/conformance/publics.py [--clojure CMD]

The compact system prompt says "Clojure's library, with these differences"; the test that
every PTC-Lisp builtin is covered by what that prompt says checks names against this list;
tests/lib/test_clojure_math.py checks that clojure.math is whole.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "clojure_publics.json"
NAMESPACES = ("clojure.core", "clojure.string", "clojure.set", "clojure.math", "clojure.walk")
DRIVER = """
(require 'clojure.string 'clojure.set 'clojure.math 'clojure.walk)
(println (clojure-version))
(doseq [ns '[%s]]
  (println (str ns " " (clojure.string/join " " (sort (map str (keys (ns-publics ns))))))))
""" % " ".join(NAMESPACES)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clojure", default="clojure", help="command that runs a Clojure script (default: clojure)")
    args = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".clj", delete=False) as f:
        f.write(DRIVER)
    out = subprocess.run(shlex.split(args.clojure) + [f.name], capture_output=True, text=True, check=True).stdout
    version, *lines = out.strip().splitlines()
    publics = {line.split(" ", 1)[0]: line.split(" ", 1)[1].split() for line in lines}
    OUT.write_text(json.dumps({"clojure_version": version, **publics}, indent=1) + "\n")
    print(f"{OUT}: Clojure {version}, " + ", ".join(f"{ns} {len(v)}" for ns, v in publics.items()))


if __name__ == "__main__":
    main()
