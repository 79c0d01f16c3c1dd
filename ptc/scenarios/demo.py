"""Ready-made missions over the sample data, each with a scripted model and the true answer.

A `Scenario` bundles a mission, its signature, the tools it needs and a script of realistic
model replies (a short sentence and one ```clojure block each), so it runs offline with
`ptc.ScriptedLLM` -- for `ptc demo`, the example scripts in `examples/`, tests and benchmarks.
`expected()` computes the correct answer in plain Python from the datasets, and `check()`
grades any run (scripted or a real model) against it.

    from ptc.scenarios.demo import SCENARIOS
    s = SCENARIOS["data-analysis"]
    step = s.agent().run()                     # scripted
    step = s.agent("openai/gpt-4o-mini").run() # a real model
    s.check(step)                              # [] when the answer is right

Scenarios: `data-analysis` (explore, aggregate, typed result), `acting` (emails and a meeting
through nil-returning tools, recorded in an `Outbox`), `recovering` (a tool validation error
and a runtime error fed back and fixed; a pydantic result), `chart` (the answer is a line chart).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import BaseModel

from ..examples import datasets
from ..examples.tools import Outbox, action_tools, analysis_tools

# -- data analysis ---------------------------------------------------------------------------

ANALYSIS_MISSION = (
    "Which product category brought in the most revenue in 2026? Count only orders that were paid "
    "or delivered; revenue is quantity times unit price. Return the category, its revenue rounded "
    "to cents, how many orders it had and its share of all revenue (a fraction, 3 decimals)."
)
ANALYSIS_SIGNATURE = "{top-category :string, revenue :float, orders :int, share :float}"
ANALYSIS_REPLIES = (
    """\
I'll start by looking at the shape of the paid and delivered orders and of the products.

```clojure
(def sales (into [] cat [(tool/list-orders {:status "paid"})
                         (tool/list-orders {:status "delivered"})]))
(def products (tool/search-products {:query "" :limit 100}))
(println "paid/delivered orders:" (count sales) "products:" (count products))
(println "order:" (first sales))
(println "product:" (first products))
```""",
    """\
Orders carry a product_id and a unit_price, so I'll map each product id to its category and sum revenue per category.

```clojure
(def category-of (into {} (map (juxt :id :category)) products))
(def revenue-by-category
  (->> sales
       (group-by #(category-of (:product_id %)))
       (map (fn [[category orders]]
              {:category category
               :orders (count orders)
               :revenue (reduce + (map #(* (:quantity %) (:unit_price %)) orders))}))
       (sort-by :revenue >)))
(doseq [row revenue-by-category]
  (println (:category row) (:orders row) (format "%.2f" (:revenue row))))
```""",
    """\
Home is the top category; here is the answer with its share of total revenue.

```clojure
(let [top (first revenue-by-category)
      total (sum-by :revenue revenue-by-category)]
  (return {:top-category (:category top)
           :revenue (/ (Math/round (* 100.0 (:revenue top))) 100.0)
           :orders (:orders top)
           :share (/ (Math/round (* 1000.0 (/ (:revenue top) total))) 1000.0)}))
```""",
)


def analysis_expected() -> dict[str, Any]:
    category = {p["id"]: p["category"] for p in datasets.load("products")}
    revenue: dict[str, float] = defaultdict(float)
    orders: Counter[str] = Counter()
    for o in datasets.load("orders"):
        if o["status"] in ("paid", "delivered"):
            c = category[o["product_id"]]
            revenue[c] += o["quantity"] * o["unit_price"]
            orders[c] += 1
    top = max(revenue, key=lambda c: revenue[c])
    return {"top-category": top, "revenue": round(revenue[top], 2), "orders": orders[top],
            "share": round(revenue[top] / sum(revenue.values()), 3)}


# -- acting ------------------------------------------------------------------------------------

ACTING_MISSION = (
    "Some expense claims from the Sales department are over $200 and still not approved. "
    "Email each affected manager (the person the claimant reports to) one message listing their "
    "team's unapproved claims over $200, then book a meeting titled \"Sales expense review\" on "
    "Monday 2026-07-06 with the CFO and those managers. Return how many emails you sent, the "
    "meeting's attendees and the total amount of those claims."
)
ACTING_SIGNATURE = "{emails-sent :int, meeting-attendees [:string], unapproved-total :float}"
ACTING_REPLIES = (
    """\
First I'll collect the Sales team and their unapproved claims over $200.

```clojure
(def sales-team (tool/list-employees {:department "Sales"}))
(def pending
  (->> sales-team
       (mapcat #(tool/expenses-for {:employee-id (:id %)}))
       (filter #(and (not (:approved %)) (> (:amount %) 200)))
       vec))
(println "sales people:" (count sales-team) "- unapproved claims over $200:" (count pending))
(doseq [x pending]
  (println (:employee_id x) (:date x) (:category x) (:amount x) (:description x)))
```""",
    """\
Now I'll group the claims by the claimant's manager and find the managers' and the CFO's email addresses.

```clojure
(def staff (into {} (map (juxt :id identity)) sales-team))
(def by-manager (group-by #(:manager_id (staff (:employee_id %))) pending))
(def managers
  (into {} (map (fn [id] [id (or (staff id) (tool/get-employee {:id id}))])) (keys by-manager)))
(def cfo (first (filter #(= "CFO" (:title %)) (tool/list-employees {:department "Finance"}))))
(doseq [[id claims] by-manager]
  (println (:name (managers id)) (:email (managers id)) "-" (count claims) "claims"))
(println "CFO:" (:name cfo) (:email cfo))
```""",
    """\
Three managers are affected; I'll send each of them one email listing their team's claims.

```clojure
(defn claim-line [x]
  (format "- %s %s: %s, $%.2f (%s)" (:date x) (:name (staff (:employee_id x)))
          (:category x) (:amount x) (:description x)))
(doseq [[id claims] by-manager]
  (let [m (managers id)]
    (tool/send-email
      {:to (:email m)
       :subject (str "Action needed: " (count claims) " unapproved expense claims")
       :body (str "Hi " (first (str/split (:name m) #" ")) ",\\n\\n"
                  "These claims from your team are over $200 and still waiting for approval:\\n"
                  (str/join "\\n" (map claim-line claims))
                  "\\n\\nPlease approve or reject them before Monday's review.\\n\\nThanks!")})))
(println "emails sent:" (count by-manager))
```""",
    """\
The emails are out; now I'll book the review meeting and report what was done.

```clojure
(def attendees (vec (cons (:email cfo) (map #(:email (managers %)) (keys by-manager)))))
(tool/book-meeting {:attendees attendees :title "Sales expense review" :day "2026-07-06"})
(return {:emails-sent (count by-manager)
         :meeting-attendees attendees
         :unapproved-total (/ (Math/round (* 100.0 (sum-by :amount pending))) 100.0)})
```""",
)


def acting_expected() -> dict[str, Any]:
    """The answer, plus who must get an email and how many claims each email must list."""
    employees = {e["id"]: e for e in datasets.load("employees")}
    claims = [x for x in datasets.load("expenses")
              if employees[x["employee_id"]]["department"] == "Sales" and not x["approved"] and x["amount"] > 200]
    per_manager = Counter(employees[employees[x["employee_id"]]["manager_id"]]["email"] for x in claims)
    cfo = next(e for e in employees.values() if e["title"] == "CFO")
    return {"emails-sent": len(per_manager), "meeting-attendees": sorted([cfo["email"], *per_manager]),
            "unapproved-total": round(sum(x["amount"] for x in claims), 2),
            "claims-per-manager": dict(per_manager), "day": "2026-07-06", "title": "Sales expense review"}


# -- recovering --------------------------------------------------------------------------------


class TopCustomer(BaseModel):
    """The best customer by delivered-order spend (the recovering scenario's signature)."""

    customer: str
    spent: float
    orders: int
    top_product: str
    top_product_spent: float


RECOVERING_MISSION = (
    "Who is our best customer by money spent on completed (delivered) orders in 2026? Return their "
    "name, what they spent (rounded to cents), how many delivered orders they had, and the product "
    "they spent the most on, with that amount (rounded to cents)."
)
RECOVERING_REPLIES = (
    """\
I'll fetch the completed orders and total the spend per customer.

```clojure
(def completed (tool/list-orders {:status "completed"}))
(def spend-by-customer
  (->> completed
       (group-by :customer)
       (map (fn [[customer orders]]
              [customer (reduce + (map #(* (:quantity %) (:unit-price %)) orders))]))
       (sort-by second >)))
(println (take 5 spend-by-customer))
```""",
    """\
The tool has no "completed" status; completed orders are the "delivered" ones.

```clojure
(def delivered (tool/list-orders {:status "delivered"}))
(def spend-by-customer
  (->> delivered
       (group-by :customer)
       (map (fn [[customer orders]]
              [customer (reduce + (map #(* (:quantity %) (:unit-price %)) orders))]))
       (sort-by second >)))
(doseq [[customer total] (take 5 spend-by-customer)]
  (println customer (format "%.2f" total)))
```""",
    """\
The multiplication got nil: the order key is `unit_price` (snake case), not `unit-price`. The failed program's defs were not kept, so I fetch the orders again.

```clojure
(def delivered (tool/list-orders {:status "delivered"}))
(defn spend [o] (* (:quantity o) (:unit_price o)))
(def spend-by-customer
  (->> delivered
       (group-by :customer)
       (map (fn [[customer orders]] [customer (reduce + (map spend orders))]))
       (sort-by second >)))
(doseq [[customer total] (take 5 spend-by-customer)]
  (println customer (format "%.2f" total)))
```""",
    """\
Alan Conway spent the most; I'll find the product they spent the most on and return the answer.

```clojure
(let [[customer total] (first spend-by-customer)
      theirs (filter #(= customer (:customer %)) delivered)
      [product-id product-spend] (->> theirs
                                      (group-by :product_id)
                                      (map (fn [[id orders]] [id (reduce + (map spend orders))]))
                                      (sort-by second >)
                                      first)
      product (tool/get-product {:id product-id})]
  (return {:customer customer
           :spent (/ (Math/round (* 100.0 total)) 100.0)
           :orders (count theirs)
           :top_product (:name product)
           :top_product_spent (/ (Math/round (* 100.0 product-spend)) 100.0)}))
```""",
)


def recovering_expected() -> dict[str, Any]:
    delivered = [o for o in datasets.load("orders") if o["status"] == "delivered"]
    spent: Counter[str] = Counter()
    for o in delivered:
        spent[o["customer"]] += o["quantity"] * o["unit_price"]
    customer = max(spent, key=lambda c: spent[c])
    theirs = [o for o in delivered if o["customer"] == customer]
    per_product: Counter[int] = Counter()
    for o in theirs:
        per_product[o["product_id"]] += o["quantity"] * o["unit_price"]
    product_id = max(per_product, key=lambda p: per_product[p])
    name = next(p["name"] for p in datasets.load("products") if p["id"] == product_id)
    return {"customer": customer, "spent": round(spent[customer], 2), "orders": len(theirs),
            "top_product": name, "top_product_spent": round(per_product[product_id], 2)}


# -- the scenario type -------------------------------------------------------------------------


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=0.011)
    return bool(a == b)


def _compare(got: Any, want: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    if isinstance(got, BaseModel):
        got = got.model_dump()
    if not isinstance(got, dict):
        return [f"expected a map, got {got!r}"]
    problems = []
    for key in keys:
        value = got.get(key, got.get(key.replace("-", "_")))
        if not _close(value, want[key]):
            problems.append(f"{key}: expected {want[key]!r}, got {value!r}")
    return problems


# -- a chart ------------------------------------------------------------------------------------

CHART_MISSION = (
    "Show the monthly revenue of 2026 as a line chart: count only orders that were paid or delivered; "
    "revenue is quantity times unit price. One point per month, months written YYYY-MM, revenue rounded to cents."
)
CHART_REPLIES = (
    """\
I'll look at the dates and prices of the paid and delivered orders first.

```clojure
(def sales (into [] cat [(tool/list-orders {:status "paid"})
                         (tool/list-orders {:status "delivered"})]))
(println "orders:" (count sales) "first:" (first sales))
```""",
    """\
Dates are YYYY-MM-DD, so the month is the first 7 characters. I'll sum revenue per month and chart it.

```clojure
(def monthly
  (->> sales
       (group-by #(subs (:date %) 0 7))
       (map (fn [[month orders]]
              {:month month
               :revenue (/ (Math/round (* 100.0 (reduce + (map #(* (:quantity %) (:unit_price %)) orders)))) 100.0)}))
       (sort-by :month)))
(return (chart/line monthly :month :revenue {:title "Monthly revenue, 2026 (paid and delivered)"}))
```""",
)


def chart_expected() -> dict[str, Any]:
    revenue: dict[str, float] = defaultdict(float)
    for o in datasets.load("orders"):
        if o["status"] in ("paid", "delivered"):
            revenue[o["date"][:7]] += o["quantity"] * o["unit_price"]
    return {"mark": "line", "points": {month: round(r, 2) for month, r in sorted(revenue.items())}}


def chart_answer(value: Any) -> Any:
    """A chart answer as what the grader compares: its mark and its points (x -> y)."""
    from ..charts import ChartError, charts_in

    try:
        charts = charts_in(value)
    except ChartError as e:
        return f"a refused chart ({e})"
    if not charts:
        return value
    spec = charts[0].spec
    mark = spec.get("mark")
    enc = spec.get("encoding", {})
    x, y = enc.get("x", {}).get("field"), enc.get("y", {}).get("field")
    rows = spec.get("data", {}).get("values", [])
    return {"mark": mark.get("type") if isinstance(mark, dict) else mark,
            "points": {str(r.get(x))[:7]: r.get(y) for r in rows if isinstance(r, dict)}}


def _compare_chart(got: Any, want: dict[str, Any]) -> list[str]:
    if not isinstance(got, dict) or not isinstance(got.get("points"), dict):
        return [f"expected a chart, got {got!r}"[:300]]
    problems = [] if got.get("mark") == want["mark"] else [f"mark: expected {want['mark']!r}, got {got.get('mark')!r}"]
    if set(got["points"]) != set(want["points"]):
        problems.append(f"months: expected {sorted(want['points'])}, got {sorted(got['points'])}")
    problems += [f"{m}: expected {r}, got {got['points'][m]!r}" for m, r in want["points"].items()
                 if m in got["points"] and not _close(got["points"][m], r)]
    return problems


@dataclass(frozen=True)
class Scenario:
    """A mission with its tools, signature, a scripted model and a grader."""

    name: str
    title: str
    mission: str
    signature: Any
    replies: tuple[str, ...]
    expected: Callable[[], dict[str, Any]]
    uses_outbox: bool = False
    max_turns: int = 6
    notes: str = ""
    answer: Callable[[Any], Any] | None = None  # the step's value as the grader compares it
    _extra_checks: Callable[[Any, Outbox | None], list[str]] | None = field(default=None, repr=False)

    def tools(self, outbox: Outbox | None = None) -> list[Any]:
        """The tools the mission needs (the action tools record into `outbox`)."""
        if not self.uses_outbox:
            return analysis_tools()
        if outbox is None:
            raise ValueError(f"scenario {self.name!r} acts: pass an Outbox to record what it does")
        return [*analysis_tools(), *action_tools(outbox)]

    def scripted_llm(self) -> Any:
        from ptc.llm.scripted import ScriptedLLM

        return ScriptedLLM(self.replies)

    def agent(self, llm: Any = None, *, outbox: Outbox | None = None, **options: Any) -> Any:
        """A `ptc.Agent` for the mission; `llm` defaults to the scripted replies. Extra keyword
        options (compression=, trace=, on_event=, limits=, ...) go to `ptc.Agent`."""
        from ptc.agent.loop import Agent

        if self.uses_outbox and outbox is None:
            outbox = Outbox()
        options.setdefault("max_turns", self.max_turns)
        return Agent(self.mission, tools=self.tools(outbox), signature=self.signature,
                     llm=llm if llm is not None else self.scripted_llm(), **options)

    def check(self, step: Any, outbox: Outbox | None = None) -> list[str]:
        """What is wrong with a run's outcome ([] when it is right)."""
        if not step.ok:
            return [f"the run failed: {step.error.format() if step.error else '?'}"]
        want = self.expected()
        if self.answer is not None:
            return _compare_chart(self.answer(step.value), want)
        keys = tuple(k for k in want if k not in ("claims-per-manager", "day", "title"))
        got = step.value
        if self.uses_outbox and isinstance(got, dict) and isinstance(got.get("meeting-attendees"), list):
            got = {**got, "meeting-attendees": sorted(got["meeting-attendees"])}
        problems = _compare(got, want, keys)
        if self._extra_checks is not None:
            problems += self._extra_checks(want, outbox)
        return problems


def _check_outbox(want: dict[str, Any], outbox: Outbox | None) -> list[str]:
    if outbox is None:
        return []
    problems = []
    to = Counter(e.to for e in outbox.emails)
    if set(to) != set(want["claims-per-manager"]):
        problems.append(f"emails went to {sorted(to)}, expected {sorted(want['claims-per-manager'])}")
    problems += [f"{who} got {n} emails, expected 1" for who, n in to.items() if n > 1]
    if len(outbox.meetings) != 1:
        problems.append(f"{len(outbox.meetings)} meetings booked, expected 1")
    else:
        m = outbox.meetings[0]
        if sorted(m.attendees) != want["meeting-attendees"]:
            problems.append(f"meeting attendees {sorted(m.attendees)}, expected {want['meeting-attendees']}")
        if m.day != want["day"]:
            problems.append(f"meeting on {m.day}, expected {want['day']}")
    return problems


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("data-analysis", "Data analysis: the top category by revenue", ANALYSIS_MISSION,
                 ANALYSIS_SIGNATURE, ANALYSIS_REPLIES, analysis_expected,
                 notes="explore, aggregate across two tools, return a value checked by a short signature"),
        Scenario("acting", "Acting: email managers, book a review meeting", ACTING_MISSION, ACTING_SIGNATURE,
                 ACTING_REPLIES, acting_expected, uses_outbox=True, _extra_checks=_check_outbox,
                 notes="nil-returning action tools; each action once, spread over turns"),
        Scenario("recovering", "Recovering: two errors fed back and fixed", RECOVERING_MISSION, TopCustomer,
                 RECOVERING_REPLIES, recovering_expected,
                 notes="a tool validation error, then a runtime error; a pydantic result"),
        Scenario("chart", "A chart: monthly revenue as a line", CHART_MISSION, None, CHART_REPLIES,
                 chart_expected, answer=chart_answer,
                 notes="aggregate by month, answer with a chart the host renders (ptc demo chart --chart out.png)"),
    )
}


def get(name: str) -> Scenario:
    try:
        return SCENARIOS[name]
    except KeyError:
        raise KeyError(f"no scenario {name!r}; scenarios: {', '.join(SCENARIOS)}") from None
