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

from calculator.api import responses, schemas
from calculator.api.fields import StrictList
from calculator.presets import Variant, presets

HAND_EXAMPLES: dict[str, dict[str, Any]] = {
    "cards_3p": {
        "summary": "Three players, cards listed (rules.md W13): 광박 on the loser with no bright",
        "value": {
            "ruleset": "standard",
            "stake": 100,
            "players": [
                {
                    "id": "A",
                    "captured": ["01-bright", "03-bright", "08-bright", "02-junk-1", "04-junk-1"],
                },
                {"id": "B", "captured": ["12-bright", "06-junk-1", "07-junk-1"]},
                {"id": "C", "captured": ["05-junk-1", "09-junk-1"]},
            ],
            "outcome": {"type": "stop", "winner": "A"},
        },
    },
    "tally_matgo": {
        "summary": "Matgo with counts (rules.md W27): 3 go, a shake, 광박 and 피박 → 192",
        "value": {
            "ruleset": {"preset": "standard", "options": {}},
            "players": [
                {
                    "id": "winner",
                    "tally": {"brights": 3, "ribbons": 5, "hongdan": True, "junk_value": 11},
                    "go_count": 3,
                    "shakes": 1,
                },
                {"id": "loser", "tally": {"animals": 2, "junk_value": 5}},
            ],
            "outcome": {"type": "stop", "winner": "winner"},
            "compare_with": ["wikipedia", "gamerules"],
        },
    },
    "declared_4p": {
        "summary": "Four players, declared points (rules.md W30): 광팔기, 고박 and 첫뻑",
        "value": {
            "ruleset": {
                "preset": "standard",
                "options": {"gwangpal_price": 2, "first_ppuk_points": 1},
            },
            "stake": 100,
            "players": [
                {"id": "seller", "sits_out": True, "sold_brights": 1},
                {"id": "winner", "declared": {"points": 7, "scored": ["ribbons"]}},
                {"id": "gobak", "declared": {}, "go_count": 1},
                {"id": "loser", "declared": {}},
            ],
            "outcome": {"type": "stop", "winner": "winner"},
            "events": [{"type": "first_ppuk", "player": "winner"}],
        },
    },
    "preview": {
        "summary": "A preview: no outcome, itemized points and who may stop",
        "value": {
            "players": [
                {
                    "id": "A",
                    "captured": [
                        "02-animal",
                        "04-animal",
                        "08-animal",
                        "06-animal",
                        "07-animal",
                        "09-animal",
                    ],
                },
                {"id": "B", "captured": ["01-ribbon", "02-ribbon", "03-ribbon"]},
            ],
        },
    },
}

_TAGS = [
    {"name": "gostop", "description": "Score and settle Go-Stop hands"},
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
    from calculator.api.views import score_hand

    return {
        name: {"summary": ex["summary"], "value": score_hand(ex["value"])}
        for name, ex in HAND_EXAMPLES.items()
    }


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
