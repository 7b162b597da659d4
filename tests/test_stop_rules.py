"""multipliers.StopRules: the options a stop reads, copied once per rule set.

A copy of the rules is a second place an option is read: these tests hold each copied
value to the option it stands for, for every preset and for changed options, and hold
the cache to the rules object it was made from (keyed by ``id``, which Python reuses).
"""

from __future__ import annotations

import dataclasses
import gc

import pytest

from calculator.multipliers import StopRules, stop_rules
from calculator.presets import presets
from calculator.rule_choices import (
    GOBAK_PAYS_ALL,
    GobakMode2p,
    GobakMode3p,
    GukjinMode,
    GwangbakEffect,
    OrderOfOperations,
    PibakCount,
    ShakeThenBomb,
    YeokgoMode,
)
from calculator.rules import GoStopRules

# StopRules' fields named after the option they copy
SAME_NAME = (
    "go_formula",
    "go_points_with_multiplier",
    "shake_cap",
    "shake_multiplier",
    "bomb_multiplier",
    "meongtta_enabled",
    "meongtta_threshold",
    "meongbak_mode",
    "gwangbak_enabled",
    "gwangbak_rain_protects",
    "pibak_zero_exempt",
    "no_capture_exemption",
    "nagari_multiplier",
    "nagari_stacking",
    "nagari_max_multiplier",
    "gobak_mode_3p",
    "floor_four_of_month",
    "gukjin_default",
)

CHANGED = (
    {},
    {"pibak_count": PibakCount.CARDS, "pibak_max_pi_3p": 7, "pibak_max_pi_2p": 4},
    {"order_of_operations": OrderOfOperations.SHAKE_BEFORE_GO, "shake_cap": 2},
    {"yeokgo_mode": YeokgoMode.FIXED_X4, "gobak_mode_2p": GobakMode2p.DOUBLE},
    {"yeokgo_mode": YeokgoMode.DOUBLE_AND_DOKBAK, "gwangbak_effect": GwangbakEffect.PLUS2},
    {"shake_then_bomb_same_month": ShakeThenBomb.ONCE, "min_points_to_stop_2p": 5},
    {"min_points_to_stop_3p": 5, "nagari_max_multiplier": 8},
    {"gobak_mode_3p": GobakMode3p.PAY_ALL_DOUBLED},
    {"gobak_mode_3p": GobakMode3p.DOUBLE},
    {"gukjin_mode": GukjinMode.ALWAYS_JUNK},
)


def _all_rules() -> list[GoStopRules]:
    found = []
    for preset in presets().values():
        if not isinstance(preset.rules, GoStopRules):
            continue  # the balance variant's
        for changes in CHANGED:
            found.append(dataclasses.replace(preset.rules, **changes))
    return found


@pytest.mark.parametrize("rules", _all_rules())
def test_each_copied_option_is_the_rules_own(rules: GoStopRules) -> None:
    stop = StopRules(rules)
    for name in SAME_NAME:
        assert getattr(stop, name) == getattr(rules, name), name
    assert stop.shake_first == (rules.order_of_operations is OrderOfOperations.SHAKE_BEFORE_GO)
    assert stop.yeokgo_fixed_x4 == (rules.yeokgo_mode is YeokgoMode.FIXED_X4)
    assert stop.yeokgo_doubles == (rules.yeokgo_mode is YeokgoMode.DOUBLE_AND_DOKBAK)
    assert stop.bomb_after_shake_once == (rules.shake_then_bomb_same_month is ShakeThenBomb.ONCE)
    assert stop.gwangbak_plus2 == (rules.gwangbak_effect is GwangbakEffect.PLUS2)
    assert stop.pibak_by_cards == (rules.pibak_count is PibakCount.CARDS)
    assert stop.gobak_2p_double == (rules.gobak_mode_2p is GobakMode2p.DOUBLE)
    assert stop.gobak_pays_all == (rules.gobak_mode_3p in GOBAK_PAYS_ALL)
    assert stop.reads_gukjin == (rules.gukjin_mode is GukjinMode.CHOICE)
    # 2 players read the 2-player options; 3 players, and 4 with one sitting out, the others
    assert stop.stop_minimum(2) == rules.min_points_to_stop_2p
    assert stop.pibak_threshold(2) == rules.pibak_max_pi_2p
    for active in (3, 4):
        assert stop.stop_minimum(active) == rules.min_points_to_stop_3p
        assert stop.pibak_threshold(active) == rules.pibak_max_pi_3p


@pytest.mark.parametrize("rules", _all_rules()[:7])
def test_pi_bak_facts_made_once_equal_those_made_each_time(rules: GoStopRules) -> None:
    stop = StopRules(rules)
    counted = "junk_cards" if rules.pibak_count is PibakCount.CARDS else "junk_value"
    for threshold in (rules.pibak_max_pi_2p, rules.pibak_max_pi_3p, 40):
        for junk in range(-1, threshold + 3):
            made = ((counted, junk), ("threshold", threshold))
            assert stop.pi_bak_facts(junk, threshold) == made


def test_the_same_rules_find_the_same_copy_and_other_rules_their_own() -> None:
    standard = GoStopRules()
    equal = GoStopRules()  # equal by value, another object
    changed = dataclasses.replace(standard, shake_multiplier=3)
    assert stop_rules(standard) is stop_rules(standard)
    assert stop_rules(standard).rules is standard
    assert stop_rules(equal).rules is equal
    assert stop_rules(changed).shake_multiplier == 3
    assert stop_rules(standard).shake_multiplier == standard.shake_multiplier


def test_a_reused_id_never_finds_another_rules_copy() -> None:
    """Rules made and dropped by the thousand (past the cache's bound, so it clears
    too): each is read as itself, whatever object had its ``id`` before."""
    for k in range(2000):
        rules = dataclasses.replace(GoStopRules(), shake_multiplier=2 + k % 5)
        assert stop_rules(rules).shake_multiplier == 2 + k % 5
        assert stop_rules(rules).rules is rules
        del rules
        if k % 500 == 0:
            gc.collect()


@pytest.mark.parametrize("rules", _all_rules()[:7])
def test_meongtta_facts_made_once_equal_those_made_each_time(rules: GoStopRules) -> None:
    stop = StopRules(rules)
    for animals in range(-1, 20):
        made = (("animals", animals), ("threshold", rules.meongtta_threshold))
        assert stop.meongtta_facts(animals) == made


def test_bak_facts_made_once_equal_those_made_each_time() -> None:
    from calculator.multipliers import _gwang_bak_facts, _meong_bak_facts

    for winner in range(-1, 20):
        assert _meong_bak_facts(winner) == (("winner_animals", winner), ("animals", 0))
        for held in range(-1, 20):
            made = (("winner_brights", winner), ("brights", held))
            assert _gwang_bak_facts(winner, held) == made


def test_settle_reads_each_rule_sets_own_rules_whichever_came_last() -> None:
    """settle keeps the last rule set's rules (calculator.settlement._gostop_rules): rule
    sets taken in turn, another variant's among them, each settles by its own."""
    from calculator.errors import GoStopError
    from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand
    from calculator.presets import resolve
    from calculator.settlement import settle

    hand = Hand(
        players=(
            PlayerHand(id="A", captured=("01-bright", "03-bright", "08-bright"), shakes=1),
            PlayerHand(id="B", captured=("02-junk-1",)),
            PlayerHand(id="C", captured=("04-junk-1",)),
        ),
        outcome=Outcome(type=OutcomeType.STOP, winner="A"),
    )
    standard = resolve("standard")
    tripled = resolve("standard", {"shake_multiplier": 3})
    first = settle(hand, standard).net["A"]
    for _ in range(2):
        assert settle(hand, tripled).net["A"] == first * 3 // 2
        with pytest.raises(GoStopError) as caught:
            settle(hand, resolve("balance"))
        assert caught.value.issues[0].code == "wrong_variant"
        assert settle(hand, standard).net["A"] == first


def test_power_is_the_power_operator_for_every_count_a_hand_holds() -> None:
    """multipliers.power multiplies in a loop where ``**`` was a generic call: the same
    integers for every factor an option allows and every count a hand holds (shakes and
    bombs to 12, a streak to 64), and for amounts past 64 bits."""
    from calculator.multipliers import power

    for base in (0, 1, 2, 3, 4, 10, 1000):
        for n in range(65):
            assert power(base, n) == base**n, (base, n)
    assert power(2**40, 3) == 2**120


def test_power_refuses_a_negative_count() -> None:
    """No count a hand holds is negative (the schemas refuse one); ``**`` answered a
    fraction for it, a silent wrong amount: power raises instead."""
    from calculator.multipliers import power

    with pytest.raises(ValueError, match="never negative"):
        power(2, -1)
