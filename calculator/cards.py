"""The hwatu deck as data: 48 month cards and four bonus cards, in Korean month order.

Card IDs are a public contract (SPEC §2): apps store them, so they never change.
Every card also owns one bit of a 52-bit mask, so a captured pile is an ``int`` and
the scoring questions ("how many brights?", "is hongdan complete?") are popcounts and
subset tests instead of loops over card objects.

>>> CARDS["09-animal"]
Card('09-animal')
>>> CARDS["09-animal"].month, CARDS["09-animal"].kind
(9, <Kind.ANIMAL: 'animal'>)
>>> ids_of(mask_of(("12-bright", "01-bright")))
('01-bright', '12-bright')
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from calculator.limits import quote

if TYPE_CHECKING:
    # a native 64-bit integer, compiled; ``int`` at run time (never imported then, as in
    # calculator.scoring)
    from mypy_extensions import i64


class Kind(StrEnum):
    """What a card counts as; the value is the wire notation."""

    BRIGHT = "bright"  # 광 gwang
    ANIMAL = "animal"  # 열끗 yeolkkeut
    RIBBON = "ribbon"  # 띠 tti
    JUNK = "junk"  # 피 pi
    DOUBLE_JUNK = "double_junk"  # 쌍피 ssangpi
    BONUS = "bonus"  # 보너스피, counts as junk only


class Tag(StrEnum):
    """Set memberships that scoring rules look at (SPEC §2)."""

    GODORI = "godori"  # the three bird animals: Feb, Apr, Aug
    HONGDAN = "hongdan"  # red poetry ribbons: Jan, Feb, Mar
    CHEONGDAN = "cheongdan"  # blue ribbons: Jun, Sep, Oct
    CHODAN = "chodan"  # red plain ribbons: Apr, May, Jul (never Dec, docs/rules.md §2.3)
    RAIN = "rain"  # the rain man, the "wet" bright that lowers three brights to 2


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the deck. ``month`` is 1–12, or 0 for a bonus card."""

    id: str
    month: int
    kind: Kind
    name_ko: str
    name_en: str
    tags: frozenset[Tag] = frozenset()
    junk_value: int = 0  # its worth in the junk pile (bonus cards: the rule set decides)
    bit: int = 0  # this card's bit in a pile mask

    def __repr__(self) -> str:
        return f"Card({self.id!r})"


@dataclass(frozen=True, slots=True)
class Month:
    """A suit of four cards, with its Korean and English names."""

    number: int
    name_ko: str
    name_en: str


MONTHS: Final[tuple[Month, ...]] = (
    Month(1, "송학", "pine"),
    Month(2, "매조", "plum blossom"),
    Month(3, "벚꽃", "cherry blossom"),
    Month(4, "흑싸리", "wisteria"),
    Month(5, "난초", "iris"),
    Month(6, "모란", "peony"),
    Month(7, "홍싸리", "bush clover"),
    Month(8, "공산", "pampas grass"),
    Month(9, "국화", "chrysanthemum"),
    Month(10, "단풍", "maple"),
    Month(11, "오동", "paulownia"),
    Month(12, "비", "rain"),
)

# (id, kind, Korean name, English name, tags). Junk cards get their names from the month.
_SPECIAL: Final[tuple[tuple[str, Kind, str, str, tuple[Tag, ...]], ...]] = (
    ("01-bright", Kind.BRIGHT, "송학 광 (학)", "pine crane (bright)", ()),
    ("01-ribbon", Kind.RIBBON, "송학 홍단", "pine red poetry ribbon", (Tag.HONGDAN,)),
    ("02-animal", Kind.ANIMAL, "매조 열끗 (꾀꼬리)", "plum bush warbler (animal)", (Tag.GODORI,)),
    ("02-ribbon", Kind.RIBBON, "매조 홍단", "plum red poetry ribbon", (Tag.HONGDAN,)),
    ("03-bright", Kind.BRIGHT, "벚꽃 광 (만막)", "cherry curtain (bright)", ()),
    ("03-ribbon", Kind.RIBBON, "벚꽃 홍단", "cherry red poetry ribbon", (Tag.HONGDAN,)),
    ("04-animal", Kind.ANIMAL, "흑싸리 열끗 (두견새)", "wisteria cuckoo (animal)", (Tag.GODORI,)),
    ("04-ribbon", Kind.RIBBON, "흑싸리 초단", "wisteria red plain ribbon", (Tag.CHODAN,)),
    ("05-animal", Kind.ANIMAL, "난초 열끗 (다리)", "iris bridge (animal)", ()),
    ("05-ribbon", Kind.RIBBON, "난초 초단", "iris red plain ribbon", (Tag.CHODAN,)),
    ("06-animal", Kind.ANIMAL, "모란 열끗 (나비)", "peony butterflies (animal)", ()),
    ("06-ribbon", Kind.RIBBON, "모란 청단", "peony blue ribbon", (Tag.CHEONGDAN,)),
    ("07-animal", Kind.ANIMAL, "홍싸리 열끗 (멧돼지)", "bush clover boar (animal)", ()),
    ("07-ribbon", Kind.RIBBON, "홍싸리 초단", "bush clover red plain ribbon", (Tag.CHODAN,)),
    ("08-bright", Kind.BRIGHT, "공산 광 (보름달)", "pampas full moon (bright)", ()),
    ("08-animal", Kind.ANIMAL, "공산 열끗 (기러기)", "pampas geese (animal)", (Tag.GODORI,)),
    ("09-animal", Kind.ANIMAL, "국화 열끗 (술잔, 국진)", "chrysanthemum sake cup (gukjin)", ()),
    ("09-ribbon", Kind.RIBBON, "국화 청단", "chrysanthemum blue ribbon", (Tag.CHEONGDAN,)),
    ("10-animal", Kind.ANIMAL, "단풍 열끗 (사슴)", "maple deer (animal)", ()),
    ("10-ribbon", Kind.RIBBON, "단풍 청단", "maple blue ribbon", (Tag.CHEONGDAN,)),
    ("11-bright", Kind.BRIGHT, "오동 광 (봉황)", "paulownia phoenix (bright)", ()),
    ("11-double-junk", Kind.DOUBLE_JUNK, "오동 쌍피", "paulownia double junk", ()),
    ("12-bright", Kind.BRIGHT, "비광", "rain man (bright)", (Tag.RAIN,)),
    ("12-animal", Kind.ANIMAL, "비 열끗 (제비)", "rain swallow (animal)", ()),
    ("12-ribbon", Kind.RIBBON, "비 띠", "rain ribbon", ()),
    ("12-double-junk", Kind.DOUBLE_JUNK, "비 쌍피", "rain double junk", ()),
)

BONUS_IDS: Final[tuple[str, ...]] = ("bonus-a", "bonus-b", "bonus-c", "bonus-d")

# The switchable animals: the sake cup (국진) always may be read as double junk,
# the May bridge only where a rule set says so (docs/rules.md §2.5).
GUKJIN_ID: Final = "09-animal"
MAY_ANIMAL_ID: Final = "05-animal"
SWITCHED_JUNK_VALUE: Final = 2  # an animal read as junk is worth a double junk


def _build_deck() -> tuple[Card, ...]:
    special = {row[0]: row for row in _SPECIAL}
    cards: list[Card] = []
    for month in MONTHS:
        prefix = f"{month.number:02d}-"
        rows = [row for card_id, row in special.items() if card_id.startswith(prefix)]
        for card_id, kind, name_ko, name_en, tags in rows:
            value = 2 if kind is Kind.DOUBLE_JUNK else 0
            cards.append(
                Card(card_id, month.number, kind, name_ko, name_en, frozenset(tags), value)
            )
        for n in range(1, 5 - len(rows)):
            cards.append(
                Card(
                    f"{prefix}junk-{n}",
                    month.number,
                    Kind.JUNK,
                    f"{month.name_ko} 피",
                    f"{month.name_en} junk",
                    junk_value=1,
                )
            )
    for letter, card_id in zip("ABCD", BONUS_IDS, strict=True):
        cards.append(Card(card_id, 0, Kind.BONUS, f"보너스 피 {letter}", f"bonus card {letter}"))
    return tuple(
        Card(c.id, c.month, c.kind, c.name_ko, c.name_en, c.tags, c.junk_value, 1 << i)
        for i, c in enumerate(cards)
    )


DECK: Final[tuple[Card, ...]] = _build_deck()
"""All 52 cards, months 1–12 then the four bonus cards, in a fixed order."""

CARDS: Final[Mapping[str, Card]] = MappingProxyType({card.id: card for card in DECK})
"""Card by ID."""

MONTH_CARD_IDS: Final[tuple[str, ...]] = tuple(card.id for card in DECK if card.month)
"""The 48 month cards (every hwatu deck has exactly these)."""

BIT: Final[Mapping[str, int]] = MappingProxyType({card.id: card.bit for card in DECK})
"""Card ID → its bit in a pile mask."""

_ID_BY_BIT: Final[dict[int, str]] = {card.bit: card.id for card in DECK}


def _key(card_id: str) -> int:
    """A number in 0–831 that each card ID has its own of, read from three characters
    without hashing: the month's digits (``bo`` of a bonus card reads as 15) and the last
    character (t, n, l, k: bright, ribbon, animal, double junk; the junk's number; the
    bonus card's letter). Other text shares keys with card IDs: :func:`place_of` compares."""
    return (ord(card_id[0]) & 1) * 320 + (ord(card_id[1]) & 15) * 32 + (ord(card_id[-1]) & 31)


def _places_by_key() -> bytes:
    places = bytearray([_NO_PLACE]) * 832
    for place, card in enumerate(DECK):
        if places[_key(card.id)] != _NO_PLACE:  # pragma: no cover - a new card, a new key
            raise ImportError(f"calculator.cards: {card.id} shares its key with another card")
        places[_key(card.id)] = place
    return bytes(places)


_NO_PLACE: Final = len(DECK)  # the place of no card: _ID_AT ends with "" there
_PLACE_BY_KEY: Final[bytes] = _places_by_key()  # a bytes' item is read as a small int
_ID_AT: Final[tuple[str, ...]] = (*(card.id for card in DECK), "")  # by place


def place_of(card_id: str) -> i64:
    """The place of a card ID's bit (``BIT[card_id] == 1 << place_of(card_id)``), or -1
    for text that is no card ID.

    A request's card IDs are new strings, not hashed yet: a lookup in :data:`BIT` would
    hash each one first (siphash, the larger part of the lookup). This reads three
    characters and compares the text with the one ID it can be.

    >>> place_of("01-bright"), place_of("bonus-d"), place_of("01-brigth"), place_of("")
    (0, 51, -1, -1)
    """
    if len(card_id) < 7:  # the shortest ID, bonus-a; also: no character to read
        return -1
    # _key, written out: compiled, the call and its tagged result cost ~40 instructions
    # a card (a third of this function; ~44 cards a hand, read twice in a request). In
    # native 64-bit integers (i64), as the place it returns, each character too: on
    # tagged ints each product was a call that tests for overflow, and the sum of tagged
    # characters was converted back to 64 bits (~30 instructions a card more)
    first: i64 = ord(card_id[0])
    second: i64 = ord(card_id[1])
    last: i64 = ord(card_id[-1])
    key: i64 = (first & 1) * 320 + (second & 15) * 32 + (last & 31)
    place: i64 = _PLACE_BY_KEY[key]
    if place < _NO_PLACE and _ID_AT[place] == card_id:
        return place
    return -1


# place_of writes _key out: it must read every card at its place
if any(place_of(card.id) != place for place, card in enumerate(DECK)):  # pragma: no cover
    raise ImportError("calculator.cards: place_of no longer reads the keys of _key")


def all_card_ids(items: list[object]) -> bool:
    """True if every item is a card ID (``frozenset(CARDS).issuperset(items)``, without
    hashing: :func:`place_of`)."""
    return all(isinstance(item, str) and place_of(item) >= 0 for item in items)


def mask_of(card_ids: Iterable[str]) -> int:
    """The pile mask of known card IDs (duplicates collapse; unknown IDs raise KeyError)."""
    mask = 0
    for card_id in card_ids:
        mask |= BIT[card_id]
    return mask


def ids_of(mask: int) -> tuple[str, ...]:
    """The card IDs in a pile mask, in deck order (eight 7-bit chunks, looked up)."""
    found: tuple[str, ...] = ()
    shift = 0
    while mask:
        found += _CHUNK_IDS[shift][mask & 127]
        mask >>= 7
        shift += 1
    return found


def _chunk_ids(shift: int) -> tuple[tuple[str, ...], ...]:
    """For each 7-bit value, the IDs of the cards its bits stand for at ``7 × shift``."""
    return tuple(
        tuple(
            _ID_BY_BIT[1 << (7 * shift + b)]
            for b in range(7)
            if chunk >> b & 1 and 1 << (7 * shift + b) in _ID_BY_BIT
        )
        for chunk in range(128)
    )


_CHUNK_IDS: Final = tuple(_chunk_ids(shift) for shift in range(8))


def _mask_where(predicate: Callable[[Card], bool]) -> int:
    return mask_of(card.id for card in DECK if predicate(card))


BRIGHTS: Final[int] = _mask_where(lambda c: c.kind is Kind.BRIGHT)
RAIN_BRIGHT: Final[int] = BIT["12-bright"]
ANIMALS: Final[int] = _mask_where(lambda c: c.kind is Kind.ANIMAL)
RIBBONS: Final[int] = _mask_where(lambda c: c.kind is Kind.RIBBON)
SINGLE_JUNK: Final[int] = _mask_where(lambda c: c.kind is Kind.JUNK)
DOUBLE_JUNK: Final[int] = _mask_where(lambda c: c.kind is Kind.DOUBLE_JUNK)
BONUS: Final[int] = _mask_where(lambda c: c.kind is Kind.BONUS)
EVERY_CARD: Final[int] = _mask_where(lambda c: True)
"""The whole deck, bonus cards included: what some rule set deals."""
GODORI: Final[int] = _mask_where(lambda c: Tag.GODORI in c.tags)
HONGDAN: Final[int] = _mask_where(lambda c: Tag.HONGDAN in c.tags)
CHEONGDAN: Final[int] = _mask_where(lambda c: Tag.CHEONGDAN in c.tags)
CHODAN: Final[int] = _mask_where(lambda c: Tag.CHODAN in c.tags)
DEC_RIBBON: Final[int] = BIT["12-ribbon"]
GUKJIN: Final[int] = BIT[GUKJIN_ID]
MAY_ANIMAL: Final[int] = BIT[MAY_ANIMAL_ID]
MONTH_MASKS: Final[tuple[int, ...]] = tuple(
    mask_of(card.id for card in DECK if card.month == month) for month in range(13)
)
"""MONTH_MASKS[m] is the mask of month m's four cards (index 0: the bonus cards)."""
MONTH_CARDS_MASK: Final[int] = _mask_where(lambda c: c.month > 0)


def unknown_card(text: object, *, search: bool = True) -> str:
    """The message for a mistyped card ID: the value (cut if long), the closest ID when
    ``search`` allows a "did you mean" search, and what IDs look like.

    >>> unknown_card("01-brigth")
    "'01-brigth' is not a card ID; did you mean '01-bright'? See GET /v1/cards"
    """
    close = (
        difflib.get_close_matches(text, CARDS, n=1)
        if search and isinstance(text, str) and len(text) <= MAX_CARD_ID
        else []
    )
    if close:
        hint = "did you mean " + " or ".join(repr(c) for c in close) + "? See GET /v1/cards"
    else:
        hint = "card IDs look like 01-bright, 09-animal or 11-double-junk; see GET /v1/cards"
    return f"{quote(text)} is not a card ID; {hint}"


MAX_CARD_ID: Final = 32  # longer text is no card ID mistyped: not searched
