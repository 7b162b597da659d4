"""No change to the schema: a fence. From this revision a table's ``created`` event may
carry its ``dealer_rule`` (calculator/ledger/events.py, 2026-12-05), which a release
before ignores — it would derive such a table's dealers, and so its money, by the old
rule (a correction or a rebuild made by it would move the table's amounts). A release
before knows no revision 0005: ``alembic upgrade head`` refuses this database with
"Can't locate revision", so such a release does not start on it (migrating at start, as
it does by default) or fails at its first use of it.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change: the revision itself is the fence."""


def downgrade() -> None:
    """Nothing to undo (a downgrade past it lets older releases in again: first make sure
    no table was created with a dealer rule they would not read)."""
