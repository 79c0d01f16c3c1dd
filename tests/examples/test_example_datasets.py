"""ptc.examples.datasets: deterministic, realistic, internally consistent."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import subprocess
import sys

import pytest

from ptc.examples import datasets

SIZES = {"products": 60, "orders": 400, "employees": 80, "expenses": 300}


def digest(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def test_sizes_and_names():
    data = datasets.all_datasets()
    assert list(data) == list(datasets.NAMES)
    assert {k: len(v) for k, v in data.items()} == SIZES


def test_deterministic_within_a_process():
    assert datasets.all_datasets() == datasets.all_datasets()
    assert datasets.load("orders") == datasets.all_datasets()["orders"]


def test_deterministic_across_processes():
    """Same rows in a fresh interpreter (no dependence on hash seeds or import order)."""
    code = ("import hashlib, json; from ptc.examples import datasets; "
            "print(hashlib.sha256(json.dumps(datasets.all_datasets(), sort_keys=True).encode()).hexdigest())")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip() for seed in ("1", "2")]
    assert runs[0] == runs[1] == digest(datasets.all_datasets())


def test_another_seed_gives_other_data():
    assert datasets.load("orders", seed=8) != datasets.load("orders")
    assert len(datasets.load("orders", seed=8)) == 400


def test_load_returns_fresh_copies():
    rows = datasets.load("products")
    rows[0]["price"] = -1
    rows.append({"id": 999})
    assert datasets.load("products")[0]["price"] > 0
    assert len(datasets.load("products")) == 60


def test_unknown_dataset():
    with pytest.raises(KeyError, match="available: products, orders"):
        datasets.load("customers")


def test_ids_unique():
    for name, rows in datasets.all_datasets().items():
        ids = [r["id"] for r in rows]
        assert len(set(ids)) == len(ids), name


def test_orders_reference_products_at_their_price():
    products = {p["id"]: p for p in datasets.load("products")}
    for o in datasets.load("orders"):
        assert o["product_id"] in products
        assert o["unit_price"] == products[o["product_id"]]["price"]
        assert o["quantity"] >= 1
        assert o["status"] in ("paid", "pending", "refunded", "delivered")
        assert o["region"] in ("north", "south", "east", "west")
        assert dt.date.fromisoformat(o["date"]).year == 2026


def test_orders_are_in_date_order_and_cover_every_status():
    orders = datasets.load("orders")
    assert [o["date"] for o in orders] == sorted(o["date"] for o in orders)
    assert {o["status"] for o in orders} == {"paid", "pending", "refunded", "delivered"}


def test_products_are_plausible():
    products = datasets.load("products")
    assert {p["category"] for p in products} == set(datasets.CATEGORIES)
    for p in products:
        assert 1 < p["price"] < 1000 and round(p["price"], 2) == p["price"]
        assert 1.0 <= p["rating"] <= 5.0
        assert p["stock"] >= 0
    assert len({p["name"] for p in products}) == len(products)


def test_employees_form_a_tree_with_managers_hired_first():
    employees = {e["id"]: e for e in datasets.load("employees")}
    roots = [e for e in employees.values() if e["manager_id"] is None]
    assert [r["title"] for r in roots] == ["CEO"]
    for e in employees.values():
        assert e["email"].endswith("@example.com")
        assert e["salary"] > 0
        seen = set()
        m = e
        while m["manager_id"] is not None:  # every chain ends at the CEO, without cycles
            assert m["id"] not in seen
            seen.add(m["id"])
            boss = employees[m["manager_id"]]
            assert boss["hire_date"] < m["hire_date"]
            m = boss
        assert m["title"] == "CEO"
    assert len({e["email"] for e in employees.values()}) == len(employees)
    assert sum(e["title"] == "CFO" for e in employees.values()) == 1


def test_expenses_reference_employees_after_hire():
    employees = {e["id"]: e for e in datasets.load("employees")}
    expenses = datasets.load("expenses")
    for x in expenses:
        assert x["employee_id"] in employees
        assert x["date"] > employees[x["employee_id"]]["hire_date"]
        assert x["category"] in ("travel", "meals", "software", "hardware", "training")
        assert x["amount"] > 0
        assert isinstance(x["approved"], bool)
        assert x["description"]
    assert 0 < sum(not x["approved"] for x in expenses) < len(expenses)


def test_write_json(tmp_path):
    paths = datasets.write_json(tmp_path / "out")
    assert set(paths) == set(datasets.NAMES)
    for name, path in paths.items():
        assert json.loads(path.read_text(encoding="utf-8")) == datasets.load(name)


def test_module_main_writes_files(tmp_path):
    subprocess.run([sys.executable, "-m", "ptc.examples.datasets", str(tmp_path)], check=True,
                   capture_output=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"{n}.json" for n in datasets.NAMES]
                                                               + ["orders.csv", "orders.parquet"])
