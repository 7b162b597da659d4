"""What scoring a hand returns: itemized points, explained amounts, payments, net.

Every amount carries the ordered :class:`Step` records that produced it, computed by
the same code that computes the money (SPEC §4, response side).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

from calculator import cards
from calculator.hand import Outcome
from calculator.presets import RuleSet
from calculator.scoring import Item, Score


class Counts(NamedTuple):
    """How much of each category a pile holds, after its switchable cards are placed."""

    brights: int
    animals: int
    ribbons: int
    junk_value: int
    junk_cards: int | None
    cards: int | None  # None: a tally that gives no junk_cards cannot say


class PlayerResult(NamedTuple):
    """One player's itemized points (zero and no items for a player who sits out)."""

    id: str
    points: int
    items: tuple[Item, ...]
    may_stop: bool  # its points reach the stop minimum
    score: Score | None  # everything scored about its pile (None: it sits out)
    sold: int | None = None  # a sitter: how many cards it sold (광팔기)

    @property
    def sits_out(self) -> bool:
        """It sits out this hand."""
        return self.score is None

    @property
    def counts(self) -> Counts | None:
        """What its pile holds; None when the points were declared, or it sits out."""
        return counts_of(self)

    @property
    def gukjin_as(self) -> dict[str, str]:
        """Switchable card ID → "animal" or "junk", as placed."""
        return gukjin_of(self)


# of any length: compiled, a tuple of known length is walked through a generic iterator
_SWITCHABLE_IDS: Final[tuple[tuple[int, str], ...]] = (
    (cards.MAY_ANIMAL, cards.MAY_ANIMAL_ID),
    (cards.GUKJIN, cards.GUKJIN_ID),
)


# The properties' work, as functions: compiled code reads a named tuple's property through a
# generic attribute lookup, and calls a function of this module natively (the answer reads
# both for every player of every hand).


def counts_of(player: PlayerResult) -> Counts | None:
    """:attr:`PlayerResult.counts`."""
    found = count_values(player)
    return None if found is None else Counts(*found)


CountValues = tuple[int, int, int, int, int | None, int | None]
"""A :class:`Counts` as a plain tuple, its fields in order."""


def count_values(player: PlayerResult) -> CountValues | None:
    """:func:`counts_of`'s values as a plain tuple: compiled, built natively, where a
    named tuple costs a generic call (the answer reads them for every player)."""
    s = player.score
    if s is None or s.brights is None:
        return None
    return (
        s.brights,
        s.animals or 0,
        s.ribbons or 0,
        s.junk_value or 0,
        s.junk_cards,
        # a tally without junk_cards knows only whether the pile is empty
        None if s.junk_cards is None else s.cards or 0,
    )


def gukjin_of(player: PlayerResult) -> dict[str, str]:
    """:attr:`PlayerResult.gukjin_as`."""
    s = player.score
    if s is None or not s.switchable:
        return {}
    return {
        card_id: "junk" if bit & s.junk_bits else "animal"
        for bit, card_id in _SWITCHABLE_IDS
        if s.switchable & bit
    }


Facts = tuple[tuple[str, int], ...]
"""What made a step apply, as (name, value) pairs in the order a sentence says them:
``(("junk_value", 3), ("threshold", 5))`` for a 피박 — see :mod:`calculator.explain`."""


class Step(NamedTuple):
    """One line of an explanation: ``total`` is the running value after this step.

    ``op`` is ``start`` (the amount begins at ``value``), ``add`` (``value`` is added) or
    ``multiply`` (``value`` is the factor). ``times`` says how many events a factor
    stands for (two shakes: ×4, times 2); ``player`` whom a step is about; ``facts``
    what triggered it (a loser's junk value and the 피박 threshold, the brights the winner
    scored, a go-caller's go count…), read by the sentences of :mod:`calculator.explain`.
    """

    code: str
    op: str
    value: int
    total: int
    times: int | None = None
    player: str | None = None
    facts: Facts = ()


class WinnerScore(NamedTuple):
    """The winner's base points and the steps to the amount each loser starts from."""

    base: int
    steps: tuple[Step, ...]
    amount: int


class Payment(NamedTuple):
    """What one player pays another, why, and how the amount came about.

    A payment is priced in points (``chips`` = ``points`` × stake, the steps count points)
    or, for a side payment whose rule set gives a price in chips (``ppuk_chips``,
    ``ttadak_chips``, ``gwangpal_chips``), in chips: then ``points`` is 0, ``chips`` is
    the price whatever the stake, and the steps count chips.
    """

    payer: str
    payee: str
    points: int
    chips: int  # points × stake, or the chip price
    reason: str  # stop, chongtong, three_ppuk, first_ppuk, consecutive_ppuk, first_ttadak, gwangpal
    steps: tuple[Step, ...]
    priced_in: str = "points"  # or "chips"


class HandResult(NamedTuple):
    """A scored hand. ``net`` sums to zero; ``winner_score`` is None unless someone won."""

    ruleset: RuleSet
    outcome: Outcome | None
    stake: int
    players: tuple[PlayerResult, ...]
    winner_score: WinnerScore | None
    payments: tuple[Payment, ...]
    net: Mapping[str, int]
    nagari_streak_after: int


def winner_of(result: HandResult) -> str | None:
    """Who won the hand: the outcome's winner, or the one the rules chose where the request
    names none (a 총통 held by two players, a floor four the dealer wins): the payee of
    the hand's instant-win payments. None for a preview, a drawn hand, a cancelled one.

    The one reading of the winner: the answer's ``outcome.winner`` and ``winner_score``
    and the export's ``winner`` column take it from here, and so does the next dealer of
    a table created since 2026-12-05 (``DealerRule.WINNER``); a table created before
    keeps deriving it from the biggest net where the request names no winner
    (``DealerRule.BIGGEST_NET``, :mod:`calculator.ledger.events`)."""
    outcome = result.outcome
    if outcome is None:
        return None
    if outcome.winner is not None:
        return outcome.winner
    if result.winner_score is None:
        return None
    for payment in result.payments:
        if payment.reason == "chongtong":
            return payment.payee
    return None
