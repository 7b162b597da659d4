"""Token lookup: a request's token is found by ``(table_id, hash)`` in one index lookup,
not by reading every token of the table.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Replace the index on table_id by one on (table_id, hash), which serves both."""
    op.create_index("ix_ledger_tokens_table_id_hash", "ledger_tokens", ["table_id", "hash"])
    op.drop_index("ix_ledger_tokens_table_id", "ledger_tokens")


def downgrade() -> None:
    """Back to the index on table_id."""
    op.create_index("ix_ledger_tokens_table_id", "ledger_tokens", ["table_id"])
    op.drop_index("ix_ledger_tokens_table_id_hash", "ledger_tokens")
