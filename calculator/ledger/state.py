"""Events in, state out: the ledger of one table, derived from its events (SPEC §9).

:func:`apply` takes a :class:`Ledger` and one event and returns the next ledger; it
re-scores only the hands from the first one the event changes (an append scores one
hand). :func:`replay` folds a whole log from the table's setup, so the state is always a
function of the events. Each hand is scored by the same engine as the stateless
endpoints (:func:`calculator.settlement.settle`, :func:`calculator.balance.score_balance`)
with the table's rule set and stake and what the ledger derives:

- the nagari streak: the ``nagari_streak_after`` of the active hand before (0 first);
- the dealer (선): the last winner deals; after a drawn hand the dealer stays; the first
  dealer is given at creation or named by the first hand. A hand that names its own
  ``dealer`` keeps it (and the next dealer follows from there); otherwise the ledger
  passes its dealer only when that dealer plays the hand (is in it and does not sit out).
  Who won a hand whose request names no winner follows the table's
  :class:`~calculator.ledger.events.DealerRule`, fixed when it was created.

A voided hand stays listed with the result it would have at its place (the result it
last had, when a change before it leaves it a place where it cannot be scored: a void
never refuses a change), but counts for nothing: the streak and the dealer pass over it.
Undo takes back the last change (added, corrected or voided), redo makes it again; a new
change empties what redo could make.

This module folds the events (and keeps the edit log's bookkeeping and the limits of a
log); its siblings hold the rest: :mod:`calculator.ledger.records` the records it
returns, :mod:`calculator.ledger.checks` whether an input fits the table and
:mod:`calculator.ledger.derive` one hand scored at its place and the totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from calculator.errors import GoStopError, Issue
from calculator.ledger.checks import check_edit, check_hand
from calculator.ledger.derive import derive, kept_void, relocated, totals_after
from calculator.ledger.events import EDITS, Event, EventType, TableSetup
from calculator.ledger.records import (
    Change,
    Entry,
    Ledger,
    LedgerError,
    LedgerHand,
    Tip,
    TooCostlyError,
)
from calculator.session import NetEntry, Session, SessionResult, settle_session

MAX_EVENTS = 5_000
"""Most events a table's log holds, its creation included: any stored log replays in
bounded time (on a cache miss, an import). The last place is kept for closing, so a
full table can still be closed."""

MAX_REPLAY_COST = 20_000
"""Most a table's log may cost to replay: one per event plus one per hand it scores (a
correction of hand 1 scores every hand again; undo and redo count too). Every event a
table takes — a live change or an imported one — is held to it, in :func:`apply`, so any
table's log replays within the request deadline on an instance that holds nothing of it
(a restart, another worker or instance) and any export imports. The last unit is kept
for closing, which scores nothing: a table at the limit still closes."""


def start(setup: TableSetup) -> Ledger:
    """The ledger of a new table: no hands, the first dealer if given."""
    return Ledger(
        setup=setup,
        version=1,
        closed=False,
        edits=(),
        redo=(),
        replaced=(),
        entries=(),
        hands=(),
        totals=dict.fromkeys(setup.roster, 0),
        nagari_streak=0,
        dealer=setup.dealer,
    )


def replay(setup: TableSetup, events: Iterable[Event], *, stored: bool = False) -> Ledger:
    """The ledger after ``events``, from scratch (``stored``: as :func:`apply`)."""
    ledger = start(setup)
    for event in events:
        ledger = apply(ledger, event, stored=stored)
    return ledger


def apply(ledger: Ledger, event: Event, *, stored: bool = False, exported: bool = False) -> Ledger:
    """The ledger after one more event; raises LedgerError, TooCostlyError or the
    engine's GoStopError (a hand that cannot be scored, or a later hand that a
    correction breaks). A ``stored`` event was taken when it was written: its replay
    cost is counted, never refused (a log written before :data:`MAX_REPLAY_COST`), and
    its hand gets only the checks it was stored under (``settle``'s ``entering`` False).
    An ``exported`` event (an import of a table's export) was stored by a table too: its
    hand is scored as a stored one, so that every export imports, while its cost is held
    to the limit as a live change's is. Any other event's hand is new input: every
    check."""
    _check_open(ledger.closed, ledger.version, event)
    if event.type is EventType.CLOSED:
        return replace(
            ledger,
            version=ledger.version + 1,
            closed=True,
            cost=_charged(ledger.cost, 0, event, stored),
            rederived_from=len(ledger.hands),
        )
    if event.type is EventType.ADDED:
        hand, end = _appended(tip(ledger), event, stored, exported=exported)
        return Ledger(
            setup=ledger.setup,
            version=end.version,
            closed=False,
            edits=(*ledger.edits, event),
            redo=(),
            replaced=(*ledger.replaced, _replacing(ledger.entries, event)),
            entries=_edited(ledger.entries, event),
            hands=(*ledger.hands, hand),
            totals=end.totals,
            nagari_streak=end.nagari_streak,
            dealer=end.dealer,
            cost=end.cost,
            rederived_from=len(ledger.hands),
        )
    edits, redo, replaced = ledger.edits, ledger.redo, ledger.replaced
    if event.type is EventType.UNDONE:
        if not edits:
            raise LedgerError([Issue("nothing_to_undo", "there is no change to undo", ())])
        edit, edits, redo = edits[-1], edits[:-1], (*redo, edits[-1])
        entries = _restored(ledger.entries, edit, replaced[-1])
        replaced = replaced[:-1]
        first = _touched(edit, len(ledger.entries) - 1)
    else:
        if event.type is EventType.REDONE:
            if not redo:
                raise LedgerError([Issue("nothing_to_redo", "no undone change to redo", ())])
            edit, edits, redo = redo[-1], (*edits, redo[-1]), redo[:-1]
        else:
            check_edit(ledger, event, entering=not (stored or exported))
            edit, edits, redo = event, (*edits, event), ()
        replaced = (*replaced, _replacing(ledger.entries, edit))
        entries = _edited(ledger.entries, edit)
        first = _touched(edit, len(ledger.entries))
    cost = _charged(ledger.cost, len(entries) - first, event, stored)  # before scoring any
    streak, dealer = _after(ledger.setup, ledger.hands[:first])
    derived = list(ledger.hands[:first])
    entered = _entered(event, len(entries))
    kept = list(entries)
    for index in range(first, len(entries)):
        entry = entries[index]
        try:
            hand = derive(
                ledger.setup,
                index + 1,
                entry,
                streak,
                dealer,
                entering=index == entered and not (stored or exported),
            )
        except GoStopError as error:
            if index == entered:
                raise  # the hand being entered: its own problems, as the stateless answer
            if not entry.voided or entry.last is None:
                raise relocated(error, index + 1) from None
            # a void counts for nothing: it never refuses a change (bringing it back
            # scores it at its place, and is refused there if it cannot be)
            hand = kept_void(entry.last, streak, dealer)
        if entry.voided:
            kept[index] = replace(entry, last=hand)
        derived.append(hand)
        streak, dealer = hand.streak_after, hand.dealer_after
    entries = tuple(kept)
    return Ledger(
        setup=ledger.setup,
        version=ledger.version + 1,
        closed=False,
        edits=edits,
        redo=redo,
        replaced=replaced,
        entries=entries,
        hands=tuple(derived),
        totals=totals_after(
            ledger.totals, ledger.hands[first:], derived[first:], ledger.setup.unit
        ),
        nagari_streak=streak,
        dealer=dealer,
        cost=cost,
        rederived_from=first,
    )


def tip(ledger: Ledger) -> Tip:
    """The end of ``ledger``."""
    return Tip(
        setup=ledger.setup,
        version=ledger.version,
        closed=ledger.closed,
        count=len(ledger.hands),
        totals=ledger.totals,
        nagari_streak=ledger.nagari_streak,
        dealer=ledger.dealer,
        can_undo=ledger.can_undo,
        can_redo=ledger.can_redo,
        cost=ledger.cost,
    )


def appended(end: Tip, event: Event) -> tuple[LedgerHand, Tip]:
    """The hand an ``added`` event appends at a ledger's ``end``, scored, and the end
    after it: what :func:`apply` derives for the event (it calls this), from the end
    alone. Raises as :func:`apply` does."""
    _check_open(end.closed, end.version, event)
    return _appended(end, event, stored=False)


def after_appends(cost: int, appends: int) -> int:
    """The replay cost after ``appends`` stored hands added at a log that cost ``cost``
    (what :func:`apply` counts for them: no ledger needed)."""
    return cost + appends * _event_cost(1)


def changes(before: Ledger, after: Ledger) -> tuple[Change, ...]:
    """The hands whose amounts differ between two ledgers, with the difference per player
    (a hand that exists in only one of them counts as moving nothing in the other)."""
    found = []
    for index in range(max(len(before.hands), len(after.hands))):
        old = before.hands[index].counted if index < len(before.hands) else {}
        new = after.hands[index].counted if index < len(after.hands) else {}
        delta = {}
        for player in (*old, *(p for p in new if p not in old)):
            difference = new.get(player, 0) - old.get(player, 0)
            if difference:
                delta[player] = difference
        if delta:
            found.append(Change(number=index + 1, delta=delta))
    return tuple(found)


def settlement(
    *, roster: tuple[str, ...], totals: Mapping[str, int], unit: int | None
) -> SessionResult:
    """Totals and the fewest transfers, rounded to the table's ``unit``: the session
    settlement (:func:`calculator.session.settle_session`) of the ledger's totals."""
    session = Session(players=roster, hands=(NetEntry(net=dict(totals)),), unit=unit)
    return settle_session(session, roster=True)


# --- inside ------------------------------------------------------------------------------


def _check_open(closed: bool, version: int, event: Event) -> None:
    """A closed table takes no event; a full one only its closing."""
    if closed:
        raise LedgerError([Issue("table_closed", "the table is closed: read-only", ())])
    if event.type is not EventType.CLOSED and version >= MAX_EVENTS - 1:
        detail = (
            f"the table holds {version:,} events, the most a table takes before it "
            f"closes ({MAX_EVENTS - 1:,}); close it and start a new table for more hands"
        )
        raise LedgerError([Issue("table_full", detail, ())])


def _appended(
    end: Tip, event: Event, stored: bool, *, exported: bool = False
) -> tuple[LedgerHand, Tip]:
    """:func:`appended` once the table is known open: the new hand starts from the end's
    streak and dealer (its own problems raised as the stateless answer's); it is an edit
    in effect, and a new change leaves redo nothing to make."""
    assert event.type is EventType.ADDED
    assert event.hand is not None
    cost = _charged(end.cost, 1, event, stored)
    check_hand(end.setup, event.hand, entering=not (stored or exported))
    hand = derive(
        end.setup,
        end.count + 1,
        Entry(hand=event.hand),
        end.nagari_streak,
        end.dealer,
        entering=not (stored or exported),
    )
    after = Tip(
        setup=end.setup,
        version=end.version + 1,
        closed=False,
        count=end.count + 1,
        totals=totals_after(end.totals, (), (hand,), end.setup.unit),
        nagari_streak=hand.streak_after,
        dealer=hand.dealer_after,
        can_undo=True,
        can_redo=False,
        cost=cost,
    )
    return hand, after


def _charged(cost: int, scored: int, event: Event, stored: bool) -> int:
    """The replay cost after one more event that scores ``scored`` hands: one for the
    event and one per hand. Past :data:`MAX_REPLAY_COST` less the unit kept for closing,
    a new event other than closing is refused."""
    after = cost + _event_cost(scored)
    if stored or event.type is EventType.CLOSED or after < MAX_REPLAY_COST:
        return after
    detail = (
        f"this change would take the cost of replaying the table's log to {after:,} (one "
        "per event and one per hand it scores: a correction of an early hand scores every "
        "later hand again), past the most a table takes before it closes "
        f"({MAX_REPLAY_COST - 1:,}); close this table (its settlement stays) and open a "
        "new one for the rest of the night"
    )
    raise TooCostlyError([Issue("table_too_costly", detail, ())])


def _event_cost(scored: int) -> int:
    """What replaying an event that scores ``scored`` hands costs: the one measure of
    :data:`MAX_REPLAY_COST`."""
    return 1 + scored


def _entered(event: Event, count: int) -> int | None:
    """The index of the hand an event enters a body for (None: it enters none)."""
    if event.type is EventType.ADDED:
        return count - 1
    if event.type is EventType.CORRECTED and event.number is not None:
        return event.number - 1
    return None


def _replacing(entries: tuple[Entry, ...], edit: Event) -> Entry | None:
    """The entry an edit replaces (None: it adds a hand), kept so undo can put it back."""
    return None if edit.number is None else entries[edit.number - 1]


def _restored(entries: tuple[Entry, ...], edit: Event, old: Entry | None) -> tuple[Entry, ...]:
    """The entries with the last edit taken back: ``old`` is what :func:`_replacing` kept
    for it. Costs what the edit touched, not the length of the log."""
    if old is None:
        assert edit.type is EventType.ADDED
        return entries[:-1]
    index = _touched(edit, len(entries))
    return (*entries[:index], old, *entries[index + 1 :])


def _edited(entries: tuple[Entry, ...], edit: Event) -> tuple[Entry, ...]:
    """The entries after one edit; the entries it does not touch are the same objects."""
    assert edit.type in EDITS
    if edit.type is EventType.ADDED:
        assert edit.hand is not None
        return (*entries, Entry(hand=edit.hand))
    assert edit.number is not None
    index = edit.number - 1
    old = entries[index]
    if edit.type is EventType.CORRECTED:  # of a voided hand too: it counts again
        assert edit.hand is not None
        new = Entry(hand=edit.hand)
    else:
        new = Entry(hand=old.hand, voided=True)
    return (*entries[:index], new, *entries[index + 1 :])


def _touched(edit: Event, added_at: int) -> int:
    """The index of the hand an edit changes (``added_at`` for an added hand): the hands
    before it keep what they were derived to."""
    return added_at if edit.number is None else edit.number - 1


def _after(setup: TableSetup, hands: tuple[LedgerHand, ...]) -> tuple[int, str | None]:
    """The streak and dealer the next hand starts from."""
    if not hands:
        return 0, setup.dealer
    return hands[-1].streak_after, hands[-1].dealer_after
