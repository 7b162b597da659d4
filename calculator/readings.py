"""Place each player's switchable animals: its pile scored under each reading, and the
one test of the stop minimum.

A pile's switchable animals (the sake cup, 국진, and under ``may_animal_switchable`` the
May animal) may each be read as an animal or as double junk. :func:`place_switchables`
scores every pile, an explicit reading as given, an ``auto`` one under each of its
readings; the outcome decides which counts. Its helpers (:func:`score`,
:func:`may_stop`, :func:`stoppable`, :func:`most_points`, :func:`closest`,
:func:`check_stop`) are the hand payment's too.

Siblings: :mod:`calculator.settlement` (:func:`~calculator.settlement.settle`, the entry
point), :mod:`calculator.hand_payment` (a stop's payment: the winner's reading, the
losers' baks, liability) and :mod:`calculator.declared_baks` (a declared pile's bak
flags checked).
"""

from __future__ import annotations

from typing import Final

from calculator.errors import InvalidHandError, Issue, counted
from calculator.hand import Hand, OutcomeType
from calculator.multipliers import stop_rules
from calculator.piles import Entry
from calculator.rule_choices import GukjinChoice
from calculator.rules import GoStopRules
from calculator.scoring import Pile, Score, score_declared, score_mask, score_pile
from calculator.tables import switch_readings, tables_for

# Enum members named once, at import, next to their users (see calculator.settlement;
# settle reads OutcomeType.STOP too, from its own Final)
_STOP: Final = OutcomeType.STOP
_GUKJIN_JUNK: Final = GukjinChoice.JUNK
_GUKJIN_AUTO: Final = GukjinChoice.AUTO


def score(entry: int | Pile, bits: int, rules: GoStopRules) -> Score:
    """Score a listed (mask) or tallied pile under one reading."""
    if isinstance(entry, int):
        return score_mask(entry, bits, tables_for(rules))
    return score_pile(entry, bits, rules)


Auto = dict[int, tuple[int, ...]]
"""The players who left their switchable cards to ``auto``: seat → its readings (masks of
the cards read as junk), all-animal first."""


def place_switchables(
    hand: Hand, rules: GoStopRules, entries: list[Entry], minimum: int
) -> tuple[list[Score | None], Auto | None]:
    """Score every pile. An explicit reading of the switchable cards is taken as given;
    ``auto`` starts from the animal reading, and the outcome decides (see :func:`stop`).
    In a hand nobody won (a preview too), an ``auto`` player takes its best-scoring reading
    among those a stop would accept (:func:`stoppable`), so that its ``may_stop`` says
    what a stop by it would do.

    Returns every player's score (the animal reading for ``auto``) and the ``auto``
    readings (None when no player has any: no dict made and freed in most hands), as a
    plain pair: compiled, a pair is returned without building an object."""
    players = hand.players
    tables = tables_for(rules)
    switch_mask = tables.switchable
    scores: list[Score | None] = []
    auto: Auto | None = None
    for i, entry in enumerate(entries):
        if entry is None:
            scores.append(None)
            continue
        if isinstance(entry, int):
            switchable = entry & switch_mask
        elif isinstance(entry, Pile):
            switchable = entry.switchable
        else:
            scores.append(score_declared(entry))
            continue
        bits = 0
        if switchable:
            choice = players[i].gukjin or stop_rules(rules).gukjin_default
            if choice is _GUKJIN_JUNK:
                bits = switchable
            elif choice is _GUKJIN_AUTO:
                if auto is None:
                    auto = {}
                auto[i] = switch_readings(switchable)
        if isinstance(entry, int):
            scores.append(score_mask(entry, bits, tables))
        else:
            scores.append(score_pile(entry, bits, rules))
    outcome = hand.outcome
    if auto and (outcome is None or outcome.type is not _STOP):
        for i, readings in auto.items():  # nobody pays by the piles: best points
            entry = entries[i]
            assert isinstance(entry, (int, Pile))
            found = [score(entry, bits, rules) for bits in readings]
            scores[i] = most_points(stoppable(found, minimum) or found)
    return scores, auto


def most_points(readings: list[Score]) -> Score:
    """The reading of a pile with the most points, the first of them (the animal reading
    on a tie, as ``max`` keeps the first): a loop, where ``max(readings, key=…)`` was a
    generic call that called its key through Python (~2.7k instructions, in one stop in
    eight)."""
    best = readings[0]
    for score in readings:
        if score.points > best.points:
            best = score
    return best


def closest(score: Score) -> tuple[int, int]:
    """Which reading of a pile that may not stop comes closest: the most points toward the
    minimum, then the most in all (the reading a refusal names)."""
    return score.stop_points, score.points


def may_stop(score: Score, minimum: int) -> bool:
    """Whether a pile read this way may stop: the one test of the stop minimum. The points
    that count are ``stop_points``, without the three-double-junk bonus (docs/rules.md
    §2.4)."""
    return score.stop_points >= minimum


def stoppable(readings: list[Score], minimum: int) -> list[Score]:
    """The readings of one pile that may stop, in their order."""
    return [score for score in readings if may_stop(score, minimum)]


def check_stop(hand: Hand, w: int, scored: Score | None, minimum: int) -> None:
    """Refuse the stop of winner ``w`` (seat) when its pile read as ``scored`` (None: no
    score) may not stop: ``below_stop_minimum``, with its points toward the minimum."""
    if scored is not None and may_stop(scored, minimum):
        return
    points = scored.stop_points if scored is not None else 0
    extra = scored.points - points if scored is not None else 0
    player = hand.players[w]
    why = f" (the {extra} for three double junks do not count toward it)" if extra else ""
    raise InvalidHandError(
        [
            issue(
                "below_stop_minimum",
                f"winner {player.id!r} has {counted(points, 'point')} toward the stop "
                f"minimum{why}; "
                f"stopping needs at least {minimum} with {_active_words(hand)}",
                "outcome",
                "winner",
            )
        ]
    )


def _active_words(hand: Hand) -> str:
    active = sum(1 for p in hand.players if not p.sits_out)
    return f"{active} players in the hand"


def issue(code: str, detail: str, *location: str | int) -> Issue:
    """An :class:`~calculator.errors.Issue` at ``location`` given as its parts: the
    refusals' shorthand here and in :mod:`calculator.settlement`."""
    return Issue(code, detail, location)
