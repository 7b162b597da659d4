"""API fixtures: an app, and a client that checks every JSON body against its schema."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from calculator.api import create_app, responses

# (method, rule) → the schema documenting a 200 body
RESPONSE_SCHEMAS = {
    ("POST", "/v1/gostop/hands"): responses.HandResultSchema,
    ("POST", "/v1/gostop/hands/batch"): responses.BatchResultSchema,
    ("GET", "/v1/cards"): responses.CatalogSchema,
    ("GET", "/v1/rulesets"): responses.PresetListSchema,
    ("GET", "/v1/rulesets/<name>"): responses.PresetSchema,
    ("GET", "/healthz"): responses.HealthSchema,
    ("GET", "/readyz"): responses.HealthSchema,
    ("POST", "/v1/balance/hands"): responses.BalanceResultSchema,
    ("POST", "/v1/settlements"): responses.SettlementResultSchema,
}


def check_body(method: str, rule: str | None, response: Any) -> None:
    """Every JSON body matches its documented schema (unknown fields are errors)."""
    if response.status_code == 304 or response.mimetype not in (
        "application/json",
        "application/problem+json",
    ):
        return
    body = response.get_json()
    if response.mimetype == "application/problem+json":
        responses.ProblemSchema().load(body)
        assert body["status"] == response.status_code
        return
    schema = RESPONSE_SCHEMAS.get((method, rule))
    if schema is not None:
        schema().load(body)


class CheckingClient(FlaskClient):
    """A test client that validates each response body against the response schemas."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        request = response.request
        adapter = self.application.url_map.bind("localhost")
        try:
            rule = adapter.match(request.path, method=request.method, return_rule=True)[0].rule
        except Exception:
            rule = None
        check_body(request.method, rule, response)
        return response


@pytest.fixture(scope="session")
def app() -> Any:
    app = create_app({"access_log": False, "bench_endpoint": True})
    app.test_client_class = CheckingClient
    return app


@pytest.fixture
def client(app: Any) -> CheckingClient:
    return app.test_client()
