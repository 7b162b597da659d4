"""What gunicorn's own refusals of a request are answered: status, problem code, detail.

gunicorn refuses some requests itself: a request line over ``limit_request_line`` (414),
too many header fields or one too large (431), a request line, method, version or header
that is not HTTP (400), an unsupported ``Transfer-Encoding`` (501) or ``Expect`` (417), a
malformed chunked body (400). :func:`refusal` gives each the code nginx's own page gives the
same refusal behind deploy/run (``header_too_large``, ``bad_request``…) and a detail that
names the limit and the fix. The gunicorn worker (calculator/api/worker.py) answers the
refusals of a request's head with it, the app (calculator/api/errors.py) those of a body it
was reading. gunicorn's status is kept, except where it is wrong: a well-formed HTTP
version other than 1.x (``HTTP/2.0``) is a 505, as RFC 9110 §15.6.6 has it and nginx answers
it, not a 400; a malformed PROXY protocol header is the client's 400, not a 500. Only class
names are looked at: nothing here imports gunicorn.
"""

from __future__ import annotations

from dataclasses import dataclass

_ERRORS = "gunicorn.http.errors"


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """gunicorn's limits on a request's head (its settings of the same names), for the
    details that name them."""

    limit_request_line: int
    limit_request_fields: int
    limit_request_field_size: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """What a refused request is answered: its status, its problem code and detail."""

    status: int
    code: str
    detail: str


def _is(error: BaseException, *names: str) -> bool:
    """Whether ``error`` is one of gunicorn's request errors of these class names (or a
    subclass): by name, because each gunicorn release has its own set of them."""
    return any(
        kind.__module__ == _ERRORS and kind.__name__ in names for kind in type(error).__mro__
    )


def _quoted(value: object) -> str:
    """A value from the request, shortened and quoted for a detail."""
    return repr(str(value)[:40])


# The refusals whose answer is one sentence, with at most one value of the error (the
# attribute named; "{}" in the detail): gunicorn's error class names, the status, the
# code and the detail.
_REFUSALS: tuple[tuple[tuple[str, ...], int, str, str | None, str], ...] = (
    (
        ("InvalidRequestMethod",),
        400,
        "bad_request",
        "method",
        "the method {} is not valid: send it in capitals (GET, POST, PUT, DELETE…)",
    ),
    (
        ("InvalidRequestLine",),
        400,
        "bad_request",
        None,
        "the request line is not valid HTTP: send METHOD /path HTTP/1.1, one space apart, "
        "the path percent-encoded, ending in CRLF",
    ),
    (
        ("ObsoleteFolding",),
        400,
        "bad_request",
        "hdr",
        "the header {} goes on over several lines (obsolete line folding): send each "
        "header on one line",
    ),
    (
        ("InvalidHeaderName",),
        400,
        "bad_request",
        "hdr",
        "the header name {} is not valid: send names of letters, digits and hyphens, each "
        "followed by a colon",
    ),
    (
        ("InvalidChunkSize", "ChunkMissingTerminator", "InvalidChunkExtension"),
        400,
        "bad_request",
        None,
        "the chunked body is malformed: send each chunk as its size in hex, CRLF, the "
        "bytes, CRLF, and 0 CRLF CRLF last — or send a Content-Length instead",
    ),
    (
        ("UnsupportedTransferCoding",),
        501,
        "unsupported_transfer_coding",
        "hdr",
        "Transfer-Encoding {} is not supported: send the body with a Content-Length, or "
        "Transfer-Encoding: chunked",
    ),
    (
        ("ExpectationFailed",),
        417,
        "expectation_failed",
        "expect",
        "Expect {} is not supported: send Expect: 100-continue or no Expect header",
    ),
    (
        ("InvalidSchemeHeaders",),
        400,
        "bad_request",
        None,
        "the headers that give the scheme (X-Forwarded-Proto…) contradict each other: send one",
    ),
    (
        # gunicorn answers a 500 for a PROXY protocol header: the client's (proxy's) fault
        ("InvalidProxyLine", "InvalidProxyHeader"),
        400,
        "bad_request",
        None,
        "the PROXY protocol header is not valid: check the proxy in front",
    ),
    (
        # gunicorn's 403s: a PROXY header from an address not allowed to send one
        ("ForbiddenProxyRequest",),
        403,
        "http_error",
        None,
        "this address may not send a PROXY protocol header: check the proxy in front",
    ),
)


def refusal(error: BaseException, *, status: int, limits: Limits | None) -> Refusal:
    """The answer to a request gunicorn refused with ``error``, gunicorn having chosen
    ``status``: the same status unless it is wrong, the code nginx's own page gives the same
    refusal (deploy/run), a detail that says what to fix. An error not known here keeps
    gunicorn's status with a generic code."""
    if _is(error, "InvalidResponseHeader", "InvalidResponseHeaderName"):
        pass  # the app's header, not the request: gunicorn's 500
    elif _is(error, "LimitRequestLine"):
        limit = f"{limits.limit_request_line} bytes" if limits else "the server's limit"
        return Refusal(
            status=414,
            code="uri_too_long",
            detail=f"the request line is over {limit}: send the parameters in the body or "
            "shorten them",
        )
    elif _is(error, "LimitRequestHeaders"):
        reason = str(error)
        if reason == "limit request headers fields" and limits:
            detail = (
                f"the request has more than {limits.limit_request_fields} header fields; "
                "send fewer headers"
            )
        elif reason == "limit request headers fields size" and limits:
            detail = (
                f"a request header line is over {limits.limit_request_field_size} bytes; "
                "send shorter headers"
            )
        else:
            detail = (
                "the request's headers are over the server's limits; send fewer or shorter headers"
            )
        return Refusal(status=431, code="header_too_large", detail=detail)
    elif _is(error, "InvalidHTTPVersion"):
        version = getattr(error, "version", None)
        if isinstance(version, tuple):  # well formed, but not HTTP/1.x
            major, minor = version
            return Refusal(
                status=505,
                code="http_version_not_supported",
                detail=f"HTTP/{major}.{minor} is not supported: send HTTP/1.1",
            )
        return Refusal(
            status=400,
            code="bad_request",
            detail=f"the HTTP version {_quoted(version)} is not valid: send HTTP/1.1",
        )
    elif _is(error, "InvalidHeader"):
        header = str(getattr(error, "hdr", ""))
        if header.upper() == "CONTENT-LENGTH":
            detail = (
                "the Content-Length header is not valid: send it once, as a whole number of "
                "bytes, and not with Transfer-Encoding"
            )
        elif header.upper() == "TRANSFER-ENCODING":
            detail = (
                "the Transfer-Encoding header is not valid: send chunked once and last, or "
                "a Content-Length instead"
            )
        else:
            detail = (
                f"the header {_quoted(header)} is not valid HTTP: send each header as "
                "Name: value on its own line ending in CRLF, with no control characters"
            )
        return Refusal(status=400, code="bad_request", detail=detail)
    else:
        for names, status_given, code, attribute, said in _REFUSALS:
            if _is(error, *names):
                shown = _quoted(getattr(error, attribute, "")) if attribute else ""
                return Refusal(status=status_given, code=code, detail=said.format(shown))
    if status >= 500:
        detail = "the server failed to handle this request; it has been logged"
    elif status == 403:  # gunicorn's own: a PROXY header or TLS it does not accept
        detail = "the server does not accept this connection: check the proxy or TLS in front"
    else:
        detail = "the request is not valid HTTP; check its request line and headers"
    return Refusal(
        status=status, code="bad_request" if status == 400 else "http_error", detail=detail
    )
