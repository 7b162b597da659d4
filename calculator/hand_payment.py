"""The hand payment of a stop: the winner's amount, each loser's baks, liability.

:func:`stop` settles a stop: the winner's reading of its switchable animals (under
``auto``, the one that brings it the most), each loser's own amount with its baks and
고박 (under ``auto``, the reading that costs it least), and one payment per loser, a
liable loser paying everyone's (고박, 역고, a named 독박). Also :func:`stop_minimum` and
:func:`pibak_threshold`, the table's two thresholds.

Siblings: :mod:`calculator.settlement` (:func:`~calculator.settlement.settle`, the entry
point, which calls :func:`stop`), :mod:`calculator.readings` (each pile scored under
each reading; the stop minimum's test) and :mod:`calculator.declared_baks` (a declared
pile's bak flags checked).
"""

from __future__ import annotations

from typing import Final

from calculator.declared_baks import check_declared_baks
from calculator.hand import Hand
from calculator.multipliers import (
    StopRules,
    go_facts,
    loser_owes,
    stop_rules,
    winner_amount,
    winner_score,
)
from calculator.piles import Entry
from calculator.readings import Auto, check_stop, closest, most_points, score, stoppable
from calculator.result import Facts, Payment, Step, WinnerScore
from calculator.rule_choices import GobakMode3p
from calculator.rules import GoStopRules
from calculator.scoring import Pile, Score
from calculator.table import Table

# Enum members named once, at import, next to their users (see calculator.settlement)
_GOBAK_3P_DOUBLE: Final = GobakMode3p.DOUBLE
_GOBAK_3P_PAY_ALL_AND_DOUBLE: Final = GobakMode3p.PAY_ALL_AND_DOUBLE
_GOBAK_3P_PAY_ALL_DOUBLED: Final = GobakMode3p.PAY_ALL_DOUBLED


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


def stop(
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
        check_stop(hand, w, first, minimum)
        assert first is not None
        best = _owe_all(hand, rules, table, scores, auto, entries, first)
    else:
        best = _best_reading(hand, rules, table, scores, auto, entries, minimum, first, entry)
    _total, won, chosen, shares = best
    check_declared_baks(hand, rules, table, chosen, entering)
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
    readings_scored = candidates + [score(entry, bits, rules) for bits in readings[1:]]
    candidates = stoppable(readings_scored, minimum)
    if candidates and all(_same_standing(c, candidates[0]) for c in candidates):
        # The losers' factors are the same for every reading and the winner's amount
        # grows with its points: the most points pay the most (ties: the animal).
        candidates = [most_points(candidates)]
    if not candidates:  # refused: name the reading that comes closest
        check_stop(hand, w, max(readings_scored, key=closest), minimum)
    best: _Owed | None = None
    for winner in candidates:
        check_stop(hand, w, winner, minimum)
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
                other = score(entry, bits, rules)
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
