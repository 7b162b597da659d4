"""Settling a session (SPEC §6): W36, nagari carry, rounding, and the transfer invariants."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import (
    GoStopEntry,
    GoStopError,
    NetEntry,
    Session,
    minimal_transfers,
    resolve,
    settle_session,
)
from calculator.limits import DeadlineExceeded, deadline
from calculator.session import round_totals
from handbuilder import build_hand
from tests_support import examples

STANDARD = resolve("standard")


def test_w36_two_rounds_of_the_balance_variant() -> None:
    """docs/rules.md W36: cumulative A −10, B −5, C +15 → A pays 10 and B pays 5, both to C."""
    result = settle_session(
        Session(
            players=("A", "B", "C"),
            hands=(
                NetEntry(net={"A": 20, "B": -15, "C": -5}),
                NetEntry(net={"A": -30, "B": 10, "C": 20}),
            ),
        )
    )
    assert result.totals == {"A": -10, "B": -5, "C": 15}
    assert [tuple(t) for t in result.transfers] == [("A", "C", 10), ("B", "C", 5)]


def _gostop(data: dict[str, Any], carry: bool = True) -> GoStopEntry:
    return GoStopEntry(hand=build_hand(data), ruleset=STANDARD, carry_streak=carry)


NAGARI = {
    "players": [{"id": "A", "cards": []}, {"id": "B", "cards": []}, {"id": "C", "cards": []}],
    "outcome": {"type": "nagari"},
}
STOP = {
    "players": [
        {"id": "A", "cards": ["1G", "3G", "8G"]},
        {"id": "B", "cards": ["12G"]},
        {"id": "C", "cards": ["11G"]},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}


def test_go_stop_hands_in_order_carry_the_nagari_streak() -> None:
    result = settle_session(
        Session(
            players=("A", "B", "C"),
            hands=(_gostop(NAGARI), _gostop(NAGARI), _gostop(STOP), _gostop(STOP)),
        )
    )
    assert [h.nagari_streak_after for h in result.hands] == [1, 2, 0, 0]
    # 3 × 2² from each loser, then a plain 3: A +24 +6.
    assert result.totals == {"A": 30, "B": -15, "C": -15}


def test_an_explicit_streak_is_respected() -> None:
    result = settle_session(
        Session(
            players=("A", "B", "C"),
            hands=(_gostop(NAGARI), _gostop({**STOP, "nagari_streak": 0}, carry=False)),
        )
    )
    assert result.totals == {"A": 6, "B": -3, "C": -3}


def test_errors_point_into_the_session() -> None:
    with pytest.raises(GoStopError) as caught:
        settle_session(Session(players=("A", "B"), hands=(NetEntry(net={"A": 5, "B": -4}),)))
    assert [(i.code, i.location) for i in caught.value.issues] == [
        ("net_not_zero_sum", ("hands", 0, "net"))
    ]
    with pytest.raises(GoStopError) as caught:
        settle_session(Session(players=("A", "B"), hands=(_gostop(STOP),)))
    assert ("unknown_player", ("hands", 0, "gostop", "players", 2, "id")) in [
        (i.code, i.location) for i in caught.value.issues
    ]
    bad = {**STOP, "outcome": {"type": "stop", "winner": "Z"}}
    with pytest.raises(GoStopError) as caught:
        settle_session(Session(players=("A", "B", "C"), hands=(_gostop(bad),)))
    assert caught.value.issues[0].location == ("hands", 0, "gostop", "outcome", "winner")


def test_totals_stay_within_what_apps_show_exactly() -> None:
    """A hand's net is at most MAX_SAFE_CHIPS (2^53 − 1: beyond, JSON numbers lose
    precision in JavaScript apps), and so is a session's total: ten hands of 10^15 chips
    each added up to 10^16, answered as if exact."""
    from calculator.settlement import MAX_SAFE_CHIPS

    big = NetEntry(net={"A": 10**15, "B": -(10**15)})
    assert settle_session(Session(players=("A", "B"), hands=(big,) * 9)).totals["A"] == 9 * 10**15
    with pytest.raises(GoStopError) as caught:
        settle_session(Session(players=("A", "B"), hands=(big,) * 10))
    assert [(i.code, i.location) for i in caught.value.issues] == [
        ("amount_too_large", ("hands", 9))
    ]
    assert f"{MAX_SAFE_CHIPS:,}" in caught.value.issues[0].detail


def test_rounded_totals_stay_within_what_apps_show_exactly() -> None:
    """The absorber takes every other total's rounding: totals within MAX_SAFE_CHIPS can
    round past it (by hand: A = 9 × 10^15 + 7,199,254,740,951 = 2^53 − 41; B rounds to
    −9,007,199,254,741,000 and A absorbs +9,007,199,254,741,000)."""
    from calculator.settlement import MAX_SAFE_CHIPS

    hands = (NetEntry(net={"A": 10**15, "B": -(10**15)}),) * 9 + (
        NetEntry(net={"A": 7_199_254_740_951, "B": -7_199_254_740_951}),
    )
    assert (
        settle_session(Session(players=("A", "B"), hands=hands)).totals["A"] == MAX_SAFE_CHIPS - 40
    )
    with pytest.raises(GoStopError) as caught:
        settle_session(Session(players=("A", "B"), hands=hands, unit=100))
    assert [(i.code, i.location) for i in caught.value.issues] == [
        ("amount_too_large", ("rounding", "unit"))
    ]
    assert "9,007,199,254,741,000" in caught.value.issues[0].detail


def test_rounding_keeps_the_sum_at_zero_by_largest_remainders_or_by_an_absorber() -> None:
    result = settle_session(
        Session(
            players=("A", "B", "C"),
            unit=100,
            hands=(NetEntry(net={"A": 1510, "B": -760, "C": -750}),),
        )
    )
    # Down to the unit: 1500, -800, -800 (remainders 10, 40, 50); the one unit left over
    # goes to the largest remainder, C's.
    assert result.totals == {"A": 1500, "B": -800, "C": -700}
    assert (result.rounding.absorbed_by, result.rounding.remainder) == (None, 0)
    named = settle_session(
        Session(
            players=("A", "B", "C"),
            unit=100,
            absorber="B",
            hands=(NetEntry(net={"A": 1510, "B": -760, "C": -750}),),
        )
    )
    # A and C to their nearest (C's half away from zero), B what keeps the sum at zero
    assert named.totals == {"A": 1500, "B": -700, "C": -800}
    assert (named.rounding.absorbed_by, named.rounding.remainder) == ("B", 60)


@pytest.mark.parametrize(
    ("totals", "unit", "rounded"),
    [
        # Each to its nearest with the biggest winner taking the rest left A at -100 and
        # A paying B (bug hunt, 2026-12-05): floors 0, 0, 0, 0, -300 (remainders 51, 50,
        # 50, 50, 99) leave 3 units: E, A, then B (the earlier of the equal ones).
        (
            {"A": 51, "B": 50, "C": 50, "D": 50, "E": -201},
            100,
            {"A": 100, "B": 100, "C": 0, "D": 0, "E": -200},
        ),
        # The same way A +1000 became +2000: floors 1000, -1000, -1000 leave one unit,
        # to B (remainders 0, 500, 500: B and C tie on total too, and B is the earlier).
        ({"A": 1000, "B": -500, "C": -500}, 1000, {"A": 1000, "B": 0, "C": -1000}),
        # Each to its nearest made A, the first biggest winner, pay B: floors 0, 0, 0, 0,
        # -1500 leave 3 units; every remainder is 300, so the larger totals first.
        (
            {"A": 300, "B": 300, "C": 300, "D": 300, "E": -1200},
            500,
            {"A": 500, "B": 500, "C": 500, "D": 0, "E": -1500},
        ),
    ],
)
def test_rounding_moves_nobody_a_whole_unit_nor_below_a_smaller_total(
    totals: dict[str, int], unit: int, rounded: dict[str, int]
) -> None:
    assert round_totals(totals, unit)[1] == rounded


totals_maps = st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=8).map(
    lambda xs: {f"P{i}": x for i, x in enumerate(xs)} | {"Z": -sum(xs)}
)


@settings(max_examples=examples(300))
@given(totals=totals_maps)
def test_transfers_settle_every_total_exactly(totals: dict[str, int]) -> None:
    transfers = minimal_transfers(totals)
    settled = dict.fromkeys(totals, 0)
    for t in transfers:
        assert t.chips > 0
        settled[t.payer] -= t.chips
        settled[t.payee] += t.chips
    assert settled == totals
    payers = {t.payer for t in transfers}
    payees = {t.payee for t in transfers}
    assert not payers & payees, "a player both pays and receives"
    assert len(transfers) <= max(len([c for c in totals.values() if c]) - 1, 0)
    assert transfers == minimal_transfers(dict(totals)), "deterministic"


def _fewest_by_brute_force(totals: dict[str, int]) -> int:
    """n − the most disjoint zero-sum groups, by trying every partition (tiny n only)."""
    amounts = [c for c in totals.values() if c]

    def most_groups(items: tuple[int, ...]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        best = -1
        for size in range(len(rest) + 1):
            for combo in itertools.combinations(range(len(rest)), size):
                if first + sum(rest[i] for i in combo) == 0:
                    remaining = tuple(x for i, x in enumerate(rest) if i not in combo)
                    sub = most_groups(remaining)
                    if sub >= 0:
                        best = max(best, 1 + sub)
        return best

    return len(amounts) - max(most_groups(tuple(amounts)), 0)


@settings(max_examples=examples(200))
@given(
    totals=st.lists(st.integers(-6, 6), min_size=1, max_size=6).map(
        lambda xs: {f"P{i}": x for i, x in enumerate(xs)} | {"Z": -sum(xs)}
    )
)
def test_the_number_of_transfers_is_the_fewest_possible(totals: dict[str, int]) -> None:
    assert len(minimal_transfers(totals)) == _fewest_by_brute_force(totals)


@settings(max_examples=examples(200))
@given(totals=totals_maps, unit=st.sampled_from([1, 10, 100, 1000]))
def test_rounded_totals_are_multiples_of_the_unit_and_sum_to_zero(
    totals: dict[str, int], unit: int
) -> None:
    _rounding, rounded = round_totals(totals, unit)
    assert list(rounded) == list(totals)
    assert sum(rounded.values()) == 0
    assert all(chips % unit == 0 for chips in rounded.values())
    assert all(abs(chips - totals[player]) < unit for player, chips in rounded.items())
    for p in totals:  # a larger total never ends below a smaller one
        assert all(rounded[p] >= rounded[q] for q in totals if totals[p] > totals[q])
    absorber = next(iter(totals))
    rounding, rounded = round_totals(totals, unit, absorber)
    assert (rounding.absorbed_by, sum(rounded.values())) == (absorber, 0)
    assert rounding.remainder == rounded[absorber] - totals[absorber]
    for player, chips in rounded.items():
        if player != absorber:
            assert abs(chips - totals[player]) * 2 <= unit


@st.composite
def large_totals(draw: st.DrawFn) -> dict[str, int]:
    """13–16 players: random totals, with planted zero-sum groups (pairs, triples) now and
    then, so that both the greedy and the exact steps run."""
    count = draw(st.integers(13, 16))
    amounts: list[int] = []
    while len(amounts) < count - 1:
        size = draw(st.sampled_from([1, 1, 2, 3]))
        group = draw(st.lists(st.integers(-500, 500), min_size=size - 1, max_size=size - 1))
        amounts += [*group, -sum(group)] if size > 1 else [draw(st.integers(-500, 500))]
    amounts = amounts[: count - 1]
    return {f"P{i}": x for i, x in enumerate(amounts)} | {"Z": -sum(amounts)}


@settings(max_examples=examples(200), deadline=None)
@given(totals=large_totals())
def test_large_sessions_settle_with_the_same_guarantees(totals: dict[str, int]) -> None:
    """Beyond the exact search (MAX_EXACT players): still exact, deterministic, at most
    players − 1 transfers, nobody both pays and receives, and every pair of opposite totals
    settled by one transfer of its own."""
    test_transfers_settle_every_total_exactly.hypothesis.inner_test(totals)  # type: ignore[attr-defined]
    amounts = [c for c in totals.values() if c]
    pairs = 0
    waiting: list[int] = []
    for chips in amounts:
        if -chips in waiting:
            waiting.remove(-chips)
            pairs += 1
        else:
            waiting.append(chips)
    unpaired = len(amounts) - 2 * pairs
    assert len(minimal_transfers(totals)) <= pairs + max(unpaired - 1, 0)


def test_a_session_checks_its_deadline_before_each_hand() -> None:
    now = [0.0]
    check = deadline(2.0, clock=lambda: now[0])
    calls = []

    def ticking() -> None:
        calls.append(now[0])
        check()
        now[0] += 1.5  # each hand "takes" 1.5 s

    hands = tuple(NetEntry(net={"A": 1, "B": -1}) for _ in range(5))
    with pytest.raises(DeadlineExceeded):
        settle_session(Session(players=("A", "B"), hands=hands), check_deadline=ticking)
    assert calls == [0.0, 1.5, 3.0]  # the third hand starts past the 2 s deadline
    result = settle_session(Session(players=("A", "B"), hands=hands), check_deadline=lambda: None)
    assert result.totals == {"A": 5, "B": -5}
