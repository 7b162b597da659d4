"""Service behaviour around the endpoints: unexpected errors, logs, settings."""

from __future__ import annotations

import json
import logging
from typing import Any

from calculator.api import create_app
from calculator.api.config import Settings
from calculator.api.http import JsonFormatter


def test_an_unexpected_error_is_a_500_problem_without_a_trace() -> None:
    app = create_app({"access_log": False})

    @app.get("/boom")
    def boom() -> Any:
        raise RuntimeError("secret internals at /work/main/calculator/x.py")

    response = app.test_client().get("/boom", headers={"X-Request-ID": "r-500"})
    assert response.status_code == 500
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["request_id"] == "r-500"
    text = response.get_data(as_text=True)
    assert "Traceback" not in text
    assert "secret" not in text
    assert "/work/" not in text


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(JsonFormatter().format(record))


def test_one_json_log_line_per_request_without_bodies() -> None:
    app = create_app({"access_log": True})
    collect = _Collect()
    logger = logging.getLogger("gostop.access")
    logger.addHandler(collect)
    try:
        app.test_client().post(
            "/v1/gostop/hands",
            json={"players": [{"id": "SECRET-NAME"}]},
            headers={"X-Request-ID": "log-1"},
        )
    finally:
        logger.removeHandler(collect)
    (line,) = collect.lines
    record = json.loads(line)
    assert record["request_id"] == "log-1"
    assert (record["method"], record["path"], record["status"]) == ("POST", "/v1/gostop/hands", 422)
    assert record["ms"] >= 0
    assert "SECRET-NAME" not in line


def test_settings_come_from_the_environment() -> None:
    settings = Settings.load(
        environ={
            "GOSTOP_CORS_ORIGINS": "https://a.example, https://b.example",
            "GOSTOP_ACCESS_LOG": "0",
            "GOSTOP_MAX_BODY_BYTES": "1000",
        }
    )
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.access_log is False
    assert settings.max_body_bytes == 1000
