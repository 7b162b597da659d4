"""A declared pile's bak flags, checked against the rules and the winner's pile.

A declaration (``declared``: a pile given as its points, scored categories and bak flags,
not its cards) may flag a loser's baks and the winner's 멍따; :func:`check_declared_baks` refuses
a flag the rules do not play or the winner's pile cannot trigger, once the stop's
readings are chosen.

Siblings: :mod:`calculator.settlement` (:func:`~calculator.settlement.settle`, the entry
point), :mod:`calculator.hand_payment` (a stop's payment, which calls
:func:`check_declared_baks`) and :mod:`calculator.readings` (each pile scored under each
reading).
"""

from __future__ import annotations

from calculator.errors import InvalidHandError, Problems
from calculator.hand import Hand
from calculator.multipliers import meongbak_triggered
from calculator.rules import GoStopRules
from calculator.scoring import Score
from calculator.table import Table


def check_declared_baks(
    hand: Hand, rules: GoStopRules, table: Table, scores: list[Score | None], entering: bool
) -> None:
    """A declared loser's bak flags must be possible under the rules and the winner's pile;
    the winner pays no bak, so a flag on its declaration is refused, not ignored. 멍따 is
    the winner's: declared on a loser it is refused too (it would double nothing), and on
    the winner it must be played and scored (:func:`_check_declared_meongtta`) — when
    ``entering``: a stored hand's, which releases before 2026-12-05 took, is scored as it
    was then (a loser's 멍따 pays nothing, a winner's doubles where 멍따 is played)."""
    assert table.winner is not None
    winner = scores[table.winner]
    assert winner is not None
    problems = None
    if entering and winner.declared_baks is not None and winner.many_animals:
        problems = _check_declared_meongtta(hand, rules, table.winner, winner)
    for i in table.active:
        scored = scores[i]
        if scored is None or scored.declared_baks is None:
            continue  # not a declared pile
        if entering and i != table.winner and scored.many_animals:
            problems = problems or Problems()
            problems.add(
                "meongtta_not_winner",
                f"meongtta is set on {hand.players[i].id!r}, who lost; 멍따 doubles what the "
                f"winner {hand.players[table.winner].id!r} is paid, so set it on the "
                "winner's declaration",
                "players",
                i,
                "declared",
                "meongtta",
            )
        if not scored.declared_baks:
            continue
        problems = problems or Problems()
        if i == table.winner:
            for flag in sorted(scored.declared_baks):
                problems.add(
                    "bak_on_winner",
                    f"{flag} is set on the winner {hand.players[i].id!r}; only a loser pays "
                    "a bak, so remove it (or name the right winner)",
                    "players",
                    i,
                    "declared",
                    flag,
                )
            continue
        checks = {
            "gwang_bak": (
                rules.gwangbak_enabled,
                winner.scored_brights,
                "the winner scored no bright combination",
            ),
            "pi_bak": (True, winner.scored_junk, "the winner scored no junk points"),
            "meong_bak": (
                rules.meongbak_mode.value != "off",
                meongbak_triggered(winner, rules),
                f"the winner does not meet meongbak_mode {rules.meongbak_mode}",
            ),
        }
        for flag in scored.declared_baks:
            played, triggered, why = checks[flag]
            if not played:
                problems.add(
                    "bak_not_played",
                    f"this rule set has no {flag}; remove the flag or change the rules",
                    "players",
                    i,
                    "declared",
                    flag,
                )
            elif not triggered:
                problems.add(
                    "bak_not_triggered",
                    f"{flag} is set but {why}",
                    "players",
                    i,
                    "declared",
                    flag,
                )
    if problems:
        problems.raise_if_any(InvalidHandError)


def _check_declared_meongtta(
    hand: Hand, rules: GoStopRules, w: int, winner: Score
) -> Problems | None:
    """A declared winner's 멍따 (``meongtta: true``) must be one the rules play, and its
    animals (7 or more by default, never under 5) always score animals (docs/rules.md
    §2.2, §4.3): a 멍따 without "animals" in ``scored`` cannot be."""
    at = ("players", w, "declared", "meongtta")
    player = hand.players[w].id
    problems = Problems()
    if not rules.meongtta_enabled:
        problems.add(
            "meongtta_not_played",
            f"meongtta is set on the winner {player!r} but this rule set has no 멍따 "
            "(meongtta_enabled is false); remove the flag or change the rules",
            *at,
        )
    elif not winner.scored_animals:
        problems.add(
            "impossible_flags",
            f"meongtta is set on the winner {player!r} but its scored categories lack "
            f'"animals": 멍따 is {rules.meongtta_threshold} or more animals, which always '
            'score animals; add "animals" to scored, or remove meongtta',
            *at,
        )
    return problems
