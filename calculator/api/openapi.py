"""The OpenAPI 3.1 document, generated from the views' declarations.

The operations come from the flask-smorest decorators on each view
(:mod:`calculator.api.views`), the schemas from the same marshmallow classes that load
requests. Examples are real: each response example is computed by the app itself from
its request example when the document is built.

``python -m calculator.api.openapi > api_spec/openapi.json`` regenerates the committed
copy; a test fails when the two differ.
"""

from __future__ import annotations

import copy
import json
import sys
from functools import cache
from typing import Any

from flask import Flask
from flask.testing import FlaskClient


def openapi_document(app: Flask | None = None) -> dict[str, Any]:
    """The document of ``app`` (by default, an app with the default settings)."""
    if app is None:
        return _default_document()
    document: dict[str, Any] = copy.deepcopy(app.extensions["gostop_api"].spec.to_dict())
    _database_down(document)
    _compute_response_examples(app, document)
    return document


DATABASE_DOWN = (
    "The tables' database cannot be reached (`unavailable`): retry after Retry-After seconds"
)


def _database_down(document: dict[str, Any]) -> None:
    """Every operation on the tables' database may answer 503 while it cannot be reached
    (calculator.api.errors: DATABASE_DOWN)."""
    for path, operations in document["paths"].items():
        if not path.startswith("/v1/tables"):
            continue
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = operation["responses"]
            if "503" in answers:
                answers["503"]["description"] += (
                    f"; or: {DATABASE_DOWN[0].lower()}{DATABASE_DOWN[1:]}"
                )
            else:
                answers["503"] = {
                    "description": DATABASE_DOWN,
                    "content": {
                        "application/problem+json": {
                            "schema": {"$ref": "#/components/schemas/Problem"}
                        }
                    },
                }


@cache
def _default_document() -> dict[str, Any]:
    from calculator.api import create_app

    return openapi_document(create_app({"access_log": False, "migrate_on_start": False}))


def _compute_response_examples(app: Flask, document: dict[str, Any]) -> None:
    """Give each 200 JSON response the real answers to its operation's request examples."""
    client = FlaskClient(app, app.response_class, use_cookies=False)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":  # path-level parameters, not an operation
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            examples = body.get("examples")
            answer = operation["responses"].get("200", {}).get("content", {})
            if not examples or "application/json" not in answer:
                continue
            computed = {}
            for name, example in examples.items():
                response = client.open(path, method=method.upper(), json=example["value"])
                if response.status_code != 200:
                    raise RuntimeError(
                        f"the example {name!r} of {method.upper()} {path} is refused: "
                        f"{response.get_json()}"
                    )
                computed[name] = {"summary": example["summary"], "value": response.get_json()}
            answer["application/json"]["examples"] = computed


def main() -> None:
    """Print the document (``python -m calculator.api.openapi > api_spec/openapi.json``)."""
    sys.stdout.write(json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
