"""The records the store reads and writes, each built by name: a table's head, its
events and tokens as stored, an idempotency key's claim, what adding tokens did."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field


def new_token_id() -> str:
    """A token's public id: random, 12 characters, unrelated to its secret."""
    return secrets.token_urlsafe(9)


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenRow:
    """A token that opens a table: its sha256 hex digest, role and label; ``token_id``
    names it in the API (never the secret); ``created_at`` is set by the store."""

    hash: str
    role: str  # scorer | viewer
    label: str
    token_id: str = field(default_factory=new_token_id)
    created_at: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Head:
    """What every request reads first: the version, the derived summary and the token
    asked about (None: no token of this table has that hash). ``summary`` is empty when
    the table is at the version the reader said it knows
    (:meth:`calculator.store.store.Store.head`); ``last_at`` is the time of the table's
    last event (the event of ``version``)."""

    id: str
    version: int
    join_code: str
    summary: str
    token: TokenRow | None
    last_at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EventRow:
    """One event as stored (``body`` is JSON text, or None)."""

    seq: int
    type: str
    by: str
    at: str
    number: int | None = None
    body: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """The state of an idempotency key after a request claims it.

    ``state`` is ``new`` (this request owns the key), ``replay`` (done before: ``status``
    and ``response`` are the stored answer), ``mismatch`` (used with another request) or
    ``in_flight`` (another request holds it).
    """

    state: str
    status: int | None = None
    response: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Added:
    """What :meth:`calculator.store.store.Store.add_tokens` did: ``state`` is ``added``
    (``tokens`` as stored, labels made unique), ``gone``, ``too_many`` or ``label_taken``."""

    state: str
    tokens: tuple[TokenRow, ...] = ()
    taken: str | None = None
    """``label_taken``: the label of the table's token that the new one reads as."""
