"""The Flask app: :func:`create_app` puts the blueprints, the store, the limits and the
handlers together (``calculator.api`` hands it out, loaded when first asked for)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from importlib.metadata import version
from typing import Any

from flask import Flask, Response, current_app, redirect, request
from flask_swagger_ui import get_swaggerui_blueprint
from werkzeug.wrappers import Response as WerkzeugResponse

from calculator.api import docs, errors, http, reference_responses, spec_setup, views
from calculator.api import sharing as _sharing  # noqa: F401 - its views join the tables blueprint
from calculator.api import table_import as _table_import  # noqa: F401 - adds its view
from calculator.api import table_members as _table_members  # noqa: F401 - adds its views
from calculator.api.config import CORS_EXPOSE_HEADERS, CORS_MAX_AGE, CORS_METHODS, Settings
from calculator.api.page import page
from calculator.api.rate_limits import init_limits
from calculator.api.table_store import init_store
from calculator.api.tables import tables
from calculator.api.views import BLUEPRINTS, bench, cached_json

__all__ = ["create_app"]

DOCS_PATH = "/v1/docs"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A configured app. ``config`` overrides settings (see :mod:`calculator.api.config`)."""
    settings = Settings.load(config)
    app = http.App(__name__)
    # "/v1//cards" is no path of the API: a 404 problem naming it, not werkzeug's redirect
    # to "/v1/cards" (an HTML body, and an absolute Location that is wrong behind a proxy)
    app.url_map.merge_slashes = False
    app.config["GOSTOP"] = settings
    # the import's own limit is set on its request alone (table_import.import_table)
    app.config["MAX_CONTENT_LENGTH"] = max(settings.max_body_bytes, settings.max_batch_bytes)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    http.configure_logging(settings.log_level)
    http.install(app)
    app.wsgi_app = views.budgeted(app.wsgi_app)  # type: ignore[method-assign,assignment]
    service_version = version("gostop-calculator")
    api = spec_setup.make_api(service_version)
    api.init_app(app)
    spec_setup.register_components(api.spec)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    init_store(app)  # the tables' database: created and migrated here
    init_limits(app)  # joins per client address; the proxies trusted to name the client
    api.register_blueprint(tables)
    service = docs.Blueprint("service", __name__, description="Documentation and health")
    _service_views(service, service_version)
    api.register_blueprint(service)
    spec_setup.document_docs_page(api.spec, DOCS_PATH)
    app.extensions["gostop_api"] = api
    errors.register(app)  # after flask-smorest: these handlers are the ones that answer
    if settings.bench_endpoint:
        app.register_blueprint(bench)

    @app.get(DOCS_PATH)
    def docs_without_slash() -> WerkzeugResponse:
        # A relative Location: right behind any proxy, whatever host and scheme it serves.
        return redirect(DOCS_PATH + "/", 308)

    docs_page = get_swaggerui_blueprint(
        DOCS_PATH,
        "/v1/openapi.json",
        config={"app_name": "Go-Stop scoring API", "validatorUrl": None},
    )
    docs_page.after_request(http.docs_policy)
    app.register_blueprint(docs_page)
    app.register_blueprint(page)  # the scorekeeper page at / (its own policy: page.py)
    if settings.compress_min_bytes:
        _compress(app, settings.compress_min_bytes)
    if settings.cors_origins:
        from flask_cors import CORS

        CORS(
            app,
            origins=list(settings.cors_origins),
            expose_headers=list(CORS_EXPOSE_HEADERS),
            methods=list(CORS_METHODS),
            max_age=CORS_MAX_AGE,
        )
    return app


def _takes_gzip(accepted: Iterable[tuple[str, float]]) -> bool:
    """Whether a client's Accept-Encoding (werkzeug's parse: value, q) takes gzip, by RFC
    9110 §12.5.3: its own entry decides, in any case ("gzip;q=0" refuses it), else "*"'s.
    flask-compress alone gzips for any mention of "gzip"."""
    wildcard = 0.0
    for value, quality in accepted:
        if value.lower() == "gzip":
            return quality > 0
        if value == "*":
            wildcard = quality
    return wildcard > 0


def _compress(app: Flask, min_bytes: int) -> None:
    """gzip JSON answers of ``min_bytes`` or more for clients that accept it (a batch of
    1,000 hands shrinks about 25×; bench/RESULTS.md has the CPU it costs).

    Not the tables' answers: their ETag is the table's version (SPEC §9), which
    flask-compress would rewrite ("3:gzip"); the proxy in front compresses them and only
    weakens the tag (W/"3"), which the tables accept.

    Every answer that may be gzipped says ``Vary: Accept-Encoding``, to the clients that
    take gzip and to the others (RFC 9110 §12.5.5: else a cache may keep the identity
    copy for every client); so does its 304, which flask-compress would not see
    (§15.4.5). Decided here alone, by what flask-compress looks at: the media type, the
    size (a 304 from :func:`~calculator.api.views.cached_body` still holds its 200's
    body here), a success or a 304, not already encoded.
    """
    from flask_compress import Compress

    app.config.update(
        COMPRESS_ALGORITHM=["gzip"],
        COMPRESS_LEVEL=6,
        COMPRESS_MIN_SIZE=min_bytes,
        COMPRESS_MIMETYPES=list(http.COMPRESSED_TYPES),
        COMPRESS_REGISTER=False,
        # gzip only, and not a streamed answer (flask-compress would pick brotli or zstd
        # for one, by its own list): the page's files are the proxy's to compress
        COMPRESS_STREAMS=False,
    )
    compress = Compress(app)

    @app.after_request
    def _compressed(response: Response) -> Response:
        length = response.content_length
        # Small answers (most) are never gzipped: nothing to say, no header work
        if (
            (length is not None and length < min_bytes)
            or response.mimetype not in http.COMPRESSED_TYPES
            or not (200 <= response.status_code < 300 or response.status_code == 304)
            or request.blueprint in http.UNCOMPRESSED_BLUEPRINTS
            or "Content-Encoding" in response.headers
            or response.is_streamed  # a sent file: never compressed here (COMPRESS_STREAMS)
        ):
            return response
        response.vary.add("Accept-Encoding")
        if (
            response.status_code == 304
            or "Accept-Encoding" not in request.headers
            or not _takes_gzip(request.accept_encodings)
        ):
            return response
        compressed: Response = compress.after_request(response)
        return compressed


READY_CHECK_SECONDS = 1.0  # /readyz asks the database at most this often per worker
_ready: dict[int, tuple[float, bool]] = {}  # id(store) → (monotonic time asked, answered)


def _database_answers(store: Any) -> bool:
    """Whether the tables' database answered a ``SELECT 1`` within the last second."""
    now = time.monotonic()
    asked = _ready.get(id(store))
    if asked is not None and now - asked[0] < READY_CHECK_SECONDS:
        return asked[1]
    try:
        store.ping()
        answered = True
    except errors.DATABASE_DOWN:
        answered = False
    _ready[id(store)] = (now, answered)
    return answered


def _service_views(service: docs.Blueprint, service_version: str) -> None:
    @service.get("/healthz")
    @service.response(200, reference_responses.HealthSchema, description="Serving")
    @service.doc(operationId="healthz")
    def healthz() -> Response:
        """Liveness"""
        return http.json_response({"status": "ok", "version": service_version})

    @service.get("/readyz")
    @service.response(200, reference_responses.HealthSchema, description="Ready")
    @service.alt_response(503, schema=reference_responses.HealthSchema, description="Not ready")
    @service.doc(operationId="readyz")
    def readyz() -> Response:
        """Readiness

        Ready when the engine loads and the tables' database answers (one `SELECT 1`, made
        at most once a second per worker: a load balancer may poll this). Not ready: 503
        with `Retry-After`.
        """
        from calculator.presets import resolve

        resolve("standard")  # the engine and its presets load
        if not _database_answers(current_app.extensions["gostop_store"]):
            response = http.json_response({"status": "not ready", "version": service_version})
            response.status_code = 503
            response.headers["Retry-After"] = str(errors.RETRY_AFTER)
            return response
        return http.json_response({"status": "ready", "version": service_version})

    @service.get("/v1/openapi.json")
    @service.response(
        200,
        {"type": "object", "additionalProperties": True},
        description="This document (OpenAPI 3.1)",
    )
    @service.alt_response(304, description="Not modified (If-None-Match)")
    @service.doc(operationId="openapi")
    def get_openapi() -> Response:
        """This document"""
        from calculator.api.openapi import openapi_document

        app = current_app._get_current_object()  # type: ignore[attr-defined]
        return cached_json("openapi", lambda: openapi_document(app))
