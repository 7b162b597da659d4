"""The shape of a scoring answer (issue #17): the compact rule set echo and its way back,
batches that list each rule set once, ready sentences, and the language they speak."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator.presets import resolve
from contract import service_contract
from handbuilder import build_body
from tests_support import THREE_BRIGHTS, W13

HANDS = "/v1/gostop/hands"
BATCH = "/v1/gostop/hands/batch"
STANDARD = resolve("standard").fingerprint

# Two players: A stops at 7 (three brights 3, five ribbons 1, junk 12 → 3); B has no bright,
# junk 3 and called go twice: 광박, 피박 and 고박, each ×2.
BAKS = {
    "stake": 100,
    "players": [
        {"id": "A", "tally": {"brights": 3, "ribbons": 5, "junk_value": 12}},
        {"id": "B", "tally": {"animals": 1, "junk_value": 3}, "go_count": 2},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.get_data(as_text=True)
    body: dict[str, Any] = response.get_json()
    return body


def _problem(response: Any) -> list[tuple[str, str]]:
    assert response.status_code == 422, response.get_data(as_text=True)
    return [(e["pointer"], e["code"]) for e in response.get_json()["errors"]]


# --- the rule set echo --------------------------------------------------------------------


def test_the_default_echo_is_compact_and_full_on_request(client: Any) -> None:
    body = {**W13, "ruleset": {"preset": "wikipedia", "options": {"bomb_multiplier": 2}}}
    compact = _ok(client.post(HANDS, json=body))["ruleset"]
    wanted = resolve("wikipedia", {"bomb_multiplier": 2})
    assert compact == {
        "variant": "gostop",
        "preset": "wikipedia",
        "fingerprint": wanted.fingerprint,
        "overrides": {"bomb_multiplier": 2},
    }
    full = _ok(client.post(HANDS + "?full_ruleset=true", json=body))["ruleset"]
    assert full == {**compact, "options": wanted.options()}
    assert _ok(client.post(HANDS + "?full_ruleset=false", json=body))["ruleset"] == compact


def test_an_option_set_to_the_presets_own_value_is_no_override(client: Any) -> None:
    body = {**W13, "ruleset": {"preset": "wikipedia", "options": {"bomb_multiplier": 1}}}
    echo = _ok(client.post(HANDS, json=body))["ruleset"]
    assert echo["overrides"] == {}
    assert echo["fingerprint"] == resolve("wikipedia").fingerprint


@pytest.mark.parametrize("query", ["", "?full_ruleset=true"])
def test_the_echo_goes_back_as_a_request_ruleset(client: Any, query: str) -> None:
    body = {**W13, "ruleset": {"preset": "gamerules", "options": {"shake_multiplier": 3}}}
    first = _ok(client.post(HANDS + query, json=body))
    again = _ok(client.post(HANDS + query, json={**W13, "ruleset": first["ruleset"]}))
    assert again == first


def test_a_fingerprint_that_does_not_match_is_a_422_naming_it(client: Any) -> None:
    echo = {"variant": "gostop", "preset": "standard", "fingerprint": STANDARD, "overrides": {}}
    assert _ok(client.post(HANDS, json={**W13, "ruleset": echo}))["ruleset"] == echo
    edited = {**echo, "overrides": {"bomb_multiplier": 3}}  # changed, fingerprint kept
    response = client.post(HANDS, json={**W13, "ruleset": edited})
    assert _problem(response) == [("/ruleset/fingerprint", "fingerprint_mismatch")]
    assert STANDARD in response.get_json()["errors"][0]["detail"]
    batch = client.post(BATCH, json={"hands": [{**W13, "ruleset": edited}]})
    [item] = _ok(batch)["results"]
    assert item["problem"]["errors"][0]["pointer"] == "/hands/0/ruleset/fingerprint"


def test_the_echo_back_is_checked_like_any_ruleset(client: Any) -> None:
    wrong_variant = {"variant": "balance", "preset": "standard"}
    assert _problem(client.post(HANDS, json={**W13, "ruleset": wrong_variant})) == [
        ("/ruleset/variant", "not_allowed")
    ]
    clash = {"preset": "standard", "options": {"bomb_multiplier": 3}}
    clash["overrides"] = {"bomb_multiplier": 4}
    assert _problem(client.post(HANDS, json={**W13, "ruleset": clash})) == [
        ("/ruleset/overrides/bomb_multiplier", "invalid_option")
    ]
    agree = {**clash, "overrides": {"bomb_multiplier": 3, "shake_multiplier": 3}}
    echo = _ok(client.post(HANDS, json={**W13, "ruleset": agree}))["ruleset"]
    assert echo["overrides"] == {"bomb_multiplier": 3, "shake_multiplier": 3}
    unknown = {"preset": "standard", "overrides": {"go_formla": "x"}}
    assert _problem(client.post(HANDS, json={**W13, "ruleset": unknown})) == [
        ("/ruleset/options/go_formla", "unknown_option")
    ]


# --- batches ------------------------------------------------------------------------------


def test_a_batch_lists_each_distinct_ruleset_once(client: Any) -> None:
    wiki = {"preset": "standard", "options": {"go_formula": "seed_es_linear"}}
    hands = [W13, {**W13, "ruleset": wiki}, W13, {**W13, "ruleset": "kr_gostop"}, {"x": 1}]
    answer = _ok(client.post(BATCH, json={"hands": hands}))
    fingerprints = [r["result"]["ruleset"]["fingerprint"] for r in answer["results"][:4]]
    assert set(answer["rulesets"]) == set(fingerprints)
    assert len(answer["rulesets"]) == 2
    for result in answer["results"][:4]:
        echo = result["result"]["ruleset"]
        assert answer["rulesets"][echo["fingerprint"]]["fingerprint"] == echo["fingerprint"]
        assert "options" not in echo
    full = _ok(client.post(BATCH + "?full_ruleset=true", json={"hands": hands}))
    # the full options come once, not per hand (problems differ only by request id)
    assert full["results"][:4] == answer["results"][:4]
    for fingerprint, echo in full["rulesets"].items():
        assert echo["options"] == resolve(echo["preset"], echo["overrides"]).options()
        assert echo["fingerprint"] == fingerprint


def test_a_batch_of_refusals_has_no_rulesets(client: Any) -> None:
    answer = _ok(client.post(BATCH, json={"hands": [{"x": 1}, None]}))
    assert answer["rulesets"] == {}
    assert answer["failed"] == 2


# --- sentences ----------------------------------------------------------------------------


def test_each_bak_step_says_what_triggered_it(client: Any) -> None:
    answer = _ok(client.post(HANDS, json=BAKS))
    [payment] = answer["payments"]
    texts = [(s["code"], s["text"]["ko"]) for s in payment["steps"]]
    assert texts == [  # from the winner's amount, 7 (winner_score.amount)
        ("gwang_bak", "7 × 2 (광박: 승자 광 3장, 광 없음) = 14"),
        ("pi_bak", "14 × 2 (피박: 피 3 ≤ 7) = 28"),
        ("go_bak", "28 × 2 (고박: 2고 후 패배) = 56"),
    ]
    assert payment["text"] == {
        "ko": "7 × 2 (광박: 승자 광 3장, 광 없음) × 2 (피박: 피 3 ≤ 7) × 2 (고박: 2고 후 패배) "
        "= 56점 × 100 = 5,600칩"
    }
    english = _ok(client.post(HANDS + "?lang=en", json=BAKS))["payments"][0]
    assert [s["text"]["en"] for s in english["steps"]] == [
        "7 × 2 (bright penalty (gwang-bak): winner scored 3 brights, none here) = 14",
        "14 × 2 (junk penalty (pi-bak): 3 junk ≤ 7) = 28",
        "28 × 2 (failed go (go-bak): lost after 2 go calls) = 56",
    ]
    assert english["text"]["en"].endswith("= 56 points × 100 = 5,600 chips")


def test_a_declared_bak_says_so_and_the_rain_man_alone_does_not_protect(client: Any) -> None:
    declared = copy.deepcopy(BAKS)
    declared["players"][1] = {"id": "B", "declared": {"pi_bak": True}}
    declared["players"][0] = {"id": "A", "declared": {"points": 7, "scored": ["junk"]}}
    steps = _ok(client.post(HANDS, json=declared))["payments"][0]["steps"]
    assert steps[0]["text"] == {"ko": "7 × 2 (피박: 신고) = 14"}
    rain = copy.deepcopy(BAKS)
    rain["players"][1]["tally"].update(brights=1, rain_bright=True)
    rain["ruleset"] = {"preset": "standard", "options": {"gwangbak_rain_protects": False}}
    steps = _ok(client.post(HANDS + "?lang=en", json=rain))["payments"][0]["steps"]
    assert steps[0]["text"]["en"].endswith("winner scored 3 brights, only the rain man here) = 14")


def test_a_declared_meongtta_says_it_was_declared(client: Any) -> None:
    # a declared pile gives no animal count for the 멍따 sentence to name (it was a 500)
    body = {
        "players": [
            {"id": "A", "declared": {"points": 8, "scored": ["animals"], "meongtta": True}},
            {"id": "B", "declared": {}},
            {"id": "C", "declared": {}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    winner = _ok(client.post(HANDS + "?lang=all", json=body))["winner_score"]
    assert [(s["code"], s["total"]) for s in winner["steps"]] == [("meongtta", 16)]
    assert winner["steps"][0]["text"] == {
        "ko": "8 × 2 (멍따: 신고) = 16",
        "en": "8 × 2 (many animals (meongtta): declared) = 16",
    }
    batch = _ok(client.post(BATCH, json={"hands": [body]}))
    assert batch["results"][0]["result"]["winner_score"]["amount"] == 16


def test_a_declared_winners_bak_over_listed_cards_says_declared_not_zero(client: Any) -> None:
    """A declared winner gives no count of its brights or animals: the 광박 and 멍박 it
    causes a listed or tallied loser say "declared", as when both sides are declared (a
    declared winner's 3 points, 광박 ×2 for B without a bright: 6; 멍따 8 × 2 = 16, then
    멍박 ×2 for B and C without an animal: 32; docs/rules.md §4.4, §4.6)."""
    brights = {
        "players": [
            {"id": "A", "declared": {"points": 3, "scored": ["brights"]}},
            {"id": "B", "tally": {"junk_value": 6}},
            {"id": "C", "captured": ["12-bright"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    to_b, to_c = _ok(client.post(HANDS + "?lang=all", json=brights))["payments"]
    assert [(p["from"], p["points"]) for p in (to_b, to_c)] == [("B", 6), ("C", 3)]
    assert to_b["text"] == {
        "ko": "3 × 2 (광박: 신고) = 6점",
        "en": "3 × 2 (bright penalty (gwang-bak): declared) = 6 points",
    }
    animals = {
        "ruleset": {"preset": "standard", "options": {"meongbak_mode": "winner_meongtta"}},
        "players": [
            {"id": "A", "declared": {"points": 8, "scored": ["animals"], "meongtta": True}},
            {"id": "B", "captured": ["12-bright"]},
            {"id": "C", "tally": {"junk_value": 6}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    payments = _ok(client.post(HANDS + "?lang=all", json=animals))["payments"]
    assert [(p["from"], p["points"]) for p in payments] == [("B", 32), ("C", 32)]
    for payment in payments:
        assert payment["text"] == {
            "ko": "16 × 2 (멍박: 신고) = 32점",
            "en": "16 × 2 (animal penalty (meong-bak): declared) = 32 points",
        }


# B stops on 4: cheongdan 3 (06, 09, 10) and five ribbons 1 (docs/rules.md §2.3); A holds
# three brights but lost, C has two junk. No bak: B scored neither brights nor junk.
_B_STOPS = {
    "players": [
        {"id": "A", "captured": ["01-bright", "03-bright", "08-bright", "04-junk-1"]},
        {"id": "B", "captured": ["06-ribbon", "09-ribbon", "10-ribbon", "01-ribbon", "02-ribbon"]},
        {"id": "C", "captured": ["05-junk-1", "06-junk-1"]},
    ],
    "outcome": {"type": "stop", "winner": "B"},
}


@pytest.mark.parametrize(
    ("changes", "options", "owed", "ko", "en"),
    [
        # 고박 pay_all (standard, §4.7): A called go and lost, pays 4 + C's 4 = 8
        ({"A": {"go_count": 1}}, {}, 8, "고박", "go-bak"),
        # 역고 double_and_dokbak (§4.8): B's go after A's, 4 + 1 go = 5, ×2 = 10 each; A
        # pays both shares (no 고박 of its own: gobak_mode_3p none)
        (
            {"A": {"go_count": 1}, "B": {"go_count": 1, "yeokgo": True}},
            {"yeokgo_mode": "double_and_dokbak", "gobak_mode_3p": "none"},
            20,
            "역고",
            "reverse go (yeokgo)",
        ),
        # a named 독박 (no go): A pays 4 + 4 = 8
        ({}, {}, 8, "독박", "dokbak"),
    ],
)
def test_the_player_who_pays_for_everyone_is_echoed_with_its_reason(
    client: Any, changes: dict[str, Any], options: dict[str, Any], owed: int, ko: str, en: str
) -> None:
    """Whoever pays for every loser — a go-caller under 고박 pay-all or 역고, or a loser
    named liable — is the answer's outcome.liable (README, "Reading an answer"), and the
    covering steps' sentences say why."""
    body = copy.deepcopy(_B_STOPS)
    for player in body["players"]:
        player.update(changes.get(player["id"], {}))
    body["ruleset"] = {"preset": "standard", "options": options}
    if ko == "독박":
        body["outcome"]["liable"] = "A"
    answer = _ok(client.post(HANDS + "?lang=all", json=body))
    assert answer["outcome"] == {"type": "stop", "winner": "B", "liable": "A"}
    a, c = answer["payments"]
    assert [(a["from"], a["points"]), (c["from"], c["points"])] == [("A", owed), ("C", 0)]
    share = owed // 2
    assert a["text"] == {
        "ko": f"{share} + {share} (대납: {ko}, C) = {owed}점",
        "en": f"{share} + {share} (pays for another loser: {en}, C) = {owed} points",
    }
    assert [s["code"] for s in a["steps"]] == ["covers"]  # the codes are unchanged
    assert c["text"] == {
        "ko": f"{share} − {share} (대납받음: {ko}, A) = 0점",
        "en": f"{share} − {share} (paid by the liable player: {en}, A) = 0 points",
    }
    assert [s["code"] for s in c["steps"]] == ["covered_by"]


def test_a_previews_comparisons_give_each_players_points_and_may_stop(client: Any) -> None:
    """A preview settles nothing, so its comparisons gave only zeros; they give what a
    preview is for: each player's points and may_stop under the compared rule set.

    A: ribbons of January, April, May, July and December — 초단 3 (§2.3) and five ribbons
    1 — and eight junk with the sake cup, read as double junk (10 junk: 1; §2.5); 5 points.
    Under wikipedia the December ribbon is left out of the count (four ribbons: 0): 4. B:
    three brights with the rain man, 2 (§2.1). Two players stop at 7; at 4, A may stop."""
    ribbons = ["01-ribbon", "04-ribbon", "05-ribbon", "07-ribbon", "12-ribbon"]
    junk = [f"0{m}-junk-{n}" for m in range(1, 5) for n in (1, 2)]
    body = {
        "players": [
            {"id": "A", "captured": [*ribbons, *junk, "09-animal"]},
            {"id": "B", "captured": ["01-bright", "03-bright", "12-bright"]},
        ],
        "compare_with": [
            "wikipedia",
            {"preset": "standard", "options": {"min_points_to_stop_2p": 4}},
        ],
    }
    answer = _ok(client.post(HANDS, json=body))
    assert [(p["id"], p["points"], p["may_stop"]) for p in answer["players"]] == [
        ("A", 5, False),
        ("B", 2, False),
    ]
    wikipedia, lower = answer["comparisons"]
    assert wikipedia["players"] == [
        {"id": "A", "points": 4, "may_stop": False},
        {"id": "B", "points": 2, "may_stop": False},
    ]
    assert lower["players"] == [
        {"id": "A", "points": 5, "may_stop": True},
        {"id": "B", "points": 2, "may_stop": False},
    ]
    assert (lower["payments"], lower["net"], lower["difference"]) == (
        [],
        {"A": 0, "B": 0},
        {
            "A": 0,
            "B": 0,
        },
    )
    # a hand with an outcome: its comparisons settle it, and carry no players (B stops on
    # hongdan 3, cheongdan 3 and six ribbons 2: 8)
    stopped = {
        "players": [
            {"id": "A", "captured": ["01-bright", "03-bright", "08-bright"]},
            {"id": "B", "captured": ["01-ribbon", "02-ribbon", "03-ribbon", "06-ribbon"]},
        ],
        "outcome": {"type": "stop", "winner": "B"},
        "compare_with": ["wikipedia"],
    }
    stopped["players"][1]["captured"] += ["09-ribbon", "10-ribbon"]
    settled = _ok(client.post(HANDS, json=stopped))
    assert "players" not in settled["comparisons"][0]


def _winner_texts(client: Any, body: dict[str, Any]) -> list[dict[str, str]]:
    answer = _ok(client.post(HANDS + "?lang=all", json=_body(body)))
    return [step["text"] for step in answer["winner_score"]["steps"]]


def _body(hand: dict[str, Any]) -> dict[str, Any]:
    """The request for ``hand`` with short card codes (tests/handbuilder.py)."""
    return build_body(hand, hand.get("ruleset", "standard"))


def test_meongtta_says_its_threshold_not_seven(client: Any) -> None:
    # godori 5 + six animals 2 = 7; six animals reach meongtta_threshold 6: × 2 = 14
    body = {
        "ruleset": {"preset": "standard", "options": {"meongtta_threshold": 6}},
        "players": [
            {"id": "A", "cards": ["2A", "4A", "8A", "6A", "7A", "10A"]},
            {"id": "B", "cards": ["1G"]},
            {"id": "C", "cards": ["3G"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    assert _winner_texts(client, body) == [
        {
            "ko": "7 × 2 (멍따: 열끗 6장 ≥ 6장) = 14",
            "en": "7 × 2 (many animals (meongtta): 6 animals ≥ 6) = 14",
        }
    ]


def test_the_go_multiplier_of_yeokgo_fixed_x4_says_where_the_x4_comes_from(client: Any) -> None:
    # three brights 3 + junk value 12 (3) = 6; one go: + 1 = 7, × 4 fixed by 역고 = 28
    body = {
        "ruleset": {"preset": "standard", "options": {"yeokgo_mode": "fixed_x4"}},
        "players": [
            {
                "id": "A",
                "go_count": 1,
                "yeokgo": True,
                "cards": [
                    "1P",
                    "1P",
                    "2P",
                    "2P",
                    "3P",
                    "3P",
                    "4P",
                    "4P",
                    "5P",
                    "5P",
                    "6P",
                    "6P",
                    "1G",
                    "3G",
                    "8G",
                ],
            },
            {"id": "B", "go_count": 1, "cards": ["11G"]},
            {"id": "C", "cards": ["12G"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    assert _winner_texts(client, body) == [
        {"ko": "6 + 1 (고 점수: 1고) = 7", "en": "6 + 1 (go points: 1 go call) = 7"},
        {
            "ko": "7 × 4 (고 배수: 1고, 역고로 ×4 고정) = 28",
            "en": "7 × 4 (go multiplier: 1 go call, fixed at ×4 by the reverse go (yeokgo)) = 28",
        },
    ]


def test_a_capped_shake_says_the_cap(client: Any) -> None:
    # matgo: three brights 3 + five ribbons 1 + hongdan 3 = 7; three shakes, shake_cap 1: × 2
    body = {
        "ruleset": {"preset": "standard", "options": {"shake_cap": 1}},
        "players": [
            {"id": "A", "shakes": 3, "cards": ["1G", "3G", "8G", "1R", "2R", "3R", "6R", "9R"]},
            {"id": "B", "cards": ["12G"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    assert _winner_texts(client, body) == [
        {"ko": "7 × 2 (흔들기: 3번, 최대 1번) = 14", "en": "7 × 2 (shake: 3×, capped at 1×) = 14"}
    ]
    uncapped = {**body, "ruleset": "standard"}  # 3 shakes: × 8
    assert _winner_texts(client, uncapped) == [
        {"ko": "7 × 8 (흔들기: 3번) = 56", "en": "7 × 8 (shake: 3×) = 56"}
    ]


def test_fudawiki_cards_sold_are_cards_not_brights_in_korean_too(client: Any) -> None:
    # the sitter sells 8G, the sake cup, a double junk and a bonus card: 4 cards × 2 = 8
    body = {
        "dealer": "A",
        "ruleset": {
            "preset": "standard",
            "options": {"gwangpal_cards": "fudawiki", "gwangpal_payers": "non_dealer_active"},
        },
        "players": [
            {"id": "S", "sits_out": True, "hand": ["8G", "9A", "11S", "B2"]},
            {"id": "A", "cards": ["1G", "3G", "12G", "6R", "9R", "10R"]},
            {"id": "B", "cards": ["1P", "11G"]},
            {"id": "C", "cards": ["2P", "3P"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    answer = _ok(client.post(HANDS + "?lang=all", json=_body(body)))
    sales = [(p["from"], p["text"]) for p in answer["payments"] if p["reason"] == "gwangpal"]
    sentence = {
        "ko": "광값 2 × 4 (팔린 패 수: 4) = 8점",
        "en": "price per card sold 2 × 4 (cards sold: 4) = 8 points",
    }
    assert sales == [("B", sentence), ("C", sentence)]


def test_the_no_capture_exemption_says_no_card_was_captured(client: Any) -> None:
    # A stops on three brights (3); B captured a junk card and scored nothing: it still pays
    # 3 × 2 (광박) = 6; C captured no card at all: × 0
    body = {
        "ruleset": {"preset": "standard", "options": {"no_capture_exemption": True}},
        "players": [
            {"id": "A", "cards": ["1G", "3G", "8G"]},
            {"id": "B", "cards": ["4P"]},
            {"id": "C", "cards": []},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    answer = _ok(client.post(HANDS + "?lang=all", json=_body(body)))
    assert [(p["from"], p["points"]) for p in answer["payments"]] == [("B", 6), ("C", 0)]
    assert answer["payments"][1]["steps"][-1]["text"] == {
        "ko": "6 × 0 (먹은 패 없음: 면제) = 0",
        "en": "6 × 0 (no cards captured: exempt) = 0",
    }


def test_go_bak_counts_go_calls_in_english(client: Any) -> None:
    one = copy.deepcopy(BAKS)
    one["players"][1]["go_count"] = 1
    steps = _ok(client.post(HANDS + "?lang=en", json=one))["payments"][0]["steps"]
    assert steps[-1]["text"]["en"] == "28 × 2 (failed go (go-bak): lost after 1 go call) = 56"


_FLAGS = ("meongtta", "pi_bak", "gwang_bak", "meong_bak", "no_cards")
_SCORED = ("brights", "animals", "ribbons", "junk", "godori")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    winner=st.fixed_dictionaries(
        {"points": st.integers(0, 12), "scored": st.lists(st.sampled_from(_SCORED), unique=True)},
        optional={flag: st.booleans() for flag in _FLAGS},
    ),
    losers=st.lists(
        st.fixed_dictionaries({}, optional={flag: st.booleans() for flag in _FLAGS}),
        min_size=1,
        max_size=2,
    ),
    preset=st.sampled_from(["standard", "wikipedia", "gamerules"]),
    lang=st.sampled_from(["ko", "en", "all"]),
)
def test_any_declared_pile_is_scored_or_refused_never_a_server_error(
    client: Any, winner: dict[str, Any], losers: list[dict[str, Any]], preset: str, lang: str
) -> None:
    players = [{"id": "A", "declared": winner}]
    players += [{"id": f"L{i}", "declared": flags} for i, flags in enumerate(losers)]
    body = {"ruleset": preset, "players": players, "outcome": {"type": "stop", "winner": "A"}}
    response = client.post(f"{HANDS}?lang={lang}", json=body)
    assert response.status_code in (200, 422), response.get_data(as_text=True)


def test_every_sentence_says_the_numbers_of_its_step(client: Any) -> None:
    from bench.corpus import corpus

    for body in corpus(30, seed=7):
        answer = _ok(client.post(HANDS + "?lang=all", json=body))
        winner = answer["winner_score"]
        before = winner["base"]
        for step in winner["steps"]:
            value = step.get("factor", step.get("addend"))
            for text in step["text"].values():
                assert text.startswith(f"{before:,} ")
                assert text.endswith(f"= {step['total']:,}")
                assert f" {abs(value):,} (" in text
            before = step["total"]
        for payment in answer["payments"]:
            points, chips = payment["points"], payment["chips"]
            ko, en = payment["text"]["ko"], payment["text"]["en"]
            if answer["stake"] == 1:
                assert ko.endswith(f"{points:,}점")
                assert en.endswith(f"{points:,} points")
            else:
                assert ko.endswith(f"{points:,}점 × {answer['stake']:,} = {chips:,}칩")
                assert en.endswith(f"{points:,} points × {answer['stake']:,} = {chips:,} chips")


_DETAIL = re.compile(r"(\d) \((?:[^()]|\([^()]*\))*\)")  # "2 (광박: …)" → "2"


def _sentence_value(text: str) -> int:
    """A payment sentence's arithmetic as anyone reads it (× before + and −), up to its
    first "=": each step's reason in parentheses left out, the numbers unseparated."""
    expression = _DETAIL.sub(r"\1", text.split(" = ")[0])
    expression = expression.replace(",", "").replace("×", "*").replace("−", "-")
    assert re.fullmatch(r"[\d ()+*-]+", expression), expression
    value: int = eval(expression)  # digits, spaces, parentheses, + * - (checked above)
    return value


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"gwangbak_effect": "plus2"},
        {"gobak_mode_3p": "pay_all_doubled"},
        {"gobak_mode_3p": "pay_all", "gwangbak_effect": "plus2"},
    ],
)
def test_a_payment_sentence_reads_as_its_amount(client: Any, options: dict[str, Any]) -> None:
    """An addition followed by a factor goes in parentheses: "(4 + 2 (…)) × 2 (…) = 12",
    not "4 + 2 (…) × 2 (…) = 12", which anyone reads as 8."""
    from bench.corpus import corpus

    read = 0
    for body in corpus(60, seed=11):
        body = {**body, "ruleset": {"preset": "standard", "options": options}}
        response = client.post(HANDS + "?lang=all", json=body)
        if response.status_code != 200:
            continue  # an option this hand cannot take (a winner below the minimum…)
        for payment in response.get_json()["payments"]:
            for text in payment["text"].values():
                said = text.split(" = ")[0]
                if "점" in said or "points" in said:
                    continue  # the winner's amount alone: "104점 × 10 = 1,040칩"
                if text[0].isdigit() or text[0] == "(":  # not a side payment named first
                    assert _sentence_value(text) == payment["points"], text
                    read += 1
    assert read > 40


def test_the_ppuk_ladder_says_which_ppuk_of_the_run_its_factor_is_for(client: Any) -> None:
    # the 3rd ppuk in a row pays the first ppuk's price × 4; the sentence once said "factor: 3"
    # (played on: under the default instant_win a third ppuk ends the hand, so A's stop
    # could not follow it — three_ppuk_ends_hand)
    body = {
        **THREE_BRIGHTS,
        "ruleset": {"preset": "standard", "options": {"three_ppuk_mode": "side_payment"}},
        "events": [
            {"type": "first_ppuk", "player": "B"},
            {"type": "consecutive_ppuk", "player": "B"},
            {"type": "consecutive_ppuk", "player": "B"},
        ],
    }
    payments = _ok(client.post(HANDS + "?lang=all", json=body))["payments"]
    runs = [p for p in payments if p["reason"] == "consecutive_ppuk" and p["from"] == "A"]
    third = runs[-1]  # the 2nd ppuk's payment, then the 3rd's
    assert third["text"]["ko"].startswith("첫뻑 3 × 4 (연뻑 배수: 3연뻑) = 12점")
    assert third["text"]["en"].startswith(
        "first-turn ppuk 3 × 4 (consecutive ppuk factor: 3 ppuks in a row) = 12 points"
    )


# --- the language --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "header", "langs"),
    [
        ("", None, ["ko"]),
        ("?lang=en", None, ["en"]),
        ("?lang=all", None, ["ko", "en"]),
        ("", "en", ["en"]),
        ("", "en-US,en;q=0.9", ["en"]),
        ("", "fr;q=1, en-GB;q=0.8, ko;q=0.5", ["en"]),
        ("", "ko-KR, en;q=0.9", ["ko"]),
        ("", "en;q=0, ko;q=0.1", ["ko"]),
        ("", "fr, de", ["ko"]),
        ("", "*", ["ko"]),
        ("", "", ["ko"]),  # an empty header is no header
        # RFC 9110 §12.5.4: "*" gives its q to every language the header does not name
        ("", "*;q=0.5, en;q=0.1", ["ko"]),  # ko 0.5 (by "*"), en 0.1
        ("", "*;q=0.9, ko;q=0.1", ["en"]),  # en 0.9 (by "*"), ko 0.1
        ("", "fr, *;q=0.5, ko;q=0.1", ["en"]),
        ("", "ko;q=0, *", ["en"]),  # ko refused, en by "*"
        ("", "en;q=0, *", ["ko"]),
        ("", "*;q=0, en", ["en"]),  # "*;q=0": only the languages named
        ("", "*;q=0, ko;q=0.2", ["ko"]),
        ("", "en;q=0", ["ko"]),  # English refused: the default
        ("", "en;q=0, en-GB", ["ko"]),  # its own tag decides over a region's
        ("", "en-GB;q=0.1, en;q=0.9, ko;q=0.5", ["en"]),
        ("", "ko;q=0, en;q=0", ["ko"]),  # neither acceptable: the default still
        # ties: the header's order, then Korean (as before)
        ("", "en, ko", ["en"]),
        ("", "ko, en", ["ko"]),
        ("", "*;q=0.5, en;q=0.5", ["en"]),
        ("", "ko;q=0.5, *;q=0.5", ["ko"]),
        ("?lang=ko", "en", ["ko"]),  # the query wins over the header
    ],
)
def test_the_language_of_labels_and_texts(
    client: Any, query: str, header: str | None, langs: list[str]
) -> None:
    headers = {} if header is None else {"Accept-Language": header}
    response = client.post(HANDS + query, json=BAKS, headers=headers)
    answer = _ok(response)
    assert response.headers["Content-Language"] == ", ".join(langs)
    assert "Accept-Language" in response.headers["Vary"]
    payment = answer["payments"][0]
    localized = [payment["text"], *(s["text"] for s in payment["steps"])]
    localized += [i["label"] for p in answer["players"] for i in p["items"]]
    assert all(list(field) == langs for field in localized)


def test_the_header_is_read_only_when_present_and_each_value_parsed_once(app: Any) -> None:
    from flask import request

    from calculator.api.http import header_language

    view = app.view_functions["gostop.post_hand"]

    def answer(headers: dict[str, str]) -> tuple[str, dict[str, Any]]:
        with app.test_request_context(HANDS, method="POST", json=BAKS, headers=headers):
            response = view()
            # werkzeug's parse of the header (request.accept_languages) is never made
            assert "accept_languages" not in request.__dict__
            return response.headers["Content-Language"], response.get_json()

    header_language.cache_clear()
    assert answer({})[0] == "ko"
    assert header_language.cache_info().misses == 0  # no header: nothing parsed
    english = answer({"Accept-Language": "fr, en-GB;q=0.8, ko;q=0.5"})
    again = answer({"Accept-Language": "fr, en-GB;q=0.8, ko;q=0.5"})
    assert english == again
    assert english[0] == "en"
    assert header_language.cache_info()[:2] == (1, 1)  # (hits, misses)


def test_an_unknown_lang_is_a_422(client: Any) -> None:
    response = client.post(HANDS + "?lang=fr", json=BAKS)
    assert [e["code"] for e in response.get_json()["errors"]] == ["not_allowed"]
    for refused in ("yes", "", "tru", "2"):
        response = client.post(HANDS + f"?full_ruleset={refused}", json=BAKS)
        assert [e["code"] for e in response.get_json()["errors"]] == ["invalid_type"]
        assert response.get_json()["errors"][0]["detail"] == "expected true or false (or 1 or 0)"


@pytest.mark.parametrize(
    ("given", "full"),
    [
        *[("true", True), ("True", True), ("TRUE", True), ("1", True)],
        *[("false", False), ("False", False), ("0", False)],
    ],
)
def test_full_ruleset_takes_the_booleans_http_clients_write(
    client: Any, given: str, full: bool
) -> None:
    """Python's requests writes ``params={"full_ruleset": True}`` as ``True``; form
    encoders write ``1``: both were 422s."""
    answer = client.post(HANDS + f"?full_ruleset={given}", json=BAKS)
    assert answer.status_code == 200, answer.get_json()
    assert ("options" in answer.get_json()["ruleset"]) is full


@pytest.mark.parametrize(
    ("given", "langs"),
    [("EN", {"en"}), ("en-US", {"en"}), ("en_GB", {"en"}), ("Ko", {"ko"}), ("ALL", {"ko", "en"})],
)
def test_lang_is_read_as_a_language_tag_in_any_case_and_region(
    client: Any, given: str, langs: set[str]
) -> None:
    """As Accept-Language's tags are (and as a client may write them): ``?lang=EN`` was a
    422 while ``Accept-Language: EN-us`` gave English."""
    answer = client.post(HANDS + f"?lang={given}", json=BAKS)
    assert answer.status_code == 200, answer.get_json()
    assert set(answer.get_json()["payments"][0]["text"]) == langs
    assert set(answer.headers["Content-Language"].split(", ")) == langs


def test_the_balance_answer_speaks_the_language_too(client: Any) -> None:
    from calculator.api.examples import BALANCE_EXAMPLES

    body = next(iter(BALANCE_EXAMPLES.values()))["value"]
    answer = _ok(client.post("/v1/balance/hands?lang=en", json=body))
    assert set(answer["ruleset"]) == {"variant", "preset", "fingerprint", "overrides"}
    labels = [i["label"] for p in answer["players"] for i in p["items"]]
    assert labels
    assert all(list(label) == ["en"] for label in labels)


def test_the_document_describes_the_shape_parameters(app: Any) -> None:
    document = app.test_client().get("/v1/openapi.json").get_json()
    for path in (HANDS, BATCH, "/v1/balance/hands"):
        parameters = {p["name"]: p for p in document["paths"][path]["post"]["parameters"]}
        assert parameters["lang"]["schema"]["enum"] == ["ko", "en", "all"]
        assert "Accept-Language" in parameters["lang"]["description"]
        assert parameters["full_ruleset"]["schema"]["type"] == "boolean"
    step = document["components"]["schemas"]["Step"]["properties"]
    assert step["text"]["$ref"].endswith("/Localized")
    assert "rulesets" in document["components"]["schemas"]["BatchResult"]["required"]


# --- what an answer leaves out ------------------------------------------------------------

# A stops with three brights, holding the switchable 09-animal; B holds the rain man (no
# 광박: it pays the winner's amount as it is, no step), C holds no bright (광박 ×2).
SPARE = {
    "players": [
        {"id": "A", "captured": ["01-bright", "03-bright", "08-bright", "09-animal"]},
        {"id": "B", "captured": ["12-bright", "06-junk-1"]},
        {"id": "C", "captured": ["05-junk-1"]},
    ],
    "outcome": {"type": "stop", "winner": "A"},
}
# Two losers called go under the standard pay-all 고박: C, the first caller, is liable.
LIABLE = {
    "players": [
        {"id": "A", "tally": {"brights": 3}},
        {"id": "B", "tally": {}, "go_count": 1},
        {"id": "C", "tally": {}, "go_count": 2},
    ],
    "outcome": {"type": "stop", "winner": "A", "liable": "C"},
}
OMITTED = {
    "HandResult": {"preview", "comparisons"},
    "OutcomeOut": {"liable"},
    "PlayerOut": {"gukjin_as", "entry_mode"},
    "Payment": {"steps", "label"},
}


def test_fields_that_say_nothing_are_left_out(client: Any) -> None:
    answer = _ok(client.post(HANDS, json=SPARE))
    assert {"preview", "comparisons"}.isdisjoint(answer)
    assert answer["outcome"] == {"type": "stop", "winner": "A"}  # no liable
    assert [p.get("gukjin_as") for p in answer["players"]] == [{"09-animal": "animal"}, None, None]
    assert all("entry_mode" not in p for p in answer["players"])
    b_pays, c_pays = answer["payments"]
    assert "steps" not in b_pays  # B pays winner_score.amount as it is
    assert [s["code"] for s in c_pays["steps"]] == ["gwang_bak"]
    assert all("label" not in p for p in answer["payments"])  # the reason's: GET /v1/codes
    # ... and each is there when it says something
    preview = _ok(client.post(HANDS, json={"players": SPARE["players"]}))
    assert preview["preview"] is True
    compared = _ok(client.post(HANDS, json={**SPARE, "compare_with": ["wikipedia"]}))
    assert len(compared["comparisons"]) == 1
    assert _ok(client.post(HANDS, json=LIABLE))["outcome"]["liable"] == "C"


def test_the_document_says_what_is_left_out_and_when(app: Any) -> None:
    from calculator.api.openapi import openapi_document

    schemas = openapi_document()["components"]["schemas"]
    for name, fields in OMITTED.items():
        assert fields.isdisjoint(schemas[name]["required"]), name
        for field in fields:
            said = schemas[name]["properties"][field]["description"]
            assert "omitted" in said, (name, field)


def test_a_result_stored_before_the_fields_were_left_out_still_reads(client: Any) -> None:
    """A table keeps the answers it derived: one stored with the old fields still
    matches the document (they are optional, not gone)."""
    answer = _ok(client.post(HANDS, json=SPARE))
    old = copy.deepcopy(answer)
    old["preview"], old["comparisons"] = False, []
    old["outcome"]["liable"] = None
    for player, mode in zip(old["players"], ["captured"] * 3, strict=True):
        player.setdefault("gukjin_as", {})
        player["entry_mode"] = mode
    for payment in old["payments"]:
        payment.setdefault("steps", [])
        payment["label"] = {"ko": "스톱"}
    validator = service_contract().validator("/components/schemas/HandResult")
    assert list(validator.iter_errors(old)) == []
    assert list(validator.iter_errors(answer)) == []
    old["players"][0]["entry_moda"] = "captured"  # the check can fail
    assert list(validator.iter_errors(old))


def test_bench_sizes_puts_back_each_left_out_field() -> None:
    """bench.sizes --omitted measures each field this change leaves out: putting each back
    grows the default answers (the field is really gone from them)."""
    from bench.sizes import OMITTED, omitted

    rows = omitted(30)
    assert [r["field left out"] for r in rows] == [name for name, _ in OMITTED]
    assert all(r["mean bytes saved"] > 0 for r in rows), rows


def test_english_sentences_say_one_point_one_chip_and_one_junk_card(client: Any) -> None:
    """Derived by hand: A stops with 3 brights and 10 junk (4 points); B holds one junk
    card (피박 with ``pibak_count: cards``, threshold 5) and no bright (광박): 4 × 2 × 2 = 16;
    C's first-turn ppuk pays 1 point to each other player."""
    hand = {
        "ruleset": {
            "preset": "standard",
            "options": {"first_ppuk_points": 1, "pibak_count": "cards"},
        },
        "players": [
            {"id": "A", "tally": {"brights": 3, "junk_value": 10, "junk_cards": 10}},
            {"id": "B", "tally": {"junk_value": 1, "junk_cards": 1}},
            {"id": "C", "tally": {"brights": 1, "junk_value": 12, "junk_cards": 12}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
        "events": [{"type": "first_ppuk", "player": "C"}],
    }
    said = {}
    for stake in (1, 100):
        answer = client.post("/v1/gostop/hands?lang=en", json={**hand, "stake": stake})
        assert answer.status_code == 200
        said[stake] = [p["text"]["en"] for p in answer.get_json()["payments"]]
    assert said[1][0].endswith("× 2 (junk penalty (pi-bak): 1 junk card ≤ 5) = 16 points")
    assert said[1][2:] == ["first-turn ppuk 1 point"] * 2
    assert said[100][2:] == ["first-turn ppuk 1 point × 100 = 100 chips"] * 2


def test_the_readme_balance_example_answers_what_the_readme_says(app: Any) -> None:
    """The curl of "The 120/80/60 balance variant", sent as written: the chips its text
    states."""
    import json
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The 120/80/60 balance variant", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"-d '(\{.*?\})'\n```", section, re.S)
    assert found is not None
    answer = app.test_client().post("/v1/balance/hands", json=json.loads(found[1]))
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["net"] == {"A": -400, "B": -750, "C": 1150}
    assert "−400 chips. B: −750 chips; C: +1,150" in section
    a = body["players"][0]
    assert (a["card_points"], a["total"], a["balance"]) == (80, 40, -40)


def test_the_document_declares_the_header_that_picks_the_language() -> None:
    """Every operation whose answer varies on Accept-Language takes it as a parameter (an
    integrator's generated client can send it), and the others do not."""
    from calculator.api.openapi import openapi_document

    document = openapi_document()
    declared = {
        operation["operationId"]
        for methods in document["paths"].values()
        for operation in methods.values()
        if isinstance(operation, dict)
        and any(p["name"] == "Accept-Language" for p in operation.get("parameters", []))
    }
    assert declared == {"scoreHand", "scoreHands", "scoreBalanceHand", "shareTable"}
