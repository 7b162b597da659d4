"""The house rules of issue #16: invariants on random hands, and the refusals they add.

Each option has its hand-derived case in tests/data/option_cases.json; here hypothesis
checks what must hold whatever the hand: zero-sum and explained amounts under every new
value, ``highest`` never paying more than ``each``, the 고박 modes ordered, chip prices
independent of the stake, entry modes agreeing, and ``compare`` settling the same hand
under another rule set.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.corpus import tally_of
from calculator import GoStopError, InvalidRulesError, resolve, settle
from calculator.hand_payment import stop_minimum
from calculator.multipliers import nagari_factor
from calculator.options import specs
from calculator.rules import GoStopRules
from calculator.settlement import compare
from handbuilder import build_hand
from strategies import hands, house_hands
from tests_support import examples

PRESETS = ["standard", "wikipedia", "gamerules"]
_SPECS = {spec.name: spec for spec in specs(GoStopRules)}
_PPUK = {"first_ppuk", "consecutive_ppuk"}

# The values of the options issue #16 added or widened; every enum value is drawn.
HOUSE_VALUES: dict[str, list[Any]] = {
    "ppuk_payout": list(_SPECS["ppuk_payout"].choices or ()),
    "three_ppuk_mode": list(_SPECS["three_ppuk_mode"].choices or ()),
    "gobak_mode_3p": list(_SPECS["gobak_mode_3p"].choices or ()),
    "three_ppuk_apply_multipliers": [False, True],
    "floor_four_of_month": list(_SPECS["floor_four_of_month"].choices or ()),
    "gwangpal_counts_sets": [False, True],
    "ppuk_chips": [None, 0, 500],
    "ttadak_chips": [None, 300],
    "gwangpal_chips": [None, 1000],
    "chongtong_chips": [None, 300],
    "min_points_to_stop_2p": [0, 7],
    "min_points_to_stop_3p": [0, 3],
}


@st.composite
def house_overrides(draw: st.DrawFn) -> dict[str, Any]:
    """Some of the house options, each at one of its values."""
    names = draw(st.lists(st.sampled_from(sorted(HOUSE_VALUES)), unique=True, max_size=6))
    return {name: draw(st.sampled_from(HOUSE_VALUES[name])) for name in names}


def _settle(hand: dict[str, Any], ruleset: Any) -> Any:
    try:
        return settle(build_hand(hand), ruleset)
    except GoStopError as error:
        return {issue.code for issue in error.issues}


def test_every_house_value_is_drawn() -> None:
    """The strategy covers each new value (a new enum value would be drawn automatically)."""
    assert {"pay_all_doubled", "dealer_wins", "highest", "side_payment"} <= {
        v for values in HOUSE_VALUES.values() for v in values
    }


@settings(max_examples=examples(200))
@given(hand=house_hands(), preset=st.sampled_from(PRESETS), options=house_overrides())
def test_house_rules_sum_to_zero_and_explain_every_amount(
    hand: dict[str, Any], preset: str, options: dict[str, Any]
) -> None:
    result = _settle(hand, resolve(preset, options))
    assume(not isinstance(result, set))
    assert sum(result.net.values()) == 0
    for payment in result.payments:
        assert payment.points >= 0
        assert payment.chips >= 0
        if payment.priced_in == "chips":
            assert payment.points == 0
            assert payment.steps[-1].total == payment.chips
        else:
            assert payment.priced_in == "points"
            assert payment.chips == payment.points * hand["stake"]
            assert payment.steps[-1].total == payment.points


def _ppuk_by_pair(result: Any) -> Counter[tuple[str, str]]:
    found: Counter[tuple[str, str]] = Counter()
    for p in result.payments:
        if p.reason in _PPUK:
            found[p.payer, p.payee] += p.chips
    return found


@settings(max_examples=examples(150))
@given(hand=house_hands(), preset=st.sampled_from(PRESETS), options=house_overrides())
def test_highest_never_pays_more_than_each(
    hand: dict[str, Any], preset: str, options: dict[str, Any]
) -> None:
    each = _settle(hand, resolve(preset, {**options, "ppuk_payout": "each"}))
    highest = _settle(hand, resolve(preset, {**options, "ppuk_payout": "highest"}))
    if isinstance(each, set):
        assert each == highest
        return
    assert not isinstance(highest, set)
    by_each, by_highest = _ppuk_by_pair(each), _ppuk_by_pair(highest)
    for pair, paid in by_highest.items():
        assert paid <= by_each[pair]
        # exactly the top rung: the largest single ppuk payment of the run under each
        top = max(
            p.chips for p in each.payments if p.reason in _PPUK and (p.payer, p.payee) == pair
        )
        assert paid == top
    assert set(by_highest) == set(by_each)
    others = [p for p in each.payments if p.reason not in _PPUK]
    assert [p for p in highest.payments if p.reason not in _PPUK] == others


def _stop_total(result: Any) -> int:
    return sum(p.points for p in result.payments if p.reason == "stop")


@settings(max_examples=examples(200))
@given(hand=hands(), preset=st.sampled_from(PRESETS))
def test_pay_all_doubled_doubles_what_pay_all_collects(hand: dict[str, Any], preset: str) -> None:
    """(own + others) × 2 ≥ own × 2 + others ≥ own + others, the first exactly twice pay_all."""
    found = {
        mode: _settle(hand, resolve(preset, {"gobak_mode_3p": mode}))
        for mode in ("pay_all", "pay_all_and_double", "pay_all_doubled")
    }
    pay_all = found["pay_all"]
    if isinstance(pay_all, set):
        assert all(result == pay_all for result in found.values())
        return
    doubled, and_double = found["pay_all_doubled"], found["pay_all_and_double"]
    liable_caller = len(hand["players"]) == 3 and any(p["go_count"] for p in hand["players"][1:])
    factor = 2 if liable_caller else 1
    assert _stop_total(doubled) == factor * _stop_total(pay_all)
    assert _stop_total(pay_all) <= _stop_total(and_double) <= _stop_total(doubled)


@settings(max_examples=examples(100))
@given(hand=house_hands(), preset=st.sampled_from(PRESETS), options=house_overrides())
def test_chip_prices_do_not_follow_the_stake(
    hand: dict[str, Any], preset: str, options: dict[str, Any]
) -> None:
    chips = {"ppuk_chips": 500, "gwangpal_chips": 1000, "chongtong_chips": 300}
    ruleset = resolve(preset, {**options, **chips})
    low = _settle({**hand, "stake": 1}, ruleset)
    high = _settle({**hand, "stake": 100}, ruleset)
    if isinstance(low, set):
        assert low == high
        return
    assert not isinstance(high, set)
    in_chips = [p for p in low.payments if p.priced_in == "chips"]
    assert in_chips == [p for p in high.payments if p.priced_in == "chips"]
    points = [(p.payer, p.points, p.chips * 100) for p in low.payments if p.priced_in == "points"]
    assert points == [
        (p.payer, p.points, p.chips) for p in high.payments if p.priced_in == "points"
    ]


@settings(max_examples=examples(150))
@given(hand=hands(), preset=st.sampled_from(PRESETS))
def test_with_no_minimum_every_winner_may_stop(hand: dict[str, Any], preset: str) -> None:
    ruleset = resolve(preset, {"min_points_to_stop_2p": 0, "min_points_to_stop_3p": 0})
    result = _settle(hand, ruleset)
    assert not isinstance(result, set), result
    assert all(p.may_stop for p in result.players)


@settings(max_examples=examples(100))
@given(hand=house_hands(), preset=st.sampled_from(PRESETS), options=house_overrides())
def test_entry_modes_agree_under_house_rules(
    hand: dict[str, Any], preset: str, options: dict[str, Any]
) -> None:
    ruleset = resolve(preset, options)
    captured = _settle(hand, ruleset)
    tallied = copy.deepcopy(hand)
    for player in tallied["players"]:
        if "cards" in player:
            player["tally"] = tally_of(player.pop("cards"), ruleset.rules.bonus_values())
    by_tally = _settle(tallied, ruleset)
    if isinstance(captured, set):
        assert by_tally == captured
        return
    assert not isinstance(by_tally, set)
    assert dict(by_tally.net) == dict(captured.net)
    assert by_tally.payments == captured.payments


@settings(max_examples=examples(100))
@given(hand=house_hands(), streak=st.integers(0, 4))
def test_three_ppuk_multipliers_scale_the_instant_win_by_the_nagari_factor(
    hand: dict[str, Any], streak: int
) -> None:
    hand = {**hand, "nagari_streak": streak, "outcome": {"type": "three_ppuk", "winner": "P0"}}
    flat = _settle(hand, resolve("standard"))
    scaled = _settle(hand, resolve("standard", {"three_ppuk_apply_multipliers": True}))
    assume(not isinstance(flat, set))
    assert not isinstance(scaled, set)
    factor = nagari_factor(streak, resolve("standard").rules)
    wins = [p.points for p in flat.payments if p.reason == "three_ppuk"]
    assert [p.points for p in scaled.payments if p.reason == "three_ppuk"] == [
        w * factor for w in wins
    ]


@settings(max_examples=examples(100))
@given(hand=house_hands(), options=house_overrides(), other=house_overrides())
def test_compare_settles_the_hand_under_the_other_house_rules(
    hand: dict[str, Any], options: dict[str, Any], other: dict[str, Any]
) -> None:
    ruleset, other_ruleset = resolve("standard", options), resolve("standard", other)
    built = build_hand(hand)
    result = _settle(hand, ruleset)
    assume(not isinstance(result, set))
    (comparison,) = compare(built, result, [other_ruleset])
    alone = _settle(hand, other_ruleset)
    if isinstance(alone, set):
        assert comparison.error is not None
        assert {issue.code for issue in comparison.error.issues} == alone
        return
    assert comparison.result == alone
    assert comparison.difference == {
        pid: alone.net[pid] - chips for pid, chips in result.net.items()
    }


# --- refusals ------------------------------------------------------------------------


def _codes(hand: dict[str, Any], options: dict[str, Any]) -> list[tuple[str, tuple]]:
    with pytest.raises(GoStopError) as caught:
        settle(build_hand(hand), resolve("standard", options))
    return [(i.code, i.location) for i in caught.value.issues]


_EMPTY3 = [{"id": p, "cards": []} for p in "ABC"]


def test_floor_four_to_a_dealer_who_sits_out_is_refused() -> None:
    hand = {
        "dealer": "S",
        "players": [{"id": "S", "sits_out": True}, *_EMPTY3],
        "outcome": {"type": "floor_four"},
    }
    assert _codes(hand, {"floor_four_of_month": "dealer_wins"}) == [
        ("dealer_sits_out", ("dealer",))
    ]


def test_floor_four_to_an_unknown_dealer_is_one_problem() -> None:
    hand = {"dealer": "Z", "players": _EMPTY3, "outcome": {"type": "floor_four"}}
    assert _codes(hand, {"floor_four_of_month": "dealer_wins"}) == [("unknown_player", ("dealer",))]


def test_a_fourth_ppuk_is_refused_in_either_mode_with_the_reason_of_that_mode() -> None:
    events = [{"type": "first_ppuk", "player": "A"}] + [
        {"type": "consecutive_ppuk", "player": "A"}
    ] * 3
    hand = {"players": _EMPTY3, "outcome": {"type": "nagari"}, "events": events}
    for mode, words in (("instant_win", "ends the hand"), ("side_payment", "three rungs")):
        with pytest.raises(GoStopError) as caught:
            settle(build_hand(hand), resolve("standard", {"three_ppuk_mode": mode}))
        (issue,) = caught.value.issues
        assert (issue.code, issue.location) == ("impossible_event", ("events", 3, "type"))
        assert words in issue.detail


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ppuk_chips", -1),
        ("ttadak_chips", 2.5),
        ("gwangpal_chips", "1000"),
        ("min_points_to_stop_2p", -1),
        ("ppuk_payout", "lowest"),
        ("three_ppuk_mode", None),
    ],
)
def test_bad_house_values_are_refused_naming_the_option(name: str, value: Any) -> None:
    with pytest.raises(InvalidRulesError) as caught:
        resolve("standard", {name: value})
    (issue,) = caught.value.issues
    assert issue.location == ("ruleset", "options", name)


def test_chip_options_accept_null_and_stop_minimums_accept_zero() -> None:
    rules = resolve(
        "standard", {"ppuk_chips": None, "min_points_to_stop_2p": 0, "min_points_to_stop_3p": 0}
    ).rules
    assert rules.ppuk_chips is None
    assert stop_minimum(rules, 2) == stop_minimum(rules, 3) == stop_minimum(rules, 4) == 0


def test_counting_sets_needs_the_hand_only_when_the_sitter_sells() -> None:
    players = [{"id": "S", "sits_out": True, "sold_brights": 0}, *_EMPTY3]
    hand = {"players": players, "outcome": {"type": "nagari"}}
    assert _codes(hand, {"gwangpal_counts_sets": True}) == [
        ("hand_required", ("players", 0, "sold_brights"))
    ]
    watched = resolve("standard", {"gwangpal_counts_sets": True, "table_mode_4p": "observe"})
    assert dict(settle(build_hand(hand), watched).net) == dict.fromkeys("SABC", 0)


@pytest.mark.parametrize(
    ("ladder", "payout", "prices", "said"),
    [
        # each: every rung as it happens; highest: once, the top rung (docs/rules.md §5.3)
        ("doubling", "each", [1, 2, 4], "1×, then 2× and 4× more on the doubling ladder"),
        ("linear", "each", [1, 2, 3], "2× and 3× on the linear one"),
        ("doubling", "highest", [4], "1×, 2× or 4× in total on the doubling ladder"),
        ("linear", "highest", [3], "1×, 2× or 3× on the linear one"),
    ],
)
def test_the_ppuk_payout_summary_says_what_a_run_of_three_pays(
    ladder: str, payout: str, prices: list[int], said: str
) -> None:
    # A ppuks on its first three turns (side_payment: the hand goes on, here to a draw);
    # the price is the stop minimum, 3: B pays A 3 × each price listed
    events = [{"type": "first_ppuk", "player": "A"}] + [
        {"type": "consecutive_ppuk", "player": "A"}
    ] * 2
    hand = {"players": _EMPTY3, "outcome": {"type": "nagari"}, "events": events}
    options = {"ppuk_ladder": ladder, "ppuk_payout": payout, "three_ppuk_mode": "side_payment"}
    result = _settle(hand, resolve("standard", options))
    assert not isinstance(result, set), result
    assert [p.points for p in result.payments if p.payer == "B"] == [3 * n for n in prices]
    (spec,) = [s for s in specs(GoStopRules) if s.name == "ppuk_payout"]
    assert said in spec.summary


# --- a third consecutive ppuk ends the hand (docs/rules.md §5.4) ----------------------------

_THREE_PPUK_A = [
    {"type": "first_ppuk", "player": "A"},
    {"type": "consecutive_ppuk", "player": "A"},
    {"type": "consecutive_ppuk", "player": "A"},
]


@pytest.mark.parametrize(
    ("outcome", "at"),
    [
        ({"type": "stop", "winner": "B"}, "type"),
        ({"type": "nagari"}, "type"),
        ({"type": "three_ppuk", "winner": "B"}, "winner"),
    ],
)
def test_a_third_consecutive_ppuk_then_another_outcome_is_refused(
    outcome: dict[str, Any], at: str
) -> None:
    """Under three_ppuk_mode instant_win (the default) A's third consecutive ppuk ended the
    hand as A's three_ppuk: a stop, a drawn hand or another's three ppuk came after it."""
    hand = {
        "players": [
            {"id": "A", "cards": ["01-junk-1"]},
            {"id": "B", "cards": ["01-bright", "03-bright", "08-bright"]},
            {"id": "C", "cards": ["11-junk-1"]},
        ],
        "outcome": outcome,
        "events": _THREE_PPUK_A,
    }
    with pytest.raises(GoStopError) as caught:
        settle(build_hand(hand), resolve("standard"))
    (issue,) = caught.value.issues
    assert (issue.code, issue.location) == ("three_ppuk_ends_hand", ("outcome", at))
    assert '{"type": "three_ppuk", "winner": "A"}' in issue.detail


def test_a_third_consecutive_ppuk_with_its_own_win_or_played_on_is_accepted() -> None:
    """A's own three_ppuk is the outcome it calls for; under side_payment the third rung is
    an event and the hand goes on. Both pay the ladder: 3, 6 and 12 (the stop minimum,
    ×2, ×4, docs/rules.md §5.3) from each of B and C; the win adds 3 from each (§5.4)."""
    players = [{"id": p, "cards": []} for p in "ABC"]
    won = {"players": players, "events": _THREE_PPUK_A}
    won["outcome"] = {"type": "three_ppuk", "winner": "A"}
    assert dict(settle(build_hand(won), resolve("standard")).net) == {"A": 48, "B": -24, "C": -24}
    drawn = {**won, "outcome": {"type": "nagari"}}
    side = resolve("standard", {"three_ppuk_mode": "side_payment"})
    assert dict(settle(build_hand(drawn), side).net) == {"A": 42, "B": -21, "C": -21}


def test_a_stored_third_ppuk_then_a_drawn_hand_is_scored_as_it_was_stored() -> None:
    """A table hand stored before 2026-12-05 replays (entering False): the ladder alone,
    3 + 6 + 12 = 21 from each of B and C, and the streak grows."""
    hand = {
        "players": [{"id": p, "cards": []} for p in "ABC"],
        "outcome": {"type": "nagari"},
        "events": _THREE_PPUK_A,
    }
    result = settle(build_hand(hand), resolve("standard"), entering=False)
    assert dict(result.net) == {"A": 42, "B": -21, "C": -21}
    assert result.nagari_streak_after == 1


# --- a floor four played as a drawn hand pays the sitter's sale (docs/rules.md §6.2) ----------


def _floor_four_with_a_sale(mode: str) -> tuple[Any, Any]:
    hand = {
        "dealer": "A",
        "players": [{"id": "S", "sits_out": True, "sold_brights": 1}, *_EMPTY3],
        "outcome": {"type": "floor_four"},
    }
    return build_hand(hand), resolve("standard", {"floor_four_of_month": mode})


def test_a_floor_four_played_as_a_drawn_hand_pays_the_sitters_sale() -> None:
    """floor_four_of_month nagari: a drawn hand, and "the sale is paid whatever happens in
    the hand, drawn hands … included; only a redeal moves nothing" (§6.2, §5.2). One
    bright at gwangpal_price 2 from each of A, B and C: S +6; the streak grows."""
    hand, rules = _floor_four_with_a_sale("nagari")
    result = settle(hand, rules)
    assert dict(result.net) == {"S": 6, "A": -2, "B": -2, "C": -2}
    assert [(p.payer, p.reason, p.points) for p in result.payments] == [
        ("A", "gwangpal", 2),
        ("B", "gwangpal", 2),
        ("C", "gwangpal", 2),
    ]
    assert result.nagari_streak_after == 1
    redealt = settle(*_floor_four_with_a_sale("redeal"))
    assert dict(redealt.net) == {"S": 0, "A": 0, "B": 0, "C": 0}
    assert redealt.payments == ()


def test_a_table_from_before_the_sale_scores_its_floor_four_drawn_hands_without_it() -> None:
    """A table created before 2026-12-05 scores a floor four drawn hand as it was scored
    then, with no sale (``floor_four_sale`` False: the table's, not the hand's entry) —
    entered now or scored again. Whether a hand is entered or scored again never changes
    its amount: the sale hung on ``entering``, so a live write paid it and every later
    derivation of the table (a correction before it, another instance's replay) dropped
    it (a review, 2026-12-07)."""
    hand, rules = _floor_four_with_a_sale("nagari")
    for entering in (True, False):
        old = settle(hand, rules, entering=entering, floor_four_sale=False)
        assert dict(old.net) == {"S": 0, "A": 0, "B": 0, "C": 0}
        assert old.nagari_streak_after == 1
        new = settle(hand, rules, entering=entering)
        assert dict(new.net) == {"S": 6, "A": -2, "B": -2, "C": -2}
