"""Per-rule-set lookup tables: masks, and every category's items for every holding.

Built once when a rule set is resolved (a rules object builds its own tables). A listed
pile is then scored by looking up its brights (32 possible holdings), its animals as
placed (512) and its ribbons (1,024); each entry is what the category functions of
:mod:`calculator.scoring` return for that holding, so the tables are a cache of the rules,
not a second copy of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from calculator import cards
from calculator.scoring import (
    Item,
    animal_items,
    bright_items,
    chodan_complete,
    ribbon_items,
)

if TYPE_CHECKING:
    from calculator.rules import GoStopRules

# (items, points, count[, godori]) for one holding of a category
Entry = tuple[tuple[Item, ...], int, int]
AnimalEntry = tuple[tuple[Item, ...], int, int, bool]


class CardTables(NamedTuple):
    """Pile masks and item tables that depend on the rules."""

    fixed_animals: int  # cards that always count as animals
    switchable: int  # animals the owner may read as double junk
    fixed_double: int  # cards always worth 2 junk (double junks, a sake cup fixed as junk)
    counted_ribbons: int  # ribbons counted toward the five-ribbon total
    junk_cards: int  # cards always in the junk pile
    bonus_values: tuple[tuple[int, int], ...]  # (bit, junk value) of bonus cards in the deck
    bonus_in_deck: int
    in_deck: int  # every card of the deck under these rules
    three_doubles: int  # the cards the three-double-junk bonus looks for, when held as junk
    brights: dict[int, Entry]  # bright mask → items
    animals: dict[int, AnimalEntry]  # animals as placed → items
    ribbons: dict[int, Entry]  # ribbon mask → items (count: the counted ribbons)
    bonus: dict[int, int]  # bonus cards held → their junk value
    # what scoring a listed pile reads, in one tuple (see scoring.score_mask)
    scoring: tuple[Any, ...]


def subsets(mask: int) -> list[int]:
    """Every subset of ``mask``, from 0 up.

    >>> subsets(0b101)
    [0, 1, 4, 5]
    """
    found = [0]
    sub = 0
    while sub != mask:
        sub = (sub - mask) & mask
        found.append(sub)
    return found


def build_tables(rules: GoStopRules) -> CardTables:
    """The tables of ``rules``."""
    from calculator.rules import GukjinMode

    switchable = cards.GUKJIN | (cards.MAY_ANIMAL if rules.may_animal_switchable else 0)
    fixed_animals = cards.ANIMALS & ~switchable
    fixed_double = cards.DOUBLE_JUNK
    if rules.gukjin_mode in (GukjinMode.ALWAYS_ANIMAL, GukjinMode.BOTH):
        fixed_animals |= switchable
    if rules.gukjin_mode in (GukjinMode.ALWAYS_JUNK, GukjinMode.BOTH):
        fixed_double |= switchable
    if rules.gukjin_mode is not GukjinMode.CHOICE:
        switchable = 0
    values = rules.bonus_values()
    counted = cards.RIBBONS
    if not rules.dec_ribbon_counts_in_ribbon_total:
        counted &= ~cards.DEC_RIBBON

    def entry(items: tuple[Item, ...], count: int) -> Entry:
        items = tuple(item._replace(ids=cards.ids_of(item.mask)) for item in items)
        return items, sum(item.points for item in items), count

    brights = {
        m: entry(bright_items(m.bit_count(), bool(m & cards.RAIN_BRIGHT), m, rules), m.bit_count())
        for m in subsets(cards.BRIGHTS)
    }
    animals = {}
    for m in subsets(cards.ANIMALS):
        godori = m & cards.GODORI == cards.GODORI
        items = animal_items(m.bit_count(), godori, m, rules)
        animals[m] = (*entry(items, m.bit_count()), godori)
    ribbons = {}
    for m in subsets(cards.RIBBONS):
        sets = (
            m & cards.HONGDAN == cards.HONGDAN,
            m & cards.CHEONGDAN == cards.CHEONGDAN,
            chodan_complete(m, rules),
        )
        n = (m & counted).bit_count()
        ribbons[m] = entry(ribbon_items(n, sets, m & counted, m), n)
    bonus = {
        m: sum(v for card_id, v in values.items() if m & cards.BIT[card_id])
        for m in subsets(cards.BONUS)
    }
    junk_cards = cards.SINGLE_JUNK | fixed_double
    scoring = (
        brights,
        animals,
        ribbons,
        bonus,
        switchable,
        fixed_animals,
        fixed_double,
        junk_cards,
        rules.meongtta_threshold,
        rules.three_double_pi_bonus,
    )
    return CardTables(
        fixed_animals=fixed_animals,
        switchable=switchable,
        fixed_double=fixed_double,
        counted_ribbons=counted,
        junk_cards=junk_cards,
        bonus_values=tuple((cards.BIT[card_id], v) for card_id, v in values.items()),
        bonus_in_deck=cards.mask_of(values),
        in_deck=cards.MONTH_CARDS_MASK | cards.mask_of(values),
        three_doubles=cards.DOUBLE_JUNK | cards.GUKJIN,
        brights=brights,
        animals=animals,
        ribbons=ribbons,
        bonus=bonus,
        scoring=scoring,
    )
