"""The fast cut test of calculator.deck_fit answers as the cut loop it replaced.

check_fit and forced once asked "do these holdings fit one deck?" of the loop that words the
problem (:func:`calculator.deck_fit._fits_in`), which sums the room outside every cut anew;
they now ask :func:`~calculator.deck_fit._fits_any`, which sums each holding's room of every
set of parts once (2026-12-05, 15× faster for a hand with a tally). The loop as it was is
kept here as the reference: on random holdings of each kind, and on random hands of
tallies and listed piles, the answers, the forced flags and the problems are the same;
forced() now reads which cards are held from the cuts' slack (:func:`_needs`) rather than
trying each card out, and answers as the trials did.
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from bench.corpus import tally_of
from calculator import cards, deck_fit, resolve
from calculator.cards import CARDS, MONTH_CARD_IDS, Kind
from calculator.deck_fit import _KINDS, _UNSTATED, _fits, _fits_any, _Holding, _holding, _Kind
from calculator.errors import ImpossibleHandError, Problems
from calculator.hand import Hand, PlayerHand, Tally
from calculator.piles import _pile
from calculator.rule_choices import GwangpalCards
from calculator.rules import GoStopRules
from tests_support import examples

RULES = [
    resolve("standard").rules,
    resolve("standard", {"dec_ribbon_completes_chodan": True}).rules,  # a chodan's other ranges
    resolve("standard", {"gwangpal_rain_alone": True}).rules,
    resolve("standard", {"gwangpal_cards": "fudawiki"}).rules,  # the sale checked by count
]


# --- the reference: deck_fit's cut loop and trials as they were (main, 2026-12-05) --------


def _reference_fits_in(kind: _Kind, holdings: list[_Holding]) -> bool:
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
    if any(n < 0 for n in left) or any(c > sum(r) for c, r in zip(counts, rooms, strict=True)):
        return False
    total = sum(counts)
    everything = (1 << len(kind.parts)) - 1
    for cut in range(everything, 0, -1):
        outside = [j for j in range(len(kind.parts)) if not cut >> j & 1]
        placed = [min(c, sum(r[j] for j in outside)) for c, r in zip(counts, rooms, strict=True)]
        there = sum(left[j] for j in range(len(kind.parts)) if cut >> j & 1)
        if total - sum(placed) > there:
            return False
    return True


def _reference_fits(kind: _Kind, holdings: list[_Holding]) -> bool:
    for chosen in itertools.product(*[(h.ranges, *h.also) for h in holdings]):
        trial = [h._replace(ranges=r) for h, r in zip(holdings, chosen, strict=True)]
        if _reference_fits_in(kind, trial):
            return True
    return False


def _reference_forced(hand: Hand, rules: GoStopRules, entries: list[Any]) -> deck_fit.Forced:
    found: dict[int, set[str]] = {}
    for kind in _KINDS:
        holdings = deck_fit._holdings(hand, rules, entries, kind)
        if not any(h.at for h in holdings) or not _reference_fits(kind, holdings):
            continue
        for n, holding in enumerate(holdings):
            if holding.at[-1:] != (kind.name,):
                continue
            seat = int(holding.at[1])
            tally = hand.players[seat].tally
            for j, (flag, _bits) in enumerate(kind.parts):
                if flag not in _UNSTATED or getattr(tally, flag):
                    continue
                kept = [
                    (*ranges[:j], (0, 0), *ranges[j + 1 :])
                    for ranges in (holding.ranges, *holding.also)
                    if not ranges[j][0]
                ]
                trial = holding._replace(ranges=kept[0], also=tuple(kept[1:])) if kept else None
                if trial is None or not _reference_fits(
                    kind, [*holdings[:n], trial, *holdings[n + 1 :]]
                ):
                    found.setdefault(seat, set()).add(flag)
    return {seat: frozenset(flags) for seat, flags in found.items()}


def _reference_check_fit(
    hand: Hand, rules: GoStopRules, entries: list[Any], problems: Problems
) -> None:
    for kind in _KINDS:
        holdings = deck_fit._holdings(hand, rules, entries, kind)
        if not any(h.at for h in holdings):
            continue
        piles = [h for h in holdings if h.at[-1:] != ("sold_brights",)]
        if len(piles) == len(holdings) or _reference_worded(kind, piles, problems):
            _reference_worded(kind, holdings, problems)
    if rules.gwangpal_cards is not GwangpalCards.BRIGHTS and not problems:
        held = deck_fit.holdings(hand, rules, entries)
        deck_fit._check_sale(hand, rules, entries, held, problems)


def _reference_worded(kind: _Kind, holdings: list[_Holding], problems: Problems) -> bool:
    if _reference_fits(kind, holdings):
        return True
    deck_fit._fits_in(kind, holdings, problems)  # the words: the loop itself, unchanged
    return False


# --- random holdings of one kind -------------------------------------------------------


@st.composite
def _holdings_of(draw: st.DrawFn, kind: _Kind) -> list[_Holding]:
    """1 to 4 holdings of ``kind``, each per part some range within the part's cards (now
    and then another set of ranges), its count from a little under the fewest to a little
    over the most: sums that fit, that just do not, and counts no range holds."""
    found = []
    for i in range(draw(st.integers(1, 4))):
        options = []
        for _ in range(draw(st.sampled_from([1, 1, 1, 2]))):
            ranges = []
            for size in kind.sizes:
                lo = draw(st.integers(0, size))
                ranges.append((lo, draw(st.integers(lo, size))))
            options.append(tuple(ranges))
        lows = sum(lo for lo, _hi in options[0])
        highs = sum(hi for _lo, hi in options[0])
        held = draw(st.integers(max(0, lows - 1), highs + 1))
        at = ("players", i, "tally", kind.name) if draw(st.booleans()) else ()
        found.append(_holding(f"P{i}", at, held, options[0], tuple(options[1:])))
    return found


@settings(max_examples=examples(3000))
@given(data=st.data(), kind=st.sampled_from(_KINDS))
def test_the_fast_test_answers_as_the_cut_loop(data: st.DataObject, kind: _Kind) -> None:
    holdings = data.draw(_holdings_of(kind))
    expected = _reference_fits(kind, holdings)
    event(f"{kind.name}: fits {expected}")
    assert _fits_any(kind, [h.rooms for h in holdings]) is expected
    assert _fits(kind, holdings, None) is expected


def test_the_listed_cards_are_their_counts() -> None:
    # a listed pile's holding: per part exactly its cards, nothing left to place
    pile = ("02-animal", "05-animal", "09-animal", "13-animal")
    mask = sum(cards.BIT[c] for c in pile if c in cards.BIT)
    hand = Hand(players=(PlayerHand(id="A", captured=pile),))
    animals = deck_fit._holdings(hand, RULES[0], [mask], _KINDS[1])[0]
    assert animals.ranges == tuple(
        ((mask & bits).bit_count(),) * 2 for _flag, bits in _KINDS[1].parts
    )
    assert animals.held == (mask & cards.ANIMALS).bit_count()
    assert animals.rooms[0].unplaced == 0


# --- random hands: tallies beside listed piles ----------------------------------------

_BY_KIND = {
    kind: [c for c in MONTH_CARD_IDS if CARDS[c].kind is kind]
    for kind in (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON)
}


_COUNTS = ("brights", "animals", "ribbons")


@st.composite
def _hands(draw: st.DrawFn) -> tuple[Hand, GoStopRules, list[Any]]:
    """2 or 3 players, sometimes a fourth who sits out selling brights, with the entries
    read_piles gives deck_fit (a mask, or the tally's Pile). The deck's brights, animals and
    ribbons are dealt at random (some to nobody, or not); a player lists its cards or counts them
    (:func:`bench.corpus.tally_of`), leaving unsaid cards unsaid at random, and now and then
    miscounts one count or flag: hands that fit, that force a card, and that do not fit."""
    rules = draw(st.sampled_from(RULES))
    count = draw(st.integers(2, 3))
    dealt = [c for ids in _BY_KIND.values() for c in ids]
    nobody = -1 if draw(st.booleans()) else 0  # every card dealt: more cards forced
    owners = draw(
        st.lists(st.integers(nobody, count - 1), min_size=len(dealt), max_size=len(dealt))
    )
    players: list[PlayerHand] = []
    entries: list[Any] = []
    for i in range(count):
        pile = [c for c, owner in zip(dealt, owners, strict=True) if owner == i]
        if draw(st.booleans()):
            counted = tally_of(pile)
            fields = {name: counted[name] for name in Tally._fields if name in counted}
            for flag in sorted(_UNSTATED):
                fields[flag] = fields[flag] and draw(st.booleans())
            if draw(st.integers(0, 3)) == 0:  # a chodan claimed: the December ribbon may
                fields["chodan"] = True  # complete it (bichodan rules), or not
            if draw(st.integers(0, 3)) == 0:  # a miscount
                name = draw(st.sampled_from(sorted(fields)))
                if name in _COUNTS:
                    fields[name] = max(0, fields[name] + draw(st.sampled_from([-1, 1])))
                elif name not in ("junk_value", "junk_cards", "double_junks"):
                    fields[name] = not fields[name]
            tally = Tally(**fields)
            players.append(PlayerHand(id=f"P{i}", tally=tally))
            entries.append(_pile(tally, rules))
        else:
            players.append(PlayerHand(id=f"P{i}", captured=tuple(pile)))
            entries.append(sum(cards.BIT[c] for c in pile))
    if draw(st.booleans()):
        sold = draw(st.integers(1, 6))
        players.append(PlayerHand(id="S", sits_out=True, sold_brights=sold))
        entries.append(None)
    return Hand(players=tuple(players)), rules, entries


def _issues(check: Any) -> list[tuple[str, str, tuple]]:
    problems = Problems()
    check(problems)
    try:
        problems.raise_if_any(ImpossibleHandError)
    except ImpossibleHandError as error:
        return [(i.code, i.detail, i.location) for i in error.issues]
    return []


@settings(max_examples=examples(1500))
@given(dealt=_hands())
def test_forced_and_the_problems_are_as_the_cut_loop_gives_them(
    dealt: tuple[Hand, GoStopRules, list[Any]],
) -> None:
    hand, rules, entries = dealt
    held = deck_fit.holdings(hand, rules, entries)
    found = deck_fit.forced(hand, held)
    assert found == _reference_forced(hand, rules, entries)
    issues = _issues(lambda p: deck_fit.check_fit(hand, rules, entries, held, p))
    assert issues == _issues(lambda p: _reference_check_fit(hand, rules, entries, p))
    event(f"forced {sorted(set().union(*found.values()))}" if found else "nothing forced")
    event("refused" if issues else "fits")
    # forced() reads the cuts' slack, or tries each card out where a holding has other
    # ranges (a chodan the December ribbon may complete): both ways are met
    event("other ranges" if any(h.also for kind in held for h in kind) else "one way each")
