"""The API's declarations: flask-smorest blueprints whose decorators generate the OpenAPI
operations, so each wire shape is declared once — on the view that serves it.

``@blueprint.arguments(Schema)`` documents the request body (or query) and loads it;
``@blueprint.response(200, Schema)`` documents the answer; :func:`problems` documents the
errors an operation can answer. Loading goes through
:class:`~calculator.api.arguments.FastParser`: the body is read with the service's size
limits and loaded by the schema's generated fast path (marshmallow itself when the fast
path is not sure, which also writes the error report). Views return pre-serialized
responses, which flask-smorest passes through untouched.

The arguments' loader is :mod:`calculator.api.arguments`; the document's Api, info and
named schemas are :mod:`calculator.api.spec_setup`.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

from flask import Response
from flask_smorest import Blueprint as SmorestBlueprint
from marshmallow import Schema

from calculator.api import responses
from calculator.api.arguments import Counter, FastParser
from calculator.api.http import PROBLEM_JSON

F = TypeVar("F", bound=Callable[..., Any])

# Problems every JSON-body operation can answer, with what each means.
BODY_PROBLEMS = {
    400: "The body is not valid JSON",
    413: "The body is over the size limit",
    415: "The body is not application/json",
    422: "The request is invalid: every problem with a pointer and a code",
    503: "The request ran past the service's deadline (GOSTOP_REQUEST_DEADLINE): retry "
    "after Retry-After seconds, or send fewer hands",
}


def _documenting_only(decorator: Callable[[F], F]) -> Callable[[F], F]:
    """``decorator`` (one of flask-smorest's) for its documentation alone.

    flask-smorest's decorators record the operation in the view's ``_apidoc`` and wrap the
    view in a call layer (``current_app.ensure_sync(view)(…)``) that runs on every request:
    four or five layers a view. Views here are plain functions returning a finished
    ``Response``, so the layers do nothing but cost; this keeps the record and drops the
    layer.
    """

    def document(view: F) -> F:
        documented = decorator(view)
        view._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return view

    return document


def _returns_response(view: Callable[..., Any]) -> None:
    """Fail closed at import: flask-smorest's response layer dumps whatever else a view
    returns with its schema, and that layer is gone (:func:`_documenting_only`)."""
    returned = view.__annotations__.get("return")
    if returned not in ("Response", Response):
        raise TypeError(
            f"{view.__qualname__} must be annotated '-> Response': views return finished "
            f"responses (got {returned!r})"
        )


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    """A flask-smorest blueprint that loads arguments with :class:`FastParser` and
    documents problem+json answers with :meth:`problems`; its decorators add no call
    layer to a view beyond the argument loader (:func:`_documenting_only`)."""

    ARGUMENTS_PARSER = FastParser()

    @staticmethod
    def doc(**kwargs: Any) -> Callable[[F], F]:
        """flask-smorest's ``doc``, adding no call layer."""
        return _documenting_only(SmorestBlueprint.doc(**kwargs))

    def response(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        """flask-smorest's ``response``, adding no call layer: the view returns a
        finished ``Response`` (checked at import)."""
        document: Callable[[F], F] = _documenting_only(super().response(*args, **kwargs))

        def decorator(view: F) -> F:
            _returns_response(view)
            return document(view)

        return decorator

    def alt_response(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        """flask-smorest's ``alt_response``, adding no call layer."""
        return _documenting_only(super().alt_response(*args, **kwargs))

    def arguments(
        self,
        schema: type[Schema] | Schema,
        *,
        location: str = "json",
        limit: str = "max_body_bytes",
        walk: Callable[[], Counter] | None = None,
        **documented: Any,
    ) -> Callable[[F], F]:
        """flask-smorest's ``arguments``: one loader layer (:class:`FastParser`) and the
        documentation, without flask-smorest's own call layer under the loader."""
        document = _documenting_only(
            super().arguments(schema, location=location, limit=limit, **documented)
        )
        load = self.ARGUMENTS_PARSER.use_args(schema, location=location, limit=limit, walk=walk)

        def decorator(view: F) -> F:
            loader = load(view)
            loader._apidoc = document(view)._apidoc  # type: ignore[attr-defined]
            return loader

        return decorator

    def problems(
        self, *statuses: int, operation_id: str | None = None, **described: str
    ) -> Callable[[F], F]:
        """Document the problem+json answers of an operation: ``statuses`` with their
        usual meaning, or ``s404="Unknown rule set"``-style keywords (and, with
        ``operation_id``, the operation's id in the same decorator)."""
        entries = {
            status: BODY_PROBLEMS.get(status, HTTPStatus(status).phrase) for status in statuses
        }
        entries.update({int(key.removeprefix("s")): text for key, text in described.items()})

        # One documentation-only decorator for them all: every flask-smorest decorator
        # wraps the view in a call layer, and these run on every request.
        documented = {
            str(status): {
                "description": text,
                "content": {PROBLEM_JSON: {"schema": responses.ProblemSchema}},
            }
            for status, text in entries.items()
        }
        extra = {} if operation_id is None else {"operationId": operation_id}
        decorator: Callable[[F], F] = self.doc(responses=documented, **extra)
        return decorator
