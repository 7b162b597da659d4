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
from calculator.piles import _PLACES, read_piles
from calculator.scoring import RIBBON_MODULUS, count_bits
from calculator.settlement import pibak_threshold, stop_minimum
from calculator.tables import by_remainder, subsets


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
    assert {card_id: 1 << place for card_id, place in _PLACES.items()} == dict(cards.BIT)


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
