"""Who opens a table, and its end (SPEC §9 "Access"): joining by code, the join link's QR
code, the scorer's tokens (mint, list, revoke) and deleting the table.

Decisions where the contract leaves room:

- ``POST /v1/tables/join`` answers 201 (a token is created). An unknown code — or the code
  of a closed, deleted or expired table — is a 404; a text that cannot be a code is a 422.
  Joins are rate-limited per client (:func:`calculator.api.rate_limits.rate_key`: an IPv4
  address, an IPv6 /64), every attempt counted, before anything else is read.
- A table holds at most ``MAX_TOKENS`` (100) tokens: a join or a mint past that is a 409
  ``too_many_tokens`` (the scorer revokes unused ones). Minting is not rate-limited: it
  needs the scorer token, and the cap bounds what a scorer can mint.
- Labels are unique among a table's tokens, since events name their writer by the label
  (``by``): a mint with a taken label is a 409 ``label_taken``; a join's label (given or
  "joined <time>") gets the first free suffix " (2)", " (3)", … and the answer shows it.
- Tokens are not events: minting or revoking one leaves the table's version alone, so it
  takes no If-Match. SPEC §9 has writes to an existing table carry an Idempotency-Key; on
  a mint it is optional (a phone that does not retry needs none), and a replay with it
  mints no second token: it gives the token it minted a fresh secret (a secret is never
  stored to be answered again), the first secret then opening nothing. A join's key is
  the same, and being in one scope for everyone, has at least ``MIN_SHARED_KEY``
  characters, as a create's.
- The table's last scorer token cannot be revoked (409): a table nobody can write could
  never be closed or deleted. A revoked token opens nothing: 404, like any other. A revoke
  takes no Idempotency-Key: it is idempotent by nature — a repeat changes nothing and is
  answered 404 ``unknown_token`` (the token is already gone).
- ``DELETE /v1/tables/{id}`` requires If-Match, as every write does: a phone deletes the
  table it has seen, not one that changed meanwhile. It takes no Idempotency-Key: it is
  idempotent by nature — the table's records (its keys included) go with it, and a repeat
  changes nothing and is answered 404 ``unknown_table``.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import orjson
import segno
from flask import Response, request
from werkzeug.exceptions import Conflict, NotFound, PreconditionRequired

from calculator.api.access_schemas import (
    JoinedSchema,
    JoinSchema,
    MintedSchema,
    MintTokenSchema,
    TokensSchema,
    checked_label,
)
from calculator.api.http import coded
from calculator.api.idempotency_keys import (
    MIN_SHARED_KEY,
    claim,
    idempotency_key,
    key_schema,
    replayed,
)
from calculator.api.join_codes import join_url
from calculator.api.ledger_io import TableGoneError
from calculator.api.rate_limits import client_address, join_limit, rate_key
from calculator.api.strict_schema import StrictSchema
from calculator.api.table_access import open_table, poll_table
from calculator.api.table_docs import _ACCESS, _ETAG, _READ_HEADERS, _TOKEN, MALFORMED_IF_MATCH
from calculator.api.table_etags import (
    check_version,
    no_content,
    read_if_match,
    stale,
    table_response,
)
from calculator.api.table_store import _cache, _store
from calculator.api.table_tokens import add_tokens, mint, rekeyed
from calculator.api.table_writes import _body, iso_time
from calculator.api.tables import tables
from calculator.store import Head, Store, TokenRow

JOIN_SCOPE = "join"
SVG = "image/svg+xml"
_OPTIONAL_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": key_schema(),
    "description": "Optional (send a UUID): a replay mints no second token; it answers "
    "the same token with a fresh secret (the first secret then opens nothing)",
}
_JOIN_KEY = {
    **_OPTIONAL_KEY,
    "schema": key_schema(MIN_SHARED_KEY),
}
_IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": True,
    "schema": {"type": "string"},
    "description": 'The table version you are deleting: "N" (or W/"N")',
}
_SCORER = {**_ACCESS, "s403": "A viewer token cannot do this"}
_BODY = {
    "s400": "The body is not valid JSON",
    "s413": "The body is too large",
    "s415": "The body is not application/json",
    "s422": "The body is invalid: every problem with a pointer and a code",
}
_CLOSED = (
    "the table is closed: its join code opens nothing, so it has no QR code to show "
    "(the table stays readable with its tokens)"
)
_GONE = "no open table has this join code; check it with the scorer (it stops working when the table is closed, deleted or expired)"  # noqa: E501


def _json_body(schema: type[StrictSchema], example: dict[str, str]) -> dict[str, Any]:
    """An operation's required JSON body, documented by its schema with an example."""
    return {
        "required": True,
        "content": {"application/json": {"schema": schema, "example": example}},
    }


# --- joining -------------------------------------------------------------------------------


@tables.post("/tables/join")
@tables.response(
    201,
    JoinedSchema,
    description="The table, and a viewer token for this phone (shown once)",
    headers={**_ETAG, "Location": _TOKEN},
)
@tables.problems(
    s404="No open table has this code (unknown, or the table is closed, deleted or expired)",
    s409="A request with this Idempotency-Key is in progress, or the table has too many tokens",
    s429="Too many joins from this address: retry after Retry-After seconds",
    **_BODY,
)
@tables.doc(
    operationId="joinTable",
    parameters=[_JOIN_KEY],
    requestBody=_json_body(JoinSchema, {"join_code": "7K3M-Q810", "label": "민지's phone"}),
)
def join_table() -> Response:
    """Join a table by its code: a viewer token for this phone

    Another phone at the table types the code the scorer shows (or scans the QR code of
    the join link) and gets the table id and its own viewer token, labelled as asked or
    "joined <UTC date and time>" — with a suffix (" (2)") if another token of the table
    has that label. Then it polls GET /v1/tables/{id} every 2–3 seconds with
    If-None-Match. Joins are limited per client address, IPv6 per /64
    (GOSTOP_JOIN_RATE). A replayed Idempotency-Key (at least 16 characters) answers the
    same token with a fresh secret.
    """
    join_limit().hit(rate_key(client_address()))
    store = _store()
    key = idempotency_key(shared=True)
    if key is not None:
        replay = claim(store, JOIN_SCOPE, key)
        if replay is not None:  # the same body: the same code and label
            joined = orjson.loads(replay.get_data())
            head = _open_to_join(store, joined["id"])
            secret, row = rekeyed(store, head.id, joined.get("token_id", ""))
            return replayed(_joined(head, secret, row))
    try:
        data = _body(JoinSchema)
        label = None if data["label"] is None else checked_label(data["label"])
        table_id = store.table_of_code(data["join_code"])
        if table_id is None:
            raise coded(NotFound(_GONE), "unknown_join_code")
        return _join(store, table_id, label, key)
    except BaseException:
        if key is not None:
            store.release(scope=JOIN_SCOPE, key=key)
        raise


def _open_to_join(store: Store, table_id: str) -> Head:
    """The table, if it can be joined (there, and open): 404 otherwise."""
    head = store.head(table_id)
    if head is None or orjson.loads(head.summary)["closed"]:
        raise coded(NotFound(_GONE), "unknown_join_code")
    return head


def _join(store: Store, table_id: str, label: str | None, key: str | None) -> Response:
    head = _open_to_join(store, table_id)
    now = store.clock()
    secret, row = mint("viewer", label=label or f"joined {iso_time(now)[:16].replace('T', ' ')}")
    row = replace(row, created_at=now)
    stored = {"id": head.id, "version": head.version, "token_id": row.token_id}
    answer = None if key is None else (JOIN_SCOPE, key, 201, orjson.dumps(stored).decode())
    (row,) = add_tokens(store, head.id, (row,), rename=True, answer=answer)
    return _joined(head, secret, row)


def _joined(head: Head, secret: str, row: TokenRow) -> Response:
    body = {
        "id": head.id,
        "version": head.version,
        "viewer_token": secret,
        "token_id": row.token_id,
        "role": row.role,
        "label": row.label,
        "join_url": join_url(request.host_url, head.join_code),
    }
    response = table_response(body, head.version, 201)
    response.headers["Location"] = f"/v1/tables/{head.id}"
    return response


@tables.get("/tables/<id>/qr")
@tables.response(
    200,
    {"type": "string"},
    content_type=SVG,
    description="The join link as a QR code (SVG, scales to any size)",
    headers=_ETAG,
)
@tables.alt_response(304, description="Not modified (If-None-Match)", headers=_ETAG)
@tables.problems(
    **{
        **_ACCESS,
        "s404": "No table with this id opens with this token, or the table is closed: its "
        "join code opens nothing (unknown_join_code)",
    }
)
@tables.doc(operationId="getTableQr", parameters=_READ_HEADERS)
def table_qr(id: str) -> Response:
    """The join link as a QR code

    An SVG of `<service root>/?join=<code>` (the table's `join_url`): a phone's camera
    opens the scorekeeper page, which joins the table. Any token of the table may ask;
    with the table's ETag, as every table read (If-None-Match: 304). A closed table's
    code opens nothing, so its QR code is a 404 `unknown_join_code`, as joining is.
    """
    head, unchanged = poll_table(_store(), id)
    if unchanged is not None:  # the table was open at that version, and still is
        return unchanged
    if orjson.loads(head.summary)["closed"]:
        raise coded(NotFound(_CLOSED), "unknown_join_code")
    code = segno.make(join_url(request.host_url, head.join_code), error="m")
    buffer = io.BytesIO()
    code.save(
        buffer,
        kind="svg",
        border=4,
        omitsize=True,  # a viewBox only: the page sizes it
        xmldecl=False,
        light="#fff",  # readable on a dark page too
        title=f"Join table {head.join_code}",
    )
    return table_response(Response(buffer.getvalue(), mimetype=SVG), head.version)


# --- tokens --------------------------------------------------------------------------------


@tables.get("/tables/<id>/tokens")
@tables.response(200, TokensSchema, description="The tokens, without their secrets", headers=_ETAG)
@tables.problems(**_ACCESS)
@tables.doc(operationId="listTableTokens")
def list_tokens(id: str) -> Response:
    """The tokens that open the table (never their secrets), which one is yours"""
    head, yours = open_table(_store(), id, write=False)
    rows = _store().tokens(head.id)
    if not rows:  # a table keeps a scorer token: deleted since its head was read
        raise TableGoneError("the table was deleted meanwhile")
    tokens = [
        {
            "token_id": t.token_id,
            "role": t.role,
            "label": t.label,
            "created_at": iso_time(t.created_at),
            "yours": t.token_id == yours.token_id,
        }
        for t in rows
    ]
    return table_response({"tokens": tokens}, head.version)


@tables.post("/tables/<id>/tokens")
@tables.response(201, MintedSchema, description="The token (shown once)", headers=_ETAG)
@tables.problems(
    s409="A request with this Idempotency-Key is in progress; or another token of the "
    "table has this label; or the table has too many tokens",
    **_SCORER,
    **_BODY,
)
@tables.doc(
    operationId="mintTableToken",
    parameters=[_OPTIONAL_KEY],
    requestBody=_json_body(MintTokenSchema, {"role": "scorer", "label": "민지's phone"}),
)
def mint_token(id: str) -> Response:
    """Mint a token (scorer only): another scorer's phone, or a viewer

    The label names the phone: every event written with a scorer token records it as
    `by`, so no two tokens of a table have labels a reader cannot tell apart — the same
    in any case, width or encoding of their letters (409 `label_taken`); it is
    stored trimmed, and a blank one (422 `invalid_length`) or one that reads as a label
    the service gives its own tokens — `scorer`, `viewer`, `joined <time>`, in any case,
    with a suffix " (2)" or spaces around — is refused (422 `reserved_label`). A table
    holds at most 100 tokens (409 `too_many_tokens`: revoke unused ones). Tokens are not
    events: the table's version does not change, and no If-Match is needed. The
    Idempotency-Key is optional: a retry with it mints no second token.
    """
    store = _store()
    head, _token = open_table(store, id, write=True)
    key = idempotency_key()
    replay = None if key is None else claim(store, head.id, key)
    if replay is not None:
        secret, row = rekeyed(store, head.id, orjson.loads(replay.get_data()).get("token_id", ""))
        return replayed(_minted(secret, row, head.version))
    try:
        data = _body(MintTokenSchema)
        secret, row = mint(data["role"], label=checked_label(data["label"]))
        row = replace(row, created_at=store.clock())
        record = orjson.dumps({"version": head.version, "token_id": row.token_id}).decode()
        answer = None if key is None else (head.id, key, 201, record)
        (row,) = add_tokens(store, head.id, (row,), rename=False, answer=answer)
    except BaseException:
        if key is not None:
            store.release(scope=head.id, key=key)
        raise
    return _minted(secret, row, head.version)


def _minted(secret: str, row: TokenRow, version: int) -> Response:
    body = {
        "token_id": row.token_id,
        "token": secret,
        "role": row.role,
        "label": row.label,
        "created_at": iso_time(row.created_at),
    }
    return table_response(body, version, 201)  # tokens leave the version as it was


@tables.delete("/tables/<id>/tokens/<token_id>")
@tables.response(204, description="Revoked: the token opens nothing any more", headers=_ETAG)
@tables.problems(
    s409="It is the table's last scorer token (mint another scorer token first)",
    **{**_SCORER, "s404": _ACCESS["s404"] + "; or no such token at this table"},
)
@tables.doc(operationId="revokeTableToken")
def revoke_token(id: str, token_id: str) -> Response:
    """Revoke a token (scorer only), the caller's own included

    A revoked token is answered 404, as any token that does not open the table. The last
    scorer token cannot be revoked: someone must be able to close or delete the table.
    No Idempotency-Key: a revoke is idempotent by nature (a repeat changes nothing and is
    answered 404 `unknown_token`).
    """
    store = _store()
    head, _token = open_table(store, id, write=True)
    outcome = store.revoke(head.id, token_id)
    if outcome == "gone":  # deleted since its head was read
        raise TableGoneError("the table was deleted meanwhile")
    if outcome == "unknown":
        raise coded(NotFound(f"the table has no token {token_id!r}"), "unknown_token")
    if outcome == "last_scorer":
        raise coded(
            Conflict(
                "this is the table's last scorer token; mint another scorer token first "
                "(or delete the table)"
            ),
            "last_scorer_token",
        )
    return no_content(head.version)


# --- the end -------------------------------------------------------------------------------


@tables.delete("/tables/<table_id:id>")
@tables.response(204, description="Deleted, with everything about it")
@tables.problems(
    s400=MALFORMED_IF_MATCH,
    s412="If-Match is not the table's version: the ETag header gives the current one",
    s428="If-Match is missing",
    **_SCORER,
)
@tables.doc(operationId="deleteTable", parameters=[_IF_MATCH])
def delete_table(id: str) -> Response:
    """Delete the table now (scorer only)

    Its events, hands, tokens and idempotency records are deleted in one transaction;
    afterwards every request about it is a 404, its join code included. Tables idle for
    GOSTOP_TABLE_TTL_DAYS are gone the same way (`gostop db purge` deletes them). No
    Idempotency-Key: a delete is idempotent by nature (a repeat changes nothing and is
    answered 404 `unknown_table`).
    """
    store = _store()
    head, _token = open_table(store, id, write=True)
    if_match = read_if_match()
    if if_match is None:
        raise coded(
            PreconditionRequired(
                f'send If-Match: "<version>" with the version you mean to delete (the table '
                f"is at {head.version})"
            ),
            "precondition_required",
        )
    check_version(head.version, if_match)
    if not store.delete_table(head.id, expected=head.version):
        current = store.head(head.id)
        if current is None:
            raise coded(NotFound("the table was deleted meanwhile"), "unknown_table")
        raise stale(current.version, "the table changed meanwhile")
    _cache().forget(head.id)  # its ledger and renderings: memory no request can use
    return no_content()  # no ETag: the table has no version any more
