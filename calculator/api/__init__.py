"""The HTTP API: a Flask app factory with one blueprint per API version.

This package is the only part of ``calculator`` that imports the web stack; it maps the
wire format to the domain in :mod:`calculator.api.schemas` and back in
:mod:`calculator.api.serialize`.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import version
from typing import Any

from flask import Flask, Response
from flask_swagger_ui import get_swaggerui_blueprint

from calculator.api import errors, http
from calculator.api.config import Settings
from calculator.api.views import bench, v1

__all__ = ["create_app"]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A configured app. ``config`` overrides settings (see :mod:`calculator.api.config`)."""
    settings = Settings.load(config)
    app = Flask(__name__)
    app.config["GOSTOP"] = settings
    app.config["MAX_CONTENT_LENGTH"] = max(settings.max_body_bytes, settings.max_batch_bytes)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    http.configure_logging(settings.log_level)
    http.install(app)
    errors.register(app)
    app.register_blueprint(v1)
    if settings.bench_endpoint:
        app.register_blueprint(bench)
    docs = get_swaggerui_blueprint(
        "/v1/docs",
        "/v1/openapi.json",
        config={"app_name": "Go-Stop scoring API", "validatorUrl": None},
    )
    docs.after_request(http.docs_policy)
    app.register_blueprint(docs)
    if settings.cors_origins:
        from flask_cors import CORS

        CORS(app, origins=list(settings.cors_origins), expose_headers=["X-Request-ID", "ETag"])
    service_version = version("gostop-calculator")

    @app.get("/healthz")
    def healthz() -> Response:
        return http.json_response({"status": "ok", "version": service_version})

    @app.get("/readyz")
    def readyz() -> Response:
        from calculator.presets import resolve

        resolve("standard")  # the engine and its presets load
        return http.json_response({"status": "ready", "version": service_version})

    return app
