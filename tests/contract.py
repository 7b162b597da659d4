"""Every response the suite receives, checked against the generated OpenAPI document.

The document (``GET /v1/openapi.json``, generated from the schemas) is the contract apps
generate clients from, so the tests hold the service to it with a real JSON Schema
validator (Draft 2020-12, as OpenAPI 3.1 uses) — not a lenient marshmallow load that
would turn ``"3"`` into 3. A response whose status the operation does not document, whose
media type differs from the documented one, or whose body breaks the schema fails the
test that received it. Responses of paths the document does not describe (an unknown
path, a wrong method) must still be problem+json bodies of the ``Problem`` schema.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

_BASE = "urn:gostop:openapi"
# Served by the app but not API operations: the documentation page's static files, and
# the benchmark-only echo endpoint (enabled by a setting, never in production).
NOT_API = ("/v1/docs/<path:path>", "/v1/bench/")
# Response headers of the API's own: each one a response sends must be declared on it.
DECLARED_HEADERS = frozenset(
    {
        "x-request-id",
        "retry-after",
        "idempotent-replayed",
        "etag",
        "www-authenticate",
        "content-language",
        "vary",
        "location",
        "content-disposition",
    }
)
_RULE_PARAMETER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def openapi_path(rule: str) -> str:
    """A Flask rule (``/v1/rulesets/<name>``) as an OpenAPI path (``/v1/rulesets/{name}``)."""
    return _RULE_PARAMETER.sub(r"{\1}", rule)


class Contract:
    """Validates responses against one OpenAPI 3.1 document."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(_BASE, resource)

    @cache  # noqa: B019 - one Contract per document, kept for the whole session
    def validator(self, pointer: str) -> Draft202012Validator:
        """A validator for the schema at ``pointer`` inside the document."""
        return Draft202012Validator({"$ref": f"{_BASE}#{pointer}"}, registry=self._registry)

    def validator_for(self, schema: dict[str, Any]) -> Draft202012Validator:
        """A validator for a schema taken out of the document (its ``#/…`` references
        still point into the document)."""
        return Draft202012Validator(_anchored(schema), registry=self._registry)

    def check(
        self,
        *,
        method: str,
        rule: str | None,
        status: int,
        mimetype: str,
        body: Any,
        headers: Any = (),
    ) -> None:
        """Raise AssertionError when the response breaks the document; ``headers``
        (names sent) must be declared too, those of :data:`DECLARED_HEADERS`."""
        self._check_headers(method, rule, status, headers)
        if status == 304:
            return
        if method == "OPTIONS" and status == 204 and not body:
            return  # HTTP's own answer on any route (RFC 9110 §9.3.7): Allow, no body
        if rule is not None and rule.startswith(NOT_API) and status < 400:
            return
        operation = None
        if rule is not None:
            operation = self.document["paths"].get(openapi_path(rule), {}).get(method.lower())
        if operation is None:
            assert mimetype == "application/problem+json", (
                f"{method} {rule}: {status} {mimetype} from an undocumented operation "
                "must be a problem"
            )
            self._validate("/components/schemas/Problem", body, f"{method} {rule} {status}")
            return
        where = f"{method} {openapi_path(rule or '')} {status}"
        responses = operation["responses"]
        assert str(status) in responses, f"{where}: status not documented ({sorted(responses)})"
        content = responses[str(status)].get("content")
        if content is None:
            # a redirect's short HTML note is for browsers; any other status has no body
            assert not body or 300 <= status < 400, f"{where}: documented without a body"
            return
        assert mimetype in content, f"{where}: {mimetype} not documented ({sorted(content)})"
        pointer = (
            "/paths/"
            + openapi_path(rule or "").replace("~", "~0").replace("/", "~1")
            + f"/{method.lower()}/responses/{status}/content/"
            + mimetype.replace("~", "~0").replace("/", "~1")
            + "/schema"
        )
        self._validate(pointer, body, where)

    def _check_headers(self, method: str, rule: str | None, status: int, headers: Any) -> None:
        sent = {name.lower() for name in headers} & DECLARED_HEADERS
        if not sent or rule is None or rule.startswith(NOT_API):
            return
        operation = self.document["paths"].get(openapi_path(rule), {}).get(method.lower())
        if operation is None or str(status) not in operation["responses"]:
            return  # said by check
        declared = {h.lower() for h in operation["responses"][str(status)].get("headers", {})}
        missing = sent - declared
        assert not missing, (
            f"{method} {openapi_path(rule)} {status}: sends {sorted(missing)}, not declared"
        )

    def _validate(self, pointer: str, body: Any, where: str) -> None:
        errors = sorted(self.validator(pointer).iter_errors(body), key=lambda e: list(e.path))
        if errors:
            lines = [f"/{'/'.join(map(str, e.path))}: {e.message[:300]}" for e in errors[:5]]
            raise AssertionError(f"{where}: the body breaks the document:\n" + "\n".join(lines))


def _anchored(schema: Any) -> Any:
    """``schema`` with each local ``$ref`` ("#/components/…") made absolute."""
    if isinstance(schema, dict):
        return {
            key: _BASE + value
            if key == "$ref" and isinstance(value, str) and value.startswith("#")
            else _anchored(value)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_anchored(item) for item in schema]
    return schema


@cache
def service_contract() -> Contract:
    """The contract of the service's own generated document."""
    from calculator.api.openapi import openapi_document

    return Contract(openapi_document())
