"""Request schemas of the balance variant and of session settlement (SPEC §5, §6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import ValidationError, fields, post_load, types, validates_schema

from calculator.api.coded_errors import fail
from calculator.api.fields import (
    CodedField,
    Fallback,
    Loader,
    StrictInteger,
    StrictList,
    StrictString,
)
from calculator.api.json_values import too_large_to_read, whole_number
from calculator.api.ruleset_schemas import ruleset_field
from calculator.api.schemas import (
    MAX_ID,
    HandRequest,
    HandRequestSchema,
    PilesSchema,
    RulesetSpec,
    card_list,
)
from calculator.api.strict_schema import StrictNested, StrictSchema
from calculator.balance import BalanceHand, BalancePlayer
from calculator.presets import Variant
from calculator.settlement import MAX_SAFE_CHIPS

MAX_SESSION_PLAYERS = 16
MAX_SESSION_HANDS = 1000


class BalancePlayerSchema(StrictSchema):
    """A player of a balance hand and every card it captured."""

    id = StrictString(
        max_length=MAX_ID,
        required=True,
        metadata={"description": "Unique player id, 1–40 characters"},
    )
    captured = card_list("Captured card IDs, in any order", required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BalancePlayer:
        return BalancePlayer(id=data["id"], captured=tuple(data["captured"]))


@dataclass(frozen=True, slots=True)
class BalanceRequest:
    """A balance-variant scoring request."""

    hand: BalanceHand
    ruleset: RulesetSpec


class BalanceRequestSchema(PilesSchema):
    """``POST /v1/balance/hands``: a 120/80/60 balance hand (SPEC §5)."""

    sitters = False  # nobody sits out a balance hand

    ruleset = ruleset_field(
        "A balance preset or {preset, options}; default balance", Variant.BALANCE, "balance"
    )
    stake = StrictInteger(
        minimum=1,
        maximum=10**12,
        load_default=1,
        metadata={"description": "Chips (or won) per point of balance"},
    )
    players = StrictList(
        StrictNested(BalancePlayerSchema),
        max_items=8,
        required=True,
        metadata={
            "description": "2, 3 or 4 players (another count is a 422 player_count saying "
            "why; past 8 the list is not read)",
            "minItems": 2,
            "maxItems": 4,
        },
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BalanceRequest:
        hand = BalanceHand(players=tuple(data["players"]), stake=data["stake"])
        return BalanceRequest(hand, data["ruleset"])


class NetMap(CodedField):
    """``{player id: chips}`` with whole numbers."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected an object of player id → chips"
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        if len(value) > MAX_SESSION_PLAYERS:
            raise fail("too_many", f"{len(value)} players; at most {MAX_SESSION_PLAYERS}")
        errors: dict[str, Any] = {}
        loaded = {}
        for player, chips in value.items():
            found = loaded[player] = whole_number(chips)
            if found is None and too_large_to_read(chips):
                detail = f"at most {MAX_SAFE_CHIPS:,} chips (2^53 − 1), as a hand's net"
                errors[player] = [fail("too_large", detail).messages[0]]
            elif found is None:
                errors[player] = [fail("invalid_type", "chips are a whole number").messages[0]]
            elif abs(found) > MAX_SAFE_CHIPS:
                detail = f"at most {MAX_SAFE_CHIPS:,} chips (2^53 − 1), as a hand's net"
                errors[player] = [fail("too_large", detail).messages[0]]
        if errors:
            raise ValidationError(errors)
        return loaded

    def fast_loader(self) -> Loader:
        def load(value: Any) -> dict[str, int]:
            if type(value) is dict and len(value) <= MAX_SESSION_PLAYERS:
                loaded = {player: whole_number(chips) for player, chips in value.items()}
                if all(c is not None and abs(c) <= MAX_SAFE_CHIPS for c in loaded.values()):
                    return loaded  # type: ignore[return-value]
            raise Fallback

        return load


class SessionHandSchema(StrictSchema):
    """One hand of a session: exactly one of ``net``, ``gostop`` or ``balance``."""

    net = NetMap(
        metadata={
            "description": "Chips won (+) or lost (−) per player, each at most 2^53 − 1 "
            "either way (what a hand's net can reach)"
        }
    )
    gostop = StrictNested(
        HandRequestSchema, metadata={"description": "A Go-Stop hand, scored here"}
    )
    balance = StrictNested(
        BalanceRequestSchema, metadata={"description": "A balance hand, scored here"}
    )

    exactly_one_of = ("net", "gostop", "balance")

    @validates_schema
    def one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        given = [key for key in self.exactly_one_of if key in data]
        if len(given) != 1:
            raise fail(
                "entry_mode",
                "give exactly one of net, gostop or balance"
                + (f" (got {', '.join(given)})" if given else ""),
            )
        gostop = data.get("gostop")
        if isinstance(gostop, HandRequest) and gostop.compare_with:
            raise ValidationError(
                {
                    "gostop": {
                        "compare_with": [
                            fail(
                                "not_allowed", "compare_with is not used when settling a session"
                            ).messages[0]
                        ]
                    }
                }
            )


class RoundingSchema(StrictSchema):
    """Round the totals to a unit, keeping the sum at zero: by largest remainders, or with
    one player who takes the difference."""

    unit = StrictInteger(
        minimum=1,
        maximum=10**9,
        required=True,
        metadata={"description": "Round to multiples of this (e.g. 100)"},
    )
    absorber = StrictString(
        max_length=MAX_ID,
        metadata={
            "description": "Who takes the difference: every other total is rounded to its "
            "nearest multiple of the unit, and this player's is what keeps the sum at zero "
            "(default: nobody; the totals are rounded by largest remainders)"
        },
    )


class SettlementRequestSchema(StrictSchema):
    """``POST /v1/settlements``: a night's hands → totals and the fewest transfers."""

    players = StrictList(
        StrictString(max_length=MAX_ID),
        max_items=MAX_SESSION_PLAYERS,
        required=True,
        metadata={
            "description": "Every player of the session, each once",
            # what the session's check refuses (calculator.session._check_players: 422
            # player_count, duplicate_player), for clients that check a body before sending
            "minItems": 1,
            "uniqueItems": True,
        },
    )
    hands = StrictList(
        StrictNested(SessionHandSchema),
        max_items=MAX_SESSION_HANDS,
        required=True,
        metadata={"description": "The hands, in the order played (none: every total is 0)"},
    )
    rounding = StrictNested(
        RoundingSchema,
        allow_none=True,
        load_default=None,
        metadata={"description": "Optional rounding of the totals"},
    )


__all__ = ["BalanceRequest", "BalanceRequestSchema", "SettlementRequestSchema", "fields"]
