"""Access to a table: the bearer token that opens it (401, 404, or 403 for a write with a
viewer token), a poll's 304 on the way, and the path segments that can name a table or a
hand — the checks :mod:`calculator.api.tables` and :mod:`calculator.api.table_writes` run
before a table is read or changed.

Siblings: :mod:`calculator.api.table_tokens` mints the tokens;
:mod:`calculator.api.table_etags` holds the ETags and If-Match / If-None-Match checks;
:mod:`calculator.api.idempotency_keys` the Idempotency-Key claims.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, g, request
from werkzeug.exceptions import Forbidden, NotFound, Unauthorized
from werkzeug.routing import IntegerConverter, Map, UnicodeConverter

from calculator.api.http import coded
from calculator.api.table_etags import not_modified, versions
from calculator.api.table_tokens import token_hash
from calculator.store import Head, Store, TokenRow

REALM = "gostop tables"  # the WWW-Authenticate challenge's realm (a 401)
UNKNOWN_TABLE = "no table opens with this token; check the table id and the token"


class _Challenge(Unauthorized):
    """A 401 with its Bearer challenge (RFC 6750 §3): the realm, and ``invalid_request``
    when an Authorization header was sent but is no bearer token (none for a request
    without one, as §3.1 asks)."""

    def __init__(self, description: str, *, malformed: bool) -> None:
        super().__init__(description)
        self.challenge = f'Bearer realm="{REALM}"' + (
            ', error="invalid_request"' if malformed else ""
        )

    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        return [*super().get_headers(*args, **kwargs), ("WWW-Authenticate", self.challenge)]


def open_table(
    store: Store, table_id: str, *, write: bool, known: int = -1
) -> tuple[Head, TokenRow]:
    """The table and the token that opens it: 401, 404 or 403 otherwise. At version
    ``known`` (a poll's If-None-Match: :func:`poll_table`) the head's summary is empty."""
    # From the WSGI environ, where request.headers reads it too (without its mapping layer:
    # this runs on every poll).
    given = request.environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = given.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise coded(
            _Challenge(
                "send Authorization: Bearer <token> (the scorer or viewer token of the table)",
                malformed=bool(given.strip()),
            ),
            "unauthorized",
        )
    digest = token_hash(token.strip())
    # Found by its hash in the database (why that is safe: calculator/store/sql.py, _HEAD).
    head = store.head(table_id, token_hash=digest, known=known) if _is_table_id(table_id) else None
    found = None if head is None else head.token
    if head is None or found is None:
        raise coded(NotFound(UNKNOWN_TABLE), "unknown_table")
    # a refusal from here on (403, 409, 422, 428…) carries the table's ETag as every table
    # answer does (SPEC §9): errors.register adds it from here
    g.table_version = head.version
    if write and found.role != "scorer":
        raise coded(
            Forbidden("a viewer token reads the table; writing needs the scorer token"),
            "read_only_token",
        )
    return head, found


class TableIdConverter(UnicodeConverter):
    """``<table_id:id>``: a path segment that can name a table — anything but the names of
    the tables' own actions, ``join`` and ``import`` (``GET /v1/tables/join`` is then a 405
    that allows POST, not a table named "join"; an OPTIONS answer does not list GET).
    Documented as the plain segment it otherwise is."""

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map)
        self.regex = r"(?!(?:import|join)(?:/|$))[^/]{1,}"  # {1,}: read by the document


class HandNumberConverter(IntegerConverter):
    """``<hand_number:number>``: a hand's number in ASCII digits. werkzeug's ``int``
    matches ``\\d``, any script's digits, and Python reads them: ``/hands/١/void``
    voided hand 1, where ``?after=١`` and every number of a body are refused. Documented
    as the integer it is (flask-smorest reads the class it derives from)."""

    regex = r"[0-9]+"


_TABLE_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _is_table_id(table_id: str) -> bool:
    """A canonical UUID (``str(uuid4())``: lowercase, hyphenated), as tables are named:
    anything else is no table, unasked. A pattern, not ``uuid.UUID``: a tenth of the cost
    on every request to a table."""
    return _TABLE_ID.fullmatch(table_id) is not None


def poll_table(store: Store, table_id: str, variant: str = "") -> tuple[Head, Response | None]:
    """A read of a table: :func:`open_table`'s checks (401, 404), then the 304 if
    If-None-Match names the table's version in the representation ``variant``
    (:func:`~calculator.api.table_etags.etag`). The head's summary is not read when the
    answer is that 304 (it is empty then); otherwise it is the table's."""
    given = request.environ.get("HTTP_IF_NONE_MATCH")  # as in open_table
    named = set() if given is None else versions(given)
    head, _token = open_table(store, table_id, write=False, known=_known(named, variant))
    return head, not_modified(head.version, named, variant)


def _known(named: set[str], variant: str = "") -> int:
    """The one version a poll names in the representation ``variant``, -1 if not exactly
    one: the store skips the summary when the table is at it (every idle poll), so it
    must be a version exactly when :func:`not_modified` answers 304 for it — "03", "٣",
    "*" or another representation's tag are none."""
    if len(named) == 1:
        (tag,) = named
        if variant:
            if not tag.endswith(variant):
                return -1
            tag = tag[: -len(variant)]
        if 0 < len(tag) <= 9 and tag.isascii() and tag.isdigit() and str(int(tag)) == tag:
            return int(tag)
    return -1
