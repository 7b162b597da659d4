"""The engine's bit arithmetic: what stands in for ``int.bit_count`` and ``cards.BIT``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from calculator import cards
from calculator.piles import _PLACES
from calculator.scoring import count_bits
from calculator.tables import subsets


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
