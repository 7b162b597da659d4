"""Tallies are checked against the deck: a count no pile with those flags can hold, or
counts and flags that no one deck deals out, are refused (SPEC §4: "validated for
consistency"); every tally counted from real cards is accepted and scores as the cards do.

The expected limits are counted by hand from the deck (SPEC §2): 5 brights (the rain man
one of them), 9 animals (the three birds, the sake cup, the May bridge and four others), 10
ribbons (three sets of three and the December ribbon). The exhaustive tests below enumerate
the deck's cards themselves and compare with what the engine accepts.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from bench.corpus import tally_of
from calculator import GoStopError, resolve, settle
from calculator.cards import CARDS, Kind
from calculator.piles import read_piles
from handbuilder import build_hand
from strategies import house_hands
from tests_support import examples

STANDARD = resolve("standard")
STOP_A = {"type": "stop", "winner": "A"}

BIRDS = {"02-animal", "04-animal", "08-animal"}
SETS = {
    "hongdan": {"01-ribbon", "02-ribbon", "03-ribbon"},
    "cheongdan": {"06-ribbon", "09-ribbon", "10-ribbon"},
    "chodan": {"04-ribbon", "05-ribbon", "07-ribbon"},
}


def _issues(hand: dict[str, Any], ruleset: Any = STANDARD) -> list[tuple[str, tuple]]:
    try:
        settle(build_hand(hand), ruleset)
    except GoStopError as error:
        return [(i.code, i.location) for i in error.issues]
    return []


def _alone(tally: dict[str, Any], ruleset: Any = STANDARD) -> list[tuple[str, tuple]]:
    """The problems of one tally next to an empty pile, as a preview."""
    return _issues({"players": [{"id": "A", "tally": tally}, {"id": "B", "cards": []}]}, ruleset)


# (tally, the field named): limits counted by hand from SPEC §2. has_gukjin,
# has_may_animal and rain_ribbon not set say nothing (SPEC §4's tally has no such flags;
# the page asks for no May bridge): any of their one card may be in the count.
IMPOSSIBLE = [
    # 9 animals are all of them, the three birds among them
    ({"animals": 9, "has_gukjin": True, "has_may_animal": True}, "godori"),
    ({"animals": 9}, "godori"),
    # no set: at most 2 + 2 + 2 of the sets' ribbons and the December one = 7
    ({"ribbons": 10}, "ribbons"),
    ({"ribbons": 8}, "ribbons"),
    ({"ribbons": 8, "rain_ribbon": True}, "ribbons"),
    # two sets and the December ribbon: 3 + 3 + 2 + 1 = 9
    ({"ribbons": 10, "rain_ribbon": True, "hongdan": True, "cheongdan": True}, "chodan"),
    # four brights without the rain man at most
    ({"brights": 5}, "rain_bright"),
]

# Real piles the flags above do not name: they were refused for a while (a fresh-eyes
# review, 2026-12-05): 2 birds, the May bridge and the 4 other animals is 7 (멍따).
POSSIBLE = [
    {"animals": 7},
    {"animals": 8, "godori": True},
    {"animals": 9, "godori": True},
    {"animals": 9, "godori": True, "has_gukjin": True},
    {"ribbons": 7},
]


@pytest.mark.parametrize("tally", POSSIBLE)
def test_a_one_card_flag_left_unset_says_nothing_of_the_pile(tally: dict[str, Any]) -> None:
    assert _alone(tally) == []


@pytest.mark.parametrize(("tally", "field"), IMPOSSIBLE)
def test_a_count_its_flags_leave_no_room_for(tally: dict[str, Any], field: str) -> None:
    assert _alone(tally) == [("impossible_tally", ("players", 0, "tally", field))]


def test_the_problem_says_the_fix() -> None:
    with pytest.raises(GoStopError) as caught:
        settle(
            build_hand(
                {
                    "players": [
                        {
                            "id": "A",
                            "tally": {"animals": 9, "has_gukjin": True, "has_may_animal": True},
                        },
                        {"id": "B", "cards": []},
                    ]
                }
            ),
            STANDARD,
        )
    (issue,) = caught.value.issues
    assert "the three birds" in issue.detail
    assert "set godori to true, or count fewer animals" in issue.detail


POSSIBLE = [
    {"animals": 9, "godori": True, "has_gukjin": True, "has_may_animal": True},
    {"animals": 8, "godori": True, "has_gukjin": True},  # 3 birds, the cup, 4 others
    {"animals": 6},  # 2 birds and the 4 others
    {"ribbons": 7, "rain_ribbon": True},  # 2 + 2 + 2 + the December ribbon
    {"ribbons": 6},
    {"ribbons": 9, "rain_ribbon": True, "hongdan": True, "cheongdan": True},
    {"ribbons": 10, "rain_ribbon": True, "hongdan": True, "cheongdan": True, "chodan": True},
    {"brights": 4},
    {"brights": 5, "rain_bright": True},
]


@pytest.mark.parametrize("tally", POSSIBLE)
def test_the_possible_neighbours_are_accepted(tally: dict[str, Any]) -> None:
    assert _alone(tally) == []


def test_nine_animals_pay_as_the_cards_do() -> None:
    # the bug hunt's hand: with godori set, A is paid what the nine animal cards pay
    animals = [c for c, card in CARDS.items() if card.kind is Kind.ANIMAL]
    pile = ["01-bright", "03-bright", "08-bright", *animals]
    by_cards = {
        "players": [{"id": "A", "cards": pile}, {"id": "B", "cards": []}, {"id": "C", "cards": []}],
        "outcome": STOP_A,
    }
    tally = tally_of(pile)
    by_tally = copy.deepcopy(by_cards)
    by_tally["players"][0] = {"id": "A", "tally": tally}
    assert tally["godori"]
    expected = settle(build_hand(by_cards), STANDARD).net
    assert settle(build_hand(by_tally), STANDARD).net == expected
    assert dict(expected)["A"] == 104  # the hunt's figure: 3 + animals 5 + godori 5 = 13
    impossible = copy.deepcopy(by_tally)
    impossible["players"][0]["tally"]["godori"] = False
    assert _issues(impossible) == [("impossible_tally", ("players", 0, "tally", "godori"))]


# --- exhaustive: each kind's counts and flags against the deck's own cards -----------------


UNSTATED = {"has_gukjin", "has_may_animal", "rain_ribbon"}  # may be left unset when held


def _unstated(names: Any, values: tuple[bool, ...]) -> set[tuple[bool, ...]]:
    """``values`` of the flags ``names``, and each way of leaving unset the held ones of
    :data:`UNSTATED`."""
    found = {values}
    for i, name in enumerate(names):
        if name in UNSTATED:
            found |= {(*v[:i], False, *v[i + 1 :]) for v in found}
    return found


def _kind_tallies(kind: Kind, flags: dict[str, set[str]], ruleset: Any) -> set[tuple]:
    """Every (count, flags) of the ``kind`` cards of some pile: from the deck."""
    ids = [c for c, card in CARDS.items() if card.kind is kind]
    found = set()
    for n in range(len(ids) + 1):
        for pile in itertools.combinations(ids, n):
            held = set(pile)
            literal = tuple(cards <= held for cards in flags.values())
            found |= {(n, stated) for stated in _unstated(flags, literal)}
            if "chodan" in flags and ruleset.rules.dec_ribbon_completes_chodan:
                # 비초단: chodan may be given as complete with the December ribbon's help
                names = list(flags)
                with_rain = len((SETS["chodan"] | {"12-ribbon"}) & held) >= 3
                reading = tuple(
                    with_rain if name == "chodan" else v
                    for name, v in zip(names, literal, strict=True)
                )
                found |= {(n, stated) for stated in _unstated(flags, reading)}
    return found


KINDS = [
    ("brights", Kind.BRIGHT, {"rain_bright": {"12-bright"}}),
    (
        "animals",
        Kind.ANIMAL,
        {"godori": BIRDS, "has_gukjin": {"09-animal"}, "has_may_animal": {"05-animal"}},
    ),
    ("ribbons", Kind.RIBBON, {"rain_ribbon": {"12-ribbon"}, **SETS}),
]


@pytest.mark.parametrize(
    "ruleset",
    [STANDARD, resolve("standard", {"dec_ribbon_completes_chodan": True})],
    ids=["standard", "bichodan"],
)
@pytest.mark.parametrize(("count", "kind", "flags"), KINDS, ids=[k[0] for k in KINDS])
def test_one_tally_is_accepted_exactly_when_some_pile_has_it(
    count: str, kind: Kind, flags: dict[str, set[str]], ruleset: Any
) -> None:
    possible = _kind_tallies(kind, flags, ruleset)
    size = sum(1 for card in CARDS.values() if card.kind is kind)
    for n in range(size + 1):
        for values in itertools.product([False, True], repeat=len(flags)):
            tally = {count: n, **dict(zip(flags, values, strict=True))}
            accepted = _alone(tally, ruleset) == []
            assert accepted == ((n, values) in possible), tally


def test_two_tallies_of_brights_are_accepted_exactly_when_one_deck_deals_them() -> None:
    brights = [c for c, card in CARDS.items() if card.kind is Kind.BRIGHT]
    possible = set()
    for owners in itertools.product((0, 1, None), repeat=len(brights)):
        piles = [{c for c, o in zip(brights, owners, strict=True) if o == i} for i in (0, 1)]
        possible.add(tuple((len(p), "12-bright" in p) for p in piles))
    singles = [(n, rain) for n in range(6) for rain in (False, True)]
    for a, b in itertools.product(singles, singles):
        players = [
            {"id": pid, "tally": {"brights": n, "rain_bright": rain}}
            for pid, (n, rain) in (("A", a), ("B", b))
        ]
        assert (_issues({"players": players}) == []) == ((a, b) in possible), (a, b)


def test_two_tallies_of_animals_are_accepted_exactly_when_one_deck_deals_them() -> None:
    animals = [c for c, card in CARDS.items() if card.kind is Kind.ANIMAL]
    names = ("godori", "has_gukjin", "has_may_animal")
    named = (BIRDS, {"09-animal"}, {"05-animal"})

    def tally_keys(pile: set[str]) -> set[tuple]:
        held = tuple(cards <= pile for cards in named)
        return {(len(pile), *stated) for stated in _unstated(names, held)}

    possible = set()
    for owners in itertools.product((0, 1, None), repeat=len(animals)):
        piles = [{c for c, o in zip(animals, owners, strict=True) if o == i} for i in (0, 1)]
        possible |= set(itertools.product(tally_keys(piles[0]), tally_keys(piles[1])))
    singles = [
        (n, *flags)
        for n in range(10)
        for flags in itertools.product((False, True), repeat=3)
        if ((n, *flags), (0, False, False, False)) in possible  # possible alone
    ]
    for a, b in itertools.product(singles, singles):
        players = [
            {"id": pid, "tally": {"animals": t[0], **dict(zip(names, t[1:], strict=True))}}
            for pid, t in (("A", a), ("B", b))
        ]
        assert (_issues({"players": players}) == []) == ((a, b) in possible), (a, b)


# --- junk: what the deck's junk cards can be worth -----------------------------------------
# standard: 22 single junk worth 1, 2 double junks worth 2, bonus-a 2 and bonus-b 3 (SPEC §2);
# the sake cup is counted among the animals. The most: 22 + 4 + 5 = 31.

JUNK_IMPOSSIBLE = [
    {"junk_value": 32},  # one past the 31 of every junk card
    {"junk_value": 4, "junk_cards": 1},  # no card is worth 4
    {"junk_value": 2, "junk_cards": 2, "double_junks": 1},  # a double junk and a card worth 0
    {"junk_value": 3, "junk_cards": 1, "double_junks": 1},  # the one card is a double junk: 2
]
JUNK_POSSIBLE = [
    {"junk_value": 31},
    {"junk_value": 3, "junk_cards": 1},  # bonus-b
    {"junk_value": 4, "junk_cards": 2},
    {"junk_value": 3, "junk_cards": 2, "double_junks": 1},
]


@pytest.mark.parametrize("tally", JUNK_IMPOSSIBLE)
def test_junk_counts_no_junk_cards_have(tally: dict[str, Any]) -> None:
    assert _alone(tally) == [("impossible_tally", ("players", 0, "tally", "junk_value"))]


@pytest.mark.parametrize("tally", JUNK_POSSIBLE)
def test_junk_counts_some_junk_cards_have(tally: dict[str, Any]) -> None:
    assert _alone(tally) == []


def test_without_bonus_cards_no_card_is_worth_three() -> None:
    plain = resolve("standard", {"bonus_a_junk_value": 0, "bonus_b_junk_value": 0})
    issue = ("impossible_tally", ("players", 0, "tally", "junk_value"))
    assert _alone({"junk_value": 3, "junk_cards": 1}, plain) == [issue]
    assert _alone({"junk_value": 27}, plain) == [issue]  # 22 + 4 = 26
    assert _alone({"junk_value": 26}, plain) == []


def test_junk_counts_are_accepted_exactly_when_some_junk_cards_have_them() -> None:
    bonus = STANDARD.rules.bonus_values()
    worth = {
        c: (2 if card.kind is Kind.DOUBLE_JUNK else 1)
        for c, card in CARDS.items()
        if card.kind in (Kind.JUNK, Kind.DOUBLE_JUNK)
    }
    worth.update(bonus)
    singles = sum(1 for card in CARDS.values() if card.kind is Kind.JUNK)
    specials = [c for c, v in worth.items() if CARDS[c].kind is not Kind.JUNK]
    possible = set()  # (value, cards, double junks) of every pile of junk cards
    for n in range(len(specials) + 1):
        for chosen in itertools.combinations(specials, n):
            doubles = sum(1 for c in chosen if CARDS[c].kind is Kind.DOUBLE_JUNK)
            value = sum(worth[c] for c in chosen)
            for s in range(singles + 1):
                possible.add((value + s, n + s, doubles))
    most = max(v for v, _c, _d in possible)
    for value in range(most + 3):
        for count in (None, *range(value + 2)):
            for doubles in (None, 0, 1, 2):
                expected = any(
                    v == value and count in (None, c) and doubles in (None, d)
                    for v, c, d in possible
                )
                tally = {"junk_value": value, "junk_cards": count, "double_junks": doubles}
                assert (_alone(tally) == []) == expected, tally


# --- across players: flags and counts that one deck cannot deal --------------------------

ACROSS = [
    # A's four brights without the rain man are the four others: B's can only be it
    (
        [{"tally": {"brights": 4}}, {"tally": {"brights": 1}}],
        ("players", 1, "tally", "brights"),
    ),
    # a bird listed by A, all three claimed by B's godori
    (
        [{"cards": ["02-animal"]}, {"tally": {"animals": 3, "godori": True}}],
        ("players", 1, "tally", "godori"),
    ),
    # A holds the hongdan and cheongdan ribbons alone: B's 4 are the chodan ribbons and
    # the December one, a chodan B does not say
    (
        [
            {"tally": {"ribbons": 6, "hongdan": True, "cheongdan": True}},
            {"tally": {"ribbons": 4}},
        ],
        ("players", 1, "tally", "ribbons"),
    ),
]


@pytest.mark.parametrize(("piles", "at"), ACROSS)
def test_tallies_that_no_deck_deals(piles: list[dict[str, Any]], at: tuple) -> None:
    players = [{"id": pid, **pile} for pid, pile in zip("AB", piles, strict=True)]
    assert _issues({"players": players}) == [("deck_exceeded", at)]


@pytest.mark.parametrize(
    "piles",
    [
        [{"tally": {"brights": 4}}, {"tally": {"brights": 1, "rain_bright": True}}],
        [{"cards": ["02-animal"]}, {"tally": {"animals": 3}}],
        [{"tally": {"animals": 6}}, {"tally": {"animals": 2, "has_gukjin": True}}],
        [
            {"tally": {"ribbons": 6, "hongdan": True}},
            {"tally": {"ribbons": 4, "rain_ribbon": True}},
        ],
    ],
)
def test_the_neighbours_one_deck_deals(piles: list[dict[str, Any]]) -> None:
    players = [{"id": pid, **pile} for pid, pile in zip("AB", piles, strict=True)]
    assert _issues({"players": players}) == []


# --- a sitter's sale given as a count ------------------------------------------------------

FIVE = [["1G", "3G", "8G"], ["11G"], ["12G"]]


def _sale(piles: list[list[str] | dict[str, Any]], sold: int, ruleset: Any = STANDARD) -> Any:
    players: list[dict[str, Any]] = [
        {"id": pid, "cards": pile} if isinstance(pile, list) else {"id": pid, "tally": pile}
        for pid, pile in zip("ABC", piles, strict=True)
    ]
    players.append({"id": "D", "sits_out": True, "sold_brights": sold})
    return _issues({"players": players, "outcome": STOP_A}, ruleset)


def test_a_sale_of_brights_the_players_hold() -> None:
    # the hunt's case: all five brights captured, three sold (as a hand: duplicate_card)
    assert _sale(FIVE, 3) == [("deck_exceeded", ("players", 3, "sold_brights"))]
    assert _sale(FIVE, 1) == [("deck_exceeded", ("players", 3, "sold_brights"))]
    assert _sale(FIVE, 0) == []
    # tallied: A's three brights and C's rain man leave one bright to sell
    tallied = [{"brights": 3}, ["12G"], []]
    assert _sale(tallied, 2) == [("deck_exceeded", ("players", 3, "sold_brights"))]
    assert _sale([{"brights": 3}, ["12G", "1P", "1P"], []], 1) == []


def test_a_lone_rain_man_sells_only_where_the_rules_say() -> None:
    # the four others are captured: the sitter's one bright would be the rain man alone
    four = [["1G", "3G", "8G"], ["11G"], []]
    assert _sale(four, 1) == [("deck_exceeded", ("players", 3, "sold_brights"))]
    assert _sale(four, 1, resolve("standard", {"gwangpal_rain_alone": True})) == []
    assert _sale([["1G", "3G", "8G"], ["12G"], []], 1) == []  # the phoenix is left


def test_the_players_piles_are_named_before_the_sale() -> None:
    piles = [{"brights": 4}, {"brights": 1}, []]
    assert _sale(piles, 0) == [("deck_exceeded", ("players", 1, "tally", "brights"))]
    assert _sale(piles, 1) == [("deck_exceeded", ("players", 1, "tally", "brights"))]


FUDAWIKI = resolve("standard", {"gwangpal_cards": "fudawiki"})
# 9 of the 10 cards that sell under fudawiki (5 brights, bonus-a and -b, the sake cup, the
# two double junks): all but bonus-b
NINE_SELLING = [["1G", "3G", "8G", "9A", "11S"], ["11G", "12S", "B2"], ["12G"]]


def test_a_sale_of_more_than_brights_the_players_hold() -> None:
    assert _sale(NINE_SELLING, 1, FUDAWIKI) == []
    assert _sale(NINE_SELLING, 2, FUDAWIKI) == [("deck_exceeded", ("players", 3, "sold_brights"))]
    # a tally's brights, sake cup and double junks count against the sale
    tallied: list[Any] = [
        {"brights": 3, "animals": 1, "has_gukjin": True, "junk_value": 2, "double_junks": 1},
        ["11G", "12S", "B2"],
        ["12G"],
    ]
    assert _sale(tallied, 2, FUDAWIKI) == [("deck_exceeded", ("players", 3, "sold_brights"))]
    assert _sale(tallied, 1, FUDAWIKI) == []


# --- every pile of real cards, counted, is accepted and scores as its cards ----------------

RULESETS = [
    STANDARD,
    resolve("wikipedia"),
    resolve("standard", {"dec_ribbon_completes_chodan": True, "may_animal_switchable": True}),
    resolve("standard", {"gwangpal_rain_alone": True, "dec_ribbon_counts_in_ribbon_total": False}),
    FUDAWIKI,
]


def _sold(hand: list[str], ruleset: Any) -> int:
    """What a sitter's hand sells, counted by hand (docs/rules.md §6.2)."""
    brights = {c for c in hand if CARDS[c].kind is Kind.BRIGHT}
    selling = set(brights)
    if ruleset.rules.gwangpal_cards.value == "fudawiki":
        extra = {Kind.BONUS, Kind.DOUBLE_JUNK}
        selling |= {c for c in hand if CARDS[c].kind in extra or c == "09-animal"}
    if brights == {"12-bright"} and not ruleset.rules.gwangpal_rain_alone:
        selling.discard("12-bright")  # a lone rain man does not sell
    return len(selling)


def _counted(cards: list[str], ruleset: Any) -> dict[str, Any]:
    """The tally of real cards; under 비초단 chodan is given as scored, with the December
    ribbon's help."""
    tally = tally_of(cards, ruleset.rules.bonus_values())
    held = set(cards)
    if ruleset.rules.dec_ribbon_completes_chodan:
        tally["chodan"] = len((SETS["chodan"] | {"12-ribbon"}) & held) >= 3
    return tally


@settings(max_examples=examples(200))
@given(hand=house_hands(), ruleset=st.sampled_from(RULESETS))
def test_real_piles_counted_are_accepted_and_score_as_cards(
    hand: dict[str, Any], ruleset: Any
) -> None:
    by_cards = _issues(hand, ruleset)
    assume(by_cards == [])
    counted = copy.deepcopy(hand)
    for player in counted["players"]:
        if player.get("sits_out"):
            player["sold_brights"] = _sold(player.pop("hand"), ruleset)  # the sale as a count
        else:
            player["tally"] = _counted(player.pop("cards"), ruleset)
    assert _issues(counted, ruleset) == []
    expected = settle(build_hand(hand), ruleset)
    found = settle(build_hand(counted), ruleset)
    assert dict(found.net) == dict(expected.net)
    assert found.payments == expected.payments


@pytest.mark.parametrize(
    "tallies",
    [
        # the review's real piles, as the scorekeeper page sends them (no May bridge flag)
        [{"animals": 7}, {}, {}],
        [{"animals": 8, "godori": True, "has_gukjin": True}, {"animals": 1}, {}],
        [{"animals": 5}, {"animals": 4, "has_gukjin": True}, {}],
        [{"ribbons": 7}, {"ribbons": 3}, {}],
    ],
)
def test_real_piles_counted_without_the_one_card_flags_are_accepted(
    tallies: list[dict[str, Any]],
) -> None:
    players = [{"id": pid, "tally": tally} for pid, tally in zip("ABC", tallies, strict=True)]
    assert _issues({"players": players}) == []


@pytest.mark.parametrize(
    ("tally", "fits"),
    [
        # a third double junk is the sake cup (the schema's reading): worth 2, one card.
        # 10 single + 2 double junks + the cup = 16 in 13 cards (the review's pile)
        ({"junk_value": 16, "junk_cards": 13, "double_junks": 3}, True),
        ({"junk_value": 28, "double_junks": 3}, True),  # 22 single, 2 doubles, the cup
        ({"junk_value": 5, "double_junks": 3}, False),  # the three alone are worth 6
    ],
)
def test_a_third_double_junk_is_the_sake_cup(tally: dict[str, Any], fits: bool) -> None:
    # no bonus cards, whose values could make up for the cup's
    plain = resolve("standard", {"bonus_a_junk_value": 0, "bonus_b_junk_value": 0})
    assert (_alone(tally, plain) == []) is fits


# --- a card the tally leaves unsaid, which the counts force into the pile -----------------
# has_gukjin, has_may_animal and rain_ribbon are not in SPEC §4's tally: left false they
# say nothing, and the pile holds the card exactly when every way one deck deals the piles
# puts it there (its own counts, or the listed piles beside it). Then it pays as the cards.


def _paid(players: list[dict[str, Any]], ruleset: Any = STANDARD) -> dict[str, int]:
    """What each loser pays the winner A, by payer."""
    result = settle(build_hand({"players": players, "outcome": STOP_A}), ruleset)
    return {p.payer: p.points for p in result.payments}


ALL_ANIMALS = [c for c, card in CARDS.items() if card.kind is Kind.ANIMAL]
NINE_JUNK = [f"0{m}-junk-{k}" for m in range(1, 5) for k in (1, 2)] + ["05-junk-1"]
LOSER_B = {"id": "B", "cards": ["01-bright", "06-junk-1", "06-junk-2", "07-junk-1"]}


def test_nine_animals_tallied_hold_the_sake_cup() -> None:
    # 2 players, standard (stop at 7, 피박 at 7 or less). A holds all nine animals and junk
    # worth 9; B one bright and 3 junk. Nine animals are every animal: the sake cup is
    # among them, and auto reads it as A's best.
    #   as animal: 9 animals = 1 + 4 = 5, godori 5, junk 9 = 0 -> 10; 멍따 (7+) x2 = 20;
    #     A scored no junk: no 피박 -> 20
    #   as junk: 8 animals = 4, godori 5, junk 9 + 2 = 11 -> 2 -> 11; 멍따 x2 = 22;
    #     B's junk 3 <= 7: 피박 x2 -> 44
    # B pays the better: 44 (repro 08; 20 while the tally's cup was read as not held).
    by_cards = [{"id": "A", "cards": ALL_ANIMALS + NINE_JUNK}, LOSER_B]
    tally = {"animals": 9, "godori": True, "junk_value": 9}  # has_gukjin left false
    by_tally = [{"id": "A", "tally": tally}, LOSER_B]
    assert _paid(by_cards) == {"B": 44}
    assert _paid(by_tally) == {"B": 44}
    assert _paid([{"id": "A", "tally": {**tally, "has_gukjin": True}}, LOSER_B]) == {"B": 44}


def test_ten_ribbons_tallied_hold_the_december_ribbon() -> None:
    # wikipedia: the December ribbon is left out of the ribbon total (W7). Ten ribbons are
    # every ribbon, the December one among them: 9 counted = 1 + 4 = 5, hongdan,
    # cheongdan and chodan 3 each -> 14 (15 while it was read as not held: 10 = 6).
    # B and C hold a bright each (no 광박), no junk is scored (no 피박): each pays 14.
    ribbons = [c for c, card in CARDS.items() if card.kind is Kind.RIBBON]
    others = [{"id": "B", "cards": ["01-bright"]}, {"id": "C", "cards": ["03-bright"]}]
    sets = {"hongdan": True, "cheongdan": True, "chodan": True}
    wikipedia = resolve("wikipedia")
    assert _paid([{"id": "A", "cards": ribbons}, *others], wikipedia) == {"B": 14, "C": 14}
    by_tally = [{"id": "A", "tally": {"ribbons": 10, **sets}}, *others]
    assert _paid(by_tally, wikipedia) == {"B": 14, "C": 14}


# rules.md W15's hand, A holding the eight animals other than the sake cup as well
W15_A = {
    "id": "A",
    "cards": ["1P", "1P", "2P", "2P", "3P", "3P", "4P", "4P", "5P", "5P", "6P", "6P"]
    + ["1G", "3G", "8G"]
    + [c for c in ALL_ANIMALS if c != "09-animal"],
}
W15_C = {"id": "C", "cards": ["11G", "11P", "11P", "11S", "12S"]}


def test_a_losers_one_animal_is_the_sake_cup_when_the_others_are_listed() -> None:
    # W15 (3 players), with A's eight animals added: A = junk 12 = 3, brights 3,
    # 8 animals = 4, godori 5 -> 15; 멍따 (7+) x2 = 30. B = 7P 7P 10P 10P 9A: B's cup
    # read as junk makes its junk 6 > 5 (no 피박), no bright: 광박 x2 -> 60. C has a
    # bright and junk 6: 30. B's tally {animals: 1, junk_value: 4} can only hold the cup
    # (A listed every other animal): it pays 60, not 120 (광박 and 피박, the cup unread).
    b_cards = {"id": "B", "cards": ["7P", "7P", "10P", "10P", "9A"]}
    b_tally = {"id": "B", "tally": {"animals": 1, "junk_value": 4}}
    assert _paid([W15_A, b_cards, W15_C]) == {"B": 60, "C": 30}
    assert _paid([W15_A, b_tally, W15_C]) == {"B": 60, "C": 30}


def test_a_card_the_counts_only_allow_is_read_as_not_held() -> None:
    # eight animals with godori: the one left out is the sake cup or another; A's listed
    # two animals leave B's tally free of the cup as well: neither is read as holding it
    a_pile = {"id": "A", "tally": {"animals": 8, "godori": True, "junk_value": 9}}
    result = settle(build_hand({"players": [a_pile, LOSER_B]}), STANDARD)
    assert result.players[0].score.switchable == 0
    b_tally = {"id": "B", "tally": {"animals": 1, "junk_value": 4}}
    two = {"id": "A", "cards": ["02-animal", "04-animal"]}
    result = settle(build_hand({"players": [two, b_tally]}), STANDARD)
    assert result.players[1].score.switchable == 0


# every unsaid flag observable: the May bridge switches, the December ribbon is out of the
# ribbon total (both change the Pile a tally reads as)
OBSERVING = [
    resolve(
        "standard", {"may_animal_switchable": True, "dec_ribbon_counts_in_ribbon_total": False}
    ),
    resolve(
        "standard",
        {
            "may_animal_switchable": True,
            "dec_ribbon_counts_in_ribbon_total": False,
            "dec_ribbon_completes_chodan": True,
        },
    ),
]
UNSAID_CARD = {"has_gukjin": "09-animal", "has_may_animal": "05-animal", "rain_ribbon": "12-ribbon"}


def _keys(pile: set[str], flags: dict[str, set[str]], ruleset: Any) -> set[tuple]:
    """Every tally (count, flags) a player holding ``pile`` may give (see _kind_tallies)."""
    literal = tuple(cards <= pile for cards in flags.values())
    found = {(len(pile), stated) for stated in _unstated(flags, literal)}
    if "chodan" in flags and ruleset.rules.dec_ribbon_completes_chodan:
        with_rain = len((SETS["chodan"] | {"12-ribbon"}) & pile) >= 3
        reading = tuple(
            with_rain if n == "chodan" else v for n, v in zip(flags, literal, strict=True)
        )
        found |= {(len(pile), stated) for stated in _unstated(flags, reading)}
    return found


def _read(players: list[dict[str, Any]], ruleset: Any) -> list[Any]:
    return read_piles(build_hand({"players": players}), ruleset.rules)


@pytest.mark.parametrize("ruleset", OBSERVING, ids=["plain", "bichodan"])
@pytest.mark.parametrize(("count", "kind", "flags"), KINDS[1:], ids=[k[0] for k in KINDS[1:]])
def test_one_tally_holds_exactly_the_unsaid_cards_every_pile_of_it_holds(
    count: str, kind: Kind, flags: dict[str, set[str]], ruleset: Any
) -> None:
    # from the deck: the piles that may give each tally; an unsaid card is held when
    # every one of them holds it, and the tally then reads as if it said so
    ids = [c for c, card in CARDS.items() if card.kind is kind]
    piles: dict[tuple, list[set[str]]] = {}
    for n in range(len(ids) + 1):
        for chosen in itertools.combinations(ids, n):
            for key in _keys(set(chosen), flags, ruleset):
                piles.setdefault(key, []).append(set(chosen))
    forced_seen = 0
    for (n, values), held_by in piles.items():
        tally = {count: n, **dict(zip(flags, values, strict=True))}
        forced = {
            flag
            for flag, card in UNSAID_CARD.items()
            if flag in flags and not tally[flag] and all(card in p for p in held_by)
        }
        forced_seen += bool(forced)
        stated = {**tally, **dict.fromkeys(forced, True)}
        empty = {"id": "B", "cards": []}
        found = _read([{"id": "A", "tally": tally}, empty], ruleset)[0]
        assert found == _read([{"id": "A", "tally": stated}, empty], ruleset)[0], tally
    assert forced_seen  # nine animals, ten ribbons and their neighbours


def test_a_tally_beside_listed_animals_holds_the_unsaid_cards_they_leave_it() -> None:
    # from the deck: B lists some animals, A tallies some of the others (godori as held,
    # the sake cup and the May bridge unsaid); a card is held when every pile of A's count
    # and godori among the animals B leaves holds it
    ruleset = OBSERVING[0]
    forced_seen = set()
    for n_listed in range(len(ALL_ANIMALS) + 1):
        for listed in itertools.combinations(ALL_ANIMALS, n_listed):
            free = [c for c in ALL_ANIMALS if c not in listed]
            piles: dict[tuple[int, bool], list[set[str]]] = {}
            for n in range(len(free) + 1):
                for chosen in itertools.combinations(free, n):
                    piles.setdefault((n, set(chosen) >= BIRDS), []).append(set(chosen))
            for (n, godori), held_by in piles.items():
                tally = {"animals": n, "godori": godori}
                forced = {
                    flag
                    for flag in ("has_gukjin", "has_may_animal")
                    if all(UNSAID_CARD[flag] in p for p in held_by)
                }
                forced_seen |= forced
                b = {"id": "B", "cards": list(listed)}
                stated = {**tally, **dict.fromkeys(forced, True)}
                found = _read([{"id": "A", "tally": tally}, b], ruleset)[0]
                assert found == _read([{"id": "A", "tally": stated}, b], ruleset)[0], (
                    tally,
                    listed,
                )
    assert forced_seen == {"has_gukjin", "has_may_animal"}


@settings(max_examples=examples(200))
@given(
    hand=house_hands(),
    ruleset=st.sampled_from(RULESETS + OBSERVING),
    seat=st.integers(0, 2),
    unsaid=st.sets(st.sampled_from(sorted(UNSTATED))),
)
def test_a_real_pile_counted_with_unsaid_cards_pays_as_its_cards_when_they_are_forced(
    hand: dict[str, Any], ruleset: Any, seat: int, unsaid: set[str]
) -> None:
    # one player counts its pile, leaving some of the unsaid flags false, beside the
    # others' listed cards: it is accepted, and when the deck forces every card it left
    # unsaid (each pile of its counts among the cards the others leave holds it) it pays
    # as its cards
    assume(_issues(hand, ruleset) == [])
    players = hand["players"]
    seat = [i for i, p in enumerate(players) if not p.get("sits_out")][seat % 2]
    held = set(players[seat]["cards"])
    taken = {
        c for i, p in enumerate(players) if i != seat for c in p.get("cards", p.get("hand", []))
    }
    tally = _counted(sorted(held), ruleset)
    for flag in unsaid:
        tally[flag] = False
    forced = True
    dropped_any = False
    for kind, flags in ((Kind.ANIMAL, KINDS[1][2]), (Kind.RIBBON, KINDS[2][2])):
        dropped = [f for f in unsaid if f in flags and UNSAID_CARD[f] in held]
        dropped_any |= bool(dropped)
        free = [c for c, card in CARDS.items() if card.kind is kind and c not in taken]
        mine = {c for c in held if CARDS[c].kind is kind}
        key = (len(mine), tuple(tally[f] for f in flags))
        forced &= all(
            UNSAID_CARD[f] in chosen
            for chosen in itertools.combinations(free, len(mine))
            if key in _keys(set(chosen), flags, ruleset)
            for f in dropped
        )
    counted = copy.deepcopy(hand)
    counted["players"][seat] = {
        **{k: v for k, v in players[seat].items() if k != "cards"},
        "tally": tally,
    }
    issues = _issues(counted, ruleset)
    if not forced:  # read as not holding it: the tally may fall short of a stop, no more
        event("a card left unsaid is only allowed")
        assert [code for code, _at in issues if code != "below_stop_minimum"] == []
    else:
        event("every card left unsaid is forced" if dropped_any else "no card left unsaid")
        assert issues == []
        expected = settle(build_hand(hand), ruleset)
        found = settle(build_hand(counted), ruleset)
        assert dict(found.net) == dict(expected.net)
        assert found.payments == expected.payments


def test_a_chodan_the_unsaid_december_ribbon_completes() -> None:
    # 비초단, the December ribbon out of the ribbon total: A lists the April ribbon, so B's
    # three ribbons with chodan are May, July and the December one standing in (refused
    # as deck_exceeded while an unsaid rain_ribbon was read as "not held"); B holds it
    bichodan = resolve(
        "standard",
        {"dec_ribbon_completes_chodan": True, "dec_ribbon_counts_in_ribbon_total": False},
    )
    a = {"id": "A", "cards": ["04-ribbon"]}
    tally = {"ribbons": 3, "chodan": True}
    assert _issues({"players": [a, {"id": "B", "tally": tally}]}, bichodan) == []
    found = _read([a, {"id": "B", "tally": tally}], bichodan)[1]
    assert found == _read([a, {"id": "B", "tally": {**tally, "rain_ribbon": True}}], bichodan)[1]
    assert found.ribbons == 2  # the December ribbon left out of the total
    # with the December ribbon listed by A, B's chodan is its three ribbons
    a["cards"].remove("04-ribbon")
    a["cards"].append("12-ribbon")
    assert _issues({"players": [a, {"id": "B", "tally": tally}]}, bichodan) == []
    assert _read([a, {"id": "B", "tally": tally}], bichodan)[1].ribbons == 3


# --- the optional counts, asked for only where they change the result ---------------------
# junk_cards (pibak_count: cards) decides a loser's 피박 only; double_junks pays the
# three-double-junk bonus of the winner only, and shows in every player's points in a
# preview; a nagari pays from no pile.

BY_CARDS = resolve("standard", {"pibak_count": "cards"})
BONUS = resolve("standard", {"three_double_pi_bonus": 3})
A12 = {"id": "A", "tally": {"junk_value": 12}}
B2 = {"id": "B", "tally": {"junk_value": 2, "junk_cards": 2}}
C1 = {"id": "C", "tally": {"junk_value": 1, "junk_cards": 1}}


def test_the_winner_need_not_count_its_junk_cards() -> None:
    # repro 07 (a): A wins on junk 12 = 3; B (2 cards) and C (1 card) are in 피박 (5 or
    # fewer cards, 3 players): each pays 3 x 2 = 6
    hand = {"players": [A12, B2, C1], "outcome": STOP_A}
    assert _issues(hand, BY_CARDS) == []
    assert {p.payer: p.points for p in settle(build_hand(hand), BY_CARDS).payments} == {
        "B": 6,
        "C": 6,
    }
    plain = [A12, {"id": "B", "tally": {"junk_value": 2}}, {"id": "C", "tally": {}}]
    assert _issues({"players": plain}, BY_CARDS) == []  # a preview prices no 피박
    assert _issues({"players": plain, "outcome": {"type": "nagari"}}, BY_CARDS) == []


def test_a_loser_must_count_its_junk_cards() -> None:
    hand = {"players": [A12, {"id": "B", "tally": {"junk_value": 2}}, C1], "outcome": STOP_A}
    assert _issues(hand, BY_CARDS) == [("missing_count", ("players", 1, "tally", "junk_cards"))]
    with pytest.raises(GoStopError) as caught:
        settle(build_hand(hand), BY_CARDS)
    assert "a loser's junk cards decide its 피박" in caught.value.issues[0].detail


THREE_DOUBLES = {"brights": 3, "junk_value": 6, "double_junks": 2, "has_gukjin": True, "animals": 1}


def test_a_loser_need_not_count_its_double_junks() -> None:
    # repro 07 (b): A = 3 brights (3), the sake cup read as junk makes three double junks
    # (+3) -> 6; B and C hold a bright each (no 광박), no junk scored: each pays 6
    b = {"id": "B", "tally": {"brights": 1}}
    c = {"id": "C", "tally": {"brights": 1, "rain_bright": True}}
    hand = {"players": [{"id": "A", "tally": THREE_DOUBLES}, b, c], "outcome": STOP_A}
    assert _issues(hand, BONUS) == []
    assert {p.payer: p.points for p in settle(build_hand(hand), BONUS).payments} == {
        "B": 6,
        "C": 6,
    }
    assert _issues({**hand, "outcome": {"type": "nagari"}}, BONUS) == []


def test_the_winner_and_a_preview_count_double_junks() -> None:
    unsaid = {k: v for k, v in THREE_DOUBLES.items() if k != "double_junks"}
    b = {"id": "B", "tally": {"brights": 1}}
    c = {"id": "C", "tally": {"brights": 1, "rain_bright": True}}
    hand = {"players": [{"id": "A", "tally": unsaid}, b, c], "outcome": STOP_A}
    missing = "missing_count"
    assert _issues(hand, BONUS) == [(missing, ("players", 0, "tally", "double_junks"))]
    with pytest.raises(GoStopError) as caught:
        settle(build_hand(hand), BONUS)
    assert "the winner's pile pays it" in caught.value.issues[0].detail
    preview = {"players": [{"id": "A", "tally": THREE_DOUBLES}, b, c]}
    assert _issues(preview, BONUS) == [
        (missing, ("players", 1, "tally", "double_junks")),
        (missing, ("players", 2, "tally", "double_junks")),
    ]


def test_a_stored_hand_is_read_with_the_cards_its_counts_force() -> None:
    # a table's stored hand is scored again without the fit refusals (entering False);
    # the forced sake cup is read all the same, so the table keeps the 44 it was entered
    # with (test_nine_animals_tallied_hold_the_sake_cup)
    tally = {"animals": 9, "godori": True, "junk_value": 9}
    hand = build_hand({"players": [{"id": "A", "tally": tally}, LOSER_B], "outcome": STOP_A})
    assert [p.points for p in settle(hand, STANDARD, entering=False).payments] == [44]


def test_a_forced_sake_cup_is_not_for_sale() -> None:
    # fudawiki sells 10 cards: 5 brights, bonus-a and -b, the sake cup, 2 double junks. A
    # holds 3 brights and 11S and the eight animals other than the cup, so B's one
    # animal is the cup; C holds 2 brights, 12S and bonus-a: 4 + 1 + 4 = 9 held, one
    # (bonus-b) left to sell
    a = ["1G", "3G", "8G", "11S", *(c for c in ALL_ANIMALS if c != "09-animal")]
    piles: list[Any] = [a, {"animals": 1}, ["11G", "12G", "12S", "B2"]]
    assert _sale(piles, 1, FUDAWIKI) == []
    assert _sale(piles, 2, FUDAWIKI) == [("deck_exceeded", ("players", 3, "sold_brights"))]


def test_two_tallies_of_animals_hold_the_unsaid_cards_every_deal_gives_them() -> None:
    # from the deck: every deal of the animals to A, B and nobody, each pile given as a
    # tally (the sake cup and the May bridge said or not); a card left unsaid is held when
    # every deal that gives both tallies puts it in that pile (five animals and four: one
    # of them holds the cup, neither must)
    names = ("godori", "has_gukjin", "has_may_animal")
    named = (BIRDS, {"09-animal"}, {"05-animal"})
    unsaid = {"09-animal": 1, "05-animal": 2}  # the card, and its flag's place in a key
    always: dict[tuple, list[set[str]]] = {}  # the unsaid cards each pile holds in every deal
    for owners in itertools.product((0, 1, None), repeat=len(ALL_ANIMALS)):
        piles = [{c for c, o in zip(ALL_ANIMALS, owners, strict=True) if o == i} for i in (0, 1)]
        keys = []
        for pile in piles:
            held = tuple(cards <= pile for cards in named)
            keys.append({(len(pile), *stated) for stated in _unstated(names, held)})
        for pair in itertools.product(*keys):
            cards = [
                {c for c, at in unsaid.items() if c in p and not k[at + 1]}
                for p, k in zip(piles, pair, strict=True)
            ]
            if pair in always:
                always[pair] = [a & c for a, c in zip(always[pair], cards, strict=True)]
            else:
                always[pair] = cards
    ruleset = OBSERVING[0]
    seen = 0
    for pair, held in always.items():
        tallies = [{"animals": k[0], **dict(zip(names, k[1:], strict=True))} for k in pair]
        stated = [
            {**t, **{names[unsaid[c]]: True for c in h}} for t, h in zip(tallies, held, strict=True)
        ]
        seen += any(held)
        players = [{"id": pid, "tally": t} for pid, t in zip("AB", tallies, strict=True)]
        said = [{"id": pid, "tally": t} for pid, t in zip("AB", stated, strict=True)]
        assert _read(players, ruleset) == _read(said, ruleset), pair
    assert seen


@pytest.mark.parametrize(
    "tally",
    [
        # the cup said among the animals, and again as the third double junk (2 + 2 + 2)
        {"animals": 1, "has_gukjin": True, "junk_value": 6, "double_junks": 3},
        # nine animals are every animal, the cup among them: it is not in the junk too
        {"animals": 9, "godori": True, "junk_value": 6, "double_junks": 3},
    ],
)
def test_the_sake_cup_is_counted_once(tally: dict[str, Any]) -> None:
    assert _alone(tally) == [("impossible_tally", ("players", 0, "tally", "double_junks"))]
    # eight animals may leave the cup out: then it is the third double junk
    assert _alone({"animals": 8, "godori": True, "junk_value": 6, "double_junks": 3}) == []
