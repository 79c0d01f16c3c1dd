"""Typed tools over the sample datasets (`ptc.examples.datasets`).

Two families:

- **analysis tools** (`analysis_tools()`): read-only look-ups and searches --
  `tool/search-products`, `tool/get-product`, `tool/list-orders`, `tool/list-employees`,
  `tool/get-employee`, `tool/expenses-for` and `tool/search-reviews` (a synthesized review
  summary, as text).
- **action tools** (`action_tools(outbox)`): `tool/send-email` and `tool/book-meeting`.
  They return nil, like most real "do something" APIs; what they did is recorded in the
  `Outbox` you pass in, so a test or a script can look at it afterwards:

      outbox = Outbox()
      agent = ptc.Agent(mission, tools=[*analysis_tools(), *action_tools(outbox)], llm=...)
      agent.run()
      outbox.emails     # [Email(to=..., subject=..., body=...), ...]
      outbox.meetings   # [Meeting(attendees=(...), title=..., day=...), ...]

The plain functions (`search_products`, `list_orders`, ...) are ordinary Python and can be
called directly; the `*_tools()` factories wrap them with `ptc.tools.tool`, which turns the
type hints into validation and a prompt signature and the docstrings into descriptions.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from . import datasets

OrderStatus = Literal["paid", "pending", "refunded", "delivered"]
Region = Literal["north", "south", "east", "west"]
ExpenseCategory = Literal["travel", "meals", "software", "hardware", "training"]


class Product(TypedDict):
    id: int
    name: str
    category: str
    price: float
    stock: int
    rating: float


class Order(TypedDict):
    id: int
    customer: str
    product_id: int
    quantity: int
    unit_price: float
    status: str
    region: str
    date: str


class Employee(TypedDict):
    id: int
    name: str
    email: str
    department: str
    title: str
    salary: int
    hire_date: str
    manager_id: int | None
    location: str


class Expense(TypedDict):
    id: int
    employee_id: int
    category: str
    amount: float
    date: str
    approved: bool
    description: str


def _rows(name: str) -> tuple[dict[str, Any], ...]:
    return datasets._generate(datasets.SEED)[name]


def _by_id(name: str, id: int, what: str) -> dict[str, Any]:
    for row in _rows(name):
        if row["id"] == id:
            return dict(row)
    ids = [r["id"] for r in _rows(name)]
    raise ValueError(f"no {what} with id {id} (ids run from {min(ids)} to {max(ids)})")


# -- analysis tools ------------------------------------------------------------------------


def search_products(query: str, category: str | None = None, limit: int = 10) -> list[Product]:
    """Find products whose name contains `query` (case-insensitive; "" matches every product).

    Args:
        query: words to look for in the product name, e.g. "headphones".
        category: only this category: electronics, home, outdoor, books, toys or beauty.
        limit: at most this many products (1-100), best rated first.
    """
    if not 1 <= limit <= 100:
        raise ValueError(f"limit must be between 1 and 100, got {limit}")
    words = query.lower().split()
    cat = category.lower() if category else None
    if cat is not None and cat not in datasets.CATEGORIES:
        raise ValueError(f"unknown category {category!r}; categories: {', '.join(datasets.CATEGORIES)}")
    found = [dict(p) for p in _rows("products")
             if (cat is None or p["category"] == cat) and all(w in p["name"].lower() for w in words)]
    found.sort(key=lambda p: (-p["rating"], p["id"]))
    return found[:limit]  # type: ignore[return-value]


def get_product(id: int) -> Product:
    """One product by its id (fails when there is no such product)."""
    return _by_id("products", id, "product")  # type: ignore[return-value]


def list_orders(status: OrderStatus | None = None, customer: str | None = None,
                region: Region | None = None) -> list[Order]:
    """Orders of 2026, oldest first, optionally filtered (filters combine).

    Args:
        status: only orders with this status.
        customer: only this customer's orders (full name, case-insensitive).
        region: only orders shipped to this region.
    """
    who = customer.strip().lower() if customer else None
    return [dict(o) for o in _rows("orders")  # type: ignore[misc]
            if (status is None or o["status"] == status)
            and (who is None or o["customer"].lower() == who)
            and (region is None or o["region"] == region)]


def list_employees(department: str | None = None) -> list[Employee]:
    """Employees (all, or one department's: Executive, Engineering, Sales, Marketing,
    Finance, Operations or Support). `manager_id` is the id of the person they report to."""
    if department is not None:
        known = {e["department"].lower(): e["department"] for e in _rows("employees")}
        if department.lower() not in known:
            raise ValueError(f"unknown department {department!r}; departments: {', '.join(sorted(set(known.values())))}")
        department = known[department.lower()]
    return [dict(e) for e in _rows("employees")  # type: ignore[misc]
            if department is None or e["department"] == department]


def get_employee(id: int) -> Employee:
    """One employee by id: name, email, department, title, salary, manager_id, location."""
    return _by_id("employees", id, "employee")  # type: ignore[return-value]


def expenses_for(employee_id: int, category: ExpenseCategory | None = None) -> list[Expense]:
    """The expense claims one employee filed in 2026 (optionally one category), oldest first.
    `approved` is false for claims still waiting for (or refused) approval."""
    _by_id("employees", employee_id, "employee")
    return [dict(x) for x in _rows("expenses")  # type: ignore[misc]
            if x["employee_id"] == employee_id and (category is None or x["category"] == category)]


_PRAISE = {
    "electronics": ["battery life", "sound quality", "quick setup", "solid build", "crisp display"],
    "home": ["sturdy materials", "easy to clean", "looks great in the kitchen", "good value", "quiet operation"],
    "outdoor": ["durable fabric", "light to carry", "keeps dry in heavy rain", "comfortable straps", "packs small"],
    "books": ["clear explanations", "practical examples", "well edited", "worth rereading", "great exercises"],
    "toys": ["keeps kids busy for hours", "safe materials", "survives rough play", "educational", "bright colours"],
    "beauty": ["gentle on sensitive skin", "pleasant scent", "lasts all day", "travel friendly", "visible results"],
}
_COMPLAINTS = {
    "electronics": ["firmware updates break pairing", "charging cable too short", "runs warm", "app needs an account"],
    "home": ["assembly instructions unclear", "scratches easily", "smaller than pictured", "loud on high setting"],
    "outdoor": ["sizing runs small", "zipper snags", "heavier than advertised", "seams need sealing"],
    "books": ["dense in places", "dated examples", "small print", "binding cracks"],
    "toys": ["pieces go missing", "batteries not included", "paint chips", "instructions hard to follow"],
    "beauty": ["pump clogs", "strong fragrance", "packaging leaks", "pricey for the size"],
}


def search_reviews(category: str) -> str:
    """A summary of customer reviews for a product category (text): the average rating,
    what reviewers praise and complain about, and the best and worst rated products."""
    cat = category.strip().lower()
    if cat not in datasets.CATEGORIES:
        raise ValueError(f"unknown category {category!r}; categories: {', '.join(datasets.CATEGORIES)}")
    rng = random.Random(f"reviews:{cat}")
    products = [p for p in _rows("products") if p["category"] == cat]
    ids = {p["id"] for p in products}
    orders = [o for o in _rows("orders") if o["product_id"] in ids]
    refunded = sum(o["status"] == "refunded" for o in orders)
    best = max(products, key=lambda p: (p["rating"], -p["id"]))
    worst = min(products, key=lambda p: (p["rating"], p["id"]))
    average = sum(p["rating"] for p in products) / len(products)
    reviews = sum(rng.randint(40, 900) for _ in products)
    praise = rng.sample(_PRAISE[cat], 3)
    complaints = rng.sample(_COMPLAINTS[cat], 2)
    mood = "very positive" if average >= 4.3 else "mostly positive" if average >= 3.9 else "mixed"
    return (
        f"Review summary for {cat}: {reviews} reviews across {len(products)} products, average rating "
        f"{average:.1f}/5 ({mood}). Reviewers praise {praise[0]}, {praise[1]} and {praise[2]}. "
        f"Common complaints: {complaints[0]}; {complaints[1]}. "
        f"Best rated: {best['name']} ({best['rating']}). Lowest rated: {worst['name']} ({worst['rating']}), "
        f"where reviewers mention {complaints[0]}. {refunded} of {len(orders)} orders in this category "
        f"were refunded."
    )


def summarize_orders(args: dict[str, Any], result: list[dict[str, Any]]) -> str:
    """How a list-orders call shows up in histories: the filters, the count and the total value."""
    given = args.items() if isinstance(args, dict) else ()
    filters = ", ".join(f":{k} {json.dumps(v)}" for k, v in given if v is not None)
    total = sum(o.get("quantity", 0) * o.get("unit_price", 0) for o in result or [])
    return f"list-orders({{{filters}}}) -> {len(result or [])} orders worth {total:,.2f}"


def summarize_reviews(args: dict[str, Any], result: str) -> str:
    category = args.get("category") if isinstance(args, dict) else args
    rating = re.search(r"average rating ([0-9.]+)/5", result or "")
    return (f"search-reviews({{:category {json.dumps(category)}}}) -> {len(result or '')}-character summary, "
            f"average rating {rating.group(1) if rating else '?'}/5")


def analysis_tools() -> list[Any]:
    """The read-only tools, as `ptc.tools.Tool`s ready for `ptc.Agent(tools=...)` / `ptc.run`."""
    from ptc.tools import tool

    return [
        tool(search_products),
        tool(get_product),
        tool(list_orders, summarize=summarize_orders),
        tool(list_employees),
        tool(get_employee),
        tool(expenses_for),
        tool(search_reviews, summarize=summarize_reviews),
    ]


# -- action tools --------------------------------------------------------------------------


@dataclass(frozen=True)
class Email:
    to: str
    subject: str
    body: str


@dataclass(frozen=True)
class Meeting:
    attendees: tuple[str, ...]
    title: str
    day: str


@dataclass
class Outbox:
    """What the action tools did, in order: sent emails and booked meetings.

    Nothing leaves the process: `send-email` and `book-meeting` only append here.
    """

    emails: list[Email] = field(default_factory=list)
    meetings: list[Meeting] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.emails) + len(self.meetings)

    def clear(self) -> None:
        self.emails.clear()
        self.meetings.clear()

    def render(self) -> str:
        """A readable listing, for printing at the end of a script."""
        lines = [f"Outbox: {len(self.emails)} email(s), {len(self.meetings)} meeting(s)"]
        for e in self.emails:
            lines.append(f"  email to {e.to}: {e.subject}")
            lines.extend(f"    | {line}" for line in e.body.splitlines())
        for m in self.meetings:
            lines.append(f"  meeting {m.day} {m.title!r} with {', '.join(m.attendees)}")
        return "\n".join(lines)


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")


def _check_email(address: str) -> str:
    address = address.strip()
    if not _EMAIL.match(address):
        raise ValueError(f"not an email address: {address!r}")
    return address


def action_tools(outbox: Outbox) -> list[Any]:
    """`tool/send-email` and `tool/book-meeting`, recording into `outbox` (both return nil)."""
    from ptc.tools import tool

    def send_email(to: str, subject: str, body: str) -> None:
        """Send an email (returns nil). Call it once per message; it cannot be undone.

        Args:
            to: the recipient's email address.
            subject: a one-line subject.
            body: the message text.
        """
        if not subject.strip():
            raise ValueError("subject must not be empty")
        outbox.emails.append(Email(_check_email(to), subject.strip(), body))

    def book_meeting(attendees: list[str], title: str, day: str) -> None:
        """Book a meeting in everyone's calendar (returns nil).

        Args:
            attendees: the attendees' email addresses.
            title: what the meeting is about.
            day: the date, "YYYY-MM-DD" (a weekday).
        """
        if not attendees:
            raise ValueError("a meeting needs at least one attendee")
        try:
            when = dt.date.fromisoformat(day)
        except ValueError:
            raise ValueError(f'day must be a date written "YYYY-MM-DD", got {day!r}') from None
        if when.weekday() >= 5:
            raise ValueError(f"{day} is a {when.strftime('%A')}; book meetings on weekdays")
        outbox.meetings.append(Meeting(tuple(_check_email(a) for a in attendees), title.strip(), day))

    def summarize_email(args: dict[str, Any], result: Any) -> str:
        return f"send-email -> sent to {args.get('to')}: {json.dumps(args.get('subject'))}"

    return [tool(send_email, summarize=summarize_email), tool(book_meeting)]


def all_tools(outbox: Outbox) -> list[Any]:
    """Analysis and action tools together."""
    return [*analysis_tools(), *action_tools(outbox)]
