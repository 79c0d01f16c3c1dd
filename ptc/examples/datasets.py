"""Deterministic sample data for demos, examples and benchmarks.

Four small business datasets, generated in memory from a fixed seed (nothing is read from
disk at import), so every run of every example sees exactly the same rows:

- ``products``  (60): id, name, category, price, stock, rating
- ``orders``   (400): id, customer, product_id, quantity, unit_price, status, region, date
- ``employees`` (80): id, name, email, department, title, salary, hire_date, manager_id, location
- ``expenses`` (300): id, employee_id, category, amount, date, approved, description

They are internally consistent: every ``orders.product_id`` is a product id and its
``unit_price`` is that product's price; every ``expenses.employee_id`` and every non-null
``employees.manager_id`` is an employee id (employee 1, the CEO, has no manager, and a
manager was always hired before the people reporting to them); order and expense dates are
in 2026 (expenses: January to June), after every employee's hire date.

    from ptc.examples import datasets
    orders = datasets.load("orders")          # 400 dicts, a fresh copy each call
    datasets.write_json("sample-data")        # sample-data/products.json, orders.json, ...
    datasets.data_file("orders.csv")          # the orders as a CSV file shipped with ptc (and .parquet)

or from a shell: `python -m ptc.examples.datasets sample-data` (the JSON files, orders.csv
and orders.parquet).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import random
from pathlib import Path
from typing import Any

SEED = 7
NAMES = ("products", "orders", "employees", "expenses")

# category -> (item, typical price); each product's price is jittered around its typical price
CATEGORIES: dict[str, list[tuple[str, float]]] = {
    "electronics": [("Wireless Earbuds", 89), ("Noise-Cancelling Headphones", 249), ("4K Monitor", 379),
                    ("Mechanical Keyboard", 119), ("USB-C Hub", 39), ("Portable SSD 1TB", 99),
                    ("Smart Speaker", 79), ("Webcam HD", 59), ("Bluetooth Mouse", 29), ("E-Reader", 139)],
    "home": [("Cast Iron Skillet", 45), ("French Press", 32), ("Linen Duvet Cover", 129), ("Robot Vacuum", 299),
             ("Ceramic Vase", 38), ("Air Purifier", 189), ("Chef's Knife", 79), ("Bamboo Cutting Board", 24),
             ("Desk Lamp", 49), ("Throw Blanket", 59)],
    "outdoor": [("Trail Running Shoes", 129), ("Two-Person Tent", 279), ("Insulated Water Bottle", 34),
                ("Hiking Backpack 40L", 149), ("Camping Stove", 69), ("Sleeping Bag", 119), ("Trekking Poles", 59),
                ("Rain Jacket", 169), ("Headlamp", 29), ("Folding Camp Chair", 45)],
    "books": [("The Pragmatic Programmer", 42), ("Designing Data-Intensive Applications", 48),
              ("Clojure for the Brave", 35), ("Thinking, Fast and Slow", 18), ("The Art of Statistics", 22),
              ("Atomic Habits", 16), ("Deep Work", 17), ("The Mythical Man-Month", 32),
              ("Structure and Interpretation", 55), ("Refactoring", 46)],
    "toys": [("Building Blocks Set", 59), ("Wooden Train Set", 79), ("Puzzle 1000 Pieces", 19),
             ("Remote Control Car", 49), ("Plush Bear", 22), ("Science Kit", 39), ("Board Game Classic", 34),
             ("Art Supplies Box", 29), ("Kite", 18), ("Magnetic Tiles", 64)],
    "beauty": [("Vitamin C Serum", 29), ("Hydrating Face Cream", 34), ("Hair Dryer Pro", 119),
               ("Sunscreen SPF 50", 16), ("Lip Balm Trio", 9), ("Electric Toothbrush", 79), ("Shampoo Bar", 12),
               ("Perfume Citrus", 68), ("Nail Care Kit", 24), ("Facial Cleanser", 18)],
}
BRANDS = ["Acme", "Northwind", "Contoso", "Globex", "Initech", "Umbra", "Vela", "Kestrel", "Lumen", "Orbit"]

FIRST_NAMES = ["Ada", "Grace", "Alan", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "John",
               "Radia", "Tim", "Hedy", "Edsger", "Katherine", "Donald", "Sophie", "Guido", "Anita", "Bjarne",
               "Carol", "Niklaus", "Jean", "Leslie", "Mary", "Rich", "Shafi", "Yukihiro", "Lynn", "James"]
LAST_NAMES = ["Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson",
              "Allen", "McCarthy", "Perlman", "Berners-Lee", "Lamarr", "Dijkstra", "Johnson", "Knuth",
              "Wilson", "van Rossum", "Borg", "Stroustrup", "Shaw", "Wirth", "Sammet", "Lamport", "Keller",
              "Hickey", "Goldwasser", "Matsumoto", "Conway", "Gosling"]

REGIONS = ["north", "south", "east", "west"]
ORDER_STATUSES = (("delivered", 0.45), ("paid", 0.30), ("pending", 0.17), ("refunded", 0.08))

DEPARTMENTS: dict[str, dict[str, Any]] = {
    "Engineering": {"head": "VP of Engineering", "titles": [("Software Engineer", 118_000), ("Senior Software Engineer", 152_000),
                                                            ("Staff Engineer", 185_000), ("QA Engineer", 98_000)]},
    "Sales": {"head": "VP of Sales", "titles": [("Account Executive", 92_000), ("Sales Development Rep", 64_000),
                                                ("Senior Account Executive", 118_000)]},
    "Marketing": {"head": "Head of Marketing", "titles": [("Marketing Manager", 104_000), ("Content Strategist", 82_000),
                                                          ("Growth Analyst", 88_000)]},
    "Finance": {"head": "CFO", "titles": [("Financial Analyst", 91_000), ("Accountant", 78_000),
                                          ("Controller", 132_000)]},
    "Operations": {"head": "Head of Operations", "titles": [("Operations Specialist", 72_000),
                                                            ("Logistics Coordinator", 66_000),
                                                            ("Operations Manager", 108_000)]},
    "Support": {"head": "Head of Support", "titles": [("Support Engineer", 74_000), ("Customer Success Manager", 86_000),
                                                      ("Support Lead", 95_000)]},
}
DEPARTMENT_SIZES = {"Engineering": 24, "Sales": 15, "Marketing": 10, "Finance": 8, "Operations": 11, "Support": 11}
LOCATIONS = ["Berlin", "Lisbon", "New York", "Toronto", "Remote"]

# category -> (share of claims, [(description, low amount, high amount), ...])
EXPENSE_CATEGORIES: dict[str, tuple[float, list[tuple[str, float, float]]]] = {
    "travel": (0.22, [("Flight to {city} for client visit", 280, 1_900), ("Hotel in {city}, 2 nights", 240, 780),
                      ("Train to {city} for team offsite", 60, 320), ("Taxi from airport in {city}", 25, 95),
                      ("Conference travel to {city}", 450, 1_700)]),
    "meals": (0.34, [("Team lunch", 60, 240), ("Client dinner in {city}", 90, 420), ("Working lunch with candidates", 35, 140),
                     ("Coffee with partner", 8, 30), ("Offsite catering", 180, 900)]),
    "software": (0.18, [("Annual IDE license", 149, 599), ("Design tool subscription", 15, 75),
                        ("Cloud credits top-up", 50, 1_200), ("Analytics SaaS seat", 29, 250),
                        ("Password manager renewal", 36, 60)]),
    "hardware": (0.12, [("Laptop replacement", 1_100, 2_600), ("External monitor", 180, 650),
                        ("Ergonomic keyboard", 60, 220), ("Docking station", 120, 340),
                        ("Noise-cancelling headset", 150, 380)]),
    "training": (0.14, [("Online course: {topic}", 49, 400), ("Workshop on {topic}", 300, 1_200),
                        ("Certification exam: {topic}", 150, 600), ("Conference ticket: {topic}", 400, 1_500),
                        ("Books on {topic}", 25, 120)]),
}
TRAINING_TOPICS = ["data engineering", "negotiation", "leadership", "Kubernetes", "public speaking",
                   "accounting standards", "SEO", "customer empathy"]
EXPENSE_CITIES = ["Paris", "London", "Madrid", "Chicago", "Tokyo", "Berlin", "Lisbon", "Toronto"]

YEAR_START = dt.date(2026, 1, 1)
YEAR_END = dt.date(2026, 12, 31)


def _day(rng: random.Random, start: dt.date, end: dt.date) -> dt.date:
    return dt.date.fromordinal(rng.randint(start.toordinal(), end.toordinal()))


def _products(rng: random.Random) -> list[dict[str, Any]]:
    rows = []
    for category, items in CATEGORIES.items():
        for item, typical in items:
            # .99 / .49 endings around the typical price
            price = max(2, round(typical * rng.uniform(0.85, 1.2))) - rng.choice([0.01, 0.51])
            rows.append({
                "id": len(rows) + 1,
                "name": f"{rng.choice(BRANDS)} {item}",
                "category": category,
                "price": round(price, 2),
                "stock": rng.choice([0, 0, 3, 8]) if rng.random() < 0.12 else rng.randint(10, 400),
                "rating": round(rng.triangular(2.8, 5.0, 4.4), 1),
            })
    return rows


def _customers(rng: random.Random, n: int) -> list[str]:
    pairs = [(f, l) for f in FIRST_NAMES for l in LAST_NAMES]
    rng.shuffle(pairs)
    return [f"{f} {l}" for f, l in pairs[:n]]


def _orders(rng: random.Random, products: list[dict[str, Any]], n: int = 400) -> list[dict[str, Any]]:
    customers = _customers(rng, 45)
    # a few loyal customers order much more often than the rest
    weights = [8 if i < 5 else 3 if i < 15 else 1 for i in range(len(customers))]
    popularity = [1.0 / (1.0 + p["price"] / 80.0) * (0.3 if p["stock"] == 0 else 1.0) for p in products]
    statuses, status_weights = zip(*ORDER_STATUSES)
    days = sorted(_day(rng, YEAR_START, YEAR_END) for _ in range(n))
    rows = []
    for i, day in enumerate(days, start=1):
        product = rng.choices(products, weights=popularity)[0]
        rows.append({
            "id": 1000 + i,
            "customer": rng.choices(customers, weights=weights)[0],
            "product_id": product["id"],
            "quantity": rng.choices([1, 2, 3, 4, 5], weights=[50, 25, 12, 8, 5])[0],
            "unit_price": product["price"],
            "status": rng.choices(statuses, weights=status_weights)[0],
            "region": rng.choice(REGIONS),
            "date": day.isoformat(),
        })
    return rows


def _employees(rng: random.Random) -> list[dict[str, Any]]:
    names = iter(_customers(rng, 200)[120:])  # a different slice from the customers' names
    rows: list[dict[str, Any]] = []

    def add(name: str, department: str, title: str, salary: int, hired: dt.date, manager: int | None,
            location: str) -> dict[str, Any]:
        local = name.lower().replace(" ", ".").replace("-", "")
        row = {"id": len(rows) + 1, "name": name, "email": f"{local}@example.com", "department": department,
               "title": title, "salary": salary, "hire_date": hired.isoformat(), "manager_id": manager,
               "location": location}
        rows.append(row)
        return row

    ceo = add(next(names), "Executive", "CEO", 265_000, dt.date(2015, 3, 2), None, "New York")
    for department, spec in DEPARTMENTS.items():
        head = add(next(names), department, spec["head"], rng.randrange(170_000, 215_000, 500),
                   _day(rng, dt.date(2015, 6, 1), dt.date(2018, 12, 31)), ceo["id"], rng.choice(LOCATIONS[:4]))
        leads: list[dict[str, Any]] = []
        for k in range(DEPARTMENT_SIZES[department] - 1):
            title, base = spec["titles"][k % len(spec["titles"])] if k >= 2 else max(spec["titles"], key=lambda t: t[1])
            boss = head if k < 2 or not leads else rng.choice(leads)
            hired = _day(rng, dt.date.fromisoformat(boss["hire_date"]) + dt.timedelta(days=30), dt.date(2025, 11, 30))
            salary = int(round(base * rng.uniform(0.88, 1.15), -2))
            row = add(next(names), department, title, salary, hired, boss["id"], rng.choice(LOCATIONS))
            if k < 2:
                leads.append(row)
    return rows


def _expenses(rng: random.Random, employees: list[dict[str, Any]], n: int = 300) -> list[dict[str, Any]]:
    categories = list(EXPENSE_CATEGORIES)
    weights = [EXPENSE_CATEGORIES[c][0] for c in categories]
    # travellers travel: sales people file more expenses than accountants
    activity = [{"Sales": 3.0, "Executive": 2.0, "Marketing": 1.6, "Engineering": 1.0}.get(e["department"], 0.8)
                for e in employees]
    drafts = []
    for _ in range(n):
        employee = rng.choices(employees, weights=activity)[0]
        category = rng.choices(categories, weights=weights)[0]
        template, low, high = rng.choice(EXPENSE_CATEGORIES[category][1])
        amount = round(low + (high - low) * rng.random() ** 1.5, 2)
        description = template.format(city=rng.choice(EXPENSE_CITIES), topic=rng.choice(TRAINING_TOPICS))
        # big tickets are more often still waiting for (or refused) approval
        approved = rng.random() > (0.45 if amount > 1_000 else 0.12)
        drafts.append((_day(rng, YEAR_START, dt.date(2026, 6, 30)), employee["id"], category, amount, approved,
                       description))
    drafts.sort(key=lambda d: d[0])
    return [{"id": i, "employee_id": emp, "category": cat, "amount": amount, "date": day.isoformat(),
             "approved": approved, "description": desc}
            for i, (day, emp, cat, amount, approved, desc) in enumerate(drafts, start=1)]


@functools.lru_cache(maxsize=4)
def _generate(seed: int) -> dict[str, tuple[dict[str, Any], ...]]:
    rng = random.Random(seed)
    products = _products(rng)
    orders = _orders(rng, products)
    employees = _employees(rng)
    expenses = _expenses(rng, employees)
    return {"products": tuple(products), "orders": tuple(orders), "employees": tuple(employees),
            "expenses": tuple(expenses)}


def load(name: str, *, seed: int = SEED) -> list[dict[str, Any]]:
    """One dataset as a fresh list of fresh dicts (mutate them freely)."""
    if name not in NAMES:
        raise KeyError(f"no dataset {name!r}; available: {', '.join(NAMES)}")
    return [dict(row) for row in _generate(seed)[name]]


def all_datasets(*, seed: int = SEED) -> dict[str, list[dict[str, Any]]]:
    """Every dataset by name: {"products": [...], "orders": [...], ...}."""
    return {name: load(name, seed=seed) for name in NAMES}


def write_json(directory: str | Path, *, seed: int = SEED, indent: int | None = 2) -> dict[str, Path]:
    """Write each dataset to `directory/NAME.json` (created if needed); returns the paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, rows in all_datasets(seed=seed).items():
        path = out / f"{name}.json"
        path.write_text(json.dumps(rows, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
        paths[name] = path
    return paths


DATA_DIR = Path(__file__).resolve().parent / "data"  # the committed orders.csv and orders.parquet
TABLE_FILES = ("orders.csv", "orders.parquet")


def data_file(name: str) -> Path:
    """A committed data file shipped with the package: `data_file("orders.csv")`."""
    return DATA_DIR / name


def write_tables(directory: str | Path, *, seed: int = SEED) -> dict[str, Path]:
    """Write the orders as `directory/orders.csv` and, when pyarrow is installed, `orders.parquet`.

    The committed files in `DATA_DIR` are written by this: `write_tables(DATA_DIR)`."""
    from ptc.data.arrow import has_pyarrow
    from ptc.data.results import write_table

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for file in TABLE_FILES:
        if file.endswith(".parquet") and not has_pyarrow():
            continue
        write_table(load(Path(file).stem, seed=seed), out / file)
        paths[file] = out / file
    return paths


if __name__ == "__main__":  # python -m ptc.examples.datasets [DIR]
    import sys

    target = sys.argv[1] if len(sys.argv) > 1 else "ptc-sample-data"
    for name, path in {**write_json(target), **write_tables(target)}.items():
        print(f"{name}: {path}")
