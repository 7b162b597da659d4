"""Response schemas of a Go-Stop hand: the documented shape of the answer of
``POST /v1/gostop/hands`` and of its batch, of the problem every refusal answers, and the
pieces the other response schemas share (labels, the rule set echo, field helpers).

:mod:`calculator.api.serialize` builds the bodies; these schemas describe them for the
OpenAPI document, and the test suite loads every body it receives through them
(unknown fields are errors), so code and documentation cannot drift apart. The siblings:
:mod:`calculator.api.reference_responses` (cards, presets, codes, health) and
:mod:`calculator.api.session_responses` (a balance hand, a session's settlement).
"""

from __future__ import annotations

from typing import Any, TypeVar

from marshmallow import Schema, fields

FieldT = TypeVar("FieldT", bound=fields.Field[Any])


def req(field: FieldT, description: str) -> FieldT:
    """``field``, required and described."""
    field.required = True
    field.metadata = {**field.metadata, "description": description}
    return field


def code_field(code_list: str, description: str) -> fields.String:
    """A required code of a published list: the document gives its ``enum`` (spec_setup.py)."""
    return req(fields.String(metadata={"code_list": code_list}), description)


class LabelSchema(Schema):
    """A code's name in Korean and English."""

    ko = fields.String(required=True)
    en = fields.String(required=True)


class LocalizedSchema(Schema):
    """A label or a sentence in the languages the client asked for (``?lang``,
    ``Accept-Language``): ``ko``, ``en``, or both with ``?lang=all``."""

    ko = fields.String(metadata={"description": "Korean (the default)"})
    en = fields.String(metadata={"description": "English"})


def localized(description: str) -> fields.Nested:
    """A required label or sentence in the languages asked for (:class:`LocalizedSchema`)."""
    return req(fields.Nested(LocalizedSchema), description)


class RulesetOutSchema(Schema):
    """A resolved rule set, echoed (contract): send it back as a request's ``ruleset``."""

    variant = req(fields.String(), "gostop or balance")
    preset = req(fields.String(), "The preset it starts from")
    fingerprint = req(fields.String(), "Hash of the resolved options: equal iff equal")
    overrides = req(fields.Dict(keys=fields.String()), "The options that differ from the preset's")
    options = fields.Dict(
        keys=fields.String(),
        metadata={"description": "Every option, resolved (only with ?full_ruleset=true)"},
    )


class ItemSchema(Schema):
    """One scoring combination of a pile."""

    code = code_field("item", "The scoring combination (GET /v1/codes: item)")
    points = req(fields.Integer(), "Points of this item")
    cards = req(fields.List(fields.String()), "The cards behind it (empty for a tally)")
    label = localized("Its name, in the languages asked for")


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

    id = req(fields.String(), "The player id (contract)")
    points = req(fields.Integer(), "Base points of its pile (contract)")
    items = req(fields.List(fields.Nested(ItemSchema)), "Scoring items (contract)")
    counts = req(fields.Nested(CountsSchema, allow_none=True), "Null when declared")
    gukjin_as = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "Switchable card ID → animal or junk, as placed; omitted when "
            "the pile holds no switchable card"
        },
    )
    may_stop = req(
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

    code = code_field("step", "What this step is (GET /v1/codes: step)")
    op = code_field("op", "start, add or multiply")
    amount = fields.Integer(metadata={"description": "op = start: the starting amount"})
    addend = fields.Integer(metadata={"description": "op = add: what is added"})
    factor = fields.Integer(metadata={"description": "op = multiply: the factor"})
    total = req(fields.Integer(), "The running value after this step")
    times = fields.Integer(metadata={"description": "Events the factor stands for"})
    player = fields.String(metadata={"description": "The player this step is about"})
    text = localized(
        "The line, ready to show, in the languages asked for (its name alone: the step "
        "list of GET /v1/codes): `24 × 2 (피박: 피 3 ≤ 5) = 48`, with what triggered "
        "it (a loser's junk and the 피박 threshold, the brights the winner scored, the "
        "go count of a 고박…); a start says its name and amount"
    )


class WinnerScoreSchema(Schema):
    """The winner's base points and the steps to each loser's starting amount."""

    winner = req(fields.String(), "The winner")
    base = req(
        fields.Integer(),
        "Base points (or an instant win's points; its chips under chongtong_chips)",
    )
    steps = req(
        fields.List(fields.Nested(StepSchema)), "In order: go, shakes, bombs, 멍따, 역고, nagari"
    )
    amount = req(fields.Integer(), "What each loser starts from")


class PaymentSchema(Schema):
    """One payer → payee entry."""

    from_ = req(fields.String(data_key="from"), "The payer (contract)")
    to = req(fields.String(), "The payee (contract)")
    points = req(fields.Integer(), "Points (contract); 0 for a payment priced in chips")
    chips = req(
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
    reason = code_field("reason", "Why this payment (GET /v1/codes: reason)")
    label = fields.Nested(
        LocalizedSchema,
        metadata={
            "description": "No longer sent: omitted since 2026-12-03 (the reason's name is "
            "its label in GET /v1/codes, list reason); a table hand stored before then may "
            "still carry it",
            "deprecated": True,
        },
    )
    text = localized(
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

    pointer = req(fields.String(), "JSON pointer into the request")
    code = code_field("error", "Stable machine-readable code (GET /v1/codes: error)")
    detail = req(fields.String(), "What is wrong and how to fix it")


class ComparisonProblemSchema(Schema):
    """Why the hand cannot be settled under a compared rule set."""

    title = fields.String(required=True)
    errors = fields.List(fields.Nested(ErrorEntrySchema), required=True)


class ComparisonPlayerSchema(Schema):
    """A player of a preview, under a compared rule set."""

    id = req(fields.String(), "The player id")
    points = req(fields.Integer(), "Base points of its pile under the compared rule set")
    may_stop = req(fields.Boolean(), "Its points reach the compared rule set's stop minimum")


class ComparisonSchema(Schema):
    """The hand under another rule set."""

    ruleset = req(fields.Nested(RulesetOutSchema), "The compared rule set")
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

    ruleset = req(fields.Nested(RulesetOutSchema), "The resolved rule set (contract)")
    outcome = req(fields.Nested(OutcomeOutSchema, allow_none=True), "Null for a preview")
    stake = req(fields.Integer(), "Chips per point")
    preview = fields.Boolean(
        metadata={
            "description": "true when no outcome was given (points only); omitted when the "
            "hand has an outcome"
        }
    )
    players = req(fields.List(fields.Nested(PlayerOutSchema)), "In request order (contract)")
    winner_score = req(
        fields.Nested(WinnerScoreSchema, allow_none=True), "Null when nobody won (contract)"
    )
    payments = req(fields.List(fields.Nested(PaymentSchema)), "Every payment (contract)")
    net = req(
        fields.Dict(keys=fields.String(), values=fields.Integer()),
        "Chips won (+) or lost (−) per player; sums to zero (contract)",
    )
    nagari_streak_after = req(
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

    type = req(fields.String(), "A URI naming the kind of problem")
    title = req(fields.String(), "Short summary")
    status = req(fields.Integer(), "The HTTP status")
    detail = req(fields.String(), "What happened")
    instance = fields.String(metadata={"description": "The request path"})
    request_id = fields.String(metadata={"description": "X-Request-ID of the request"})
    errors = fields.List(
        fields.Nested(ErrorEntrySchema),
        metadata={"description": "Every problem found, with a pointer"},
    )


class BatchItemSchema(Schema):
    """One hand of a batch: a result or a problem."""

    index = req(fields.Integer(), "Position in the request")
    status = req(fields.Integer(), "200, or the status a single request would get")
    result = fields.Nested(HandResultSchema)
    problem = fields.Nested(ProblemSchema)


class BatchResultSchema(Schema):
    """The response of ``POST /v1/gostop/hands/batch``."""

    results = req(fields.List(fields.Nested(BatchItemSchema)), "In request order")
    rulesets = req(
        fields.Dict(keys=fields.String(), values=fields.Nested(RulesetOutSchema)),
        "Each distinct rule set of the results once, by fingerprint (with every option "
        "under ?full_ruleset=true): a result's ruleset.fingerprint is its key. An entry is "
        "a rule set echo, to send back as a request's ruleset: it says the rule set as the "
        "first hand that used it named it (its preset and overrides). Hands may reach the "
        "same options from another preset (standard with wikipedia's options, and "
        "wikipedia): each result's own ruleset says the preset that hand named",
    )
    succeeded = req(fields.Integer(), "Hands scored")
    failed = req(fields.Integer(), "Hands refused")
