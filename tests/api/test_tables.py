"""The table ledger over HTTP (SPEC §9), on SQLite and on PostgreSQL: whole nights, the
stateless answer, the check order, idempotency, versions, access and the derived rows."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest

from ledger_support import SCENARIOS, wire_hand
from tables_support import TableClient, new_key

GOSTOP = SCENARIOS[0]
HAND = GOSTOP["steps"][0]["hand"]  # A stops with 3 against B and C


@pytest.fixture
def lclient(ledger_app: Any) -> Any:
    return ledger_app.test_client()


def _table(lclient: Any, **overrides: Any) -> TableClient:
    return TableClient.create(lclient, {**GOSTOP["table"], **overrides})


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_a_whole_night(lclient: Any, scenario: dict[str, Any]) -> None:
    table = TableClient.create(lclient, scenario["table"])
    for step in scenario["steps"]:
        hand = wire_hand(step["hand"]) if "hand" in step else None
        answer = table.step(step, hand)
        expect = step.get("expect", {})
        if "changed" in expect:
            assert answer["changed"] == expect["changed"]
        state = table.get()
        assert state["version"] == table.version
        for name in ("totals", "nagari_streak", "dealer"):
            if name in expect:
                assert state[name] == expect[name], name
        if "hands" in expect:
            assert len(state["hands"]) == expect["hands"]
    state = table.get()
    final = scenario["expect"]
    assert state["totals"] == final["totals"]
    assert state["nagari_streak"] == final["nagari_streak"]
    assert state["dealer"] == final["dealer"]
    assert [h["number"] for h in state["hands"] if h["status"] == "voided"] == final["voided"]
    if "dealers" in final:
        assert [h["dealer"] for h in state["hands"]] == final["dealers"]
    settled = table.get("/settlement")
    assert settled["totals"] == final["totals"]
    events = table.get("/events")["events"]
    assert [e["seq"] for e in events] == list(range(1, table.version + 1))
    assert events[0]["type"] == "created"
    assert all(e["by"] == "scorer" for e in events)
    assert table.get(f"/events?after={table.version - 2}")["events"] == events[-2:]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_each_stored_result_is_the_stateless_answer(lclient: Any, scenario: dict[str, Any]) -> None:
    table = TableClient.create(lclient, scenario["table"])
    bodies = {}
    for step in scenario["steps"][:8]:
        hand = wire_hand(step["hand"]) if "hand" in step else None
        table.step(step, hand)
        if step["do"] == "add":
            bodies[len(bodies) + 1] = hand
    stake, ruleset = scenario["table"]["stake"], scenario["table"]["ruleset"]
    for item in table.get()["hands"]:
        body = {**bodies[item["number"]], "ruleset": ruleset, "stake": stake}
        if scenario["table"]["variant"] == "gostop":
            body["nagari_streak"] = item["nagari_streak"]
            if item["dealer"] is not None:
                body["dealer"] = item["dealer"]
            path = "/v1/gostop/hands"
        else:
            path = "/v1/balance/hands"
        stateless = lclient.post(path, json=body)
        assert stateless.status_code == 200
        assert stateless.get_json() == item["result"]


def test_create_answers_tokens_once_and_a_join_code(lclient: Any) -> None:
    response = lclient.post("/v1/tables", json=GOSTOP["table"])
    assert response.status_code == 201
    assert response.headers["ETag"] == '"1"'
    created = response.get_json()
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{8}", created["join_code"])
    assert len(created["scorer_token"]) >= 32
    assert created["scorer_token"] != created["viewer_token"]
    table = TableClient(lclient, created)
    state = table.get()
    text = str(state) + str(table.get("/events"))
    assert created["scorer_token"] not in text
    assert created["viewer_token"] not in text
    assert state["ruleset"]["fingerprint"]
    assert state["ruleset"]["options"]
    assert state["roster"][0] == {"id": "A", "name": None}
    from calculator.store import schema

    store = lclient.application.extensions["gostop_store"]
    with store.engine.begin() as c:
        rows = c.execute(schema.tokens.select().where(schema.tokens.c.table_id == table.id)).all()
    assert {r.role for r in rows} == {"scorer", "viewer"}
    assert all(created["scorer_token"] not in r.hash for r in rows)


def test_a_replayed_create_is_the_same_table_with_fresh_tokens(lclient: Any) -> None:
    key = new_key()
    first = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    again = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    assert first.status_code == again.status_code == 201
    a, b = first.get_json(), again.get_json()
    assert a["id"] == b["id"]
    assert a["scorer_token"] != b["scorer_token"]
    assert a["viewer_token"] != b["viewer_token"]
    # both answers' tokens open the table: a replay never locks out the first answer
    # (which may have reached the phone after all, or be the creator's and not a retry)
    for created in (a, b):
        TableClient(lclient, created).get()
    assert [t["label"] for t in TableClient(lclient, b).get("/tokens")["tokens"]] == [
        "scorer",
        "viewer",
        "scorer (2)",
        "viewer (2)",
    ]
    other = lclient.post(
        "/v1/tables", json={**GOSTOP["table"], "stake": 99}, headers={"Idempotency-Key": key}
    )
    assert other.status_code == 422
    assert other.get_json()["errors"][0]["code"] == "key_reused"


def test_a_replay_running_beside_another_locks_nobody_out(lclient: Any) -> None:
    """Two replays of one create, whichever answer the phone keeps: each answer's tokens
    open the table (review 2026-12-06: with the first tokens rekeyed, a replay committing
    after the one the phone kept left it with two dead secrets and no writer)."""
    key = new_key()
    answers = [
        lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
        for _ in range(3)
    ]
    assert len({answer.get_json()["id"] for answer in answers}) == 1
    for answer in answers:  # each answer's scorer token is still a scorer's
        table = TableClient(lclient, answer.get_json())
        mine = [t for t in table.get("/tokens")["tokens"] if t["yours"]]
        assert [t["role"] for t in mine] == ["scorer"]


@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        ({"roster": ["A", "A"]}, "duplicate_player", "/roster/1"),
        ({"roster": ["A", "B"], "dealer": "C"}, "unknown_player", "/dealer"),
        # ids a phone shows alike (an integrator's probe): one person to the players, two
        # to the ledger. 민지 composed, then decomposed (as some systems type it); a
        # space at the end; a space inside doubled; an emoji with and without its
        # variation selector (the share text's reading of names: calculator/names.py)
        (
            {"roster": ["\ubbfc\uc9c0", "\u1106\u1175\u11ab\u110c\u1175"]},
            "duplicate_player",
            "/roster/1",
        ),
        ({"roster": ["A", "B", "A "]}, "duplicate_player", "/roster/2"),
        ({"roster": ["Kim Min", "Kim  Min"]}, "duplicate_player", "/roster/1"),
        ({"roster": ["\u2764 Min", "\u2764\ufe0f Min"]}, "duplicate_player", "/roster/1"),
        # an id of only spaces or invisible characters: the share text showed it as "?"
        ({"roster": ["   ", "B", "C"]}, "invalid_length", "/roster/0"),
        ({"roster": ["A", "\u00a0\u3000"]}, "invalid_length", "/roster/1"),
    ],
)
def test_a_roster_or_dealer_that_cannot_open_a_table_is_an_invalid_table(
    lclient: Any, body: dict[str, Any], code: str, pointer: str
) -> None:
    """About the table, not a hand: its own problem type and title; the codes are the
    ones clients switch on, unchanged."""
    response = lclient.post("/v1/tables", json=body)
    problem = response.get_json()
    assert (response.status_code, problem["type"], problem["title"]) == (
        422,
        "urn:gostop:problem:invalid-table",
        "The table cannot be set up",
    )
    assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [(pointer, code)]


@pytest.mark.parametrize(
    "roster",
    [
        ["A", "a"],  # two people may be A and a
        ["\uff21", "A"],  # a full-width letter is drawn wider
        ["\u3131\u314f", "\uac00"],  # ㄱㅏ, two letters, and the syllable 가
        ["\u2460", "1"],  # ① and 1
    ],
)
def test_a_roster_of_ids_a_reader_tells_apart_opens(lclient: Any, roster: list[str]) -> None:
    """Only what a reader cannot see is folded: not case, width or compatibility forms
    (NFKC, a first try, refused these; the review)."""
    assert lclient.post("/v1/tables", json={"roster": roster}).status_code == 201


@pytest.mark.parametrize(
    ("roster", "options", "cannot"),
    [
        # brights 5 × 7 + animals 9 × 10 + ribbons 10 × 5 = 175: odd, and not a multiple of 3
        (
            ["A", "B", "C", "D"],
            {"bright_points": 7},
            "175 points (brights 5 × 7, animals 9 × 10, ribbons 10 × 5), which 2, 3 or 4 players",
        ),
        # 5 × 20 + 9 × 10 + 10 × 6 = 250: two share it, three and four do not
        (
            ["A", "B", "C", "D"],
            {"ribbon_points": 6},
            "250 points (brights 5 × 20, animals 9 × 10, ribbons 10 × 6), which 3 or 4 players",
        ),
        (["A", "B", "C"], {"ribbon_points": 6}, "which 3 players"),
    ],
)
def test_a_balance_table_no_hand_of_its_roster_could_be_scored_under_is_refused(
    lclient: Any, roster: list[str], options: dict[str, int], cannot: str
) -> None:
    """The rule set is locked for the night: a deck that some hand size the roster can
    seat (2 to 4) cannot share evenly would refuse every such hand, at a pointer the
    hand's body cannot hold (the integrator probe). Refused when the table is made."""
    body = {
        "variant": "balance",
        "roster": roster,
        "ruleset": {"preset": "balance", "options": options},
    }
    response = lclient.post("/v1/tables", json=body)
    problem = response.get_json()
    assert (response.status_code, problem["type"]) == (422, "urn:gostop:problem:invalid-table")
    [error] = problem["errors"]
    assert (error["pointer"], error["code"]) == ("/ruleset", "uneven_deck")
    assert cannot in error["detail"], error["detail"]


def test_a_balance_table_whose_roster_seats_only_hands_its_deck_shares_opens(
    lclient: Any,
) -> None:
    """250 points share between two (125 each): a table of two opens and scores."""
    body = {
        "variant": "balance",
        "roster": ["A", "B"],
        "ruleset": {"preset": "balance", "options": {"ribbon_points": 6}},
    }
    from calculator import resolve

    table = TableClient.create(lclient, body)
    deck = sorted(resolve("balance").rules.values)
    hand = {
        "players": [
            {"id": "A", "captured": [c for c in deck if c < "07"]},
            {"id": "B", "captured": [c for c in deck if c >= "07"]},
        ]
    }
    result = table.write("POST", "/hands", hand, expect=201)["result"]
    assert result["target"] == 125
    assert sum(p["card_points"] for p in result["players"]) == 250


def test_a_hand_naming_a_roster_id_spelled_otherwise_is_told_which(lclient: Any) -> None:
    """A roster id and a hand's that a phone shows alike but that are encoded otherwise
    (a Korean name typed on two systems): the 422 names the roster's id and says why they
    differ, instead of listing a roster that seems to hold it."""
    composed, decomposed = "\ubbfc\uc9c0", "\u1106\u1175\u11ab\u110c\u1175"
    table = _table(lclient, roster=[decomposed, "B", "C"], dealer=None)

    def played_by(first: str) -> dict[str, Any]:
        players = [{**HAND["players"][0], "id": first}, *HAND["players"][1:]]
        return {**HAND, "players": players, "outcome": {**HAND["outcome"], "winner": first}}

    error = table.write("POST", "/hands", played_by(composed), expect=422)["errors"][0]
    assert (error["code"], error["pointer"]) == ("unknown_player", "/players/0/id")
    assert f"{decomposed!r} is, spelled with other spaces, invisible" in error["detail"]
    error = table.write("POST", "/hands", played_by("Z"), expect=422)["errors"][0]
    assert "'Z' is not on the table's roster (" in error["detail"]  # as before


def test_a_hand_with_a_player_off_the_roster_is_told_its_cards_problems_too(
    lclient: Any,
) -> None:
    """A hand naming a player the table does not have, whose piles also hold a card twice
    and an unknown card, was refused for the player alone: its cards came back one round
    trip later. It now lists them as the stateless endpoint lists a hand's problems
    (SPEC §4: every problem), the roster's first."""
    table = _table(lclient)
    hand = {
        "players": [
            {"id": "A", "captured": ["01-bright", "03-bright", "08-bright", "02-ribbon"]},
            {"id": "Z", "captured": ["02-ribbon", "13-bright"]},
            {"id": "C", "captured": []},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    for method, path, body, prefix in (
        ("POST", "/hands", hand, ""),
        ("PUT", "/hands/1", {"hand": hand, "reason": "typo"}, "/hand"),
    ):
        errors = table.write(method, path, body, expect=422)["errors"]
        found = [(e["code"], e["pointer"].removeprefix(prefix)) for e in errors]
        assert found[0] == ("unknown_player", "/players/1/id"), found
        assert ("unknown_card", "/players/1/captured/1") in found, found
        assert any(code == "duplicate_card" for code, _ in found), found
        if method == "POST":
            table.write("POST", "/hands", HAND, expect=201)  # so there is a hand 1
    assert table.get()["hands"][0]["result"]["players"][0]["points"] == 3  # HAND, unchanged
    # a field of the wrong type beside them: every problem in one answer too
    broken = {**hand, "players": [{**hand["players"][0], "go_count": "1"}, *hand["players"][1:]]}
    errors = table.write("POST", "/hands", broken, expect=422)["errors"]
    found = {(e["code"], e["pointer"]) for e in errors}
    assert ("invalid_type", "/players/0/go_count") in found
    assert ("unknown_card", "/players/1/captured/1") in found
    held = next(e for e in errors if e["code"] == "duplicate_card")
    assert (
        "by player 'A' at /players/0/captured/3 and by player 'Z' at /players/1/"
        in (held["detail"])
    )


def test_a_balance_or_a_forbidden_fields_table_hand_is_told_its_cards_too(lclient: Any) -> None:
    """A balance table's hand naming a player off the roster, and a hand sending the
    table's stake, were told that alone (the reviewer's): their cards' problems and
    other fields' now come in the same answer."""
    balance = _table(lclient, roster=["A", "B", "C"], variant="balance", ruleset="balance")
    hand = {
        "players": [
            {"id": "A", "captured": ["01-bright", "01-brigth"]},
            {"id": "Z", "captured": ["01-bright"]},
        ]
    }
    errors = balance.write("POST", "/hands", hand, expect=422)["errors"]
    assert [(e["code"], e["pointer"]) for e in errors] == [
        ("unknown_player", "/players/1/id"),
        ("unknown_card", "/players/0/captured/1"),
        ("duplicate_card", "/players/1/captured/0"),
    ]
    table = _table(lclient)
    body = {
        "stake": 5,
        "players": [
            {"id": "A", "captured": ["01-bright", "01-brigth"], "go_count": "1"},
            {"id": "B", "captured": ["01-bright"]},
            {"id": "C", "captured": []},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    errors = table.write("POST", "/hands", body, expect=422)["errors"]
    assert {(e["code"], e["pointer"]) for e in errors} == {
        ("forbidden_field", "/stake"),
        ("invalid_type", "/players/0/go_count"),
        ("unknown_card", "/players/0/captured/1"),
        ("duplicate_card", "/players/1/captured/0"),
    }


@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        ({"roster": ["A"]}, "player_count", "/roster"),
        ({"roster": ["A", "A"]}, "duplicate_player", "/roster/1"),
        ({"roster": ["A", "B"], "dealer": "C"}, "unknown_player", "/dealer"),
        ({"roster": ["A", "B"], "ruleset": "balance"}, "wrong_variant", "/ruleset"),
        (
            {"roster": ["A", "B"], "variant": "balance", "ruleset": "nope"},
            "unknown_preset",
            "/ruleset",
        ),
        ({"roster": ["A", "B"], "stake": 0}, "too_small", "/stake"),
        ({"roster": [{"id": "A", "name": "앨리스"}, {"name": "B"}]}, "required", "/roster/1/id"),
        # blank: a share text titled "   ·", a player shown without a name (a probe's)
        ({"roster": ["A", "B"], "name": " \t "}, "invalid_length", "/name"),
        ({"roster": [{"id": "A", "name": "\u3000"}, "B"]}, "invalid_length", "/roster/0/name"),
    ],
)
def test_a_bad_table_is_a_422_naming_the_field(
    lclient: Any, body: dict[str, Any], code: str, pointer: str
) -> None:
    response = lclient.post("/v1/tables", json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert (errors[0]["pointer"], errors[0]["code"]) == (pointer, code), errors


@pytest.mark.parametrize(
    ("change", "code", "pointer"),
    [
        ({"ruleset": "wikipedia"}, "forbidden_field", "/ruleset"),
        ({"stake": 5}, "forbidden_field", "/stake"),
        ({"nagari_streak": 1}, "forbidden_field", "/nagari_streak"),
        ({"outcome": None}, "outcome_required", "/outcome"),
        (
            {
                "players": [{"id": "Z", "declared": {"points": 3}}, *HAND["players"][1:]],
                "outcome": {"type": "stop", "winner": "Z"},
            },
            "unknown_player",
            "/players/0/id",
        ),
    ],
)
def test_a_bad_hand_is_a_422_and_changes_nothing(
    lclient: Any, change: dict[str, Any], code: str, pointer: str
) -> None:
    table = _table(lclient)
    answer = table.write("POST", "/hands", {**HAND, **change}, expect=422)
    assert (answer["errors"][0]["code"], answer["errors"][0]["pointer"]) == (code, pointer)
    corrected = table.write("POST", "/hands", HAND, expect=201)
    assert corrected["number"] == 1
    fix = {"hand": {**HAND, **change}, "reason": "typo"}
    answer = table.write("PUT", "/hands/1", fix, expect=422)
    assert answer["errors"][0]["pointer"] == "/hand" + pointer
    assert table.get()["version"] == 2


def test_the_documented_table_hand_is_a_request_less_what_the_table_sets(lclient: Any) -> None:
    """A client generated from the document offers no field a table refuses (before, a
    table hand was documented as a whole HandRequest: ruleset, stake, nagari_streak and
    compare_with, each a 422 forbidden_field; an integrator's probe), and a correction's
    hand is typed as an append's."""
    from calculator.api.openapi import openapi_document
    from calculator.api.table_schemas import FORBIDDEN

    document = openapi_document()
    components = document["components"]["schemas"]
    for table_hand, request in (
        ("TableHand", "HandRequest"),
        ("TableBalanceHand", "BalanceRequest"),
    ):
        given = set(components[request]["properties"])
        assert set(components[table_hand]["properties"]) == given - set(FORBIDDEN)
    assert "outcome" in components["TableHand"]["required"]  # outcome_required otherwise
    refs = [{"$ref": f"#/components/schemas/{name}"} for name in ("TableHand", "TableBalanceHand")]
    append = document["paths"]["/v1/tables/{id}/hands"]["post"]["requestBody"]
    assert append["content"]["application/json"]["schema"]["anyOf"] == refs
    correction = document["paths"]["/v1/tables/{id}/hands/{number}"]["put"]["requestBody"]
    assert (
        correction["content"]["application/json"]["schema"]["properties"]["hand"]["anyOf"] == refs
    )
    # each field the document leaves out is refused, each it keeps is taken
    table = _table(lclient)
    for name in sorted(set(components["HandRequest"]["properties"]) & set(FORBIDDEN)):
        answer = table.write("POST", "/hands", {**HAND, name: None}, expect=422)
        assert answer["errors"][0]["code"] == "forbidden_field"
    assert set(components["TableHand"]["properties"]) >= set(HAND)


@pytest.mark.parametrize(
    ("table", "allowed"),
    [
        ({}, "dealer, events, outcome, players"),
        ({"variant": "balance", "ruleset": "balance"}, "players"),
    ],
)
def test_an_unknown_field_of_a_table_hand_lists_what_a_table_hand_takes(
    lclient: Any, table: dict[str, Any], allowed: str
) -> None:
    """Not the stateless body's fields: the table sets the rule set, stake and streak."""
    made = _table(lclient, **table)
    for path, body, at in [
        ("/hands", {"players": [], "bogus": 1}, "/bogus"),
        ("/hands/1", {"hand": {"players": [], "bogus": 1}, "reason": "typo"}, "/hand/bogus"),
    ]:
        method = "POST" if path == "/hands" else "PUT"
        errors = made.write(method, path, body, expect=422)  # the body before the number
        (unknown,) = [e for e in errors["errors"] if e["pointer"] == at]
        assert unknown == {
            "pointer": at,
            "code": "unknown_field",
            "detail": f"unknown field; the fields allowed here are: {allowed}",
        }


def test_idempotency_versions_and_the_check_order(lclient: Any) -> None:
    table = _table(lclient)
    scorer = table.auth()
    path = table.path + "/hands"
    key = new_key()
    first = lclient.post(
        path, json=HAND, headers={**scorer, "Idempotency-Key": key, "If-Match": '"1"'}
    )
    assert first.status_code == 201
    # a replay answers the stored response, even with a stale If-Match: never a 412
    again = lclient.post(
        path, json=HAND, headers={**scorer, "Idempotency-Key": key, "If-Match": '"1"'}
    )
    assert (again.status_code, again.data) == (201, first.data)
    assert again.headers["ETag"] == '"2"'
    # the same JSON sent as other bytes (its names in another order, other spacing: a
    # client that builds the body again from a map on its retry) is the same request
    rebuilt = json.dumps(dict(reversed(list(HAND.items()))), indent=2).encode()
    assert rebuilt != json.dumps(HAND).encode()
    replayed = lclient.post(
        path,
        data=rebuilt,
        headers={
            **scorer,
            "Idempotency-Key": key,
            "If-Match": '"1"',
            "Content-Type": "application/json",
        },
    )
    assert (replayed.status_code, replayed.data) == (201, first.data)
    assert replayed.headers["Idempotent-Replayed"] == "true"
    # with a byte order mark (read_json skips it): the same request too
    bom = lclient.post(
        path,
        data=b"\xef\xbb\xbf" + json.dumps(HAND).encode(),
        headers={
            **scorer,
            "Idempotency-Key": key,
            "If-Match": '"1"',
            "Content-Type": "application/json",
        },
    )
    assert (bom.status_code, bom.data) == (201, first.data)
    # a name given twice is not the stored request, though orjson would read it as one
    # (the last value kept): its bytes are compared, and differ
    twice = json.dumps(HAND)[:-1] + ', "players": ' + json.dumps(HAND["players"]) + "}"
    other_bytes = lclient.post(
        path,
        data=twice,
        headers={
            **scorer,
            "Idempotency-Key": key,
            "If-Match": '"1"',
            "Content-Type": "application/json",
        },
    )
    assert (other_bytes.status_code, other_bytes.get_json()["errors"][0]["code"]) == (
        422,
        "key_reused",
    )
    assert len(table.get()["hands"]) == 1
    # the same key with another body
    other = lclient.post(
        path,
        json={**HAND, "players": HAND["players"][::-1]},
        headers={**scorer, "Idempotency-Key": key, "If-Match": '"2"'},
    )
    assert (other.status_code, other.get_json()["errors"][0]["code"]) == (422, "key_reused")
    # missing headers: 428; stale: 412 with the current version
    for headers in ({"If-Match": '"2"'}, {"Idempotency-Key": new_key()}):
        missing = lclient.post(path, json=HAND, headers={**scorer, **headers})
        assert missing.status_code == 428
        assert missing.get_json()["errors"][0]["code"] == "precondition_required"
    stale = lclient.post(
        path, json=HAND, headers={**scorer, "Idempotency-Key": new_key(), "If-Match": '"1"'}
    )
    assert stale.status_code == 412
    assert stale.headers["ETag"] == '"2"'
    # 412 comes before the body: a bad body on a stale version is a 412
    bad = lclient.post(
        path,
        json={"players": 3},
        headers={**scorer, "Idempotency-Key": new_key(), "If-Match": '"1"'},
    )
    assert bad.status_code == 412
    # weak ETags are accepted
    weak = lclient.post(
        path, json=HAND, headers={**scorer, "Idempotency-Key": new_key(), "If-Match": 'W/"2"'}
    )
    assert weak.status_code == 201
    # a replay's ETag is the version its write made, though the table has moved on
    # (README): it answers as the first time did
    late = lclient.post(path, json=HAND, headers={**scorer, "Idempotency-Key": key})
    assert (late.status_code, late.data, late.headers["ETag"]) == (201, first.data, '"2"')
    # a key whose request was refused may be used again
    key = new_key()
    refused = lclient.post(
        path, json={"players": 3}, headers={**scorer, "Idempotency-Key": key, "If-Match": '"3"'}
    )
    assert refused.status_code == 422
    accepted = lclient.post(
        path, json=HAND, headers={**scorer, "Idempotency-Key": key, "If-Match": '"3"'}
    )
    assert accepted.status_code == 201


def test_undo_redo_and_close_document_their_key_refusals(lclient: Any) -> None:
    """Undo, redo and close take no body, but their Idempotency-Key is checked as on
    every write: a key used with another request, not 1 to 255 characters or not ASCII,
    is a 422 — which their OpenAPI operations did not list (the checking client refuses
    an undocumented status)."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    for action in ("undo", "redo", "close"):
        key = new_key()
        headers = {**table.auth(), "Idempotency-Key": key, "If-Match": f'"{table.version}"'}
        done = lclient.post(f"{table.path}/{action}", headers=headers)
        assert done.status_code == 200
        table.version += 1
        reused = lclient.post(f"{table.path}/{action}", headers=headers, json={"why": "again"})
        assert (reused.status_code, reused.get_json()["errors"][0]["code"]) == (422, "key_reused")
    # too long, and not ASCII (a probe's Korean key was called too long or too short)
    for key, code in (
        ("x" * 256, "invalid_length"),
        ("키-" + new_key(), "invalid_idempotency_key"),
    ):
        bad = {**table.auth(), "Idempotency-Key": key, "If-Match": f'"{table.version}"'}
        for action in ("undo", "redo", "close"):
            refused = lclient.post(f"{table.path}/{action}", headers=bad)
            assert (refused.status_code, refused.get_json()["errors"][0]["code"]) == (422, code)


def test_undo_redo_and_close_refuse_a_field_they_would_not_read(lclient: Any) -> None:
    """They take no body, or ``{}``. ``POST …/undo {"number": 1}`` undid the last change
    (whatever hand 1 is) and said nothing; a field is now a 422 naming it, and the table
    is left as it was."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    table.write("POST", "/hands", HAND, expect=201)
    for action, body in (("undo", {"number": 1}), ("redo", {"all": True}), ("close", {"x": 1})):
        version = table.version
        problem = table.write("POST", f"/{action}", body, expect=422)
        assert [(e["pointer"], e["code"]) for e in problem["errors"]] == [
            (f"/{next(iter(body))}", "unknown_field")
        ], problem
        assert "takes none" in problem["errors"][0]["detail"]
        assert table.get()["version"] == version  # nothing written
    # a chunked body (no Content-Length) is read too, as gunicorn hands it over
    headers = {
        **table.auth(),
        "Idempotency-Key": new_key(),
        "If-Match": f'"{table.version}"',
        "Content-Type": "application/json",
        "Transfer-Encoding": "chunked",
    }
    chunked = lclient.post(
        f"{table.path}/undo",
        input_stream=io.BytesIO(b'{"number": 1}'),
        headers=headers,
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert (chunked.status_code, chunked.get_json()["errors"][0]["pointer"]) == (422, "/number")
    table.write("POST", "/undo", {})  # an empty object is no body
    key = new_key()
    table.write("POST", "/redo", key=key)
    version = table.version
    table.version -= 1  # the If-Match of the first try
    replayed = table.write("POST", "/redo", {}, key=key)  # the same request, retried with {}
    assert table.version == version, replayed
    headers = {**table.auth(), "Idempotency-Key": new_key(), "If-Match": f'"{table.version}"'}
    blank = lclient.post(f"{table.path}/close", data=b"\xef\xbb\xbf \r\n", headers=headers)
    assert blank.status_code == 200, blank.get_json()  # nor is whitespace past a BOM


def test_a_key_in_flight_is_a_409_until_its_deadline(lclient: Any) -> None:
    table = _table(lclient)
    store = lclient.application.extensions["gostop_store"]
    key = new_key()
    import hashlib
    import time

    body = b'{"players": []}'  # spaced: its bytes are not its JSON's canonical form
    # the digest of the body's bytes, as keys were bound before 2026-12-06 (now the JSON's):
    # a key claimed then is found, and taken over, all the same
    digest = hashlib.sha256(f"POST {table.path}/hands\n".encode() + body).hexdigest()
    deadline = lclient.application.config["GOSTOP"].request_deadline
    claim = store.claim(
        scope=table.id, key=key, request_hash=digest, now=time.time(), deadline=deadline
    )
    assert claim.state == "new"
    headers = {
        **table.auth(),
        "Idempotency-Key": key,
        "If-Match": '"1"',
        "Content-Type": "application/json",
    }
    busy = lclient.post(table.path + "/hands", data=body, headers=headers)
    assert (busy.status_code, busy.get_json()["errors"][0]["code"]) == (409, "key_in_flight")
    assert busy.headers["Retry-After"] == "2"  # "retry shortly" says when
    # a record older than the request deadline was abandoned: the next request takes it
    with store.engine.begin() as c:
        from calculator.store import schema

        c.execute(schema.idempotency.update().values(created_at=time.time() - deadline - 1))
    taken = lclient.post(table.path + "/hands", data=body, headers=headers)
    assert taken.status_code == 422  # the request itself is processed (an empty hand)


def test_polling_with_if_none_match(lclient: Any) -> None:
    table = _table(lclient)
    for suffix in ("", "/events", "/settlement"):
        first = lclient.get(table.path + suffix, headers=table.auth())
        assert first.headers["ETag"] == '"1"'
        for tag in ('"1"', 'W/"1"', '"0", "1"', "*"):
            again = lclient.get(table.path + suffix, headers={**table.auth(), "If-None-Match": tag})
            assert (again.status_code, again.data) == (304, b"")
    table.write("POST", "/hands", HAND, expect=201)
    changed = lclient.get(table.path, headers={**table.auth(), "If-None-Match": '"1"'})
    assert changed.status_code == 200


def test_a_closed_table_is_read_only(lclient: Any) -> None:
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    table.write("POST", "/close")
    state = table.get()
    assert state["closed"] is True
    assert not state["can_undo"]
    for method, suffix, body in _WRITES[:-1]:
        answer = table.write(method, suffix, body, expect=409)
        assert answer["errors"][0]["code"] == "table_closed"
    assert table.get("/settlement")["totals"] == state["totals"]


_WRITES = [
    ("POST", "/hands", HAND),
    ("PUT", "/hands/1", {"hand": HAND, "reason": "typo"}),
    ("POST", "/hands/1/void", {"reason": "twice"}),
    ("POST", "/undo", None),
    ("POST", "/redo", None),
    ("POST", "/close", None),
]
_READS = ["", "/events", "/settlement"]


def test_access_for_every_read_and_write(lclient: Any) -> None:
    """No token 401; wrong, another table's or no such table 404; a viewer writing 403."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    other = _table(lclient)
    cases = {
        "none": ({}, 401, 401),
        "malformed": ({"Authorization": "Token x"}, 401, 401),
        "wrong": ({"Authorization": "Bearer not-a-token"}, 404, 404),
        "other table's": (other.auth(), 404, 404),
        "other table's viewer": (other.auth(other.viewer), 404, 404),
        "viewer": (table.auth(table.viewer), 200, 403),
    }
    for name, (auth, read_status, write_status) in cases.items():
        for suffix in _READS:
            response = lclient.get(table.path + suffix, headers=auth)
            assert response.status_code == read_status, (name, suffix)
        for method, suffix, body in _WRITES:
            # the check order: these come before idempotency, 428 and 412
            response = lclient.open(
                table.path + suffix, method=method, json=body, headers={**auth, "If-Match": '"99"'}
            )
            assert response.status_code == write_status, (name, method, suffix)
    missing = "/v1/tables/00000000-0000-0000-0000-000000000000"
    for suffix in _READS:
        assert lclient.get(missing + suffix, headers=table.auth()).status_code == 404
    unknown = lclient.get(missing, headers=table.auth()).get_json()
    known = lclient.get(table.path, headers=other.auth()).get_json()
    assert unknown["detail"] == known["detail"]  # nothing tells the two apart
    assert table.get()["version"] == 2


def test_derived_rows_are_rebuilt_from_the_events(lclient: Any) -> None:
    """Events are the truth: delete every derived row, rebuild, read the same bytes."""
    from calculator.api import derived_rows

    table = _table(lclient)
    for step in GOSTOP["steps"][:14]:
        table.step(step, step.get("hand"))
    store = lclient.application.extensions["gostop_store"]
    before = lclient.get(table.path, headers=table.auth()).data
    store.delete_derived(table.id)
    assert store.hand_items(table.id) == []
    assert store.head(table.id).summary == "{}"
    derived_rows.rebuild_derived(store, table.id)
    assert lclient.get(table.path, headers=table.auth()).data == before


def test_gostop_db_rebuild_derives_every_table_again(
    lclient: Any, database_url: str, monkeypatch: Any, capsys: Any
) -> None:
    """After an upgrade that changed how rows are derived (2026-12-04: a voided hand's
    dealer), ``gostop db rebuild`` rewrites every table's rows from its events; a table a
    write moved on meanwhile is left to that write, which derived its rows itself."""
    from calculator.api import derived_rows
    from calculator.api.cli import main
    from calculator.errors import InvalidHandError, Issue

    store = lclient.application.extensions["gostop_store"]
    tables = [_table(lclient), _table(lclient)]
    for table in tables:
        table.write("POST", "/hands", HAND, expect=201)
    reads = [lclient.get(t.path, headers=t.auth()).data for t in tables]
    for table in tables:  # rows as an older release derived them: stale
        store.replace_derived(table.id, summary='{"stale": true}', hand_items=[])
    monkeypatch.setenv("GOSTOP_DATABASE_URL", database_url)
    assert main(["db", "rebuild"]) == 0
    assert int(capsys.readouterr().out.split()[1]) >= 2  # every table: other tests' too
    assert [lclient.get(t.path, headers=t.auth()).data for t in tables] == reads
    # a table whose events this release's rules refuse is named and left as it was
    real = derived_rows.rebuild_derived

    def refusing(store: Any, table_id: str) -> bool:
        if table_id == tables[1].id:
            raise InvalidHandError([Issue("amount_too_large", "too much", ())])
        return real(store, table_id)

    monkeypatch.setattr(derived_rows, "rebuild_derived", refusing)
    store.replace_derived(tables[1].id, summary='{"stale": true}', hand_items=[])
    assert main(["db", "rebuild"]) == 2
    said = capsys.readouterr()
    assert int(said.out.split()[1]) >= 1  # tables[0] (a shared database: others' too)
    assert said.err == f"gostop: table {tables[1].id} left as it was: too much\n"
    assert store.head(tables[1].id).summary == '{"stale": true}'
    monkeypatch.setattr(derived_rows, "rebuild_derived", real)
    rows = store.events(tables[0].id)
    moved = store.replace_derived(
        tables[0].id, summary="{}", hand_items=[], version=rows[-1].seq - 1
    )
    assert not moved
    assert lclient.get(tables[0].path, headers=tables[0].auth()).data == reads[0]
    assert derived_rows.rebuild_derived(store, tables[0].id)


def test_an_unknown_hand_number_is_a_404_and_voiding_a_voided_hand_a_409(lclient: Any) -> None:
    table = _table(lclient)
    answer = table.write("POST", "/hands/3/void", {"reason": "x"}, expect=404)
    assert answer["errors"][0]["code"] == "unknown_hand"
    table.write("POST", "/hands", HAND, expect=201)
    table.write("POST", "/hands/1/void", {"reason": "x"})
    answer = table.write("POST", "/hands/1/void", {"reason": "x"}, expect=409)
    assert answer["errors"][0]["code"] == "hand_voided"
    assert "PUT /hands/1" in answer["errors"][0]["detail"]  # how to bring it back
    answer = table.write("POST", "/redo", expect=409)
    assert answer["errors"][0]["code"] == "nothing_to_redo"


@pytest.mark.parametrize("number", ["\u0661", "\u0967", "\uff11"])  # ١ १ １: "1" elsewhere
def test_a_hand_number_in_a_path_is_ascii_digits(lclient: Any, number: str) -> None:
    """werkzeug's ``int`` takes any script's digits, which Python reads: ``/hands/١/void``
    voided hand 1 (an integrator's probe), where ``?after=١`` is refused. Such a path now
    names no hand: the 404 of a path the API does not have, and nothing changes."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    before = table.version
    answer = table.write("POST", f"/hands/{number}/void", {"reason": "x"}, expect=404)
    assert answer["errors"][0]["code"] == "not_found"
    answer = table.write("PUT", f"/hands/{number}", {"hand": HAND, "reason": "x"}, expect=404)
    assert answer["errors"][0]["code"] == "not_found"
    assert table.version == before
    assert table.get()["hands"][0]["status"] == "active"
    table.write("POST", "/hands/1/void", {"reason": "x"})  # ASCII digits: as before


def test_a_hand_voided_by_mistake_comes_back_by_a_correction_later_hands_kept(
    lclient: Any,
) -> None:
    """Void hand 1 by mistake, play on: a correction of hand 1 brings it back (undo would
    have to take back every hand since); undo voids it again."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    table.write("POST", "/hands/1/void", {"reason": "tapped the wrong hand"})
    table.write("POST", "/hands", HAND, expect=201)
    counted = table.get()["totals"]
    answer = table.write("PUT", "/hands/1", {"hand": HAND, "reason": "it was played"})
    assert [c["number"] for c in answer["changed"]][:1] == [1]
    state = table.get()
    assert [h["status"] for h in state["hands"]] == ["active", "active"]
    winner = HAND["outcome"]["winner"]
    assert state["totals"][winner] > counted[winner]
    table.write("POST", "/undo")
    assert [h["status"] for h in table.get()["hands"]] == ["voided", "active"]
    assert table.get()["totals"] == counted


def test_the_access_log_never_carries_a_token(ledger_app: Any) -> None:
    import logging

    from calculator.api.http import JsonFormatter

    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(JsonFormatter().format(record))

    logger = logging.getLogger("gostop.access")
    handler = Collect()
    logger.addHandler(handler)
    settings = ledger_app.config["GOSTOP"]
    ledger_app.config["GOSTOP"] = type(settings).load({"access_log": True})
    try:
        client = ledger_app.test_client()
        table = _table(client)
        table.write("POST", "/hands", HAND, expect=201)
        table.get()
        client.get(table.path, headers={"Authorization": "Bearer wrong-token-value"})
    finally:
        ledger_app.config["GOSTOP"] = settings
        logger.removeHandler(handler)
    assert len(lines) >= 4
    for token in (table.scorer, table.viewer, "wrong-token-value"):
        assert all(token not in line for line in lines)


def test_two_instances_share_one_ledger(ledger_app: Any, database_url: str) -> None:
    """Writes alternate between two apps on one database: each catches up on what the
    other wrote, and the result is what a rebuild from the events gives."""
    from calculator.api import create_app, derived_rows

    other = create_app({"access_log": False, "database_url": database_url})
    other.test_client_class = ledger_app.test_client_class
    clients = [ledger_app.test_client(), other.test_client()]
    table = _table(clients[0])
    for i, step in enumerate(GOSTOP["steps"][:15]):
        table.client = clients[i % 2]
        table.step(step, step.get("hand"))
    first = clients[0].get(table.path, headers=table.auth()).data
    assert clients[1].get(table.path, headers=table.auth()).data == first
    derived_rows.rebuild_derived(ledger_app.extensions["gostop_store"], table.id)
    assert clients[1].get(table.path, headers=table.auth()).data == first
    other.extensions["gostop_store"].dispose()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_appends_made_at_the_end_answer_as_the_whole_ledger_does(
    ledger_app: Any, database_url: str, scenario: dict[str, Any], monkeypatch: Any
) -> None:
    """An append is made at the table's end (the summary, and the count of hands added
    since the tip an instance knows), not on its ledger. Three instances in turns answer
    every step as an instance that replays the whole log for each does (its cache
    emptied before every step), and the table is the same, and its rebuild too."""
    from calculator.api import create_app, derived_rows, ledger_cache

    others = [create_app({"access_log": False, "database_url": database_url}) for _ in "abc"]
    clients = [ledger_app.test_client()]
    for other in others:
        other.test_client_class = ledger_app.test_client_class
        clients.append(other.test_client())
    replaying = others[-1]
    whole = TableClient.create(clients[-1], scenario["table"])
    shared = TableClient.create(clients[0], scenario["table"])

    def body(table: TableClient) -> dict[str, Any]:
        state = table.get()
        return {k: v for k, v in state.items() if k not in ("id", "join_code", "join_url")}

    # in turn, in runs of two or three, and back to an instance idle for long
    turns = [0, 1, 0, 1, 1, 2, 2, 2, 0, 1, 2, 1, 0, 0, 2]
    ends: list[object] = []  # what LedgerCache.end gave: the appends made at the end
    end = ledger_cache.LedgerCache.end

    def spied(cache: Any, *args: Any) -> Any:
        found = end(cache, *args)
        ends.append(found)
        return found

    monkeypatch.setattr(ledger_cache.LedgerCache, "end", spied)
    for i, step in enumerate(scenario["steps"]):
        hand = wire_hand(step["hand"]) if "hand" in step else None
        replaying.extensions["gostop_ledgers"] = ledger_cache.LedgerCache(deadline_seconds=10)
        expected = whole.step(step, hand)
        shared.client = clients[turns[i % len(turns)]]
        assert shared.step(step, hand) == expected, (i, step["do"])
        assert shared.version == whole.version
        assert body(shared) == body(whole), i
    derived_rows.rebuild_derived(ledger_app.extensions["gostop_store"], shared.id)
    assert body(shared) == body(whole)
    # the shortcut is taken: some appends were made at the end, not on a ledger
    if sum(step["do"] == "add" for step in scenario["steps"]) > 3:
        assert any(found is not None for found in ends)
    for other in others:
        other.extensions["gostop_store"].dispose()


def test_a_change_that_breaks_a_later_hand_is_refused(lclient: Any) -> None:
    """Under gwangpal_payers = non_dealer_active a hand with a sitter needs the dealer
    among its players. Correcting hand 1 to D's win makes D the dealer of hand 2, where
    D sits out: the correction is refused, naming hand 2, and nothing changes."""
    ruleset = {"preset": "standard", "options": {"gwangpal_payers": "non_dealer_active"}}
    table = TableClient.create(
        lclient, {"roster": ["A", "B", "C", "D"], "ruleset": ruleset, "stake": 1}
    )
    sitter = {"id": "D", "sits_out": True, "sold_brights": 1}
    table.write("POST", "/hands", HAND, expect=201)
    second = table.write(
        "POST", "/hands", {**HAND, "players": [*HAND["players"], sitter]}, expect=201
    )
    assert second["result"]["net"] == {"A": 6, "B": -5, "C": -5, "D": 4}
    d_wins = {
        "players": [{"id": "D", "declared": {"points": 3}}, *HAND["players"][1:]],
        "outcome": {"type": "stop", "winner": "D"},
    }
    refused = table.write("PUT", "/hands/1", {"hand": d_wins, "reason": "D won"}, expect=422)
    error = refused["errors"][0]
    assert (error["pointer"], error["code"]) == ("/hands/2/dealer", "dealer_required")
    assert error["detail"].startswith("hand 2, derived again after this change")
    # what to do, as the pointer is into the table and not the request
    assert error["detail"].endswith(
        "correct hand 2 first (PUT /hands/2) so that it still stands after it"
    )
    assert table.get()["version"] == 3


def test_review_fixes_gzip_etags_query_order_odd_ids_and_weak_create_keys(lclient: Any) -> None:
    """Found in review: a gzip-accepting client got ETag "1:gzip" and could never write;
    ?after was read before the token (422 before 401) and unbounded (a 500 on SQLite); a
    NUL in the id reached PostgreSQL (a 500); a short create key was guessable."""
    table = TableClient.create(lclient, GOSTOP["table"])
    read = lclient.get(table.path, headers={**table.auth(), "Accept-Encoding": "gzip"})
    assert read.headers["ETag"] == f'"{table.version}"'
    assert "Content-Encoding" not in read.headers
    table.write("POST", "/close", expect=200)  # a write with the version just read
    events = table.path + "/events"
    assert lclient.get(events + "?after=abc").status_code == 401
    for bad in ("abc", "-1", "99999999999999999999"):
        response = lclient.get(f"{events}?after={bad}", headers=table.auth())
        assert response.status_code == 422, bad
    assert lclient.get("/v1/tables/ab%00cd", headers=table.auth()).status_code == 404
    weak = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": "1"})
    assert weak.status_code == 422
    assert weak.get_json()["errors"][0]["code"] == "weak_idempotency_key"


def test_the_spec_paths_are_in_the_document_with_their_parameter_names() -> None:
    """SPEC §9 names the path parameters {id} and {number}: apps generate clients from them."""
    from calculator.api.openapi import openapi_document

    paths = openapi_document()["paths"]
    for path in (
        "/v1/tables",
        "/v1/tables/{id}",
        "/v1/tables/{id}/hands",
        "/v1/tables/{id}/hands/{number}",
        "/v1/tables/{id}/hands/{number}/void",
        "/v1/tables/{id}/events",
        "/v1/tables/{id}/undo",
        "/v1/tables/{id}/redo",
        "/v1/tables/{id}/settlement",
    ):
        assert path in paths, path


# A rule set under which each of three hands the release before 2026-12-05 (1d27d09) took
# is refused now when entered: the sake cup fixed as an animal, and a go-caller who loses
# paying 고박 as its own amount ×2 (standard's gobak_mode_3p is pay-all).
_FIXING = {
    "preset": "standard",
    "options": {"gukjin_mode": "always_animal", "gobak_mode_3p": "double"},
}
_B1 = {"brights": 1}
_C1 = {"brights": 1, "rain_bright": True}  # the rain man: A's three brights are 삼광 (3)
_THEN_TAKEN = [
    # gukjin_fixed: A says the cup is junk; the mode reads it as an animal, as 1d27d09 did:
    # 삼광 3 + 5 animals 1 = 4 from B and C each
    {
        "players": [
            {
                "id": "A",
                "tally": {"brights": 3, "animals": 5, "has_gukjin": True},
                "gukjin": "junk",
            },
            {"id": "B", "tally": _B1},
            {"id": "C", "tally": _C1},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    },
    # liable_conflict: B called go and lost, C is named liable; 1d27d09 billed C as a 독박
    # for B's doubled share too: C pays 3 + 3 × 2 = 9, B nothing
    {
        "players": [
            {"id": "A", "tally": {"brights": 3}},
            {"id": "B", "tally": _B1, "go_count": 1},
            {"id": "C", "tally": _C1},
        ],
        "outcome": {"type": "stop", "winner": "A", "liable": "C"},
    },
    # meongtta_not_winner: a loser's 멍따 doubles nothing (1d27d09 ignored it): 7 each
    {
        "players": [
            {"id": "A", "declared": {"points": 7}},
            {"id": "B", "declared": {"points": 0, "meongtta": True}},
            {"id": "C", "declared": {}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    },
]
_THEN_NETS = [{"A": 8, "B": -4, "C": -4}, {"A": 9, "B": 0, "C": -9}, {"A": 14, "B": -7, "C": -7}]


def test_a_table_that_stored_hands_todays_checks_refuse_takes_every_change(
    lclient: Any,
) -> None:
    """A table whose log holds hands an earlier release took and today's checks refuse
    (gukjin_fixed, liable_conflict under a doubling 고박, meongtta_not_winner) scores them
    again as they were, and takes every change; its export imports. Entered now, each of
    them is refused."""
    from calculator.api import derived_rows
    from calculator.store.rows import EventRow

    store = lclient.application.extensions["gostop_store"]
    table = TableClient.create(lclient, {"roster": ["A", "B", "C"], "ruleset": _FIXING})
    refused = ["gukjin_fixed", "liable_conflict", "meongtta_not_winner"]
    for hand, code in zip(_THEN_TAKEN, refused, strict=True):  # entered now: refused
        answer = table.write("POST", "/hands", hand, expect=422)
        assert [e["code"] for e in answer["errors"]] == [code]
    # the log as the earlier release wrote it: the hands' bodies as the client sent them
    at = store.events(table.id)[0].at
    rows = [
        EventRow(seq=2 + i, type="added", by="scorer", at=at, body=json.dumps(hand))
        for i, hand in enumerate(_THEN_TAKEN)
    ]
    summary = store.head(table.id).summary
    assert store.write(
        table_id=table.id, expected=1, events=rows, summary=summary, hands_from=1, hand_items=[]
    )
    assert derived_rows.rebuild_derived(store, table.id)  # gostop db rebuild derives it
    table.version = 4
    state = table.get()
    assert [h["result"]["net"] for h in state["hands"]] == _THEN_NETS
    assert state["totals"] == {"A": 31, "B": -11, "C": -20}
    plain = {  # A's 삼광: 3 from B and C each
        "players": [
            {"id": "A", "tally": {"brights": 3}},
            {"id": "B", "tally": _B1},
            {"id": "C", "tally": _C1},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    table.write("POST", "/hands", plain, expect=201)
    declared = {  # A declares 5: 5 from B and C each
        "players": [
            {"id": "A", "declared": {"points": 5}},
            {"id": "B", "declared": {}},
            {"id": "C", "declared": {}},
        ],
        "outcome": {"type": "stop", "winner": "A"},
    }
    answer = table.write("PUT", "/hands/4", {"hand": declared, "reason": "counted again"})
    assert answer["changed"] == [{"number": 4, "delta": {"A": 4, "B": -2, "C": -2}}]
    answer = table.write("POST", "/hands/4/void", {"reason": "misdeal"})
    assert answer["changed"] == [{"number": 4, "delta": {"A": -10, "B": 5, "C": 5}}]
    answer = table.write("POST", "/undo")  # the void
    assert answer["changed"] == [{"number": 4, "delta": {"A": 10, "B": -5, "C": -5}}]
    table.write("POST", "/redo")
    table.write("POST", "/undo")
    table.write("POST", "/close")
    state = table.get()
    assert [h["result"]["net"] for h in state["hands"][:3]] == _THEN_NETS
    assert state["totals"] == {"A": 41, "B": -16, "C": -25}
    exported = table.get("/export")
    response = lclient.post("/v1/tables/import", json=exported)
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()
    copy = lclient.get(
        f"/v1/tables/{imported['id']}",
        headers={"Authorization": f"Bearer {imported['viewer_token']}"},
    ).get_json()
    assert copy["totals"] == state["totals"]
    assert [h["result"]["net"] for h in copy["hands"]] == [
        h["result"]["net"] for h in state["hands"]
    ]


@pytest.mark.parametrize(
    ("method", "suffix", "body"),
    [
        ("POST", "/hands", "hand"),  # an append: at the end, or by the ledger
        ("PUT", "/hands/1", "hand"),  # a correction: the ledger, rebuilt from the log
        ("POST", "/hands/1/void", {"reason": "misdealt"}),
    ],
)
def test_a_table_deleted_while_it_is_written_is_a_404(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch, method: str, suffix: str, body: Any
) -> None:
    """Deleted by another phone between the write's read of the head and of the log (an
    instance that holds nothing of the table: it rebuilds from the emptied log): a 404,
    as a write after the delete answers. It was a 500 (TableGoneError unhandled)."""
    from calculator.api import ledger_cache, table_writes

    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    hand = wire_hand(SCENARIOS[0]["steps"][0]["hand"])
    table.write("POST", "/hands", hand, expect=201)
    fresh = ledger_cache.LedgerCache(deadline_seconds=60)
    monkeypatch.setitem(ledger_app.extensions, "gostop_ledgers", fresh)
    opened = table_writes.open_table

    def deleted_once_opened(store: Any, table_id: str, **kwargs: Any) -> Any:
        head, token = opened(store, table_id, **kwargs)
        assert store.delete_table(table_id, expected=head.version)
        return head, token

    monkeypatch.setattr(table_writes, "open_table", deleted_once_opened)
    answer = table.write(method, suffix, hand if body == "hand" else body, expect=404)
    assert answer["errors"][0]["code"] == "unknown_table"


def test_a_write_that_finds_its_table_deleted_at_commit_is_a_404(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleted after the write scored its hand, before it committed: the store refuses
    the write and finds no head — a 404, not a 412 "changed meanwhile"."""
    from calculator.store import Store

    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    hand = wire_hand(SCENARIOS[0]["steps"][0]["hand"])
    write = Store.write

    def deleted_first(store: Store, **kwargs: Any) -> bool:
        assert store.delete_table(kwargs["table_id"], expected=kwargs["expected"])
        return write(store, **kwargs)

    monkeypatch.setattr(Store, "write", deleted_first)
    answer = table.write("POST", "/hands", hand, expect=404)
    assert answer["errors"][0]["code"] == "unknown_table"


def test_every_event_names_the_hand_it_is_about(lclient: Any) -> None:
    """``GET …/events`` derives each event's ``number`` (the log stores a correction's
    and a void's alone): the hand added; for undone and redone, the hand of the change
    taken back or made again; null for created and closed. The export keeps the log as
    stored, and imports as before."""
    table = _table(lclient)
    second = wire_hand(GOSTOP["steps"][1]["hand"])
    table.write("POST", "/hands", HAND, expect=201)  # 2: hand 1
    table.write("POST", "/hands", second, expect=201)  # 3: hand 2
    table.write("POST", "/hands/1/void", {"reason": "entered twice"})  # 4
    table.write("POST", "/undo")  # 5: the void of hand 1 taken back
    table.write("POST", "/undo")  # 6: hand 2's add taken back
    table.write("POST", "/redo")  # 7: hand 2 added again
    table.write("PUT", "/hands/2", {"hand": second, "reason": "typo"})  # 8
    table.write("POST", "/undo")  # 9: the correction of hand 2 taken back
    table.write("POST", "/hands", HAND, expect=201)  # 10: hand 3
    table.write("POST", "/close")  # 11
    events = table.get("/events")["events"]
    assert [(e["seq"], e["type"], e["number"]) for e in events] == [
        (1, "created", None),
        (2, "added", 1),
        (3, "added", 2),
        (4, "voided", 1),
        (5, "undone", 1),
        (6, "undone", 2),
        (7, "redone", 2),
        (8, "corrected", 2),
        (9, "undone", 2),
        (10, "added", 3),
        (11, "closed", None),
    ]
    after = table.get("/events?after=5")["events"]
    assert [e["number"] for e in after] == [2, 2, 2, 2, 3, None]
    exported = table.get("/export")
    assert [e["number"] for e in exported["events"]] == [None] * 3 + [1] + [None] * 3 + [2] + [
        None
    ] * 3
    imported = lclient.post("/v1/tables/import", json=exported)
    assert imported.status_code == 201, imported.get_json()


def test_a_table_deleted_while_its_events_hands_are_derived_is_a_404(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleted between the read of the events and of the log's kinds (the hand of each
    event is derived from the whole log): a 404, never a 500."""
    from calculator.store import Store

    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    table.write("POST", "/hands", wire_hand(SCENARIOS[0]["steps"][0]["hand"]), expect=201)
    monkeypatch.setattr(Store, "event_kinds", lambda *_args, **_kwargs: [])
    gone = ledger_app.test_client().get(f"{table.path}/events?after=1", headers=table.auth())
    assert gone.status_code == 404, gone.get_json()
    assert gone.get_json()["errors"][0]["code"] == "unknown_table"


@pytest.mark.parametrize("after", [0, 1])
def test_a_table_deleted_while_its_events_are_read_is_a_404(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch, after: int
) -> None:
    """Deleted between the read of the head (version 2) and of the log: a 404, as a read
    after the delete answers — not a 200 of version 2 with no events (hunt18)."""
    from calculator.store import Store

    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    table.write("POST", "/hands", wire_hand(SCENARIOS[0]["steps"][0]["hand"]), expect=201)
    monkeypatch.setattr(Store, "events", lambda *_args, **_kwargs: [])
    path = f"{table.path}/events?after={after}"
    gone = ledger_app.test_client().get(path, headers=table.auth())
    assert gone.status_code == 404, gone.get_json()
    assert gone.get_json()["errors"][0]["code"] == "unknown_table"


def test_a_table_deleted_while_it_is_read_in_korean_is_a_404(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleted between the read of the head and of the hands' rows: a 404, not the
    head's totals with no hands (hunt18)."""
    from calculator.store import Store

    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    table.write("POST", "/hands", wire_hand(SCENARIOS[0]["steps"][0]["hand"]), expect=201)
    hand_items = Store.hand_items

    def deleted_first(store: Store, table_id: str, **kwargs: Any) -> list[str]:
        assert store.delete_table(table_id, expected=table.version)
        return hand_items(store, table_id, **kwargs)

    monkeypatch.setattr(Store, "hand_items", deleted_first)
    gone = ledger_app.test_client().get(table.path, headers=table.auth())
    assert gone.status_code == 404, gone.get_json()
    assert gone.get_json()["errors"][0]["code"] == "unknown_table"


def test_a_table_deleted_while_its_tokens_are_listed_is_a_404(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleted between the read of the head and of its tokens: a 404, not a 200 listing
    no tokens, not even the one that asked (hunt18)."""
    from calculator.store import Store

    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    tokens = Store.tokens

    def deleted_first(store: Store, table_id: str) -> Any:
        assert store.delete_table(table_id, expected=table.version)
        return tokens(store, table_id)

    monkeypatch.setattr(Store, "tokens", deleted_first)
    gone = ledger_app.test_client().get(f"{table.path}/tokens", headers=table.auth())
    assert gone.status_code == 404, gone.get_json()
    assert gone.get_json()["errors"][0]["code"] == "unknown_table"


def _second_phone(app: Any, table: TableClient) -> TableClient:
    """Another phone at ``table``, with the same tokens, at its version."""
    return TableClient(
        app.test_client(),
        {
            "id": table.id,
            "version": table.version,
            "scorer_token": table.scorer,
            "viewer_token": table.viewer,
        },
    )


def test_a_korean_read_during_an_append_is_one_version(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another phone appends hand 2 between the read of the head (version 2) and of the
    hands' rows: the answer must be version 2 whole (one hand), or version 3 whole. It
    was version 2's totals and ETag over version 3's hands (hunt18): the head is read
    again after the rows, and the rows again when it moved (ledger_cache.hand_rows)."""
    from calculator.store import Store

    steps = SCENARIOS[0]["steps"]
    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    table.write("POST", "/hands", wire_hand(steps[0]["hand"]), expect=201)
    other = _second_phone(ledger_app, table)
    hand_items = Store.hand_items

    def appended_first(store: Store, table_id: str, **kwargs: Any) -> list[str]:
        monkeypatch.setattr(Store, "hand_items", hand_items)
        other.write("POST", "/hands", wire_hand(steps[1]["hand"]), expect=201)
        return hand_items(store, table_id, **kwargs)

    monkeypatch.setattr(Store, "hand_items", appended_first)
    read = ledger_app.test_client().get(table.path, headers=table.auth())
    body = read.get_json()
    assert (read.headers["ETag"], body["version"]) == ('"3"', 3)  # the version its rows are
    assert [hand["number"] for hand in body["hands"]] == [1, 2]
    assert body == other.get()  # whole: its totals, streak and dealer are version 3's too


def test_a_table_deleted_while_a_token_is_revoked_is_a_404_of_the_table(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleted between the revoke's read of the head and its transaction: the table is
    gone (unknown_table), as a revoke after the delete answers — not "the table has no
    token" (unknown_token), which tells the client to fix the token id (hunt18)."""
    from calculator.store import Store

    client = ledger_app.test_client()
    table = TableClient.create(client, SCENARIOS[0]["table"])
    tokens = client.get(f"{table.path}/tokens", headers=table.auth()).get_json()["tokens"]
    viewer = next(t["token_id"] for t in tokens if t["role"] == "viewer")
    revoke = Store.revoke

    def deleted_first(store: Store, table_id: str, token_id: str) -> str:
        assert store.delete_table(table_id, expected=table.version)
        return revoke(store, table_id, token_id)

    monkeypatch.setattr(Store, "revoke", deleted_first)
    gone = client.delete(f"{table.path}/tokens/{viewer}", headers=table.auth())
    assert gone.status_code == 404, gone.get_json()
    assert gone.get_json()["errors"][0]["code"] == "unknown_table"


def test_a_korean_read_of_a_table_that_keeps_changing_is_a_503(
    ledger_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another phone appends each time the hands' rows are read: after HAND_ROWS_ATTEMPTS
    reads the answer is a 503 to retry, never a mix of versions."""
    from calculator.api.ledger_cache import HAND_ROWS_ATTEMPTS
    from calculator.store import Store

    steps = SCENARIOS[0]["steps"]
    hand = wire_hand(steps[0]["hand"])
    table = TableClient.create(ledger_app.test_client(), SCENARIOS[0]["table"])
    table.write("POST", "/hands", hand, expect=201)
    other = _second_phone(ledger_app, table)
    hand_items = Store.hand_items
    reads = []

    def appended_each_time(store: Store, table_id: str, **kwargs: Any) -> list[str]:
        reads.append(table_id)
        other.write("POST", "/hands", hand, expect=201)
        return hand_items(store, table_id, **kwargs)

    monkeypatch.setattr(Store, "hand_items", appended_each_time)
    read = ledger_app.test_client().get(table.path, headers=table.auth())
    assert read.status_code == 503
    assert "Retry-After" in read.headers
    assert len(reads) == HAND_ROWS_ATTEMPTS


def test_a_go_stop_hand_sent_to_a_balance_table_is_told_the_variant_first(lclient: Any) -> None:
    """Before, such a hand got seven schema errors (captured required, outcome unknown…),
    none saying the table plays the balance variant (an integrator's probe). A balance
    hand with a typo gets its own error alone, as before."""
    table = _table(lclient, variant="balance", ruleset="balance", dealer=None)
    for body in (HAND, {"players": [{"id": "A", "captured": [], "go_count": 1}]}):
        for method, suffix, sent, at in (
            ("POST", "/hands", body, ""),
            ("PUT", "/hands/1", {"hand": body, "reason": "x"}, "/hand"),
        ):
            first = table.write(method, suffix, sent, expect=422)["errors"][0]
            assert (first["pointer"], first["code"]) == (at, "wrong_variant")
            assert "balance variant" in first["detail"]
    # a Go-Stop hand with more unknown fields than one answer lists: told both
    crowded = {**HAND, **{f"x{i}": 0 for i in range(60)}}
    codes = [e["code"] for e in table.write("POST", "/hands", crowded, expect=422)["errors"]]
    assert codes[0] == "wrong_variant"
    assert "too_many_problems" in codes
    typo = {"players": [{"id": "A", "capture": []}, {"id": "B", "captured": []}]}
    answer = table.write("POST", "/hands", typo, expect=422)
    assert "wrong_variant" not in {e["code"] for e in answer["errors"]}
