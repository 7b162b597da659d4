"""Alembic environment: migrate the connection :func:`calculator.store.migrate` hands over
(``config.attributes["connection"]``), or one opened from ``sqlalchemy.url``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from calculator.store.schema import metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as opened:
        _run(opened)
    engine.dispose()
