"""gunicorn's sync worker whose own refusals are problem+json, like every answer of the app.

gunicorn refuses some requests before the app sees them (a request line over
``limit_request_line``, too many or too large headers, a request that is not HTTP) and
answers them with an HTML page of its own (``Worker.handle_error`` → ``util.write_error``).
:class:`ProblemWorker` answers each with the app's problem shape instead
(:func:`calculator.api.errors.problem_body`): the status, code and detail of
:func:`calculator.api.refusals.refusal`, ``Connection: close``, an ``X-Request-ID`` and the
security headers. gunicorn still decides that a request is refused, logs it and picks the
status; only the page it writes is replaced.
"""

from __future__ import annotations

import secrets
from http import HTTPStatus
from typing import Any

import orjson
from gunicorn import util
from gunicorn.workers.sync import SyncWorker

from calculator.api.errors import problem_body
from calculator.api.http import PROBLEM_JSON, REQUEST_ID, SECURITY_HEADERS
from calculator.api.refusals import Limits, Refusal, refusal


def request_id(headers: Any) -> str:
    """The request's ``X-Request-ID`` when gunicorn read the headers before refusing the
    request (deploy/run's nginx sends its own) and it has the shape the app echoes, else a
    new one as the app makes it (calculator.api.http)."""
    for name, value in headers or ():
        if name == "X-REQUEST-ID" and REQUEST_ID.fullmatch(value):
            return str(value)
    return secrets.token_hex(16)


def answer(
    refused: Refusal, *, instance: str = "", request_id: str, with_body: bool = True
) -> bytes:
    """The whole HTTP answer to a refused request, for a connection that is then closed."""
    try:
        title = HTTPStatus(refused.status).phrase
    except ValueError:
        title = "Error"
    detail = refused.detail
    body = orjson.dumps(
        problem_body(
            refused.status,
            title,
            detail,
            instance=instance,
            request_id=request_id,
            errors=[{"pointer": "", "code": refused.code, "detail": detail}],
        )
    )
    head = [
        f"HTTP/1.1 {refused.status} {title}",
        f"Content-Type: {PROBLEM_JSON}",
        f"Content-Length: {len(body)}",
        "Connection: close",
        f"X-Request-ID: {request_id}",
        *(f"{name}: {value}" for name, value in SECURITY_HEADERS.items()),
    ]
    return "\r\n".join(head).encode("latin-1") + b"\r\n\r\n" + (body if with_body else b"")


# The answer when building the problem itself failed: still problem+json, never HTML.
_LAST_BODY = (
    b'{"type":"about:blank","title":"Internal Server Error","status":500,'
    b'"detail":"the server failed to handle this request; it has been logged"}'
)
_LAST_RESORT = (
    b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/problem+json\r\n"
    b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(_LAST_BODY), _LAST_BODY)
)


class _Page:
    """Where gunicorn's own error page goes (nowhere): it stands in for the client's socket
    while gunicorn handles the error, keeping only the status line."""

    def __init__(self) -> None:
        self.written = bytearray()

    def gettimeout(self) -> float:
        return 0.0  # util.write_nonblock then writes at once, with sendall

    def setblocking(self, flag: bool) -> None:
        pass  # (in case a gunicorn release sets it before writing)

    def sendall(self, data: bytes) -> None:
        self.written += data

    def status(self) -> int | None:
        """The status of the page gunicorn wrote, if it wrote one."""
        parts = bytes(self.written[:64]).split(b" ", 2)
        if len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
            return int(parts[1])
        return None


class ProblemWorker(SyncWorker):  # type: ignore[misc]  # gunicorn has no type information
    """gunicorn's sync worker (one request at a time) whose refusals are problem+json."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """gunicorn's handling (its log line, its access log, its status) with the page
        replaced by a problem; nothing that goes wrong here may take the worker down."""
        page = _Page()
        try:
            super().handle_error(req, page, addr, exc)
        except Exception:
            self.log.exception("gunicorn's handling of a refused request failed")
        try:
            status = page.status() or int(getattr(exc, "code", 0) or 0) or 500
            limits = Limits(
                limit_request_line=self.cfg.limit_request_line,
                limit_request_fields=self.cfg.limit_request_fields,
                limit_request_field_size=self.cfg.limit_request_field_size,
            )
            # a header refused once the request line was read: gunicorn's error holds the request
            req = req or getattr(exc, "req", None)
            path = getattr(req, "path", None)
            data = answer(
                refusal(exc, status=status, limits=limits),
                instance=path if isinstance(path, str) else "",
                request_id=request_id(getattr(req, "headers", None)),
                with_body=getattr(req, "method", None) != "HEAD",
            )
        except Exception:
            self.log.exception("the problem answer to a refused request failed")
            data = _LAST_RESORT
        try:
            util.write_nonblock(client, data)
        except Exception:
            self.log.debug("Failed to send error message.")
