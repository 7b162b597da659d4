"""What scoring a hand returns: itemized points, explained amounts, payments, net.

Every amount carries the ordered :class:`Step` records that produced it, computed by
the same code that computes the money (SPEC §4, response side).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from calculator.hand import Outcome
from calculator.presets import RuleSet
from calculator.scoring import Item


class Counts(NamedTuple):
    """How much of each category a pile holds, after its switchable cards are placed."""

    brights: int
    animals: int
    ribbons: int
    junk_value: int
    junk_cards: int | None
    cards: int


class PlayerResult(NamedTuple):
    """One player's itemized points (zero and no items for a player who sits out)."""

    id: str
    points: int
    items: tuple[Item, ...]
    counts: Counts | None  # None when the points were declared, or the player sits out
    gukjin_as: Mapping[str, str]  # switchable card ID → "animal" or "junk"
    may_stop: bool  # its points reach the stop minimum
    sits_out: bool = False
    sold: int | None = None  # a sitter: how many cards it sold (광팔기)


class Step(NamedTuple):
    """One line of an explanation: ``total`` is the running value after this step.

    ``op`` is ``start`` (the amount begins at ``value``), ``add`` (``value`` is added) or
    ``multiply`` (``value`` is the factor). ``times`` says how many events a factor
    stands for (two shakes: ×4, times 2); ``player`` whom a step is about.
    """

    code: str
    op: str
    value: int
    total: int
    times: int | None = None
    player: str | None = None


class WinnerScore(NamedTuple):
    """The winner's base points and the steps to the amount each loser starts from."""

    base: int
    steps: tuple[Step, ...]
    amount: int


class Payment(NamedTuple):
    """What one player pays another, why, and how the amount came about."""

    payer: str
    payee: str
    points: int
    chips: int  # points × stake
    reason: str  # stop, chongtong, three_ppuk, first_ppuk, consecutive_ppuk, first_ttadak, gwangpal
    steps: tuple[Step, ...]


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
