"""Sharing a table over HTTP (SPEC §9), on SQLite and on PostgreSQL: the share text and
reading it back, the JSON and CSV export, and the import that makes the same table again.
Every answer is checked against the OpenAPI document (the CheckingClient)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator.ledger.share import ShareSheet, compact_line, read
from ledger_support import SCENARIOS, wire_hand
from tables_support import TableClient, new_key

GOSTOP = next(s for s in SCENARIOS if s["name"] == "gostop")
_ADDS = {
    s["name"]: [wire_hand(x["hand"]) for x in s["steps"] if x["do"] == "add"] for s in SCENARIOS
}
NAMED = {
    **GOSTOP["table"],
    "roster": [{"id": "A", "name": "민지"}, {"id": "B", "name": "철수"}, "C", "D", "E"],
    "name": "금요일 밤",
    "rounding": {"unit": 100},
}


@pytest.fixture
def lclient(ledger_app: Any) -> Any:
    return ledger_app.test_client()


def _night(lclient: Any, body: dict[str, Any] = NAMED, steps: int = 19) -> TableClient:
    table = TableClient.create(lclient, body)
    for step in GOSTOP["steps"][:steps]:
        table.step(step, wire_hand(step["hand"]) if "hand" in step else None)
    return table


def _text(table: TableClient, query: str = "", **headers: str) -> str:
    response = table.client.get(
        f"{table.path}/share{query}", headers={**table.auth(table.viewer), **headers}
    )
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "text/plain"
    assert response.mimetype_params["charset"] == "utf-8"
    assert response.headers["ETag"] == f'"{table.version}"'
    text: str = response.get_data(as_text=True)
    return text


def _parse(lclient: Any, text: str, status: int = 200) -> Any:
    response = lclient.post("/v1/share/parse", json={"text": text})
    assert response.status_code == status, response.get_json()
    return response.get_json()


# --- the share text ----------------------------------------------------------------------


def test_the_share_text_reads_back_to_the_tables_settlement(lclient: Any) -> None:
    table = _night(lclient)
    settled = table.get("/settlement")
    korean = _text(table)
    english = _text(table, "?lang=en")
    assert korean.startswith("금요일 밤 · ")
    assert {"합계", "정산 (100 단위로 반올림)"} <= set(korean.splitlines())
    assert {"Totals", "Who pays whom (rounded to 100)"} <= set(english.splitlines())
    assert _text(table, **{"Accept-Language": "en-US,en;q=0.8"}) == english
    assert _text(table, **{"Accept-Language": "fr"}) == korean  # else Korean
    for text in (korean, english):
        read = _parse(lclient, text)
        assert read["totals"] == settled["totals"]
        assert read["transfers"] == settled["transfers"]
        assert read["name"] == "금요일 밤"
        assert read["rounding"] == {"unit": 100}
        state = table.get()
        assert read["ruleset"] == {
            "preset": "standard",
            "fingerprint": state["ruleset"]["fingerprint"],
        }
        assert read["players"][0] == {"id": "A", "name": "민지"}
        assert read["checked"] == {"totals": 5, "transfers": len(settled["transfers"]), "rules": 1}
    assert {line.split()[0] for line in korean.splitlines()[4:9]} == {"민지", "철수", "C", "D", "E"}


def test_a_table_without_a_name_is_shared_by_its_id(lclient: Any) -> None:
    table = _night(lclient, GOSTOP["table"], steps=2)
    text = _text(table)
    assert text.startswith(f"#{table.id[:8]} · ")
    assert _parse(lclient, text)["name"] == f"#{table.id[:8]}"
    assert table.get()["name"] is None


def test_share_access_polling_and_a_bad_language(lclient: Any) -> None:
    table = _night(lclient, steps=1)
    path = f"{table.path}/share"
    assert lclient.get(path).status_code == 401
    assert lclient.get(path, headers=table.auth("wrong")).status_code == 404
    other = TableClient.create(lclient, GOSTOP["table"])
    assert lclient.get(path, headers=table.auth(other.viewer)).status_code == 404
    assert _text(table) == _text(table.__class__(lclient, _as_created(table, table.scorer)))
    unchanged = lclient.get(
        path, headers={**table.auth(table.viewer), "If-None-Match": f'"{table.version}"'}
    )
    assert unchanged.status_code == 304
    bad = lclient.get(path + "?lang=fr", headers=table.auth(table.viewer))
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["pointer"] == "/lang"


def _as_created(table: TableClient, token: str) -> dict[str, Any]:
    return {
        "id": table.id,
        "version": table.version,
        "scorer_token": table.scorer,
        "viewer_token": token,
    }


def test_a_wrapped_and_trimmed_text_parses(lclient: Any) -> None:
    table = _night(lclient)
    text = _text(table)
    line = text.splitlines()[-1]
    pieces = [line[i : i + 37] for i in range(0, len(line), 37)]
    chat = "민지: 오늘 정산이요\r\n" + text.replace(line, "\r\n ".join(pieces)).replace(
        "\n", "\r\n"
    )
    chat = "\n".join(part.strip() for part in chat.split("\n")) + "\n철수: ㅇㅋ"
    assert _parse(lclient, chat)["totals"] == table.get("/settlement")["totals"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ("checksum", "share_checksum_mismatch"),
        ("total", "share_line_mismatch"),
        ("transfer", "share_line_mismatch"),
        ("cut", "share_line_malformed"),
        ("missing", "share_line_missing"),
    ],
)
def test_a_tampered_text_is_a_422_naming_what_differs(lclient: Any, change: str, code: str) -> None:
    table = _night(lclient)
    text = _text(table)
    line = text.splitlines()[-1]
    lines = text.splitlines()
    transfer = next(x for x in lines if " → " in x)
    total = next(x for x in lines if x.startswith("철수 "))
    tampered = {
        "checksum": text.replace(line, re.sub(r":(-?)(\d)", _bump, line, count=1)),
        "total": text.replace(total, total[:-1] + ("1" if total[-1] != "1" else "2")),
        "transfer": text.replace(transfer, transfer + "0"),
        "cut": text.replace(line, line[:60]),
        "missing": text.replace(line, ""),
    }[change]
    problem = _parse(lclient, tampered, 422)
    assert problem["type"] == "urn:gostop:problem:invalid-share-text"
    error = problem["errors"][0]
    assert (error["code"], error["pointer"]) == (code, "/text")
    if change in ("total", "transfer"):
        assert "disagrees with the compact line" in error["detail"]


def _bump(match: re.Match[str]) -> str:
    """A total of the compact line one digit off (what a careless edit does)."""
    return f":{match.group(1)}{(int(match.group(2)) + 1) % 10}"


def test_parse_is_bounded_and_takes_only_text(lclient: Any) -> None:
    long = lclient.post("/v1/share/parse", json={"text": "가" * 5_001})
    assert long.status_code == 422
    assert long.get_json()["errors"][0] | {"detail": ""} == {
        "pointer": "/text",
        "code": "invalid_length",
        "detail": "",
    }
    assert lclient.post("/v1/share/parse", json={"text": 5}).status_code == 422
    assert lclient.post("/v1/share/parse", json={"txt": "x"}).status_code == 422
    assert (
        lclient.post("/v1/share/parse", data="text", content_type="text/plain").status_code == 415
    )


def test_a_table_name_is_checked_like_an_id(lclient: Any) -> None:
    for name, code in (
        ("a\u202eb", "format_character"),
        ("x" * 61, "invalid_length"),
        ("a\nb", "control_character"),
    ):
        response = lclient.post("/v1/tables", json={**GOSTOP["table"], "name": name})
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["pointer"] == "/name"
        assert response.get_json()["errors"][0]["code"] == code


# --- export ------------------------------------------------------------------------------


def _export(table: TableClient, token: str | None = None) -> Any:
    response = table.client.get(f"{table.path}/export", headers=table.auth(token or table.viewer))
    assert response.status_code == 200, response.get_json()
    assert response.headers["ETag"] == f'"{table.version}"'
    return response.get_json()


def test_the_json_export_holds_the_whole_log(lclient: Any) -> None:
    table = _night(lclient)
    exported = _export(table)
    assert exported == _export(table, table.scorer)
    events = table.get("/events")["events"]
    assert exported["format"] == "gostop-table"
    assert exported["format_version"] == 1
    assert exported["version"] == table.version == len(exported["events"])
    assert exported["events"][1:] == events[1:]
    assert exported["events"][0] == {**events[0], "body": None}  # the setup is the top level
    setup = events[0]["body"]
    assert {k: exported[k] for k in setup} == setup
    assert exported["name"] == "금요일 밤"


def test_the_csv_export_is_one_row_per_hand_and_player(lclient: Any) -> None:
    body = {**NAMED, "roster": [{"id": "A", "name": "=HYPERLINK(1)"}, "B", "C", "D", "E"]}
    table = _night(lclient, body)
    response = lclient.get(f"{table.path}/export?format=csv", headers=table.auth(table.viewer))
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    raw = response.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    state = table.get()
    assert len(rows) == sum(len(h["result"]["players"]) for h in state["hands"])
    for hand in state["hands"]:
        mine = [r for r in rows if int(r["hand"]) == hand["number"]]
        assert {r["status"] for r in mine} == {hand["status"]}
        assert {r["outcome"] for r in mine} == {hand["result"]["outcome"]["type"]}
        counted = hand["result"]["net"] if hand["status"] == "active" else {}
        assert {r["player"]: int(r["chips"]) for r in mine} == {
            p["id"]: counted.get(p["id"], 0) for p in hand["result"]["players"]
        }
        assert all(r["entered_at"] for r in mine)
    totals = dict.fromkeys(state["totals"], 0)
    for row in rows:
        totals[row["player"]] += int(row["chips"])
    assert totals == state["totals"]
    assert {r["name"] for r in rows if r["player"] == "A"} == {"'=HYPERLINK(1)"}  # no formula
    by_accept = lclient.get(
        f"{table.path}/export", headers={**table.auth(table.viewer), "Accept": "text/csv"}
    )
    assert by_accept.get_data() == raw


def test_export_access_and_a_bad_format(lclient: Any) -> None:
    table = _night(lclient, steps=1)
    path = f"{table.path}/export"
    assert lclient.get(path).status_code == 401
    assert lclient.get(path, headers=table.auth("nope")).status_code == 404
    bad = lclient.get(path + "?format=xml", headers=table.auth(table.viewer))
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["pointer"] == "/format"
    cached = lclient.get(
        path, headers={**table.auth(table.viewer), "If-None-Match": f'W/"{table.version}"'}
    )
    assert cached.status_code == 304


# --- import ------------------------------------------------------------------------------


def _import(lclient: Any, body: Any, status: int = 201, **headers: str) -> Any:
    response = lclient.post("/v1/tables/import", json=body, headers=headers)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def _same_table(lclient: Any, table: TableClient) -> TableClient:
    """Export, import, and check the copy answers as the table does."""
    exported = _export(table)
    created = _import(lclient, exported)
    copy = TableClient(lclient, created)
    assert created["version"] == table.version
    assert {**_export(copy), "id": None} == {**exported, "id": None}
    own = {"id": None, "join_code": None, "join_url": None}  # a copy is another table
    assert {**copy.get(), **own} == {**table.get(), **own}
    assert copy.get("/settlement") == table.get("/settlement")
    if table.get()["name"] is not None:
        assert _text(copy) == _text(table)
    else:  # shared by the start of its id
        assert _text(copy) == _text(table).replace(table.id[:8], copy.id[:8]).replace(
            compact_line(_sheet(table)), compact_line(_sheet(copy))
        )
    return copy


def _sheet(table: TableClient) -> ShareSheet:
    """The sheet a table's share text says (read back from it)."""
    return read(_text(table)).sheet


def test_export_then_import_makes_the_same_table(lclient: Any) -> None:
    copy = _same_table(lclient, _night(lclient))
    # the copy is a table like any other: it takes changes
    copy.write("POST", "/undo", expect=200)
    assert copy.get()["version"] == copy.version


def test_a_replayed_import_is_the_same_table_with_fresh_tokens(lclient: Any) -> None:
    exported = _export(_night(lclient, steps=3))
    key = new_key()
    first = _import(lclient, exported, **{"Idempotency-Key": key})
    again = _import(lclient, exported, **{"Idempotency-Key": key})
    assert first["id"] == again["id"]
    assert first["scorer_token"] != again["scorer_token"]


def _edited(exported: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    import copy

    edited = copy.deepcopy(exported)
    target = edited
    for part in path[:-1]:
        target = target[part]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return edited


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "pointer", "code"),
    [
        (("format",), "csv", "/format", "not_allowed"),
        (("format_version",), 2, "/format_version", "too_large"),
        (("events", 2, "seq"), 7, "/events/2/seq", "event_out_of_order"),
        (("events", 0, "type"), "added", "/events/0/type", "missing_created"),
        (("events", 1, "body"), None, "/events/1/body", "required"),
        (("events", 1, "reason"), "why", "/events/1/reason", "not_allowed"),
        (("events", 1, "at"), "yesterday", "/events/1/at", "invalid_time"),
        (
            ("events", 1),
            {"seq": 2, "type": "redone", "by": "s", "at": "2026-12-03T20:00:00Z"},
            "/events/1",
            "nothing_to_redo",
        ),
        (
            ("events", 1, "body", "players", 0, "id"),
            "Z",
            "/events/1/body/players/0/id",
            "unknown_player",
        ),
        (("events", 1, "body", "stake"), 5, "/events/1/body/stake", "forbidden_field"),
        (("events", 1, "by"), "", "/events/1/by", "invalid_length"),
        (("ruleset", "fingerprint"), "0" * 32, "/ruleset/fingerprint", "fingerprint_mismatch"),
        (
            ("ruleset", "options", "godori_points"),
            -1,
            "/ruleset/options/godori_points",
            "invalid_option",
        ),
        (("version",), 99, "/version", "inconsistent_version"),
        (("roster", 0), "B", "/roster/1", "duplicate_player"),
        (("events",), _DELETE, "/events", "required"),
    ],
)
def test_a_malformed_import_is_a_422_with_a_pointer(
    lclient: Any, path: tuple[Any, ...], value: Any, pointer: str, code: str
) -> None:
    table = _night(lclient, steps=4)
    problem = _import(lclient, _edited(_export(table), path, value), 422)
    assert {(e["pointer"], e["code"]) for e in problem["errors"]} >= {(pointer, code)}, problem


def test_an_import_is_bounded(lclient: Any, ledger_app: Any) -> None:
    exported = _export(_night(lclient, steps=2))
    limit = ledger_app.config["GOSTOP"].max_batch_bytes
    huge = {**exported, "padding": "x" * limit}
    assert lclient.post("/v1/tables/import", json=huge).status_code == 413
    many = _edited(exported, ("events",), exported["events"] * 2_501)
    problem = _import(lclient, many, 422)
    assert problem["errors"][0]["pointer"] == "/events"
    assert problem["errors"][0]["code"] == "too_many"


def test_an_import_that_scores_too_much_is_refused(lclient: Any, monkeypatch: Any) -> None:
    from calculator.api import sharing

    table = _night(lclient, steps=12)  # 12 hands
    exported = _export(table)
    correction = {
        "seq": 0,
        "type": "corrected",
        "by": "scorer",
        "at": "2026-12-03T20:00:00.000Z",
        "number": 1,
        "reason": "again",
        "body": exported["events"][1]["body"],
    }
    events = exported["events"] + [
        {**correction, "seq": len(exported["events"]) + i + 1} for i in range(3)
    ]
    monkeypatch.setattr(sharing, "MAX_IMPORT_SCORED", 12 + 12 * 2)  # two full rescorings
    problem = _import(lclient, {**exported, "events": events, "version": len(events)}, 422)
    error = problem["errors"][0]
    assert (error["pointer"], error["code"]) == (f"/events/{len(events) - 1}", "import_too_costly")


# --- the round trip, as a property --------------------------------------------------------


@st.composite
def _nights(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]]]:
    variant = draw(st.sampled_from(["gostop", "balance"]))
    actions = []
    for _ in range(draw(st.integers(min_value=0, max_value=10))):
        actions.append(
            {
                "do": draw(
                    st.sampled_from(["add", "add", "add", "correct", "void", "undo", "redo"])
                ),
                "number": draw(st.integers(min_value=1, max_value=6)),
                "hand": draw(st.sampled_from(_ADDS[variant])),
                "reason": draw(st.sampled_from(["오타", "entered twice"])),
            }
        )
    if draw(st.booleans()):
        actions.append({"do": "close"})
    return variant, actions


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(night=_nights(), name=st.none() | st.text(alphabet="가나다라 abc", min_size=1, max_size=8))
def test_any_table_exports_and_imports_to_the_same_table(
    lclient: Any, night: tuple[str, list[dict[str, Any]]], name: str | None
) -> None:
    variant, actions = night
    scenario = next(s for s in SCENARIOS if s["name"] == variant)
    table = TableClient.create(lclient, {**scenario["table"], "name": name})
    for action in actions:
        hand = action.get("hand")
        expect = {"add": 201}.get(action["do"], 200)
        path = {
            "add": ("POST", "/hands", hand),
            "correct": (
                "PUT",
                f"/hands/{action.get('number')}",
                {"hand": hand, "reason": action.get("reason")},
            ),
            "void": (
                "POST",
                f"/hands/{action.get('number')}/void",
                {"reason": action.get("reason")},
            ),
            "undo": ("POST", "/undo", None),
            "redo": ("POST", "/redo", None),
            "close": ("POST", "/close", None),
        }[action["do"]]
        response = lclient.open(
            table.path + path[1],
            method=path[0],
            json=path[2],
            headers={
                **table.auth(),
                "Idempotency-Key": new_key(),
                "If-Match": f'"{table.version}"',
            },
        )
        if response.status_code == expect:
            table.version = int(response.headers["ETag"].strip('"'))
    _same_table(lclient, table)
    text = _text(table, "?lang=en")
    assert _parse(lclient, text)["totals"] == table.get("/settlement")["totals"]
