"""Per-rule-set lookup tables: masks, and every category's items for every holding.

A listed pile is scored by looking up its brights (32 possible holdings), its animals as
placed (512) and its ribbons (1,024); each entry is what the category functions of
:mod:`calculator.scoring` return for that holding, so the tables are a cache of the rules,
not a second copy of them.

Only a few options shape them (:data:`TABLE_OPTIONS`), so :func:`tables_for` keeps them in
a cache keyed by those options alone, and each part (brights, animals, ribbons, bonus
cards) in a cache keyed by the options that part reads: a rule set with any other options
reuses tables already built, and resolving one costs microseconds. Every part is built
from a rules record that holds *only* its own options (every other option at its
default), so a part cannot depend on an option missing from its key without the test
that compares :func:`tables_for` with :func:`build_tables` noticing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeVar

from calculator import cards
from calculator.rule_choices import GukjinMode
from calculator.rules import GoStopRules
from calculator.scoring import (
    ANIMAL_MODULUS,
    BONUS_MODULUS,
    BRIGHT_MODULUS,
    RIBBON_MODULUS,
    Item,
    animal_items,
    bright_items,
    chodan_complete,
    ribbon_items,
)

# (items, points, count[, godori]) for one holding of a category
Entry = tuple[tuple[Item, ...], int, int]
AnimalEntry = tuple[tuple[Item, ...], int, int, bool]
# What scoring a listed pile reads (see scoring.score_mask), typed element by element:
# compiled, the look-ups and the mask arithmetic then run on machine integers and typed
# lists instead of the generic object protocol. The tables are lists by remainder (see
# by_remainder): the entry of a holding at the holding modulo its category's modulus.
Scoring = tuple[
    list[Entry | None],  # brights
    list[AnimalEntry | None],  # animals
    list[Entry | None],  # ribbons
    list[int | None],  # bonus
    int,  # switchable
    int,  # fixed_animals
    int,  # fixed_double
    int,  # junk_cards
    int,  # meongtta threshold
    int,  # three-double-junk bonus
]


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
    scoring: Scoring  # what scoring a listed pile reads, in one tuple


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


def switch_readings(switchable: int) -> tuple[int, ...]:
    """The readings of a pile's switchable cards: each subset of ``switchable`` that may
    be read as junk, all-animal first (``tuple(subsets(switchable))``).

    Taken from :data:`_READINGS`, made at import for the masks a pile's switchable cards
    can form (the sake cup, the May bridge, both): a list made and copied into a tuple
    cost ~0.5k instructions in every hand with an ``auto`` player (two in five). Any other
    mask is enumerated.

    >>> switch_readings(cards.GUKJIN) == (0, cards.GUKJIN)
    True
    """
    if switchable & ~_SWITCHABLE_CARDS:
        return tuple(subsets(switchable))
    index = 0
    if switchable & cards.GUKJIN:
        index = 1
    if switchable & cards.MAY_ANIMAL:
        index += 2
    return _READINGS[index]


_SWITCHABLE_CARDS: Final = cards.GUKJIN | cards.MAY_ANIMAL
_READINGS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(subsets(mask)) for mask in (0, cards.GUKJIN, cards.MAY_ANIMAL, _SWITCHABLE_CARDS)
)
"""The readings of each mask of switchable cards, at its index in :func:`switch_readings`."""


_T = TypeVar("_T")


def by_remainder(table: dict[int, _T], modulus: int) -> list[_T | None]:
    """``table``'s entries in a list, each at its holding (a mask) modulo ``modulus``, None
    elsewhere; raises if two holdings leave the same remainder.

    >>> by_remainder({0: "none", 0b101: "both", 0b100: "high"}, 3)
    ['none', 'high', 'both']
    """
    found: list[_T | None] = [None] * modulus
    for holding, entry in table.items():
        place = holding % modulus
        if found[place] is not None:
            raise ValueError(f"modulus {modulus} gives two holdings the remainder {place}")
        found[place] = entry
    return found


# The options each part of the tables reads; together, every option the tables read.
BRIGHT_OPTIONS: Final = (
    "four_brights_points",
    "four_brights_with_rain_points",
    "five_brights_points",
)
ANIMAL_OPTIONS: Final = ("godori_points",)
RIBBON_OPTIONS: Final = ("dec_ribbon_counts_in_ribbon_total", "dec_ribbon_completes_chodan")
BONUS_OPTIONS: Final = (
    "bonus_a_junk_value",
    "bonus_b_junk_value",
    "bonus_c_junk_value",
    "bonus_d_junk_value",
)
TABLE_OPTIONS: Final = (
    *BRIGHT_OPTIONS,
    *ANIMAL_OPTIONS,
    *RIBBON_OPTIONS,
    *BONUS_OPTIONS,
    "gukjin_mode",
    "may_animal_switchable",
    "meongtta_threshold",
    "three_double_pi_bonus",
)
# Most entries a cache holds; past it, the cache starts again (bounded memory: an animal
# table is ~200 KiB, the others are small or have few variants).
CACHE_SIZE: Final = 256
ANIMAL_CACHE_SIZE: Final = 32


def build_tables(rules: GoStopRules) -> CardTables:
    """The tables of ``rules``, built from scratch (:func:`tables_for` caches them)."""
    return _assemble(
        rules, _bright_table(rules), _animal_table(rules), _ribbon_table(rules), _bonus_table(rules)
    )


_TABLES: Final[dict[tuple[object, ...], CardTables]] = {}
_PARTS: Final[dict[tuple[object, ...], dict[int, Any]]] = {}
# The last rules asked for and their tables, in a list named Final: compiled, a module
# global that is assigned is read from the module's dict (a lookup by name), a Final one
# from a native static.
_LAST: Final[list[tuple[GoStopRules | None, CardTables | None]]] = [(None, None)]


def tables_for(rules: GoStopRules) -> CardTables:
    """The tables of ``rules``, from the cache when a rule set with the same
    :data:`TABLE_OPTIONS` was seen before (the common case costs one look-up)."""
    last = _LAST[0]
    if last[0] is rules and last[1] is not None:  # scoring asks once per pile: the same rules
        return last[1]
    key = _key(rules, TABLE_OPTIONS)
    found = _TABLES.get(key)
    if found is None:
        shaped = _shaped(rules, TABLE_OPTIONS)
        found = _assemble(
            shaped,
            _part(shaped, BRIGHT_OPTIONS, _bright_table, CACHE_SIZE),
            _part(shaped, ANIMAL_OPTIONS, _animal_table, ANIMAL_CACHE_SIZE),
            _part(shaped, RIBBON_OPTIONS, _ribbon_table, CACHE_SIZE),
            _part(shaped, BONUS_OPTIONS, _bonus_table, CACHE_SIZE),
        )
        _remember(_TABLES, key, found, CACHE_SIZE)
    _LAST[0] = (rules, found)
    return found


def _key(rules: GoStopRules, names: tuple[str, ...]) -> tuple[object, ...]:
    return tuple([getattr(rules, name) for name in names])


def _shaped(rules: GoStopRules, names: tuple[str, ...]) -> GoStopRules:
    """A rules record with only ``names`` taken from ``rules``, every other option at its
    default: what a part built from it reads cannot come from outside its key."""
    return GoStopRules(**{name: getattr(rules, name) for name in names})


def _part(
    rules: GoStopRules,
    names: tuple[str, ...],
    build: Callable[[GoStopRules], dict[int, Any]],
    size: int,
) -> dict[int, Any]:
    key = (names, *_key(rules, names))
    found = _PARTS.get(key)
    if found is None:
        found = build(_shaped(rules, names))
        _remember(_PARTS, key, found, size)
    return found


def _remember(
    cache: dict[tuple[object, ...], Any], key: tuple[object, ...], value: Any, size: int
) -> None:
    if len(cache) >= size:
        cache.clear()  # simpler than LRU order and safe across threads; refills in ms
    cache[key] = value


def _entry(items: tuple[Item, ...], count: int) -> Entry:
    items = tuple(item._replace(ids=cards.ids_of(item.mask)) for item in items)
    return items, sum(item.points for item in items), count


def _bright_table(rules: GoStopRules) -> dict[int, Entry]:
    return {
        m: _entry(bright_items(m.bit_count(), bool(m & cards.RAIN_BRIGHT), m, rules), m.bit_count())
        for m in subsets(cards.BRIGHTS)
    }


def _animal_table(rules: GoStopRules) -> dict[int, AnimalEntry]:
    animals = {}
    for m in subsets(cards.ANIMALS):
        godori = m & cards.GODORI == cards.GODORI
        items = animal_items(m.bit_count(), godori, m, rules)
        animals[m] = (*_entry(items, m.bit_count()), godori)
    return animals


def _counted_ribbons(rules: GoStopRules) -> int:
    counted = cards.RIBBONS
    if not rules.dec_ribbon_counts_in_ribbon_total:
        counted &= ~cards.DEC_RIBBON
    return counted


def _ribbon_table(rules: GoStopRules) -> dict[int, Entry]:
    counted = _counted_ribbons(rules)
    ribbons = {}
    for m in subsets(cards.RIBBONS):
        sets = (
            m & cards.HONGDAN == cards.HONGDAN,
            m & cards.CHEONGDAN == cards.CHEONGDAN,
            chodan_complete(m, rules),
        )
        n = (m & counted).bit_count()
        ribbons[m] = _entry(ribbon_items(n, sets, m & counted, m), n)
    return ribbons


def _bonus_table(rules: GoStopRules) -> dict[int, int]:
    values = rules.bonus_values()
    return {
        m: sum(v for card_id, v in values.items() if m & cards.BIT[card_id])
        for m in subsets(cards.BONUS)
    }


def _assemble(
    rules: GoStopRules,
    brights: dict[int, Entry],
    animals: dict[int, AnimalEntry],
    ribbons: dict[int, Entry],
    bonus: dict[int, int],
) -> CardTables:
    """The tables from their parts, and the masks (cheap) from ``rules``."""
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
    junk_cards = cards.SINGLE_JUNK | fixed_double
    scoring: Scoring = (
        by_remainder(brights, BRIGHT_MODULUS),
        by_remainder(animals, ANIMAL_MODULUS),
        by_remainder(ribbons, RIBBON_MODULUS),
        by_remainder(bonus, BONUS_MODULUS),
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
        counted_ribbons=_counted_ribbons(rules),
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
