"""The time of each table's last event, read with its version: a write stamps its event
no earlier (instances' clocks differ; NTP steps one back), so a log's times never go back.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column, filled with the latest time of each table's events (ISO 8601 UTC
    times, which sort as text)."""
    op.add_column(
        "ledger_tables",
        sa.Column("last_at", sa.String(32), nullable=False, server_default=""),
    )
    op.get_bind().execute(
        sa.text(
            "UPDATE ledger_tables SET last_at = COALESCE((SELECT MAX(e.at) FROM ledger_events e "
            "WHERE e.table_id = ledger_tables.id), '')"
        )
    )


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("ledger_tables") as batch:
        batch.drop_column("last_at")
