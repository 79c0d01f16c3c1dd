"""(doc f), (find-doc "text") and (dir ns): how a model learns the library on demand instead of
from a longer prompt; and the hints that name the library function a foreign name means."""

from __future__ import annotations

import pytest

import ptc


def printed(src: str, **kw: object) -> str:
    r = ptc.run(src, **kw)  # type: ignore[arg-type]
    assert r.value is None
    return "\n".join(r.prints)


def test_doc_prints_the_name_arglists_doc_and_an_example_as_clojure_does() -> None:
    text = printed("(doc stats/median)")
    lines = text.splitlines()
    assert lines[:3] == ["-------------------------", "stats/median", "([xs])"]
    assert "numpy.median" in text and "(stats/median [1 2 3 4]) ;=> 2.5" in text


def test_doc_reads_aliases_refers_special_forms_defs_and_tools() -> None:
    assert "stats/lm" in printed("(require '[fastmath.stats :as s]) (doc s/lm)")
    assert "stats/mean" in printed("(require '[fastmath.stats :refer [mean]]) (doc mean)")
    assert "Special Form" in printed("(doc when-let)")
    assert "adds one" in printed('(defn f "adds one" [x] (inc x)) (doc f)')

    def weather(city: str) -> dict:
        """Today's weather in a city."""
        return {}

    assert "Today's weather" in printed("(doc tool/weather)", tools={"weather": ptc.tool(weather)})


def test_doc_of_an_unknown_name_says_the_closest() -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(doc stats/medain)")
    assert "stats/median" in (e.value.hint or "")


def test_find_doc_searches_names_and_docs_names_first_and_bounded() -> None:
    text = printed('(find-doc "quantile")')
    first = text.splitlines()[0]
    assert first.startswith("stats/quantile ") and "stats/iqr" not in first
    assert "stats/percentile" in text
    many = printed('(find-doc "a")').splitlines()
    assert len(many) == 21 and many[-1].startswith("... and ")
    assert printed('(find-doc #"^stats/t-test")').count("\n") == 1
    assert printed('(find-doc "no such words here")') == "nothing found"


def test_dir_lists_a_library_one_name_per_line() -> None:
    names = printed("(dir stats)").splitlines()
    assert names == sorted(names) and {"median", "lm", "t-test-two-samples"} <= set(names)
    assert printed("(dir str)").splitlines()[0] == "blank?"
    assert printed("(require '[fastmath.stats :as fs]) (dir fs)").splitlines() == names
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(dir pandas)")
    assert "stats" in (e.value.hint or "")


@pytest.mark.parametrize("src, fix", [
    ("(median [1 2 3])", "stats/median"), ("(np.median [1 2])", "stats/median"),
    ("(std [1 2 3])", "stats/stddev"), ("(ttest_ind [1 2] [3 4])", "stats/t-test-two-samples"),
    ("(scipy.stats.pearsonr [1 2] [2 3])", "stats/correlation-test"), ("(stats/std [1 2])", "stats/stddev"),
    ("(stats/ttest_ind [1 2] [3 4])", "stats/t-test-two-samples"),
    ("(require '[kixi.stats.core :as kixi])", "(stats/mean (map :x rows))"),
])
def test_a_foreign_name_gets_the_library_function_it_means(src: str, fix: str) -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src)
    assert fix in (e.value.hint or ""), e.value.hint
