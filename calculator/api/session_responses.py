"""Response schemas of the balance variant and of a session's settlement: the answers of
``POST /v1/balance/hands`` and ``POST /v1/settlements``, with their transfers and rounding
(a table's settlement and share sheet reuse them).

:mod:`calculator.api.balance_json` and :mod:`calculator.api.session_json` build the
bodies. The siblings: :mod:`calculator.api.responses` (a Go-Stop hand, the problem, the
shared pieces) and :mod:`calculator.api.reference_responses` (cards, presets, codes,
health).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from calculator.api.responses import RulesetOutSchema, code_field, localized, req


class TransferSchema(Schema):
    """One payment that settles the players."""

    from_ = req(fields.String(data_key="from"), "The payer")
    to = req(fields.String(), "The payee")
    chips = req(fields.Integer(), "How much")


class CardPointsSchema(Schema):
    """Card points of one category of a balance pile."""

    kind = code_field("balance_item", "brights, animals, ribbons, junk or bonus")
    count = req(fields.Integer(), "How many cards")
    points = req(fields.Integer(), "Their points")
    cards = req(fields.List(fields.String()), "The cards")
    label = localized("Its name, in the languages asked for")


class BonusReceivedSchema(Schema):
    """A set bonus received from one other player."""

    code = code_field("set_bonus", "The set (GET /v1/codes: set_bonus)")
    from_ = req(fields.String(data_key="from"), "Who pays it")
    points = req(fields.Integer(), "How much")
    label = localized("Its name, in the languages asked for")


class BonusGivenSchema(Schema):
    """A set bonus paid to the collector."""

    code = code_field("set_bonus", "The set")
    to = req(fields.String(), "The collector")
    points = req(fields.Integer(), "How much")
    label = localized("Its name, in the languages asked for")


class SetBonusesSchema(Schema):
    """Set bonuses received and given."""

    received = fields.List(fields.Nested(BonusReceivedSchema), required=True)
    given = fields.List(fields.Nested(BonusGivenSchema), required=True)


class BalancePlayerOutSchema(Schema):
    """A balance-variant player."""

    id = req(fields.String(), "The player")
    card_points = req(fields.Integer(), "Points of its cards")
    items = req(fields.List(fields.Nested(CardPointsSchema)), "Card points by category")
    set_bonuses = req(fields.Nested(SetBonusesSchema), "Set bonuses received and given")
    total = req(fields.Integer(), "card_points + received − given")
    balance = req(fields.Integer(allow_none=True), "total − target; null when void")
    chips = req(fields.Integer(), "balance × stake (0 when void)")


class BalanceResultSchema(Schema):
    """The response of ``POST /v1/balance/hands``."""

    ruleset = req(fields.Nested(RulesetOutSchema), "The resolved rule set")
    target = req(fields.Integer(), "The break-even: 240 / players (120, 80, 60)")
    stake = req(fields.Integer(), "Chips per point of balance")
    void = req(fields.Boolean(), "Cards are missing: the hand is a tie, nobody pays")
    missing_cards = req(fields.List(fields.String()), "The cards nobody captured")
    players = req(fields.List(fields.Nested(BalancePlayerOutSchema)), "In request order")
    net = req(fields.Dict(keys=fields.String(), values=fields.Integer()), "Chips per player")
    transfers = req(fields.List(fields.Nested(TransferSchema)), "The fewest transfers")


class RoundingOutSchema(Schema):
    """How the totals were rounded."""

    unit = fields.Integer(required=True)
    raw = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "The totals before rounding"},
    )
    method = fields.String(
        required=True,
        validate=validate.OneOf(["largest_remainder", "absorber"]),
        metadata={
            "description": "`largest_remainder` (the default): every total down to its "
            "multiple of the unit, then the units left over one each to the totals that lost "
            "the most (ties: the larger total, then the earlier player) — nobody moves by a "
            "unit or more, and a larger total never ends below a smaller one. `absorber`: "
            "every total but the named absorber's to its nearest multiple (halves away from "
            "zero), the absorber's what keeps the sum at zero"
        },
    )
    absorbed_by = fields.String(
        metadata={"description": "The absorber named (method `absorber` only)"}
    )
    remainder = fields.Integer(
        metadata={
            "description": "The absorber's rounded total minus its raw one (method `absorber` only)"
        }
    )


class SessionHandOutSchema(Schema):
    """What one hand of the session moved."""

    index = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"description": "net, gostop or balance"})
    net = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    nagari_streak_after = fields.Integer(required=True, allow_none=True)
    void = req(
        fields.Boolean(),
        "A balance hand with cards missing: void, it moved nothing (POST /v1/balance/hands "
        "names the missing cards); false for every other hand",
    )


class SettlementResultSchema(Schema):
    """The response of ``POST /v1/settlements``."""

    players = req(fields.List(fields.String()), "The session's players")
    totals = req(
        fields.Dict(keys=fields.String(), values=fields.Integer()),
        "Per-player totals (rounded when asked); sum to zero",
    )
    transfers = req(
        fields.List(fields.Nested(TransferSchema)),
        "The fewest transfers that settle the totals, deterministic",
    )
    rounding = req(fields.Nested(RoundingOutSchema, allow_none=True), "Null without rounding")
    hands = req(fields.List(fields.Nested(SessionHandOutSchema)), "Each hand's net, in order")
