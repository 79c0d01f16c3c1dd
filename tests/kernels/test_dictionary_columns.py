"""Dictionary-encoded columns stay encoded in the kernels (issue 43, item 1): frequencies,
distinct, filters and values of one such column are computed over its dictionary and taken by its
indices; the answers are the row path's exactly, whatever the dictionary holds (duplicate entries,
entries no row references, nils, several chunks of different dictionaries). A filter of a filter
stays encoded (item 2), and a run-end-encoded column is computed as the dictionary of its runs."""

from __future__ import annotations

from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import ptc  # noqa: E402
from ptc.interpreter.columnar.dispatch import rows_only  # noqa: E402
from ptc.interpreter.columnar.explain import explain  # noqa: E402
from tests.outcome import outcome  # noqa: E402

_WORDS = ["a", "ab", "b", "", "xyz", "ab", "é"]

PROGRAMS = [
    "(frequencies (map :s data/t))",
    "(count (frequencies (map :s data/t)))",
    "(distinct (map :s data/t))",
    "(frequencies (map #(subs % 0 1) (remove nil? (map :s data/t))))",
    '(count (filter #(str/includes? (:s %) "b") data/t))',
    '(map :id (filter #(= (:s %) "ab") data/t))',
    '(map :id (remove #(str/starts-with? (:s %) "a") data/t))',
    "(map :id (filter #(nil? (:s %)) data/t))",
    '(filter #(= % "ab") (map :s data/t))',
    "(map #(count (:s %)) data/t)",
    "(map str/upper-case (map :s data/t))",
    "(map :id (filter #(> (:n %) 1) data/t))",
    "(frequencies (map :n data/t))",
    "(distinct (map :n data/t))",
    "(update-vals (group-by :s data/t) count)",
    "(map #(keyword (:s %)) data/t)",
    "(frequencies (map #(when (:s %) (keyword (:s %))) data/t))",
    # a filter of a filter: the first one's rows are a selection, whose column is still encoded
    '(map :id (filter #(= (:s %) "ab") (filter #(> (:id %) 1) data/t)))',
    '(frequencies (map :s (filter #(str/includes? (:s %) "b") (remove #(= (:s %) "a") data/t))))',
    '(distinct (map :s (filter :n (filter #(some? (:s %)) data/t))))',
    '(first (filter #(= (:s %) "b") (sort-by :id > data/t)))',
]


@st.composite
def _tables(draw: Any) -> Any:
    chunks = []
    ints = []
    for _ in range(draw(st.integers(1, 3))):
        entries = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5))  # duplicates allowed
        idx = draw(st.lists(st.one_of(st.none(), st.integers(0, len(entries) - 1)), max_size=8))
        chunks.append(pa.DictionaryArray.from_arrays(pa.array(idx, pa.int32()), pa.array(entries)))
        nums = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4))
        nidx = draw(st.lists(st.one_of(st.none(), st.integers(0, len(nums) - 1)), min_size=len(idx),
                             max_size=len(idx)))
        ints.append(pa.DictionaryArray.from_arrays(pa.array(nidx, pa.int8()), pa.array(nums, pa.int64())))
    s = pa.chunked_array(chunks)
    n = pa.chunked_array(ints)
    return pa.table({"s": s, "n": n, "id": pa.array(range(len(s)))})


@settings(max_examples=60, deadline=None)
@given(_tables())
def test_dictionary_columns_give_the_row_paths_answers(t: Any) -> None:
    from ptc.interpreter.columnar import encoded

    for src in PROGRAMS:
        with rows_only():
            want = outcome(src, t)
        assert outcome(src, t) == want, (src, t.to_pydict())
        old, encoded.BLOCK = encoded.BLOCK, 2  # the rows' entries read a block at a time
        try:
            assert outcome(src, t) == want, (src, "blocks of 2", t.to_pydict())
        finally:
            encoded.BLOCK = old


@st.composite
def _run_tables(draw: Any) -> Any:
    """A table whose :s column is run-end encoded: runs of words (nils too), sliced, in chunks."""
    chunks = []
    for _ in range(draw(st.integers(1, 3))):
        values = draw(st.lists(st.one_of(st.none(), st.sampled_from(_WORDS)), min_size=1, max_size=5))
        lengths = draw(st.lists(st.integers(1, 4), min_size=len(values), max_size=len(values)))
        ends = [sum(lengths[:i + 1]) for i in range(len(lengths))]
        runs = pa.RunEndEncodedArray.from_arrays(pa.array(ends, pa.int32()), pa.array(values, pa.string()))
        start = draw(st.integers(0, ends[-1] - 1))
        chunks.append(runs.slice(start, draw(st.integers(0, ends[-1] - start))))
    s = pa.chunked_array(chunks, chunks[0].type)
    n = pa.array([i % 3 or None for i in range(len(s))], pa.int64())
    return pa.table({"s": s, "n": n, "id": pa.array(range(len(s)), pa.int64())})


@settings(max_examples=60, deadline=None)
@given(_run_tables())
def test_run_end_encoded_columns_give_the_decoded_columns_answers(t: Any) -> None:
    """The oracle: the same program over the column decoded (plain strings), row by row."""
    import pyarrow.compute as pc

    decoded = t.set_column(0, "s", pa.chunked_array([pc.run_end_decode(c) for c in t.column(0).chunks], pa.string()))
    for src in [*PROGRAMS, "(vec (take 3 (drop 1 data/t)))", "(sort-by :s (take 5 data/t))"]:
        with rows_only():
            want = outcome(src, decoded)
        assert outcome(src, t) == want, (src, t.to_pydict())
        with rows_only():
            assert outcome(src, t) == want, (src, "row by row", t.to_pydict())


def test_a_run_end_encoded_result_leaves_as_arrow() -> None:
    """Rows of a run-end-encoded table (which Arrow cannot take) leave as a table all the same."""
    runs = pa.RunEndEncodedArray.from_arrays(pa.array([2, 5], pa.int32()), pa.array(["a", "b"]))
    t = pa.table({"s": runs, "i": pa.array(range(5))})
    out = ptc.to_arrow(ptc.run("(vec (filter #(odd? (:i %)) data/t))", data={"t": t}).value)
    assert out.column("s").to_pylist() == ["a", "b"] and out.column("i").to_pylist() == [1, 3]


def test_a_run_end_encoded_column_is_sized_before_it_is_numbered() -> None:
    """100M rows of one run (a few bytes) need 400 MB of run numbers: the max_memory error first."""
    runs = pa.RunEndEncodedArray.from_arrays(pa.array([100_000_000], pa.int32()), pa.array(["x" * 1000]))
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(count (frequencies (map :s data/t)))", data={"t": pa.table({"s": runs})})
    assert e.value.kind == "limit" and "max_memory" in e.value.message and "run-end" in e.value.message


def test_a_dictionary_column_is_computed_encoded() -> None:
    """The kernels run (no fall back) and nothing is decoded: one 1 KB string in 400,000 rows
    (400 MB decoded, past max_memory) is counted, filtered and numbered in milliseconds."""
    import numpy as np

    col = pa.DictionaryArray.from_arrays(pa.array(np.zeros(400_000, np.int32)), pa.array(["x" * 1000]))
    t = pa.table({"s": col})
    for src, want in [("(count (frequencies (map :s data/t)))", 1), ("(count (distinct (map :s data/t)))", 1),
                      ('(count (filter #(str/includes? (:s %) "y") data/t))', 0),
                      ('(count (filter #(= (:s %) "y") data/t))', 0),
                      ('(count (filter #(str/starts-with? (:s %) "x") data/t))', 400_000),
                      # a filter of a filter (its column was decoded, 400 MB: the max_memory error)
                      ('(count (filter #(= (:s %) "y") (filter #(str/starts-with? (:s %) "x") data/t)))', 0)]:
        assert ptc.run(src, data={"t": t}).value == want, src
        report = explain(src, data={"t": t})
        assert report.kernels and not report.fallbacks, (src, str(report))


def test_a_dictionary_column_decoded_is_sized_first() -> None:
    """A kernel that needs the text decoded (a sort by it) sizes what it decodes to first: the
    max_memory error before the copy."""
    import numpy as np

    col = pa.DictionaryArray.from_arrays(pa.array(np.zeros(400_000, np.int32)), pa.array(["x" * 1000]))
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(first (sort-by :s data/t))", data={"t": pa.table({"s": col})})
    assert e.value.kind == "limit" and "max_memory" in e.value.message and "dictionary" in e.value.message


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-3, 3)), max_size=20),
       st.lists(st.one_of(st.none(), st.sampled_from(_WORDS)), max_size=20))
def test_long_columns_numbered_in_blocks_give_the_row_paths_answers(ints: list[Any], texts: list[Any]) -> None:
    """frequencies and distinct of a column longer than a block (made 3 rows here) number it a
    block at a time (issue 43, item 6): the same counts, in the same first-seen order."""
    from ptc.interpreter.columnar import encoded

    n = min(len(ints), len(texts))
    t = pa.table({"i": pa.array(ints[:n], pa.int64()), "s": pa.array(texts[:n], pa.string())})
    old, encoded.BLOCK = encoded.BLOCK, 3
    try:
        for src in ["(frequencies (map :i data/t))", "(distinct (map :i data/t))", "(frequencies (map :s data/t))",
                    "(distinct (map :s data/t))", "(frequencies (map #(* 2 (:i %)) (filter :i data/t)))"]:
            got = outcome(src, t)
            with rows_only():
                want = outcome(src, t)
            assert got == want, (src, t.to_pydict())
    finally:
        encoded.BLOCK = old
