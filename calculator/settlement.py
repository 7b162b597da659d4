"""Settle one Go-Stop hand: who pays whom how many points and chips, and why.

:func:`settle` is the domain's entry point. It checks the table and the cards, places
each player's switchable animals (an explicit choice, or ``auto``: the winner takes the
reading that pays it most, then each loser the one that costs it least), scores every
pile, and turns the outcome into payments — the hand payment with its baks and
liability, then the side payments — and a ``net`` per player that sums to zero.

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
    counted,
)
from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand, after_a_draw
from calculator.instant import instant_win
from calculator.multipliers import (
    StopRules,
    go_facts,
    loser_owes,
    meongbak_triggered,
    stop_rules,
    winner_amount,
    winner_score,
)
from calculator.piles import Entry, read_piles
from calculator.presets import RuleSet, Variant
from calculator.result import Facts, HandResult, Payment, PlayerResult, Step, WinnerScore
from calculator.rules import (
    ChongtongTie,
    FloorFour,
    GobakMode3p,
    GoStopRules,
    GukjinChoice,
)
from calculator.scoring import Pile, Score, score_declared, score_mask, score_pile
from calculator.side import side_payments, sold_cards
from calculator.table import Table, check_table
from calculator.tables import switch_readings, tables_for

_new: Final = tuple.__new__  # builds a NamedTuple without the Python-level __new__ (hot path)

# Enum members named once, at import: compiled, ``OutcomeType.STOP`` is a look-up of the
# class among the module's globals, then a read through the enum metaclass's __getattr__
# (Python 3.11), ~0.7k instructions each time, and a hand reads a few dozen of them.
_GOSTOP: Final = Variant.GOSTOP
_STOP: Final = OutcomeType.STOP
_NAGARI: Final = OutcomeType.NAGARI
_FLOOR_FOUR: Final = OutcomeType.FLOOR_FOUR
_CHONGTONG: Final = OutcomeType.CHONGTONG
_FLOOR_FOUR_DEALER_WINS: Final = FloorFour.DEALER_WINS
_FLOOR_FOUR_NAGARI: Final = FloorFour.NAGARI
_TIE_CANCELS: Final = ChongtongTie.CANCEL
_GUKJIN_JUNK: Final = GukjinChoice.JUNK
_GUKJIN_AUTO: Final = GukjinChoice.AUTO
_GOBAK_3P_DOUBLE: Final = GobakMode3p.DOUBLE
_GOBAK_3P_PAY_ALL_AND_DOUBLE: Final = GobakMode3p.PAY_ALL_AND_DOUBLE
_GOBAK_3P_PAY_ALL_DOUBLED: Final = GobakMode3p.PAY_ALL_DOUBLED
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
    :func:`_check_declared_baks`) and a third consecutive ppuk before another outcome
    (:func:`calculator.ending.check_events`).

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
    for issue in conflicts:
        problems.add(issue.code, issue.detail, *issue.location)
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
    scores, auto = _place_switchables(hand, rules, entries, minimum)
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
            winner, payments, scores = _stop(
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
            may_stop = _may_stop(score, minimum)
            results.append(
                PlayerResult(player.id, score.points, score.items, may_stop, score, None)
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


# --- placing the switchable animals -------------------------------------------------


def _score(entry: int | Pile, bits: int, rules: GoStopRules) -> Score:
    """Score a listed (mask) or tallied pile under one reading."""
    if isinstance(entry, int):
        return score_mask(entry, bits, tables_for(rules))
    return score_pile(entry, bits, rules)


Auto = dict[int, tuple[int, ...]]
"""The players who left their switchable cards to ``auto``: seat → its readings (masks of
the cards read as junk), all-animal first."""


def _place_switchables(
    hand: Hand, rules: GoStopRules, entries: list[Entry], minimum: int
) -> tuple[list[Score | None], Auto | None]:
    """Score every pile. An explicit reading of the switchable cards is taken as given;
    ``auto`` starts from the animal reading, and the outcome decides (see :func:`_stop`).
    In a hand nobody won (a preview too), an ``auto`` player takes its best-scoring reading
    among those a stop would accept (:func:`_stoppable`), so that its ``may_stop`` says
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
            found = [_score(entry, bits, rules) for bits in readings]
            scores[i] = _most_points(_stoppable(found, minimum) or found)
    return scores, auto


def _most_points(readings: list[Score]) -> Score:
    """The reading of a pile with the most points, the first of them (the animal reading
    on a tie, as ``max`` keeps the first): a loop, where ``max(readings, key=…)`` was a
    generic call that called its key through Python (~2.7k instructions, in one stop in
    eight)."""
    best = readings[0]
    for score in readings:
        if score.points > best.points:
            best = score
    return best


def _closest(score: Score) -> tuple[int, int]:
    """Which reading of a pile that may not stop comes closest: the most points toward the
    minimum, then the most in all (the reading a refusal names)."""
    return score.stop_points, score.points


def _may_stop(score: Score, minimum: int) -> bool:
    """Whether a pile read this way may stop: the one test of the stop minimum. The points
    that count are ``stop_points``, without the three-double-junk bonus (docs/rules.md
    §2.4)."""
    return score.stop_points >= minimum


def _stoppable(readings: list[Score], minimum: int) -> list[Score]:
    """The readings of one pile that may stop, in their order."""
    return [score for score in readings if _may_stop(score, minimum)]


def _check_stop(hand: Hand, w: int, scored: Score | None, minimum: int) -> None:
    if scored is not None and _may_stop(scored, minimum):
        return
    points = scored.stop_points if scored is not None else 0
    extra = scored.points - points if scored is not None else 0
    player = hand.players[w]
    why = f" (the {extra} for three double junks do not count toward it)" if extra else ""
    raise InvalidHandError(
        [
            _issue(
                "below_stop_minimum",
                f"winner {player.id!r} has {counted(points, 'point')} toward the stop "
                f"minimum{why}; "
                f"stopping needs at least {minimum} with {_active_words(hand)}",
                "outcome",
                "winner",
            )
        ]
    )


# --- the hand payment ---------------------------------------------------------------


Shares = list[list[Step] | None]
"""Each loser's own amount, explained, at its seat: its steps (:func:`loser_owes`; the
amount is the last one's total); None at the winner's and a sitter's. A list by seat, not
a dict: compiled, a dict's first entry allocates its table and each is hashed in and read
back through a generic iteration (~0.9k instructions a hand), where a list's items are
set and read natively. The steps alone, not a (points, steps) pair: a pair held in a list
is a tuple built (boxed) and freed for each loser."""

_Owed = tuple[int, WinnerScore, list[Score | None], Shares]
"""The hand settled for one reading of the winner's pile: what the winner receives, its
amount's steps, every player's score (each loser's chosen reading) and the losers' shares.
A plain tuple: compiled, built natively (a named tuple costs a generic call)."""


def _stop(
    hand: Hand,
    rules: GoStopRules,
    table: Table,
    scores: list[Score | None],
    auto: Auto | None,
    entries: list[Entry],
    minimum: int,
    entering: bool,
) -> tuple[WinnerScore, list[Payment], list[Score | None]]:
    """The hand payment of a stop: the winner's amount, each loser's baks, liability.

    With ``auto``, the winner takes the reading of its switchable cards that brings it the
    most; each loser then answers with the one that costs it least (ties: the animal).
    """
    w = table.winner
    assert w is not None
    first = scores[w]
    readings = auto.get(w) if auto else None  # most often empty: no lookup
    entry = entries[w]
    if readings is None or not isinstance(entry, (int, Pile)):
        # one reading (most hands): no list of candidates, and the hand settled for it
        # is not kept as the best so far (an optional tuple: compiled, boxed)
        _check_stop(hand, w, first, minimum)
        assert first is not None
        best = _owe_all(hand, rules, table, scores, auto, entries, first)
    else:
        best = _best_reading(hand, rules, table, scores, auto, entries, minimum, first, entry)
    _total, won, chosen, shares = best
    _check_declared_baks(hand, rules, table, chosen, entering)
    return won, _payments(hand, rules, table, shares), chosen


def _best_reading(
    hand: Hand,
    rules: GoStopRules,
    table: Table,
    scores: list[Score | None],
    auto: Auto | None,
    entries: list[Entry],
    minimum: int,
    first: Score | None,
    entry: int | Pile,
) -> _Owed:
    """The hand settled for the ``auto`` winner's reading that brings it the most
    (``first``: the animal reading, as placed)."""
    w = table.winner
    assert w is not None
    assert auto is not None
    readings = auto[w]
    candidates = [first] if first is not None else []
    readings_scored = candidates + [_score(entry, bits, rules) for bits in readings[1:]]
    candidates = _stoppable(readings_scored, minimum)
    if candidates and all(_same_standing(c, candidates[0]) for c in candidates):
        # The losers' factors are the same for every reading and the winner's amount
        # grows with its points: the most points pay the most (ties: the animal).
        candidates = [_most_points(candidates)]
    if not candidates:  # refused: name the reading that comes closest
        _check_stop(hand, w, max(readings_scored, key=_closest), minimum)
    best: _Owed | None = None
    for winner in candidates:
        _check_stop(hand, w, winner, minimum)
        settled = _owe_all(hand, rules, table, scores, auto, entries, winner)
        if best is None or settled[0] > best[0]:  # the winner receives more
            best = settled
    assert best is not None
    return best


def _same_standing(one: Score, other: Score) -> bool:
    """Whether the losers' baks and 멍따 read the same from two readings of the winner's
    pile (field by field: a set of a tuple of them for each reading was ~0.3k
    instructions a hand)."""
    return (
        one.scored_brights == other.scored_brights
        and one.scored_animals == other.scored_animals
        and one.scored_godori == other.scored_godori
        and one.scored_junk == other.scored_junk
        and one.many_animals == other.many_animals
    )


def _owe_all(
    hand: Hand,
    rules: GoStopRules,
    table: Table,
    scores_placed: list[Score | None],
    auto: Auto | None,
    entries: list[Entry],
    winner: Score,
) -> _Owed:
    """Every loser's own amount, for one winner's reading."""
    w = table.winner
    assert w is not None
    players = hand.players
    won = winner_score(
        winner.points,
        players[w],
        winner.many_animals,
        rules,
        hand.nagari_streak,
        animals=winner.animals,
    )
    start = winner_amount(won.amount)
    r = stop_rules(rules)
    pibak_max = r.pibak_threshold(len(table.active))
    # the placed scores themselves while no reading differs from them (the winner's
    # first, and every loser's until 피박 finds a cheaper one): a copy, made only then,
    # was a list to build and free in every hand (~0.35k instructions)
    scores = scores_placed
    if scores[w] is not winner:
        scores = list(scores_placed)
        scores[w] = winner
    owed: Shares = [None] * len(players)
    total = 0
    exemption = r.no_capture_exemption
    for i in table.active:
        if i == w:
            continue
        loser = scores[i]
        assert loser is not None
        go_count = players[i].go_count  # most losers called none: no call to find out
        go_bak = go_count if go_count and _go_bak(hand, r, table, i) else 0
        exempt = exemption and _exempt(loser, r)
        found = loser_owes(
            start, winner, loser, rules, pibak_max=pibak_max, go_bak=go_bak, exempt=exempt
        )
        readings = auto.get(i) if auto else None  # most often empty: no lookup
        entry = entries[i]
        # Reading the switchable cards as junk can only help a loser out of 피박.
        if readings is not None and _owes_pi_bak(found) and isinstance(entry, (int, Pile)):
            for bits in readings[1:]:
                other = _score(entry, bits, rules)
                cheaper = loser_owes(
                    start,
                    winner,
                    other,
                    rules,
                    pibak_max=pibak_max,
                    go_bak=go_bak,
                    exempt=_exempt(other, r),
                )
                if cheaper[-1].total < found[-1].total:
                    if scores is scores_placed:
                        scores = list(scores_placed)
                    found, scores[i] = cheaper, other
        owed[i] = found
        total += found[-1].total
    return total, won, scores, owed


def stop_minimum(rules: GoStopRules, active: int) -> int:
    """The stop minimum for a table of ``active`` players (4 play as 3). A function of
    this compiled module, not a method of the rules (a plain dataclass, whose methods
    compiled code calls as interpreted functions, ~0.7k instructions each)."""
    return stop_rules(rules).stop_minimum(active)


def pibak_threshold(rules: GoStopRules, active: int) -> int:
    """The 피박 threshold for a table of ``active`` players (as :func:`stop_minimum`)."""
    return stop_rules(rules).pibak_threshold(active)


def _owes_pi_bak(steps: list[Step]) -> bool:
    return any(step.code == "pi_bak" for step in steps)


def _exempt(loser: Score, r: StopRules) -> bool:
    return r.no_capture_exemption and (loser.cards == 0 or loser.no_cards)


def _go_bak(hand: Hand, r: StopRules, table: Table, i: int) -> bool:
    """Whether loser ``i``'s own share carries 고박 ×2."""
    if hand.players[i].go_count == 0:
        return False
    assert table.winner is not None
    if table.liable == i and _doubles_the_sum(r, table):
        return False  # its 고박 doubles the whole sum it pays, once (see _payments)
    winner = hand.players[table.winner]
    if winner.yeokgo and r.yeokgo_fixed_x4:
        return True
    if len(table.active) == 2:
        return r.gobak_2p_double
    mode = r.gobak_mode_3p
    if mode is _GOBAK_3P_DOUBLE:
        return True
    return mode is _GOBAK_3P_PAY_ALL_AND_DOUBLE and table.liable == i


def _doubles_the_sum(r: StopRules, table: Table) -> bool:
    """고박 ``pay_all_doubled``: the liable go-caller's whole sum is doubled."""
    return table.liable_reason == "go_bak" and r.gobak_mode_3p is _GOBAK_3P_PAY_ALL_DOUBLED


# The fact of the covers / covered_by steps for each reason find_liable gives, made at
# import (facts are immutable): not two tuples built, and freed with the answer, in
# every hand with a liable loser.
_LIABLE_FACTS: Final[dict[str, Facts]] = {
    reason: ((reason, 1),) for reason in ("go_bak", "yeokgo", "dokbak")
}


def _payments(hand: Hand, rules: GoStopRules, table: Table, shares: Shares) -> list[Payment]:
    """One payment per loser; a liable loser pays everyone's amount (the others 0).

    Under 고박 ``pay_all_doubled`` the go-caller's whole sum is doubled once it has covered
    the others, so their shares are doubled too (``pay_all_and_double`` doubled only its
    own share, in :func:`_go_bak`).
    """
    players = hand.players
    assert table.winner is not None
    payee = players[table.winner].id
    stake = hand.stake
    liable = table.liable
    payments = []
    if liable is not None:  # the liable player's payment first, then the covered ones
        # why it pays for everyone (고박, 역고 or a named 독박): its sentences say it
        reason = table.liable_reason or "dokbak"
        why = _LIABLE_FACTS.get(reason) or ((reason, 1),)
        # the shares' lists are this function's to finish: appended to in place
        steps = shares[liable]
        assert steps is not None
        points = steps[-1].total
        for j in table.active:
            other_share = shares[j]
            if other_share is not None and j != liable:
                other = other_share[-1].total
                points += other
                steps.append(Step("covers", "add", other, points, None, players[j].id, why))
        if _doubles_the_sum(stop_rules(rules), table):
            points *= 2
            facts = go_facts(players[liable].go_count)
            steps.append(Step("go_bak", "multiply", 2, points, None, None, facts))
        payments.append(
            Payment(
                players[liable].id, payee, points, points * stake, "stop", tuple(steps), "points"
            )
        )
    for i in table.active:  # in seat order, as the shares were found
        steps = shares[i]
        if steps is None:
            continue  # the winner
        points = steps[-1].total
        if liable is not None:  # (tested first: compiled, ``i == liable`` is then native)
            if i == liable:
                continue
            steps.append(Step("covered_by", "add", -points, 0, None, players[liable].id, why))
            points = 0
        payments.append(
            Payment(players[i].id, payee, points, points * stake, "stop", tuple(steps), "points")
        )
    return payments


def _check_declared_baks(
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


# --- results ----------------------------------------------------------------------------


def _sitter_result(player: PlayerHand, rules: GoStopRules) -> PlayerResult:
    """The player who sits out: no points; how many cards it sold."""
    return PlayerResult(player.id, 0, (), False, None, sold_cards(player, rules)[0])


def _active_words(hand: Hand) -> str:
    active = sum(1 for p in hand.players if not p.sits_out)
    return f"{active} players in the hand"


def _issue(code: str, detail: str, *location: str | int) -> Issue:
    return Issue(code, detail, location)


def _wrong_variant(ruleset: RuleSet) -> Issue:
    return _issue(
        "wrong_variant",
        f"rule set {ruleset.preset!r} scores the {ruleset.variant} variant; use a "
        "Go-Stop preset such as standard",
        "ruleset",
    )


def _too_large() -> Issue:
    return _issue(
        "amount_too_large",
        f"an amount of the hand (a player's net, a payment or a step of its explanation) "
        f"exceeds {MAX_SAFE_CHIPS:,}, more than apps can show exactly; check the stake, go "
        "count, nagari streak and the rule set's multipliers",
    )
