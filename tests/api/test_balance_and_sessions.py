"""Scenario tests of POST /v1/balance/hands and POST /v1/settlements."""

from __future__ import annotations

from typing import Any

from calculator.api.examples import BALANCE_EXAMPLES
from calculator.cards import MONTH_CARD_IDS

BALANCE = "/v1/balance/hands"
SETTLE = "/v1/settlements"
W33 = BALANCE_EXAMPLES["three_players"]["value"]


def _codes(response: Any, status: int = 422) -> list[tuple[str, str]]:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    return [(e["pointer"], e["code"]) for e in response.get_json()["errors"]]


def test_w33_over_http(client: Any) -> None:
    body = client.post(BALANCE, json=W33).get_json()
    assert body["target"] == 80
    assert [(p["id"], p["balance"], p["chips"]) for p in body["players"]] == [
        ("A", 20, 200),
        ("B", -15, -150),
        ("C", -5, -50),
    ]
    a = body["players"][0]
    assert a["card_points"] == 80
    assert {i["kind"]: i["points"] for i in a["items"]} == {
        "brights": 40,
        "animals": 20,
        "ribbons": 20,
        "junk": 0,
    }
    received = sorted((b["code"], b["from"], b["points"]) for b in a["set_bonuses"]["received"])
    assert received == [
        ("all_october", "B", 20),
        ("all_october", "C", 20),
        ("hongdan", "B", 30),
        ("hongdan", "C", 30),
    ]
    assert body["transfers"] == [
        {"from": "B", "to": "A", "chips": 150},
        {"from": "C", "to": "A", "chips": 50},
    ]


def test_missing_cards_make_a_void_200(client: Any) -> None:
    body = {
        "players": [
            {"id": "A", "captured": list(MONTH_CARD_IDS[:24])},
            {"id": "B", "captured": list(MONTH_CARD_IDS[24:47])},
        ]
    }
    result = client.post(BALANCE, json=body).get_json()
    assert result["void"] is True
    assert result["missing_cards"] == ["12-double-junk"]
    assert result["net"] == {"A": 0, "B": 0}
    assert result["transfers"] == []
    assert [p["balance"] for p in result["players"]] == [None, None]


def test_balance_errors(client: Any) -> None:
    twice = {
        "players": [
            {"id": "A", "captured": list(MONTH_CARD_IDS[:25])},
            {"id": "B", "captured": list(MONTH_CARD_IDS[24:])},
        ]
    }
    assert _codes(client.post(BALANCE, json=twice)) == [("/players/1/captured/0", "duplicate_card")]
    # one player's card twice: said as a Go-Stop hand says it (errors.held_twice)
    again = {
        "players": [
            {"id": "A", "captured": ["01-bright", "01-bright"]},
            {"id": "B", "captured": []},
        ]
    }
    refused = client.post(BALANCE, json=again)
    detail = refused.get_json()["errors"][0]["detail"]
    assert detail.startswith("01-bright is held twice: by the same player at /players/0/")
    joker = {
        "players": [
            {"id": "A", "captured": [*MONTH_CARD_IDS[:24], "bonus-a"]},
            {"id": "B", "captured": list(MONTH_CARD_IDS[24:])},
        ]
    }
    assert _codes(client.post(BALANCE, json=joker)) == [
        ("/players/0/captured/24", "card_not_in_deck")
    ]
    valued = {**joker, "ruleset": {"preset": "balance", "options": {"bonus_a_points": 10}}}
    assert client.post(BALANCE, json=valued).get_json()["target"] == 125
    assert _codes(client.post(BALANCE, json={**W33, "ruleset": "standard"})) == [
        ("/ruleset", "wrong_variant")
    ]
    one = {"players": [{"id": "A", "captured": list(MONTH_CARD_IDS)}]}
    refused = client.post(BALANCE, json=one)
    assert _codes(refused) == [("/players", "player_count")]
    assert refused.get_json()["errors"][0]["detail"].startswith("1 player: ")
    assert refused.get_json()["detail"].startswith("1 problem; first at /players: 1 player: ")


def test_minhwatu_preset_over_http(client: Any) -> None:
    body = client.post(BALANCE + "?full_ruleset=true", json={**W33, "ruleset": "minhwatu"})
    options = body.get_json()["ruleset"]["options"]
    assert options["chodan_bonus"] == 30
    assert options["november_bonus"] == 20


def test_session_of_nets_and_hands(client: Any) -> None:
    body = {
        "players": ["A", "B", "C"],
        "hands": [
            {"net": {"A": 20, "B": -15, "C": -5}},
            {"balance": W33},
            {
                "gostop": {
                    "players": [
                        {"id": "A", "captured": ["01-bright", "03-bright", "08-bright"]},
                        {"id": "B", "captured": ["12-bright"]},
                        {"id": "C", "captured": ["11-bright"]},
                    ],
                    "outcome": {"type": "stop", "winner": "C"},
                }
            },
        ],
    }
    response = client.post(SETTLE, json=body)
    assert response.status_code == 422  # C has 0 points and cannot stop
    assert _codes(response) == [("/hands/2/gostop/outcome/winner", "below_stop_minimum")]
    body["hands"][2]["gostop"]["outcome"]["winner"] = "A"
    result = client.post(SETTLE, json=body).get_json()
    assert result["totals"] == {"A": 20 + 200 + 6, "B": -15 - 150 - 3, "C": -5 - 50 - 3}
    assert [h["kind"] for h in result["hands"]] == ["net", "balance", "gostop"]
    assert result["transfers"] == [
        {"from": "B", "to": "A", "chips": 168},
        {"from": "C", "to": "A", "chips": 58},
    ]


def test_session_errors(client: Any) -> None:
    bad_sum = {"players": ["A", "B"], "hands": [{"net": {"A": 5, "B": -4}}]}
    assert _codes(client.post(SETTLE, json=bad_sum)) == [("/hands/0/net", "net_not_zero_sum")]
    # about the night, not a hand's play: its own type and title (they said "The hand
    # breaks the rules of play": an integrator's probe)
    problem = client.post(SETTLE, json=bad_sum).get_json()
    assert (problem["type"], problem["title"]) == (
        "urn:gostop:problem:invalid-session",
        "The session cannot be settled",
    )
    stranger = {"players": ["A", "B"], "hands": [{"net": {"A": 5, "Z": -5}}]}
    assert _codes(client.post(SETTLE, json=stranger)) == [("/hands/0/net/Z", "unknown_player")]
    both = {"players": ["A", "B"], "hands": [{"net": {"A": 0}, "balance": W33}]}
    assert ("/hands/0", "entry_mode") in _codes(client.post(SETTLE, json=both))
    floats = {"players": ["A", "B"], "hands": [{"net": {"A": 2.5, "B": -2.5}}]}
    assert _codes(client.post(SETTLE, json=floats)) == [
        ("/hands/0/net/A", "invalid_type"),
        ("/hands/0/net/B", "invalid_type"),
    ]
    absorber = {"players": ["A", "B"], "hands": [], "rounding": {"unit": 100, "absorber": "Q"}}
    assert _codes(client.post(SETTLE, json=absorber)) == [("/rounding/absorber", "unknown_player")]
    # players a phone shows alike, or as nothing, as a table's roster refuses them (an
    # integrator's probe: "A" and "A " settled as two people, "B → A" twice)
    alike = {"players": ["A", "B", "A ", "   "], "hands": []}
    assert _codes(client.post(SETTLE, json=alike)) == [
        ("/players/2", "duplicate_player"),
        ("/players/3", "invalid_length"),
    ]


def test_a_session_hand_without_its_outcome_is_refused_not_counted_as_zero(client: Any) -> None:
    """A Go-Stop hand without ``outcome`` is a preview: it moved nothing, so in a session it
    used to count as a silent 0 (A's three brights paid nobody)."""
    hand = {
        "players": [
            {"id": "A", "captured": ["01-bright", "03-bright", "08-bright"]},
            {"id": "B", "captured": ["12-bright"]},
            {"id": "C", "captured": ["11-bright"]},
        ]
    }
    body = {"players": ["A", "B", "C"], "hands": [{"gostop": hand}]}
    assert _codes(client.post(SETTLE, json=body)) == [
        ("/hands/0/gostop/outcome", "outcome_required")
    ]


def test_a_void_balance_hand_in_a_session_says_it_is_void(client: Any) -> None:
    """A balance hand with a card nobody holds is void (POST /v1/balance/hands says so);
    in a session its zeros now say why."""
    short = {**W33, "players": [dict(p) for p in W33["players"]]}
    short["players"][0] = {**short["players"][0], "captured": short["players"][0]["captured"][1:]}
    assert client.post(BALANCE, json=short).get_json()["void"] is True
    body = {"players": ["A", "B", "C"], "hands": [{"balance": short}, {"balance": W33}]}
    result = client.post(SETTLE, json=body).get_json()
    assert [(h["void"], h["net"]) for h in result["hands"]] == [
        (True, {"A": 0, "B": 0, "C": 0}),
        (False, {"A": 200, "B": -150, "C": -50}),
    ]


def test_rounding_over_http(client: Any) -> None:
    body = {
        "players": ["A", "B", "C"],
        "hands": [{"net": {"A": 1510, "B": -760, "C": -750}}],
        "rounding": {"unit": 100},
    }
    result = client.post(SETTLE, json=body).get_json()
    # down to the unit 1500, -800, -800; the unit left over to C, the largest remainder (50)
    assert result["totals"] == {"A": 1500, "B": -800, "C": -700}
    raw = {"A": 1510, "B": -760, "C": -750}
    assert result["rounding"] == {"unit": 100, "raw": raw, "method": "largest_remainder"}
    body["rounding"]["absorber"] = "A"  # B and C to the nearest, A takes the rest
    result = client.post(SETTLE, json=body).get_json()
    assert result["totals"] == {"A": 1600, "B": -800, "C": -800}
    assert result["rounding"] == {
        "unit": 100,
        "raw": raw,
        "method": "absorber",
        "absorbed_by": "A",
        "remainder": 90,
    }


def test_an_uneven_deck_says_what_the_deck_is_worth_and_which_values_to_change(
    client: Any,
) -> None:
    """It used to blame the bonus cards whatever made the deck uneven. Here 5 × 20 + 9 × 10
    + 10 × 6 = 250, not a multiple of 3, and no bonus card is in the deck."""
    body = {**W33, "ruleset": {"preset": "balance", "options": {"ribbon_points": 6}}}
    response = client.post(BALANCE, json=body)
    assert _codes(response) == [("/ruleset", "uneven_deck")]
    detail = response.get_json()["errors"][0]["detail"]
    assert "250 points (brights 5 × 20, animals 9 × 10, ribbons 10 × 6)" in detail
    assert "bonus cards" not in detail
    assert "ribbon_points" in detail


def test_chips_beyond_what_apps_read_exactly_are_refused(client: Any) -> None:
    """A balance hand's chips past 2^53 − 1 (a JavaScript client would round them) are a
    422, as a Go-Stop hand's are; up to it they are answered exactly."""
    points = ("bright", "animal", "ribbon")
    bonuses = ("cheongdan", "chodan", "may", "october", "november", "december", "godori")
    options = {f"{kind}_points": 1000 for kind in points} | {
        f"{code}_bonus": 1000 for code in bonuses
    }
    body = {
        "ruleset": {"preset": "balance", "options": {**options, "hongdan_bonus": 999}},
        "stake": 1,
        "players": [{"id": "A", "captured": list(MONTH_CARD_IDS)}, {"id": "B", "captured": []}],
    }
    balance = client.post(BALANCE, json=body).get_json()["players"][0]["balance"]
    most = (2**53 - 1) // balance
    answered = client.post(BALANCE, json={**body, "stake": most})
    assert answered.status_code == 200
    assert answered.get_json()["net"] == {"A": balance * most, "B": -balance * most}
    refused = client.post(BALANCE, json={**body, "stake": most + 1})
    assert _codes(refused) == [("", "amount_too_large")]
    assert "the stake" in refused.get_json()["errors"][0]["detail"]


def test_a_balance_hand_is_told_every_problem_at_once(client: Any) -> None:
    """A balance hand with a stake of the wrong type, or a player id used twice, was told
    that alone; its card typo and the card held twice came one round trip later. Its
    cards are read by the Go-Stop hand's own diagnosis (calculator.piles.diagnose_cards)."""
    players = [
        {"id": "A", "captured": ["01-brigth", "02-ribbon"]},
        {"id": "B", "captured": ["02-ribbon"]},
    ]
    cards = {("/players/0/captured/0", "unknown_card"), ("/players/1/captured/0", "duplicate_card")}
    for change, first, kind in (
        ({"stake": "2"}, ("/stake", "invalid_type"), "invalid-request"),
        (
            {"players": [players[0], {**players[1], "id": "A"}]},
            ("/players/1/id", "duplicate_player"),
            "invalid-hand",
        ),
        ({}, None, "impossible-hand"),
    ):
        response = client.post(BALANCE, json={"players": players, **change})
        assert response.status_code == 422
        problem = response.get_json()
        found = [(e["pointer"], e["code"]) for e in problem["errors"]]
        assert problem["type"] == f"urn:gostop:problem:{kind}"
        assert set(found) == cards | ({first} if first else set())
        assert first is None or found[0] == first
        held = next(e for e in problem["errors"] if e["code"] == "duplicate_card")
        assert "at /players/0/captured/1 and by player" in held["detail"]


def test_a_balance_players_stray_sits_out_does_not_hide_its_cards(client: Any) -> None:
    """Nobody sits out a balance hand: a stray ``sits_out`` is an unknown field, and the
    player's cards are still its ``captured`` (they were read from a ``hand`` it has
    not)."""
    body = {
        "players": [
            {"id": "A", "captured": ["01-bright", "01-bright"], "sits_out": True},
            {"id": "B", "captured": []},
        ]
    }
    errors = client.post(BALANCE, json=body).get_json()["errors"]
    found = {(e["pointer"], e["code"]) for e in errors}
    assert found == {
        ("/players/0/sits_out", "unknown_field"),
        ("/players/0/captured/1", "duplicate_card"),
    }
