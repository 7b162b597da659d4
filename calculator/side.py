"""Side payments: money that moves whoever wins (docs/rules.md §5, §6).

Ppuk and ttadak are paid when they happen, by every other player in the hand, and are
untouched by 고박 and the multipliers. The player who sits out at a table of four is
paid for the cards it sells (광팔기). Each payment is its own entry with a ``reason``.

Each of them is priced in points (× the stake) or, when the rule set gives a price in
chips (``ppuk_chips``, ``ttadak_chips``, ``gwangpal_chips``), in chips whatever the
stake: the payment then says ``priced_in = "chips"`` and its steps count chips.
"""

from __future__ import annotations

from collections import Counter
from typing import Final, NamedTuple

from calculator import cards
from calculator.errors import InvalidHandError, Issue
from calculator.hand import EventType, Hand, PlayerHand
from calculator.result import Payment, Step
from calculator.rule_choices import (
    GwangpalCards,
    GwangpalPayers,
    PpukLadder,
    PpukPayout,
    TableMode4p,
)
from calculator.rules import GoStopRules
from calculator.scoring import score_mask
from calculator.table import Table
from calculator.tables import tables_for

# What the 2nd and 3rd consecutive ppuk pay, in units of a first ppuk.
PPUK_LADDERS: Final[dict[PpukLadder, tuple[int, int]]] = {
    PpukLadder.DOUBLING: (2, 4),
    PpukLadder.LINEAR: (2, 3),
}

_NO_EVENTS: Final[Counter[str]] = Counter()  # shared and never written: a hand without events
# The sets a sitter's hand sells under gwangpal_counts_sets (bipark/gostop-ts).
_SETS: Final = frozenset({"godori", "hongdan", "cheongdan", "chodan"})
_FUDAWIKI_SELLS: Final = (
    cards.BRIGHTS
    | cards.BONUS
    | cards.GUKJIN
    | cards.BIT["11-double-junk"]
    | cards.BIT["12-double-junk"]
)


def side_payments(hand: Hand, rules: GoStopRules, table: Table, minimum: int) -> list[Payment]:
    """Ppuk and ttadak payments, in event order, then the sitter's bright sale.

    Under ``ppuk_payout = highest`` a player's run of ppuk is paid once, where it ends,
    for its highest rung; under ``each`` every ppuk is paid when it happens.
    """
    payments: list[Payment] = []
    players = hand.players
    consecutive: Counter[str] = Counter() if hand.events else _NO_EVENTS
    last = _last_ppuk(hand) if rules.ppuk_payout is PpukPayout.HIGHEST else None
    for j, event in enumerate(hand.events):
        if event.type is EventType.FIRST_TTADAK:
            price = _Price.of(
                "first_ttadak",
                "ttadak_chips",
                rules.first_ttadak_points,
                rules.ttadak_chips,
                minimum,
            )
            steps = [price.start]
        else:
            if event.type is EventType.CONSECUTIVE_PPUK:
                consecutive[event.player] += 1
            if last is not None and last[event.player] != j:
                continue  # highest: the run is paid where it ends
            price = _Price.of(
                "first_ppuk", "ppuk_chips", rules.first_ppuk_points, rules.ppuk_chips, minimum
            )
            steps = [price.start]
            rung = consecutive[event.player]
            if rung:
                factor = PPUK_LADDERS[rules.ppuk_ladder][rung - 1]
                steps.append(
                    Step("ppuk_ladder", "multiply", factor, price.value * factor, rung + 1)
                )
        amount = steps[-1].total
        for i in table.active:
            if players[i].id != event.player:
                payments.append(
                    price.payment(
                        players[i].id, event.player, amount, hand, event.type.value, steps
                    )
                )
    if table.sitter is not None and rules.table_mode_4p is TableMode4p.GWANGPAL:
        payments += _gwangpal(hand, rules, table)
    return payments


class _Price(NamedTuple):
    """A side payment's price: in points (× the stake) or in chips (as it is)."""

    value: int
    chips: bool
    start: Step  # the explanation's first line: the price

    @classmethod
    def of(
        cls, code: str, chips_code: str, points: int | None, chips: int | None, minimum: int
    ) -> _Price:
        """The chip price when the rule set gives one, else the points (null: the minimum)."""
        if chips is not None:
            return cls(chips, True, Step(chips_code, "start", chips, chips))
        value = points_or_minimum(points, minimum)
        return cls(value, False, Step(code, "start", value, value))

    def payment(
        self, payer: str, payee: str, amount: int, hand: Hand, reason: str, steps: list[Step]
    ) -> Payment:
        """``amount`` (in this price's unit) paid by ``payer`` to ``payee``."""
        if self.chips:
            return Payment(payer, payee, 0, amount, reason, tuple(steps), "chips")
        return Payment(payer, payee, amount, amount * hand.stake, reason, tuple(steps))


def _last_ppuk(hand: Hand) -> dict[str, int]:
    """Each player's last ppuk event (its index): where its run ends."""
    return {
        event.player: j
        for j, event in enumerate(hand.events)
        if event.type is not EventType.FIRST_TTADAK
    }


def selling_cards(rules: GoStopRules) -> int:
    """The mask of the cards that sell in a sitter's hand (gwangpal_cards)."""
    return _FUDAWIKI_SELLS if rules.gwangpal_cards is GwangpalCards.FUDAWIKI else cards.BRIGHTS


def sold_cards(sitter: PlayerHand, rules: GoStopRules) -> tuple[int, bool]:
    """How many cards the sitter sells, and whether it holds a triple of one month."""
    if rules.table_mode_4p is TableMode4p.OBSERVE:
        return 0, False
    if sitter.hand is None:
        return sitter.sold_brights or 0, False
    mask = cards.mask_of(sitter.hand)
    sells = selling_cards(rules)
    if not rules.gwangpal_rain_alone and mask & cards.BRIGHTS == cards.RAIN_BRIGHT:
        sells &= ~cards.RAIN_BRIGHT  # a lone rain man does not sell (docs/rules.md §6.2)
    triple = any((mask & month).bit_count() >= 3 for month in cards.MONTH_MASKS[1:])
    return (mask & sells).bit_count(), triple


def _gwangpal(hand: Hand, rules: GoStopRules, table: Table) -> list[Payment]:
    assert table.sitter is not None
    sitter = hand.players[table.sitter]
    sold, triple = sold_cards(sitter, rules)
    sets = _set_points(sitter, rules)
    price = _Price.of(
        "gwangpal_price", "gwangpal_chips", rules.gwangpal_price, rules.gwangpal_chips, 0
    )
    if not (sold or sets) or not price.value:
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
    amount = price.value * sold
    steps = [price.start, Step("sold_cards", "multiply", sold, amount, sold)]
    if sets:
        amount += price.value * sets
        steps.append(Step("sold_sets", "add", price.value * sets, amount, sets))
    if triple and rules.gwangpal_triple_doubles:
        amount *= 2
        steps.append(Step("triple", "multiply", 2, amount))
    return [
        price.payment(hand.players[i].id, sitter.id, amount, hand, "gwangpal", steps)
        for i in payers
    ]


def _set_points(sitter: PlayerHand, rules: GoStopRules) -> int:
    """Under gwangpal_counts_sets, the points of the sets complete in the sitter's hand.

    Scored by the scoring module itself (godori_points, 비초단… as the rules say); the hand
    is required by the table checks when this option is on.
    """
    if not rules.gwangpal_counts_sets or sitter.hand is None:
        return 0
    score = score_mask(cards.mask_of(sitter.hand), 0, tables_for(rules))
    return sum(item.points for item in score.items if item.code in _SETS)


def points_or_minimum(points: int | None, minimum: int) -> int:
    """An option's points, where null means the stop minimum."""
    return minimum if points is None else points
