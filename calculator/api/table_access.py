"""Access and HTTP preconditions of the table API: bearer tokens, ETags, If-Match /
If-None-Match, and Idempotency-Key claims — the checks :mod:`calculator.api.tables` and
:mod:`calculator.api.table_writes` run before a table is read or changed."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import orjson
from flask import Response, current_app, g, request
from werkzeug.datastructures import Headers
from werkzeug.exceptions import (
    BadRequest,
    Conflict,
    Forbidden,
    HTTPException,
    NotFound,
    PreconditionFailed,
    Unauthorized,
    UnprocessableEntity,
)
from werkzeug.routing import IntegerConverter, Map, UnicodeConverter

from calculator.api.http import coded, json_response, no_body, without_bom
from calculator.api.json_keys import duplicated
from calculator.explain import LANGUAGES
from calculator.store import Head, Store, TokenRow

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

MAX_KEY = 255
MIN_SHARED_KEY = 16
KEY_CHARACTERS = "^[\\x20-\\x7E]*$"
"""An Idempotency-Key's characters, printable ASCII (an HTTP field value, RFC 9110 §5.5:
a key in UTF-8 comes as Latin-1 mojibake, which the same key sent by another client
need not match): checked by :func:`idempotency_key`, published by :func:`key_schema`."""


def key_schema(least: int = 1) -> dict[str, Any]:
    """The OpenAPI schema of an Idempotency-Key of at least ``least`` characters."""
    return {"type": "string", "minLength": least, "maxLength": MAX_KEY, "pattern": KEY_CHARACTERS}


IN_FLIGHT_RETRY = 2  # seconds: a key in flight (409) is a write of a few milliseconds
MAX_TOKENS = 100  # live tokens per table: a table is a handful of phones
REALM = "gostop tables"  # the WWW-Authenticate challenge's realm (a 401)
UNKNOWN_TABLE = "no table opens with this token; check the table id and the token"


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


# The suffixes that tag a table's other representations (:func:`etag`): a read's results
# in another language or in both (calculator.api.tables; Korean, the language of the
# stored rows, keeps the plain "N"), the English share text and the CSV export
# (calculator.api.sharing). A tag with any other suffix names no version: ``If-Match:
# "3.0"`` is not version 3.
LANG_TAGS: Final[dict[tuple[str, ...], str]] = {
    (LANGUAGES[0],): "",
    **{(lang,): f".{lang}" for lang in LANGUAGES[1:]},
    LANGUAGES: ".all",
}
EN_TAG: Final = LANG_TAGS[("en",)]
CSV_TAG: Final = ".csv"
_VARIANT_TAGS = frozenset({*LANG_TAGS.values(), CSV_TAG}) - {""}


def etag(version: int, variant: str = "") -> str:
    """The ETag of a table version: a strong tag of the number. A read answered in more
    than one representation (the share text's languages, the export's formats) tags each
    but its first with its own ``variant`` suffix (``"3.en"``, ``"3.csv"``): RFC 9110
    §8.8.3 gives different representations different tags, so an If-None-Match of one
    never answers 304 for another. The suffix starts with a dot, never with what a
    compressing proxy appends (``-`` ``:`` ``;``: :func:`versions` reads past those)."""
    return f'"{version}{variant}"'


_COMPRESSED = re.compile(r"[-:;]+[A-Za-z]+\Z")


def versions(header: str) -> set[str]:
    """The versions an If-Match / If-None-Match names (weak or strong: compared weakly)."""
    if len(header) > 2 and header[0] == header[-1] == '"' and header[1:-1].isdigit():
        return {header[1:-1]}  # one plain tag, what every poll and write sends: as below
    found: set[str] = set()
    for part in header.split(","):
        tag = part.strip().removeprefix("W/").strip()
        if len(tag) >= 2 and tag[0] == tag[-1] == '"':
            # a proxy that compresses may suffix the tag with its coding ("3-gzip",
            # "3:gzip", "3;br"): the same version; another suffix ("3-0") names none
            found.add(_COMPRESSED.sub("", tag[1:-1]))
        elif tag == "*":
            found.add("*")
    return found


def table_response(body: Any, version: int, status: int = 200, variant: str = "") -> Response:
    """A JSON answer about a table, with its ETag (of the representation ``variant``)."""
    response = body if isinstance(body, Response) else json_response(body, status)
    response.headers["ETag"] = etag(version, variant)
    return response


class _NoContent(Response):
    """A 204: no body, so no Content-Type (werkzeug's default would say text/html)."""

    default_mimetype = None


def no_content(version: int | None = None) -> Response:
    """The empty 204 of a change about a table: with the table's ETag at ``version`` (a
    revoked token: the table stays at it), none when the table is gone (deleted)."""
    response = _NoContent(status=204)
    if version is not None:
        response.headers["ETag"] = etag(version)
    return response


# What werkzeug takes out of a 304 (``werkzeug.http.remove_entity_headers``: the entity
# headers but Expires and Content-Location), and the headers it rewrites as URLs.
_ENTITY_HEADERS = frozenset(
    {
        "allow",
        "content-encoding",
        "content-language",
        "content-length",
        "content-md5",
        "content-range",
        "content-type",
        "last-modified",
    }
)
_URL_HEADERS = frozenset({"location", "content-location"})


class _NotModified(Response):
    """A 304: no body, so no Content-Type either (werkzeug would set one, then strip it)."""

    default_mimetype = None

    def get_wsgi_response(
        self, environ: WSGIEnvironment
    ) -> tuple[Iterable[bytes], str, list[tuple[str, str]]]:
        """What werkzeug sends for a 304 — no body, the headers less the entity headers —
        made in one pass over the headers. werkzeug copies them (validating each again,
        though each was validated when added), rebuilds the list without the entity
        headers and wraps the empty body in a closing iterator: together ~95k
        instructions, more than the poll's query (bench/RESULTS.md, seventh session).
        werkzeug's own way is kept for what this one does not do: a function registered
        with ``call_on_close`` (the closing iterator calls it), a status a hook changed, a
        header werkzeug would rewrite as a URL (none of ours).
        tests/api/test_table_access.py holds the two equal."""
        if self._on_close or self.status_code != 304:  # werkzeug's: to call, or no 304
            return super().get_wsgi_response(environ)
        headers = []
        for name, value in self.headers.items():
            lower = name.lower()
            if lower in _URL_HEADERS:
                return super().get_wsgi_response(environ)
            if lower not in _ENTITY_HEADERS:
                headers.append((name, value))
        return (), self.status, headers


def not_modified(version: int, named: set[str] | None = None, variant: str = "") -> Response | None:
    """The empty 304 when If-None-Match (or the versions it ``named``, parsed already)
    names ``version`` in the representation ``variant`` (compared weakly): the tag of
    another representation of the same version is no match (:func:`etag`)."""
    if named is None:
        given = request.headers.get("If-None-Match")
        named = set() if given is None else versions(given)
    if (f"{version}{variant}" if variant else str(version)) in named or "*" in named:
        # Content-Length 0: no body. werkzeug drops it on the way out, as every entity
        # header of a 304; until then the after-request hooks that ask for the length
        # (compression) find it instead of raising and catching a KeyError each. Added
        # one by one: ``Headers`` given a dict tests each value against abstract types.
        headers = Headers()
        headers.add("ETag", etag(version, variant))
        headers.add("Content-Length", "0")
        return _NotModified(status=304, headers=headers)
    return None


def poll_table(store: Store, table_id: str, variant: str = "") -> tuple[Head, Response | None]:
    """A read of a table: :func:`open_table`'s checks (401, 404), then the 304 if
    If-None-Match names the table's version in the representation ``variant``
    (:func:`etag`). The head's summary is not read when the answer is that 304 (it is
    empty then); otherwise it is the table's."""
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


class Stale(PreconditionFailed):
    """412 with the current version in the ETag header."""

    def __init__(self, version: int, detail: str) -> None:
        super().__init__(detail)
        self.version = version

    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        return [*super().get_headers(*args, **kwargs), ("ETag", etag(self.version))]


def stale(version: int, why: str) -> HTTPException:
    """The 412 of a write made on another version than the table's ``version``."""
    return coded(
        Stale(
            version,
            f"{why}: it is at version {version}; read it again (GET) and redo "
            "the change on what it shows",
        ),
        "version_mismatch",
    )


def read_if_match() -> str | None:
    """The request's If-Match, or None when it has none or an empty one (``If-Match:``
    names no version: the 428 of a missing one, not a 412)."""
    given = request.headers.get("If-Match")
    return given if given is not None and given.strip() else None


# If-Match's grammar (RFC 9110 §13.1.1): "*" or a comma-separated list of entity tags,
# each [W/]"…" of visible characters but the quote (empty list elements are allowed).
_TAG = r'(?:\*|(?:W/)?"[\x21\x23-\x7e\x80-\xff]*")'
_IF_MATCH = re.compile(rf"[ \t]*(?:{_TAG}[ \t]*)?(?:,[ \t]*(?:{_TAG}[ \t]*)?)*")


def check_version(version: int, if_match: str) -> None:
    """400 ``malformed_if_match`` unless ``if_match`` is a list of entity tags that names
    a version (one not quoted, ``If-Match: 12``, is told how to quote it; ``*`` and ``""``
    name none); 412 ``version_mismatch`` unless it names the table's ``version`` (compared
    weakly). The tag of any representation of the table names its version: the English
    share text's ``"3.en"`` and the CSV export's ``"3.csv"`` (:func:`etag`) as ``"3"``.

    A malformed header is a 400, not the 412 of a stale version: a client answers a 412
    by reading the table again and redoing the change on it (the scorekeeper page does),
    and would send the same header again; a 400 says the request itself is wrong. Both
    carry the table's ETag (``errors._versioned``, :class:`Stale`)."""
    if if_match == etag(version):
        return  # what every write sends
    well_formed = _IF_MATCH.fullmatch(if_match) is not None
    named = {_tagged_version(tag) for tag in versions(if_match)} if well_formed else set()
    named -= {"*", ""}
    if str(version) in named:
        return
    shown = if_match.strip()[:40]
    if named:
        raise stale(version, f"If-Match is {shown}, not the table's version")
    bare = shown.removeprefix("W/").strip('"').split(".", 1)[0]
    example = bare if bare.isascii() and bare.isdigit() else "<version>"
    said = "no version" if well_formed else "not an entity tag"
    raise coded(
        BadRequest(
            f"If-Match is {shown}, which is {said}: "
            "send the ETag the table's last read returned, quoted as the ETag header gives "
            f'it — If-Match: "{example}" (the table is at version {version})'
        ),
        "malformed_if_match",
    )


def _tagged_version(tag: str) -> str:
    """The version an entity tag's text names: ``3`` of ``3``, ``3.en`` and ``3.csv``; any
    other tag is itself (``3.0``: it names no version the table has had)."""
    version, dot, suffix = tag.partition(".")
    return version if dot + suffix in _VARIANT_TAGS else tag


def request_hashes(*, language: bool = False) -> tuple[str, str]:
    """What an Idempotency-Key is bound to: the method, the path and the body — as JSON,
    its names in any order and any spacing (a client that builds the body again from a map
    on its retry sends other bytes for the same request), else its bytes; with
    ``language`` (an append, whose stored answer speaks the language it was asked in),
    also the ``?lang`` asked when it is not Korean, so that a replay asks the same and
    says it answers in it. Two digests: the one stored, and the body's bytes' (what keys
    were bound to until 2026-12-06: a key claimed then, retried now, is the same request).

    The key is claimed before the body is read (SPEC §9's order), so the JSON is read
    here only within a write's body limit (``max_body_bytes``: an import past it, or any
    larger body, is bound to its bytes) and only when it reads as :func:`read_json` would
    take it: not JSON, or a name given twice (refused later, 400), it is its bytes too."""
    lang = request.args.get("lang", "") if language else ""
    asked = f"?lang={lang}" if lang and lang != LANGUAGES[0] else ""
    head = f"{request.method} {request.path}{asked}\n".encode()
    data = request.get_data(cache=True)
    as_sent = hashlib.sha256(head + data).hexdigest()
    body = without_bom(data)  # as read_json reads it
    if len(body) > current_app.config["GOSTOP"].max_body_bytes:
        return as_sent, as_sent
    if no_body(body):  # as {}: undo, redo and close take either, the other writes neither
        document: Any = {}
    else:
        try:
            document = orjson.loads(body)
        except orjson.JSONDecodeError:
            return as_sent, as_sent
        if duplicated(body, document) is not None:
            return as_sent, as_sent
    as_json = orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(head + as_json).hexdigest(), as_sent


def idempotency_key(*, shared: bool = False) -> str | None:
    """The request's Idempotency-Key, if any (a bad one is a 422). A ``shared`` key —
    one scope for everyone: creates, imports, joins — has at least
    :data:`MIN_SHARED_KEY` characters."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY:
        raise coded(
            UnprocessableEntity(f"Idempotency-Key must be 1 to {MAX_KEY} characters"),
            "invalid_length",
        )
    if not re.fullmatch(KEY_CHARACTERS, key):
        raise coded(
            UnprocessableEntity("Idempotency-Key must be printable ASCII characters (send a UUID)"),
            "invalid_idempotency_key",
        )
    if shared and len(key) < MIN_SHARED_KEY:
        # Such keys share one scope and a replay hands out a token: a guessable key ("1",
        # a counter) would let a stranger replay someone's request and get a token.
        raise coded(
            UnprocessableEntity(
                f"an Idempotency-Key on POST {request.path} has at least {MIN_SHARED_KEY} "
                "characters and is random (send a UUID), or leave it out"
            ),
            "weak_idempotency_key",
        )
    return key


class _InFlight(Conflict):
    """The 409 of a key whose first request is still running: retry after a moment."""

    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        return [*super().get_headers(*args, **kwargs), ("Retry-After", str(IN_FLIGHT_RETRY))]


def claim(store: Store, scope: str, key: str, *, language: bool = False) -> Response | None:
    """Claim ``key``: None (this request owns it), or the stored answer; 422 / 409.
    ``language``: the key is bound to the language asked too (:func:`request_hashes`)."""
    settings = current_app.config["GOSTOP"]
    stored, as_sent = request_hashes(language=language)
    claimed = store.claim(
        scope=scope,
        key=key,
        request_hash=stored,
        also=as_sent,
        now=time.time(),
        deadline=settings.request_deadline,
    )
    if claimed.state == "mismatch":
        raise coded(
            UnprocessableEntity(
                "this Idempotency-Key was used with another request; use a new key"
            ),
            "key_reused",
        )
    if claimed.state == "in_flight":
        raise coded(
            _InFlight(
                "a request with this Idempotency-Key is in progress; retry in "
                f"{IN_FLIGHT_RETRY} seconds (Retry-After)"
            ),
            "key_in_flight",
        )
    if claimed.state == "replay":
        body = claimed.response or "{}"
        response = Response(body, status=claimed.status or 200, mimetype="application/json")
        response.headers["ETag"] = etag(orjson.loads(body)["version"])
        return replayed(response)
    return None


def replayed(response: Response) -> Response:
    """``response``, marked as the answer of a replayed Idempotency-Key (a write's stored
    answer, or a create's, import's, join's or mint's same table with fresh secrets)."""
    response.headers["Idempotent-Replayed"] = "true"
    return response
