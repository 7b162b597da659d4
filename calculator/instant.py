"""Instant wins: 총통 (four of a month dealt to one hand) and 쓰리뻑 (a third ppuk).

Neither is scored from the piles: the rules give a fixed amount (at least the stop
minimum), which every other player in the hand pays the winner (docs/rules.md §5.1, §5.4).
Under ``floor_four_of_month = dealer_wins`` four of a month dealt to the table is the
dealer's 총통, paid the same way.

>>> from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand
>>> from calculator.presets import resolve
>>> from calculator.settlement import settle
>>> hand = Hand(players=tuple(PlayerHand(id=p, captured=()) for p in "ABC"),
...             outcome=Outcome(type=OutcomeType.CHONGTONG, winner="A"))
>>> # standard: chongtong_points null = the stop minimum, 3 with three players
>>> [(p.payer, p.points, p.reason) for p in settle(hand, resolve("standard")).payments]
[('B', 3, 'chongtong'), ('C', 3, 'chongtong')]
"""

from __future__ import annotations

from calculator.errors import InvalidHandError, Issue
from calculator.hand import Hand, OutcomeType, after_a_draw
from calculator.multipliers import nagari_factor
from calculator.result import Payment, Step, WinnerScore
from calculator.rule_choices import ChongtongTie
from calculator.rules import GoStopRules
from calculator.side import points_or_minimum
from calculator.table import Table


def instant_win(
    hand: Hand, rules: GoStopRules, table: Table, minimum: int
) -> tuple[WinnerScore | None, list[Payment], int]:
    """Who collects for a chongtong or three_ppuk outcome, the payments, the streak after.

    A chongtong tie the rules cancel or call nagari collects nothing (winner None).
    """
    outcome = hand.outcome
    assert outcome is not None
    if outcome.type is OutcomeType.THREE_PPUK:
        assert table.winner is not None
        bonus = rules.three_ppuk_consecutive_bonus if _consecutive_ppuk(hand) else 0
        points = points_or_minimum(rules.three_ppuk_points, minimum)
        factor = (
            nagari_factor(hand.nagari_streak, rules) if rules.three_ppuk_apply_multipliers else 1
        )
        winner, payments = _collect(
            hand,
            table,
            seat=table.winner,
            reason="three_ppuk",
            code="three_ppuk",
            points=points,
            factor=factor,
            bonus=bonus,
        )
        return winner, payments, 0
    if outcome.type is OutcomeType.FLOOR_FOUR:  # dealer_wins: the dealer's seat, checked
        seat, streak_after, code = table.winner, 0, "floor_four"
    else:
        seat, streak_after = _chongtong_winner(hand, rules, table)
        code = "chongtong"
    if seat is None:
        return None, [], streak_after
    chips = rules.chongtong_chips
    if chips is not None and code == "chongtong":  # a floor four's says floor_four still
        code = "chongtong_chips"
    factor = nagari_factor(hand.nagari_streak, rules) if rules.chongtong_apply_multipliers else 1
    winner, payments = _collect(
        hand,
        table,
        seat=seat,
        reason="chongtong",
        code=code,
        points=points_or_minimum(rules.chongtong_points, minimum) if chips is None else chips,
        factor=factor,
        bonus=0,
        in_chips=chips is not None,
    )
    return winner, payments, streak_after


def _chongtong_winner(hand: Hand, rules: GoStopRules, table: Table) -> tuple[int | None, int]:
    """The seat that collects for a 총통 (None if nobody does), and the streak after."""
    outcome = hand.outcome
    assert outcome is not None
    streak = hand.nagari_streak
    if not outcome.holders:
        return table.winner, 0
    tie = rules.chongtong_tie
    if tie is ChongtongTie.CANCEL:
        return None, streak
    if tie is ChongtongTie.NAGARI:
        return None, after_a_draw(streak)
    if tie is ChongtongTie.HIGHER_MONTH:
        top = max(outcome.holders, key=lambda h: h.month)
        return table.seat[top.player], 0
    holders = {h.player for h in outcome.holders}
    if hand.dealer is None or hand.dealer not in holders:
        raise InvalidHandError(
            [
                _issue(
                    "dealer_required",
                    "under chongtong_tie = dealer the dealer wins a tie; "
                    "give dealer, one of the holders",
                    "dealer",
                )
            ]
        )
    return table.seat[hand.dealer], 0


def _collect(
    hand: Hand,
    table: Table,
    *,
    seat: int,
    reason: str,
    code: str,
    points: int,
    factor: int,
    bonus: int,
    in_chips: bool = False,
) -> tuple[WinnerScore, list[Payment]]:
    """Every other active player pays the seat ``(points + bonus) × factor``: points × the
    stake, or, ``in_chips``, chips as they are (``points`` is then the chip price, and the
    winner's part counts chips).

    ``code`` names the payment's explanation (``floor_four`` for a floor four paid as a
    총통, whose ``reason`` is ``chongtong``; ``chongtong_chips`` for a price in chips). A
    payment in points starts from the winner's amount, as a stop's does; one in chips
    from the price, then the steps to the amount, as a side payment priced in chips does.
    """
    steps: list[Step] = []
    total = points
    if bonus:
        total += bonus
        steps.append(Step("consecutive_bonus", "add", bonus, total))
    if factor != 1:
        total *= factor
        steps.append(Step("nagari", "multiply", factor, total, hand.nagari_streak))
    winner = WinnerScore(points, tuple(steps), total)
    payee = hand.players[seat].id
    if in_chips:
        explained = (Step(code, "start", points, points), *steps)
    else:
        explained = (Step(code, "start", total, total),)
    payments = [
        Payment(hand.players[i].id, payee, 0, total, reason, explained, "chips")
        if in_chips
        else Payment(hand.players[i].id, payee, total, total * hand.stake, reason, explained)
        for i in table.active
        if i != seat
    ]
    return winner, payments


def _consecutive_ppuk(hand: Hand) -> bool:
    """The three_ppuk winner's three ppuk were its first three turns."""
    outcome = hand.outcome
    assert outcome is not None
    own = [e.type.value for e in hand.events if e.player == outcome.winner]
    return "first_ppuk" in own and own.count("consecutive_ppuk") == 2


def _issue(code: str, detail: str, *location: str | int) -> Issue:
    return Issue(code, detail, location)
