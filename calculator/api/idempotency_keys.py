"""Idempotency-Keys of the table API: reading a request's key, binding it to the request
(method, path, body) and claiming it — None for the request that owns it, the stored
answer (replayed) for a retry, 422 / 409 otherwise.

Siblings: :mod:`calculator.api.table_access` (bearer token), :mod:`calculator.api.table_etags`
(versions, If-Match), :mod:`calculator.api.table_tokens` (minting tokens).
"""

from __future__ import annotations

import hashlib
import re
import time
from typing import Any

import orjson
from flask import Response, current_app, request
from werkzeug.exceptions import Conflict, UnprocessableEntity

from calculator.api.http import coded, no_body, without_bom
from calculator.api.json_keys import duplicated
from calculator.api.table_etags import etag
from calculator.explain import LANGUAGES
from calculator.store import Store

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
