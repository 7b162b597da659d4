"""The table API's headers and refusals as the document states them: the 401's Bearer
challenge, If-Match that is not quoted or empty, Retry-After of a key in flight, query
parameters given twice."""

from __future__ import annotations

from typing import Any

import pytest

from ledger_support import SCENARIOS, wire_hand
from tables_support import TableClient, new_key

GOSTOP = SCENARIOS[0]
HAND = GOSTOP["steps"][0]["hand"]


@pytest.fixture
def lclient(ledger_app: Any) -> Any:
    return ledger_app.test_client()


def _table(lclient: Any) -> TableClient:
    return TableClient.create(lclient, GOSTOP["table"])


def _code(response: Any) -> str:
    code: str = response.get_json()["errors"][0]["code"]
    return code


def test_a_401_challenges_for_a_bearer_token(lclient: Any) -> None:
    table = _table(lclient)
    missing = lclient.get(table.path)
    assert missing.status_code == 401
    assert missing.headers.getlist("WWW-Authenticate") == ['Bearer realm="gostop tables"']
    basic = lclient.get(table.path, headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert basic.status_code == 401
    assert basic.headers.getlist("WWW-Authenticate") == [
        'Bearer realm="gostop tables", error="invalid_request"'
    ]


def _close(lclient: Any, table: TableClient, if_match: str | None) -> Any:
    headers = {**table.auth(), "Idempotency-Key": new_key()}
    if if_match is not None:
        headers["If-Match"] = if_match
    return lclient.post(table.path + "/close", headers=headers)


@pytest.mark.parametrize(
    ("if_match", "example"),
    [
        ("1", '"1"'),  # unquoted: the review's case
        ("W/1", '"1"'),
        ('"1', '"1"'),  # an opening quote alone
        ('w/"1"', '"<version>"'),  # W/ is upper case
        ('"1", 2', '"<version>"'),  # one tag of the list unquoted, even beside the version
        ('"1 2"', '"<version>"'),  # a space inside a tag
        ("version 1", '"<version>"'),
    ],
)
def test_an_if_match_that_is_no_entity_tag_is_a_400_of_its_own(
    lclient: Any, if_match: str, example: str
) -> None:
    """``If-Match: 12`` was answered with the 412 ``version_mismatch`` of a stale version:
    a client reads the table again and resends the same header. The header is malformed:
    a 400 with its own code, saying to send the quoted ETag, on every write."""
    table = _table(lclient)
    for response in (
        _close(lclient, table, if_match),
        lclient.delete(table.path, headers={**table.auth(), "If-Match": if_match}),
    ):
        assert (response.status_code, _code(response)) == (400, "malformed_if_match")
        detail = response.get_json()["detail"]
        assert f"If-Match is {if_match}, which is not an entity tag" in detail
        assert "the ETag the table's last read returned, quoted" in detail
        assert f"If-Match: {example}" in detail
        assert "version_mismatch" not in response.get_data(as_text=True)
        assert response.headers["ETag"] == '"1"'  # the table's version, as every refusal
    assert table.get()["version"] == 1  # nothing was written


def test_a_quoted_if_match_of_another_version_is_stale(lclient: Any) -> None:
    table = _table(lclient)
    stale = _close(lclient, table, '"7"')
    assert (stale.status_code, _code(stale)) == (412, "version_mismatch")
    assert 'If-Match is "7", not the table\'s version' in stale.get_json()["detail"]
    assert stale.headers["ETag"] == '"1"'
    # another representation's tag of another version
    csv_tag = _close(lclient, table, '"7.csv"')
    assert (csv_tag.status_code, _code(csv_tag)) == (412, "version_mismatch")


@pytest.mark.parametrize(
    "if_match",
    # a representation no table has; a compressing proxy's suffix is letters ("1-gzip")
    ['"1.0"', '"1.de"', '"1.csv.en"', '"1."', 'W/"1.json"', '"1-0"', '"1:0"', '"1-gzip.0"'],
)
def test_a_tag_with_a_suffix_no_representation_has_names_no_version(
    lclient: Any, if_match: str
) -> None:
    """Only the share text's ``.en`` and the export's ``.csv`` tag a version's other
    representations: ``If-Match: "1.0"`` was read as version 1 (the integrator's probe),
    and ``"1-0"`` still was (the reviewer's)."""
    table = _table(lclient)
    response = _close(lclient, table, if_match)
    assert (response.status_code, _code(response)) == (412, "version_mismatch")
    assert f"If-Match is {if_match}, not the table's version" in response.get_json()["detail"]
    assert table.get()["version"] == 1


@pytest.mark.parametrize(
    "if_match",
    # the tags of the English share text and the CSV export name their version too: a
    # client that writes with the ETag of its last read, whichever read, is not sent
    # round a 412 it cannot leave (each read answers it the same tag again)
    [
        'W/"1"',
        ' "1" ',
        '"7", W/"1"',
        '"1-gzip"',
        '"7",,"1"',
        '"1.en"',
        '"1.all"',
        '"1.csv"',
        'W/"1.en-gzip"',
    ],
)
def test_every_well_formed_if_match_naming_the_version_writes(lclient: Any, if_match: str) -> None:
    table = _table(lclient)
    assert _close(lclient, table, if_match).status_code == 200


@pytest.mark.parametrize("if_match", ["*", ",", " , ", '*, W/""'])
def test_an_if_match_that_names_no_version_is_a_400_too(lclient: Any, if_match: str) -> None:
    """``*`` and an empty list are well formed but name no version: a 412 would send the
    client to read again and resend the same header, round and round."""
    table = _table(lclient)
    response = _close(lclient, table, if_match)
    assert (response.status_code, _code(response)) == (400, "malformed_if_match")
    assert "which is no version: send the ETag" in response.get_json()["detail"]
    assert table.get()["version"] == 1


@pytest.mark.parametrize("empty", ["", "   "])
def test_an_empty_if_match_is_a_missing_one(lclient: Any, empty: str) -> None:
    table = _table(lclient)
    for response in (
        _close(lclient, table, empty),
        lclient.delete(table.path, headers={**table.auth(), "If-Match": empty}),
    ):
        assert (response.status_code, _code(response)) == (428, "precondition_required")
    assert _close(lclient, table, None).status_code == 428


@pytest.mark.parametrize(
    ("after", "code", "detail"),
    [
        ("x", "invalid_type", "expected a whole number (an integer)"),
        ("2.5", "invalid_type", "expected a whole number (an integer)"),
        ("٣", "invalid_type", "expected a whole number (an integer)"),
        ("99999999999999999999999", "too_large", "is above the maximum 2147483647"),
        # as written, never as the float it reads as (1.8446744073709552e+19)
        ("18446744073709551616", "too_large", "18446744073709551616 is above the maximum"),
        ("18446744073709551616.0", "too_large", "18446744073709551616.0 is above the maximum"),
        ("-1", "negative_count", "-1 is below the minimum 0"),  # a body's words
        ("-1.0", "negative_count", "-1 is below the minimum 0"),
        ("1e30", "too_large", "1e30 is above the maximum 2147483647"),
        ("1e400", "too_large", "1e400 is above the maximum 2147483647"),
        ("-1e30", "negative_count", "-1e30 is below the minimum 0"),
        ("1.5e0", "invalid_type", "expected a whole number (an integer)"),
        ("1.", "invalid_type", "expected a whole number (an integer)"),
    ],
)
def test_a_bad_query_number_is_said_as_a_json_one_is(
    lclient: Any, after: str, code: str, detail: str
) -> None:
    table = _table(lclient)
    response = lclient.get(
        f"{table.path}/events", query_string={"after": after}, headers=table.auth()
    )
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert error["code"] == code
    assert detail in error["detail"]
    assert "Not a valid integer" not in error["detail"]
    assert "e+" not in error["detail"]


@pytest.mark.parametrize("after", ["2", "2.0", "2e0", "0.2e1", " 2"])
def test_a_whole_query_number_is_taken_however_it_is_written(lclient: Any, after: str) -> None:
    """As a JSON integer is (``2.0`` is 2): the events after the second."""
    table = _table(lclient)
    table.write("POST", "/hands", wire_hand(HAND), expect=201)
    table.write("POST", "/hands", wire_hand(HAND), expect=201)
    events = lclient.get(
        f"{table.path}/events", query_string={"after": after}, headers=table.auth()
    )
    assert events.status_code == 200, events.get_json()
    assert [e["seq"] for e in events.get_json()["events"]] == [3]


def test_events_refuse_after_given_twice_and_a_near_miss_of_it(lclient: Any) -> None:
    """``?after=1&after=0`` listed the events after 1, silently."""
    table = _table(lclient)
    path = f"{table.path}/events?after=1&after=0"
    assert lclient.get(path).status_code == 401  # the access checks first
    for headers in ({}, {"If-None-Match": f'"{table.version}"'}):  # the poll's too
        twice = lclient.get(path, headers={**table.auth(), **headers})
        assert twice.status_code == 422
        (error,) = twice.get_json()["errors"]
        assert (error["pointer"], error["code"]) == ("/after", "duplicate_parameter")
        assert "2 times ('1', '0')" in error["detail"]
    assert (
        lclient.get(f"{table.path}/events?after=0&_=1&_=2", headers=table.auth()).status_code == 200
    )
    typo = lclient.get(f"{table.path}/events?afer=1", headers=table.auth())
    assert typo.status_code == 422  # a near miss, as on every other query (it listed them all)
    assert typo.get_json()["errors"][0]["pointer"] == "/afer"


@pytest.mark.parametrize(
    ("accept", "kind"),
    [
        ("text/csv", "text/csv"),
        ("text/csv;charset=utf-8", "text/csv"),
        ("text/csv; charset=UTF-8, application/json;q=0.5", "text/csv"),
        ("application/json, text/csv;q=0.5", "application/json"),
        ("text/csv;charset=iso-8859-1", "application/json"),
        ("*/*", "application/json"),
    ],
)
def test_export_reads_the_accepted_media_type_with_its_parameters(
    lclient: Any, accept: str, kind: str
) -> None:
    table = _table(lclient)
    response = lclient.get(f"{table.path}/export", headers={**table.auth(), "Accept": accept})
    assert response.status_code == 200
    assert response.mimetype == kind


def _mint(lclient: Any, table: TableClient, label: str) -> Any:
    return lclient.post(
        table.path + "/tokens", json={"role": "viewer", "label": label}, headers=table.auth()
    )


@pytest.mark.parametrize(
    ("label", "code"),
    [
        ("  ", "invalid_length"),
        ("\u3000", "invalid_length"),
        (" scorer", "reserved_label"),
        ("Scorer ", "reserved_label"),
        ("ＳＣＯＲＥＲ", "reserved_label"),
        ("viewer", "reserved_label"),
        ("scorer (2)", "reserved_label"),
        ("Joined 2026-12-05  10:00", "reserved_label"),
    ],
)
def test_a_blank_or_built_in_label_is_refused(lclient: Any, label: str, code: str) -> None:
    table = _table(lclient)
    minted = _mint(lclient, table, label)
    assert minted.status_code == 422, minted.get_json()
    error = minted.get_json()["errors"][0]
    assert (error["pointer"], error["code"]) == ("/label", code)
    join_code = lclient.post("/v1/tables", json=GOSTOP["table"]).get_json()["join_code"]
    joined = lclient.post("/v1/tables/join", json={"join_code": join_code, "label": label})
    assert (joined.status_code, _code(joined)) == (422, code)


@pytest.mark.parametrize("reason", ["", "  ", "\u3000", " \u00a0 "])
def test_a_blank_reason_is_refused_as_a_blank_label_is(lclient: Any, reason: str) -> None:
    """A void's or a correction's reason is what the log keeps to say why: blank, it is a
    422 ``invalid_length`` at ``/reason`` (the field's not_blank, as a label's); the
    table stays as it was."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    headers = {**table.auth(), "If-Match": f'"{table.version}"'}
    for suffix, body in (
        ("/hands/1/void", {"reason": reason}),
        ("/hands/1", {"hand": HAND, "reason": reason}),
    ):
        method = "PUT" if suffix == "/hands/1" else "POST"
        refused = lclient.open(
            table.path + suffix,
            method=method,
            json=body,
            headers={**headers, "Idempotency-Key": new_key()},
        )
        assert refused.status_code == 422, refused.get_json()
        (error,) = refused.get_json()["errors"]
        assert (error["pointer"], error["code"]) == ("/reason", "invalid_length")
        if reason:  # an empty string is below the length, as before
            assert error["detail"] == "the reason is blank: say why, for the table's log"
    assert table.get()["version"] == 2
    table.write("POST", "/hands/1/void", {"reason": " entered twice "})  # text: taken


def test_a_blank_reason_or_label_is_said_with_the_bodys_other_problems(lclient: Any) -> None:
    """A blank reason or label is its field's own check: a correction whose hand is not an
    object and whose reason is blank hears of both, and of a field it does not know (a
    check of the whole body, or one after loading, waited for every field to pass)."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    refused = lclient.put(
        table.path + "/hands/1",
        json={"hand": 5, "reason": " ", "why": "x"},
        headers={**table.auth(), "If-Match": f'"{table.version}"', "Idempotency-Key": new_key()},
    )
    assert refused.status_code == 422, refused.get_json()
    found = {(e["pointer"], e["code"]) for e in refused.get_json()["errors"]}
    assert {("/reason", "invalid_length"), ("/why", "unknown_field")} <= found
    assert any(pointer == "/hand" for pointer, _code in found)
    # a token's blank label too, beside a role that is none
    minted = lclient.post(
        table.path + "/tokens", json={"role": "owner", "label": "  "}, headers=table.auth()
    )
    assert minted.status_code == 422, minted.get_json()
    found = {(e["pointer"], e["code"]) for e in minted.get_json()["errors"]}
    assert found == {("/role", "not_allowed"), ("/label", "invalid_length")}


def test_a_label_is_stored_trimmed_and_names_like_the_built_in_ones_pass(lclient: Any) -> None:
    table = _table(lclient)
    assert _mint(lclient, table, "  민지's phone ").get_json()["label"] == "민지's phone"
    for label in ("scorer's phone", "the scorer", "viewer 2"):
        assert _mint(lclient, table, label).status_code == 201


def test_every_replayed_key_says_so(lclient: Any) -> None:
    key = new_key()
    first = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    again = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    table = TableClient(lclient, first.get_json())
    exported = lclient.get(table.path + "/export", headers=table.auth()).get_json()
    import_key = new_key()
    for replay in (False, True):
        imported = lclient.post(
            "/v1/tables/import", json=exported, headers={"Idempotency-Key": import_key}
        )
        assert imported.status_code == 201, imported.get_json()
        assert ("Idempotent-Replayed" in imported.headers) is replay
    join_key, join = new_key(), {"join_code": first.get_json()["join_code"]}
    for replay in (False, True):
        joined = lclient.post("/v1/tables/join", json=join, headers={"Idempotency-Key": join_key})
        assert joined.status_code == 201
        assert ("Idempotent-Replayed" in joined.headers) is replay
    mint_key, mint = new_key(), {"role": "viewer", "label": "민지's phone"}
    for replay in (False, True):
        minted = lclient.post(
            table.path + "/tokens", json=mint, headers={**table.auth(), "Idempotency-Key": mint_key}
        )
        assert minted.status_code == 201
        assert ("Idempotent-Replayed" in minted.headers) is replay


def _operations() -> dict[str, dict[str, Any]]:
    from calculator.api.openapi import openapi_document

    document = openapi_document()
    return {
        operation["operationId"]: operation
        for operations in document["paths"].values()
        for operation in operations.values()
        if isinstance(operation, dict) and "operationId" in operation
    }


def test_token_operations_require_the_bearer_scheme() -> None:
    from calculator.api.openapi import openapi_document

    schemes = openapi_document()["components"]["securitySchemes"]
    assert schemes["bearer"] == {**schemes["bearer"], "type": "http", "scheme": "bearer"}
    operations = _operations()
    protected = {name for name, o in operations.items() if o.get("security")}
    assert protected == {name for name, o in operations.items() if "401" in o["responses"]}
    assert {"getTable", "addTableHand", "deleteTable", "mintTableToken"} <= protected
    assert not {"createTable", "importTable", "joinTable", "scoreHand"} & protected
    for name in protected:
        assert operations[name]["security"] == [{"bearer": []}]


def test_create_import_and_join_document_the_key_length_they_demand(lclient: Any) -> None:
    from calculator.api.idempotency_keys import MIN_SHARED_KEY

    operations = _operations()
    for name in ("createTable", "importTable", "joinTable"):
        (key,) = [p for p in operations[name]["parameters"] if p["name"] == "Idempotency-Key"]
        assert key["schema"]["minLength"] == MIN_SHARED_KEY == 16
    short = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": "x" * 15})
    assert (short.status_code, _code(short)) == (422, "weak_idempotency_key")
    # writes to a table take any key (their scope is the table)
    (write_key,) = [
        p for p in operations["addTableHand"]["parameters"] if p["name"] == "Idempotency-Key"
    ]
    assert write_key["schema"]["minLength"] == 1


def test_the_headers_sent_are_declared() -> None:
    operations = _operations()

    def declared(name: str, status: str) -> set[str]:
        return set(operations[name]["responses"][status].get("headers", {}))

    assert {"Retry-After", "X-Request-ID"} <= declared("joinTable", "429")
    assert "Retry-After" in declared("scoreHands", "503")
    assert "Retry-After" in declared("addTableHand", "409")  # key_in_flight
    assert "ETag" in declared("closeTable", "412")
    assert {"Content-Language", "Vary"} <= declared("scoreHand", "200")
    for name, status in (("createTable", "201"), ("joinTable", "201"), ("closeTable", "200")):
        assert "Idempotent-Replayed" in declared(name, status)
    assert "WWW-Authenticate" in declared("getTable", "401")
