"""The store's migrations: :func:`upgrade` applies every Alembic migration to a
database, one process at a time (:func:`migration_lock` on a SQLite file, an advisory
lock on PostgreSQL). :class:`calculator.store.store.Store` runs it before its first use;
the scripts are in :data:`MIGRATIONS`; siblings: the SQL the store sends in
:mod:`calculator.store.sql`, its connections in :mod:`calculator.store.connections`."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

from calculator.store.connections import _sqlite_path, make_engine

MIGRATIONS = Path(__file__).parent / "migrations"
"""The Alembic scripts (``calculator/store/migrations``)."""
LOCK_ID = 0x6057_0913  # PostgreSQL advisory lock held while migrating
"""The PostgreSQL advisory lock :func:`upgrade` holds while it migrates."""


def upgrade(url: str) -> None:
    """Apply every Alembic migration (``alembic upgrade head``), one process at a time:
    a file lock beside a SQLite database (the one its writes take turns by), an
    advisory lock on PostgreSQL."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    engine = make_engine(url)
    try:
        with migration_lock(url), engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(sa.text(f"SELECT pg_advisory_xact_lock({LOCK_ID})"))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        engine.dispose()


@contextmanager
def migration_lock(url: str) -> Iterator[None]:
    """Held while migrating a SQLite file: a file lock beside it (none for an in-memory
    database or another one)."""
    path = _sqlite_path(url)
    if not path or path == ":memory:":
        yield
        return
    with open(path + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
