"""A ledger as rows for a spreadsheet: one per hand and player (SPEC §9, export).

Every value comes from the ledger as derived (the same hands, results and dealers as
``GET /v1/tables/{id}``); nothing is computed twice. A hand's times come from the edits in
effect: when it was entered and when it was last corrected or voided.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from calculator.balance import BalanceResult
from calculator.ledger.derive import balance_winner
from calculator.ledger.events import EventType
from calculator.ledger.records import Ledger
from calculator.result import winner_of

CSV_COLUMNS = (
    "hand",
    "entered_at",
    "changed_at",
    "status",
    "outcome",
    "winner",
    "dealer",
    "nagari_streak",
    "player",
    "name",
    "points",
    "chips",
)
"""The columns of a hand row, in order (the CSV header)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRow:
    """One player in one hand.

    ``outcome`` is the Go-Stop outcome type (``stop``, ``nagari``…), or ``balance`` /
    ``void`` for a balance hand; ``points`` the player's points (a balance hand: its card
    points with set bonuses); ``chips`` what the hand counts for the player in the totals
    (0 in a voided hand), so a column sum is the total.
    """

    hand: int
    entered_at: str
    changed_at: str | None
    status: str
    outcome: str
    winner: str | None
    dealer: str | None
    nagari_streak: int
    player: str
    name: str | None
    points: int
    chips: int

    def cells(self) -> tuple[str | int | None, ...]:
        """The row's values in :data:`CSV_COLUMNS` order."""
        return tuple(getattr(self, column) for column in CSV_COLUMNS)


def hand_times(ledger: Ledger) -> dict[int, tuple[str, str | None]]:
    """When each hand was entered and last changed (corrected or voided), by number."""
    times: dict[int, tuple[str, str | None]] = {}
    for edit in ledger.edits:
        if edit.type is EventType.ADDED:
            times[len(times) + 1] = (edit.at, None)
        elif edit.number is not None:
            times[edit.number] = (times[edit.number][0], edit.at)
    return times


def hand_rows(ledger: Ledger, *, names: dict[str, str | None]) -> Iterator[HandRow]:
    """A row per hand and player who took part, in hand order (``names``: display names
    by player id)."""
    times = hand_times(ledger)
    for hand in ledger.hands:
        result = hand.result
        counted = hand.counted
        entered_at, changed_at = times[hand.number]
        if isinstance(result, BalanceResult):
            outcome, winner = ("void" if result.void else "balance"), balance_winner(result)
            points = {p.id: p.total for p in result.players}
        else:
            assert result.outcome is not None  # a table hand always has one
            outcome, winner = result.outcome.type.value, winner_of(result)
            points = {p.id: p.points for p in result.players}
        for player, player_points in points.items():
            yield HandRow(
                hand=hand.number,
                entered_at=entered_at,
                changed_at=changed_at,
                status=hand.status.value,
                outcome=outcome,
                winner=winner,
                dealer=hand.dealer,
                nagari_streak=hand.nagari_streak,
                player=player,
                name=names.get(player),
                points=player_points,
                chips=counted.get(player, 0),
            )
