"""The connections of the store: the engine for a database URL (SQLite files get WAL, a
busy timeout and foreign keys), the turns SQLite writes take (:class:`_Writers`), and the
connection each thread keeps for statements that run on their own (:class:`_Alone`)."""

from __future__ import annotations

import fcntl
import os
import threading
import time
import weakref
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    from calculator.store.store import Store


DEFAULT_URL = "sqlite:///gostop.sqlite3"
BUSY_TIMEOUT_MS = 5_000  # below the request deadline: a waiting write never outlives its key
# How long a SQLite write waits for its turn (_Writers) before it goes on without it, where
# SQLite's busy timeout applies: one statement waits 7.5 s at most, below the deadline.
TURN_WAIT_SECONDS = 2.5


def with_driver(url: str) -> str:
    """``url``, naming the PostgreSQL driver the service installs (psycopg 3) when it
    names none: hosting services hand out ``postgresql://`` and ``postgres://`` URLs, for
    which SQLAlchemy would load psycopg2 (not installed) or know no dialect at all."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url


def _sqlite_path(url: str) -> str | None:
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    return parsed.database or ""


def _sqlite_file(url: str) -> str | None:
    """The file of a SQLite database named by its path; None for anything else: another
    database, an in-memory one, or one named by a ``file:`` URI (``uri=true``), which may
    be in memory too (``mode=memory``) — those get no turns and keep no polls."""
    path = _sqlite_path(url)
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    if sa.engine.make_url(url).query.get("uri") in ("true", "1"):
        return None
    return path


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


class _Writers:
    """The turn of a write to a SQLite file: the write transactions of its processes (and
    of their threads) take turns by an ``flock`` of a lock file beside the database
    (``<file>.lock``, which migrations hold while they run) instead of meeting in SQLite's
    own lock.

    SQLite makes a writer that finds the database locked sleep and try again — its busy
    handler sleeps 1 ms, then 2, 5, 10… — while the other write takes ~0.1 ms; with two
    workers appending, most appends slept at least once (bench/RESULTS.md, tenth
    session). Here a waiting write tries again after 50 µs, doubling up to 1 ms (not
    first come, first served: a bounded wait, not a queue). It waits
    :data:`TURN_WAIT_SECONDS` at most and then goes on without its turn, as it does when
    the lock file cannot be opened: SQLite's lock and busy timeout still decide, so nothing
    depends on this lock but speed. A killed process's turn ends with it (the kernel drops
    its ``flock``).

    Each process opens the file itself: an ``flock`` belongs to the open file, which a
    fork shares, so a forked child closes its copy (:meth:`_forked`; the parent's turn
    stays the parent's) and opens its own. Threads of a process take turns by a mutex
    first."""

    __slots__ = ("__weakref__", "_fd", "_mutex", "_opening", "_path", "_turn_fd")

    def __init__(self, path: str) -> None:
        self._path = path
        self._fd = -1  # opened on the first write
        self._turn_fd = -1  # the file the current turn locked
        self._mutex = threading.Lock()  # a turn within this process
        self._opening = threading.Lock()
        _ALL_WRITERS.add(self)

    def wait(self) -> bool:
        """Wait for this write's turn: True once it has it (end it with :meth:`done`),
        False without it (after :data:`TURN_WAIT_SECONDS`, or no lock file)."""
        deadline = time.monotonic() + TURN_WAIT_SECONDS
        if not self._mutex.acquire(timeout=TURN_WAIT_SECONDS):
            return False  # another thread's write is stuck: go on without a turn
        turn, pause = False, 0.00005
        try:
            fd = self._open()
            while not turn and fd >= 0:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    turn = True
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        break
                    time.sleep(pause)
                    pause = min(pause * 2, 0.001)
        finally:
            if turn:
                self._turn_fd = fd
            else:
                self._mutex.release()
        return turn

    def done(self) -> None:
        """End the turn :meth:`wait` gave."""
        try:
            with self._opening:  # not closed meanwhile (close() closing it ends the lock)
                if self._turn_fd >= 0 and self._turn_fd == self._fd:
                    fcntl.flock(self._turn_fd, fcntl.LOCK_UN)
        finally:
            self._turn_fd = -1
            self._mutex.release()

    def close(self) -> None:
        """Close the lock file (the next write opens it again)."""
        with self._opening:
            fd, self._fd = self._fd, -1
        if fd >= 0:
            os.close(fd)

    def _open(self) -> int:
        """The lock file's descriptor, opened on first use; -1 if it cannot be."""
        with self._opening:
            if self._fd < 0:
                try:  # read-only is enough to lock it, whoever made it
                    self._fd = os.open(self._path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
                except OSError:
                    return -1  # no turns, then: SQLite alone decides
            return self._fd

    def _forked(self) -> None:
        """In a forked child: drop the parent's open file and mutex."""
        fd, self._fd, self._turn_fd = self._fd, -1, -1
        self._mutex, self._opening = threading.Lock(), threading.Lock()
        if fd >= 0:
            with suppress(OSError):
                os.close(fd)  # the parent's lock is not released: it keeps its own copy


_ALL_WRITERS: weakref.WeakSet[_Writers] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for writers in list(_ALL_WRITERS):
        writers._forked()


os.register_at_fork(after_in_child=_after_fork_in_child)


class _Alone:
    """:meth:`calculator.store.store.Store._alone`: a class rather than a generator-based
    context manager, which costs more on every poll (a generator, contextlib's helper and
    its frames)."""

    __slots__ = ("_connection", "_cursor", "_store", "_turn", "_writers")

    def __init__(self, store: Store, writers: _Writers | None) -> None:
        self._store = store
        self._writers = writers
        self._turn = False

    def __enter__(self) -> Any:
        self._turn = self._writers is not None and self._writers.wait()
        self._connection = None
        try:
            self._connection = self._store._reader()
            # the driver's own cursor, as the pool's connection would make it (without
            # its Python-level call: this runs on every poll)
            self._cursor = self._connection.dbapi_connection.cursor()
        except BaseException as error:
            try:
                self._drop_if_dead(error)  # a connection closed under us gives no cursor
            finally:
                self._end_turn()
            raise
        return self._cursor

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, *_rest: object
    ) -> None:
        try:
            self._cursor.close()  # first: a cursor of an invalidated connection can't close
        finally:
            try:
                if error is not None:
                    self._drop_if_dead(error)
            finally:
                self._end_turn()

    def _drop_if_dead(self, error: BaseException) -> None:
        """A connection that ``error`` left dead is never used again: this thread's next
        read opens another."""
        connection = self._connection
        if connection is not None and self._store._dead(error, connection):
            self._store._readers.connection = None
            connection.invalidate()

    def _end_turn(self) -> None:
        if self._turn and self._writers is not None:
            self._turn = False
            self._writers.done()
