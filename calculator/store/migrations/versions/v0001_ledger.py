"""The ledger: tables, events, derived hands, tokens, idempotency records.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the ledger's tables."""
    op.create_table(
        "ledger_tables",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("join_code", sa.String(8), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
    )
    op.create_table(
        "ledger_events",
        sa.Column("table_id", sa.String(36), sa.ForeignKey("ledger_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("type", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=True),
        sa.Column("body", sa.Text, nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_table(
        "ledger_hands",
        sa.Column("table_id", sa.String(36), sa.ForeignKey("ledger_tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("item", sa.Text, nullable=False),
    )
    op.create_table(
        "ledger_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(36), sa.ForeignKey("ledger_tables.id"), nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
    )
    op.create_index("ix_ledger_tokens_table_id", "ledger_tokens", ["table_id"])
    op.create_table(
        "ledger_idempotency",
        sa.Column("scope", sa.String(36), primary_key=True),
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("done", sa.Boolean, nullable=False),
        sa.Column("status", sa.Integer, nullable=True),
        sa.Column("response", sa.Text, nullable=True),
    )
    op.create_index("ix_ledger_idempotency_created_at", "ledger_idempotency", ["created_at"])


def downgrade() -> None:
    """Drop them."""
    for name in (
        "ledger_idempotency",
        "ledger_tokens",
        "ledger_hands",
        "ledger_events",
        "ledger_tables",
    ):
        op.drop_table(name)
