"""One hand scored at its place in the table (SPEC §9): :func:`derive` gives it the
streak and dealer it starts from and says what it leaves (:func:`balance_winner`: who won
a balance hand), :func:`kept_void` lists a voided hand that cannot be scored there any
more, :func:`totals_after` moves the totals by what re-derived hands count, and
:func:`relocated` says where a later hand that a change breaks stands. Siblings:
:mod:`calculator.ledger.state` folds events and calls these,
:mod:`calculator.ledger.checks` checks the input, :mod:`calculator.ledger.records`
holds the records."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from calculator.balance import BalanceResult, score_balance
from calculator.errors import GoStopError, InvalidHandError, Issue, ZeroSumError, relocate
from calculator.hand import Hand, OutcomeType
from calculator.ledger.events import DealerRule, Play, TableSetup
from calculator.ledger.records import Entry, LedgerHand, Result, Status
from calculator.limits import quote
from calculator.result import winner_of
from calculator.session import round_totals
from calculator.settlement import MAX_SAFE_CHIPS, beyond_safe, settle


def _plays(hand: Hand, player: str | None) -> bool:
    return any(p.id == player and not p.sits_out for p in hand.players)


def derive(
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
        assert outcome is not None  # a table hand always has one (check_hand)
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


def kept_void(last: LedgerHand, streak: int, dealer: str | None) -> LedgerHand:
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


def totals_after(
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


def relocated(error: GoStopError, number: int) -> GoStopError:
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
