"""HTTP plumbing: JSON in and out, request IDs, one JSON log line per request, headers."""

from __future__ import annotations

import base64
import codecs
import hashlib
import logging
import re
import secrets
import sys
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

import orjson
from flask import Flask, Request, Response, current_app, g, request
from werkzeug.datastructures import Headers, LanguageAccept, MIMEAccept
from werkzeug.exceptions import (
    BadRequest,
    HTTPException,
    RequestEntityTooLarge,
    UnsupportedMediaType,
)
from werkzeug.http import parse_accept_header, parse_options_header

from calculator.api.config import Settings, SettingsError
from calculator.api.json_counts import entries
from calculator.api.json_keys import duplicated, unescape
from calculator.explain import LANGUAGES

JSON = "application/json"
PROBLEM_JSON = "application/problem+json"
# What the service gzips (GOSTOP_COMPRESS_MIN_BYTES and more, for a client that takes it),
# and the blueprints whose answers it never does (calculator.api.app._compress says why)
# (text/html: the rules page, 93 kB; the page's own files are served as streamed files,
# which the proxy in front compresses)
COMPRESSED_TYPES = frozenset({JSON, PROBLEM_JSON, "text/markdown", "text/html"})
UNCOMPRESSED_BLUEPRINTS = frozenset({"tables"})
# A client's X-Request-ID is echoed only when it has this shape (deploy/run's proxy applies
# the same pattern), so it can go into logs and JSON unescaped.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")
# On every response, the proxy's own error answers included (deploy/run renders them).
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    # JSON answers load nothing and may not be framed; /v1/docs has its own (docs_policy),
    # and so has the rules document's HTML page (rules_document.POLICY).
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
}
# (name, lower-case name, value): added once per response, each unless already set.
_STATIC_HEADERS = tuple((name, name.lower(), value) for name, value in SECURITY_HEADERS.items())
_SEPARATORS = b"{[,:"  # the ones read_json's max_tokens bounds
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)
log = logging.getLogger("gostop.access")


def coded(exception: HTTPException, code: str, pointer: str = "") -> HTTPException:
    """Tag an HTTP error with the machine-readable code its problem body will carry, and
    the pointer of its error ("", the whole request, unless it is about one value)."""
    exception.problem_code = code  # type: ignore[attr-defined]
    exception.problem_pointer = pointer  # type: ignore[attr-defined]
    return exception


class _UnsupportedEncoding(UnsupportedMediaType):
    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        # RFC 9110 §15.5.16: a 415 for a content coding says which codings are accepted.
        return [*super().get_headers(*args, **kwargs), ("Accept-Encoding", "identity")]


def current_request() -> Request:
    """The request being served, unproxied: reading an attribute through Flask's
    ``request`` proxy costs about 8k instructions (werkzeug's lookup, in Python) and
    taking the object once about 0.1k (callgrind, bench/RESULTS.md 2026-12-03)."""
    found: Request = request._get_current_object()  # type: ignore[attr-defined]
    return found


def current_settings() -> Settings:
    """The service's settings (``current_app.config["GOSTOP"]``), read without the proxy:
    ``current_app.config`` costs ~0.65 µs (werkzeug's lookup, in Python), the object taken
    once ~0.1 µs (timeit, 2026-12-05)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    settings: Settings = app.config["GOSTOP"]
    return settings


def client_language() -> str | None:
    """The language of ours that the request's ``Accept-Language`` ranks highest, or None:
    one rule for every answer that speaks a language (scoring answers, the share text)."""
    # From the environ: request.accept_languages would parse an absent header too
    header = current_request().environ.get("HTTP_ACCEPT_LANGUAGE")
    return header_language(header) if header else None


@lru_cache(maxsize=64)
def header_language(header: str) -> str | None:
    """:func:`preferred_language` of an ``Accept-Language`` value, parsed as werkzeug's
    ``request.accept_languages`` parses it; kept for the few values clients send over and
    over (a browser or an app sends the same one with every request)."""
    return preferred_language(parse_accept_header(header, LanguageAccept))


def preferred_media(offered: tuple[str, ...]) -> str | None:
    """Which of the ``offered`` media types (the first is the default) the request's
    ``Accept`` ranks highest, by werkzeug's parsing and matching, reading each type
    without its parameters: ``text/csv;charset=utf-8`` asks for ``text/csv`` (werkzeug
    matches a type with parameters only to an offer with the same ones). One that
    names a charset other than UTF-8, the only one answered, is not accepted."""
    header = current_request().environ.get("HTTP_ACCEPT")
    if not header:
        return offered[0]
    plain = []
    for value, quality in parse_accept_header(header, MIMEAccept):
        media, _, parameters = value.partition(";")
        charset = dict(parse_options_header(f"x;{parameters}")[1]).get("charset", "utf-8")
        if charset.lower() in ("utf-8", "utf8"):
            plain.append((media.strip(), quality))
    found: str | None = MIMEAccept(plain).best_match(offered)
    return found


def preferred_language(accepted: Iterable[tuple[str, float]]) -> str | None:
    """The language of ours that ``Accept-Language`` ranks highest, or None (none of ours
    is acceptable, or no header). Each of ours takes the best q of the ranges that name
    it, its own tag (``en``) or a regional one (``en-GB``: we speak one English), unless
    its own tag says q=0 ("not this one", whatever a region says); one the header does
    not name takes the q of ``*``, which stands for every language not named otherwise
    (RFC 9110 §12.5.4). The highest q wins; a tie goes to the range that came first
    (werkzeug lists ranges by specificity, then q, then the header's order), then to
    Korean. werkzeug's own ``best_match`` prefers any exact tag to a better-ranked
    regional one (``en-GB;q=0.8, ko;q=0.5`` would give ko), hence this.

    >>> from werkzeug.datastructures import LanguageAccept
    >>> from werkzeug.http import parse_accept_header
    >>> def best(header):
    ...     return preferred_language(parse_accept_header(header, LanguageAccept))
    >>> best("fr, en-GB;q=0.8, ko;q=0.5"), best("en;q=0, ko-KR;q=0.1")
    ('en', 'ko')
    >>> best("*;q=0.9, ko;q=0.1"), best("*"), best("en;q=0, en-GB"), best("fr")
    ('en', 'ko', None, None)
    """
    # (q, -position) of the range that ranks each of ours, and of the first "*"
    named: dict[str, tuple[float, int]] = {}
    refused: set[str] = set()
    wildcard: tuple[float, int] | None = None
    for position, (value, quality) in enumerate(accepted):
        tag = value.lower()
        if tag == "*":
            if wildcard is None:  # werkzeug's first: the best q
                wildcard = (quality, -position)
            continue
        primary = tag.replace("_", "-").split("-")[0]
        if primary not in LANGUAGES:
            continue
        if quality <= 0:
            if tag == primary:
                refused.add(primary)
            continue
        ranked = (quality, -position)
        before = named.get(primary)
        if before is None or ranked > before:
            named[primary] = ranked
    best: tuple[float, int, int] | None = None
    found = None
    for order, language in enumerate(LANGUAGES):
        if language in refused:
            continue
        by = named.get(language) or wildcard
        if by is not None and by[0] > 0:
            candidate = (by[0], by[1], -order)
            if best is None or candidate > best:
                best, found = candidate, language
    return found


def without_bom(data: bytes) -> bytes:
    """A body as JSON is read: past a leading byte order mark (RFC 8259 §8.1: a parser may
    ignore one; Windows editors and PowerShell write it). The CLI's files and HTTP bodies
    are read alike."""
    return data.removeprefix(codecs.BOM_UTF8)


def no_body(data: bytes) -> bool:
    """Whether a body says nothing: empty, or only whitespace (past a byte order mark)."""
    return not without_bom(data).strip()


def read_json(
    max_bytes: int, *, max_tokens: int | None = None, count: Callable[[Any], int] = entries
) -> Any:
    """The request body parsed as JSON, or a 400/413/415 problem. ``max_tokens`` bounds
    the separators in the body (``{``, ``[``, ``,`` and ``:``, or those characters in
    strings): a large body of tiny values (``[{},{},…]``, ``[0.0,0.0,…]``) would take
    10–40 times its size in memory once parsed. ``count`` counts the entries of the
    parsed body for the check of names given twice (:func:`json_keys.duplicated`)."""
    current = current_request()  # four reads: through the proxy each would cost ~8k
    encoding = current.headers.get("Content-Encoding", "").strip()
    if encoding.lower() not in ("", "identity"):
        raise coded(
            _UnsupportedEncoding(
                f"send the body uncompressed (Content-Encoding {encoding[:40]!r} is not supported)"
            ),
            "unsupported_content_encoding",
        )
    mimetype = current.mimetype
    if mimetype != JSON and not (
        mimetype.startswith("application/") and mimetype.endswith("+json")
    ):
        got = mimetype or "no Content-Type"
        raise coded(
            UnsupportedMediaType(f"send the body as application/json (got {got})"),
            "unsupported_media_type",
        )
    length = current.content_length
    if length is not None and length > max_bytes:
        raise coded(
            RequestEntityTooLarge(f"the body is {length} bytes; the limit is {max_bytes}"),
            "body_too_large",
        )
    data = current.get_data(cache=False)
    if len(data) > max_bytes:
        raise coded(
            RequestEntityTooLarge(f"the body is over the limit of {max_bytes} bytes"),
            "body_too_large",
        )
    data = without_bom(data)
    if not data.strip():
        raise coded(BadRequest("the body is empty; send a JSON object"), "empty_body")
    if max_tokens is not None:
        # one pass (the bytes less the four, counted by length): 1.7 times fewer
        # instructions than four counts, 2.5 times faster (370 kB, 2026-12-05)
        tokens = len(data) - len(data.translate(None, _SEPARATORS))
        if tokens > max_tokens:
            raise coded(
                RequestEntityTooLarge(
                    f"the body holds {tokens:,} values and separators ({{ [ , :); the "
                    f"limit is {max_tokens:,}"
                ),
                "body_too_large",
            )
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise coded(BadRequest(_not_json(data, error)), "malformed_json") from None
    # orjson keeps the last of two equal names: {"stake": 100, …, "stake": 5} would be
    # scored at 5. Such a body is refused, naming the name (json_keys: two counts, exact).
    twice = duplicated(data, document, count)
    if twice is not None:
        if twice:
            name = unescape(twice.rsplit("/", 1)[1])
            said = f"the body gives {name!r} twice in one object (at {twice})"
        else:  # a body past one request's size is not searched (json_keys)
            said = "an object of the body gives a name twice"
        raise coded(BadRequest(f"{said}: send each name once"), "duplicate_key", twice)
    return document


def _not_json(data: bytes, error: orjson.JSONDecodeError) -> str:
    """What is wrong with a body orjson refused. JSON is UTF-8 (RFC 8259): for bytes that
    are not (a file a Korean Windows editor saved as CP949, or UTF-16), say where the first
    bad byte is and what to do; orjson's own words name no byte."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as bad:
        before = data[: bad.start]
        line = before.count(b"\n") + 1
        column = bad.start - (before.rfind(b"\n") + 1) + 1
        return (
            f"the body is not UTF-8: byte 0x{data[bad.start]:02X} at line {line}, column "
            f"{column} (byte {bad.start + 1}) is not valid UTF-8 — a Korean Windows editor "
            "may have saved it as CP949 or UTF-16: save it as UTF-8"
        )
    if error.msg.startswith("number is infinity"):  # orjson's words for 1E400
        return (
            f"the number at line {error.lineno}, column {error.colno} is too large to read "
            "(past 1.7976931348623157e308): send the amount meant, within the field's maximum"
        )
    if error.msg.startswith("depth limit exceeded"):  # orjson's words past its 1,024 levels
        return (
            f"the body is nested more than 1024 levels deep (at line {error.lineno}, column "
            f"{error.colno}); a request is a JSON object a few levels deep"
        )
    return f"the body is not valid JSON: {error}"


def json_response(
    body: Any, status: int = 200, mimetype: str = JSON, headers: FixedHeaders | None = None
) -> Response:
    """A UTF-8 JSON response (Korean text unescaped), with ``headers`` after its own. A 200
    JSON answer is an :class:`AnswerResponse`, made and sent without werkzeug's copies:
    every endpoint's alike, the benchmarks' echo included (SPEC §8 compares the scoring
    endpoints with it: a faster path for them alone would flatter the ratio, not make
    scoring cheaper)."""
    data = orjson.dumps(body)
    if status == 200 and mimetype == JSON:
        return AnswerResponse.of(data, headers)
    response = Response(data, status=status, mimetype=mimetype)
    if headers is not None:
        for name, value in headers.pairs:
            response.headers.add(name, value)
    return response


def json_text_response(text: bytes, headers: FixedHeaders | None = None) -> Response:
    """A 200 UTF-8 JSON answer already written as JSON text (a batch's, joined once from
    its pieces): :func:`json_response`'s answer without its ``dumps``, which would copy
    the text once more."""
    return AnswerResponse.of(text, headers)


class FixedHeaders:
    """Headers whose names and values are known before any request (a scoring answer's
    ``Content-Language`` and ``Vary`` for each shape), checked once by werkzeug's own
    ``Headers.add`` when made: :meth:`AnswerResponse.of` adds them to an answer's list as
    they are, without checking each value again on every answer (two ``Headers.add``
    calls cost about as much as making the rest of the response)."""

    __slots__ = ("pairs",)

    def __init__(self, *pairs: tuple[str, str]) -> None:
        checked = Headers()
        for name, value in pairs:
            checked.add(name, value)  # raises ValueError for a value with a newline
        self.pairs: tuple[tuple[str, str], ...] = tuple(checked.items())


class App(Flask):
    """Flask, whose automatic answer to ``OPTIONS`` (a route's, and a browser's CORS
    preflight) is a 204 with the allowed methods in ``Allow``: no body, so no media type.
    Flask's own is an empty 200 said to be ``text/html``, the one answer of the service
    that was neither JSON nor problem+json (a new user's pass, 2026-12-06)."""

    def make_default_options_response(self) -> Response:
        response = super().make_default_options_response()
        response.status_code = 204
        del response.headers["Content-Type"]
        return response


class AnswerResponse(Response):
    """A 200 JSON answer (:func:`json_response`: the scoring answers and every other JSON
    answer, the echo baseline included), sent with its own headers when werkzeug would send
    a copy of them unchanged.

    werkzeug's ``get_wsgi_headers`` copies the headers before adjusting them for the
    server: the copy adds each header again (checking its value for newlines once more,
    with every ``isinstance`` of ``Headers.extend``), ~50k instructions for an answer's ten
    headers (callgrind, 2026-12-06). It adjusts only a ``Location`` or
    ``Content-Location`` (made absolute), a status without a body (1xx, 204, 304) and a
    missing ``Content-Length``, none of which a scoring answer has; a response that has
    any of them (a later hook could add one, a view its Location) gets werkzeug's own
    copy. Nothing changes the headers after this call: the list sent is the one the copy
    would hold, in the same order.
    """

    @classmethod
    def of(cls, body: bytes, more: FixedHeaders | None = None) -> AnswerResponse:
        """``AnswerResponse(body, mimetype=JSON)`` with ``more`` headers added after its
        own, made without werkzeug's ``__init__`` chain (``Response.__init__`` and its
        base's: the mimetype's charset, the status parsed, a header looked for before each
        is set), which costs about as much again as the attributes it ends with (timeit,
        2026-12-06): the same attributes, the same headers in the same order (checked once
        at import, below). ``more``'s pairs were checked by ``Headers.add`` when they were
        made: they go into the list as that call would put them."""
        response = cls.__new__(cls)
        headers = response.headers = Headers()
        headers.add("Content-Type", JSON)
        headers.add("Content-Length", str(len(body)))
        if more is not None:
            headers._list.extend(more.pairs)
        response._status = "200 OK"
        response._status_code = 200
        response.direct_passthrough = False
        response._on_close = []
        response.response = [body]
        return response

    def get_wsgi_headers(self, environ: Any) -> Headers:
        status = self.status_code
        headers = self.headers
        if 200 <= status < 300 and status != 204:
            length = False
            for name, _value in headers:
                lower = name.lower()
                if lower == "content-length":
                    length = True
                elif lower == "location" or lower == "content-location":
                    break
            else:
                if length:
                    return headers
        copied: Headers = super().get_wsgi_headers(environ)
        return copied


def _made_alike(body: bytes, more: FixedHeaders | None = None) -> bool:
    """Whether :meth:`AnswerResponse.of` makes what werkzeug's ``__init__`` makes, with
    ``more`` added by ``Headers.add``."""
    made, initialized = AnswerResponse.of(body, more), AnswerResponse(body, mimetype=JSON)
    for name, value in more.pairs if more is not None else ():
        initialized.headers.add(name, value)
    return (
        vars(made) == vars(initialized)
        and made.headers.to_wsgi_list() == initialized.headers.to_wsgi_list()
    )


if not (
    _made_alike(b'{"ok":true}')
    and _made_alike(b"{}", FixedHeaders(("Content-Language", "ko"), ("Vary", "Accept-Language")))
):  # pragma: no cover - a werkzeug that builds otherwise
    raise ImportError("calculator.api.http: AnswerResponse.of no longer makes a Response alike")


def docs_policy(response: Response) -> Response:
    """The interactive docs' Content-Security-Policy: their own scripts, styles and images
    only, the page's inline script allowed by its hash, nothing from anywhere else."""
    allowed = ""
    if response.mimetype == "text/html" and not response.direct_passthrough:
        for script in _INLINE_SCRIPT.findall(response.get_data()):
            digest = base64.b64encode(hashlib.sha256(script).digest()).decode()
            allowed += f" 'sha256-{digest}'"
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; script-src 'self'{allowed}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    return response


def install(app: Flask) -> None:
    """Request IDs, timing, security headers and the access log."""
    app.before_request(_start)
    app.after_request(_finish)


def _start() -> None:
    g.started = time.perf_counter()
    given = request.headers.get("X-Request-ID", "")
    # 32 random hex digits, as uuid4().hex gives, without building a UUID object
    g.request_id = given if REQUEST_ID.fullmatch(given) else secrets.token_hex(16)


def _finish(response: Response) -> Response:
    headers = response.headers
    headers["X-Request-ID"] = g.get("request_id", "")
    # One pass over the headers a view set (Headers.setdefault scans them per header).
    present = {name.lower() for name, _value in headers.items()}
    for name, lower, value in _STATIC_HEADERS:
        if lower not in present:
            headers.add(name, value)
    settings = current_settings()
    if settings.cors_origins:
        # The answer depends on Origin (CORS headers or none), also when a request has no
        # Origin or one that is not allowed: a cache must not serve it to another origin.
        response.vary.add("Origin")
    if settings.access_log:
        started = g.get("started")
        log.info(
            "request",
            extra={
                "fields": {
                    "request_id": headers["X-Request-ID"],
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "bytes": response.calculate_content_length(),
                    "ms": round((time.perf_counter() - started) * 1000, 3) if started else None,
                }
            },
        )
    return response


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and any ``fields``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(line).decode()


# A join code in a URL's query (the page's join link, ?join=CODE) is a secret: whoever
# reads it joins the table. Logs never carry it (SPEC §9: tokens never logged).
_JOIN_CODE = re.compile(r"([?&;]join=)[^&;#\s\"']*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every ``join=`` query value replaced.

    >>> redact('"GET /?join=7K3MQ810&lang=en HTTP/1.1" 200')
    '"GET /?join=[redacted]&lang=en HTTP/1.1" 200'
    """
    return _JOIN_CODE.sub(r"\1[redacted]", text)


class RedactingFilter(logging.Filter):
    """Redacts join codes from a log record's message (Flask's development server logs
    every request line with its query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def configure_logging(level: str) -> None:
    """Send the service's logs to stderr as JSON lines (once per process), at ``level``
    (a level's name, in any case)."""
    if not isinstance(logging.getLevelName(level.upper()), int):
        raise SettingsError(
            f"GOSTOP_LOG_LEVEL is {level!r}: give DEBUG, INFO, WARNING, ERROR or CRITICAL"
        )
    root = logging.getLogger("gostop")
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
        root.propagate = False
    root.setLevel(level.upper())
