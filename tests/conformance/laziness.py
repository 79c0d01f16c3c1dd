"""Regenerate tests/conformance/laziness.json: where laziness shows, as real Clojure 1.11 shows it.

Usage:  python tests/conformance/laziness.py [--clojure CMD]

Each probe asks a sequence function for a prefix of a seq whose item K throws (a division by
zero planted in a `map`): whether the probe returns a value or throws says how much of the
seq the function realized. Every function Clojure makes lazy is probed over chunked sources
(a `(range n)`, a vector), unchunked ones (a list, `iterate`) and an infinite `(range)`, with
K around the chunk boundaries (1, 2, 3, 5, 31, 32, 33, 64). Expected values come from
evaluating every probe in one JVM with generate.py's driver.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import Entry, evaluate  # noqa: E402

OUT = Path(__file__).resolve().parent / "laziness.json"

FORMS = {
    "map": "(first (map inc SRC))",
    "filter": "(first (filter some? SRC))",
    "remove": "(first (remove nil? SRC))",
    "keep": "(first (keep identity SRC))",
    "map-indexed": "(first (map-indexed vector SRC))",
    "keep-indexed": "(first (keep-indexed vector SRC))",
    "map (several colls)": "(first (map + SRC SRC))",
    "mapcat": "(first (mapcat vector SRC))",
    "concat": "(first (concat SRC [1]))",
    "concat (second coll)": "(nth (concat [1 2] SRC) 2)",
    "apply concat": "(first (apply concat [SRC]))",
    "for": "(first (for [x SRC] x))",
    "for :when": "(first (for [x SRC :when (some? x)] x))",
    "for (nested)": "(first (for [y [1 2] x SRC] x))",
    "take": "(first (take 5 SRC))",
    "take-while": "(first (take-while some? SRC))",
    "drop-while": "(first (drop-while nil? SRC))",
    "drop": "(first (drop 2 SRC))",
    "rest": "(first (rest SRC))",
    "next": "(first (next SRC))",
    "nthrest": "(first (nthrest SRC 3))",
    "nth": "(nth SRC 10)",
    "seq": "(first (seq SRC))",
    "cons": "(second (cons 0 SRC))",
    "partition": "(first (partition 2 SRC))",
    "partition-all": "(first (partition-all 2 SRC))",
    "partition-by": "(first (partition-by odd? SRC))",
    "distinct": "(first (distinct SRC))",
    "dedupe": "(first (dedupe SRC))",
    "reductions": "(second (reductions + SRC))",
    "interleave": "(first (interleave SRC SRC))",
    "interpose": "(first (interpose 0 SRC))",
    "cycle": "(first (cycle SRC))",
    "take-nth": "(first (take-nth 2 SRC))",
    "drop-last": "(first (drop-last SRC))",
    "split-at": "(first (first (split-at 2 SRC)))",
    "sequence": "(first (sequence (map inc) SRC))",
    "sequence (several colls)": "(first (sequence (map +) SRC SRC))",
    "some": "(some some? SRC)",
    "every?": "(every? nil? SRC)",
    "map over filter": "(first (filter odd? (map inc SRC)))",
    "take-while over map": "(first (take-while pos? (map inc SRC)))",
}

SOURCES = {
    "range": "(range 100)",
    "vector": "(vec (range 100))",
    "list": "(apply list (range 100))",
    "iterate": "(iterate inc 0)",
    "infinite range": "(range)",
}

THROWS_AT = (1, 2, 3, 5, 31, 32, 33, 64)


def probes() -> list[dict[str, str]]:
    """Every probe: its function, source kind and PTC-Lisp text."""
    out = []
    for name, form in FORMS.items():
        for kind, src in SOURCES.items():
            for k in THROWS_AT:
                seq = f"(map #(if (= % {k}) (/ 1 0) %) {src})"
                out.append({"function": name, "over": kind, "source": form.replace("SRC", seq)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clojure", default="clojure", help="command that runs a Clojure script (default: clojure)")
    args = ap.parse_args(argv)
    cases = probes()
    results = evaluate([Entry(0, "laziness", c["source"]) for c in cases], args.clojure)
    for c, r in zip(cases, results):
        if r["ok"]:
            c["expected"] = r["value"]
        else:
            c["error"] = r["error"]
    OUT.write_text("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n", encoding="utf-8")
    print(f"wrote {len(cases)} probes to {OUT.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
