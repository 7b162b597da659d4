"""The :class:`Store`: engine per process, migrations at start, the ledger's reads and
single-transaction writes.

One class of over 600 lines, on purpose: every method speaks through the same per-process
engine, this thread's read connection and its kept polls, the statement cache and, on a
SQLite file, the writers' turns — splitting the reads, writes and idempotency keys apart
would take mixins sharing that state, which the house avoids. What is not the class's own
lives beside it: the SQL in :mod:`calculator.store.sql`, the records in
:mod:`calculator.store.rows`, the values its INSERTs write in :mod:`calculator.store.params`,
the migrations and their lock in :mod:`calculator.store.migrating`, the engine, the turns
and the per-thread connection in :mod:`calculator.store.connections`. Two small classes
stay here, each serving one method: :class:`_ClosedWithItsThread` (:meth:`Store._reader`)
and :class:`_Moved` (:meth:`Store.write`)."""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import Any

from sqlalchemy.engine import Engine

from calculator.names import folded
from calculator.store.connections import (
    _Alone,
    _sqlite_file,
    _Writers,
    make_engine,
    with_driver,
)
from calculator.store.migrating import upgrade
from calculator.store.params import event_params, free_label, token_params
from calculator.store.rows import Added, Claim, EventRow, Head, TokenRow
from calculator.store.sql import (
    _BY_CODE,
    _DELETE_HANDS,
    _DELETE_TOKEN,
    _ERASE,
    _EVENT_KINDS,
    _EVENTS,
    _FINISH_KEY,
    _HAND_ITEMS,
    _HEAD,
    _IDLE_TABLES,
    _INSERT_EVENT,
    _INSERT_HAND,
    _INSERT_KEY,
    _INSERT_TABLE,
    _INSERT_TOKEN,
    _LOCK_ACTIVE,
    _LOCK_AT_VERSION,
    _LOCK_IDLE,
    _LOCK_TABLE,
    _MOVE_VERSION,
    _PARAMETER,
    _PURGE_KEYS,
    _REKEY,
    _RELEASE_KEY,
    _SELECT_KEY,
    _SET_SUMMARY,
    _SET_SUMMARY_AT,
    _TABLE_IDS,
    _TAKE_OVER_KEY,
    _TOKEN,
    _TOKEN_LABELS,
    _TOKEN_ROLES,
    _TOKENS,
)

POLLS_KEPT = 4_096  # heads a thread keeps for polls (Store.head); past that it starts again
KEEP_KEYS_SECONDS = 25 * 3600  # idempotency records are kept at least 24 h
PURGE_EVERY = 64  # one claim in this many purges the scope's expired records


class Store:
    """The ledger's database. The engine is made per process (gunicorn forks after the
    app is built), so no connection is ever shared across a fork.

    A table with no event for ``idle_seconds`` (None: never) is gone: no read finds it,
    and :meth:`purge_idle` deletes it. ``clock`` gives the time (seconds since the epoch)
    the store stamps and compares; tests pass a fake one.
    """

    def __init__(
        self,
        url: str,
        *,
        idle_seconds: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = with_driver(url)
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._engine: Engine | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._migrated = False
        self._statements: dict[str, str] = {}
        self._readers = threading.local()  # each thread's connection for reads (_read)
        path = _sqlite_file(self.url)
        self._writers = None if path is None else _Writers(path + ".lock")

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
        """Close this process's connections (and its lock file)."""
        if self._writers is not None:
            self._writers.close()
        reader = getattr(self._readers, "connection", None)
        self._readers.connection = None
        if self._engine is not None and self._pid == os.getpid():
            if reader is not None:
                reader.close()  # closed (PostgreSQL's is detached: _reader), or pooled
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
        """Apply every Alembic migration to the store's database, one process at a time
        (:func:`calculator.store.migrating.upgrade`)."""
        upgrade(self.url)

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
        """A DBAPI cursor inside one transaction (committed if the block ends normally);
        on a SQLite file, in this write's turn
        (:class:`calculator.store.connections._Writers`)."""
        connection = self.engine.raw_connection()
        writers = self._writers
        turn = False
        try:
            turn = writers is not None and writers.wait()
            cursor = connection.cursor()
            dead = False
            try:
                if self.engine.dialect.name == "sqlite":
                    cursor.execute("BEGIN")  # the driver leaves transactions to us
                yield cursor
            except BaseException as error:
                dead = self._dead(error, connection)
                if not dead:
                    connection.rollback()
                raise
            else:
                connection.commit()
            finally:
                try:
                    cursor.close()  # first: a cursor of an invalidated connection can't close
                finally:
                    if dead:
                        connection.invalidate()  # a dead one never goes back to the pool
        finally:
            try:
                if turn and writers is not None:
                    writers.done()
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

    def _alone(self, *, write: bool = False) -> _Alone:
        """A DBAPI cursor for one statement that runs atomically on its own (no BEGIN and
        COMMIT; PostgreSQL in autocommit): a read, a key's claim or release (``write``:
        on a SQLite file, in its turn, as :meth:`_transaction`; idempotency keys only, as
        :meth:`_polls` needs: a table written here would not move this connection's
        ``data_version``, and polls would not see it). It runs on a
        connection this thread keeps checked out of the pool: a poll is one SELECT, and a
        pool checkout and return (with its reset) cost as much as the query.

        On PostgreSQL its commits do not wait for the disk (``synchronous_commit`` off
        for this connection only): what it writes is idempotency bookkeeping — a claim
        (visible to every other session the moment it commits, which is what a
        concurrent retry's 409 needs), a release, a purge. A crash may lose the last of
        those, which only frees a key for its retry; a write that completes a claimed key
        commits synchronously, and that flushes the claim before it (the log is one
        sequence). So an append waits for the disk once, not twice."""
        return _Alone(self, self._writers if write else None)

    def _reader(self) -> Any:
        """This thread's connection for :meth:`_alone` (made on first use)."""
        engine = self.engine
        connection = getattr(self._readers, "connection", None)
        if connection is None or self._readers.engine is not engine:
            connection = engine.raw_connection()
            if engine.dialect.name == "postgresql":
                driver: Any = connection.driver_connection
                # Never back to the pool as it is made here: closed, it closes (and so
                # it does when its thread ends: _ClosedWithItsThread). Given to a
                # transaction, its autocommit would commit statement by statement, and
                # not wait for the disk. (SQLite's connections all leave transactions to
                # the store: any may be pooled.)
                connection.detach()
                self._readers.closer = _ClosedWithItsThread(connection)
                driver.autocommit = True
                driver.execute("SET synchronous_commit = off")
            self._readers.connection, self._readers.engine = connection, engine
            # SQLite: the heads polls found, while PRAGMA data_version says the same
            self._readers.polls, self._readers.data_version = {}, None
        return connection

    def _polls(self, cursor: Any) -> dict[tuple[str, str], tuple[Head, float]] | None:
        """On a SQLite file, the heads this thread's polls found (with the table's last
        activity) while nothing was committed since: SQLite's ``PRAGMA data_version``
        changes on this connection whenever any other connection, of any process, commits
        to the database (this one only writes idempotency keys, which no head reads).
        Emptied when it changes. None on PostgreSQL, which has no such counter, and on an
        in-memory database, whose one connection makes every write."""
        if self._writers is None:  # not a SQLite file
            return None
        cursor.execute("PRAGMA data_version")
        (data_version,) = cursor.fetchone()
        readers = self._readers
        if data_version != readers.data_version or len(readers.polls) >= POLLS_KEPT:
            readers.polls, readers.data_version = {}, data_version
        polls: dict[tuple[str, str], tuple[Head, float]] = readers.polls
        return polls

    def _dead(self, error: BaseException, connection: Any) -> bool:
        """Whether ``error`` left ``connection`` (the pool's) unusable, by the dialect's own
        test: a server that dropped it, a closed SQLite connection. Not every operational
        error: "database is locked", a deadlock or a serialization failure leave the
        connection as good as before (and the thread's kept polls with it)."""
        dialect = self.engine.dialect
        dbapi: Any = dialect.dbapi
        return isinstance(error, dbapi.Error) and dialect.is_disconnect(
            error, connection.dbapi_connection, None
        )

    def _integrity_error(self) -> type[Exception]:
        error: type[Exception] = self.engine.dialect.dbapi.IntegrityError  # type: ignore[union-attr]
        return error

    # --- reads -------------------------------------------------------------------------

    def ping(self) -> None:
        """One ``SELECT 1`` on this thread's connection for reads: the least any read of
        the ledger costs (a round trip to PostgreSQL). bench.tables measures it beside
        /healthz, as the floor under a poll."""
        with self._alone() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    def active_since(self) -> float:
        """The time a table's last event must be at or after for the table to exist."""
        return -1.0 if self.idle_seconds is None else self.clock() - self.idle_seconds

    def head(self, table_id: str, *, token_hash: str = "", known: int = -1) -> Head | None:
        """The table's version, summary and its token with ``token_hash`` (one query, one
        index lookup however many tokens the table has); None if there is no such table
        (or it is idle past the TTL). If the table is at version ``known`` the summary is
        not read (it is ""): a poll that will answer 304 does not need it, and on
        PostgreSQL it is a compressed value of kilobytes to fetch and decode.

        On SQLite a poll that names the version (``known``) is answered from the head an
        earlier poll found, the same row, as long as nothing was committed to the database
        since (:meth:`_polls`) and the table is not idle past the TTL."""
        since = self.active_since()
        with self._alone() as cursor:
            polls = self._polls(cursor) if known >= 0 else None
            if polls is not None:
                found = polls.get((table_id, token_hash))
                if found is not None and found[0].version == known and found[1] >= since:
                    return found[0]
            names = {"id": table_id, "hash": token_hash, "since": since, "known": known}
            cursor.execute(self._sql(_HEAD), names)
            row = cursor.fetchone()
        if row is None:
            return None
        (
            version,
            join_code,
            summary,
            hash_,
            role,
            label,
            public_id,
            created_at,
            active_at,
            last_at,
        ) = row
        token = None
        if hash_ is not None:  # the outer join found the token
            token = TokenRow(
                hash=hash_, role=role, label=label, token_id=public_id, created_at=created_at
            )
        head = Head(
            id=table_id,
            version=version,
            join_code=join_code,
            summary=summary,
            token=token,
            last_at=last_at,
        )
        if polls is not None and token is not None and version == known:
            polls[table_id, token_hash] = (head, active_at)
        return head

    def tokens(self, table_id: str) -> tuple[TokenRow, ...]:
        """Every token of a table, oldest first."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_TOKENS), {"id": table_id})
            rows = cursor.fetchall()
        return tuple(
            TokenRow(hash=r[0], role=r[1], label=r[2], token_id=r[3], created_at=r[4]) for r in rows
        )

    def table_of_code(self, join_code: str) -> str | None:
        """The id of the table with this join code, unless it is idle past the TTL."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_BY_CODE), {"code": join_code, "since": self.active_since()})
            row = cursor.fetchone()
        return None if row is None else str(row[0])

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

    def event_kinds(self, table_id: str, *, upto: int) -> list[tuple[str, int | None]]:
        """Each event's ``(type, number)`` with ``seq ≤ upto``, in order: the log without
        its bodies, reasons and times (what deriving the hand of each event reads)."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_EVENT_KINDS), {"id": table_id, "upto": upto})
            return [(r[0], r[1]) for r in cursor.fetchall()]

    def hand_items(self, table_id: str, *, after: int = 0) -> list[str]:
        """The derived item of each hand numbered past ``after``, in order (JSON text)."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_HAND_ITEMS), {"id": table_id, "after": after})
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
        later: Sequence[EventRow] = (),
        hand_items: Sequence[str] = (),
    ) -> bool:
        """Insert a new table with its first event and tokens, and complete the
        idempotency record ``answer`` (scope, key, status, response), in one transaction;
        False if the join code is taken (draw another). An imported table comes with its
        ``later`` events and the derived items of its hands."""
        try:
            with self._transaction() as cursor:
                cursor.execute(
                    self._sql(_INSERT_TABLE),
                    {
                        "id": table_id,
                        "version": later[-1].seq if later else event.seq,
                        "join_code": join_code,
                        "created_at": created_at,
                        "active_at": created_at,
                        "last_at": (later[-1] if later else event).at,
                        "summary": summary,
                    },
                )
                cursor.executemany(
                    self._sql(_INSERT_EVENT), [event_params(table_id, e) for e in (event, *later)]
                )
                self._put_hands(cursor, table_id, 1, hand_items, replace=False)
                self._insert_tokens(cursor, table_id, tokens)
                if answer is not None:
                    self._finish(cursor, *answer)
        except self._integrity_error():
            return False
        return True

    def add_tokens(
        self,
        table_id: str,
        tokens: Sequence[TokenRow],
        *,
        most: int,
        rename: bool,
        answer: tuple[str, str, int, str] | None = None,
    ) -> Added:
        """More tokens for a table (a replayed create mints fresh ones, a join one, a mint
        one), and the idempotency record ``answer`` completed, in one transaction.

        Nothing is added (``state``) if the table is ``gone`` (deleted, or idle past the
        TTL), if it would hold more than ``most`` tokens (``too_many``), or if a label is
        taken by another of its tokens (``label_taken``) — unless ``rename``: then the
        label gets the first free suffix, " (2)", " (3)", …"""
        with self._transaction() as cursor:
            # The table's row is locked first: two requests cannot both take the last
            # place or the same label.
            cursor.execute(self._sql(_LOCK_ACTIVE), {"id": table_id, "since": self.active_since()})
            if cursor.rowcount != 1:
                return Added(state="gone")
            cursor.execute(self._sql(_TOKEN_LABELS), {"id": table_id})
            taken = {row[0] for row in cursor.fetchall()}
            if len(taken) + len(tokens) > most:
                return Added(state="too_many")
            stored = []
            for token in tokens:
                label = free_label(token.label, taken)
                if label != token.label and not rename:
                    read = folded(token.label)
                    clash = next(other for other in taken if folded(other) == read)
                    return Added(state="label_taken", taken=clash)
                taken.add(label)
                stored.append(replace(token, label=label))
            self._insert_tokens(cursor, table_id, stored)
            if answer is not None:
                self._finish(cursor, *answer)
        return Added(state="added", tokens=tuple(stored))

    def rekey(self, table_id: str, *, token_id: str, token_hash: str) -> TokenRow | None:
        """Give a token of the table a new secret (its id, role and label stay): the token
        as it is now, or None if the table has no such token."""
        names = {"id": table_id, "public_id": token_id, "hash": token_hash}
        with self._transaction() as cursor:
            cursor.execute(self._sql(_REKEY), names)
            if cursor.rowcount != 1:
                return None
            cursor.execute(self._sql(_TOKEN), names)
            role, label, created_at = cursor.fetchone()
        return TokenRow(
            hash=token_hash, role=role, label=label, token_id=token_id, created_at=created_at
        )

    def _insert_tokens(self, cursor: Any, table_id: str, tokens: Iterable[TokenRow]) -> None:
        rows = [token_params(table_id, t, clock=self.clock) for t in tokens]
        if rows:
            cursor.executemany(self._sql(_INSERT_TOKEN), rows)

    def revoke(self, table_id: str, token_id: str) -> str:
        """Delete a token: ``revoked``, ``unknown`` (no such token at this table),
        ``last_scorer`` (it is the table's only scorer token: kept, so that someone can
        still write, close and delete the table) or ``gone`` (the table has no tokens: it
        was deleted)."""
        with self._transaction() as cursor:
            # The table's row is locked first: two revokes of its last two scorer tokens
            # cannot both see the other one.
            cursor.execute(self._sql(_LOCK_TABLE), {"id": table_id})
            cursor.execute(self._sql(_TOKEN_ROLES), {"id": table_id})
            roles = dict(cursor.fetchall())
            if not roles:  # a table keeps a scorer token
                return "gone"
            if token_id not in roles:
                return "unknown"
            if roles[token_id] == "scorer" and list(roles.values()).count("scorer") == 1:
                return "last_scorer"
            cursor.execute(self._sql(_DELETE_TOKEN), {"id": table_id, "public_id": token_id})
        return "revoked"

    def delete_table(self, table_id: str, *, expected: int) -> bool:
        """Delete everything about a table — events, hands, tokens, idempotency records —
        in one transaction; False (nothing deleted) if it is not at version ``expected``."""
        with self._transaction() as cursor:
            cursor.execute(
                self._sql(_LOCK_AT_VERSION),
                {"id": table_id, "expected": expected, "since": self.active_since()},
            )
            if cursor.rowcount != 1:
                return False
            self._erase(cursor, table_id)
        return True

    def purge_idle(self) -> int:
        """Delete every table idle past the TTL (as :meth:`delete_table` does); how many."""
        if self.idle_seconds is None:
            return 0
        since = self.active_since()
        with self._alone() as cursor:
            cursor.execute(self._sql(_IDLE_TABLES), {"since": since})
            idle = [row[0] for row in cursor.fetchall()]
        purged = 0
        for table_id in idle:
            with self._transaction() as cursor:
                # Locked and checked again: a write since the list was read keeps it.
                cursor.execute(self._sql(_LOCK_IDLE), {"id": table_id, "since": since})
                if cursor.rowcount == 1:
                    self._erase(cursor, table_id)
                    purged += 1
        return purged

    def _erase(self, cursor: Any, table_id: str) -> None:
        for statement in _ERASE:
            cursor.execute(self._sql(statement), {"id": table_id})

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
                        "active_at": self.clock(),
                        "last_at": events[-1].at,
                    },
                )
                # Sent before the version's answer is read (one round trip for all): if
                # the table moved on, its event ``expected + 1`` exists and the insert
                # fails (the key of the log), and nothing is committed either way.
                cursor = moved.connection.cursor()
                cursor.executemany(
                    self._sql(_INSERT_EVENT), [event_params(table_id, e) for e in events]
                )
                self._put_hands(cursor, table_id, hands_from, hand_items, replace=replace)
                if answer is not None:
                    self._finish(cursor, *answer)
                if self.engine.dialect.name == "postgresql":
                    # The COMMIT rides in the same round trip. It cannot commit a write
                    # made on a version the table has left: then the event's insert
                    # failed (its key exists — versions are event numbers — or the table
                    # is gone: the foreign key), the server skips what follows until the
                    # sync, and the transaction is rolled back. Then the context's own
                    # commit finds nothing left to do.
                    cursor.execute("COMMIT")
                sync()
                if moved.rowcount != 1:  # SQLite, before its commit; PostgreSQL: see above
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

    def replace_derived(
        self,
        table_id: str,
        *,
        summary: str,
        hand_items: Sequence[str],
        version: int | None = None,
    ) -> bool:
        """Rewrite every derived row of a table (a rebuild from its events), only while it
        is at ``version`` if given; whether it was rewritten (a write since: no, and that
        write derived the rows itself)."""
        with self._transaction() as cursor:
            if version is None:
                cursor.execute(self._sql(_SET_SUMMARY), {"id": table_id, "summary": summary})
            else:
                names = {"id": table_id, "summary": summary, "version": version}
                cursor.execute(self._sql(_SET_SUMMARY_AT), names)
                if cursor.rowcount != 1:
                    return False
            self._put_hands(cursor, table_id, 1, hand_items, replace=True)
        return True

    def table_ids(self) -> list[str]:
        """The id of every table stored (idle ones too), in order."""
        with self._alone() as cursor:
            cursor.execute(self._sql(_TABLE_IDS), {})
            return [str(row[0]) for row in cursor.fetchall()]

    def delete_derived(self, table_id: str) -> None:
        """Forget a table's derived rows (its hands' items and its summary)."""
        with self._transaction() as cursor:
            cursor.execute(self._sql(_SET_SUMMARY), {"id": table_id, "summary": "{}"})
            self._put_hands(cursor, table_id, 1, (), replace=True)

    # --- idempotency -------------------------------------------------------------------

    def claim(
        self,
        *,
        scope: str,
        key: str,
        request_hash: str,
        now: float,
        deadline: float,
        also: str | None = None,
    ) -> Claim:
        """Claim ``key`` for a request whose hash is ``request_hash`` (stored), or ``also``
        (another hash of the same request, found as well). An in-flight record older than
        ``deadline`` seconds was abandoned (its worker died): this request takes it over."""
        other = request_hash if also is None else also
        names = {"scope": scope, "key": key, "hash": request_hash, "also": other, "now": now}
        try:
            with self._alone(write=True) as cursor:
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
                scope=scope,
                key=key,
                request_hash=request_hash,
                now=now,
                deadline=deadline,
                also=also,
            )
        stored_hash, done, status, response = row
        if stored_hash not in (request_hash, other):
            return Claim(state="mismatch")
        if done:
            return Claim(state="replay", status=status, response=response)
        return Claim(state="in_flight")

    def purge_keys(self, *, scope: str, now: float) -> None:
        """Forget a scope's idempotency records older than the ≥ 24 h they are kept."""
        with self._alone(write=True) as cursor:
            cursor.execute(
                self._sql(_PURGE_KEYS), {"scope": scope, "before": now - KEEP_KEYS_SECONDS}
            )

    def release(self, *, scope: str, key: str) -> None:
        """Give up a claim (the request was refused: the key may be used again)."""
        with self._alone(write=True) as cursor:
            cursor.execute(self._sql(_RELEASE_KEY), {"scope": scope, "key": key})

    def _finish(self, cursor: Any, scope: str, key: str, status: int, response: str) -> None:
        cursor.execute(
            self._sql(_FINISH_KEY),
            {"scope": scope, "key": key, "status": status, "response": response},
        )


class _ClosedWithItsThread:
    """Closes a thread's detached read connection when the thread ends (its thread-local
    values are dropped): without it the connection would be closed only by the garbage
    collector, which warns (ResourceWarning: deleted while still open)."""

    __slots__ = ("connection",)

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def __del__(self) -> None:
        with suppress(Exception):  # already closed, or invalidated as dead: nothing to do
            self.connection.close()


class _Moved(Exception):  # noqa: N818 - a signal inside Store.write, never raised out
    """The table was no longer at the expected version: roll the write back."""
