"""A result that is rows of a table (a filter, a sort, a take over it) is columnar: it passes
the default max_result (its Arrow size counts against max_memory instead of its printed
text against max_result) and leaves as Arrow in a few takes, equal to the row-by-row form."""

from __future__ import annotations

import pytest

import ptc
from ptc.data.results import rows_of

pa = pytest.importorskip("pyarrow")

N = 200_000


@pytest.fixture(scope="module")
def flights() -> object:
    return pa.table({"dep_delay": [(i * 37) % 300 - 20 for i in range(N)],
                     "carrier": [("UA", "AA", "DL", "B6")[i % 4] for i in range(N)]})


@pytest.mark.parametrize("src", ["(filter #(> (:dep_delay %) 0) data/f)",
                                 "(vec (take 100000 (filter #(> (:dep_delay %) 0) data/f)))",
                                 "(sort-by :dep_delay data/f)", "data/f", "(take-last 150000 data/f)"])
def test_a_big_table_result_comes_back_at_the_default_limits(flights: object, src: str) -> None:
    r = ptc.run(src, data={"f": flights})
    arrow = ptc.to_arrow(r.value)
    assert arrow.num_rows == len(r.value) >= 100_000
    value = list(r.value)
    for part in (slice(0, 500), slice(len(value) - 5, len(value))):  # the rows converting them one by one gives
        assert arrow.slice(part.start, part.stop - part.start).to_pylist() == rows_of(value[part])


def test_the_arrow_size_counts_against_max_memory(flights: object) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(filter #(> (:dep_delay %) 0) data/f)", data={"f": flights}, limits=ptc.Limits(max_memory=1 << 20))
    assert "max_memory" in e.value.message


def test_other_big_results_still_meet_max_result() -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(vec (range 300000))")
    assert "max_result" in e.value.message
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(range)")
    assert e.value.kind == "limit"


GROUPED = ["(for [[k g] (group-by :k data/t)] {:k k :top (take 2 (sort > (map :v g))) :n (count g)})",
           "(for [[k g] (group-by :k data/t)] [k (reduce + (map :v g)) (first (map :s g))])",
           "(->> data/t (group-by :k) (map (fn [[k g]] {:k k :p [(last (map :s g)) (first (map :f g))]})))"]


@pytest.mark.parametrize("src", GROUPED)
def test_a_per_group_result_knows_a_bound_of_its_printed_length(src: str) -> None:
    """A plan's per-group values are sized from their columns (folds.printed_at_most), not by
    walking them: the bound holds over texts that print escaped, nils and lists."""
    from ptc.interpreter.printer import pr_str

    n = 3_000
    t = pa.table({"k": [i % 700 for i in range(n)], "v": [(i * 7919) % 1000 - 500 for i in range(n)],
                  "s": [None if i % 11 == 0 else 'a "q"\n\\é' * (i % 4) for i in range(n)],
                  "f": [None if i % 13 == 0 else i / 7 for i in range(n)]})
    r = ptc.run(src, data={"t": t})
    bound = r.value.printed_at_most
    assert len(pr_str(r.value)) <= bound < 40 * len(pr_str(r.value))
    assert r.value == ptc.run(src, data={"t": t.to_pylist()}).value


def test_a_per_group_result_over_max_result_ends_with_the_limit() -> None:
    t = pa.table({"k": [i % 20_000 for i in range(100_000)], "v": [i / 3 for i in range(100_000)]})
    src = "(for [[k g] (group-by :k data/t)] {:k k :top (take 2 (sort > (map :v g)))})"
    assert len(ptc.run(src, data={"t": t}, limits=ptc.Limits(max_result=10_000_000)).value) == 20_000
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src, data={"t": t}, limits=ptc.Limits(max_result=100_000))
    assert e.value.kind == "limit" and "max_result" in e.value.message
