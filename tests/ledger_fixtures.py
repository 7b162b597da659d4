"""Fixtures of the table ledger's tests: every database they run on.

``database_url`` is parametrized over SQLite (a temporary file) and PostgreSQL: the URL in
``GOSTOP_TEST_POSTGRES_URL`` when set (.ci/run sets nothing: the fixture starts its own),
else a throwaway cluster (bench/postgres.py) started once for the session with the
``initdb``/``pg_ctl`` on PATH or in Debian's /usr/lib/postgresql/*/bin. Without them the
PostgreSQL half skips locally and fails under CI=true (tests/tools.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tools import require


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL database for the session."""
    given = os.environ.get("GOSTOP_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    from bench.postgres import Cluster, find_bin

    if find_bin("initdb") is None or find_bin("pg_ctl") is None:
        require("initdb", "apt-get install postgresql, or set GOSTOP_TEST_POSTGRES_URL")
    with Cluster() as cluster:
        yield cluster.url


# marked (and so `system`, tests/conftest.py): the default run and .ci/run's compiled-build
# phase leave PostgreSQL out
@pytest.fixture(
    scope="session", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]
)
def database_url(request: Any, tmp_path_factory: Any) -> str:
    """Each database the ledger runs on."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('ledger')}/ledger.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(scope="session")
def ledger_app(app: Any, database_url: str) -> Any:
    """The service on ``database_url``; its test client checks every answer against the
    OpenAPI document, as the ``app`` fixture's does."""
    from calculator.api import create_app

    built = create_app({"access_log": False, "database_url": database_url})
    built.test_client_class = app.test_client_class
    yield built
    built.extensions["gostop_store"].dispose()
