"""Whether an input fits the table (SPEC §9): a new table's setup
(:func:`check_setup`), a correction or a void (:func:`check_edit`) and a hand body
(:func:`check_hand`), each refused with what is wrong and how to fix it. Siblings:
:mod:`calculator.ledger.state` applies what passes, :mod:`calculator.ledger.derive`
scores it, :mod:`calculator.ledger.records` holds the records."""

from __future__ import annotations

from calculator.balance import PLAYER_COUNTS as BALANCE_PLAYER_COUNTS
from calculator.balance import BalanceHand, BalancePlayer, diagnose_balance_cards, uneven_deck
from calculator.errors import InvalidHandError, InvalidTableError, Issue, Problems
from calculator.hand import Hand, PlayerHand
from calculator.ledger.events import Event, EventType, Play, TableSetup
from calculator.ledger.records import Ledger, LedgerError
from calculator.names import alike, unreadable
from calculator.presets import Variant
from calculator.session import outcome_required
from calculator.settlement import raise_with_the_cards


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


def check_edit(ledger: Ledger, event: Event, *, entering: bool) -> None:
    """A correction or a void names an existing hand, a void an active one (a correction
    of a voided hand brings it back); a hand body fits the table (``entering``: as
    :func:`check_hand`)."""
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
        check_hand(ledger.setup, event.hand, entering=entering)


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


def check_hand(setup: TableSetup, hand: Play, *, entering: bool) -> None:
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
