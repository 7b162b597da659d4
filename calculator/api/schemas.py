"""Request schemas: the one place where wire JSON becomes domain records (SPEC §4).

Each schema validates one part of a request strictly and, on load, returns the domain
record (``Hand``, ``PlayerHand``, ``Tally``…). The OpenAPI document is generated from
these same classes.

This module holds a hand's request (and a batch of them): its schemas, nested, and its
refusal with its cards' problems. A rule set's schemas are in
:mod:`calculator.api.ruleset_schemas`, the query strings' in
:mod:`calculator.api.query_schemas`. It is over ~400 lines because a hand's record
schemas stay together here: :data:`calculator.api.native_loaders.NATIVE_SCHEMAS` and the
generated ``fast_loaders.py`` name them by their qualified names in this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, ClassVar, Final, TypeVar

from marshmallow import ValidationError

from calculator.api.coded_errors import fail, pointer_errors
from calculator.api.fields import (
    CodedField,
    Loader,
    StrictInteger,
    StrictList,
    StrictString,
    as_given,
    count,
    flag,
)
from calculator.api.hand_requests import (
    HandRequest,
    RulesetSpec,
    hand_request,
    resolve_spec,
)
from calculator.api.ruleset_schemas import RulesetField, ruleset_field
from calculator.api.strict_schema import StrictNested, StrictSchema
from calculator.cards import CARDS, EVERY_CARD, all_card_ids
from calculator.errors import Problems, more_problems
from calculator.hand import (
    MAX_NAGARI_STREAK,
    Category,
    ChongtongHolder,
    Declared,
    Event,
    EventType,
    Hand,
    Outcome,
    OutcomeType,
    PlayerHand,
    Tally,
)
from calculator.limits import added_problems, problems_listed
from calculator.piles import diagnose_cards
from calculator.rule_choices import GukjinChoice

MAX_PLAYERS = 8  # more is refused before any work; the rules then say how many may play
MAX_PILE = 60
MAX_EVENTS = 16
MAX_COMPARISONS = 5
MAX_ID = 40
CARD_ID = {"type": "string", "enum": list(CARDS)}
E = TypeVar("E", bound=StrEnum)


def _members(enum: type[E]) -> dict[str, E]:
    """Value → member: a validated string becomes its enum member without ``Enum.__call__``."""
    return {member.value: member for member in enum}


_CATEGORY = _members(Category)
_GUKJIN = _members(GukjinChoice)
_OUTCOME = _members(OutcomeType)
_EVENT = _members(EventType)


def _categories(names: list[str]) -> frozenset[Category]:
    return frozenset(_CATEGORY[name] for name in names)


def _player_id(description: str, **kwargs: Any) -> StrictString:
    return StrictString(max_length=MAX_ID, metadata={"description": description}, **kwargs)


def card_list(description: str, max_items: int = MAX_PILE, **kwargs: Any) -> StrictList:
    """A list of card IDs (checked by the domain, which names duplicates and suggests IDs)."""
    card = StrictString(
        max_length=32,
        known=frozenset(CARDS),
        all_known=all_card_ids,
        metadata={"description": "A card ID (GET /v1/cards)", "enum": list(CARDS)},
    )
    # each card once: the domain refuses a card given twice (422 duplicate_card)
    metadata = {"description": description, "uniqueItems": True}
    return StrictList(card, max_items=max_items, metadata=metadata, **kwargs)


# --- a hand ------------------------------------------------------------------------------


class TallySchema(StrictSchema):
    """A pile counted rather than listed (see the README for how to count)."""

    record = Tally

    brights = count(5, "Brights held (광)")
    rain_bright = flag("The rain man (12-bright) is among the brights")
    animals = count(9, "Animals held (열끗), the sake cup included")
    godori = flag("The three bird animals (Feb, Apr, Aug) are held")
    ribbons = count(10, "Ribbons held (띠), the December one included")
    rain_ribbon = flag(
        "The December ribbon is among the ribbons; false: held only when the counts force it"
    )
    hongdan = flag("Jan, Feb and Mar ribbons held (홍단)")
    cheongdan = flag("Jun, Sep and Oct ribbons held (청단)")
    chodan = flag("Apr, May and Jul ribbons held (초단)")
    junk_value = count(60, "Junk value (피): a double junk counts 2, bonus cards their value")
    junk_cards = count(
        40,
        "Junk cards; needed when 피박 counts cards, from each loser of a stopped hand",
        allow_none=True,
    )
    double_junks = count(
        3,
        "Double junks held; needed for the three-double-junk bonus, from the winner of a "
        "stopped hand and from every player in a preview",
        allow_none=True,
    )
    has_gukjin = flag(
        "The sake cup (09-animal) is held, counted among the animals; false: held only "
        "when the counts force it"
    )
    has_may_animal = flag(
        "The May bridge (05-animal) is held, counted among the animals; false: held only "
        "when the counts force it"
    )


class DeclaredSchema(StrictSchema):
    """Points and bak flags as existing calculators ask for them."""

    record = Declared

    points = count(10_000, "The winner's base points", load_default=0)
    scored = StrictList(
        StrictString(max_length=16, choices=tuple(c.value for c in Category)),
        max_items=len(Category),
        load_default=list,
        convert=_categories,
        metadata={"description": "Categories the winner scored with (they decide the baks)"},
    )
    meongtta = flag("The winner holds 7 or more animals (멍따)")
    pi_bak = flag("This loser is in 피박")
    gwang_bak = flag("This loser is in 광박")
    meong_bak = flag("This loser is in 멍박")
    no_cards = flag("This loser captured no card at all")


class PlayerSchema(StrictSchema):
    """One player at the end of the hand: ONE of captured, tally or declared, and flags."""

    record = PlayerHand

    id = _player_id("Unique player id, 1–40 characters", required=True)
    captured = card_list("Captured card IDs, in any order", convert=tuple)
    tally = StrictNested(TallySchema, metadata={"description": "Counts instead of cards"})
    declared = StrictNested(DeclaredSchema, metadata={"description": "Declared points/baks"})
    go_count = count(20, "How many times the player called go", load_default=0)
    shakes = count(12, "Shakes (흔들기) declared", load_default=0)
    bombs = count(12, "Bombs (폭탄) played", load_default=0)
    bombs_after_shake = count(12, "Bombs of a month the player had already shaken", load_default=0)
    gukjin = StrictString(
        max_length=8,
        choices=tuple(c.value for c in GukjinChoice),
        allow_none=True,
        load_default=None,
        convert=_GUKJIN.__getitem__,
        metadata={"description": "How the switchable card(s) count; null = the rule set's default"},
    )
    yeokgo = flag("The winner's go was a reverse go (역고)")
    sits_out = flag("This player sits out (four players: 광팔기)")
    sold_brights = count(12, "Sitter: how many cards it sells", allow_none=True)
    hand = card_list(
        "Sitter: the cards it holds, to count what it sells", max_items=12, convert=tuple
    )


class HolderSchema(StrictSchema):
    """A player dealt a 총통 and its month."""

    record = ChongtongHolder

    player = _player_id("The holder", required=True)
    month = StrictInteger(
        minimum=1,
        maximum=12,
        required=True,
        metadata={"description": "The month of its four cards"},
    )


class OutcomeSchema(StrictSchema):
    """How the hand ended."""

    record = Outcome

    type = StrictString(
        max_length=16,
        choices=tuple(t.value for t in OutcomeType),
        required=True,
        convert=_OUTCOME.__getitem__,
        metadata={"description": "How the hand ended"},
    )
    winner = _player_id("The player who stopped / holds the 총통 / made three ppuk")
    liable = _player_id("A loser who pays for every loser (독박)")
    holders = StrictList(
        StrictNested(HolderSchema),
        max_items=4,
        load_default=list,
        convert=tuple,
        metadata={
            "description": "Two or more 총통 holders (a tie)",
            # one is refused by the rules (422 invalid_holders: name it as winner)
            "not": {"minItems": 1, "maxItems": 1},
        },
    )


class EventSchema(StrictSchema):
    """A side event (paid when it happens) and the player it belongs to."""

    record = Event

    type = StrictString(
        max_length=24,
        choices=tuple(t.value for t in EventType),
        required=True,
        convert=_EVENT.__getitem__,
        metadata={"description": "The side event"},
    )
    player = _player_id("The player who is paid", required=True)


class PilesSchema(StrictSchema):
    """The schema of a request whose ``players`` list card IDs (a Go-Stop or a balance
    hand): a refusal names the cards' problems too (:func:`with_card_problems`)."""

    sitters: ClassVar[bool] = True
    """Whether a player may sit out, listing the cards in its ``hand`` (Go-Stop)."""

    def load(self, data: Any, **kwargs: Any) -> Any:
        """marshmallow's load (the fast loader's fallback, so every refusal comes here)."""
        try:
            return super().load(data, **kwargs)
        except ValidationError as error:
            raise with_card_problems(error, data, sitters=self.sitters) from None


class HandRequestSchema(PilesSchema):
    """``POST /v1/gostop/hands``: one hand to score (SPEC §4)."""

    record = staticmethod(hand_request)

    ruleset = ruleset_field("A preset name or {preset, options}; default standard")
    stake = StrictInteger(
        minimum=1,
        maximum=10**12,
        load_default=1,
        metadata={"description": "Chips (or won) per point"},
    )
    nagari_streak = StrictInteger(
        maximum=MAX_NAGARI_STREAK,
        load_default=None,
        metadata={
            "description": "Drawn hands right before this one (default 0; in a session, omit "
            "it to carry the streak from the hand before)",
            "default": 0,
        },
    )
    dealer = _player_id("The dealer (needed by some options)")
    players = StrictList(
        StrictNested(PlayerSchema),
        max_items=MAX_PLAYERS,
        required=True,
        convert=tuple,
        metadata={
            "description": "2–3 players, or 4 with one sitting out (another count is a 422 "
            "player_count saying why; past 8 the list is not read)",
            # what the rules allow, for clients that check a body before sending it; the
            # schema reads up to MAX_PLAYERS and leaves the refusal to the rules' message
            "minItems": 2,
            "maxItems": 4,
        },
    )
    outcome = StrictNested(
        OutcomeSchema,
        allow_none=True,
        load_default=None,
        metadata={"description": "How the hand ended; omit for a preview"},
    )
    events = StrictList(
        StrictNested(EventSchema),
        max_items=MAX_EVENTS,
        load_default=list,
        convert=tuple,
        metadata={"description": "Side events: first/consecutive ppuk, first ttadak"},
    )
    compare_with = StrictList(
        RulesetField(),
        max_items=MAX_COMPARISONS,
        load_default=list,
        convert=tuple,
        metadata={"description": "Other rule sets to settle the hand under, for comparison"},
    )


class HandRequestField(CodedField):
    """A batch item: any JSON value, validated as a hand request on its own."""

    def fast_loader(self) -> Loader:
        return as_given


class BatchRequestSchema(StrictSchema):
    """``POST /v1/gostop/hands/batch``: up to 1,000 hands, each scored on its own."""

    hands = StrictList(
        HandRequestField(
            # null too: each item, whatever it is, gets its own result (a problem here)
            allow_none=True,
            metadata={"description": "A hand request, as for POST /v1/gostop/hands"},
        ),
        max_items=1000,
        required=True,
        metadata={"description": "Up to 1,000 hand requests"},
    )


HAND_SCHEMA: Final = HandRequestSchema()
"""The one instance that loads hand requests (its messages name its fields)."""

load_hand_request: Final[Callable[[Any], HandRequest]] = HAND_SCHEMA.load_one
"""Validate a hand request body and map it to domain records (raises ValidationError).
The schema's ``load_fast`` itself (compiled, its loader's), not a function that calls
it: a Python frame or two less a hand of a batch."""


def with_card_problems(
    error: ValidationError, body: Any, *, sitters: bool = True
) -> ValidationError:
    """``error``, a hand request's refusal by its schema, with the problems of the card
    IDs its piles list too: unknown cards and cards held twice, as the domain names them
    (:func:`calculator.piles.diagnose_cards`, over the whole deck: which cards the rule
    set deals is checked once the hand is well formed, as the stop minimum is). SPEC §4's
    errors list names every problem: a hand whose ``go_count`` is a string and whose pile
    has a typo is told both at once, not the typo one round trip later.

    A pile or card the schema refused already is not read again (a list too long, an ID
    that is no string), and an id it refused is not quoted ("a player"). The cards'
    problems take only the room the answer has left
    (:func:`~calculator.limits.problems_listed`: 50, a batch item's 12), the last place
    counting those not listed, so the count stays exact and a refusal costs no more than
    its answer shows. ``sitters``: a player with
    ``sits_out`` lists its ``hand`` (Go-Stop; a balance hand has no sitter)."""
    players = body.get("players") if isinstance(body, Mapping) else None
    if not isinstance(players, list) or len(players) > MAX_PLAYERS:
        return error
    if not isinstance(error.messages, dict):
        return error
    found = pointer_errors(error.messages)
    room = problems_listed() - len(found)
    if room <= 0:
        return error
    refused = {tuple(pointer) for pointer, _code, _detail in found}
    piles: list[tuple[str | None, str, list[Any] | None]] = []
    for i, player in enumerate(players):
        if not isinstance(player, Mapping):
            piles.append((None, "captured", None))
            continue
        field = "hand" if sitters and player.get("sits_out") is True else "captured"
        ids = player.get(field)
        player_id = player.get("id")
        named = isinstance(player_id, str) and ("players", i, "id") not in refused
        piles.append(
            (
                player_id if named else None,
                field,
                ids if isinstance(ids, list) and len(ids) <= MAX_PILE else None,
            )
        )
    problems = Problems(limit=room)
    diagnose_cards(piles, EVERY_CARD, problems, besides=refused)
    issues, more = problems.listed()
    if not issues:
        return error
    if more:  # the last place says how many more: the answer lists no more than its room
        issues, more = issues[:-1], more + 1
    added_problems(len(issues) + bool(more))
    messages = dict(error.messages)
    for issue in issues:
        _add_message(messages, issue.location, fail(issue.code, issue.detail).messages)
    if more:
        said = more_problems(more)
        _add_message(messages, ("_schema",), fail(said.code, said.detail).messages)
    return ValidationError(messages)


def _add_message(messages: dict[Any, Any], location: tuple[str | int, ...], said: Any) -> None:
    """``said`` (a field's messages) added to marshmallow's nested ``messages`` at
    ``location``; each dict on the way is a copy (the error's own stay as they are)."""
    *parents, last = location
    for key in parents:
        inner = messages.get(key, {})
        if not isinstance(inner, dict):
            return  # the field as a whole is refused: what is inside goes unsaid
        messages[key] = dict(inner)
        messages = messages[key]
    messages[last] = [*messages.get(last, []), *said]


def load_hand(body: Any) -> Hand:
    """The domain :class:`Hand` of a request body (for scripts, benchmarks and tests)."""
    return load_hand_request(body).hand


__all__ = [
    "BatchRequestSchema",
    "HandRequest",
    "HandRequestSchema",
    "RulesetSpec",
    "ValidationError",
    "load_hand",
    "load_hand_request",
    "resolve_spec",
]
