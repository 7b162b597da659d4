"""The OpenAPI 3.1 document, generated from the views' declarations.

The operations come from the flask-smorest decorators on each view
(:mod:`calculator.api.views`), the schemas from the same marshmallow classes that load
requests. Examples are real: each response example is computed by the app itself from
its request example when the document is built.

``python -m calculator.api.openapi > api_spec/openapi.json`` regenerates the committed
copy; a test fails when the two differ.
"""

from __future__ import annotations

import copy
import json
import sys
from functools import cache
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from calculator.api.http import COMPRESSED_TYPES, UNCOMPRESSED_BLUEPRINTS


def openapi_document(app: Flask | None = None) -> dict[str, Any]:
    """The document of ``app`` (by default, an app with the default settings)."""
    if app is None:
        return _default_document()
    document: dict[str, Any] = copy.deepcopy(app.extensions["gostop_api"].spec.to_dict())
    _database_down(document)
    _bearer(document)
    _response_headers(document)
    _accept_language(document)
    _compute_response_examples(app, document)
    return document


DATABASE_DOWN = (
    "The tables' database cannot be reached (`unavailable`): retry after Retry-After seconds"
)


def _database_down(document: dict[str, Any]) -> None:
    """Every operation on the tables' database may answer 503 while it cannot be reached
    (calculator.api.errors: DATABASE_DOWN)."""
    for path, operations in document["paths"].items():
        if not path.startswith("/v1/tables"):
            continue
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = operation["responses"]
            if "503" in answers:
                answers["503"]["description"] += (
                    f"; or: {DATABASE_DOWN[0].lower()}{DATABASE_DOWN[1:]}"
                )
            else:
                answers["503"] = {
                    "description": DATABASE_DOWN,
                    "content": {
                        "application/problem+json": {
                            "schema": {"$ref": "#/components/schemas/Problem"}
                        }
                    },
                }


BEARER = "bearer"


def _bearer(document: dict[str, Any]) -> None:
    """The table operations that open a table by its token (those that may answer 401)
    require the bearer scheme: the token that ``POST /v1/tables``, ``/join`` and
    ``/import`` answer."""
    document.setdefault("components", {}).setdefault("securitySchemes", {})[BEARER] = {
        "type": "http",
        "scheme": "bearer",
        "description": "A table's scorer token (reads and writes) or viewer token (reads), "
        "as POST /v1/tables, /v1/tables/join and /v1/tables/import answer them",
    }
    for operation in _operations(document):
        if "401" in operation["responses"]:
            operation["security"] = [{BEARER: []}]


# The response headers the service sends, declared once (components.headers).
HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "The request's id, in the access log too: the client's X-Request-ID "
        "when it is 1-128 characters of A-Z a-z 0-9 . _ : @ / + = -, else 32 hex digits",
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "Seconds to wait before retrying",
        "schema": {"type": "integer", "minimum": 0},
    },
    "Idempotent-Replayed": {
        "description": "true when the answer is a replayed Idempotency-Key's: the stored "
        "answer of a write, or the same table or token with fresh secrets",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "ETag": {
        "description": 'The version of what is answered (a table\'s: "N"; each language '
        'of a share text and format of an export its own: "N.en", "N.csv"), for '
        "If-None-Match; a 412's: the table's version now; a refusal after the token opened "
        'the table (400, 403, 404 of a hand, 409, 422, 428): the table\'s version, "N"',
        "schema": {"type": "string"},
    },
    "Content-Disposition": {
        "description": 'The CSV export\'s file name: attachment; filename="table-<id>.csv"',
        "schema": {"type": "string"},
    },
    "WWW-Authenticate": {
        "description": 'The challenge: Bearer realm="gostop tables" (with '
        'error="invalid_request" when the Authorization header is not a bearer token)',
        "schema": {"type": "string"},
    },
    "Content-Language": {
        "description": "The languages of the answer's labels and sentences (ko, en, or both)",
        "schema": {"type": "string"},
    },
    "Vary": {
        "description": "The request headers the answer depends on (Accept-Language, Accept; "
        "Accept-Encoding on an answer that may be gzipped, to every client, and on its 304: "
        "JSON, Markdown or HTML of GOSTOP_COMPRESS_MIN_BYTES or more, except under "
        "/v1/tables and /v1/share/parse; and "
        "Origin when GOSTOP_CORS_ORIGINS is set). A share text or an export whose ?lang or "
        "?format is given depends on neither Accept-Language nor Accept",
        "schema": {"type": "string"},
    },
}
# operationId → what its success (and 304) answer varies on: sent always, but by the share
# text and the export only when no ?lang or ?format chose for the header
_VARY = {
    "scoreHand": "Accept-Language",
    "scoreHands": "Accept-Language",
    "scoreBalanceHand": "Accept-Language",
    "shareTable": "Accept-Language",
    "exportTable": "Accept",
    "getRules": "Accept",
}
# Content-Language (an appended hand's replay too: its key is bound to the language)
_SPEAKS = ("scoreHand", "scoreHands", "scoreBalanceHand", "getTable", "addTableHand", "shareTable")
_REFUSALS = ("400", "403", "404", "409", "422", "428")  # of a table the token opened: its ETag


def _response_headers(document: dict[str, Any]) -> None:
    """Declare the headers each answer carries: X-Request-ID on every one; Retry-After on
    a 429, a 503 and an Idempotency-Key's 409 (``key_in_flight``); Idempotent-Replayed on
    the success of an operation that takes an Idempotency-Key; the table's ETag on a 412
    and on the refusals of an operation that opens a table with its token;
    the challenge on a 401; the language and Vary of the answers that speak one, and
    Vary of the answers that may be gzipped (calculator.api.app._compress)."""
    document.setdefault("components", {})["headers"] = HEADERS
    for operation in _operations(document):
        keyed = any(
            p.get("in") == "header" and p.get("name") == "Idempotency-Key"
            for p in operation.get("parameters", [])
        )
        name = operation.get("operationId", "")
        gzipped = not UNCOMPRESSED_BLUEPRINTS.intersection(operation.get("tags", ())) and any(
            media in COMPRESSED_TYPES
            for status, response in operation["responses"].items()
            if status.startswith("2")
            for media in response.get("content", {})
        )
        for status, response in operation["responses"].items():
            declared = ["X-Request-ID"]
            if status in ("429", "503") or (status == "409" and keyed):
                declared.append("Retry-After")
            if status.startswith("2") and keyed:
                declared.append("Idempotent-Replayed")
            # a 412 says the table's version; an answer that can be a 304 has a validator
            if status == "412" or (status in ("200", "304") and "304" in operation["responses"]):
                declared.append("ETag")
            elif status in _REFUSALS and "401" in operation["responses"]:
                declared.append("ETag")  # a refusal of an opened table (errors._versioned)
            if status == "200" and name == "exportTable":
                declared.append("Content-Disposition")
            if status == "401":
                declared.append("WWW-Authenticate")
            if (status in ("200", "304") and name in _VARY) or (
                gzipped and (status.startswith("2") or status == "304")
            ):
                declared.append("Vary")
            if name in _SPEAKS and status in ("200", "201"):
                declared.append("Content-Language")
            headers = response.setdefault("headers", {})
            for header in declared:
                headers.setdefault(header, {"$ref": f"#/components/headers/{header}"})


ACCEPT_LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "description": "Picks the language of the label and text fields when ?lang does not: "
    "ko or en by their q-values (a region is ignored; * stands for every language it does "
    "not name); neither acceptable, or no header: ko. The answer says which in "
    "Content-Language and varies on it (Vary)",
    "schema": {"type": "string", "example": "en-US,en;q=0.9,ko;q=0.8"},
}


def _accept_language(document: dict[str, Any]) -> None:
    """Declare the request header that picks the language of the operations whose answer
    varies on it (:data:`_VARY`), beside their ``?lang``."""
    for operation in _operations(document):
        if _VARY.get(operation.get("operationId", "")) == "Accept-Language":
            operation.setdefault("parameters", []).append(ACCEPT_LANGUAGE)


def _operations(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        operation
        for operations in document["paths"].values()
        for operation in operations.values()
        if isinstance(operation, dict) and "responses" in operation
    ]


@cache
def _default_document() -> dict[str, Any]:
    from calculator.api import create_app

    return openapi_document(create_app({"access_log": False, "migrate_on_start": False}))


def _compute_response_examples(app: Flask, document: dict[str, Any]) -> None:
    """Give each 200 JSON response the real answers to its operation's request examples."""
    client = FlaskClient(app, app.response_class, use_cookies=False)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":  # path-level parameters, not an operation
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            examples = body.get("examples")
            answer = operation["responses"].get("200", {}).get("content", {})
            if not examples or "application/json" not in answer:
                continue
            computed = {}
            for name, example in examples.items():
                response = client.open(path, method=method.upper(), json=example["value"])
                if response.status_code != 200:
                    raise RuntimeError(
                        f"the example {name!r} of {method.upper()} {path} is refused: "
                        f"{response.get_json()}"
                    )
                computed[name] = {"summary": example["summary"], "value": response.get_json()}
            answer["application/json"]["examples"] = computed


def main() -> None:
    """Print the document (``python -m calculator.api.openapi > api_spec/openapi.json``)."""
    sys.stdout.write(json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
