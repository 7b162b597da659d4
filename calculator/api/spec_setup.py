"""The OpenAPI document's frame: the Api (:func:`make_api`, :class:`GoStopApi`), the
service's info, the named schemas (:data:`COMPONENTS`, :func:`register_components`, with
what apispec does not know of our fields) and the documentation page's paths.

The operations come from the views' decorators (:mod:`calculator.api.docs`); their
arguments are loaded by :mod:`calculator.api.arguments`.
"""

from __future__ import annotations

import copy
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Api
from marshmallow import Schema, fields
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
from calculator.api.coded_errors import NOT_BLANK_PATTERN
from calculator.api.fields import StrictInteger, StrictList, StrictString
from calculator.api.table_schemas import FORBIDDEN
from calculator.codes import CODE_LISTS
from calculator.presets import Variant, presets
from calculator.settlement import MAX_SAFE_CHIPS

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
        """Operations document their own problems
        (:meth:`calculator.api.docs.Blueprint.problems`)."""


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
