"""API fixtures: an app, and a client that checks every response against the document."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.exceptions import HTTPException

from calculator.api import create_app
from contract import service_contract


def check_response(app: Any, response: Any) -> None:
    """The response matches the generated OpenAPI document (status, media type, body)."""
    request = response.request
    adapter = app.url_map.bind("localhost")
    try:
        rule = adapter.match(request.path, method=request.method, return_rule=True)[0].rule
    except HTTPException:
        rule = None
    mimetype = response.mimetype or ""
    if mimetype.endswith("json"):
        body = response.get_json()
    elif mimetype.startswith("text/") or mimetype.endswith("+xml"):
        body = response.get_data(as_text=True)
    else:
        body = response.data
    service_contract().check(
        method=request.method, rule=rule, status=response.status_code, mimetype=mimetype, body=body
    )
    if mimetype == "application/problem+json":
        assert body["status"] == response.status_code


class CheckingClient(FlaskClient):
    """A test client that validates each response against the OpenAPI document."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        check_response(self.application, response)
        return response


@pytest.fixture(scope="session")
def app() -> Any:
    app = create_app({"access_log": False, "bench_endpoint": True})
    app.test_client_class = CheckingClient
    return app


@pytest.fixture
def client(app: Any) -> CheckingClient:
    return app.test_client()
