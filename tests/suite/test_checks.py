"""Every check kind, passing and failing, and the outbox expectation."""

from __future__ import annotations

import pytest

from ptc.examples.tools import Outbox, action_tools
from ptc.suite.checks import check_outbox, equal, judge, lookup, predicate_passes
from ptc.suite.spec import Check, OutboxExpect

RESULT = {"top-category": "home", "revenue": 8109.51, "orders": 50,
          "items": [{"name": "a", "price": 3.5}, {"name": "b", "price": 9.0}], "ok": True, "none": None}


def fails(check: dict, result=RESULT, data=None) -> list[str]:
    return judge([Check(**check)], result, data=data)


@pytest.mark.parametrize("check", [
    {"equals": RESULT},
    {"path": "top-category", "equals": "home"},
    {"path": "top_category", "equals": "home"},              # snake finds kebab
    {"path": "revenue", "equals": 8109.512},                  # within the default absolute tolerance
    {"path": "revenue", "equals": 8100, "tolerance": 10},
    {"path": "items.1.name", "equals": "b"},
    {"path": ["items", 0, "price"], "equals": 3.5},
    {"path": "items.0", "equals": {"name": "a", "price": 3.5}},
    {"path": "none", "equals": None},
    {"path": "ok", "equals": True},
    {"path": "revenue", "between": [8000, 8200]},
    {"path": "orders", "between": [50, 50]},
    {"has_keys": ["top-category", "revenue", "top_category"]},
    {"path": "items", "length": 2},
    {"path": "items", "length": {"min": 1}},
    {"path": "items", "length": {"min": 2, "max": 3}},
    {"path": "top-category", "length": 4},                    # strings have a length too
    {"predicate": "(fn [r] (> (:revenue r) 8000))"},
    {"predicate": "(= 2 (count (:items result)))"},
    {"path": "items", "predicate": "(fn [xs] (every? #(pos? (:price %)) xs))"},
    {"predicate": "(= (:orders result) (count data/rows))"},  # mission data is visible
])
def test_checks_pass(check):
    data = {"rows": list(range(50))}
    assert fails(check, data=data) == []


@pytest.mark.parametrize("check, message", [
    ({"equals": {"top-category": "home"}}, "equals: expected"),
    ({"path": "top-category", "equals": "toys"}, 'equals at top-category: expected "toys", got "home"'),
    ({"path": "revenue", "equals": 8109.6}, "equals at revenue"),
    ({"path": "revenue", "equals": 8100, "tolerance": 1}, "equals at revenue"),
    ({"path": "orders", "equals": "50"}, "equals at orders"),
    ({"path": "ok", "equals": 1}, "equals at ok"),             # true is not 1
    ({"path": "missing", "equals": 1}, "equals at missing: no key 'missing' at missing"),
    ({"path": "items.5", "equals": 1}, "index 5 out of range"),
    ({"path": "orders.x", "equals": 1}, "cannot take 'x' of int"),
    ({"path": "revenue", "between": [0, 100]}, "between at revenue: 8109.51 is not in [0, 100]"),
    ({"path": "top-category", "between": [0, 100]}, "expected a number"),
    ({"has_keys": ["revenue", "profit"]}, "has_keys: missing key(s) profit"),
    ({"path": "orders", "has_keys": ["a"]}, "expected a map"),
    ({"path": "items", "length": 3}, "length at items: length 2, expected 3"),
    ({"path": "items", "length": {"min": 3}}, "expected at least 3"),
    ({"path": "items", "length": {"max": 1}}, "expected at most 1"),
    ({"path": "orders", "length": 1}, "expected a collection"),
    ({"predicate": "(fn [r] (> (:revenue r) 9000))"}, "is false for"),
    ({"predicate": "(:none result)"}, "is false for"),
    ({"predicate": "(fn [r] (/ 1 0))"}, "predicate raised"),
    ({"predicate": "(undefined-fn result)"}, "predicate raised"),
    ({"path": "orders", "equals": 1, "message": "wrong count"}, "equals at orders: wrong count"),
])
def test_checks_fail(check, message):
    found = fails(check)
    assert len(found) == 1 and message in found[0], found


def test_string_checks_are_predicates_and_all_failures_are_listed():
    checks = [Check(predicate="(= 1 1)"), Check(path="orders", equals=1), Check(has_keys=["x"])]
    assert len(judge(checks, RESULT)) == 2


def test_pydantic_results_are_dumped():
    from pydantic import BaseModel

    class R(BaseModel):
        top_category: str
        revenue: float

    assert judge([Check(path="top-category", equals="home")], R(top_category="home", revenue=1.0)) == []


def test_equal_and_lookup_helpers():
    assert equal({"a_b": 1}, {"a-b": 1.0})
    assert not equal([1, 2], [1, 2, 3])
    assert not equal(True, 1) and not equal(0, False)
    assert lookup({"a": [{"b": 2}]}, ["a", 0, "b"]) == (2, None)
    assert predicate_passes("(fn [x] x)", 0) == (True, None)      # 0 is truthy in Clojure
    assert predicate_passes("(fn [x] x)", False)[0] is False


def test_outbox_expectations():
    box = Outbox()
    tools = {t.name: t for t in action_tools(box)}
    tools["send-email"].invoke({"to": "a@example.com", "subject": "s", "body": "hello world"})
    tools["book-meeting"].invoke({"attendees": ["a@example.com", "b@example.com"], "title": "T", "day": "2026-03-02"})
    ok = OutboxExpect(emails=1, meetings={"min": 1, "max": 1}, email_to=["A@example.com"],
                      predicate="(str/includes? (:body (first (:emails outbox))) \"world\")")
    assert check_outbox(ok, box) == []
    assert check_outbox(OutboxExpect(predicate="(fn [o] (= 2 (count (:attendees (first (:meetings o))))))"), box) == []
    bad = OutboxExpect(emails=2, meetings=0, email_to=["c@example.com"], predicate="(empty? (:emails outbox))")
    found = check_outbox(bad, box)
    assert len(found) == 4
    assert "1 email(s) sent, expected 2" in found[0]
    assert "1 meeting(s) booked, expected 0" in found[1]
    assert "emails went to ['a@example.com']" in found[2]
    assert found[3].startswith("outbox predicate:")
    assert judge([], 1, outbox_expect=OutboxExpect(emails=1), outbox=Outbox()) == [
        "outbox: 0 email(s) sent, expected 1"]
