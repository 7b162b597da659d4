"""A table's results in the language asked for (SPEC §4: labels and sentences come in the
language the client asks for; SPEC §9: a table hand's ``result`` is the stateless answer):
``GET /v1/tables/{id}`` and an appended hand's ``result`` take ``?lang`` as the scoring
endpoints do, each language with its own ETag. Not ``Accept-Language``: phones send one
unasked, and a table answer's ETag is its version (SPEC §9) unless a client asks."""

from __future__ import annotations

from typing import Any

import pytest

from ledger_support import SCENARIOS, wire_hand
from tables_support import TableClient, new_key

GOSTOP = SCENARIOS[0]
HAND = GOSTOP["steps"][0]["hand"]  # A stops with 3 against B and C


@pytest.fixture
def lclient(ledger_app: Any) -> Any:
    return ledger_app.test_client()


def _played(lclient: Any, scenario: dict[str, Any], steps: int = 8) -> tuple[TableClient, dict]:
    """A table after the scenario's first ``steps`` steps, and each added hand's body."""
    table = TableClient.create(lclient, scenario["table"])
    bodies = {}
    for step in scenario["steps"][:steps]:
        hand = wire_hand(step["hand"]) if "hand" in step else None
        table.step(step, hand)
        if step["do"] == "add":
            bodies[len(bodies) + 1] = hand
    return table, bodies


def _stateless(
    lclient: Any, scenario: dict[str, Any], item: dict[str, Any], body: Any, query: str
) -> Any:
    """The stateless answer to a table hand (its body with the table's rule set, stake and
    the streak and dealer the table derived), asked with ``query``."""
    body = {**body, "ruleset": scenario["table"]["ruleset"], "stake": scenario["table"]["stake"]}
    path = "/v1/balance/hands"
    if scenario["table"]["variant"] == "gostop":
        body["nagari_streak"] = item["nagari_streak"]
        if item["dealer"] is not None:
            body["dealer"] = item["dealer"]
        path = "/v1/gostop/hands"
    answer = lclient.post(path + query, json=body)
    assert answer.status_code == 200
    return answer.get_json()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
@pytest.mark.parametrize(
    ("query", "headers", "language"),
    [
        ("?lang=en", {}, "en"),
        ("?lang=all", {"Accept-Language": "en"}, "ko, en"),
        ("?lang=ko", {"Accept-Language": "en"}, "ko"),
        ("?lang=EN-us", {}, "en"),  # a language tag, in any case, its region ignored
    ],
    ids=["lang=en", "lang=all", "lang=ko", "lang=EN-us"],
)
def test_each_result_is_the_stateless_answer_in_the_language_asked(
    lclient: Any, scenario: dict[str, Any], query: str, headers: dict[str, str], language: str
) -> None:
    table, bodies = _played(lclient, scenario)
    read = lclient.get(table.path + query, headers={**table.auth(), **headers})
    assert read.status_code == 200
    assert read.headers["Content-Language"] == language
    state = read.get_json()
    assert len(state["hands"]) == len(bodies) > 0
    asked = "?lang=" + {"ko": "ko", "en": "en", "ko, en": "all"}[language]
    for item in state["hands"]:
        assert item["result"] == _stateless(
            lclient, scenario, item, bodies[item["number"]], asked
        ), item["number"]
    # the rest of the table is the Korean read's
    korean = table.get()
    assert {k: v for k, v in state.items() if k != "hands"} == {
        k: v for k, v in korean.items() if k != "hands"
    }
    assert [{k: v for k, v in h.items() if k != "result"} for h in state["hands"]] == [
        {k: v for k, v in h.items() if k != "result"} for h in korean["hands"]
    ]


def test_each_language_has_its_own_etag_and_a_write_takes_any(lclient: Any) -> None:
    table = TableClient.create(lclient, GOSTOP["table"])
    table.write("POST", "/hands", wire_hand(HAND), expect=201)
    auth = table.auth()
    tags = {"": '"2"', "?lang=ko": '"2"', "?lang=en": '"2.en"', "?lang=all": '"2.all"'}
    for query, tag in tags.items():
        first = lclient.get(table.path + query, headers=auth)
        assert first.headers["ETag"] == tag
        assert "Accept-Language" not in first.headers.get("Vary", "")
        for other_query, other_tag in tags.items():
            again = lclient.get(table.path + query, headers={**auth, "If-None-Match": other_tag})
            if other_tag == tag:
                assert (again.status_code, again.data) == (304, b"")
                assert again.headers["ETag"] == tag
            else:  # another language's copy is no match
                assert again.status_code == 200, (query, other_query)
                assert again.data == first.data
    # Accept-Language (a phone's, sent unasked) changes nothing: Korean, the version's tag
    english = {**auth, "Accept-Language": "en-US,en;q=0.9"}
    korean = lclient.get(table.path, headers=english)
    assert (korean.headers["ETag"], korean.headers["Content-Language"]) == ('"2"', "ko")
    assert korean.data == lclient.get(table.path, headers=auth).data
    unchanged = lclient.get(table.path, headers={**english, "If-None-Match": '"2"'})
    assert unchanged.status_code == 304
    # a weak tag (a compressing proxy) is the same copy
    weak = lclient.get(table.path + "?lang=en", headers={**auth, "If-None-Match": 'W/"2.en"'})
    assert weak.status_code == 304
    # a write made on any language's tag is made at that version
    for tag in ('"2.all"', '"3.en"'):
        done = lclient.post(
            table.path + "/hands",
            json=wire_hand(HAND),
            headers={**auth, "Idempotency-Key": new_key(), "If-Match": tag},
        )
        assert done.status_code == 201, done.get_json()
    stale = lclient.post(
        table.path + "/hands",
        json=wire_hand(HAND),
        headers={**auth, "Idempotency-Key": new_key(), "If-Match": '"3.en"'},
    )
    assert stale.status_code == 412
    # the new version's English copy
    assert lclient.get(table.path + "?lang=en", headers=auth).headers["ETag"] == '"4.en"'


def test_an_english_poll_after_a_korean_one_is_not_answered_from_the_korean_tag(
    lclient: Any,
) -> None:
    """A phone switched to English polls with the Korean tag it holds: the store skips the
    summary only for the tag of the language asked, so the English copy is answered whole."""
    table = TableClient.create(lclient, GOSTOP["table"])
    table.write("POST", "/hands", wire_hand(HAND), expect=201)
    korean = lclient.get(table.path, headers=table.auth())
    english = lclient.get(table.path + "?lang=en", headers={**table.auth(), "If-None-Match": '"2"'})
    assert english.status_code == 200
    assert english.get_json()["totals"] == korean.get_json()["totals"]
    assert english.get_json()["hands"][0]["result"]["payments"][0]["text"].keys() == {"en"}


def test_an_appended_hand_answers_in_the_language_asked_and_a_replay_as_first(
    lclient: Any,
) -> None:
    table = TableClient.create(lclient, GOSTOP["table"])
    body = wire_hand(HAND)
    headers = {
        **table.auth(),
        "Idempotency-Key": "append-in-english",
        "If-Match": f'"{table.version}"',
    }
    added = lclient.post(table.path + "/hands?lang=en", json=body, headers=headers)
    assert added.status_code == 201
    assert added.headers["Content-Language"] == "en"
    result = added.get_json()["result"]
    stored = table.get()["hands"][0]
    assert result == _stateless(lclient, GOSTOP, stored, body, "?lang=en")
    assert stored["result"] == _stateless(lclient, GOSTOP, stored, body, "")  # kept in Korean
    # the same request again: the stored answer, byte for byte, saying its language
    again = lclient.post(table.path + "/hands?lang=en", json=body, headers=headers)
    assert (again.status_code, again.data) == (201, added.data)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Content-Language"] == "en"
    # the same key asking another language is another request (the key is bound to it)
    for other in ("?lang=ko", "", "?lang=all"):
        refused = lclient.post(table.path + "/hands" + other, json=body, headers=headers)
        assert (refused.status_code, refused.get_json()["errors"][0]["code"]) == (
            422,
            "key_reused",
        ), other
    # a key first used without ?lang is bound to Korean, which ?lang=ko names too
    korean = {**headers, "Idempotency-Key": new_key(), "If-Match": '"2"'}
    first = lclient.post(table.path + "/hands", json=body, headers=korean)
    replay = lclient.post(table.path + "/hands?lang=ko", json=body, headers=korean)
    assert (first.status_code, replay.status_code, replay.data) == (201, 201, first.data)
    assert (first.headers["Content-Language"], replay.headers["Content-Language"]) == ("ko", "ko")
    assert replay.headers["Idempotent-Replayed"] == "true"
    # ?lang on a write
    both = lclient.post(
        table.path + "/hands?lang=all",
        json=body,
        headers={**table.auth(), "Idempotency-Key": new_key(), "If-Match": '"3"'},
    )
    assert both.status_code == 201
    assert both.get_json()["result"]["payments"][0]["text"].keys() == {"ko", "en"}


def test_only_an_appends_key_is_bound_to_its_language(lclient: Any) -> None:
    """A void answers no result, so its key is bound to its body alone: a retry that
    differs in ?lang is its replay, not another request (review 2026-12-06)."""
    table = TableClient.create(lclient, GOSTOP["table"])
    table.write("POST", "/hands", wire_hand(HAND), expect=201)
    headers = {**table.auth(), "Idempotency-Key": new_key(), "If-Match": '"2"'}
    body = {"reason": "misdeal"}
    first = lclient.post(table.path + "/hands/1/void?lang=en", json=body, headers=headers)
    again = lclient.post(table.path + "/hands/1/void", json=body, headers=headers)
    assert (first.status_code, again.status_code, again.data) == (200, 200, first.data)
    assert again.headers["Idempotent-Replayed"] == "true"


def test_a_bad_lang_is_a_422_after_the_access_checks(lclient: Any) -> None:
    table = TableClient.create(lclient, GOSTOP["table"])
    assert lclient.get(table.path + "?lang=fr").status_code == 401
    assert lclient.get(table.path + "?lang=fr", headers=table.auth("nope")).status_code == 404
    for query, code in (("?lang=fr", "not_allowed"), ("?lnag=en", "unknown_field")):
        refused = lclient.get(table.path + query, headers=table.auth())
        assert refused.status_code == 422, query
        assert refused.mimetype == "application/problem+json"
        assert refused.get_json()["errors"][0]["code"] == code, refused.get_json()
    twice = lclient.get(table.path + "?lang=en&lang=ko", headers=table.auth())
    assert twice.get_json()["errors"][0]["code"] == "duplicate_parameter"
    # the scoring endpoints' other parameter, and names in capitals, are no silence
    for query, pointer in (
        ("?full_ruleset=true", "/full_ruleset"),
        ("?FULL_RULESET=true", "/full_ruleset"),
        ("?LANG=en", "/LANG"),
    ):
        refused = lclient.get(table.path + query, headers=table.auth())
        assert refused.status_code == 422, query
        assert refused.get_json()["errors"][0]["pointer"] == pointer
    # a write's query is checked with its body, after the version (SPEC §9's order)
    headers = {**table.auth(), "Idempotency-Key": new_key(), "If-Match": '"9"'}
    assert lclient.post(table.path + "/hands?lang=fr", json={}, headers=headers).status_code == 412
    headers["If-Match"] = f'"{table.version}"'
    refused = lclient.post(table.path + "/hands?lang=fr", json=wire_hand(HAND), headers=headers)
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["pointer"] == "/lang"
    assert table.get()["version"] == table.version  # nothing written


def test_an_english_read_follows_another_instances_writes(
    ledger_app: Any, database_url: str
) -> None:
    """The English copy comes from the table's ledger, caught up on the events another
    instance wrote; it says what that instance's Korean rows say."""
    from calculator.api import create_app

    other = create_app({"access_log": False, "database_url": database_url})
    other.test_client_class = ledger_app.test_client_class
    clients = [ledger_app.test_client(), other.test_client()]
    table = TableClient.create(clients[0], GOSTOP["table"])
    for i, step in enumerate(GOSTOP["steps"][:10]):
        table.client = clients[i % 2]
        table.step(step, step.get("hand"))
        read = clients[0].get(table.path + "?lang=en", headers=table.auth())
        assert read.headers["ETag"] == f'"{table.version}.en"'
        state, korean = read.get_json(), clients[1].get(table.path, headers=table.auth())
        assert state["totals"] == korean.get_json()["totals"]
        assert [h["result"]["net"] for h in state["hands"]] == [
            h["result"]["net"] for h in korean.get_json()["hands"]
        ]
    other.extensions["gostop_store"].dispose()


def test_an_english_read_that_cannot_replay_in_time_is_a_503_the_korean_one_is_not(
    ledger_app: Any, database_url: str
) -> None:
    """Another language comes from the table's ledger: on an instance that has not seen
    the table, replaying its log past the request deadline is a 503 with Retry-After (as
    a write's is); the Korean read is the stored rows and needs no replay."""
    from calculator.api import create_app

    table = TableClient.create(ledger_app.test_client(), GOSTOP["table"])
    table.write("POST", "/hands", wire_hand(HAND), expect=201)
    late = create_app({"access_log": False, "database_url": database_url, "request_deadline": 0})
    late.test_client_class = ledger_app.test_client_class
    client = late.test_client()
    refused = client.get(table.path + "?lang=en", headers=table.auth())
    assert refused.status_code == 503
    assert refused.mimetype == "application/problem+json"
    assert int(refused.headers["Retry-After"]) >= 1
    assert client.get(table.path, headers=table.auth()).status_code == 200
    late.extensions["gostop_store"].dispose()


def test_a_table_answer_is_never_gzipped_here_so_it_does_not_vary_on_accept_encoding(
    lclient: Any,
) -> None:
    """The service leaves a table's answers to the proxy (their ETag is the version): as
    large as a catalogue or not, plain for every client, and its Vary says nothing of
    Accept-Encoding, the 304's neither."""
    table, _bodies = _played(lclient, GOSTOP)
    asked = {**table.auth(), "Accept-Encoding": "gzip"}
    read = lclient.get(table.path + "?lang=all", headers=asked)
    assert read.status_code == 200
    assert len(read.data) > lclient.application.config["GOSTOP"].compress_min_bytes
    again = lclient.get(
        table.path + "?lang=all", headers={**asked, "If-None-Match": read.headers["ETag"]}
    )
    assert again.status_code == 304
    for response in (read, again):
        assert "Content-Encoding" not in response.headers
        assert "Accept-Encoding" not in response.headers.get("Vary", "")
