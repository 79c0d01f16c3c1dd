"""clojure.lang.PersistentQueue: a persistent FIFO (what models reach for in a breadth-first
search). Clojure's results are in the conformance corpus ("persistent queues"); these check
what Clojure cannot show the same way: printing, persistence, the data path and isolation."""

from __future__ import annotations

import os

import pytest

import ptc
from ptc import Limits

Q = "clojure.lang.PersistentQueue/EMPTY"


def show(src: str, **kw: object) -> str:
    return ptc.pr_str(ptc.run(src, **kw).value)  # type: ignore[arg-type]


def test_a_queue_prints_as_queue_and_leaves_as_a_list() -> None:
    assert show(f"(conj {Q} 1 :a [2])") == "#queue [1 :a [2]]"
    assert show(f"{{:q (pop (conj {Q} 1 2))}}") == "{:q #queue [2]}"
    assert show(f"(str (conj {Q} 1))") == '"#queue [1]"'
    assert ptc.to_python(ptc.run(f"(conj {Q} 1 {{:a 2}})").value) == [1, {"a": 2}]


def test_every_version_stays_what_it_was() -> None:
    src = f"(let [a (conj {Q} 1 2) b (conj a 3) c (pop b)] [a b c (pop c) (pop (pop (pop c)))])"
    assert show(src) == "[#queue [1 2] #queue [1 2 3] #queue [2 3] #queue [3] #queue []]"


def test_a_long_run_of_pops_stays_linear() -> None:
    """100,000 conj/pop pairs: amortized O(1) each (a pop that leaves most of the vector unused
    copies the rest once), well inside the default limits."""
    src = f"(let [q (reduce (fn [q i] (pop (conj (conj q i) i))) {Q} (range 100000))] [(count q) (peek q)])"
    assert show(src) == "[100000 50000]"


def test_a_breadth_first_search() -> None:
    src = f"""(let [graph {{1 [2 3] 2 [4] 3 [4 5] 4 [6] 5 [6] 6 []}}]
                (loop [q (conj {Q} [1 0]) seen #{{1}} dist {{}}]
                  (if-let [[n d] (peek q)]
                    (let [nxt (remove seen (graph n))]
                      (recur (into (pop q) (map #(vector % (inc d)) nxt)) (into seen nxt) (assoc dist n d)))
                    dist)))"""
    assert show(src) == "{1 0, 2 1, 3 1, 4 2, 5 2, 6 3}"


@pytest.mark.skipif(os.name != "posix", reason="process isolation needs a POSIX host")
def test_a_queue_crosses_process_isolation_and_memory() -> None:
    r = ptc.run(f"(def q (conj {Q} 1 2)) (pop q)", limits=Limits(isolation="process"))
    assert ptc.pr_str(r.value) == "#queue [2]"
    assert show("(peek (conj q 3))", memory=r.memory) == "1"
    assert show("(conj q 3)", memory=r.memory, limits=Limits(isolation="process")) == "#queue [1 2 3]"


def test_what_a_queue_does_not_do_is_an_error_naming_it() -> None:
    for src, words in [(f"(assoc (conj {Q} 1) 0 2)", "queue"), (f"(contains? (conj {Q} 1) 0)", "queue"),
                       (f"(nth {Q} 0)", "out of bounds")]:
        with pytest.raises(ptc.PTCError) as e:
            ptc.run(src)
        assert words in e.value.message, src
