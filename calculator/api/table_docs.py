"""The OpenAPI descriptions the table endpoints share (SPEC §9): their request headers
(Idempotency-Key, If-Match, If-None-Match), query parameters and response headers, and the
problem each status means — said once here for the views of :mod:`calculator.api.tables`,
:mod:`calculator.api.table_members`, :mod:`calculator.api.sharing` and
:mod:`calculator.api.table_import`."""

from __future__ import annotations

from typing import Any

from calculator.api.idempotency_keys import MIN_SHARED_KEY, key_schema
from calculator.api.query_schemas import ANSWER_LANGS
from calculator.api.table_schemas import NoFieldsSchema
from calculator.ledger import MAX_EVENTS, MAX_REPLAY_COST

_TOKEN = {"schema": {"type": "string"}}
_ETAG = {"ETag": {"schema": {"type": "string"}, "description": 'The table version: "N"'}}
# The Idempotency-Key of a create, an import or a join: keys in one scope for everyone,
# long enough not to be guessed (idempotency_keys.idempotency_key(shared=True)).
SHARED_KEY_SCHEMA = key_schema(MIN_SHARED_KEY)
_WRITE_HEADERS = [
    {
        "name": "Idempotency-Key",
        "in": "header",
        "required": True,
        "schema": key_schema(),
        "description": "A key of the client's choosing: a retry with the same key and body "
        "gets the stored answer again",
    },
    {
        "name": "If-Match",
        "in": "header",
        "required": True,
        "schema": {"type": "string"},
        "description": 'The table version the change is made on: "N" (or W/"N")',
    },
]
# What a replayed create or import answers (created_once), said once for both.
REPLAYED_CREATE = (
    "a replay returns the same table id with freshly minted scorer and viewer tokens "
    '(labelled "scorer (2)", "viewer (2)"…); the first answer\'s stay valid, so a replay '
    "never locks out whoever got that answer"
)
REPLAYED_CREATE_GONE = "The table a replayed Idempotency-Key created is gone"
_READ_HEADERS = [
    {
        "name": "If-None-Match",
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "The ETag of the copy you hold: 304 if the table is still at it",
    }
]


def if_none_match(kind: str) -> dict[str, Any]:
    """The If-None-Match of a read answered in more than one ``kind`` (language, format)."""
    return {
        **_READ_HEADERS[0],
        "description": f"The ETag of the copy you hold: 304 if the table is still at it and "
        f"this request asks for the same {kind} (each {kind} has its own ETag)",
    }


_LANG_ETAG = {
    "ETag": {
        "schema": {"type": "string"},
        "description": 'The table version, per language of the results: "N" (Korean), '
        '"N.en" (English), "N.all" (both)',
    }
}
_LANG = {
    "name": "lang",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": list(ANSWER_LANGS)},
    "description": "The language of the results' label and text fields: ko (the default, as "
    "the table stores them), en, or all for both (in any case; a region is ignored: en-US "
    "is en). Accept-Language does not choose here: "
    "a table answer's ETag stays the version for a client that does not ask",
}
_AFTER = {
    "name": "after",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1, "default": 0},
    "description": "Only events with a sequence number above this (default 0: all)",
}
_ACCESS = {
    "s401": "No Authorization: Bearer token",
    "s404": "No table opens with this token (or there is no such table; for a hand: no "
    "such hand number)",
}
MALFORMED_IF_MATCH = (
    "If-Match is not an entity tag or names no version (`malformed_if_match`: `12` instead "
    'of `"12"`, or `*`): send the ETag the table\'s last read returned, quoted as given'
)
_WRITE = {
    **_ACCESS,
    "s403": "A viewer token cannot write",
    "s409": "A request with this Idempotency-Key is in progress, or the table cannot take "
    "the change (closed, voided hand, nothing to undo, or full: a table holds at most "
    f"{MAX_EVENTS:,} events, the last kept for closing: `table_full`)",
    "s400": MALFORMED_IF_MATCH,
    "s412": "If-Match is not the table's version: the ETag header gives the current one",
    "s428": "Idempotency-Key or If-Match is missing",
    "s503": "Replaying the table's log (an instance that had not seen it) ran past the "
    "service's deadline (GOSTOP_REQUEST_DEADLINE): retry after Retry-After seconds",
}
_KEY_REFUSED = {
    "s422": "The Idempotency-Key is not 1 to 255 characters (`invalid_length`), not "
    "printable ASCII (`invalid_idempotency_key`), or was used with another request "
    "(`key_reused`)",
}
_COSTLY = (
    "the change would take the cost of replaying the table's log (one per event and one "
    f"per hand scored) past {MAX_REPLAY_COST - 1:,}, the last unit kept for closing "
    "(`table_too_costly`: close the table and open a new one)"
)
_REDERIVED = {
    "s422": _KEY_REFUSED["s422"] + "; or the hands derived again would break a later hand "
    "(located at `/hands/N`) or take a total past 2^53 − 1 chips (`amount_too_large`); "
    f"or {_COSTLY}",
}
_CHANGE = {"s422": f"The request is invalid: every problem with a pointer and a code; or {_COSTLY}"}
_NO_FIELD = "; or a body field (they take none, or `{}`: `unknown_field`)"
_BODY = {
    "s400": "The body is not valid JSON; or " + MALFORMED_IF_MATCH,
    "s413": "The body is too large",
    "s415": "The body is not application/json",
}

_NO_BODY = {"required": False, "content": {"application/json": {"schema": NoFieldsSchema}}}
"""The request body of undo, redo and close: none, or ``{}``."""
