"""Itemized points of one pile (docs/rules.md §2): the 족보, category by category.

The category functions (:func:`bright_items`, :func:`animal_items`, :func:`ribbon_items`,
:func:`junk_item`) are the rules, written once. A pile given as counts (a tally) is scored
by calling them directly. A pile given as cards is a bitmask, and is scored through tables
that :mod:`calculator.tables` fills (once per combination of the few options that shape
them) by calling the same functions for every possible holding of each category — so the
two entry modes cannot disagree, and a listed pile costs a few table look-ups.

Every :class:`Score` carries its items with the cards behind them; its points are the
items' sum.

>>> from calculator.presets import resolve
>>> from calculator.tables import tables_for
>>> tables = tables_for(resolve("standard").rules)
>>> s = score_mask(cards.mask_of(["01-bright", "03-bright", "12-bright"]), 0, tables)
>>> s.points, [(i.code, i.points) for i in s.items]
(2, [('three_brights_rain', 2)])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, final

from calculator import cards
from calculator.records import Record, code_key, mix

if TYPE_CHECKING:
    # a native 64-bit integer, compiled; ``int`` at run time (never imported then: the
    # annotations are not evaluated, and mypy_extensions is no dependency of the service)
    from mypy_extensions import i64

    from calculator.hand import Declared
    from calculator.rules import GoStopRules
    from calculator.tables import CardTables

_BRIGHTS: Final[int] = cards.BRIGHTS
_RIBBONS: Final[int] = cards.RIBBONS
_SINGLE_JUNK: Final[int] = cards.SINGLE_JUNK
_BONUS: Final[int] = cards.BONUS
_THREE_DOUBLES: Final[int] = cards.DOUBLE_JUNK | cards.GUKJIN
_GUKJIN: Final[int] = cards.GUKJIN
_RAIN_BRIGHT: Final[int] = cards.RAIN_BRIGHT

# A listed pile finds each category's entry in a list, at the category's cards (a mask)
# modulo a number under which every holding of the category leaves its own remainder;
# calculator.tables fills the lists and refuses a number that does not separate them.
# Compiled, a dict keyed by the mask boxed it (a big int) and hashed it: ~3 times the cost.
BRIGHT_MODULUS: Final = 46
ANIMAL_MODULUS: Final = 2417
RIBBON_MODULUS: Final = 1539
BONUS_MODULUS: Final = 17


def count_bits(bits: int) -> int:
    """How many bits of ``bits`` are set: ``bits.bit_count()``, for any int.

    Compiled, ``int.bit_count`` is a generic method call on a boxed int (~400 instructions);
    this counts a card mask (under 2**56) in a dozen native operations on machine integers,
    and hands anything larger or negative to ``bit_count``.

    >>> count_bits(0b1011), count_bits(2**60 - 1), count_bits(-5)
    (3, 60, 2)
    """
    if bits >> 56:  # beyond the constants below (or negative): not a card mask
        return bits.bit_count()
    # native 64-bit arithmetic (i64): on a tagged int each operation tests its tag first
    n: i64 = bits
    n -= (n >> 1) & 0x55555555555555
    n = (n & 0x33333333333333) + ((n >> 2) & 0x33333333333333)
    n = (n + (n >> 4)) & 0x0F0F0F0F0F0F0F
    n += n >> 8
    n += n >> 16
    n += n >> 32
    return n & 0x7F


@final
class Item(Record):
    """One scoring combination of a pile: its code, points, and the cards behind it."""

    _fields: ClassVar = ("code", "points", "mask", "ids")

    def __init__(
        self, code: str, points: int, mask: int, ids: tuple[str, ...] | None = None
    ) -> None:
        self.code: Final = code
        self.points: Final = points
        self.mask: Final = mask  # the cards behind it (0 when the pile was tallied, not listed)
        self.ids: Final = ids  # the same cards as IDs, when known in advance

    def _values(self) -> tuple[str, int, int, tuple[str, ...] | None]:
        # written out: the answer keeps its items by value (a hash and a compare each)
        return (self.code, self.points, self.mask, self.ids)

    def __eq__(self, other: object) -> bool:
        # field by field, natively: no tuple of each side's values to build and compare
        return self is other or (
            isinstance(other, Item)
            and self.mask == other.mask
            and self.points == other.points
            and self.code == other.code
            and self.ids == other.ids
        )

    def __hash__(self) -> int:
        # not its IDs; mixed natively (records.py)
        return mix(mix(code_key(self.code), self.points), self.mask)

    @property
    def cards(self) -> tuple[str, ...]:
        """Card IDs behind this item, in deck order."""
        return item_cards(self)


def item_cards(item: Item) -> tuple[str, ...]:
    """Card IDs behind ``item``, in deck order (:attr:`Item.cards`; compiled callers call
    this function natively, where a property is a generic lookup)."""
    ids = item.ids
    return ids if ids is not None else cards.ids_of(item.mask)


# --- the rules, category by category -------------------------------------------------------


def bright_items(count: int, rain: bool, mask: int, rules: GoStopRules) -> tuple[Item, ...]:
    """Three, four or five brights; exactly one of them scores (docs/rules.md §2.1)."""
    if count >= 5:
        return (Item("five_brights", rules.five_brights_points, mask),)
    if count == 4:
        points = rules.four_brights_with_rain_points if rain else rules.four_brights_points
        return (Item("four_brights", points, mask),)
    if count == 3:
        return (Item("three_brights_rain", 2, mask) if rain else Item("three_brights", 3, mask),)
    return ()


def animal_items(count: int, godori: bool, mask: int, rules: GoStopRules) -> tuple[Item, ...]:
    """Five animals 1, +1 each; godori on top (docs/rules.md §2.2)."""
    found = []
    if count >= 5:
        found.append(Item("animals", count - 4, mask))
    if godori:
        found.append(Item("godori", rules.godori_points, mask & cards.GODORI))
    return tuple(found)


def ribbon_items(
    counted: int, sets: tuple[bool, bool, bool], counted_mask: int, mask: int
) -> tuple[Item, ...]:
    """Five ribbons 1, +1 each; hongdan, cheongdan, chodan 3 each on top (docs/rules.md §2.3).

    ``sets`` says which of hongdan, cheongdan and chodan are complete; ``mask`` holds the
    ribbons (a chodan completed by the December ribbon shows it among its cards).
    """
    found = []
    if counted >= 5:
        found.append(Item("ribbons", counted - 4, counted_mask))
    hongdan, cheongdan, chodan = sets
    if hongdan:
        found.append(Item("hongdan", 3, mask & cards.HONGDAN))
    if cheongdan:
        found.append(Item("cheongdan", 3, mask & cards.CHEONGDAN))
    if chodan:
        chodan_mask = mask & cards.CHODAN
        if chodan_mask != cards.CHODAN:  # completed by the December ribbon (비초단)
            chodan_mask |= mask & cards.DEC_RIBBON
        found.append(Item("chodan", 3, chodan_mask))
    return tuple(found)


def junk_item(value: int, mask: int) -> Item | None:
    """Junk value 10 is 1 point, +1 each (docs/rules.md §2.4)."""
    return Item("junk", value - 9, mask) if value >= 10 else None


def least_points(category: str, rules: GoStopRules, *, meongtta: bool = False) -> int:
    """The fewest points a pile that scores ``category`` (a declared winner's
    :class:`~calculator.hand.Category`) gets from it under ``rules``, by the rules above:
    the cheapest bright combination (three with the rain man in standard), five animals
    (``meongtta``: the animals of a 멍따), godori, five ribbons or a set of three, junk
    value 10. A combination the rules make worth nothing scores nothing: 0 when none of
    the category's is worth a point."""
    if category == "brights":
        counts = ((3, False), (3, True), (4, False), (4, True), (5, True))
        found = [item for n, rain in counts for item in bright_items(n, rain, 0, rules)]
    elif category == "animals":
        many = rules.meongtta_threshold if meongtta and rules.meongtta_enabled else 5
        found = list(animal_items(many, False, 0, rules))
    elif category == "godori":
        found = list(animal_items(0, True, 0, rules))
    elif category == "ribbons":
        found = [*ribbon_items(5, (False, False, False), 0, 0)]
        found += ribbon_items(0, (True, False, False), 0, 0)
    else:
        assert category == "junk", category
        junk = junk_item(10, 0)
        assert junk is not None
        found = [junk]
    return min((item.points for item in found if item.points > 0), default=0)


def chodan_complete(mask: int, rules: GoStopRules) -> bool:
    """Whether the ribbons in ``mask`` complete chodan (the December one may help: 비초단)."""
    if mask & cards.CHODAN == cards.CHODAN:
        return True
    return rules.dec_ribbon_completes_chodan and (
        (mask & (cards.CHODAN | cards.DEC_RIBBON)).bit_count() >= 3
    )


# --- scored piles ---------------------------------------------------------------------------


@final
class Pile(Record):
    """A pile given as counts (a tally), before its switchable animals are placed.

    Switchable animals are left out of ``animals`` and the junk counts; ``switchable``
    holds their bits so that each reading can place them.
    """

    _fields: ClassVar = (
        "brights",
        "rain_bright",
        "animals",
        "godori",
        "ribbons",
        "hongdan",
        "cheongdan",
        "chodan",
        "junk_value",
        "junk_cards",
        "double_junks",
        "switchable",
        "cards",
    )

    def __init__(
        self,
        brights: int,
        rain_bright: bool,
        animals: int,
        godori: bool,
        ribbons: int,
        hongdan: bool,
        cheongdan: bool,
        chodan: bool,
        junk_value: int,
        junk_cards: int | None,
        double_junks: int | None,
        switchable: int,
        cards: int,
    ) -> None:
        self.brights: Final = brights
        self.rain_bright: Final = rain_bright
        self.animals: Final = animals
        self.godori: Final = godori
        self.ribbons: Final = ribbons  # counted toward the five-ribbon total under the rules
        self.hongdan: Final = hongdan
        self.cheongdan: Final = cheongdan
        self.chodan: Final = chodan
        self.junk_value: Final = junk_value
        self.junk_cards: Final = junk_cards  # None when the tally did not say
        self.double_junks: Final = (
            double_junks  # of 11-/12-double-junk and a sake cup fixed as junk
        )
        self.switchable: Final = switchable  # bits of the switchable animals held
        self.cards: Final = cards  # how many cards the pile holds (at least)


@final
class Score(Record):
    """A pile scored under one reading of its switchable animals — or declared points.

    Everything the settlement reads about a player: its points and items, what it holds
    (for the baks when it loses), and what it scored with (for the baks it causes when it
    wins). For a declared pile the holdings are None and ``declared_baks`` says which baks
    the player declared.
    """

    _fields: ClassVar = (
        "points",
        "stop_points",
        "items",
        "brights",
        "rain_bright",
        "animals",
        "ribbons",
        "junk_value",
        "junk_cards",
        "cards",
        "switchable",
        "junk_bits",
        "scored_brights",
        "scored_animals",
        "scored_godori",
        "scored_junk",
        "many_animals",
        "declared_baks",
        "no_cards",
    )

    def __init__(
        self,
        points: int,
        stop_points: int,
        items: tuple[Item, ...],
        brights: int | None,
        rain_bright: bool,
        animals: int | None,
        ribbons: int | None,
        junk_value: int | None,
        junk_cards: int | None,
        cards: int | None,
        switchable: int,
        junk_bits: int,
        scored_brights: bool,
        scored_animals: bool,
        scored_godori: bool,
        scored_junk: bool,
        many_animals: bool,
        declared_baks: frozenset[str] | None = None,
        no_cards: bool = False,
    ) -> None:
        self.points: Final = points
        self.stop_points: Final = stop_points  # the points that count toward the stop minimum
        self.items: Final = items
        self.brights: Final = brights
        self.rain_bright: Final = rain_bright
        self.animals: Final = animals
        self.ribbons: Final = ribbons
        self.junk_value: Final = junk_value
        self.junk_cards: Final = junk_cards
        self.cards: Final = cards
        self.switchable: Final = switchable  # the switchable animals held
        self.junk_bits: Final = junk_bits  # … of which read as double junk
        self.scored_brights: Final = (
            scored_brights  # a bright combination worth points: 광박 may apply
        )
        self.scored_animals: Final = scored_animals  # the animal count (5+ animals): 멍박 may apply
        self.scored_godori: Final = scored_godori
        self.scored_junk: Final = scored_junk  # junk points (junk value 10+): 피박 may apply
        self.many_animals: Final = many_animals  # at or above the 멍따 threshold
        self.declared_baks: Final = declared_baks  # a declared loser's own bak flags
        self.no_cards: Final = no_cards


def score_mask(mask: int, junk_bits: int, tables: CardTables) -> Score:
    """Score a listed pile (a card mask) with the switchable animals in ``junk_bits`` read
    as double junk, by a few look-ups in the rule set's ``tables`` (:mod:`calculator.tables`).

    ``mask`` is a deck mask (under 2**56, as :func:`~calculator.piles.read_piles` builds
    them): compiled, it is read as a native 64-bit integer, so a mask of 2**63 or more
    raises OverflowError, where the pure build reads only the deck's bits of it."""
    # One attribute read for every table this needs (this runs for every pile of every hand).
    (
        brights,
        animal_table,
        ribbon_table,
        bonus_values,
        switch_mask,
        fixed_animals,
        fixed_double,
        junk_cards_mask,
        threshold,
        extra,
    ) = tables.scoring
    # The masks in native 64-bit integers (i64: the deck's 52 bits), as read_piles builds
    # them: on tagged ints each &, |, ^ tests both operands' tags first, and each % (a
    # table's index) is a call.
    held: i64 = mask
    switchable: i64 = held & switch_mask
    switched: i64 = switchable & junk_bits
    bright_entry = brights[(held & _BRIGHTS) % BRIGHT_MODULUS]
    animal_entry = animal_table[(held & fixed_animals | switchable ^ switched) % ANIMAL_MODULUS]
    ribbon_entry = ribbon_table[(held & _RIBBONS) % RIBBON_MODULUS]
    # Each index above is a holding of its category (a subset of its cards), and
    # tables.by_remainder gave every holding its own place: these asserts only tell the
    # type checker so (an index that were no holding would find another's entry).
    assert bright_entry is not None
    assert animal_entry is not None
    assert ribbon_entry is not None
    # Each entry unpacked once: compiled, every ``entry[k]`` converted the whole tuple to
    # its native form again, checking each element's type (~50 instructions; eleven
    # reads a pile, ~1.2k instructions a hand).
    bright_items_, bright_points, bright_count = bright_entry
    animal_items_, animal_points, animals, godori = animal_entry
    ribbon_items_, ribbon_points, ribbon_count = ribbon_entry
    singles = count_bits(held & _SINGLE_JUNK)
    doubles = count_bits(held & fixed_double)
    if switched:  # usually none: skip the count
        doubles += count_bits(switched)
    junk_value = singles + 2 * doubles
    junk_cards = singles + doubles
    bonus: i64 = held & _BONUS
    if bonus:
        bonus_value = bonus_values[bonus % BONUS_MODULUS]
        assert bonus_value is not None
        junk_value += bonus_value
        junk_cards += count_bits(bonus)
    # joined only where a category scored: a loser's piles most often score in one or
    # none (compiled, each ``+`` of tuples is a generic call, even of an empty one)
    items = animal_items_
    if bright_items_:
        items = bright_items_ + items if items else bright_items_
    if ribbon_items_:
        items = items + ribbon_items_ if items else ribbon_items_
    points = bright_points + animal_points + ribbon_points
    if junk_value >= 10:
        junk_mask: i64 = held & junk_cards_mask | bonus | switched
        items += (Item("junk", junk_value - 9, junk_mask),)
        points += junk_value - 9
    stop_points = points
    if extra:  # the three-double-junk bonus
        doubles_held: i64 = held & fixed_double & _THREE_DOUBLES | switched & _GUKJIN
        if count_bits(doubles_held) >= 3:
            items += (Item("three_double_junk", extra, doubles_held),)
            points += extra
    return Score(
        points,
        stop_points,
        items,
        bright_count,
        (held & _RAIN_BRIGHT) != 0,
        animals,
        ribbon_count,
        junk_value,
        junk_cards,
        count_bits(held),
        switchable,
        junk_bits,
        bright_points > 0,  # scored with brights (see score_pile)
        animals >= 5,
        godori,
        junk_value >= 10,
        animals >= threshold,
        None,
        False,
    )


def score_pile(pile: Pile, junk_bits: int, rules: GoStopRules) -> Score:
    """Score a tallied pile with the switchable animals in ``junk_bits`` read as junk."""
    switched = (pile.switchable & junk_bits).bit_count()
    animals = pile.animals + (pile.switchable & ~junk_bits).bit_count()
    junk_value = pile.junk_value + cards.SWITCHED_JUNK_VALUE * switched
    junk_cards = None if pile.junk_cards is None else pile.junk_cards + switched
    junk = junk_item(junk_value, 0)
    brights = bright_items(pile.brights, pile.rain_bright, 0, rules)
    items = (
        brights
        + animal_items(animals, pile.godori, 0, rules)
        + ribbon_items(pile.ribbons, (pile.hongdan, pile.cheongdan, pile.chodan), 0, 0)
        + ((junk,) if junk else ())
    )
    stop_points = points = sum(item.points for item in items)
    bonus = rules.three_double_pi_bonus
    switched_cup = (pile.switchable & junk_bits & cards.GUKJIN).bit_count()
    if bonus and pile.double_junks is not None and pile.double_junks + switched_cup >= 3:
        items += (Item("three_double_junk", bonus, 0),)
        points += bonus
    return Score(
        points,
        stop_points,
        items,
        pile.brights,
        pile.rain_bright,
        animals,
        pile.ribbons,
        junk_value,
        junk_cards,
        pile.cards,
        pile.switchable,
        junk_bits,
        # scored with brights (광박 may apply): a combination worth points, not 3+ brights
        # alone (four_brights_points 0 scores nothing; docs/rules.md §4.4)
        any(item.points for item in brights),
        animals >= 5,
        pile.godori,
        junk_value >= 10,
        animals >= rules.meongtta_threshold,
    )


def score_declared(declared: Declared) -> Score:
    """A declared pile: the given points, categories and bak flags; no holdings."""
    scored = declared.scored
    baks = frozenset(
        code for code in ("gwang_bak", "pi_bak", "meong_bak") if getattr(declared, code)
    )
    return Score(
        declared.points,
        declared.points,
        (),
        None,
        False,
        None,
        None,
        None,
        None,
        None,
        0,
        0,
        "brights" in scored,
        "animals" in scored,
        "godori" in scored,
        "junk" in scored,
        declared.meongtta,
        baks,
        declared.no_cards,
    )
