"""The OpenAPI 3.1 document, generated from the request and response schemas.

``python -m calculator.api.openapi > api_spec/openapi.json`` regenerates the committed
copy; a test fails when the two differ. Examples are real: each response example is
computed by the engine from its request example when the document is built.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from importlib.metadata import version
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import fields

from calculator.api import responses, schemas, session_schemas
from calculator.api.examples import BALANCE_EXAMPLES, HAND_EXAMPLES, SETTLEMENT_EXAMPLES
from calculator.api.fields import StrictList
from calculator.presets import Variant, presets

_TAGS = [
    {"name": "gostop", "description": "Score and settle Go-Stop hands"},
    {"name": "balance", "description": "The 120/80/60 balance variant"},
    {"name": "sessions", "description": "Settle a whole session: who pays whom"},
    {"name": "catalog", "description": "Cards and rule sets"},
    {"name": "service", "description": "Documentation and health"},
]


def _problem(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": "Problem"}},
    }


_ERRORS = {
    "400": _problem("The body is not valid JSON"),
    "413": _problem("The body is over the size limit"),
    "415": _problem("The body is not application/json"),
    "422": _problem("The request is invalid: every problem with a pointer and a code"),
}


def _custom_fields(converter: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:
    """OpenAPI for the fields apispec does not know."""
    if isinstance(field, schemas.RulesetField):
        names = [
            alias
            for p in presets().values()
            if p.variant is Variant.GOSTOP
            for alias in (p.name, *p.aliases)
        ]
        return {
            "oneOf": [
                {"type": "string", "enum": names, "description": "A preset name or alias"},
                {"$ref": "#/components/schemas/RulesetObject"},
            ]
        }
    if isinstance(field, StrictList):
        return {"maxItems": field.max_items}
    if isinstance(field, schemas.StrictInteger):
        return {"minimum": field.minimum, "maximum": field.maximum}
    if isinstance(field, schemas.StrictString):
        if field.choices is not None:
            return {"enum": [*field.choices, *([None] if field.allow_none else [])]}
        return {"minLength": field.min_length, "maxLength": field.max_length}
    if isinstance(field, schemas.HandRequestField):
        # Each item is checked on its own: one that is not a valid HandRequest gets its own
        # problem in the results instead of failing the batch, so any value is accepted.
        return {
            "anyOf": [
                {"$ref": "#/components/schemas/HandRequest"},
                {"description": "any other value: refused with its own problem"},
            ]
        }
    return {}


def build_spec() -> APISpec:
    """The APISpec with every schema and path registered."""
    plugin = MarshmallowPlugin(schema_name_resolver=lambda schema: None)
    spec = APISpec(
        title="Go-Stop scoring and payout service",
        version=version("gostop-calculator"),
        openapi_version="3.1.0",
        plugins=[plugin],
        info={
            "description": (
                "Itemized points and explained chip settlements for Go-Stop (고스톱) and "
                "Matgo (맞고) hands, under named rule sets whose every contested house rule "
                "is an option. Errors are application/problem+json (RFC 9457) with a JSON "
                "pointer and a stable code per problem. Limits: request bodies 64 KiB "
                "(batches 4 MiB, 1,000 hands), ids 40 characters, piles 60 cards."
            ),
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        tags=_TAGS,
    )
    assert plugin.converter is not None
    plugin.converter.add_attribute_function(_custom_fields)
    for name, schema in [
        ("RulesetObject", schemas.RulesetObjectSchema),
        ("GoStopOptions", schemas.GoStopOptionsSchema),
        ("Tally", schemas.TallySchema),
        ("Declared", schemas.DeclaredSchema),
        ("Player", schemas.PlayerSchema),
        ("ChongtongHolder", schemas.HolderSchema),
        ("Outcome", schemas.OutcomeSchema),
        ("Event", schemas.EventSchema),
        ("HandRequest", schemas.HandRequestSchema),
        ("BatchRequest", schemas.BatchRequestSchema),
        ("Label", responses.LabelSchema),
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
        ("Card", responses.CardSchema),
        ("Catalog", responses.CatalogSchema),
        ("OptionOut", responses.OptionOutSchema),
        ("Preset", responses.PresetSchema),
        ("PresetList", responses.PresetListSchema),
        ("Health", responses.HealthSchema),
        ("BalanceRulesetObject", schemas.BalanceRulesetObjectSchema),
        ("BalanceOptions", schemas.BalanceOptionsSchema),
        ("BalancePlayer", session_schemas.BalancePlayerSchema),
        ("BalanceRequest", session_schemas.BalanceRequestSchema),
        ("SessionHand", session_schemas.SessionHandSchema),
        ("Rounding", session_schemas.RoundingSchema),
        ("SettlementRequest", session_schemas.SettlementRequestSchema),
        ("Transfer", responses.TransferSchema),
        ("CardPoints", responses.CardPointsSchema),
        ("BonusReceived", responses.BonusReceivedSchema),
        ("BonusGiven", responses.BonusGivenSchema),
        ("SetBonuses", responses.SetBonusesSchema),
        ("BalancePlayerOut", responses.BalancePlayerOutSchema),
        ("BalanceResult", responses.BalanceResultSchema),
        ("RoundingOut", responses.RoundingOutSchema),
        ("SessionHandOut", responses.SessionHandOutSchema),
        ("SettlementResult", responses.SettlementResultSchema),
    ]:
        spec.components.schema(name, schema=schema)
    _paths(spec)
    return spec


def _json(schema: str, description: str, examples: dict[str, Any] | None = None) -> dict:
    content: dict[str, Any] = {"schema": schema}
    if examples:
        content["examples"] = examples
    return {"description": description, "content": {"application/json": content}}


def _response_examples() -> dict[str, Any]:
    return _examples_of(HAND_EXAMPLES, "/v1/gostop/hands")


def _examples_of(examples: dict[str, Any], path: str) -> dict[str, Any]:
    """The real response to each request example (computed by the app itself)."""
    from calculator.api import create_app

    client = create_app({"access_log": False}).test_client()
    found = {}
    for name, example in examples.items():
        response = client.post(path, json=example["value"])
        assert response.status_code == 200, response.get_json()
        found[name] = {"summary": example["summary"], "value": response.get_json()}
    return found


def _paths(spec: APISpec) -> None:
    spec.path(
        "/v1/gostop/hands",
        operations={
            "post": {
                "tags": ["gostop"],
                "operationId": "scoreHand",
                "summary": "Score and settle one hand",
                "description": (
                    "Each player describes its pile in ONE entry mode: `captured` card IDs, a "
                    "`tally` of counts, or `declared` points and bak flags. Without `outcome` the "
                    "call is a preview. Add first, multiply after; all arithmetic in integers."
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": "HandRequest", "examples": HAND_EXAMPLES}
                    },
                },
                "responses": {
                    "200": _json("HandResult", "The scored hand", _response_examples()),
                    **_ERRORS,
                },
            }
        },
    )
    spec.path(
        "/v1/gostop/hands/batch",
        operations={
            "post": {
                "tags": ["gostop"],
                "operationId": "scoreHands",
                "summary": "Score up to 1,000 hands; each result is a hand result or a problem",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": "BatchRequest",
                            "example": {"hands": [HAND_EXAMPLES["cards_3p"]["value"]]},
                        }
                    },
                },
                "responses": {
                    "200": _json("BatchResult", "One entry per hand, in order"),
                    **_ERRORS,
                },
            }
        },
    )
    spec.path(
        "/v1/balance/hands",
        operations={
            "post": {
                "tags": ["balance"],
                "operationId": "scoreBalanceHand",
                "summary": "Score a 120/80/60 balance hand (the seed's Hwatu variation)",
                "description": (
                    "Every card of the deck must be captured by someone. If cards are "
                    "missing the hand is void, as the seed says: a 200 that says so, lists "
                    "the missing cards and moves no chips. A card held twice is a 422 naming "
                    "both holders."
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": "BalanceRequest",
                            "examples": BALANCE_EXAMPLES,
                        }
                    },
                },
                "responses": {
                    "200": _json(
                        "BalanceResult",
                        "The scored hand",
                        _examples_of(BALANCE_EXAMPLES, "/v1/balance/hands"),
                    ),
                    **_ERRORS,
                },
            }
        },
    )
    spec.path(
        "/v1/settlements",
        operations={
            "post": {
                "tags": ["sessions"],
                "operationId": "settleSession",
                "summary": "Settle a session: per-player totals and the fewest transfers",
                "description": (
                    "Each hand is a `net` map or a full `gostop` or `balance` hand request, "
                    "scored on the fly. Go-Stop hands without `nagari_streak` carry the "
                    "streak of the Go-Stop hand before them. Optional rounding to a unit "
                    "keeps the sum at zero; one player (the biggest winner unless named) "
                    "absorbs the remainder."
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": "SettlementRequest",
                            "examples": SETTLEMENT_EXAMPLES,
                        }
                    },
                },
                "responses": {
                    "200": _json(
                        "SettlementResult",
                        "Totals and transfers",
                        _examples_of(SETTLEMENT_EXAMPLES, "/v1/settlements"),
                    ),
                    **_ERRORS,
                },
            }
        },
    )
    ruleset_param = {
        "name": "ruleset",
        "in": "query",
        "required": False,
        "description": "A preset name: bonus values and switchable cards under it",
        "schema": {"type": "string", "maxLength": 64},
    }
    cached = {
        "ETag": {"schema": {"type": "string"}},
        "Cache-Control": {"schema": {"type": "string"}},
    }
    spec.path(
        "/v1/cards",
        operations={
            "get": {
                "tags": ["catalog"],
                "operationId": "listCards",
                "summary": "The card catalogue",
                "parameters": [ruleset_param],
                "responses": {
                    "200": {**_json("Catalog", "All cards"), "headers": cached},
                    "304": {"description": "Not modified (If-None-Match)"},
                    "404": _problem("Unknown rule set"),
                },
            }
        },
    )
    spec.path(
        "/v1/rulesets",
        operations={
            "get": {
                "tags": ["catalog"],
                "operationId": "listRulesets",
                "summary": "Presets, with every option described",
                "responses": {
                    "200": {**_json("PresetList", "Every preset"), "headers": cached},
                    "304": {"description": "Not modified (If-None-Match)"},
                },
            }
        },
    )
    spec.path(
        "/v1/rulesets/{name}",
        operations={
            "get": {
                "tags": ["catalog"],
                "operationId": "getRuleset",
                "summary": "One preset",
                "parameters": [
                    {
                        "name": "name",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "maxLength": 64},
                    }
                ],
                "responses": {
                    "200": {**_json("Preset", "The preset"), "headers": cached},
                    "304": {"description": "Not modified (If-None-Match)"},
                    "404": _problem("Unknown rule set"),
                },
            }
        },
    )
    spec.path(
        "/v1/openapi.json",
        operations={
            "get": {
                "tags": ["service"],
                "operationId": "openapi",
                "summary": "This document",
                "responses": {
                    "200": {
                        "description": "OpenAPI 3.1",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    },
                    "304": {"description": "Not modified (If-None-Match)"},
                },
            }
        },
    )
    for path, summary in (("/healthz", "Liveness"), ("/readyz", "Readiness")):
        spec.path(
            path,
            operations={
                "get": {
                    "tags": ["service"],
                    "operationId": path.strip("/"),
                    "summary": summary,
                    "responses": {
                        "200": _json("Health", "Serving"),
                        "503": _json("Health", "Not ready"),
                    },
                }
            },
        )


@cache
def openapi_document() -> dict[str, Any]:
    """The document as a dict."""
    return build_spec().to_dict()


def main() -> None:
    """Print the document (``python -m calculator.api.openapi > api_spec/openapi.json``)."""
    sys.stdout.write(json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
