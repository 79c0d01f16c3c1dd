"""Every value a run returns compares equal to its plain Python equivalent (`to_python`), at
any size: a small map is a dict subclass and a large one a persistent map, and both must
answer `==` alike (a result of ten entries or more used to compare unequal to its dict)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import ptc
from ptc.interpreter.values import from_python

scalars = st.one_of(st.integers(-10**6, 10**6), st.text(max_size=5), st.booleans(), st.none(),
                    st.floats(allow_nan=False, allow_infinity=False))
names = st.text(alphabet="abcdefghij_", min_size=1, max_size=6)
plain = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=40),
    st.dictionaries(names, inner, max_size=40)), max_leaves=60)


@settings(max_examples=50, deadline=None)
@given(plain)
def test_a_returned_value_equals_its_plain_python(value: object) -> None:
    r = ptc.run("data/x", data={"x": value})
    assert r.value == value and value == r.value and not (r.value != value)
    built = ptc.run("(into {} (map (fn [[k v]] [k v]) data/x))", data={"x": value}).value \
        if isinstance(value, dict) else None
    if built is not None:  # a map the program built (keyword keys), not the data's own view
        assert built == value and value == built


def test_maps_of_every_size_and_sets() -> None:
    for n in (1, 8, 9, 10, 16, 100, 5000):
        expected = {f"k{i}": i for i in range(n)}
        assert ptc.run(f"(zipmap (map #(keyword (str \"k\" %)) (range {n})) (range {n}))").value == expected
        assert ptc.run(f"(frequencies (map #(str \"k\" %) (range {n})))").value == {k: 1 for k in expected}
        assert ptc.run(f"(set (range {n}))").value == set(range(n))
    assert ptc.run("{:a 1}").value != {"a": 2}
    assert from_python({"a": [1]}) == {"a": [1]}


def test_a_run_result_and_a_step_both_say_ok() -> None:
    assert ptc.run("(+ 1 2)").ok and not ptc.run("(fail :no)").ok
    step = ptc.Agent("x", llm=ptc.ScriptedLLM(["```clojure\n(return 3)\n```"])).run()
    assert step.ok and step.value == 3
