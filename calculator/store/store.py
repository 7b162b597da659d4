"""The :class:`Store`: engine per process, migrations at start, the ledger's reads and
single-transaction writes."""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

DEFAULT_URL = "sqlite:///gostop.sqlite3"
BUSY_TIMEOUT_MS = 5_000  # below the request deadline: a waiting write never outlives its key
KEEP_KEYS_SECONDS = 25 * 3600  # idempotency records are kept at least 24 h
PURGE_EVERY = 64  # one claim in this many purges the scope's expired records
_MIGRATIONS = Path(__file__).parent / "migrations"
_LOCK_ID = 0x6057_0913  # PostgreSQL advisory lock held while migrating


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenRow:
    """A token that opens a table: its sha256 hex digest, role and label."""

    hash: str
    role: str  # scorer | viewer
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Head:
    """What every request reads first: the version, the derived summary and the tokens."""

    id: str
    version: int
    join_code: str
    summary: str
    tokens: tuple[TokenRow, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class EventRow:
    """One event as stored (``body`` is JSON text, or None)."""

    seq: int
    type: str
    by: str
    at: str
    number: int | None = None
    body: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """The state of an idempotency key after a request claims it.

    ``state`` is ``new`` (this request owns the key), ``replay`` (done before: ``status``
    and ``response`` are the stored answer), ``mismatch`` (used with another request) or
    ``in_flight`` (another request holds it).
    """

    state: str
    status: int | None = None
    response: str | None = None


def _sqlite_path(url: str) -> str | None:
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    return parsed.database or ""


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL, a busy timeout and foreign keys, and
    transactions that SQLite (not the driver) begins, so reads see one snapshot."""
    path = _sqlite_path(url)
    if path is None:
        # No pre-ping (a round trip on every checkout): a connection that fails is
        # invalidated instead (Store._transaction), and the next checkout opens a new one.
        return sa.create_engine(url, pool_size=4, max_overflow=4)
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver must not open transactions
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN")

    return engine


class Store:
    """The ledger's database. The engine is made per process (gunicorn forks after the
    app is built), so no connection is ever shared across a fork."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine: Engine | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._migrated = False
        self._statements: dict[str, str] = {}
        self._readers = threading.local()  # each thread's connection for reads (_read)

    @property
    def engine(self) -> Engine:
        """This process's engine."""
        if self._engine is None or self._pid != os.getpid():
            with self._lock:
                if self._engine is None or self._pid != os.getpid():
                    self._engine = make_engine(self.url)
                    self._pid = os.getpid()
        return self._engine

    def dispose(self) -> None:
        """Close this process's connections."""
        reader = getattr(self._readers, "connection", None)
        self._readers.connection = None
        if self._engine is not None and self._pid == os.getpid():
            if reader is not None:
                reader.close()  # back to the pool, which closes it
            self._engine.dispose()
        self._engine = None

    # --- migrations --------------------------------------------------------------------

    def ready(self) -> None:
        """Migrate once (per store object) before the first use."""
        if not self._migrated:
            with self._lock:
                if not self._migrated:
                    self.migrate()
                    self._migrated = True

    def migrate(self) -> None:
        """Apply every Alembic migration (``alembic upgrade head``), one process at a time:
        a file lock beside a SQLite database, an advisory lock on PostgreSQL."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        config.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        engine = make_engine(self.url)
        try:
            with self._migration_lock(), engine.begin() as connection:
                if engine.dialect.name == "postgresql":
                    connection.execute(sa.text(f"SELECT pg_advisory_xact_lock({_LOCK_ID})"))
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        finally:
            engine.dispose()

    @contextmanager
    def _migration_lock(self) -> Iterator[None]:
        path = _sqlite_path(self.url)
        if not path or path == ":memory:":
            yield
            return
        with open(path + ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    # --- statements ----------------------------------------------------------------------
    # The hot paths speak to the driver directly: SQLAlchemy Core's per-statement work
    # (about 150 µs) was most of a poll's cost. The SQL is written once, with %(name)s
    # parameters, and adapted to the driver's parameter style.

    def _sql(self, text: str) -> str:
        found = self._statements.get(text)
        if found is None:
            sqlite = self.engine.dialect.paramstyle in ("named", "qmark")  # sqlite3
            found = self._statements[text] = _PARAMETER.sub(r":\1", text) if sqlite else text
        return found

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """A DBAPI cursor inside one transaction (committed if the block ends normally)."""
        connection = self.engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                if self.engine.dialect.name == "sqlite":
                    cursor.execute("BEGIN")  # the driver leaves transactions to us
                yield cursor
            except self._disconnects():
                connection.invalidate()  # a dead connection never goes back to the pool
                raise
            except BaseException:
                connection.rollback()
                raise
            else:
                connection.commit()
            finally:
                cursor.close()
        finally:
            connection.close()  # back to the pool

    @contextmanager
    def _pipeline(self, cursor: Any) -> Iterator[Callable[[], None]]:
        """Within a transaction: the statements sent without waiting for each answer
        (psycopg's pipeline mode: one round trip to PostgreSQL for them all, instead of
        one each); the ``sync`` it yields waits for every answer (and raises the first
        error). SQLite runs in-process: statements run as they come."""
        if self.engine.dialect.name != "postgresql":
            yield lambda: None
            return
        with cursor.connection.pipeline() as pipeline:
            yield pipeline.sync

    @contextmanager
    def _alone(self) -> Iterator[Any]:
        """A DBAPI cursor for one statement that runs atomically on its own (no BEGIN and
        COMMIT; PostgreSQL in autocommit): a read, a key's claim or release. It runs on a
        connection this thread keeps checked out of the pool: a poll is one SELECT, and a
        pool checkout and return (with its reset) cost as much as the query."""
        engine = self.engine
        connection = getattr(self._readers, "connection", None)
        if connection is None or self._readers.engine is not engine:
            connection = engine.raw_connection()
            if engine.dialect.name == "postgresql":
                connection.driver_connection.autocommit = True  # type: ignore[union-attr]
            self._readers.connection, self._readers.engine = connection, engine
        cursor = connection.cursor()
        try:
            yield cursor
        except self._disconnects():
            self._readers.connection = None
            connection.invalidate()  # a dead connection is never used again
            raise
        finally:
            cursor.close()

    def _disconnects(self) -> tuple[type[Exception], ...]:
        dbapi: Any = self.engine.dialect.dbapi
        return (dbapi.OperationalError, dbapi.InterfaceError)

    def _integrity_error(self) -> type[Exception]:
        error: type[Exception] = self.engine.dialect.dbapi.IntegrityError  # type: ignore[union-attr]
        return error

    # --- reads -------------------------------------------------------------------------

    def head(self, table_id: str) -> Head | None:
        """The table's version, summary and tokens (one query); None if there is no such
        table."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_HEAD), {"id": table_id})
            rows = cursor.fetchall()
        if not rows:  # every table has tokens: no row, no table
            return None
        version, join_code, summary = rows[0][:3]
        return Head(
            id=table_id,
            version=version,
            join_code=join_code,
            summary=summary,
            tokens=tuple(TokenRow(hash=r[3], role=r[4], label=r[5]) for r in rows),
        )

    def events(self, table_id: str, *, after: int = 0, upto: int | None = None) -> list[EventRow]:
        """The events with ``after < seq ≤ upto``, in order."""
        with self._alone() as cursor:
            cursor.execute(
                self._sql(_EVENTS),
                {"id": table_id, "after": after, "upto": upto if upto is not None else 2**31 - 1},
            )
            rows = cursor.fetchall()
        return [
            EventRow(seq=r[0], type=r[1], number=r[2], body=r[3], reason=r[4], by=r[5], at=r[6])
            for r in rows
        ]

    def hand_items(self, table_id: str) -> list[str]:
        """The derived item of each hand, in order (JSON text)."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_HAND_ITEMS), {"id": table_id})
            return [r[0] for r in cursor.fetchall()]

    # --- writes ------------------------------------------------------------------------

    def create(
        self,
        *,
        table_id: str,
        join_code: str,
        created_at: float,
        event: EventRow,
        summary: str,
        tokens: Iterable[TokenRow],
        answer: tuple[str, str, int, str] | None = None,
    ) -> bool:
        """Insert a new table with its first event and tokens, and complete the
        idempotency record ``answer`` (scope, key, status, response), in one transaction;
        False if the join code is taken (draw another)."""
        try:
            with self._transaction() as cursor:
                cursor.execute(
                    self._sql(_INSERT_TABLE),
                    {
                        "id": table_id,
                        "version": event.seq,
                        "join_code": join_code,
                        "created_at": created_at,
                        "summary": summary,
                    },
                )
                cursor.execute(self._sql(_INSERT_EVENT), _event(table_id, event))
                self._insert_tokens(cursor, table_id, tokens)
                if answer is not None:
                    self._finish(cursor, *answer)
        except self._integrity_error():
            return False
        return True

    def add_tokens(self, table_id: str, tokens: Iterable[TokenRow]) -> None:
        """More tokens for a table (a replayed create mints fresh ones)."""
        with self._transaction() as cursor:
            self._insert_tokens(cursor, table_id, tokens)

    def _insert_tokens(self, cursor: Any, table_id: str, tokens: Iterable[TokenRow]) -> None:
        rows = [
            {"table_id": table_id, "hash": t.hash, "role": t.role, "label": t.label} for t in tokens
        ]
        if rows:
            cursor.executemany(self._sql(_INSERT_TOKEN), rows)

    def write(
        self,
        *,
        table_id: str,
        expected: int,
        events: Sequence[EventRow],
        summary: str,
        hands_from: int,
        hand_items: Sequence[str],
        replace: bool = True,
        answer: tuple[str, str, int, str] | None = None,
    ) -> bool:
        """Append ``events`` after version ``expected`` in one transaction: the version
        moves on, the derived rows of hands ``hands_from`` on are replaced by
        ``hand_items`` (numbered from ``hands_from``; ``replace=False``: there are none yet
        to delete), and ``answer`` — (scope, key, status, response) — completes the
        idempotency record. False (nothing written) if the table is no longer at version
        ``expected``."""
        try:
            with self._transaction() as moved, self._pipeline(moved) as sync:
                moved.execute(
                    self._sql(_MOVE_VERSION),
                    {
                        "id": table_id,
                        "expected": expected,
                        "version": expected + len(events),
                        "summary": summary,
                    },
                )
                # Sent before the version's answer is read (one round trip for all): if
                # the table moved on, its event ``expected + 1`` exists and the insert
                # fails (the key of the log), and nothing is committed either way.
                cursor = moved.connection.cursor()
                cursor.executemany(self._sql(_INSERT_EVENT), [_event(table_id, e) for e in events])
                self._put_hands(cursor, table_id, hands_from, hand_items, replace=replace)
                if answer is not None:
                    self._finish(cursor, *answer)
                sync()
                if moved.rowcount != 1:
                    raise _Moved
        except (_Moved, self._integrity_error()):
            return False
        return True

    def _put_hands(
        self, cursor: Any, table_id: str, start: int, items: Sequence[str], *, replace: bool
    ) -> None:
        if replace:
            cursor.execute(self._sql(_DELETE_HANDS), {"id": table_id, "from": start})
        if items:
            cursor.executemany(
                self._sql(_INSERT_HAND),
                [
                    {"table_id": table_id, "number": start + i, "item": item}
                    for i, item in enumerate(items)
                ],
            )

    def replace_derived(self, table_id: str, *, summary: str, hand_items: Sequence[str]) -> None:
        """Rewrite every derived row of a table (a rebuild from its events)."""
        with self._transaction() as cursor:
            cursor.execute(self._sql(_SET_SUMMARY), {"id": table_id, "summary": summary})
            self._put_hands(cursor, table_id, 1, hand_items, replace=True)

    def delete_derived(self, table_id: str) -> None:
        """Forget a table's derived rows (its hands' items and its summary)."""
        with self._transaction() as cursor:
            cursor.execute(self._sql(_SET_SUMMARY), {"id": table_id, "summary": "{}"})
            self._put_hands(cursor, table_id, 1, (), replace=True)

    # --- idempotency -------------------------------------------------------------------

    def claim(
        self, *, scope: str, key: str, request_hash: str, now: float, deadline: float
    ) -> Claim:
        """Claim ``key`` for a request. An in-flight record older than ``deadline``
        seconds was abandoned (its worker died): this request takes it over."""
        names = {"scope": scope, "key": key, "hash": request_hash, "now": now}
        try:
            with self._alone() as cursor:
                cursor.execute(self._sql(_INSERT_KEY), names)
            if secrets.randbelow(PURGE_EVERY) == 0:
                self.purge_keys(scope=scope, now=now)
            return Claim(state="new")
        except self._integrity_error():
            pass
        # The write comes first: a SQLite transaction that reads and then writes fails at
        # once when another writer committed in between; one that writes first waits.
        with self._transaction() as cursor:
            cursor.execute(self._sql(_TAKE_OVER_KEY), {**names, "stale": now - deadline})
            if cursor.rowcount == 1:
                return Claim(state="new")
            cursor.execute(self._sql(_SELECT_KEY), names)
            row = cursor.fetchone()
        if row is None:  # released meanwhile: try once more
            return self.claim(
                scope=scope, key=key, request_hash=request_hash, now=now, deadline=deadline
            )
        stored_hash, done, status, response = row
        if stored_hash != request_hash:
            return Claim(state="mismatch")
        if done:
            return Claim(state="replay", status=status, response=response)
        return Claim(state="in_flight")

    def purge_keys(self, *, scope: str, now: float) -> None:
        """Forget a scope's idempotency records older than the ≥ 24 h they are kept."""
        with self._alone() as cursor:
            cursor.execute(
                self._sql(_PURGE_KEYS), {"scope": scope, "before": now - KEEP_KEYS_SECONDS}
            )

    def release(self, *, scope: str, key: str) -> None:
        """Give up a claim (the request was refused: the key may be used again)."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_RELEASE_KEY), {"scope": scope, "key": key})

    def _finish(self, cursor: Any, scope: str, key: str, status: int, response: str) -> None:
        cursor.execute(
            self._sql(_FINISH_KEY),
            {"scope": scope, "key": key, "status": status, "response": response},
        )


class _Moved(Exception):  # noqa: N818 - a signal inside Store.write, never raised out
    """The table was no longer at the expected version: roll the write back."""


def _event(table_id: str, event: EventRow) -> Mapping[str, Any]:
    return {
        "table_id": table_id,
        "seq": event.seq,
        "type": event.type,
        "number": event.number,
        "body": event.body,
        "reason": event.reason,
        "by": event.by,
        "at": event.at,
    }


_PARAMETER = re.compile(r"%\((\w+)\)s")
_HEAD = (
    "SELECT t.version, t.join_code, t.summary, k.hash, k.role, k.label "
    "FROM ledger_tables t JOIN ledger_tokens k ON k.table_id = t.id "
    "WHERE t.id = %(id)s ORDER BY k.id"
)
_EVENTS = (
    'SELECT seq, type, number, body, reason, "by", at FROM ledger_events '
    "WHERE table_id = %(id)s AND seq > %(after)s AND seq <= %(upto)s ORDER BY seq"
)
_HAND_ITEMS = "SELECT item FROM ledger_hands WHERE table_id = %(id)s ORDER BY number"
_INSERT_TABLE = (
    "INSERT INTO ledger_tables (id, version, join_code, created_at, summary) "
    "VALUES (%(id)s, %(version)s, %(join_code)s, %(created_at)s, %(summary)s)"
)
_INSERT_EVENT = (
    'INSERT INTO ledger_events (table_id, seq, type, number, body, reason, "by", at) '
    "VALUES (%(table_id)s, %(seq)s, %(type)s, %(number)s, %(body)s, %(reason)s, %(by)s, %(at)s)"
)
_INSERT_TOKEN = (
    "INSERT INTO ledger_tokens (table_id, hash, role, label) "
    "VALUES (%(table_id)s, %(hash)s, %(role)s, %(label)s)"
)
_MOVE_VERSION = (
    "UPDATE ledger_tables SET version = %(version)s, summary = %(summary)s "
    "WHERE id = %(id)s AND version = %(expected)s"
)
_SET_SUMMARY = "UPDATE ledger_tables SET summary = %(summary)s WHERE id = %(id)s"
_DELETE_HANDS = "DELETE FROM ledger_hands WHERE table_id = %(id)s AND number >= %(from)s"
_INSERT_HAND = (
    "INSERT INTO ledger_hands (table_id, number, item) VALUES (%(table_id)s, %(number)s, %(item)s)"
)
_INSERT_KEY = (
    'INSERT INTO ledger_idempotency (scope, "key", request_hash, created_at, done) '
    "VALUES (%(scope)s, %(key)s, %(hash)s, %(now)s, FALSE)"
)
_TAKE_OVER_KEY = (
    "UPDATE ledger_idempotency SET created_at = %(now)s "
    'WHERE scope = %(scope)s AND "key" = %(key)s AND request_hash = %(hash)s '
    "AND NOT done AND created_at < %(stale)s"
)
_SELECT_KEY = (
    "SELECT request_hash, done, status, response FROM ledger_idempotency "
    'WHERE scope = %(scope)s AND "key" = %(key)s'
)
_PURGE_KEYS = "DELETE FROM ledger_idempotency WHERE scope = %(scope)s AND created_at < %(before)s"
_RELEASE_KEY = (
    'DELETE FROM ledger_idempotency WHERE scope = %(scope)s AND "key" = %(key)s AND NOT done'
)
_FINISH_KEY = (
    "UPDATE ledger_idempotency SET done = TRUE, status = %(status)s, response = %(response)s "
    'WHERE scope = %(scope)s AND "key" = %(key)s'
)
