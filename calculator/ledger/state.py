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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from calculator.balance import PLAYER_COUNTS as BALANCE_PLAYER_COUNTS
from calculator.balance import (
    BalanceHand,
    BalancePlayer,
    BalanceResult,
    diagnose_balance_cards,
    score_balance,
    uneven_deck,
)
from calculator.errors import (
    GoStopError,
    InvalidHandError,
    InvalidTableError,
    Issue,
    Problems,
    ZeroSumError,
    relocate,
)
from calculator.hand import Hand, OutcomeType, PlayerHand
from calculator.ledger.events import EDITS, DealerRule, Event, EventType, Play, TableSetup
from calculator.limits import quote
from calculator.names import alike, unreadable
from calculator.presets import Variant
from calculator.result import HandResult, winner_of
from calculator.session import (
    NetEntry,
    Session,
    SessionResult,
    outcome_required,
    round_totals,
    settle_session,
)
from calculator.settlement import MAX_SAFE_CHIPS, beyond_safe, raise_with_the_cards, settle

Result = HandResult | BalanceResult

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


class LedgerError(GoStopError):
    """A change the table cannot take in its present state (nothing to undo, a hand that
    does not exist or is voided, a closed table). ``issues[0].code`` says which."""

    title = "The table cannot take this change"


class TooCostlyError(GoStopError):
    """An event that would take the table's replay cost past :data:`MAX_REPLAY_COST`."""

    title = "The table's log would cost too much to replay"


class Status(StrEnum):
    """Whether a hand counts."""

    ACTIVE = "active"
    VOIDED = "voided"


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """A hand as the edits leave it: its body and whether it is voided; a voided one also
    as it was last derived (``last``), what it is listed with when a change before it
    leaves it a place where it cannot be scored (:func:`_kept_void`). An undo that puts
    the entry back puts that back with it."""

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
    what replaying the events so far costs (:data:`MAX_REPLAY_COST`).
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
    to take back or make again and the replay cost so far. :func:`appended` scores a
    hand at it without the hands before (a ledger's end as its derived summary stores
    it is enough)."""

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


def check_setup(setup: TableSetup, *, new: bool = True) -> None:
    """Raise InvalidTableError unless the roster names different people and the first
    dealer, if given, is one of them. ``new``: a table created now, whose roster may not
    name two ids a reader cannot tell apart, nor one that reads as nothing
    (:func:`~calculator.names.unreadable`: the same letters composed or not, spaces,
    invisible characters, as the share text tells names apart), and whose balance rule
    set must let every hand its roster can seat be scored
    (:func:`~calculator.balance.uneven_deck`: the locked rule set cannot change); else an
    import, which takes an exported table as it is (a table created before
    2026-12-06 may hold such ids, one before 2026-12-07 such a rule set)."""
    problems = Problems()
    for i, code, detail in unreadable(setup.roster, strict=new):
        problems.add(code, detail, "roster", i)
    seen = set(setup.roster)
    if setup.dealer is not None and setup.dealer not in seen:
        problems.add(
            "unknown_player",
            f"dealer {setup.dealer!r} is not on the roster ({', '.join(setup.roster)})",
            "dealer",
        )
    if new and setup.variant is Variant.BALANCE:  # every hand size its roster can seat
        seats = [n for n in BALANCE_PLAYER_COUNTS if n <= len(setup.roster)]
        uneven = uneven_deck(setup.ruleset.rules, seats)
        if uneven is not None:
            problems.add(uneven.code, uneven.detail, *uneven.location)
    problems.raise_if_any(InvalidTableError)


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
            _check_edit(ledger, event, entering=not (stored or exported))
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
            hand = _derive(
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
                raise _relocated(error, index + 1) from None
            # a void counts for nothing: it never refuses a change (bringing it back
            # scores it at its place, and is refused there if it cannot be)
            hand = _kept_void(entry.last, streak, dealer)
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
        totals=_totals(ledger.totals, ledger.hands[first:], derived[first:], ledger.setup.unit),
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
    _check_hand(end.setup, event.hand, entering=not (stored or exported))
    hand = _derive(
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
        totals=_totals(end.totals, (), (hand,), end.setup.unit),
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


def _check_edit(ledger: Ledger, event: Event, *, entering: bool) -> None:
    """A correction or a void names an existing hand, a void an active one (a correction
    of a voided hand brings it back); a hand body fits the table (``entering``: as
    :func:`_check_hand`)."""
    if event.type is not EventType.ADDED:
        number = event.number
        if number is None or not 1 <= number <= len(ledger.entries):
            detail = f"the table has no hand {number}; {_hands_held(len(ledger.entries))}"
            raise LedgerError([Issue("unknown_hand", detail, ())])
        if event.type is EventType.VOIDED and ledger.entries[number - 1].voided:
            detail = (
                f"hand {number} is already voided; to bring it back, correct it "
                f"(PUT /hands/{number} with its hand and a reason)"
            )
            raise LedgerError([Issue("hand_voided", detail, ())])
    if event.hand is not None:
        _check_hand(ledger.setup, event.hand, entering=entering)


def _hands_held(count: int) -> str:
    """Which hand numbers a table of ``count`` hands has, as a message says it.

    >>> _hands_held(0), _hands_held(1), _hands_held(12)
    ('it has no hands yet', 'its only hand is 1', 'its hands are 1 to 12')
    """
    if count == 0:
        return "it has no hands yet"
    return "its only hand is 1" if count == 1 else f"its hands are 1 to {count}"


def _not_on_roster(player: str, roster: tuple[str, ...]) -> str:
    """Why ``player`` cannot play this table's hand; what the roster spells alike, said."""
    same = [listed for listed in roster if alike(listed) == alike(player)]
    if same:
        return (
            f"{player!r} is not on the table's roster; {same[0]!r} is, spelled with other "
            "spaces, invisible characters or another encoding of its letters (a phone "
            "shows them alike): send the id as the table lists it"
        )
    return (
        f"{player!r} is not on the table's roster ({', '.join(roster)}); players are fixed "
        "when the table is created"
    )


def _check_hand(setup: TableSetup, hand: Play, *, entering: bool) -> None:
    """A hand fits the table: its variant, players on the roster, an outcome. A hand
    refused here is told its cards' problems too, as the stateless endpoints tell them
    (``entering``: a hand entered now, with every check; else a stored or exported one,
    with the checks it was stored under)."""
    problems = Problems()
    expected = Hand if setup.variant is Variant.GOSTOP else BalanceHand
    if not isinstance(hand, expected):
        problems.add("wrong_variant", f"this table plays {setup.variant.value} hands")
        problems.raise_if_any(InvalidHandError)
    players: tuple[PlayerHand | BalancePlayer, ...] = hand.players
    for j, player in enumerate(players):
        if player.id not in setup.roster:
            problems.add(
                "unknown_player", _not_on_roster(player.id, setup.roster), "players", j, "id"
            )
    missing = outcome_required(hand, "a table hand") if isinstance(hand, Hand) else None
    if missing is not None:
        problems.add(missing.code, missing.detail, *missing.location)
    if problems and isinstance(hand, Hand):
        try:
            problems.raise_if_any(InvalidHandError)
        except InvalidHandError as error:
            raise_with_the_cards(hand, setup.ruleset.rules, error, entering=entering)
            raise
    if problems and isinstance(hand, BalanceHand):
        diagnose_balance_cards(hand, setup.ruleset.rules, problems)
    problems.raise_if_any(InvalidHandError)


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


def _plays(hand: Hand, player: str | None) -> bool:
    return any(p.id == player and not p.sits_out for p in hand.players)


def _derive(
    setup: TableSetup,
    number: int,
    entry: Entry,
    streak: int,
    dealer: str | None,
    *,
    entering: bool = False,
) -> LedgerHand:
    """Score one hand at its place: the streak and dealer it is given, what it leaves.
    A hand the table holds already (not ``entering``: it was checked when it was entered)
    gets only the checks it was stored under and is scored as it was then — not refused
    by a check added since (:func:`calculator.settlement.settle`'s ``entering``)."""
    hand = entry.hand
    stays = dealer  # the dealer after the hand if no one wins it
    if isinstance(hand, Hand):
        passed: str | None
        if hand.dealer is not None:
            passed = stays = hand.dealer
        else:
            passed = dealer if _plays(hand, dealer) else None
        entered = hand._replace(stake=setup.stake, nagari_streak=streak, dealer=passed)
        played: Play = entered
        scored = settle(
            entered, setup.ruleset, entering=entering, floor_four_sale=setup.floor_four_sale
        )
        result: Result = scored
        streak_after = scored.nagari_streak_after
        outcome = scored.outcome
        assert outcome is not None  # a table hand always has one (_check_hand)
        # The next dealer follows the table's own rule (DealerRule), fixed when it was
        # created: a table created since 2026-12-05 takes the winner as the answer names
        # it — a tie of 총통 holders or a floor four resolved by the rules included; none
        # after a hand drawn or cancelled, whose biggest net is a sitter's sale or a side
        # payment: the dealer stays. A table created before keeps the biggest net where
        # the request names no winner, as every release derived it then: deriving its
        # dealers anew would re-derive its later hands (a table could refuse every write).
        if setup.dealer_rule is DealerRule.WINNER:
            winner = winner_of(scored)
        elif outcome.type is OutcomeType.NAGARI:
            winner = None
        else:
            winner = outcome.winner or _top(scored.net)
    else:
        passed = None
        played = replace(hand, stake=setup.stake)
        result = score_balance(played, setup.ruleset)
        streak_after = 0
        winner = balance_winner(result)
    if entry.voided:  # passes on what it was given: not the dealer it names itself
        status, streak_after, dealer_after = Status.VOIDED, streak, dealer
    else:
        status, dealer_after = Status.ACTIVE, winner if winner is not None else stays
    return LedgerHand(
        number=number,
        status=status,
        hand=hand,
        played=played,
        result=result,
        nagari_streak=streak,
        dealer=passed,
        streak_after=streak_after,
        dealer_after=dealer_after,
    )


def _kept_void(last: LedgerHand, streak: int, dealer: str | None) -> LedgerHand:
    """A voided hand that cannot be scored at its place any more (a change before it left
    it a dealer or an amount its rules refuse): listed as it was ``last`` derived — its
    result, and the streak and dealer it was scored with — and passing on the streak and
    dealer it is given, as every voided hand does."""
    return replace(last, streak_after=streak, dealer_after=dealer)


def balance_winner(result: BalanceResult) -> str | None:
    """Who won a balance hand: the one player who gained the most (the next dealer, and the
    export's ``winner``); none when the top is tied or the hand is void (missing cards: it
    moves nothing, a draw)."""
    return _top(result.net)


def _top(net: Mapping[str, int]) -> str | None:
    """The one player who won the most, if someone won and no one tied it."""
    best = max(net.values(), default=0)
    leaders = [p for p, chips in net.items() if chips == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def _totals(
    before: Mapping[str, int],
    old: Iterable[LedgerHand],
    new: Iterable[LedgerHand],
    unit: int | None,
) -> dict[str, int]:
    """The totals with the ``old`` hands' amounts replaced by the ``new`` ones', refused
    when one, or one of the settlement rounded to ``unit``, is beyond what apps show."""
    totals = dict(before)
    for hand in old:
        for player, chips in hand.counted.items():
            totals[player] -= chips
    for hand in new:
        for player, chips in hand.counted.items():
            totals[player] += chips
    if sum(totals.values()) != 0:  # not an assert: never skipped (-O)
        raise ZeroSumError(f"table totals do not balance: {totals}")
    shown = totals if unit is None else round_totals(totals, unit)[1]
    for amounts in (totals, shown):
        beyond = beyond_safe(amounts)
        if beyond is not None:
            raise InvalidHandError([_too_large(amounts, beyond)])
    return totals


def _too_large(totals: Mapping[str, int], player: str) -> Issue:
    """A total beyond what every hand's net stays within (JSON numbers apps read exactly,
    and the share text carries)."""
    return Issue(
        "amount_too_large",
        f"this change takes the total of {quote(player)} to {totals[player]:,} chips, "
        f"beyond {MAX_SAFE_CHIPS:,}, more than apps can show exactly; settle the table now "
        "and play on at a new one",
        (),
    )


def _relocated(error: GoStopError, number: int) -> GoStopError:
    """The error of a later hand that a change breaks, located at ``hands/<number>``, and
    what the scorer can do about it (the pointer is into the table, not the request)."""
    moved = (relocate(i, ("hands", number)) for i in error.issues)
    return type(error)(
        [
            Issue(
                i.code,
                f"hand {number}, derived again after this change: {i.detail}; the change "
                f"is refused and the table stays as it was: correct hand {number} first "
                f"(PUT /hands/{number}) so that it still stands after it",
                i.location,
            )
            for i in moved
        ]
    )
