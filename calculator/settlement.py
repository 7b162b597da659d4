"""Settle one Go-Stop hand: who pays whom how many points and chips, and why.

:func:`settle` is the domain's entry point. It checks the table and the cards, places
each player's switchable animals (an explicit choice, or ``auto``: the winner takes the
reading that pays it most, then each loser the one that costs it least), scores every
pile, and turns the outcome into payments — the hand payment with its baks and
liability, then the side payments — and a ``net`` per player that sums to zero.

Its siblings hold the steps: :mod:`calculator.readings` (each pile scored under each
reading of its switchable animals; the stop minimum's test), :mod:`calculator.hand_payment`
(a stop's payment: the winner's amount, each loser's baks, liability) and
:mod:`calculator.declared_baks` (a declared pile's bak flags checked). Here: the
checks of the hand as a whole, the side payments and the net, the answer's bounds
(:data:`MAX_SAFE_CHIPS`) and the comparison under other rule sets.

>>> from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand
>>> from calculator.presets import resolve
>>> hand = Hand(players=(  # docs/rules.md W13
...     PlayerHand(id="A", captured=("01-bright", "03-bright", "08-bright",
...                                  "02-junk-1", "04-junk-1")),
...     PlayerHand(id="B", captured=("12-bright", "06-junk-1", "07-junk-1")),
...     PlayerHand(id="C", captured=("05-junk-1", "09-junk-1")),
... ), outcome=Outcome(type=OutcomeType.STOP, winner="A"))
>>> result = settle(hand, resolve("standard"))
>>> [(p.payer, p.points) for p in result.payments], dict(result.net)
([('B', 3), ('C', 6)], {'A': 9, 'B': -3, 'C': -6})
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from calculator.errors import (
    GoStopError,
    InvalidHandError,
    Issue,
    Problems,
    ZeroSumError,
)
from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand, after_a_draw
from calculator.hand_payment import stop
from calculator.instant import instant_win
from calculator.multipliers import stop_rules
from calculator.piles import read_piles
from calculator.presets import RuleSet, Variant
from calculator.readings import issue, may_stop, place_switchables
from calculator.result import HandResult, Payment, PlayerResult, Step, WinnerScore
from calculator.rule_choices import ChongtongTie, FloorFour
from calculator.rules import GoStopRules
from calculator.side import side_payments, sold_cards
from calculator.table import Table, check_table

_new: Final = tuple.__new__  # builds a NamedTuple without the Python-level __new__ (hot path)

# Enum members named once, at import: compiled, ``OutcomeType.STOP`` is a look-up of the
# class among the module's globals, then a read through the enum metaclass's __getattr__
# (Python 3.11), ~0.7k instructions each time, and a hand reads a few dozen of them.
# Each module names those it reads (calculator.readings, calculator.hand_payment): a
# Final is best read in the module that defines it.
_GOSTOP: Final = Variant.GOSTOP
_STOP: Final = OutcomeType.STOP
_NAGARI: Final = OutcomeType.NAGARI
_FLOOR_FOUR: Final = OutcomeType.FLOOR_FOUR
_CHONGTONG: Final = OutcomeType.CHONGTONG
_FLOOR_FOUR_DEALER_WINS: Final = FloorFour.DEALER_WINS
_FLOOR_FOUR_NAGARI: Final = FloorFour.NAGARI
_TIE_CANCELS: Final = ChongtongTie.CANCEL
# Outcome is a named tuple, named once too: compiled, its class is a look-up among the
# module's globals at every use; a Final name is read from a native static.
_OUTCOME: Final = Outcome
# The liable echo builds an Outcome by position (see _settled): refuse at import if its
# fields no longer read type, winner, liable, holders.
if Outcome._fields != ("type", "winner", "liable", "holders"):  # pragma: no cover
    raise ImportError("calculator.settlement: the liable echo no longer matches Outcome")

MAX_SAFE_CHIPS: Final = 2**53 - 1  # beyond this JSON numbers lose precision in JavaScript clients


def _past(chips: int, most: int) -> bool:
    """Whether ``chips`` is further from zero than ``most``, either way (``abs(chips) >
    most`` without a generic abs()): the test of both checks below."""
    return chips > most or -chips > most


def beyond_safe(amounts: dict[str, int]) -> str | None:
    """The player whose amount is furthest beyond :data:`MAX_SAFE_CHIPS` (apps would not
    read it exactly), or None: the check of a session's or a table's totals, and (by
    :func:`_sums_beyond`, on the same numbers) of a hand's net."""
    found = None
    most = MAX_SAFE_CHIPS
    for player, chips in amounts.items():
        if _past(chips, most):
            found, most = player, abs(chips)
    return found


def _sums_beyond(sums: list[int]) -> bool:
    """Whether a seat's sum is beyond :data:`MAX_SAFE_CHIPS`: ``beyond_safe(net) is not
    None`` for the net made of them (a list walked natively, where a dict's items are a
    generic iteration)."""
    return any(_past(chips, MAX_SAFE_CHIPS) for chips in sums)


def _shows_beyond_safe(winner: WinnerScore | None, payments: list[Payment]) -> bool:
    """Whether the answer would show a number beyond :data:`MAX_SAFE_CHIPS` where its net
    does not: the winner's amount when a loser owes nothing (an exempt loser, a stop on 0
    points), a payment's points or chips (one payment can pass it while the net, less
    what the player is paid, does not), or a factor or running total of an explanation
    step (2^64 and more cannot even be written as JSON)."""
    if winner is not None and (winner.amount > MAX_SAFE_CHIPS or _steps_beyond(winner.steps)):
        return True
    for payment in payments:
        if (
            payment.points > MAX_SAFE_CHIPS
            or payment.chips > MAX_SAFE_CHIPS
            or _steps_beyond(payment.steps)
        ):
            return True
    return False


def _steps_beyond(steps: tuple[Step, ...]) -> bool:
    limit = MAX_SAFE_CHIPS
    for step in steps:
        value = step.value
        total = step.total
        if value > limit or -value > limit or total > limit or -total > limit:
            return True
    return False


class Comparison(NamedTuple):
    """The same hand under another rule set, and each player's net difference."""

    ruleset: RuleSet
    result: HandResult | None
    error: GoStopError | None
    difference: dict[str, int] | None  # other net − this net, per player


def settle(
    hand: Hand, ruleset: RuleSet, *, entering: bool = True, floor_four_sale: bool = True
) -> HandResult:
    """Score and settle ``hand`` under ``ruleset``; raise a GoStopError on bad input.

    ``entering`` (the default): the hand is new input — a stateless request, a hand a
    table takes or corrects — and gets every check. False: a hand a table stored, scored
    again (a replay of its log, the hands after a correction, an import of its export):
    it gets only the checks it was stored under, and is scored as the release that
    stored it scored it. The checks added 2026-12-05 are left out: counts and flags that
    cannot fit one deck (:func:`calculator.piles.read_piles`), a ``gukjin`` the rule set's
    ``gukjin_mode`` overrides (ignored, :func:`calculator.table.check_table`), a loser
    named liable beside a go-caller whose 고박 doubles (billed as a 독박,
    :func:`calculator.ending.find_liable`), a loser's 멍따 (dropped,
    :func:`calculator.declared_baks.check_declared_baks`) and a third consecutive ppuk
    before another outcome (:func:`calculator.ending.check_events`).

    ``floor_four_sale`` False: a floor four played as a drawn hand (``floor_four_of_month:
    nagari``) pays no sitter's sale, as releases before 2026-12-05 scored it — a table
    created then keeps that for every hand, entered now or scored again
    (:attr:`calculator.ledger.events.TableSetup.floor_four_sale`). An amount is never
    decided by ``entering``: a hand is scored alike when it is entered and every time its
    table is derived again.

    A loser named liable against 고박 (``liable_conflict``) is reported with the problems
    of the cards and the stop, not alone."""
    rules = _gostop_rules(ruleset)
    try:
        table = check_table(hand, rules, entering=entering)
    except InvalidHandError as error:
        raise_with_the_cards(hand, rules, error, entering=entering)
        raise
    conflicts = table.conflicts
    if not conflicts:
        return _settled(hand, ruleset, rules, table, entering, floor_four_sale)
    problems = Problems()
    for conflict in conflicts:
        problems.add(conflict.code, conflict.detail, *conflict.location)
    try:
        _settled(hand, ruleset, rules, table, entering, floor_four_sale)
    except GoStopError as error:
        problems.extend(error)
    # typed by its first problem, the conflict, as a hand refused for its table and its
    # cards is (:func:`raise_with_the_cards`)
    problems.raise_if_any(InvalidHandError)
    raise AssertionError("a table with conflicts is refused")  # pragma: no cover


# The last rule set settled and its rules, in a list named Final (as stop_rules' last
# one): compiled, ``ruleset.variant`` and ``ruleset.rules`` are generic attribute reads
# of a dataclass (~0.16k instructions each), and a batch settles every hand under the
# same rule set, most often.
_LAST_RULES: Final[list[tuple[RuleSet, GoStopRules] | None]] = [None]


def _gostop_rules(ruleset: RuleSet) -> GoStopRules:
    """The Go-Stop rules of ``ruleset``; raise for another variant's."""
    last = _LAST_RULES[0]
    if last is not None and last[0] is ruleset:
        return last[1]
    if ruleset.variant is not _GOSTOP:
        raise InvalidHandError([_wrong_variant(ruleset)])
    rules: GoStopRules = ruleset.rules
    _LAST_RULES[0] = (ruleset, rules)
    return rules


def raise_with_the_cards(
    hand: Hand, rules: GoStopRules, error: InvalidHandError, *, entering: bool
) -> None:
    """A hand refused for its players, outcome, events or counts (``error``) is refused
    with the problems of its cards too, when they have any: SPEC §4's errors list names
    every problem, so that an app fixes a hand in one round trip, not one per kind. The
    piles are read on their own (:func:`~calculator.piles.read_piles`: cards unknown,
    held twice, out of the deck; tallies that cannot fit one deck). Returns when the cards
    have no problem (the caller raises ``error`` alone). A field the table's checks
    refuse is not refused twice: the cards' problems at the same place are left out (a
    sitter's ``sold_brights`` under rules without 광팔기 is refused as such, not also
    for exceeding the deck). The ledger's own checks of a table hand (players not on the
    roster) end the same way (:mod:`calculator.ledger.state`)."""
    try:
        read_piles(hand, rules, entering=entering)
    except GoStopError as cards:
        problems = Problems()
        problems.extend(error)
        problems.extend(cards, besides={issue.location for issue in error.issues})
        problems.raise_if_any(InvalidHandError)


def _settled(
    hand: Hand,
    ruleset: RuleSet,
    rules: GoStopRules,
    table: Table,
    entering: bool,
    floor_four_sale: bool,
) -> HandResult:
    """:func:`settle` once the table is checked."""
    entries = read_piles(hand, rules, entering=entering)
    active = len(table.active)
    r = stop_rules(rules)
    minimum = r.stop_minimum(active)
    scores, auto = place_switchables(hand, rules, entries, minimum)
    outcome = hand.outcome
    streak = hand.nagari_streak
    payments: list[Payment] = []
    winner: WinnerScore | None = None
    streak_after = streak
    if outcome is not None:
        kind = outcome.type
        # a floor four the dealer does not win ends the hand at the deal (the option read
        # only then): a redeal moves nothing, a drawn hand pays only the sitter's sale
        # (docs/rules.md §6.2) — on a table created before 2026-12-05 none, as then
        floor_four = r.floor_four_of_month
        voids = kind is _FLOOR_FOUR and floor_four is not _FLOOR_FOUR_DEALER_WINS
        streak_after = 0
        if kind is _STOP:
            winner, payments, scores = stop(
                hand, rules, table, scores, auto, entries, minimum, entering
            )
        elif kind is _NAGARI:
            streak_after = after_a_draw(streak)
        elif voids:
            streak_after = after_a_draw(streak) if floor_four is _FLOOR_FOUR_NAGARI else streak
        else:  # chongtong, three ppuk, or a floor four the dealer wins: an instant win
            winner, payments, streak_after = instant_win(hand, rules, table, minimum)
        # a 총통 nobody collects: cancelled (void) under chongtong_tie = cancel, a drawn
        # hand under nagari (its streak may stay at the cap: not read from the streak)
        voided = (voids and (not floor_four_sale or floor_four is not _FLOOR_FOUR_NAGARI)) or (
            kind is _CHONGTONG and winner is None and rules.chongtong_tie is _TIE_CANCELS
        )
        if not voided and (hand.events or table.sitter is not None):
            payments += side_payments(hand, rules, table, minimum)
    # Summed by seat in a list, then named. Compiled, ``net[payer] -= chips`` is a generic
    # in-place operation (on a dict's or a list's item alike) and a dict store; spelt out
    # on a list it is native arithmetic.
    seat = table.seat
    sums = [0 for _player in hand.players]
    for payment in payments:
        chips = payment.chips
        payer = seat[payment.payer]
        payee = seat[payment.payee]
        sums[payer] = sums[payer] - chips
        sums[payee] = sums[payee] + chips
    # by the players, in their order (the seats' own: every player has one): compiled, a
    # dict's items are a generic iteration (~0.1k instructions each), a tuple's native
    net = {player.id: sums[i] for i, player in enumerate(hand.players)}
    stake = hand.stake
    # Every payment takes from one seat what it gives another, so this cannot fail today:
    # a guard against a future change (not an assert: never skipped under -O). Over a
    # generator: compiled, sum() of one runs as a loop, of a list as a generic call.
    if payments:
        if sum(seat_sum for seat_sum in sums) != 0:
            raise ZeroSumError(f"payments do not balance: {net}")
        # beyond_safe(net) read from the sums the net was made of (the same numbers): a
        # list of ints walked natively, where the dict's items are a generic iteration
        # (~0.5k instructions a hand)
        if _sums_beyond(sums) or _shows_beyond_safe(winner, payments):
            raise InvalidHandError([_too_large()])
    results = []
    for i, player in enumerate(hand.players):  # one score per player, in seat order
        score = scores[i]
        if score is None:
            results.append(_sitter_result(player, rules))
        else:
            can_stop = may_stop(score, minimum)
            results.append(
                PlayerResult(player.id, score.points, score.items, can_stop, score, None)
            )
    players = tuple(results)
    liable = table.liable
    if liable is not None and outcome is not None and outcome.liable is None:
        # the go-caller the rules make pay for everyone (고박, 역고): echoed as if named.
        # Built as the other records are: compiled, ``outcome._replace`` is an interpreted
        # call with keywords (~7k instructions, in about two hands in five).
        named = hand.players[liable].id
        outcome = _new(_OUTCOME, (outcome.type, outcome.winner, named, outcome.holders))
    return HandResult(ruleset, outcome, stake, players, winner, tuple(payments), net, streak_after)


def compare(hand: Hand, result: HandResult, others: Iterable[RuleSet]) -> tuple[Comparison, ...]:
    """``hand`` settled under each of ``others``, with the net difference per player.

    A player's ``gukjin`` is checked against the request's own rule set (``gukjin_fixed``,
    made by the :func:`settle` that gave ``result``); a compared rule set whose
    ``gukjin_mode`` fixes how the sake cup counts reads no player's choice, so there the
    choice is left out rather than refused."""
    found = []
    for ruleset in others:
        try:
            other = settle(_for_compared(hand, ruleset), ruleset)
        except GoStopError as error:
            found.append(Comparison(ruleset, None, error, None))
            continue
        difference = {pid: other.net[pid] - chips for pid, chips in result.net.items()}
        found.append(Comparison(ruleset, other, None, difference))
    return tuple(found)


def _for_compared(hand: Hand, ruleset: RuleSet) -> Hand:
    """``hand`` as a compared rule set reads it: without the players' ``gukjin`` where the
    rule set's ``gukjin_mode`` fixes the sake cup (the choice counts for nothing there)."""
    if ruleset.variant is not _GOSTOP or stop_rules(ruleset.rules).reads_gukjin:
        return hand
    if all(player.gukjin is None for player in hand.players):
        return hand
    return hand._replace(players=tuple(p._replace(gukjin=None) for p in hand.players))


# --- results ----------------------------------------------------------------------------


def _sitter_result(player: PlayerHand, rules: GoStopRules) -> PlayerResult:
    """The player who sits out: no points; how many cards it sold."""
    return PlayerResult(player.id, 0, (), False, None, sold_cards(player, rules)[0])


def _wrong_variant(ruleset: RuleSet) -> Issue:
    return issue(
        "wrong_variant",
        f"rule set {ruleset.preset!r} scores the {ruleset.variant} variant; use a "
        "Go-Stop preset such as standard",
        "ruleset",
    )


def _too_large() -> Issue:
    return issue(
        "amount_too_large",
        f"an amount of the hand (a player's net, a payment or a step of its explanation) "
        f"exceeds {MAX_SAFE_CHIPS:,}, more than apps can show exactly; check the stake, go "
        "count, nagari streak and the rule set's multipliers",
    )
