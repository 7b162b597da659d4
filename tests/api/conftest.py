"""API fixtures: an app, and a client that checks every response against the document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _pytest.mark.expression import Expression
from flask.testing import FlaskClient
from werkzeug.exceptions import HTTPException

from calculator.api import create_app
from contract import service_contract

# The in-process fuzzing modules (each marked fuzz). schemathesis builds every case of their
# coverage phase while they are collected (about 9 s of CPU in each xdist worker), only for
# the default run's `-m 'not fuzz'` to drop them: when the marker expression leaves fuzz out,
# they are not collected at all.
FUZZ_MODULES = frozenset({"test_fuzz.py", "test_tables_fuzz.py"})
FUZZ_MARK = "pytestmark = pytest.mark.fuzz"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.name not in FUZZ_MODULES or collection_path.parent != Path(__file__).parent:
        return None
    text = collection_path.read_text(encoding="utf-8")
    # never drop a module the marker would not drop: the expression is evaluated below as
    # if fuzz were its only mark, so any other mark in it is refused too
    if FUZZ_MARK not in text or text.count("pytest.mark.") != 1:
        raise pytest.UsageError(
            f"{collection_path} is in FUZZ_MODULES: it needs `{FUZZ_MARK}` and no other mark"
        )
    expression = config.option.markexpr
    return bool(expression) and not Expression.compile(expression).evaluate(
        lambda name, **_: name == "fuzz"
    )


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
        method=request.method,
        rule=rule,
        status=response.status_code,
        mimetype=mimetype,
        body=body,
        headers=[name for name, _value in response.headers],
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
