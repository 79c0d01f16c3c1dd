"""ptc.examples.tools through ptc.run: typed, validated, described; action tools record."""

from __future__ import annotations

import pytest

import ptc
from ptc.examples import datasets
from ptc.examples import tools as T
from ptc.tools import Tool, as_tools


def run(source, tools):
    return ptc.to_python(ptc.run(source, tools=tools).value)


def test_factories_return_tools_with_kebab_names():
    names = [t.name for t in T.analysis_tools()]
    assert names == ["search-products", "get-product", "list-orders", "list-employees", "get-employee",
                     "expenses-for", "search-reviews"]
    outbox = T.Outbox()
    assert [t.name for t in T.action_tools(outbox)] == ["send-email", "book-meeting"]
    assert all(isinstance(t, Tool) for t in T.all_tools(outbox))
    assert len(as_tools(T.all_tools(outbox))) == 9


def test_descriptions_come_from_docstrings(tools_map):
    sig = tools_map["search-products"].signature()
    assert sig.startswith("(tool/search-products {:query :string, :category :string?, :limit :int?})")
    assert "best rated first" in sig and "(default 10)" in sig
    assert '(enum "paid" "pending" "refunded" "delivered")' in tools_map["list-orders"].signature()
    assert ":employee-id :int" in tools_map["expenses-for"].signature()
    assert tools_map["search-reviews"].signature().startswith("(tool/search-reviews {:category :string}) -> :string")


def test_search_products(tools_map):
    found = run('(tool/search-products {:query "" :category "books" :limit 3})', tools_map)
    assert len(found) == 3 and {p["category"] for p in found} == {"books"}
    assert [p["rating"] for p in found] == sorted((p["rating"] for p in found), reverse=True)
    assert len(run('(tool/search-products {:query "" :limit 100})', tools_map)) == 60
    tents = run('(tool/search-products {:query "TENT"})', tools_map)
    assert [p["name"].split(" ", 1)[1] for p in tents] == ["Two-Person Tent"]


def test_search_products_rejects_bad_arguments(tools_map):
    with pytest.raises(ptc.PTCError, match="unknown category 'garden'"):
        ptc.run('(tool/search-products {:query "x" :category "garden"})', tools=tools_map)
    with pytest.raises(ptc.PTCError, match="limit must be between 1 and 100"):
        ptc.run('(tool/search-products {:query "" :limit 0})', tools=tools_map)
    with pytest.raises(ptc.PTCError) as e:
        ptc.run('(tool/search-products {:category "books"})', tools=tools_map)  # query is required
    assert e.value.kind == "tool" and "query" in e.value.message


def test_get_product_and_employee(tools_map):
    assert run("(:name (tool/get-product {:id 1}))", tools_map) == datasets.load("products")[0]["name"]
    assert run("(:title (tool/get-employee {:id 1}))", tools_map) == "CEO"
    with pytest.raises(ptc.PTCError, match="no product with id 999"):
        ptc.run("(tool/get-product {:id 999})", tools=tools_map)
    with pytest.raises(ptc.PTCError, match="id"):
        ptc.run('(tool/get-product {:id "one"})', tools=tools_map)


def test_list_orders_filters(tools_map):
    orders = datasets.load("orders")
    assert run("(count (tool/list-orders))", tools_map) == 400
    assert run('(count (tool/list-orders {:status "refunded"}))', tools_map) == \
        sum(o["status"] == "refunded" for o in orders)
    who = orders[0]["customer"]
    got = run(f'(tool/list-orders {{:customer "{who.upper()}" :region "east"}})', tools_map)
    assert got == [o for o in orders if o["customer"] == who and o["region"] == "east"]


def test_list_orders_rejects_unknown_status_with_the_choices(tools_map):
    with pytest.raises(ptc.PTCError) as e:
        ptc.run('(tool/list-orders {:status "completed"})', tools=tools_map)
    assert e.value.kind == "tool"
    assert '"delivered"' in e.value.message and '"completed"' in e.value.message


def test_keyword_arguments_work_like_strings(tools_map):
    assert run("(count (tool/list-orders {:status :paid}))", tools_map) == \
        run('(count (tool/list-orders {:status "paid"}))', tools_map)


def test_employees_and_expenses(tools_map):
    sales = run('(tool/list-employees {:department "sales"})', tools_map)
    assert len(sales) == 15 and {e["department"] for e in sales} == {"Sales"}
    assert run("(count (tool/list-employees))", tools_map) == 80
    with pytest.raises(ptc.PTCError, match="unknown department"):
        ptc.run('(tool/list-employees {:department "Legal"})', tools=tools_map)
    eid = datasets.load("expenses")[0]["employee_id"]
    mine = run(f"(tool/expenses-for {{:employee-id {eid}}})", tools_map)
    assert mine == [x for x in datasets.load("expenses") if x["employee_id"] == eid]
    travel = run(f'(tool/expenses-for {{:employee-id {eid} :category "travel"}})', tools_map)
    assert all(x["category"] == "travel" for x in travel)
    with pytest.raises(ptc.PTCError, match="no employee with id 0"):
        ptc.run("(tool/expenses-for {:employee-id 0})", tools=tools_map)


def test_search_reviews_is_deterministic_text(tools_map):
    text = run('(tool/search-reviews {:category "outdoor"})', tools_map)
    assert isinstance(text, str) and text.startswith("Review summary for outdoor:")
    assert "average rating" in text and "Best rated:" in text
    assert text == T.search_reviews("Outdoor")
    with pytest.raises(ptc.PTCError, match="unknown category"):
        ptc.run('(tool/search-reviews {:category "food"})', tools=tools_map)


def test_programs_aggregate_over_tool_results(tools_map):
    total = run('(->> (tool/list-orders {:status "paid"}) (map #(* (:quantity %) (:unit_price %))) (reduce +))',
                tools_map)
    want = sum(o["quantity"] * o["unit_price"] for o in datasets.load("orders") if o["status"] == "paid")
    assert total == pytest.approx(want)


def test_custom_summaries(tools_map):
    result = ptc.run('(tool/list-orders {:status "paid"})', tools=tools_map)
    call = result.tool_calls[0]
    line = tools_map["list-orders"].summarize(call.args, call.result)
    assert line.startswith('list-orders({:status "paid"}) -> 114 orders worth ')
    result = ptc.run('(tool/search-reviews {:category "books"})', tools=tools_map)
    call = result.tool_calls[0]
    assert tools_map["search-reviews"].summarize(call.args, call.result).startswith(
        'search-reviews({:category "books"}) -> ')
    # tools without a custom summary keep the default one-liner
    result = ptc.run("(tool/get-product {:id 1})", tools=tools_map)
    call = result.tool_calls[0]
    assert tools_map["get-product"].summarize(call.args, call.result) == "get-product({:id 1}) -> map[6]"


def test_action_tools_record_into_the_outbox_and_return_nil():
    outbox = T.Outbox()
    tools = as_tools(T.action_tools(outbox))
    result = ptc.run('''
      [(tool/send-email {:to "ada@example.com" :subject "Hello" :body "Line 1\\nLine 2"})
       (tool/book-meeting {:attendees ["ada@example.com" "alan@example.com"] :title "Sync" :day "2026-07-06"})]''',
                     tools=tools)
    assert ptc.to_python(result.value) == [None, None]
    assert outbox.emails == [T.Email("ada@example.com", "Hello", "Line 1\nLine 2")]
    assert outbox.meetings == [T.Meeting(("ada@example.com", "alan@example.com"), "Sync", "2026-07-06")]
    assert len(outbox) == 2
    text = outbox.render()
    assert "email to ada@example.com: Hello" in text and "    | Line 2" in text
    assert "meeting 2026-07-06 'Sync' with ada@example.com, alan@example.com" in text
    assert tools["send-email"].summarize(result.tool_calls[0].args, None) == \
        'send-email -> sent to ada@example.com: "Hello"'
    outbox.clear()
    assert len(outbox) == 0


@pytest.mark.parametrize("call, message", [
    ('(tool/send-email {:to "not-an-address" :subject "x" :body "y"})', "not an email address"),
    ('(tool/send-email {:to "a@example.com" :subject " " :body "y"})', "subject must not be empty"),
    ('(tool/book-meeting {:attendees [] :title "x" :day "2026-07-06"})', "at least one attendee"),
    ('(tool/book-meeting {:attendees ["a@example.com"] :title "x" :day "next monday"})', "YYYY-MM-DD"),
    ('(tool/book-meeting {:attendees ["a@example.com"] :title "x" :day "2026-07-04"})', "Saturday"),
    ('(tool/book-meeting {:attendees "a@example.com" :title "x" :day "2026-07-06"})', "attendees"),
])
def test_action_tools_validate_and_record_nothing_on_error(call, message):
    outbox = T.Outbox()
    with pytest.raises(ptc.PTCError, match=message):
        ptc.run(call, tools=as_tools(T.action_tools(outbox)))
    assert len(outbox) == 0


def test_each_outbox_is_separate():
    a, b = T.Outbox(), T.Outbox()
    ptc.run('(tool/send-email {:to "x@example.com" :subject "s" :body "b"})', tools=as_tools(T.action_tools(a)))
    assert len(a) == 1 and len(b) == 0


def test_plain_functions_are_callable_directly():
    assert T.get_product(2)["id"] == 2
    assert len(T.search_products("", limit=100)) == 60
    assert T.list_orders(status="pending") == [o for o in datasets.load("orders") if o["status"] == "pending"]
