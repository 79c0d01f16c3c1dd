"""The bundled token-benchmark scenarios: scripted multi-turn runs over the example data.

Each scenario is the sequence of replies a capable model would write for its mission (a
short sentence and one ```clojure block per turn), over the datasets and typed tools of
`ptc.examples`. The programs are real: `ptc.bench.tokens.run_scenario` runs them
with a scripted LLM, then renders the prompt of every call under each history strategy.

Together they cover exploration (samples, counts, keys), actions that return nil
(send-email, book-meeting), failed turns and their fixes (unknown function, wrong arity, a
bad tool argument, a tool refusing its input), big tool results kept with `def` and then
aggregated, long println output (more than `println_limit` calls), redefinitions (helpers
with docstrings redefined twice), data-heavy analysis over the full datasets
(`data_heavy=True`), a deliberate `(fail ...)`, and a ten-turn mixed session.

    >>> from ptc.scenarios import bench
    >>> [s.name for s in bench.SCENARIOS][:3]
    ['explore-catalog', 'support-outreach', 'recover-from-errors']
    >>> bench.get("sales-analysis").data_heavy
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..examples import datasets
from ..examples.tools import Outbox, action_tools, analysis_tools


@dataclass(frozen=True)
class Scenario:
    """A scripted run: the replies a model would write, over some data and tools."""

    name: str
    description: str
    mission: str
    replies: tuple[str, ...]
    data: dict[str, Any] = field(default_factory=dict)
    tools: tuple[Any, ...] = ()
    data_heavy: bool = False
    # (call index, text that must be in that prompt[, applies to json-tool-calling]); the flag
    # defaults to True: pass False for PTC-only facts (a docstring, a printed line).
    extra_facts: tuple[tuple[Any, ...], ...] = ()
    expect_ok: bool = True  # False for a scenario that deliberately ends with (fail ...)


def reply(sentence: str, code: str) -> str:
    """A model reply: one short sentence, then the program in one ```clojure block."""
    return f"{sentence}\n\n```clojure\n{code.strip()}\n```"


def _data(*names: str) -> dict[str, Any]:
    return {name: datasets.load(name) for name in names}


def _all_tools() -> tuple[Any, ...]:
    """Analysis and action tools; every scenario gets its own outbox."""
    return (*analysis_tools(), *action_tools(Outbox()))


# -- exploration -----------------------------------------------------------------------------

EXPLORE_CATALOG = Scenario(
    name="explore-catalog",
    description="Exploration: print counts, keys and sample rows, then compute and return.",
    mission=("Which product categories have the best-rated products that are in stock? "
             "Return, for each category, its top-rated in-stock product with rating and stock."),
    data=_data("products"),
    replies=(
        reply("Let me look at the shape of the products data first.", """
(println "products:" (count data/products))
(println "keys:" (keys (first data/products)))
(doseq [p (take 3 data/products)]
  (println p))
"""),
        reply("Now the categories, and how many products are actually in stock.", """
(println "per category:" (frequencies (map :category data/products)))
(def in-stock (filter #(pos? (:stock %)) data/products))
(println "in stock:" (count in-stock) "of" (count data/products))
"""),
        reply("I'll keep the best-rated in-stock product of each category.", """
(def best-by-category
  (into {} (map (fn [[category ps]] [category (max-by :rating ps)])
                (group-by :category in-stock))))
"""),
        reply("That gives one product per category; returning them best-rated first.", """
(return (->> best-by-category
             (map (fn [[category p]]
                    {:category category :product (:name p) :rating (:rating p) :stock (:stock p)}))
             (sort-by :rating >)
             vec))
"""),
    ),
)

# -- actions that return nil -----------------------------------------------------------------

SUPPORT_OUTREACH = Scenario(
    name="support-outreach",
    description="Actions returning nil across turns: emails to a head and five leads, then a meeting.",
    mission=("Tell the Support department about our pending orders: email the Head of Support the number "
             "of pending orders per region, send the same numbers to every Support Lead, and book a "
             "\"Pending orders review\" with all of them on 2026-07-07. Return what you did."),
    tools=_all_tools(),
    replies=(
        reply("First, who is in Support?", """
(def support (tool/list-employees {:department "Support"}))
(doseq [e support]
  (println (:id e) (:name e) "|" (:title e) "|" (:email e)))
"""),
        reply("Now the pending orders, counted per region.", """
(def pending (tool/list-orders {:status "pending"}))
(def pending-by-region (frequencies (map :region pending)))
(println "pending orders:" (count pending))
(println "by region:" pending-by-region)
"""),
        reply("I'll write the numbers up once and email the Head of Support.", """
(def head (first (filter #(= (:title %) "Head of Support") support)))
(def report-body
  (str "Pending orders by region: "
       (str/join ", " (map (fn [[region n]] (str region " " n)) (sort pending-by-region)))
       ". Total: " (count pending) "."))
(tool/send-email {:to (:email head) :subject "Pending orders by region" :body report-body})
(println "sent to" (:email head))
"""),
        reply("The head has it; now the same email to each Support Lead.", """
(def leads (filter #(= (:title %) "Support Lead") support))
(doseq [lead leads]
  (tool/send-email {:to (:email lead) :subject "Pending orders by region" :body report-body}))
(println "emailed" (count leads) "leads:" (str/join ", " (map :email leads)))
"""),
        reply("All emails are sent. Booking the review meeting with everyone (2026-07-07 is a Tuesday).", """
(def attendees (vec (cons (:email head) (map :email leads))))
(tool/book-meeting {:attendees attendees :title "Pending orders review" :day "2026-07-07"})
"""),
        reply("Emails and the meeting are done; returning the summary.", """
(return {:emails-sent (count attendees)
         :recipients attendees
         :meeting {:title "Pending orders review" :day "2026-07-07"}
         :pending-by-region pending-by-region})
"""),
    ),
)

# -- failures and recovery ---------------------------------------------------------------------

RECOVER_FROM_ERRORS = Scenario(
    name="recover-from-errors",
    description="Three failed turns (bad tool argument, unknown function, wrong arity), each fixed next turn.",
    mission=("In the Sales department, who has the largest total of expense claims still waiting for "
             "approval? Return their name, email, the open total and the number of open claims."),
    tools=tuple(analysis_tools()),
    replies=(
        reply("Let me get the Sales team first.", """
(def sales (tool/list-employees {:department "Sales"}))
(println "sales people:" (count sales))
(println (first sales))
"""),
        reply("Now each person's claims that are not approved yet.", """
(def claims
  (into {} (map (fn [e] [(:id e) (tool/expenses-for {:employee-id (:id e) :category "unapproved"})])
                sales)))
(println "claims fetched for" (count claims) "people")
"""),
        reply("`category` is the expense type, not the approval state: I'll fetch all claims and filter on :approved.", """
(def claims
  (into {} (map (fn [e] [(:id e) (tool/expenses-for {:employee-id (:id e)})]) sales)))
(println "claims fetched for" (count claims) "people,"
         (reduce + (map count (vals claims))) "claims in all")
"""),
        reply("Now the open total per person.", """
(def open-totals
  (for [e sales
        :let [open (remove :approved (get claims (:id e)))]]
    {:name (:name e) :email (:email e) :total (sum (map :amount open)) :claims (count open)}))
(println (take 3 (sort-by :total > open-totals)))
"""),
        reply("There is no `sum`; `sum-by` adds up a key over rows.", """
(def open-totals
  (for [e sales
        :let [open (remove :approved (get claims (:id e)))]]
    {:name (:name e) :email (:email e) :total (sum-by :amount open) :claims (count open)}))
(def ranked (sort-by :total > open-totals))
(doseq [r (take 3 ranked)]
  (println (:name r) (:email r) (format "%.2f" (:total r)) (:claims r)))
"""),
        reply("The top person is clear; returning their record.", """
(return (assoc (select-keys (first ranked)) :total (Math/round (:total (first ranked)))))
"""),
        reply("select-keys needs the keys to keep.", """
(let [top (first ranked)]
  (return {:name (:name top) :email (:email top)
           :open-total (/ (Math/round (* 100 (:total top))) 100.0)
           :open-claims (:claims top)}))
"""),
    ),
)

MISSING_PRODUCT = Scenario(
    name="missing-product",
    description="A deliberate failure: the product asked for does not exist, so the run ends with (fail ...).",
    mission="Report the stock level and the 2026 revenue of product 75.",
    tools=tuple(analysis_tools()),
    expect_ok=False,
    replies=(
        reply("Let me fetch product 75.", """
(def product (tool/get-product {:id 75}))
(println product)
"""),
        reply("There is no product 75; let me check which ids exist and whether any order mentions 75.", """
(def products (tool/search-products {:query "" :limit 100}))
(def ids (sort (map :id products)))
(println "products:" (count products) "ids" (first ids) "to" (last ids))
(println "orders for product 75:" (count (filter #(= 75 (:product_id %)) (tool/list-orders {}))))
"""),
        reply("Product 75 does not exist and has no orders, so I cannot report on it.", """
(fail "There is no product 75: product ids run from 1 to 60 and no 2026 order refers to 75.")
"""),
    ),
)

# -- big tool results --------------------------------------------------------------------------

CATEGORY_COMPARISON = Scenario(
    name="category-comparison",
    description="Big tool results (400 orders, 60 products, six review texts) kept with def, then aggregated.",
    mission=("Compare the six product categories: for each, the revenue from paid and delivered orders, the "
             "share of orders refunded, and the average rating from the review summaries. Return them "
             "sorted by revenue."),
    tools=tuple(analysis_tools()),
    replies=(
        reply("I'll fetch every order and every product and keep them.", """
(def orders (tool/list-orders {}))
(def products (tool/search-products {:query "" :limit 100}))
"""),
        reply("Orders only carry a product id, so I'll map ids to categories and group the orders.", """
(def category-of (into {} (map (juxt :id :category) products)))
(def by-category (group-by #(category-of (:product_id %)) orders))
(println "orders per category:" (update-vals by-category count))
(println "statuses:" (frequencies (map :status orders)))
"""),
        reply("Now the review summaries, one per category; let me read one to see the format.", """
(def reviews (into {} (for [c (keys by-category)] [c (tool/search-reviews {:category c})])))
(println (get reviews "books"))
"""),
        reply("The summaries state \"average rating X/5\"; I'll parse that and compute the table.", """
(defn review-rating "Average rating parsed from a review summary" [text]
  (parse-double (second (re-find #"average rating ([0-9.]+)/5" text))))
(def stats
  (for [[c os] by-category
        :let [sold (filter #(#{"paid" "delivered"} (:status %)) os)
              refunded (count (filter #(= "refunded" (:status %)) os))]]
    {:category c
     :revenue (Math/round (sum-by #(* (:quantity %) (:unit_price %)) sold))
     :refund-rate (/ (Math/round (* 1000.0 (/ refunded (count os)))) 10.0)
     :rating (review-rating (get reviews c))}))
(doseq [s (sort-by :revenue > stats)]
  (println s))
"""),
        reply("Everything is computed; returning it sorted by revenue.", """
(return (vec (sort-by :revenue > stats)))
"""),
    ),
    extra_facts=(
        # the regex of turn 4 is written from the review text printed in turn 3
        (3, "average rating 4.0/5", False),
    ),
)

# -- long println output ------------------------------------------------------------------------

BIG_ORDERS_LISTING = Scenario(
    name="big-orders-listing",
    description="Long output: one turn prints 40 lines (beyond println_limit), later turns print more.",
    mission=("List the 40 most recent orders worth more than 200 (date, id, customer, product, value), then "
             "tell me which customers appear more than once among them and what the top one bought."),
    tools=tuple(analysis_tools()),
    replies=(
        reply("I need the orders and product names.", """
(def products (tool/search-products {:query "" :limit 100}))
(def name-of (into {} (map (juxt :id :name) products)))
(def orders (tool/list-orders {}))
(println "orders:" (count orders) "products:" (count products))
"""),
        reply("Here are the 40 most recent orders worth more than 200.", """
(defn order-value "Quantity times unit price" [o] (* (:quantity o) (:unit_price o)))
(def big-recent (->> orders (filter #(> (order-value %) 200)) (sort-by :date) reverse (take 40)))
(doseq [o big-recent]
  (println (:date o) (:id o) (:customer o) "|" (name-of (:product_id o)) "|" (format "%.2f" (order-value o))))
"""),
        reply("Now the customers who appear more than once in that list.", """
(def repeat-customers
  (->> big-recent (map :customer) frequencies (filter #(> (val %) 1)) (sort-by val >)))
(doseq [[customer n] repeat-customers]
  (println customer n))
"""),
        reply("And what the most frequent one bought.", """
(def top-customer (ffirst repeat-customers))
(doseq [o (filter #(= (:customer %) top-customer) big-recent)]
  (println top-customer "|" (:date o) (name-of (:product_id o)) (format "%.2f" (order-value o))))
"""),
        reply("Returning the list, the repeat customers and the top customer's purchases.", """
(return {:orders (mapv (fn [o] {:date (:date o) :id (:id o) :customer (:customer o)
                                :product (name-of (:product_id o))
                                :value (/ (Math/round (* 100 (order-value o))) 100.0)})
                       big-recent)
         :repeat-customers (into {} repeat-customers)
         :top-customer top-customer
         :top-customer-bought (vec (for [o big-recent :when (= (:customer o) top-customer)]
                                     (name-of (:product_id o))))})
"""),
    ),
)

# -- redefinitions ------------------------------------------------------------------------------

VALUE_SCORE = Scenario(
    name="value-score",
    description="Redefinitions: a documented helper redefined twice, data redefined, thresholds changed.",
    mission=("Design a \"value score\" for products (good ratings for the money, nothing that is out of stock, "
             "popular items favoured) and return the five best-value products with their scores."),
    data=_data("products", "orders"),
    replies=(
        reply("A first score: rating per 100 dollars.", """
(defn value-score "Rating per 100 dollars" [p]
  (* 100 (/ (:rating p) (:price p))))
(def scored (map #(assoc % :score (value-score %)) data/products))
(doseq [p (take 5 (sort-by :score > scored))]
  (println (:name p) (:price p) (:rating p) (format "%.2f" (:score p))))
"""),
        reply("Cheap items dominate: damp the price with a log, and score out-of-stock items zero.", """
(defn value-score "Rating per log-price, zero when out of stock" [p]
  (if (zero? (:stock p)) 0 (/ (:rating p) (Math/log (:price p)))))
(def scored (map #(assoc % :score (value-score %)) data/products))
(println "out of stock:" (count (filter #(zero? (:stock %)) data/products)))
(doseq [p (take 5 (sort-by :score > scored))]
  (println (:name p) (:price p) (:rating p) (format "%.3f" (:score p))))
"""),
        reply("Popularity next: units sold per product in 2026.", """
(def units-sold
  (reduce (fn [m o] (update m (:product_id o) (fnil + 0) (:quantity o))) {} data/orders))
(defn popularity "Units sold in 2026, 0 if never ordered" [p]
  (get units-sold (:id p) 0))
"""),
        reply("Folding popularity into the score.", """
(defn value-score "Rating per log-price, boosted by units sold; 0 when out of stock" [p]
  (if (zero? (:stock p))
    0
    (* (/ (:rating p) (Math/log (:price p))) (Math/log (+ 2 (popularity p))))))
(def scored (map #(assoc % :score (value-score %)) data/products))
(def top5 (take 5 (sort-by :score > scored)))
(doseq [p top5]
  (println (:name p) (:price p) (:rating p) (popularity p) (format "%.3f" (:score p))))
"""),
        reply("Popularity now pulls in 4.3-rated items; I'll require a rating of at least 4.5.", """
(def min-rating 4.5)
(def top5 (take 5 (sort-by :score > (filter #(>= (:rating %) min-rating) scored))))
(doseq [p top5]
  (println (:name p) (:rating p) (popularity p) (format "%.3f" (:score p))))
"""),
        reply("That list looks right; returning it.", """
(return (mapv (fn [p] {:name (:name p) :price (:price p) :rating (:rating p) :units-sold (popularity p)
                       :score (/ (Math/round (* 1000 (:score p))) 1000.0)})
              top5))
"""),
    ),
    extra_facts=(
        (4, "Rating per log-price, boosted by units sold; 0 when out of stock", False),
        (5, "Rating per log-price, boosted by units sold; 0 when out of stock", False),
        (5, "Units sold in 2026, 0 if never ordered", False),
    ),
)

# -- data-heavy analysis --------------------------------------------------------------------------

SALES_ANALYSIS = Scenario(
    name="sales-analysis",
    description="Data-heavy: revenue by category, region and month, top customers, refund rates over all orders.",
    mission=("Analyse our 2026 sales: revenue by product category and by region, the monthly revenue trend, "
             "the top 5 customers by revenue, and the refund rate per region. Count only paid and delivered "
             "orders as revenue. Return it all as one report."),
    data=_data("products", "orders"),
    data_heavy=True,
    replies=(
        reply("Let me check the two datasets first.", """
(println "orders:" (count data/orders) "products:" (count data/products))
(println "order keys:" (keys (first data/orders)))
(println "statuses:" (frequencies (map :status data/orders)))
"""),
        reply("Revenue by category: join each order to its product's category.", """
(def category-of (into {} (map (juxt :id :category) data/products)))
(defn revenue "Quantity times unit price, summed over orders" [orders]
  (sum-by #(* (:quantity %) (:unit_price %)) orders))
(def sold (filter #(#{"paid" "delivered"} (:status %)) data/orders))
(def by-category
  (into {} (map (fn [[c os]] [c (Math/round (revenue os))]) (group-by #(category-of (:product_id %)) sold))))
(println "sold orders:" (count sold))
(println "revenue by category:" (sort-by val > by-category))
"""),
        reply("Now regions: revenue and the refund rate per region.", """
(def by-region
  (into {} (map (fn [[r os]] [r (Math/round (revenue os))]) (group-by :region sold))))
(def refund-rate
  (into {} (for [[r os] (group-by :region data/orders)]
             [r (/ (Math/round (* 1000.0 (/ (count (filter #(= "refunded" (:status %)) os)) (count os)))) 10.0)])))
(println "revenue by region:" by-region)
(println "refund % by region:" refund-rate)
"""),
        reply("The monthly trend, from the first seven characters of the date.", """
(def by-month
  (->> sold
       (group-by #(subs (:date %) 0 7))
       (map (fn [[m os]] [m (Math/round (revenue os))]))
       (sort-by first)))
(doseq [[m total] by-month]
  (println m total))
"""),
        reply("And the five best customers.", """
(def top-customers
  (->> (group-by :customer sold)
       (map (fn [[c os]] {:customer c :orders (count os) :revenue (Math/round (revenue os))}))
       (sort-by :revenue >)
       (take 5)))
(doseq [c top-customers]
  (println (:customer c) (:orders c) (:revenue c)))
"""),
        reply("All parts are computed; returning the report.", """
(return {:revenue-by-category by-category
         :revenue-by-region by-region
         :refund-rate-by-region refund-rate
         :monthly-revenue (into {} by-month)
         :top-customers (vec top-customers)
         :total-revenue (Math/round (revenue sold))})
"""),
    ),
)

EXPENSE_AUDIT = Scenario(
    name="expense-audit",
    description="Data-heavy: expenses joined to employees, totals per department and category, flagged claims.",
    mission=("Audit the 2026 expense claims: the total per department and per category, the unapproved "
             "claims over 1,000 with who filed them, and the three biggest spenders. Return a summary."),
    data=_data("employees", "expenses"),
    data_heavy=True,
    replies=(
        reply("First a look at both datasets.", """
(println "expenses:" (count data/expenses) "employees:" (count data/employees))
(println (first data/expenses))
(println (first data/employees))
"""),
        reply("Totals per department (via the employee) and per category.", """
(def employee-by-id (into {} (map (juxt :id identity) data/employees)))
(defn department-of "The department of the employee who filed a claim" [x]
  (:department (employee-by-id (:employee_id x))))
(def per-department
  (into {} (map (fn [[d xs]] [d (Math/round (sum-by :amount xs))]) (group-by department-of data/expenses))))
(def per-category
  (into {} (map (fn [[c xs]] [c (Math/round (sum-by :amount xs))]) (group-by :category data/expenses))))
(println "per department:" (sort-by val > per-department))
(println "per category:" (sort-by val > per-category))
"""),
        reply("Now the unapproved claims over 1,000.", """
(def flagged
  (->> data/expenses
       (filter #(and (not (:approved %)) (> (:amount %) 1000)))
       (sort-by :amount >)))
(doseq [x flagged]
  (println (:id x) (:date x) (:name (employee-by-id (:employee_id x))) (:amount x) (:description x)))
"""),
        reply("The three biggest spenders overall.", """
(def top-spenders
  (->> (group-by :employee_id data/expenses)
       (map (fn [[id xs]] (let [e (employee-by-id id)]
                            {:name (:name e) :department (:department e) :claims (count xs)
                             :total (Math/round (sum-by :amount xs))})))
       (sort-by :total >)
       (take 3)))
(doseq [s top-spenders]
  (println s))
"""),
        reply("Returning the audit summary.", """
(return {:total (Math/round (sum-by :amount data/expenses))
         :per-department per-department
         :per-category per-category
         :flagged (mapv (fn [x] {:id (:id x) :employee (:name (employee-by-id (:employee_id x)))
                                 :amount (:amount x) :description (:description x)})
                        flagged)
         :top-spenders (vec top-spenders)})
"""),
    ),
)

HEADCOUNT_REPORT = Scenario(
    name="headcount-report",
    description="Data-heavy: salary statistics per department and location, managers by number of reports.",
    mission=("Give me a headcount report: people and average salary per department, headcount per location, "
             "and the five managers with the most direct reports."),
    data=_data("employees"),
    data_heavy=True,
    replies=(
        reply("Let me look at the employee records.", """
(println "employees:" (count data/employees))
(println "keys:" (keys (first data/employees)))
(println "departments:" (frequencies (map :department data/employees)))
"""),
        reply("Headcount and average salary per department, and headcount per location.", """
(def per-department
  (into {} (for [[d es] (group-by :department data/employees)]
             [d {:people (count es) :avg-salary (Math/round (avg-by :salary es))}])))
(def per-location (frequencies (map :location data/employees)))
(doseq [[d s] (sort-by (comp :avg-salary val) > per-department)]
  (println d s))
(println "per location:" per-location)
"""),
        reply("Now the managers with the most direct reports.", """
(def name-of (into {} (map (juxt :id :name) data/employees)))
(def top-managers
  (->> (keep :manager_id data/employees)
       frequencies
       (sort-by val >)
       (take 5)
       (map (fn [[id n]] {:manager (name-of id) :direct-reports n}))))
(doseq [m top-managers]
  (println (:manager m) (:direct-reports m)))
"""),
        reply("Returning the report.", """
(return {:per-department per-department
         :per-location per-location
         :top-managers (vec top-managers)})
"""),
    ),
)

# -- short tool session ----------------------------------------------------------------------------

REVIEWS_DIGEST = Scenario(
    name="reviews-digest",
    description="Short: six review texts fetched in one turn, parsed in the next, returned in the third.",
    mission="What do customers complain about in each product category? Return the complaints per category.",
    tools=tuple(analysis_tools()),
    replies=(
        reply("I'll fetch the review summary of every category and read one.", """
(def categories ["electronics" "home" "outdoor" "books" "toys" "beauty"])
(def reviews (zipmap categories (map #(tool/search-reviews {:category %}) categories)))
(println (get reviews "electronics"))
"""),
        reply("Complaints follow \"Common complaints:\"; extracting them per category.", """
(defn complaints "The complaints listed in one review summary" [text]
  (mapv str/trim (str/split (second (re-find #"Common complaints: ([^.]+)\\." text)) #";")))
(def complaints-by-category (into {} (map (fn [[c text]] [c (complaints text)]) reviews)))
(doseq [[c cs] complaints-by-category]
  (println c "->" (str/join " / " cs)))
"""),
        reply("Returning the complaints per category.", """
(return complaints-by-category)
"""),
    ),
    extra_facts=((1, "Common complaints:", False),),
)

# -- a long mixed session ----------------------------------------------------------------------------

EXPENSE_ESCALATION = Scenario(
    name="expense-escalation",
    description=("Mixed ten-turn session: explore data, big tool result, an error and its fix, six emails, a "
                 "refused booking and its retry, a summary, the return."),
    mission=("Unapproved expense claims over 1,000 are piling up. Email each manager whose direct reports "
             "have such claims, listing those claims, then book an \"Open expense claims\" review with the "
             "CFO and those managers on the first weekday after 2026-07-10. Return a summary of what you did."),
    data=_data("expenses"),
    tools=_all_tools(),
    replies=(
        reply("Let me look at the expense data first.", """
(println "claims:" (count data/expenses))
(println (first data/expenses))
(println "approved?" (frequencies (map :approved data/expenses)))
"""),
        reply("Now the unapproved claims over 1,000.", """
(def big-open
  (->> data/expenses (filter #(and (not (:approved %)) (> (:amount %) 1000))) (sort-by :amount >)))
(println "big open claims:" (count big-open))
(doseq [x big-open]
  (println (:id x) (:employee_id x) (:amount x) (:description x)))
"""),
        reply("I need everyone's manager, so I'll fetch the staff list.", """
(def staff (tool/list-employees {}))
"""),
        reply("Grouping the claims by the filer's manager.", """
(def by-manager
  (group-by #(:manager_id (get staff-by-id (:employee_id %))) big-open))
(println (update-vals by-manager count))
"""),
        reply("staff-by-id was never defined; defining it first.", """
(def staff-by-id (into {} (map (juxt :id identity) staff)))
(def by-manager
  (group-by #(:manager_id (get staff-by-id (:employee_id %))) big-open))
(doseq [[manager-id xs] by-manager]
  (println manager-id (:name (staff-by-id manager-id)) (:email (staff-by-id manager-id)) "claims:" (count xs)))
"""),
        reply("Emailing each of those managers the claims of their reports.", """
(defn claim-line "One line describing a claim" [x]
  (str "#" (:id x) " " (:name (staff-by-id (:employee_id x))) ": " (:description x) ", " (:amount x)))
(doseq [[manager-id xs] by-manager]
  (tool/send-email {:to (:email (staff-by-id manager-id))
                    :subject "Open expense claims over 1,000"
                    :body (str "These claims from your reports are waiting for approval:\\n"
                               (str/join "\\n" (map claim-line xs)))}))
(println "emailed:" (str/join ", " (map #(:email (staff-by-id %)) (keys by-manager))))
"""),
        reply("Booking the review with the CFO and the managers for the day after 2026-07-10.", """
(def cfo (first (filter #(= "CFO" (:title %)) staff)))
(def attendees (vec (distinct (cons (:email cfo) (map #(:email (staff-by-id %)) (keys by-manager))))))
(tool/book-meeting {:attendees attendees :title "Open expense claims" :day "2026-07-11"})
"""),
        reply("2026-07-11 is a Saturday, so the first weekday after 2026-07-10 is Monday 2026-07-13.", """
(def cfo (first (filter #(= "CFO" (:title %)) staff)))
(def attendees (vec (distinct (cons (:email cfo) (map #(:email (staff-by-id %)) (keys by-manager))))))
(tool/book-meeting {:attendees attendees :title "Open expense claims" :day "2026-07-13"})
(println "booked for" (count attendees) "attendees on 2026-07-13")
"""),
        reply("Let me put the summary together before returning it.", """
(def summary
  {:open-claims (count big-open)
   :open-amount (/ (Math/round (* 100 (sum-by :amount big-open))) 100.0)
   :managers-emailed (mapv #(:name (staff-by-id %)) (keys by-manager))
   :meeting {:day "2026-07-13" :title "Open expense claims" :attendees attendees}})
(println summary)
"""),
        reply("Done: returning the summary.", """
(return summary)
"""),
    ),
    extra_facts=(
        # the managers' addresses, printed in turn 5, are what the emails of turn 6 go to
        (5, "anita.mccarthy@example.com", False),
        # retrying the booking: the refused day and why
        (7, "2026-07-11 is a Saturday", False),
        # the summary must state the day actually booked
        (8, "2026-07-13"),
        (9, "2026-07-13"),
    ),
)

SCENARIOS: tuple[Scenario, ...] = (
    EXPLORE_CATALOG,
    SUPPORT_OUTREACH,
    RECOVER_FROM_ERRORS,
    CATEGORY_COMPARISON,
    BIG_ORDERS_LISTING,
    VALUE_SCORE,
    SALES_ANALYSIS,
    EXPENSE_AUDIT,
    HEADCOUNT_REPORT,
    REVIEWS_DIGEST,
    MISSING_PRODUCT,
    EXPENSE_ESCALATION,
)


def names() -> list[str]:
    return [s.name for s in SCENARIOS]


def get(name: str) -> Scenario:
    """The bundled scenario called `name` (KeyError listing the names otherwise)."""
    for s in SCENARIOS:
        if s.name == name:
            return s
    raise KeyError(f"no scenario {name!r}; scenarios: {', '.join(names())}")


__all__ = ["SCENARIOS", "Scenario", "get", "names", "reply"]
