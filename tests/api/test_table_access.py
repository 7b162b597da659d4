"""Who opens a table (SPEC §9 "Access"), on SQLite and on PostgreSQL: joining by code,
the QR code, tokens minted and revoked, deletion, idle expiry and purge (a fake clock),
the join rate limit (a fake clock, never a sleep) and polling the events with 304s."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa

from calculator.api import create_app
from calculator.store import Store, schema
from ledger_support import SCENARIOS
from tables_support import TableClient, new_key

GOSTOP = SCENARIOS[0]
HAND = GOSTOP["steps"][0]["hand"]
DAY = 86400
JOIN = "/v1/tables/join"


class FakeClock:
    """The store's clock, moved by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, *, days: float) -> None:
        self.now += days * DAY


def _app(checking: Any, database_url: str, **settings: Any) -> Any:
    built = create_app({"access_log": False, "database_url": database_url, **settings})
    built.test_client_class = checking.test_client_class
    return built


@pytest.fixture(scope="module")
def access_app(app: Any, database_url: str) -> Iterator[Any]:
    built = _app(app, database_url, join_rate="1000/minute")
    yield built
    built.extensions["gostop_store"].dispose()


@pytest.fixture
def lclient(access_app: Any) -> Any:
    return access_app.test_client()


@pytest.fixture
def clock(access_app: Any) -> Iterator[FakeClock]:
    store = access_app.extensions["gostop_store"]
    real = store.clock
    store.clock = FakeClock(real())
    yield store.clock
    store.clock = real


def _table(lclient: Any) -> TableClient:
    return TableClient.create(lclient, GOSTOP["table"])


def _code(table: TableClient) -> str:
    code: str = table.get()["join_code"]
    return code


def _join(lclient: Any, code: str, expect: int = 201, **body: Any) -> Any:
    response = lclient.post(JOIN, json={"join_code": code, **body})
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def _delete(table: TableClient) -> None:
    response = table.client.delete(
        table.path, headers={**table.auth(), "If-Match": f'"{table.version}"'}
    )
    assert response.status_code == 204, response.get_json()


def _rows(access_app: Any, table_id: str) -> dict[str, int]:
    """How many rows the database holds about a table, per table of the schema."""
    store = access_app.extensions["gostop_store"]
    counts = {}
    with store.engine.begin() as c:
        for table in (schema.events, schema.hands, schema.tokens):
            counts[table.name] = c.execute(
                sa.select(sa.func.count()).where(table.c.table_id == table_id)
            ).scalar_one()
        counts["ledger_tables"] = c.execute(
            sa.select(sa.func.count()).where(schema.tables.c.id == table_id)
        ).scalar_one()
        counts["ledger_idempotency"] = c.execute(
            sa.select(sa.func.count()).where(schema.idempotency.c.scope == table_id)
        ).scalar_one()
    return counts


# --- joining -------------------------------------------------------------------------------


def test_join_by_code_gives_a_viewer_token(lclient: Any) -> None:
    table = _table(lclient)
    state = table.get()
    code = state["join_code"]
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{8}", code)
    assert state["join_url"] == f"http://localhost/?join={code}"
    response = lclient.post(JOIN, json={"join_code": code})
    assert response.status_code == 201
    assert response.headers["Location"] == table.path
    assert response.headers["ETag"] == '"1"'
    joined = response.get_json()
    assert (joined["id"], joined["version"], joined["role"]) == (table.id, 1, "viewer")
    assert re.fullmatch(r"joined \d{4}-\d\d-\d\d \d\d:\d\d", joined["label"])
    assert joined["join_url"] == state["join_url"]
    assert len(joined["viewer_token"]) >= 32
    assert table.get(token=joined["viewer_token"])["version"] == 1
    write = lclient.post(
        table.path + "/hands",
        json=HAND,
        headers={**table.auth(joined["viewer_token"]), "Idempotency-Key": new_key()},
    )
    assert write.status_code == 403
    labelled = _join(lclient, code, label="민지's phone")
    tokens = table.get("/tokens", token=labelled["viewer_token"])["tokens"]
    assert [t["label"] for t in tokens][-2:] == [joined["label"], "민지's phone"]
    assert [t["yours"] for t in tokens] == [False, False, False, True]
    assert joined["viewer_token"] not in str(tokens)


def test_a_join_link_under_an_invalid_host_is_relative(lclient: Any) -> None:
    # werkzeug gives no host for a Host header it finds invalid: the link is relative to
    # the service's root, not "http:/?join=…"
    for host in ("", "a b", "[::1"):
        created = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Host": host})
        assert created.status_code == 201, created.get_data(as_text=True)
        answer = created.get_json()
        assert answer["join_url"] == f"/?join={answer['join_code']}", host


def test_a_code_is_read_the_crockford_way(lclient: Any, access_app: Any) -> None:
    table = _table(lclient)
    store = access_app.extensions["gostop_store"]
    with store.engine.begin() as c:  # a code with the digits people misread
        c.execute(
            schema.tables.update()
            .where(schema.tables.c.id == table.id)
            .values(join_code="10ABCDEF")
        )
    for typed in ("10ABCDEF", "io-abcdef", " lo abc def ", "I0AB-CDEF", "10abcdef\u00a0"):
        assert _join(lclient, typed)["id"] == table.id, typed


def test_a_code_is_taken_as_people_paste_or_type_it(lclient: Any) -> None:
    """A code copied with its line break (or CRLF, a tab), a BOM before it, typed in a
    Korean keyboard's full width (전각), or the whole join link pasted: each was a 422
    (control_character, format_character, invalid_join_code, invalid_length)."""
    table = _table(lclient)
    code, link = _code(table), table.get()["join_url"]
    wide = "".join(chr(ord(c) + 0xFEE0) for c in code)  # U+FF10… : full-width ASCII
    for typed in (
        code + "\n",
        code + "\r\n",
        code[:4] + "\t" + code[4:],
        "\ufeff" + code,
        code[:4] + "\u200b" + code[4:],
        wide,
        wide[:4] + "\uff0d" + wide[4:] + "\u3000",  # a full-width hyphen and space
        link,
        f" {link}\n",
        link.replace("?join=", "?lang=ko&join="),
    ):
        assert _join(lclient, typed)["id"] == table.id, repr(typed)
    for bad in (code + "\n" + code, link.replace(code, code[:7]), "x" * 600):
        problem = _join(lclient, bad, 422)
        assert problem["errors"][0]["code"] == "invalid_join_code", repr(bad)
    # the message says what is read: I and L as 1 and O as 0 are taken, U is not
    detail = _join(lclient, "ZZZZZZZU", 422)["errors"][0]["detail"]
    assert "without U (any case; I and L read as 1, O as 0;" in detail
    assert "without I" not in detail


@pytest.mark.parametrize(
    ("body", "status", "pointer", "code"),
    [
        ({"join_code": "ZZZZZZZZ"}, 404, "", "unknown_join_code"),
        ({"join_code": "ZZZZ"}, 422, "/join_code", "invalid_join_code"),
        ({"join_code": "ZZZZZZZU"}, 422, "/join_code", "invalid_join_code"),  # no U
        ({"join_code": "ZZZZ-ZZZZ-Z"}, 422, "/join_code", "invalid_join_code"),
        ({}, 422, "/join_code", "required"),
        ({"join_code": 12345678}, 422, "/join_code", "invalid_type"),
        ({"join_code": "ZZZZZZZZ", "label": ""}, 422, "/label", "invalid_length"),
        ({"join_code": "ZZZZZZZZ", "role": "scorer"}, 422, "/role", "unknown_field"),
    ],
)
def test_a_bad_or_unknown_code(
    lclient: Any, body: dict[str, Any], status: int, pointer: str, code: str
) -> None:
    response = lclient.post(JOIN, json=body)
    assert response.status_code == status
    error = response.get_json()["errors"][0]
    assert (error["pointer"], error["code"]) == (pointer, code)


def test_codes_of_closed_and_deleted_tables_stop_working(lclient: Any) -> None:
    closed, deleted = _table(lclient), _table(lclient)
    closed_code, deleted_code = _code(closed), _code(deleted)
    closed.write("POST", "/close")
    assert _join(lclient, closed_code, 404)["errors"][0]["code"] == "unknown_join_code"
    assert closed.get()["closed"] is True  # still readable by its tokens
    _delete(deleted)
    assert _join(lclient, deleted_code, 404)["errors"][0]["code"] == "unknown_join_code"


def test_a_replayed_join_is_the_same_token_with_a_fresh_secret(lclient: Any) -> None:
    table = _table(lclient)
    code, key = _code(table), new_key()
    first = lclient.post(JOIN, json={"join_code": code}, headers={"Idempotency-Key": key})
    again = lclient.post(JOIN, json={"join_code": code}, headers={"Idempotency-Key": key})
    assert first.status_code == again.status_code == 201
    a, b = first.get_json(), again.get_json()
    assert a["id"] == b["id"] == table.id
    assert (a["token_id"], a["label"]) == (b["token_id"], b["label"])
    assert a["viewer_token"] != b["viewer_token"]
    assert len(table.get("/tokens")["tokens"]) == 3  # no second token
    table.get(token=b["viewer_token"])
    stale = lclient.get(table.path, headers=table.auth(a["viewer_token"]))
    assert stale.status_code == 404  # the first secret opens nothing any more
    other = lclient.post(
        JOIN, json={"join_code": code, "label": "x"}, headers={"Idempotency-Key": key}
    )
    assert (other.status_code, other.get_json()["errors"][0]["code"]) == (422, "key_reused")
    # join keys share one scope for everyone: as long as a create's
    short = lclient.post(JOIN, json={"join_code": code}, headers={"Idempotency-Key": "k" * 15})
    assert short.status_code == 422
    assert short.get_json()["errors"][0]["code"] == "weak_idempotency_key"
    # a refused join frees its key
    refused_key = new_key()
    body = {"join_code": "ZZZZZZZZ"}
    for _ in range(2):
        refused = lclient.post(JOIN, json=body, headers={"Idempotency-Key": refused_key})
        assert refused.status_code == 404


# --- the QR code ---------------------------------------------------------------------------


def test_the_qr_code_encodes_the_join_link(lclient: Any) -> None:
    import io

    import segno

    table = _table(lclient)
    code = _code(table)
    for token in (table.scorer, table.viewer):
        response = lclient.get(
            table.path + "/qr", headers=table.auth(token), base_url="https://gostop.example.org"
        )
        assert response.status_code == 200
        assert response.mimetype == "image/svg+xml"
        svg = response.get_data(as_text=True)
        assert svg.startswith("<svg")
        assert f"<title>Join table {code}</title>" in svg
    # the same modules as the join link drawn by segno itself (another link differs)
    paths = []
    for url in (f"https://gostop.example.org/?join={code}", f"https://other.example/?join={code}"):
        drawn = io.BytesIO()
        segno.make(url, error="m").save(drawn, kind="svg", omitsize=True, xmldecl=False)
        paths.append(re.search(r' d="([^"]+)"', drawn.getvalue().decode())[1])  # type: ignore[index]
    found = re.findall(r' d="([^"]+)"', svg)
    assert paths[0] in found
    assert paths[1] not in found
    assert lclient.get(table.path + "/qr").status_code == 401
    wrong = lclient.get(table.path + "/qr", headers=table.auth("not-a-token"))
    assert wrong.status_code == 404


def test_the_qr_code_has_the_tables_etag_and_a_closed_table_has_none(lclient: Any) -> None:
    """The QR code had no ETag (SPEC §9: every table answer carries one) and was drawn for
    a closed table, whose code joins nothing (404)."""
    table = _table(lclient)
    first = lclient.get(table.path + "/qr", headers=table.auth(table.viewer))
    assert (first.status_code, first.headers["ETag"]) == (200, '"1"')
    again = lclient.get(
        table.path + "/qr", headers={**table.auth(table.viewer), "If-None-Match": '"1"'}
    )
    assert (again.status_code, again.headers["ETag"], again.get_data()) == (304, '"1"', b"")
    code = _code(table)
    table.write("POST", "/close")
    for headers in ({}, {"If-None-Match": '"1"'}):  # the copy held is of the open table
        closed = lclient.get(table.path + "/qr", headers={**table.auth(table.viewer), **headers})
        assert closed.status_code == 404
        assert closed.get_json()["errors"][0]["code"] == "unknown_join_code"
    assert _join(lclient, code, 404)["errors"][0]["code"] == "unknown_join_code"  # as joining


# --- tokens --------------------------------------------------------------------------------


def test_a_minted_scorer_token_writes_under_its_label(lclient: Any) -> None:
    table = _table(lclient)
    response = lclient.post(
        table.path + "/tokens",
        json={"role": "scorer", "label": "민지's phone"},
        headers=table.auth(),
    )
    assert response.status_code == 201
    minted = response.get_json()
    assert (minted["role"], minted["label"]) == ("scorer", "민지's phone")
    assert minted["created_at"].endswith("Z")
    table.scorer, original = minted["token"], table.scorer
    table.write("POST", "/hands", HAND, expect=201)
    table.scorer = original
    table.write("POST", "/hands/1/void", {"reason": "twice"})
    events = table.get("/events")["events"]
    assert [e["by"] for e in events] == ["scorer", "민지's phone", "scorer"]
    listed = table.get("/tokens")["tokens"]
    assert [(t["role"], t["label"]) for t in listed] == [
        ("scorer", "scorer"),
        ("viewer", "viewer"),
        ("scorer", "민지's phone"),
    ]
    assert [t["yours"] for t in listed] == [True, False, False]
    assert minted["token_id"] == listed[2]["token_id"]
    assert minted["token"] not in str(listed)
    assert table.get()["version"] == 3  # tokens are not events


def test_a_minted_viewer_token_reads_only(lclient: Any) -> None:
    table = _table(lclient)
    minted = lclient.post(
        table.path + "/tokens", json={"role": "viewer", "label": "TV"}, headers=table.auth()
    ).get_json()
    assert table.get(token=minted["token"])["version"] == 1
    write = lclient.post(table.path + "/close", headers=table.auth(minted["token"]))
    assert write.status_code == 403


@pytest.mark.parametrize(
    ("body", "pointer", "code"),
    [
        ({"role": "owner", "label": "x"}, "/role", "not_allowed"),
        ({"role": "scorer"}, "/label", "required"),
        ({"role": "scorer", "label": "x" * 65}, "/label", "invalid_length"),
        ({"role": "scorer", "label": "a\u202eb"}, "/label", "format_character"),
    ],
)
def test_a_bad_token_request_is_a_422(
    lclient: Any, body: dict[str, Any], pointer: str, code: str
) -> None:
    table = _table(lclient)
    response = lclient.post(table.path + "/tokens", json=body, headers=table.auth())
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["pointer"], error["code"]) == (pointer, code)


def test_viewers_cannot_mint_or_revoke_and_strangers_see_nothing(lclient: Any) -> None:
    table, other = _table(lclient), _table(lclient)
    tokens = table.path + "/tokens"
    body = {"role": "scorer", "label": "x"}
    token_id = table.get("/tokens")["tokens"][1]["token_id"]
    viewer = table.auth(table.viewer)
    assert lclient.post(tokens, json=body, headers=viewer).status_code == 403
    assert lclient.delete(f"{tokens}/{token_id}", headers=viewer).status_code == 403
    for auth, status in (({}, 401), (other.auth(), 404), (table.auth("nope"), 404)):
        assert lclient.get(tokens, headers=auth).status_code == status
        assert lclient.post(tokens, json=body, headers=auth).status_code == status
        assert lclient.delete(f"{tokens}/{token_id}", headers=auth).status_code == status
    # another table's token id is no token of this table
    other_id = other.get("/tokens")["tokens"][1]["token_id"]
    answer = lclient.delete(f"{tokens}/{other_id}", headers=table.auth())
    assert (answer.status_code, answer.get_json()["errors"][0]["code"]) == (404, "unknown_token")
    assert other.get(token=other.viewer)["version"] == 1


def test_revoking_tokens_and_the_last_scorer(lclient: Any) -> None:
    table = _table(lclient)
    tokens = table.path + "/tokens"
    scorer_id, viewer_id = (t["token_id"] for t in table.get("/tokens")["tokens"])
    assert lclient.delete(f"{tokens}/{viewer_id}", headers=table.auth()).status_code == 204
    revoked = lclient.get(table.path, headers=table.auth(table.viewer))
    assert (revoked.status_code, revoked.get_json()["errors"][0]["code"]) == (404, "unknown_table")
    again = lclient.delete(f"{tokens}/{viewer_id}", headers=table.auth())
    assert (again.status_code, again.get_json()["errors"][0]["code"]) == (404, "unknown_token")
    last = lclient.delete(f"{tokens}/{scorer_id}", headers=table.auth())
    assert (last.status_code, last.get_json()["errors"][0]["code"]) == (409, "last_scorer_token")
    minted = lclient.post(
        tokens, json={"role": "scorer", "label": "민지's phone"}, headers=table.auth()
    ).get_json()
    # with another scorer, the caller may revoke its own token
    assert lclient.delete(f"{tokens}/{scorer_id}", headers=table.auth()).status_code == 204
    assert lclient.get(table.path, headers=table.auth()).status_code == 404
    table.scorer = minted["token"]
    assert [t["label"] for t in table.get("/tokens")["tokens"]] == ["민지's phone"]
    table.write("POST", "/close")  # the table lives on with its new scorer


def test_a_replayed_mint_is_the_same_token_with_a_fresh_secret(lclient: Any) -> None:
    table = _table(lclient)
    headers = {**table.auth(), "Idempotency-Key": "1"}  # a table's own scope: any key
    body = {"role": "viewer", "label": "TV"}
    first = lclient.post(table.path + "/tokens", json=body, headers=headers)
    again = lclient.post(table.path + "/tokens", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    a, b = first.get_json(), again.get_json()
    assert a["token"] != b["token"]
    assert {k: v for k, v in a.items() if k != "token"} == {
        k: v for k, v in b.items() if k != "token"
    }
    assert [t["label"] for t in table.get("/tokens")["tokens"]] == ["scorer", "viewer", "TV"]
    table.get(token=b["token"])
    assert lclient.get(table.path, headers=table.auth(a["token"])).status_code == 404
    other = lclient.post(table.path + "/tokens", json={**body, "label": "y"}, headers=headers)
    assert other.status_code == 422
    # a replay after the token was revoked mints nothing
    assert (
        lclient.delete(f"{table.path}/tokens/{a['token_id']}", headers=table.auth()).status_code
        == 204
    )
    gone = lclient.post(table.path + "/tokens", json=body, headers=headers)
    assert (gone.status_code, gone.get_json()["errors"][0]["code"]) == (404, "unknown_token")


def test_labels_are_unique_among_a_tables_tokens(lclient: Any, clock: FakeClock) -> None:
    """Events name their writer by the token's label: no scorer can mint another's."""
    table = _table(lclient)
    tokens = table.path + "/tokens"
    body = {"role": "scorer", "label": "민지's phone"}
    assert lclient.post(tokens, json=body, headers=table.auth()).status_code == 201
    again = lclient.post(tokens, json=body, headers=table.auth())
    assert (again.status_code, again.get_json()["errors"][0]["code"]) == (409, "label_taken")
    assert again.get_json()["errors"][0]["pointer"] == "/label"  # the field to change
    # nor one a reader cannot tell from it: in another case, width or encoding of its
    # letters, with spaces doubled (a probe minted "phone2" and "PHONE2")
    decomposed = unicodedata.normalize("NFD", "민지's phone")
    for alike in ("민지'S PHONE", "민지's  phone", decomposed, "민지＇s phone"):
        lookalike = lclient.post(tokens, json={**body, "label": alike}, headers=table.auth())
        assert (lookalike.status_code, lookalike.get_json()["errors"][0]["code"]) == (
            409,
            "label_taken",
        ), alike
        # the detail names the token that holds it, as its list shows it (to revoke it)
        assert 'labelled "민지\'s phone", which reads as' in lookalike.get_json()["detail"]
    assert 'labelled "민지\'s phone": events' in again.get_json()["detail"]
    # the create's own labels are the service's: refused even once their token is revoked
    built_in = lclient.post(
        tokens, json={"role": "viewer", "label": "scorer"}, headers=table.auth()
    )
    assert (built_in.status_code, built_in.get_json()["errors"][0]["code"]) == (
        422,
        "reserved_label",
    )
    # a join's label, given or by default, gets a free suffix
    code = _code(table)
    assert _join(lclient, code, label="민지's phone")["label"] == "민지's phone (2)"
    assert _join(lclient, code, label="민지's PHONE")["label"] == "민지's PHONE (3)"
    assert _join(lclient, code, label="x" * 64)["label"] == "x" * 64
    assert _join(lclient, code, label="x" * 64)["label"] == "x" * 60 + " (2)"
    defaults = [_join(lclient, code)["label"] for _ in range(3)]  # the same minute
    assert defaults[1:] == [defaults[0] + " (2)", defaults[0] + " (3)"]
    labels = [t["label"] for t in table.get("/tokens")["tokens"]]
    assert len(labels) == len(set(labels)) == 10
    # a replayed create's fresh tokens too
    key = new_key()
    created = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    replayed = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    again_table = TableClient(lclient, replayed.get_json())
    assert created.get_json()["id"] == again_table.id
    assert [t["label"] for t in again_table.get("/tokens")["tokens"]] == [
        "scorer",
        "viewer",
        "scorer (2)",
        "viewer (2)",
    ]


def test_a_table_holds_at_most_100_tokens(lclient: Any, access_app: Any) -> None:
    from calculator.api.table_tokens import MAX_TOKENS, mint

    assert MAX_TOKENS == 100
    table = _table(lclient)
    store = access_app.extensions["gostop_store"]
    more = tuple(mint("viewer", label=f"phone {n}")[1] for n in range(MAX_TOKENS - 3))
    assert store.add_tokens(table.id, more, most=MAX_TOKENS, rename=False).state == "added"
    tokens = table.path + "/tokens"
    last = lclient.post(tokens, json={"role": "viewer", "label": "TV"}, headers=table.auth())
    assert last.status_code == 201
    for refused in (
        lclient.post(tokens, json={"role": "viewer", "label": "TV 2"}, headers=table.auth()),
        lclient.post(JOIN, json={"join_code": _code(table)}),
    ):
        assert refused.status_code == 409
        assert refused.get_json()["errors"][0]["code"] == "too_many_tokens"
    assert len(table.get("/tokens")["tokens"]) == MAX_TOKENS
    revoked = lclient.delete(f"{tokens}/{last.get_json()['token_id']}", headers=table.auth())
    assert revoked.status_code == 204
    _join(lclient, _code(table))  # a place again


def test_a_poll_reads_one_token_whatever_the_table_holds(
    lclient: Any, access_app: Any, monkeypatch: Any
) -> None:
    """A request's token is looked up by its hash: the rows a poll reads do not grow with
    the tokens of the table (counted, not timed)."""
    from calculator.api.table_tokens import MAX_TOKENS, mint

    table = _table(lclient)
    store = access_app.extensions["gostop_store"]
    more = tuple(mint("viewer", label=f"phone {n}")[1] for n in range(MAX_TOKENS - 2))
    assert store.add_tokens(table.id, more, most=MAX_TOKENS, rename=False).state == "added"
    fetched: list[int] = []
    alone = store._alone  # the connection single reads run on

    class Counting:
        def __init__(self, cursor: Any) -> None:
            self.cursor = cursor
            self.sql = ""

        def __getattr__(self, name: str) -> Any:
            return getattr(self.cursor, name)

        def execute(self, sql: str, *args: Any) -> Any:
            self.sql = sql
            return self.cursor.execute(sql, *args)

        def fetchone(self) -> Any:
            row = self.cursor.fetchone()
            if not self.sql.startswith("PRAGMA data_version"):  # SQLite: has anything changed?
                fetched.append(row is not None)
            return row

        def fetchall(self) -> Any:
            rows = self.cursor.fetchall()
            fetched.append(len(rows))
            return rows

    @contextmanager
    def counting() -> Iterator[Any]:
        with alone() as cursor:
            yield Counting(cursor)

    monkeypatch.setattr(store, "_alone", counting)
    for token in (table.scorer, table.viewer):
        poll = lclient.get(
            table.path, headers={**table.auth(token), "If-None-Match": f'"{table.version}"'}
        )
        assert poll.status_code == 304
    assert fetched == [1, 1]
    # unknown, another table's or no token: the same single lookup, the same 404
    other = _table(lclient)
    fetched.clear()
    for token in ("nope", other.scorer):
        assert lclient.get(table.path, headers=table.auth(token)).status_code == 404
    assert fetched == [1, 1]
    assert lclient.get("/v1/tables/not-a-table", headers=table.auth()).status_code == 404
    assert fetched == [1, 1]  # an id that is no UUID never reaches the database


@pytest.mark.parametrize("suffix", ["", "/events", "/settlement"])
def test_a_304_goes_only_where_the_full_read_goes(
    lclient: Any, clock: FakeClock, suffix: str
) -> None:
    """A poll naming the table's current version gets its 304 through the same checks as
    a full read: no token 401; a revoked token, another table's, a deleted or an expired
    table 404 — never a 304. And a tag that names no version exactly ("03", "*" beside
    one, two versions) gets the whole answer, not one read without the summary."""
    table, other = _table(lclient), _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    path = table.path + suffix
    current = f'"{table.version}"'
    full = lclient.get(path, headers=table.auth())
    assert full.status_code == 200
    for tag in ("W/" + current, current[:-1] + '-gzip"', f'"1", {current}', "*"):
        poll = lclient.get(path, headers={**table.auth(table.viewer), "If-None-Match": tag})
        assert (poll.status_code, poll.data, poll.headers["ETag"]) == (304, b"", current), tag
        assert "Content-Type" not in poll.headers
        assert "Content-Length" not in poll.headers
    for tag in ('"02"', '"1", "3"', '"1"', "garbage", '"99999999999999999999"'):
        poll = lclient.get(path, headers={**table.auth(), "If-None-Match": tag})
        assert (poll.status_code, poll.get_json()) == (200, full.get_json()), tag
    polled = {"If-None-Match": current}
    assert lclient.get(path, headers=polled).status_code == 401
    for token in ("nope", other.scorer, other.viewer):
        assert lclient.get(path, headers={**table.auth(token), **polled}).status_code == 404
    viewer_id = table.get("/tokens")["tokens"][1]["token_id"]
    revoked = lclient.delete(f"{table.path}/tokens/{viewer_id}", headers=table.auth())
    assert revoked.status_code == 204
    assert lclient.get(path, headers={**table.auth(table.viewer), **polled}).status_code == 404
    assert lclient.get(path, headers={**table.auth(), **polled}).status_code == 304
    clock.advance(days=31)  # idle past the TTL: gone, though nothing was purged
    assert lclient.get(path, headers={**table.auth(), **polled}).status_code == 404
    clock.advance(days=-31)
    assert lclient.get(path, headers={**table.auth(), **polled}).status_code == 304
    _delete(table)
    assert lclient.get(path, headers={**table.auth(), **polled}).status_code == 404


# --- deletion ------------------------------------------------------------------------------


def test_delete_needs_the_scorer_and_the_version(lclient: Any, access_app: Any) -> None:
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)
    keyed = table.path + "/hands"
    replayable = {**table.auth(), "Idempotency-Key": new_key(), "If-Match": '"2"'}
    assert lclient.post(keyed, json=HAND, headers=replayable).status_code == 201
    joined = _join(lclient, _code(table))
    code = _code(table)
    viewer = lclient.delete(table.path, headers={**table.auth(table.viewer), "If-Match": '"3"'})
    assert viewer.status_code == 403
    missing = lclient.delete(table.path, headers=table.auth())
    assert (missing.status_code, missing.get_json()["errors"][0]["code"]) == (
        428,
        "precondition_required",
    )
    stale = lclient.delete(table.path, headers={**table.auth(), "If-Match": '"2"'})
    assert (stale.status_code, stale.headers["ETag"]) == (412, '"3"')
    assert _rows(access_app, table.id) == {
        "ledger_events": 3,
        "ledger_hands": 2,
        "ledger_tokens": 3,
        "ledger_tables": 1,
        "ledger_idempotency": 2,
    }
    deleted = lclient.delete(table.path, headers={**table.auth(), "If-Match": 'W/"3"'})
    assert (deleted.status_code, deleted.data) == (204, b"")
    # an empty answer has no Content-Type, and a deleted table no version to tag
    assert ("Content-Type" in deleted.headers, "ETag" in deleted.headers) == (False, False)
    assert set(_rows(access_app, table.id).values()) == {0}
    for token in (table.scorer, table.viewer, joined["viewer_token"]):
        for suffix in ("", "/events", "/settlement", "/tokens", "/qr"):
            assert lclient.get(table.path + suffix, headers=table.auth(token)).status_code == 404
    assert lclient.post(keyed, json=HAND, headers=replayable).status_code == 404
    assert (
        lclient.delete(table.path, headers={**table.auth(), "If-Match": '"3"'}).status_code == 404
    )
    assert _join(lclient, code, 404)["errors"][0]["code"] == "unknown_join_code"


def test_a_replayed_create_of_a_deleted_table_is_a_404(lclient: Any) -> None:
    key = new_key()
    created = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    table = TableClient(lclient, created.get_json())
    _delete(table)
    again = lclient.post("/v1/tables", json=GOSTOP["table"], headers={"Idempotency-Key": key})
    assert (again.status_code, again.get_json()["errors"][0]["code"]) == (404, "unknown_table")


# --- expiry --------------------------------------------------------------------------------


def test_an_idle_table_expires_and_is_purged(
    lclient: Any, access_app: Any, clock: FakeClock
) -> None:
    """Tables made 60 days ago by the fake clock: the other tests' tables, made now, are
    not idle, and no purge here touches them."""
    from calculator.api.table_writes import iso_time

    store: Store = access_app.extensions["gostop_store"]
    assert store.idle_seconds == 30 * DAY  # GOSTOP_TABLE_TTL_DAYS' default
    clock.advance(days=-60)
    table, idle = _table(lclient), _table(lclient)
    code = _code(table)
    clock.advance(days=29)
    table.write("POST", "/hands", HAND, expect=201)  # an event: 30 more days
    assert table.get("/events")["events"][-1]["at"] == iso_time(clock.now)
    clock.advance(days=29.9)  # idle 29.9 days: readable; the other one, 58.9: gone
    assert table.get()["version"] == 2
    assert lclient.get(idle.path, headers=idle.auth()).status_code == 404
    assert _rows(access_app, idle.id)["ledger_tables"] == 1  # unreadable until purged
    assert store.purge_idle() == 1
    assert set(_rows(access_app, idle.id).values()) == {0}
    clock.advance(days=0.2)  # 30.1 days since the hand: gone everywhere
    for suffix in ("", "/events", "/settlement", "/tokens", "/qr"):
        for token in (table.scorer, table.viewer):
            response = lclient.get(table.path + suffix, headers=table.auth(token))
            assert response.status_code == 404, suffix
    table.write("POST", "/hands", HAND, expect=404)
    assert (
        lclient.delete(table.path, headers={**table.auth(), "If-Match": '"2"'}).status_code == 404
    )
    assert _join(lclient, code, 404)["errors"][0]["code"] == "unknown_join_code"
    assert store.purge_idle() == 1
    assert set(_rows(access_app, table.id).values()) == {0}
    assert store.purge_idle() == 0


def test_gostop_db_purge_prints_how_many(tmp_path: Any, monkeypatch: Any, capsys: Any) -> None:
    import time

    from calculator.api.cli import main
    from calculator.store import EventRow, TokenRow

    url = f"sqlite:///{tmp_path}/night.sqlite3"
    monkeypatch.setenv("GOSTOP_DATABASE_URL", url)
    monkeypatch.setenv("GOSTOP_TABLE_TTL_DAYS", "7")
    ages = {"a" * 8: 8, "b" * 8: 6, "c" * 8: 30}  # days since each table's last event
    store = Store(url)
    store.migrate()
    for code, days in ages.items():
        store.clock = lambda days=days: time.time() - days * DAY  # type: ignore[misc]
        assert store.create(
            table_id=code * 4 + "x" * 4,
            join_code=code.upper(),
            created_at=store.clock(),
            event=EventRow(seq=1, type="created", by="scorer", at="t", body="{}"),
            summary="{}",
            tokens=[TokenRow(hash=code * 8, role="scorer", label="scorer")],
        )
    store.dispose()
    assert main(["db", "purge"]) == 0
    assert capsys.readouterr().out.strip() == "purged 2 idle tables"
    assert main(["db", "purge"]) == 0
    assert capsys.readouterr().out.strip() == "purged 0 idle tables"
    monkeypatch.setenv("GOSTOP_TABLE_TTL_DAYS", "5")  # "b"'s 6 days: one table, said so
    assert main(["db", "purge"]) == 0
    assert capsys.readouterr().out.strip() == "purged 1 idle table"
    monkeypatch.setenv("GOSTOP_TABLE_TTL_DAYS", "7")
    monkeypatch.setenv("GOSTOP_TABLE_TTL_DAYS", "0")  # 0: tables never expire
    assert main(["db", "purge"]) == 0
    assert capsys.readouterr().out.strip() == "purged 0 idle tables"


# --- polling -------------------------------------------------------------------------------


def test_polling_the_events_after_what_a_phone_holds(lclient: Any) -> None:
    table = _table(lclient)
    events = table.path + "/events?after=1"
    first = lclient.get(events, headers=table.auth(table.viewer))
    assert (first.status_code, first.get_json()["events"], first.headers["ETag"]) == (
        200,
        [],
        '"1"',
    )
    polled = {**table.auth(table.viewer), "If-None-Match": first.headers["ETag"]}
    assert lclient.get(events, headers=polled).status_code == 304
    table.write("POST", "/hands", HAND, expect=201)
    changed = lclient.get(events, headers=polled)
    assert changed.status_code == 200
    assert changed.headers["ETag"] == '"2"'
    assert [e["seq"] for e in changed.get_json()["events"]] == [2]
    polled["If-None-Match"] = changed.headers["ETag"]
    assert lclient.get(table.path + "/events?after=2", headers=polled).status_code == 304
    assert lclient.get(table.path, headers=polled).status_code == 304


# --- the rate limit ------------------------------------------------------------------------


def test_joins_are_limited_per_client_address(app: Any, database_url: str) -> None:
    import time

    import time_machine

    limited = _app(app, database_url, join_rate="3/minute")
    client = limited.test_client()
    table = TableClient.create(client, GOSTOP["table"])
    code = _code(table)
    phone = {"REMOTE_ADDR": "192.0.2.10"}
    with time_machine.travel(time.time(), tick=False) as traveller:
        for body in ({"join_code": code}, {"join_code": "ZZZZZZZZ"}, {"join_code": "bad"}):
            allowed = client.post(JOIN, json=body, environ_base=phone)  # every attempt counts
            assert allowed.status_code != 429
        traveller.shift(30)
        refused = client.post(JOIN, json={"join_code": code}, environ_base=phone)
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "30"
        assert refused.mimetype == "application/problem+json"
        assert refused.get_json()["errors"][0]["code"] == "rate_limited"
        other = client.post(JOIN, json={"join_code": code}, environ_base={"REMOTE_ADDR": "::1"})
        assert other.status_code == 201  # another address has its own count
        # an IPv6 client counts per /64: rotating through its own prefix gains nothing
        for n in range(1, 5):
            rotated = client.post(
                JOIN,
                json={"join_code": code},
                environ_base={"REMOTE_ADDR": f"2001:db8:1:2::{n:x}"},
            )
            assert rotated.status_code == (201 if n <= 3 else 429), n
        neighbour = {"REMOTE_ADDR": "2001:db8:1:3::1"}  # the next /64: someone else
        assert (
            client.post(JOIN, json={"join_code": code}, environ_base=neighbour).status_code == 201
        )
        # X-Forwarded-For is anyone's to send: not believed unless a proxy is trusted
        spoofed = client.post(
            JOIN,
            json={"join_code": code},
            environ_base=phone,
            headers={"X-Forwarded-For": "203.0.113.9"},
        )
        assert spoofed.status_code == 429
        traveller.shift(31)  # a minute after the first three
        assert client.post(JOIN, json={"join_code": code}, environ_base=phone).status_code == 201
    limited.extensions["gostop_store"].dispose()


def test_behind_a_trusted_proxy_the_forwarded_address_counts(app: Any, database_url: str) -> None:
    import time

    import time_machine

    proxied = _app(app, database_url, join_rate="1/minute", trusted_proxies=1)
    client = proxied.test_client()
    table = TableClient.create(client, GOSTOP["table"])
    code = _code(table)
    proxy = {"REMOTE_ADDR": "127.0.0.1"}  # nginx on the same machine
    with time_machine.travel(time.time(), tick=False):
        for phone, status in (("198.51.100.1", 201), ("198.51.100.2", 201), ("198.51.100.1", 429)):
            response = client.post(
                JOIN,
                json={"join_code": code},
                environ_base=proxy,
                headers={"X-Forwarded-For": phone, "X-Forwarded-Proto": "https"},
            )
            assert response.status_code == status, phone
            if status == 201:
                assert response.get_json()["join_url"].startswith("https://localhost/")
    proxied.extensions["gostop_store"].dispose()


@pytest.mark.parametrize(
    "settings", [{"table_ttl_days": -1}, {"join_rate": "lots"}, {"join_rate": "10 per"}]
)
def test_bad_access_settings_stop_the_start(settings: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"GOSTOP_(TABLE_TTL_DAYS|JOIN_RATE) is"):
        create_app({"access_log": False, "migrate_on_start": False, **settings})


@pytest.mark.parametrize(
    ("header", "named"),
    [
        ('"7"', {"7"}),
        ('"٣"', {"٣"}),  # a digit, not an ASCII one: named as given, never version 3
        ('W/"7"', {"7"}),
        ('"7-gzip"', {"7"}),
        (' "7" ', {"7"}),
        ('"1", W/"2"', {"1", "2"}),
        ("*", {"*"}),
        ('""', {""}),
        ("7", set()),
    ],
)
def test_the_versions_a_tag_names(header: str, named: set[str]) -> None:
    from calculator.api.table_etags import versions

    assert versions(header) == named


@pytest.mark.parametrize(
    "extra",
    [
        [],
        # every entity header werkzeug strips from a 304, and the two it keeps
        [
            ("Allow", "GET"),
            ("Content-Encoding", "gzip"),
            ("Content-Language", "ko"),
            ("Content-MD5", "x"),
            ("Content-Range", "bytes 0-1/2"),
            ("Content-Type", "application/json"),
            ("Expires", "0"),
            ("Last-Modified", "Thu, 03 Dec 2026 00:00:00 GMT"),
            ("vary", "Origin"),
            ("X-Two", "1"),
            ("X-Two", "2"),
        ],
        [("Content-Location", "/v1/tables/한"), ("Location", "/v1/tables/x")],  # as URLs
    ],
)
def test_a_304_sends_what_werkzeug_would(app: Any, extra: list[tuple[str, str]]) -> None:
    """The 304's own way out (one pass over its headers) sends the status, headers and
    (empty) body werkzeug's would, whatever the after-request hooks added."""
    from flask import Response
    from werkzeug.test import EnvironBuilder

    from calculator.api.table_etags import not_modified

    environ = EnvironBuilder(path="/v1/tables/x", headers={"If-None-Match": '"7"'}).get_environ()
    with app.request_context(environ):
        response = not_modified(7)
    assert response is not None
    for name, value in extra:
        response.headers.add(name, value)
    ours = response.get_wsgi_response(environ)
    werkzeugs = Response.get_wsgi_response(response, environ)
    assert (list(ours[0]), ours[1], ours[2]) == (list(werkzeugs[0]), werkzeugs[1], werkzeugs[2])
    assert ours[1] == "304 NOT MODIFIED"


def test_a_304_with_something_to_call_on_close_calls_it(app: Any) -> None:
    """A 304 with a function registered to run when it is closed goes werkzeug's way,
    whose closing iterator calls it; so does one a hook turned into another status."""
    from werkzeug.test import EnvironBuilder

    from calculator.api.table_etags import not_modified

    environ = EnvironBuilder(path="/v1/tables/x").get_environ()
    with app.request_context(environ):
        response, changed = not_modified(7, {"7"}), not_modified(7, {"7"})
    assert response is not None
    assert changed is not None
    called: list[str] = []
    response.call_on_close(lambda: called.append("closed"))
    body, status, _headers = response.get_wsgi_response(environ)
    assert (list(body), status, called) == ([], "304 NOT MODIFIED", [])
    body.close()  # type: ignore[attr-defined]  # what every WSGI server does when it is sent
    assert called == ["closed"]
    changed.status_code = 200
    assert changed.get_wsgi_response(environ)[1] == "200 OK"


def test_a_refused_write_carries_the_tables_etag(lclient: Any) -> None:
    """Every table answer carries ETag: "<version>" (SPEC §9), the refusals of a table the
    token opened too: a client reads the version there, not in the detail."""
    table = _table(lclient)  # version 1
    scorer = {**table.auth(), "Idempotency-Key": new_key(), "If-Match": '"1"'}

    def refused(status: int, code: str, **request: Any) -> None:
        response = lclient.open(**request)
        assert response.status_code == status, response.get_data(as_text=True)
        assert response.get_json()["errors"][0]["code"] == code
        assert response.headers["ETag"] == '"1"'

    viewer = {**scorer, **table.auth(table.viewer)}
    refused(403, "read_only_token", path=table.path + "/undo", method="POST", headers=viewer)
    missing = {k: v for k, v in scorer.items() if k != "If-Match"}
    refused(428, "precondition_required", path=table.path + "/undo", method="POST", headers=missing)
    refused(409, "nothing_to_undo", path=table.path + "/undo", method="POST", headers=scorer)
    bad = {"players": [{"id": "A", "captured": ["01-bright", "01-bright"]}, {"id": "B"}]}
    response = lclient.post(table.path + "/hands", json=bad, headers=scorer)
    assert response.status_code == 422
    assert response.headers["ETag"] == '"1"'
    # no token, no table: nothing to tell
    assert "ETag" not in lclient.post(table.path + "/undo").headers


def test_the_token_answers_carry_the_tables_etag(lclient: Any) -> None:
    """SPEC §9: every table answer carries ``ETag: "<version>"`` — the token list, a mint
    (its replay too) and a revoke, whose 204 is empty and says no Content-Type. Tokens
    are no events: the version stays."""
    table = _table(lclient)
    table.write("POST", "/hands", HAND, expect=201)  # version 2
    tokens = table.path + "/tokens"
    listed = lclient.get(tokens, headers=table.auth(table.viewer))
    assert (listed.status_code, listed.headers["ETag"]) == (200, '"2"')
    key = {"Idempotency-Key": new_key()}
    body = {"role": "viewer", "label": "TV"}
    for replay in (False, True):
        minted = lclient.post(tokens, json=body, headers={**table.auth(), **key})
        assert (minted.status_code, minted.headers["ETag"]) == (201, '"2"')
        assert ("Idempotent-Replayed" in minted.headers) is replay
    revoked = lclient.delete(f"{tokens}/{minted.get_json()['token_id']}", headers=table.auth())
    assert (revoked.status_code, revoked.data, revoked.headers["ETag"]) == (204, b"", '"2"')
    assert "Content-Type" not in revoked.headers
    assert table.get()["version"] == 2
