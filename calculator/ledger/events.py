"""The ledger's events: what happened at a table, in order (SPEC §9).

Events are the truth of a table; everything else (hands, totals, nagari streak, dealer)
is derived from them by :func:`calculator.ledger.state.replay`. Each event records who
made it (``by``: the label of the token that wrote it) and when (``at``: an ISO 8601
time given by the edge that stores it; the domain only carries it).
"""

from __future__ import annotations

from collections.abc import Iterable
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


class DealerRule(StrEnum):
    """How the ledger derives the next dealer (선) after a Go-Stop hand whose request names
    no winner — fixed per table when it is created (its values are the wire names).

    Where the request names the winner (a stop, a single 총통, a 쓰리뻑) that winner deals
    next under either rule, and after a hand drawn as ``nagari`` the dealer stays. They
    differ only where the rules choose the winner themselves (a 총통 held by two players,
    a floor four the dealer wins) or find none (such a tie drawn or cancelled, a floor four
    drawn or redealt), and someone other than that winner nets the most of the hand — a
    sitter selling brights (광팔기). A balance hand's winner is its biggest net under both.
    """

    BIGGEST_NET = "biggest_net"
    """Every table whose setup records no rule — created, or exported, before the release
    of 2026-12-05 recorded it: the one player who nets the most, if any (the sitter, when
    the sale is the biggest amount of the hand). Kept for those tables: their later hands
    were scored with the dealers it derived."""
    WINNER = "winner"
    """Tables created since (:data:`NEW_TABLES`): the hand's winner as the answer names it
    (:func:`calculator.result.winner_of`); a hand the rules leave without a winner (a tie
    drawn or cancelled, a floor four drawn or redealt) leaves the dealer, as any drawn
    hand does — never the biggest net, which there is a sitter's sale or a side payment."""


NEW_TABLES = DealerRule.WINNER
"""The dealer rule a table created now gets (one imported keeps its export's)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSetup:
    """What a table is created with: fixed for the whole night.

    ``roster`` lists everyone who may play (2–10, more than the seats); ``ruleset`` is the
    locked rule set; ``dealer`` the first dealer (선), if known at creation; ``unit`` the
    rounding unit of the settlement; ``dealer_rule`` how the next dealer is derived
    (:class:`DealerRule`), always said: a new table is created with :data:`NEW_TABLES`, a
    table stored or exported before the rule was recorded reads as ``BIGGEST_NET``
    (calculator.api.ledger_io.dealer_rule_of).
    """

    roster: tuple[str, ...]
    variant: Variant
    ruleset: RuleSet
    stake: int = 1
    dealer: str | None = None
    unit: int | None = None
    dealer_rule: DealerRule

    @property
    def floor_four_sale(self) -> bool:
        """Whether a floor four played as a drawn hand (``floor_four_of_month: nagari``)
        pays the sitter's sale on this table: on a table created since 2026-12-05, as the
        rules say (docs/rules.md §6.2); not on one created before, whose hands were scored
        without it — entered then or now, and every time the table is derived again, so
        that its totals never depend on which of them a change re-derives. The release
        of 2026-12-05 that paid the sale also recorded the dealer rule: a table whose
        setup records none (``BIGGEST_NET``) is one created before it."""
        return self.dealer_rule is not DealerRule.BIGGEST_NET


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


def hands_about(log: Iterable[tuple[str, int | None]]) -> list[int | None]:
    """The hand each event of a log is about, from its events' ``(type, number)`` in
    order (the whole log, from ``created``): what the log's readers show as ``number``,
    derived because only a correction and a void store theirs.

    An ``added`` event is about the hand it added (the hands listed before it, plus one);
    an ``undone`` or ``redone`` one about the hand of the change it took back or made
    again (undo takes back the last change in effect — an add, a correction or a void —
    and redo makes the last one undone again, so it is well defined); ``created`` and
    ``closed`` are about no hand (None). Counting only: nothing is scored.

    >>> hands_about([("created", None), ("added", None), ("added", None), ("voided", 1),
    ...              ("undone", None), ("undone", None), ("redone", None), ("added", None),
    ...              ("closed", None)])
    [None, 1, 2, 1, 1, 2, 2, 3, None]
    """
    listed = 0  # the hands the table lists
    edits: list[tuple[int, bool]] = []  # the changes in effect: (hand, whether it added it)
    undone_edits: list[tuple[int, bool]] = []  # the changes undo took back, redo can make
    about: list[int | None] = []
    for kind, number in log:
        hand: int | None = None
        if kind in (EventType.ADDED, EventType.CORRECTED, EventType.VOIDED):
            adds = kind == EventType.ADDED
            listed += adds
            hand = listed if adds else number
            if hand is not None:
                edits.append((hand, adds))
            undone_edits.clear()
        elif kind == EventType.UNDONE and edits:
            hand, adds = edits.pop()
            undone_edits.append((hand, adds))
            listed -= adds
        elif kind == EventType.REDONE and undone_edits:
            hand, adds = undone_edits.pop()
            edits.append((hand, adds))
            listed += adds
        about.append(hand)
    return about
