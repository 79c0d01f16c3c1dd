"""The data path: JSON-like host data and tool results are Clojure data inside programs,
enter without copying, and leave as plain JSON again (issue 12).

Inside a program the rule is Clojure's `(json/parse-string s true)`: a key that is a keyword
name is that keyword, any other key stays a string; there is no coercion afterwards.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import ptc
from ptc.interpreter.values import is_keyword_name

ROW = {"id": 1001, "amount": 5, "unit price": 2.5, "tags": ["a", "b"], "meta": {"region": "north", "x y": 1}}


def show(src: str, **kw: Any) -> str:
    return ptc.pr_str(ptc.run(src, **kw).value)


def with_row(src: str) -> str:
    return show(src, data={"row": ROW, "rows": [ROW, {"id": 1002, "amount": 7}]})


# -- one rule for keys ---------------------------------------------------------------------


@pytest.mark.parametrize("key, keyword", [
    ("amount", True), ("unit_price", True), ("a/b", True), ("a.b", True), ("x?", True), ("1", True),
    ("a-b", True), ("*x*", True), ("", False), ("unit price", False), ("a,b", False), ('a"b', False),
    ("(x)", False), ("[x]", False), ("{x}", False), ("a;b", False), ("@x", False), ("a'b", False),
    (":a", False), ("a\tb", False), ("a\\b", False), ("~a", False), ("^a", False), ("`a", False),
])
def test_which_json_keys_are_keywords(key: str, keyword: bool) -> None:
    assert is_keyword_name(key) is keyword
    shown = show("(first (keys data/m))", data={"m": {key: 1}})
    assert shown == (f":{key}" if keyword else json.dumps(key))


def test_data_reads_as_clojure_data() -> None:
    assert with_row("data/row") == ('{:id 1001, :amount 5, "unit price" 2.5, :tags ["a" "b"], '
                                    ':meta {:region "north", "x y" 1}}')
    assert with_row("(:amount data/row)") == "5"
    assert with_row('(get data/row "unit price")') == "2.5"
    assert with_row('(get data/row "amount")') == "nil"  # as in Clojure: "amount" is not :amount
    assert with_row("(keys (:meta data/row))") == '(:region "x y")'
    assert with_row("(= (:meta data/row) {:region \"north\", \"x y\" 1})") == "true"
    assert with_row("(= data/rows [data/row {:id 1002 :amount 7}])") == "true"
    assert with_row("(let [{:keys [id amount]} data/row] [id amount])") == "[1001 5]"
    assert with_row("(let [{{:keys [region]} :meta} data/row] region)") == '"north"'
    assert with_row("(get-in data/row [:meta :region])") == '"north"'
    assert with_row("(map :id data/rows)") == "(1001 1002)"
    assert with_row("(first data/row)") == "[:id 1001]"
    assert with_row("(contains? data/row :amount)") == "true"
    assert with_row('(contains? data/row "amount")') == "false"
    assert with_row("(find data/row :id)") == "[:id 1001]"
    assert with_row("(select-keys data/row [:id :nope])") == "{:id 1001}"
    assert with_row("(data/row :id)") == "1001"
    assert with_row("(let [r data/row t (:tags r)] [(r :id) (t 1)])") == '[1001 "b"]'
    assert with_row("(map? data/row)") == "true"
    assert with_row("(vector? (:tags data/row))") == "true"


def test_writes_follow_clojure_with_no_second_key() -> None:
    assert with_row("(assoc data/row :amount 9)") == ('{:id 1001, :amount 9, "unit price" 2.5, :tags ["a" "b"], '
                                                      ':meta {:region "north", "x y" 1}}')
    assert with_row("(count (assoc data/row :amount 9))") == "5"
    assert with_row("(:amount (merge data/row {:amount 3}))") == "3"
    assert with_row("(count (merge data/row {:amount 3}))") == "5"
    assert with_row("(:amount (update data/row :amount inc))") == "6"
    assert with_row("(dissoc data/row :tags :meta :id)") == '{:amount 5, "unit price" 2.5}'
    assert with_row("(assoc-in data/row [:meta :region] \"south\")").endswith(':meta {:region "south", "x y" 1}}')
    assert with_row("(update-in data/row [:tags] conj \"c\")").count('["a" "b" "c"]') == 1
    assert with_row("(conj (:tags data/row) \"c\")") == '["a" "b" "c"]'
    assert with_row("(into {} data/row)") == with_row("data/row")
    assert with_row("(reduce-kv (fn [m k v] (assoc m k (str v))) {} (:meta data/row))") == \
        '{:region "north", "x y" "1"}'


def test_a_written_host_row_is_the_same_map_as_a_converted_one() -> None:
    """A small host row written with its own kind of keys stays a host dict (one C copy): it
    must be the map a full conversion gives, whichever way it is read, compared or hashed."""
    for write in ["(assoc data/row :amount 9)", "(assoc data/row :new [1 {:a 2}])", '(assoc data/row "unit price" 0)',
                  "(update data/row :amount inc)", "(update data/row :nope (fnil inc 0))", "(dissoc data/row :amount)",
                  '(dissoc data/row "unit price")', "(assoc-in data/row [:meta :region] 1)", "(update-in data/row [:meta :n] (fnil inc 9))"]:
        general = write.replace("data/row", "(into {} (seq data/row))")
        assert with_row(write) == with_row(general), write
        assert with_row(f"[(= {write} {general}) (contains? #{{{general}}} {write}) (get {{{general} 1}} {write})]") == \
            "[true true 1]", write
        assert ptc.to_python(ptc.run(write, data={"row": ROW}).value) == \
            ptc.to_python(ptc.run(general, data={"row": ROW}).value), write
    # keys a host dict cannot spell as they are take the converting path, and stay distinct
    assert with_row('(count (assoc data/row "amount" 1))') == "6"
    assert with_row('(let [m (assoc data/row "amount" 1)] [(m "amount") (:amount m)])') == "[1 5]"
    assert with_row("(get (assoc data/row 7 :seven) 7)") == ":seven"
    assert with_row("(keys (assoc (dissoc data/row :tags :meta) :amount 1 :z 2))") == '(:id :amount "unit price" :z)'
    wide = {f"k{i}": i for i in range(20)}  # a big row becomes a persistent map
    assert ptc.run("(:k3 (reduce #(assoc %1 :k3 %2) data/w (range 100)))", data={"w": wide}).value == 99


def test_caller_data_is_never_changed() -> None:
    data = {"row": copy.deepcopy(ROW), "rows": [copy.deepcopy(ROW)], "s": {1, 2}}
    before = copy.deepcopy(data)
    for src in ["(assoc data/row :amount 9)", "(dissoc data/row :id)", "(update data/row :amount inc)",
                "(assoc-in data/row [:meta :region] 1)", "(update-in data/row [:tags 0] str \"!\")",
                "(merge data/row {:x 1})", "(conj data/rows {:x 1})", "(assoc data/rows 0 nil)",
                "(into (:tags data/row) [1 2])", "(conj (:tags data/row) 3)", "(pop (:tags data/row))",
                "(conj data/s 3)", "(disj data/s 1)", "(into data/s [5])", "(conj data/row [:k 1])",
                "(reduce (fn [m r] (assoc m :n r)) data/row [1 2])", "(vec data/rows)",
                "(sort-by :id data/rows)", "(update-vals (:meta data/row) str)"]:
        ptc.run(src, data=data)
    assert data == before


def test_host_data_enters_without_a_copy() -> None:
    rows = [{"id": i} for i in range(1000)]
    assert ptc.run("data/rows", data={"rows": rows}).value is rows
    assert ptc.run("(:a data/m)", data={"m": {"a": rows}}).value is rows

    def fetch() -> list[dict[str, Any]]:
        return rows

    assert ptc.run("(tool/fetch)", tools=[fetch]).value is rows


def test_values_leave_as_plain_json_again() -> None:
    r = ptc.run("(assoc data/row :total (* 2 (:amount data/row)))", data={"row": ROW})
    assert ptc.to_python(r.value) == {**ROW, "total": 10}
    assert ptc.to_python(ptc.run("data/row", data={"row": ROW}).value) == ROW
    assert ptc.to_python(ptc.run('{:a 1 "b c" 2 :d/e 3}').value) == {"a": 1, "b c": 2, "d/e": 3}


def test_hashing_agrees_whatever_the_origin() -> None:
    data = {"x": {"a": 1, "v": [1, 2]}, "xs": [{"a": 1}, {"a": 1}, {"a": 2}]}
    assert show("(contains? #{{:a 1, :v [1 2]}} data/x)", data=data) == "true"
    assert show("(get {{:a 1, :v [1 2]} :found} data/x)", data=data) == ":found"
    assert show("(frequencies data/xs)", data=data) == "{{:a 1} 2, {:a 2} 1}"
    assert show("(distinct (conj data/xs {:a 2}))", data=data) == "({:a 1} {:a 2})"
    assert show("(count (set (conj data/xs {:a 1})))", data=data) == "2"
    assert show("(group-by identity data/xs)", data=data) == "{{:a 1} [{:a 1} {:a 1}], {:a 2} [{:a 2}]}"
    assert show("(case data/x {:a 1, :v [1 2]} :yes :no)", data=data) == ":yes"


def test_tool_results_and_arguments() -> None:
    seen: list[Any] = []

    def search(query: dict, limit: int = 2) -> list:
        seen.append(query)
        return [{"id": 1, "name": "Ann", "full name": "Ann A"}, {"id": 2, "name": "Bob", "full name": "Bob B"}]

    src = """(let [rows (tool/search {:query {:kind :person :tags [:a "b"]} :limit 2})]
               [(map :name rows) (get (first rows) "full name") (assoc (first rows) :name "X")])"""
    r = ptc.run(src, tools=[search])
    assert ptc.pr_str(r.value) == '[("Ann" "Bob") "Ann A" {:id 1, :name "X", "full name" "Ann A"}]'
    assert seen == [{"kind": "person", "tags": ["a", "b"]}]  # keywords leave as strings
    assert ptc.to_python(r.tool_calls[0].result)[0] == {"id": 1, "name": "Ann", "full name": "Ann A"}


def test_memory_and_history_keep_the_same_values() -> None:
    data = {"rows": [{"id": 1, "n": 2}, {"id": 2, "n": 3}]}
    first = ptc.run("(def by-id (group-by :id data/rows)) (keys by-id)", data=data)
    second = ptc.run("(:n (first (get by-id 2)))", memory=first.memory)
    assert second.value == 3
    third = ptc.run("(count *1)", history=[first.value])
    assert third.value == 2


def test_process_isolation_sees_the_same_data() -> None:
    limits = ptc.Limits(isolation="process")
    data = {"row": ROW}
    r = ptc.run('[(:amount data/row) (get data/row "unit price") (assoc data/row :amount 1)]', data=data,
                limits=limits)
    assert ptc.pr_str(r.value).startswith('[5 2.5 {:id 1001, :amount 1, "unit price" 2.5')
    assert data == {"row": ROW}


def test_values_that_are_not_json_like_are_refused_where_used() -> None:
    class Money:
        pass

    data = {"rows": [{"id": 1, "price": Money()}]}
    assert show("(count data/rows)", data=data) == "1"  # not touched: no error
    assert show("(nil? (:price (first data/rows)))", data=data) == "false"
    for src in ["(:price (first data/rows))", "(str (:price (first data/rows)))",
                "(+ 1 (:price (first data/rows)))", "(set [(:price (first data/rows))])"]:
        with pytest.raises(ptc.PTCError) as info:
            ptc.run(src, data=data)
        assert "Python Money" in info.value.message
    with pytest.raises(ptc.PTCError, match="cannot convert a Python Money"):
        ptc.run("1", data={"x": Money()})


def test_typed_tool_results_are_converted_when_their_type_says_so() -> None:
    import datetime as dt

    from pydantic import BaseModel

    class Order(BaseModel):
        id: int
        day: dt.date

    @ptc.tool
    def orders() -> list[Order]:
        """Orders."""
        return [Order(id=1, day=dt.date(2024, 5, 1))]

    @ptc.tool
    def stamps() -> list:
        """Dates without an annotation that says so: the first row shows them."""
        return [{"day": dt.date(2024, 5, 1)}]

    assert show("(first (tool/orders))", tools=[orders]) == '{:id 1, :day "2024-05-01"}'
    assert show("(:day (first (tool/stamps)))", tools=[stamps]) == '"2024-05-01"'
