"""Access: when each table was last active (expiry), and a public id and minting time
for each token (the API lists and revokes tokens by that id, never by the secret).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import secrets
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns, filled from what an older database holds."""
    op.add_column(
        "ledger_tables",
        sa.Column("active_at", sa.Float, nullable=False, server_default=sa.text("0")),
    )
    op.create_index("ix_ledger_tables_active_at", "ledger_tables", ["active_at"])
    op.add_column(
        "ledger_tokens",
        sa.Column("public_id", sa.String(16), nullable=False, server_default=""),
    )
    op.add_column(
        "ledger_tokens",
        sa.Column("created_at", sa.Float, nullable=False, server_default=sa.text("0")),
    )
    connection = op.get_bind()
    # A table was last active when its last event was written (events store ISO 8601 UTC
    # times, which sort as text); a token was minted, at the latest, with its table.
    connection.execute(sa.text("UPDATE ledger_tables SET active_at = created_at"))
    last = connection.execute(
        sa.text("SELECT table_id, MAX(at) FROM ledger_events GROUP BY table_id")
    ).all()
    for table_id, at in last:
        try:
            active = datetime.fromisoformat(at).timestamp()
        except ValueError:  # not a time the service wrote: the creation time stays
            continue
        connection.execute(
            sa.text("UPDATE ledger_tables SET active_at = :at WHERE id = :id"),
            {"at": active, "id": table_id},
        )
    connection.execute(
        sa.text(
            "UPDATE ledger_tokens SET created_at = (SELECT t.created_at FROM ledger_tables t "
            "WHERE t.id = ledger_tokens.table_id)"
        )
    )
    for (token_id,) in connection.execute(sa.text("SELECT id FROM ledger_tokens")).all():
        connection.execute(
            sa.text("UPDATE ledger_tokens SET public_id = :public WHERE id = :id"),
            {"public": secrets.token_urlsafe(9), "id": token_id},
        )


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("ledger_tokens") as batch:
        batch.drop_column("created_at")
        batch.drop_column("public_id")
    op.drop_index("ix_ledger_tables_active_at", "ledger_tables")
    with op.batch_alter_table("ledger_tables") as batch:
        batch.drop_column("active_at")
