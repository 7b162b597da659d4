"""From each player's entry (cards, tally or declaration) to a checked :class:`Pile`.

Cards are checked across the whole table: an unknown ID, a bonus card the rule set does
not put in the deck, or a card held twice (naming both holders) is an
:class:`~calculator.errors.ImpossibleHandError`. Tallies are checked for consistency with
themselves and, together with the listed piles, against what one deck holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, cast

from calculator import cards
from calculator.errors import ImpossibleHandError, Problems
from calculator.hand import Declared, Hand, Tally
from calculator.limits import Suggestions
from calculator.rules import GoStopRules, GwangpalCards, PibakCount
from calculator.scoring import Pile, score_mask
from calculator.side import selling_cards
from calculator.tables import tables_for

Entry = int | Pile | Declared | None
"""A player's checked pile: a card mask (captured), a Pile (tally), a Declared, or None
for the player who sits out."""


class _Raw(NamedTuple):
    """What a pile holds, before any rule: for the whole-deck checks."""

    brights: int
    animals: int
    ribbons: int
    junk_value: int
    flags: frozenset[str]  # one-of-a-kind holdings: rain_bright, godori, hongdan, gukjin…


def read_piles(hand: Hand, rules: GoStopRules, *, fit_checked: bool = True) -> list[Entry]:
    """Each player's checked pile, in seating order; raises on impossible cards or counts.

    ``fit_checked`` False leaves out the refusals of counts and flags that cannot fit the
    deck (:func:`_check_most`, :func:`_junk_fits`, :func:`_check_fit`, added 2026-12-05):
    a hand a table stored before them is scored again as it was then."""
    in_deck = tables_for(rules).in_deck
    taken = 0
    entries: list[Entry | Tally] = []
    tallied = False
    try:
        for player in hand.players:
            ids = player.hand if player.sits_out else player.captured
            mask = 0
            if ids:
                # A plain loop: compiled (mypyc), masks stay machine integers; place_of
                # reads each ID without hashing it (a small place, not a bit past 2**30,
                # stays unboxed).
                for card_id in ids:
                    place = cards.place_of(card_id)
                    if place < 0:
                        raise KeyError  # no card ID: _diagnose says which
                    bit = 1 << place
                    if mask & bit:
                        raise KeyError  # held twice: _diagnose names both places
                    mask |= bit
                if mask & taken or mask & ~in_deck:
                    raise KeyError
                taken |= mask
            if player.sits_out:
                entries.append(None)
            elif ids is not None:
                entries.append(mask)
            elif player.tally is not None:
                tallied = True
                entries.append(player.tally)  # replaced by its Pile below
            else:
                entries.append(player.declared)
    except (KeyError, TypeError):
        _diagnose(hand, in_deck)
    if tallied or any(player.sold_brights for player in hand.players):
        _read_tallies(hand, rules, entries, fit_checked)
    return cast(list[Entry], entries)  # no Tally is left: each became a Pile


def _read_tallies(
    hand: Hand, rules: GoStopRules, entries: list[Entry | Tally], fit_checked: bool
) -> None:
    """Check the tallies and a sitter's sold count, alone and with the listed piles against
    one deck; turn each tally into a Pile in ``entries``."""
    problems = Problems()
    raws = []
    for i, player in enumerate(hand.players):
        tally = player.tally
        if tally is not None and not player.sits_out:
            entries[i] = _pile_of_tally(tally, i, rules, problems, fit_checked)
            raws.append((player.id, _raw_of_tally(tally)))
        else:
            entry = entries[i]
            mask = (
                entry
                if isinstance(entry, int)
                else (sum(map(_BIT, player.hand)) if player.sits_out and player.hand else 0)
            )
            if mask:
                raws.append((player.id, _raw_of_mask(mask, rules)))
    problems.raise_if_any(ImpossibleHandError)
    _check_deck(raws, rules, problems)
    problems.raise_if_any(ImpossibleHandError)
    if fit_checked:
        _check_fit(hand, rules, entries, problems)
        problems.raise_if_any(ImpossibleHandError)


_BIT: Final = cards.BIT.__getitem__


def _cards_of(hand: Hand) -> list[tuple[str, Sequence[str]]]:
    """(field, card IDs) per player: its captured pile, or a sitter's hand."""
    found: list[tuple[str, Sequence[str]]] = []
    for player in hand.players:
        if player.sits_out:
            found.append(("hand", player.hand or ()))
        else:
            found.append(("captured", player.captured or ()))
    return found


def _diagnose(hand: Hand, in_deck: int) -> None:
    """Name every unknown, out-of-deck or twice-held card, with both holders' places."""
    problems = Problems()
    suggestions = Suggestions()
    first: dict[str, tuple[str, str]] = {}  # card → (player id, "players/i/field/j")
    for i, (field, ids) in enumerate(_cards_of(hand)):
        player_id = hand.players[i].id
        for j, card_id in enumerate(ids):
            where = f"players/{i}/{field}/{j}"
            card = cards.CARDS.get(card_id) if isinstance(card_id, str) else None
            if card is None:
                problems.add(
                    "unknown_card",
                    # past the listed problems only counted: no message to write
                    ""
                    if problems.full()
                    else cards.unknown_card(card_id, search=suggestions.take()),
                    "players",
                    i,
                    field,
                    j,
                )
            elif not card.bit & in_deck:
                problems.add(
                    "card_not_in_deck",
                    f"{card_id} is not in the deck under this rule set; give it a junk value "
                    f"with the option {card_id.replace('-', '_')}_junk_value, or remove it",
                    "players",
                    i,
                    field,
                    j,
                )
            elif card_id in first:
                holder, at = first[card_id]
                who = "the same player" if holder == player_id else f"player {holder!r}"
                problems.add(
                    "duplicate_card",
                    f"{card_id} is held twice: by {who} at /{at} and by player {player_id!r} "
                    f"at /{where}; a deck has one of each card",
                    "players",
                    i,
                    field,
                    j,
                )
            else:
                first[card_id] = (player_id, where)
    problems.raise_if_any(ImpossibleHandError)
    raise AssertionError("the fast card check failed but no card is wrong")  # pragma: no cover


# The most of each count one pile can hold: the deck's cards of that kind (double junks:
# the two double junks and the sake cup when a rule set fixes it as one).
_TALLY_LIMITS: Final = {
    "brights": cards.BRIGHTS.bit_count(),
    "animals": cards.ANIMALS.bit_count(),
    "ribbons": cards.RIBBONS.bit_count(),
    "double_junks": (cards.DOUBLE_JUNK | cards.GUKJIN).bit_count(),
}


def _pile_of_tally(
    tally: Tally, i: int, rules: GoStopRules, problems: Problems, fit_checked: bool
) -> Pile | None:
    """A tally checked for consistency and turned into a :class:`Pile`."""
    at = ("players", i, "tally")
    before = len(problems)  # this tally's problems are those past it
    counts = {
        "brights": tally.brights,
        "animals": tally.animals,
        "ribbons": tally.ribbons,
        "junk_value": tally.junk_value,
        "junk_cards": tally.junk_cards,
        "double_junks": tally.double_junks,
    }
    for name, value in counts.items():
        if value is not None and value < 0:
            problems.add("negative_count", f"{name} is {value}; counts start at 0", *at, name)
        limit = _TALLY_LIMITS.get(name)
        if value is not None and limit is not None and value > limit:
            problems.add("impossible_tally", f"{name} is {value}; a deck has {limit}", *at, name)
    max_junk = _max_junk_value(rules)
    if tally.junk_value > max_junk:
        problems.add(
            "impossible_tally",
            f"junk_value is {tally.junk_value}; the whole deck is worth {max_junk} under this "
            "rule set",
            *at,
            "junk_value",
        )

    def need(condition: bool, field: str, detail: str) -> None:
        if not condition:
            problems.add("impossible_tally", detail, *at, field)

    need(
        not tally.rain_bright or tally.brights >= 1,
        "rain_bright",
        "rain_bright is true but brights is 0; count the rain man among the brights",
    )
    switchables = int(tally.has_gukjin) + int(tally.has_may_animal)
    need(
        tally.animals >= switchables,
        "animals",
        f"animals is {tally.animals} but has_gukjin/has_may_animal name {switchables}; "
        "count the sake cup and the May bridge among the animals",
    )
    need(
        not tally.godori or tally.animals >= 3 + switchables,
        "godori",
        f"godori needs the three bird animals, and animals is {tally.animals}"
        + (" with the switchable animals counted in it" if switchables else ""),
    )
    need(
        not tally.rain_ribbon or tally.ribbons >= 1,
        "rain_ribbon",
        "rain_ribbon is true but ribbons is 0; count the December ribbon among the ribbons",
    )
    sets = int(tally.hongdan) + int(tally.cheongdan) + int(tally.chodan)
    usable = tally.ribbons
    if tally.rain_ribbon and not (tally.chodan and rules.dec_ribbon_completes_chodan):
        usable -= 1  # the December ribbon completes no set
    need(
        3 * sets <= usable,
        "ribbons",
        f"{sets} ribbon set(s) need {3 * sets} ribbons of their months, and ribbons is "
        f"{tally.ribbons}" + (" with the December ribbon in it" if tally.rain_ribbon else ""),
    )
    if fit_checked:
        _check_most(tally, at, rules, problems)
    if tally.junk_cards is not None:
        need(
            tally.junk_cards <= tally.junk_value,
            "junk_cards",
            f"junk_cards is {tally.junk_cards} but junk_value is only {tally.junk_value}; "
            "every junk card is worth at least 1",
        )
        need(
            tally.junk_value == 0 or tally.junk_cards > 0,
            "junk_cards",
            f"junk_value is {tally.junk_value} but junk_cards is 0",
        )
    if tally.double_junks is not None:
        need(
            2 * tally.double_junks <= tally.junk_value,
            "double_junks",
            f"double_junks is {tally.double_junks}, worth {2 * tally.double_junks}, but "
            f"junk_value is only {tally.junk_value}",
        )
    if fit_checked and len(problems) == before and not _junk_fits(tally, rules):
        problems.add("impossible_tally", _junk_unfit(tally, rules), *at, "junk_value")
    if tally.junk_cards is None and rules.pibak_count is PibakCount.CARDS:
        problems.add(
            "missing_count",
            "this rule set counts junk cards for 피박; give junk_cards",
            *at,
            "junk_cards",
        )
    if tally.double_junks is None and rules.three_double_pi_bonus:
        problems.add(
            "missing_count",
            "this rule set pays a bonus for the three double junks; give double_junks",
            *at,
            "double_junks",
        )
    if len(problems) != before:
        return None
    t = tables_for(rules)
    animals, junk_value = tally.animals, tally.junk_value
    junk_cards, double_junks = tally.junk_cards, tally.double_junks
    switchable = 0
    for held, bit in ((tally.has_gukjin, cards.GUKJIN), (tally.has_may_animal, cards.MAY_ANIMAL)):
        if not held:
            continue
        if bit & t.switchable:
            switchable |= bit
            animals -= 1
        elif bit & t.fixed_double:  # the rules fix it as double junk (or as both)
            junk_value += cards.SWITCHED_JUNK_VALUE
            junk_cards = None if junk_cards is None else junk_cards + 1
            if double_junks is not None and bit & t.three_doubles:
                double_junks += 1
            if not bit & t.fixed_animals:
                animals -= 1
    ribbons = tally.ribbons
    if tally.rain_ribbon and not rules.dec_ribbon_counts_in_ribbon_total:
        ribbons -= 1
    held_cards = tally.brights + tally.animals + tally.ribbons
    held_cards += junk_cards if junk_cards is not None else min(junk_value, 1)
    return Pile(
        brights=tally.brights,
        rain_bright=tally.rain_bright,
        animals=animals,
        godori=tally.godori,
        ribbons=ribbons,
        hongdan=tally.hongdan,
        cheongdan=tally.cheongdan,
        chodan=tally.chodan,
        junk_value=junk_value,
        junk_cards=junk_cards,
        double_junks=double_junks,
        switchable=switchable,
        cards=held_cards,
    )


def _junk_fits(tally: Tally, rules: GoStopRules) -> bool:
    """Whether some pile of the deck's junk cards has the tally's junk counts: its single
    junk, double junks and bonus cards (the sake cup and the May bridge are counted among
    the animals, and moved by the engine). A double_junks past the deck's counts the sake
    cup as well: the deck's double junks are then all held."""
    bonus = [value for _bit, value in tables_for(rules).bonus_values]
    singles = cards.SINGLE_JUNK.bit_count()
    most_doubles = cards.DOUBLE_JUNK.bit_count()
    cup = 0 if tally.double_junks is None else max(0, tally.double_junks - most_doubles)
    for doubles in range(most_doubles + 1):
        if tally.double_junks is not None and doubles != min(tally.double_junks, most_doubles):
            continue
        for chosen in range(1 << len(bonus)):
            worth = sum(value for j, value in enumerate(bonus) if chosen >> j & 1)
            single = tally.junk_value - 2 * (doubles + cup) - worth
            held = single + doubles + cup + chosen.bit_count()
            if 0 <= single <= singles and (tally.junk_cards is None or tally.junk_cards == held):
                return True
    return False


def _junk_unfit(tally: Tally, rules: GoStopRules) -> str:
    """Why no pile of junk cards has the tally's junk counts, and what the deck offers."""
    given = f"junk_value {tally.junk_value}"
    if tally.junk_cards is not None:
        given += f" in {tally.junk_cards} card(s)"
    if tally.double_junks is not None:
        given += f" with {tally.double_junks} double junk(s)"
    bonus = [str(value) for _bit, value in tables_for(rules).bonus_values]
    offer = (
        f"{cards.SINGLE_JUNK.bit_count()} single junk worth 1, "
        f"{cards.DOUBLE_JUNK.bit_count()} double junks worth 2"
        + (f", bonus cards worth {', '.join(bonus)}" if bonus else "")
    )
    return (
        f"no pile of this deck's junk cards ({offer}) has {given}; the sake cup and the May "
        "bridge count among the animals (has_gukjin, has_may_animal), not here: correct the "
        "junk counts"
    )


def _max_junk_value(rules: GoStopRules) -> int:
    """The junk value of every junk card in the deck, switchable animals read as junk."""
    t = tables_for(rules)
    bonus = sum(value for _bit, value in t.bonus_values)
    doubles = (t.fixed_double | t.switchable).bit_count()
    return cards.SINGLE_JUNK.bit_count() + 2 * doubles + bonus


def _raw_of_mask(mask: int, rules: GoStopRules) -> _Raw:
    flags = {name for name, bits in _ONE_OF_A_KIND if mask & bits == bits}
    return _Raw(
        brights=(mask & cards.BRIGHTS).bit_count(),
        animals=(mask & cards.ANIMALS).bit_count(),
        ribbons=(mask & cards.RIBBONS).bit_count(),
        junk_value=score_mask(mask, 0, tables_for(rules)).junk_value or 0,
        flags=frozenset(flags),
    )


_ONE_OF_A_KIND: Final = (
    ("rain_bright", cards.RAIN_BRIGHT),
    ("rain_ribbon", cards.DEC_RIBBON),
    ("godori", cards.GODORI),
    ("hongdan", cards.HONGDAN),
    ("cheongdan", cards.CHEONGDAN),
    ("chodan", cards.CHODAN),
    ("has_gukjin", cards.GUKJIN),
    ("has_may_animal", cards.MAY_ANIMAL),
)


# What each one-of-a-kind flag names, for the messages.
_NAMED: Final = {
    "rain_bright": "the rain man",
    "rain_ribbon": "the December ribbon",
    "godori": "the three birds",
    "hongdan": "the three hongdan ribbons",
    "cheongdan": "the three cheongdan ribbons",
    "chodan": "the three chodan ribbons",
    "has_gukjin": "the sake cup",
    "has_may_animal": "the May bridge",
}


class _Kind(NamedTuple):
    """A kind of card a tally counts, split into parts: the cards each of its flags names,
    then the rest (flag "")."""

    name: str  # the tally's count of this kind: brights, animals, ribbons
    parts: tuple[tuple[str, int], ...]  # (flag, card bits)


def _kinds() -> tuple[_Kind, ...]:
    found: list[_Kind] = []
    for count, mask in (
        ("brights", cards.BRIGHTS),
        ("animals", cards.ANIMALS),
        ("ribbons", cards.RIBBONS),
    ):
        parts = [(flag, bits) for flag, bits in _ONE_OF_A_KIND if bits & mask == bits]
        rest = mask
        for _flag, bits in parts:
            if bits & ~rest:  # pragma: no cover - a new flag overlapping another
                raise ImportError(f"calculator.piles: the {count} flags overlap")
            rest &= ~bits
        if rest:
            parts.append(("", rest))
        found.append(_Kind(count, tuple(parts)))
    return tuple(found)


_KINDS: Final = _kinds()

Ranges = tuple[tuple[int, int], ...]
"""Per part of a kind, the fewest and the most of its cards a pile holds."""


def _ranges_of_mask(mask: int, kind: _Kind) -> Ranges:
    return tuple(((mask & bits).bit_count(), (mask & bits).bit_count()) for _f, bits in kind.parts)


# Flags a tally may leave unset although it holds their card: SPEC §4's tally has none of
# them (the scorekeeper page asks for no May bridge), and they change the score only under
# the rules that read them. Not set, they say nothing of the pile.
_UNSTATED: Final = frozenset({"has_gukjin", "has_may_animal", "rain_ribbon"})


def _ranges_of_tally(tally: Tally, kind: _Kind, rules: GoStopRules) -> Ranges:
    """A flag set: all the cards it names; a flag not set: all but one at most (one of
    :data:`_UNSTATED`: any of its cards)."""
    found: list[tuple[int, int]] = []
    for flag, bits in kind.parts:
        size = bits.bit_count()
        if not flag or (flag in _UNSTATED and not getattr(tally, flag)):
            found.append((0, size))
        elif getattr(tally, flag):
            # 비초단: the December ribbon may stand in for one chodan ribbon
            stand_in = (
                bits == cards.CHODAN and tally.rain_ribbon and rules.dec_ribbon_completes_chodan
            )
            found.append((size - int(stand_in), size))
        else:
            found.append((0, size - 1))
    return tuple(found)


def _check_most(
    tally: Tally, at: tuple[str, int, str], rules: GoStopRules, problems: Problems
) -> None:
    """Each count at most what the pile's flags leave room for: a flag not set leaves out
    at least one of the cards it names (nine animals are every animal, the three birds
    among them)."""
    for kind in _KINDS:
        held = int(getattr(tally, kind.name))
        ranges = _ranges_of_tally(tally, kind, rules)
        least = sum(lo for lo, _hi in ranges)
        most = sum(hi for _lo, hi in ranges)
        if held <= most or held > _TALLY_LIMITS[kind.name] or held < least:
            continue  # possible, or another check names it
        unset = [
            flag
            for flag, _bits in kind.parts
            if flag and flag not in _UNSTATED and not getattr(tally, flag)
        ]
        if len(unset) == 1:
            problems.add(
                "impossible_tally",
                f"{held} {kind.name} cannot be held without {_NAMED[unset[0]]}: set "
                f"{unset[0]} to true, or count fewer {kind.name}",
                *at,
                unset[0],
            )
        else:
            problems.add(
                "impossible_tally",
                f"{kind.name} is {held}, but a pile without "
                f"{_or([_NAMED[flag] for flag in unset])} holds at most {most}: set the "
                f"flags of what is held ({_or(unset)}) to true, or count fewer {kind.name}",
                *at,
                kind.name,
            )


def _or(words: list[str]) -> str:
    """``a, b or c``."""
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def _raw_of_tally(tally: Tally) -> _Raw:
    flags = {name for name, _bits in _ONE_OF_A_KIND if getattr(tally, name)}
    return _Raw(tally.brights, tally.animals, tally.ribbons, tally.junk_value, frozenset(flags))


def _check_deck(raws: list[tuple[str, _Raw]], rules: GoStopRules, problems: Problems) -> None:
    """The piles together may not hold more than one deck does."""
    limits = {
        "brights": 5,
        "animals": 9,
        "ribbons": 10,
        "junk_value": _max_junk_value(rules),
    }
    for name, limit in limits.items():
        held = [(pid, getattr(raw, name)) for pid, raw in raws if getattr(raw, name)]
        total = sum(n for _pid, n in held)
        if total > limit:
            shares = ", ".join(f"{pid} {n}" for pid, n in held)
            problems.add(
                "deck_exceeded",
                f"the players hold {total} {name.replace('_', ' ')} in all ({shares}); "
                f"one deck has {limit}",
                "players",
            )
    for flag, _bits in _ONE_OF_A_KIND:
        holders = [pid for pid, raw in raws if flag in raw.flags]
        if len(holders) > 1:
            problems.add(
                "deck_exceeded",
                f"{flag.replace('_', ' ')} is held by {', '.join(holders)}; one deck has it once",
                "players",
            )


class _Holding(NamedTuple):
    """What one player holds of a kind of card: how many, and per part the fewest and the
    most (see :func:`_check_fit`)."""

    player: str
    at: tuple[str | int, ...]  # the count's field; () for listed cards
    held: int
    ranges: Ranges


def _holdings(
    hand: Hand, rules: GoStopRules, entries: list[Entry | Tally], kind: _Kind
) -> list[_Holding]:
    """Every player's holding of ``kind``; a sitter's sold count last (it names no card)."""
    found: list[_Holding] = []
    sold: list[_Holding] = []
    for i, player in enumerate(hand.players):
        entry = entries[i]
        if isinstance(entry, Pile) and player.tally is not None:
            at: tuple[str | int, ...] = ("players", i, "tally", kind.name)
            held = int(getattr(player.tally, kind.name))
            found.append(_Holding(player.id, at, held, _ranges_of_tally(player.tally, kind, rules)))
        elif isinstance(entry, int) or (player.sits_out and player.hand):
            mask = entry if isinstance(entry, int) else sum(map(_BIT, player.hand or ()))
            held = sum(lo for lo, _hi in _ranges_of_mask(mask, kind))
            found.append(_Holding(player.id, (), held, _ranges_of_mask(mask, kind)))
        elif (
            player.sits_out
            and player.sold_brights
            and kind.name == "brights"
            and rules.gwangpal_cards is GwangpalCards.BRIGHTS
        ):
            sold.append(_sold_holding(player.sold_brights, i, player.id, kind, rules))
    return found + sold


def _sold_holding(sold: int, i: int, player: str, kind: _Kind, rules: GoStopRules) -> _Holding:
    """A sitter that sells ``sold`` brights holds that many; a lone rain man sells only
    under gwangpal_rain_alone, so one bright sold is another one unless the rules say so."""
    alone_unsold = sold < 2 and not rules.gwangpal_rain_alone
    ranges = tuple(
        (0, 0 if bits == cards.RAIN_BRIGHT and alone_unsold else bits.bit_count())
        for _flag, bits in kind.parts
    )
    return _Holding(player, ("players", i, "sold_brights"), sold, ranges)


def _check_fit(
    hand: Hand, rules: GoStopRules, entries: list[Entry | Tally], problems: Problems
) -> None:
    """The holdings of each kind fit one deck, the cards each flag names included.

    A transport problem: each holding places its count in the parts of the kind, between
    its fewest and most per part, and no part gives more cards than the deck has. After
    placing the fewest, it is possible exactly when no set T of parts is short (max-flow
    min-cut): the cards that can only go to T, each holding's count less the room it has
    outside T, are at most what T has left.
    """
    for kind in _KINDS:
        holdings = _holdings(hand, rules, entries, kind)
        if not any(h.at for h in holdings):
            continue  # listed cards only: already checked card by card
        piles = [h for h in holdings if h.at[-1:] != ("sold_brights",)]
        # the players' piles first: a sale is named only when the piles fit without it
        if len(piles) == len(holdings) or _fits(kind, piles, problems):
            _fits(kind, holdings, problems)
    if rules.gwangpal_cards is not GwangpalCards.BRIGHTS and not problems:
        _check_sale(hand, rules, entries, problems)


def _check_sale(
    hand: Hand, rules: GoStopRules, entries: list[Entry | Tally], problems: Problems
) -> None:
    """A sale of more than brights (gwangpal_cards: fudawiki) given as a count: at most the
    selling cards the players' piles leave in the deck. A tally's bonus cards are not known,
    so only its brights, sake cup and double junks are counted against it."""
    sells = selling_cards(rules) & tables_for(rules).in_deck
    held = 0
    for i, player in enumerate(hand.players):
        entry, tally = entries[i], player.tally
        if isinstance(entry, int):
            held += (entry & sells).bit_count()
        elif tally is not None and isinstance(entry, Pile):
            doubles = min(tally.double_junks or 0, cards.DOUBLE_JUNK.bit_count())
            held += tally.brights + int(tally.has_gukjin) + doubles
    for i, player in enumerate(hand.players):
        sold = player.sold_brights or 0
        if player.sits_out and sold > sells.bit_count() - held:
            problems.add(
                "deck_exceeded",
                f"sold_brights is {sold}, but of the {sells.bit_count()} cards that sell under "
                f"this rule set the players' piles hold at least {held}: sell fewer, or "
                "correct the piles",
                "players",
                i,
                "sold_brights",
            )


def _fits(kind: _Kind, holdings: list[_Holding], problems: Problems) -> bool:
    """Whether ``holdings`` fit one deck (see :func:`_check_fit`); if not, a problem says why."""
    left = [bits.bit_count() for _flag, bits in kind.parts]
    counts: list[int] = []
    rooms: list[list[int]] = []
    for holding in holdings:
        count = holding.held
        room: list[int] = []
        for j, (lo, hi) in enumerate(holding.ranges):
            left[j] -= lo
            count -= lo
            room.append(hi - lo)
        counts.append(count)
        rooms.append(room)
    over = next((j for j, n in enumerate(left) if n < 0), -1)
    if over >= 0:
        flag, bits = kind.parts[over]
        takers = [h for h in holdings if h.ranges[over][0]]
        shares = ", ".join(f"{h.player} {h.ranges[over][0]}" for h in takers)
        at = next(((*h.at[:-1], flag) for h in reversed(takers) if h.at), ("players",))
        problems.add(
            "deck_exceeded",
            f"{_part_words(kind, [flag])} are held by more than one pile ({shares}: "
            f"{bits.bit_count() - left[over]} cards), and the deck has {bits.bit_count()}; "
            f"set {flag} to false where the player does not hold them all, or correct the "
            "cards",
            *at,
        )
        return False
    total = sum(counts)
    everything = (1 << len(kind.parts)) - 1
    for cut in range(everything, 0, -1):  # the whole kind first: the plainest reason
        outside = [j for j in range(len(kind.parts)) if not cut >> j & 1]
        placed = [min(c, sum(r[j] for j in outside)) for c, r in zip(counts, rooms, strict=True)]
        there = sum(left[j] for j in range(len(kind.parts)) if cut >> j & 1)
        must = total - sum(placed)
        if must > there:
            inside = [kind.parts[j][0] for j in range(len(kind.parts)) if cut >> j & 1]
            _unfit(
                kind,
                holdings,
                [c > p for c, p in zip(counts, placed, strict=True)],
                inside,
                must,
                there,
                problems,
            )
            return False
    return True


def _unfit(
    kind: _Kind,
    holdings: list[_Holding],
    short: list[bool],
    inside: list[str],
    must: int,
    there: int,
    problems: Problems,
) -> None:
    """The problem of holdings that do not fit: ``must`` of their cards can only be in the
    parts ``inside``, which have ``there`` left; named at the last count that is short."""
    at = next(
        (h.at for h, s in zip(reversed(holdings), reversed(short), strict=True) if s and h.at),
        ("players",),
    )
    size = sum(bits.bit_count() for _flag, bits in kind.parts)
    shares = ", ".join(f"{h.player} {h.held}" for h in holdings if h.held and h.at != at)
    if at[-1] == "sold_brights":
        sold = holdings[-1].held
        held = sum(h.held for h in holdings[:-1])
        detail = f"sold_brights is {sold}, but the players hold {held} of the deck's {size} brights"
        detail += f" ({shares})" if shares else ""
        if held + sold <= size:
            detail += (
                "; the bright left is the rain man, and it does not sell alone under this "
                "rule set (gwangpal_rain_alone)"
            )
        problems.add("deck_exceeded", detail + ": sell fewer, or correct the brights held", *at)
        return
    shares = ", ".join(f"{h.player} {h.held}" for h in holdings if h.held)
    problems.add(
        "deck_exceeded",
        f"the {kind.name} given do not fit one deck ({shares}): {must} of them can only be "
        f"{_part_words(kind, inside)}, and the deck has {there} of those left; set the flags "
        f"of the cards each player holds ({_or([f for f, _b in kind.parts if f])}), or correct "
        "the counts",
        *at,
    )


def _part_words(kind: _Kind, flags: list[str]) -> str:
    """The cards of some parts of a kind, in words."""
    named = [_NAMED[flag] for flag in flags if flag]
    if len(flags) == len(kind.parts):
        return kind.name
    if "" not in flags:
        return _or(named)
    others = [_NAMED[flag] for flag, _bits in kind.parts if flag and flag not in flags]
    rest = f"{kind.name} other than {_or(others)}" if others else kind.name
    return _or([rest, *named]) if named else rest
