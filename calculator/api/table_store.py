"""The table store's lifecycle: opened from the settings and migrated as the app starts,
with the app's cache of ledgers (:func:`init_store`); reached from a request (``_store``,
``_cache``; the bench's ``/database`` floor); and the ``gostop db`` commands (upgrade,
purge, rebuild), which open it outside the app."""

from __future__ import annotations

import sqlalchemy
from flask import Flask, Response, current_app

from calculator.api import derived_rows, ledger_cache
from calculator.api.config import Settings, SettingsError
from calculator.api.http import json_response
from calculator.api.views import bench
from calculator.errors import GoStopError
from calculator.store import DEFAULT_URL, Store, with_driver


def open_store(settings: Settings) -> Store:
    """The store the settings name: its database, and the TTL of idle tables."""
    days = settings.table_ttl_days
    if days < 0:
        raise SettingsError(
            f"GOSTOP_TABLE_TTL_DAYS is {str(days)!r}: give 0 (tables never expire) or more"
        )
    url = with_driver(settings.database_url or DEFAULT_URL)
    try:
        backend = sqlalchemy.engine.make_url(url).get_backend_name()
    except sqlalchemy.exc.ArgumentError:
        backend = None  # not a URL (said without its text: it may hold a password)
    if backend not in ("sqlite", "postgresql"):
        raise SettingsError(
            "GOSTOP_DATABASE_URL is not a database the service runs on: give "
            "sqlite:///path/to/file.sqlite3 or postgresql+psycopg://user:password@host/db"
        )
    return Store(url, idle_seconds=days * 86400 if days else None)


def init_store(app: Flask) -> Store:
    """Open the app's store and migrate it (the default: a SQLite file, created here)."""
    settings = app.config["GOSTOP"]
    store = open_store(settings)
    if settings.migrate_on_start:
        store.ready()
    app.extensions["gostop_store"] = store
    app.extensions["gostop_ledgers"] = ledger_cache.LedgerCache(
        deadline_seconds=settings.request_deadline
    )
    return store


def upgrade_database() -> str:
    """``gostop db upgrade``: migrate the configured database; its URL, password hidden."""
    import sqlalchemy

    store = open_store(Settings.load())
    store.migrate()
    return sqlalchemy.engine.make_url(store.url).render_as_string(hide_password=True)


def purge_database() -> int:
    """``gostop db purge``: delete every table idle past GOSTOP_TABLE_TTL_DAYS; how many."""
    store = open_store(Settings.load())
    store.ready()
    try:
        return store.purge_idle()
    finally:
        store.dispose()


def rebuild_database() -> tuple[int, dict[str, str]]:
    """``gostop db rebuild``: derive every table's rows (summary, hands) again from its
    events, with this release's rules; how many tables were rewritten, and the tables
    whose events these rules refuse (id → why: their rows are left as they were). For
    after an upgrade that changed how rows are derived (run it with the service stopped:
    a running instance keeps the ledgers it holds until it restarts)."""
    store = open_store(Settings.load())
    store.ready()
    rebuilt, refused = 0, {}
    try:
        for table_id in store.table_ids():
            try:
                rebuilt += derived_rows.rebuild_derived(store, table_id)
            except GoStopError as error:
                refused[table_id] = "; ".join(issue.detail for issue in error.issues)
        return rebuilt, refused
    finally:
        store.dispose()


def _store() -> Store:
    store: Store = current_app.extensions["gostop_store"]
    store.ready()  # migrated at start, or now (an app built to write its document)
    return store


@bench.get("/database")
def get_database() -> Response:
    """Benchmark baseline (not part of the API): a small fixed JSON after one ``SELECT 1``
    on the store's connection for reads — the floor under a table poll (bench.tables)."""
    _store().ping()
    return json_response({"ok": True})


def _cache() -> ledger_cache.LedgerCache:
    cache: ledger_cache.LedgerCache = current_app.extensions["gostop_ledgers"]
    return cache
