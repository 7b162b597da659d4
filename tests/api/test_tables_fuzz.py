"""Schema-driven fuzzing of the table endpoints *inside* a table (schemathesis): with the
scorer's token, the table's id and its current version, so that generated bodies reach
the hand, correction and void loaders (with random headers they stop at 401/404/412).
No 5xx, every answer documented, schema-violating bodies refused."""

from __future__ import annotations

import os
import re
from typing import Any

import orjson
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from calculator.api import create_app
from ledger_support import SCENARIOS
from tests_support import FUZZ_CHECKS

# Marked fuzz: out of the default run (it would take it past a minute), run by .ci/run's
# own phase at 45 per operation (20 when run by hand: `python -m pytest -m fuzz`);
# RELIABILITY.md records the long run at 1,000.
pytestmark = pytest.mark.fuzz
EXAMPLES = int(os.environ.get("GOSTOP_FUZZ_EXAMPLES", "20"))
# In-process answers are not decoded by schemathesis: no gzip here (the live run has it).
APP = create_app({"access_log": False, "compress_min_bytes": 0})
_SEEN: list[tuple[str, str, int]] = []


@APP.after_request
def _record(response: Any) -> Any:
    from flask import request

    _SEEN.append(
        (request.method, request.url_rule.rule if request.url_rule else "", response.status_code)
    )
    return response


def _version() -> str:
    return _CLIENT.get(f"/v1/tables/{_TABLE['id']}", headers=_AUTH).headers["ETag"]


# Deleting the table would end the fuzzing inside it (test_table_access.py tests deletion).
schema = (
    schemathesis.openapi.from_wsgi("/v1/openapi.json", APP)
    .include(path_regex=r"^/v1/tables/\{id\}")
    .exclude(method="DELETE", path="/v1/tables/{id}")
)
_CLIENT = APP.test_client()
_TABLE = orjson.loads(_CLIENT.post("/v1/tables", json=SCENARIOS[0]["table"]).data)
_AUTH = {"Authorization": f"Bearer {_TABLE['scorer_token']}"}
_KEYS = iter(range(10**9))


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
def test_table_endpoints_survive_fuzzing_inside_a_table(case: schemathesis.Case) -> None:
    _inside_the_table(case)
    case.call_and_validate(checks=FUZZ_CHECKS)


def _inside_the_table(case: schemathesis.Case) -> None:
    """The case aimed at the table: its id, the scorer's token, a fresh key, its version."""
    case.path_parameters = {**(case.path_parameters or {}), "id": _TABLE["id"]}
    if "number" in case.path_parameters and not re.fullmatch(
        r"\d+", str(case.path_parameters["number"])
    ):
        case.path_parameters["number"] = 1
    headers: dict[str, Any] = {**(case.headers or {}), **_AUTH}
    if case.method != "GET":
        headers["Idempotency-Key"] = f"fuzz-{next(_KEYS)}"
        headers["If-Match"] = _version()
    case.headers = headers


def test_the_fuzzing_reached_the_bodies() -> None:
    """Writes got past access, idempotency and versions: their bodies were judged. (The
    writes are fuzzed here again: pytest-xdist may run the cases above in another worker.)"""
    for path, method in (
        ("/v1/tables/{id}/hands", "POST"),
        ("/v1/tables/{id}/hands/{number}", "PUT"),
    ):

        @given(case=schema[path][method].as_strategy())
        @settings(
            max_examples=EXAMPLES // 2,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        def write(case: schemathesis.Case) -> None:
            _inside_the_table(case)
            case.call()

        write()
    statuses = {(method, status) for method, _rule, status in _SEEN}
    assert ("POST", 422) in statuses
    assert ("PUT", 422) in statuses
    assert any(method == "POST" and status in (200, 201) for method, status in statuses)
