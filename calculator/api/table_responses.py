"""Response schemas of the table ledger (SPEC §9): documentation only (the views return
pre-serialized JSON), and the tests validate every answer against them.

The requests' schemas are in :mod:`calculator.api.table_schemas`."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from calculator.api.session_responses import RoundingOutSchema, TransferSchema
from calculator.ledger import DealerRule
from calculator.presets import Variant

RESULT_TEXT = (
    "The stateless answer for this hand (POST /v1/gostop/hands or /v1/balance/hands) with "
    "the table's rule set, stake, streak and dealer"
)
RESULT: dict[str, Any] = {
    "anyOf": [
        {"$ref": "#/components/schemas/HandResult"},
        {"$ref": "#/components/schemas/BalanceResult"},
    ],
    "description": RESULT_TEXT,
}
CHIPS_MAP: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "integer"}}
DEALER_RULES = tuple(rule.value for rule in DealerRule)
DEALER_RULE = (
    "How the table derives the next dealer after a hand whose request names no winner "
    "(a 총통 held by two players, a floor four): winner — the winner the rules choose, the "
    "dealer staying when there is none (tables created since 2026-12-05); biggest_net — the "
    "one player who nets the most, a sitter's bright sale included (tables created before). "
    "Fixed when the table was created; an export without it is of a table that used "
    "biggest_net"
)
JOIN_URL = (
    "The join link (<service root>/?join=<code>): the scorekeeper page joins the table; "
    "GET /v1/tables/{id}/qr draws it as a QR code. Relative (/?join=<code>) when the "
    "request's Host header was not a valid host"
)


def _req(field: fields.Field[Any], description: str) -> fields.Field[Any]:
    field.required = True
    field.metadata["description"] = description  # type: ignore[index]
    return field


class TableCreatedSchema(Schema):
    """A new table: its id, version and the tokens (shown only now)."""

    id = _req(fields.String(), "The table id")
    version = _req(fields.Integer(), "The table's version: +1 per event")
    scorer_token = _req(fields.String(), "Bearer token that reads and writes (shown once)")
    viewer_token = _req(fields.String(), "Bearer token that reads (shown once)")
    join_code = _req(fields.String(), "8 characters (Crockford base32) to share the table")
    join_url = _req(fields.String(), JOIN_URL)


class PersonOutSchema(Schema):
    """A roster entry."""

    id = _req(fields.String(), "Player id")
    name = fields.String(allow_none=True, required=True, metadata={"description": "Name"})


class TableHandSchema(Schema):
    """One hand of the table."""

    number = _req(fields.Integer(), "1, 2, … in the order the hands were added")
    status = _req(
        fields.String(metadata={"enum": ["active", "voided"]}), "voided hands count nothing"
    )
    nagari_streak = _req(fields.Integer(), "The streak the ledger gave this hand")
    dealer = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The dealer passed to the hand (null: not passed)"},
    )
    result = _req(fields.Raw(metadata=dict(RESULT)), RESULT_TEXT)


class TableSchema(Schema):
    """``GET /v1/tables/{id}``: the state derived from the table's events."""

    id = _req(fields.String(), "The table id")
    name = fields.String(
        allow_none=True,
        metadata={"description": "The table's name (null: none; absent: created before names)"},
    )
    version = _req(fields.Integer(), "+1 per event; the ETag")
    variant = _req(fields.String(metadata={"enum": [v.value for v in Variant]}), "The game")
    roster = _req(fields.List(fields.Nested(PersonOutSchema)), "Everyone who may play")
    ruleset = _req(
        fields.Raw(metadata={"type": "object"}),
        "The locked rule set: preset, variant, every option and the fingerprint",
    )
    stake = _req(fields.Integer(), "Chips per point")
    rounding = fields.Nested(
        Schema.from_dict({"unit": fields.Integer(required=True)}, name="TableRoundingOut"),
        allow_none=True,
        required=True,
        metadata={"description": "The settlement's rounding"},
    )
    closed = _req(fields.Boolean(), "A closed table is read-only")
    totals = _req(fields.Raw(metadata=dict(CHIPS_MAP)), "Chips won (+) or lost (−) so far")
    nagari_streak = _req(fields.Integer(), "The streak the next hand gets")
    dealer = fields.String(
        allow_none=True, required=True, metadata={"description": "Who deals the next hand"}
    )
    can_undo = _req(fields.Boolean(), "There is a change to undo")
    can_redo = _req(fields.Boolean(), "There is an undone change to redo")
    dealer_rule = _req(fields.String(metadata={"enum": list(DEALER_RULES)}), DEALER_RULE)
    join_code = _req(fields.String(), "8 characters to join the table with (POST /v1/tables/join)")
    join_url = _req(fields.String(), JOIN_URL)
    hands = _req(fields.List(fields.Nested(TableHandSchema)), "Every hand, voided ones too")


class HandAddedSchema(Schema):
    """A hand appended: its number, the new version and its result."""

    number = _req(fields.Integer(), "The hand's number")
    version = _req(fields.Integer(), "The table's new version")
    result = _req(fields.Raw(metadata=dict(RESULT)), RESULT_TEXT)


class ChangeSchema(Schema):
    """A hand whose amounts changed, with the difference per player."""

    number = _req(fields.Integer(), "The hand")
    delta = _req(fields.Raw(metadata=dict(CHIPS_MAP)), "New minus old, per player")


class ChangedSchema(Schema):
    """A change made: the new version, and every hand whose amounts it changed."""

    version = _req(fields.Integer(), "The table's new version")
    changed = _req(fields.List(fields.Nested(ChangeSchema)), "Only hands whose amounts changed")


class EventOutSchema(Schema):
    """One event of the log."""

    seq = _req(fields.Integer(), "Sequence number (= the version it made)")
    type = _req(
        fields.String(
            metadata={
                "enum": ["created", "added", "corrected", "voided", "undone", "redone", "closed"]
            }
        ),
        "What happened",
    )
    by = _req(fields.String(), "The label of the token that wrote it")
    at = _req(
        fields.String(),
        "When (UTC, ISO 8601): the writing instance's clock, never before the event before "
        "it (instances' clocks differ), so the log's times never go back",
    )
    number = fields.Integer(
        allow_none=True,
        metadata={
            "description": "The hand a correction or a void is about, as the log stores it "
            "(null for the other events; GET /v1/tables/{id}/events gives each event's hand)"
        },
    )
    reason = fields.String(allow_none=True, metadata={"description": "Why"})
    body = fields.Raw(
        allow_none=True,
        metadata={"description": "The hand (added, corrected) or the table (created)"},
    )


class LogEventSchema(EventOutSchema):
    """One event of the log, as ``GET …/events`` gives it: with the hand it is about."""

    number = fields.Integer(
        allow_none=True,
        metadata={
            "description": "The hand it is about: the hand added, corrected or voided; for "
            "undone and redone, the hand of the change taken back or made again (undo takes "
            "back the last add, correction or void in effect). Null for created and closed, "
            "which are about no hand"
        },
    )


class EventsSchema(Schema):
    """The log after ``after``, in order."""

    version = _req(fields.Integer(), "The table's version")
    events = _req(fields.List(fields.Nested(LogEventSchema)), "In order")


class TableSettlementSchema(Schema):
    """Totals and the fewest transfers, rounded to the table's unit."""

    version = _req(fields.Integer(), "The version settled")
    totals = _req(fields.Raw(metadata=dict(CHIPS_MAP)), "Per player, after rounding")
    transfers = _req(fields.List(fields.Nested(TransferSchema)), "Who pays whom")
    rounding = fields.Nested(RoundingOutSchema, allow_none=True, required=True)


class VersionSchema(Schema):
    """A change made: the new version."""

    version = _req(fields.Integer(), "The table's new version")
