"""Response schemas: the documented shape of every response body.

:mod:`calculator.api.serialize` builds the bodies; these schemas describe them for the
OpenAPI document, and the test suite loads every body it receives through them
(unknown fields are errors), so code and documentation cannot drift apart.
"""

from __future__ import annotations

from typing import Any, TypeVar

from marshmallow import Schema, fields, validate

FieldT = TypeVar("FieldT", bound=fields.Field[Any])


def _req(field: FieldT, description: str) -> FieldT:
    field.required = True
    field.metadata = {**field.metadata, "description": description}
    return field


def _code(code_list: str, description: str) -> fields.String:
    """A required code of a published list: the document gives its ``enum`` (docs.py)."""
    return _req(fields.String(metadata={"code_list": code_list}), description)


class LabelSchema(Schema):
    """A code's name in Korean and English."""

    ko = fields.String(required=True)
    en = fields.String(required=True)


class LocalizedSchema(Schema):
    """A label or a sentence in the languages the client asked for (``?lang``,
    ``Accept-Language``): ``ko``, ``en``, or both with ``?lang=all``."""

    ko = fields.String(metadata={"description": "Korean (the default)"})
    en = fields.String(metadata={"description": "English"})


def _localized(description: str) -> fields.Nested:
    return _req(fields.Nested(LocalizedSchema), description)


class RulesetOutSchema(Schema):
    """A resolved rule set, echoed (contract): send it back as a request's ``ruleset``."""

    variant = _req(fields.String(), "gostop or balance")
    preset = _req(fields.String(), "The preset it starts from")
    fingerprint = _req(fields.String(), "Hash of the resolved options: equal iff equal")
    overrides = _req(fields.Dict(keys=fields.String()), "The options that differ from the preset's")
    options = fields.Dict(
        keys=fields.String(),
        metadata={"description": "Every option, resolved (only with ?full_ruleset=true)"},
    )


class ItemSchema(Schema):
    """One scoring combination of a pile."""

    code = _code("item", "The scoring combination (GET /v1/codes: item)")
    points = _req(fields.Integer(), "Points of this item")
    cards = _req(fields.List(fields.String()), "The cards behind it (empty for a tally)")
    label = _localized("Its name, in the languages asked for")


class CountsSchema(Schema):
    """What a pile holds, after its switchable cards are placed."""

    brights = fields.Integer(required=True)
    animals = fields.Integer(required=True)
    ribbons = fields.Integer(required=True, metadata={"description": "Counted ribbons"})
    junk_value = fields.Integer(required=True)
    junk_cards = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Null when not given (tally)"}
    )
    cards = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Cards in the pile; null when a tally does not say"},
    )


class PlayerOutSchema(Schema):
    """A player's itemized points."""

    id = _req(fields.String(), "The player id (contract)")
    points = _req(fields.Integer(), "Base points of its pile (contract)")
    items = _req(fields.List(fields.Nested(ItemSchema)), "Scoring items (contract)")
    counts = _req(fields.Nested(CountsSchema, allow_none=True), "Null when declared")
    gukjin_as = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "Switchable card ID → animal or junk, as placed; omitted when "
            "the pile holds no switchable card"
        },
    )
    may_stop = _req(
        fields.Boolean(),
        "Its points toward the stop minimum (the three-double-junk bonus does not count) "
        "reach it: a stop by this player is accepted",
    )
    sits_out = fields.Boolean(
        metadata={"description": "true for the player who sits out (absent for the others)"}
    )
    sold = fields.Integer(
        allow_none=True, metadata={"description": "The sitter only: the cards it sold"}
    )
    entry_mode = fields.String(
        allow_none=True,
        metadata={
            "description": "No longer sent (an echo of the request): omitted since "
            "2026-12-03; a table hand stored before then may still carry it (captured, "
            "tally or declared)",
            "deprecated": True,
        },
    )


class StepSchema(Schema):
    """One explanation line; ``total`` is the running value."""

    code = _code("step", "What this step is (GET /v1/codes: step)")
    op = _code("op", "start, add or multiply")
    amount = fields.Integer(metadata={"description": "op = start: the starting amount"})
    addend = fields.Integer(metadata={"description": "op = add: what is added"})
    factor = fields.Integer(metadata={"description": "op = multiply: the factor"})
    total = _req(fields.Integer(), "The running value after this step")
    times = fields.Integer(metadata={"description": "Events the factor stands for"})
    player = fields.String(metadata={"description": "The player this step is about"})
    text = _localized(
        "The line, ready to show, in the languages asked for (its name alone: the step "
        "list of GET /v1/codes): `24 × 2 (피박: 피 3 ≤ 5) = 48`, with what triggered "
        "it (a loser's junk and the 피박 threshold, the brights the winner scored, the "
        "go count of a 고박…); a start says its name and amount"
    )


class WinnerScoreSchema(Schema):
    """The winner's base points and the steps to each loser's starting amount."""

    winner = _req(fields.String(), "The winner")
    base = _req(
        fields.Integer(),
        "Base points (or an instant win's points; its chips under chongtong_chips)",
    )
    steps = _req(
        fields.List(fields.Nested(StepSchema)), "In order: go, shakes, bombs, 멍따, 역고, nagari"
    )
    amount = _req(fields.Integer(), "What each loser starts from")


class PaymentSchema(Schema):
    """One payer → payee entry."""

    from_ = _req(fields.String(data_key="from"), "The payer (contract)")
    to = _req(fields.String(), "The payee (contract)")
    points = _req(fields.Integer(), "Points (contract); 0 for a payment priced in chips")
    chips = _req(
        fields.Integer(),
        "points × stake (contract); for a payment priced in chips, the chip price itself",
    )
    priced_in = fields.String(
        metadata={
            "description": "chips when the rule set prices this side payment or 총통 in "
            "chips (ppuk_chips, ttadak_chips, gwangpal_chips, chongtong_chips): not "
            "multiplied by the stake, and its steps count chips; absent when priced in "
            "points",
            "enum": ["chips"],
        }
    )
    reason = _code("reason", "Why this payment (GET /v1/codes: reason)")
    label = fields.Nested(
        LocalizedSchema,
        metadata={
            "description": "No longer sent: omitted since 2026-12-03 (the reason's name is "
            "its label in GET /v1/codes, list reason); a table hand stored before then may "
            "still carry it",
            "deprecated": True,
        },
    )
    text = _localized(
        "The payment in one line, ready to show: `24 × 2 (피박: 피 3 ≤ 5) = 48점 × 100 = "
        "4,800칩` (a side payment starts with its name: `첫뻑 3점 × 100 = 300칩`)"
    )
    steps = fields.List(
        fields.Nested(StepSchema),
        metadata={
            "description": "This amount, explained: a loser's own factors (광박, 피박, 멍박, "
            "고박, cover) from winner_score.amount, or the side payment's price; omitted "
            "when there is none (the loser pays winner_score.amount as it is)"
        },
    )


class OutcomeOutSchema(Schema):
    """The outcome as understood."""

    type = fields.String(required=True)
    winner = fields.String(required=True, allow_none=True)
    liable = fields.String(
        allow_none=True,
        metadata={
            "description": "The player who pays for everyone: the loser named liable (독박), "
            "or the go-caller 고박 pay-all or 역고 makes pay; omitted when none"
        },
    )


class ErrorEntrySchema(Schema):
    """One problem in the request."""

    pointer = _req(fields.String(), "JSON pointer into the request")
    code = _code("error", "Stable machine-readable code (GET /v1/codes: error)")
    detail = _req(fields.String(), "What is wrong and how to fix it")


class ComparisonProblemSchema(Schema):
    """Why the hand cannot be settled under a compared rule set."""

    title = fields.String(required=True)
    errors = fields.List(fields.Nested(ErrorEntrySchema), required=True)


class ComparisonPlayerSchema(Schema):
    """A player of a preview, under a compared rule set."""

    id = _req(fields.String(), "The player id")
    points = _req(fields.Integer(), "Base points of its pile under the compared rule set")
    may_stop = _req(fields.Boolean(), "Its points reach the compared rule set's stop minimum")


class ComparisonSchema(Schema):
    """The hand under another rule set."""

    ruleset = _req(fields.Nested(RulesetOutSchema), "The compared rule set")
    players = fields.List(
        fields.Nested(ComparisonPlayerSchema),
        metadata={
            "description": "A preview (no outcome) only, in request order: each player's "
            "points and may_stop under the compared rule set (a preview settles nothing: "
            "its payments are empty and its net and difference 0)"
        },
    )
    winner_score = fields.Nested(WinnerScoreSchema, allow_none=True)
    payments = fields.List(fields.Nested(PaymentSchema))
    net = fields.Dict(keys=fields.String(), values=fields.Integer())
    nagari_streak_after = fields.Integer()
    difference = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "Its net minus this net, per player"},
    )
    problem = fields.Nested(ComparisonProblemSchema)


class HandResultSchema(Schema):
    """The response of ``POST /v1/gostop/hands``."""

    ruleset = _req(fields.Nested(RulesetOutSchema), "The resolved rule set (contract)")
    outcome = _req(fields.Nested(OutcomeOutSchema, allow_none=True), "Null for a preview")
    stake = _req(fields.Integer(), "Chips per point")
    preview = fields.Boolean(
        metadata={
            "description": "true when no outcome was given (points only); omitted when the "
            "hand has an outcome"
        }
    )
    players = _req(fields.List(fields.Nested(PlayerOutSchema)), "In request order (contract)")
    winner_score = _req(
        fields.Nested(WinnerScoreSchema, allow_none=True), "Null when nobody won (contract)"
    )
    payments = _req(fields.List(fields.Nested(PaymentSchema)), "Every payment (contract)")
    net = _req(
        fields.Dict(keys=fields.String(), values=fields.Integer()),
        "Chips won (+) or lost (−) per player; sums to zero (contract)",
    )
    nagari_streak_after = _req(
        fields.Integer(),
        "Send as nagari_streak with the next hand (contract); counts up to 64, the most "
        "nagari_streak takes",
    )
    comparisons = fields.List(
        fields.Nested(ComparisonSchema),
        metadata={"description": "One per compare_with; omitted when none was asked"},
    )


class ProblemSchema(Schema):
    """An RFC 9457 problem (application/problem+json)."""

    type = _req(fields.String(), "A URI naming the kind of problem")
    title = _req(fields.String(), "Short summary")
    status = _req(fields.Integer(), "The HTTP status")
    detail = _req(fields.String(), "What happened")
    instance = fields.String(metadata={"description": "The request path"})
    request_id = fields.String(metadata={"description": "X-Request-ID of the request"})
    errors = fields.List(
        fields.Nested(ErrorEntrySchema),
        metadata={"description": "Every problem found, with a pointer"},
    )


class BatchItemSchema(Schema):
    """One hand of a batch: a result or a problem."""

    index = _req(fields.Integer(), "Position in the request")
    status = _req(fields.Integer(), "200, or the status a single request would get")
    result = fields.Nested(HandResultSchema)
    problem = fields.Nested(ProblemSchema)


class BatchResultSchema(Schema):
    """The response of ``POST /v1/gostop/hands/batch``."""

    results = _req(fields.List(fields.Nested(BatchItemSchema)), "In request order")
    rulesets = _req(
        fields.Dict(keys=fields.String(), values=fields.Nested(RulesetOutSchema)),
        "Each distinct rule set of the results once, by fingerprint (with every option "
        "under ?full_ruleset=true): a result's ruleset.fingerprint is its key. An entry is "
        "a rule set echo, to send back as a request's ruleset: it says the rule set as the "
        "first hand that used it named it (its preset and overrides). Hands may reach the "
        "same options from another preset (standard with wikipedia's options, and "
        "wikipedia): each result's own ruleset says the preset that hand named",
    )
    succeeded = _req(fields.Integer(), "Hands scored")
    failed = _req(fields.Integer(), "Hands refused")


class CardSchema(Schema):
    """A card of the catalogue."""

    id = _req(fields.String(), "The card ID (contract, never renamed)")
    month = _req(fields.Integer(allow_none=True), "1–12; null for a bonus card")
    kind = _req(fields.String(), "bright, animal, ribbon, junk, double_junk or bonus")
    name = _req(fields.Nested(LabelSchema), "Korean and English name")
    tags = _req(fields.List(fields.String()), "godori, hongdan, cheongdan, chodan, rain")
    junk_value = _req(
        fields.Integer(allow_none=True),
        "Worth in the junk pile; a bonus card's worth is the rule set's (0 when it is "
        "not in the deck; null under the balance variant, which does not count junk)",
    )
    in_deck = _req(fields.Boolean(), "In the deck under the rule set (a bonus card may not be)")
    switchable = _req(fields.Boolean(), "May count as junk instead of an animal under the rule set")
    points = _req(
        fields.Integer(allow_none=True),
        "Card points under a balance-variant rule set (null under Go-Stop)",
    )


class CatalogSchema(Schema):
    """The card catalogue."""

    ruleset = _req(
        fields.Nested(RulesetOutSchema),
        "The rule set the values are under: ?ruleset, else the default (standard)",
    )
    cards = _req(fields.List(fields.Nested(CardSchema)), "All 52 cards")


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

    code = _req(fields.String(), "The code (contract)")
    label = _req(fields.Nested(LabelSchema), "Korean and English name")


class CodeListSchema(Schema):
    """One published list of codes."""

    name = _code("code_list", "Which list")
    description = _req(fields.String(), "Where these codes appear")
    codes = _req(fields.List(fields.Nested(CodeEntrySchema)), "Every code of the list")


class CodesSchema(Schema):
    """The response of ``GET /v1/codes``."""

    lists = _req(fields.List(fields.Nested(CodeListSchema)), "Every list of codes")


class HealthSchema(Schema):
    """Liveness / readiness."""

    status = fields.String(required=True)
    version = fields.String(required=True)


class TransferSchema(Schema):
    """One payment that settles the players."""

    from_ = _req(fields.String(data_key="from"), "The payer")
    to = _req(fields.String(), "The payee")
    chips = _req(fields.Integer(), "How much")


class CardPointsSchema(Schema):
    """Card points of one category of a balance pile."""

    kind = _code("balance_item", "brights, animals, ribbons, junk or bonus")
    count = _req(fields.Integer(), "How many cards")
    points = _req(fields.Integer(), "Their points")
    cards = _req(fields.List(fields.String()), "The cards")
    label = _localized("Its name, in the languages asked for")


class BonusReceivedSchema(Schema):
    """A set bonus received from one other player."""

    code = _code("set_bonus", "The set (GET /v1/codes: set_bonus)")
    from_ = _req(fields.String(data_key="from"), "Who pays it")
    points = _req(fields.Integer(), "How much")
    label = _localized("Its name, in the languages asked for")


class BonusGivenSchema(Schema):
    """A set bonus paid to the collector."""

    code = _code("set_bonus", "The set")
    to = _req(fields.String(), "The collector")
    points = _req(fields.Integer(), "How much")
    label = _localized("Its name, in the languages asked for")


class SetBonusesSchema(Schema):
    """Set bonuses received and given."""

    received = fields.List(fields.Nested(BonusReceivedSchema), required=True)
    given = fields.List(fields.Nested(BonusGivenSchema), required=True)


class BalancePlayerOutSchema(Schema):
    """A balance-variant player."""

    id = _req(fields.String(), "The player")
    card_points = _req(fields.Integer(), "Points of its cards")
    items = _req(fields.List(fields.Nested(CardPointsSchema)), "Card points by category")
    set_bonuses = _req(fields.Nested(SetBonusesSchema), "Set bonuses received and given")
    total = _req(fields.Integer(), "card_points + received − given")
    balance = _req(fields.Integer(allow_none=True), "total − target; null when void")
    chips = _req(fields.Integer(), "balance × stake (0 when void)")


class BalanceResultSchema(Schema):
    """The response of ``POST /v1/balance/hands``."""

    ruleset = _req(fields.Nested(RulesetOutSchema), "The resolved rule set")
    target = _req(fields.Integer(), "The break-even: 240 / players (120, 80, 60)")
    stake = _req(fields.Integer(), "Chips per point of balance")
    void = _req(fields.Boolean(), "Cards are missing: the hand is a tie, nobody pays")
    missing_cards = _req(fields.List(fields.String()), "The cards nobody captured")
    players = _req(fields.List(fields.Nested(BalancePlayerOutSchema)), "In request order")
    net = _req(fields.Dict(keys=fields.String(), values=fields.Integer()), "Chips per player")
    transfers = _req(fields.List(fields.Nested(TransferSchema)), "The fewest transfers")


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
    void = _req(
        fields.Boolean(),
        "A balance hand with cards missing: void, it moved nothing (POST /v1/balance/hands "
        "names the missing cards); false for every other hand",
    )


class SettlementResultSchema(Schema):
    """The response of ``POST /v1/settlements``."""

    players = _req(fields.List(fields.String()), "The session's players")
    totals = _req(
        fields.Dict(keys=fields.String(), values=fields.Integer()),
        "Per-player totals (rounded when asked); sum to zero",
    )
    transfers = _req(
        fields.List(fields.Nested(TransferSchema)),
        "The fewest transfers that settle the totals, deterministic",
    )
    rounding = _req(fields.Nested(RoundingOutSchema, allow_none=True), "Null without rounding")
    hands = _req(fields.List(fields.Nested(SessionHandOutSchema)), "Each hand's net, in order")
