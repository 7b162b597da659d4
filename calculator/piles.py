"""From each player's entry (cards, tally or declaration) to a checked :class:`Pile`.

Cards are checked across the whole table: an unknown ID, a bonus card the rule set does
not put in the deck, or a card held twice (naming both holders) is an
:class:`~calculator.errors.ImpossibleHandError`. Tallies are checked for consistency with
themselves and, together with the listed piles, against what one deck holds.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

from calculator import cards, deck_fit
from calculator.errors import ImpossibleHandError, Problems, counted, held_twice
from calculator.hand import Category, Declared, Hand, OutcomeType, Tally
from calculator.limits import Suggestions
from calculator.rule_choices import PibakCount
from calculator.rules import GoStopRules
from calculator.scoring import Pile, least_points
from calculator.tables import tables_for

if TYPE_CHECKING:
    # a native 64-bit integer, compiled; ``int`` at run time (as in calculator.scoring)
    from mypy_extensions import i64

Entry = int | Pile | Declared | None
"""A player's checked pile: a card mask (captured), a Pile (tally), a Declared, or None
for the player who sits out."""


def read_piles(hand: Hand, rules: GoStopRules, *, entering: bool = True) -> list[Entry]:
    """Each player's checked pile, in seating order; raises on impossible cards or counts.

    ``entering`` False leaves out the refusals of counts and flags that cannot fit the
    deck (:func:`~calculator.deck_fit.check_most`, :func:`_junk_fits`,
    :func:`~calculator.deck_fit.check_fit`, added 2026-12-05): a hand a table stored
    before them is scored again as it was then. Either way a card a tally leaves unsaid
    but its counts force is held (:func:`~calculator.deck_fit.forced`), where the piles
    fit one deck: a stored hand is scored as its cards would be, as a new one is."""
    in_deck = tables_for(rules).in_deck
    # masks in native 64-bit integers (i64, the deck's 52 bits): on tagged ints each
    # shift, test and union of the loop below tests its operands' tags first
    not_dealt: i64 = ~in_deck
    taken: i64 = 0
    one: i64 = _ONE  # a literal ``1 << place`` is compiled as a C int: past bit 31, wrong
    entries: list[Entry | Tally] = []
    tallied = declared = False
    try:
        for player in hand.players:
            ids = player.hand if player.sits_out else player.captured
            mask: i64 = 0
            if ids:
                # A plain loop: compiled (mypyc), masks stay machine integers; place_of
                # reads each ID without hashing it.
                for card_id in ids:
                    place = cards.place_of(card_id)
                    if place < 0:
                        raise KeyError  # no card ID: _diagnose says which
                    bit: i64 = one << place
                    if mask & bit:
                        raise KeyError  # held twice: _diagnose names both places
                    mask |= bit
                if mask & taken or mask & not_dealt:
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
                declared = True
                entries.append(player.declared)
    except (KeyError, TypeError):
        _diagnose(hand, in_deck)
    problems = _check_declared(hand, rules, entries) if declared and entering else None
    if tallied or any(player.sold_brights for player in hand.players):
        try:
            _read_tallies(hand, rules, entries, entering)
        except ImpossibleHandError as error:
            if not problems:
                raise
            problems.extend(error)  # every problem of the piles in one answer
    if problems:
        problems.raise_if_any(ImpossibleHandError)
    return cast(list[Entry], entries)  # no Tally is left: each became a Pile


def _check_declared(
    hand: Hand, rules: GoStopRules, entries: Sequence[Entry | Tally]
) -> Problems | None:
    """The problems of the declared piles whose points count — the winner's of a stop,
    every player's in a preview (whether it may stop) — that do not reach what the
    categories they say they scored are worth at least under the rules
    (:func:`~calculator.scoring.least_points`; with 멍따, its animals): 7 points from
    brights, animals, godori, ribbons and junk cannot be, when godori alone is worth 5
    (added 2026-12-07: a hand a table stored before is scored as it was then,
    ``entering`` False). None when there are none."""
    outcome = hand.outcome
    if outcome is not None and outcome.type is not OutcomeType.STOP:
        return None  # no player's points count
    problems = Problems()
    for i, entry in enumerate(entries):
        if not isinstance(entry, Declared) or not entry.scored:
            continue
        if outcome is not None and hand.players[i].id != outcome.winner:
            continue  # a loser's points pay nothing
        least = {
            category: least_points(category, rules, meongtta=entry.meongtta)
            for category in Category
            if category in entry.scored
        }
        total = sum(least.values())
        if entry.points < total:
            each = ", ".join(
                f"{category} {points}"
                + (
                    f" (멍따: {rules.meongtta_threshold} animals)"
                    if category == "animals" and entry.meongtta and rules.meongtta_enabled
                    else ""
                )
                for category, points in least.items()
            )
            problems.add(
                "points_below_scored",
                f"player {hand.players[i].id!r} declares {counted(entry.points, 'point')}, "
                f"but the categories in its scored are worth at least {total} under these "
                f"rules ({each}); give the points the pile scored, or leave out of scored "
                "what it did not score",
                "players",
                i,
                "declared",
                "points",
            )
    return problems if problems else None


def _read_tallies(
    hand: Hand, rules: GoStopRules, entries: list[Entry | Tally], entering: bool
) -> None:
    """Check the tallies and a sitter's sold count, alone and with the listed piles against
    one deck; turn each tally into a Pile in ``entries``."""
    problems = Problems()
    raws = []
    outcome = hand.outcome
    stop = outcome is not None and outcome.type is OutcomeType.STOP
    for i, player in enumerate(hand.players):
        tally = player.tally
        if tally is not None and not player.sits_out:
            # the optional counts that can change what this hand pays (or, in a preview,
            # the points it shows): a loser's junk cards for 피박 by cards, the three
            # double junks of the winner (in a preview: of any player)
            wins = outcome is None or (stop and outcome.winner == player.id)
            needs = _Needs(
                junk_cards=stop and not wins and rules.pibak_count is PibakCount.CARDS,
                double_junks=wins and bool(rules.three_double_pi_bonus),
                stop=stop,
            )
            entries[i] = _pile_of_tally(tally, i, rules, problems, entering, needs)
            raws.append((player.id, deck_fit.raw_of_tally(tally)))
        else:
            entry = entries[i]
            mask = (
                entry
                if isinstance(entry, int)
                else (sum(map(_BIT, player.hand)) if player.sits_out and player.hand else 0)
            )
            if mask:
                raws.append((player.id, deck_fit.raw_of_mask(mask, rules)))
    problems.raise_if_any(ImpossibleHandError)
    deck_fit.check_deck(raws, rules, problems)
    problems.raise_if_any(ImpossibleHandError)
    held = deck_fit.holdings(hand, rules, entries)
    if entering:
        deck_fit.check_fit(hand, rules, entries, held, problems)
        problems.raise_if_any(ImpossibleHandError)
    # a card the tally left unsaid (has_gukjin, has_may_animal, rain_ribbon) that the
    # counts force into the pile is held, as the cards would be
    unsaid = deck_fit.forced(hand, held)
    for i, flags in unsaid.items():
        tally = hand.players[i].tally
        assert tally is not None  # forced() names tallies only
        entries[i] = _pile(tally._replace(**dict.fromkeys(flags, True)), rules)
    if entering:
        _check_cup_once(hand, unsaid, problems)
        problems.raise_if_any(ImpossibleHandError)


def _check_cup_once(hand: Hand, unsaid: deck_fit.Forced, problems: Problems) -> None:
    """A third double junk is the sake cup (:func:`_junk_fits`): not in a pile that holds
    it among its animals, said (has_gukjin) or forced by the counts."""
    most = cards.DOUBLE_JUNK.bit_count()
    for i, player in enumerate(hand.players):
        tally = player.tally
        if tally is None or player.sits_out or (tally.double_junks or 0) <= most:
            continue
        why = "has_gukjin is true" if tally.has_gukjin else ""
        if not why and "has_gukjin" in unsaid.get(i, ()):
            why = "the animals counted, beside the other piles, can only include it"
        if why:
            problems.add(
                "impossible_tally",
                f"double_junks is {tally.double_junks}: the one past the deck's {most} double "
                f"junks is the sake cup, which this pile holds among its animals ({why}); "
                f"count it once, among the animals (double_junks at most {most}, junk_value "
                "without it)",
                "players",
                i,
                "tally",
                "double_junks",
            )


_BIT: Final = cards.BIT.__getitem__
_ONE: i64 = 1
"""1, read by :func:`read_piles` at run time: compiled (mypyc), a local ``one = 1`` or a
Final is folded back into the literal, and ``1 << place`` then shifts a C int."""


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
    piles = [(hand.players[i].id, field, ids) for i, (field, ids) in enumerate(_cards_of(hand))]
    diagnose_cards(piles, in_deck, problems)
    problems.raise_if_any(ImpossibleHandError)
    raise AssertionError("the fast card check failed but no card is wrong")  # pragma: no cover


CARD_CODES: Final = frozenset({"unknown_card", "card_not_in_deck", "duplicate_card"})
"""The codes of :func:`diagnose_cards`' problems."""


def _not_in_the_deck(card_id: str) -> str:
    return (
        f"{card_id} is not in the deck under this rule set; give it a junk value "
        f"with the option {card_id.replace('-', '_')}_junk_value, or remove it"
    )


def diagnose_cards(
    piles: Sequence[tuple[str | None, str, Sequence[Any] | None]],
    in_deck: int,
    problems: Problems,
    besides: Collection[tuple[str | int, ...]] = (),
    absent: Callable[[str], str] = _not_in_the_deck,
) -> None:
    """Add to ``problems`` every unknown, out-of-deck or twice-held card of ``piles`` (per
    player in seating order: its id or None, the field its card IDs are in, the IDs;
    None: the field is not a list of them), with both holders' places; ``absent`` says what to do
    about a card the rule set does not deal (``card_not_in_deck``). The one reading of a
    hand's card IDs when its piles fail the fast check, of a balance hand's
    (calculator.balance), and of the piles of a request refused before it is read as a
    hand (calculator.api.schemas): a place in ``besides`` (refused already) is skipped,
    its card neither named nor counted as held."""
    suggestions = Suggestions()
    first: dict[str, tuple[str | None, str]] = {}  # card → (player id, "players/i/field/j")
    for i, (player_id, field, ids) in enumerate(piles):
        if ids is None or ("players", i, field) in besides:
            continue
        for j, card_id in enumerate(ids):
            if ("players", i, field, j) in besides:
                continue
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
                    absent(card_id),
                    "players",
                    i,
                    field,
                    j,
                )
            elif card_id in first:
                problems.add(
                    "duplicate_card",
                    held_twice(card_id, first[card_id], (player_id, where)),
                    "players",
                    i,
                    field,
                    j,
                )
            else:
                first[card_id] = (player_id, where)


class _Needs(NamedTuple):
    """The optional counts a tally must give in this hand (see :func:`_read_tallies`)."""

    junk_cards: bool
    double_junks: bool
    stop: bool  # the hand is a stop: the messages name the player's part in it


def _pile_of_tally(
    tally: Tally, i: int, rules: GoStopRules, problems: Problems, entering: bool, needs: _Needs
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
        limit = deck_fit.TALLY_LIMITS.get(name)
        if value is not None and limit is not None and value > limit:
            problems.add("impossible_tally", f"{name} is {value}; a deck has {limit}", *at, name)
    max_junk = deck_fit.max_junk_value(rules)
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
        f"{counted(sets, 'ribbon set')} {'needs' if sets == 1 else 'need'} {3 * sets} "
        f"ribbons of their months, and ribbons is "
        f"{tally.ribbons}" + (" with the December ribbon in it" if tally.rain_ribbon else ""),
    )
    if entering:
        deck_fit.check_most(tally, at, rules, problems)
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
    if entering and len(problems) == before and not _junk_fits(tally, rules):
        problems.add("impossible_tally", _junk_unfit(tally, rules), *at, "junk_value")
    if tally.junk_cards is None and needs.junk_cards:
        problems.add(
            "missing_count",
            "this rule set counts junk cards for 피박, and a loser's junk cards decide its "
            "피박; give junk_cards (the winner need not)",
            *at,
            "junk_cards",
        )
    if tally.double_junks is None and needs.double_junks:
        whose = (
            "the winner's pile pays it"
            if needs.stop
            else "a preview shows every player's points with it"
        )
        problems.add(
            "missing_count",
            f"this rule set pays a bonus for the three double junks, and {whose}; give "
            "double_junks (a loser of a stopped hand need not)",
            *at,
            "double_junks",
        )
    if len(problems) != before:
        return None
    return _pile(tally, rules)


def _pile(tally: Tally, rules: GoStopRules) -> Pile:
    """A checked tally as a :class:`Pile`: the switchable cards it holds kept apart, the
    December ribbon out of the ribbon total where the rules leave it out."""
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
        given += f" in {counted(tally.junk_cards, 'card')}"
    if tally.double_junks is not None:
        given += f" with {counted(tally.double_junks, 'double junk')}"
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
