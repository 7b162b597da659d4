"""Response schemas of the service's reference listings: the card catalogue
(``GET /v1/cards``), the presets with every option (``GET /v1/rulesets``), the code lists
(``GET /v1/codes``), and the health checks' answer.

:mod:`calculator.api.reference_json` builds the bodies. The siblings:
:mod:`calculator.api.responses` (a Go-Stop hand, the problem, the shared pieces) and
:mod:`calculator.api.session_responses` (a balance hand, a session's settlement).
"""

from __future__ import annotations

from marshmallow import Schema, fields

from calculator.api.responses import LabelSchema, RulesetOutSchema, code_field, req


class CardSchema(Schema):
    """A card of the catalogue."""

    id = req(fields.String(), "The card ID (contract, never renamed)")
    month = req(fields.Integer(allow_none=True), "1–12; null for a bonus card")
    kind = req(fields.String(), "bright, animal, ribbon, junk, double_junk or bonus")
    name = req(fields.Nested(LabelSchema), "Korean and English name")
    tags = req(fields.List(fields.String()), "godori, hongdan, cheongdan, chodan, rain")
    junk_value = req(
        fields.Integer(allow_none=True),
        "Worth in the junk pile; a bonus card's worth is the rule set's (0 when it is "
        "not in the deck; null under the balance variant, which does not count junk)",
    )
    in_deck = req(fields.Boolean(), "In the deck under the rule set (a bonus card may not be)")
    switchable = req(fields.Boolean(), "May count as junk instead of an animal under the rule set")
    points = req(
        fields.Integer(allow_none=True),
        "Card points under a balance-variant rule set (null under Go-Stop)",
    )


class CatalogSchema(Schema):
    """The card catalogue."""

    ruleset = req(
        fields.Nested(RulesetOutSchema),
        "The rule set the values are under: ?ruleset, else the default (standard)",
    )
    cards = req(fields.List(fields.Nested(CardSchema)), "All 52 cards")


class OptionOutSchema(Schema):
    """An option of a rule set, described."""

    name = fields.String(required=True)
    type = fields.String(required=True, metadata={"description": "boolean, integer or string"})
    allowed = fields.List(fields.String(), required=True, allow_none=True)
    minimum = fields.Integer(required=True, allow_none=True)
    maximum = fields.Integer(required=True, allow_none=True)
    nullable = fields.Boolean(required=True)
    null_means = fields.String(required=True, allow_none=True)
    default = fields.Raw(
        required=True, allow_none=True, metadata={"description": "The standard default"}
    )
    value = fields.Raw(
        required=True, allow_none=True, metadata={"description": "This preset's value"}
    )
    summary = fields.String(required=True)
    section = fields.String(
        required=True,
        metadata={"description": "The section of the rules document that explains it"},
    )
    link = fields.String(
        required=True,
        metadata={
            "description": "That section in GET /v1/rules (path and heading anchor)",
            "example": "/v1/rules#45-피박-pi-bak",
        },
    )


class PresetSchema(Schema):
    """A preset, with every option."""

    name = fields.String(required=True)
    fingerprint = fields.String(required=True)
    variant = fields.String(required=True)
    title = fields.String(required=True)
    description = fields.String(required=True)
    aliases = fields.List(fields.String(), required=True)
    options = fields.List(fields.Nested(OptionOutSchema), required=True)


class PresetListSchema(Schema):
    """Every preset."""

    rulesets = fields.List(fields.Nested(PresetSchema), required=True)


class CodeEntrySchema(Schema):
    """A code with its Korean and English label."""

    code = req(fields.String(), "The code (contract)")
    label = req(fields.Nested(LabelSchema), "Korean and English name")


class CodeListSchema(Schema):
    """One published list of codes."""

    name = code_field("code_list", "Which list")
    description = req(fields.String(), "Where these codes appear")
    codes = req(fields.List(fields.Nested(CodeEntrySchema)), "Every code of the list")


class CodesSchema(Schema):
    """The response of ``GET /v1/codes``."""

    lists = req(fields.List(fields.Nested(CodeListSchema)), "Every list of codes")


class HealthSchema(Schema):
    """Liveness / readiness."""

    status = fields.String(required=True)
    version = fields.String(required=True)
