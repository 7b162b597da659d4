"""A table's tokens: minting one (its secret shown once, its hash stored), giving a
replayed join or mint a fresh secret, and storing more for a table within
:data:`MAX_TOKENS`.

Siblings: :mod:`calculator.api.table_access` checks the bearer token a request sends;
:mod:`calculator.api.table_etags` the versions it names; :mod:`calculator.api.idempotency_keys`
its Idempotency-Key.
"""

from __future__ import annotations

import hashlib
import secrets

from werkzeug.exceptions import Conflict, NotFound

from calculator.api.http import coded
from calculator.store import Store, TokenRow

MAX_TOKENS = 100  # live tokens per table: a table is a handful of phones


def token_hash(token: str) -> str:
    """How a token is stored: its sha256 (tokens are 192-bit random: no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_secret() -> str:
    """A token's secret: 192 random bits, URL-safe (shown once, stored as its hash)."""
    return secrets.token_urlsafe(24)


def mint(role: str, *, label: str | None = None) -> tuple[str, TokenRow]:
    """A new token (shown once) and the row that stores its hash; labelled with its role
    unless ``label`` is given (events name their writer by it)."""
    token = new_secret()
    return token, TokenRow(hash=token_hash(token), role=role, label=label or role)


def rekeyed(store: Store, table_id: str, token_id: str) -> tuple[str, TokenRow]:
    """The answer to a replayed join or mint: no token is minted again; the token the
    first request minted gets a fresh secret (a secret is never stored to be answered
    again, so the first answer's secret then opens nothing), as ``(secret, row)``; a 404
    ``unknown_token`` if it was revoked. (A replayed create or import mints instead:
    :func:`calculator.api.table_writes.created_once` says why.)"""
    secret = new_secret()
    row = store.rekey(table_id, token_id=token_id, token_hash=token_hash(secret))
    if row is None:
        raise coded(
            NotFound(
                "the token this Idempotency-Key minted was revoked; send the request "
                "again with a new key"
            ),
            "unknown_token",
        )
    return secret, row


def add_tokens(
    store: Store,
    table_id: str,
    tokens: tuple[TokenRow, ...],
    *,
    rename: bool,
    answer: tuple[str, str, int, str] | None = None,
) -> tuple[TokenRow, ...]:
    """Store more tokens for a table (at most :data:`MAX_TOKENS` in all), as stored — a
    taken label made unique if ``rename``, else a 409; 404 if the table is gone."""
    added = store.add_tokens(table_id, tokens, most=MAX_TOKENS, rename=rename, answer=answer)
    if added.state == "gone":
        raise coded(NotFound("the table was deleted or expired"), "unknown_table")
    if added.state == "too_many":
        raise coded(
            Conflict(
                f"the table has too many tokens (at most {MAX_TOKENS}); the scorer can "
                "revoke the ones no longer used (GET and DELETE /v1/tables/{id}/tokens)"
            ),
            "too_many_tokens",
        )
    if added.state == "label_taken":
        asked = ", ".join(repr(t.label) for t in tokens)
        held = repr(added.taken)
        said = asked if held == asked else f"{held}, which reads as {asked}"
        raise coded(
            Conflict(
                f"another token of the table is labelled {said}: events name their "
                "writer by the label, so choose another (or revoke that token first)"
            ),
            "label_taken",
            "/label",  # the body's: only a mint keeps a label as given (not ``rename``)
        )
    return added.tokens
