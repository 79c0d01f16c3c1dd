"""A run's usage as columns of `runs` (cached tokens included), and the upgrade of a
version-1 store that lacked them."""

from __future__ import annotations

import sqlalchemy as sa

from ptc.store import Store
from ptc.store.schema import RUN_USAGE_COLUMNS, SCHEMA_VERSION

USAGE = {"prompt_tokens": 6794, "completion_tokens": 312, "cached_tokens": 5120, "cache_write_tokens": 0,
         "cost": 0.0012, "calls": 3}


def test_finish_run_fills_the_usage_columns(store: Store) -> None:
    rid = store.start_run("m")
    assert store.load_run(rid).prompt_tokens is None  # not finished yet
    store.finish_run(rid, True, {"ok": True, "usage": USAGE})
    run = store.load_run(rid)
    assert (run.prompt_tokens, run.completion_tokens, run.cached_tokens, run.cache_write_tokens, run.cost) == \
        (6794, 312, 5120, 0, 0.0012)
    with store.engine.connect() as conn:  # plain SQL over runs: what the columns are for
        total = conn.execute(sa.text("SELECT SUM(cached_tokens) FROM runs")).scalar()
    assert total == 5120


def test_an_outcome_without_usage_leaves_nulls(store: Store) -> None:
    rid = store.start_run("m")
    store.finish_run(rid, False, {"ok": False, "usage": {"prompt_tokens": "many"}})
    run = store.load_run(rid)
    assert run.status == "failed" and run.prompt_tokens is None and run.cost is None


def test_a_version_1_store_is_upgraded_and_backfilled(persistent_backend: str, make_url) -> None:
    url = make_url(persistent_backend)
    old = Store(url)
    rid = old.start_run("m")
    old.finish_run(rid, True, {"ok": True, "usage": USAGE})
    running = old.start_run("still running")
    with old.engine.begin() as conn:  # make it what ptc 0.1 wrote: no usage columns, version 1
        for name in RUN_USAGE_COLUMNS:
            conn.execute(sa.text(f"ALTER TABLE runs DROP COLUMN {name}"))
        conn.execute(sa.text("UPDATE ptc_meta SET value = '1' WHERE key = 'schema_version'"))
    old.close()

    store = Store(url)
    try:
        with store.engine.connect() as conn:
            version = conn.execute(sa.text("SELECT value FROM ptc_meta WHERE key = 'schema_version'")).scalar()
        assert int(version) == SCHEMA_VERSION == 2
        run = store.load_run(rid)
        assert (run.prompt_tokens, run.cached_tokens, run.cost) == (6794, 5120, 0.0012)
        assert store.load_run(running).prompt_tokens is None
        Store(url).close()  # opening an upgraded store again changes nothing
    finally:
        store.close()
