"""The ledger's storage on each database: the migrations create exactly the schema the
code uses, ``gostop db upgrade`` applies them, and the database enforces the version."""

from __future__ import annotations

import gc
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from calculator.api.cli import main
from calculator.store import EventRow, Store, TokenRow, schema
from calculator.store.schema import metadata


@contextmanager
def _own_database(database_url: str, directory: Path) -> Iterator[str]:
    """An empty database of the same kind as ``database_url``, dropped after: the tables
    these tests write by hand (bodies of "{}", made in 1970) stay out of the database the
    other ledger tests share, whose rebuild and purge read every table."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{directory}/own.sqlite3"
        return
    import uuid

    name = "store_" + uuid.uuid4().hex[:12]
    url = sa.engine.make_url(database_url).set(database=name)
    admin = sa.create_engine(database_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(sa.text(f"CREATE DATABASE {name}"))
        try:
            yield url.render_as_string(hide_password=False)
        finally:
            with admin.connect() as c:
                c.execute(sa.text(f"DROP DATABASE {name} WITH (FORCE)"))
    finally:
        admin.dispose()


@pytest.fixture(scope="module")
def store(database_url: str, tmp_path_factory: Any) -> Any:
    with _own_database(database_url, tmp_path_factory.mktemp("store")) as url:
        store = Store(url)
        store.migrate()
        yield store
        store.dispose()


def test_the_migrations_create_the_schema_of_the_code(store: Store) -> None:
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, metadata) == []
        assert context.get_current_revision() == "0005"


def test_migrating_again_changes_nothing(store: Store) -> None:
    store.migrate()
    with store.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == "0005"


def _create(store: Store, table_id: str, *, created_at: float = 0.0) -> bool:
    """A table whose join code is its id's first 8 characters, with the scorer token of
    hash "0" × 64; False if that join code is taken."""
    created = EventRow(seq=1, type="created", by="scorer", at="t", body="{}")
    return store.create(
        table_id=table_id,
        join_code=table_id[:8].upper(),
        created_at=created_at,
        event=created,
        summary="{}",
        tokens=[TokenRow(hash="0" * 64, role="scorer", label="scorer")],
    )


def _table(store: Store, table_id: str) -> None:
    assert _create(store, table_id)


_CLAIM = {"scope": "s", "key": "k", "request_hash": "h", "now": 1.0, "deadline": 30.0}


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
    # no such table (deleted): the foreign key refuses the event, nothing is committed
    assert not store.write(expected=1, **{**write, "table_id": str(uuid.uuid4())})
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


def test_a_postgresql_url_without_a_driver_uses_psycopg(database_url: str) -> None:
    """GOSTOP_DATABASE_URL selects PostgreSQL through psycopg 3 (SPEC §9), the only
    driver the service installs: the postgresql:// (and postgres://) URLs that hosting
    services hand out failed with "No module named 'psycopg2'" (SQLAlchemy's default)."""
    for given in ("postgresql://gostop:pw@db:5432/gostop", "postgres://gostop:pw@db:5432/gostop"):
        assert Store(given).url == "postgresql+psycopg://gostop:pw@db:5432/gostop"
    for kept in ("postgresql+psycopg://gostop@db/gostop", "sqlite:///postgresql://.sqlite3"):
        assert Store(kept).url == kept
    if database_url.startswith("postgresql+psycopg://"):
        bare = Store(database_url.replace("postgresql+psycopg://", "postgresql://", 1))
        try:
            bare.ready()
            assert bare.head("00000000-0000-0000-0000-000000000000") is None
        finally:
            bare.dispose()


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


def test_a_ping_is_one_statement_on_the_connection_reads_use(store: Store) -> None:
    """bench.tables' floor under a poll reaches the database, on the connection polls use:
    with that connection closed, the ping fails once, and the next one opens another."""
    store.ping()
    with store._alone() as cursor:
        reader = cursor.connection  # the driver's connection this thread reads on
    reader.close()
    with pytest.raises(store.engine.dialect.dbapi.Error):  # type: ignore[union-attr]
        store.ping()
    store.ping()


@pytest.fixture
def empty_url(database_url: str, tmp_path: Path) -> Any:
    """An empty database of the same kind as ``database_url``."""
    with _own_database(database_url, tmp_path) as url:
        yield url


def test_migration_0002_fills_what_an_older_database_holds(empty_url: str) -> None:
    """A ledger written at revision 0001: each table is active as of its last event, and
    each token gets its own public id and its table's creation time."""
    from alembic import command
    from alembic.config import Config

    from calculator.store.migrating import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", empty_url.replace("%", "%%"))
    command.upgrade(config, "0001")
    engine = sa.create_engine(empty_url)
    with engine.begin() as c:
        for table_id, created, last in (
            ("t1", 100.0, "2026-12-03T20:00:00.500Z"),
            ("t2", 50.0, None),
        ):
            c.execute(
                sa.text(
                    "INSERT INTO ledger_tables (id, version, join_code, created_at, summary) "
                    "VALUES (:id, 1, :code, :created, '{}')"
                ),
                {"id": table_id, "code": table_id.upper() * 4, "created": created},
            )
            for seq, at in enumerate(("2026-12-03T19:00:00.000Z", last)[: 2 if last else 1], 1):
                c.execute(
                    sa.text(
                        'INSERT INTO ledger_events (table_id, seq, type, "by", at) '
                        "VALUES (:id, :seq, 'x', 'scorer', :at)"
                    ),
                    {"id": table_id, "seq": seq, "at": at},
                )
            for role in ("scorer", "viewer"):
                c.execute(
                    sa.text(
                        "INSERT INTO ledger_tokens (table_id, role, hash, label) "
                        "VALUES (:id, :role, :hash, :role)"
                    ),
                    {"id": table_id, "role": role, "hash": table_id + role},
                )
    engine.dispose()
    store = Store(empty_url)
    store.migrate()
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
        active = dict(connection.execute(sa.text("SELECT id, active_at FROM ledger_tables")).all())
        tokens = connection.execute(
            sa.text("SELECT table_id, public_id, created_at FROM ledger_tokens")
        ).all()
    from datetime import datetime

    assert active == {
        "t1": datetime.fromisoformat("2026-12-03T20:00:00.500Z").timestamp(),
        "t2": datetime.fromisoformat("2026-12-03T19:00:00.000Z").timestamp(),
    }
    assert len({public for _t, public, _c in tokens}) == 4
    assert all(len(public) == 12 for _t, public, _c in tokens)
    assert sorted((t, c) for t, _p, c in tokens) == [
        ("t1", 100.0),
        ("t1", 100.0),
        ("t2", 50.0),
        ("t2", 50.0),
    ]
    store.dispose()


def test_migration_0004_fills_each_tables_last_time_from_its_events(empty_url: str) -> None:
    """A ledger written at revision 0003: each table's ``last_at`` is the latest time of
    its events (by hand: the second event of t1, the only one of t2), which the head then
    gives a write to stamp its event no earlier."""
    from alembic import command
    from alembic.config import Config

    from calculator.store.migrating import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", empty_url.replace("%", "%%"))
    command.upgrade(config, "0003")
    engine = sa.create_engine(empty_url)
    with engine.begin() as c:
        for table_id, times in (
            ("t1", ("2026-12-03T19:00:00.000Z", "2026-12-03T20:00:00.500Z")),
            ("t2", ("2026-12-03T19:30:00.000Z",)),
        ):
            c.execute(
                sa.text(
                    "INSERT INTO ledger_tables (id, version, join_code, created_at, summary) "
                    "VALUES (:id, :version, :code, 0, '{}')"
                ),
                {"id": table_id, "version": len(times), "code": table_id.upper() * 4},
            )
            for seq, at in enumerate(times, 1):
                c.execute(
                    sa.text(
                        'INSERT INTO ledger_events (table_id, seq, type, "by", at) '
                        "VALUES (:id, :seq, 'x', 'scorer', :at)"
                    ),
                    {"id": table_id, "seq": seq, "at": at},
                )
    engine.dispose()
    store = Store(empty_url, idle_seconds=None)
    store.migrate()
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
        last = dict(connection.execute(sa.text("SELECT id, last_at FROM ledger_tables")).all())
    assert last == {"t1": "2026-12-03T20:00:00.500Z", "t2": "2026-12-03T19:30:00.000Z"}
    head = store.head("t1")
    assert head is not None
    assert head.last_at == "2026-12-03T20:00:00.500Z"
    store.dispose()


def test_a_token_is_found_through_the_index_on_table_and_hash(store: Store) -> None:
    """A request's token is one index lookup, however many tokens its table holds."""
    from calculator.store.sql import _HEAD

    if store.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL's planner scans small tables whatever the index")
    with store.engine.connect() as connection:
        sql = store._sql(_HEAD)
        names = {"id": "x", "hash": "y", "since": 0.0, "known": -1}
        plan = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, names).all()
    assert "ix_ledger_tokens_table_id_hash" in str(plan)


def test_only_key_bookkeeping_commits_without_waiting_for_the_disk(store: Store) -> None:
    """On PostgreSQL the connection of single statements (reads, a key's claim and
    release) commits asynchronously; every transaction — a write that adds a hand and
    completes its key — waits for its log to reach the disk, as the server's default."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no per-connection commit durability to check")
    with store._alone() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "off"
    with store._transaction() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"
    assert store.claim(**_CLAIM).state == "new"
    assert store.claim(**_CLAIM).state == "in_flight"  # seen at once: not only once flushed
    store.release(scope="s", key="k")


def test_a_finished_threads_read_connection_never_serves_a_transaction(store: Store) -> None:
    """A thread's connection for single statements (on PostgreSQL in autocommit, its
    commits not waiting for the disk) is closed when the thread ends, never handed back
    to the pool: a transaction given it would commit statement by statement, not all or
    none, and without waiting for the disk. (Found 2026-12-06: a replayed create's
    all-or-none rekey left one token rekeyed, after test threads that had read ended.)"""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite transactions BEGIN on every connection")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        for _ in range(3):  # more threads than the pool keeps idle: each one's reader ended
            reader = threading.Thread(target=store.head, args=("no-such-table",))
            reader.start()
            reader.join()
            del reader
            gc.collect()
    # each closed as its thread ended, not left to the collector ("deleted while still open")
    assert not [w for w in said if issubclass(w.category, ResourceWarning)], said
    for _ in range(3):
        with store._transaction() as cursor:
            assert not cursor.connection.autocommit
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] == "on"


# --- SQLite writes take turns (connections._Writers) ----------------------------------------


@pytest.fixture
def sqlite_store(tmp_path: Path, monkeypatch: Any) -> Any:
    """A SQLite file of its own; a write waits at most 0.2 s for its turn."""
    from calculator.store import connections

    monkeypatch.setattr(connections, "TURN_WAIT_SECONDS", 0.2)
    store = Store(f"sqlite:///{tmp_path}/turns.sqlite3")
    store.migrate()
    yield store
    store.dispose()


def _turn_taken(store: Store) -> bool:
    """Whether someone holds the database's turn of writes: another open file of the
    lock can't take it."""
    import fcntl
    import os

    fd = os.open(store._writers._path, os.O_WRONLY)  # type: ignore[union-attr]
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops the lock if it was taken here
    return False


def test_every_sqlite_write_and_no_read_takes_a_turn(sqlite_store: Store, monkeypatch: Any) -> None:
    """The writes of the ledger — each transaction, a key's claim, release and purge —
    run in their turn, the reads don't, and a write that fails (a stale version, a
    taken join code, a key claimed already) ends its turn too."""
    from calculator.store import connections
    from calculator.store import store as module

    turns: list[str] = []
    wait, done = connections._Writers.wait, connections._Writers.done

    def waited(writers: Any) -> bool:
        assert not turns or turns[-1] == "done"  # one turn at a time
        turns.append("wait")
        return wait(writers)

    def ended(writers: Any) -> None:
        assert _turn_taken(sqlite_store)  # the write ran in its turn
        turns.append("done")
        done(writers)

    monkeypatch.setattr(connections._Writers, "wait", waited)
    monkeypatch.setattr(connections._Writers, "done", ended)
    monkeypatch.setattr(module.secrets, "randbelow", lambda _n: 1)  # no purge of keys by chance
    _table(sqlite_store, "t-turns-1")
    assert not _create(sqlite_store, "t-turns-2")  # its join code, T-TURNS-, is taken
    event = EventRow(seq=2, type="closed", by="scorer", at="t")
    write = {"table_id": "t-turns-1", "events": [event], "summary": "{}", "hands_from": 1}
    assert sqlite_store.write(expected=1, hand_items=[], **write)
    assert not sqlite_store.write(expected=1, hand_items=[], **write)  # stale
    assert sqlite_store.claim(**_CLAIM).state == "new"
    assert sqlite_store.claim(**_CLAIM).state == "in_flight"  # its insert failed
    sqlite_store.release(scope="s", key="k")
    sqlite_store.purge_keys(scope="s", now=1.0)
    assert turns == ["wait", "done"] * 9
    turns.clear()
    assert sqlite_store.head("t-turns-1").version == 2  # type: ignore[union-attr]
    assert [e.seq for e in sqlite_store.events("t-turns-1")] == [1, 2]
    assert sqlite_store.tokens("t-turns-1")
    assert turns == []
    assert not _turn_taken(sqlite_store)


def test_a_sqlite_write_waits_for_its_turn_then_goes_on_without_it(sqlite_store: Store) -> None:
    """A write whose turn someone else holds waits (at most TURN_WAIT_SECONDS), then goes
    on: SQLite's own lock decides, so the turn is only about speed."""
    import fcntl
    import os

    writers = sqlite_store._writers
    assert writers is not None
    fd = os.open(writers._path, os.O_WRONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another process's turn
        assert writers.wait() is False
        assert sqlite_store.claim(**_CLAIM).state == "new"  # written all the same
        fcntl.flock(fd, fcntl.LOCK_UN)
        assert writers.wait() is True
        assert _turn_taken(sqlite_store)
        writers.done()
        assert not _turn_taken(sqlite_store)
    finally:
        os.close(fd)


def test_threads_and_forked_processes_take_turns(sqlite_store: Store) -> None:
    """An ``flock`` belongs to the open file: a forked worker opens the lock file again
    (sharing its parent's would give it the parent's turn), and threads of one process
    take turns by a mutex first."""
    import multiprocessing
    import threading

    writers = sqlite_store._writers
    assert writers is not None
    assert writers.wait() is True
    try:
        seen: list[bool] = []
        thread = threading.Thread(target=lambda: seen.append(writers.wait()))
        thread.start()
        thread.join()
        assert seen == [False]  # this process's turn is taken

        context = multiprocessing.get_context("fork")
        results = context.Queue()
        child = context.Process(target=lambda: results.put(writers.wait()))
        child.start()
        child.join()
        assert results.get(timeout=5) is False  # the parent's turn
    finally:
        writers.done()
    child = context.Process(target=lambda: results.put(writers.wait()))
    child.start()
    child.join()
    assert results.get(timeout=5) is True


# --- SQLite polls answered while nothing was committed (Store.head, Store._polls) -------------


def test_a_sqlite_poll_is_answered_again_only_while_nothing_was_committed(
    sqlite_store: Store,
) -> None:
    """A poll that names the table's version is answered from the head an earlier poll
    read, without the query, until anything is committed to the file — by any
    connection: here another store's, as another worker's or instance's would be."""
    other = Store(sqlite_store.url)  # another process's connections
    try:
        _table(other, "t-polls-1")
        token = "0" * 64
        statements: list[str] = []
        sqlite_store._reader().driver_connection.set_trace_callback(statements.append)

        def poll(known: int = 1, token: str = token) -> tuple[int, bool, bool]:
            """The version, whether the token opens the table, whether the query ran."""
            statements.clear()
            head = sqlite_store.head("t-polls-1", token_hash=token, known=known)
            assert head is not None
            queried = any("FROM ledger_tables" in sql for sql in statements)
            return head.version, head.token is not None, queried

        assert poll() == (1, True, True)
        assert poll() == (1, True, False)  # nothing committed since: not read
        assert sqlite_store.head("t-polls-1", token_hash=token, known=1).summary == ""  # type: ignore[union-attr]
        assert sqlite_store.head("t-polls-1", token_hash=token).summary == "{}"  # type: ignore[union-attr]
        assert poll(known=-1) == (1, True, True)  # a full read is always read
        assert poll(known=2) == (1, True, True)  # another version: read
        assert poll() == (1, True, False)
        assert poll(token="1" * 64) == (1, False, True)  # another token: read

        event = EventRow(seq=2, type="closed", by="scorer", at="t")
        write = {"events": [event], "summary": "{}", "hands_from": 1, "hand_items": []}
        assert other.write(table_id="t-polls-1", expected=1, **write)
        assert poll() == (2, True, True)  # the other store's commit is seen at once
        assert poll(known=2) == (2, True, True)
        assert poll(known=2) == (2, True, False)

        token_id = other.tokens("t-polls-1")[0].token_id
        other.rekey("t-polls-1", token_id=token_id, token_hash="2" * 64)
        assert poll(known=2) == (2, False, True)  # that secret opens nothing now
        assert poll(known=2, token="2" * 64) == (2, True, True)
        assert poll(known=2, token="2" * 64) == (2, True, False)
        _table(other, "u-polls-2")  # any commit, to any table, empties what polls kept
        assert poll(known=2, token="2" * 64) == (2, True, True)
        event = EventRow(seq=3, type="reopened", by="scorer", at="t")
        assert sqlite_store.write(table_id="t-polls-1", expected=2, **{**write, "events": [event]})
        assert poll(known=2, token="2" * 64) == (3, True, True)  # its own transactions too
    finally:
        other.dispose()


def test_a_sqlite_poll_answered_again_still_expires_with_the_table(tmp_path: Path) -> None:
    """The head a poll kept is the table's only while the table is not idle past the TTL,
    as the query would say: no commit is needed for a table to expire."""
    now = [1_000_000.0]
    store = Store(f"sqlite:///{tmp_path}/ttl.sqlite3", idle_seconds=100, clock=lambda: now[0])
    store.migrate()
    try:
        assert _create(store, "t-ttl", created_at=now[0])
        assert store.head("t-ttl", token_hash="0" * 64, known=1) is not None
        assert store.head("t-ttl", token_hash="0" * 64, known=1) is not None
        now[0] += 101
        assert store.head("t-ttl", token_hash="0" * 64, known=1) is None
    finally:
        store.dispose()


def test_threads_starting_together_each_get_a_turn(sqlite_store: Store, monkeypatch: Any) -> None:
    """The lock file is opened once, whichever thread writes first: threads that start
    together on a fresh store (a new worker's first requests) each get their turn."""
    import threading

    from calculator.store import connections
    from calculator.store.connections import _Writers

    monkeypatch.setattr(connections, "TURN_WAIT_SECONDS", 10.0)  # a loaded machine: still turns

    writers = _Writers(sqlite_store._writers._path)  # type: ignore[union-attr]  # not opened yet
    start = threading.Barrier(8)
    turns: list[bool] = []
    failures: list[BaseException] = []

    def write() -> None:
        start.wait()
        try:
            turn = writers.wait()
            turns.append(turn)
            if turn:
                writers.done()
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=write) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    writers.close()
    assert (failures, turns) == ([], [True] * 8)


def test_a_write_that_fails_ends_its_turn(tmp_path: Path, monkeypatch: Any) -> None:
    """A single-statement write that fails in SQLite ("database is locked": another
    program holds the file's lock past the busy timeout) gives its turn back, and keeps
    its connection: only the dialect's disconnects throw one away."""
    import sqlite3

    from calculator.store import connections

    monkeypatch.setattr(connections, "BUSY_TIMEOUT_MS", 100)
    store = Store(f"sqlite:///{tmp_path}/failing.sqlite3")
    store.migrate()
    outside = sa.create_engine(store.url)
    try:
        with outside.connect() as connection:
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # not through the turns
            reader = store._reader()
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                store.claim(**_CLAIM)
            connection.exec_driver_sql("ROLLBACK")
        assert store._reader() is reader  # not a dead connection: kept, with its polls
        assert not _turn_taken(store)
        assert not store._writers._mutex.locked()  # type: ignore[union-attr]
        assert store.claim(**_CLAIM).state == "new"
    finally:
        outside.dispose()
        store.dispose()


def test_a_forked_child_does_not_keep_its_parents_turn(sqlite_store: Store) -> None:
    """A worker that forks while it holds its turn and then dies: its turn ends with it,
    although the child lives on (the child closed its copy of the lock file)."""
    import multiprocessing
    import os
    import select
    import signal
    import time

    writers = sqlite_store._writers
    assert writers is not None
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    started, says_started = os.pipe()  # the child says when fork() has returned in it

    def holder() -> None:
        assert writers.wait()
        child = os.fork()
        if child == 0:  # lives on (30 s at most) without the test's output
            os.write(says_started, b"x")  # fork's handlers have run by now
            quiet = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(quiet, fd)
            time.sleep(30)
            os._exit(0)
        theirs.send(child)
        os._exit(0)  # dies in its turn

    process = context.Process(target=holder)
    process.start()
    assert ours.poll(10)
    child = ours.recv()
    process.join()  # (waitpid: the grandchild holds the sentinel pipe a timeout would read)
    try:
        # On a loaded machine the parent can die before its child has even run: until
        # then the child's copy of the lock file is open (the turn is the child's too).
        assert select.select([started], [], [], 10)[0]
        assert not _turn_taken(sqlite_store)
    finally:
        os.kill(child, signal.SIGKILL)  # not this process's child: init reaps it
        os.close(started)
        os.close(says_started)


def test_an_in_memory_database_reads_every_poll(tmp_path: Path) -> None:
    """An in-memory database's one connection makes every write, so its data_version
    never moves: polls are read each time (no head kept), as on PostgreSQL."""
    store = Store("sqlite://")
    schema.metadata.create_all(store.engine)  # migrate() would make another memory database
    try:
        _table(store, "t-memory")
        assert store.head("t-memory", token_hash="0" * 64, known=1).version == 1  # type: ignore[union-attr]
        event = EventRow(seq=2, type="closed", by="scorer", at="t")
        write = {"events": [event], "summary": "{}", "hands_from": 1, "hand_items": []}
        assert store.write(table_id="t-memory", expected=1, **write)
        assert store.head("t-memory", token_hash="0" * 64, known=1).version == 2  # type: ignore[union-attr]
    finally:
        store.dispose()


def test_only_a_sqlite_database_named_by_its_path_takes_turns_and_keeps_polls() -> None:
    """In-memory databases (one connection makes every write: their data_version never
    moves) and ``file:`` URIs, which may be in memory too, get neither."""
    from calculator.store.connections import _sqlite_file

    assert _sqlite_file("sqlite:///night.sqlite3") == "night.sqlite3"
    assert (
        _sqlite_file("sqlite:////var/lib/gostop/night.sqlite3") == "/var/lib/gostop/night.sqlite3"
    )
    for other in (
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///file:night?mode=memory&cache=shared&uri=true",
        "sqlite:///night.sqlite3?uri=true",
        "postgresql+psycopg://gostop@db/gostop",
    ):
        assert _sqlite_file(other) is None, other
        assert Store(other)._writers is None, other


def test_a_release_before_the_dealer_rule_cannot_migrate_a_database_past_it(
    empty_url: str, tmp_path: Path
) -> None:
    """Revision 0005 fences off releases that would derive a new table's dealers by the
    old rule (they ignore its created event's dealer_rule): their migrations end at 0004,
    and Alembic refuses a database at a revision it cannot locate."""
    import shutil

    from alembic import command
    from alembic.config import Config
    from alembic.util import CommandError

    from calculator.store.migrating import MIGRATIONS

    store = Store(empty_url, idle_seconds=None)
    store.migrate()  # this release: up to 0005
    store.dispose()
    older = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, older, ignore=shutil.ignore_patterns("__pycache__"))
    (older / "versions" / "v0005_dealer_rule.py").unlink()  # what a release before had
    config = Config()
    config.set_main_option("script_location", str(older))
    config.set_main_option("sqlalchemy.url", empty_url.replace("%", "%%"))
    with pytest.raises(CommandError, match="Can't locate revision identified by '0005'"):
        command.upgrade(config, "head")
