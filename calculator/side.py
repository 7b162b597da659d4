"""Side payments: money that moves whoever wins (rules.md §4.9, §6.1).

Ppuk and ttadak are paid when they happen, by every other player in the hand, and are
untouched by 고박 and the multipliers. The player who sits out at a table of four is
paid for the cards it sells (광팔기). Each payment is its own entry with a ``reason``.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from calculator import cards
from calculator.errors import InvalidHandError, Issue
from calculator.hand import EventType, Hand, PlayerHand
from calculator.result import Payment, Step
from calculator.rules import (
    GoStopRules,
    GwangpalCards,
    GwangpalPayers,
    PpukLadder,
    TableMode4p,
)
from calculator.table import Table

# What the 2nd and 3rd consecutive ppuk pay, in units of a first ppuk.
PPUK_LADDERS: Final[dict[PpukLadder, tuple[int, int]]] = {
    PpukLadder.DOUBLING: (2, 4),
    PpukLadder.LINEAR: (2, 3),
}

_NO_EVENTS: Final[Counter[str]] = Counter()  # shared and never written: a hand without events
_FUDAWIKI_SELLS: Final = (
    cards.BRIGHTS
    | cards.BONUS
    | cards.GUKJIN
    | cards.BIT["11-double-junk"]
    | cards.BIT["12-double-junk"]
)


def side_payments(hand: Hand, rules: GoStopRules, table: Table, minimum: int) -> list[Payment]:
    """Ppuk and ttadak payments, in event order, then the sitter's bright sale."""
    payments: list[Payment] = []
    stake = hand.stake
    players = hand.players
    consecutive: Counter[str] = Counter() if hand.events else _NO_EVENTS
    for event in hand.events:
        steps: list[Step]
        if event.type is EventType.FIRST_TTADAK:
            points = points_or_minimum(rules.first_ttadak_points, minimum)
            steps = [Step("first_ttadak", "start", points, points)]
        else:
            points = points_or_minimum(rules.first_ppuk_points, minimum)
            steps = [Step("first_ppuk", "start", points, points)]
            if event.type is EventType.CONSECUTIVE_PPUK:
                consecutive[event.player] += 1
                factor = PPUK_LADDERS[rules.ppuk_ladder][consecutive[event.player] - 1]
                points *= factor
                steps.append(
                    Step("ppuk_ladder", "multiply", factor, points, consecutive[event.player] + 1)
                )
        for i in table.active:
            if players[i].id != event.player:
                payments.append(
                    Payment(
                        players[i].id,
                        event.player,
                        points,
                        points * stake,
                        event.type.value,
                        tuple(steps),
                    )
                )
    if table.sitter is not None and rules.table_mode_4p is TableMode4p.GWANGPAL:
        payments += _gwangpal(hand, rules, table)
    return payments


def sold_cards(sitter: PlayerHand, rules: GoStopRules) -> tuple[int, bool]:
    """How many cards the sitter sells, and whether it holds a triple of one month."""
    if rules.table_mode_4p is TableMode4p.OBSERVE:
        return 0, False
    if sitter.hand is None:
        return sitter.sold_brights or 0, False
    mask = cards.mask_of(sitter.hand)
    sells = _FUDAWIKI_SELLS if rules.gwangpal_cards is GwangpalCards.FUDAWIKI else cards.BRIGHTS
    if not rules.gwangpal_rain_alone and mask & cards.BRIGHTS == cards.RAIN_BRIGHT:
        sells &= ~cards.RAIN_BRIGHT  # a lone rain man does not sell (rules.md §6.2)
    triple = any((mask & month).bit_count() >= 3 for month in cards.MONTH_MASKS[1:])
    return (mask & sells).bit_count(), triple


def _gwangpal(hand: Hand, rules: GoStopRules, table: Table) -> list[Payment]:
    assert table.sitter is not None
    sitter = hand.players[table.sitter]
    sold, triple = sold_cards(sitter, rules)
    if not sold or not rules.gwangpal_price:
        return []
    payers = list(table.active)
    if rules.gwangpal_payers is GwangpalPayers.NON_DEALER_ACTIVE:
        dealer = table.seat.get(hand.dealer) if hand.dealer is not None else None
        if dealer is None or dealer not in payers:
            raise InvalidHandError(
                [
                    Issue(
                        "dealer_required",
                        "under gwangpal_payers = non_dealer_active the dealer does not pay "
                        "the sitter; give dealer, one of the players in the hand",
                        ("dealer",),
                    )
                ]
            )
        payers.remove(dealer)
    price = rules.gwangpal_price
    points = price * sold
    steps = [
        Step("gwangpal_price", "start", price, price),
        Step("sold_cards", "multiply", sold, points, sold),
    ]
    if triple and rules.gwangpal_triple_doubles:
        points *= 2
        steps.append(Step("triple", "multiply", 2, points))
    return [
        Payment(
            hand.players[i].id, sitter.id, points, points * hand.stake, "gwangpal", tuple(steps)
        )
        for i in payers
    ]


def points_or_minimum(points: int | None, minimum: int) -> int:
    """An option's points, where null means the stop minimum."""
    return minimum if points is None else points
