"""Bad hands raise precise domain errors: a stable code and the place of the problem."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from calculator import (
    AmbiguousHandError,
    GoStopError,
    ImpossibleHandError,
    InvalidHandError,
    InvalidRulesError,
    resolve,
    settle,
)
from calculator.hand import Hand, PlayerHand, Tally
from calculator.limits import MAX_PROBLEMS
from calculator.presets import Variant
from calculator.settlement import compare
from handbuilder import build_hand

STANDARD = resolve("standard")
STOP_A = {"type": "stop", "winner": "A"}


def _issues(hand: dict[str, Any], ruleset: Any = STANDARD) -> list[tuple[str, tuple]]:
    with pytest.raises(GoStopError) as caught:
        settle(build_hand(hand), ruleset)
    return [(i.code, i.location) for i in caught.value.issues]


def _error(hand: dict[str, Any], ruleset: Any = STANDARD) -> GoStopError:
    with pytest.raises(GoStopError) as caught:
        settle(build_hand(hand), ruleset)
    return caught.value


def test_unknown_card_is_located_and_suggests_the_id() -> None:
    error = _error(
        {"players": [{"id": "A", "cards": ["01-bright", "01-brigth"]}, {"id": "B", "cards": []}]}
    )
    assert isinstance(error, ImpossibleHandError)
    (issue,) = error.issues
    assert (issue.code, issue.location) == ("unknown_card", ("players", 0, "captured", 1))
    assert "01-bright" in issue.detail


def test_duplicate_card_names_both_holders() -> None:
    error = _error(
        {
            "players": [
                {"id": "A", "cards": ["01-bright", "03-bright"]},
                {"id": "B", "cards": ["02-junk-1", "03-bright"]},
            ]
        }
    )
    (issue,) = error.issues
    assert issue.code == "duplicate_card"
    assert issue.location == ("players", 1, "captured", 1)
    assert "'A'" in issue.detail
    assert "'B'" in issue.detail
    assert "/players/0/captured/1" in issue.detail


def test_duplicate_within_one_pile_and_every_problem_is_reported() -> None:
    issues = _issues(
        {
            "players": [
                {"id": "A", "cards": ["01-bright", "01-bright", "zz"]},
                {"id": "B", "cards": ["bonus-c"]},
            ]
        }
    )
    assert issues == [
        ("duplicate_card", ("players", 0, "captured", 1)),
        ("unknown_card", ("players", 0, "captured", 2)),
        ("card_not_in_deck", ("players", 1, "captured", 0)),
    ]


def test_sitter_hand_cards_count_for_duplicates() -> None:
    issues = _issues(
        {
            "players": [
                {"id": "S", "sits_out": True, "hand": ["08-bright"]},
                {"id": "A", "cards": ["08-bright"]},
                {"id": "B", "cards": []},
                {"id": "C", "cards": []},
            ]
        }
    )
    assert issues == [("duplicate_card", ("players", 1, "captured", 0))]


def test_winner_not_a_player() -> None:
    error = _error(
        {
            "players": [{"id": "A", "cards": []}, {"id": "B", "cards": []}],
            "outcome": {"type": "stop", "winner": "Z"},
        }
    )
    assert isinstance(error, InvalidHandError)
    assert [(i.code, i.location) for i in error.issues] == [
        ("unknown_player", ("outcome", "winner"))
    ]


def test_winner_below_stop_minimum_is_an_error_not_a_zero() -> None:
    error = _error(
        {
            "players": [{"id": "A", "cards": ["1G", "3G", "8G"]}, {"id": "B", "cards": []}],
            "outcome": STOP_A,
        }
    )
    (issue,) = error.issues
    assert issue.code == "below_stop_minimum"
    assert "3 point" in issue.detail
    assert "7" in issue.detail


def test_auto_reading_that_reaches_the_minimum_is_used() -> None:
    # 10 single junk + the sake cup as junk = 12 → 3 points; as an animal only 1.
    hand = {
        "players": [
            {
                "id": "A",
                "cards": ["1P", "1P", "2P", "2P", "3P", "3P", "4P", "4P", "5P", "5P", "9A"],
            },
            {"id": "B", "cards": []},
            {"id": "C", "cards": []},
        ],
        "outcome": STOP_A,
    }
    result = settle(build_hand(hand), STANDARD)
    assert result.players[0].points == 3
    assert dict(result.players[0].gukjin_as) == {"09-animal": "junk"}
    with pytest.raises(InvalidHandError):
        settle(
            build_hand(
                {
                    **hand,
                    "players": [{**hand["players"][0], "gukjin": "animal"}, *hand["players"][1:]],
                }
            ),
            STANDARD,
        )


# The sake cup on auto with three_double_pi_bonus 3 (the bug hunt's repro 01). A holds
# 1G 3G 12G (비삼광, 2 points), the animals 6A 7A 10A 12A and the cup 9A, and both double
# junks. Cup as an animal: 2 + five animals 1 = 3, all of it toward the minimum of 3. Cup as
# junk: 2 + junk value 6 (0) + the three-double-junk bonus 3 = 5, but the bonus does not
# count toward the minimum (docs/rules.md §2.4), so only 2 count.
BONUS_CUP = {
    "players": [
        {
            "id": "A",
            "cards": ["1G", "3G", "12G", "6A", "7A", "10A", "12A", "9A", "11S", "12S"],
        },
        {"id": "B", "cards": ["8G", "1P"]},
        {"id": "C", "cards": ["11G", "2P"]},
    ],
}
BONUS_RULES = resolve("standard", {"three_double_pi_bonus": 3})


def test_a_preview_shows_the_reading_a_stop_would_take() -> None:
    preview = settle(build_hand(BONUS_CUP), BONUS_RULES).players[0]
    stop = settle(build_hand({**BONUS_CUP, "outcome": STOP_A}), BONUS_RULES)
    assert (preview.points, preview.may_stop, dict(preview.gukjin_as)) == (
        3,
        True,
        {"09-animal": "animal"},
    )
    assert (stop.players[0].points, dict(stop.players[0].gukjin_as)) == (3, preview.gukjin_as)
    assert [(p.payer, p.points) for p in stop.payments] == [("B", 3), ("C", 3)]


def test_a_preview_with_no_reading_that_may_stop_shows_the_best_points() -> None:
    # Without 6A, the animal reading scores 2 and the junk reading 2 (+ 3 bonus): neither
    # may stop, and the preview shows the junk reading's 5.
    cards = [c for c in BONUS_CUP["players"][0]["cards"] if c != "6A"]
    hand = {"players": [{"id": "A", "cards": cards}, *BONUS_CUP["players"][1:]]}
    preview = settle(build_hand(hand), BONUS_RULES).players[0]
    assert (preview.points, preview.may_stop) == (5, False)
    error = _error({**hand, "outcome": STOP_A}, BONUS_RULES)
    (issue,) = error.issues
    assert issue.code == "below_stop_minimum"
    # the best reading's points toward the minimum, and why the bonus does not count
    assert "has 2 points toward the stop minimum" in issue.detail
    assert "the 3 for three double junks do not count" in issue.detail
    assert "at least 3" in issue.detail


@pytest.mark.parametrize(
    ("tally", "field", "code"),
    [
        ({"godori": True, "animals": 2}, "godori", "impossible_tally"),
        ({"brights": 6}, "brights", "impossible_tally"),
        ({"brights": 5}, "rain_bright", "impossible_tally"),
        ({"rain_bright": True}, "rain_bright", "impossible_tally"),
        ({"hongdan": True, "cheongdan": True, "ribbons": 5}, "ribbons", "impossible_tally"),
        ({"animals": -1}, "animals", "negative_count"),
        ({"junk_value": 99}, "junk_value", "impossible_tally"),
        ({"junk_value": 3, "junk_cards": 4}, "junk_cards", "impossible_tally"),
        ({"has_gukjin": True}, "animals", "impossible_tally"),
    ],
)
def test_impossible_tallies(tally: dict[str, Any], field: str, code: str) -> None:
    issues = _issues({"players": [{"id": "A", "tally": tally}, {"id": "B", "cards": []}]})
    assert (code, ("players", 0, "tally", field)) in issues


def test_tallies_that_exceed_the_deck_across_players() -> None:
    error = _error(
        {
            "players": [
                {"id": "A", "tally": {"brights": 3}},
                {"id": "B", "tally": {"brights": 2}},
                {"id": "C", "cards": ["1G"]},
            ]
        }
    )
    assert isinstance(error, ImpossibleHandError)
    assert [(i.code, i.location) for i in error.issues] == [("deck_exceeded", ("players",))]
    assert "6 brights" in error.issues[0].detail


def test_set_held_twice_across_modes() -> None:
    issues = _issues(
        {
            "players": [
                {"id": "A", "tally": {"ribbons": 3, "hongdan": True}},
                {"id": "B", "cards": ["1R", "2R", "3R"]},
            ]
        }
    )
    assert issues == [("deck_exceeded", ("players",))]


def test_more_than_one_sitter() -> None:
    issues = _issues(
        {
            "players": [
                {"id": "A", "sits_out": True},
                {"id": "B", "sits_out": True},
                {"id": "C", "cards": []},
                {"id": "D", "cards": []},
            ]
        }
    )
    assert ("too_many_sitters", ("players", 1, "sits_out")) in issues


@pytest.mark.parametrize(("count", "said"), [(1, "1 player: "), (5, "5 players: ")])
def test_player_count_the_rules_do_not_allow(count: int, said: str) -> None:
    players = [{"id": f"P{i}", "cards": []} for i in range(count)]
    assert ("player_count", ("players",)) in _issues({"players": players})
    (issue,) = [i for i in _error({"players": players}).issues if i.code == "player_count"]
    assert issue.detail.startswith(said)


def test_four_players_need_a_sitter_and_observe_tables_sell_nothing() -> None:
    players = [{"id": f"P{i}", "cards": []} for i in range(4)]
    assert ("sitter_required", ("players",)) in _issues({"players": players})
    players[0] = {"id": "P0", "sits_out": True, "sold_brights": 2}
    assert ("gwangpal_not_played", ("players", 0, "sold_brights")) in _issues(
        {"players": players}, resolve("gamerules")
    )


def test_negative_counts() -> None:
    issues = _issues(
        {
            "players": [{"id": "A", "cards": [], "shakes": -1}, {"id": "B", "cards": []}],
            "nagari_streak": -2,
        }
    )
    assert ("negative_count", ("players", 0, "shakes")) in issues
    assert ("negative_count", ("nagari_streak",)) in issues


def test_entry_mode_exactly_one() -> None:
    hand = Hand(players=(PlayerHand(id="A", captured=(), tally=Tally()), PlayerHand(id="B")))
    with pytest.raises(InvalidHandError) as caught:
        settle(hand, STANDARD)
    assert [(i.code, i.location) for i in caught.value.issues] == [
        ("entry_mode", ("players", 0, "tally")),
        ("entry_mode", ("players", 1)),
    ]


def test_two_go_callers_under_pay_all_need_the_liable_first_caller() -> None:
    hand = {
        "players": [
            {"id": "A", "cards": ["1R", "2R", "3R"]},
            {"id": "B", "cards": [], "go_count": 1},
            {"id": "C", "cards": [], "go_count": 2},
        ],
        "outcome": STOP_A,
    }
    error = _error(hand)
    assert isinstance(error, AmbiguousHandError)
    assert [(i.code, i.location) for i in error.issues] == [
        ("liable_required", ("outcome", "liable"))
    ]
    result = settle(build_hand({**hand, "outcome": {**STOP_A, "liable": "C"}}), STANDARD)
    assert dict(result.net) == {"A": 6, "B": 0, "C": -6}
    assert _issues({**hand, "outcome": {**STOP_A, "liable": "A"}}) == [
        ("invalid_liable", ("outcome", "liable"))
    ]


def test_liable_that_contradicts_go_bak() -> None:
    hand = {
        "players": [
            {"id": "A", "cards": ["1R", "2R", "3R"]},
            {"id": "B", "cards": [], "go_count": 1},
            {"id": "C", "cards": []},
        ],
        "outcome": {**STOP_A, "liable": "C"},
    }
    assert _issues(hand) == [("liable_conflict", ("outcome", "liable"))]


# The bug hunt's repro 06. A stops with 6: brights 1G 3G 8G (3) + junk value 12 (3). B
# called go and holds 12G and junk 7: owes 6, with 고박 ×2 12. C holds junk 3 and no bright:
# 6 × 2 (광박) × 2 (피박) = 24.
FED = {
    "players": [
        {
            "id": "A",
            "cards": [
                *["1P", "1P", "2P", "2P", "3P", "3P", "4P", "4P", "5P", "5P", "6P", "6P"],
                *["1G", "3G", "8G"],
            ],
        },
        {"id": "B", "go_count": 1, "cards": ["12G", "7P", "7P", "8P", "8P", "9P", "9P", "10P"]},
        {"id": "C", "cards": ["10P", "11P", "11P"]},
    ],
}


@pytest.mark.parametrize("mode", ["double", "pay_all", "pay_all_and_double", "pay_all_doubled"])
def test_go_bak_takes_precedence_over_a_named_dokbak(mode: str) -> None:
    # docs/rules.md §4.7: 고박 takes precedence over a house 독박, whatever it bills.
    hand = {**FED, "outcome": {**STOP_A, "liable": "C"}}
    rules = resolve("standard", {"gobak_mode_3p": mode})
    error = _error(hand, rules)
    assert [(i.code, i.location) for i in error.issues] == [
        ("liable_conflict", ("outcome", "liable"))
    ]
    assert "'B' called go and lost" in error.issues[0].detail


def test_a_named_dokbak_under_double_may_be_the_go_caller_and_without_go_bak_anyone() -> None:
    double = resolve("standard", {"gobak_mode_3p": "double"})
    named_b = settle(build_hand({**FED, "outcome": {**STOP_A, "liable": "B"}}), double)
    # B pays its own 12 (고박 ×2) and covers C's 24
    assert [(p.payer, p.points) for p in named_b.payments] == [("B", 36), ("C", 0)]
    none = resolve("standard", {"gobak_mode_3p": "none"})
    named_c = settle(build_hand({**FED, "outcome": {**STOP_A, "liable": "C"}}), none)
    # no 고박: B owes 6, which C covers with its own 24
    assert [(p.payer, p.points) for p in named_c.payments] == [("C", 30), ("B", 0)]


def test_go_bak_of_yeokgo_fixed_x4_takes_precedence_too() -> None:
    rules = resolve("standard", {"gobak_mode_3p": "none", "yeokgo_mode": "fixed_x4"})
    winner = {**FED["players"][0], "go_count": 1, "yeokgo": True}
    hand = {"players": [winner, *FED["players"][1:]], "outcome": {**STOP_A, "liable": "C"}}
    assert _issues(hand, rules) == [("liable_conflict", ("outcome", "liable"))]


def test_dokbak_liable_without_go_bak() -> None:
    hand = {
        "players": [
            {"id": "A", "cards": ["1R", "2R", "3R"]},
            {"id": "B", "cards": ["1G"]},
            {"id": "C", "cards": []},
        ],
        "outcome": {**STOP_A, "liable": "B"},
    }
    result = settle(build_hand(hand), STANDARD)
    assert [(p.payer, p.points) for p in result.payments] == [("B", 6), ("C", 0)]
    assert result.payments[0].steps[-1].code == "covers"


def test_declared_bak_must_be_triggered_by_the_winner() -> None:
    hand = {
        "players": [
            {"id": "A", "declared": {"points": 4, "scored": ["ribbons"]}},
            {"id": "B", "declared": {"gwang_bak": True}},
            {"id": "C", "declared": {}},
        ],
        "outcome": STOP_A,
    }
    assert _issues(hand) == [("bak_not_triggered", ("players", 1, "declared", "gwang_bak"))]
    hand["players"][1] = {"id": "B", "declared": {"meong_bak": True}}
    assert _issues(hand) == [("bak_not_played", ("players", 1, "declared", "meong_bak"))]


def test_a_bak_declared_on_the_winner_is_refused_not_ignored() -> None:
    """Regression (issue #11 item 7): the winner's pi_bak was silently dropped."""
    hand = {
        "players": [
            {"id": "A", "declared": {"points": 12, "scored": ["junk"], "pi_bak": True}},
            {"id": "B", "declared": {"pi_bak": True}},
            {"id": "C", "declared": {}},
        ],
        "outcome": STOP_A,
    }
    assert _issues(hand) == [("bak_on_winner", ("players", 0, "declared", "pi_bak"))]
    hand["players"][0]["declared"] = {"points": 12, "scored": ["junk"]}
    assert settle(build_hand(hand), STANDARD).net == {"A": 36, "B": -24, "C": -12}


def test_meongtta_declared_on_a_loser_is_refused_not_ignored() -> None:
    """멍따 doubles what the winner is paid; set on a loser's declaration it used to be
    dropped silently (A 6 points × 2 = 12 from each loser became 6)."""
    hand = {
        "players": [
            {"id": "A", "declared": {"points": 6, "scored": ["animals"]}},
            {"id": "B", "declared": {"meongtta": True}},
            {"id": "C", "declared": {}},
        ],
        "outcome": STOP_A,
    }
    assert _issues(hand) == [("meongtta_not_winner", ("players", 1, "declared", "meongtta"))]
    hand["players"][1]["declared"] = {}
    hand["players"][0]["declared"]["meongtta"] = True  # on the winner: 6 × 2 from each loser
    assert settle(build_hand(hand), STANDARD).net == {"A": 24, "B": -12, "C": -12}


def test_a_winners_declared_meongtta_must_be_played_and_scored() -> None:
    """멍따 is 7+ animals (docs/rules.md §4.3), which always score animals (§2.2: five
    and more); the wikipedia preset has no 멍따 at all. Both used to be taken: the flag
    doubled a pile that scored only junk (8 × 2 = 16), or was dropped without a word."""
    hand = {
        "players": [
            {"id": "A", "declared": {"points": 8, "scored": ["junk"], "meongtta": True}},
            {"id": "B", "declared": {}},
        ],
        "outcome": STOP_A,
    }
    at = ("players", 0, "declared", "meongtta")
    assert _issues(hand) == [("impossible_flags", at)]
    hand["players"][0]["declared"]["scored"] = ["animals", "godori"]
    # scored as animals, it is 멍따: 8 × 2 = 16 (W25's step)
    assert dict(settle(build_hand(hand), STANDARD).net) == {"A": 16, "B": -16}
    wikipedia = resolve("wikipedia")
    assert _issues(hand, wikipedia) == [("meongtta_not_played", at)]
    # a table hand stored before 2026-12-05 is scored as it was: no 멍따 there, 8 from B
    assert dict(settle(build_hand(hand), wikipedia, entering=False).net) == {"A": 8, "B": -8}
    hand["players"][0]["declared"]["scored"] = ["junk"]
    assert dict(settle(build_hand(hand), STANDARD, entering=False).net) == {"A": 16, "B": -16}
    # 멍따's 7 animals are 3 points (docs/rules.md §2.2), godori 5: 8 at least, not 7
    hand["players"][0]["declared"] = {
        "points": 7,
        "scored": ["animals", "godori"],
        "meongtta": True,
    }
    assert _issues(hand) == [("points_below_scored", ("players", 0, "declared", "points"))]


def test_declared_points_reach_what_the_scored_categories_are_worth_at_least() -> None:
    """Each category a declaration lists is worth at least (docs/rules.md §2, standard):
    brights 2 (three with the rain man, 비삼광), animals 1 (five), godori 5, ribbons 1
    (five), junk 1 (value 10) — 10 for all five. 7 from all five was taken and paid as
    7 (an integrator's probe, 2026-12-06). Checked where the points count: a stop's
    winner, every player of a preview."""
    everything = ["brights", "animals", "godori", "ribbons", "junk"]
    hand = {
        "players": [
            {"id": "A", "declared": {"points": 7, "scored": everything}},
            {"id": "B", "declared": {}},
            {"id": "C", "declared": {}},
        ],
        "outcome": STOP_A,
    }
    error = _error(hand)
    assert isinstance(error, ImpossibleHandError)
    (issue,) = error.issues
    assert (issue.code, issue.location) == (
        "points_below_scored",
        ("players", 0, "declared", "points"),
    )
    assert "at least 10" in issue.detail
    assert "brights 2, animals 1, godori 5, ribbons 1, junk 1" in issue.detail
    hand["players"][0]["declared"]["points"] = 10
    assert dict(settle(build_hand(hand), STANDARD).net) == {"A": 20, "B": -10, "C": -10}
    # a table hand stored before 2026-12-07 is scored as it was then
    hand["players"][0]["declared"]["points"] = 7
    assert dict(settle(build_hand(hand), STANDARD, entering=False).net) == {
        "A": 14,
        "B": -7,
        "C": -7,
    }
    # godori is worth godori_points: 5 in standard, 3 where a house plays 3
    hand["players"][0]["declared"] = {"points": 4, "scored": ["godori", "junk"]}
    assert _issues(hand) == [("points_below_scored", ("players", 0, "declared", "points"))]
    cheap = resolve("standard", {"godori_points": 3})
    hand["players"][1]["declared"] = {"pi_bak": True}
    # B: 4 × 2 (피박, checked against the junk A scored), C: 4
    assert dict(settle(build_hand(hand), cheap).net) == {"A": 12, "B": -8, "C": -4}
    # where four brights are worth 1, one point from brights can be (three is the
    # stop minimum of three players: that refuses it, not what brights are worth)
    hand["players"][0]["declared"] = {"points": 1, "scored": ["brights"]}
    hand["players"][1]["declared"] = {}
    assert _issues(hand, resolve("standard", {"four_brights_points": 1})) == [
        ("below_stop_minimum", ("outcome", "winner"))
    ]
    assert _issues(hand) == [("points_below_scored", ("players", 0, "declared", "points"))]
    # a loser's points pay nothing: not checked; in a preview they say whether it may
    # stop: ribbons and junk are 2 points at least, not 1
    hand["players"][0]["declared"] = {"points": 7, "scored": ["junk"]}
    hand["players"][1]["declared"] = {"points": 1, "scored": ["ribbons", "junk"]}
    assert dict(settle(build_hand(hand), STANDARD).net) == {"A": 14, "B": -7, "C": -7}
    del hand["outcome"]
    assert _issues(hand) == [("points_below_scored", ("players", 1, "declared", "points"))]
    hand["outcome"] = {"type": "nagari"}  # nobody's points count
    assert dict(settle(build_hand(hand), STANDARD).net) == {"A": 0, "B": 0, "C": 0}


def test_a_declared_meongtta_counts_its_animals_and_other_piles_problems_are_said_too() -> None:
    """멍따 at a house's threshold of 8 animals: animals are worth 4 at least (8 − 4,
    docs/rules.md §2.2), godori 5; and a tally that cannot be is named in the same
    answer (SPEC §4: every problem of a hand at once)."""
    eight = resolve("standard", {"meongtta_threshold": 8})
    hand = {
        "players": [
            {
                "id": "A",
                "declared": {"points": 8, "scored": ["animals", "godori"], "meongtta": True},
            },
            {"id": "B", "declared": {}},
            {"id": "C", "tally": {"animals": 10}},
        ],
        "outcome": STOP_A,
    }
    error = _error(hand, eight)
    assert [(i.code, i.location) for i in error.issues] == [
        ("points_below_scored", ("players", 0, "declared", "points")),
        ("impossible_tally", ("players", 2, "tally", "animals")),
    ]
    assert "at least 9" in error.issues[0].detail
    assert "animals 4 (멍따: 8 animals), godori 5" in error.issues[0].detail
    hand["players"][2] = {"id": "C", "declared": {}}
    hand["players"][0]["declared"]["points"] = 9
    assert dict(settle(build_hand(hand), eight).net) == {"A": 36, "B": -18, "C": -18}


# 7 points: hongdan 3 and five ribbons 1, three brights 3 (a stop with two players too)
_RIBBONS5 = ["01-ribbon", "02-ribbon", "03-ribbon", "06-ribbon", "09-ribbon"]
_RIBBONS5 += ["01-bright", "03-bright", "08-bright"]


@pytest.mark.parametrize(
    ("seats", "most"),
    [
        # three players: 7 cards dealt, and standard's two bonus cards (bonus-a, bonus-b)
        # may each be replaced from the stock: 9 cards, three triples
        (3, 3),
        # two players: 10 cards dealt + 2 bonus = 12, four triples
        (2, 4),
    ],
)
def test_shakes_and_bombs_must_fit_the_hand_dealt(seats: int, most: int) -> None:
    """Each shake shows, each bomb plays, three cards of a month from the hand (docs/rules.md
    §4.1, §4.2); reference/rules.md's deal gives 10 cards each to two players, 7 to three.
    Ten shakes used to pay A 5 × 2^10."""
    players = [{"id": "A", "cards": _RIBBONS5}, {"id": "B", "cards": ["12-bright"]}]
    players += [{"id": "C", "cards": ["11-bright"]}][: seats - 2]
    for name in ("shakes", "bombs"):
        hand = {"players": copy.deepcopy(players), "outcome": STOP_A}
        hand["players"][0][name] = most + 1
        assert _issues(hand) == [("impossible_count", ("players", 0, name))]
        assert dict(settle(build_hand(hand), STANDARD, entering=False).net)["A"] > 0
        hand["players"][0][name] = most  # as many as fit: accepted
        settle(build_hand(hand), STANDARD)
    # a month shaken and then bombed is one triple: three of each fit three players
    hand = {"players": copy.deepcopy(players), "outcome": STOP_A}
    hand["players"][0].update(shakes=most, bombs=most)
    settle(build_hand(hand), STANDARD)
    # without bonus cards in the deck the hand holds 7 (or 10) cards alone: 2 (or 3)
    no_bonus = resolve("standard", {"bonus_a_junk_value": 0, "bonus_b_junk_value": 0})
    hand["players"][0].update(shakes=most, bombs=0)
    assert _issues(hand, no_bonus) == [("impossible_count", ("players", 0, "shakes"))]


def test_a_sitters_hand_is_at_most_the_seven_cards_dealt() -> None:
    """Four players: 7 cards each (reference/rules.md, ZeroFriends: "7장씩 가져갑니다")."""
    seven = ["01-bright", "03-bright", "08-bright", "02-animal", "04-animal", "05-animal"]
    seven.append("06-animal")
    hand = {
        "players": [
            {"id": "S", "sits_out": True, "hand": seven},
            {"id": "A", "cards": ["11-bright", "12-bright", "06-ribbon", "09-ribbon"]},
            {"id": "B", "cards": []},
            {"id": "C", "cards": []},
        ],
        "outcome": {"type": "nagari"},
    }
    # three brights sold at 2 from each of A, B and C
    assert dict(settle(build_hand(hand), STANDARD).net) == {"S": 18, "A": -6, "B": -6, "C": -6}
    hand["players"][0]["hand"] = [*seven, "07-animal"]
    assert _issues(hand) == [("impossible_count", ("players", 0, "hand"))]
    assert dict(settle(build_hand(hand), STANDARD, entering=False).net)["S"] == 18


@pytest.mark.parametrize("ending", ["chongtong", "floor_four"])
def test_a_hand_that_ended_at_the_deal_has_no_play(ending: str) -> None:
    """A 총통 or a floor four ends the hand at the deal (docs/rules.md §5.1, §5.2), as its
    refused events say: no go, shake or bomb, no capture but a bonus card turned up."""
    outcome: dict[str, Any] = {"type": ending}
    ruleset = STANDARD
    if ending == "chongtong":
        outcome["winner"] = "A"
    else:
        ruleset = resolve("standard", {"floor_four_of_month": "dealer_wins"})
    hand = {
        "dealer": "A",
        "players": [
            {"id": "A", "cards": ["01-bright", "03-bright"], "go_count": 2, "shakes": 1},
            {"id": "B", "tally": {"animals": 1}, "bombs": 1},
            {"id": "C", "declared": {"points": 3}},
        ],
        "outcome": outcome,
    }
    assert _issues(hand, ruleset) == [
        ("flags_without_play", ("players", 0, "go_count")),
        ("flags_without_play", ("players", 0, "shakes")),
        ("cards_without_play", ("players", 0, "captured")),
        ("flags_without_play", ("players", 1, "bombs")),
        ("cards_without_play", ("players", 1, "tally")),
        ("cards_without_play", ("players", 2, "declared")),
    ]
    said = next(i.detail for i in _error(hand, ruleset).issues if i.code == "cards_without_play")
    assert said == (
        f"a {ending} ends the hand at the deal, before any play, so 'A' can have captured "
        "nothing but a bonus card turned up at the deal; send its pile empty (or holding "
        "only bonus cards)"
    )
    # stored before 2026-12-05: scored as then, the stop minimum 3 from B and C
    assert dict(settle(build_hand(hand), ruleset, entering=False).net) == {
        "A": 6,
        "B": -3,
        "C": -3,
    }
    hand["players"] = [
        {"id": "A", "cards": ["bonus-a"]},
        {"id": "B", "tally": {"junk_value": 3}},
        {"id": "C", "declared": {}},
    ]
    assert dict(settle(build_hand(hand), ruleset).net) == {"A": 6, "B": -3, "C": -3}


def test_events_are_checked() -> None:
    issues = _issues(
        {
            "players": [{"id": "A", "cards": []}, {"id": "B", "cards": []}],
            "events": [
                {"type": "consecutive_ppuk", "player": "A"},
                {"type": "first_ttadak", "player": "Z"},
            ],
        }
    )
    assert issues == [
        ("impossible_event", ("events", 0, "type")),
        ("unknown_player", ("events", 1, "player")),
    ]


def test_chongtong_events_and_played_on_rules() -> None:
    hand = {
        "players": [{"id": "A", "cards": []}, {"id": "B", "cards": []}],
        "outcome": {"type": "chongtong", "winner": "A"},
        "events": [{"type": "first_ppuk", "player": "A"}],
    }
    assert ("events_without_play", ("events",)) in _issues(hand)
    del hand["events"]
    ruleset = resolve("standard", {"chongtong_mode": "play_on_as_shake"})
    assert _issues(hand, ruleset) == [("chongtong_played_on", ("outcome", "type"))]


def test_yeokgo_needs_the_rule_and_both_gos() -> None:
    hand = {
        "players": [
            {"id": "A", "cards": ["1R", "2R", "3R"], "go_count": 1, "yeokgo": True},
            {"id": "B", "cards": [], "go_count": 1},
            {"id": "C", "cards": []},
        ],
        "outcome": STOP_A,
    }
    assert _issues(hand) == [("yeokgo_not_played", ("players", 0, "yeokgo"))]
    dokbak = settle(build_hand(hand), resolve("standard", {"yeokgo_mode": "double_and_dokbak"}))
    # (3 + 1) × 2 (역고) = 8 per loser; B, the go-caller, pays for both: 16.
    assert dict(dokbak.net) == {"A": 16, "B": -16, "C": 0}
    fixed = settle(build_hand(hand), resolve("standard", {"yeokgo_mode": "fixed_x4"}))
    # (3 + 1) × 4 = 16; B also pays 고박 ×2 (32) and, under pay_all, C's 16.
    assert dict(fixed.net) == {"A": 48, "B": -48, "C": 0}


def test_huge_amounts_are_refused_not_rounded() -> None:
    hand = {
        "players": [
            {"id": "A", "cards": ["1R", "2R", "3R"], "go_count": 40},
            {"id": "B", "cards": []},
            {"id": "C", "cards": []},
        ],
        "outcome": STOP_A,
        "stake": 10**9,
    }
    assert _issues(hand) == [("amount_too_large", ())]


def test_an_amount_the_answer_would_show_beyond_2_53_is_refused_even_if_nobody_pays_it() -> None:
    """The net can be 0 while the winner's amount or a step's factor is not: a stop on 0
    points (a minimum of 0) after 60 nagari hands is 0 × 2^60; an exempt loser (no card
    captured) owes nothing of a winner's 2^55-fold amount. Numbers past 2^53 − 1 are
    refused like a net would be (past 2^64 JSON cannot even carry them: it was a 500)."""
    empty = [{"id": "A", "cards": []}, {"id": "B", "cards": []}]
    for streak in (60, 64):
        hand = {"players": empty, "outcome": STOP_A, "nagari_streak": streak}
        anything = resolve("standard", {"min_points_to_stop_2p": 0})
        assert _issues(hand, anything) == [("amount_too_large", ())]
    within = settle(
        build_hand({"players": empty, "outcome": STOP_A, "nagari_streak": 52}), anything
    )
    assert within.winner_score is not None
    assert [(s.code, s.value, s.total) for s in within.winner_score.steps] == [("nagari", 2**52, 0)]
    # Four brights, 4 points; B captured nothing, so owes 4 × 2^n × 2 (광박) before its
    # exemption takes it to 0: 2^(n + 3), past 2^53 − 1 from n = 50.
    brights = ["1G", "3G", "8G", "11G"]
    exempt = resolve("standard", {"no_capture_exemption": True, "min_points_to_stop_2p": 0})
    for streak, refused in ((49, False), (50, True)):
        hand = {
            "players": [{"id": "A", "cards": brights}, {"id": "B", "cards": []}],
            "outcome": STOP_A,
            "nagari_streak": streak,
        }
        if refused:
            assert _issues(hand, exempt) == [("amount_too_large", ())]
        else:
            result = settle(build_hand(hand), exempt)
            assert result.winner_score is not None
            assert (result.winner_score.amount, dict(result.net)) == (4 * 2**49, {"A": 0, "B": 0})


def test_a_payment_past_2_53_is_refused_though_the_net_is_not() -> None:
    """B pays A 9 × 2^10 points at a stake of 10^12 (9.216 × 10^15 chips, past 2^53 − 1)
    and is paid back a first ppuk of 1,000 points by A, so the nets stay within it (the
    fresh-eyes review's case)."""
    hand = {
        "players": [
            {"id": "A", "declared": {"points": 9}},
            {"id": "B", "declared": {}},
        ],
        "outcome": STOP_A,
        "stake": 10**12,
        "nagari_streak": 10,
        "events": [{"type": "first_ppuk", "player": "B"}],
    }
    ruleset = resolve("standard", {"first_ppuk_points": 1000})
    assert _issues(hand, ruleset) == [("amount_too_large", ())]
    hand["stake"] = 10**11  # every amount 10 times smaller: within
    assert settle(build_hand(hand), ruleset).net["A"] == (9 * 2**10 - 1000) * 10**11


def test_ruleset_errors() -> None:
    with pytest.raises(InvalidRulesError) as caught:
        resolve("standard", {"go_formula": "cubic", "bomb_multipler": 1, "shake_multiplier": True})
    assert [(i.code, i.location) for i in caught.value.issues] == [
        ("invalid_option", ("ruleset", "options", "go_formula")),
        ("unknown_option", ("ruleset", "options", "bomb_multipler")),
        ("invalid_option", ("ruleset", "options", "shake_multiplier")),
    ]
    assert "bomb_multiplier" in caught.value.issues[1].detail
    with pytest.raises(InvalidRulesError) as caught:
        resolve("kitchen-table")
    assert caught.value.issues[0].code == "unknown_preset"
    assert "did you mean" not in caught.value.issues[0].detail  # nothing close


@pytest.mark.parametrize(
    ("given", "hint"),
    [
        ("bomb_multipler", "did you mean 'bomb_multiplier'?"),  # a typo: its closest name
        ("gwangpal_prise", "did you mean 'gwangpal_price'?"),
        # closest by spelling is meongtta_threshold: the family the name says is listed
        (
            "pibak_treshold",
            "the options beginning 'pibak_' are 'pibak_max_pi_2p', 'pibak_max_pi_3p', "
            "'pibak_zero_exempt' and 'pibak_count'",
        ),
        # a family's word alone: the family, not the one option closest to it
        (
            "shake",
            "the options beginning 'shake_' are 'shake_multiplier', 'shake_cap' and "
            "'shake_then_bomb_same_month'",
        ),
        # a family word that is no noun ("first", "three"): the options named by their
        # beginning ("the first options" read as the first ones)
        (
            "first",
            "the options beginning 'first_' are 'first_ppuk_points' and 'first_ttadak_points'",
        ),
        (
            "go_bonus",
            "the options beginning 'go_' are 'go_formula' and 'go_points_with_multiplier'",
        ),
        ("kitchen_sink", "see GET /v1/rulesets"),  # nothing close, no family
    ],
)
def test_an_unknown_option_says_the_option_or_the_family_it_is_closest_to(
    given: str, hint: str
) -> None:
    """An integrator who guessed a name ("pibak_treshold", a README trial) is pointed to
    the options of the family the name begins with, not to the name closest in spelling."""
    with pytest.raises(InvalidRulesError) as caught:
        resolve("standard", {given: 3})
    assert caught.value.issues[0].detail == f"there is no option {given!r}; {hint}"


@pytest.mark.parametrize(
    ("given", "variant", "hint"),
    [
        ("standart", Variant.GOSTOP, "(did you mean 'standard'?)"),
        ("kr_gostp", Variant.GOSTOP, "(did you mean 'kr_gostop', an alias of standard?)"),
        ("seed_e", None, "(did you mean 'seed_es', an alias of wikipedia?)"),
        ("minhwatoo", Variant.BALANCE, "(did you mean 'minhwatu'?)"),
        ("balanse", Variant.GOSTOP, None),  # a preset of the other variant is not offered
        ("STANDARD", Variant.GOSTOP, "(did you mean 'standard'?)"),  # whatever the case
        ("KR_GoStop", None, "(did you mean 'kr_gostop', an alias of standard?)"),
    ],
)
def test_an_unknown_preset_says_the_name_or_alias_it_is_closest_to(
    given: str, variant: Variant | None, hint: str | None
) -> None:
    with pytest.raises(InvalidRulesError) as caught:
        resolve(given, variant=variant)
    (issue,) = caught.value.issues
    assert issue.code == "unknown_preset"
    assert issue.detail.startswith(f"there is no preset '{given}'; use one of ")
    assert issue.detail.endswith(hint) if hint else "did you mean" not in issue.detail


def test_counts_name_each_category_by_its_own_count() -> None:
    """Counts are built positionally (``Counts._make``, for speed): a pile whose every
    count differs pins each value to its name, so a reordered record cannot swap two."""
    pile = (
        "01-bright",  # 1 bright
        *("02-animal", "04-animal"),  # 2 animals
        *("01-ribbon", "02-ribbon", "03-ribbon"),  # 3 ribbons
        *("05-junk-1", "05-junk-2", "06-junk-1", "06-junk-2", "11-double-junk"),  # 5, value 6
    )
    players = (PlayerHand(id="A", captured=pile), PlayerHand(id="B", captured=()))
    counts = settle(Hand(players=players), STANDARD).players[0].counts
    assert counts is not None
    assert counts._asdict() == {
        "brights": 1,
        "animals": 2,
        "ribbons": 3,
        "junk_value": 6,
        "junk_cards": 5,
        "cards": 11,
    }


@pytest.mark.parametrize(
    ("mode", "choice"),
    [("always_animal", "junk"), ("always_junk", "animal"), ("both", "animal"), ("both", "junk")],
)
def test_a_gukjin_choice_the_rules_fix_otherwise_is_refused(mode: str, choice: str) -> None:
    # 역고 on a rule set without it is refused, not ignored; so is a sake-cup reading the
    # rule set's gukjin_mode overrides
    hand = {
        "players": [
            {"id": "A", "cards": ["1G", "3G", "8G", "9A"], "gukjin": choice},
            {"id": "B", "cards": []},
            {"id": "C", "cards": []},
        ],
        "outcome": STOP_A,
    }
    rules = resolve("standard", {"gukjin_mode": mode})
    error = _error(hand, rules)
    assert [(i.code, i.location) for i in error.issues] == [
        ("gukjin_fixed", ("players", 0, "gukjin"))
    ]
    assert f"gukjin_mode is {mode}" in error.issues[0].detail
    # the choice that agrees with the mode, and auto, are accepted
    agrees = {"always_animal": "animal", "always_junk": "junk", "both": "auto"}[mode]
    players = [{**hand["players"][0], "gukjin": agrees}, *hand["players"][1:]]
    assert settle(build_hand({**hand, "players": players}), rules).players[0].points == 3


def test_gwang_bak_needs_a_bright_combination_that_scored() -> None:
    # docs/rules.md §4.4: the winner must have scored with brights. A holds four brights
    # worth 0 (four_brights_points 0) and junk value 12 (3): base 3. B holds no bright and
    # junk 1: 피박 only, 3 × 2 = 6 (not × 2 more for 광박). C holds the rain man and no junk
    # (면박): 3.
    hand = {
        "players": [
            {
                "id": "A",
                "cards": [
                    *["1P", "1P", "2P", "2P", "3P", "3P", "4P", "4P", "5P", "5P", "6P", "6P"],
                    *["1G", "3G", "8G", "11G"],
                ],
            },
            {"id": "B", "cards": ["7P"]},
            {"id": "C", "cards": ["12G"]},
        ],
        "outcome": STOP_A,
    }
    rules = resolve("standard", {"four_brights_points": 0})
    result = settle(build_hand(hand), rules)
    assert [(p.payer, p.points) for p in result.payments] == [("B", 6), ("C", 3)]
    assert [s.code for s in result.payments[0].steps] == ["winner_amount", "pi_bak"]
    # the same hand with four brights worth 4: base 7, B pays 광박 and 피박, 7 × 2 × 2 = 28
    scored = settle(build_hand(hand), STANDARD)
    assert [(p.payer, p.points) for p in scored.payments] == [("B", 28), ("C", 7)]
    # a declared 광박 against such a winner is refused as not triggered
    declared = {
        **hand,
        "players": [
            hand["players"][0],
            {"id": "B", "declared": {"gwang_bak": True}},
            hand["players"][2],
        ],
    }
    assert _issues(declared, rules) == [
        ("bak_not_triggered", ("players", 1, "declared", "gwang_bak"))
    ]


@pytest.mark.parametrize(
    ("mode", "a_holds", "found"),
    [
        # A holds one bright: 0 points, below the 3 a stop needs (below_stop_minimum)
        ("double", ["1G"], ("below_stop_minimum", ("outcome", "winner"))),
        # A's fourth card is not in the standard deck (bonus-c: card_not_in_deck)
        (
            "pay_all",
            ["1G", "3G", "8G", "bonus-c"],
            ("card_not_in_deck", ("players", 0, "captured", 3)),
        ),
    ],
)
def test_liable_conflict_is_listed_with_the_problems_of_the_cards_and_the_stop(
    mode: str, a_holds: list[str], found: tuple[str, tuple]
) -> None:
    # SPEC: the errors list names every problem. B called go and lost, C is named liable
    # (liable_conflict), and the hand has a problem of its cards or its stop besides.
    hand = {
        "players": [
            {"id": "A", "cards": a_holds},
            {"id": "B", "cards": ["1P"], "go_count": 1},
            {"id": "C", "cards": ["2P"]},
        ],
        "outcome": {**STOP_A, "liable": "C"},
    }
    issues = _issues(hand, resolve("standard", {"gobak_mode_3p": mode}))
    assert issues == [("liable_conflict", ("outcome", "liable")), found]
    # typed by the first problem, as a hand refused for its table and its cards is
    # (was the second's: impossible-hand for the card, invalid-hand for the same hand
    # refused for its winner and that card)
    assert type(_error(hand, resolve("standard", {"gobak_mode_3p": mode}))) is InvalidHandError


def test_a_stored_hand_is_scored_as_the_release_that_stored_it_scored_it() -> None:
    """Hands a table stored before 2026-12-05 that today's checks refuse when entered
    (``settle``'s ``entering``): scored again (entering False) as they were then."""
    double = resolve("standard", {"gobak_mode_3p": "double"})
    named_c = build_hand({**FED, "outcome": {**STOP_A, "liable": "C"}})
    assert _issues({**FED, "outcome": {**STOP_A, "liable": "C"}}, double) == [
        ("liable_conflict", ("outcome", "liable"))
    ]
    # FED: C pays its own 24 and, as a 독박, B's 12 (6 with 고박 ×2); B nothing
    stored = settle(named_c, double, entering=False)
    assert [(p.payer, p.points) for p in stored.payments] == [("C", 36), ("B", 0)]
    # a loser's 멍따 is dropped: A's declared 7 from B and C each
    meongtta = {
        "players": [
            {"id": "A", "declared": {"points": 7}},
            {"id": "B", "declared": {"points": 0, "meongtta": True}},
            {"id": "C", "declared": {}},
        ],
        "outcome": STOP_A,
    }
    assert _issues(meongtta) == [("meongtta_not_winner", ("players", 1, "declared", "meongtta"))]
    assert dict(settle(build_hand(meongtta), STANDARD, entering=False).net) == {
        "A": 14,
        "B": -7,
        "C": -7,
    }
    # a gukjin the mode overrides is ignored: the cup is an animal, A has 삼광 3 + five
    # animals 1 = 4 from B and C each
    fixed = resolve("standard", {"gukjin_mode": "always_animal"})
    assert _issues(CUP_SAID_JUNK, fixed) == [("gukjin_fixed", ("players", 0, "gukjin"))]
    assert dict(settle(build_hand(CUP_SAID_JUNK), fixed, entering=False).net) == {
        "A": 8,
        "B": -4,
        "C": -4,
    }


# A says the sake cup (among its five animals) is junk, and holds three brights; B and C a
# bright each (the rain man with C), so nobody pays 광박
CUP_SAID_JUNK = {
    "players": [
        {"id": "A", "tally": {"brights": 3, "animals": 5, "has_gukjin": True}, "gukjin": "junk"},
        {"id": "B", "tally": {"brights": 1}},
        {"id": "C", "tally": {"brights": 1, "rain_bright": True}},
    ],
    "outcome": STOP_A,
}


def test_compare_with_a_rule_set_that_fixes_the_sake_cup_ignores_the_players_gukjin() -> None:
    # gukjin_fixed is a check of the request's own rule set. Under standard (choice) the
    # cup read as junk leaves A four animals (0) and one double junk (junk 2: 0): 삼광 3
    # from B and C each. Compared under always_animal the choice is ignored: 3 + five
    # animals 1 = 4 each, A +2 (B and C −1).
    hand = build_hand(CUP_SAID_JUNK)
    result = settle(hand, STANDARD)
    assert dict(result.net) == {"A": 6, "B": -3, "C": -3}
    fixed = resolve("standard", {"gukjin_mode": "always_animal"})
    [compared] = compare(hand, result, [fixed])
    assert compared.error is None
    assert compared.result is not None
    assert dict(compared.result.net) == {"A": 8, "B": -4, "C": -4}
    assert compared.difference == {"A": 2, "B": -1, "C": -1}


def test_liable_conflict_beside_more_problems_than_are_listed_keeps_the_count() -> None:
    # 60 unknown cards with A and the liable_conflict: 61 problems; the first 50 listed
    # (the conflict first), the other 11 counted in the last issue
    hand = {
        "players": [
            {"id": "A", "cards": [f"no-such-card-{k}" for k in range(60)]},
            {"id": "B", "cards": ["1P"], "go_count": 1},
            {"id": "C", "cards": ["2P"]},
        ],
        "outcome": {**STOP_A, "liable": "C"},
    }
    error = _error(hand, resolve("standard", {"gobak_mode_3p": "double"}))
    codes = [i.code for i in error.issues]
    assert codes == ["liable_conflict"] + ["unknown_card"] * (MAX_PROBLEMS - 1) + [
        "too_many_problems"
    ]
    assert error.issues[-1].detail.startswith("and 11 more problems")


@pytest.mark.parametrize(
    ("table", "table_found"),
    [
        # the winner is no player
        ({"outcome": {"type": "stop", "winner": "Z"}}, ("unknown_player", ("outcome", "winner"))),
        # two players share an id (B's pile is the third player's)
        (
            {"rename": {2: "B"}},
            ("duplicate_player", ("players", 2, "id")),
        ),
        # a stake of 0
        ({"stake": 0}, ("invalid_stake", ("stake",))),
    ],
)
def test_a_hand_refused_for_its_table_is_refused_for_its_cards_too(
    table: dict[str, Any], table_found: tuple[str, tuple]
) -> None:
    # SPEC §4: the errors list names every problem. Before, a hand whose players, outcome
    # or stake were wrong was refused for those alone, and its cards' problems came one
    # round trip later. A's 1G is also in C's pile.
    hand: dict[str, Any] = {
        "players": [
            {"id": "A", "cards": ["1G", "3G", "8G"]},
            {"id": "B", "cards": ["1P"]},
            {"id": "C", "cards": ["2P", "1G"]},
        ],
        "outcome": STOP_A,
        "stake": 1,
    }
    for index, name in table.pop("rename", {}).items():
        hand["players"][index]["id"] = name
    hand.update(table)
    issues = _issues(hand)
    assert issues[0] == table_found
    assert issues[1:] == [("duplicate_card", ("players", 2, "captured", 1))]
    assert isinstance(_error(hand), InvalidHandError)  # the first kind's problem type
    # the same table with good cards: its own problems alone, as before
    hand["players"][2]["cards"] = ["2P"]
    assert _issues(hand) == [table_found]
