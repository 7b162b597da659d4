"""The API's declarations: flask-smorest blueprints whose decorators generate the OpenAPI
operations, so each wire shape is declared once — on the view that serves it.

``@blueprint.arguments(Schema)`` documents the request body (or query) and loads it;
``@blueprint.response(200, Schema)`` documents the answer; :func:`problems` documents the
errors an operation can answer. Loading goes through :class:`FastParser`: the body is read
with the service's size limits and loaded by the schema's generated fast path (marshmallow
itself when the fast path is not sure, which also writes the error report). Views return
pre-serialized responses, which flask-smorest passes through untouched.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Iterable
from functools import wraps
from http import HTTPStatus
from typing import Any, Protocol, TypeVar

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Response, request
from flask_smorest import Api
from flask_smorest import Blueprint as SmorestBlueprint
from marshmallow import Schema, ValidationError, fields
from webargs.flaskparser import FlaskParser
from werkzeug.datastructures import MultiDict
from werkzeug.routing import Rule

from calculator.api import (
    query_schemas,
    reference_responses,
    responses,
    ruleset_schemas,
    schemas,
    session_responses,
    session_schemas,
)
from calculator.api.coded_errors import NOT_BLANK_PATTERN, Coded
from calculator.api.fields import StrictInteger, StrictList, StrictString
from calculator.api.http import PROBLEM_JSON, current_request, current_settings, read_json
from calculator.api.strict_schema import StrictSchema
from calculator.api.table_schemas import FORBIDDEN
from calculator.codes import CODE_LISTS
from calculator.presets import Variant, presets
from calculator.settlement import MAX_SAFE_CHIPS

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

# Named schemas of the document (components), registered before any operation so that
# every operation refers to them by these names.
COMPONENTS: tuple[tuple[str, type[Schema]], ...] = (
    ("RulesetObject", ruleset_schemas.RulesetObjectSchema),
    ("GoStopOptions", ruleset_schemas.GoStopOptionsSchema),
    ("Tally", schemas.TallySchema),
    ("Declared", schemas.DeclaredSchema),
    ("Player", schemas.PlayerSchema),
    ("ChongtongHolder", schemas.HolderSchema),
    ("Outcome", schemas.OutcomeSchema),
    ("Event", schemas.EventSchema),
    ("HandRequest", schemas.HandRequestSchema),
    ("BatchRequest", schemas.BatchRequestSchema),
    ("CardsQuery", query_schemas.CardsQuerySchema),
    ("AnswerQuery", query_schemas.AnswerQuerySchema),
    ("Label", responses.LabelSchema),
    ("Localized", responses.LocalizedSchema),
    ("RulesetOut", responses.RulesetOutSchema),
    ("Item", responses.ItemSchema),
    ("Counts", responses.CountsSchema),
    ("PlayerOut", responses.PlayerOutSchema),
    ("Step", responses.StepSchema),
    ("WinnerScore", responses.WinnerScoreSchema),
    ("Payment", responses.PaymentSchema),
    ("OutcomeOut", responses.OutcomeOutSchema),
    ("ErrorEntry", responses.ErrorEntrySchema),
    ("ComparisonProblem", responses.ComparisonProblemSchema),
    ("Comparison", responses.ComparisonSchema),
    ("HandResult", responses.HandResultSchema),
    ("Problem", responses.ProblemSchema),
    ("BatchItem", responses.BatchItemSchema),
    ("BatchResult", responses.BatchResultSchema),
    ("Card", reference_responses.CardSchema),
    ("Catalog", reference_responses.CatalogSchema),
    ("OptionOut", reference_responses.OptionOutSchema),
    ("Preset", reference_responses.PresetSchema),
    ("PresetList", reference_responses.PresetListSchema),
    ("CodeEntry", reference_responses.CodeEntrySchema),
    ("CodeList", reference_responses.CodeListSchema),
    ("Codes", reference_responses.CodesSchema),
    ("Health", reference_responses.HealthSchema),
    ("BalanceRulesetObject", ruleset_schemas.BalanceRulesetObjectSchema),
    ("BalanceOptions", ruleset_schemas.BalanceOptionsSchema),
    ("BalancePlayer", session_schemas.BalancePlayerSchema),
    ("BalanceRequest", session_schemas.BalanceRequestSchema),
    ("SessionHand", session_schemas.SessionHandSchema),
    ("Rounding", session_schemas.RoundingSchema),
    ("SettlementRequest", session_schemas.SettlementRequestSchema),
    ("Transfer", session_responses.TransferSchema),
    ("CardPoints", session_responses.CardPointsSchema),
    ("BonusReceived", session_responses.BonusReceivedSchema),
    ("BonusGiven", session_responses.BonusGivenSchema),
    ("SetBonuses", session_responses.SetBonusesSchema),
    ("BalancePlayerOut", session_responses.BalancePlayerOutSchema),
    ("BalanceResult", session_responses.BalanceResultSchema),
    ("RoundingOut", session_responses.RoundingOutSchema),
    ("SessionHandOut", session_responses.SessionHandOutSchema),
    ("SettlementResult", session_responses.SettlementResultSchema),
)

INFO = {
    "description": (
        "Itemized points and explained chip settlements for Go-Stop (고스톱) and "
        "Matgo (맞고) hands, under named rule sets whose every contested house rule "
        "is an option. Errors are application/problem+json (RFC 9457) with a JSON "
        "pointer and a stable code per problem; `GET /v1/codes` lists every code with "
        "its Korean and English label. Limits: request bodies 64 KiB "
        "(batches 4 MiB, 1,000 hands), ids 40 characters, piles 60 cards. Phones following "
        "a table poll `GET /v1/tables/{id}` (or its events `?after=N`) every 2–3 seconds "
        "with If-None-Match: an unchanged table answers an empty 304."
    ),
    "license": {"name": "MIT", "identifier": "MIT"},
}


def _custom_fields(converter: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """OpenAPI for the properties of our fields that apispec does not know."""
    if isinstance(field, ruleset_schemas.RulesetField):
        names = [
            alias
            for p in presets().values()
            if p.variant is field.variant
            for alias in (p.name, *p.aliases)
        ]
        obj = "RulesetObject" if field.variant is Variant.GOSTOP else "BalanceRulesetObject"
        return {
            "oneOf": [
                {"type": "string", "enum": names, "description": "A preset name or alias"},
                {"$ref": f"#/components/schemas/{obj}"},
            ]
        }
    if isinstance(field, StrictList):
        # the list's own bound, unless its documentation names a tighter one that the rules
        # check after it (the players of a hand: 2 to 4, read up to 8)
        return {"maxItems": field.metadata.get("maxItems", field.max_items)}
    if isinstance(field, StrictInteger):
        return {"minimum": field.minimum, "maximum": field.maximum}
    if isinstance(field, StrictString):
        if field.choices is not None:
            return {"enum": [*field.choices, *([None] if field.allow_none else [])]}
        found: dict[str, Any] = {"minLength": field.min_length, "maxLength": field.max_length}
        if field.not_blank is not None:  # whitespace alone is refused too
            found["pattern"] = NOT_BLANK_PATTERN
        return found
    if isinstance(field, schemas.HandRequestField):
        # Each item is checked on its own: one that is not a valid HandRequest gets its own
        # problem in the results instead of failing the batch, so any value is accepted.
        return {
            "anyOf": [
                {"$ref": "#/components/schemas/HandRequest"},
                {"description": "any other value: refused with its own problem"},
            ]
        }
    if isinstance(field, session_schemas.NetMap):
        # the keys are session players (1–40 characters), the chips what a hand's net
        # can reach: NetMap refuses the rest
        return {
            "type": "object",
            "propertyNames": {"minLength": 1, "maxLength": schemas.MAX_ID},
            "additionalProperties": {
                "type": "integer",
                "minimum": -MAX_SAFE_CHIPS,
                "maximum": MAX_SAFE_CHIPS,
            },
            "maxProperties": session_schemas.MAX_SESSION_PLAYERS,
        }
    code_list = field.metadata.get("code_list")
    if code_list is not None:  # a code of a published list (GET /v1/codes)
        return {"enum": list(CODE_LISTS[code_list])}
    return {}


class Counter(Protocol):
    """What counts a body's entries for :func:`~calculator.api.http.read_json` (its
    ``count``), measuring more on the way for the view (batch_bounds.Walk)."""

    def entries(self, document: object) -> int: ...


class FastParser(FlaskParser):
    """Loads a request the service's way, for flask-smorest's ``arguments`` decorator.

    JSON bodies are read by :func:`calculator.api.http.read_json` (content type, size
    limit — ``limit`` names the setting — and malformed JSON, each its own problem) and
    loaded by the schema's fast path; query strings are loaded by the schema. Errors are
    raised as they are (``ValidationError``, domain errors) for the one error module.
    With ``walk``, a new :class:`Counter` counts each body's entries (one walk for what
    the view measures too) and is passed to the view as ``walk``.
    """

    def use_args(  # type: ignore[override]
        self,
        argmap: type[Schema] | Schema,
        req: Any = None,
        *,
        location: str | None = None,
        limit: str = "max_body_bytes",
        walk: Callable[[], Counter] | None = None,
        **kwargs: Any,
    ) -> Callable[[F], F]:
        schema = argmap() if isinstance(argmap, type) else argmap
        # None: the query string, loaded by the schema; else the JSON body's fast path
        strict = None if location == "query" else schema
        if strict is not None and not isinstance(strict, StrictSchema):
            raise TypeError(f"a JSON body is loaded by a StrictSchema, not {schema!r}")

        known = parameter_names(schema)
        # The load of an empty query string, kept once it has succeeded with scalar
        # values alone: most requests send no query, and a marshmallow load of nothing
        # costs about what serializing the answer's players does (cProfile, pure build).
        # The same load made it; each request gets its own copy.
        empty: list[dict[str, Any]] = []

        def decorator(view: F) -> F:
            @wraps(view)
            def wrapper(*args: Any, **kw: Any) -> Any:
                if strict is None:
                    # No QUERY_STRING, no arguments: the copy, without building request.args
                    if empty and not current_request().environ.get("QUERY_STRING"):
                        loaded = dict(empty[0])
                    else:
                        query = request.args
                        loaded = schema.load(single_values(query, known))
                        if not known.issuperset(query):
                            refuse_near_misses(query, known)
                        # (once: a QUERY_STRING of "&" alone has no arguments either)
                        if not query and not empty and _scalars(loaded):
                            empty.append(dict(loaded))
                elif walk is None:
                    settings = current_settings()
                    loaded = strict.load_fast(read_json(getattr(settings, limit)))
                else:  # the body counted by a walk of the view's, which it is given
                    settings = current_settings()
                    counter = kw["walk"] = walk()
                    # the body not bound to a name: held by nothing once loaded, so that a
                    # batch can let each hand go once scored (score_requests.score_items)
                    loaded = strict.load_fast(
                        read_json(getattr(settings, limit), count=counter.entries)
                    )
                return view(loaded, *args, **kw)

            return wrapper  # type: ignore[return-value]

        return decorator


def parameter_names(schema: Schema) -> frozenset[str]:
    """The query parameters ``schema`` reads."""
    return frozenset(f.data_key or name for name, f in schema.fields.items())


def load_query(schema: Schema, known: frozenset[str]) -> dict[str, Any]:
    """The request's query string loaded by ``schema``, whose parameters are ``known``
    (:func:`parameter_names`), checked as :class:`FastParser` checks it (each parameter
    once, near misses refused): for the views that read it themselves, after their
    access checks (the table reads)."""
    query = request.args
    loaded: dict[str, Any] = schema.load(single_values(query, known))
    if not known.issuperset(query):
        refuse_near_misses(query, known)
    return loaded


def single_values(query: MultiDict[str, str], known: frozenset[str]) -> dict[str, str]:
    """``query``'s parameters, one value each; a ``known`` one given more than once is
    refused (422 ``duplicate_parameter`` at the parameter): ``?lang=en&lang=ko`` used to be
    read as its first value, silently — the one place every query is checked so.
    Parameters the operation does not read (a cache buster) are not looked at.

    >>> from werkzeug.datastructures import MultiDict
    >>> single_values(MultiDict([("lang", "en"), ("_", "1"), ("_", "2")]), frozenset({"lang"}))
    {'lang': 'en', '_': '1'}
    >>> try:
    ...     single_values(MultiDict([("lang", "en"), ("lang", "ko")]), frozenset({"lang"}))
    ... except ValidationError as error:
    ...     print(error.messages["lang"][0])
    given 2 times ('en', 'ko'): give each query parameter once
    """
    repeated: dict[str, list[str]] = {}
    for name, given in query.lists():
        if len(given) > 1 and name in known:
            shown = ", ".join(repr(value[:20]) for value in given[:4])
            more = ", …" if len(given) > 4 else ""
            repeated[name] = [
                Coded(
                    f"given {len(given)} times ({shown}{more}): give each query parameter once",
                    "duplicate_parameter",
                )
            ]
    if repeated:
        raise ValidationError(repeated)
    return query.to_dict()


MAX_UNKNOWN_PARAMETERS = 10
"""Unknown query parameters looked at for a near miss, at most (the request line is
4 KiB at most: gunicorn's ``limit_request_line``)."""


# What clients call a parameter of ours by another name (refused with the name meant)
_OTHER_NAMES = {"language": "lang", "locale": "lang"}


def refuse_near_misses(parameters: Iterable[str], known: frozenset[str]) -> None:
    """Refuse an unknown query parameter that is a near miss of a known one: a typo the
    client would never notice (``?full_rulset=true`` answers as if it were absent).
    Parameters far from every known one (a client's cache buster, ``?_=1700000000``) pass.

    Names are compared in lower case, and the usual other names of a known one
    (``language`` or ``locale`` for ``lang``) are near misses too: ``?LANG=en`` or
    ``?language=en`` would otherwise be read as absent, an answer in Korean that the
    client did not ask for.

    >>> refuse_near_misses(["_", "lang"], frozenset({"lang", "full_ruleset"}))
    >>> for name in ("Lang", "LANG", "language", "FULL_RULESET"):
    ...     try:
    ...         refuse_near_misses([name], frozenset({"lang", "full_ruleset"}))
    ...     except ValidationError as error:
    ...         print(error.messages[name][0][:53])
    unknown query parameter; did you mean 'lang'? (the pa
    unknown query parameter; did you mean 'lang'? (the pa
    unknown query parameter; did you mean 'lang'? (the pa
    unknown query parameter; did you mean 'full_ruleset'?
    """
    errors: dict[str, list[str]] = {}
    allowed = ", ".join(sorted(known))
    for name in list(parameters)[:MAX_UNKNOWN_PARAMETERS]:
        if name in known:
            continue
        lower = name.lower()
        alias = _OTHER_NAMES.get(lower)
        close = [alias] if alias in known else []
        close = close or difflib.get_close_matches(lower, known, n=1, cutoff=0.7)
        if close:
            errors[name] = [
                Coded(
                    f"unknown query parameter; did you mean {close[0]!r}? "
                    f"(the parameters here: {allowed})",
                    "unknown_field",
                )
            ]
    if errors:
        raise ValidationError(errors)


def _scalars(loaded: Any) -> bool:
    """``loaded`` is a dict of immutable scalars: a copy of it shares nothing mutable."""
    return type(loaded) is dict and all(
        value is None or type(value) in (str, int, bool) for value in loaded.values()
    )


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


def document_docs_page(spec: APISpec, path: str) -> None:
    """The interactive documentation page (served by flask-swagger-ui) in the document."""
    spec.path(
        rule=Rule(path),
        operations={
            "get": {
                "tags": ["service"],
                "operationId": "docsRedirect",
                "summary": "Redirects to the documentation page",
                "responses": {
                    "308": {
                        "description": "To the page (a relative Location)",
                        "headers": {"Location": {"schema": {"type": "string"}}},
                    }
                },
            }
        },
    )
    spec.path(
        rule=Rule(path + "/"),  # flask-smorest's plugin reads the path from a Flask rule
        operations={
            "get": {
                "tags": ["service"],
                "operationId": "docs",
                "summary": "Interactive documentation (works with no network access)",
                "responses": {
                    "200": {
                        "description": "An HTML page",
                        "content": {"text/html": {"schema": {"type": "string"}}},
                    }
                },
            }
        },
    )


class GoStopApi(Api):  # type: ignore[misc]
    """flask-smorest's Api, serving no documents itself (the v1 blueprint serves the
    document with ETag and computed examples) and adding no generic error responses:
    every operation documents its own problems."""

    DEFAULT_ERROR_RESPONSE_NAME = None

    def _register_doc_blueprint(self) -> None:
        """The document is served by the v1 blueprint, with caching headers."""

    def _register_error_handlers(self) -> None:
        """Errors are handled by :mod:`calculator.api.errors` (problem+json)."""

    def _register_responses(self) -> None:
        """Operations document their own problems (:func:`problems`)."""


def _inline(schema: type[Schema]) -> None:
    """Name no schema on the fly: the named ones are registered (:data:`COMPONENTS`)."""


def make_api(version: str) -> GoStopApi:
    """An Api whose spec carries the service's info and named schemas."""
    # apispec documents None (inline the schema) but annotates the resolver as returning str
    plugin = MarshmallowPlugin(schema_name_resolver=_inline)  # type: ignore[arg-type]
    api = GoStopApi(
        spec_kwargs={
            "title": "Go-Stop scoring and payout service",
            "version": version,
            "openapi_version": "3.1.0",
            "marshmallow_plugin": plugin,
            "info": INFO,
        }
    )
    return api


# A table hand's body: the two variants' requests less what the table sets, so that a
# client generated from the document offers no field the service refuses (table_schemas.
# TABLE_HAND refers to them)
TABLE_COMPONENTS = (("TableHand", "HandRequest"), ("TableBalanceHand", "BalanceRequest"))


def _table_hand(request: dict[str, Any]) -> dict[str, Any]:
    """A hand request's document less the fields a table sets (refused in a table hand)."""
    body = copy.deepcopy(request)
    for name in FORBIDDEN:
        body["properties"].pop(name, None)
    body["required"] = [name for name in body.get("required", ()) if name not in FORBIDDEN]
    if "outcome" in body["properties"]:  # a table stores played hands: no preview
        body["properties"]["outcome"] = {
            "$ref": "#/components/schemas/Outcome",
            "description": "How the hand ended (a table stores played hands, not previews)",
        }
        body["required"].append("outcome")
    if "dealer" in body["properties"]:
        body["properties"]["dealer"]["description"] = (
            "Leave it out: the table passes its dealer (the last winner; after a drawn "
            "hand the same) when the dealer plays the hand. A hand that names one keeps "
            "it, and the table's next dealer follows from it (a table whose deal went "
            "out of step)"
        )
    body["description"] = (
        "A hand of a table: the request of its variant less "
        + ", ".join(FORBIDDEN)
        + " (the table sets them)"
    )
    return body


def register_components(spec: APISpec) -> None:
    """Name the schemas, and teach the converter our fields (before any operation)."""
    plugin = next(p for p in spec.plugins if isinstance(p, MarshmallowPlugin))
    assert plugin.converter is not None
    # apispec leaves add_attribute_function unannotated
    plugin.converter.add_attribute_function(_custom_fields)  # type: ignore[no-untyped-call]
    for name, schema in COMPONENTS:
        spec.components.schema(name, component=exactly_one(schema), schema=schema)
    for name, source in TABLE_COMPONENTS:
        spec.components.schema(name, component=_table_hand(spec.components.schemas[source]))


def exactly_one(schema: type[Schema]) -> dict[str, Any]:
    """The ``oneOf`` of a schema whose request gives exactly one of some fields
    (:attr:`~calculator.api.strict_schema.StrictSchema.exactly_one_of`), or nothing."""
    names: tuple[str, ...] = getattr(schema, "exactly_one_of", ())
    return {"oneOf": [{"required": [name]} for name in names]} if names else {}
