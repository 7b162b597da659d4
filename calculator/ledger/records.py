"""The ledger's records (SPEC §9): the state of a table (:class:`Ledger`), its hands as
edited (:class:`Entry`) and as derived (:class:`LedgerHand`), its end (:class:`Tip`),
what a change moved (:class:`Change`) and the errors a change the table cannot take
raises. Frozen values only: :mod:`calculator.ledger.state` folds events into them,
:mod:`calculator.ledger.checks` says whether an input fits the table and
:mod:`calculator.ledger.derive` scores a hand at its place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from calculator.balance import BalanceResult
from calculator.errors import GoStopError
from calculator.ledger.events import Event, Play, TableSetup
from calculator.result import HandResult

Result = HandResult | BalanceResult
"""What the engine answers for a hand of the table: a Go-Stop hand's or a balance hand's
result."""


class LedgerError(GoStopError):
    """A change the table cannot take in its present state (nothing to undo, a hand that
    does not exist or is voided, a closed table). ``issues[0].code`` says which."""

    title = "The table cannot take this change"


class TooCostlyError(GoStopError):
    """An event that would take the table's replay cost past
    :data:`~calculator.ledger.state.MAX_REPLAY_COST`."""

    title = "The table's log would cost too much to replay"


class Status(StrEnum):
    """Whether a hand counts."""

    ACTIVE = "active"
    VOIDED = "voided"


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """A hand as the edits leave it: its body and whether it is voided; a voided one also
    as it was last derived (``last``), what it is listed with when a change before it
    leaves it a place where it cannot be scored
    (:func:`~calculator.ledger.derive.kept_void`). An undo that puts the entry back puts
    that back with it."""

    hand: Play
    voided: bool = False
    last: LedgerHand | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LedgerHand:
    """One hand of the table, derived: what was scored and what it left behind.

    ``played`` is the hand as scored (the table's stake, the derived ``nagari_streak`` and
    the ``dealer`` passed to it, or None); ``result`` is the engine's answer for it.
    ``streak_after`` and ``dealer_after`` are what the next hand starts from (a voided
    hand passes on what it was given).
    """

    number: int
    status: Status
    hand: Play
    played: Play
    result: Result
    nagari_streak: int
    dealer: str | None
    streak_after: int
    dealer_after: str | None

    @property
    def counted(self) -> Mapping[str, int]:
        """What the hand moves in the totals: its net if active, nothing if voided."""
        return self.result.net if self.status is Status.ACTIVE else {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Ledger:
    """The state of a table after ``version − 1`` events (creation is version 1).

    ``edits`` are the changes in effect (undo pops them), ``redo`` the ones undo took
    back, most recent last; ``replaced`` holds, for each edit in effect, the entry it
    replaced (None: it added a hand), so undo puts that entry back without going over the
    whole log again; ``entries`` the hands they describe; ``hands`` those hands
    scored; ``totals`` the sum of the active hands' nets over the roster;
    ``rederived_from`` the index of the first hand the last event derived again (the
    hands before it are the same objects as before it; ``len(hands)``: none); ``cost``
    what replaying the events so far costs (:data:`~calculator.ledger.state.MAX_REPLAY_COST`).
    """

    setup: TableSetup
    version: int
    closed: bool
    edits: tuple[Event, ...]
    redo: tuple[Event, ...]
    replaced: tuple[Entry | None, ...]
    entries: tuple[Entry, ...]
    hands: tuple[LedgerHand, ...]
    totals: Mapping[str, int]
    nagari_streak: int
    dealer: str | None
    cost: int = 0
    rederived_from: int = 0

    @property
    def can_undo(self) -> bool:
        """Whether there is a change to take back."""
        return bool(self.edits) and not self.closed

    @property
    def can_redo(self) -> bool:
        """Whether undo took back a change that redo can make again."""
        return bool(self.redo) and not self.closed


@dataclass(frozen=True, slots=True, kw_only=True)
class Tip:
    """The end of a ledger: all that appending a hand reads of it and changes — the
    version, whether the table is closed, how many hands it has, the totals, the nagari
    streak and dealer the next hand starts from (those of :class:`Ledger`: its last
    hand's ``streak_after`` and ``dealer_after``), whether undo or redo has something
    to take back or make again and the replay cost so far.
    :func:`~calculator.ledger.state.appended` scores a hand at it without the hands before
    (a ledger's end as its derived summary stores it is enough)."""

    setup: TableSetup
    version: int
    closed: bool
    count: int
    totals: Mapping[str, int]
    nagari_streak: int
    dealer: str | None
    can_undo: bool
    can_redo: bool
    cost: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """How much hand ``number`` moves differently after a change, per player (only
    players whose amount changed)."""

    number: int
    delta: Mapping[str, int]
