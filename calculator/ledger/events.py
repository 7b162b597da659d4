"""The ledger's events: what happened at a table, in order (SPEC §9).

Events are the truth of a table; everything else (hands, totals, nagari streak, dealer)
is derived from them by :func:`calculator.ledger.state.replay`. Each event records who
made it (``by``: the label of the token that wrote it) and when (``at``: an ISO 8601
time given by the edge that stores it; the domain only carries it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from calculator.balance import BalanceHand
from calculator.hand import Hand
from calculator.presets import RuleSet, Variant

Play = Hand | BalanceHand
"""A hand as entered at the table: a Go-Stop or a balance hand, before the ledger supplies
the table's stake, the nagari streak and the dealer."""


class EventType(StrEnum):
    """The kinds of event (their values are the wire names)."""

    ADDED = "added"
    CORRECTED = "corrected"
    VOIDED = "voided"
    UNDONE = "undone"
    REDONE = "redone"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSetup:
    """What a table is created with: fixed for the whole night.

    ``roster`` lists everyone who may play (2–10, more than the seats); ``ruleset`` is the
    locked rule set; ``dealer`` the first dealer (선), if known at creation; ``unit`` the
    rounding unit of the settlement.
    """

    roster: tuple[str, ...]
    variant: Variant
    ruleset: RuleSet
    stake: int = 1
    dealer: str | None = None
    unit: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One event of the log.

    ``number`` names the hand a correction or a void is about; ``hand`` is the body of an
    added or corrected hand; ``reason`` is required for a correction or a void.
    """

    type: EventType
    by: str
    at: str
    number: int | None = None
    hand: Play | None = None
    reason: str | None = None


def added(hand: Play, *, by: str, at: str) -> Event:
    """A hand appended to the table."""
    return Event(type=EventType.ADDED, hand=hand, by=by, at=at)


def corrected(number: int, hand: Play, *, reason: str, by: str, at: str) -> Event:
    """Hand ``number`` replaced by ``hand``, with the reason."""
    return Event(type=EventType.CORRECTED, number=number, hand=hand, reason=reason, by=by, at=at)


def voided(number: int, *, reason: str, by: str, at: str) -> Event:
    """Hand ``number`` struck out (it stays listed, counted for nothing), with the reason."""
    return Event(type=EventType.VOIDED, number=number, reason=reason, by=by, at=at)


def undone(*, by: str, at: str) -> Event:
    """The last change (added, corrected or voided) taken back."""
    return Event(type=EventType.UNDONE, by=by, at=at)


def redone(*, by: str, at: str) -> Event:
    """The last change taken back, made again (only right after undo)."""
    return Event(type=EventType.REDONE, by=by, at=at)


def closed(*, by: str, at: str) -> Event:
    """The table is closed: read-only from now on, still viewable."""
    return Event(type=EventType.CLOSED, by=by, at=at)


EDITS = frozenset({EventType.ADDED, EventType.CORRECTED, EventType.VOIDED})
"""The events undo takes back and redo makes again."""
