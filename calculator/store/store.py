"""The :class:`Store`: engine per process, migrations at start, the ledger's reads and
single-transaction writes."""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from calculator.store import schema

DEFAULT_URL = "sqlite:///gostop.sqlite3"
BUSY_TIMEOUT_MS = 30_000
KEEP_KEYS_SECONDS = 25 * 3600  # idempotency records are kept at least 24 h
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
        return sa.create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=4)
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
        if self._engine is not None and self._pid == os.getpid():
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

    # --- reads -------------------------------------------------------------------------

    def head(self, table_id: str) -> Head | None:
        """The table's version, summary and tokens; None if there is no such table."""
        with self.engine.begin() as c:
            row = c.execute(
                sa.select(
                    schema.tables.c.version, schema.tables.c.join_code, schema.tables.c.summary
                ).where(schema.tables.c.id == table_id)
            ).first()
            if row is None:
                return None
            found = c.execute(
                sa.select(schema.tokens.c.hash, schema.tokens.c.role, schema.tokens.c.label)
                .where(schema.tokens.c.table_id == table_id)
                .order_by(schema.tokens.c.id)
            ).all()
        tokens = tuple(TokenRow(hash=t.hash, role=t.role, label=t.label) for t in found)
        return Head(
            id=table_id,
            version=row.version,
            join_code=row.join_code,
            summary=row.summary,
            tokens=tokens,
        )

    def events(self, table_id: str, *, after: int = 0, upto: int | None = None) -> list[EventRow]:
        """The events with ``after < seq ≤ upto``, in order."""
        e = schema.events.c
        query = sa.select(schema.events).where(e.table_id == table_id, e.seq > after)
        if upto is not None:
            query = query.where(e.seq <= upto)
        with self.engine.begin() as c:
            rows = c.execute(query.order_by(e.seq)).all()
        return [
            EventRow(
                seq=r.seq,
                type=r.type,
                by=r.by,
                at=r.at,
                number=r.number,
                body=r.body,
                reason=r.reason,
            )
            for r in rows
        ]

    def hand_items(self, table_id: str) -> list[str]:
        """The derived item of each hand, in order (JSON text)."""
        h = schema.hands.c
        with self.engine.begin() as c:
            rows = c.execute(
                sa.select(h.item).where(h.table_id == table_id).order_by(h.number)
            ).all()
        return [r.item for r in rows]

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
    ) -> bool:
        """Insert a new table with its first event and tokens; False if the join code is
        taken (draw another)."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    sa.insert(schema.tables).values(
                        id=table_id,
                        version=event.seq,
                        join_code=join_code,
                        created_at=created_at,
                        summary=summary,
                    )
                )
                c.execute(sa.insert(schema.events).values(table_id=table_id, **_event(event)))
                self._insert_tokens(c, table_id, tokens)
        except IntegrityError:
            return False
        return True

    def add_tokens(self, table_id: str, tokens: Iterable[TokenRow]) -> None:
        """More tokens for a table (a replayed create mints fresh ones)."""
        with self.engine.begin() as c:
            self._insert_tokens(c, table_id, tokens)

    @staticmethod
    def _insert_tokens(c: Connection, table_id: str, tokens: Iterable[TokenRow]) -> None:
        rows = [
            {"table_id": table_id, "hash": t.hash, "role": t.role, "label": t.label} for t in tokens
        ]
        if rows:
            c.execute(sa.insert(schema.tokens), rows)

    def write(
        self,
        *,
        table_id: str,
        expected: int,
        events: Sequence[EventRow],
        summary: str,
        hands_from: int,
        hand_items: Sequence[str],
        answer: tuple[str, str, int, str] | None = None,
    ) -> bool:
        """Append ``events`` after version ``expected`` in one transaction: the version
        moves on, the derived rows of hands ``hands_from`` on are replaced by
        ``hand_items`` (numbered from ``hands_from``), and ``answer`` — (scope, key,
        status, response) — completes the idempotency record. False (nothing written) if
        the table is no longer at version ``expected``."""
        t, h = schema.tables.c, schema.hands.c
        with self.engine.begin() as c:
            moved = c.execute(
                sa.update(schema.tables)
                .where(t.id == table_id, t.version == expected)
                .values(version=expected + len(events), summary=summary)
            )
            if moved.rowcount != 1:
                return False
            c.execute(
                sa.insert(schema.events), [{"table_id": table_id, **_event(e)} for e in events]
            )
            c.execute(sa.delete(schema.hands).where(h.table_id == table_id, h.number >= hands_from))
            if hand_items:
                c.execute(
                    sa.insert(schema.hands),
                    [
                        {"table_id": table_id, "number": hands_from + i, "item": item}
                        for i, item in enumerate(hand_items)
                    ],
                )
            if answer is not None:
                self._finish(c, *answer)
        return True

    def replace_derived(self, table_id: str, *, summary: str, hand_items: Sequence[str]) -> None:
        """Rewrite every derived row of a table (a rebuild from its events)."""
        self.delete_derived(table_id)
        with self.engine.begin() as c:
            c.execute(
                sa.update(schema.tables)
                .where(schema.tables.c.id == table_id)
                .values(summary=summary)
            )
            if hand_items:
                c.execute(
                    sa.insert(schema.hands),
                    [
                        {"table_id": table_id, "number": i + 1, "item": item}
                        for i, item in enumerate(hand_items)
                    ],
                )

    def delete_derived(self, table_id: str) -> None:
        """Forget a table's derived rows (its hands' items and its summary)."""
        with self.engine.begin() as c:
            c.execute(sa.delete(schema.hands).where(schema.hands.c.table_id == table_id))
            c.execute(
                sa.update(schema.tables).where(schema.tables.c.id == table_id).values(summary="{}")
            )

    # --- idempotency -------------------------------------------------------------------

    def claim(
        self, *, scope: str, key: str, request_hash: str, now: float, deadline: float
    ) -> Claim:
        """Claim ``key`` for a request. An in-flight record older than ``deadline``
        seconds was abandoned (its worker died): this request takes it over."""
        i = schema.idempotency.c
        try:
            with self.engine.begin() as c:
                c.execute(
                    sa.delete(schema.idempotency).where(
                        i.scope == scope, i.created_at < now - KEEP_KEYS_SECONDS
                    )
                )
                c.execute(
                    sa.insert(schema.idempotency).values(
                        scope=scope, key=key, request_hash=request_hash, created_at=now, done=False
                    )
                )
            return Claim(state="new")
        except IntegrityError:
            pass
        # The write comes first: a SQLite transaction that reads and then writes fails at
        # once when another writer committed in between; one that writes first waits.
        with self.engine.begin() as c:
            taken = c.execute(
                sa.update(schema.idempotency)
                .where(
                    i.scope == scope,
                    i.key == key,
                    i.request_hash == request_hash,
                    i.done.is_(False),
                    i.created_at < now - deadline,
                )
                .values(created_at=now)
            )
            if taken.rowcount == 1:
                return Claim(state="new")
            row = c.execute(
                sa.select(schema.idempotency).where(i.scope == scope, i.key == key)
            ).first()
        if row is None:  # released meanwhile: try once more
            return self.claim(
                scope=scope, key=key, request_hash=request_hash, now=now, deadline=deadline
            )
        if row.request_hash != request_hash:
            return Claim(state="mismatch")
        if row.done:
            return Claim(state="replay", status=row.status, response=row.response)
        return Claim(state="in_flight")

    def release(self, *, scope: str, key: str) -> None:
        """Give up a claim (the request was refused: the key may be used again)."""
        i = schema.idempotency.c
        with self.engine.begin() as c:
            c.execute(
                sa.delete(schema.idempotency).where(
                    i.scope == scope, i.key == key, i.done.is_(False)
                )
            )

    def finish(self, *, scope: str, key: str, status: int, response: str) -> None:
        """Store the answer of a claimed key (writes do it inside :meth:`write`)."""
        with self.engine.begin() as c:
            self._finish(c, scope, key, status, response)

    @staticmethod
    def _finish(c: Connection, scope: str, key: str, status: int, response: str) -> None:
        i = schema.idempotency.c
        c.execute(
            sa.update(schema.idempotency)
            .where(i.scope == scope, i.key == key)
            .values(done=True, status=status, response=response)
        )


def _event(event: EventRow) -> Mapping[str, Any]:
    return {
        "seq": event.seq,
        "type": event.type,
        "number": event.number,
        "body": event.body,
        "reason": event.reason,
        "by": event.by,
        "at": event.at,
    }
