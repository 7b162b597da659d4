"""The 120/80/60 balance variant: the Spanish seed's "Hwatu variation" (docs/rules.md §7).

Every card has a value (brights 20, animals 10 — the May bridge and the sake cup too —
ribbons 5, junk 0), the 240 points of the deck are shared out, and each player's balance is
its total minus its fair share (240 / players: 120, 80 or 60). A player who collects a set
is paid its bonus by each other player. Balances always sum to zero.

>>> from calculator.presets import resolve
>>> hand = BalanceHand(players=(
...     BalancePlayer(id="A", captured=tuple(c for c in MONTH_CARD_IDS if c < "07")),
...     BalancePlayer(id="B", captured=tuple(c for c in MONTH_CARD_IDS if c >= "07")),
... ))
>>> result = score_balance(hand, resolve("balance"))  # docs/rules.md W34
>>> [(p.id, p.card_points, p.total, p.balance) for p in result.players]
[('A', 110, 80, -40), ('B', 130, 160, 40)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Final, NamedTuple

from calculator import cards
from calculator.cards import BIT, CARDS, MONTH_CARD_IDS, Kind
from calculator.errors import (
    ImpossibleHandError,
    InvalidHandError,
    InvalidRulesError,
    Issue,
    Problems,
    ZeroSumError,
    counted,
)
from calculator.options import option
from calculator.piles import diagnose_cards
from calculator.presets import Preset, RuleSet, Variant, register
from calculator.settlement import MAX_SAFE_CHIPS, beyond_safe

_DOC = "docs/rules.md §"  # the section of the rules document that explains it


@dataclass(frozen=True, slots=True, kw_only=True)
class BalanceRules:
    """A resolved balance-variant rule set. The defaults are the seed's table (preset balance)."""

    bright_points: int = option(
        20, summary="Points of each bright.", section=_DOC + "7.1", minimum=0, maximum=1000
    )
    animal_points: int = option(
        10,
        summary="Points of each animal (the May bridge and the sake cup included).",
        section=_DOC + "7.1",
        minimum=0,
        maximum=1000,
    )
    ribbon_points: int = option(
        5, summary="Points of each ribbon.", section=_DOC + "7.1", minimum=0, maximum=1000
    )
    hongdan_bonus: int = option(
        30,
        summary="Paid by each other player for the three red poetry ribbons (홍단).",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    cheongdan_bonus: int = option(
        30,
        summary="Paid by each other player for the three blue ribbons (청단).",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    chodan_bonus: int = option(
        0,
        summary="Paid by each other player for the three red plain "
        "ribbons (초단); the seed has none, Min-Hwatu 30.",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    may_bonus: int = option(
        20,
        summary="Paid by each other player for all four May cards.",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    october_bonus: int = option(
        20,
        summary="Paid by each other player for all four October cards.",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    november_bonus: int = option(
        40,
        summary="Paid by each other player for all four November cards (Min-Hwatu: 20).",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    december_bonus: int = option(
        20,
        summary="Paid by each other player for all four December cards.",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    godori_bonus: int = option(
        0,
        summary="Paid by each other player for the three bird animals (Min-Hwatu optional: 50).",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    five_brights_bonus: int = option(
        0,
        summary="Paid by each other player for all five brights (Min-Hwatu optional: 50).",
        section=_DOC + "7.2",
        minimum=0,
        maximum=1000,
    )
    bonus_a_points: int = option(
        0,
        summary="Points of bonus-a; 0 keeps it out of the deck.",
        section=_DOC + "7.3",
        minimum=0,
        maximum=100,
    )
    bonus_b_points: int = option(
        0,
        summary="Points of bonus-b; 0 keeps it out of the deck.",
        section=_DOC + "7.3",
        minimum=0,
        maximum=100,
    )
    bonus_c_points: int = option(
        0,
        summary="Points of bonus-c; 0 keeps it out of the deck.",
        section=_DOC + "7.3",
        minimum=0,
        maximum=100,
    )
    bonus_d_points: int = option(
        0,
        summary="Points of bonus-d; 0 keeps it out of the deck.",
        section=_DOC + "7.3",
        minimum=0,
        maximum=100,
    )
    values: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_kind = {
            Kind.BRIGHT: self.bright_points,
            Kind.ANIMAL: self.animal_points,
            Kind.RIBBON: self.ribbon_points,
        }
        bonus = {
            "bonus-a": self.bonus_a_points,
            "bonus-b": self.bonus_b_points,
            "bonus-c": self.bonus_c_points,
            "bonus-d": self.bonus_d_points,
        }
        found = {card_id: by_kind.get(CARDS[card_id].kind, 0) for card_id in MONTH_CARD_IDS}
        found.update({card_id: value for card_id, value in bonus.items() if value})
        object.__setattr__(self, "values", found)

    def sets(self) -> tuple[tuple[str, int, int], ...]:
        """(code, cards mask, bonus) of every set that pays under these rules."""
        table = (
            ("hongdan", cards.HONGDAN, self.hongdan_bonus),
            ("cheongdan", cards.CHEONGDAN, self.cheongdan_bonus),
            ("chodan", cards.CHODAN, self.chodan_bonus),
            ("godori", cards.GODORI, self.godori_bonus),
            ("five_brights", cards.BRIGHTS, self.five_brights_bonus),
            ("all_may", cards.MONTH_MASKS[5], self.may_bonus),
            ("all_october", cards.MONTH_MASKS[10], self.october_bonus),
            ("all_november", cards.MONTH_MASKS[11], self.november_bonus),
            ("all_december", cards.MONTH_MASKS[12], self.december_bonus),
        )
        return tuple(row for row in table if row[2])


_BALANCE = BalanceRules()
register(
    Preset(
        name="balance",
        variant=Variant.BALANCE,
        title="Hwatu variation (120/80/60), as the Spanish seed gives it",
        description=(
            "Brights 20, animals 10 (the May and September animals too), ribbons 5, junk 0; each "
            "other player pays the collector of hongdan 30, cheongdan 30, all four May 20, "
            "October 20, November 40, December 20. Balance = total − 240 / players."
        ),
        rules=_BALANCE,
        aliases=("hwatu_variant",),
    )
)
register(
    Preset(
        name="minhwatu",
        variant=Variant.BALANCE,
        title="Min-Hwatu (민화투), FudaWiki's table",
        description=(
            "The same card values; sets hongdan, cheongdan and chodan 30 each, all four May, "
            "October, November and December 20 each. Godori and five brights (50 each) are "
            "optional and off."
        ),
        rules=replace(_BALANCE, chodan_bonus=30, november_bonus=20),
        aliases=("minhwatu_fudawiki",),
    )
)


@dataclass(frozen=True, slots=True, kw_only=True)
class BalancePlayer:
    """A player of a balance hand and the cards it captured."""

    id: str
    captured: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BalanceHand:
    """A balance-variant hand: 2–4 players, every card of the deck captured by someone."""

    players: tuple[BalancePlayer, ...]
    stake: int = 1


class CardPoints(NamedTuple):
    """Card points of one category of a pile."""

    kind: str
    number: int  # how many cards
    points: int
    mask: int

    @property
    def cards(self) -> tuple[str, ...]:
        """Card IDs behind it."""
        return cards.ids_of(self.mask)


class SetBonus(NamedTuple):
    """A set bonus: who collected it, who pays, how much."""

    code: str
    collector: str
    payer: str
    points: int


class BalancePlayerResult(NamedTuple):
    """One player's card points, set bonuses, total and balance."""

    id: str
    card_points: int
    items: tuple[CardPoints, ...]
    received: tuple[SetBonus, ...]
    given: tuple[SetBonus, ...]
    total: int
    balance: int | None  # None when the hand is void
    chips: int


class BalanceResult(NamedTuple):
    """A scored balance hand; ``void`` when cards are missing (nobody pays)."""

    ruleset: RuleSet
    target: int
    stake: int
    players: tuple[BalancePlayerResult, ...]
    void: bool
    missing_cards: tuple[str, ...]
    net: dict[str, int]


_KIND_ORDER = (
    (Kind.BRIGHT, "brights"),
    (Kind.ANIMAL, "animals"),
    (Kind.RIBBON, "ribbons"),
    (Kind.JUNK, "junk"),
    (Kind.DOUBLE_JUNK, "junk"),
    (Kind.BONUS, "bonus"),
)


def _deck_parts(rules: BalanceRules) -> str:
    """What each kind of card adds to the deck's worth, in words: ``brights 5 × 20, …``."""
    parts = []
    for kind, name in (
        (Kind.BRIGHT, "brights"),
        (Kind.ANIMAL, "animals"),
        (Kind.RIBBON, "ribbons"),
        (Kind.BONUS, "bonus cards"),
    ):
        worth = [value for card_id, value in rules.values.items() if CARDS[card_id].kind is kind]
        if sum(worth):
            each = (
                f"{len(worth)} × {worth[0]}" if len(set(worth)) == 1 else "+".join(map(str, worth))
            )
            parts.append(f"{name} {each}")
    return ", ".join(parts)


def score_balance(hand: BalanceHand, ruleset: RuleSet) -> BalanceResult:
    """Score a balance hand. Raises on duplicates, unknown cards or a bad table."""
    if ruleset.variant is not Variant.BALANCE:
        raise InvalidRulesError(
            [
                _issue(
                    "wrong_variant",
                    f"rule set {ruleset.preset!r} is not a balance rule set; "
                    "use balance or minhwatu",
                    "ruleset",
                )
            ]
        )
    rules: BalanceRules = ruleset.rules
    masks = _check(hand, rules)
    deck = sum(BIT[card_id] for card_id in rules.values)
    deck_total = sum(rules.values.values())
    count = len(hand.players)
    uneven = uneven_deck(rules, (count,))
    if uneven is not None:
        raise InvalidRulesError([uneven])
    target = deck_total // count
    held = 0
    for mask in masks:
        held |= mask
    missing = cards.ids_of(deck & ~held)
    bonuses = [
        SetBonus(code, hand.players[i].id, other.id, bonus)
        for code, set_mask, bonus in rules.sets()
        for i, mask in enumerate(masks)
        if mask & set_mask == set_mask
        for other in hand.players
        if other.id != hand.players[i].id
    ]
    players = []
    for player, mask in zip(hand.players, masks, strict=True):
        items = _items(mask, rules)
        card_points = sum(item.points for item in items)
        received = tuple(b for b in bonuses if b.collector == player.id)
        given = tuple(b for b in bonuses if b.payer == player.id)
        total = card_points + sum(b.points for b in received) - sum(b.points for b in given)
        balance = None if missing else total - target
        chips = 0 if balance is None else balance * hand.stake
        players.append(
            BalancePlayerResult(
                player.id, card_points, items, received, given, total, balance, chips
            )
        )
    # The seed's own check: "if all balances sum to 0, the scoring is right". Not an assert:
    # it must never be skipped (python -O).
    if not missing and sum(p.balance or 0 for p in players) != 0:
        raise ZeroSumError(f"balances do not sum to zero: {players}")
    net = {p.id: p.chips for p in players}
    if beyond_safe(net) is not None:  # the transfers are at most the largest net
        raise InvalidHandError(
            [
                _issue(
                    "amount_too_large",
                    f"a player's chips exceed {MAX_SAFE_CHIPS:,}, more than apps can show "
                    "exactly; check the stake and the rule set's card values and bonuses",
                )
            ]
        )
    return BalanceResult(ruleset, target, hand.stake, tuple(players), bool(missing), missing, net)


def _items(mask: int, rules: BalanceRules) -> tuple[CardPoints, ...]:
    found: dict[str, CardPoints] = {}
    for card_id in cards.ids_of(mask):
        card = CARDS[card_id]
        kind = dict(_KIND_ORDER)[card.kind]
        old = found.get(kind, CardPoints(kind, 0, 0, 0))
        found[kind] = CardPoints(
            kind, old.number + 1, old.points + rules.values.get(card_id, 0), old.mask | card.bit
        )
    order = [name for _kind, name in _KIND_ORDER]
    return tuple(sorted(found.values(), key=lambda item: order.index(item.kind)))


def _check(hand: BalanceHand, rules: BalanceRules) -> list[int]:
    """Each player's mask; duplicates name both holders, unknown cards are located."""
    problems = Problems()
    players = hand.players
    if len(players) not in PLAYER_COUNTS:
        problems.add(
            "player_count",
            f"{counted(len(players), 'player')}: the balance variant is played by 2, 3 or 4",
            "players",
        )
    seen: dict[str, int] = {}
    for i, player in enumerate(players):
        if player.id in seen:
            problems.add(
                "duplicate_player", f"player id {player.id!r} is used twice", "players", i, "id"
            )
        seen.setdefault(player.id, i)
    if hand.stake < 1:
        problems.add(
            "invalid_stake", f"stake is {hand.stake}; use a positive whole number", "stake"
        )
    # players or stake refused: the cards' problems beside them (one round trip)
    refused = bool(problems)
    diagnose_balance_cards(hand, rules, problems)
    problems.raise_if_any(InvalidHandError if refused else ImpossibleHandError)
    return [cards.mask_of(player.captured) for player in players]


def diagnose_balance_cards(hand: BalanceHand, rules: BalanceRules, problems: Problems) -> None:
    """Add the problems of the hand's cards to ``problems``: unknown, without a value under
    ``rules``, held twice (:func:`calculator.piles.diagnose_cards`). Also a table's, for a
    hand it refuses for its players (calculator.ledger.checks)."""
    piles = [(player.id, "captured", player.captured) for player in hand.players]
    diagnose_cards(piles, _in_deck(rules), problems, absent=_no_value)


def _in_deck(rules: BalanceRules) -> int:
    """The cards that have a value under ``rules``: the deck it plays."""
    return cards.mask_of(rules.values)


def _no_value(card_id: str) -> str:
    return (
        f"{card_id} has no value in this rule set; give it one with "
        f"{card_id.replace('-', '_')}_points, or remove it"
    )


PLAYER_COUNTS: Final = (2, 3, 4)
"""How many play a balance hand."""


def uneven_deck(rules: BalanceRules, counts: Iterable[int]) -> Issue | None:
    """The problem of a deck whose total some of ``counts`` players cannot share evenly
    (each player's target is the total ÷ the players), at ``ruleset``; None if all can.
    A hand's players (:func:`score_balance`), and a new table's every hand size
    (calculator.ledger.checks.check_setup): a rule set no hand of the table could be
    scored under is refused when the table is made, not at each hand, its rule set
    locked for the night."""
    total = sum(rules.values.values())
    cannot = [count for count in counts if total % count]
    if not cannot:
        return None
    *rest, last = map(str, cannot)
    players = f"{', '.join(rest)} or {last}" if rest else last
    each = f"{', '.join(rest)} and {last}" if rest else last
    return _issue(
        "uneven_deck",
        f"the deck is worth {total} points ({_deck_parts(rules)}), which {players} players "
        "cannot share evenly; change a card value (bright_points, animal_points, "
        f"ribbon_points, bonus_a_points…) so that the deck's total divides by {each}",
        "ruleset",
    )


def _issue(code: str, detail: str, *location: str | int) -> Issue:
    return Issue(code, detail, location)
