"""The engine's bit arithmetic: what stands in for ``int.bit_count``, ``cards.BIT`` and a
dict keyed by masks."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import cards, resolve
from calculator.errors import ImpossibleHandError
from calculator.hand import Hand, PlayerHand
from calculator.hand_payment import pibak_threshold, stop_minimum
from calculator.piles import read_piles
from calculator.scoring import RIBBON_MODULUS, count_bits
from calculator.tables import by_remainder, subsets, switch_readings


@given(st.integers(min_value=-(2**80), max_value=2**80))
def test_count_bits_is_bit_count_for_any_int(bits: int) -> None:
    assert count_bits(bits) == bits.bit_count()


@given(st.integers(min_value=0, max_value=2**56 - 1))
def test_count_bits_counts_every_mask_below_its_constants(bits: int) -> None:
    assert count_bits(bits) == bits.bit_count()


def test_count_bits_at_the_edges() -> None:
    deck = cards.mask_of(cards.BIT)
    for bits in (0, 1, 2**55, 2**56 - 1, 2**56, 2**63, -1, deck, *subsets(cards.BRIGHTS)):
        assert count_bits(bits) == bits.bit_count()


def test_each_card_is_read_at_the_place_of_its_bit() -> None:
    assert {card_id: 1 << cards.place_of(card_id) for card_id in cards.CARDS} == dict(cards.BIT)


def _near_ids() -> list[str]:
    """Each card ID with one character changed, dropped or added, and a few others."""
    found = ["", "-", "0", "01", "bonus-", "bonus-e", "13-junk-1", "00-bright", "01-BRIGHT"]
    for card_id in cards.CARDS:
        found += [card_id + "x", card_id[1:], card_id[:-1], " " + card_id]
        for i in range(len(card_id)):
            for char in "0123456789abcdeijklnt-_ \x00\xe9\u4e00\U0001f0cf":
                found.append(card_id[:i] + char + card_id[i + 1 :])
    return found


def test_place_of_knows_exactly_the_card_ids() -> None:
    for text in _near_ids():
        expected = cards.BIT[text].bit_length() - 1 if text in cards.CARDS else -1
        assert cards.place_of(text) == expected, text


@given(st.lists(st.one_of(st.sampled_from(_near_ids()), st.text(max_size=16), st.integers())))
def test_all_card_ids_is_the_deck_s_issuperset(items: list[object]) -> None:
    assert cards.all_card_ids(items) == frozenset(cards.CARDS).issuperset(items)


@given(st.lists(st.sampled_from(cards.MONTH_CARD_IDS), max_size=30))
def test_a_pile_is_refused_exactly_when_it_holds_a_card_twice(ids: list[str]) -> None:
    hand = Hand(players=(PlayerHand(id="A", captured=tuple(ids)), PlayerHand(id="B")))
    rules = resolve("standard").rules
    if len(set(ids)) == len(ids):
        assert read_piles(hand, rules)[0] == cards.mask_of(ids)
    else:
        with pytest.raises(ImpossibleHandError) as raised:
            read_piles(hand, rules)
        assert {issue.code for issue in raised.value.issues} == {"duplicate_card"}


def test_by_remainder_places_every_holding_and_refuses_a_shared_remainder() -> None:
    table = {holding: holding.bit_count() for holding in subsets(cards.RIBBONS)}
    found = by_remainder(table, RIBBON_MODULUS)
    assert all(found[holding % RIBBON_MODULUS] == n for holding, n in table.items())
    assert sum(entry is not None for entry in found) == len(table)
    with pytest.raises(ValueError, match="two holdings"):
        by_remainder(table, RIBBON_MODULUS - 1)


@given(
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=0, max_value=20),
    st.integers(min_value=0, max_value=20),
    st.integers(min_value=0, max_value=20),
    st.integers(min_value=0, max_value=20),
)
def test_the_per_table_options_read_the_two_player_value_only_for_two(
    active: int, stop_2p: int, stop_3p: int, pibak_2p: int, pibak_3p: int
) -> None:
    # SPEC §4: "Stop minimums: 2 players 7, 3 players 3 (4 players play as 3)"
    rules = dataclasses.replace(
        resolve("standard").rules,
        min_points_to_stop_2p=stop_2p,
        min_points_to_stop_3p=stop_3p,
        pibak_max_pi_2p=pibak_2p,
        pibak_max_pi_3p=pibak_3p,
    )
    assert stop_minimum(rules, active) == (stop_2p if active == 2 else stop_3p)
    assert pibak_threshold(rules, active) == (pibak_2p if active == 2 else pibak_3p)


def test_every_card_is_read_into_the_bit_of_its_place_past_bit_31() -> None:
    """read_piles builds masks in native 64-bit integers: a card whose bit is past 31 (a
    C int's) lands where cards.BIT puts it, alone and with the whole deck."""
    rules = resolve("standard").rules
    for card_id in cards.MONTH_CARD_IDS:
        hand = Hand(players=(PlayerHand(id="A", captured=(card_id,)), PlayerHand(id="B")))
        assert read_piles(hand, rules)[0] == cards.BIT[card_id]
    whole = Hand(players=(PlayerHand(id="A", captured=cards.MONTH_CARD_IDS), PlayerHand(id="B")))
    assert read_piles(whole, rules)[0] == cards.MONTH_CARDS_MASK


def test_switch_readings_are_the_subsets_of_the_switchable_cards() -> None:
    """The readings kept for each mask of switchable cards are the ones enumerated; a
    mask of other cards is enumerated."""
    switchable = cards.GUKJIN | cards.MAY_ANIMAL
    for mask in subsets(switchable):
        assert switch_readings(mask) == tuple(subsets(mask)), mask
    other = cards.GUKJIN | cards.BIT["01-bright"]
    assert switch_readings(other) == tuple(subsets(other))
