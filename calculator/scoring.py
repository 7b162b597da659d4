"""Itemized points of one pile (rules.md §2): the 족보 as a short table of checks.

A :class:`Pile` is what scoring reads from a player's capture, with the switchable
animals (the sake cup, and the May bridge where allowed) not yet placed. :func:`score`
places them — ``junk_bits`` names the ones read as double junk — and returns every
scoring item with the cards behind it; the points are the items' sum, so the two
cannot disagree.

>>> from calculator.presets import resolve
>>> rules = resolve("standard").rules
>>> pile = pile_of_mask(cards.mask_of(["01-bright", "03-bright", "12-bright"]), rules)
>>> s = score(pile, 0, rules)
>>> s.points, [(i.code, i.points) for i in s.items]
(2, [('three_brights_rain', 2)])
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from calculator import cards
from calculator.rules import GoStopRules


class Item(NamedTuple):
    """One scoring combination of a pile: its code, points, and the cards behind it."""

    code: str
    points: int
    mask: int  # the cards behind it (0 when the pile was tallied, not listed)

    @property
    def cards(self) -> tuple[str, ...]:
        """Card IDs behind this item, in deck order."""
        return cards.ids_of(self.mask)


class Pile(NamedTuple):
    """A player's capture reduced to the counts scoring reads.

    Switchable animals are left out of ``animals`` and the junk counts; ``switchable``
    holds their bits so that each reading can place them.
    """

    mask: int  # the captured cards; 0 for a tally
    brights: int
    rain_bright: bool
    animals: int
    godori: bool
    ribbons: int  # counted toward the five-ribbon total under the rules
    hongdan: bool
    cheongdan: bool
    chodan: bool
    junk_value: int
    junk_cards: int | None  # None when a tally did not say
    double_junks: int | None  # of 11-/12-double-junk and a sake cup fixed as junk
    switchable: int  # bits of the switchable animals held
    cards: int  # how many cards the pile holds


class Score(NamedTuple):
    """A pile scored under one reading of its switchable animals."""

    points: int
    stop_points: int  # the points that count toward the stop minimum
    items: tuple[Item, ...]
    brights: int
    rain_bright: bool
    animals: int
    godori: bool
    ribbons: int
    junk_value: int
    junk_cards: int | None
    cards: int
    junk_bits: int  # the switchable animals read as double junk
    scored_brights: bool  # a bright combination (3+ brights): 광박 may apply
    scored_animals: bool  # the animal count (5+ animals): 멍박 may apply
    scored_godori: bool
    scored_junk: bool  # junk points (junk value 10+): 피박 may apply
    declared: bool = False  # the points were declared, not derived from cards or counts


def pile_of_mask(mask: int, rules: GoStopRules) -> Pile:
    """The :class:`Pile` of a captured-cards mask under ``rules`` (cards already checked)."""
    t = rules.tables
    bonus = 0
    if mask & cards.BONUS:
        bonus = sum(value for bit, value in t.bonus_values if mask & bit)
    chodan = mask & cards.CHODAN == cards.CHODAN
    if not chodan and rules.dec_ribbon_completes_chodan:
        chodan = (mask & (cards.CHODAN | cards.DEC_RIBBON)).bit_count() >= 3
    return Pile(
        mask=mask,
        brights=(mask & cards.BRIGHTS).bit_count(),
        rain_bright=bool(mask & cards.RAIN_BRIGHT),
        animals=(mask & t.fixed_animals).bit_count(),
        godori=mask & cards.GODORI == cards.GODORI,
        ribbons=(mask & t.counted_ribbons).bit_count(),
        hongdan=mask & cards.HONGDAN == cards.HONGDAN,
        cheongdan=mask & cards.CHEONGDAN == cards.CHEONGDAN,
        chodan=chodan,
        junk_value=(mask & cards.SINGLE_JUNK).bit_count()
        + 2 * (mask & t.fixed_double).bit_count()
        + bonus,
        junk_cards=(mask & (t.junk_cards | cards.BONUS)).bit_count(),
        double_junks=(mask & t.fixed_double & t.three_doubles).bit_count(),
        switchable=mask & t.switchable,
        cards=mask.bit_count(),
    )


def score(pile: Pile, junk_bits: int, rules: GoStopRules) -> Score:
    """Score ``pile`` with the switchable animals in ``junk_bits`` read as double junk.

    Categories add up; only the bright combinations exclude one another (rules.md §2).
    """
    t = rules.tables
    mask = pile.mask
    as_animals = pile.switchable & ~junk_bits
    switched = (pile.switchable & junk_bits).bit_count()
    animals = pile.animals + as_animals.bit_count()
    junk_value = pile.junk_value + cards.SWITCHED_JUNK_VALUE * switched
    junk_cards = None if pile.junk_cards is None else pile.junk_cards + switched
    items: list[Item] = []
    brights = pile.brights
    scored_brights = brights >= 3
    if scored_brights:
        if brights == 5:
            item = Item("five_brights", rules.five_brights_points, mask & cards.BRIGHTS)
        elif brights == 4:
            points = (
                rules.four_brights_with_rain_points
                if pile.rain_bright
                else rules.four_brights_points
            )
            item = Item("four_brights", points, mask & cards.BRIGHTS)
        elif pile.rain_bright:
            item = Item("three_brights_rain", 2, mask & cards.BRIGHTS)
        else:
            item = Item("three_brights", 3, mask & cards.BRIGHTS)
        items.append(item)
    if animals >= 5:
        items.append(Item("animals", animals - 4, mask & t.fixed_animals | as_animals))
    if pile.godori:
        items.append(Item("godori", rules.godori_points, mask & cards.GODORI))
    if pile.ribbons >= 5:
        items.append(Item("ribbons", pile.ribbons - 4, mask & t.counted_ribbons))
    if pile.hongdan:
        items.append(Item("hongdan", 3, mask & cards.HONGDAN))
    if pile.cheongdan:
        items.append(Item("cheongdan", 3, mask & cards.CHEONGDAN))
    if pile.chodan:
        chodan_mask = mask & cards.CHODAN
        if chodan_mask != cards.CHODAN:  # completed by the December ribbon (비초단)
            chodan_mask |= mask & cards.DEC_RIBBON
        items.append(Item("chodan", 3, chodan_mask))
    if junk_value >= 10:
        junk_mask = mask & (t.junk_cards | cards.BONUS) | pile.switchable & junk_bits
        items.append(Item("junk", junk_value - 9, junk_mask))
    stop_points = sum(item.points for item in items)
    points = stop_points
    bonus = rules.three_double_pi_bonus
    if bonus and pile.double_junks is not None:
        switched_cup = pile.switchable & junk_bits & cards.GUKJIN
        if pile.double_junks + switched_cup.bit_count() >= 3:
            doubles = mask & t.fixed_double & t.three_doubles | switched_cup
            items.append(Item("three_double_junk", bonus, doubles))
            points += bonus
    return Score(
        points=points,
        stop_points=stop_points,
        items=tuple(items),
        brights=brights,
        rain_bright=pile.rain_bright,
        animals=animals,
        godori=pile.godori,
        ribbons=pile.ribbons,
        junk_value=junk_value,
        junk_cards=junk_cards,
        cards=pile.cards,
        junk_bits=junk_bits,
        scored_brights=scored_brights,
        scored_animals=animals >= 5,
        scored_godori=pile.godori,
        scored_junk=junk_value >= 10,
    )


def readings(switchable: int) -> Iterator[int]:
    """Every placement of the switchable animals, as ``junk_bits``; all-animal first.

    >>> list(readings(cards.GUKJIN | cards.MAY_ANIMAL)) == [
    ...     0, cards.MAY_ANIMAL, cards.GUKJIN, cards.GUKJIN | cards.MAY_ANIMAL]
    True
    """
    subset = 0
    while True:
        yield subset
        if subset == switchable:
            return
        subset = (subset - switchable) & switchable  # next subset, in increasing order
