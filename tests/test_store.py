"""The ledger's storage on each database: the migrations create exactly the schema the
code uses, ``gostop db upgrade`` applies them, and the database enforces the version."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from calculator.api.cli import main
from calculator.store import EventRow, Store, TokenRow, schema
from calculator.store.schema import metadata


@pytest.fixture(scope="module")
def store(database_url: str) -> Any:
    store = Store(database_url)
    store.migrate()
    yield store
    store.dispose()


def test_the_migrations_create_the_schema_of_the_code(store: Store) -> None:
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, metadata) == []
        assert context.get_current_revision() == "0001"


def test_migrating_again_changes_nothing(store: Store) -> None:
    store.migrate()
    with store.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == "0001"


def _table(store: Store, table_id: str) -> None:
    created = EventRow(seq=1, type="created", by="scorer", at="t", body="{}")
    assert store.create(
        table_id=table_id,
        join_code=table_id[:8].upper(),
        created_at=0.0,
        event=created,
        summary="{}",
        tokens=[TokenRow(hash="0" * 64, role="scorer", label="scorer")],
    )


def test_the_database_refuses_a_stale_version_and_a_second_event_number(store: Store) -> None:
    import uuid

    table_id = str(uuid.uuid4())
    _table(store, table_id)
    event = EventRow(seq=2, type="closed", by="scorer", at="t")
    write = {
        "table_id": table_id,
        "events": [event],
        "summary": "{}",
        "hands_from": 1,
        "hand_items": [],
    }
    assert store.write(expected=1, **write)
    assert not store.write(expected=1, **write)  # the compare-and-set
    duplicate = sa.insert(schema.events).values(table_id=table_id, seq=2, type="x", by="b", at="t")
    with pytest.raises(sa.exc.IntegrityError):  # the primary key
        _execute(store, duplicate)
    assert [e.seq for e in store.events(table_id)] == [1, 2]
    assert store.head(table_id).version == 2  # type: ignore[union-attr]


def _execute(store: Store, statement: Any) -> None:
    with store.engine.begin() as connection:
        connection.execute(statement)


def test_gostop_db_upgrade(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    url = f"sqlite:///{tmp_path}/night.sqlite3"
    monkeypatch.setenv("GOSTOP_DATABASE_URL", url)
    assert main(["db", "upgrade"]) == 0
    assert "night.sqlite3" in capsys.readouterr().out
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        names = set(sa.inspect(connection).get_table_names())
        mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
    engine.dispose()
    assert {"ledger_tables", "ledger_events", "ledger_hands", "alembic_version"} <= names
    assert mode == "wal"


def test_a_dropped_connection_is_replaced(store: Store) -> None:
    """The pool does not ping before each use (a round trip): a connection the server
    dropped fails once, is invalidated, and the next use opens a new one — the
    connection single statements run on (reads) and the pooled ones transactions take."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite connections are files, not sessions a server can drop")
    import uuid

    table_id = str(uuid.uuid4())
    _table(store, table_id)
    assert store.head(table_id) is not None  # this thread's read connection now exists
    with store._alone() as cursor:  # the connection reads run on
        cursor.execute("SELECT pg_backend_pid()")
        reader = cursor.fetchone()[0]

    def drop(backend: int) -> None:
        killer = sa.create_engine(store.url)
        with killer.begin() as c:
            c.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
        killer.dispose()

    def failures_until(done: Callable[[], bool]) -> int:
        failures = 0
        while failures < 8:  # the pool holds at most a few dropped connections
            try:
                if done():
                    return failures
            except Exception:  # the driver's error, raised as it is
                failures += 1
        return failures

    drop(reader)
    assert failures_until(lambda: store.head(table_id) is not None) == 1
    pooled = store.engine.raw_connection()  # not the read connection: that one is out
    pid = pooled.driver_connection.info.backend_pid  # type: ignore[union-attr]
    pooled.close()  # back to the pool, where the server drops it
    drop(pid)
    summary = '{"rebuilt": true}'

    def rewrite() -> bool:
        store.replace_derived(table_id, summary=summary, hand_items=[])
        return True

    assert failures_until(rewrite) == 1
    head = store.head(table_id)
    assert head is not None
    assert (head.version, head.summary) == (1, summary)
