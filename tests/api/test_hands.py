"""Scenario tests of POST /v1/gostop/hands and /batch through the test client."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import load_data
from handbuilder import build_body
from tests_support import THREE_BRIGHTS, W13

HANDS = "/v1/gostop/hands"
CASES = [
    c for name in ("worked_examples.json", "option_cases.json") for c in load_data(name)["cases"]
]


def _problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    return response.get_json()


def _codes(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["pointer"], e["code"]) for e in body["errors"]]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['example']}-{c['reading']}" for c in CASES])
def test_worked_examples_over_http(client: Any, case: dict[str, Any]) -> None:
    """docs/rules.md §10 again, through the wire format: the same money as the domain test."""
    response = client.post(HANDS, json=build_body(case["hand"], case["ruleset"]))
    expect = case["expect"]
    if "error" in expect:
        assert expect["error"] in {code for _p, code in _codes(_problem(response, 422))}
        return
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    if "net" in expect:
        assert body["net"] == expect["net"]
    if "payments" in expect:
        got = sorted((p["from"], p["to"], p["points"], p["reason"]) for p in body["payments"])
        assert got == sorted(tuple(p) for p in expect["payments"])
    for pid, points in expect.get("points", {}).items():
        assert next(p for p in body["players"] if p["id"] == pid)["points"] == points
    if "chips_priced" in expect:
        got = sorted(
            (p["from"], p["to"], p["chips"], p["reason"])
            for p in body["payments"]
            if p.get("priced_in") == "chips"
        )
        assert got == sorted(tuple(p) for p in expect["chips_priced"])


def test_w13_contract_fields(client: Any) -> None:
    body = client.post(HANDS + "?lang=all", json={**W13, "stake": 100}).get_json()
    assert body["ruleset"]["preset"] == "standard"
    assert len(body["ruleset"]["fingerprint"]) == 32
    assert [p["id"] for p in body["players"]] == ["A", "B", "C"]
    a = body["players"][0]
    assert a["points"] == 3
    assert a["items"] == [
        {
            "code": "three_brights",
            "points": 3,
            "cards": ["01-bright", "03-bright", "08-bright"],
            "label": {"ko": "삼광", "en": "three brights"},
        }
    ]
    assert body["winner_score"] == {"winner": "A", "base": 3, "steps": [], "amount": 3}
    c_pays = body["payments"][1]
    assert (c_pays["from"], c_pays["to"], c_pays["points"], c_pays["chips"]) == ("C", "A", 6, 600)
    assert [s["code"] for s in c_pays["steps"]] == ["gwang_bak"]  # from winner_score.amount
    assert c_pays["steps"][0] == {
        "code": "gwang_bak",
        "op": "multiply",
        "factor": 2,
        "total": 6,
        "text": {
            "ko": "3 × 2 (광박: 승자 광 3장, 광 없음) = 6",
            "en": "3 × 2 (bright penalty (gwang-bak): winner scored 3 brights, none here) = 6",
        },
    }
    assert body["net"] == {"A": 900, "B": -300, "C": -600}
    assert body["nagari_streak_after"] == 0


def test_korean_is_sent_unescaped_utf8(client: Any) -> None:
    response = client.post(HANDS, json=W13)
    assert response.content_type == "application/json"
    assert "삼광".encode() in response.data
    assert b"\\u" not in response.data


def _untold(payments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Payments without their sentences."""
    return [
        {
            **{k: v for k, v in p.items() if k != "text"},
            "steps": [{k: v for k, v in s.items() if k != "text"} for s in p.get("steps", [])],
        }
        for p in payments
    ]


def test_each_entry_mode_gives_the_same_settlement(client: Any) -> None:
    captured = client.post(HANDS, json=W13).get_json()
    tally = {
        **W13,
        "players": [
            {"id": "A", "tally": {"brights": 3, "junk_value": 2}},
            {"id": "B", "tally": {"brights": 1, "rain_bright": True, "junk_value": 2}},
            {"id": "C", "tally": {"junk_value": 2}},
        ],
    }
    declared = {
        **W13,
        "players": [
            {"id": "A", "declared": {"points": 3, "scored": ["brights"]}},
            {"id": "B", "declared": {}},
            {"id": "C", "declared": {"gwang_bak": True}},
        ],
    }
    result = client.post(HANDS, json=tally).get_json()
    assert result["net"] == captured["net"]
    assert result["payments"] == captured["payments"]  # the sentences too: the same facts
    result = client.post(HANDS, json=declared).get_json()
    assert result["net"] == captured["net"]
    # A declared bak's sentence says "declared" (신고) instead of the cards behind it.
    assert _untold(result["payments"]) == _untold(captured["payments"])
    assert result["payments"][1]["text"] == {"ko": "3 × 2 (광박: 신고) = 6점"}
    # Issue #11 defect 4: a tally without junk_cards cannot say how many cards a pile holds
    # (an 18-card pile was reported as 10); unknown counts are null.
    counts = client.post(HANDS, json=tally).get_json()["players"][0]["counts"]
    assert (counts["junk_cards"], counts["cards"]) == (None, None)
    assert counts["junk_value"] == 2


def test_preview_gives_points_and_who_may_stop(client: Any) -> None:
    body = client.post(HANDS, json={"players": W13["players"], "nagari_streak": 2}).get_json()
    assert body["preview"] is True
    assert body["winner_score"] is None
    assert body["payments"] == []
    assert [p["may_stop"] for p in body["players"]] == [True, False, False]
    assert body["nagari_streak_after"] == 2


def test_nagari_grows_the_streak(client: Any) -> None:
    body = client.post(
        HANDS, json={"players": W13["players"], "outcome": {"type": "nagari"}, "nagari_streak": 1}
    ).get_json()
    assert body["nagari_streak_after"] == 2
    assert body["net"] == {"A": 0, "B": 0, "C": 0}


def test_compare_with_gives_each_settlement_and_the_difference(client: Any) -> None:
    body = {
        "players": [
            {
                "id": "A",
                "captured": ["01-ribbon", "02-ribbon", "03-ribbon", "06-ribbon", "09-ribbon"],
                "go_count": 3,
            },
            {"id": "B", "captured": ["01-bright"]},
            {"id": "C", "captured": ["03-bright"]},
        ],
        "outcome": {"type": "stop", "winner": "A"},
        "compare_with": ["gamerules", {"preset": "standard", "options": {"meongbak_mode": "x"}}],
    }
    response = client.post(HANDS, json=body)
    assert _codes(_problem(response, 422)) == [
        ("/compare_with/1/options/meongbak_mode", "not_allowed")
    ]
    body["compare_with"][1] = "wikipedia"
    result = client.post(HANDS, json=body).get_json()
    assert result["net"]["A"] == 2 * (4 + 3) * 2  # (4+3)×2 from each loser
    gamerules, wikipedia = result["comparisons"]
    assert gamerules["net"]["A"] == 2 * (4 + 3)  # +n only, no ×2 at exactly 3 gos
    assert gamerules["difference"] == {"A": -14, "B": 7, "C": 7}
    assert wikipedia["ruleset"]["preset"] == "wikipedia"


def test_comparison_that_cannot_settle_says_why(client: Any) -> None:
    body = {
        **THREE_BRIGHTS,
        "compare_with": [{"preset": "standard", "options": {"min_points_to_stop_3p": 5}}],
    }
    result = client.post(HANDS, json=body).get_json()
    problem = result["comparisons"][0]["problem"]
    assert problem["errors"][0]["code"] == "below_stop_minimum"


def test_four_players_with_a_sitter(client: Any) -> None:
    body = {
        "stake": 100,
        "players": [
            {"id": "S", "sits_out": True, "hand": ["08-bright", "11-bright", "05-junk-1"]},
            {"id": "D", "captured": ["01-ribbon", "02-ribbon", "03-ribbon"]},
            {"id": "E", "captured": ["01-bright"]},
            {"id": "F", "captured": ["03-bright"]},
        ],
        "outcome": {"type": "stop", "winner": "D"},
    }
    result = client.post(HANDS, json=body).get_json()
    assert result["players"][0]["sits_out"] is True
    assert result["players"][0]["sold"] == 2
    assert result["net"] == {"S": 1200, "D": 200, "E": -700, "F": -700}


# --- errors ---------------------------------------------------------------------------


def test_a_factor_json_cannot_carry_is_refused_and_the_batch_goes_on(client: Any) -> None:
    # 0 points × 2^64 (60+ nagari hands, a minimum of 0): nobody pays, but the step's
    # factor is past what JSON carries; it was a 500 for the whole batch
    zero = {
        "ruleset": {"preset": "standard", "options": {"min_points_to_stop_2p": 0}},
        "nagari_streak": 64,
        "players": [{"id": "A", "captured": []}, {"id": "B", "captured": []}],
        "outcome": {"type": "stop", "winner": "A"},
    }
    refused = _problem(client.post(HANDS, json=zero), 422)
    assert ("", "amount_too_large") in _codes(refused)
    # the empty pointer said as the request as a whole ("/" would name a field "")
    assert refused["detail"].startswith("1 problem; first in the request as a whole: an amount")
    response = client.post(HANDS + "/batch", json={"hands": [zero, W13]})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert [r["status"] for r in response.get_json()["results"]] == [422, 200]


_TIED = {"type": "chongtong", "holders": [{"player": "A", "month": 1}, {"player": "B", "month": 2}]}


@pytest.mark.parametrize(
    ("options", "outcome"),
    [
        ({}, {"type": "nagari"}),
        ({"floor_four_of_month": "nagari"}, {"type": "floor_four"}),
        ({"chongtong_tie": "nagari"}, _TIED),  # the review: this path still counted on
    ],
)
def test_the_streak_after_a_drawn_hand_is_one_a_request_may_send(
    client: Any, options: dict[str, str], outcome: dict[str, Any]
) -> None:
    """The streak counts up to 64, the most a request may send: a drawn hand at 64 leaves
    it at 64 (it answered 65, which the next hand sending it back was refused for; the
    integrator probe), one at 63 makes it 64. A drawn hand at the cap is still drawn, not
    cancelled: the sitter's sale is paid (one bright at 2 points from each of the three
    who play, stake 1: docs/rules.md §6.2), as a cancelled 총통 would not."""
    body = {
        "ruleset": {"preset": "standard", "options": options},
        "dealer": "A",
        "players": [
            {"id": "S", "sits_out": True, "sold_brights": 1},
            *({"id": p, "tally": {}} for p in "ABC"),
        ],
        "outcome": outcome,
    }
    for streak, after in ((63, 64), (64, 64)):
        answer = client.post(HANDS, json={**body, "nagari_streak": streak})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert answer.get_json()["nagari_streak_after"] == after
        assert answer.get_json()["net"] == {"S": 6, "A": -2, "B": -2, "C": -2}
    refused = _problem(client.post(HANDS, json={**body, "nagari_streak": 65}), 422)
    assert _codes(refused) == [("/nagari_streak", "too_large")]


def test_duplicate_card_points_at_the_second_holder(client: Any) -> None:
    body = json.loads(json.dumps(W13))
    body["players"][2]["captured"].append("03-bright")
    problem = _problem(client.post(HANDS, json=body), 422)
    assert problem["type"] == "urn:gostop:problem:impossible-hand"
    (error,) = problem["errors"]
    assert (error["pointer"], error["code"]) == ("/players/2/captured/2", "duplicate_card")
    assert "'A'" in error["detail"]
    assert "'C'" in error["detail"]


def test_a_details_pointers_point_into_the_request_it_is_read_against(client: Any) -> None:
    """A duplicate card's detail names the first holder by its pointer: in a batch and in
    a session it was the hand's own (/players/0/…), which the batch or session request
    does not have; now it is moved with the problem's pointer (a probe of each)."""
    body = json.loads(json.dumps(W13))
    body["players"][2]["captured"].append("03-bright")
    alone = _problem(client.post(HANDS, json=body), 422)["errors"][0]
    assert (
        "by player 'A' at /players/0/captured/1 and by player 'C' at /players/2/captured/2"
        in (alone["detail"])
    )
    batch = client.post(HANDS + "/batch", json={"hands": [W13, body]}).get_json()
    (error,) = batch["results"][1]["problem"]["errors"]
    assert error["pointer"] == "/hands/1/players/2/captured/2"
    assert (
        "at /hands/1/players/0/captured/1 and by player 'C' at /hands/1/players/2/captured/2"
        in (error["detail"])
    )
    session = {"players": ["A", "B", "C"], "hands": [{"net": {"A": 1, "B": -1}}, {"gostop": body}]}
    (error,) = _problem(client.post("/v1/settlements", json=session), 422)["errors"]
    assert error["pointer"] == "/hands/1/gostop/players/2/captured/2"
    assert "at /hands/1/gostop/players/0/captured/1 and" in error["detail"]


@pytest.mark.parametrize(
    "schema_error",
    [
        ({"stake": "10"}, "/stake", "invalid_type"),
        ({"players": 0, "go_count": -1}, "/players/0/go_count", "negative_count"),
        ({"players": 1, "shakes": 1.5}, "/players/1/shakes", "invalid_type"),
        (
            {"outcome": {"type": "stop", "winner": "A", "extra": 1}},
            "/outcome/extra",
            "unknown_field",
        ),
    ],
)
def test_a_hand_refused_by_its_schema_is_told_its_cards_problems_too(
    client: Any, schema_error: tuple[dict[str, Any], str, str]
) -> None:
    """SPEC §4: the errors list names every problem. A hand with a field of the wrong
    type and a card typo was told the field alone; the typo came one round trip later.
    The cards' problems are those the hand gets once its fields are right, in every
    place a hand is read (alone, in a batch, in a session)."""
    change, at, code = schema_error
    body = json.loads(json.dumps(W13))
    body["players"][0]["captured"][3] = "02-junk-9"  # no such card
    body["players"][2]["captured"].append("03-bright")  # A holds it
    cards_alone = _codes(_problem(client.post(HANDS, json=body), 422))
    assert cards_alone == [
        ("/players/0/captured/3", "unknown_card"),
        ("/players/2/captured/2", "duplicate_card"),
    ]
    broken = json.loads(json.dumps(body))
    if "players" in change:
        index = change.pop("players")
        broken["players"][index].update(change)
    else:
        broken.update(change)
    problem = _problem(client.post(HANDS, json=broken), 422)
    assert problem["type"] == "urn:gostop:problem:invalid-request"
    found = _codes(problem)
    assert (at, code) in found
    assert sorted(set(found) - {(at, code)}) == cards_alone
    alone = next(e for e in problem["errors"] if e["code"] == "duplicate_card")
    assert (
        "by player 'A' at /players/0/captured/1 and by player 'C' at /players/2/"
        in (alone["detail"])
    )
    batch = client.post(HANDS + "/batch", json={"hands": [W13, broken]}).get_json()
    errors = batch["results"][1]["problem"]["errors"]
    assert {(e["pointer"], e["code"]) for e in errors} == {
        ("/hands/1" + pointer, code) for pointer, code in found
    }
    held = next(e for e in errors if e["code"] == "duplicate_card")
    assert (
        "at /hands/1/players/0/captured/1 and by player 'C' at /hands/1/players/2/"
        in (held["detail"])
    )
    session = {"players": ["A", "B", "C"], "hands": [{"gostop": broken}]}
    errors = _problem(client.post("/v1/settlements", json=session), 422)["errors"]
    assert {(e["pointer"], e["code"]) for e in errors} == {
        ("/hands/0/gostop" + pointer, code) for pointer, code in found
    }
    held = next(e for e in errors if e["code"] == "duplicate_card")
    assert "at /hands/0/gostop/players/0/captured/1 and" in held["detail"]


def test_a_pile_its_schema_refuses_is_not_read_for_cards(client: Any) -> None:
    """A pile that is no list of card IDs is the schema's to refuse, once: its items are
    not read again, nor counted as held (a card in it and in another pile is no
    duplicate); a card ID that is no string is the schema's too."""
    body = json.loads(json.dumps(W13))
    body["players"][1]["captured"] = {"not": "a list"}
    body["players"][2]["captured"] = ["03-bright", 7, "03-bright"]
    found = _codes(_problem(client.post(HANDS, json=body), 422))
    assert ("/players/1/captured", "invalid_type") in found
    assert ("/players/2/captured/1", "invalid_type") in found
    held = [(p, c) for p, c in found if c == "duplicate_card"]
    # 03-bright: A's (captured/1), then C's twice
    assert held == [
        ("/players/2/captured/0", "duplicate_card"),
        ("/players/2/captured/2", "duplicate_card"),
    ]


def test_a_refused_hands_card_problems_keep_the_count_and_come_after_its_fields(
    client: Any,
) -> None:
    """120 unknown cards beside a stake of the wrong type: the answer said "and 1 more
    problem" (the cards' own count was dropped), and player 0's cards filled the list
    before player 1's refused go_count (the reviewer's)."""
    body = {
        "stake": "1",
        "players": [
            {"id": "A", "captured": [f"zz-{k}" for k in range(60)], "go_count": "x"},
            {"id": "B", "captured": [f"zz-{k}" for k in range(60)], "go_count": "x"},
            {"id": "C", "captured": []},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    errors = _problem(client.post(HANDS, json=body), 422)["errors"]
    assert len(errors) == 50
    assert {e["pointer"] for e in errors[:3]} == {
        "/players/0/go_count",
        "/players/1/go_count",
        "/stake",
    }
    assert {e["code"] for e in errors[3:-1]} == {"unknown_card"}
    # 3 fields, 46 cards listed, 74 counted: 123 problems
    assert errors[-1]["code"] == "too_many_problems"
    assert errors[-1]["detail"].startswith("and 74 more problems")
    # in a batch: the item's first 10 and a count, the cards read no further
    batch = client.post(HANDS + "/batch", json={"hands": [body]}).get_json()
    item = batch["results"][0]["problem"]["errors"]
    assert len(item) == 11
    assert item[-1]["code"] == "too_many_problems"


def test_a_refused_id_is_not_quoted_and_seats_tell_holders_apart(client: Any) -> None:
    """An id the schema refused (20,000 characters, a number) was quoted whole in every
    card held twice: a 41 kB body answered 1.6 MB. Two seats giving one id were "the same
    player"."""
    long_id = "X" * 20_000
    body = {
        "players": [
            {"id": long_id, "captured": ["01-bright", "03-bright"]},
            {"id": 5, "captured": ["01-bright", "03-bright"]},
            {"id": "C", "captured": []},
        ],
        "outcome": {"type": "stop", "winner": "C"},
    }
    response = client.post(HANDS, json=body)
    assert len(response.data) < 4_000
    held = [e for e in _problem(response, 422)["errors"] if e["code"] == "duplicate_card"]
    assert len(held) == 2
    assert (
        "by a player at /players/0/captured/0 and by a player at /players/1/" in (held[0]["detail"])
    )
    twice = json.loads(json.dumps(W13))
    twice["players"][1]["id"] = "A"  # B's seat says A too
    twice["players"][1]["captured"].append("01-bright")  # A's
    details = [e["detail"] for e in _problem(client.post(HANDS, json=twice), 422)["errors"]]
    said = "by player 'A' at /players/0/captured/0 and by player 'A' at /players/1/"
    assert any(said in d for d in details), details


def test_a_users_text_is_not_taken_for_a_pointer(client: Any) -> None:
    """A batch item's detail quoting the request's own text ("x at /players/9") was
    rewritten as if it were a pointer of the hand's (the reviewer's)."""
    body = {
        **W13,
        "players": [{**W13["players"][0], "gukjin": "x at /players/9"}, *W13["players"][1:]],
    }
    batch = client.post(HANDS + "/batch", json={"hands": [body]}).get_json()
    (error,) = batch["results"][0]["problem"]["errors"]
    assert "'x at /players/9'" in error["detail"]


def test_unknown_card_and_winner(client: Any) -> None:
    body = json.loads(json.dumps(W13))
    body["players"][0]["captured"][3] = "02-junk-9"
    assert _codes(_problem(client.post(HANDS, json=body), 422)) == [
        ("/players/0/captured/3", "unknown_card")
    ]
    body = {**W13, "outcome": {"type": "stop", "winner": "Z"}}
    assert _codes(_problem(client.post(HANDS, json=body), 422)) == [
        ("/outcome/winner", "unknown_player")
    ]


def test_winner_below_the_minimum_is_422_not_a_silent_zero(client: Any) -> None:
    body = {"players": W13["players"][:2], "outcome": {"type": "stop", "winner": "A"}}
    problem = _problem(client.post(HANDS, json=body), 422)
    assert _codes(problem) == [("/outcome/winner", "below_stop_minimum")]


def test_declared_points_below_their_categories_are_a_422_at_the_points(client: Any) -> None:
    """7 points from brights, animals, godori, ribbons and junk (worth 10 at least under
    standard) was scored and paid as 7 (an integrator's probe, 2026-12-06)."""
    everything = ["brights", "animals", "godori", "ribbons", "junk"]
    body = {
        "players": [
            {"id": "A", "declared": {"points": 7, "scored": everything}},
            {"id": "B", "declared": {}},
            {"id": "C", "declared": {}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    problem = _problem(client.post(HANDS + "?lang=en", json=body), 422)
    assert _codes(problem) == [("/players/0/declared/points", "points_below_scored")]
    assert "at least 10" in problem["errors"][0]["detail"]
    body["players"][0]["declared"]["points"] = 10
    assert client.post(HANDS, json=body).get_json()["net"] == {"A": 20, "B": -10, "C": -10}


@pytest.mark.parametrize(
    ("patch", "pointer", "code"),
    [
        ({"stake": 2.5}, "/stake", "invalid_type"),
        ({"stake": 2.000001}, "/stake", "invalid_type"),
        ({"stake": 0.0}, "/stake", "too_small"),
        ({"players": [{"id": "A", "go_count": 1.5}]}, "/players/0/go_count", "invalid_type"),
        ({"stake": "2"}, "/stake", "invalid_type"),
        ({"stake": True}, "/stake", "invalid_type"),
        ({"stake": 0}, "/stake", "too_small"),
        ({"nagari_streak": -1}, "/nagari_streak", "negative_count"),
        ({"colour": "red"}, "/colour", "unknown_field"),
        ({"players": "A,B"}, "/players", "invalid_type"),
        ({"outcome": {"type": "win", "winner": "A"}}, "/outcome/type", "not_allowed"),
        ({"ruleset": "kitchen"}, "/ruleset", "unknown_preset"),
        (
            {"ruleset": {"preset": "standard", "options": {"go_formla": "seed_ro"}}},
            "/ruleset/options/go_formla",
            "unknown_option",
        ),
        (
            {"ruleset": {"preset": "standard", "options": {"bomb_multiplier": 0}}},
            "/ruleset/options/bomb_multiplier",
            "too_small",
        ),
        (
            {"ruleset": {"preset": "standard", "options": {"meongtta_enabled": "yes"}}},
            "/ruleset/options/meongtta_enabled",
            "invalid_type",
        ),
    ],
)
def test_invalid_content_is_422_with_a_pointer(
    client: Any, patch: dict, pointer: str, code: str
) -> None:
    problem = _problem(client.post(HANDS, json={**W13, **patch}), 422)
    assert (pointer, code) in _codes(problem)


def test_unknown_field_message_names_the_allowed_fields(client: Any) -> None:
    body = json.loads(json.dumps(W13))
    body["players"][0]["go_cnt"] = 1
    (error,) = _problem(client.post(HANDS, json=body), 422)["errors"]
    assert error["pointer"] == "/players/0/go_cnt"
    assert "go_count" in error["detail"]


def test_float_go_count_is_rejected_not_truncated(client: Any) -> None:
    body = json.loads(json.dumps(W13))
    body["players"][0]["go_count"] = 2.5
    assert _codes(_problem(client.post(HANDS, json=body), 422)) == [
        ("/players/0/go_count", "invalid_type")
    ]


def test_malformed_json_is_400(client: Any) -> None:
    for data in ('{"players": [', "", "   ", "[1,]", "\x00"):
        problem = _problem(client.post(HANDS, data=data, content_type="application/json"), 400)
        assert problem["title"] == "Bad Request"


def test_wrong_content_type_is_415(client: Any) -> None:
    _problem(client.post(HANDS, data=json.dumps(W13), content_type="text/plain"), 415)
    _problem(client.post(HANDS, data=json.dumps(W13)), 415)


def test_oversized_body_is_413(client: Any) -> None:
    body = json.dumps({**W13, "pad": "x" * 70_000})
    _problem(client.post(HANDS, data=body, content_type="application/json"), 413)


def test_not_found_and_method_not_allowed(client: Any) -> None:
    _problem(client.get("/v1/nothing"), 404)
    response = client.get(HANDS)
    _problem(response, 405)
    assert "POST" in response.headers["Allow"]


def test_request_id_is_echoed_or_generated(client: Any) -> None:
    response = client.post(HANDS, json=W13, headers={"X-Request-ID": "table-7.hand-12"})
    assert response.headers["X-Request-ID"] == "table-7.hand-12"
    generated = client.post(HANDS, json=W13, headers={"X-Request-ID": "bad id <script>"})
    assert len(generated.headers["X-Request-ID"]) == 32
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"


def test_problem_bodies_carry_the_request_id(client: Any) -> None:
    response = client.post(HANDS, json={}, headers={"X-Request-ID": "r-1"})
    assert _problem(response, 422)["request_id"] == "r-1"


# --- batch ----------------------------------------------------------------------------


def test_batch_scores_each_hand_and_one_bad_hand_fails_alone(client: Any) -> None:
    bad = {**W13, "outcome": {"type": "stop", "winner": "Z"}}
    response = client.post(HANDS + "/batch", json={"hands": [W13, bad, 7, W13]})
    body = response.get_json()
    assert response.status_code == 200
    assert [r["status"] for r in body["results"]] == [200, 422, 422, 200]
    assert (body["succeeded"], body["failed"]) == (2, 2)
    assert body["results"][1]["problem"]["errors"][0]["pointer"] == "/hands/1/outcome/winner"
    assert body["results"][2]["problem"]["errors"][0]["pointer"] == "/hands/2"
    assert body["results"][3]["result"]["net"] == {"A": 9, "B": -3, "C": -6}


def test_batch_limit_is_1000(client: Any) -> None:
    problem = _problem(client.post(HANDS + "/batch", json={"hands": [W13] * 1001}), 422)
    assert _codes(problem) == [("/hands", "too_many")]
    ok = client.post(HANDS + "/batch", json={"hands": [W13] * 1000})
    assert ok.get_json()["succeeded"] == 1000


def test_cors_is_off_unless_configured(client: Any) -> None:
    from calculator.api import create_app

    assert (
        "Access-Control-Allow-Origin"
        not in client.post(HANDS, json=W13, headers={"Origin": "https://app.example"}).headers
    )
    configured = create_app({"access_log": False, "cors_origins": "https://app.example"})
    response = configured.test_client().post(
        HANDS, json=W13, headers={"Origin": "https://app.example"}
    )
    assert response.headers["Access-Control-Allow-Origin"] == "https://app.example"
    other = configured.test_client().post(
        HANDS, json=W13, headers={"Origin": "https://evil.example"}
    )
    assert "Access-Control-Allow-Origin" not in other.headers


def test_compare_with_the_house_rules_of_issue_16(client: Any) -> None:
    """W13 with B's go and two ppuk, at 100 a point, compared under each new house rule."""
    players = [dict(p) for p in W13["players"]]
    players[1] = {**players[1], "go_count": 1}
    body = {
        **W13,
        "players": players,
        "stake": 100,
        "events": [
            {"type": "first_ppuk", "player": "C"},
            {"type": "consecutive_ppuk", "player": "C"},
        ],
        "compare_with": [
            {"preset": "standard", "options": {"gobak_mode_3p": "pay_all_doubled"}},
            {"preset": "standard", "options": {"ppuk_payout": "highest"}},
            {"preset": "standard", "options": {"ppuk_chips": 500}},
        ],
    }
    response = client.post(HANDS, json=body)
    assert response.status_code == 200, response.get_json()
    got = response.get_json()
    # standard: B pays 3 + 6 = 9 (pay-all); C's ppuk 3 then 6 from A and B each.
    assert got["net"] == {"A": 900 - 900, "B": -900 - 900, "C": 1800}
    doubled, highest, chips = got["comparisons"]
    assert doubled["difference"] == {"A": 900, "B": -900, "C": 0}  # (3 + 6) × 2 = 18
    assert highest["difference"] == {"A": 300, "B": 300, "C": -600}  # only the 6 is paid
    assert chips["difference"] == {"A": 900 - 1500, "B": 900 - 1500, "C": -1800 + 3000}
    first = next(p for p in chips["payments"] if p["reason"] == "first_ppuk")
    assert (first["points"], first["chips"], first["priced_in"]) == (0, 500, "chips")
    assert [s["code"] for s in first["steps"]] == ["ppuk_chips"]
    assert "priced_in" not in got["payments"][0]


@pytest.mark.parametrize(
    ("options", "outcome", "winner", "said"),
    [
        (
            {},
            {"type": "chongtong", "winner": "A"},
            "A",
            "chongtong price in chips (not × stake) 300 chips",
        ),
        # a tie the dealer wins: the winner is read from the payments (winner_of)
        (
            {"chongtong_tie": "dealer"},
            {
                "type": "chongtong",
                "holders": [{"player": "B", "month": 1}, {"player": "C", "month": 2}],
            },
            "B",
            "chongtong price in chips (not × stake) 300 chips",
        ),
        # a floor four the dealer wins says so, priced in chips or not
        (
            {"floor_four_of_month": "dealer_wins"},
            {"type": "floor_four"},
            "B",
            "four of a month on the table: the dealer's 300 chips",
        ),
    ],
)
def test_a_chongtong_priced_in_chips_is_paid_in_chips_whatever_the_stake(
    client: Any, options: dict[str, Any], outcome: dict[str, Any], winner: str, said: str
) -> None:
    """chongtong_chips (NONG, ZF: a fixed sum of money): each opponent pays the price in
    chips at any stake, as a side payment priced in chips is paid."""
    body = {
        "ruleset": {"preset": "standard", "options": {"chongtong_chips": 300, **options}},
        "stake": 100,
        "dealer": "B",
        "players": [{"id": p, "captured": []} for p in "ABC"],
        "outcome": outcome,
    }
    got = client.post(HANDS + "?lang=en", json=body).get_json()
    assert got["outcome"]["winner"] == winner
    assert got["winner_score"]["amount"] == 300
    assert len(got["payments"]) == 2
    for payment in got["payments"]:
        assert (payment["to"], payment["points"], payment["chips"]) == (winner, 0, 300)
        assert (payment["reason"], payment["priced_in"]) == ("chongtong", "chips")
        code = "floor_four" if outcome["type"] == "floor_four" else "chongtong_chips"
        assert [s["code"] for s in payment["steps"]] == [code]
        assert payment["text"]["en"] == said
    assert got["net"][winner] == 600


def test_a_sitter_pays_no_chongtong_priced_in_chips_and_is_paid_its_sale(client: Any) -> None:
    """Four at the table, D sits out holding one bright; A's 총통 at 300 chips: B and C
    pay it (300 chips each, whatever the stake), D does not; D's sale is 2 points a card
    × 100 from each of A, B and C (the standard 광팔기). By hand: A +600 − 200 = +400,
    B and C −300 − 200 = −500, D +600."""
    body = {
        "ruleset": {"preset": "standard", "options": {"chongtong_chips": 300}},
        "stake": 100,
        "players": [
            *({"id": p, "captured": []} for p in "ABC"),
            {"id": "D", "sits_out": True, "hand": ["01-bright"]},
        ],
        "outcome": {"type": "chongtong", "winner": "A"},
    }
    got = client.post(HANDS, json=body).get_json()
    paid = [(p["from"], p["to"], p["points"], p["chips"], p["reason"]) for p in got["payments"]]
    assert paid == [
        ("B", "A", 0, 300, "chongtong"),
        ("C", "A", 0, 300, "chongtong"),
        ("A", "D", 2, 200, "gwangpal"),
        ("B", "D", 2, 200, "gwangpal"),
        ("C", "D", 2, 200, "gwangpal"),
    ]
    assert got["net"] == {"A": 400, "B": -500, "C": -500, "D": 600}


def test_a_chongtong_priced_in_chips_explains_the_nagari_factor_after_its_price(
    client: Any,
) -> None:
    """Under chongtong_apply_multipliers the payment starts at the price, as a side
    payment priced in chips does, then says the factor: not the doubled price as the
    price (the review of 2026-12-06)."""
    options = {"chongtong_chips": 300, "chongtong_apply_multipliers": True}
    body = {
        "ruleset": {"preset": "standard", "options": options},
        "stake": 100,
        "nagari_streak": 1,
        "players": [{"id": p, "captured": []} for p in "ABC"],
        "outcome": {"type": "chongtong", "winner": "A"},
    }
    got = client.post(HANDS + "?lang=en", json=body).get_json()
    for payment in got["payments"]:
        assert (payment["points"], payment["chips"]) == (0, 600)
        steps = [(s["code"], s["op"], s["total"]) for s in payment["steps"]]
        assert steps == [("chongtong_chips", "start", 300), ("nagari", "multiply", 600)]
        assert payment["text"]["en"] == (
            "chongtong price in chips (not × stake) 300 × 2 "
            "(drawn hands before (nagari): 1 in a row) = 600 chips"
        )
    assert got["net"] == {"A": 1200, "B": -600, "C": -600}


@pytest.mark.parametrize("dealer", [None, "A"])
def test_a_stop_with_chongtong_holders_is_refused_with_or_without_a_dealer(
    client: Any, dealer: str | None
) -> None:
    """Regression (issue #11 item 6): the plain-table shortcut let holders through (200,
    net A 6) while the same hand with a dealer took the full checks (422)."""
    holders = [{"player": "A", "month": 1}, {"player": "B", "month": 2}]
    body = {**W13, "outcome": {"type": "stop", "winner": "A", "holders": holders}}
    if dealer is not None:
        body["dealer"] = dealer
    problem = _problem(client.post(HANDS, json=body), 422)
    assert ("/outcome/holders", "unexpected_field") in _codes(problem)


def test_whole_floats_are_integers_and_answer_as_integers(client: Any) -> None:
    # JSON Schema's integer: 2.0 is 2 wherever an integer is expected (stake, counts,
    # options); the answer is the one the integers get.
    as_ints = {**W13, "stake": 100, "nagari_streak": 1}
    as_ints["players"] = [{**W13["players"][0], "go_count": 1}, *W13["players"][1:]]
    as_floats = {**as_ints, "stake": 100.0, "nagari_streak": 1.0}
    as_floats["players"] = [{**W13["players"][0], "go_count": 1.0}, *W13["players"][1:]]
    as_floats["ruleset"] = {"preset": "standard", "options": {"shake_multiplier": 2.0}}
    want = client.post(HANDS, json=as_ints)
    got = client.post(HANDS, json=as_floats)
    assert got.status_code == want.status_code == 200
    assert got.get_json()["net"] == want.get_json()["net"]
    assert got.get_json()["stake"] == 100
    assert b'"stake":100,' in got.get_data()
