"""The values the store's INSERTs write, built by name from its records
(:mod:`calculator.store.rows`): an event's (:func:`event_params`), a token's
(:func:`token_params`), and the label a new token is stored under (:func:`free_label`: a
table's labels read apart). :class:`calculator.store.store.Store` sends them with the SQL
of :mod:`calculator.store.sql`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from calculator.names import folded
from calculator.store.rows import EventRow, TokenRow

LABEL_LENGTH = 64  # ledger_tokens.label, and the events' "by" that copies it
"""The most characters a token's label holds (the column's length)."""


def free_label(label: str, taken: set[str]) -> str:
    """``label``, or with the first suffix that makes it unique among ``taken`` as a
    reader tells labels apart (:func:`calculator.names.folded`: in any case or width)."""
    read = {folded(other) for other in taken}
    found, n = label, 1
    while folded(found) in read:
        n += 1
        suffix = f" ({n})"
        found = label[: LABEL_LENGTH - len(suffix)] + suffix
    return found


def event_params(table_id: str, event: EventRow) -> Mapping[str, Any]:
    """The values of an event's row in ``ledger_events``."""
    return {
        "table_id": table_id,
        "seq": event.seq,
        "type": event.type,
        "number": event.number,
        "body": event.body,
        "reason": event.reason,
        "by": event.by,
        "at": event.at,
    }


def token_params(table_id: str, token: TokenRow, *, clock: Callable[[], float]) -> dict[str, Any]:
    """The values of a token's row in ``ledger_tokens``; stamped by ``clock`` when it
    has no ``created_at``."""
    return {
        "table_id": table_id,
        "hash": token.hash,
        "role": token.role,
        "label": token.label,
        "public_id": token.token_id,
        "created_at": token.created_at or clock(),
    }
