"""Store fixtures: every test runs on in-memory SQLite, file SQLite and, when
PTC_TEST_POSTGRES_URL is set (see .ci/postgres.sh), PostgreSQL.

PostgreSQL tests each get a fresh schema (search_path), dropped afterwards, so the database
behind the URL is never wiped.
"""

from __future__ import annotations

import os
import uuid
from typing import Iterator

import pytest
import sqlalchemy as sa

from ptc.store import Store

PG_URL = os.environ.get("PTC_TEST_POSTGRES_URL", "").strip()

BACKENDS = ["sqlite-memory", "sqlite-file"] + (["postgres"] if PG_URL else [])
PERSISTENT = ["sqlite-file"] + (["postgres"] if PG_URL else [])


def _pg_schema_url() -> Iterator[str]:
    from ptc.store.paths import normalize_url

    base = normalize_url(PG_URL)
    schema = "ptc_test_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    url = sa.engine.make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


@pytest.fixture
def make_url(tmp_path):
    """backend name -> a URL of a fresh, empty store for that backend."""
    cleanups = []

    def make(backend: str) -> str:
        if backend == "sqlite-memory":
            return ":memory:"
        if backend == "sqlite-file":
            return str(tmp_path / f"store-{uuid.uuid4().hex[:6]}.db")
        if backend == "postgres":
            gen = _pg_schema_url()
            cleanups.append(gen)
            return next(gen)
        raise ValueError(backend)

    yield make
    for gen in cleanups:
        next(gen, None)


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture(params=PERSISTENT)
def persistent_backend(request) -> str:
    return request.param


@pytest.fixture
def store_url(backend, make_url) -> str:
    return make_url(backend)


@pytest.fixture
def store(store_url) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()


@pytest.fixture
def sqlite_store(tmp_path) -> Iterator[Store]:
    s = Store(tmp_path / "plans.db")
    yield s
    s.close()
