"""Regenerate tests/conformance/expected.json by evaluating corpus.clj with real Clojure.

Usage:  python tests/conformance/generate.py [--clojure CMD] [--check] [--corpus FILE --out FILE]

--corpus/--out evaluate another corpus with the same conventions (programs.clj, the whole
programs of tests/test_programs.py, writes programs.json).

corpus.clj holds one PTC-Lisp expression per top-level form. Comment lines drive the
fixture:

    ;; == section name ==                      starts a section
    ;; deviation: <reason> => <ptc result>     the next entry is a deliberate deviation:
                                               the test expects <ptc result> (PTC-Lisp
                                               syntax) instead of Clojure's answer

All entries are evaluated in ONE JVM (startup is slow): the sources are written to an
EDN vector, a driver script reads each with `read-string`, `eval`s it (with
clojure.string aliased as `str` and clojure.set as `set`, and clojure.math loaded, as in
PTC-Lisp), renders the value with
`pr-str` (which realizes lazy seqs) and writes one JSON line per entry. A Throwable
becomes `{"ok": false, "error": "<exception class>"}`.

The fixture is a JSON list of
    {"line", "section", "source", "expected" | "error", "deviation": null | {"reason", "ptc_expected"}}

--check only re-evaluates and reports whether expected.json is up to date.
Entries in the "errors" section must fail in Clojure and all others must succeed; the
script warns (and exits 1) otherwise, so an accidental error never slips into the fixture.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus.clj"
EXPECTED = HERE / "expected.json"
ERROR_SECTION = "errors"

_SECTION = re.compile(r"^;+\s*==\s*(.+?)\s*==\s*$")
_DEVIATION = re.compile(r"^;+\s*deviation:\s*(.+?)\s+=>\s+(.+?)\s*$")

_DELIMS = set("()[]{}\"; \t\n\r,")
_CLOSE = {"(": ")", "[": "]", "{": "}"}


@dataclass
class Entry:
    line: int
    section: str
    source: str
    deviation: dict[str, str] | None = None
    extra: dict[str, object] = field(default_factory=dict)


class ScanError(ValueError):
    pass


class _Scanner:
    """Just enough of a Clojure reader to find where each top-level form ends.

    Respects strings (and regex literals), character literals such as \\( \\) \\" \\;,
    line comments, #_ discards, and reader prefixes (' ` ~ @ ^ #' #).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.comments: list[tuple[int, str]] = []  # (line, text) seen while skipping

    def line_of(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    def skip_space(self, collect: bool = False) -> None:
        t, n = self.text, len(self.text)
        while self.pos < n:
            c = t[self.pos]
            if c in " \t\r\n,":
                self.pos += 1
            elif c == ";":
                end = t.find("\n", self.pos)
                end = n if end < 0 else end
                if collect:
                    self.comments.append((self.line_of(self.pos), t[self.pos:end].strip()))
                self.pos = end
            else:
                return

    def datum(self) -> None:
        """Advance past one form (the caller has skipped leading space)."""
        t, n = self.text, len(self.text)
        if self.pos >= n:
            raise ScanError("unexpected end of input")
        c = t[self.pos]
        if c == '"':
            self.string()
        elif c in _CLOSE:
            self.pos += 1
            self.until(_CLOSE[c])
        elif c in ")]}":
            raise ScanError(f"unbalanced {c!r} at line {self.line_of(self.pos)}")
        elif c == "\\":
            # a character literal: the next char is always part of it (\( \" \;),
            # then any name characters (\space, \newline, \u00e9)
            self.pos += 2
            self.atom()
        elif c in "'`@^":
            self.pos += 1
            if c == "^":
                self.skip_space()
                self.datum()  # the metadata
            self.skip_space()
            self.datum()
        elif c == "~":
            self.pos += 2 if t.startswith("~@", self.pos) else 1
            self.skip_space()
            self.datum()
        elif c == "#":
            nxt = t[self.pos + 1] if self.pos + 1 < n else ""
            if nxt == "_":
                self.pos += 2
                self.skip_space()
                self.datum()  # discarded
                self.skip_space()
                self.datum()  # the form that counts
            elif nxt == '"':
                self.pos += 1
                self.string()
            elif nxt in "({":
                self.pos += 1
                self.datum()
            elif nxt in "'":
                self.pos += 2
                self.skip_space()
                self.datum()
            elif nxt == "#":  # ##Inf ##NaN
                self.pos += 2
                self.atom()
            else:  # tagged literal / reader conditional: tag then form
                self.pos += 1
                self.atom()
                self.skip_space()
                self.datum()
        else:
            self.atom()

    def atom(self) -> None:
        t, n = self.text, len(self.text)
        while self.pos < n and t[self.pos] not in _DELIMS:
            self.pos += 1

    def string(self) -> None:
        t, n = self.text, len(self.text)
        start = self.pos
        self.pos += 1
        while self.pos < n:
            c = t[self.pos]
            if c == "\\":
                self.pos += 2
            elif c == '"':
                self.pos += 1
                return
            else:
                self.pos += 1
        raise ScanError(f"unterminated string starting at line {self.line_of(start)}")

    def until(self, close: str) -> None:
        start = self.pos
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                raise ScanError(f"unclosed form starting at line {self.line_of(start)}")
            if self.text[self.pos] == close:
                self.pos += 1
                return
            self.datum()


def split_forms(text: str) -> list[Entry]:
    """The corpus entries, with their section and deviation annotations."""
    sc = _Scanner(text)
    entries: list[Entry] = []
    section = "misc"
    while True:
        sc.comments.clear()
        sc.skip_space(collect=True)
        deviation = None
        for line, comment in sc.comments:
            m = _SECTION.match(comment)
            if m:
                section = m.group(1)
                deviation = None
                continue
            m = _DEVIATION.match(comment)
            if m:
                deviation = {"reason": m.group(1), "ptc_expected": m.group(2)}
        if sc.pos >= len(text):
            if deviation:
                raise ScanError("deviation comment at end of file")
            return entries
        start = sc.pos
        sc.datum()
        entries.append(Entry(sc.line_of(start), section, text[start:sc.pos], deviation))


# -- the Clojure driver -------------------------------------------------------------

DRIVER = r"""
(ns user)
(require '[clojure.string :as str])
(require '[clojure.set :as set])
(require 'clojure.math)
(require '[clojure.java.io :as io])

(defn- jstr [^String s]
  (let [sb (StringBuilder. "\"")]
    (doseq [c s]
      (let [n (int c)]
        (cond (= c \") (.append sb "\\\"")
              (= c \\) (.append sb "\\\\")
              (or (< n 32) (> n 126)) (.append sb (format "\\u%04x" n))
              :else (.append sb c))))
    (.append sb "\"")
    (str sb)))

(defn- eval-entry [src]
  (try
    (let [form (binding [*read-eval* false] (read-string src))
          sink (java.io.StringWriter.)
          v (binding [*out* sink] (eval form))]
      ;; the first pr-str realizes lazy seqs (any printing they do lands in it);
      ;; the second renders the now-cached value cleanly
      (binding [*out* sink] (pr-str v))
      (str "{\"ok\": true, \"value\": " (jstr (binding [*out* sink] (pr-str v))) "}"))
    (catch Throwable t
      (str "{\"ok\": false, \"error\": " (jstr (.getName (class t)))
           ", \"message\": " (jstr (str (.getMessage t))) "}"))))

(let [[in-path out-path] *command-line-args*
      sources (binding [*read-eval* false] (read-string (slurp in-path :encoding "UTF-8")))]
  (binding [*print-namespace-maps* false
            *print-length* nil
            *print-level* nil
            *print-meta* false
            *ns* (the-ns 'user)]
    (with-open [w (io/writer out-path :encoding "UTF-8")]
      (doseq [[i src] (map-indexed vector sources)]
        (.write w (str "{\"i\": " i ", \"result\": " (eval-entry src) "}\n"))
        (.flush w)))))
"""


def _clj_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def evaluate(entries: list[Entry], clojure: str, timeout: float = 600) -> list[dict]:
    """Evaluate every entry in one JVM; returns the per-entry result dicts."""
    with tempfile.TemporaryDirectory(prefix="ptc-conformance-") as tmp:
        tmpdir = Path(tmp)
        driver = tmpdir / "driver.clj"
        sources = tmpdir / "sources.edn"
        out = tmpdir / "results.jsonl"
        driver.write_text(DRIVER, encoding="utf-8")
        sources.write_text(
            "[\n" + "\n".join(_clj_string(e.source) for e in entries) + "\n]\n", encoding="utf-8"
        )
        cmd = shlex.split(clojure) + [str(driver), str(sources), str(out)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0 or not out.exists():
            sys.stderr.write(proc.stdout + proc.stderr)
            raise SystemExit(f"clojure driver failed (exit {proc.returncode})")
        results = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]
    if len(results) != len(entries):
        raise SystemExit(f"driver produced {len(results)} results for {len(entries)} entries")
    return [r["result"] for r in results]


def build_fixture(entries: list[Entry], results: list[dict]) -> tuple[list[dict], list[str]]:
    fixture: list[dict] = []
    problems: list[str] = []
    for e, r in zip(entries, results):
        item: dict[str, object] = {"line": e.line, "section": e.section, "source": e.source}
        where = f"corpus.clj:{e.line}: {e.source}"
        if r["ok"]:
            item["expected"] = r["value"]
            if e.section == ERROR_SECTION:
                problems.append(f"{where}\n    expected an error, Clojure returned {r['value']}")
            if e.deviation and e.deviation["ptc_expected"] == r["value"]:
                problems.append(f"{where}\n    deviation result equals Clojure's ({r['value']})")
        else:
            item["error"] = r["error"]
            if e.section != ERROR_SECTION and not e.deviation:
                problems.append(f"{where}\n    unexpected Clojure error {r['error']}: {r['message']}")
        item["deviation"] = e.deviation
        fixture.append(item)
    return fixture, problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clojure", default="clojure", help="command that runs a Clojure script (default: clojure)")
    ap.add_argument("--check", action="store_true", help="do not write; fail if expected.json is stale")
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="the corpus to evaluate (default: corpus.clj)")
    ap.add_argument("--out", type=Path, default=EXPECTED, help="the fixture to write (default: expected.json)")
    args = ap.parse_args(argv)
    corpus, expected = args.corpus.resolve(), args.out.resolve()

    entries = split_forms(corpus.read_text(encoding="utf-8"))
    results = evaluate(entries, args.clojure)
    fixture, problems = build_fixture(entries, results)
    text = json.dumps(fixture, indent=1, ensure_ascii=False) + "\n"

    for p in problems:
        print("WARNING", p, file=sys.stderr)
    n_dev = sum(1 for f in fixture if f["deviation"])
    n_err = sum(1 for f in fixture if "error" in f)
    print(f"{len(fixture)} entries, {n_err} error cases, {n_dev} deviations", file=sys.stderr)

    if args.check:
        current = expected.read_text(encoding="utf-8") if expected.exists() else ""
        if current != text:
            print(f"{expected.name} is out of date: run tests/conformance/generate.py", file=sys.stderr)
            return 1
        return 1 if problems else 0
    expected.write_text(text, encoding="utf-8")
    print(f"wrote {expected}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
