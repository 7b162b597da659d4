"""Every error becomes an RFC 9457 ``application/problem+json`` body; never a stack trace.

422 bodies list every problem found, each with a JSON ``pointer`` into the request, a
stable ``code`` and a ``detail`` that says how to fix it.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, g, request
from gunicorn.http.errors import ParseException
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from calculator.api.coded_errors import pointer_errors
from calculator.api.http import PROBLEM_JSON, json_response
from calculator.api.refusals import refusal
from calculator.api.serialize import issues_json
from calculator.errors import (
    AmbiguousHandError,
    GoStopError,
    ImpossibleHandError,
    InvalidHandError,
    InvalidRulesError,
    InvalidSessionError,
    InvalidTableError,
    counted,
    more_problems,
    moved_to,
    pointer,
)
from calculator.ledger import TooCostlyError
from calculator.ledger.share_line import ShareError
from calculator.limits import MAX_PROBLEMS, DeadlineExceeded
from calculator.piles import CARD_CODES

log = logging.getLogger("gostop.errors")
RETRY_AFTER = 5  # seconds a client waits after a 503 for the deadline


def _database_down_errors() -> tuple[type[Exception], ...]:
    """The errors of a database that cannot be reached now: SQLAlchemy's (a refused
    connection, an exhausted pool) and the drivers' own (the store speaks to them directly)."""
    import sqlite3

    import sqlalchemy.exc

    found: list[type[Exception]] = [
        sqlalchemy.exc.OperationalError,
        sqlalchemy.exc.InterfaceError,
        sqlalchemy.exc.TimeoutError,
        sqlite3.OperationalError,
        sqlite3.InterfaceError,
    ]
    try:
        import psycopg
    except ImportError:  # pragma: no cover - SQLite only
        pass
    else:
        found += [psycopg.OperationalError, psycopg.InterfaceError]
    return tuple(found)


DATABASE_DOWN = _database_down_errors()

_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
}

_TYPES: dict[type[GoStopError], str] = {
    InvalidRulesError: "invalid-rules",
    ImpossibleHandError: "impossible-hand",
    InvalidHandError: "invalid-hand",
    AmbiguousHandError: "ambiguous-hand",
    ShareError: "invalid-share-text",
    TooCostlyError: "table-too-costly",
    InvalidTableError: "invalid-table",
    InvalidSessionError: "invalid-session",
}


def problem(
    status: int,
    title: str,
    detail: str,
    *,
    kind: str | None = None,
    errors: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """A problem body; ``kind`` names the problem type (``urn:gostop:problem:<kind>``)."""
    return problem_body(
        status,
        title,
        detail,
        instance=request.path,
        request_id=g.get("request_id", ""),
        kind=kind,
        errors=errors,
    )


def problem_body(
    status: int,
    title: str,
    detail: str,
    *,
    instance: str,
    request_id: str,
    kind: str | None = None,
    errors: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """:func:`problem` without a request context: also the body of the refusals gunicorn's
    worker answers itself, before the app sees the request (calculator/api/worker.py)."""
    body: dict[str, Any] = {
        "type": f"urn:gostop:problem:{kind}" if kind else "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
        "instance": instance,
        "request_id": request_id,
    }
    if errors is not None:
        body["errors"] = errors
    return body


def _summary(errors: list[dict[str, str]]) -> str:
    """A 422's ``detail``: how many problems, and the first where its pointer says (an
    empty pointer is the request as a whole, not ``/``: that would name a field "")."""
    first = errors[0]
    where = f"at {first['pointer']}" if first["pointer"] else "in the request as a whole"
    return f"{counted(len(errors), 'problem')}; first {where}: {first['detail']}"


def validation_problem(error: ValidationError, prefix: str = "") -> dict[str, Any]:
    """A 422 body for a request that does not match its schema."""
    # the fields' problems first, then the cards' the schema stage adds (their details'
    # pointers moved with the hand), then the counts of what is not listed
    found = sorted(pointer_errors(error.messages), key=_listed_after)
    errors = []
    for path, code, detail in found[:MAX_PROBLEMS]:
        at = prefix + pointer(path)
        said = moved_to(detail, at) if code in CARD_CODES else detail
        errors.append({"pointer": at, "code": code, "detail": said})
    if len(found) > MAX_PROBLEMS:
        errors += issues_json([more_problems(len(found) - MAX_PROBLEMS)], prefix)
    return problem(
        422,
        "The request does not match the schema",
        _summary(errors),
        kind="invalid-request",
        errors=errors,
    )


def _listed_after(found: tuple[Any, str, str]) -> int:
    code = found[1]
    return 2 if code == "too_many_problems" else 1 if code in CARD_CODES else 0


def domain_problem(error: GoStopError) -> dict[str, Any]:
    """A 422 body for a request the engine cannot score (a hand inside a batch: its error
    :func:`calculator.errors.relocated` first, its details' pointers with it)."""
    errors = issues_json(error.issues)
    return problem(
        422,
        error.title,
        _summary(errors),
        kind=_TYPES.get(type(error), "invalid-hand"),
        errors=errors,
    )


def _unavailable(detail: str, code: str) -> Response:
    """A 503 problem the client retries after ``Retry-After`` (SPEC §8: load or the
    deadline, never a 500)."""
    body = problem(
        503, "Service Unavailable", detail, errors=[{"pointer": "", "code": code, "detail": detail}]
    )
    response = json_response(body, 503, PROBLEM_JSON)
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def _versioned(response: Response) -> Response:
    """A refusal of a request that opened a table (its token checked) carries the table's
    ETag, as every table answer does (SPEC §9): a client reads the version without parsing
    the detail. A 412 has set its own (the version now)."""
    version = g.get("table_version")
    if version is not None and "ETag" not in response.headers:
        response.headers["ETag"] = f'"{version}"'
    return response


def register(app: Flask) -> None:
    """Install the handlers on ``app``."""

    @app.errorhandler(ValidationError)
    def _validation(error: ValidationError) -> Response:
        return _versioned(json_response(validation_problem(error), 422, PROBLEM_JSON))

    @app.errorhandler(GoStopError)
    def _domain(error: GoStopError) -> Response:
        return _versioned(json_response(domain_problem(error), 422, PROBLEM_JSON))

    @app.errorhandler(DeadlineExceeded)
    def _deadline(error: DeadlineExceeded) -> Response:
        return _unavailable(
            f"{error}; retry later, or send fewer hands in one request", "deadline_exceeded"
        )

    def _database_down(error: Exception) -> Response:
        # The ledger's database cannot be reached (refused, dropped, out of connections,
        # locked past the busy timeout): a 503 the client retries, never a 500 (SPEC §8).
        # The driver's first line tells the operator which ("Connection refused", "attempt
        # to write a readonly database", "no such table"…); drivers name no password.
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()
        fields = {
            "request_id": g.get("request_id"),
            "error": type(error).__name__,
            "reason": reason[0][:200] if reason else "",
        }
        log.error("the database cannot be reached", extra={"fields": fields})
        return _unavailable(
            "the tables' database cannot be reached; retry in a few seconds", "unavailable"
        )

    for kind in DATABASE_DOWN:
        app.register_error_handler(kind, _database_down)

    @app.errorhandler(ParseException)
    def _unreadable(error: Exception) -> Response:
        # gunicorn refused the body while a view was reading it (a malformed chunk): the
        # client's 400, as gunicorn's worker answers a refused head, not an unexpected 500.
        refused = refusal(error, status=getattr(error, "code", 400), limits=None)
        detail = refused.detail
        errors = [{"pointer": "", "code": refused.code, "detail": detail}]
        body = problem(refused.status, HTTPStatus(refused.status).phrase, detail, errors=errors)
        return _versioned(json_response(body, refused.status, PROBLEM_JSON))

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Response:
        status = error.code or 500
        detail = error.description or error.name
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            detail = f"{request.method} is not allowed here; use {', '.join(error.valid_methods)}"
        code = getattr(error, "problem_code", None) or _HTTP_CODES.get(status, "http_error")
        if code == "not_found":  # an unknown path: say where the paths are
            detail = (
                f"there is no {request.path}; every path of the API is described at "
                "/v1/docs (and /v1/openapi.json)"
            )
        # The pointer "" is the whole request (RFC 6901): most are not about one field.
        at = getattr(error, "problem_pointer", "")
        body = problem(
            status, error.name, detail, errors=[{"pointer": at, "code": code, "detail": detail}]
        )
        response = json_response(body, status, PROBLEM_JSON)
        # A header the error gives twice (two challenges) is sent twice, not the last.
        given: set[str] = set()
        for name, value in error.get_headers():
            lower = name.lower()
            if lower == "content-type":
                continue
            if lower in given:
                response.headers.add(name, value)
            else:
                response.headers[name] = value
                given.add(lower)
        return _versioned(response)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        log.exception("unhandled error", extra={"fields": {"request_id": g.get("request_id")}})
        body = problem(
            500,
            "Internal Server Error",
            "the server failed to handle this request; it has been logged",
        )
        return json_response(body, 500, PROBLEM_JSON)
