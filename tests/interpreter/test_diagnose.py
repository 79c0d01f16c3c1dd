"""The empty-result note: recorded by filter/remove (builtin and compiled), explained only for
empty answers, one bounded line, never a change of value."""

from __future__ import annotations

import pytest

import ptc
from ptc.interpreter.diagnose import is_empty, looks_empty

ORDERS = [{"id": i, "status": ["paid", "open", "shipped"][i % 3], "amount": str(i * 1.5), "qty": i,
           "unit-price": 2, "discount": None, "customer": "acme"} for i in range(1200)]
DATA = {"orders": ORDERS}
KEYWORD = 'use "paid"'


def note(program: str, **kw: object) -> str | None:
    return ptc.run(program, data=DATA, **kw).note  # type: ignore[arg-type]


@pytest.mark.parametrize("program", [
    "(count (filter #(= (:status %) :paid) data/orders))",  # compiled, eager (count consumes it)
    "(first (filter #(= (:status %) :paid) data/orders))",  # compiled, lazy
    "(let [p #(= (:status %) :paid)] (first (filter p data/orders)))",  # the builtin, lazy, chunk by chunk
    "(filterv (fn [o] (= :paid (get o :status))) data/orders)",
    "(count (remove #(not= (:status %) :paid) data/orders))",
    "(sum-by :qty (filter #(contains? #{:paid :gone} (:status %)) data/orders))",
    "(->> data/orders (filter #(#{:paid} (:status %))) (map :qty) (reduce + 0))",
    '(println "paid:" (count (filter #(= (:status %) :paid) data/orders)))',
])
def test_keyword_compared_with_string_values(program: str) -> None:
    text = note(program)
    assert text is not None and KEYWORD in text and '(:status row) is a string ("paid")' in text
    assert "1,200 items of data/orders" in text and "\n" not in text and len(text) < 200


@pytest.mark.parametrize("program, expected", [
    ('(filter #(= (:qty %) "3") data/orders)', '(:qty row) is a number (0), compared with the string "3"; use 3'),
    ("(count (filter #(= (:amount %) 3) data/orders))", "use (parse-double (:amount row))"),
    ('(filter #(= (:status %) "Paid") data/orders)', 'its case differs from "Paid"; use "paid"'),
    ('(count (filter #(str/includes? (:customer %) "ACME") data/orders))', "(str/lower-case (:customer row))"),
    ("(filter (where :unit_price :> 1) data/orders)", "no row has the key :unit_price; the closest key is :unit-price"),
    ('(filter (where "status" := "paid") data/orders)', 'rows have the keyword key :status, not the string "status"'),
    ("(filter (where :discount :> 0) data/orders)", "(:discount row) is nil in these rows, compared with 0"),
    ('(count (filter #(get % "status") data/orders))', "use (:status row)"),
    ("(some #(when (= (:status %) :open) %) data/orders)", 'nothing matched: (:status row) is a string ("open")'),
    ("(get :id (first data/orders))", "(get :id m) is nil: get takes the map first, (get m :id)"),
    ("(->> (first data/orders) (get :id))", "(get m :id)"),
    ('(get (first data/orders) "status")', 'rows have keyword keys: (get row "status") is nil; use (:status row)'),
])
def test_other_explanations(program: str, expected: str) -> None:
    text = note(program)
    assert text is not None and expected in text, text


@pytest.mark.parametrize("program", [
    "(count (filter #(> (:qty %) 100000) data/orders))",  # legitimately empty: nothing to explain
    '(count (filter #(= (:status %) "paid") data/orders))',  # not empty
    "(count (filter #(= (:kind %) :paid) []))",  # no items to remove, no such field in the data
    "(+ 1 2)", "nil", "(filter (where :status := :paid) data/orders)",  # where matches "paid" with :paid
])
def test_no_note_without_evidence(program: str) -> None:
    assert note(program) is None


def test_the_note_never_changes_the_value() -> None:
    for program in ["(count (filter #(= (:status %) :paid) data/orders))", "(filterv #(= (:qty %) \"3\") data/orders)",
                    "(get :id (first data/orders))"]:
        r = ptc.run(program, data=DATA)
        assert r.note is not None
        assert ptc.pr_str(r.value) == ptc.pr_str(ptc.run(f"(do {program})", data=DATA).value)
        assert is_empty(r.value)


def test_a_later_filter_that_keeps_items_does_not_hide_an_empty_answer_from_an_earlier_one() -> None:
    program = '(let [a (count (filter #(= (:status %) :paid) data/orders)) b (filter #(= (:qty %) 1) data/orders)] a)'
    assert KEYWORD in (note(program) or "")


def test_process_isolation_carries_the_note() -> None:
    text = note("(count (filter #(= (:status %) :paid) data/orders))", limits=ptc.Limits(isolation="process"))
    assert text is not None and KEYWORD in text


def test_what_counts_as_empty() -> None:
    assert all(is_empty(x) for x in (None, 0, 0.0, "", ptc.run("[]").value, ptc.run("{}").value))
    assert not any(is_empty(x) for x in (False, 1, "a", ptc.run("[nil]").value))
    assert looks_empty(ptc.run("[nil nil]").value, ()) and not looks_empty(ptc.run("[nil 1]").value, ())
    assert looks_empty(None, ("Total: 0",)) and looks_empty(None, ("()",)) and not looks_empty(None, ("Total: 3",))


# issue 44, item 1: a key no row has, whatever the answer (0, a believable table, one nil group)
WEATHER = [{"date": f"2012-01-{d:02}", "precipitation": d * 0.5, "weather": ["sun", "rain"][d % 2]} for d in range(1, 29)]
PRECIP = "every (:precip row) is nil: no row has the key :precip; the closest key is :precipitation (in data/w)"


@pytest.mark.parametrize("program, shown", [
    ("(sum-by :precip data/w)", "0"),
    ("(reduce + (keep :precip data/w))", "0"),
    ("(count (keep :precip data/w))", "0"),
    ("(update-vals (group-by :weather data/w) #(sum-by :precip %))", '{"rain" 0, "sun" 0}'),
    ("(->> data/w (map :precip) (remove nil?) count)", "0"),
    ("(for [[k g] (group-by :weather data/w)] {:w k :p (reduce + (keep :precip g))})",
     '({:w "rain", :p 0} {:w "sun", :p 0})'),
])
@pytest.mark.parametrize("shape", ["table", "rows"])
def test_a_key_no_row_has_is_noted_whatever_the_answer(program: str, shown: str, shape: str) -> None:
    pa = pytest.importorskip("pyarrow")
    data = pa.Table.from_pylist(WEATHER) if shape == "table" else WEATHER
    r = ptc.run(program, data={"w": data})
    assert ptc.pr_str(r.value) == shown and r.note == "note: " + PRECIP


@pytest.mark.parametrize("shape", ["table", "rows"])
def test_a_group_by_a_key_no_row_has_is_noted(shape: str) -> None:
    pa = pytest.importorskip("pyarrow")
    data = pa.Table.from_pylist(WEATHER) if shape == "table" else WEATHER
    r = ptc.run("(count (group-by :weathr data/w))", data={"w": data})
    assert r.value == 1 and "no row has the key :weathr; the closest key is :weather" in r.note


def test_an_error_from_a_key_no_row_has_says_so_in_its_hint() -> None:
    with pytest.raises(ptc.PTCError) as e:
        ptc.run("(apply max (keep :precip data/w))", data={"w": WEATHER})
    assert e.value.hint.startswith(PRECIP) and "usage: (max" in e.value.hint


@pytest.mark.parametrize("program", [
    "(sum-by :precipitation data/w)",  # the real key
    "(map :total (map #(assoc % :total 1) data/w))",  # a key the program makes
    "(let [m {:precip 1}] (:precip m))",  # a map literal's
    "(sum-by :kind data/w)",  # nil everywhere, but no real key is close: no guess
    "(map #(:city (:place %)) [{:place {:city 1}}])",  # a nested map's key
])
def test_no_key_note_without_a_near_real_key(program: str) -> None:
    assert ptc.run(program, data={"w": WEATHER}).note is None
