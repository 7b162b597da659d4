"""Whether the piles of a hand fit one deck, when some are given as counts (tallies).

Listed cards are checked card by card (:mod:`calculator.piles`); a tally names no card, so
its counts and flags are checked here: each count at most what its flags leave room for
(:func:`check_most`), the piles together at most one deck (:func:`check_deck`), and the
holdings of each kind of card placeable in one deck, the cards each flag names included
(:func:`check_fit`, a transport problem), a sitter's sale as well. The cards a tally
leaves unsaid but must hold are read from the same problem (:func:`forced`).

Speed: a hand with a tally asks "do these fit?" a few times per kind (check_fit, then
forced); each holding's room of every set of parts is summed once (:func:`_room`), so a
cut costs one lookup per holding (:func:`_slack`), and forced reads what each cut has to
spare rather than trying each card out (:func:`_needs`). The cut loop that words a
problem (:func:`_fits_in`) runs only once the answer is no; tests/test_deck_fit.py keeps
the loop and the trials as they were and checks that the answers are the same.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Final, NamedTuple

from calculator import cards
from calculator.errors import Problems
from calculator.hand import Hand, Tally
from calculator.rule_choices import GwangpalCards
from calculator.rules import GoStopRules
from calculator.scoring import Pile, score_mask
from calculator.side import selling_cards
from calculator.tables import tables_for

if TYPE_CHECKING:
    from calculator.piles import Entry

_BIT: Final = cards.BIT.__getitem__


class Raw(NamedTuple):
    """What a pile holds, before any rule: for the whole-deck checks."""

    brights: int
    animals: int
    ribbons: int
    junk_value: int
    flags: frozenset[str]  # one-of-a-kind holdings: rain_bright, godori, hongdan, gukjin…


# The most of each count one pile can hold: the deck's cards of that kind (double junks:
# the two double junks and the sake cup when a rule set fixes it as one).
TALLY_LIMITS: Final = {
    "brights": cards.BRIGHTS.bit_count(),
    "animals": cards.ANIMALS.bit_count(),
    "ribbons": cards.RIBBONS.bit_count(),
    "double_junks": (cards.DOUBLE_JUNK | cards.GUKJIN).bit_count(),
}


def max_junk_value(rules: GoStopRules) -> int:
    """The junk value of every junk card in the deck, switchable animals read as junk."""
    t = tables_for(rules)
    bonus = sum(value for _bit, value in t.bonus_values)
    doubles = (t.fixed_double | t.switchable).bit_count()
    return cards.SINGLE_JUNK.bit_count() + 2 * doubles + bonus


def raw_of_mask(mask: int, rules: GoStopRules) -> Raw:
    flags = {name for name, bits in _ONE_OF_A_KIND if mask & bits == bits}
    return Raw(
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
    sizes: tuple[int, ...]  # per part, the deck's cards


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
        found.append(_Kind(count, tuple(parts), tuple(bits.bit_count() for _f, bits in parts)))
    return tuple(found)


_KINDS: Final = _kinds()

Ranges = tuple[tuple[int, int], ...]
"""Per part of a kind, the fewest and the most of its cards a pile holds."""


# Flags a tally may leave unset although it holds their card: SPEC §4's tally has none of
# them (the scorekeeper page asks for no May bridge), and they change the score only under
# the rules that read them. Not set, they say nothing of the pile: the pile holds the card
# when the counts force it (:func:`forced`), and is read as not holding it otherwise. The
# flags SPEC §4 names (rain_bright, godori and the ribbon sets) are asked for: one left
# false says the pile does not hold all its cards, and counts that force them are refused.
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


def check_most(
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
        if held <= most or held > TALLY_LIMITS[kind.name] or held < least:
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


def raw_of_tally(tally: Tally) -> Raw:
    flags = {name for name, _bits in _ONE_OF_A_KIND if getattr(tally, name)}
    return Raw(tally.brights, tally.animals, tally.ribbons, tally.junk_value, frozenset(flags))


def check_deck(raws: list[tuple[str, Raw]], rules: GoStopRules, problems: Problems) -> None:
    """The piles together may not hold more than one deck does."""
    limits = {
        "brights": 5,
        "animals": 9,
        "ribbons": 10,
        "junk_value": max_junk_value(rules),
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


class _Room(NamedTuple):
    """A holding in one of its ranges, for the cut test of :func:`check_fit` without
    words: its count less the fewest of every part (to place), those fewest, and the room
    above them of every set of parts (indexed by the set's bits: bit j, part j)."""

    unplaced: int
    lows: tuple[int, ...]
    room: tuple[int, ...]


def _room(held: int, ranges: Ranges) -> _Room:
    lows: list[int] = []
    room: list[int] = [0]
    for lo, hi in ranges:
        # the sets with this part are the sets before it, each with its room added
        extra: int = hi - lo
        room += [r + extra for r in room]
        lows.append(lo)
        held -= lo
    return _Room(held, tuple(lows), tuple(room))


class _Holding(NamedTuple):
    """What one player holds of a kind of card: how many, and per part the fewest and the
    most (see :func:`check_fit`); ``also``, other ranges it may hold instead; ``rooms``,
    the holding in each of them for the cut test (built by :func:`_holding`)."""

    player: str
    at: tuple[str | int, ...]  # the count's field; () for listed cards
    held: int
    ranges: Ranges
    also: tuple[Ranges, ...]
    rooms: tuple[_Room, ...]


def _holding(
    player: str,
    at: tuple[str | int, ...],
    held: int,
    ranges: Ranges,
    also: tuple[Ranges, ...] = (),
) -> _Holding:
    if also:
        return _Holding(
            player, at, held, ranges, also, tuple(_room(held, r) for r in (ranges, *also))
        )
    return _Holding(player, at, held, ranges, also, (_room(held, ranges),))


def _listed(player: str, mask: int, kind: _Kind) -> _Holding:
    """Listed cards: per part, exactly the cards listed; none left to place."""
    lows: list[int] = []
    ranges: list[tuple[int, int]] = []
    for _flag, bits in kind.parts:
        n = (mask & bits).bit_count()
        lows.append(n)
        ranges.append((n, n))
    room = _Room(0, tuple(lows), (0,) * (1 << len(lows)))
    return _Holding(player, (), sum(lows), tuple(ranges), (), (room,))


def _also_of_tally(tally: Tally, kind: _Kind, rules: GoStopRules) -> tuple[Ranges, ...]:
    """비초단 with rain_ribbon unsaid: a chodan given is its three ribbons (the December one
    perhaps held as well), or two of them and the December ribbon standing in."""
    stands_in = tally.chodan and not tally.rain_ribbon and rules.dec_ribbon_completes_chodan
    if stands_in and any(flag == "chodan" for flag, _bits in kind.parts):
        return (_ranges_of_tally(tally._replace(rain_ribbon=True), kind, rules),)
    return ()


Holdings = tuple[tuple[_Holding, ...], ...]
"""Per kind of card a tally counts (brights, animals, ribbons), every player's holding."""


def holdings(hand: Hand, rules: GoStopRules, entries: list[Entry | Tally]) -> Holdings:
    """Every player's holding of each kind of card, for :func:`check_fit` and
    :func:`forced`: a tally's counts and flags, a listed pile's cards."""
    return tuple(tuple(_holdings(hand, rules, entries, kind)) for kind in _KINDS)


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
            ranges = _ranges_of_tally(player.tally, kind, rules)
            also = _also_of_tally(player.tally, kind, rules)
            found.append(_holding(player.id, at, held, ranges, also))
        elif isinstance(entry, int) or (player.sits_out and player.hand):
            mask = entry if isinstance(entry, int) else sum(map(_BIT, player.hand or ()))
            found.append(_listed(player.id, mask, kind))
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
    return _holding(player, ("players", i, "sold_brights"), sold, ranges)


def check_fit(
    hand: Hand,
    rules: GoStopRules,
    entries: list[Entry | Tally],
    held: Holdings,
    problems: Problems,
) -> None:
    """The holdings of each kind fit one deck, the cards each flag names included.

    A transport problem: each holding places its count in the parts of the kind, between
    its fewest and most per part, and no part gives more cards than the deck has. After
    placing the fewest, it is possible exactly when no set T of parts is short (max-flow
    min-cut): the cards that can only go to T, each holding's count less the room it has
    outside T, are at most what T has left. ``held``: :func:`holdings` of the hand.
    """
    for kind, kind_held in zip(_KINDS, held, strict=True):
        if not any(h.at for h in kind_held):
            continue  # listed cards only: already checked card by card
        piles = [h for h in kind_held if h.at[-1:] != ("sold_brights",)]
        # the players' piles first: a sale is named only when the piles fit without it
        if len(piles) == len(kind_held) or _fits(kind, piles, problems):
            _fits(kind, list(kind_held), problems)
    if rules.gwangpal_cards is not GwangpalCards.BRIGHTS and not problems:
        _check_sale(hand, rules, entries, held, problems)


Forced = dict[int, frozenset[str]]
"""Per seat of a tally, the flags of :data:`_UNSTATED` it left false whose card it holds."""


def forced(hand: Hand, held: Holdings) -> Forced:
    """The cards of :data:`_UNSTATED` that a tally leaves unsaid but must hold: every way
    one deck deals the piles (:func:`check_fit`'s transport problem) puts the card in it,
    as its own counts do (nine animals are all of them) or the other piles' do (the
    listed piles hold the eight other animals: one animal tallied is the sake cup).
    Piles that do not fit one deck (a hand stored before the check) force nothing.
    ``held``: :func:`holdings` of the hand."""
    found: dict[int, set[str]] = {}
    for kind, kind_held in zip(_KINDS, held, strict=True):
        if not any(flag in _UNSTATED for flag, _bits in kind.parts):
            continue  # brights: nothing to force
        if not any(h.at for h in kind_held):
            continue
        options = [h.rooms for h in kind_held]
        # each holding one way (no other ranges, as a rule): the cuts' slack, once
        single = all(len(rooms) == 1 for rooms in options)
        slack = _slack(kind, [rooms[0] for rooms in options]) if single else []
        if not (slack if single else _fits_any(kind, options)):
            continue
        for n, holding in enumerate(kind_held):
            if holding.at[-1:] != (kind.name,):
                continue  # listed cards, or a sale
            seat = int(holding.at[1])
            tally = hand.players[seat].tally
            for j, (flag, _bits) in enumerate(kind.parts):
                if flag not in _UNSTATED or getattr(tally, flag):
                    continue
                if single:
                    held_anyway = _needs(holding.rooms[0], j, slack)
                else:
                    # the ranges that may leave the card out, with none of it
                    trial = tuple(
                        _room(holding.held, (*ranges[:j], (0, 0), *ranges[j + 1 :]))
                        for ranges in (holding.ranges, *holding.also)
                        if not ranges[j][0]
                    )
                    others = [*options[:n], trial, *options[n + 1 :]]
                    held_anyway = not trial or not _fits_any(kind, others)
                if held_anyway:
                    found.setdefault(seat, set()).add(flag)
    return {seat: frozenset(flags) for seat, flags in found.items()}


def _needs(holding: _Room, j: int, slack: list[int]) -> bool:
    """Whether a holding must take some of part ``j``: whether, the other holdings as
    they are, it no longer fits when it takes none of it (forced()'s trial). ``slack``:
    :func:`_slack` of the holdings as they are, which fit.

    A holding whose fewest of part j are more than none takes some. Otherwise taking none
    takes ``r``, its room in j, from its room in every set of parts with j; the deck's
    cards and the other holdings stay. A cut T with j inside keeps the holding's room
    outside it, and so its slack. A cut without j: the holding places
    ``min(count, room outside T - r)`` outside T rather than ``min(count, room outside
    T)``, and the difference must go to T, which has ``slack[T]`` to spare. So taking none
    of j fits exactly when the count fits the room left (:func:`_slack`'s first test) and
    every cut without j has the difference to spare."""
    if holding.lows[j]:
        return True
    count: int = holding.unplaced
    room: tuple[int, ...] = holding.room
    r: int = room[1 << j]
    if count > room[-1] - r:
        return True
    everything: int = len(room) - 1
    for cut in range(1, everything + 1):
        if cut >> j & 1:
            continue
        outside: int = room[everything ^ cut]
        with_j: int = count if count < outside else outside
        without: int = count if count < outside - r else outside - r
        if with_j - without > slack[cut]:
            return True
    return False


def _check_sale(
    hand: Hand,
    rules: GoStopRules,
    entries: list[Entry | Tally],
    held: Holdings,
    problems: Problems,
) -> None:
    """A sale of more than brights (gwangpal_cards: fudawiki) given as a count: at most the
    selling cards the players' piles leave in the deck. A tally's bonus cards are not known,
    so only its brights, sake cup (said, or :func:`forced`) and double junks are counted
    against it."""
    sells = selling_cards(rules) & tables_for(rules).in_deck
    held_cards = 0
    unsaid = forced(hand, held)
    for i, player in enumerate(hand.players):
        entry, tally = entries[i], player.tally
        if isinstance(entry, int):
            held_cards += (entry & sells).bit_count()
        elif tally is not None and isinstance(entry, Pile):
            doubles = min(tally.double_junks or 0, cards.DOUBLE_JUNK.bit_count())
            cup = tally.has_gukjin or "has_gukjin" in unsaid.get(i, ())
            held_cards += tally.brights + int(cup) + doubles
    for i, player in enumerate(hand.players):
        sold = player.sold_brights or 0
        if player.sits_out and sold > sells.bit_count() - held_cards:
            problems.add(
                "deck_exceeded",
                f"sold_brights is {sold}, but of the {sells.bit_count()} cards that sell under "
                f"this rule set the players' piles hold at least {held_cards}: sell fewer, or "
                "correct the piles",
                "players",
                i,
                "sold_brights",
            )


def _fits(kind: _Kind, holdings: list[_Holding], problems: Problems | None) -> bool:
    """Whether ``holdings`` fit one deck (see :func:`check_fit`), each in its ranges or
    one of its others; if not, a problem says why (``problems`` None: only whether)."""
    if _fits_any(kind, [h.rooms for h in holdings]):
        return True
    if problems is not None:
        _fits_in(kind, holdings, problems)  # named in the ranges first given
    return False


def _fits_any(kind: _Kind, options: list[tuple[_Room, ...]]) -> bool:
    """Whether the holdings fit one deck, each in one of its ``options``."""
    if all(len(rooms) == 1 for rooms in options):  # the common case: no other ranges
        return _fit_rooms(kind, [rooms[0] for rooms in options])
    return any(_fit_rooms(kind, list(chosen)) for chosen in itertools.product(*options))


def _fit_rooms(kind: _Kind, rooms: list[_Room]) -> bool:
    """Whether holdings fit one deck: :func:`_fits_in`'s test without the words, the room
    of every set of parts summed once (:func:`_room`), not per cut."""
    return bool(_slack(kind, rooms))


def _slack(kind: _Kind, rooms: list[_Room]) -> list[int]:
    """If the holdings fit one deck, per cut (a set of parts, by its bits) how many more
    cards the deck has left there than must go there: :func:`_fits_in`'s test without the
    words, the room of every set of parts summed once (:func:`_room`). Empty if they do
    not fit."""
    left: list[int] = list(kind.sizes)
    total: int = 0
    fixed: int = 0  # what the holdings with nothing left to place place outside any cut
    free: list[_Room] = []
    for holding in rooms:
        # a pile's count past the room its own ranges leave: check_most refuses that
        # before check_fit, so only a trial of forced() meets it
        if holding.unplaced > holding.room[-1]:
            return []
        total += holding.unplaced
        for j, lo in enumerate(holding.lows):
            left[j] -= lo
        if holding.unplaced > 0:
            free.append(holding)
        else:  # listed cards: the least of its count and any room is its count
            fixed += holding.unplaced
    there: list[int] = [0]  # what the deck has left of every set of parts
    for n in left:
        if n < 0:
            return []  # a part given more cards than the deck has
        there += [t + n for t in there]
    if not free:
        return there  # nothing left to place: nothing must go anywhere
    everything: int = len(there) - 1
    slack: list[int] = [0] * (everything + 1)  # the empty cut: nothing must go there
    for cut in range(1, everything + 1):
        outside: int = everything ^ cut
        placed: int = fixed
        for holding in free:
            unplaced: int = holding.unplaced
            room: int = holding.room[outside]
            placed += unplaced if unplaced < room else room
        spare: int = there[cut] - (total - placed)
        if spare < 0:
            return []
        slack[cut] = spare
    return slack


def _fits_in(kind: _Kind, holdings: list[_Holding], problems: Problems) -> bool:
    """Whether ``holdings`` fit one deck, each in its ``ranges``; if not, a problem says
    why. The cut loop the words come from; :func:`_fit_rooms` answers the same faster."""
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
            short = [c > p for c, p in zip(counts, placed, strict=True)]
            _unfit(kind, holdings, short, inside, must, there, problems)
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
