"""Alembic migrations of the ledger's database (run by :func:`calculator.store.migrate`)."""
