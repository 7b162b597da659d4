"""Storage of the table ledger: SQLAlchemy 2 (Core) on SQLite or PostgreSQL, Alembic
migrations, one transaction per write (SPEC §9).

The store keeps what it is given — event rows, derived JSON text, token hashes,
idempotency records — and knows nothing of Go-Stop: the ledger's rules are in
:mod:`calculator.ledger`, the mapping to and from the wire in :mod:`calculator.api.tables`.

Concurrency is the database's job, never a per-process cache's: every write is one
transaction that starts with a compare-and-set of the table's version
(``UPDATE … WHERE version = :expected``), and the event log's primary key
``(table_id, seq)`` refuses a second event with the same number. Idempotency keys are
claimed with an ``INSERT`` that only one request can win.
"""

from calculator.store.connections import DEFAULT_URL, with_driver
from calculator.store.rows import Added, Claim, EventRow, Head, TokenRow
from calculator.store.store import Store

__all__ = [
    "DEFAULT_URL",
    "Added",
    "Claim",
    "EventRow",
    "Head",
    "Store",
    "TokenRow",
    "with_driver",
]
