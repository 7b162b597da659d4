"""The ledger's tables (SQLAlchemy Core): events are the truth, the rest is derived.

- ``ledger_tables``: one row per table — its ``version`` (the sequence number of its last
  event: the compare-and-set every write goes through), its join code, ``active_at`` (when
  its last event was written: a table idle past the TTL is gone), ``last_at`` (the ``at``
  of its last event: the next one is never before it, whatever the clock of the instance
  that writes it) and ``summary``, the derived part of ``GET /v1/tables/{id}`` without
  the hands (JSON text).
- ``ledger_events``: the append-only log; the primary key ``(table_id, seq)`` makes a
  second event with the same number impossible, whatever process writes it.
- ``ledger_hands``: derived, one row per hand: its item of the ``hands`` list (JSON text).
- ``ledger_tokens``: sha256 hashes of the tokens that open a table, with role, label
  (unique per table: events name their writer by it), the ``public_id`` the API names a
  token by (never the secret) and when it was minted.
- ``ledger_idempotency``: the answer of each write per ``(scope, key)``, kept ≥ 24 h.

Alembic migrations (``calculator/store/migrations``) create exactly these; a test compares
them.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

tables = sa.Table(
    "ledger_tables",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("join_code", sa.String(8), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("summary", sa.Text, nullable=False),
    # v0002; the server default only fills the rows of an older database while migrating
    sa.Column("active_at", sa.Float, nullable=False, server_default=sa.text("0")),
    sa.Index("ix_ledger_tables_active_at", "active_at"),
    # v0004, filled from the events of an older database while migrating
    sa.Column("last_at", sa.String(32), nullable=False, server_default=""),
)

events = sa.Table(
    "ledger_events",
    metadata,
    sa.Column("table_id", sa.String(36), sa.ForeignKey("ledger_tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("type", sa.String(16), nullable=False),
    sa.Column("number", sa.Integer, nullable=True),
    sa.Column("body", sa.Text, nullable=True),
    sa.Column("reason", sa.Text, nullable=True),
    sa.Column("by", sa.String(64), nullable=False),
    sa.Column("at", sa.String(32), nullable=False),
)

hands = sa.Table(
    "ledger_hands",
    metadata,
    sa.Column("table_id", sa.String(36), sa.ForeignKey("ledger_tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("item", sa.Text, nullable=False),
)

tokens = sa.Table(
    "ledger_tokens",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(36), sa.ForeignKey("ledger_tables.id"), nullable=False),
    sa.Column("role", sa.String(8), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("label", sa.String(64), nullable=False),
    # v0002 (the server defaults fill an older database's rows while migrating)
    sa.Column("public_id", sa.String(16), nullable=False, server_default=""),
    sa.Column("created_at", sa.Float, nullable=False, server_default=sa.text("0")),
    # v0003: a request's token is looked up by its hash (the index replaces one on
    # table_id alone, which it also serves)
    sa.Index("ix_ledger_tokens_table_id_hash", "table_id", "hash"),
)

idempotency = sa.Table(
    "ledger_idempotency",
    metadata,
    sa.Column("scope", sa.String(36), primary_key=True),
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("request_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("done", sa.Boolean, nullable=False),
    sa.Column("status", sa.Integer, nullable=True),
    sa.Column("response", sa.Text, nullable=True),
    sa.Index("ix_ledger_idempotency_created_at", "created_at"),
)
